/* env_core.c — dfs_env_configure_core (env.h): the environment's settings handed to the core.
 * Apart from env.c so that reading the table pulls in nothing of the core. */
#include "env.h"

#include "../core/gpu.h"
#include "../core/log.h"

#include <pthread.h>

static pthread_once_t core_once = PTHREAD_ONCE_INIT;

static void configure_core(void)
{
    dfs_log_configure(dfs_env(DFS_ENV_LOG), dfs_env(DFS_ENV_LOG_FILE));
    dfs_scratch_refuse_all(dfs_env_on(DFS_ENV_TEST_NO_WORKSPACE));
}

void dfs_env_configure_core(void)
{
    pthread_once(&core_once, configure_core);
}
