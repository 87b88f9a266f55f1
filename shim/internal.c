/* internal.c — internal cuBLAS handles, one per CUDA context and user (see internal.h). */
#include "internal.h"

#include "../core/resolve.h"

#include <pthread.h>
#include <stdint.h>

#define MAX_CONTEXTS 16

typedef struct {
    int used;
    unsigned long long ctx; /* cuCtxGetId, or the CUcontext's address on drivers without it */
    cublasHandle_t handle;
    pthread_mutex_t lock; /* held by the caller between acquire and release */
} entry;

static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static entry table[DFS_INTERNAL_USERS][MAX_CONTEXTS];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void init_locks(void)
{
    for (int u = 0; u < DFS_INTERNAL_USERS; u++)
        for (int i = 0; i < MAX_CONTEXTS; i++)
            pthread_mutex_init(&table[u][i].lock, NULL);
}

static int current_context(unsigned long long *key)
{
    CUcontext ctx = NULL;
    if (!DFS_DRV(cuCtxGetCurrent) || DFS_DRV(cuCtxGetCurrent)(&ctx) != CUDA_SUCCESS || !ctx)
        return 0;
    if (!DFS_DRV(cuCtxGetId) || DFS_DRV(cuCtxGetId)(ctx, key) != CUDA_SUCCESS)
        *key = (unsigned long long)(uintptr_t)ctx;
    return 1;
}

/* The entry of context key for user u, created with a new handle if need be; NULL when full or
 * cuBLAS cannot create one.  Called with table_lock held. */
static entry *find(dfs_internal_user u, unsigned long long key)
{
    entry *free_slot = NULL;
    for (int i = 0; i < MAX_CONTEXTS; i++) {
        if (table[u][i].used && table[u][i].ctx == key)
            return &table[u][i];
        if (!table[u][i].used && !free_slot)
            free_slot = &table[u][i];
    }
    cublasHandle_t h;
    if (!free_slot || !DFS_REAL(cublasCreate_v2) ||
        DFS_REAL(cublasCreate_v2)(&h) != CUBLAS_STATUS_SUCCESS)
        return NULL;
    free_slot->used = 1;
    free_slot->ctx = key;
    free_slot->handle = h;
    return free_slot;
}

cublasHandle_t dfs_internal_acquire(dfs_internal_user u, cudaStream_t stream,
                                    cublasPointerMode_t mode, void **token)
{
    unsigned long long key;
    *token = NULL;
    if (!DFS_REAL(cublasSetStream_v2) || !DFS_REAL(cublasSetPointerMode_v2) ||
        !current_context(&key))
        return NULL;
    pthread_once(&once, init_locks);
    pthread_mutex_lock(&table_lock);
    entry *e = find(u, key);
    pthread_mutex_unlock(&table_lock);
    if (!e)
        return NULL;
    pthread_mutex_lock(&e->lock);
    /* dropped (cublasShutdown) between the two locks: start again */
    if (!e->used || e->ctx != key) {
        pthread_mutex_unlock(&e->lock);
        return dfs_internal_acquire(u, stream, mode, token);
    }
    if (DFS_REAL(cublasSetStream_v2)(e->handle, stream) != CUBLAS_STATUS_SUCCESS ||
        DFS_REAL(cublasSetPointerMode_v2)(e->handle, mode) != CUBLAS_STATUS_SUCCESS) {
        pthread_mutex_unlock(&e->lock);
        return NULL;
    }
    *token = e;
    return e->handle;
}

void dfs_internal_release(void *token)
{
    if (token)
        pthread_mutex_unlock(&((entry *)token)->lock);
}

void dfs_internal_drop(dfs_internal_user u)
{
    pthread_once(&once, init_locks);
    pthread_mutex_lock(&table_lock);
    for (int i = 0; i < MAX_CONTEXTS; i++) {
        entry *e = &table[u][i];
        pthread_mutex_lock(&e->lock);
        if (e->used)
            cublasDestroy_v2(e->handle); /* the shim's own: frees the handle's state too */
        e->used = 0;
        e->ctx = 0;
        e->handle = NULL;
        pthread_mutex_unlock(&e->lock);
    }
    pthread_mutex_unlock(&table_lock);
}
