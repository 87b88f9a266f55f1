/* legacy.c — the legacy cuBLAS API (cublas.h), which old binaries still call: no handle, 'N'/'T'/
 * 'C' characters for the operations, alpha and beta by value, Ddot's result returned, errors
 * reported through cublasGetError() and the stream set with cublasSetKernelStream().
 *
 * Valid, non-trivial calls are dispatched like the v2 ones, on an internal handle (internal.h):
 * one per CUDA context, its stream set to the legacy kernel stream at each call (legacy calls on
 * one context are serialised through the shim).  Calls
 * with an operation character cuBLAS does not know, and every call when no internal handle can
 * be had, go straight to the real legacy function, which reports its own errors.  An engine's
 * failure is kept for cublasGetError(), which returns it (once) before the library's own. */
#include "check.h"
#include "dispatch.h"
#include "internal.h"
#include "../core/resolve.h"

#include <stdatomic.h>

#define DFS_EXPORT __attribute__((visibility("default")))

static _Atomic(cudaStream_t) kernel_stream;
static _Thread_local cublasStatus_t pending; /* an engine's failure, for cublasGetError() */

/* The operation for a legacy character, or -1. */
static int op_of(char c)
{
    switch (c) {
    case 'N': case 'n': return CUBLAS_OP_N;
    case 'T': case 't': return CUBLAS_OP_T;
    case 'C': case 'c': return CUBLAS_OP_C;
    default: return -1;
    }
}

/* The internal handle of the current context on the legacy kernel stream, or NULL. */
static cublasHandle_t internal_handle(void **token)
{
    return dfs_internal_acquire(DFS_INTERNAL_LEGACY, atomic_load(&kernel_stream),
                                CUBLAS_POINTER_MODE_HOST, token);
}

static void note(cublasStatus_t st)
{
    if (st != CUBLAS_STATUS_SUCCESS)
        pending = st;
}

DFS_EXPORT void cublasDgemm(char transa, char transb, int m, int n, int k, double alpha,
                            const double *A, int lda, const double *B, int ldb, double beta,
                            double *C, int ldc)
{
    const int ta = op_of(transa), tb = op_of(transb);
    void *token = NULL;
    cublasHandle_t h = ta >= 0 && tb >= 0 ? internal_handle(&token) : NULL;
    if (!h) {
        if (DFS_REAL(cublasDgemm))
            DFS_REAL(cublasDgemm)(transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
        return;
    }
    dfs_gemm_call c = {DFS_API_LEGACY_DGEMM, (cublasOperation_t)ta, (cublasOperation_t)tb, m, n, k,
                       &alpha, A, lda, 0, B, ldb, 0, &beta, C, ldc, 0, 1, CUBLAS_GEMM_DEFAULT,
                       DFS_R64, NULL, NULL, NULL, DFS_TRI_ALL};
    dfs_args a = dfs_check_gemm(h, 0, c.transa, c.transb, m, n, k, lda, ldb, ldc, 1,
                                CUBLAS_GEMM_DEFAULT, NULL);
    note(dfs_dispatch_gemm(h, &c, a));
    dfs_internal_release(token);
}

DFS_EXPORT void cublasZgemm(char transa, char transb, int m, int n, int k, cuDoubleComplex alpha,
                            const cuDoubleComplex *A, int lda, const cuDoubleComplex *B, int ldb,
                            cuDoubleComplex beta, cuDoubleComplex *C, int ldc)
{
    const int ta = op_of(transa), tb = op_of(transb);
    void *token = NULL;
    cublasHandle_t h = ta >= 0 && tb >= 0 ? internal_handle(&token) : NULL;
    if (!h) {
        if (DFS_REAL(cublasZgemm))
            DFS_REAL(cublasZgemm)(transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
        return;
    }
    dfs_gemm_call c = {DFS_API_LEGACY_ZGEMM, (cublasOperation_t)ta, (cublasOperation_t)tb, m, n, k,
                       (const double *)&alpha, (const double *)A, lda, 0, (const double *)B, ldb, 0,
                       (const double *)&beta, (double *)C, ldc, 0, 1, CUBLAS_GEMM_DEFAULT, DFS_C64,
                       NULL, NULL, NULL, DFS_TRI_ALL};
    dfs_args a = dfs_check_gemm(h, 0, c.transa, c.transb, m, n, k, lda, ldb, ldc, 1,
                                CUBLAS_GEMM_DEFAULT, NULL);
    note(dfs_dispatch_gemm(h, &c, a));
    dfs_internal_release(token);
}

/* A legacy GEMV (c's trans the op_of its character, t) on the internal handle; 0 when there is
 * none or the character is not an op: the caller then forwards the call to the real library. */
static int legacy_gemv(int t, dfs_gemv_call *c)
{
    void *token = NULL;
    cublasHandle_t h = t >= 0 ? internal_handle(&token) : NULL;
    if (!h)
        return 0;
    c->trans = (cublasOperation_t)t;
    dfs_args a = dfs_check_gemv(h, c->trans, c->m, c->n, c->lda, c->incx, c->incy, NULL);
    note(dfs_dispatch_gemv(h, c, a));
    dfs_internal_release(token);
    return 1;
}

DFS_EXPORT void cublasDgemv(char trans, int m, int n, double alpha, const double *A, int lda,
                            const double *x, int incx, double beta, double *y, int incy)
{
    dfs_gemv_call c = {DFS_API_LEGACY_DGEMV, CUBLAS_OP_N, m, n, &alpha, A, lda, x, incx,
                       &beta, y, incy, DFS_R64};
    if (!legacy_gemv(op_of(trans), &c) && DFS_REAL(cublasDgemv))
        DFS_REAL(cublasDgemv)(trans, m, n, alpha, A, lda, x, incx, beta, y, incy);
}

DFS_EXPORT void cublasZgemv(char trans, int m, int n, cuDoubleComplex alpha,
                            const cuDoubleComplex *A, int lda, const cuDoubleComplex *x, int incx,
                            cuDoubleComplex beta, cuDoubleComplex *y, int incy)
{
    dfs_gemv_call c = {DFS_API_LEGACY_ZGEMV, CUBLAS_OP_N, m, n, (const double *)&alpha,
                       (const double *)A, lda, (const double *)x, incx, (const double *)&beta,
                       (double *)y, incy, DFS_C64};
    if (!legacy_gemv(op_of(trans), &c) && DFS_REAL(cublasZgemv))
        DFS_REAL(cublasZgemv)(trans, m, n, alpha, A, lda, x, incx, beta, y, incy);
}

/* ---------- the Level-3 routines beside GEMM (core/l3_entries.h) ---------- */

static int side_of(char c)
{
    switch (c) {
    case 'L': case 'l': return CUBLAS_SIDE_LEFT;
    case 'R': case 'r': return CUBLAS_SIDE_RIGHT;
    default: return -1;
    }
}

static int fill_of(char c)
{
    switch (c) {
    case 'L': case 'l': return CUBLAS_FILL_MODE_LOWER;
    case 'U': case 'u': return CUBLAS_FILL_MODE_UPPER;
    default: return -1;
    }
}

static int diag_of(char c)
{
    switch (c) {
    case 'N': case 'n': return CUBLAS_DIAG_NON_UNIT;
    case 'U': case 'u': return CUBLAS_DIAG_UNIT;
    default: return -1;
    }
}

/* A legacy Level-3 call with its characters' enums (0 for those the routine has not) on the
 * internal handle; 0 when there is none or a character is not cuBLAS's: the caller then forwards
 * the call to the real library. */
static int legacy_l3(dfs_l3_call *c, int side, int uplo, int trans, int diag)
{
    void *token = NULL;
    cublasHandle_t h = side >= 0 && uplo >= 0 && trans >= 0 && diag >= 0
                           ? internal_handle(&token)
                           : NULL;
    if (!h)
        return 0;
    c->side = (cublasSideMode_t)side;
    c->uplo = (cublasFillMode_t)uplo;
    c->trans = (cublasOperation_t)trans;
    c->diag = (cublasDiagType_t)diag;
    note(dfs_dispatch_l3(h, c, dfs_check_l3(h, c, NULL)));
    dfs_internal_release(token);
    return 1;
}

/* The fields every legacy hook fills the same way (the scalars by value: their addresses). */
#define COMMON(kd, name, T, SA, SB)                                                                \
    .api = DFS_API_##name, .kind = DFS_L3_##kd, .type = DFS_TYPE_OF(T),                            \
    .alpha = (const double *)&alpha, .alpha_real = DFS_SCALAR_REAL(SA),                            \
    .beta_real = DFS_SCALAR_REAL(SB), .A = (const double *)A, .lda = lda

/* The argument lists (core/l3_entries.h's DFS_L3_KIND_*). */
#define LEG_RK(kind, name, T, SA, SB, I)                                                           \
    DFS_EXPORT void name(char uplo, char trans, int n, int k, SA alpha, const T *A, int lda,       \
                         SB beta, T *C, int ldc)                                                   \
    {                                                                                              \
        dfs_l3_call c = {COMMON(kind, name, T, SA, SB), .m = n, .n = n, .k = k,                    \
                         .beta = (const double *)&beta, .C = (double *)C, .ldc = ldc};             \
        if (!legacy_l3(&c, 0, fill_of(uplo), op_of(trans), 0) && DFS_REAL(name))                   \
            DFS_REAL(name)(uplo, trans, n, k, alpha, A, lda, beta, C, ldc);                        \
    }
#define LEG_RK2(kind, name, T, SA, SB, I)                                                          \
    DFS_EXPORT void name(char uplo, char trans, int n, int k, SA alpha, const T *A, int lda,       \
                         const T *B, int ldb, SB beta, T *C, int ldc)                              \
    {                                                                                              \
        dfs_l3_call c = {COMMON(kind, name, T, SA, SB), .m = n, .n = n, .k = k,                    \
                         .B = (const double *)B, .ldb = ldb, .beta = (const double *)&beta,        \
                         .C = (double *)C, .ldc = ldc};                                            \
        if (!legacy_l3(&c, 0, fill_of(uplo), op_of(trans), 0) && DFS_REAL(name))                   \
            DFS_REAL(name)(uplo, trans, n, k, alpha, A, lda, B, ldb, beta, C, ldc);                \
    }
#define LEG_MM(kind, name, T, SA, SB, I)                                                           \
    DFS_EXPORT void name(char side, char uplo, int m, int n, SA alpha, const T *A, int lda,        \
                         const T *B, int ldb, SB beta, T *C, int ldc)                              \
    {                                                                                              \
        const int s = side_of(side);                                                               \
        dfs_l3_call c = {COMMON(kind, name, T, SA, SB), .m = m, .n = n,                            \
                         .k = s == CUBLAS_SIDE_LEFT ? m : n, .B = (const double *)B, .ldb = ldb,   \
                         .beta = (const double *)&beta, .C = (double *)C, .ldc = ldc};             \
        if (!legacy_l3(&c, s, fill_of(uplo), 0, 0) && DFS_REAL(name))                              \
            DFS_REAL(name)(side, uplo, m, n, alpha, A, lda, B, ldb, beta, C, ldc);                 \
    }
/* TRMM and TRSM alike: in place on B (the record's B and C) */
#define LEG_TRMM(kind, name, T, SA, SB, I)                                                         \
    DFS_EXPORT void name(char side, char uplo, char trans, char diag, int m, int n, SA alpha,      \
                         const T *A, int lda, T *B, int ldb)                                       \
    {                                                                                              \
        const int s = side_of(side);                                                               \
        dfs_l3_call c = {COMMON(kind, name, T, SA, SB), .m = m, .n = n,                            \
                         .k = s == CUBLAS_SIDE_LEFT ? m : n, .B = (const double *)B, .ldb = ldb,   \
                         .C = (double *)B, .ldc = ldb};                                            \
        if (!legacy_l3(&c, s, fill_of(uplo), op_of(trans), diag_of(diag)) && DFS_REAL(name))       \
            DFS_REAL(name)(side, uplo, trans, diag, m, n, alpha, A, lda, B, ldb);                  \
    }
#define LEG_TRSM LEG_TRMM

/* the legacy rows of the table (the v2 ones: level3.c) */
#define HOOK(a, form, kind, name, T, I) HOOK_##form(kind, name, T, I)
#define HOOK_V2(kind, name, T, I)
#define HOOK_LEG(kind, name, T, I) DFS_L3_KIND_##kind(LEG_, name, T, I)
DFS_L3_ENTRIES(HOOK, )

DFS_EXPORT double cublasDdot(int n, const double *x, int incx, const double *y, int incy)
{
    double r = 0.0;
    void *token = NULL;
    cublasHandle_t h = internal_handle(&token);
    if (!h)
        return DFS_REAL(cublasDdot) ? DFS_REAL(cublasDdot)(n, x, incx, y, incy) : 0.0;
    dfs_dot_call c = {DFS_API_LEGACY_DDOT, n, x, incx, y, incy, &r, DFS_R64, 0};
    dfs_args a = dfs_check_dot(h, n, &r, NULL);
    note(dfs_dispatch_dot(h, &c, a));
    dfs_internal_release(token);
    return r;
}

/* cublasZdotc (conj = 1) and cublasZdotu of the legacy API: the result returned. */
static cuDoubleComplex legacy_zdot(dfs_api api, int conj, int n, const cuDoubleComplex *x, int incx,
                                   const cuDoubleComplex *y, int incy)
{
    cuDoubleComplex r = {0.0, 0.0};
    void *token = NULL;
    cublasHandle_t h = internal_handle(&token);
    if (!h) {
        if (conj)
            return DFS_REAL(cublasZdotc) ? DFS_REAL(cublasZdotc)(n, x, incx, y, incy) : r;
        return DFS_REAL(cublasZdotu) ? DFS_REAL(cublasZdotu)(n, x, incx, y, incy) : r;
    }
    dfs_dot_call c = {api, n, (const double *)x, incx, (const double *)y, incy, (double *)&r,
                      DFS_C64, conj};
    dfs_args a = dfs_check_dot(h, n, (const double *)&r, NULL);
    note(dfs_dispatch_dot(h, &c, a));
    dfs_internal_release(token);
    return r;
}

DFS_EXPORT cuDoubleComplex cublasZdotc(int n, const cuDoubleComplex *x, int incx,
                                       const cuDoubleComplex *y, int incy)
{
    return legacy_zdot(DFS_API_LEGACY_ZDOTC, 1, n, x, incx, y, incy);
}

DFS_EXPORT cuDoubleComplex cublasZdotu(int n, const cuDoubleComplex *x, int incx,
                                       const cuDoubleComplex *y, int incy)
{
    return legacy_zdot(DFS_API_LEGACY_ZDOTU, 0, n, x, incx, y, incy);
}

DFS_EXPORT cublasStatus cublasSetKernelStream(cudaStream_t stream)
{
    cublasStatus_t st = DFS_REAL(cublasSetKernelStream) ? DFS_REAL(cublasSetKernelStream)(stream)
                                                        : CUBLAS_STATUS_NOT_INITIALIZED;
    if (st == CUBLAS_STATUS_SUCCESS)
        atomic_store(&kernel_stream, stream);
    return st;
}

DFS_EXPORT cublasStatus cublasGetError(void)
{
    cublasStatus_t own = pending;
    pending = CUBLAS_STATUS_SUCCESS;
    cublasStatus_t lib = DFS_REAL(cublasGetError) ? DFS_REAL(cublasGetError)()
                                                  : CUBLAS_STATUS_NOT_INITIALIZED;
    return own != CUBLAS_STATUS_SUCCESS ? own : lib;
}

/* The internal handles go (with their state) before the legacy context does. */
DFS_EXPORT cublasStatus cublasShutdown(void)
{
    dfs_internal_drop(DFS_INTERNAL_LEGACY);
    atomic_store(&kernel_stream, (cudaStream_t)0);
    return DFS_REAL(cublasShutdown) ? DFS_REAL(cublasShutdown)() : CUBLAS_STATUS_NOT_INITIALIZED;
}
