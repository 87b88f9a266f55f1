/* shimpath.h — where the tools find libdfshim.so: ../shim/libdfshim.so next to the executable's
 * directory (the build tree), else the installed copy (DFS_INSTALLED_SHIM). */
#ifndef DFS_SHIMPATH_H
#define DFS_SHIMPATH_H

#include <stddef.h>

void dfs_default_shim(char *out, size_t len);

#endif
