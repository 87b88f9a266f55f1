/* shimpath.c — see shimpath.h. */
#include "shimpath.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

void dfs_default_shim(char *out, size_t len)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    char *slash = NULL;
    if (n > 0) {
        exe[n] = '\0';
        slash = strrchr(exe, '/');
    }
    if (slash) {
        *slash = '\0';
        snprintf(out, len, "%s/../shim/libdfshim.so", exe);
        if (!access(out, R_OK))
            return;
    }
#ifdef DFS_INSTALLED_SHIM
    if (!access(DFS_INSTALLED_SHIM, R_OK) || !slash)
        snprintf(out, len, "%s", DFS_INSTALLED_SHIM);
#endif
}
