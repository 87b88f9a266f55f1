/* zgemm_calls.c — zgemm's calls (zgemm.h): each complex GEMM entry point run for real (the
 * function found in libcublas) or through the shim (the program's symbol). */
#include "common.h"
#include "zgemm.h"

#include <cublas.h>
#include <dlfcn.h>
#include <string.h>

const char *const zname[Z_COUNT] = {
    "cublasZgemm_v2", "cublasZgemm_v2_64", "cublasZgemm3m", "cublasZgemm3m_64", "cublasGemmEx",
    "cublasGemmEx_64", "cublasZgemmStridedBatched", "cublasZgemmStridedBatched_64",
    "cublasGemmStridedBatchedEx", "cublasGemmStridedBatchedEx_64", "cublasZgemm"};


/* The real Z functions (the Ex ones are gt_real's). */
static struct {
    __typeof__(&cublasZgemm_v2) gemm;
    __typeof__(&cublasZgemm_v2_64) gemm64;
    __typeof__(&cublasZgemm3m) m3;
    __typeof__(&cublasZgemm3m_64) m3_64;
    __typeof__(&cublasZgemmStridedBatched) sb;
    __typeof__(&cublasZgemmStridedBatched_64) sb64;
    __typeof__(&cublasZgemm) legacy;
} zr;
int intercepted[Z_COUNT];

void zlookup(void)
{
    void *lib = dlopen("libcublas.so.13", RTLD_NOW | RTLD_NOLOAD);
    if (!lib)
        lib = dlopen("libcublas.so.12", RTLD_NOW | RTLD_NOLOAD);
    if (!lib)
        gt_fatal("libcublas is not loaded in this process (%s)", dlerror());
    void *p[Z_COUNT];
    for (int a = 0; a < Z_COUNT; a++) {
        if (!(p[a] = dlsym(lib, zname[a])))
            gt_fatal("cannot find %s in libcublas: %s", zname[a], dlerror());
        intercepted[a] = dlsym(RTLD_DEFAULT, zname[a]) != p[a];
    }
    memcpy(&zr.gemm, &p[Z_GEMM], sizeof(void *));
    memcpy(&zr.gemm64, &p[Z_GEMM_64], sizeof(void *));
    memcpy(&zr.m3, &p[Z_3M], sizeof(void *));
    memcpy(&zr.m3_64, &p[Z_3M_64], sizeof(void *));
    memcpy(&zr.sb, &p[Z_SB], sizeof(void *));
    memcpy(&zr.sb64, &p[Z_SB_64], sizeof(void *));
    memcpy(&zr.legacy, &p[Z_LEGACY], sizeof(void *));
}

/* ---------- one call ---------- */


char op_char(cublasOperation_t op, int lower)
{
    const char c = op == CUBLAS_OP_N ? 'N' : op == CUBLAS_OP_T ? 'T' : op == CUBLAS_OP_C ? 'C' : 'X';
    return lower && c != 'X' ? (char)(c - 'A' + 'a') : c;
}

cublasStatus_t zrun(int real, const zcall *c)
{
    const cuDoubleComplex *al = c->alpha, *be = c->beta;
    const cuDoubleComplex *A = (const cuDoubleComplex *)(const void *)c->A;
    const cuDoubleComplex *B = (const cuDoubleComplex *)(const void *)c->B;
    cuDoubleComplex *C = (cuDoubleComplex *)(void *)c->C;
    const int m = (int)c->m, n = (int)c->n, k = (int)c->k, lda = (int)c->lda, ldb = (int)c->ldb,
              ldc = (int)c->ldc, batch = (int)c->batch;
    const cudaDataType t = CUDA_C_64F;
    const cublasComputeType_t ct = CUBLAS_COMPUTE_64F;
    switch (c->api) {
    case Z_GEMM:
        return (real ? zr.gemm : cublasZgemm_v2)(c->h, c->ta, c->tb, m, n, k, al, A, lda, B, ldb,
                                                 be, C, ldc);
    case Z_GEMM_64:
        return (real ? zr.gemm64 : cublasZgemm_v2_64)(c->h, c->ta, c->tb, c->m, c->n, c->k, al, A,
                                                      c->lda, B, c->ldb, be, C, c->ldc);
    case Z_3M:
        return (real ? zr.m3 : cublasZgemm3m)(c->h, c->ta, c->tb, m, n, k, al, A, lda, B, ldb, be,
                                              C, ldc);
    case Z_3M_64:
        return (real ? zr.m3_64 : cublasZgemm3m_64)(c->h, c->ta, c->tb, c->m, c->n, c->k, al, A,
                                                    c->lda, B, c->ldb, be, C, c->ldc);
    case Z_EX:
        return (real ? gt_real.GemmEx : cublasGemmEx)(c->h, c->ta, c->tb, m, n, k, al, A, t, lda,
                                                      B, t, ldb, be, C, t, ldc, ct, c->algo);
    case Z_EX_64:
        return (real ? gt_real.GemmEx_64 : cublasGemmEx_64)(c->h, c->ta, c->tb, c->m, c->n, c->k,
                                                            al, A, t, c->lda, B, t, c->ldb, be, C,
                                                            t, c->ldc, ct, c->algo);
    case Z_SB:
        return (real ? zr.sb : cublasZgemmStridedBatched)(c->h, c->ta, c->tb, m, n, k, al, A, lda,
                                                          c->sA, B, ldb, c->sB, be, C, ldc, c->sC,
                                                          batch);
    case Z_SB_64:
        return (real ? zr.sb64 : cublasZgemmStridedBatched_64)(
            c->h, c->ta, c->tb, c->m, c->n, c->k, al, A, c->lda, c->sA, B, c->ldb, c->sB, be, C,
            c->ldc, c->sC, c->batch);
    case Z_SBEX:
        return (real ? gt_real.GemmSBEx : cublasGemmStridedBatchedEx)(
            c->h, c->ta, c->tb, m, n, k, al, A, t, lda, c->sA, B, t, ldb, c->sB, be, C, t, ldc,
            c->sC, batch, ct, c->algo);
    case Z_SBEX_64:
        return (real ? gt_real.GemmSBEx_64 : cublasGemmStridedBatchedEx_64)(
            c->h, c->ta, c->tb, c->m, c->n, c->k, al, A, t, c->lda, c->sA, B, t, c->ldb, c->sB, be,
            C, t, c->ldc, c->sC, c->batch, ct, c->algo);
    default:
        cublasGetError(); /* clears an earlier error */
        (real ? zr.legacy : cublasZgemm)(op_char(c->ta, c->lower), op_char(c->tb, c->lower), m, n,
                                         k, *al, A, lda, B, ldb, *be, C, ldc);
        return cublasGetError();
    }
}
