/* host.c — the double-double mode on the CPU (see host.h).  Compiled with -ffp-contract=off. */
#include "host.h"

#include "../common/dd.h"

#include <math.h>

/* RN(alpha * sum_q a[q*sa] b[q*sb] + beta * c) accumulated in double-double (host.h). */
static double one_output(int64_t K, const double *a, int64_t sa, const double *b, int64_t sb,
                         double alpha, double beta, double c)
{
    dfs_dd acc = dfs_dd_from_double(0.0);
    int special = 0;
    if (alpha != 0)
        for (int64_t q = 0; q < K; q++) {
            const double x = a[q * sa], y = b[q * sb];
            if (!isfinite(x) || !isfinite(y)) {
                special = 1;
                break;
            }
            double e, p = dfs_d_two_prod(x, y, &e);
            acc = dfs_dd_add_accurate(acc, dfs_dd_make(p, e));
        }
    if (special || !isfinite(acc.hi) || !isfinite(alpha) || (beta != 0 && !isfinite(beta * c))) {
        /* IEEE kinds as native: the plain binary64 sum */
        double s = 0.0;
        for (int64_t q = 0; q < K; q++)
            s = fma(a[q * sa], b[q * sb], s);
        return beta != 0 ? alpha * s + beta * c : alpha * s;
    }
    dfs_dd r = alpha != 0 ? dfs_dd_mul_accurate(dfs_dd_from_double(alpha), acc)
                          : dfs_dd_from_double(0.0);
    if (beta != 0) {
        double e, p = dfs_d_two_prod(beta, c, &e);
        r = dfs_dd_add_accurate(r, dfs_dd_make(p, e));
    }
    return dfs_dd_to_double(r);
}

static const double *vec_base(const double *x, int64_t n, int64_t inc)
{
    return inc < 0 ? x + (n - 1) * -inc : x;
}

double dfs_dd_dot_host(int64_t n, const double *x, int64_t incx, const double *y, int64_t incy)
{
    if (n <= 0)
        return 0.0;
    return one_output(n, vec_base(x, n, incx), incx, vec_base(y, n, incy), incy, 1.0, 0.0, 0.0);
}

void dfs_dd_gemv_host(int trans, int64_t m, int64_t n, double alpha, const double *A, int64_t lda,
                      const double *x, int64_t incx, double beta, double *y, int64_t incy)
{
    if (m <= 0 || n <= 0)
        return;
    const int64_t rows = trans ? n : m, K = trans ? m : n;
    const double *xb = vec_base(x, K, incx);
    double *yb = (double *)vec_base(y, rows, incy);
    for (int64_t i = 0; i < rows; i++) {
        double *yi = yb + i * incy;
        *yi = one_output(K, trans ? A + i * lda : A + i, trans ? 1 : lda, xb, incx, alpha, beta,
                         beta != 0 ? *yi : 0.0);
    }
}

void dfs_dd_gemm_host(int transa, int transb, int64_t m, int64_t n, int64_t k, double alpha,
                      const double *A, int64_t lda, const double *B, int64_t ldb, double beta,
                      double *C, int64_t ldc)
{
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < m; i++) {
            double *c = &C[i + j * ldc];
            /* row i of op(A), column j of op(B), as strided vectors */
            *c = one_output(k, transa ? A + i * lda : A + i, transa ? 1 : lda,
                            transb ? B + j : B + j * ldb, transb ? ldb : 1, alpha, beta,
                            beta != 0 ? *c : 0.0);
        }
}
