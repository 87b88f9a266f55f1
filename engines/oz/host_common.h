/* host_common.h — what the Ozaki family's CPU DGEMMs (repro/host.c: scheme I, host_crt.c:
 * scheme II, ozaki-sgemm/host_f32.c) share: the operands of a call, op(A)/op(B) access, the rows
 * pass, and one output computed exactly (the CPU's direct path). */
#ifndef DFS_OZ_HOST_COMMON_H
#define DFS_OZ_HOST_COMMON_H

#include "steps.h"

#include <stdint.h>

typedef struct {
    int ta, tb;
    int64_t m, n, k;
    const double *A, *B;
    int64_t lda, ldb;
} gemm_in;

/* op(A)(r, q) and op(B)(q, c) */
static inline double opA(int t, const double *A, int64_t lda, int64_t r, int64_t q)
{
    return t ? A[q + r * lda] : A[r + q * lda];
}

static inline double opB(int t, const double *B, int64_t ldb, int64_t q, int64_t c)
{
    return t ? B[c + q * ldb] : B[q + c * ldb];
}

/* What the rows pass collects for row r of op(A), or (is_b) column r of op(B). */
static inline dfs_oz_row row_of(const gemm_in *g, int is_b, int64_t r)
{
    dfs_oz_row ri = dfs_oz_row_init();
    for (int64_t q = 0; q < g->k; q++)
        dfs_oz_row_add(&ri, is_b ? opB(g->tb, g->B, g->ldb, q, r) : opA(g->ta, g->A, g->lda, r, q));
    return ri;
}

/* The same, with l1 summed in the order of the GPU's rows pass (kernels.cu, dfs_oz_rows),
 * so that what depends on its rounding (the int8 engine's bits per row) is the GPU's: 32 parts
 * each take every 32nd element, then merge in a butterfly (part i with part i ^ 16, then ^ 8, ...;
 * the GPU does so whichever dimension of the operand is contiguous). */
static inline dfs_oz_row row_of_gpu_group(const gemm_in *g, int is_b, int64_t r,
                                          const signed char *kcls, int group);
static inline dfs_oz_row row_of_gpu(const gemm_in *g, int is_b, int64_t r)
{
    return row_of_gpu_group(g, is_b, r, NULL, 0);
}

/* row_of_gpu over one group of the inner dimension (kcls set, kgroups.h): the elements of the
 * other groups count only for the row's specials, as in the GPU's pass. */
static inline dfs_oz_row row_of_gpu_group(const gemm_in *g, int is_b, int64_t r,
                                          const signed char *kcls, int group)
{
    const int parts = 32;
    dfs_oz_row p[32];
    for (int i = 0; i < parts; i++) {
        p[i] = dfs_oz_row_init();
        for (int64_t q = i; q < g->k; q += parts) {
            const double v = is_b ? opB(g->tb, g->B, g->ldb, q, r) : opA(g->ta, g->A, g->lda, r, q);
            if (!kcls || kcls[q] == group)
                dfs_oz_row_add(&p[i], v);
            else if (!dfs_d_is_finite(v))
                p[i].special = 1;
        }
    }
    for (int off = 16; off > 0; off >>= 1) {
        dfs_oz_row n[32];
        for (int i = 0; i < 32; i++) {
            n[i] = p[i];
            dfs_oz_row_merge(&n[i], p[i ^ off]);
        }
        for (int i = 0; i < 32; i++)
            p[i] = n[i];
    }
    return p[0];
}

/* C(r, c) = RN(alpha sum_q op(A)(r, q) op(B)(q, c) + beta cv) directly: every product into the
 * exact accumulator (xacc.h), one rounding; Inf and NaN as IEEE arithmetic gives them.  The
 * CPU's counterpart of the direct kernel. */
static inline double dfs_oz_exact_output(const gemm_in *g, int64_t r, int64_t c, double alpha,
                                         double beta, double cv)
{
    int64_t w[DFS_X_WORDS], scratch[DFS_X_WORDS];
    dfs_xacc acc;
    unsigned flags = 0;
    dfs_x_init(&acc, w, DFS_X_WORDS, DFS_X_LSB);
    if (alpha != 0)
        for (int64_t q = 0; q < g->k; q++) {
            dfs_x_add_product_or_flag(&acc, &flags, opA(g->ta, g->A, g->lda, r, q),
                                      opB(g->tb, g->B, g->ldb, q, c));
        }
    double out;
    dfs_x_axpby(&acc, flags, alpha, beta, cv, scratch, DFS_X_WORDS, &out);
    return out;
}

#endif
