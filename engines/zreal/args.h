/* args.h — the argument blocks of the real representation's kernels (kernels.cu), shared with
 * zreal.c. */
#ifndef DFS_ZREAL_ARGS_H
#define DFS_ZREAL_ARGS_H

#include <stdint.h>

/* Planes of op(X) (R x Q, X interleaved complex with leading dimension ld, op 0/1/2 for N/T/C):
 * for r < R, q < Q and every batch entry z,
 *     re[z sp + r rs + q ldp] = Re op(X)(r, q)    (and re2 likewise when not NULL),
 *     im[...]  = Im op(X)(r, q),                  im2[...] = -Im op(X)(r, q) (when not NULL),
 * rs the planes' row stride (0: 1).  one: when not NULL, one[0] = 1 and one[1] = 0 are written
 * too (device scalars for the real call in device pointer mode).  zalpha: when not NULL, the
 * call's complex alpha on the device: where it is zero X is not read (zeros are written, as
 * cuBLAS reads no operand then), and when anz is not NULL, *anz = 0 there, else 1.  A grid of
 * 32 x 32 tiles of (r, q), blocks of 32 x 8 threads. */
typedef struct {
    const double *X;
    int64_t ld, sx;
    int op;
    int64_t R, Q, batch;
    double *re, *re2, *im, *im2;
    int64_t rs, ldp, sp;
    double *one;
    const double *zalpha;
    double *anz;
} dfs_zr_stage_args;

/* C(i, j) from the real product's planes (batch stride sp): S = P[i + j ldp] + i P[poff + i +
 * j ldp] (the real product P, m x 2n with leading dimension m and its columns interleaved:
 * ldp = 2m, poff = m).  exact: C = S (the real call applied alpha and beta: the planes hold
 * the rounded parts); otherwise C = alpha S + beta C in binary64 (beta = 0: C not read; a term
 * whose scalar part is zero left out, S altogether when alpha = 0), alpha
 * and beta device pointers (two doubles each) or the values given. */
typedef struct {
    const double *P;
    int64_t sp, ldp, poff;
    double *C;
    int64_t ldc, sc;
    int64_t m, n, batch;
    int exact;
    const double *alpha, *beta;
    double alpha_v[2], beta_v[2];
} dfs_zr_scatter_args;

#endif
