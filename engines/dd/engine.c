/* dd/engine.c — the double-double engine (EXBLAS_MODE=dd, or the mode `accurate`): DDOT, DGEMV and
 * DGEMM with every output accumulated in double-double and rounded once to binary64
 * (Mukunoki-Takahashi's DD arithmetic, ../shared/design/ALGORITHMS.md section 2; the steps and
 * their order in dd_steps.h, the kernels in kernels.cu, the CPU twin in host.c).  The result is
 * RN(exact) but for near ties and sums cancelling below about 2^-50 of sum |a b|, and the same
 * bits on every run and GPU.  DDOT and DGEMV are memory-bound, so this costs little time there;
 * DGEMM runs on the FP64 units at 22 operations per term, in one of three tiles, the one that
 * spreads the outputs best over the GPU (option tile; every tile the same bits).
 *
 * Scratch space: DOT 24 bytes per chunk (at most DFS_DD_DOT_CHUNKS, 2048), GEMV 24 bytes per
 * output and chunk when its inner dimension is split (dfs_dd_gemv_plan: about
 * DFS_DD_GEMV_N/T_THREADS threads' worth); DGEMM none.  A DOT or GEMV without it runs natively
 * (logged once).  The tuning numbers: tuning.h. */
#include "../engine.h"
#include "../../core/gpu.h"
#include "../../core/log.h"
#include "../../core/resolve.h"
#include "dd_kernels.h"
#include "dd_steps.h"
#include "launch.h"

#include <string.h>

extern const unsigned char dfs_dd_fatbin[];

/* The dd engine's kernels of kernels.cu (the X = false instances). */
#define DD_KERNELS(X)                                                                              \
    X(K_DOT, dfs_dd_dot)                                                                           \
    X(K_DOT_FINAL, dfs_dd_dot_final)                                                               \
    X(K_GEMV, dfs_dd_gemv)                                                                         \
    X(K_GEMV_FINAL, dfs_dd_gemv_final)                                                             \
    X(K_GEMM, dfs_dd_gemm) X(K_GEMM32, dfs_dd_gemm32) X(K_GEMM16, dfs_dd_gemm16)                  \
    X(K_ZGEMM, dfs_dd_zgemm)
enum { DD_KERNELS(DFS_KERNEL_ID) K_COUNT };
/* the DGEMM's tiles in dd_kernels.h's order, from K_GEMM on */
_Static_assert(K_GEMM32 == K_GEMM + 1 && K_GEMM16 == K_GEMM + 2 && DFS_DD_GEMM_TILES == 3 &&
                   DFS_DD_GEMM_EDGE(1) == 32 && DFS_DD_GEMM_EDGE(2) == 16,
               "dd's DGEMM kernels, one per tile");
_Static_assert(DFS_DD_ZGEMM_BM == DFS_DD_ZGEMM_BN, "square complex tiles");
DFS_MODULE(module, dfs_dd_fatbin, DD_KERNELS);

static int dd_can_run(const dfs_device *d)
{
    /* The fatbin holds code for cc 7.5 and later (and PTX for newer parts). */
    return d->cc_major > 7 || (d->cc_major == 7 && d->cc_minor >= 5);
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

/* The outcome of dfs_dd_launch_*: no scratch declines the call (logged once). */
static cublasStatus_t launched(int r, const char *routine)
{
    if (r == DFS_DD_NO_SCRATCH) {
        log_no_scratch(routine);
        return DFS_STATUS_DECLINED;
    }
    return r ? launch_failed(routine) : CUBLAS_STATUS_SUCCESS;
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
    dfs_dd_dot_args a;
    memset(&a, 0, sizeof a);
    a.x.hi = c->x;
    a.y.hi = c->y;
    a.incx = c->incx;
    a.incy = c->incy;
    a.n = c->n;
    a.result = c->result;
    double *tmp = NULL;
    pthread_mutex_lock(&x->scratch->lock);
    const dfs_dd_gpu g = dfs_dd_gpu_of(x->device);
    int r = dfs_dd_launch_dot(k[K_DOT], k[K_DOT_FINAL], &g, x->scratch, st, &a,
                              host_result ? &tmp : NULL);
    if (r == DFS_DD_LAUNCHED && host_result &&
        dfs_result_to_host(c->result, (CUdeviceptr)(uintptr_t)tmp, sizeof(double), st))
        r = DFS_DD_LAUNCH_FAILED;
    dfs_scratch_unlock(x->scratch);
    return launched(r, "DDOT");
}

static cublasStatus_t dd_dgemv(const dfs_ctx *x, const dfs_gemv_call *c)
{
    const CUfunction *k = dfs_module_kernels(&module);
    if (!k)
        return DFS_STATUS_DECLINED;
    const int trans = c->trans != CUBLAS_OP_N;
    const int dev = x->pointer_mode == CUBLAS_POINTER_MODE_DEVICE;
    dfs_dd_gemv_args a;
    memset(&a, 0, sizeof a);
    a.A.hi = c->A;
    a.x.hi = c->x;
    a.lda = c->lda;
    a.incx = c->incx;
    a.trans = trans;
    a.len = trans ? c->n : c->m;
    a.K = trans ? c->m : c->n;
    a.y.hi = c->y;
    a.incy = c->incy;
    a.alpha = dev ? c->alpha : NULL;
    a.beta = dev ? c->beta : NULL;
    a.alpha_v = dev ? 0 : *c->alpha;
    a.beta_v = dev ? 0 : *c->beta;
    pthread_mutex_lock(&x->scratch->lock);
    const dfs_dd_gpu g = dfs_dd_gpu_of(x->device);
    const int r = dfs_dd_launch_gemv(k[K_GEMV], k[K_GEMV_FINAL], &g, x->scratch,
                                     (CUstream)x->stream, &a);
    dfs_scratch_unlock(x->scratch);
    return launched(r, "DGEMV");
}

/* The options (policy file or EXBLAS_MODE=dd:key=value): the DGEMM's tile, words in
 * DFS_DD_GEMM_TILES order after auto.  Every tile gives the same bits. */
static const dfs_option_spec dd_option_spec[] = {
    {.key = "tile", .kind = DFS_OPT_WORD, .def = 0,
     .words = (const char *const[]){"auto", "64", "32", "16", NULL},
     .meaning = "the DGEMM's C tile of one thread block (square); auto: the one that leaves the "
                "busiest multiprocessor the fewest outputs (tuning.h); the same bits"},
    {.key = NULL},
};
static const dfs_option_table dd_options = {"dd", dd_option_spec, NULL};

static cublasStatus_t dd_gemm(const dfs_ctx *x, const dfs_gemm_call *c)
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
    a.A.hi = c->A;
    a.lda = c->lda;
    a.sA = c->strideA;
    a.B.hi = c->B;
    a.ldb = c->ldb;
    a.sB = c->strideB;
    a.C.hi = c->C;
    a.ldc = c->ldc;
    a.sC = c->strideC;
    const int z = c->type == DFS_C64;
    /* real: N or not; complex: 0, 1, 2 for N, T, C (the conjugate matters) */
    a.ta = z ? (int)c->transa : c->transa != CUBLAS_OP_N;
    a.tb = z ? (int)c->transb : c->transb != CUBLAS_OP_N;
    a.alpha = dev ? c->alpha : NULL;
    a.beta = dev ? c->beta : NULL;
    a.alpha_v = dev ? 0 : c->alpha[0];
    a.beta_v = dev ? 0 : c->beta[0];
    a.alpha_vi = dev || !z ? 0 : c->alpha[1];
    a.beta_vi = dev || !z ? 0 : c->beta[1];
    int r;
    if (z) {
        r = dfs_dd_launch_gemm(k[K_ZGEMM], DFS_DD_ZGEMM_BM, (CUstream)x->stream, &a);
    } else {
        const int opt = dfs_option_word(x->options, &dd_options, "tile");
        const dfs_dd_gpu g = dfs_dd_gpu_of(x->device);
        const int tile = opt ? opt - 1 : dfs_dd_gemm_tile(&g, &a);
        r = dfs_dd_launch_gemm(k[K_GEMM + tile], DFS_DD_GEMM_EDGE(tile), (CUstream)x->stream, &a);
    }
    if (r)
        return launch_failed(z ? "ZGEMM" : "DGEMM");
    return CUBLAS_STATUS_SUCCESS;
}

const dfs_engine dfs_engine_dd = {
    .name = "dd",
    .summary = "double-double accumulation, rounded once: RN(exact) but near ties (accurate mode)",
    .options = &dd_options,
    .can_run = dd_can_run,
    .caps = DFS_CAP_COMPLEX,
    .gemm = dd_gemm,
    .dgemv = dd_dgemv,
    .ddot = dd_ddot,
};
