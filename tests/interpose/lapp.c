/* lapp.c — a small "application library" linked to the stand-in libcublas.so.13, for the
 * RTLD_LOCAL test: test_rtld_local dlopen()s it with RTLD_NOW | RTLD_LOCAL, so libcublas.so.13
 * is loaded but only in this library's local scope.  Its cuBLAS calls still bind to the
 * preloaded shim (global scope first), where dlsym(RTLD_NEXT) cannot see the real library. */
#include <cublas_api.h>

#define EXPORT __attribute__((visibility("default")))

EXPORT cublasStatus_t lapp_create(cublasHandle_t *h)
{
    return cublasCreate_v2(h);
}

EXPORT cublasStatus_t lapp_destroy(cublasHandle_t h)
{
    return cublasDestroy_v2(h);
}

EXPORT cublasStatus_t lapp_dgemm(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb,
                                 int m, int n, int k, const double *alpha, const double *A,
                                 int lda, const double *B, int ldb, const double *beta, double *C,
                                 int ldc)
{
    return cublasDgemm_v2(h, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}

EXPORT cublasStatus_t lapp_dgemm64(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb,
                                   int64_t m, int64_t n, int64_t k, const double *alpha,
                                   const double *A, int64_t lda, const double *B, int64_t ldb,
                                   const double *beta, double *C, int64_t ldc)
{
    return cublasDgemm_v2_64(h, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}

EXPORT cublasStatus_t lapp_dgemv(cublasHandle_t h, cublasOperation_t t, int m, int n,
                                 const double *alpha, const double *A, int lda, const double *x,
                                 int incx, const double *beta, double *y, int incy)
{
    return cublasDgemv_v2(h, t, m, n, alpha, A, lda, x, incx, beta, y, incy);
}

EXPORT cublasStatus_t lapp_ddot(cublasHandle_t h, int n, const double *x, int incx,
                                const double *y, int incy, double *result)
{
    return cublasDdot_v2(h, n, x, incx, y, incy, result);
}

/* An FP32 GemmEx: forwarded by the shim, through the same lookup. */
EXPORT cublasStatus_t lapp_sgemm_ex(cublasHandle_t h, int m, int n, int k, const float *alpha,
                                    const float *A, int lda, const float *B, int ldb,
                                    const float *beta, float *C, int ldc)
{
    return cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, alpha, A, CUDA_R_32F, lda, B,
                        CUDA_R_32F, ldb, beta, C, CUDA_R_32F, ldc, CUBLAS_COMPUTE_32F,
                        CUBLAS_GEMM_DEFAULT);
}
