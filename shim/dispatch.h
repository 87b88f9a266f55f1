/* dispatch.h — from a validated call record to the engine that computes it. */
#ifndef DFS_DISPATCH_H
#define DFS_DISPATCH_H

#include "../engines/engine.h"
#include "check.h"

cublasStatus_t dfs_dispatch_gemm(cublasHandle_t h, const dfs_gemm_call *c, dfs_args args);
cublasStatus_t dfs_dispatch_gemv(cublasHandle_t h, const dfs_gemv_call *c, dfs_args args);
cublasStatus_t dfs_dispatch_dot(cublasHandle_t h, const dfs_dot_call *c, dfs_args args);
cublasStatus_t dfs_dispatch_l3(cublasHandle_t h, const dfs_l3_call *c, dfs_args args);
/* For the hooks that fill a record from an entry point's types: the element type of T, and
 * whether a scalar of type S is one double (dfs_l3_call.alpha_real, beta_real). */
#define DFS_TYPE_OF(T) (sizeof(T) == sizeof(cuDoubleComplex) ? DFS_C64 : DFS_R64)
#define DFS_SCALAR_REAL(S) (sizeof(S) == sizeof(double))

/* A GEMM that reached the shim through another API than cuBLAS's (cublasLtMatmul), computed on
 * an internal handle h: `native` runs the original call (instead of the native engine), and
 * `stage`, when not NULL, runs on the handle's stream just before an engine computes the record
 * (a failure sends the call to `native`). */
typedef struct {
    cublasStatus_t (*native)(void *arg);
    cublasStatus_t (*stage)(void *arg, cudaStream_t stream);
    void *arg;
} dfs_foreign;
cublasStatus_t dfs_dispatch_gemm_foreign(cublasHandle_t h, const dfs_gemm_call *c, dfs_args args,
                                         const dfs_foreign *f);
/* 1 while an engine or a forwarded call runs on this thread (its cuBLAS calls are not routed). */
int dfs_dispatch_nested(void);
/* A GemmEx-family call that is not FP64: forwarded untouched, only traced. */
void dfs_trace_forwarded(const char *api, int64_t m, int64_t n, int64_t k, cublasStatus_t st);

#endif
