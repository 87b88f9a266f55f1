/* common.h — helpers shared by exblas-bench and exblas-run. */
#ifndef DFS_TOOLS_COMMON_H
#define DFS_TOOLS_COMMON_H

#include <stddef.h>

/* Where the tools find libdfshim.so: ../shim/libdfshim.so next to the executable's directory
 * (the build tree), else the installed copy (DFS_INSTALLED_SHIM). */
void dfs_default_shim(char *out, size_t len);

/* Prints a CSV field on stdout, quoted if needed (a mode may hold commas: NAME:key=v,key=v). */
void dfs_csv_field(const char *s);

/* The median of v[0..n-1] (sorts v). */
double dfs_median(double *v, int n);

#endif
