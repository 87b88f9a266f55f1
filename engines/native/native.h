/* native.h — what the native engine's files share: the forwarding macros, the legacy API's
 * characters for the enums, and the Level-3 forwarding (level3.c). */
#ifndef DFS_NATIVE_H
#define DFS_NATIVE_H

#include "../engine.h"
#include "../../core/resolve.h"

#define CALL(fn, ...) (DFS_REAL(fn) ? DFS_REAL(fn)(__VA_ARGS__) : CUBLAS_STATUS_NOT_INITIALIZED)

/* The legacy functions return nothing (or the dot product) and report errors through
 * cublasGetError(), which the real library keeps: forwarding them reports SUCCESS here. */
#define LEGACY(fn, ...) (DFS_REAL(fn) ? (DFS_REAL(fn)(__VA_ARGS__), CUBLAS_STATUS_SUCCESS)         \
                                      : CUBLAS_STATUS_NOT_INITIALIZED)

static inline char op_char(cublasOperation_t op)
{
    return op == CUBLAS_OP_N ? 'N' : op == CUBLAS_OP_T ? 'T' : 'C';
}

/* Each Level-3 record (dfs_l3_call) to the entry point it came from. */
cublasStatus_t dfs_native_level3(const dfs_ctx *x, const dfs_l3_call *c);

#endif
