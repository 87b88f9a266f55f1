/* vec.h — the reproducible engine's DDOT and DGEMV on the GPU (vec.c). */
#ifndef DFS_OZ_VEC_HOST_H
#define DFS_OZ_VEC_HOST_H

#include "../engine.h"

cublasStatus_t dfs_oz_ddot_gpu(const dfs_ctx *x, const dfs_dot_call *c);
cublasStatus_t dfs_oz_dgemv_gpu(const dfs_ctx *x, const dfs_gemv_call *c);

#endif
