/* int8/engine.c — the int8 engine (EXBLAS_MODE=int8, and the mode `fast` on tensor-core parts):
 * DGEMM only, as the exact product of the rows and columns rounded to integers of 50 bits and
 * more (dfs_crt_fast_moduli: 15 moduli up to k = 2^16, 16 above; more bits for rows of a few
 * large elements), from int8 residues on integer tensor cores (the Ozaki scheme II,
 * ../oz/crt_gemm.c in its fast mode), rounded once: native accuracy or better on well-scaled
 * data, faster than native FP64 at large sizes (../oz/README.md).
 * Options: moduli (0 = by k, else 2-24: more is more accurate and slower), workspace_mb (default
 * 8192).  A call it cannot take (k >= 2^17, no workspace) runs natively. */
#include "../engine.h"
#include "../../core/log.h"
#include "../oz/crt.h"
#include "../oz/crt_gemm.h"

static int int8_can_run(const dfs_device *d)
{
    /* int8 tensor cores from cc 7.5 (the fatbins hold code for 7.5 and later, PTX for newer) */
    return d->cc_major > 7 || (d->cc_major == 7 && d->cc_minor >= 5);
}

static cublasStatus_t int8_dgemm(const dfs_ctx *x, const dfs_gemm_call *c)
{
    dfs_crt_gemm_opts o = {
        0, (int)dfs_option_int(x->options, "int8", "moduli", 0, DFS_CRT_MODULI, 0),
        (size_t)dfs_option_int(x->options, "int8", "workspace_mb", 16, 1 << 24, 8192) << 20};
    if (o.moduli == 1) {
        dfs_log_once(DFS_LOG_ERROR, "int8-moduli", "int8: moduli=1 is too few; using the default");
        o.moduli = 0;
    }
    return dfs_crt_dgemm_gpu(x, c, &o);
}

static const char *const int8_option_keys[] = {"moduli", "workspace_mb", NULL};

const dfs_engine dfs_engine_int8 = {
    .name = "int8",
    .summary = "DGEMM from exact int8 tensor-core products (Ozaki scheme II), native accuracy "
               "or better",
    .options = int8_option_keys,
    .can_run = int8_can_run,
    .dgemm = int8_dgemm,
};
