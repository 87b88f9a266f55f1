/* check.h — cuBLAS's argument rules for the intercepted routines, as pure functions.
 * The shim sends every call that is invalid, or a quick return, straight to the real cuBLAS (so
 * the status and side effects are cuBLAS's own); only valid, non-trivial calls reach engines.
 * The statuses predicted here (status, when not NULL: the shim passes NULL, since cuBLAS itself
 * answers those calls) are checked against the real cuBLAS by the GPU suite, which is how the
 * classification is known to be cuBLAS's. */
#ifndef DFS_CHECK_H
#define DFS_CHECK_H

#include "../engines/engine.h"

#include <cublas_api.h>
#include <stdint.h>

typedef enum {
    DFS_ARGS_OK,      /* valid and non-trivial: an engine may compute it */
    DFS_ARGS_QUICK,   /* cuBLAS returns SUCCESS early (nothing, or only C = beta*C, to do) */
    DFS_ARGS_INVALID, /* cuBLAS rejects it; *status says with what */
    DFS_ARGS_NATIVE,  /* cuBLAS accepts it, but what it computes is not specified (or not known
                       * here): cuBLAS's own, never an engine's */
} dfs_args;

/* GEMM; `ex` is 1 for the GemmEx forms (algo checked; cuBLAS 13.1's GemmStridedBatchedEx
 * returns SUCCESS for batchCount < 0, DgemmStridedBatched INVALID_VALUE).  Plain GEMM passes
 * batch = 1. */
dfs_args dfs_check_gemm(cublasHandle_t h, int ex, cublasOperation_t ta, cublasOperation_t tb,
                        int64_t m, int64_t n, int64_t k, int64_t lda, int64_t ldb, int64_t ldc,
                        int64_t batch, cublasGemmAlgo_t algo, cublasStatus_t *status);
dfs_args dfs_check_gemv(cublasHandle_t h, cublasOperation_t trans, int64_t m, int64_t n, int64_t lda,
                        int64_t incx, int64_t incy, cublasStatus_t *status);
dfs_args dfs_check_dot(cublasHandle_t h, int64_t n, const double *result, cublasStatus_t *status);
/* Which GemmEx-family calls are FP64 products the engines may take: A, B and C all CUDA_R_64F
 * (1) or all CUDA_C_64F (2) with CUBLAS_COMPUTE_64F; 0 for every other call (the pedantic and
 * emulated compute types included), which the hooks forward untouched. */
int dfs_check_ex_types(cudaDataType at, cudaDataType bt, cudaDataType ct,
                       cublasComputeType_t ctype);
/* The Level-3 routines beside GEMM (check_l3.c): the record as the hook filled it. */
dfs_args dfs_check_l3(cublasHandle_t h, const dfs_l3_call *c, cublasStatus_t *status);

#endif
