/* fake_cublas_impl.h — the stand-in libcublas.so.13's internals shared by its two files:
 * fake_cublas.c (call counters, handles, the legacy API) and fake_cublas_v2.c (the v2 BLAS
 * routines).  Built with hidden visibility: only what EXPORT marks is exported. */
#ifndef FAKE_CUBLAS_IMPL_H
#define FAKE_CUBLAS_IMPL_H

#include "fake_cublas.h"

#include <stdint.h>

#define EXPORT __attribute__((visibility("default")))

/* ---------- call counters and injected failures (fake_cublas.c) ---------- */

extern fake_gemmex_args last_ex; /* what fake_cublas_last_gemmex() returns */

/* Counts the call; returns 1 (with *st set) when a failure was injected for it. */
int enter(const char *name, cublasStatus_t *st);

#define ENTER()                                                                                    \
    do {                                                                                           \
        cublasStatus_t injected_;                                                                  \
        if (enter(__func__, &injected_))                                                           \
            return injected_;                                                                      \
    } while (0)

/* ---------- handles (fake_cublas.c) ---------- */

#define HANDLE_MAGIC 0x66616b65u

struct cublasContext {
    unsigned magic;
    cudaStream_t stream;
    cublasPointerMode_t pointer_mode;
    cublasMath_t math_mode;
};

int bad_handle(cublasHandle_t h);

/* ---------- the routines behind the v2 and legacy entry points (fake_cublas_v2.c) ---------- */

cublasStatus_t dgemm(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int64_t m,
                     int64_t n, int64_t k, const double *alpha, const double *A, int64_t lda,
                     long long sA, const double *B, int64_t ldb, long long sB, const double *beta,
                     double *C, int64_t ldc, long long sC, int64_t batch);
cublasStatus_t dgemv(cublasHandle_t h, cublasOperation_t t, int64_t m, int64_t n,
                     const double *alpha, const double *A, int64_t lda, const double *x,
                     int64_t incx, const double *beta, double *y, int64_t incy);
cublasStatus_t ddot(cublasHandle_t h, int64_t n, const double *x, int64_t incx, const double *y,
                    int64_t incy, double *result);

#endif
