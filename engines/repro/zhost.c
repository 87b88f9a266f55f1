/* zhost.c — the reproducible engine's ZGEMM on the CPU (host.h): every output's real and
 * imaginary part each correctly rounded, RN(Re(alpha S + beta c)) and RN(Im(alpha S + beta c)),
 * with S = sum_q op(A)(i,q) op(B)(q,j) exactly.  Each part is one exact sum of real products
 * (xacc.h):
 *     Sr = sum_q ar br + (-ai) bi,   Si = sum_q ar bi + ai br     (ai, bi negated under op C)
 *     Re = RN(ar' Sr + (-ai') Si + br' cr + (-bi') ci),  Im = RN(ar' Si + ai' Sr + br' ci + bi' cr)
 * for alpha = ar' + i ai', beta = br' + i bi', c = C's value, rounded once by dfs_x_combine (IEEE
 * results for Inf and NaN operands, term by term on the exact values, as the real DGEMM; an
 * exact zero part is -0 only when every term is a zero of negative sign).  A term whose scalar
 * part is zero is left out (alpha = 1: Re = RN(Sr), whatever Si holds, as a real alpha gives
 * it; no 0 * Inf), except alpha's two when alpha = 0.  beta = 0: C is not
 * read (no beta terms); alpha = 0 or k = 0: A and B are not read (S = +0).  The reference the GPU
 * paths of issue 28 must equal bit for bit; plain loops, one output at a time. */
#include "host.h"

#include "../common/xacc.h"
#include "../common/zelem.h"

#include <stdlib.h>
#include <string.h>

/* Adds x y to the accumulator (exactly) or to the flags (Inf, NaN). */
static void add_product(dfs_xacc *a, unsigned *flags, double x, double y)
{
    const unsigned f = dfs_x_product_flags(x, y);
    if (f)
        *flags |= f;
    else if (x != 0 && y != 0)
        dfs_x_add_product(a, x, y, 0);
}

int dfs_repro_zgemm_host(int transa, int transb, int64_t m, int64_t n, int64_t k,
                         const double alpha[2], const double *A, int64_t lda, const double *B,
                         int64_t ldb, const double beta[2], double *C, int64_t ldc)
{
    /* Sr, Si and a copy of each (dfs_x_combine destroys its accumulators), the scratch */
    int64_t *w = malloc(5 * DFS_X_WORDS * sizeof *w);
    if (!w)
        return -1;
    int64_t *wr = w, *wi = w + DFS_X_WORDS, *cr = w + 2 * DFS_X_WORDS, *ci = w + 3 * DFS_X_WORDS,
            *scratch = w + 4 * DFS_X_WORDS;
    const int read_ab = (alpha[0] != 0 || alpha[1] != 0) && k > 0;
    const int read_c = beta[0] != 0 || beta[1] != 0;
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < m; i++) {
            dfs_xacc sr, si, sr2, si2;
            dfs_x_init(&sr, wr, DFS_X_WORDS, DFS_X_LSB);
            dfs_x_init(&si, wi, DFS_X_WORDS, DFS_X_LSB);
            unsigned fr = 0, fi = 0;
            for (int64_t q = 0; read_ab && q < k; q++) {
                double ar, ai, br, bi;
                dfs_z_op_elem(A, lda, transa, i, q, &ar, &ai);
                dfs_z_op_elem(B, ldb, transb, q, j, &br, &bi);
                add_product(&sr, &fr, ar, br);
                add_product(&sr, &fr, -ai, bi);
                add_product(&si, &fi, ar, bi);
                add_product(&si, &fi, ai, br);
            }
            dfs_x_init(&sr2, cr, DFS_X_WORDS, DFS_X_LSB);
            dfs_x_init(&si2, ci, DFS_X_WORDS, DFS_X_LSB);
            memcpy(cr, wr, DFS_X_WORDS * sizeof *cr);
            memcpy(ci, wi, DFS_X_WORDS * sizeof *ci);
            sr2.pending = sr.pending;
            si2.pending = si.pending;
            double *c = C + 2 * (i + j * ldc);
            const double c_re = read_c ? c[0] : 0.0, c_im = read_c ? c[1] : 0.0;
            const dfs_x_term re_all[4] = {{alpha[0], &sr, fr, 0.0}, {-alpha[1], &si, fi, 0.0},
                                          {beta[0], NULL, 0, c_re}, {-beta[1], NULL, 0, c_im}};
            const dfs_x_term im_all[4] = {{alpha[0], &si2, fi, 0.0}, {alpha[1], &sr2, fr, 0.0},
                                          {beta[0], NULL, 0, c_im}, {beta[1], NULL, 0, c_re}};
            /* the terms whose scalar is not zero (alpha = 0: its two, as S = +0) */
            dfs_x_term re[4], im[4];
            int nt = 0;
            for (int t = 0; t < (read_c ? 4 : 2); t++)
                if (re_all[t].coef != 0.0 || (t < 2 && alpha[0] == 0.0 && alpha[1] == 0.0)) {
                    re[nt] = re_all[t];
                    im[nt++] = im_all[t];
                }
            double vr, vi;
            dfs_x_combine(re, nt, scratch, DFS_X_WORDS, &vr);
            dfs_x_combine(im, nt, scratch, DFS_X_WORDS, &vi);
            c[0] = vr;
            c[1] = vi;
        }
    free(w);
    return 0;
}
