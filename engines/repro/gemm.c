/* gemm.c — the reproducible engine's DGEMM on binary64 slices: kernels_gemm.cu around cuBLAS's
 * exact slice products, with the rows pass and the direct path of ../oz/call.h (../oz/README.md
 * for the scheme; host.c is the CPU twin).
 *
 * No host synchronisation.  What the data need is known only on the device, so what is taken is
 * a guess from the previous call on this device (its results copied back asynchronously into
 * pinned memory): the slices per operand (the largest need seen, 4 at first, at most
 * max_splits), and the pairs of slices multiplied, i + j <= d, with d from the outputs that the
 * previous call could not decide (../oz/README.md).  An output that the pairs left out could change
 * is computed directly and exactly (dfs_oz_direct): a wrong guess costs time, never bits.  C is
 * computed block by block so that the slices and partial products stay within the workspace
 * budget. */
#include "gemm.h"

#include "../../core/gpu.h"
#include "../../core/log.h"
#include "../../core/resolve.h"
#include "../oz/call.h"
#include "../oz/feedback.h"
#include "../oz/steps.h"
#include "gemm_args.h"

#include <stdint.h>
#include <string.h>

extern const unsigned char dfs_repro_gemm_fatbin[];
DFS_MODULE(module, dfs_repro_gemm_fatbin, DFS_REPRO_GEMM_KERNELS);
enum { DFS_REPRO_GEMM_KERNELS(DFS_KERNEL_ID) DFS_REPRO_K_COUNT };

static int clamp(int v, int lo, int hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* ---- workspace ---- */

typedef struct {
    dfs_oz_call_ws c;
    double *SA, *SB, *P;
    uint32_t *list;
} layout;

/* Bytes for blocks of bm x bn with sa, sb slices and `pairs` slice products; fills l from base
 * when base != 0. */
static size_t carve(CUdeviceptr base, int64_t m, int64_t n, int64_t k, int64_t bm, int64_t bn,
                    int sa, int sb, int pairs, layout *l)
{
    size_t off = dfs_oz_carve_call(base, m, n, 0, 0, &l->c);
    l->SA = dfs_oz_take(base, &off, (size_t)sa * bm * k * sizeof(double));
    l->SB = dfs_oz_take(base, &off, (size_t)sb * bn * k * sizeof(double));
    l->P = dfs_oz_take(base, &off, (size_t)pairs * bm * bn * sizeof(double));
    l->list = dfs_oz_take(base, &off, (size_t)(bm * bn) * sizeof(uint32_t));
    return off;
}

/* ---- one product C = alpha op(A) op(B) + beta C ---- */

typedef struct {
    const dfs_ctx *x;
    const dfs_oz_gemm_opts *o;
    const CUfunction *k;  /* kernels_gemm.cu's */
    const CUfunction *oz; /* the shared ones (rows, direct) */
    CUstream st;
    int sms;
} run;

static int launch_split(const run *R, const double *X, int64_t rs, int64_t qs, int64_t r0,
                        int64_t rows, int64_t k, const int *tau, int s, int beta, double *S,
                        int64_t sstride, int64_t srs, int64_t sqs)
{
    if (s <= 0)
        return 0;
    dfs_oz_split_args a = {X, rs, qs, r0, rows, k, tau, s, beta, S, sstride, srs, sqs};
    int64_t blocks = (rows * k + 255) / 256, most = (int64_t)R->sms * 16;
    blocks = blocks < most ? blocks : most;
    return dfs_launch(R->k[DFS_REPRO_K_SPLIT], (unsigned)(blocks > 0 ? blocks : 1), 1, 1, 256, 1,
                      R->st, &a);
}

/* Without workspace: every output directly (exact, slow; never native). */
static cublasStatus_t direct_only(const run *R, const dfs_gemm_call *c, const double *A,
                                  const double *B, double *C)
{
    dfs_log_once(DFS_LOG_WARN, "repro-gemm-direct", "repro: no workspace for a DGEMM; its outputs "
                 "are computed directly (exact, slow)");
    return dfs_oz_launch_direct_all(R->oz, R->st, R->sms, R->x, c, A, B, C)
               ? CUBLAS_STATUS_EXECUTION_FAILED
               : CUBLAS_STATUS_SUCCESS;
}

/* The slice products of one block: P_i = SA_i * (SB_0 .. SB_{J(i)-1}) for i < sa, one strided
 * batched cuBLAS call per run of slices i with the same J(i) (one call for all pairs). */
static cublasStatus_t products(const run *R, const layout *l, const int64_t *poff, int64_t mb,
                               int64_t nb, int64_t k, int sa, int sb, int d, const double *one,
                               const double *zero)
{
    for (int i = 0; i < sa;) {
        const int J = dfs_oz_cols(sb, d, i);
        int i1 = i + 1;
        while (i1 < sa && dfs_oz_cols(sb, d, i1) == J)
            i1++;
        if (J > 0) {
            cublasStatus_t s = DFS_REAL(cublasGemmStridedBatchedEx_64)(
                R->x->handle, CUBLAS_OP_N, CUBLAS_OP_N, mb, J * nb, k, one, l->SA + i * mb * k,
                CUDA_R_64F, mb, mb * k, l->SB, CUDA_R_64F, k, 0, zero, l->P + poff[i], CUDA_R_64F,
                mb, mb * J * nb, i1 - i, CUBLAS_COMPUTE_64F_PEDANTIC, CUBLAS_GEMM_DEFAULT);
            if (s != CUBLAS_STATUS_SUCCESS) {
                dfs_log_once(DFS_LOG_ERROR, "repro-gemm-cublas",
                             "repro: a slice product (cuBLAS) failed with status %d", (int)s);
                return s;
            }
        }
        i = i1;
    }
    return CUBLAS_STATUS_SUCCESS;
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
    const int verify = o->splits == 0;
    layout l, dry; /* dry: carve() only counting */
    int err = 0;

    /* 1. how many slices and pairs (the guess: README.md), how large the blocks */
    volatile dfs_oz_fb_dev *fb = dfs_oz_fb_slot(DFS_OZ_FB_PAIRS, R->x->device);
    unsigned long long seq = 0;
    int sa, sb, d;
    if (o->splits > 0) {
        sa = sb = o->splits;
    } else {
        const int first = dfs_oz_tuning_ctx(R->x)->first_slices;
        sa = clamp(fb && fb->need[0] > 0 ? fb->need[0] : first, 1, o->max_splits);
        sb = clamp(fb && fb->need[1] > 0 ? fb->need[1] : first, 1, o->max_splits);
    }
    dfs_oz_fit(k > 0 ? k : 1, beta_bits, &sa, &sb);
    if (verify) {
        /* the pairs i + j <= d: (d + 1) beta bits, 53 + log2 k + 16 on a device's first call
         * (feedback.h); more slices than the pairs use are not made */
        const int bits = dfs_oz_fb_choose(DFS_OZ_FB_PAIRS, R->x->device,
                                          53 + dfs_oz_ceil_log2(k > 0 ? k : 1) + 16, &seq);
        d = (bits + beta_bits - 1) / beta_bits - 1;
        sa = sa < d + 1 ? sa : d + 1;
        sb = sb < d + 1 ? sb : d + 1;
    } else {
        d = o->fast ? (sa > sb ? sa : sb) - 1 : sa + sb - 2;
    }
    d = clamp(d, 0, sa + sb - 2);
    if (verify)
        dfs_oz_fb_note(DFS_OZ_FB_PAIRS, R->x->device, seq, m * n, (d + 1) * beta_bits, beta_bits);
    if (k == 0)
        sa = sb = 0;
    int64_t poff[DFS_OZ_MAX_SLICES];
    int pairs = 0;
    for (int i = 0; i < sa; i++) {
        poff[i] = pairs; /* in units of one block's P_ij, scaled below */
        pairs += dfs_oz_cols(sb, d, i);
    }
    /* blocks of bm x bn: the whole of C if it fits, else the larger side halved until it does */
    int64_t bm = m < 65536 ? m : 65536, bn = n < 65536 ? n : 65536;
    size_t need = 0;
    for (;;) {
        need = carve(0, m, n, k, bm, bn, sa, sb, pairs, &dry);
        if (need <= budget || (bm <= 64 && bn <= 64))
            break;
        if (bm >= bn)
            bm = (bm + 1) / 2;
        else
            bn = (bn + 1) / 2;
    }
    if (need > budget) {
        /* even 64 x 64 blocks of slices do not fit (a huge k): every output directly */
        sa = sb = pairs = 0;
        need = carve(0, m, n, k, bm, bn, 0, 0, 0, &dry);
    }
    if (dfs_log_on(DFS_LOG_TRACE))
        dfs_log(DFS_LOG_TRACE, "repro: dgemm %lld x %lld x %lld: %d x %d slices, %d pairs (i + j "
                "<= %d), blocks %lld x %lld, workspace %zu bytes", (long long)m, (long long)n,
                (long long)k, sa, sb, pairs, d, (long long)bm, (long long)bn, need);
    CUdeviceptr base = dfs_scratch_get(R->x->scratch, need, R->st);
    if (!base)
        return direct_only(R, c, A, B, C);
    carve(base, m, n, k, bm, bn, sa, sb, pairs, &l);

    /* 2. per row of op(A), per column of op(B); the needs go back to the host for the next call */
    if (dfs_oz_zero_counters(&l.c, R->st))
        return CUBLAS_STATUS_EXECUTION_FAILED;
    const double *alpha_dev = dev_scalars ? c->alpha : NULL;
    const dfs_oz_rows_args rb = dfs_oz_rows_of(B, bcs, bqs, n, k, l.c.tauB, l.c.needB, l.c.nrmB,
                                               NULL, l.c.maxneed + 1, beta_bits, NULL, alpha_dev,
                                               NULL, 0);
    err |= dfs_oz_launch_rows(R->oz, R->st,
                              dfs_oz_rows_of(A, ars, aqs, m, k, l.c.tauA, l.c.needA, l.c.nrmA,
                                             NULL, l.c.maxneed, beta_bits, l.c.consts, alpha_dev,
                                             NULL, 0),
                              &rb);
    if (!err && fb &&
        DFS_DRV(cuMemcpyDtoHAsync)((void *)fb->need, (CUdeviceptr)(uintptr_t)l.c.maxneed,
                                   2 * sizeof(int), R->st) != CUDA_SUCCESS)
        err = 1;
    if (err)
        return CUBLAS_STATUS_EXECUTION_FAILED;

    /* 3. block by block */
    const double one = 1.0, zero = 0.0;
    const double *one_p = dev_scalars ? l.c.consts : &one,
                 *zero_p = dev_scalars ? l.c.consts + 1 : &zero;
    for (int64_t c0 = 0; c0 < n; c0 += bn) {
        const int64_t nb = n - c0 < bn ? n - c0 : bn;
        err |= launch_split(R, B, bcs, bqs, c0, nb, k, l.c.tauB, sb, beta_bits, l.SB, nb * k, k, 1);
        for (int64_t r0 = 0; r0 < m; r0 += bm) {
            const int64_t mb = m - r0 < bm ? m - r0 : bm;
            err |= launch_split(R, A, ars, aqs, r0, mb, k, l.c.tauA, sa, beta_bits, l.SA, mb * k, 1,
                                mb);
            if (err)
                return CUBLAS_STATUS_EXECUTION_FAILED;
            dfs_oz_finish_args f;
            memset(&f, 0, sizeof f);
            for (int i = 0; i < sa; i++)
                f.poff[i] = poff[i] * mb * nb;
            cublasStatus_t s = products(R, &l, f.poff, mb, nb, k, sa, sb, d, one_p, zero_p);
            if (s != CUBLAS_STATUS_SUCCESS)
                return s;
            if (dfs_oz_zero_count(&l.c, !r0 && !c0, R->st))
                return CUBLAS_STATUS_EXECUTION_FAILED;
            f.P = l.P;
            f.bm = mb;
            f.bn = nb;
            f.r0 = r0;
            f.c0 = c0;
            f.sa = sa;
            f.sb = sb;
            f.d = d;
            f.beta = beta_bits;
            f.verify = verify;
            f.fixed_sum = o->fixed_sum;
            dfs_oz_finish_ws_fields(&f, &l.c, l.list, verify, seq);
            dfs_oz_finish_call_fields(&f, R->x, c, A, B, C);
            err |= dfs_launch(
                R->k[DFS_REPRO_K_FINISH],
                (unsigned)((mb * nb + DFS_OZ_FINISH_THREADS - 1) / DFS_OZ_FINISH_THREADS), 1, 1,
                DFS_OZ_FINISH_THREADS, 1, R->st, &f);
            err |= dfs_launch(R->oz[DFS_OZ_K_DIRECT], (unsigned)R->sms * 4, 1, 1,
                              32 * DFS_OZ_DIRECT_WARPS, 1, R->st, &f);
            if (err)
                return CUBLAS_STATUS_EXECUTION_FAILED;
        }
    }
    /* the counters (and the call's number) back to the host for the next call's d */
    if (verify && fb &&
        DFS_DRV(cuMemcpyDtoHAsync)((void *)fb->stats, (CUdeviceptr)(uintptr_t)l.c.stats,
                                   4 * sizeof(unsigned long long), R->st) != CUDA_SUCCESS)
        return CUBLAS_STATUS_EXECUTION_FAILED;
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
    R.oz = dfs_oz_kernels();
    R.sms = dfs_sm_count(x->device);
    if (!R.k || !R.oz)
        return DFS_STATUS_DECLINED;
    if (!DFS_REAL(cublasGemmStridedBatchedEx_64) || !DFS_DRV(cuMemsetD32Async) ||
        !DFS_DRV(cuMemcpyDtoHAsync))
        return DFS_STATUS_DECLINED;
    pthread_mutex_lock(&x->scratch->lock);
    cublasStatus_t s = CUBLAS_STATUS_SUCCESS;
    for (int64_t i = 0; i < c->batch && s == CUBLAS_STATUS_SUCCESS; i++)
        s = one_gemm(&R, c, c->A + i * c->strideA, c->B + i * c->strideB, c->C + i * c->strideC,
                     o->workspace);
    dfs_scratch_unlock(x->scratch);
    if (s == CUBLAS_STATUS_EXECUTION_FAILED)
        dfs_log_once(DFS_LOG_ERROR, "repro-gemm", "repro: a DGEMM kernel failed");
    return s;
}
