/* l3_gemm.c — Level-3 routines, real and complex, through an engine's GEMM (l3_gemm.h): the
 * descriptor of l3_mm.h and TRSM's sweep (l3_trsm.h), and the pointer-array batches of
 * ptr_batch.h; their scratch from core/gpu.c's stream-ordered temporaries, their copies,
 * diagonal solves, gathers and scatters by the Level-3 kernels (engines/l3), their GEMMs by the
 * engine. */
#include "l3_gemm.h"

#include "../core/gpu.h"
#include "../core/log.h"
#include "../core/resolve.h"
#include "../engines/l3/copy.h"
#include "l3_mm.h"
#include "l3_trsm.h"
#include "ptr_batch.h"

#include <stdio.h>

typedef struct {
    const dfs_engine *e;
    const dfs_ctx *x;
    int gemms; /* GEMMs done so far */
    /* TRSM: a GEMM the engine leaves to native (its model: native faster for that shape) runs
     * on cuBLAS's GEMM even when it is the first, and the sweep goes on (its first GEMM is one
     * of the smallest; the call as a whole was judged by its largest, trsm()) */
    int native_blocks;
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
        /* the first: C is untouched, the whole call goes back to the dispatch; so too a
         * triangle (the call's only GEMM; declined, the caller takes panels), which never
         * runs on cuBLAS's GEMM */
        if (g->tri != DFS_TRI_ALL ||
            (r->gemms == 0 && !(r->native_blocks && st == DFS_STATUS_PREFER_NATIVE)))
            return st;
        /* a later one: C is partly written; this block on cuBLAS's DGEMM or ZGEMM (one GEMM
         * still finishes each of its outputs); so too a TRSM's first left to native */
        char key[64];
        snprintf(key, sizeof key, "l3-block:%s", r->e->name);
        dfs_log_once(st == DFS_STATUS_PREFER_NATIVE ? DFS_LOG_INFO : DFS_LOG_WARN, key,
                     "engine %s %s a GEMM of %lld x %lld x %lld within a Level-3 call it "
                     "computes; that block ran on cuBLAS's GEMM (said once per engine)",
                     r->e->name, st == DFS_STATUS_PREFER_NATIVE ? "left to native" : "declined",
                     (long long)g->m, (long long)g->n, (long long)g->k);
        st = dfs_engines[0]->gemm(r->x, g);
    }
    r->gemms++;
    return st;
}

/* A part of a TRSM sweep on cuBLAS's TRSM (an engine's trsm_native_parts): a record of its own
 * through the native engine's Level-3 entry; B is written, so a GEMM declined later runs on
 * cuBLAS too. */
static cublasStatus_t native_trsm(void *p, const dfs_trsm *s)
{
    run *r = p;
    const dfs_l3_call c = {.api = s->cplx ? DFS_API_cublasZtrsm_v2_64 : DFS_API_cublasDtrsm_v2_64,
                           .kind = DFS_L3_TRSM,
                           .type = s->cplx ? DFS_C64 : DFS_R64,
                           .side = s->left ? CUBLAS_SIDE_LEFT : CUBLAS_SIDE_RIGHT,
                           .uplo = s->lower ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER,
                           .trans = !s->trans ? CUBLAS_OP_N : s->conj ? CUBLAS_OP_C : CUBLAS_OP_T,
                           .diag = s->unit ? CUBLAS_DIAG_UNIT : CUBLAS_DIAG_NON_UNIT,
                           .m = s->m,
                           .n = s->n,
                           .k = s->left ? s->m : s->n,
                           .alpha = s->alpha,
                           .A = s->A,
                           .lda = s->lda,
                           .B = s->B,
                           .ldb = s->ldb,
                           .C = s->B,
                           .ldc = s->ldb};
    r->gemms++;
    return dfs_engines[0]->level3(r->x, &c);
}

/* Whether the engine leaves a GEMM of g's shape to native (its cost model). */
static int gemm_native(void *p, const dfs_gemm_call *g)
{
    const run *r = p;
    return r->e->gemm_prefers_native && r->e->gemm_prefers_native(r->x->dev, g, r->x->options);
}

static int solve(void *p, const dfs_l3_solve *sv)
{
    const run *r = p;
    return dfs_l3_solve_gpu(sv, (CUstream)r->x->stream);
}

/* A run's end: a failure before any GEMM left the output untouched (declined). */
static cublasStatus_t finish(const run *r, cublasStatus_t s)
{
    if (s == CUBLAS_STATUS_EXECUTION_FAILED && r->gemms == 0)
        return DFS_STATUS_DECLINED;
    if (s == CUBLAS_STATUS_EXECUTION_FAILED)
        dfs_log_once(DFS_LOG_ERROR, "l3-copy", "a Level-3 copy, solve or GEMM failed (%s)",
                     r->e->name);
    return s;
}

/* TRSM: the sweep in blocks of the engine's trsm_nb; in device pointer mode the GEMMs' -1 and 1
 * (complex: -1 + 0i, 1 + 0i) are written into the temporary by memsets (0.0 everywhere, then the
 * high words).  A single block needs neither (no GEMM): no temporary then. */
static cublasStatus_t trsm(const dfs_engine *e, const dfs_ctx *x, const dfs_l3_call *c)
{
    /* -1 and 1 as doubles (pm_h[0], pm_h[2]) or as complex numbers (pm_h[0..1], pm_h[2..3]) */
    _Alignas(16) static const double pm_h[4] = {-1.0, 0.0, 1.0, 0.0};
    const int dev = x->pointer_mode == CUBLAS_POINTER_MODE_DEVICE;
    const int z = c->type == DFS_C64 ? 2 : 1;
    dfs_trsm t;
    if (!dfs_l3_to_trsm(c, dev, &pm_h[0], &pm_h[2], &t) || !DFS_DRV(cuMemsetD32Async))
        return DFS_STATUS_DECLINED;
    const int64_t nb = e->trsm_nb > 0 && e->trsm_nb <= DFS_L3_SOLVE_MAX ? e->trsm_nb : DFS_TRSM_NB;
    /* the whole call natively where the engine finds native faster for its largest GEMM */
    dfs_gemm_call top;
    if (e->gemm_prefers_native && dfs_trsm_largest_gemm(&t, nb, &top) &&
        e->gemm_prefers_native(x->dev, &top, x->options))
        return DFS_STATUS_PREFER_NATIVE;
    /* the first block's scratch (none when parts go to cuBLAS's TRSM), and after it the
     * GEMMs' constants in device pointer mode (when there are GEMMs) */
    const int parts = e->trsm_native_parts;
    const int has_gemms = dfs_trsm_order(&t) > nb;
    const int64_t need = parts ? 0 : dfs_trsm_scratch(&t, nb);
    const int64_t consts = dev && has_gemms ? 2 * z : 0;
    CUstream st = (CUstream)x->stream;
    const CUdeviceptr base =
        need + consts > 0 ? dfs_temp_alloc((size_t)(need + consts) * sizeof(double), st) : 0;
    if (need + consts > 0 && !base)
        return DFS_STATUS_DECLINED;
    double *scratch = (double *)(uintptr_t)base;
    cublasStatus_t s = CUBLAS_STATUS_SUCCESS;
    if (consts > 0) {
        double *pm_d = scratch + need;
        const CUdeviceptr w = (CUdeviceptr)(uintptr_t)pm_d; /* little-endian: high word second */
        t.minus_one = pm_d;
        t.one = pm_d + z;
        if (DFS_DRV(cuMemsetD32Async)(w, 0, 4 * (size_t)z, st) != CUDA_SUCCESS ||
            DFS_DRV(cuMemsetD32Async)(w + 4, 0xBFF00000u, 1, st) != CUDA_SUCCESS ||
            DFS_DRV(cuMemsetD32Async)(w + 8 * z + 4, 0x3FF00000u, 1, st) != CUDA_SUCCESS)
            s = CUBLAS_STATUS_EXECUTION_FAILED;
    }
    run r = {e, x, 0, 1};
    const dfs_trsm_ops ops = {solve, copy, gemm, &r, parts ? native_trsm : NULL,
                              parts ? gemm_native : NULL};
    if (s == CUBLAS_STATUS_SUCCESS)
        s = dfs_trsm_run(&t, nb, scratch, &ops);
    s = finish(&r, s);
    if (base)
        dfs_temp_free(base, st);
    return s;
}

/* A complex record whose alpha or beta is real (HERK's both, HERKX's and HER2K's beta): the copy
 * the descriptor takes, its real scalars as (value, 0) in h on the host; in device pointer mode
 * the pointers are left as they are, and the caller points the descriptor at complex copies in
 * the temporary (fill_scalars) once it exists. */
static dfs_l3_call complex_scalars(const dfs_l3_call *c, int dev, double h[4])
{
    dfs_l3_call z = *c;
    if (c->type != DFS_C64 || c->kind == DFS_L3_TRMM)
        return z;
    if (c->alpha_real) {
        h[0] = dev ? 0.0 : c->alpha[0];
        h[1] = 0.0;
        z.alpha = dev ? c->alpha : h;
        z.alpha_real = 0;
    }
    if (c->beta_real) {
        h[2] = dev ? 0.0 : c->beta[0];
        h[3] = 0.0;
        z.beta = dev ? c->beta : h + 2;
        z.beta_real = 0;
    }
    return z;
}

/* Device pointer mode: the real scalars of c as complex ones at d (zeros, then each real part
 * copied by the Level-3 copy kernel on the stream). */
static int fill_scalars(const dfs_l3_call *c, double *d, CUstream st)
{
    if (DFS_DRV(cuMemsetD32Async)((CUdeviceptr)(uintptr_t)d, 0, 8, st) != CUDA_SUCCESS)
        return 1;
    const dfs_l3_copy a = {c->alpha, 1, d, 1, 1, 1, DFS_L3_COPY, 0, 0, 0, 0, 0},
                      b = {c->beta, 1, d + 2, 1, 1, 1, DFS_L3_COPY, 0, 0, 0, 0, 0};
    return (c->alpha_real && dfs_l3_copy_gpu(&a, st)) || (c->beta_real && dfs_l3_copy_gpu(&b, st));
}

cublasStatus_t dfs_l3_through_gemm(const dfs_engine *e, const dfs_ctx *x, const dfs_l3_call *c)
{
    const int z = c->type == DFS_C64 ? 2 : 1;
    if (!e->gemm || (z == 2 && !(e->caps & DFS_CAP_COMPLEX)))
        return DFS_STATUS_DECLINED;
    if (c->kind == DFS_L3_TRSM)
        return trsm(e, x, c);
    _Alignas(16) static const double zero_h[2] = {0.0, 0.0};
    const int dev = x->pointer_mode == CUBLAS_POINTER_MODE_DEVICE;
    _Alignas(16) double sc_h[4]; /* complex scalars cuBLAS may read (16-byte loads) */
    const dfs_l3_call zc = complex_scalars(c, dev, sc_h);
    dfs_mm mm;
    if (!dfs_l3_to_mm(&zc, !dev, zero_h, &mm) || !DFS_DRV(cuMemsetD32Async))
        return DFS_STATUS_DECLINED;
    CUstream st = (CUstream)x->stream;
    const int64_t nb = dfs_mm_panel(&mm, e->l3_panels > 0 ? e->l3_panels : DFS_L3_PANELS),
                  need = dfs_mm_scratch(&mm, nb);
    /* and, in device pointer mode, TRMM's beta (a zero of the element type) or a complex
     * record's real scalars as complex ones: 4 doubles */
    const CUdeviceptr base = dfs_temp_alloc((size_t)(need + 4) * sizeof(double), st);
    if (!base)
        return DFS_STATUS_DECLINED;
    double *scratch = (double *)(uintptr_t)base, *sc_d = scratch + need;
    cublasStatus_t s = CUBLAS_STATUS_SUCCESS;
    if (dev && c->kind == DFS_L3_TRMM) {
        mm.beta = sc_d;
        if (DFS_DRV(cuMemsetD32Async)((CUdeviceptr)(uintptr_t)sc_d, 0, 2 * (size_t)z, st) !=
            CUDA_SUCCESS)
            s = CUBLAS_STATUS_EXECUTION_FAILED;
    } else if (dev && z == 2 && (c->alpha_real || c->beta_real)) {
        if (c->alpha_real)
            mm.alpha = sc_d;
        if (c->beta_real)
            mm.beta = sc_d + 2;
        if (fill_scalars(c, sc_d, st))
            s = CUBLAS_STATUS_EXECUTION_FAILED;
    }
    run r = {e, x, 0, 0};
    const dfs_mm_ops ops = {copy, gemm, &r, (e->caps & DFS_CAP_TRIANGLE) != 0};
    if (s == CUBLAS_STATUS_SUCCESS)
        s = dfs_mm_run(&mm, nb, scratch, &ops);
    s = finish(&r, s); /* a copy before any GEMM: C untouched */
    dfs_temp_free(base, st);
    return s;
}

/* ---------- pointer-array batches (ptr_batch.h) ---------- */

static int pb_gather(void *p, const dfs_l3_batch *b)
{
    return dfs_l3_gather_gpu(b, (CUstream)((const run *)p)->x->stream);
}

static int pb_scatter(void *p, const dfs_l3_batch *b)
{
    return dfs_l3_scatter_gpu(b, (CUstream)((const run *)p)->x->stream);
}

static cublasStatus_t pb_gemm(void *p, const dfs_gemm_call *g)
{
    const run *r = p;
    return r->e->gemm(r->x, g);
}

static cublasStatus_t pb_native(void *p, const dfs_gemm_call *g)
{
    return dfs_engines[0]->gemm(((const run *)p)->x, g);
}

static double *pb_alloc(void *p, size_t bytes)
{
    return (double *)(uintptr_t)dfs_temp_alloc(bytes, (CUstream)((const run *)p)->x->stream);
}

static void pb_free(void *p, double *d)
{
    dfs_temp_free((CUdeviceptr)(uintptr_t)d, (CUstream)((const run *)p)->x->stream);
}

cublasStatus_t dfs_ptr_batch_through_gemm(const dfs_engine *e, const dfs_ctx *x,
                                          const dfs_gemm_call *c)
{
    if (!e->gemm || (c->type == DFS_C64 && !(e->caps & DFS_CAP_COMPLEX)))
        return DFS_STATUS_DECLINED;
    run r = {e, x, 0, 0};
    const dfs_ptr_batch_ops ops = {pb_gather, pb_scatter, pb_gemm,  pb_native,
                                   pb_alloc,  pb_free,    e->name, &r};
    return dfs_ptr_batch_run(c, x->pointer_mode == CUBLAS_POINTER_MODE_HOST,
                             DFS_PTR_BATCH_GROUP_BYTES, &ops);
}
