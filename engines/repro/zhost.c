/* zhost.c — the reproducible engine's ZGEMM and ZGEMV on the CPU (host.h): every output's real
 * and imaginary part each correctly rounded, RN(Re(alpha S + beta c)) and RN(Im(alpha S + beta
 * c)), with S = sum_q op(A)(i,q) op(B)(q,j) (ZGEMV: op(A)(i,q) x_q) exactly.  Each part is one
 * exact sum of real products (xacc.h):
 *     Sr = sum_q ar br + (-ai) bi,   Si = sum_q ar bi + ai br     (ai, bi negated under op C)
 *     Re = RN(ar' Sr + (-ai') Si + br' cr + (-bi') ci),  Im = RN(ar' Si + ai' Sr + br' ci + bi' cr)
 * for alpha = ar' + i ai', beta = br' + i bi', c = C's (y's) value, rounded once by
 * dfs_x_zaxpby (xcombine.h: IEEE results for Inf and NaN operands, term by term on the exact
 * values, as the real DGEMM; an exact zero part is -0 only when every term is a zero of negative
 * sign).
 * A term whose scalar part is zero is left out (alpha = 1: Re = RN(Sr), whatever Si holds, as a
 * real alpha gives it; no 0 * Inf), except alpha's two when alpha = 0.  beta = 0: C (y) is not
 * read (no beta terms); alpha = 0 or k = 0: A and B (x) are not read (S = +0).  The reference
 * the GPU paths of issue 28 must equal bit for bit; plain loops, one output at a time. */
#include "host.h"

#include "../common/xcombine.h"

#include <stdlib.h>

/* c = the output for the k products of the complex elements a[q sa] and b[q sb] (strides in
 * complex elements; conja, conjb: the element conjugated), alpha, beta; w: DFS_X_WORDS *
 * (2 + DFS_X_ZSCRATCH / DFS_X_WORDS) words. */
static void one_output(int64_t k, const double *a, int64_t sa, int conja, const double *b,
                       int64_t sb, int conjb, const double alpha[2], const double beta[2],
                       double *c, int64_t *w)
{
    dfs_xacc sr, si;
    dfs_x_init(&sr, w, DFS_X_WORDS, DFS_X_LSB);
    dfs_x_init(&si, w + DFS_X_WORDS, DFS_X_WORDS, DFS_X_LSB);
    unsigned fr = 0, fi = 0;
    const int read_ab = alpha[0] != 0 || alpha[1] != 0;
    for (int64_t q = 0; read_ab && q < k; q++) {
        const double *pa = a + 2 * q * sa, *pb = b + 2 * q * sb;
        const double ar = pa[0], ai = conja ? -pa[1] : pa[1];
        const double br = pb[0], bi = conjb ? -pb[1] : pb[1];
        dfs_x_add_product_or_flag(&sr, &fr, ar, br);
        dfs_x_add_product_or_flag(&sr, &fr, -ai, bi);
        dfs_x_add_product_or_flag(&si, &fi, ar, bi);
        dfs_x_add_product_or_flag(&si, &fi, ai, br);
    }
    dfs_x_zfinish(&sr, fr, &si, fi, alpha, beta, w + 2 * DFS_X_WORDS, c);
}

#define ONE_OUTPUT_WORDS (2 * DFS_X_WORDS + DFS_X_ZSCRATCH)

int dfs_repro_zgemm_host(int transa, int transb, int64_t m, int64_t n, int64_t k,
                         const double alpha[2], const double *A, int64_t lda, const double *B,
                         int64_t ldb, const double beta[2], double *C, int64_t ldc)
{
    int64_t *w = malloc(ONE_OUTPUT_WORDS * sizeof *w);
    if (!w)
        return -1;
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < m; i++) {
            /* row i of op(A), column j of op(B): their first elements and strides */
            const double *a = transa ? A + 2 * i * lda : A + 2 * i;
            const double *b = transb ? B + 2 * j : B + 2 * j * ldb;
            one_output(k, a, transa ? 1 : lda, transa == 2, b, transb ? ldb : 1, transb == 2,
                       alpha, beta, C + 2 * (i + j * ldc), w);
        }
    free(w);
    return 0;
}

/* The first element of a vector of n complex elements with increment inc, as BLAS addresses it
 * (negative increments from the end). */
static const double *zvec_base(const double *x, int64_t n, int64_t inc)
{
    return inc < 0 ? x + 2 * (n - 1) * -inc : x;
}

int dfs_repro_zgemv_host(int trans, int64_t m, int64_t n, const double alpha[2], const double *A,
                         int64_t lda, const double *x, int64_t incx, const double beta[2],
                         double *y, int64_t incy)
{
    if (m <= 0 || n <= 0)
        return 0;
    int64_t *w = malloc(ONE_OUTPUT_WORDS * sizeof *w);
    if (!w)
        return -1;
    const int64_t len = trans ? n : m, k = trans ? m : n;
    const double *xb = zvec_base(x, k, incx);
    double *yb = (double *)zvec_base(y, len, incy);
    for (int64_t i = 0; i < len; i++)
        one_output(k, trans ? A + 2 * i * lda : A + 2 * i, trans ? 1 : lda, trans == 2, xb, incx,
                   0, alpha, beta, yb + 2 * i * incy, w);
    free(w);
    return 0;
}
