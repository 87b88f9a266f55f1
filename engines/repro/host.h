/* host.h — the reproducible engine's DDOT, DGEMV and DGEMM on the CPU: the same exact
 * accumulation (fpe.h, xacc.h) and the same Ozaki split (../oz/steps.h) as the GPU, so the
 * results are bit for bit the GPU's.  With the default parameters every result is the correctly
 * rounded value RN(alpha * sum(a*b) + beta * c), see engines/oz/README.md for the exact promise.
 * For the tests, and for users who want the same bits on the host.  The DGEMM on the integer
 * path (products=int8) has its twin in ../oz/host_crt.h. */
#ifndef DFS_REPRO_HOST_H
#define DFS_REPRO_HOST_H

#include "../oz/host_crt.h"

#include <stdint.h>

enum { DFS_OZ_SUM_EXACT = 0, DFS_OZ_SUM_FIXED = 1 };

typedef struct {
    /* DGEMM */
    int splits;     /* 0: as many slices as each row and column needs (correctly rounded);
                       N > 0: exactly N, the rest dropped (reproducible, not correctly rounded) */
    int max_splits; /* splits == 0: rows and columns that need more are computed directly */
    int fast;       /* with splits > 0: skip slice pairs i + j >= N (the paper's FS) */
    int sum;        /* DFS_OZ_SUM_EXACT, or DFS_OZ_SUM_FIXED (with splits > 0; else exact): the
                       partials added in a fixed order in binary64 and C = fma(alpha, S, beta*C)
                       (reproducible, ~1 ulp) */
    /* DDOT and DGEMV */
    int terms; /* expansion terms per thread, 1..4 */
    int lanes; /* threads that share one output's products (the result never depends on it) */
} dfs_oz_params;

/* The defaults: correctly rounded. */
dfs_oz_params dfs_oz_default_params(void);

/* x . y (cuBLAS's increments: negative ones walk the vector from its end). */
double dfs_oz_dot_host(const dfs_oz_params *p, int64_t n, const double *x, int64_t incx,
                       const double *y, int64_t incy, dfs_oz_stats *st);

/* y = alpha * op(A) x + beta y, column-major; trans: 0 = N, 1 = T (or C). */
void dfs_oz_gemv_host(const dfs_oz_params *p, int trans, int64_t m, int64_t n, double alpha,
                      const double *A, int64_t lda, const double *x, int64_t incx, double beta,
                      double *y, int64_t incy, dfs_oz_stats *st);

/* C = alpha * op(A) op(B) + beta C, column-major; transa/transb: 0 = N, 1 = T (or C). */
void dfs_oz_gemm_host(const dfs_oz_params *p, int transa, int transb, int64_t m, int64_t n,
                      int64_t k, double alpha, const double *A, int64_t lda, const double *B,
                      int64_t ldb, double beta, double *C, int64_t ldc, dfs_oz_stats *st);

/* C = alpha * op(A) op(B) + beta C for complex double (each element two doubles, re and im,
 * as cuDoubleComplex), column-major; transa/transb: 0 = N, 1 = T, 2 = C (conjugate transpose);
 * alpha and beta two doubles each.  Every part correctly rounded (zhost.c says how, and what is
 * read).  Returns 0, or -1 when out of memory (C untouched). */
int dfs_repro_zgemm_host(int transa, int transb, int64_t m, int64_t n, int64_t k,
                         const double alpha[2], const double *A, int64_t lda, const double *B,
                         int64_t ldb, const double beta[2], double *C, int64_t ldc);

/* y = alpha * op(A) x + beta y for complex double (as dfs_repro_zgemm_host: each part of every
 * output correctly rounded, zhost.c), cuBLAS's increments (negative ones walk a vector from its
 * end); trans: 0 = N, 1 = T, 2 = C.  m or n <= 0: nothing.  Returns 0, or -1 when out of memory
 * (y untouched). */
int dfs_repro_zgemv_host(int trans, int64_t m, int64_t n, const double alpha[2], const double *A,
                         int64_t lda, const double *x, int64_t incx, const double beta[2],
                         double *y, int64_t incy);

#endif
