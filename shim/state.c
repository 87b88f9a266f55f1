/* state.c — the configuration in force and the per-handle state map.
 * The configuration is an immutable snapshot behind an atomic pointer; a replaced snapshot is
 * kept (reachable) until exit, because other threads may still be reading it.  Handle states
 * live in a hash map under one mutex and are freed when the handle is destroyed. */
#include "state.h"

#include "../config/env.h"
#include "../core/log.h"
#include "../core/resolve.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---------- configuration ---------- */

static _Atomic(dfs_config *) current;
static pthread_once_t config_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t config_lock = PTHREAD_MUTEX_INITIALIZER;
static int reread;
static dfs_config **retired;
static size_t nretired;

static void config_diag(const char *line)
{
    dfs_log_once(DFS_LOG_ERROR, line, "%s", line);
}

static dfs_config *build(void)
{
    dfs_config_set_option_tables(dfs_engine_option_table);
    dfs_config *c = dfs_config_from_env(dfs_engine_find, config_diag);
    if (!c) {
        /* Out of memory: an all-native configuration that needs no allocation is impossible,
         * so retry once; dfs_config_current's callers treat NULL as native. */
        c = dfs_config_from_env(dfs_engine_find, config_diag);
    }
    return c;
}

static void config_init(void)
{
    dfs_env_configure_core(); /* before anything is logged */
    reread = dfs_env_on(DFS_ENV_REREAD);
    atomic_store(&current, build());
}

const dfs_config *dfs_config_current(void)
{
    pthread_once(&config_once, config_init);
    dfs_config *c = atomic_load_explicit(&current, memory_order_acquire);
    if (reread && c && dfs_config_env_changed(c)) {
        pthread_mutex_lock(&config_lock);
        c = atomic_load(&current);
        if (dfs_config_env_changed(c)) {
            dfs_config *n = build();
            dfs_config **r = realloc(retired, (nretired + 1) * sizeof *r);
            if (n && r) {
                retired = r;
                retired[nretired++] = c;
                atomic_store_explicit(&current, n, memory_order_release);
                dfs_log(DFS_LOG_INFO, "EXBLAS_* changed: configuration re-read");
                c = n;
            } else {
                if (r)
                    retired = r;
                dfs_config_free(n);
            }
        }
        pthread_mutex_unlock(&config_lock);
    }
    return c;
}

/* ---------- devices ---------- */

#define MAX_DEVICES 64
static dfs_device devices[MAX_DEVICES];
static atomic_int device_known[MAX_DEVICES];
static pthread_mutex_t device_lock = PTHREAD_MUTEX_INITIALIZER;

/* The device of the current context (the handle's: cuBLAS requires it to be current). */
static void current_device(dfs_device *out)
{
    dfs_device_describe(out, -1, 0, 0, "");
    CUdevice d;
    if (!DFS_DRV(cuCtxGetDevice) || DFS_DRV(cuCtxGetDevice)(&d) != CUDA_SUCCESS || d < 0 ||
        d >= MAX_DEVICES)
        return;
    if (atomic_load_explicit(&device_known[d], memory_order_acquire)) {
        *out = devices[d];
        return;
    }
    int major = 0, minor = 0;
    char name[96] = "";
    if (!DFS_DRV(cuDeviceGetAttribute) || !DFS_DRV(cuDeviceGetName))
        return;
    DFS_DRV(cuDeviceGetAttribute)(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, d);
    DFS_DRV(cuDeviceGetAttribute)(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, d);
    DFS_DRV(cuDeviceGetName)(name, (int)sizeof name, d);
    dfs_device_describe(out, d, major, minor, name);
    pthread_mutex_lock(&device_lock);
    if (!atomic_load(&device_known[d])) {
        devices[d] = *out;
        atomic_store_explicit(&device_known[d], 1, memory_order_release);
    }
    pthread_mutex_unlock(&device_lock);
}

/* ---------- handle states ---------- */

#define BUCKETS 256
static dfs_handle_state *buckets[BUCKETS];
static pthread_mutex_t map_lock = PTHREAD_MUTEX_INITIALIZER;

static unsigned bucket(cublasHandle_t h)
{
    uintptr_t v = (uintptr_t)h;
    v ^= v >> 17;
    v *= 0x9e3779b97f4a7c15ULL;
    return (unsigned)(v >> 56) % BUCKETS;
}

static void compute_rules(dfs_handle_state *s, const dfs_config *cfg)
{
    for (int r = 0; r < DFS_R_COUNT; r++) {
        dfs_rule *ru = &s->rules[r];
        dfs_config_rule(cfg, s->dev.ordinal >= 0 ? &s->dev : NULL, (dfs_routine)r, ru);
        int *const which[2] = {&ru->engine, &ru->below_engine}; /* the rule's two engines */
        for (int i = 0; i < 2; i++) {
            const dfs_engine *e = dfs_engines[*which[i]];
            if (*which[i] == 0 || e->can_run(&s->dev))
                continue;
            char key[160];
            snprintf(key, sizeof key, "cannot-run:%s:%d", e->name, s->dev.ordinal);
            dfs_log_once(DFS_LOG_ERROR, key,
                         "engine %s (from %s) cannot run on device %d (%s, cc %d.%d); using native",
                         e->name, ru->source, s->dev.ordinal, s->dev.name[0] ? s->dev.name : "unknown",
                         s->dev.cc_major, s->dev.cc_minor);
            *which[i] = 0;
        }
    }
    s->cfg = cfg;
}

dfs_handle_state *dfs_handle_get(cublasHandle_t h, const dfs_config *cfg, dfs_routine r,
                                 dfs_rule *rule)
{
    unsigned b = bucket(h);
    pthread_mutex_lock(&map_lock);
    dfs_handle_state *s = buckets[b];
    while (s && s->handle != h)
        s = s->next;
    if (!s) {
        s = calloc(1, sizeof *s);
        if (s) {
            s->handle = h;
            pthread_mutex_init(&s->lock, NULL);
            pthread_mutex_init(&s->scratch.lock, NULL);
            current_device(&s->dev);
            s->next = buckets[b];
            buckets[b] = s;
        }
    }
    if (s && s->cfg != cfg)
        compute_rules(s, cfg);
    if (s)
        *rule = s->rules[r];
    pthread_mutex_unlock(&map_lock);
    return s;
}

void dfs_handle_each(void (*f)(dfs_handle_state *))
{
    pthread_mutex_lock(&map_lock);
    for (int b = 0; b < BUCKETS; b++)
        for (dfs_handle_state *s = buckets[b]; s; s = s->next)
            f(s);
    pthread_mutex_unlock(&map_lock);
}

dfs_handle_state *dfs_handle_take(cublasHandle_t h)
{
    unsigned b = bucket(h);
    pthread_mutex_lock(&map_lock);
    dfs_handle_state **p = &buckets[b];
    while (*p && (*p)->handle != h)
        p = &(*p)->next;
    dfs_handle_state *s = *p;
    if (s)
        *p = s->next;
    pthread_mutex_unlock(&map_lock);
    return s;
}
