/* repro/engine.c — the reproducible engine and its knob variant (../oz/README.md):
 *
 *   repro  every output correctly rounded, RN(alpha * sum a*b + beta * c), so bitwise the same
 *          on every run, stream, GPU and on the CPU (host.c).  Options: max_splits, workspace_mb,
 *          products = auto|f64|int8: DGEMM's exact products from binary64 slices (cuBLAS
 *          DGEMM, gemm.c) or from int8 residues on integer tensor cores (../oz/crt_gemm.c);
 *          auto takes int8 where it can (k < 2^17), f64 otherwise.  The bits are the same.
 *   ozaki  the paper's knobs on top (ALGORITHMS.md section 3), for speed at a documented loss:
 *            splits = N        exactly N slices per operand (default 0 = as many as needed)
 *            fast = 1          skip the slice pairs i + j >= N (FS; needs splits)
 *            sum = exact|fixed partials rounded once (default), or summed in a fixed order in
 *                              binary64 (reproducible, about 1 ulp; needs splits)
 *          With splits = 0, fast = 0 and sum = exact it is repro.
 *   Both: max_splits = the most slices a DGEMM takes per operand (default 12); what rows and
 *         columns need beyond it is bounded, and outputs it could change are computed directly
 *         (exactly, slowly).  workspace_mb = the most scratch one DGEMM may use (default 1024);
 *         larger products run block by block.
 * DDOT and DGEMV are always exact (one pass, vec.c); the knobs are DGEMM's. */
#include "../engine.h"
#include "../../core/log.h"
#include "../oz/crt_gemm.h"
#include "gemm.h"
#include "vec.h"

#include <string.h>

static int repro_can_run(const dfs_device *d)
{
    /* the fatbins hold code for cc 7.5 and later (and PTX for newer parts) */
    return d->cc_major > 7 || (d->cc_major == 7 && d->cc_minor >= 5);
}

static void read_options(const dfs_options *o, int knobs, dfs_oz_gemm_opts *g)
{
    const char *who = knobs ? "ozaki" : "repro";
    memset(g, 0, sizeof *g);
    g->max_splits = (int)dfs_option_int(o, who, "max_splits", 1, 16, 12);
    g->workspace = (size_t)dfs_option_int(o, who, "workspace_mb", 16, 1 << 24, 1024) << 20;
    if (!knobs)
        return;
    g->splits = (int)dfs_option_int(o, who, "splits", 0, 16, 0);
    g->fast = (int)dfs_option_int(o, who, "fast", 0, 1, 0) && g->splits > 0;
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
    dfs_oz_gemm_opts g;
    read_options(x->options, 1, &g);
    return dfs_oz_dgemm_gpu(x, c, &g);
}

static const char *const repro_option_keys[] = {"max_splits", "workspace_mb", "products", NULL};
static const char *const ozaki_option_keys[] = {"max_splits", "workspace_mb", "splits", "fast",
                                                "sum", NULL};

const dfs_engine dfs_engine_repro = {
    .name = "repro",
    .summary = "correctly rounded, bitwise reproducible results (exact accumulation, Ozaki scheme)",
    .options = repro_option_keys,
    .can_run = repro_can_run,
    .dgemm = repro_dgemm,
    .dgemv = dfs_oz_dgemv_gpu,
    .ddot = dfs_oz_ddot_gpu,
};

const dfs_engine dfs_engine_ozaki = {
    .name = "ozaki",
    .summary = "the Ozaki scheme with the paper's knobs (splits, fast mode, fixed-order sum)",
    .options = ozaki_option_keys,
    .can_run = repro_can_run,
    .dgemm = ozaki_dgemm,
    .dgemv = dfs_oz_dgemv_gpu,
    .ddot = dfs_oz_ddot_gpu,
};
