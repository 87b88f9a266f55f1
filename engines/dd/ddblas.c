/* ddblas.c — libddblas's GPU entry points (include/ddblas.h) on the double-double kernels
 * (kernels.cu, the X = true instances: dfs_ddx_*), in the order of ddx_steps.h.  The CPU
 * implementation is ddblas_host.c; the argument checks, shared with it, ddblas_args.h. */
#include "ddblas_args.h"

#include "../../core/gpu.h"
#include "../../core/resolve.h"
#include "../../config/env.h"
#include "dd_kernels.h"
#include "ddx_steps.h"
#include "launch.h"

#include <stdlib.h>
#include <string.h>

#define DDBLAS_EXPORT __attribute__((visibility("default")))

extern const unsigned char dfs_dd_fatbin[];

/* libddblas's kernels of kernels.cu (the X = true instances, and AXPY and the conversion). */
#define DDX_KERNELS(X)                                                                             \
    X(K_DOT, dfs_ddx_dot)                                                                          \
    X(K_DOT_FINAL, dfs_ddx_dot_final)                                                              \
    X(K_GEMV, dfs_ddx_gemv)                                                                        \
    X(K_GEMV_FINAL, dfs_ddx_gemv_final)                                                            \
    X(K_GEMM_ACCURATE, dfs_ddx_gemm_accurate)                                                      \
    X(K_GEMM_PAPER, dfs_ddx_gemm_paper)                                                            \
    X(K_AXPY, dfs_ddx_axpy)                                                                        \
    X(K_CONVERT, dfs_ddx_convert)
enum { DDX_KERNELS(DFS_KERNEL_ID) K_COUNT };
DFS_MODULE(module, dfs_dd_fatbin, DDX_KERNELS);

struct ddblas_context {
    dfs_scratch scratch; /* DOT and GEMV partials */
};

DDBLAS_EXPORT ddblas_status ddblas_create(ddblas_handle *handle)
{
    dfs_env_configure_core(); /* EXBLAS_LOG, EXBLAS_LOG_FILE */
    if (!handle)
        return DDBLAS_INVALID_VALUE;
    ddblas_handle h = calloc(1, sizeof *h);
    if (!h)
        return DDBLAS_ALLOC_FAILED;
    pthread_mutex_init(&h->scratch.lock, NULL);
    *handle = h;
    return DDBLAS_SUCCESS;
}

DDBLAS_EXPORT ddblas_status ddblas_destroy(ddblas_handle h)
{
    if (!h)
        return DDBLAS_INVALID_VALUE;
    dfs_scratch_release(&h->scratch);
    pthread_mutex_destroy(&h->scratch.lock);
    free(h);
    return DDBLAS_SUCCESS;
}

static dfs_ddx_in in(ddblas_array a)
{
    dfs_ddx_in r = {a.hi, a.lo, (int)a.fmt};
    return r;
}

static dfs_ddx_out out(ddblas_array a)
{
    dfs_ddx_out r = {a.hi, a.lo, (int)a.fmt};
    return r;
}

static dfs_dd dd(ddblas_dd v)
{
    return dfs_dd_make(v.hi, v.lo);
}

/* The kernels in the current context, and its device (multiprocessors, tuning row). */
static const CUfunction *kernels(dfs_dd_gpu *g)
{
    const CUfunction *k = dfs_module_kernels(&module);
    CUdevice dev = -1;
    if (k && (!DFS_DRV(cuCtxGetDevice) || DFS_DRV(cuCtxGetDevice)(&dev) != CUDA_SUCCESS))
        dev = -1;
    *g = dfs_dd_gpu_of((int)dev);
    return k;
}

static ddblas_status status_of(int r)
{
    return r == DFS_DD_NO_SCRATCH  ? DDBLAS_ALLOC_FAILED
           : r != DFS_DD_LAUNCHED ? DDBLAS_EXECUTION_FAILED
                                  : DDBLAS_SUCCESS;
}

/* AXPY and the conversion: kernel `which` over n elements, a thread each (grid-stride). */
static ddblas_status elementwise(int which, int64_t n, cudaStream_t stream, void *args)
{
    dfs_dd_gpu g;
    const CUfunction *k = kernels(&g);
    if (!k)
        return DDBLAS_NO_GPU;
    return dfs_launch(k[which], dfs_dd_wave(k[which], &g, (n + 255) / 256), 1, 1, 256, 1,
                      (CUstream)stream, args)
               ? DDBLAS_EXECUTION_FAILED
               : DDBLAS_SUCCESS;
}

DDBLAS_EXPORT ddblas_status ddblas_axpy(ddblas_handle h, cudaStream_t stream, int64_t n,
                                        ddblas_dd alpha, ddblas_array x, int64_t incx,
                                        ddblas_array y, int64_t incy)
{
    if (!h || !ddblas_axpy_ok(n, alpha, x, incx, y, incy))
        return DDBLAS_INVALID_VALUE;
    if (n == 0 || ddblas_is_zero(alpha))
        return DDBLAS_SUCCESS;
    dfs_ddx_axpy_args a = {n, incx, incy, dd(alpha), in(x), out(y)};
    return elementwise(K_AXPY, n, stream, &a);
}

DDBLAS_EXPORT ddblas_status ddblas_convert(ddblas_handle h, cudaStream_t stream, int64_t n,
                                           ddblas_array src, int64_t incs, ddblas_array dst,
                                           int64_t incd)
{
    if (!h || !ddblas_convert_ok(n, src, incs, dst, incd))
        return DDBLAS_INVALID_VALUE;
    if (n == 0)
        return DDBLAS_SUCCESS;
    dfs_ddx_convert_args a = {n, incs, incd, in(src), out(dst)};
    return elementwise(K_CONVERT, n, stream, &a);
}

DDBLAS_EXPORT ddblas_status ddblas_dot(ddblas_handle h, cudaStream_t stream, int64_t n,
                                       ddblas_array x, int64_t incx, ddblas_array y, int64_t incy,
                                       ddblas_dd *result)
{
    if (!h || !ddblas_dot_ok(n, x, incx, y, incy, result))
        return DDBLAS_INVALID_VALUE;
    dfs_dd_gpu g;
    const CUfunction *k = kernels(&g);
    if (!k)
        return DDBLAS_NO_GPU;
    CUstream st = (CUstream)stream;
    if (n == 0) {
        if (!DFS_DRV(cuMemsetD32Async) ||
            DFS_DRV(cuMemsetD32Async)((CUdeviceptr)(uintptr_t)result, 0, 4, st) != CUDA_SUCCESS)
            return DDBLAS_EXECUTION_FAILED;
        return DDBLAS_SUCCESS;
    }
    dfs_dd_dot_args a;
    memset(&a, 0, sizeof a);
    a.x = in(x);
    a.y = in(y);
    a.incx = incx;
    a.incy = incy;
    a.n = n;
    a.xresult = (dfs_dd *)result;
    pthread_mutex_lock(&h->scratch.lock);
    const int r = dfs_dd_launch_dot(k[K_DOT], k[K_DOT_FINAL], &g, &h->scratch, st, &a, NULL);
    dfs_scratch_unlock(&h->scratch);
    return status_of(r);
}

DDBLAS_EXPORT ddblas_status ddblas_gemv(ddblas_handle h, cudaStream_t stream, char trans,
                                        int64_t m, int64_t n, ddblas_dd alpha, ddblas_array A,
                                        int64_t lda, ddblas_array x, int64_t incx, ddblas_dd beta,
                                        ddblas_array y, int64_t incy)
{
    int t;
    if (!h || !ddblas_gemv_ok(trans, &t, m, n, alpha, A, lda, x, incx, y, incy))
        return DDBLAS_INVALID_VALUE;
    if (m == 0 || n == 0)
        return DDBLAS_SUCCESS;
    dfs_dd_gpu g;
    const CUfunction *k = kernels(&g);
    if (!k)
        return DDBLAS_NO_GPU;
    CUstream st = (CUstream)stream;
    dfs_dd_gemv_args a;
    memset(&a, 0, sizeof a);
    a.A = in(A);
    a.x = in(x);
    a.lda = lda;
    a.incx = incx;
    a.trans = t;
    a.len = t ? n : m;
    a.K = t ? m : n;
    a.y = out(y);
    a.incy = incy;
    a.xalpha = dd(alpha);
    a.xbeta = dd(beta);
    pthread_mutex_lock(&h->scratch.lock);
    const int r = dfs_dd_launch_gemv(k[K_GEMV], k[K_GEMV_FINAL], &g, &h->scratch, st, &a);
    dfs_scratch_unlock(&h->scratch);
    return status_of(r);
}

DDBLAS_EXPORT ddblas_status ddblas_gemm(ddblas_handle h, cudaStream_t stream, ddblas_scheme scheme,
                                        char transa, char transb, int64_t m, int64_t n, int64_t k,
                                        ddblas_dd alpha, ddblas_array A, int64_t lda,
                                        ddblas_array B, int64_t ldb, ddblas_dd beta,
                                        ddblas_array C, int64_t ldc)
{
    int ta, tb;
    if (!h || !ddblas_gemm_ok(scheme, transa, transb, &ta, &tb, m, n, k, alpha, A, lda, B, ldb, C,
                              ldc))
        return DDBLAS_INVALID_VALUE;
    if (m == 0 || n == 0)
        return DDBLAS_SUCCESS;
    dfs_dd_gpu g;
    const CUfunction *kf = kernels(&g);
    if (!kf)
        return DDBLAS_NO_GPU;
    dfs_dd_gemm_args a;
    memset(&a, 0, sizeof a);
    a.m = m;
    a.n = n;
    a.k = k;
    a.batch = 1;
    a.A = in(A);
    a.lda = lda;
    a.B = in(B);
    a.ldb = ldb;
    a.C = out(C);
    a.ldc = ldc;
    a.ta = ta;
    a.tb = tb;
    a.xalpha = k > 0 ? dd(alpha) : dfs_dd_make(0.0, 0.0); /* k = 0: C = beta C (as BLAS) */
    a.xbeta = dd(beta);
    const int kf_i = scheme == DDBLAS_PAPER ? K_GEMM_PAPER : K_GEMM_ACCURATE;
    return status_of(dfs_dd_launch_gemm(kf[kf_i], DFS_DD_GEMM_EDGE(0), (CUstream)stream, &a));
}
