/* stats.c — per-routine, per-engine call counts, optional GPU timing with CUDA events, and the
 * summary at exit.  Timing (EXBLAS_TIMING=1, set by exblas-run) records an event pair around
 * each intercepted call on the call's stream (a ring of slots per handle) and reads finished
 * pairs without ever waiting: at every timed call, the handle's pairs from the oldest on until
 * one still running; when a handle is destroyed, all of its own (waiting there, as cuBLAS's
 * destroy does); and at exit, for the handles never destroyed (PyTorch's, CuPy's), every pair
 * already finished, one event query each (pairs still running then are reported untimed).  The
 * exit flush is an atexit handler registered at the first timed call, after the CUDA runtime's
 * own (registered at its initialisation), so that it runs before the runtime tears the context
 * down; the summary itself, a destructor, runs after both and makes no CUDA call. */
#include "state.h"

#include "../config/env.h"
#include "../core/log.h"
#include "../core/resolve.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ENGINES 16

static struct {
    atomic_ullong calls, declined, timed;
    atomic_ullong gpu_ns;
} counters[DFS_R_COUNT][MAX_ENGINES];
static pthread_once_t once = PTHREAD_ONCE_INIT, exit_once = PTHREAD_ONCE_INIT;
static int timing;
static const char *summary_dest; /* NULL: no summary; "" : log destination; else a file */

static void init(void)
{
    dfs_env_configure_core();
    timing = dfs_env_on(DFS_ENV_TIMING);
    const char *s = dfs_env(DFS_ENV_SUMMARY);
    if (s && *s && strcmp(s, "0"))
        summary_dest = strcmp(s, "1") ? strdup(s) : "";
    else if (dfs_log_on(DFS_LOG_INFO))
        summary_dest = "";
}

int dfs_timing_enabled(void)
{
    pthread_once(&once, init);
    return timing;
}

void dfs_stats_count(int routine, int engine, int declined_by)
{
    if (engine < MAX_ENGINES)
        atomic_fetch_add_explicit(&counters[routine][engine].calls, 1, memory_order_relaxed);
    if (declined_by > 0 && declined_by < MAX_ENGINES)
        atomic_fetch_add_explicit(&counters[routine][declined_by].declined, 1, memory_order_relaxed);
}

/* Reads a slot's pair if it has finished (waiting for it with wait); returns whether the slot is
 * free now (not pending; a busy one counts as free: it is no pair yet). */
static int harvest_slot(dfs_timing_slot *t, int wait)
{
    if (!t->pending)
        return 1;
    CUevent end = t->end;
    if (wait && DFS_DRV(cuEventSynchronize))
        DFS_DRV(cuEventSynchronize)(end);
    if (DFS_DRV(cuEventQuery)(end) != CUDA_SUCCESS)
        return 0;
    float ms = 0;
    if (DFS_DRV(cuEventElapsedTime)(&ms, (CUevent)t->start, end) == CUDA_SUCCESS &&
        t->engine < MAX_ENGINES) {
        atomic_fetch_add_explicit(&counters[t->routine][t->engine].gpu_ns,
                                  (unsigned long long)(ms * 1e6f + 0.5f), memory_order_relaxed);
        atomic_fetch_add_explicit(&counters[t->routine][t->engine].timed, 1, memory_order_relaxed);
    }
    t->pending = 0;
    return 1;
}

/* The handle's finished pairs in the order they were recorded, from the oldest (the slot the
 * ring takes next) until one still running: the calls of one stream finish in that order, so
 * one query per call mostly; a later pair on another stream waits for a later harvest.  With
 * s->lock held. */
static void harvest_in_order(dfs_handle_state *s)
{
    for (int i = 0; i < DFS_TIMING_SLOTS; i++)
        if (!harvest_slot(&s->slots[(s->next_slot + i) % DFS_TIMING_SLOTS], 0))
            return;
}

static int driver_ok(void)
{
    return DFS_DRV(cuEventCreate) && DFS_DRV(cuEventRecord) && DFS_DRV(cuEventQuery) &&
           DFS_DRV(cuEventElapsedTime) && DFS_DRV(cuEventDestroy) && DFS_DRV(cuStreamIsCapturing);
}

void dfs_timing_harvest(dfs_handle_state *s, int wait)
{
    if (!driver_ok())
        return;
    pthread_mutex_lock(&s->lock);
    for (int i = 0; i < DFS_TIMING_SLOTS; i++)
        harvest_slot(&s->slots[i], wait);
    pthread_mutex_unlock(&s->lock);
}

/* At exit: each handle's pairs that have finished, without waiting. */
static void harvest_finished(dfs_handle_state *s)
{
    dfs_timing_harvest(s, 0);
}

static void exit_flush(void)
{
    dfs_handle_each(harvest_finished);
}

static void register_exit_flush(void)
{
    atexit(exit_flush);
}

dfs_timing_slot *dfs_timing_start(dfs_handle_state *s, cudaStream_t stream, int routine, int engine)
{
    if (!s || !driver_ok())
        return NULL;
    pthread_once(&exit_once, register_exit_flush);
    CUstreamCaptureStatus cap = CU_STREAM_CAPTURE_STATUS_NONE;
    if (DFS_DRV(cuStreamIsCapturing)((CUstream)stream, &cap) != CUDA_SUCCESS ||
        cap != CU_STREAM_CAPTURE_STATUS_NONE)
        return NULL; /* events recorded in a graph are not timings of this call */
    pthread_mutex_lock(&s->lock);
    harvest_in_order(s);
    dfs_timing_slot *t = &s->slots[s->next_slot];
    if (t->pending || t->busy) {
        pthread_mutex_unlock(&s->lock);
        return NULL; /* the ring is full of calls still running: leave this one untimed */
    }
    s->next_slot = (s->next_slot + 1) % DFS_TIMING_SLOTS;
    if (!t->start) {
        CUevent a = NULL, b = NULL;
        if (DFS_DRV(cuEventCreate)(&a, CU_EVENT_DEFAULT) != CUDA_SUCCESS ||
            DFS_DRV(cuEventCreate)(&b, CU_EVENT_DEFAULT) != CUDA_SUCCESS) {
            if (a)
                DFS_DRV(cuEventDestroy)(a);
            pthread_mutex_unlock(&s->lock);
            return NULL;
        }
        t->start = a;
        t->end = b;
    }
    int ok = DFS_DRV(cuEventRecord)((CUevent)t->start, (CUstream)stream) == CUDA_SUCCESS;
    t->routine = routine;
    t->engine = engine;
    t->busy = ok;
    pthread_mutex_unlock(&s->lock);
    return ok ? t : NULL;
}

void dfs_timing_stop(dfs_handle_state *s, dfs_timing_slot *t, cudaStream_t stream, int engine)
{
    if (!t)
        return;
    pthread_mutex_lock(&s->lock);
    t->engine = engine;
    t->pending = DFS_DRV(cuEventRecord)((CUevent)t->end, (CUstream)stream) == CUDA_SUCCESS;
    t->busy = 0;
    pthread_mutex_unlock(&s->lock);
}

void dfs_timing_release(dfs_handle_state *s)
{
    if (!driver_ok())
        return;
    dfs_timing_harvest(s, 1);
    for (int i = 0; i < DFS_TIMING_SLOTS; i++) {
        if (s->slots[i].start)
            DFS_DRV(cuEventDestroy)((CUevent)s->slots[i].start);
        if (s->slots[i].end)
            DFS_DRV(cuEventDestroy)((CUevent)s->slots[i].end);
    }
}

/* One line per (routine, engine) that computed or declined calls:
 *   dfshim-summary routine=dgemm engine=native calls=N declined=N timed=N gpu_ms=X
 * "declined" counts calls that engine handed on (they are counted again under the engine that
 * computed them: native, or the rule's fallback=). */
__attribute__((destructor)) static void print_summary(void)
{
    pthread_once(&once, init);
    if (!summary_dest)
        return;
    char text[8192];
    size_t len = 0;
    for (int r = 0; r < DFS_R_COUNT; r++)
        for (int e = 0; e < dfs_engine_count && e < MAX_ENGINES; e++) {
            const unsigned long long calls = atomic_load(&counters[r][e].calls),
                                     declined = atomic_load(&counters[r][e].declined);
            if (!calls && !declined) /* an engine that declined every call still says so */
                continue;
            int w = snprintf(text + len, sizeof text - len,
                             "dfshim-summary routine=%s engine=%s calls=%llu declined=%llu "
                             "timed=%llu gpu_ms=%.6f\n",
                             dfs_routine_names[r], dfs_engines[e]->name, calls, declined,
                             (unsigned long long)atomic_load(&counters[r][e].timed),
                             (double)atomic_load(&counters[r][e].gpu_ns) * 1e-6);
            if (w < 0 || (size_t)w >= sizeof text - len)
                break;
            len += (size_t)w;
        }
    if (!len)
        len = (size_t)snprintf(text, sizeof text, "dfshim-summary no intercepted calls\n");
    if (!*summary_dest) {
        dfs_log_write(text);
        return;
    }
    FILE *f = fopen(summary_dest, "ae"); /* append: child processes may share the file */
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}
