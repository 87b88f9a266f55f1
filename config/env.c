/* env.c — the table of EXBLAS_* variables and their reading (env.h). */
#include "env.h"

#include <stdlib.h>
#include <string.h>

const dfs_env_info dfs_env_table[DFS_ENV_COUNT] = {
#define DFS_ENV_ROW(id, name, def, meaning) {name, def, meaning},
    DFS_ENV_VARS(DFS_ENV_ROW)
#undef DFS_ENV_ROW
};

const char *dfs_env(dfs_env_var v)
{
    return v >= 0 && v < DFS_ENV_COUNT ? secure_getenv(dfs_env_table[v].name) : NULL;
}

int dfs_env_on(dfs_env_var v)
{
    const char *s = dfs_env(v);
    return s && *s && strcmp(s, "0");
}
