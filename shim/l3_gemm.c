/* l3_gemm.c — Level-3 routines through an engine's GEMM (l3_gemm.h): the descriptor of l3_mm.h,
 * its scratch from core/gpu.c's stream-ordered temporaries, its copies by the Level-3 copy
 * kernel (engines/l3), its GEMMs by the engine. */
#include "l3_gemm.h"

#include "../core/gpu.h"
#include "../core/log.h"
#include "../core/resolve.h"
#include "../engines/l3/copy.h"
#include "l3_mm.h"

#include <stdio.h>

typedef struct {
    const dfs_engine *e;
    const dfs_ctx *x;
    int gemms; /* GEMMs done so far */
} run;

static int copy(void *p, const dfs_l3_copy *cp)
{
    const run *r = p;
    return dfs_l3_copy_gpu(cp, (CUstream)r->x->stream);
}

static cublasStatus_t gemm(void *p, const dfs_gemm_call *g)
{
    run *r = p;
    cublasStatus_t st = r->e->gemm(r->x, g);
    if (st == DFS_STATUS_DECLINED || st == DFS_STATUS_PREFER_NATIVE) {
        /* the first: C is untouched, the whole call goes back to the dispatch */
        if (r->gemms == 0)
            return st;
        /* a later one: C is partly written; this block on cuBLAS's DGEMM (one GEMM still
         * finishes each of its outputs) */
        char key[64];
        snprintf(key, sizeof key, "l3-block:%s", r->e->name);
        dfs_log_once(st == DFS_STATUS_PREFER_NATIVE ? DFS_LOG_INFO : DFS_LOG_WARN, key,
                     "engine %s %s a GEMM of %lld x %lld x %lld within a Level-3 call it "
                     "computes; that block ran on cuBLAS's DGEMM (said once per engine)",
                     r->e->name, st == DFS_STATUS_PREFER_NATIVE ? "left to native" : "declined",
                     (long long)g->m, (long long)g->n, (long long)g->k);
        st = dfs_engines[0]->gemm(r->x, g);
    }
    r->gemms++;
    return st;
}

cublasStatus_t dfs_l3_through_gemm(const dfs_engine *e, const dfs_ctx *x, const dfs_l3_call *c)
{
    static const double zero_h = 0.0;
    const int dev = x->pointer_mode == CUBLAS_POINTER_MODE_DEVICE;
    dfs_mm mm;
    if (!e->gemm || !dfs_l3_to_mm(c, !dev, &zero_h, &mm) || !DFS_DRV(cuMemsetD32Async))
        return DFS_STATUS_DECLINED;
    CUstream st = (CUstream)x->stream;
    const int64_t nb = dfs_mm_panel(&mm), need = dfs_mm_scratch(&mm, nb);
    /* and, in device pointer mode, TRMM's beta: a 0.0 in device memory */
    const CUdeviceptr base = dfs_temp_alloc((size_t)(need + 1) * sizeof(double), st);
    if (!base)
        return DFS_STATUS_DECLINED;
    double *scratch = (double *)(uintptr_t)base, *zero_d = scratch + need;
    cublasStatus_t s = CUBLAS_STATUS_SUCCESS;
    if (dev && c->kind == DFS_L3_TRMM) {
        mm.beta = zero_d;
        if (DFS_DRV(cuMemsetD32Async)((CUdeviceptr)(uintptr_t)zero_d, 0, 2, st) != CUDA_SUCCESS)
            s = CUBLAS_STATUS_EXECUTION_FAILED;
    }
    run r = {e, x, 0};
    const dfs_mm_ops ops = {copy, gemm, &r};
    if (s == CUBLAS_STATUS_SUCCESS)
        s = dfs_mm_run(&mm, nb, scratch, &ops);
    if (s == CUBLAS_STATUS_EXECUTION_FAILED && r.gemms == 0)
        s = DFS_STATUS_DECLINED; /* a copy before any GEMM: C untouched */
    else if (s == CUBLAS_STATUS_EXECUTION_FAILED)
        dfs_log_once(DFS_LOG_ERROR, "l3-copy", "a Level-3 copy or GEMM failed (%s)", e->name);
    dfs_temp_free(base, st);
    return s;
}
