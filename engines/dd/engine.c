/* dd/engine.c — the double-double engine (EXBLAS_MODE=dd, or the mode `accurate`): DDOT, DGEMV and
 * DGEMM with every output accumulated in double-double and rounded once to binary64
 * (Mukunoki-Takahashi's DD arithmetic, ../shared/design/ALGORITHMS.md section 2; the steps and
 * their order in dd_steps.h, the kernels in kernels.cu, the CPU twin in host.c).  The result is
 * RN(exact) but for near ties and sums cancelling below about 2^-50 of sum |a b|, and the same
 * bits on every run and GPU.  DDOT and DGEMV are memory-bound, so this costs little time there;
 * DGEMM runs on the FP64 units at 22 operations per term.
 *
 * Scratch space: DOT 24 bytes per chunk (at most 2048 chunks), GEMV 24 bytes per output and
 * chunk when its inner dimension is split (dfs_dd_gemv_plan: about 2^18 threads' worth); DGEMM
 * none.  A DOT or GEMV without it runs natively (logged once). */
#include "../engine.h"
#include "../common/gpu.h"
#include "../../shim/log.h"
#include "../../shim/resolve.h"
#include "dd_kernels.h"
#include "dd_steps.h"

#include <string.h>

extern const unsigned char dfs_dd_fatbin[];

enum { K_DOT, K_DOT_FINAL, K_GEMV, K_GEMV_FINAL, K_GEMM, K_COUNT };
static const char *const kernel_names[K_COUNT] = {"dfs_dd_dot", "dfs_dd_dot_final", "dfs_dd_gemv",
                                                  "dfs_dd_gemv_final", "dfs_dd_gemm"};
static dfs_module module = DFS_MODULE_INIT(dfs_dd_fatbin, kernel_names, K_COUNT);

static int dd_can_run(const dfs_device *d)
{
    /* The fatbin holds code for cc 7.5 and later (and PTX for newer parts). */
    return d->cc_major > 7 || (d->cc_major == 7 && d->cc_minor >= 5);
}

static int64_t min64(int64_t a, int64_t b)
{
    return a < b ? a : b;
}

/* Scratch for `count` partials (DD sum and plain sum) and, when want_result, one double. */
static int get_parts(const dfs_ctx *x, int64_t count, int want_result, dfs_dd_parts *p,
                     double **result)
{
    const size_t n = (size_t)(count + 1) / 2 * 2;
    CUdeviceptr base = dfs_scratch_get(x->scratch, n * 24 + 64, (CUstream)x->stream);
    if (!base)
        return 0;
    char *b = (char *)(uintptr_t)base;
    p->s = (dfs_dd *)b;
    p->p = (double *)(b + n * 16);
    if (want_result)
        *result = (double *)(b + n * 24);
    return 1;
}

static void log_no_scratch(const char *routine)
{
    dfs_log_once(DFS_LOG_WARN, routine, "dd: no workspace for a %s; such calls run natively",
                 routine);
}

static cublasStatus_t launch_failed(const char *what)
{
    dfs_log_once(DFS_LOG_ERROR, what, "dd: a %s kernel failed", what);
    return CUBLAS_STATUS_EXECUTION_FAILED;
}

static cublasStatus_t dd_ddot(const dfs_ctx *x, const dfs_dot_call *c)
{
    CUstream st = (CUstream)x->stream;
    const int host_result = x->pointer_mode == CUBLAS_POINTER_MODE_HOST;
    if (host_result && dfs_stream_capturing(st))
        return DFS_STATUS_DECLINED; /* a host result needs a synchronisation */
    const CUfunction *k = dfs_module_kernels(&module);
    if (!k)
        return DFS_STATUS_DECLINED;
    const dfs_dd_plan plan = dfs_dd_dot_plan(c->n);
    const int64_t grid = min64(plan.nchunks, (int64_t)dfs_sm_count(x->device) *
                                                 dfs_blocks_per_sm(k[K_DOT], 256));
    dfs_dd_dot_args a;
    memset(&a, 0, sizeof a);
    a.x = c->x;
    a.y = c->y;
    a.incx = c->incx;
    a.incy = c->incy;
    a.n = c->n;
    a.chunk = plan.chunk;
    a.nchunks = plan.nchunks;
    pthread_mutex_lock(&x->scratch->lock);
    double *tmp = NULL;
    if (!get_parts(x, plan.nchunks, 1, &a.part, &tmp)) {
        dfs_scratch_unlock(x->scratch);
        log_no_scratch("DDOT");
        return DFS_STATUS_DECLINED;
    }
    a.result = host_result ? tmp : c->result;
    int err = dfs_launch(k[K_DOT], (unsigned)grid, 1, 1, 256, 1, st, &a);
    err |= dfs_launch(k[K_DOT_FINAL], 1, 1, 1, 256, 1, st, &a);
    if (!err && host_result)
        err = dfs_result_to_host(c->result, (CUdeviceptr)(uintptr_t)tmp, sizeof(double), st);
    dfs_scratch_unlock(x->scratch);
    return err ? launch_failed("DDOT") : CUBLAS_STATUS_SUCCESS;
}

static cublasStatus_t dd_dgemv(const dfs_ctx *x, const dfs_gemv_call *c)
{
    CUstream st = (CUstream)x->stream;
    const CUfunction *k = dfs_module_kernels(&module);
    if (!k)
        return DFS_STATUS_DECLINED;
    const int trans = c->trans != CUBLAS_OP_N;
    const dfs_dd_plan plan = dfs_dd_gemv_plan(trans, c->m, c->n);
    const int dev = x->pointer_mode == CUBLAS_POINTER_MODE_DEVICE;
    dfs_dd_gemv_args a;
    memset(&a, 0, sizeof a);
    a.A = c->A;
    a.x = c->x;
    a.lda = c->lda;
    a.incx = c->incx;
    a.trans = trans;
    a.lanes = plan.lanes;
    a.len = trans ? c->n : c->m;
    a.K = trans ? c->m : c->n;
    a.chunk = plan.chunk;
    a.nchunks = plan.nchunks;
    const int64_t per_block = 256 / plan.lanes;
    a.items = (a.len + per_block - 1) / per_block * plan.nchunks;
    a.y = c->y;
    a.incy = c->incy;
    a.alpha = dev ? c->alpha : NULL;
    a.beta = dev ? c->beta : NULL;
    a.alpha_v = dev ? 0 : *c->alpha;
    a.beta_v = dev ? 0 : *c->beta;
    const int64_t grid = min64(a.items, (int64_t)dfs_sm_count(x->device) *
                                            dfs_blocks_per_sm(k[K_GEMV], 256));
    pthread_mutex_lock(&x->scratch->lock);
    if (plan.nchunks > 1 && !get_parts(x, plan.nchunks * a.len, 0, &a.part, NULL)) {
        dfs_scratch_unlock(x->scratch);
        log_no_scratch("DGEMV");
        return DFS_STATUS_DECLINED;
    }
    int err = dfs_launch(k[K_GEMV], (unsigned)grid, 1, 1, 256, 1, st, &a);
    if (plan.nchunks > 1)
        err |= dfs_launch(k[K_GEMV_FINAL], (unsigned)((a.len + 7) / 8), 1, 1, 256, 1, st, &a);
    dfs_scratch_unlock(x->scratch);
    return err ? launch_failed("DGEMV") : CUBLAS_STATUS_SUCCESS;
}

static cublasStatus_t dd_dgemm(const dfs_ctx *x, const dfs_gemm_call *c)
{
    const CUfunction *k = dfs_module_kernels(&module);
    if (!k)
        return DFS_STATUS_DECLINED;
    const int dev = x->pointer_mode == CUBLAS_POINTER_MODE_DEVICE;
    dfs_dd_gemm_args a;
    memset(&a, 0, sizeof a);
    a.m = c->m;
    a.n = c->n;
    a.k = c->k;
    a.batch = c->batch;
    a.A = c->A;
    a.lda = c->lda;
    a.sA = c->strideA;
    a.B = c->B;
    a.ldb = c->ldb;
    a.sB = c->strideB;
    a.C = c->C;
    a.ldc = c->ldc;
    a.sC = c->strideC;
    a.ta = c->transa != CUBLAS_OP_N;
    a.tb = c->transb != CUBLAS_OP_N;
    a.alpha = dev ? c->alpha : NULL;
    a.beta = dev ? c->beta : NULL;
    a.alpha_v = dev ? 0 : *c->alpha;
    a.beta_v = dev ? 0 : *c->beta;
    const int64_t mt = (c->m + DFS_DD_GEMM_BM - 1) / DFS_DD_GEMM_BM,
                  nt = (c->n + DFS_DD_GEMM_BN - 1) / DFS_DD_GEMM_BN;
    /* the kernel strides over what does not fit the grid's limits */
    const unsigned gx = (unsigned)min64(mt, 0x7fffffff), gy = (unsigned)min64(nt, 65535),
                   gz = (unsigned)min64(c->batch, 65535);
    if (dfs_launch(k[K_GEMM], gx, gy, gz, 256, 1, (CUstream)x->stream, &a))
        return launch_failed("DGEMM");
    return CUBLAS_STATUS_SUCCESS;
}

const dfs_engine dfs_engine_dd = {
    .name = "dd",
    .summary = "double-double accumulation, rounded once: RN(exact) but near ties (accurate mode)",
    .options = NULL,
    .can_run = dd_can_run,
    .dgemm = dd_dgemm,
    .dgemv = dd_dgemv,
    .ddot = dd_ddot,
};
