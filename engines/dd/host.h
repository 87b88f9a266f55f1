/* host.h — the dd mode's DDOT, DGEMV and DGEMM on the CPU: the GPU engine's steps in its order
 * (dd_steps.h), so that the GPU's results can be compared bit for bit and CI can check them
 * against MPFR.  Each output is accumulated in double-double and rounded once; outputs whose DD
 * result is not finite take the plain binary64 sum of the same order (IEEE kinds as native).
 * beta == 0 never reads C, alpha == 0 never reads A and B.  Increments as cuBLAS (negative ones
 * walk from the end). */
#ifndef DFS_DD_HOST_H
#define DFS_DD_HOST_H

#include <stdint.h>

double dfs_dd_dot_host(int64_t n, const double *x, int64_t incx, const double *y, int64_t incy);

/* trans: 0 = N, 1 = T (or C) */
void dfs_dd_gemv_host(int trans, int64_t m, int64_t n, double alpha, const double *A, int64_t lda,
                      const double *x, int64_t incx, double beta, double *y, int64_t incy);

/* transa, transb: 0 = N, 1 = T (or C) */
void dfs_dd_gemm_host(int transa, int transb, int64_t m, int64_t n, int64_t k, double alpha,
                      const double *A, int64_t lda, const double *B, int64_t ldb, double beta,
                      double *C, int64_t ldc);

/* C = alpha * op(A) op(B) + beta C for complex double (each element two doubles, re and im, as
 * cuDoubleComplex), column-major; transa/transb: 0 = N, 1 = T, 2 = C (conjugate transpose);
 * alpha and beta two doubles each (zhost.c: the order, what is read). */
void dfs_dd_zgemm_host(int transa, int transb, int64_t m, int64_t n, int64_t k,
                       const double alpha[2], const double *A, int64_t lda, const double *B,
                       int64_t ldb, const double beta[2], double *C, int64_t ldc);

#endif
