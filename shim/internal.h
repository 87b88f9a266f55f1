/* internal.h — the cuBLAS handles the shim creates for calls that come without one: the legacy
 * API (cublas.h) and cuBLASLt's cublasLtMatmul.  One per CUDA context and user, created on first
 * use with the real cublasCreate_v2 and kept for the life of the process (the legacy API's
 * cublasShutdown drops its own).  Contexts are told apart by cuCtxGetId, so a context created
 * where a destroyed one was never inherits its handle. */
#ifndef DFS_INTERNAL_H
#define DFS_INTERNAL_H

#include <cublas_api.h>

typedef enum { DFS_INTERNAL_LEGACY, DFS_INTERNAL_LT, DFS_INTERNAL_USERS } dfs_internal_user;

/* The internal handle of the current context for user u, locked for the caller (calls on one
 * context through one user are serialised), with its stream and pointer mode set; NULL when
 * there is no current context, no cuBLAS, or 16 contexts already have one.  Give it back with
 * dfs_internal_release(*token). */
cublasHandle_t dfs_internal_acquire(dfs_internal_user u, cudaStream_t stream,
                                    cublasPointerMode_t mode, void **token);
void dfs_internal_release(void *token);

/* Destroys user u's handles (through the shim's cublasDestroy_v2, which frees their state). */
void dfs_internal_drop(dfs_internal_user u);

#endif
