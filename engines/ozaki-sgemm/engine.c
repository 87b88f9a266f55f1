/* ozaki-sgemm/engine.c — the ozaki-sgemm engine: DGEMM only, C from the exact products of 2 to 6
 * binary32 slices per operand on cuBLAS SGEMM, the partials added in binary64 (f32_gemm.c), for
 * parts whose FP64 is slow; on uniform data normwise errors ~65 (2 splits) and ~5000 times (3)
 * below SGEMM's, less on data of wide range, where more splits help (../oz/README.md).
 * Options: splits, workspace_mb and native (the table sgemm_options below): small DGEMMs, where
 * the engine's fixed cost exceeds native FP64's time (../oz/tuning.h), run natively. */
#include "../engine.h"
#include "../../core/log.h"
#include "../oz/tuning.h"
#include "f32_gemm.h"
#include "f32split.h"

static int sgemm_can_run(const dfs_device *d)
{
    /* the fatbin holds code for cc 7.5 and later (and PTX for newer parts) */
    return d->cc_major > 7 || (d->cc_major == 7 && d->cc_minor >= 5);
}

static const dfs_option_spec sgemm_option_spec[] = {
    {.key = "splits", .kind = DFS_OPT_INT, .lo = 2, .hi = DFS_F32_MAX_SPLITS, .def = 2,
     .meaning = "S, the slices per operand: S (S + 1) / 2 SGEMMs, each split more accurate"},
    {.key = "workspace_mb", .kind = DFS_OPT_INT, .lo = 16, .hi = 1 << 24, .def = 4096,
     .meaning = "the most scratch space (MiB) one DGEMM may use; C is computed in blocks that fit"},
    {.key = "native", .kind = DFS_OPT_WORD, .def = 0,
     .words = (const char *const[]){"faster", "never", NULL},
     .meaning = "faster: DGEMMs too small to gain (the device class's product count, "
                "../oz/tuning.h) run natively; never: every DGEMM on SGEMM"},
    {.key = NULL},
};
static const dfs_option_table sgemm_options = {"ozaki-sgemm", sgemm_option_spec, NULL};

/* With native=faster (o), the device class's product count below which a DGEMM runs natively
 * (../oz/tuning.h); 0 with native=never. */
static double native_products(const dfs_device *dev, const dfs_options *o)
{
    if (dfs_option_word(o, &sgemm_options, "native") != 0)
        return 0;
    return dfs_oz_tuning_of(dev ? dev->cc_major : 0, dev ? dev->cc_minor : 0)->f32_native_products;
}

/* Whether a DGEMM of c's shape runs natively with options o: each entry has at most
 * native_products products (k = 0 counts as 1). */
static int sgemm_gemm_prefers_native(const dfs_device *dev, const dfs_gemm_call *c,
                                     const dfs_options *o)
{
    return (double)c->m * (double)c->n * (double)(c->k > 0 ? c->k : 1) <=
           native_products(dev, o);
}

static cublasStatus_t sgemm_dgemm(const dfs_ctx *x, const dfs_gemm_call *c)
{
    if (sgemm_gemm_prefers_native(x->dev, c, x->options)) {
        dfs_log_once(DFS_LOG_INFO, "f32-small", "ozaki-sgemm: DGEMMs of up to %.0f products run "
                     "natively (faster at that size; native=never keeps them on SGEMM)",
                     native_products(x->dev, x->options));
        return DFS_STATUS_DECLINED;
    }
    return dfs_f32_dgemm_gpu(x, c, (int)dfs_option_int(x->options, &sgemm_options, "splits"),
                             (size_t)dfs_option_int(x->options, &sgemm_options, "workspace_mb")
                                 << 20);
}

const dfs_engine dfs_engine_ozaki_sgemm = {
    .name = "ozaki-sgemm",
    .summary = "DGEMM from exact binary32 slice products on SGEMM (Ozaki scheme), for slow FP64",
    .options = &sgemm_options,
    .can_run = sgemm_can_run,
    .gemm = sgemm_dgemm,
    .gemm_prefers_native = sgemm_gemm_prefers_native,
    /* TRSM: fewer, larger GEMMs (each splits both operands into slices) */
    .trsm_nb = 256,
};
