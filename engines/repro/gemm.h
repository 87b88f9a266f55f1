/* gemm.h — the reproducible engine's DGEMM on binary64 slice products (gemm.c): repro with
 * products=f64, and the ozaki engine's knobs. */
#ifndef DFS_REPRO_GEMM_H
#define DFS_REPRO_GEMM_H

#include "../engine.h"

#include <stddef.h>

typedef struct {
    int splits;     /* 0: correctly rounded; N > 0: exactly N slices (reproducible only) */
    int max_splits; /* with splits == 0: the most slices taken; rows needing more go direct */
    int fast;       /* with splits > 0: skip the slice pairs i + j >= N */
    int fixed_sum;  /* the partials added in a fixed order in binary64 (reproducible only) */
    size_t workspace; /* bytes of scratch a call may use */
} dfs_oz_gemm_opts;

cublasStatus_t dfs_oz_dgemm_gpu(const dfs_ctx *x, const dfs_gemm_call *c,
                                const dfs_oz_gemm_opts *o);

#endif
