/* bench-preload.h — exblas-bench's preloading of the shim into itself. */
#ifndef DFS_TOOLS_BENCH_PRELOAD_H
#define DFS_TOOLS_BENCH_PRELOAD_H

/* Returns with libdfshim loaded in this process (shim: its path, NULL for dfs_default_shim), or
 * with none loaded when no_shim, or re-executes the program (argv) with LD_PRELOAD changed so
 * that it is; exits with status 2 (a line on stderr) when that cannot be done. */
void dfs_bench_ensure_shim(int no_shim, const char *shim, char **argv);

#endif
