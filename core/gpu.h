/* gpu.h — the GPU runtime that engines use to run their own kernels and keep device workspace,
 * through the CUDA driver API (the application's libcuda; no cudart in libdfshim.so):
 *   - a module of kernels embedded as a fatbin, loaded once per CUDA context;
 *   - per-handle scratch space, grown stream-ordered, never allocated during graph capture. */
#ifndef DFS_GPU_H
#define DFS_GPU_H

#include <cuda.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#define DFS_MODULE_MAX_CONTEXTS 16
#define DFS_MODULE_MAX_KERNELS 32

typedef struct {
    const unsigned char *image; /* fatbin */
    const char *const *names;   /* kernel names, count of them */
    int count;
    /* filled at run time, per context */
    pthread_mutex_t lock;
    int loaded;
    struct {
        CUcontext ctx;
        CUfunction fn[DFS_MODULE_MAX_KERNELS];
    } per_ctx[DFS_MODULE_MAX_CONTEXTS];
} dfs_module;

#define DFS_MODULE_INIT(image_, names_, count_)                                                    \
    {(image_), (names_), (count_), PTHREAD_MUTEX_INITIALIZER, 0, {{0, {0}}}}

/* A module's kernels come from one list, LIST(X) = X(ID, symbol) X(ID, symbol) ..., that gives
 * both the index enum and the names, so the two cannot drift:
 *     #define MY_KERNELS(X) X(K_ROWS, dfs_my_rows) X(K_FINISH, dfs_my_finish)
 *     enum { MY_KERNELS(DFS_KERNEL_ID) K_COUNT };
 *     DFS_MODULE(module, dfs_my_fatbin, MY_KERNELS);
 * The symbol is the kernel's extern "C" name in the .cu file (a name missing there fails the
 * module's loading, logged once).  DFS_MODULE checks the count against DFS_MODULE_MAX_KERNELS at
 * compile time. */
#define DFS_KERNEL_ID(id, symbol) id,
#define DFS_KERNEL_NAME(id, symbol) #symbol,
#define DFS_MODULE(var, image, LIST)                                                               \
    static const char *const var##_names[] = {LIST(DFS_KERNEL_NAME)};                             \
    _Static_assert(sizeof var##_names / sizeof var##_names[0] <= DFS_MODULE_MAX_KERNELS,          \
                   "a module holds at most DFS_MODULE_MAX_KERNELS kernels");                      \
    static dfs_module var =                                                                        \
        DFS_MODULE_INIT(image, var##_names, (int)(sizeof var##_names / sizeof var##_names[0]))

/* The module's kernels in the current context (loaded on first use), or NULL (logged once). */
const CUfunction *dfs_module_kernels(dfs_module *m);

/* Launches f with one argument block (a struct passed by value).  0 on success. */
int dfs_launch(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
               CUstream stream, void *args);

/* A grid dimension for n blocks: n clamped to [1, cap] (a grid-stride loop takes the rest). */
unsigned dfs_grid_dim(int64_t n, int64_t cap);
/* A two-dimensional grid for n blocks, each dimension at most 65535 (*gx * *gy >= n up to that
 * cap; a grid-stride loop over blockIdx.y * gridDim.x + blockIdx.x takes the rest). */
void dfs_grid_2d(int64_t n, unsigned *gx, unsigned *gy);

/* Multiprocessors of a device (80 if it cannot be asked). */
int dfs_sm_count(int device);
/* The compute capability of a device (device < 0: the current context's), 0.0 if it cannot be
 * asked. */
void dfs_device_cc(int device, int *major, int *minor);

/* Thread blocks of `threads` threads (no dynamic shared memory) of kernel f that one
 * multiprocessor holds at once (the occupancy calculator; cached per kernel; 4 if it cannot be
 * asked): grids of dfs_sm_count x this fill the GPU in exactly one wave. */
int dfs_blocks_per_sm(CUfunction f, int threads);

/* Zeroed page-locked host memory of `bytes` the device can copy into (portable across contexts),
 * for counters a stream copies back asynchronously; NULL if it cannot be had.  Never freed by
 * its users: they keep it for the process's life.  Safe while a stream is being captured (the
 * thread's capture mode relaxed around the allocation, as around a module's first loading). */
void *dfs_pinned_zeroed(size_t bytes);

/* Copies a result computed on the stream to host memory and waits for it (what cuBLAS does for
 * a host-pointer result).  0 on success. */
int dfs_result_to_host(void *host, CUdeviceptr dev, size_t bytes, CUstream stream);

/* Whether the stream is being captured into a graph (errors count as capturing). */
int dfs_stream_capturing(CUstream stream);

/* Per-handle device workspace (owned by the shim's handle state, used by one engine call at a
 * time: between pthread_mutex_lock(&lock) and dfs_scratch_unlock).  No caller's stream is kept
 * past the call (the application may destroy it): each use is fenced by the event `done`,
 * recorded on the use's stream when the engine has enqueued its work, and the next use, on
 * whatever stream, waits for it. */
struct dfs_scratch {
    pthread_mutex_t lock;
    CUdeviceptr ptr;
    size_t size;
    CUevent done;    /* recorded after the last use's work (never inside a graph capture) */
    int pending;     /* done has been recorded */
    CUstream using;  /* the stream of the use in progress, when using_set */
    int using_set;
};
typedef struct dfs_scratch dfs_scratch;

/* At least `bytes` of scratch ordered after all earlier uses, for work on `stream`, or 0 when
 * it cannot be had (allocation failure, or growth needed during graph capture).  Call with
 * s->lock held. */
CUdeviceptr dfs_scratch_get(dfs_scratch *s, size_t bytes, CUstream stream);
/* Ends a use: fences the work enqueued since dfs_scratch_get, then releases s->lock. */
void dfs_scratch_unlock(dfs_scratch *s);
/* Frees the space when the handle goes away (waits for its last use). */
void dfs_scratch_release(dfs_scratch *s);
/* Device memory of `bytes` for one call's temporaries, stream-ordered on `stream` (graph capture
 * included: an allocation node), or 0 when it cannot be had (logged once); free it on the same
 * stream with dfs_temp_free once the call's work using it is enqueued. */
CUdeviceptr dfs_temp_alloc(size_t bytes, CUstream stream);
void dfs_temp_free(CUdeviceptr p, CUstream stream);
/* A test hook: on = 1 makes every later allocation fail, as on a full device. */
void dfs_scratch_refuse_all(int on);

#endif
