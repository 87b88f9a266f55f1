/* legacy.c — the legacy cuBLAS API (cublas.h), which old binaries still call: no handle, 'N'/'T'/
 * 'C' characters for the operations, alpha and beta by value, Ddot's result returned, errors
 * reported through cublasGetError() and the stream set with cublasSetKernelStream().
 *
 * Valid, non-trivial calls are dispatched like the v2 ones, on an internal handle: one per CUDA
 * context, created on first use, its stream set to the legacy kernel stream at each call (legacy
 * calls through the shim are serialised: the legacy API has one implicit context anyway).  Calls
 * with an operation character cuBLAS does not know, and every call when no internal handle can
 * be had, go straight to the real legacy function, which reports its own errors.  An engine's
 * failure is kept for cublasGetError(), which returns it (once) before the library's own. */
#include "check.h"
#include "dispatch.h"
#include "resolve.h"
#include "state.h"

#include <pthread.h>
#include <stdatomic.h>

#define DFS_EXPORT __attribute__((visibility("default")))
#define MAX_CONTEXTS 16

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
    CUcontext ctx;
    cublasHandle_t handle;
} internal[MAX_CONTEXTS];
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

/* The internal handle of the current context, its stream set to the legacy kernel stream, or
 * NULL.  Called with the lock held. */
static cublasHandle_t internal_handle(void)
{
    CUcontext ctx = NULL;
    if (!DFS_DRV(cuCtxGetCurrent) || DFS_DRV(cuCtxGetCurrent)(&ctx) != CUDA_SUCCESS || !ctx ||
        !DFS_REAL(cublasCreate_v2) || !DFS_REAL(cublasSetStream_v2))
        return NULL;
    int i = 0;
    while (i < MAX_CONTEXTS && internal[i].ctx && internal[i].ctx != ctx)
        i++;
    if (i == MAX_CONTEXTS)
        return NULL;
    if (!internal[i].ctx) {
        cublasHandle_t h;
        if (DFS_REAL(cublasCreate_v2)(&h) != CUBLAS_STATUS_SUCCESS)
            return NULL;
        internal[i].ctx = ctx;
        internal[i].handle = h;
    }
    if (DFS_REAL(cublasSetStream_v2)(internal[i].handle, atomic_load(&kernel_stream)) !=
        CUBLAS_STATUS_SUCCESS)
        return NULL;
    return internal[i].handle;
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
    pthread_mutex_lock(&lock);
    cublasHandle_t h = ta >= 0 && tb >= 0 ? internal_handle() : NULL;
    if (!h) {
        pthread_mutex_unlock(&lock);
        if (DFS_REAL(cublasDgemm))
            DFS_REAL(cublasDgemm)(transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
        return;
    }
    dfs_gemm_call c = {DFS_API_LEGACY_DGEMM, (cublasOperation_t)ta, (cublasOperation_t)tb, m, n, k,
                       &alpha, A, lda, 0, B, ldb, 0, &beta, C, ldc, 0, 1, CUBLAS_GEMM_DEFAULT};
    cublasStatus_t st;
    dfs_args a = dfs_check_gemm(h, 0, c.transa, c.transb, m, n, k, lda, ldb, ldc, 1,
                                CUBLAS_GEMM_DEFAULT, &st);
    note(dfs_dispatch_gemm(h, &c, a));
    pthread_mutex_unlock(&lock);
}

DFS_EXPORT void cublasDgemv(char trans, int m, int n, double alpha, const double *A, int lda,
                            const double *x, int incx, double beta, double *y, int incy)
{
    const int t = op_of(trans);
    pthread_mutex_lock(&lock);
    cublasHandle_t h = t >= 0 ? internal_handle() : NULL;
    if (!h) {
        pthread_mutex_unlock(&lock);
        if (DFS_REAL(cublasDgemv))
            DFS_REAL(cublasDgemv)(trans, m, n, alpha, A, lda, x, incx, beta, y, incy);
        return;
    }
    dfs_gemv_call c = {DFS_API_LEGACY_DGEMV, (cublasOperation_t)t, m, n, &alpha, A, lda, x, incx,
                       &beta, y, incy};
    cublasStatus_t st;
    dfs_args a = dfs_check_gemv(h, c.trans, m, n, lda, incx, incy, &st);
    note(dfs_dispatch_gemv(h, &c, a));
    pthread_mutex_unlock(&lock);
}

DFS_EXPORT double cublasDdot(int n, const double *x, int incx, const double *y, int incy)
{
    double r = 0.0;
    pthread_mutex_lock(&lock);
    cublasHandle_t h = internal_handle();
    if (!h) {
        pthread_mutex_unlock(&lock);
        return DFS_REAL(cublasDdot) ? DFS_REAL(cublasDdot)(n, x, incx, y, incy) : 0.0;
    }
    dfs_dot_call c = {DFS_API_LEGACY_DDOT, n, x, incx, y, incy, &r};
    cublasStatus_t st;
    dfs_args a = dfs_check_dot(h, n, &r, &st);
    note(dfs_dispatch_dot(h, &c, a));
    pthread_mutex_unlock(&lock);
    return r;
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
    pthread_mutex_lock(&lock);
    for (int i = 0; i < MAX_CONTEXTS && internal[i].ctx; i++) {
        cublasDestroy_v2(internal[i].handle); /* the shim's own: frees the handle's state */
        internal[i].ctx = NULL;
        internal[i].handle = NULL;
    }
    pthread_mutex_unlock(&lock);
    atomic_store(&kernel_stream, (cudaStream_t)0);
    return DFS_REAL(cublasShutdown) ? DFS_REAL(cublasShutdown)() : CUBLAS_STATUS_NOT_INITIALIZED;
}
