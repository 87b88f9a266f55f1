/* f32_gemm.h — DGEMM by the Ozaki scheme on binary32 products (the ozaki-sgemm engine;
 * f32_gemm.c). */
#ifndef DFS_OZ_F32_GEMM_H
#define DFS_OZ_F32_GEMM_H

#include "../engine.h"

#include <stddef.h>

/* C from `splits` (2 or 3) binary32 parts per operand, the slice products on cuBLAS SGEMM;
 * at most `workspace` bytes of scratch.  DFS_STATUS_DECLINED (nothing written) when it cannot
 * take the call: k above 2^22, no kernels, no workspace. */
cublasStatus_t dfs_f32_dgemm_gpu(const dfs_ctx *x, const dfs_gemm_call *c, int splits,
                                 size_t workspace);

#endif
