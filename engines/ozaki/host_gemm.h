/* host_gemm.h — what the CPU DGEMMs (host.c: scheme I, host_crt.c: scheme II) share: the
 * operands of a call, op(A)/op(B) access, and the rows pass.  Internal to engines/ozaki. */
#ifndef DFS_OZ_HOST_GEMM_H
#define DFS_OZ_HOST_GEMM_H

#include "oz_steps.h"

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

/* The same, with l1 summed in the order of the GPU's rows pass (kernels_gemm.cu, dfs_oz_rows),
 * so that what depends on its rounding (the int8 engine's bits per row) is the GPU's: 32 parts
 * each take every 32nd element, then merge in a butterfly (part i with part i ^ 16, then ^ 8, ...;
 * the GPU does so whichever dimension of the operand is contiguous). */
static inline dfs_oz_row row_of_gpu(const gemm_in *g, int is_b, int64_t r)
{
    const int parts = 32;
    dfs_oz_row p[32];
    for (int i = 0; i < parts; i++) {
        p[i] = dfs_oz_row_init();
        for (int64_t q = i; q < g->k; q += parts)
            dfs_oz_row_add(&p[i],
                           is_b ? opB(g->tb, g->B, g->ldb, q, r) : opA(g->ta, g->A, g->lda, r, q));
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

#endif
