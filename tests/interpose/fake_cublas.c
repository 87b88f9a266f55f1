/* fake_cublas.c — a stand-in libcublas.so.13 for the CPU interposition tests.
 *
 * Built with SONAME libcublas.so.13 and, like the real library, with its symbols versioned
 * (libcublas.so.13), so that a program linked to it references cublasDgemm_v2@libcublas.so.13
 * and dfshim's unversioned hooks must interpose such references.  "Device memory" is host
 * memory: both pointer modes read scalars (and write DOT results) through the pointer given.
 *
 * Every routine follows the rules cuBLAS documents: a NULL handle gives
 * CUBLAS_STATUS_NOT_INITIALIZED; negative sizes, an unknown operation, a leading dimension too
 * small and (GEMV) a zero increment give CUBLAS_STATUS_INVALID_VALUE; empty problems return at
 * once; beta == 0 never reads C or y.  Arithmetic is the reference BLAS loop order. */
#include "fake_cublas.h"

#include <cublas.h> /* the legacy API */
#include <cuda.h>

#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define EXPORT __attribute__((visibility("default")))

/* ---------- call counters and injected failures ---------- */

static const char *const entry_names[] = {
    "cublasCreate_v2", "cublasDestroy_v2", "cublasSetStream_v2", "cublasGetStream_v2",
    "cublasGetPointerMode_v2", "cublasSetPointerMode_v2", "cublasGetMathMode",
    "cublasDgemm_v2", "cublasDgemm_v2_64", "cublasDgemv_v2", "cublasDgemv_v2_64",
    "cublasDdot_v2", "cublasDdot_v2_64", "cublasDgemmStridedBatched",
    "cublasDgemmStridedBatched_64", "cublasGemmEx", "cublasGemmEx_64",
    "cublasGemmStridedBatchedEx", "cublasGemmStridedBatchedEx_64",
    "cublasDgemm", "cublasDgemv", "cublasDdot", "cublasGetError", "cublasSetKernelStream",
    "cublasShutdown", "cublasInit", "cuCtxGetCurrent",
};
#define NENTRIES ((int)(sizeof entry_names / sizeof entry_names[0]))

static atomic_long counts[NENTRIES];
static atomic_int fail_entry = -1;
static atomic_int fail_status;
static fake_gemmex_args last_ex;

static int entry_index(const char *name)
{
    for (int i = 0; i < NENTRIES; i++)
        if (!strcmp(entry_names[i], name))
            return i;
    return -1;
}

/* Counts the call; returns 1 (with *st set) when a failure was injected for it. */
static int enter(const char *name, cublasStatus_t *st)
{
    int i = entry_index(name);
    if (i < 0)
        abort(); /* an entry point missing from entry_names: a bug of this file */
    atomic_fetch_add(&counts[i], 1);
    int expected = i;
    if (atomic_compare_exchange_strong(&fail_entry, &expected, -1)) {
        *st = (cublasStatus_t)atomic_load(&fail_status);
        return 1;
    }
    return 0;
}

#define ENTER()                                                                                    \
    do {                                                                                           \
        cublasStatus_t injected_;                                                                  \
        if (enter(__func__, &injected_))                                                           \
            return injected_;                                                                      \
    } while (0)

EXPORT long fake_cublas_calls(const char *name)
{
    if (!name) {
        long total = 0;
        for (int i = 0; i < NENTRIES; i++)
            total += atomic_load(&counts[i]);
        return total;
    }
    int i = entry_index(name);
    return i < 0 ? -1 : atomic_load(&counts[i]);
}

EXPORT void fake_cublas_fail_next(const char *name, cublasStatus_t status)
{
    atomic_store(&fail_status, (int)status);
    atomic_store(&fail_entry, entry_index(name));
}

EXPORT const fake_gemmex_args *fake_cublas_last_gemmex(void)
{
    return &last_ex;
}

/* ---------- handles ---------- */

#define HANDLE_MAGIC 0x66616b65u

struct cublasContext {
    unsigned magic;
    cudaStream_t stream;
    cublasPointerMode_t pointer_mode;
    cublasMath_t math_mode;
};

static int bad_handle(cublasHandle_t h)
{
    return !h || h->magic != HANDLE_MAGIC;
}

EXPORT cublasStatus_t cublasCreate_v2(cublasHandle_t *handle)
{
    ENTER();
    if (!handle)
        return CUBLAS_STATUS_INVALID_VALUE;
    cublasHandle_t h = calloc(1, sizeof *h);
    if (!h)
        return CUBLAS_STATUS_ALLOC_FAILED;
    h->magic = HANDLE_MAGIC;
    h->pointer_mode = CUBLAS_POINTER_MODE_HOST;
    h->math_mode = CUBLAS_DEFAULT_MATH;
    *handle = h;
    return CUBLAS_STATUS_SUCCESS;
}

EXPORT cublasStatus_t cublasDestroy_v2(cublasHandle_t handle)
{
    ENTER();
    if (bad_handle(handle))
        return CUBLAS_STATUS_NOT_INITIALIZED;
    handle->magic = 0;
    free(handle);
    return CUBLAS_STATUS_SUCCESS;
}

EXPORT cublasStatus_t cublasSetStream_v2(cublasHandle_t handle, cudaStream_t streamId)
{
    ENTER();
    if (bad_handle(handle))
        return CUBLAS_STATUS_NOT_INITIALIZED;
    handle->stream = streamId;
    return CUBLAS_STATUS_SUCCESS;
}

EXPORT cublasStatus_t cublasGetStream_v2(cublasHandle_t handle, cudaStream_t *streamId)
{
    ENTER();
    if (bad_handle(handle))
        return CUBLAS_STATUS_NOT_INITIALIZED;
    if (!streamId)
        return CUBLAS_STATUS_INVALID_VALUE;
    *streamId = handle->stream;
    return CUBLAS_STATUS_SUCCESS;
}

EXPORT cublasStatus_t cublasGetPointerMode_v2(cublasHandle_t handle, cublasPointerMode_t *mode)
{
    ENTER();
    if (bad_handle(handle))
        return CUBLAS_STATUS_NOT_INITIALIZED;
    if (!mode)
        return CUBLAS_STATUS_INVALID_VALUE;
    *mode = handle->pointer_mode;
    return CUBLAS_STATUS_SUCCESS;
}

EXPORT cublasStatus_t cublasSetPointerMode_v2(cublasHandle_t handle, cublasPointerMode_t mode)
{
    ENTER();
    if (bad_handle(handle))
        return CUBLAS_STATUS_NOT_INITIALIZED;
    if (mode != CUBLAS_POINTER_MODE_HOST && mode != CUBLAS_POINTER_MODE_DEVICE)
        return CUBLAS_STATUS_INVALID_VALUE;
    handle->pointer_mode = mode;
    return CUBLAS_STATUS_SUCCESS;
}

EXPORT cublasStatus_t cublasGetMathMode(cublasHandle_t handle, cublasMath_t *mode)
{
    ENTER();
    if (bad_handle(handle))
        return CUBLAS_STATUS_NOT_INITIALIZED;
    if (!mode)
        return CUBLAS_STATUS_INVALID_VALUE;
    *mode = handle->math_mode;
    return CUBLAS_STATUS_SUCCESS;
}

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

static cublasStatus_t dgemm(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb,
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

static cublasStatus_t dgemv(cublasHandle_t h, cublasOperation_t t, int64_t m, int64_t n,
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

static cublasStatus_t ddot(cublasHandle_t h, int64_t n, const double *x, int64_t incx,
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

/* ---------- the legacy API (cublas.h) ----------
 * One implicit context (host pointer mode), errors kept until cublasGetError() reads them, the
 * stream from cublasSetKernelStream(). */

static struct cublasContext legacy = {HANDLE_MAGIC, 0, CUBLAS_POINTER_MODE_HOST, CUBLAS_DEFAULT_MATH};
static atomic_int legacy_error;

static int legacy_op(char c, cublasOperation_t *op)
{
    switch (c) {
    case 'N': case 'n': *op = CUBLAS_OP_N; return 1;
    case 'T': case 't': *op = CUBLAS_OP_T; return 1;
    case 'C': case 'c': *op = CUBLAS_OP_C; return 1;
    default: return 0;
    }
}

/* Counts the call; returns 1 when a failure was injected for it (then kept as the error). */
static int legacy_enter(const char *name)
{
    cublasStatus_t st;
    if (enter(name, &st)) {
        atomic_store(&legacy_error, (int)st);
        return 1;
    }
    return 0;
}

static void legacy_note(cublasStatus_t st)
{
    if (st != CUBLAS_STATUS_SUCCESS)
        atomic_store(&legacy_error, (int)st);
}

EXPORT void cublasDgemm(char transa, char transb, int m, int n, int k, double alpha,
                        const double *A, int lda, const double *B, int ldb, double beta,
                        double *C, int ldc)
{
    cublasOperation_t ta, tb;
    if (legacy_enter(__func__))
        return;
    if (!legacy_op(transa, &ta) || !legacy_op(transb, &tb)) {
        legacy_note(CUBLAS_STATUS_INVALID_VALUE);
        return;
    }
    legacy_note(dgemm(&legacy, ta, tb, m, n, k, &alpha, A, lda, 0, B, ldb, 0, &beta, C, ldc, 0, 1));
}

EXPORT void cublasDgemv(char trans, int m, int n, double alpha, const double *A, int lda,
                        const double *x, int incx, double beta, double *y, int incy)
{
    cublasOperation_t t;
    if (legacy_enter(__func__))
        return;
    if (!legacy_op(trans, &t)) {
        legacy_note(CUBLAS_STATUS_INVALID_VALUE);
        return;
    }
    legacy_note(dgemv(&legacy, t, m, n, &alpha, A, lda, x, incx, &beta, y, incy));
}

EXPORT double cublasDdot(int n, const double *x, int incx, const double *y, int incy)
{
    double r = 0.0;
    if (legacy_enter(__func__))
        return 0.0;
    legacy_note(ddot(&legacy, n, x, incx, y, incy, &r));
    return r;
}

EXPORT cublasStatus cublasGetError(void)
{
    cublasStatus_t st;
    if (enter(__func__, &st))
        return st;
    return (cublasStatus_t)atomic_exchange(&legacy_error, CUBLAS_STATUS_SUCCESS);
}

EXPORT cublasStatus cublasSetKernelStream(cudaStream_t stream)
{
    ENTER();
    legacy.stream = stream;
    return CUBLAS_STATUS_SUCCESS;
}

EXPORT cublasStatus cublasShutdown(void)
{
    ENTER();
    return CUBLAS_STATUS_SUCCESS;
}

EXPORT cublasStatus cublasInit(void)
{
    ENTER();
    return CUBLAS_STATUS_SUCCESS;
}

EXPORT cudaStream_t fake_cublas_legacy_stream(void)
{
    return legacy.stream;
}

/* A CUDA context for dfshim's legacy layer to key its internal handle on (the driver itself is
 * not in these tests). */
EXPORT CUresult cuCtxGetCurrent(CUcontext *ctx)
{
    cublasStatus_t st;
    if (enter(__func__, &st))
        return CUDA_ERROR_INVALID_CONTEXT;
    *ctx = (CUcontext)&legacy;
    return CUDA_SUCCESS;
}
