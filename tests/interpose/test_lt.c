/* test_lt.c — cublasLtMatmul through the preloaded shim, in a program linked to the stand-in
 * libcublasLt.so.13 (which records its calls and computes nothing; there is no GPU here).
 *
 * Checked, each call once:
 *   - an FP64 product in native mode, and in df mode where no engine can run: the stand-in's
 *     cublasLtMatmul receives exactly one call with exactly the program's 16 arguments (not a
 *     cublasDgemm of the stand-in libcublas), and the trace names cublasLtMatmul with its
 *     column-major shape (a row-major D is computed as D^T) and "-> native";
 *   - calls the shim must not compute (FP32, an epilogue, a scaling pointer, a pointer-array
 *     batch, mismatched dimensions): forwarded untouched, traced as forwarded with the reason;
 *   - a call made from inside libcublas (as cuBLAS's own routines call cuBLASLt): forwarded
 *     untouched, with no trace line at all. */
#include "common.h"
#include "fake_cublas.h"
#include "fake_cublaslt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double A[64], B[64], C[64], D[64], alpha = 2.0, beta = 0.5;

static cublasLtMatrixLayout_t layout(uint64_t rows, uint64_t cols, int64_t ld, int32_t order,
                                     cudaDataType t)
{
    cublasLtMatrixLayout_t l;
    CHECK(cublasLtMatrixLayoutCreate(&l, t, rows, cols, ld) == CUBLAS_STATUS_SUCCESS, "layout");
    CHECK(cublasLtMatrixLayoutSetAttribute(l, CUBLASLT_MATRIX_LAYOUT_ORDER, &order, 4) ==
              CUBLAS_STATUS_SUCCESS, "order");
    return l;
}

static long blas_calls(void)
{
    static const char *const names[] = {"cublasDgemm_v2", "cublasDgemm_v2_64", "cublasGemmEx",
                                        "cublasDgemmStridedBatched", "cublasGemmStridedBatchedEx"};
    long n = 0;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        n += fake_cublas_calls(names[i]);
    return n;
}

/* One call through the shim (or through the stand-in libcublas when from_cublas): forwarded
 * exactly once with these arguments, and the trace's new text contains want (or is empty). */
static void expect_forwarded(const char *what, const fake_lt_args *a, int from_cublas,
                             log_cursor *cur, const char *want)
{
    long before = fake_cublaslt_calls(), blas = blas_calls();
    cublasStatus_t st = from_cublas
                            ? fake_cublas_lt_matmul(a)
                            : cublasLtMatmul(a->lt, a->desc, a->alpha, a->A, a->Adesc, a->B,
                                             a->Bdesc, a->beta, a->C, a->Cdesc, a->D, a->Ddesc,
                                             a->algo, a->workspace, a->workspace_size, a->stream);
    CHECK(st == CUBLAS_STATUS_SUCCESS, "%s: status %d", what, (int)st);
    CHECK(fake_cublaslt_calls() == before + 1, "%s: the stand-in's cublasLtMatmul was called %ld "
          "times", what, fake_cublaslt_calls() - before);
    CHECK(blas_calls() == blas, "%s: a cuBLAS GEMM was called instead", what);
    CHECK(!memcmp(fake_cublaslt_last(), a, sizeof *a), "%s: the arguments were changed", what);
    double mark;
    memcpy(&mark, a->D, sizeof mark);
    CHECK(mark == 1000.0 + (double)fake_cublaslt_calls(), "%s: D not the stand-in's", what);
    char *got = log_take(cur);
    if (!want)
        CHECK(!*got, "%s: traced although called from libcublas: %s", what, got);
    else
        CHECK(strstr(got, want), "%s: the trace lacks \"%s\": %s", what, want, got);
    free(got);
}

int main(void)
{
    char *dir = make_temp_dir("lt");
    char *log = path_join(dir, "trace.log");
    setenv("EXBLAS_LOG", "trace", 1);
    setenv("EXBLAS_LOG_FILE", log, 1);
    setenv("EXBLAS_REREAD", "1", 1);
    setenv("EXBLAS_MODE", "native", 1);
    require_shim("cublasLtMatmul");
    log_cursor cur = {log, 0};

    cublasLtHandle_t lt;
    CHECK(cublasLtCreate(&lt) == CUBLAS_STATUS_SUCCESS, "create");
    cublasLtMatmulDesc_t desc;
    CHECK(cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_64F, CUDA_R_64F) == CUBLAS_STATUS_SUCCESS,
          "desc");
    int32_t t = CUBLAS_OP_T;
    cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSA, &t, 4);
    /* D (5 x 4, row-major) = alpha A^T (A 3 x 5) B (3 x 4) + beta C: as D^T = B^T A, 4 x 5 x 3 */
    cublasLtMatrixLayout_t la = layout(3, 5, 3, CUBLASLT_ORDER_COL, CUDA_R_64F);
    cublasLtMatrixLayout_t lb = layout(3, 4, 4, CUBLASLT_ORDER_ROW, CUDA_R_64F);
    cublasLtMatrixLayout_t lc = layout(5, 4, 6, CUBLASLT_ORDER_ROW, CUDA_R_64F);
    cublasLtMatrixLayout_t ld = layout(5, 4, 4, CUBLASLT_ORDER_ROW, CUDA_R_64F);
    const cublasLtMatmulAlgo_t algo = {{0}};
    fake_lt_args a = {lt, desc, &alpha, A, la, B, lb, &beta, C, lc, D, ld, &algo, (void *)0x5000,
                      4096, (cudaStream_t)0x77};

    expect_forwarded("FP64, native mode", &a, 0, &cur,
                     "cublasLtMatmul op=NN m=4 n=5 k=3 batch=1 -> native");
    setenv("EXBLAS_MODE", "df", 1);
    expect_forwarded("FP64, df mode without a GPU", &a, 0, &cur,
                     "cublasLtMatmul op=NN m=4 n=5 k=3 batch=1 -> native");
    expect_forwarded("from inside libcublas", &a, 1, &cur, NULL);

    cublasLtMatmulDesc_t d32;
    cublasLtMatmulDescCreate(&d32, CUBLAS_COMPUTE_32F, CUDA_R_32F);
    fake_lt_args f = a;
    f.desc = d32;
    expect_forwarded("FP32", &f, 0, &cur,
                     "cublasLtMatmul -> forwarded (compute type is not CUBLAS_COMPUTE_64F)");
    cublasLtMatmulDesc_t de;
    cublasLtMatmulDescCreate(&de, CUBLAS_COMPUTE_64F, CUDA_R_64F);
    uint32_t epi = CUBLASLT_EPILOGUE_RELU;
    cublasLtMatmulDescSetAttribute(de, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, 4);
    f = a;
    f.desc = de;
    expect_forwarded("an epilogue", &f, 0, &cur, "cublasLtMatmul -> forwarded (an epilogue)");
    cublasLtMatmulDesc_t ds;
    cublasLtMatmulDescCreate(&ds, CUBLAS_COMPUTE_64F, CUDA_R_64F);
    const void *scale = &beta;
    cublasLtMatmulDescSetAttribute(ds, CUBLASLT_MATMUL_DESC_D_SCALE_POINTER, &scale, 8);
    f = a;
    f.desc = ds;
    expect_forwarded("a scaling pointer", &f, 0, &cur,
                     "forwarded (scaling, amax, fast-accumulation or emulation attributes)");
    cublasLtMatrixLayout_t lp = layout(3, 5, 3, CUBLASLT_ORDER_COL, CUDA_R_64F);
    uint32_t pa = CUBLASLT_BATCH_MODE_POINTER_ARRAY;
    cublasLtMatrixLayoutSetAttribute(lp, CUBLASLT_MATRIX_LAYOUT_BATCH_MODE, &pa, 4);
    f = a;
    f.Adesc = lp;
    expect_forwarded("a pointer-array batch", &f, 0, &cur,
                     "forwarded (planar or pointer-array layouts)");
    cublasLtMatrixLayout_t lw = layout(4, 5, 4, CUBLASLT_ORDER_COL, CUDA_R_64F);
    f = a;
    f.Adesc = lw;
    expect_forwarded("k of A != k of B", &f, 0, &cur,
                     "forwarded (dimensions that do not agree)");

    const cublasLtMatmulDesc_t descs[] = {desc, d32, de, ds};
    for (size_t i = 0; i < sizeof descs / sizeof descs[0]; i++)
        cublasLtMatmulDescDestroy(descs[i]);
    const cublasLtMatrixLayout_t lays[] = {la, lb, lc, ld, lp, lw};
    for (size_t i = 0; i < sizeof lays / sizeof lays[0]; i++)
        cublasLtMatrixLayoutDestroy(lays[i]);
    cublasLtDestroy(lt);
    remove_tree(dir);
    free(log);
    free(dir);
    printf("lt: all checks passed\n");
    return 0;
}
