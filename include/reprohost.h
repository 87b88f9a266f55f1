/* reprohost.h — the reproducible engine's results on the CPU: DDOT, DGEMV and DGEMM, each output
 * correctly rounded, RN(alpha * sum a b + beta * c) (IEEE results where an operand is Inf or
 * NaN), bit for bit what EXBLAS_MODE=repro gives on any GPU.  Column-major, cuBLAS's argument
 * order and conventions (negative increments walk a vector from its end); trans is 'N', 'T' or
 * 'C' (the same on real data).  Arguments are not checked: pass what cuBLAS would accept.  Plain
 * C, no GPU needed (the static library libreprohost.a of the build). */
#ifndef REPROHOST_H
#define REPROHOST_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

double repro_ddot_host(int64_t n, const double *x, int64_t incx, const double *y, int64_t incy);

void repro_dgemv_host(char trans, int64_t m, int64_t n, double alpha, const double *A, int64_t lda,
                      const double *x, int64_t incx, double beta, double *y, int64_t incy);

void repro_dgemm_host(char transa, char transb, int64_t m, int64_t n, int64_t k, double alpha,
                      const double *A, int64_t lda, const double *B, int64_t ldb, double beta,
                      double *C, int64_t ldc);

/* Complex double (cuDoubleComplex: each element two doubles, real part first; ld in elements),
 * trans 'N', 'T' or 'C' (the conjugate transpose), alpha and beta two doubles each: each part of
 * every output RN(Re / Im (alpha S + beta c)); a term whose scalar part is zero is left out (no
 * 0 * Inf).  What EXBLAS_MODE=repro gives where it computes complex GEMM (README.md).  Returns 0,
 * or -1 when out of memory (C untouched). */
int repro_zgemm_host(char transa, char transb, int64_t m, int64_t n, int64_t k,
                     const double alpha[2], const double *A, int64_t lda, const double *B,
                     int64_t ldb, const double beta[2], double *C, int64_t ldc);

/* Complex GEMV, y = alpha op(A) x + beta y, as repro_zgemm_host (each part of every output
 * correctly rounded, the same rules; increments as cuBLAS's); what EXBLAS_MODE=repro gives for
 * cublasZgemv.  Returns 0, or -1 when out of memory (y untouched). */
int repro_zgemv_host(char trans, int64_t m, int64_t n, const double alpha[2], const double *A,
                     int64_t lda, const double *x, int64_t incx, const double beta[2], double *y,
                     int64_t incy);

#ifdef __cplusplus
}
#endif

#endif
