/* dispatch.c — chooses the engine for each intercepted call and runs it.
 *
 * Invalid calls, quick returns and calls made from inside an engine go straight to the native
 * engine (the real cuBLAS), as does everything when the configuration is all-native: that fast
 * path costs a pointer load and a few compares.  Otherwise the handle's state gives the rule for
 * this routine on this device; calls below the rule's min_dim go to its below= engine (native
 * by default), and calls an engine declines run natively (a decline is logged once per engine
 * and routine).  The real Level-3 routines that reduce to GEMM reach an engine without a
 * Level-3 routine of its own through its GEMM (l3_gemm.c), and so do the pointer-array GEMM
 * batches an engine without DFS_CAP_PTRARRAY is given (ptr_batch.h). */
#include "dispatch.h"

#include "../config/env.h"
#include "../core/log.h"
#include "../core/resolve.h"
#include "l3_gemm.h"
#include "state.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static _Thread_local int depth; /* > 0 while an engine runs: its cuBLAS calls are not routed */

static const char *const api_names[] = {
    [DFS_API_DGEMM] = "cublasDgemm_v2",
    [DFS_API_DGEMM_64] = "cublasDgemm_v2_64",
    [DFS_API_DGEMM_STRIDED] = "cublasDgemmStridedBatched",
    [DFS_API_DGEMM_STRIDED_64] = "cublasDgemmStridedBatched_64",
    [DFS_API_GEMMEX] = "cublasGemmEx",
    [DFS_API_GEMMEX_64] = "cublasGemmEx_64",
    [DFS_API_GEMMEX_STRIDED] = "cublasGemmStridedBatchedEx",
    [DFS_API_GEMMEX_STRIDED_64] = "cublasGemmStridedBatchedEx_64",
    [DFS_API_DGEMV] = "cublasDgemv_v2",
    [DFS_API_DGEMV_64] = "cublasDgemv_v2_64",
    [DFS_API_DDOT] = "cublasDdot_v2",
    [DFS_API_DDOT_64] = "cublasDdot_v2_64",
    [DFS_API_LEGACY_DGEMM] = "cublasDgemm (legacy)",
    [DFS_API_LEGACY_DGEMV] = "cublasDgemv (legacy)",
    [DFS_API_LEGACY_DDOT] = "cublasDdot (legacy)",
    [DFS_API_LT_MATMUL] = "cublasLtMatmul",
    [DFS_API_ZGEMM] = "cublasZgemm_v2",
    [DFS_API_ZGEMM_64] = "cublasZgemm_v2_64",
    [DFS_API_ZGEMM3M] = "cublasZgemm3m",
    [DFS_API_ZGEMM3M_64] = "cublasZgemm3m_64",
    [DFS_API_ZGEMM_STRIDED] = "cublasZgemmStridedBatched",
    [DFS_API_ZGEMM_STRIDED_64] = "cublasZgemmStridedBatched_64",
    [DFS_API_LEGACY_ZGEMM] = "cublasZgemm (legacy)",
    [DFS_API_ZDOTC] = "cublasZdotc_v2",
    [DFS_API_ZDOTC_64] = "cublasZdotc_v2_64",
    [DFS_API_ZDOTU] = "cublasZdotu_v2",
    [DFS_API_ZDOTU_64] = "cublasZdotu_v2_64",
    [DFS_API_LEGACY_ZDOTC] = "cublasZdotc (legacy)",
    [DFS_API_LEGACY_ZDOTU] = "cublasZdotu (legacy)",
    [DFS_API_ZGEMV] = "cublasZgemv_v2",
    [DFS_API_ZGEMV_64] = "cublasZgemv_v2_64",
    [DFS_API_LEGACY_ZGEMV] = "cublasZgemv (legacy)",
    [DFS_API_DGEMM_BATCHED] = "cublasDgemmBatched",
    [DFS_API_DGEMM_BATCHED_64] = "cublasDgemmBatched_64",
    [DFS_API_ZGEMM_BATCHED] = "cublasZgemmBatched",
    [DFS_API_ZGEMM_BATCHED_64] = "cublasZgemmBatched_64",
    [DFS_API_GEMMEX_BATCHED] = "cublasGemmBatchedEx",
    [DFS_API_GEMMEX_BATCHED_64] = "cublasGemmBatchedEx_64",
    /* the Level-3 routines beside GEMM, from core/l3_entries.h */
#define DFS_X_L3_NAME(a, form, kind, name, T, I) [DFS_API_##name] = #name DFS_L3_NOTE_##form,
    DFS_L3_ENTRIES(DFS_X_L3_NAME, )
#undef DFS_X_L3_NAME
};

/* DGEMM and ZGEMM share the call record (dfs_gemm_call, its type telling them apart). */
static int is_gemm(dfs_routine r)
{
    return r == DFS_R_DGEMM || r == DFS_R_ZGEMM;
}

static char op_char(cublasOperation_t op)
{
    return op == CUBLAS_OP_N ? 'N' : op == CUBLAS_OP_T ? 'T' : op == CUBLAS_OP_C ? 'C' : '?';
}

/* The Level-3 routines beside GEMM (dfs_l3_call): syrk...trsm. */
static int is_l3(dfs_routine r)
{
    return r >= DFS_R_SYRK;
}

/* A Level-3 record's trace: its entry point, the enums it has, its sizes. */
static void describe_l3(const dfs_l3_call *c, char *buf, size_t len)
{
    const char side = c->side == CUBLAS_SIDE_LEFT ? 'L' : c->side == CUBLAS_SIDE_RIGHT ? 'R' : '?';
    const char uplo = c->uplo == CUBLAS_FILL_MODE_LOWER   ? 'L'
                      : c->uplo == CUBLAS_FILL_MODE_UPPER ? 'U'
                                                          : '?';
    const char diag = c->diag == CUBLAS_DIAG_UNIT       ? 'U'
                      : c->diag == CUBLAS_DIAG_NON_UNIT ? 'N'
                                                        : '?';
    if (c->kind <= DFS_L3_HER2K)
        snprintf(buf, len, "%s uplo=%c op=%c n=%" PRId64 " k=%" PRId64, api_names[c->api], uplo,
                 op_char(c->trans), c->n, c->k);
    else if (c->kind == DFS_L3_SYMM || c->kind == DFS_L3_HEMM)
        snprintf(buf, len, "%s side=%c uplo=%c m=%" PRId64 " n=%" PRId64, api_names[c->api], side,
                 uplo, c->m, c->n);
    else
        snprintf(buf, len, "%s side=%c uplo=%c op=%c diag=%c m=%" PRId64 " n=%" PRId64,
                 api_names[c->api], side, uplo, op_char(c->trans), diag, c->m, c->n);
}

/* The capability an engine needs for routine r's records (beside real GEMM, GEMV, DOT). */
static unsigned needed_cap(dfs_routine r, const void *call)
{
    switch (r) {
    case DFS_R_DGEMM:
        return ((const dfs_gemm_call *)call)->Carray ? DFS_CAP_PTRARRAY : 0;
    case DFS_R_ZGEMM:
        return DFS_CAP_COMPLEX |
               (((const dfs_gemm_call *)call)->Carray ? (unsigned)DFS_CAP_PTRARRAY : 0);
    case DFS_R_ZGEMV: return DFS_CAP_ZGEMV;
    case DFS_R_ZDOT: return DFS_CAP_ZDOT;
    case DFS_R_SYRK: return DFS_CAP_SYRK;
    case DFS_R_SYR2K: return DFS_CAP_SYR2K;
    case DFS_R_SYMM: return DFS_CAP_SYMM;
    case DFS_R_TRMM: return DFS_CAP_TRMM;
    case DFS_R_TRSM: return DFS_CAP_TRSM;
    default: return 0;
    }
}

static void describe(dfs_routine r, const void *call, char *buf, size_t len)
{
    if (is_gemm(r)) {
        const dfs_gemm_call *c = call;
        snprintf(buf, len, "%s%s op=%c%c m=%" PRId64 " n=%" PRId64 " k=%" PRId64 " batch=%" PRId64,
                 api_names[c->api],
                 c->type == DFS_C64 && strncmp(api_names[c->api], "cublasZ", 7) ? " (CUDA_C_64F)"
                                                                                : "",
                 op_char(c->transa), op_char(c->transb), c->m, c->n, c->k, c->batch);
    } else if (is_l3(r)) {
        describe_l3(call, buf, len);
    } else if (r == DFS_R_DGEMV || r == DFS_R_ZGEMV) {
        const dfs_gemv_call *c = call;
        snprintf(buf, len, "%s op=%c m=%" PRId64 " n=%" PRId64 " incx=%" PRId64 " incy=%" PRId64,
                 api_names[c->api], op_char(c->trans), c->m, c->n, c->incx, c->incy);
    } else {
        const dfs_dot_call *c = call;
        snprintf(buf, len, "%s n=%" PRId64 " incx=%" PRId64 " incy=%" PRId64, api_names[c->api],
                 c->n, c->incx, c->incy);
    }
}

static void trace(dfs_routine r, const void *call, dfs_args args, int engine, int declined_by,
                  cublasStatus_t st)
{
    char what[256];
    describe(r, call, what, sizeof what);
    const char *why = args == DFS_ARGS_INVALID  ? " (invalid arguments)"
                      : args == DFS_ARGS_QUICK  ? " (quick return)"
                      : args == DFS_ARGS_NATIVE ? " (a case only cuBLAS computes)"
                                                : "";
    dfs_log(DFS_LOG_TRACE, "%s -> %s%s%s%s%s status=%d", what, dfs_engines[engine]->name, why,
            declined_by ? " (declined by " : "", declined_by ? dfs_engines[declined_by]->name : "",
            declined_by ? ")" : "", (int)st);
}

/* A record an engine lacks the capability for, computed through its GEMM where the shim knows
 * how: a Level-3 routine (l3_gemm.h: SYRK...TRMM, TRSM as a sweep of solves and GEMMs, complex
 * ones through a complex GEMM) or a pointer-array GEMM batch (ptr_batch.h: gathered into strided
 * batches for the engine's GEMM, group by group); declined otherwise. */
static cublasStatus_t through_gemm(const dfs_engine *e, dfs_routine r, const dfs_ctx *x,
                                   const void *call)
{
    if (is_l3(r))
        return dfs_l3_through_gemm(e, x, call);
    if (is_gemm(r) && ((const dfs_gemm_call *)call)->Carray)
        return dfs_ptr_batch_through_gemm(e, x, call);
    return DFS_STATUS_DECLINED;
}

static cublasStatus_t invoke(int engine, dfs_routine r, const dfs_ctx *x, const void *call,
                             const dfs_foreign *f)
{
    const dfs_engine *e = dfs_engines[engine];
    cublasStatus_t st;
    depth++;
    if (engine == 0 && f) {
        st = f->native(f->arg);
        depth--;
        return st;
    }
    /* only to an engine with the capabilities the record needs (complex, pointer arrays, a
     * Level-3 routine); a Level-3 routine that GEMM can compute and a pointer-array batch go to
     * an engine without them through its GEMM (through_gemm) */
    const unsigned cap = needed_cap(r, call);
    if ((e->caps & cap) != cap)
        st = engine != 0 ? through_gemm(e, r, x, call) : DFS_STATUS_DECLINED;
    else if (is_gemm(r))
        st = e->gemm ? e->gemm(x, call) : DFS_STATUS_DECLINED;
    else if (r == DFS_R_DGEMV || r == DFS_R_ZGEMV)
        st = e->dgemv ? e->dgemv(x, call) : DFS_STATUS_DECLINED;
    else if (is_l3(r))
        st = e->level3 ? e->level3(x, call) : DFS_STATUS_DECLINED;
    else
        st = e->ddot ? e->ddot(x, call) : DFS_STATUS_DECLINED;
    depth--;
    return st;
}

/* A handle in pedantic math mode, or one that asked for cuBLAS's own FP64 emulation, has
 * chosen how its FP64 products are computed: honour that and run natively. */
static int handle_wants_native(cublasHandle_t h)
{
    cublasMath_t mode = CUBLAS_DEFAULT_MATH;
    if (!DFS_REAL(cublasGetMathMode) || DFS_REAL(cublasGetMathMode)(h, &mode) != CUBLAS_STATUS_SUCCESS)
        return 0;
    int pedantic = (mode & 0x7) == CUBLAS_PEDANTIC_MATH;
    int emulated = (mode & CUBLAS_FP64_EMULATED_FIXEDPOINT_MATH) != 0;
    if (pedantic || emulated)
        dfs_log_once(DFS_LOG_INFO, pedantic ? "math:pedantic" : "math:emulated",
                     "a handle in %s math mode: its FP64 calls run natively",
                     pedantic ? "pedantic" : "FP64-emulation");
    return pedantic || emulated;
}

/* alpha == 0 given on the host: cuBLAS only scales C (or y) by beta; leave that to it (for a
 * real beta its beta c is RN(beta c), what every engine gives).  Complex GEMV only when beta = 1
 * (cuBLAS's quick return: y untouched, RN(y) itself): with another beta, the parts of cuBLAS's
 * beta y are not RN(Re(beta y)), RN(Im(beta y)) (br yr - bi yi rounded twice, or fused; 0 * Inf
 * where a part of beta is 0), so an engine that computes complex GEMV takes the call and gives
 * those, reading neither A nor x. */
static int alpha_is_zero(dfs_routine r, const void *call, cublasPointerMode_t mode)
{
    if (mode != CUBLAS_POINTER_MODE_HOST)
        return 0;
    if (r == DFS_R_DGEMM)
        return *((const dfs_gemm_call *)call)->alpha == 0.0;
    if (r == DFS_R_ZGEMM) {
        const double *a = ((const dfs_gemm_call *)call)->alpha;
        return a[0] == 0.0 && a[1] == 0.0;
    }
    if (r == DFS_R_DGEMV)
        return *((const dfs_gemv_call *)call)->alpha == 0.0;
    if (r == DFS_R_ZGEMV) {
        const double *a = ((const dfs_gemv_call *)call)->alpha,
                     *b = ((const dfs_gemv_call *)call)->beta;
        return a[0] == 0.0 && a[1] == 0.0 && b[0] == 1.0 && b[1] == 0.0;
    }
    if (is_l3(r)) { /* TRSM included: cuBLAS 13 does not zero B then (LEVEL3.md 2.1) */
        const dfs_l3_call *c = call;
        return c->alpha[0] == 0.0 && (c->alpha_real || c->alpha[1] == 0.0);
    }
    return 0;
}

/* A NULL matrix, vector or scalar: cuBLAS's own rules for it (refusal, even where the operand
 * is not read) are not the engines' business, so such calls run natively. */
static int null_operand(dfs_routine r, const void *call)
{
    if (is_gemm(r)) {
        const dfs_gemm_call *c = call;
        if (c->Carray)
            return !c->Aarray || !c->Barray || !c->alpha || !c->beta;
        return !c->A || !c->B || !c->C || !c->alpha || !c->beta;
    }
    if (is_l3(r)) {
        const dfs_l3_call *c = call;
        const int has_b = c->kind != DFS_L3_SYRK && c->kind != DFS_L3_HERK;
        const int has_beta = c->kind != DFS_L3_TRMM && c->kind != DFS_L3_TRSM;
        return !c->A || (has_b && !c->B) || !c->C || !c->alpha || (has_beta && !c->beta);
    }
    if (r == DFS_R_DGEMV || r == DFS_R_ZGEMV) {
        const dfs_gemv_call *c = call;
        return !c->A || !c->x || !c->y || !c->alpha || !c->beta;
    }
    const dfs_dot_call *c = call;
    return !c->x || !c->y;
}

static cublasStatus_t dispatch(dfs_routine r, cublasHandle_t h, const void *call, int64_t min_dim,
                               double products, dfs_args args, const dfs_foreign *f)
{
    dfs_ctx x = {.handle = h};
    const dfs_config *cfg = dfs_config_current();
    int timed = dfs_timing_enabled();
    if (depth || !cfg || args != DFS_ARGS_OK || (dfs_config_all_native(cfg) && !timed)) {
        cublasStatus_t st = invoke(0, r, &x, call, f);
        dfs_stats_count(r, 0, 0);
        if (dfs_log_on(DFS_LOG_TRACE))
            trace(r, call, args, 0, 0, st);
        return st;
    }
    dfs_rule rule = {0};
    dfs_handle_state *s = dfs_handle_get(h, cfg, r, &rule);
    /* below the rule's min_dim (and not tiny): its below= engine (native unless the policy
     * names one) */
    const int below = dfs_rule_below(&rule, min_dim, products);
    int engine = !s ? 0 : below ? rule.below_engine : rule.engine;
    if (engine != 0 || timed) {
        if (!DFS_REAL(cublasGetStream_v2) || !DFS_REAL(cublasGetPointerMode_v2))
            return CUBLAS_STATUS_NOT_INITIALIZED;
        cublasStatus_t st = DFS_REAL(cublasGetStream_v2)(h, &x.stream);
        if (st == CUBLAS_STATUS_SUCCESS)
            st = DFS_REAL(cublasGetPointerMode_v2)(h, &x.pointer_mode);
        if (st != CUBLAS_STATUS_SUCCESS)
            return st;
        x.device = s ? s->dev.ordinal : -1;
        x.dev = s ? &s->dev : NULL;
        x.options = below ? &rule.below_options : &rule.options;
        x.scratch = s ? &s->scratch : NULL;
        if (engine != 0 && (!s || null_operand(r, call) || handle_wants_native(h) ||
                            alpha_is_zero(r, call, x.pointer_mode)))
            engine = 0;
    }
    if (engine != 0 && f && f->stage && f->stage(f->arg, x.stream) != CUBLAS_STATUS_SUCCESS)
        engine = 0;
    dfs_timing_slot *slot = timed ? dfs_timing_start(s, x.stream, r, engine) : NULL;
    cublasStatus_t st = invoke(engine, r, &x, call, f);
    int declined_by = 0;
    if (st == DFS_STATUS_DECLINED || st == DFS_STATUS_PREFER_NATIVE) {
        const int chose = st == DFS_STATUS_PREFER_NATIVE;
        /* a declined call goes to the rule's fallback= engine (native when none, or when that
         * one declines too) */
        const int fb = rule.fallback_engine;
        const int to = !chose && fb != 0 && fb != engine && dfs_engines[fb]->can_run(x.dev) ? fb
                                                                                            : 0;
        char key[96];
        snprintf(key, sizeof key, "%s:%s:%s", chose ? "prefers-native" : "declined",
                 dfs_engines[engine]->name, dfs_routine_names[r]);
        char what[256];
        describe(r, call, what, sizeof what);
        dfs_log_once(chose ? DFS_LOG_INFO : to ? DFS_LOG_INFO : DFS_LOG_WARN, key,
                     chose ? "engine %s finds native faster on the data of %s; running such "
                             "calls natively while that lasts (said once per engine and routine)"
                           : "engine %s cannot compute %s; running it on %s (said once per "
                             "engine and routine)",
                     dfs_engines[engine]->name, what, dfs_engines[to]->name);
        declined_by = engine;
        engine = to;
        if (to) {
            x.options = &rule.fallback_options;
            st = invoke(to, r, &x, call, f);
            if (st == DFS_STATUS_DECLINED || st == DFS_STATUS_PREFER_NATIVE)
                engine = 0; /* the fallback declines too: native */
        }
        if (engine == 0)
            st = invoke(0, r, &x, call, f);
    }
    if (slot)
        dfs_timing_stop(s, slot, x.stream, engine);
    dfs_stats_count(r, engine, declined_by);
    if (dfs_log_on(DFS_LOG_TRACE))
        trace(r, call, args, engine, declined_by, st);
    return st;
}

static int64_t min3(int64_t a, int64_t b, int64_t c)
{
    int64_t m = a < b ? a : b;
    return m < c ? m : c;
}

/* A DGEMM's products per batch entry, as the rules count them (dfs_rule_below). */
static double gemm_products(const dfs_gemm_call *c)
{
    return (double)c->m * (double)c->n * (double)c->k;
}

cublasStatus_t dfs_dispatch_gemm(cublasHandle_t h, const dfs_gemm_call *c, dfs_args args)
{
    return dispatch(c->type == DFS_C64 ? DFS_R_ZGEMM : DFS_R_DGEMM, h, c, min3(c->m, c->n, c->k),
                    gemm_products(c), args, NULL);
}

cublasStatus_t dfs_dispatch_gemm_foreign(cublasHandle_t h, const dfs_gemm_call *c, dfs_args args,
                                         const dfs_foreign *f)
{
    return dispatch(c->type == DFS_C64 ? DFS_R_ZGEMM : DFS_R_DGEMM, h, c, min3(c->m, c->n, c->k),
                    gemm_products(c), args, f);
}

int dfs_dispatch_nested(void)
{
    return depth > 0;
}

cublasStatus_t dfs_dispatch_gemv(cublasHandle_t h, const dfs_gemv_call *c, dfs_args args)
{
    return dispatch(c->type == DFS_C64 ? DFS_R_ZGEMV : DFS_R_DGEMV, h, c, c->m < c->n ? c->m : c->n,
                    (double)c->m * (double)c->n, args, NULL);
}

/* The policy routine of each Level-3 kind. */
static const dfs_routine l3_routine[] = {
    [DFS_L3_SYRK] = DFS_R_SYRK,   [DFS_L3_HERK] = DFS_R_SYRK,   [DFS_L3_SYRKX] = DFS_R_SYRK,
    [DFS_L3_HERKX] = DFS_R_SYRK,  [DFS_L3_SYR2K] = DFS_R_SYR2K, [DFS_L3_HER2K] = DFS_R_SYR2K,
    [DFS_L3_SYMM] = DFS_R_SYMM,   [DFS_L3_HEMM] = DFS_R_SYMM,   [DFS_L3_TRMM] = DFS_R_TRMM,
    [DFS_L3_TRSM] = DFS_R_TRSM,
};

/* Sized for the rules as a GEMM of m x n x k (k: the rank, or A's order). */
cublasStatus_t dfs_dispatch_l3(cublasHandle_t h, const dfs_l3_call *c, dfs_args args)
{
    return dispatch(l3_routine[c->kind], h, c, min3(c->m, c->n, c->k),
                    (double)c->m * (double)c->n * (double)c->k, args, NULL);
}

cublasStatus_t dfs_dispatch_dot(cublasHandle_t h, const dfs_dot_call *c, dfs_args args)
{
    return dispatch(c->type == DFS_C64 ? DFS_R_ZDOT : DFS_R_DDOT, h, c, c->n, (double)c->n, args,
                    NULL);
}

void dfs_trace_forwarded(const char *api, int64_t m, int64_t n, int64_t k, cublasStatus_t st)
{
    dfs_env_configure_core();
    dfs_log(DFS_LOG_TRACE, "%s m=%" PRId64 " n=%" PRId64 " k=%" PRId64
            " -> forwarded (not an FP64 product) status=%d", api, m, n, k, (int)st);
}
