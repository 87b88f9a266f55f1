/* gpu.c — module loading per context, kernel launches and scratch space (see gpu.h). */
#include "gpu.h"

#include "log.h"
#include "resolve.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* The calling thread's stream-capture mode set to relaxed (push: returns whether it was set, the
 * previous mode in *mode) or restored (pop), around what a capture in progress in this or
 * another thread would otherwise take for an unsafe call and invalidate: a module's first
 * loading and a pinned allocation, neither of which touches a stream. */
static int relaxed_push(CUstreamCaptureMode *mode)
{
    *mode = CU_STREAM_CAPTURE_MODE_RELAXED;
    return DFS_DRV(cuThreadExchangeStreamCaptureMode) &&
           DFS_DRV(cuThreadExchangeStreamCaptureMode)(mode) == CUDA_SUCCESS;
}

static void relaxed_pop(int pushed, CUstreamCaptureMode *mode)
{
    if (pushed)
        DFS_DRV(cuThreadExchangeStreamCaptureMode)(mode);
}

const CUfunction *dfs_module_kernels(dfs_module *m)
{
    CUcontext ctx = NULL;
    if (!DFS_DRV(cuCtxGetCurrent) || DFS_DRV(cuCtxGetCurrent)(&ctx) != CUDA_SUCCESS || !ctx)
        return NULL;
    const CUfunction *out = NULL;
    pthread_mutex_lock(&m->lock);
    int slot = -1;
    for (int i = 0; i < DFS_MODULE_MAX_CONTEXTS && !out; i++) {
        if (m->per_ctx[i].ctx == ctx)
            out = m->per_ctx[i].fn;
        else if (!m->per_ctx[i].ctx && slot < 0)
            slot = i;
    }
    if (!out && slot >= 0 && DFS_DRV(cuModuleLoadData) && DFS_DRV(cuModuleGetFunction)) {
        CUmodule mod;
        CUstreamCaptureMode mode;
        const int pushed = relaxed_push(&mode);
        CUresult r = DFS_DRV(cuModuleLoadData)(&mod, m->image);
        int ok = r == CUDA_SUCCESS;
        for (int k = 0; ok && k < m->count; k++)
            ok = DFS_DRV(cuModuleGetFunction)(&m->per_ctx[slot].fn[k], mod, m->names[k]) ==
                 CUDA_SUCCESS;
        relaxed_pop(pushed, &mode);
        if (ok) {
            m->per_ctx[slot].ctx = ctx;
            out = m->per_ctx[slot].fn;
        } else {
            dfs_log_once(DFS_LOG_ERROR, m->names[0],
                         "cannot load the kernels of %s for this GPU (driver error %d); "
                         "its calls run natively", m->names[0], (int)r);
        }
    }
    pthread_mutex_unlock(&m->lock);
    return out;
}

int dfs_launch(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
               CUstream stream, void *args)
{
    void *params[] = {args};
    return DFS_DRV(cuLaunchKernel)(f, gx, gy, gz, bx, by, 1, 0, stream, params, NULL) ==
                   CUDA_SUCCESS
               ? 0
               : -1;
}

int dfs_stream_capturing(CUstream stream)
{
    CUstreamCaptureStatus st = CU_STREAM_CAPTURE_STATUS_NONE;
    if (!DFS_DRV(cuStreamIsCapturing) || DFS_DRV(cuStreamIsCapturing)(stream, &st) != CUDA_SUCCESS)
        return 1;
    return st != CU_STREAM_CAPTURE_STATUS_NONE;
}

/* The test hook (EXBLAS_TEST_NO_WORKSPACE=1, config/env.c): every workspace allocation fails, as
 * when the device is out of memory. */
static atomic_int refuse;

void dfs_scratch_refuse_all(int on)
{
    atomic_store(&refuse, on != 0);
}

static int refuse_workspace(void)
{
    return atomic_load_explicit(&refuse, memory_order_relaxed);
}

/* bytes on stream (stream-ordered), or 0 (the test hook refuses all). */
static CUdeviceptr try_alloc(size_t bytes, CUstream stream)
{
    CUdeviceptr p = 0;
    if (refuse_workspace() || DFS_DRV(cuMemAllocAsync)(&p, bytes, stream) != CUDA_SUCCESS)
        return 0;
    return p;
}

/* The one warning of an allocation that failed: key, what it was for, what the calls do. */
static void alloc_failed(const char *key, const char *what, const char *then, size_t bytes)
{
    dfs_log_once(DFS_LOG_WARN, key, "no device memory for an engine's %s (%zu bytes%s): such "
                 "calls %s (said once)", what, bytes,
                 refuse_workspace() ? ", refused: EXBLAS_TEST_NO_WORKSPACE=1" : "", then);
}

/* A workspace of `bytes` on `stream`, with some headroom when it can be had; 0 when not. */
static CUdeviceptr allocate(size_t bytes, size_t *got, CUstream stream)
{
    *got = bytes + bytes / 8; /* some headroom against regrowth */
    CUdeviceptr p = try_alloc(*got, stream);
    if (!p)
        p = try_alloc(*got = bytes, stream);
    if (!p)
        alloc_failed("scratch-alloc", "workspace", "take a path without it or run natively",
                     bytes);
    return p;
}

CUdeviceptr dfs_temp_alloc(size_t bytes, CUstream stream)
{
    if (!DFS_DRV(cuMemAllocAsync) || !DFS_DRV(cuMemFreeAsync))
        return 0;
    const CUdeviceptr p = try_alloc(bytes, stream);
    if (!p)
        alloc_failed("temp-alloc", "temporaries", "run natively", bytes);
    return p;
}

void dfs_temp_free(CUdeviceptr p, CUstream stream)
{
    if (p)
        DFS_DRV(cuMemFreeAsync)(p, stream);
}

CUdeviceptr dfs_scratch_get(dfs_scratch *s, size_t bytes, CUstream stream)
{
    if (!DFS_DRV(cuMemAllocAsync) || !DFS_DRV(cuMemFreeAsync) || !DFS_DRV(cuEventCreate) ||
        !DFS_DRV(cuEventRecord) || !DFS_DRV(cuStreamWaitEvent))
        return 0;
    const int capturing = dfs_stream_capturing(stream);
    /* after the last use, whichever stream it was on (a graph cannot wait for an outside
     * event: captured uses rely on the order the application gives its streams) */
    if (s->ptr && s->pending && !capturing &&
        DFS_DRV(cuStreamWaitEvent)(stream, s->done, 0) != CUDA_SUCCESS)
        return 0;
    if (!s->ptr || s->size < bytes) {
        if (capturing) {
            dfs_log_once(DFS_LOG_WARN, "scratch-capture",
                         "an engine needs more workspace while the stream is being captured "
                         "into a graph; such calls run natively (run the call once before "
                         "capturing)");
            return 0;
        }
        if (s->ptr) {
            DFS_DRV(cuMemFreeAsync)(s->ptr, stream);
            s->ptr = 0;
            s->size = 0;
        }
        size_t got;
        CUdeviceptr p = allocate(bytes, &got, stream);
        if (!p)
            return 0;
        s->ptr = p;
        s->size = got;
    }
    s->using = stream;
    s->using_set = !capturing;
    return s->ptr;
}

void dfs_scratch_unlock(dfs_scratch *s)
{
    if (s->using_set && s->ptr) {
        if (!s->done && DFS_DRV(cuEventCreate)(&s->done, CU_EVENT_DISABLE_TIMING) != CUDA_SUCCESS)
            s->done = NULL;
        if (s->done && DFS_DRV(cuEventRecord)(s->done, s->using) == CUDA_SUCCESS)
            s->pending = 1;
    }
    s->using_set = 0;
    pthread_mutex_unlock(&s->lock);
}

void dfs_scratch_release(dfs_scratch *s)
{
    if (s->ptr && DFS_DRV(cuMemFree)) {
        if (s->pending && DFS_DRV(cuEventSynchronize))
            DFS_DRV(cuEventSynchronize)(s->done);
        DFS_DRV(cuMemFree)(s->ptr);
    }
    if (s->done && DFS_DRV(cuEventDestroy))
        DFS_DRV(cuEventDestroy)(s->done);
    s->ptr = 0;
    s->size = 0;
    s->done = NULL;
    s->pending = 0;
}

void *dfs_pinned_zeroed(size_t bytes)
{
    void *p = NULL;
    CUstreamCaptureMode mode;
    const int pushed = relaxed_push(&mode);
    const int bad = !DFS_DRV(cuMemHostAlloc) ||
                    DFS_DRV(cuMemHostAlloc)(&p, bytes, CU_MEMHOSTALLOC_PORTABLE) != CUDA_SUCCESS;
    relaxed_pop(pushed, &mode);
    if (bad)
        return NULL;
    memset(p, 0, bytes);
    return p;
}

unsigned dfs_grid_dim(int64_t n, int64_t cap)
{
    return (unsigned)(n < 1 ? 1 : n < cap ? n : cap);
}

void dfs_grid_2d(int64_t n, unsigned *gx, unsigned *gy)
{
    *gx = dfs_grid_dim(n, 65535);
    *gy = dfs_grid_dim((n + *gx - 1) / *gx, 65535);
}

int dfs_sm_count(int device)
{
    int n = 0;
    if (device < 0 || !DFS_DRV(cuDeviceGetAttribute) ||
        DFS_DRV(cuDeviceGetAttribute)(&n, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, device) !=
            CUDA_SUCCESS || n <= 0)
        n = 80;
    return n;
}

void dfs_device_cc(int device, int *major, int *minor)
{
    CUdevice d = device;
    if (d < 0 && (!DFS_DRV(cuCtxGetDevice) || DFS_DRV(cuCtxGetDevice)(&d) != CUDA_SUCCESS))
        d = -1;
    if (d < 0 || !DFS_DRV(cuDeviceGetAttribute) ||
        DFS_DRV(cuDeviceGetAttribute)(major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, d) !=
            CUDA_SUCCESS ||
        DFS_DRV(cuDeviceGetAttribute)(minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, d) !=
            CUDA_SUCCESS)
        *major = *minor = 0;
}

int dfs_blocks_per_sm(CUfunction f, int threads)
{
    /* a few kernels x contexts: a small table, searched under a lock (no driver call after the
     * first of each kernel).  A stale entry (a handle reused after its module went away) could
     * only size a grid wrongly: the grid changes speed, never results' correctness. */
    static struct {
        CUfunction f;
        int threads, blocks;
    } cache[64];
    static int used;
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    int blocks = 0;
    pthread_mutex_lock(&lock);
    for (int i = 0; i < used && !blocks; i++)
        if (cache[i].f == f && cache[i].threads == threads)
            blocks = cache[i].blocks;
    pthread_mutex_unlock(&lock);
    if (blocks)
        return blocks;
    if (!DFS_DRV(cuOccupancyMaxActiveBlocksPerMultiprocessor) ||
        DFS_DRV(cuOccupancyMaxActiveBlocksPerMultiprocessor)(&blocks, f, threads, 0) !=
            CUDA_SUCCESS ||
        blocks <= 0)
        return 4;
    pthread_mutex_lock(&lock);
    if (used < (int)(sizeof cache / sizeof cache[0])) {
        cache[used].f = f;
        cache[used].threads = threads;
        cache[used].blocks = blocks;
        used++;
    }
    pthread_mutex_unlock(&lock);
    return blocks;
}

int dfs_result_to_host(void *host, CUdeviceptr dev, size_t bytes, CUstream stream)
{
    if (!DFS_DRV(cuMemcpyDtoHAsync) || !DFS_DRV(cuStreamSynchronize))
        return 1;
    return DFS_DRV(cuMemcpyDtoHAsync)(host, dev, bytes, stream) != CUDA_SUCCESS ||
           DFS_DRV(cuStreamSynchronize)(stream) != CUDA_SUCCESS;
}
