/* ozaki-sgemm/engine.c — the ozaki-sgemm engine: DGEMM only, C from the exact products of 2 to 6
 * binary32 slices per operand on cuBLAS SGEMM, the partials added in binary64 (f32_gemm.c), for
 * parts whose FP64 is slow; on uniform data normwise errors ~65 (2 splits) and ~5000 times (3)
 * below SGEMM's, less on data of wide range, where more splits help (../oz/README.md).
 * Options: splits and workspace_mb (the table sgemm_options below). */
#include "../engine.h"
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
    {.key = NULL},
};
static const dfs_option_table sgemm_options = {"ozaki-sgemm", sgemm_option_spec, NULL};

static cublasStatus_t sgemm_dgemm(const dfs_ctx *x, const dfs_gemm_call *c)
{
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
};
