/* native/engine.c — the native engine: forwards each call, unchanged, to the entry point of the
 * real cuBLAS that the application called, so results are bitwise those of cuBLAS. */
#include "native.h"

static int native_can_run(const dfs_device *dev)
{
    (void)dev;
    return 1;
}

/* The complex calls of the Z entry points (their pointers are to cuDoubleComplex). */
static cublasStatus_t native_zgemm(const dfs_ctx *x, const dfs_gemm_call *c)
{
    cublasHandle_t h = x->handle;
    const cuDoubleComplex *al = (const cuDoubleComplex *)c->alpha,
                          *be = (const cuDoubleComplex *)c->beta,
                          *A = (const cuDoubleComplex *)c->A, *B = (const cuDoubleComplex *)c->B;
    cuDoubleComplex *C = (cuDoubleComplex *)c->C;
    switch (c->api) {
    case DFS_API_ZGEMM:
        return CALL(cublasZgemm_v2, h, c->transa, c->transb, (int)c->m, (int)c->n, (int)c->k, al,
                    A, (int)c->lda, B, (int)c->ldb, be, C, (int)c->ldc);
    case DFS_API_ZGEMM_64:
        return CALL(cublasZgemm_v2_64, h, c->transa, c->transb, c->m, c->n, c->k, al, A, c->lda, B,
                    c->ldb, be, C, c->ldc);
    case DFS_API_ZGEMM3M:
        return CALL(cublasZgemm3m, h, c->transa, c->transb, (int)c->m, (int)c->n, (int)c->k, al, A,
                    (int)c->lda, B, (int)c->ldb, be, C, (int)c->ldc);
    case DFS_API_ZGEMM3M_64:
        return CALL(cublasZgemm3m_64, h, c->transa, c->transb, c->m, c->n, c->k, al, A, c->lda, B,
                    c->ldb, be, C, c->ldc);
    case DFS_API_ZGEMM_STRIDED:
        return CALL(cublasZgemmStridedBatched, h, c->transa, c->transb, (int)c->m, (int)c->n,
                    (int)c->k, al, A, (int)c->lda, c->strideA, B, (int)c->ldb, c->strideB, be, C,
                    (int)c->ldc, c->strideC, (int)c->batch);
    case DFS_API_ZGEMM_STRIDED_64:
        return CALL(cublasZgemmStridedBatched_64, h, c->transa, c->transb, c->m, c->n, c->k, al, A,
                    c->lda, c->strideA, B, c->ldb, c->strideB, be, C, c->ldc, c->strideC,
                    c->batch);
    case DFS_API_LEGACY_ZGEMM:
        return LEGACY(cublasZgemm, op_char(c->transa), op_char(c->transb), (int)c->m, (int)c->n,
                      (int)c->k, *al, A, (int)c->lda, B, (int)c->ldb, *be, C, (int)c->ldc);
    case DFS_API_ZGEMM_BATCHED:
        return CALL(cublasZgemmBatched, h, c->transa, c->transb, (int)c->m, (int)c->n, (int)c->k,
                    al, (const cuDoubleComplex *const *)c->Aarray, (int)c->lda,
                    (const cuDoubleComplex *const *)c->Barray, (int)c->ldb, be,
                    (cuDoubleComplex *const *)c->Carray, (int)c->ldc, (int)c->batch);
    case DFS_API_ZGEMM_BATCHED_64:
        return CALL(cublasZgemmBatched_64, h, c->transa, c->transb, c->m, c->n, c->k, al,
                    (const cuDoubleComplex *const *)c->Aarray, c->lda,
                    (const cuDoubleComplex *const *)c->Barray, c->ldb, be,
                    (cuDoubleComplex *const *)c->Carray, c->ldc, c->batch);
    default:
        return CUBLAS_STATUS_INTERNAL_ERROR;
    }
}

static cublasStatus_t native_gemm(const dfs_ctx *x, const dfs_gemm_call *c)
{
    cublasHandle_t h = x->handle;
    /* the GemmEx forms carry the element type; the others are one type's entry points */
    const cudaDataType t = c->type == DFS_C64 ? CUDA_C_64F : CUDA_R_64F;
    if (c->type == DFS_C64 && c->api != DFS_API_GEMMEX && c->api != DFS_API_GEMMEX_64 &&
        c->api != DFS_API_GEMMEX_STRIDED && c->api != DFS_API_GEMMEX_STRIDED_64 &&
        c->api != DFS_API_GEMMEX_BATCHED && c->api != DFS_API_GEMMEX_BATCHED_64)
        return native_zgemm(x, c);
    switch (c->api) {
    case DFS_API_DGEMM:
        return CALL(cublasDgemm_v2, h, c->transa, c->transb, (int)c->m, (int)c->n, (int)c->k,
                    c->alpha, c->A, (int)c->lda, c->B, (int)c->ldb, c->beta, c->C, (int)c->ldc);
    case DFS_API_DGEMM_64:
        return CALL(cublasDgemm_v2_64, h, c->transa, c->transb, c->m, c->n, c->k, c->alpha, c->A,
                    c->lda, c->B, c->ldb, c->beta, c->C, c->ldc);
    case DFS_API_DGEMM_STRIDED:
        return CALL(cublasDgemmStridedBatched, h, c->transa, c->transb, (int)c->m, (int)c->n,
                    (int)c->k, c->alpha, c->A, (int)c->lda, c->strideA, c->B, (int)c->ldb,
                    c->strideB, c->beta, c->C, (int)c->ldc, c->strideC, (int)c->batch);
    case DFS_API_DGEMM_STRIDED_64:
        return CALL(cublasDgemmStridedBatched_64, h, c->transa, c->transb, c->m, c->n, c->k,
                    c->alpha, c->A, c->lda, c->strideA, c->B, c->ldb, c->strideB, c->beta, c->C,
                    c->ldc, c->strideC, c->batch);
    case DFS_API_GEMMEX:
        return CALL(cublasGemmEx, h, c->transa, c->transb, (int)c->m, (int)c->n, (int)c->k,
                    c->alpha, c->A, t, (int)c->lda, c->B, t, (int)c->ldb, c->beta, c->C, t,
                    (int)c->ldc, CUBLAS_COMPUTE_64F, c->algo);
    case DFS_API_GEMMEX_64:
        return CALL(cublasGemmEx_64, h, c->transa, c->transb, c->m, c->n, c->k, c->alpha, c->A,
                    t, c->lda, c->B, t, c->ldb, c->beta, c->C, t, c->ldc, CUBLAS_COMPUTE_64F,
                    c->algo);
    case DFS_API_GEMMEX_STRIDED:
        return CALL(cublasGemmStridedBatchedEx, h, c->transa, c->transb, (int)c->m, (int)c->n,
                    (int)c->k, c->alpha, c->A, t, (int)c->lda, c->strideA, c->B, t, (int)c->ldb,
                    c->strideB, c->beta, c->C, t, (int)c->ldc, c->strideC, (int)c->batch,
                    CUBLAS_COMPUTE_64F, c->algo);
    case DFS_API_GEMMEX_STRIDED_64:
        return CALL(cublasGemmStridedBatchedEx_64, h, c->transa, c->transb, c->m, c->n, c->k,
                    c->alpha, c->A, t, c->lda, c->strideA, c->B, t, c->ldb, c->strideB, c->beta,
                    c->C, t, c->ldc, c->strideC, c->batch, CUBLAS_COMPUTE_64F, c->algo);
    case DFS_API_LEGACY_DGEMM:
        return LEGACY(cublasDgemm, op_char(c->transa), op_char(c->transb), (int)c->m, (int)c->n,
                      (int)c->k, *c->alpha, c->A, (int)c->lda, c->B, (int)c->ldb, *c->beta, c->C,
                      (int)c->ldc);
    case DFS_API_DGEMM_BATCHED:
        return CALL(cublasDgemmBatched, h, c->transa, c->transb, (int)c->m, (int)c->n, (int)c->k,
                    c->alpha, c->Aarray, (int)c->lda, c->Barray, (int)c->ldb, c->beta, c->Carray,
                    (int)c->ldc, (int)c->batch);
    case DFS_API_DGEMM_BATCHED_64:
        return CALL(cublasDgemmBatched_64, h, c->transa, c->transb, c->m, c->n, c->k, c->alpha,
                    c->Aarray, c->lda, c->Barray, c->ldb, c->beta, c->Carray, c->ldc, c->batch);
    case DFS_API_GEMMEX_BATCHED:
        return CALL(cublasGemmBatchedEx, h, c->transa, c->transb, (int)c->m, (int)c->n,
                    (int)c->k, c->alpha, (const void *const *)c->Aarray, t, (int)c->lda,
                    (const void *const *)c->Barray, t, (int)c->ldb, c->beta,
                    (void *const *)c->Carray, t, (int)c->ldc, (int)c->batch, CUBLAS_COMPUTE_64F,
                    c->algo);
    case DFS_API_GEMMEX_BATCHED_64:
        return CALL(cublasGemmBatchedEx_64, h, c->transa, c->transb, c->m, c->n, c->k, c->alpha,
                    (const void *const *)c->Aarray, t, c->lda, (const void *const *)c->Barray, t,
                    c->ldb, c->beta, (void *const *)c->Carray, t, c->ldc, c->batch,
                    CUBLAS_COMPUTE_64F, c->algo);
    default:
        return CUBLAS_STATUS_INTERNAL_ERROR;
    }
}

/* Zgemv's entry points (their pointers are to cuDoubleComplex). */
static cublasStatus_t native_zgemv(const dfs_ctx *x, const dfs_gemv_call *c)
{
    const cuDoubleComplex *al = (const cuDoubleComplex *)c->alpha,
                          *be = (const cuDoubleComplex *)c->beta,
                          *A = (const cuDoubleComplex *)c->A, *v = (const cuDoubleComplex *)c->x;
    cuDoubleComplex *y = (cuDoubleComplex *)c->y;
    switch (c->api) {
    case DFS_API_ZGEMV:
        return CALL(cublasZgemv_v2, x->handle, c->trans, (int)c->m, (int)c->n, al, A, (int)c->lda,
                    v, (int)c->incx, be, y, (int)c->incy);
    case DFS_API_ZGEMV_64:
        return CALL(cublasZgemv_v2_64, x->handle, c->trans, c->m, c->n, al, A, c->lda, v, c->incx,
                    be, y, c->incy);
    case DFS_API_LEGACY_ZGEMV:
        return LEGACY(cublasZgemv, op_char(c->trans), (int)c->m, (int)c->n, *al, A, (int)c->lda, v,
                      (int)c->incx, *be, y, (int)c->incy);
    default:
        return CUBLAS_STATUS_INTERNAL_ERROR;
    }
}

static cublasStatus_t native_dgemv(const dfs_ctx *x, const dfs_gemv_call *c)
{
    if (c->type == DFS_C64)
        return native_zgemv(x, c);
    if (c->api == DFS_API_LEGACY_DGEMV)
        return LEGACY(cublasDgemv, op_char(c->trans), (int)c->m, (int)c->n, *c->alpha, c->A,
                      (int)c->lda, c->x, (int)c->incx, *c->beta, c->y, (int)c->incy);
    if (c->api == DFS_API_DGEMV)
        return CALL(cublasDgemv_v2, x->handle, c->trans, (int)c->m, (int)c->n, c->alpha, c->A,
                    (int)c->lda, c->x, (int)c->incx, c->beta, c->y, (int)c->incy);
    return CALL(cublasDgemv_v2_64, x->handle, c->trans, c->m, c->n, c->alpha, c->A, c->lda, c->x,
                c->incx, c->beta, c->y, c->incy);
}

/* The complex DOTs of the Z entry points. */
static cublasStatus_t native_zdot(const dfs_ctx *x, const dfs_dot_call *c)
{
    const cuDoubleComplex *X = (const cuDoubleComplex *)c->x, *Y = (const cuDoubleComplex *)c->y;
    cuDoubleComplex *r = (cuDoubleComplex *)c->result;
    switch (c->api) {
    case DFS_API_ZDOTC:
        return CALL(cublasZdotc_v2, x->handle, (int)c->n, X, (int)c->incx, Y, (int)c->incy, r);
    case DFS_API_ZDOTC_64:
        return CALL(cublasZdotc_v2_64, x->handle, c->n, X, c->incx, Y, c->incy, r);
    case DFS_API_ZDOTU:
        return CALL(cublasZdotu_v2, x->handle, (int)c->n, X, (int)c->incx, Y, (int)c->incy, r);
    case DFS_API_ZDOTU_64:
        return CALL(cublasZdotu_v2_64, x->handle, c->n, X, c->incx, Y, c->incy, r);
    case DFS_API_LEGACY_ZDOTC:
        if (!DFS_REAL(cublasZdotc))
            return CUBLAS_STATUS_NOT_INITIALIZED;
        *r = DFS_REAL(cublasZdotc)((int)c->n, X, (int)c->incx, Y, (int)c->incy);
        return CUBLAS_STATUS_SUCCESS;
    case DFS_API_LEGACY_ZDOTU:
        if (!DFS_REAL(cublasZdotu))
            return CUBLAS_STATUS_NOT_INITIALIZED;
        *r = DFS_REAL(cublasZdotu)((int)c->n, X, (int)c->incx, Y, (int)c->incy);
        return CUBLAS_STATUS_SUCCESS;
    default:
        return CUBLAS_STATUS_INTERNAL_ERROR;
    }
}

static cublasStatus_t native_ddot(const dfs_ctx *x, const dfs_dot_call *c)
{
    if (c->type == DFS_C64)
        return native_zdot(x, c);
    if (c->api == DFS_API_LEGACY_DDOT) {
        if (!DFS_REAL(cublasDdot))
            return CUBLAS_STATUS_NOT_INITIALIZED;
        *c->result = DFS_REAL(cublasDdot)((int)c->n, c->x, (int)c->incx, c->y, (int)c->incy);
        return CUBLAS_STATUS_SUCCESS;
    }
    if (c->api == DFS_API_DDOT)
        return CALL(cublasDdot_v2, x->handle, (int)c->n, c->x, (int)c->incx, c->y, (int)c->incy,
                    c->result);
    return CALL(cublasDdot_v2_64, x->handle, c->n, c->x, c->incx, c->y, c->incy, c->result);
}

static const dfs_option_table native_options = {"native", (const dfs_option_spec[]){{.key = NULL}},
                                                 NULL};

const dfs_engine dfs_engine_native = {
    .name = "native",
    .summary = "pass-through to the application's cuBLAS (bitwise cuBLAS results)",
    .options = &native_options, /* none */
    .can_run = native_can_run,
    .caps = DFS_CAP_COMPLEX | DFS_CAP_ZDOT | DFS_CAP_ZGEMV | DFS_CAP_PTRARRAY | DFS_CAP_SYRK |
            DFS_CAP_SYR2K | DFS_CAP_SYMM | DFS_CAP_TRMM | DFS_CAP_TRSM,
    .gemm = native_gemm,
    .dgemv = native_dgemv,
    .ddot = native_ddot,
    .level3 = dfs_native_level3, /* level3.c */
};
