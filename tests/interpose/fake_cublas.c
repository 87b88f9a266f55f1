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
 * once; beta == 0 never reads C or y.  Arithmetic is the reference BLAS loop order.
 *
 * This file: the call counters and injected failures, the handles and the legacy API; the v2
 * routines are in fake_cublas_v2.c, what both share in fake_cublas_impl.h. */
#include "fake_cublas_impl.h"

#include "fake_cublaslt.h"

#include <cublas.h> /* the legacy API */
#include <cuda.h>

#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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
fake_gemmex_args last_ex;

static int entry_index(const char *name)
{
    for (int i = 0; i < NENTRIES; i++)
        if (!strcmp(entry_names[i], name))
            return i;
    return -1;
}

/* Counts the call; returns 1 (with *st set) when a failure was injected for it. */
int enter(const char *name, cublasStatus_t *st)
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

int bad_handle(cublasHandle_t h)
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

/* ---------- a call into cuBLASLt from inside libcublas ---------- */

/* As cuBLAS's own routines call cuBLASLt: the shim must pass this on untouched and unrouted. */
EXPORT cublasStatus_t fake_cublas_lt_matmul(const fake_lt_args *a)
{
    return cublasLtMatmul(a->lt, a->desc, a->alpha, a->A, a->Adesc, a->B, a->Bdesc, a->beta, a->C,
                          a->Cdesc, a->D, a->Ddesc, a->algo, a->workspace, a->workspace_size,
                          a->stream);
}
