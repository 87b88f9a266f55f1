/* dispatch.h — from a validated call record to the engine that computes it. */
#ifndef DFS_DISPATCH_H
#define DFS_DISPATCH_H

#include "../engines/engine.h"
#include "check.h"

cublasStatus_t dfs_dispatch_gemm(cublasHandle_t h, const dfs_gemm_call *c, dfs_args args);
cublasStatus_t dfs_dispatch_gemv(cublasHandle_t h, const dfs_gemv_call *c, dfs_args args);
cublasStatus_t dfs_dispatch_dot(cublasHandle_t h, const dfs_dot_call *c, dfs_args args);
/* A GemmEx-family call that is not FP64: forwarded untouched, only traced. */
void dfs_trace_forwarded(const char *api, int64_t m, int64_t n, int64_t k, cublasStatus_t st);

#endif
