/* gemm.c — the reproducible engine's DGEMM on the GPU: kernels_gemm.cu around cuBLAS's exact
 * slice products (README.md for the scheme; host.c is the CPU twin).
 *
 * No host synchronisation.  The number of slices a row needs is known only on the device, so the
 * slices taken for the cuBLAS products are a guess: the largest need seen by the previous call on
 * this device (copied back asynchronously into pinned memory), 4 at first.  An output whose row
 * or column needs more is computed directly and exactly (dfs_oz_direct): a wrong guess costs
 * time, never bits.  C is computed block by block so that the slices and partial products stay
 * within the workspace budget. */
#include "gemm.h"

#include "../common/gpu.h"
#include "../../shim/log.h"
#include "../../shim/resolve.h"
#include "oz_gemm.h"
#include "oz_steps.h"

#include <pthread.h>
#include <stdint.h>
#include <string.h>

extern const unsigned char dfs_oz_gemm_fatbin[];

enum { K_ROWS, K_SPLIT, K_FINISH, K_DIRECT, K_COUNT };
static const char *const names[K_COUNT] = {"dfs_oz_rows", "dfs_oz_split", "dfs_oz_finish",
                                           "dfs_oz_direct"};
static dfs_module module = DFS_MODULE_INIT(dfs_oz_gemm_fatbin, names, K_COUNT);

/* ---- the guess: the previous call's needs, per device ---- */

#define MAX_DEVICES 64
#define FIRST_GUESS 4
static pthread_mutex_t feedback_lock = PTHREAD_MUTEX_INITIALIZER;
static volatile int *feedback[MAX_DEVICES]; /* pinned: {need of A, need of B} */

static volatile int *feedback_slot(int device)
{
    if (device < 0 || device >= MAX_DEVICES)
        return NULL;
    pthread_mutex_lock(&feedback_lock);
    if (!feedback[device] && DFS_DRV(cuMemHostAlloc)) {
        void *p = NULL;
        if (DFS_DRV(cuMemHostAlloc)(&p, 64, CU_MEMHOSTALLOC_PORTABLE) == CUDA_SUCCESS) {
            memset(p, 0, 64);
            feedback[device] = p;
        }
    }
    volatile int *f = feedback[device];
    pthread_mutex_unlock(&feedback_lock);
    return f;
}

static int clamp(int v, int lo, int hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* ---- workspace ---- */

typedef struct {
    double *consts;
    int *maxneed, *tauA, *needA, *tauB, *needB;
    unsigned *count;
    double *SA, *SB, *P;
    uint32_t *list;
} layout;

static size_t up(size_t x)
{
    return (x + 255) / 256 * 256;
}

/* Bytes for blocks of bm x bn with sa, sb slices; fills l from base when base != 0. */
static size_t carve(CUdeviceptr base, int64_t m, int64_t n, int64_t k, int64_t bm, int64_t bn,
                    int sa, int sb, layout *l)
{
    size_t off = 0;
#define TAKE(field, type, count)                                                                   \
    do {                                                                                           \
        if (base)                                                                                  \
            l->field = (type *)(uintptr_t)(base + off);                                            \
        off += up((size_t)(count) * sizeof(type));                                                 \
    } while (0)
    TAKE(consts, double, 2);
    TAKE(maxneed, int, 2);
    TAKE(count, unsigned, 1);
    TAKE(tauA, int, m);
    TAKE(needA, int, m);
    TAKE(tauB, int, n);
    TAKE(needB, int, n);
    TAKE(SA, double, (size_t)sa * bm * k);
    TAKE(SB, double, (size_t)sb * bn * k);
    TAKE(P, double, (size_t)sa * sb * bm * bn);
    TAKE(list, uint32_t, bm * bn);
#undef TAKE
    return off;
}

/* ---- one product C = alpha op(A) op(B) + beta C ---- */

typedef struct {
    const dfs_ctx *x;
    const dfs_oz_gemm_opts *o;
    const CUfunction *k;
    CUstream st;
    int sms;
} run;

static int launch_rows(const run *R, const double *X, int64_t rs, int64_t qs, int64_t rows,
                       int64_t k, int *tau, int *need, int *maxneed, int beta, double *consts)
{
    dfs_oz_rows_args a = {X, rs, qs, rows, k, tau, need, maxneed, beta, qs == 1, consts};
    const int64_t threads = a.warp_per_row ? rows * 32 : rows;
    return dfs_launch(R->k[K_ROWS], (unsigned)((threads + 255) / 256), 1, 1, 256, 1, R->st, &a);
}

static int launch_split(const run *R, const double *X, int64_t rs, int64_t qs, int64_t r0,
                        int64_t rows, int64_t k, const int *tau, int s, int beta, double *S,
                        int64_t sstride, int64_t srs, int64_t sqs)
{
    if (s <= 0)
        return 0;
    dfs_oz_split_args a = {X, rs, qs, r0, rows, k, tau, s, beta, S, sstride, srs, sqs};
    int64_t blocks = (rows * k + 255) / 256, most = (int64_t)R->sms * 16;
    blocks = blocks < most ? blocks : most;
    return dfs_launch(R->k[K_SPLIT], (unsigned)(blocks > 0 ? blocks : 1), 1, 1, 256, 1, R->st, &a);
}

/* The fields of the finish/direct argument block that describe the call itself: scalars, C,
 * and op(A), op(B) for the direct path. */
static void finish_call_fields(dfs_oz_finish_args *f, const run *R, const dfs_gemm_call *c,
                               const double *A, const double *B, double *C)
{
    const int ta = c->transa != CUBLAS_OP_N, tb = c->transb != CUBLAS_OP_N;
    const int dev_scalars = R->x->pointer_mode == CUBLAS_POINTER_MODE_DEVICE;
    f->k = c->k;
    f->alpha = dev_scalars ? c->alpha : NULL;
    f->beta_p = dev_scalars ? c->beta : NULL;
    f->alpha_v = dev_scalars ? 0 : *c->alpha;
    f->beta_v = dev_scalars ? 0 : *c->beta;
    f->C = C;
    f->ldc = c->ldc;
    f->A = A;
    f->B = B;
    f->ars = ta ? c->lda : 1;
    f->aqs = ta ? 1 : c->lda;
    f->bqs = tb ? c->ldb : 1;
    f->bcs = tb ? 1 : c->ldb;
}

/* Without workspace: every output directly (exact, slow; never native). */
static cublasStatus_t direct_only(const run *R, const dfs_gemm_call *c, const double *A,
                                  const double *B, double *C)
{
    dfs_log_once(DFS_LOG_WARN, "repro-gemm-direct", "repro: no workspace for a DGEMM; its outputs "
                 "are computed directly (exact, slow)");
    dfs_oz_finish_args f;
    memset(&f, 0, sizeof f);
    f.bm = c->m;
    f.bn = c->n;
    finish_call_fields(&f, R, c, A, B, C);
    return dfs_launch(R->k[K_DIRECT], (unsigned)R->sms * 4, 1, 1, 32 * DFS_OZ_DIRECT_WARPS, 1, R->st,
                      &f)
               ? CUBLAS_STATUS_EXECUTION_FAILED
               : CUBLAS_STATUS_SUCCESS;
}

static cublasStatus_t one_gemm(const run *R, const dfs_gemm_call *c, const double *A,
                               const double *B, double *C, size_t budget)
{
    const dfs_oz_gemm_opts *o = R->o;
    const int64_t m = c->m, n = c->n, k = c->k;
    const int ta = c->transa != CUBLAS_OP_N, tb = c->transb != CUBLAS_OP_N;
    /* op(A)(r, q) = A[r * ars + q * aqs]; op(B)(q, col) = B[q * bqs + col * bcs] */
    const int64_t ars = ta ? c->lda : 1, aqs = ta ? 1 : c->lda;
    const int64_t bqs = tb ? c->ldb : 1, bcs = tb ? 1 : c->ldb;
    const int beta_bits = dfs_oz_beta(k > 0 ? k : 1);
    const int dev_scalars = R->x->pointer_mode == CUBLAS_POINTER_MODE_DEVICE;
    layout l;
    int err = 0;

    /* 1. how many slices (the guess: README.md), how large the blocks */
    volatile int *fb = feedback_slot(R->x->device);
    int sa, sb;
    if (o->splits > 0) {
        sa = sb = o->splits;
    } else {
        sa = clamp(fb && fb[0] > 0 ? fb[0] : FIRST_GUESS, 1, o->max_splits);
        sb = clamp(fb && fb[1] > 0 ? fb[1] : FIRST_GUESS, 1, o->max_splits);
    }
    dfs_oz_fit(k > 0 ? k : 1, beta_bits, &sa, &sb);
    if (k == 0)
        sa = sb = 0;
    int64_t b = m > n ? m : n;
    b = b < 65536 ? b : 65536;
    size_t need = 0;
    for (;;) {
        need = carve(0, m, n, k, m < b ? m : b, n < b ? n : b, sa, sb, NULL);
        if (need <= budget || b <= 64)
            break;
        b = (b + 1) / 2;
    }
    if (need > budget) {
        /* even 64 x 64 blocks of slices do not fit (a huge k): every output directly */
        sa = sb = 0;
        need = carve(0, m, n, k, m < b ? m : b, n < b ? n : b, 0, 0, NULL);
    }
    const int64_t bm = m < b ? m : b, bn = n < b ? n : b;
    if (dfs_log_on(DFS_LOG_TRACE))
        dfs_log(DFS_LOG_TRACE, "repro: dgemm %lld x %lld x %lld: %d x %d slices, blocks %lld x %lld, "
                "workspace %zu bytes", (long long)m, (long long)n, (long long)k, sa, sb,
                (long long)bm, (long long)bn, need);
    CUdeviceptr base = dfs_scratch_get(R->x->scratch, need, R->st);
    if (!base)
        return direct_only(R, c, A, B, C);
    carve(base, m, n, k, bm, bn, sa, sb, &l);

    /* 2. per row of op(A), per column of op(B); the needs go back to the host for the next call */
    if (DFS_DRV(cuMemsetD32Async)((CUdeviceptr)(uintptr_t)l.maxneed, 0, 2, R->st) != CUDA_SUCCESS)
        return CUBLAS_STATUS_EXECUTION_FAILED;
    err |= launch_rows(R, A, ars, aqs, m, k, l.tauA, l.needA, l.maxneed, beta_bits, l.consts);
    err |= launch_rows(R, B, bcs, bqs, n, k, l.tauB, l.needB, l.maxneed + 1, beta_bits, NULL);
    if (!err && fb &&
        DFS_DRV(cuMemcpyDtoHAsync)((void *)fb, (CUdeviceptr)(uintptr_t)l.maxneed, 2 * sizeof(int),
                                   R->st) != CUDA_SUCCESS)
        err = 1;
    if (err)
        return CUBLAS_STATUS_EXECUTION_FAILED;

    /* 3. block by block */
    const double one = 1.0, zero = 0.0;
    const double *one_p = dev_scalars ? l.consts : &one, *zero_p = dev_scalars ? l.consts + 1 : &zero;
    for (int64_t c0 = 0; c0 < n; c0 += bn) {
        const int64_t nb = n - c0 < bn ? n - c0 : bn;
        err |= launch_split(R, B, bcs, bqs, c0, nb, k, l.tauB, sb, beta_bits, l.SB, nb * k, k, 1);
        for (int64_t r0 = 0; r0 < m; r0 += bm) {
            const int64_t mb = m - r0 < bm ? m - r0 : bm;
            err |= launch_split(R, A, ars, aqs, r0, mb, k, l.tauA, sa, beta_bits, l.SA, mb * k, 1,
                                mb);
            if (err)
                return CUBLAS_STATUS_EXECUTION_FAILED;
            if (sa > 0 && sb > 0) {
                cublasStatus_t s = DFS_REAL(cublasGemmStridedBatchedEx_64)(
                    R->x->handle, CUBLAS_OP_N, CUBLAS_OP_N, mb, sb * nb, k, one_p, l.SA, CUDA_R_64F,
                    mb, mb * k, l.SB, CUDA_R_64F, k, 0, zero_p, l.P, CUDA_R_64F, mb,
                    mb * sb * nb, sa, CUBLAS_COMPUTE_64F_PEDANTIC, CUBLAS_GEMM_DEFAULT);
                if (s != CUBLAS_STATUS_SUCCESS) {
                    dfs_log_once(DFS_LOG_ERROR, "repro-gemm-cublas",
                                 "repro: a slice product (cuBLAS) failed with status %d", (int)s);
                    return s;
                }
            }
            if (DFS_DRV(cuMemsetD32Async)((CUdeviceptr)(uintptr_t)l.count, 0, 1, R->st) !=
                CUDA_SUCCESS)
                return CUBLAS_STATUS_EXECUTION_FAILED;
            dfs_oz_finish_args f;
            memset(&f, 0, sizeof f);
            f.P = l.P;
            f.bm = mb;
            f.bn = nb;
            f.r0 = r0;
            f.c0 = c0;
            f.sa = sa;
            f.sb = sb;
            f.beta = beta_bits;
            f.exact = o->splits == 0;
            f.fast = o->fast;
            f.fixed_sum = o->fixed_sum;
            f.tauA = l.tauA;
            f.tauB = l.tauB;
            f.needA = l.needA;
            f.needB = l.needB;
            f.list = l.list;
            f.count = l.count;
            finish_call_fields(&f, R, c, A, B, C);
            err |= dfs_launch(R->k[K_FINISH],
                              (unsigned)((mb * nb + DFS_OZ_FINISH_THREADS - 1) / DFS_OZ_FINISH_THREADS),
                              1, 1, DFS_OZ_FINISH_THREADS, 1, R->st, &f);
            err |= dfs_launch(R->k[K_DIRECT], (unsigned)R->sms * 4, 1, 1, 32 * DFS_OZ_DIRECT_WARPS,
                              1, R->st, &f);
            if (err)
                return CUBLAS_STATUS_EXECUTION_FAILED;
        }
    }
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t dfs_oz_dgemm_gpu(const dfs_ctx *x, const dfs_gemm_call *c,
                                const dfs_oz_gemm_opts *o)
{
    run R;
    R.x = x;
    R.o = o;
    R.st = (CUstream)x->stream;
    R.k = dfs_module_kernels(&module);
    R.sms = dfs_sm_count(x->device);
    if (!R.k)
        return DFS_STATUS_DECLINED;
    if (!DFS_REAL(cublasGemmStridedBatchedEx_64) || !DFS_DRV(cuMemsetD32Async) ||
        !DFS_DRV(cuMemcpyDtoHAsync))
        return DFS_STATUS_DECLINED;
    pthread_mutex_lock(&x->scratch->lock);
    cublasStatus_t s = CUBLAS_STATUS_SUCCESS;
    for (int64_t i = 0; i < c->batch && s == CUBLAS_STATUS_SUCCESS; i++)
        s = one_gemm(&R, c, c->A + i * c->strideA, c->B + i * c->strideB, c->C + i * c->strideC,
                     o->workspace);
    pthread_mutex_unlock(&x->scratch->lock);
    if (s == CUBLAS_STATUS_EXECUTION_FAILED)
        dfs_log_once(DFS_LOG_ERROR, "repro-gemm", "repro: a DGEMM kernel failed");
    return s;
}
