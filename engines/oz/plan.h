/* plan.h — the block shapes of C for the Ozaki GEMM paths on int8 and binary32 products
 * (crt_gemm.c, f32_gemm.c): pure host code, unit-tested on the CPU (tests/unit/oz_plan.c). */
#ifndef DFS_OZ_PLAN_H
#define DFS_OZ_PLAN_H

#include <stddef.h>
#include <stdint.h>

/* The block shapes of C for the int8 and binary32 paths: eval gives a shape's workspace bytes
 * and cost (0: the shape is not allowed); dfs_oz_plan_blocks takes, of bm = step ceil(m / (step
 * 2^i)) (m a multiple of step: 1, or 2 for row pairs) and bn = ceil(n / 2^j), at most 65536
 * each (the output lists pack 16 bits), the cheapest that fits budget, and returns its bytes
 * (0 if none fits). */
typedef int (*dfs_oz_block_eval)(const void *ctx, int64_t bm, int64_t bn, size_t *need,
                                 double *cost);
size_t dfs_oz_plan_blocks(int64_t m, int64_t n, int step, size_t budget, dfs_oz_block_eval eval,
                          const void *ctx, int64_t *pbm, int64_t *pbn);

/* cuBLAS's GEMMs lose efficiency on thin blocks: their cost taken as this factor times the
 * work, thin from tuning.h. */
static inline double dfs_oz_thin_factor(double thin, int64_t bm, int64_t bn)
{
    return 1.0 + thin / (double)bm + thin / (double)bn;
}

#endif
