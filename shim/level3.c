/* level3.c — the exported Level-3 entry points beside GEMM (SYRK, HERK, SYRKX, HERKX, SYR2K,
 * HER2K, SYMM, HEMM, TRMM, TRSM, each in double and complex double and in its v2 and _64 form),
 * and the pointer-array GEMM batches (DgemmBatched, ZgemmBatched, GemmBatchedEx and their _64
 * forms).  As in hooks.c: each packs its arguments into a call record, classifies them with
 * cuBLAS's own rules (check_l3.c, check.c) and hands them to dispatch.c.  The Level-3 hooks are
 * generated from core/l3_entries.h, one macro per argument list; their legacy forms are in
 * legacy.c.  The real SYRK, SYRKX, SYR2K, SYMM, TRMM and TRSM reach an engine through its GEMM
 * (dispatch.c, l3_gemm.c), and so do the complex ones and HERK, HERKX, HER2K, HEMM through an
 * engine with a complex GEMM, and the batches through its strided GEMM (ptr_batch.h); the rest
 * run on cuBLAS, counted and traced. */
#include "check.h"
#include "dispatch.h"
#include "../core/resolve.h"

#define DFS_EXPORT __attribute__((visibility("default")))

static cublasStatus_t level3(cublasHandle_t h, const dfs_l3_call *c)
{
    return dfs_dispatch_l3(h, c, dfs_check_l3(h, c, NULL));
}

/* The fields every hook fills the same way. */
#define COMMON(kd, name, T, SA, SB)                                                                \
    .api = DFS_API_##name, .kind = DFS_L3_##kd, .type = DFS_TYPE_OF(T),                            \
    .alpha = (const double *)alpha, .alpha_real = DFS_SCALAR_REAL(SA),                             \
    .beta_real = DFS_SCALAR_REAL(SB), .A = (const double *)A, .lda = lda

/* The argument lists (core/l3_entries.h's DFS_L3_KIND_*). */
#define V2_RK(kind, name, T, SA, SB, I)                                                            \
    DFS_EXPORT cublasStatus_t name(cublasHandle_t h, cublasFillMode_t uplo,                        \
                                   cublasOperation_t trans, I n, I k, const SA *alpha,             \
                                   const T *A, I lda, const SB *beta, T *C, I ldc)                 \
    {                                                                                              \
        const dfs_l3_call c = {COMMON(kind, name, T, SA, SB), .uplo = uplo, .trans = trans,        \
                               .m = n, .n = n, .k = k, .beta = (const double *)beta,               \
                               .C = (double *)C, .ldc = ldc};                                      \
        return level3(h, &c);                                                                      \
    }
#define V2_RK2(kind, name, T, SA, SB, I)                                                           \
    DFS_EXPORT cublasStatus_t name(cublasHandle_t h, cublasFillMode_t uplo,                        \
                                   cublasOperation_t trans, I n, I k, const SA *alpha,             \
                                   const T *A, I lda, const T *B, I ldb, const SB *beta, T *C,     \
                                   I ldc)                                                          \
    {                                                                                              \
        const dfs_l3_call c = {COMMON(kind, name, T, SA, SB), .uplo = uplo, .trans = trans,        \
                               .m = n, .n = n, .k = k, .B = (const double *)B, .ldb = ldb,         \
                               .beta = (const double *)beta, .C = (double *)C, .ldc = ldc};        \
        return level3(h, &c);                                                                      \
    }
#define V2_MM(kind, name, T, SA, SB, I)                                                            \
    DFS_EXPORT cublasStatus_t name(cublasHandle_t h, cublasSideMode_t side,                        \
                                   cublasFillMode_t uplo, I m, I n, const SA *alpha, const T *A,   \
                                   I lda, const T *B, I ldb, const SB *beta, T *C, I ldc)          \
    {                                                                                              \
        const dfs_l3_call c = {COMMON(kind, name, T, SA, SB), .side = side, .uplo = uplo,          \
                               .m = m, .n = n, .k = side == CUBLAS_SIDE_LEFT ? m : n,              \
                               .B = (const double *)B, .ldb = ldb,                                 \
                               .beta = (const double *)beta, .C = (double *)C, .ldc = ldc};        \
        return level3(h, &c);                                                                      \
    }
/* TRMM (C = alpha op(A) B, out of place; C = B allowed) and TRSM (B := X, in place: the
 * record's B and C are both B) differ only in what follows B: */
#define UNPAREN(...) __VA_ARGS__
#define V2_TR(kind, name, T, SA, I, after_b, output)                                               \
    DFS_EXPORT cublasStatus_t name(cublasHandle_t h, cublasSideMode_t side,                       \
                                   cublasFillMode_t uplo, cublasOperation_t trans,                \
                                   cublasDiagType_t diag, I m, I n, const SA *alpha, const T *A,  \
                                   I lda, UNPAREN after_b)                                         \
    {                                                                                              \
        const dfs_l3_call c = {COMMON(kind, name, T, SA, SA), .side = side, .uplo = uplo,         \
                               .trans = trans, .diag = diag, .m = m, .n = n,                       \
                               .k = side == CUBLAS_SIDE_LEFT ? m : n, .B = (const double *)B,      \
                               .ldb = ldb, UNPAREN output};                                        \
        return level3(h, &c);                                                                      \
    }
#define V2_TRMM(kind, name, T, SA, SB, I)                                                          \
    V2_TR(kind, name, T, SA, I, (const T *B, I ldb, T *C, I ldc), (.C = (double *)C, .ldc = ldc))
#define V2_TRSM(kind, name, T, SA, SB, I)                                                          \
    V2_TR(kind, name, T, SA, I, (T *B, I ldb), (.C = (double *)B, .ldc = ldb))

/* the v2 rows of the table (the legacy ones: legacy.c) */
#define HOOK(a, form, kind, name, T, I) HOOK_##form(kind, name, T, I)
#define HOOK_V2(kind, name, T, I) DFS_L3_KIND_##kind(V2_, name, T, I)
#define HOOK_LEG(kind, name, T, I)
DFS_L3_ENTRIES(HOOK, )

/* ---------- pointer-array GEMM batches ---------- */

/* The arrays are device memory: only their addresses go into the record. */
static cublasStatus_t gemm_batched(dfs_api api, dfs_dtype type, cublasHandle_t h,
                                   cublasOperation_t ta, cublasOperation_t tb, int64_t m,
                                   int64_t n, int64_t k, const void *alpha, const void *const *A,
                                   int64_t lda, const void *const *B, int64_t ldb,
                                   const void *beta, void *const *C, int64_t ldc, int64_t batch,
                                   cublasGemmAlgo_t algo)
{
    const int ex = api == DFS_API_GEMMEX_BATCHED || api == DFS_API_GEMMEX_BATCHED_64;
    const dfs_gemm_call c = {.api = api, .transa = ta, .transb = tb, .m = m, .n = n, .k = k,
                             .alpha = alpha, .lda = lda, .ldb = ldb, .beta = beta, .ldc = ldc,
                             .batch = batch, .algo = algo, .type = type,
                             .Aarray = (const double *const *)A,
                             .Barray = (const double *const *)B, .Carray = (double *const *)C};
    /* batchCount < 0 is INVALID_VALUE for DgemmBatched, = 0 SUCCESS (LEVEL3.md 2.1); for
     * GemmBatchedEx, as for GemmStridedBatchedEx, a quick return (not measured: cuBLAS answers
     * either way) */
    return dfs_dispatch_gemm(h, &c,
                             dfs_check_gemm(h, ex, ta, tb, m, n, k, lda, ldb, ldc, batch, algo,
                                            NULL));
}

#define GEMM_BATCHED(name, api, T, I)                                                              \
    DFS_EXPORT cublasStatus_t name(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb,   \
                                   I m, I n, I k, const T *alpha, const T *const Aarray[], I lda,  \
                                   const T *const Barray[], I ldb, const T *beta,                  \
                                   T *const Carray[], I ldc, I batch)                              \
    {                                                                                              \
        return gemm_batched(api, DFS_TYPE_OF(T), h, ta, tb, m, n, k, alpha,                        \
                            (const void *const *)Aarray, lda, (const void *const *)Barray, ldb,    \
                            beta, (void *const *)Carray, ldc, batch, CUBLAS_GEMM_DEFAULT);         \
    }
GEMM_BATCHED(cublasDgemmBatched, DFS_API_DGEMM_BATCHED, double, int)
GEMM_BATCHED(cublasDgemmBatched_64, DFS_API_DGEMM_BATCHED_64, double, int64_t)
GEMM_BATCHED(cublasZgemmBatched, DFS_API_ZGEMM_BATCHED, cuDoubleComplex, int)
GEMM_BATCHED(cublasZgemmBatched_64, DFS_API_ZGEMM_BATCHED_64, cuDoubleComplex, int64_t)

/* GemmBatchedEx: FP64 and complex FP64 products (dfs_check_ex_types) as the batches above,
 * everything else to cuBLAS untouched, as the GemmEx hooks do. */
#define GEMMEX_BATCHED(name, api, I)                                                               \
    DFS_EXPORT cublasStatus_t name(                                                                \
        cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, I m, I n, I k,               \
        const void *alpha, const void *const Aarray[], cudaDataType at, I lda,                     \
        const void *const Barray[], cudaDataType bt, I ldb, const void *beta,                      \
        void *const Carray[], cudaDataType ct, I ldc, I batch, cublasComputeType_t ctype,          \
        cublasGemmAlgo_t algo)                                                                     \
    {                                                                                              \
        if (!dfs_check_ex_types(at, bt, ct, ctype)) {                                              \
            if (!DFS_REAL(name))                                                                   \
                return CUBLAS_STATUS_NOT_INITIALIZED;                                              \
            cublasStatus_t st = DFS_REAL(name)(h, ta, tb, m, n, k, alpha, Aarray, at, lda, Barray, \
                                               bt, ldb, beta, Carray, ct, ldc, batch, ctype,       \
                                               algo);                                              \
            dfs_trace_forwarded(#name, m, n, k, st);                                               \
            return st;                                                                             \
        }                                                                                          \
        return gemm_batched(api, at == CUDA_C_64F ? DFS_C64 : DFS_R64, h, ta, tb, m, n, k, alpha,  \
                            Aarray, lda, Barray, ldb, beta, Carray, ldc, batch, algo);             \
    }
GEMMEX_BATCHED(cublasGemmBatchedEx, DFS_API_GEMMEX_BATCHED, int)
GEMMEX_BATCHED(cublasGemmBatchedEx_64, DFS_API_GEMMEX_BATCHED_64, int64_t)
