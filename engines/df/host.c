/* host.c — the DF engine's DGEMM on the CPU (see host.h).  Compiled with -ffp-contract=off. */
#include "host.h"

#include "../common/df.h"
#include "df_steps.h"
#include "df_gemm.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int dfs_df_exponent(const double *x, int64_t count, int64_t stride, int *span)
{
    unsigned long long m = 0, mn = DFS_DF_NO_MIN;
    for (int64_t i = 0; i < count; i++) {
        unsigned long long b = dfs_df_abs_bits(x[i * stride]);
        m = b > m ? b : m;
        mn = dfs_df_min_nonzero(mn, b);
    }
    if (span)
        *span = dfs_df_span(m, mn);
    return dfs_df_scale_exponent(m);
}

_Static_assert(DFS_DF_BK % DFS_DF_LAZY_B == 0, "the GPU renormalises inside a k stage");

/* acc + a*b, the p-th product of the sum (0-based); the lazy scheme renormalises after every
 * DFS_DF_LAZY_B-th, as the GPU's stages do. */
static dfs_df mad(int scheme, dfs_df acc, dfs_df a, dfs_df b, int64_t p)
{
    acc = dfs_df_mad(scheme, acc, a, b);
    return scheme != DFS_DF_MAD12 || (p + 1) % DFS_DF_LAZY_B ? acc : dfs_df_renorm(acc);
}

void dfs_df_gemm_host(int scheme, int ta, int tb, int64_t m, int64_t n, int64_t k, double alpha,
                      const double *A, int64_t lda, const double *B, int64_t ldb, double beta,
                      double *C, int64_t ldc)
{
    const int64_t Kp = (k + DFS_DF_BK - 1) / DFS_DF_BK * DFS_DF_BK;
    int *ea = malloc((size_t)(m > 0 ? m : 1) * 2 * sizeof *ea); /* exponents, then spans */
    int *eb = malloc((size_t)(n > 0 ? n : 1) * 2 * sizeof *eb);
    dfs_df *arow = malloc((size_t)(Kp > 0 ? Kp : 1) * sizeof *arow);
    dfs_df *bcol = malloc((size_t)(Kp > 0 ? Kp : 1) * sizeof *bcol);
    if (!ea || !eb || !arow || !bcol)
        goto out;
    int *sa = ea + (m > 0 ? m : 1), *sb = eb + (n > 0 ? n : 1);
    /* op(A)(i, p) = ta ? A[p + i*lda] : A[i + p*lda]; op(B)(p, j) = tb ? B[j + p*ldb] : B[p + j*ldb] */
    for (int64_t i = 0; i < m; i++)
        ea[i] = ta ? dfs_df_exponent(A + i * lda, k, 1, &sa[i])
                   : dfs_df_exponent(A + i, k, lda, &sa[i]);
    for (int64_t j = 0; j < n; j++)
        eb[j] = tb ? dfs_df_exponent(B + j, k, ldb, &sb[j])
                   : dfs_df_exponent(B + j * ldb, k, 1, &sb[j]);
    for (int64_t j = 0; j < n; j++) {
        for (int64_t p = 0; p < Kp; p++) {
            double y = p < k ? (tb ? B[j + p * ldb] : B[p + j * ldb]) : 0.0;
            bcol[p] = dfs_df_scaled(y, eb[j]);
        }
        for (int64_t i = 0; i < m; i++) {
            double r = 0.0;
            if (alpha != 0.0) {
                double ab = 0.0;
                int b64 = ea[i] == DFS_DF_EXP_NONFINITE || eb[j] == DFS_DF_EXP_NONFINITE;
                if (!b64) {
                    for (int64_t p = 0; p < Kp; p++) {
                        double x = p < k ? (ta ? A[p + i * lda] : A[i + p * lda]) : 0.0;
                        arow[p] = dfs_df_scaled(x, ea[i]);
                    }
                    dfs_df acc = dfs_df_make(0.0f, 0.0f);
                    for (int64_t p = 0; p < Kp; p++)
                        acc = mad(scheme, acc, arow[p], bcol[p], p);
                    b64 = dfs_df_needs_binary64(acc, sa[i], sb[j]);
                    ab = ldexp(dfs_df_to_double(acc), ea[i] + eb[j]);
                }
                if (b64) { /* Inf or NaN, or products in binary32's subnormals: binary64 */
                    ab = 0.0;
                    for (int64_t p = 0; p < k; p++)
                        ab = fma(ta ? A[p + i * lda] : A[i + p * lda],
                                 tb ? B[j + p * ldb] : B[p + j * ldb], ab);
                }
                r = alpha * ab;
            }
            double *c = &C[i + j * ldc];
            if (beta != 0.0)
                r = r + beta * *c;
            *c = r;
        }
    }
out:
    free(ea);
    free(eb);
    free(arow);
    free(bcol);
}

void dfs_df_gemm_df_host(int scheme, int ta, int tb, int64_t m, int64_t n, int64_t k,
                         const float alpha[2], const float *A, int64_t lda, const float *B,
                         int64_t ldb, const float beta[2], float *C, int64_t ldc)
{
    const int64_t Kp = k > 0 ? (k + DFS_DF_BK - 1) / DFS_DF_BK * DFS_DF_BK : DFS_DF_BK;
    const dfs_df al = dfs_df_make(alpha[0], alpha[1]), be = dfs_df_make(beta[0], beta[1]);
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < m; i++) {
            dfs_df acc = dfs_df_make(0.0f, 0.0f);
            for (int64_t p = 0; p < Kp; p++) {
                dfs_df a = dfs_df_make(0.0f, 0.0f), b = a;
                if (p < k) {
                    const float *x = &A[2 * (ta ? p + i * lda : i + p * lda)];
                    const float *y = &B[2 * (tb ? j + p * ldb : p + j * ldb)];
                    a = dfs_df_make(x[0], x[1]);
                    b = dfs_df_make(y[0], y[1]);
                }
                acc = mad(scheme, acc, a, b, p);
            }
            float *c = &C[2 * (i + j * ldc)];
            const dfs_df cv = dfs_df_make(c[0], c[1]);
            const dfs_df r = dfs_df_axpby(scheme, al, acc, be, &cv);
            c[0] = r.hi;
            c[1] = r.lo;
        }
}
