/* host.h — the double-double mode's DDOT, DGEMV and DGEMM on the CPU: each output accumulated in
 * double-double and rounded once (issue 9's `dd` mode; the GPU kernels are to compute exactly
 * these steps, so that their results can be compared bit for bit).  Per output:
 *   acc = sum of TwoProd(a_k, b_k), each added with AccurateDWPlusDW (dd.h), in index order;
 *   r   = RN(alpha * acc + beta * c): alpha * acc with DWTimesDW3, beta * c by TwoProd, added
 *         with AccurateDWPlusDW, converted once.
 * So the error is a few u^2 of sum |a_k b_k| (u = 2^-53) before the one rounding: the result is
 * the correctly rounded one except near ties.  Outputs that meet Inf or NaN are computed in plain
 * binary64 (native's IEEE kinds); beta == 0 never reads C, alpha == 0 never reads A and B.
 * Increments as cuBLAS (negative ones walk from the end). */
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

#endif
