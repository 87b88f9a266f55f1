/* state.h — the shim's process state: the current configuration, the per-handle state (device,
 * routing rules, timing events) and the call statistics printed at exit. */
#ifndef DFS_STATE_H
#define DFS_STATE_H

#include "../config/config.h"
#include "../core/gpu.h"
#include "../engines/engine.h"

#include <cublas_api.h>
#include <pthread.h>

/* The configuration in force (built on first use; rebuilt when EXBLAS_REREAD=1 and the
 * EXBLAS_* variables changed).  Never NULL. */
const dfs_config *dfs_config_current(void);

#define DFS_TIMING_SLOTS 64

typedef struct dfs_timing_slot {
    void *start, *end; /* CUevent */
    int routine, engine;
    int busy;    /* between start and stop */
    int pending; /* both events recorded, elapsed time not yet read */
} dfs_timing_slot;

typedef struct dfs_handle_state {
    cublasHandle_t handle;
    dfs_device dev;
    const dfs_config *cfg;          /* the configuration the rules were computed for */
    dfs_rule rules[DFS_R_COUNT];
    dfs_scratch scratch;  /* engines' workspace on this handle (its own lock) */
    pthread_mutex_t lock; /* guards the timing slots */
    dfs_timing_slot slots[DFS_TIMING_SLOTS];
    int next_slot;
    struct dfs_handle_state *next; /* hash chain */
} dfs_handle_state;

/* The state of this handle, created at first use, with rules up to date for cfg; *rule gets a
 * copy of routine r's rule.  Returns NULL only when memory runs out (the caller then runs
 * natively). */
dfs_handle_state *dfs_handle_get(cublasHandle_t h, const dfs_config *cfg, dfs_routine r,
                                 dfs_rule *rule);
/* Unlinks and returns the state of h (NULL if none); the caller finishes and frees it. */
dfs_handle_state *dfs_handle_take(cublasHandle_t h);
/* Calls f on the state of every handle not yet destroyed (under the map's lock: f must not
 * call dfs_handle_get or dfs_handle_take). */
void dfs_handle_each(void (*f)(dfs_handle_state *));

/* ---- statistics (stats.c) ---- */
int dfs_timing_enabled(void);
/* A call computed by `engine`; declined_by > 0 names the engine that handed it to native. */
void dfs_stats_count(int routine, int engine, int declined_by);
/* Around a call: start returns a slot (or NULL: not timed); stop records its end and the
 * engine that finally computed it. */
dfs_timing_slot *dfs_timing_start(dfs_handle_state *s, cudaStream_t stream, int routine, int engine);
void dfs_timing_stop(dfs_handle_state *s, dfs_timing_slot *slot, cudaStream_t stream, int engine);
/* Harvests finished timings; wait = 1 waits for pending ones (only at handle destruction,
 * never at exit). */
void dfs_timing_harvest(dfs_handle_state *s, int wait);
/* Harvests and destroys the events of a state that is going away. */
void dfs_timing_release(dfs_handle_state *s);

#endif
