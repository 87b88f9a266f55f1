/* reprohost.c — include/reprohost.h over the engine's CPU twin (host.h) with its default,
 * correctly rounding parameters. */
#include "../../include/reprohost.h"

#include "host.h"

static int op(char t)
{
    return t != 'N' && t != 'n';
}

double repro_ddot_host(int64_t n, const double *x, int64_t incx, const double *y, int64_t incy)
{
    const dfs_oz_params p = dfs_oz_default_params();
    dfs_oz_stats st;
    return dfs_oz_dot_host(&p, n, x, incx, y, incy, &st);
}

void repro_dgemv_host(char trans, int64_t m, int64_t n, double alpha, const double *A, int64_t lda,
                      const double *x, int64_t incx, double beta, double *y, int64_t incy)
{
    const dfs_oz_params p = dfs_oz_default_params();
    dfs_oz_stats st;
    dfs_oz_gemv_host(&p, op(trans), m, n, alpha, A, lda, x, incx, beta, y, incy, &st);
}

void repro_dgemm_host(char transa, char transb, int64_t m, int64_t n, int64_t k, double alpha,
                      const double *A, int64_t lda, const double *B, int64_t ldb, double beta,
                      double *C, int64_t ldc)
{
    const dfs_oz_params p = dfs_oz_default_params();
    dfs_oz_stats st;
    dfs_oz_gemm_host(&p, op(transa), op(transb), m, n, k, alpha, A, lda, B, ldb, beta, C, ldc, &st);
}

static int zop(char t)
{
    return t == 'C' || t == 'c' ? 2 : op(t);
}

int repro_zgemm_host(char transa, char transb, int64_t m, int64_t n, int64_t k,
                     const double alpha[2], const double *A, int64_t lda, const double *B,
                     int64_t ldb, const double beta[2], double *C, int64_t ldc)
{
    return dfs_repro_zgemm_host(zop(transa), zop(transb), m, n, k, alpha, A, lda, B, ldb, beta, C,
                                ldc);
}

int repro_zgemv_host(char trans, int64_t m, int64_t n, const double alpha[2], const double *A,
                     int64_t lda, const double *x, int64_t incx, const double beta[2], double *y,
                     int64_t incy)
{
    return dfs_repro_zgemv_host(zop(trans), m, n, alpha, A, lda, x, incx, beta, y, incy);
}
