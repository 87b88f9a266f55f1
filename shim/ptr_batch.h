/* ptr_batch.h — a pointer-array GEMM batch (DgemmBatched, ZgemmBatched, GemmBatchedEx and their
 * _64 forms: dfs_gemm_call with Aarray, Barray, Carray) computed by an engine's strided GEMM, for
 * engines without DFS_CAP_PTRARRAY.  Pure host logic: the moves and GEMMs go through callbacks
 * (the shim's l3_gemm.c gives the gather and scatter kernels of ../engines/l3/batch.h, the
 * engine's GEMM and the stream-ordered temporaries; the unit test CPU stand-ins).
 *
 * The batch goes in groups of consecutive entries whose scratch (a packed op(A)-shaped A, B and C
 * per entry) fits a byte limit (one entry at least), one allocation reused by every group.  Per
 * group, in stream order: gather A and B as stored (transa, transb kept; lda = A's stored rows,
 * ldb = B's), gather C only when it is read (not when beta is known to be zero: host scalars
 * with beta = 0, both parts when complex; in device pointer mode it always is), one strided GEMM
 * of the group's entries (the engine's), then scatter C.  The strided record keeps the call's
 * element type, pointer mode, alpha and beta; its api is the strided form of the call's family
 * (DgemmStridedBatched_64, ZgemmStridedBatched_64, GemmStridedBatchedEx_64 with the call's algo),
 * which is what the native engine would run.
 *
 * Overlaps.  Every operand of a group is gathered before its GEMM and C scattered after, so a C
 * entry that is also an A or B entry of the same group (in place) reads the old values, as if
 * the GEMM had been computed out of place; an A or B entry that is a C entry of an earlier group
 * reads that group's result (cuBLAS's answer to such calls is undefined).  C entries that
 * overlap each other (undefined in cuBLAS too) are scattered entry by entry, groups in order,
 * the entries of one group in no particular order.  A repeated A or B pointer is gathered once
 * per entry. */
#ifndef DFS_PTR_BATCH_H
#define DFS_PTR_BATCH_H

#include "../engines/engine.h"
#include "../engines/l3/batch.h"

#include <stddef.h>

/* The scratch of one group the shim allows (bytes). */
#define DFS_PTR_BATCH_GROUP_BYTES ((size_t)256 << 20)

typedef struct {
    /* 0 when the move is enqueued */
    int (*gather)(void *ctx, const dfs_l3_batch *b);
    int (*scatter)(void *ctx, const dfs_l3_batch *b);
    /* the engine's strided GEMM, and cuBLAS's (a group the engine declines after the first) */
    cublasStatus_t (*gemm)(void *ctx, const dfs_gemm_call *g);
    cublasStatus_t (*native)(void *ctx, const dfs_gemm_call *g);
    /* scratch of `bytes` for the call's work (NULL when it cannot be had), freed after it */
    double *(*alloc)(void *ctx, size_t bytes);
    void (*free)(void *ctx, double *p);
    const char *engine; /* the engine's name, for the log */
    void *ctx;
} dfs_ptr_batch_ops;

/* The pointer-array batch c (c->Carray set; m, n, k, batch > 0) through ops in groups of at most
 * group_bytes of scratch (one entry at least); host_scalars: alpha and beta are host pointers.
 * Returns:
 *   SUCCESS;
 *   DFS_STATUS_DECLINED with every C entry untouched when c is no such batch (a dimension or the
 *   batch not positive), its sizes overflow, the scratch cannot be had, or a move or the GEMM of
 *   the first group fails before anything was written (EXECUTION_FAILED);
 *   the engine's own DFS_STATUS_DECLINED or DFS_STATUS_PREFER_NATIVE for the first group, C
 *   untouched (the caller then runs the whole call natively);
 *   the first other status a GEMM returns, or EXECUTION_FAILED when a move fails, once C has
 *   been written (nothing further is done).
 * A later group the engine declines (or leaves to native) runs on ops->native with the same
 * record (said once per engine).  At log level trace, one line says the groups before the
 * work: "pointer-array batch of N through E's strided GEMM: G groups of at most S entries". */
cublasStatus_t dfs_ptr_batch_run(const dfs_gemm_call *c, int host_scalars, size_t group_bytes,
                                 const dfs_ptr_batch_ops *ops);

#endif
