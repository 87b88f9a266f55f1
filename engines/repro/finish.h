/* finish.h — one output of the reproducible engine's DGEMM from its slice products: the
 * body of the GPU finish kernel (kernels_gemm.cu), host and device alike so that the CPU tests
 * run it too (tests/unit/repro_finish.c).  ../oz/README.md ("DGEMM: the Ozaki scheme") for the
 * verification. */
#ifndef DFS_REPRO_FINISH_H
#define DFS_REPRO_FINISH_H

#include "../oz/args.h"
#include "../oz/steps.h"

#if !defined(__CUDACC__)
#include <math.h> /* scalbn (exact) */
#endif

/* Output (r, c) of the block a: its pairs (an integer in registers, or the window
 * accumulator win of DFS_OZ_WIN words), then C = RN(alpha S + beta C) (res: DFS_OZ_RWIN words);
 * DFS_OZ_WRITTEN, or the reason it must go direct (C untouched then): DFS_OZ_LISTED (a special
 * row or column, a window too small) or DFS_OZ_UNDECIDED (verify: the pairs left out could
 * change the rounding).  *lower (verify, written outputs): whether d - 1 would have left it
 * undecided. */
DFS_HD int dfs_oz_finish_output(const dfs_oz_finish_args *pa, int64_t r, int64_t c, int64_t *win,
                                int64_t *res, int *lower)
{
    const int64_t gr = pa->r0 + r, gc = pa->c0 + c;
    const double alpha = pa->alpha ? *pa->alpha : pa->alpha_v;
    const double beta = pa->beta_p ? *pa->beta_p : pa->beta_v;
    double *out = pa->C + gr + gc * pa->ldc;
    const int na = pa->needA[gr], nb = pa->needB[gc];
    const int live = alpha != 0 && pa->k > 0; /* alpha op(A) op(B) takes part */
    if (live && (na == DFS_OZ_SPECIAL || nb == DFS_OZ_SPECIAL))
        return DFS_OZ_LISTED;
    const int ta = pa->tauA[gr], tb = pa->tauB[gc];
    const double cv = beta != 0 ? *out : 0.0;
    if (pa->fixed_sum) {
        /* the paper's cheaper reproducible mode: the partials in a fixed order in binary64 */
        double s = 0.0;
        if (live)
            for (int i = 0; i < pa->sa; i++)
                for (int j = 0, J = dfs_oz_cols(pa->sb, pa->d, i); j < J; j++) {
                    const double p = pa->P[pa->poff[i] + (j * pa->bn + c) * pa->bm + r];
                    s = dfs_d_add(s, scalbn(p, ta + tb - (i + j) * pa->beta));
                }
        const double bc = beta != 0 ? dfs_d_mul(beta, cv) : 0.0;
        *out = alpha == 0 ? bc : dfs_d_fma(alpha, s, bc);
        return DFS_OZ_WRITTEN;
    }
    const int rows = live && ta != DFS_OZ_NONE_TAU && tb != DFS_OZ_NONE_TAU;
    double v;
    int margin;
    if (rows && pa->d * pa->beta <= DFS_OZ_I192_MAX_SHIFT) {
        /* the fast path (../oz/steps.h): the pairs in registers as one integer X 2^e0 */
        const double scale = dfs_oz_pow2m(-2 * pa->beta); /* 2^(2 beta): P scaled is an integer */
        dfs_oz_i192 x = {{0, 0, 0}};
        const int ia = pa->sa < na ? pa->sa : na; /* slices at or beyond a need are zero */
        for (int i = 0; i < ia; i++) {
            const int J = dfs_oz_cols(pa->sb, pa->d, i), jn = J < nb ? J : nb;
            for (int j = 0; j < jn; j++) {
                const double p = pa->P[pa->poff[i] + (j * pa->bn + c) * pa->bm + r];
                /* p 2^(2 beta) is an integer below 2^53: the conversion is exact */
                dfs_oz_i192_add(&x, (int64_t)dfs_d_mul(p, scale), (pa->d - i - j) * pa->beta);
            }
        }
        const int e0 = ta + tb - (pa->d + 2) * pa->beta;
        if (!dfs_oz_i192_axpby(&x, e0, alpha, beta, cv, win, DFS_OZ_WIN,
                               ta + tb - (pa->sa + pa->sb) * pa->beta, res, DFS_OZ_RWIN, &v,
                               &margin))
            return DFS_OZ_LISTED;
    } else {
        dfs_xacc acc;
        dfs_x_init(&acc, win, DFS_OZ_WIN, ta + tb - (pa->sa + pa->sb) * pa->beta);
        int fits = 1;
        if (rows) {
            const int ia = pa->sa < na ? pa->sa : na;
            for (int i = 0; i < ia; i++) {
                const int J = dfs_oz_cols(pa->sb, pa->d, i), jn = J < nb ? J : nb;
                for (int j = 0; j < jn; j++) {
                    const double p = pa->P[pa->poff[i] + (j * pa->bn + c) * pa->bm + r];
                    if (p != 0)
                        fits &= dfs_x_add_double(&acc, p, ta + tb - (i + j) * pa->beta);
                }
            }
        }
        if (!fits ||
            !dfs_x_axpby_margin(&acc, 0u, alpha, beta, cv, res, DFS_OZ_RWIN, &v, &margin))
            return DFS_OZ_LISTED;
    }
    if (pa->verify && rows) {
        const double nA = pa->nrmA[gr], nB = pa->nrmB[gc];
        const double e = dfs_oz_tail_bound(pa->k, pa->beta, pa->sa, pa->sb, pa->d, na, nb, nA, nB);
        if (!dfs_oz_decided(e, ta, tb, alpha, margin))
            return DFS_OZ_UNDECIDED;
        const double e1 = pa->d > 0 ? dfs_oz_tail_bound(pa->k, pa->beta, pa->sa, pa->sb, pa->d - 1,
                                                        na, nb, nA, nB)
                                    : 0.0;
        *lower = !dfs_oz_decided(e1, ta, tb, alpha, margin);
    }
    *out = v;
    return DFS_OZ_WRITTEN;
}

#endif
