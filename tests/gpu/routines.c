/* routines.c — see common.h: the GEMM, GEMV and DOT entry points the GPU tests call, through
 * the shim or on the real cuBLAS (gt_real), and their names. */
#include "common.h"

/* ---------- the routines ---------- */

const char *const gt_gemm_api_name[GT_GEMM_API_COUNT] = {
    [GT_DGEMM] = "cublasDgemm_v2",
    [GT_DGEMM_64] = "cublasDgemm_v2_64",
    [GT_DGEMM_SB] = "cublasDgemmStridedBatched",
    [GT_DGEMM_SB_64] = "cublasDgemmStridedBatched_64",
    [GT_GEMMEX] = "cublasGemmEx",
    [GT_GEMMEX_64] = "cublasGemmEx_64",
    [GT_GEMM_SBEX] = "cublasGemmStridedBatchedEx",
    [GT_GEMM_SBEX_64] = "cublasGemmStridedBatchedEx_64",
};

int gt_gemm_api_is64(gt_gemm_api api)
{
    return api == GT_DGEMM_64 || api == GT_DGEMM_SB_64 || api == GT_GEMMEX_64 ||
           api == GT_GEMM_SBEX_64;
}

int gt_gemm_api_strided(gt_gemm_api api)
{
    return api == GT_DGEMM_SB || api == GT_DGEMM_SB_64 || api == GT_GEMM_SBEX ||
           api == GT_GEMM_SBEX_64;
}

int gt_gemm_api_ex(gt_gemm_api api)
{
    return api == GT_GEMMEX || api == GT_GEMMEX_64 || api == GT_GEMM_SBEX ||
           api == GT_GEMM_SBEX_64;
}

cublasStatus_t gt_run_gemm(int real, cublasHandle_t h, const gt_gemm *g)
{
    const double *al = g->alpha, *be = g->beta, *A = g->A, *B = g->B;
    double *C = g->C;
    int m = (int)g->m, n = (int)g->n, k = (int)g->k;
    int lda = (int)g->lda, ldb = (int)g->ldb, ldc = (int)g->ldc, batch = (int)g->batch;
    switch (g->api) {
    case GT_DGEMM:
        return (real ? gt_real.Dgemm : cublasDgemm_v2)(h, g->ta, g->tb, m, n, k, al, A, lda, B,
                                                       ldb, be, C, ldc);
    case GT_DGEMM_64:
        return (real ? gt_real.Dgemm_64 : cublasDgemm_v2_64)(h, g->ta, g->tb, g->m, g->n, g->k,
                                                             al, A, g->lda, B, g->ldb, be, C,
                                                             g->ldc);
    case GT_DGEMM_SB:
        return (real ? gt_real.DgemmSB : cublasDgemmStridedBatched)(
            h, g->ta, g->tb, m, n, k, al, A, lda, g->sA, B, ldb, g->sB, be, C, ldc, g->sC, batch);
    case GT_DGEMM_SB_64:
        return (real ? gt_real.DgemmSB_64 : cublasDgemmStridedBatched_64)(
            h, g->ta, g->tb, g->m, g->n, g->k, al, A, g->lda, g->sA, B, g->ldb, g->sB, be, C,
            g->ldc, g->sC, g->batch);
    case GT_GEMMEX:
        return (real ? gt_real.GemmEx : cublasGemmEx)(h, g->ta, g->tb, m, n, k, g->alpha, g->A,
                                                      g->typeA, lda, g->B, g->typeB, ldb, g->beta,
                                                      g->C, g->typeC, ldc, g->compute, g->algo);
    case GT_GEMMEX_64:
        return (real ? gt_real.GemmEx_64 : cublasGemmEx_64)(
            h, g->ta, g->tb, g->m, g->n, g->k, g->alpha, g->A, g->typeA, g->lda, g->B, g->typeB,
            g->ldb, g->beta, g->C, g->typeC, g->ldc, g->compute, g->algo);
    case GT_GEMM_SBEX:
        return (real ? gt_real.GemmSBEx : cublasGemmStridedBatchedEx)(
            h, g->ta, g->tb, m, n, k, g->alpha, g->A, g->typeA, lda, g->sA, g->B, g->typeB, ldb,
            g->sB, g->beta, g->C, g->typeC, ldc, g->sC, batch, g->compute, g->algo);
    case GT_GEMM_SBEX_64:
        return (real ? gt_real.GemmSBEx_64 : cublasGemmStridedBatchedEx_64)(
            h, g->ta, g->tb, g->m, g->n, g->k, g->alpha, g->A, g->typeA, g->lda, g->sA, g->B,
            g->typeB, g->ldb, g->sB, g->beta, g->C, g->typeC, g->ldc, g->sC, g->batch, g->compute,
            g->algo);
    default:
        gt_fatal("bad gemm api %d", (int)g->api);
    }
}

cublasStatus_t gt_run_gemv(int real, cublasHandle_t h, const gt_gemv *g)
{
    if (g->is64)
        return (real ? gt_real.Dgemv_64 : cublasDgemv_v2_64)(h, g->trans, g->m, g->n, g->alpha,
                                                             g->A, g->lda, g->x, g->incx, g->beta,
                                                             g->y, g->incy);
    return (real ? gt_real.Dgemv : cublasDgemv_v2)(h, g->trans, (int)g->m, (int)g->n, g->alpha,
                                                   g->A, (int)g->lda, g->x, (int)g->incx,
                                                   g->beta, g->y, (int)g->incy);
}

cublasStatus_t gt_run_dot(int real, cublasHandle_t h, const gt_dot *d)
{
    if (d->is64)
        return (real ? gt_real.Ddot_64 : cublasDdot_v2_64)(h, d->n, d->x, d->incx, d->y, d->incy,
                                                           d->result);
    return (real ? gt_real.Ddot : cublasDdot_v2)(h, (int)d->n, d->x, (int)d->incx, d->y,
                                                 (int)d->incy, d->result);
}

const char *gt_gemv_name(int is64)
{
    return is64 ? "cublasDgemv_v2_64" : "cublasDgemv_v2";
}

const char *gt_dot_name(int is64)
{
    return is64 ? "cublasDdot_v2_64" : "cublasDdot_v2";
}
