/* fake_cublas_v2.c — the stand-in libcublas.so.13's v2 BLAS routines (GEMM, the GemmEx family,
 * GEMV, DOT, and their _64 forms), computed on the CPU; dgemm, dgemv and ddot also serve the
 * legacy API (fake_cublas.c). */
#include "fake_cublas_impl.h"

#include <stdint.h>

/* ---------- scalars ---------- */

/* A scalar argument: host memory in either pointer mode here, but read according to the mode
 * (a device-mode scalar would be read by the kernel, i.e. at the same point). */
static double scalar_d(cublasHandle_t h, const void *p)
{
    const double *d = p;
    return h->pointer_mode == CUBLAS_POINTER_MODE_DEVICE ? d[0] : *d;
}

static float scalar_s(cublasHandle_t h, const void *p)
{
    const float *f = p;
    return h->pointer_mode == CUBLAS_POINTER_MODE_DEVICE ? f[0] : *f;
}

/* ---------- argument rules ---------- */

static int valid_op(cublasOperation_t op)
{
    return op == CUBLAS_OP_N || op == CUBLAS_OP_T || op == CUBLAS_OP_C;
}

static int64_t max1(int64_t v)
{
    return v > 1 ? v : 1;
}

static cublasStatus_t check_gemm(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb,
                                 int64_t m, int64_t n, int64_t k, int64_t lda, int64_t ldb,
                                 int64_t ldc, int64_t batch)
{
    if (bad_handle(h))
        return CUBLAS_STATUS_NOT_INITIALIZED;
    if (!valid_op(ta) || !valid_op(tb) || m < 0 || n < 0 || k < 0 || batch < 0)
        return CUBLAS_STATUS_INVALID_VALUE;
    if (lda < max1(ta == CUBLAS_OP_N ? m : k) || ldb < max1(tb == CUBLAS_OP_N ? k : n) ||
        ldc < max1(m))
        return CUBLAS_STATUS_INVALID_VALUE;
    return CUBLAS_STATUS_SUCCESS;
}

/* ---------- GEMM ---------- */

/* Element (i, l) of op(X) for a column-major X with leading dimension ld. */
#define OPEL(X, op, i, l, ld) ((op) == CUBLAS_OP_N ? (X)[(i) + (l) * (ld)] : (X)[(l) + (i) * (ld)])

static void dgemm_one(cublasOperation_t ta, cublasOperation_t tb, int64_t m, int64_t n, int64_t k,
                      double alpha, const double *A, int64_t lda, const double *B, int64_t ldb,
                      double beta, double *C, int64_t ldc)
{
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < m; i++) {
            double s = 0;
            if (alpha != 0)
                for (int64_t l = 0; l < k; l++)
                    s += OPEL(A, ta, i, l, lda) * OPEL(B, tb, l, j, ldb);
            double *c = &C[i + j * ldc];
            *c = beta == 0 ? alpha * s : alpha * s + beta * *c;
        }
}

static void sgemm_one(cublasOperation_t ta, cublasOperation_t tb, int64_t m, int64_t n, int64_t k,
                      float alpha, const float *A, int64_t lda, const float *B, int64_t ldb,
                      float beta, float *C, int64_t ldc)
{
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < m; i++) {
            float s = 0;
            if (alpha != 0)
                for (int64_t l = 0; l < k; l++)
                    s += OPEL(A, ta, i, l, lda) * OPEL(B, tb, l, j, ldb);
            float *c = &C[i + j * ldc];
            *c = beta == 0 ? alpha * s : alpha * s + beta * *c;
        }
}

cublasStatus_t dgemm(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb,
                     int64_t m, int64_t n, int64_t k, const double *alpha, const double *A,
                     int64_t lda, long long sA, const double *B, int64_t ldb, long long sB,
                     const double *beta, double *C, int64_t ldc, long long sC,
                     int64_t batch)
{
    cublasStatus_t st = check_gemm(h, ta, tb, m, n, k, lda, ldb, ldc, batch);
    if (st != CUBLAS_STATUS_SUCCESS || m == 0 || n == 0 || batch == 0)
        return st;
    double al = scalar_d(h, alpha), be = scalar_d(h, beta);
    for (int64_t b = 0; b < batch; b++)
        dgemm_one(ta, tb, m, n, k, al, A + b * sA, lda, B + b * sB, ldb, be, C + b * sC, ldc);
    return CUBLAS_STATUS_SUCCESS;
}

EXPORT cublasStatus_t cublasDgemm_v2(cublasHandle_t handle, cublasOperation_t transa,
                                     cublasOperation_t transb, int m, int n, int k,
                                     const double *alpha, const double *A, int lda,
                                     const double *B, int ldb, const double *beta, double *C,
                                     int ldc)
{
    ENTER();
    return dgemm(handle, transa, transb, m, n, k, alpha, A, lda, 0, B, ldb, 0, beta, C, ldc, 0, 1);
}

EXPORT cublasStatus_t cublasDgemm_v2_64(cublasHandle_t handle, cublasOperation_t transa,
                                        cublasOperation_t transb, int64_t m, int64_t n, int64_t k,
                                        const double *alpha, const double *A, int64_t lda,
                                        const double *B, int64_t ldb, const double *beta,
                                        double *C, int64_t ldc)
{
    ENTER();
    return dgemm(handle, transa, transb, m, n, k, alpha, A, lda, 0, B, ldb, 0, beta, C, ldc, 0, 1);
}

EXPORT cublasStatus_t cublasDgemmStridedBatched(cublasHandle_t handle, cublasOperation_t transa,
                                                cublasOperation_t transb, int m, int n, int k,
                                                const double *alpha, const double *A, int lda,
                                                long long int strideA, const double *B, int ldb,
                                                long long int strideB, const double *beta,
                                                double *C, int ldc, long long int strideC,
                                                int batchCount)
{
    ENTER();
    return dgemm(handle, transa, transb, m, n, k, alpha, A, lda, strideA, B, ldb, strideB, beta, C,
                 ldc, strideC, batchCount);
}

EXPORT cublasStatus_t cublasDgemmStridedBatched_64(
    cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int64_t m,
    int64_t n, int64_t k, const double *alpha, const double *A, int64_t lda, long long int strideA,
    const double *B, int64_t ldb, long long int strideB, const double *beta, double *C,
    int64_t ldc, long long int strideC, int64_t batchCount)
{
    ENTER();
    return dgemm(handle, transa, transb, m, n, k, alpha, A, lda, strideA, B, ldb, strideB, beta, C,
                 ldc, strideC, batchCount);
}

/* The GemmEx family: FP64 data with any FP64 compute type, and FP32 data with an FP32 compute
 * type; every other combination is CUBLAS_STATUS_NOT_SUPPORTED. */
static int is_64f_compute(cublasComputeType_t c)
{
    return c == CUBLAS_COMPUTE_64F || c == CUBLAS_COMPUTE_64F_PEDANTIC;
}

static int is_32f_compute(cublasComputeType_t c)
{
    return c == CUBLAS_COMPUTE_32F || c == CUBLAS_COMPUTE_32F_PEDANTIC ||
           c == CUBLAS_COMPUTE_32F_FAST_16F || c == CUBLAS_COMPUTE_32F_FAST_16BF ||
           c == CUBLAS_COMPUTE_32F_FAST_TF32;
}

static cublasStatus_t gemm_ex(const char *entry, cublasHandle_t h, cublasOperation_t ta,
                              cublasOperation_t tb, int64_t m, int64_t n, int64_t k,
                              const void *alpha, const void *A, cudaDataType at, int64_t lda,
                              long long sA, const void *B, cudaDataType bt, int64_t ldb,
                              long long sB, const void *beta, void *C, cudaDataType ct,
                              int64_t ldc, long long sC, int64_t batch, cublasComputeType_t ctype,
                              cublasGemmAlgo_t algo)
{
    last_ex = (fake_gemmex_args){entry, h, ta, tb, m, n, k, alpha, A, B, beta, C, at, bt, ct,
                                 lda, ldb, ldc, sA, sB, sC, batch, ctype, algo};
    /* cuBLAS 13.1 (seen on an H200): GemmStridedBatchedEx with batchCount < 0 returns SUCCESS
     * without computing, where DgemmStridedBatched returns INVALID_VALUE. */
    if (h && batch < 0)
        return CUBLAS_STATUS_SUCCESS;
    cublasStatus_t st = check_gemm(h, ta, tb, m, n, k, lda, ldb, ldc, batch);
    if (st != CUBLAS_STATUS_SUCCESS)
        return st;
    int fp64 = at == CUDA_R_64F && bt == CUDA_R_64F && ct == CUDA_R_64F && is_64f_compute(ctype);
    int fp32 = at == CUDA_R_32F && bt == CUDA_R_32F && ct == CUDA_R_32F && is_32f_compute(ctype);
    if (!fp64 && !fp32)
        return CUBLAS_STATUS_NOT_SUPPORTED;
    if (m == 0 || n == 0 || batch == 0)
        return CUBLAS_STATUS_SUCCESS;
    if (fp64) {
        double al = scalar_d(h, alpha), be = scalar_d(h, beta);
        for (int64_t b = 0; b < batch; b++)
            dgemm_one(ta, tb, m, n, k, al, (const double *)A + b * sA, lda,
                      (const double *)B + b * sB, ldb, be, (double *)C + b * sC, ldc);
    } else {
        float al = scalar_s(h, alpha), be = scalar_s(h, beta);
        for (int64_t b = 0; b < batch; b++)
            sgemm_one(ta, tb, m, n, k, al, (const float *)A + b * sA, lda,
                      (const float *)B + b * sB, ldb, be, (float *)C + b * sC, ldc);
    }
    return CUBLAS_STATUS_SUCCESS;
}

EXPORT cublasStatus_t cublasGemmEx(cublasHandle_t handle, cublasOperation_t transa,
                                   cublasOperation_t transb, int m, int n, int k, const void *alpha,
                                   const void *A, cudaDataType Atype, int lda, const void *B,
                                   cudaDataType Btype, int ldb, const void *beta, void *C,
                                   cudaDataType Ctype, int ldc, cublasComputeType_t computeType,
                                   cublasGemmAlgo_t algo)
{
    ENTER();
    return gemm_ex(__func__, handle, transa, transb, m, n, k, alpha, A, Atype, lda, 0, B, Btype,
                   ldb, 0, beta, C, Ctype, ldc, 0, 1, computeType, algo);
}

EXPORT cublasStatus_t cublasGemmEx_64(cublasHandle_t handle, cublasOperation_t transa,
                                      cublasOperation_t transb, int64_t m, int64_t n, int64_t k,
                                      const void *alpha, const void *A, cudaDataType Atype,
                                      int64_t lda, const void *B, cudaDataType Btype, int64_t ldb,
                                      const void *beta, void *C, cudaDataType Ctype, int64_t ldc,
                                      cublasComputeType_t computeType, cublasGemmAlgo_t algo)
{
    ENTER();
    return gemm_ex(__func__, handle, transa, transb, m, n, k, alpha, A, Atype, lda, 0, B, Btype,
                   ldb, 0, beta, C, Ctype, ldc, 0, 1, computeType, algo);
}

EXPORT cublasStatus_t cublasGemmStridedBatchedEx(
    cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k,
    const void *alpha, const void *A, cudaDataType Atype, int lda, long long int strideA,
    const void *B, cudaDataType Btype, int ldb, long long int strideB, const void *beta, void *C,
    cudaDataType Ctype, int ldc, long long int strideC, int batchCount,
    cublasComputeType_t computeType, cublasGemmAlgo_t algo)
{
    ENTER();
    return gemm_ex(__func__, handle, transa, transb, m, n, k, alpha, A, Atype, lda, strideA, B,
                   Btype, ldb, strideB, beta, C, Ctype, ldc, strideC, batchCount, computeType,
                   algo);
}

EXPORT cublasStatus_t cublasGemmStridedBatchedEx_64(
    cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int64_t m,
    int64_t n, int64_t k, const void *alpha, const void *A, cudaDataType Atype, int64_t lda,
    long long int strideA, const void *B, cudaDataType Btype, int64_t ldb, long long int strideB,
    const void *beta, void *C, cudaDataType Ctype, int64_t ldc, long long int strideC,
    int64_t batchCount, cublasComputeType_t computeType, cublasGemmAlgo_t algo)
{
    ENTER();
    return gemm_ex(__func__, handle, transa, transb, m, n, k, alpha, A, Atype, lda, strideA, B,
                   Btype, ldb, strideB, beta, C, Ctype, ldc, strideC, batchCount, computeType,
                   algo);
}

/* ---------- GEMV ---------- */

/* Index of element i of a vector of length len with increment inc (BLAS: a negative increment
 * walks the vector backwards from its last element). */
static int64_t vidx(int64_t i, int64_t len, int64_t inc)
{
    return inc > 0 ? i * inc : (i - (len - 1)) * inc;
}

cublasStatus_t dgemv(cublasHandle_t h, cublasOperation_t t, int64_t m, int64_t n,
                     const double *alpha, const double *A, int64_t lda, const double *x,
                     int64_t incx, const double *beta, double *y, int64_t incy)
{
    /* The order of cuBLAS 13.1 (seen on an H200): empty or negative sizes return SUCCESS before
     * the handle is checked; lda is the one INVALID_VALUE; an invalid op or a zero increment
     * returns SUCCESS without computing. */
    if (m <= 0 || n <= 0)
        return CUBLAS_STATUS_SUCCESS;
    if (bad_handle(h))
        return CUBLAS_STATUS_NOT_INITIALIZED;
    if (lda < max1(m))
        return CUBLAS_STATUS_INVALID_VALUE;
    if (!valid_op(t) || incx == 0 || incy == 0)
        return CUBLAS_STATUS_SUCCESS;
    double al = scalar_d(h, alpha), be = scalar_d(h, beta);
    if (al == 0 && be == 1)
        return CUBLAS_STATUS_SUCCESS;
    int64_t lenx = t == CUBLAS_OP_N ? n : m, leny = t == CUBLAS_OP_N ? m : n;
    if (be != 1)
        for (int64_t i = 0; i < leny; i++) {
            double *yi = &y[vidx(i, leny, incy)];
            *yi = be == 0 ? 0 : be * *yi;
        }
    if (al == 0)
        return CUBLAS_STATUS_SUCCESS;
    if (t == CUBLAS_OP_N) {
        for (int64_t j = 0; j < n; j++) {
            double temp = al * x[vidx(j, lenx, incx)];
            for (int64_t i = 0; i < m; i++)
                y[vidx(i, leny, incy)] += temp * A[i + j * lda];
        }
    } else {
        for (int64_t j = 0; j < n; j++) {
            double temp = 0;
            for (int64_t i = 0; i < m; i++)
                temp += A[i + j * lda] * x[vidx(i, lenx, incx)];
            y[vidx(j, leny, incy)] += al * temp;
        }
    }
    return CUBLAS_STATUS_SUCCESS;
}

EXPORT cublasStatus_t cublasDgemv_v2(cublasHandle_t handle, cublasOperation_t trans, int m, int n,
                                     const double *alpha, const double *A, int lda,
                                     const double *x, int incx, const double *beta, double *y,
                                     int incy)
{
    ENTER();
    return dgemv(handle, trans, m, n, alpha, A, lda, x, incx, beta, y, incy);
}

EXPORT cublasStatus_t cublasDgemv_v2_64(cublasHandle_t handle, cublasOperation_t trans, int64_t m,
                                        int64_t n, const double *alpha, const double *A,
                                        int64_t lda, const double *x, int64_t incx,
                                        const double *beta, double *y, int64_t incy)
{
    ENTER();
    return dgemv(handle, trans, m, n, alpha, A, lda, x, incx, beta, y, incy);
}

/* ---------- DOT ---------- */

cublasStatus_t ddot(cublasHandle_t h, int64_t n, const double *x, int64_t incx,
                    const double *y, int64_t incy, double *result)
{
    if (bad_handle(h))
        return CUBLAS_STATUS_NOT_INITIALIZED;
    if (!result)
        return CUBLAS_STATUS_INVALID_VALUE;
    double s = 0;
    for (int64_t i = 0; i < n; i++)
        s += x[vidx(i, n, incx)] * y[vidx(i, n, incy)];
    *result = s; /* n <= 0: 0, as cuBLAS */
    return CUBLAS_STATUS_SUCCESS;
}

EXPORT cublasStatus_t cublasDdot_v2(cublasHandle_t handle, int n, const double *x, int incx,
                                    const double *y, int incy, double *result)
{
    ENTER();
    return ddot(handle, n, x, incx, y, incy, result);
}

EXPORT cublasStatus_t cublasDdot_v2_64(cublasHandle_t handle, int64_t n, const double *x,
                                       int64_t incx, const double *y, int64_t incy, double *result)
{
    ENTER();
    return ddot(handle, n, x, incx, y, incy, result);
}
