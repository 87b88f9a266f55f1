/* gemm.h — the host driver of the DF GEMM kernels, shared by the cuBLAS-facing engine (binary64
 * operands, engine.c) and the DGEMM-DF(DF) library interface (DF operands, dfblas.c), and the
 * tuning row (tuning.h) of the device a call runs on. */
#ifndef DFS_DF_GEMM_DRIVER_H
#define DFS_DF_GEMM_DRIVER_H

#include "../../core/gpu.h"
#include "df_gemm.h"

#include <stddef.h>

/* op(X) of a GEMM: binary64 (scaled per row/column) or DF pairs (unscaled). */
typedef struct {
    const void *p;
    int64_t ld;
    long long stride; /* between batch entries, in elements */
    int trans;
    int df;
} dfs_df_operand;

enum { DFS_DF_OK = 0, DFS_DF_NO_MODULE, DFS_DF_NO_SCRATCH, DFS_DF_TOO_BIG, DFS_DF_LAUNCH };

/* Where a binary64 call (operands and C) runs: the small kernel (the whole call in one launch, no
 * workspace) where the device class's rule says it is faster (tuning.h, small_waves), always,
 * never, or always in tiles of 16 x 16 or 32 x 32 (else by the class's small16_waves);
 * DGEMM-DF(DF) always runs the tiled path. */
enum { DFS_DF_SMALL_AUTO, DFS_DF_SMALL_ALWAYS, DFS_DF_SMALL_NEVER, DFS_DF_SMALL_16,
       DFS_DF_SMALL_32 };

/* How a call is run. */
typedef struct {
    int tile;         /* DFS_DF_TILE_* (tuning.h): the tiled path's C tile */
    size_t workspace; /* the tiled path's scratch budget, bytes */
    int small;        /* DFS_DF_SMALL_* */
    double small_waves; /* DFS_DF_SMALL_AUTO's rule: the device class's (tuning.h) */
    double small16_waves; /* the small kernel's tile: the device class's (tuning.h) */
    int device;       /* the call's device (ordinal): DFS_DF_SMALL_AUTO asks its size */
} dfs_df_path;

/* The tuning row (tuning.h) of a device: an ordinal, or -1 for the current context's device.
 * A device whose compute capability cannot be asked gets the first row (cc 0). */
const dfs_df_tuning *dfs_df_tuning_of(int device);

/* C(b) = epilogue(op(A(b)) op(B(b))) for b < batch.  g carries the epilogue (C or Cdf, ldc,
 * alpha/beta, scheme); C advances by strideC elements per batch entry.  The caller holds
 * s->lock (the small kernel takes no scratch). */
int dfs_df_gemm_run(dfs_scratch *s, CUstream st, const dfs_df_path *path, int64_t m, int64_t n,
                    int64_t k, int64_t batch, const dfs_df_operand *A, const dfs_df_operand *B,
                    long long strideC, dfs_df_gemm_args *g);

#endif
