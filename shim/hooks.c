/* hooks.c — the exported cuBLAS symbols.  Each hook packs its arguments into a call record,
 * classifies them with cuBLAS's own rules (check.c) and hands them to dispatch.c.  Nothing here
 * knows arithmetic.  Exported unversioned, so they interpose libcublas.so.12 and .13 alike; the
 * legacy non-_v2 names (cublas.h, their own ABI) are in legacy.c. */
#include "check.h"
#include "dispatch.h"
#include "../core/resolve.h"
#include "state.h"

#include <stdlib.h>

#define DFS_EXPORT __attribute__((visibility("default")))

/* ---------- GEMM ---------- */

/* The call record of a real (type DFS_R64) or complex (DFS_C64: the pointers are to the
 * interleaved parts) GEMM, classified and dispatched. */
static cublasStatus_t gemm_t(dfs_api api, dfs_dtype type, cublasHandle_t h, cublasOperation_t ta,
                             cublasOperation_t tb, int64_t m, int64_t n, int64_t k,
                             const void *alpha, const void *A, int64_t lda, long long sA,
                             const void *B, int64_t ldb, long long sB, const void *beta, void *C,
                             int64_t ldc, long long sC, int64_t batch, cublasGemmAlgo_t algo)
{
    dfs_gemm_call c = {api, ta, tb, m, n, k, alpha, A, lda, sA, B, ldb, sB, beta, C, ldc, sC,
                       batch, algo, type, NULL, NULL, NULL, DFS_TRI_ALL};
    int ex = api == DFS_API_GEMMEX || api == DFS_API_GEMMEX_64 || api == DFS_API_GEMMEX_STRIDED ||
             api == DFS_API_GEMMEX_STRIDED_64;
    dfs_args a = dfs_check_gemm(h, ex, ta, tb, m, n, k, lda, ldb, ldc, batch, algo, NULL);
    return dfs_dispatch_gemm(h, &c, a);
}

static cublasStatus_t gemm(dfs_api api, cublasHandle_t h, cublasOperation_t ta,
                           cublasOperation_t tb, int64_t m, int64_t n, int64_t k,
                           const double *alpha, const double *A, int64_t lda, long long sA,
                           const double *B, int64_t ldb, long long sB, const double *beta,
                           double *C, int64_t ldc, long long sC, int64_t batch,
                           cublasGemmAlgo_t algo)
{
    return gemm_t(api, DFS_R64, h, ta, tb, m, n, k, alpha, A, lda, sA, B, ldb, sB, beta, C, ldc,
                  sC, batch, algo);
}

DFS_EXPORT cublasStatus_t cublasDgemm_v2(cublasHandle_t h, cublasOperation_t ta,
                                         cublasOperation_t tb, int m, int n, int k,
                                         const double *alpha, const double *A, int lda,
                                         const double *B, int ldb, const double *beta, double *C,
                                         int ldc)
{
    return gemm(DFS_API_DGEMM, h, ta, tb, m, n, k, alpha, A, lda, 0, B, ldb, 0, beta, C, ldc, 0, 1,
                CUBLAS_GEMM_DEFAULT);
}

DFS_EXPORT cublasStatus_t cublasDgemm_v2_64(cublasHandle_t h, cublasOperation_t ta,
                                            cublasOperation_t tb, int64_t m, int64_t n, int64_t k,
                                            const double *alpha, const double *A, int64_t lda,
                                            const double *B, int64_t ldb, const double *beta,
                                            double *C, int64_t ldc)
{
    return gemm(DFS_API_DGEMM_64, h, ta, tb, m, n, k, alpha, A, lda, 0, B, ldb, 0, beta, C, ldc, 0,
                1, CUBLAS_GEMM_DEFAULT);
}

DFS_EXPORT cublasStatus_t cublasDgemmStridedBatched(
    cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
    const double *alpha, const double *A, int lda, long long sA, const double *B, int ldb,
    long long sB, const double *beta, double *C, int ldc, long long sC, int batch)
{
    return gemm(DFS_API_DGEMM_STRIDED, h, ta, tb, m, n, k, alpha, A, lda, sA, B, ldb, sB, beta, C,
                ldc, sC, batch, CUBLAS_GEMM_DEFAULT);
}

DFS_EXPORT cublasStatus_t cublasDgemmStridedBatched_64(
    cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int64_t m, int64_t n, int64_t k,
    const double *alpha, const double *A, int64_t lda, long long sA, const double *B, int64_t ldb,
    long long sB, const double *beta, double *C, int64_t ldc, long long sC, int64_t batch)
{
    return gemm(DFS_API_DGEMM_STRIDED_64, h, ta, tb, m, n, k, alpha, A, lda, sA, B, ldb, sB, beta,
                C, ldc, sC, batch, CUBLAS_GEMM_DEFAULT);
}

/* GemmEx: the engine path only for A, B, C all in FP64 or all in complex FP64 with
 * CUBLAS_COMPUTE_64F (dfs_check_ex_types); every other call goes to cuBLAS untouched. */
#define EX_TYPE(at) ((at) == CUDA_C_64F ? DFS_C64 : DFS_R64)

#define GEMMEX(name, api, I)                                                                       \
    DFS_EXPORT cublasStatus_t name(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb,   \
                                   I m, I n, I k, const void *alpha, const void *A,                \
                                   cudaDataType at, I lda, const void *B, cudaDataType bt, I ldb,  \
                                   const void *beta, void *C, cudaDataType ct, I ldc,              \
                                   cublasComputeType_t ctype, cublasGemmAlgo_t algo)               \
    {                                                                                              \
        if (!dfs_check_ex_types(at, bt, ct, ctype)) {                                              \
            if (!DFS_REAL(name))                                                                   \
                return CUBLAS_STATUS_NOT_INITIALIZED;                                              \
            cublasStatus_t st = DFS_REAL(name)(h, ta, tb, m, n, k, alpha, A, at, lda, B, bt, ldb,  \
                                               beta, C, ct, ldc, ctype, algo);                     \
            dfs_trace_forwarded(#name, m, n, k, st);                                               \
            return st;                                                                             \
        }                                                                                          \
        return gemm_t(api, EX_TYPE(at), h, ta, tb, m, n, k, alpha, A, lda, 0, B, ldb, 0, beta, C,  \
                      ldc, 0, 1, algo);                                                            \
    }
GEMMEX(cublasGemmEx, DFS_API_GEMMEX, int)
GEMMEX(cublasGemmEx_64, DFS_API_GEMMEX_64, int64_t)

#define GEMMEX_STRIDED(name, api, I)                                                               \
    DFS_EXPORT cublasStatus_t name(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb,   \
                                   I m, I n, I k, const void *alpha, const void *A,                \
                                   cudaDataType at, I lda, long long sA, const void *B,            \
                                   cudaDataType bt, I ldb, long long sB, const void *beta,         \
                                   void *C, cudaDataType ct, I ldc, long long sC, I batch,         \
                                   cublasComputeType_t ctype, cublasGemmAlgo_t algo)               \
    {                                                                                              \
        if (!dfs_check_ex_types(at, bt, ct, ctype)) {                                              \
            if (!DFS_REAL(name))                                                                   \
                return CUBLAS_STATUS_NOT_INITIALIZED;                                              \
            cublasStatus_t st =                                                                    \
                DFS_REAL(name)(h, ta, tb, m, n, k, alpha, A, at, lda, sA, B, bt, ldb, sB, beta, C, \
                               ct, ldc, sC, batch, ctype, algo);                                   \
            dfs_trace_forwarded(#name, m, n, k, st);                                               \
            return st;                                                                             \
        }                                                                                          \
        return gemm_t(api, EX_TYPE(at), h, ta, tb, m, n, k, alpha, A, lda, sA, B, ldb, sB, beta,   \
                      C, ldc, sC, batch, algo);                                                    \
    }
GEMMEX_STRIDED(cublasGemmStridedBatchedEx, DFS_API_GEMMEX_STRIDED, int)
GEMMEX_STRIDED(cublasGemmStridedBatchedEx_64, DFS_API_GEMMEX_STRIDED_64, int64_t)

/* ---------- ZGEMM ---------- */

DFS_EXPORT cublasStatus_t cublasZgemm_v2(cublasHandle_t h, cublasOperation_t ta,
                                         cublasOperation_t tb, int m, int n, int k,
                                         const cuDoubleComplex *alpha, const cuDoubleComplex *A,
                                         int lda, const cuDoubleComplex *B, int ldb,
                                         const cuDoubleComplex *beta, cuDoubleComplex *C, int ldc)
{
    return gemm_t(DFS_API_ZGEMM, DFS_C64, h, ta, tb, m, n, k, alpha, A, lda, 0, B, ldb, 0, beta, C,
                  ldc, 0, 1, CUBLAS_GEMM_DEFAULT);
}

DFS_EXPORT cublasStatus_t cublasZgemm_v2_64(cublasHandle_t h, cublasOperation_t ta,
                                            cublasOperation_t tb, int64_t m, int64_t n, int64_t k,
                                            const cuDoubleComplex *alpha, const cuDoubleComplex *A,
                                            int64_t lda, const cuDoubleComplex *B, int64_t ldb,
                                            const cuDoubleComplex *beta, cuDoubleComplex *C,
                                            int64_t ldc)
{
    return gemm_t(DFS_API_ZGEMM_64, DFS_C64, h, ta, tb, m, n, k, alpha, A, lda, 0, B, ldb, 0, beta,
                  C, ldc, 0, 1, CUBLAS_GEMM_DEFAULT);
}

/* Zgemm3m: the caller accepts the three-product method's rounding; the engines compute it as
 * ZGEMM (each within its own contract), natively it stays Zgemm3m. */
DFS_EXPORT cublasStatus_t cublasZgemm3m(cublasHandle_t h, cublasOperation_t ta,
                                        cublasOperation_t tb, int m, int n, int k,
                                        const cuDoubleComplex *alpha, const cuDoubleComplex *A,
                                        int lda, const cuDoubleComplex *B, int ldb,
                                        const cuDoubleComplex *beta, cuDoubleComplex *C, int ldc)
{
    return gemm_t(DFS_API_ZGEMM3M, DFS_C64, h, ta, tb, m, n, k, alpha, A, lda, 0, B, ldb, 0, beta,
                  C, ldc, 0, 1, CUBLAS_GEMM_DEFAULT);
}

DFS_EXPORT cublasStatus_t cublasZgemm3m_64(cublasHandle_t h, cublasOperation_t ta,
                                           cublasOperation_t tb, int64_t m, int64_t n, int64_t k,
                                           const cuDoubleComplex *alpha, const cuDoubleComplex *A,
                                           int64_t lda, const cuDoubleComplex *B, int64_t ldb,
                                           const cuDoubleComplex *beta, cuDoubleComplex *C,
                                           int64_t ldc)
{
    return gemm_t(DFS_API_ZGEMM3M_64, DFS_C64, h, ta, tb, m, n, k, alpha, A, lda, 0, B, ldb, 0,
                  beta, C, ldc, 0, 1, CUBLAS_GEMM_DEFAULT);
}

DFS_EXPORT cublasStatus_t cublasZgemmStridedBatched(
    cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
    const cuDoubleComplex *alpha, const cuDoubleComplex *A, int lda, long long sA,
    const cuDoubleComplex *B, int ldb, long long sB, const cuDoubleComplex *beta,
    cuDoubleComplex *C, int ldc, long long sC, int batch)
{
    return gemm_t(DFS_API_ZGEMM_STRIDED, DFS_C64, h, ta, tb, m, n, k, alpha, A, lda, sA, B, ldb, sB,
                  beta, C, ldc, sC, batch, CUBLAS_GEMM_DEFAULT);
}

DFS_EXPORT cublasStatus_t cublasZgemmStridedBatched_64(
    cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int64_t m, int64_t n, int64_t k,
    const cuDoubleComplex *alpha, const cuDoubleComplex *A, int64_t lda, long long sA,
    const cuDoubleComplex *B, int64_t ldb, long long sB, const cuDoubleComplex *beta,
    cuDoubleComplex *C, int64_t ldc, long long sC, int64_t batch)
{
    return gemm_t(DFS_API_ZGEMM_STRIDED_64, DFS_C64, h, ta, tb, m, n, k, alpha, A, lda, sA, B, ldb,
                  sB, beta, C, ldc, sC, batch, CUBLAS_GEMM_DEFAULT);
}

/* ---------- GEMV and DOT ---------- */

static cublasStatus_t gemv(dfs_api api, dfs_dtype type, cublasHandle_t h, cublasOperation_t t,
                           int64_t m, int64_t n, const double *alpha, const double *A,
                           int64_t lda, const double *x, int64_t incx, const double *beta,
                           double *y, int64_t incy)
{
    dfs_gemv_call c = {api, t, m, n, alpha, A, lda, x, incx, beta, y, incy, type};
    dfs_args a = dfs_check_gemv(h, t, m, n, lda, incx, incy, NULL);
    return dfs_dispatch_gemv(h, &c, a);
}

DFS_EXPORT cublasStatus_t cublasDgemv_v2(cublasHandle_t h, cublasOperation_t t, int m, int n,
                                         const double *alpha, const double *A, int lda,
                                         const double *x, int incx, const double *beta, double *y,
                                         int incy)
{
    return gemv(DFS_API_DGEMV, DFS_R64, h, t, m, n, alpha, A, lda, x, incx, beta, y, incy);
}

DFS_EXPORT cublasStatus_t cublasDgemv_v2_64(cublasHandle_t h, cublasOperation_t t, int64_t m,
                                            int64_t n, const double *alpha, const double *A,
                                            int64_t lda, const double *x, int64_t incx,
                                            const double *beta, double *y, int64_t incy)
{
    return gemv(DFS_API_DGEMV_64, DFS_R64, h, t, m, n, alpha, A, lda, x, incx, beta, y, incy);
}

/* Zgemv: the complex call record (interleaved parts). */
DFS_EXPORT cublasStatus_t cublasZgemv_v2(cublasHandle_t h, cublasOperation_t t, int m, int n,
                                         const cuDoubleComplex *alpha, const cuDoubleComplex *A,
                                         int lda, const cuDoubleComplex *x, int incx,
                                         const cuDoubleComplex *beta, cuDoubleComplex *y,
                                         int incy)
{
    return gemv(DFS_API_ZGEMV, DFS_C64, h, t, m, n, (const double *)alpha, (const double *)A,
                lda, (const double *)x, incx, (const double *)beta, (double *)y, incy);
}

DFS_EXPORT cublasStatus_t cublasZgemv_v2_64(cublasHandle_t h, cublasOperation_t t, int64_t m,
                                            int64_t n, const cuDoubleComplex *alpha,
                                            const cuDoubleComplex *A, int64_t lda,
                                            const cuDoubleComplex *x, int64_t incx,
                                            const cuDoubleComplex *beta, cuDoubleComplex *y,
                                            int64_t incy)
{
    return gemv(DFS_API_ZGEMV_64, DFS_C64, h, t, m, n, (const double *)alpha, (const double *)A,
                lda, (const double *)x, incx, (const double *)beta, (double *)y, incy);
}

static cublasStatus_t dot(dfs_api api, cublasHandle_t h, int64_t n, const double *x, int64_t incx,
                          const double *y, int64_t incy, double *result)
{
    dfs_dot_call c = {api, n, x, incx, y, incy, result, DFS_R64, 0};
    dfs_args a = dfs_check_dot(h, n, result, NULL);
    return dfs_dispatch_dot(h, &c, a);
}

DFS_EXPORT cublasStatus_t cublasDdot_v2(cublasHandle_t h, int n, const double *x, int incx,
                                        const double *y, int incy, double *result)
{
    return dot(DFS_API_DDOT, h, n, x, incx, y, incy, result);
}

DFS_EXPORT cublasStatus_t cublasDdot_v2_64(cublasHandle_t h, int64_t n, const double *x,
                                           int64_t incx, const double *y, int64_t incy,
                                           double *result)
{
    return dot(DFS_API_DDOT_64, h, n, x, incx, y, incy, result);
}

/* Zdotc (conj = 1) and Zdotu: the complex call record (interleaved parts). */
static cublasStatus_t zdot(dfs_api api, int conj, cublasHandle_t h, int64_t n,
                           const cuDoubleComplex *x, int64_t incx, const cuDoubleComplex *y,
                           int64_t incy, cuDoubleComplex *result)
{
    dfs_dot_call c = {api, n, (const double *)x, incx, (const double *)y, incy, (double *)result,
                      DFS_C64, conj};
    dfs_args a = dfs_check_dot(h, n, (const double *)result, NULL);
    return dfs_dispatch_dot(h, &c, a);
}

DFS_EXPORT cublasStatus_t cublasZdotc_v2(cublasHandle_t h, int n, const cuDoubleComplex *x,
                                         int incx, const cuDoubleComplex *y, int incy,
                                         cuDoubleComplex *result)
{
    return zdot(DFS_API_ZDOTC, 1, h, n, x, incx, y, incy, result);
}

DFS_EXPORT cublasStatus_t cublasZdotc_v2_64(cublasHandle_t h, int64_t n, const cuDoubleComplex *x,
                                            int64_t incx, const cuDoubleComplex *y, int64_t incy,
                                            cuDoubleComplex *result)
{
    return zdot(DFS_API_ZDOTC_64, 1, h, n, x, incx, y, incy, result);
}

DFS_EXPORT cublasStatus_t cublasZdotu_v2(cublasHandle_t h, int n, const cuDoubleComplex *x,
                                         int incx, const cuDoubleComplex *y, int incy,
                                         cuDoubleComplex *result)
{
    return zdot(DFS_API_ZDOTU, 0, h, n, x, incx, y, incy, result);
}

DFS_EXPORT cublasStatus_t cublasZdotu_v2_64(cublasHandle_t h, int64_t n, const cuDoubleComplex *x,
                                            int64_t incx, const cuDoubleComplex *y, int64_t incy,
                                            cuDoubleComplex *result)
{
    return zdot(DFS_API_ZDOTU_64, 0, h, n, x, incx, y, incy, result);
}

/* ---------- handle lifetime ---------- */

/* Frees this handle's state (timing events, the engines' scratch space) before the real
 * destroy, while the handle's context is still alive. */
DFS_EXPORT cublasStatus_t cublasDestroy_v2(cublasHandle_t h)
{
    dfs_handle_state *s = h ? dfs_handle_take(h) : NULL;
    if (s) {
        dfs_timing_release(s);
        dfs_scratch_release(&s->scratch);
        pthread_mutex_destroy(&s->scratch.lock);
        pthread_mutex_destroy(&s->lock);
        free(s);
    }
    if (!DFS_REAL(cublasDestroy_v2))
        return CUBLAS_STATUS_NOT_INITIALIZED;
    return DFS_REAL(cublasDestroy_v2)(h);
}
