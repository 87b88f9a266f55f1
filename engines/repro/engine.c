/* repro/engine.c — the reproducible engine and its knob variant (../oz/README.md):
 *
 *   repro  every output correctly rounded, RN(alpha * sum a*b + beta * c), so bitwise the same
 *          on every run, stream, GPU and on the CPU (host.c).  DGEMM's exact products come from
 *          binary64 slices (cuBLAS DGEMM, gemm.c) or from int8 residues on integer tensor cores
 *          (../oz/crt_gemm.c), option products; the bits are the same.
 *   ozaki  the paper's knobs on top (ALGORITHMS.md section 3), for speed at a documented loss:
 *          a fixed number of slices (splits), the fast mode (fast), a fixed-order sum (sum).
 *          With splits = 0, fast = 0 and sum = exact it is repro.
 * Both take max_splits and workspace_mb.  The options, their values and defaults: the tables
 * repro_options and ozaki_options below.  DDOT and DGEMV, real and complex (ZDOTC, ZDOTU,
 * ZGEMV: each part correctly rounded), are always exact (one pass, vec.c); the options are
 * DGEMM's. */
#include "../engine.h"
#include "../zreal/zreal.h"
#include "../../core/log.h"
#include "../oz/call.h"
#include "../oz/crt_gemm.h"
#include "gemm.h"
#include "vec.h"

#include <string.h>

static int repro_can_run(const dfs_device *d)
{
    /* the fatbins hold code for cc 7.5 and later (and PTX for newer parts) */
    return d->cc_major > 7 || (d->cc_major == 7 && d->cc_minor >= 5);
}

/* The options both engines take. */
#define OZ_COMMON_OPTIONS                                                                          \
    {.key = "max_splits", .kind = DFS_OPT_INT, .lo = 1, .hi = 16, .def = 12,                      \
     .meaning = "the most slices a DGEMM takes per operand; what rows and columns need beyond it "  \
                "is bounded, outputs it could change are computed directly"},                     \
    {.key = "workspace_mb", .kind = DFS_OPT_INT, .lo = 16, .hi = 1 << 24, .def = 1024,            \
     .meaning = "the most scratch space (MiB) one DGEMM may use; larger products run block by "    \
                "block"}

enum { PRODUCTS_AUTO, PRODUCTS_F64, PRODUCTS_INT8 };
enum { SMALL_AUTO, SMALL_DIRECT, SMALL_PRODUCTS, SMALL_TILED, SMALL_TILED1 };
enum { KGROUPS_AUTO, KGROUPS_ONE, KGROUPS_TWO };
static const dfs_option_spec repro_option_spec[] = {
    OZ_COMMON_OPTIONS,
    {.key = "products", .kind = DFS_OPT_WORD, .def = PRODUCTS_AUTO,
     .words = (const char *const[]){"auto", "f64", "int8", NULL},
     .meaning = "DGEMM's exact products from binary64 slices (f64) or int8 residues on integer "
                "tensor cores (int8, where it can); auto: int8 where k < 2^17; the same bits"},
    {.key = "small", .kind = DFS_OPT_WORD, .def = SMALL_AUTO,
     .words = (const char *const[]){"auto", "direct", "products", "tiled", "tiled1", NULL},
     .meaning = "a DGEMM (or a batch of them) that the device class's cost model says is "
                "faster so: every output in one launch of a small kernel (direct: a few lanes "
                "an output; tiled: a thread a 2 x 2 tile of outputs; tiled1: a thread an "
                "output; auto: tiled or tiled1 from the class's tiled_outputs outputs in all), "
                "or always on the products as larger ones are; the same bits"},
    {.key = "kgroups", .kind = DFS_OPT_WORD, .def = KGROUPS_AUTO,
     .words = (const char *const[]){"auto", "1", "2", NULL},
     .meaning = "DGEMM on int8 residues: the inner dimension in two groups, each scaled on its "
                "own, when its columns' and rows' exponents lie far apart (2: always; 1: never; "
                "auto: when the last call's did); the same bits"},
    {.key = NULL},
};
static const dfs_option_table repro_options = {"repro", repro_option_spec, NULL};

enum { SUM_EXACT, SUM_FIXED };
static int ozaki_conflicts(const dfs_options *o, const char *msg[], int max);
static const dfs_option_spec ozaki_option_spec[] = {
    OZ_COMMON_OPTIONS,
    {.key = "splits", .kind = DFS_OPT_INT, .lo = 0, .hi = 16, .def = 0,
     .meaning = "exactly N slices per operand (reproducible, not correctly rounded); 0: as many as "
                "needed (correctly rounded)"},
    {.key = "fast", .kind = DFS_OPT_WORD, .def = 0, .words = (const char *const[]){"0", "1", NULL},
     .meaning = "1: skip the slice pairs i + j >= N (the paper's FS; needs splits)"},
    {.key = "sum", .kind = DFS_OPT_WORD, .def = SUM_EXACT,
     .words = (const char *const[]){"exact", "fixed", NULL},
     .meaning = "the partials rounded once (exact), or summed in a fixed order in binary64 (fixed: "
                "reproducible, about 1 ulp; needs splits)"},
    {.key = NULL},
};
static const dfs_option_table ozaki_options = {"ozaki", ozaki_option_spec, ozaki_conflicts};

/* fast=1 and sum=fixed need splits: without, read_options ignores them. */
static int ozaki_conflicts(const dfs_options *o, const char *msg[], int max)
{
    int n = 0;
    if (dfs_option_int(o, &ozaki_options, "splits") > 0)
        return 0;
    if (n < max && dfs_option_word(o, &ozaki_options, "sum") == SUM_FIXED)
        msg[n++] = "ozaki: sum=fixed needs splits; using sum=exact";
    if (n < max && dfs_option_word(o, &ozaki_options, "fast"))
        msg[n++] = "ozaki: fast=1 needs splits; using fast=0";
    return n;
}

static void read_options(const dfs_options *o, int knobs, dfs_oz_gemm_opts *g)
{
    const dfs_option_table *t = knobs ? &ozaki_options : &repro_options;
    memset(g, 0, sizeof *g);
    g->max_splits = (int)dfs_option_int(o, t, "max_splits");
    g->workspace = (size_t)dfs_option_int(o, t, "workspace_mb") << 20;
    if (!knobs)
        return;
    g->splits = (int)dfs_option_int(o, t, "splits");
    g->fast = dfs_option_word(o, t, "fast") && g->splits > 0;
    g->fixed_sum = dfs_option_word(o, t, "sum") == SUM_FIXED && g->splits > 0;
}

/* tuning.h's cost model: the small kernel in the form f against the products, per call (all
 * its batch). */
static int small_is_faster(const dfs_oz_tuning *tu, const dfs_gemm_call *c, dfs_oz_small_form f)
{
    const double entry = (double)c->m * (double)c->n * (double)c->k, all = entry * (double)c->batch;
    const double outputs = (double)c->m * (double)c->n * (double)c->batch;
    const double chain = (double)((c->k + DFS_OZ_SMALL_LANES - 1) / DFS_OZ_SMALL_LANES);
    const double t_all = all * tu->small_ps * 1e-6, t_chain = chain * tu->small_chain_ns * 1e-3;
    const double t_small = f != DFS_OZ_FORM_LANES
                               ? outputs * tu->tiled_output_ps * 1e-6 + all * tu->tiled_ps * 1e-6
                           : t_all > t_chain ? t_all : t_chain; /* microseconds (no libm) */
    const double t_products = (double)c->batch * (tu->products_us + entry * tu->products_ps * 1e-6);
    return t_small <= t_products;
}

/* The small kernel's form for c: the option's, or (auto) the tiles' from the class's
 * tiled_outputs outputs in all (below, too few tiles to fill the GPU: the lanes' form), 1 x 1
 * tiles while the 2 x 2 ones would give fewer than tiled_threads_per_sm threads a
 * multiprocessor. */
static dfs_oz_small_form small_form(const dfs_oz_tuning *tu, const dfs_ctx *x,
                                    const dfs_gemm_call *c, int small)
{
    if (small != SMALL_AUTO)
        return small == SMALL_TILED    ? DFS_OZ_FORM_TILES
               : small == SMALL_TILED1 ? DFS_OZ_FORM_TILES1
                                       : DFS_OZ_FORM_LANES;
    const double outputs = (double)c->m * (double)c->n * (double)c->batch;
    if (outputs < tu->tiled_outputs)
        return DFS_OZ_FORM_LANES;
    const double tiles = (double)((c->m + DFS_OZ_TILE_M - 1) / DFS_OZ_TILE_M) *
                         (double)((c->n + DFS_OZ_TILE_N - 1) / DFS_OZ_TILE_N) * (double)c->batch;
    return tiles < (double)dfs_sm_count(x->device) * tu->tiled_threads_per_sm ? DFS_OZ_FORM_TILES1
                                                                               : DFS_OZ_FORM_TILES;
}

/* The option kgroups as crt_gemm.h takes it. */
static int kgroups(const dfs_ctx *x)
{
    const int kg = dfs_option_word(x->options, &repro_options, "kgroups");
    return kg == KGROUPS_TWO   ? DFS_CRT_KGROUPS_TWO
           : kg == KGROUPS_ONE ? DFS_CRT_KGROUPS_ONE
                               : DFS_CRT_KGROUPS_AUTO;
}

static cublasStatus_t repro_dgemm(const dfs_ctx *x, const dfs_gemm_call *c)
{
    dfs_oz_gemm_opts g;
    read_options(x->options, 0, &g);
    const int products = dfs_option_word(x->options, &repro_options, "products");
    /* small products: every output of the batch by the small kernel, in one launch, where the
     * device class's cost model says it is faster (the same bits: RN(exact)) */
    const int small = dfs_option_word(x->options, &repro_options, "small");
    const dfs_oz_tuning *tu = dfs_oz_tuning_ctx(x);
    const dfs_oz_small_form form = small_form(tu, x, c, small);
    const int faster_small = small != SMALL_PRODUCTS && small_is_faster(tu, c, form);
    /* a triangle of C (the shim's SYRK...): on the integer tensor cores alone; where the small
     * kernel or the binary64 slices would take the call, or they cannot, the shim's panels do */
    const int tri = c->tri != DFS_TRI_ALL;
    if (tri && (faster_small || products == PRODUCTS_F64))
        return DFS_STATUS_DECLINED;
    if (faster_small) {
        const cublasStatus_t s = dfs_oz_dgemm_direct(x, c, form);
        if (s != DFS_STATUS_DECLINED)
            return s;
    }
    if (products != PRODUCTS_F64) {
        /* the integer tensor cores, when they can take the call (else the binary64 slices) */
        const dfs_crt_gemm_opts o = {1, 0, g.workspace, NULL, 0, kgroups(x), 0, NULL, NULL, 0};
        const cublasStatus_t s = dfs_crt_dgemm_gpu(x, c, &o);
        if (s != DFS_STATUS_DECLINED || tri)
            return s;
        if (products == PRODUCTS_INT8)
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

/* The real product of a complex call's row pairs (../zreal/zreal.h, ../oz/crt_zpair.h): on the
 * integer tensor cores only (the binary64 slices and the small kernel have no pairs). */
static cublasStatus_t repro_pairs(const dfs_ctx *x, const dfs_gemm_call *c, const double *zalpha,
                                  const double *zbeta)
{
    dfs_oz_gemm_opts g;
    read_options(x->options, 0, &g);
    if (dfs_option_word(x->options, &repro_options, "products") == PRODUCTS_F64)
        return DFS_STATUS_DECLINED;
    dfs_crt_gemm_opts o;
    memset(&o, 0, sizeof o);
    o.verify = 1;
    o.workspace = g.workspace;
    o.kgroups = kgroups(x);
    o.zpairs = 1;
    o.zalpha = zalpha;
    o.zbeta = zbeta;
    return dfs_crt_dgemm_gpu(x, c, &o);
}

/* Complex calls through the real representation (../zreal/zreal.h): each part rounded once;
 * with real scalars on the host in the engine's real GEMM (any of its paths), else by row pairs
 * on the integer tensor cores. */
static cublasStatus_t repro_gemm(const dfs_ctx *x, const dfs_gemm_call *c)
{
    if (c->tri != DFS_TRI_ALL && c->type != DFS_R64) /* real triangles only */
        return DFS_STATUS_DECLINED;
    if (c->type != DFS_C64)
        return repro_dgemm(x, c);
    if (x->pointer_mode != CUBLAS_POINTER_MODE_DEVICE && c->alpha[1] == 0.0 && c->beta[1] == 0.0)
        return dfs_zr_gemm(x, c, repro_dgemm, 1);
    const cublasStatus_t s = dfs_zr_gemm_pairs(x, c, repro_pairs);
    if (s == DFS_STATUS_DECLINED)
        dfs_log_once(DFS_LOG_INFO, "repro-zpairs", "repro: a complex GEMM with complex or "
                     "device-pointer scalars that the integer tensor cores cannot take (k >= "
                     "2^16, products=f64, or too little workspace): declined (natively, or on "
                     "the rule's fallback= engine; said once)");
    return s;
}

const dfs_engine dfs_engine_repro = {
    .name = "repro",
    .summary = "correctly rounded, bitwise reproducible results (exact accumulation, Ozaki scheme)",
    .options = &repro_options,
    .can_run = repro_can_run,
    .caps = DFS_CAP_COMPLEX | DFS_CAP_ZDOT | DFS_CAP_ZGEMV | DFS_CAP_TRIANGLE,
    .gemm = repro_gemm,
    .dgemv = dfs_oz_dgemv_gpu,
    .ddot = dfs_oz_ddot_gpu,
    /* TRSM: fewer, larger GEMMs (each splits both operands); fixed, so its bits too */
    .trsm_nb = 256,
    /* SYRK...: two panels (each GEMM prepares its operands again; H100, DSYRK 4096: 4.69 ms
     * against 7.54 with eight, cuBLAS 1.21; README.md) */
    .l3_panels = 2,
};

const dfs_engine dfs_engine_ozaki = {
    .name = "ozaki",
    .summary = "the Ozaki scheme with the paper's knobs (splits, fast mode, fixed-order sum)",
    .options = &ozaki_options,
    .can_run = repro_can_run,
    .caps = DFS_CAP_ZDOT | DFS_CAP_ZGEMV, /* its DOT and GEMV are repro's */
    .gemm = ozaki_dgemm,
    .dgemv = dfs_oz_dgemv_gpu,
    .ddot = dfs_oz_ddot_gpu,
    .trsm_nb = 256,
    .l3_panels = 2, /* as repro's */
};
