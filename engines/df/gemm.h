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

/* The tuning row (tuning.h) of a device: an ordinal, or -1 for the current context's device.
 * A device whose compute capability cannot be asked gets the first row (cc 0). */
const dfs_df_tuning *dfs_df_tuning_of(int device);

/* C(b) = epilogue(op(A(b)) op(B(b))) for b < batch.  g carries the epilogue (C or Cdf, ldc,
 * alpha/beta, scheme); C advances by strideC elements per batch entry; tile: DFS_DF_TILE_*
 * (tuning.h).  The caller holds s->lock. */
int dfs_df_gemm_run(dfs_scratch *s, CUstream st, int tile, size_t workspace, int64_t m,
                    int64_t n, int64_t k, int64_t batch, const dfs_df_operand *A,
                    const dfs_df_operand *B, long long strideC, dfs_df_gemm_args *g);

#endif
