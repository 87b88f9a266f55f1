/* ozaki/engine.c — the Ozaki-scheme engines (README.md here): three names over one
 * implementation.
 *
 *   repro  every output correctly rounded, RN(alpha * sum a*b + beta * c), so bitwise the same
 *          on every run, stream, GPU and on the CPU (host.c).  Options: max_splits, workspace_mb,
 *          products = auto|f64|int8: DGEMM's exact products from binary64 slices (cuBLAS
 *          DGEMM, gemm.c) or from int8 residues on integer tensor cores (crt_gemm.c); auto
 *          takes int8 where it can (k < 2^17), f64 otherwise.  The bits are the same.
 *   ozaki  the paper's knobs on top (ALGORITHMS.md section 3), for speed at a documented loss:
 *            splits = N        exactly N slices per operand (default 0 = as many as needed)
 *            fast = 1          skip the slice pairs i + j >= N (FS; needs splits)
 *            sum = exact|fixed partials rounded once (default), or summed in a fixed order in
 *                              binary64 (reproducible, about 1 ulp; needs splits)
 *          With splits = 0, fast = 0 and sum = exact it is repro.
 *   Both: max_splits = the most slices a DGEMM takes per operand (default 12); what rows and
 *         columns need beyond it is bounded, and outputs it could change are computed directly
 *         (exactly, slowly).  workspace_mb = the most
 *         scratch one DGEMM may use (default 1024); larger products run block by block.
 * DDOT and DGEMV are always exact (one pass, vec.c); the knobs are DGEMM's.
 *   int8   DGEMM only (EXBLAS_MODE=fast on tensor-core parts): the exact product of the rows
 *          and columns rounded to integers of 50 bits and more (dfs_crt_fast_moduli: 15 moduli
 *          up to k = 2^16, 16 above; more bits for rows of a few large elements), from int8
 *          residues on integer tensor cores, rounded once; native accuracy or better on
 *          well-scaled data, faster than native FP64 at large sizes (README.md).  Options: moduli (0 = by k, else 2-24:
 *          more is more accurate and slower), workspace_mb (default 8192).  A call it cannot
 *          take (k >= 2^17, no workspace) runs natively.
 *   ozaki-sgemm  DGEMM only (issue 8): C from the exact products of 2 or 3 binary32 slices per
 *          operand on cuBLAS SGEMM, the partials added in binary64 (f32_gemm.c): for parts
 *          whose FP64 is slow; on uniform data normwise errors ~65 (2 splits) and ~5000 times (3) below
 *          SGEMM's, less on data of wide range, where more splits help (README.md).
 *          Options: splits (2-6, default 2: S (S + 1) / 2 SGEMMs), workspace_mb (default
 *          4096). */
#include "../engine.h"
#include "../../core/log.h"
#include "crt.h"
#include "f32_gemm.h"
#include "f32split.h"
#include "gemm.h"
#include "vec.h"

#include <stdlib.h>
#include <string.h>

static int oz_can_run(const dfs_device *d)
{
    /* the fatbins hold code for cc 7.5 and later (and PTX for newer parts) */
    return d->cc_major > 7 || (d->cc_major == 7 && d->cc_minor >= 5);
}

/* An integer option in [lo, hi], or def (an error logged once when the value is bad). */
static long long int_option(const dfs_options *o, const char *key, long long lo, long long hi,
                            long long def)
{
    const char *v = dfs_option_get(o, key);
    if (!v)
        return def;
    char *end;
    long long x = strtoll(v, &end, 10);
    if (*v && !*end && x >= lo && x <= hi)
        return x;
    dfs_log_once(DFS_LOG_ERROR, key, "ozaki: %s=%s is not a number from %lld to %lld; using %lld",
                 key, v, lo, hi, def);
    return def;
}

/* alpha = 0 in host pointer mode: every engine here computes C = RN(beta C) without touching A
 * and B (dfs_oz_dgemm_scale). */
static int host_alpha_zero(const dfs_ctx *x, const dfs_gemm_call *c)
{
    return x->pointer_mode == CUBLAS_POINTER_MODE_HOST && *c->alpha == 0;
}

static void read_options(const dfs_options *o, int knobs, dfs_oz_gemm_opts *g)
{
    memset(g, 0, sizeof *g);
    g->max_splits = (int)int_option(o, "max_splits", 1, 16, 12);
    g->workspace = (size_t)int_option(o, "workspace_mb", 16, 1 << 24, 1024) << 20;
    if (!knobs)
        return;
    g->splits = (int)int_option(o, "splits", 0, 16, 0);
    g->fast = (int)int_option(o, "fast", 0, 1, 0) && g->splits > 0;
    const char *s = dfs_option_get(o, "sum");
    if (s && !strcmp(s, "fixed") && g->splits > 0)
        g->fixed_sum = 1;
    else if (s && !strcmp(s, "fixed"))
        dfs_log_once(DFS_LOG_ERROR, "ozaki-sum-splits", "ozaki: sum=fixed needs splits; using "
                     "sum=exact");
    else if (s && strcmp(s, "exact"))
        dfs_log_once(DFS_LOG_ERROR, "ozaki-sum", "ozaki: sum=%s is not exact or fixed; using exact",
                     s);
}

static cublasStatus_t repro_dgemm(const dfs_ctx *x, const dfs_gemm_call *c)
{
    if (host_alpha_zero(x, c))
        return dfs_oz_dgemm_scale(x, c);
    dfs_oz_gemm_opts g;
    read_options(x->options, 0, &g);
    const char *p = dfs_option_get(x->options, "products");
    if (p && strcmp(p, "auto") && strcmp(p, "f64") && strcmp(p, "int8")) {
        dfs_log_once(DFS_LOG_ERROR, "repro-products", "repro: products=%s is not auto, f64 or "
                     "int8; using auto", p);
        p = NULL;
    }
    if (!p || strcmp(p, "f64")) {
        /* the integer tensor cores, when they can take the call (else the binary64 slices) */
        const dfs_crt_gemm_opts o = {1, 0, g.workspace};
        const cublasStatus_t s = dfs_crt_dgemm_gpu(x, c, &o);
        if (s != DFS_STATUS_DECLINED)
            return s;
        if (p)
            dfs_log_once(DFS_LOG_INFO, "repro-int8-declined", "repro: a DGEMM that products=int8 "
                         "cannot take (k >= 2^17, or too little workspace) runs on binary64 "
                         "slices");
    }
    return dfs_oz_dgemm_gpu(x, c, &g);
}

static cublasStatus_t ozaki_dgemm(const dfs_ctx *x, const dfs_gemm_call *c)
{
    if (host_alpha_zero(x, c))
        return dfs_oz_dgemm_scale(x, c);
    dfs_oz_gemm_opts g;
    read_options(x->options, 1, &g);
    return dfs_oz_dgemm_gpu(x, c, &g);
}

static cublasStatus_t int8_dgemm(const dfs_ctx *x, const dfs_gemm_call *c)
{
    if (host_alpha_zero(x, c))
        return dfs_oz_dgemm_scale(x, c);
    const dfs_crt_gemm_opts o = {
        0, (int)int_option(x->options, "moduli", 0, DFS_CRT_MODULI, 0),
        (size_t)int_option(x->options, "workspace_mb", 16, 1 << 24, 8192) << 20};
    if (o.moduli == 1) {
        dfs_log_once(DFS_LOG_ERROR, "int8-moduli", "int8: moduli=1 is too few; using the default");
        dfs_crt_gemm_opts d = o;
        d.moduli = 0;
        return dfs_crt_dgemm_gpu(x, c, &d);
    }
    return dfs_crt_dgemm_gpu(x, c, &o);
}

static cublasStatus_t sgemm_dgemm(const dfs_ctx *x, const dfs_gemm_call *c)
{
    if (host_alpha_zero(x, c))
        return dfs_oz_dgemm_scale(x, c);
    return dfs_f32_dgemm_gpu(x, c, (int)int_option(x->options, "splits", 2, DFS_F32_MAX_SPLITS, 2),
                             (size_t)int_option(x->options, "workspace_mb", 16, 1 << 24, 4096)
                                 << 20);
}

static const char *const repro_option_keys[] = {"max_splits", "workspace_mb", "products", NULL};
static const char *const int8_option_keys[] = {"moduli", "workspace_mb", NULL};
static const char *const sgemm_option_keys[] = {"splits", "workspace_mb", NULL};
static const char *const ozaki_option_keys[] = {"max_splits", "workspace_mb", "splits", "fast",
                                                "sum", NULL};

const dfs_engine dfs_engine_repro = {
    .name = "repro",
    .summary = "correctly rounded, bitwise reproducible results (exact accumulation, Ozaki scheme)",
    .options = repro_option_keys,
    .can_run = oz_can_run,
    .dgemm = repro_dgemm,
    .dgemv = dfs_oz_dgemv_gpu,
    .ddot = dfs_oz_ddot_gpu,
};

const dfs_engine dfs_engine_ozaki = {
    .name = "ozaki",
    .summary = "the Ozaki scheme with the paper's knobs (splits, fast mode, fixed-order sum)",
    .options = ozaki_option_keys,
    .can_run = oz_can_run,
    .dgemm = ozaki_dgemm,
    .dgemv = dfs_oz_dgemv_gpu,
    .ddot = dfs_oz_ddot_gpu,
};

const dfs_engine dfs_engine_int8 = {
    .name = "int8",
    .summary = "DGEMM from exact int8 tensor-core products (Ozaki scheme II), native accuracy "
               "or better",
    .options = int8_option_keys,
    .can_run = oz_can_run, /* int8 tensor cores from cc 7.5 */
    .dgemm = int8_dgemm,
};

const dfs_engine dfs_engine_ozaki_sgemm = {
    .name = "ozaki-sgemm",
    .summary = "DGEMM from exact binary32 slice products on SGEMM (Ozaki scheme), for slow FP64",
    .options = sgemm_option_keys,
    .can_run = oz_can_run,
    .dgemm = sgemm_dgemm,
};
