/* f32_gemm.c — DGEMM by the Ozaki scheme on binary32 products (the ozaki-sgemm engine;
 * f32split.h has the split, host_f32.c the CPU model and the error bound, kernels_f32.cu the
 * kernels):
 *   dfs_f32_rows     per row of op(A) / column of op(B): largest and smallest magnitude;
 *   dfs_f32_split    each block of rows scaled and cut into S binary32 parts (op(B): 2S - 1);
 *   (cuBLAS)         one SGEMM per pair of parts s + t <= S + 1 (3 for S = 2, 6 for S = 3),
 *                    in true binary32 (CUBLAS_COMPUTE_32F_PEDANTIC: no TF32 whatever the
 *                    handle's math mode);
 *   dfs_f32_finish   per output: the partials added in binary64, scaled back, alpha, beta;
 *   dfs_f32_direct   outputs with Inf or NaN operands, or of a row and a column whose ranges
 *                    binary32 cannot carry (f32split.h), in plain binary64.
 * No host synchronisation.  C is computed block by block so that parts and partials stay
 * within the workspace budget; the blocks change no output. */
#include "f32_gemm.h"

#include "../../core/gpu.h"
#include "../../core/log.h"
#include "../../core/resolve.h"
#include "f32split.h"
#include "../oz/call.h"
#include "../oz/plan.h"
#include "args.h"

#include <pthread.h>
#include <stdint.h>
#include <string.h>

extern const unsigned char dfs_sgemm_fatbin[];
DFS_MODULE(module, dfs_sgemm_fatbin, DFS_F32_KERNELS);

/* ---- the outputs computed directly, for the log (read without waiting: a later call sees
 * what an earlier one counted) ---- */

#define MAX_DEVICES 64
static pthread_mutex_t seen_lock = PTHREAD_MUTEX_INITIALIZER;
static volatile unsigned long long *seen; /* pinned, one counter per device */

static volatile unsigned long long *seen_slot(int device)
{
    if (device < 0 || device >= MAX_DEVICES)
        return NULL;
    pthread_mutex_lock(&seen_lock);
    if (!seen)
        seen = dfs_pinned_zeroed(MAX_DEVICES * sizeof(unsigned long long));
    volatile unsigned long long *s = seen ? seen + device : NULL;
    pthread_mutex_unlock(&seen_lock);
    return s;
}

/* ---- workspace ---- */

typedef struct {
    float *consts; /* 1.0f, 0.0f */
    unsigned *count;
    unsigned long long *ndirect;
    unsigned long long *hiA, *loA, *hiB, *loB;
    float *WA, *WB, *P;
    uint32_t *list;
} layout;

static int npairs(int S)
{
    return S * (S + 1) / 2;
}

/* Bytes for blocks of bm x bn with S splits; fills l from base when base != 0. */
static size_t carve(CUdeviceptr base, int64_t m, int64_t n, int64_t k, int64_t bm, int64_t bn,
                    int S, layout *l)
{
    size_t off = 0;
    l->consts = dfs_oz_take(base, &off, 2 * sizeof(float));
    l->count = dfs_oz_take(base, &off, sizeof(unsigned));
    l->ndirect = dfs_oz_take(base, &off, sizeof(unsigned long long));
    /* hi and lo of A then B, adjacent so that one memset each clears them */
    l->hiA = dfs_oz_take(base, &off, (size_t)(m + n) * sizeof(unsigned long long));
    l->hiB = l->hiA ? l->hiA + m : NULL;
    l->loA = dfs_oz_take(base, &off, (size_t)(m + n) * sizeof(unsigned long long));
    l->loB = l->loA ? l->loA + m : NULL;
    l->WA = dfs_oz_take(base, &off, (size_t)S * bm * k * sizeof(float));
    l->WB = dfs_oz_take(base, &off, (size_t)(2 * S - 1) * bn * k * sizeof(float));
    l->P = dfs_oz_take(base, &off, (size_t)npairs(S) * bm * bn * sizeof(float));
    l->list = dfs_oz_take(base, &off, (size_t)(bm * bn) * sizeof(uint32_t));
    return off;
}

/* The blocks (dfs_oz_plan_blocks) at the least cost: the SGEMMs (thin blocks slower:
 * dfs_oz_thin_factor) and the split passes at tuning.h's flops per byte, op(A)'s redone for each
 * column block unless one row block holds it. */
typedef struct {
    int64_t m, n, k;
    int S;
    const dfs_oz_tuning *t;
} plan_in;

static int eval_block(const void *ctx, int64_t bm, int64_t bn, size_t *need, double *cost)
{
    const plan_in *p = ctx;
    layout dry;
    *need = carve(0, p->m, p->n, p->k, bm, bn, p->S, &dry);
    const double passes_a = bm == p->m ? 1.0 : (double)((p->n + bn - 1) / bn);
    const double gemm = 2.0 * npairs(p->S) * (double)p->m * (double)p->n * (double)p->k *
                        dfs_oz_thin_factor(p->t->thin, bm, bn);
    const double bytes = (8.0 + 4.0 * p->S) * (double)p->k * (double)p->m * passes_a +
                         (8.0 + 4.0 * (2 * p->S - 1)) * (double)p->k * (double)p->n;
    *cost = gemm + p->t->f32_flops_per_byte * bytes;
    return 1;
}

typedef struct {
    const dfs_ctx *x;
    const CUfunction *k;
    CUstream st;
    int sms;
    int S, p, h, wide;
    size_t workspace;
} run;

static int launch_rows(const run *R, const double *X, int64_t rs, int64_t qs, int64_t rows,
                       int64_t k, unsigned long long *hi, unsigned long long *lo, float *consts,
                       const double *alpha_dev)
{
    dfs_f32_rows_args a = {X, rs, qs, rows, k, hi, lo, qs == 1 && rs != 1, consts, alpha_dev};
    const int64_t gx = a.warp_per_row ? (rows + 7) / 8 : (rows + 31) / 32;
    const int64_t gy = (k + 511) / 512;
    return dfs_launch(R->k[DFS_F32_K_ROWS], (unsigned)gx, (unsigned)(gy < 65535 ? gy : 65535), 1,
                      DFS_F32_THREADS, 1, R->st, &a);
}

/* The parts of rows r0 .. r0+rows-1 of an operand (a: its fields but the rows). */
static int launch_split(const run *R, dfs_f32_split_args *a, int64_t r0, int64_t rows)
{
    a->r0 = r0;
    a->rows = rows;
    a->pstride = rows * a->k;
    const int64_t inner = a->row_inner ? rows : a->k, outer = a->row_inner ? a->k : rows;
    const int64_t gy = (outer + 7) / 8;
    return dfs_launch(R->k[DFS_F32_K_SPLIT], (unsigned)((inner + 31) / 32),
                      (unsigned)(gy < 65535 ? gy : 65535), 1, DFS_F32_THREADS, 1, R->st, a);
}

static cublasStatus_t one_gemm(const run *R, const dfs_gemm_call *c, const double *A,
                               const double *B, double *C)
{
    const int64_t m = c->m, n = c->n, k = c->k;
    const int S = R->S, ta = c->transa != CUBLAS_OP_N, tb = c->transb != CUBLAS_OP_N;
    /* op(A)(r, q) = A[r * ars + q * aqs]; op(B)(q, col) = B[q * bqs + col * bcs] */
    const int64_t ars = ta ? c->lda : 1, aqs = ta ? 1 : c->lda;
    const int64_t bqs = tb ? c->ldb : 1, bcs = tb ? 1 : c->ldb;
    const int dev = R->x->pointer_mode == CUBLAS_POINTER_MODE_DEVICE;
    int64_t bm = 0, bn = 0;
    const plan_in pin = {m, n, k, S, dfs_oz_tuning_ctx(R->x)};
    const size_t need = dfs_oz_plan_blocks(m, n, 1, R->workspace, eval_block, &pin, &bm, &bn);
    if (dfs_log_on(DFS_LOG_TRACE))
        dfs_log(DFS_LOG_TRACE, "ozaki-sgemm: dgemm %lld x %lld x %lld on binary32 products: %d "
                "splits of %d bits, blocks %lld x %lld, workspace %zu bytes", (long long)m,
                (long long)n, (long long)k, S, R->p, (long long)bm, (long long)bn, need);
    if (!need)
        return DFS_STATUS_DECLINED;
    CUdeviceptr base = dfs_scratch_get(R->x->scratch, need, R->st);
    if (!base)
        return DFS_STATUS_DECLINED;
    layout l;
    carve(base, m, n, k, bm, bn, S, &l);

    /* 1. rows and columns (hi zeroed, lo all ones), the counter of direct outputs */
    int err = 0;
    err |= DFS_DRV(cuMemsetD32Async)((CUdeviceptr)(uintptr_t)l.hiA, 0, (size_t)(m + n) * 2,
                                     R->st) != CUDA_SUCCESS;
    err |= DFS_DRV(cuMemsetD32Async)((CUdeviceptr)(uintptr_t)l.loA, 0xffffffffu,
                                     (size_t)(m + n) * 2, R->st) != CUDA_SUCCESS;
    err |= DFS_DRV(cuMemsetD32Async)((CUdeviceptr)(uintptr_t)l.ndirect, 0, 2, R->st) !=
           CUDA_SUCCESS;
    const double *alpha_dev = dev ? c->alpha : NULL;
    err |= launch_rows(R, A, ars, aqs, m, k, l.hiA, l.loA, l.consts, alpha_dev);
    err |= launch_rows(R, B, bcs, bqs, n, k, l.hiB, l.loB, NULL, alpha_dev);
    if (err)
        return CUBLAS_STATUS_EXECUTION_FAILED;

    /* op(A)'s rows are X's contiguous dimension when A is not transposed; op(B)'s columns when
     * B is */
    dfs_f32_split_args sa = {A, c->lda, !ta, 0, 0, k, l.hiA, S, R->p, R->h, 0, l.WA, 0,
                             alpha_dev};
    dfs_f32_split_args sb = {B, c->ldb, tb, 0, 0, k, l.hiB, S, R->p, R->h, 1, l.WB, 0,
                             alpha_dev};
    const dfs_f32_out out = {c->alpha, c->beta, dev ? 0.0 : *c->alpha, dev ? 0.0 : *c->beta,
                             dev, C, c->ldc};
    dfs_f32_finish_args f = {l.P, 0, npairs(S), R->h, R->wide, 0, 0, 0, 0, l.hiA, l.loA,
                             l.hiB, l.loB, l.list, l.count, l.ndirect, out};
    dfs_f32_direct_args d = {A, B, ars, aqs, bqs, bcs, k, 0, 0, l.list, l.count, out};
    const float one = 1.0f, zero = 0.0f;
    const void *one_p = dev ? (const void *)l.consts : &one;
    const void *zero_p = dev ? (const void *)(l.consts + 1) : &zero;
    if (bm == m)
        err |= launch_split(R, &sa, 0, m);
    for (int64_t c0 = 0; c0 < n && !err; c0 += bn) {
        const int64_t nb = n - c0 < bn ? n - c0 : bn;
        err |= launch_split(R, &sb, c0, nb);
        for (int64_t r0 = 0; r0 < m && !err; r0 += bm) {
            const int64_t mb = m - r0 < bm ? m - r0 : bm;
            if (bm != m)
                err |= launch_split(R, &sa, r0, mb);
            if (err)
                break;
            /* P_(s,t) = part s of op(A) x part t of op(B): slices while s + t <= S, then the
             * binary32 rests of op(B) (after t - 1 slices), A's last part with R_1 */
            int pair = 0;
            cublasStatus_t s = CUBLAS_STATUS_SUCCESS;
            for (int i = 1; i <= S && s == CUBLAS_STATUS_SUCCESS; i++)
                for (int j = 1; i + j <= S + 1 && s == CUBLAS_STATUS_SUCCESS; j++, pair++) {
                    const int bpart = j < S + 1 - i ? j - 1 : S - 1 + j - 1;
                    const float *pa = l.WA + (size_t)(i - 1) * (size_t)(mb * k);
                    const float *pb = l.WB + (size_t)bpart * (size_t)(nb * k);
                    s = DFS_REAL(cublasGemmEx_64)(
                        R->x->handle, ta ? CUBLAS_OP_T : CUBLAS_OP_N,
                        tb ? CUBLAS_OP_T : CUBLAS_OP_N, mb, nb, k, one_p, pa, CUDA_R_32F,
                        ta ? k : mb, pb, CUDA_R_32F, tb ? nb : k, zero_p,
                        l.P + (size_t)pair * (size_t)(mb * nb), CUDA_R_32F, mb,
                        CUBLAS_COMPUTE_32F_PEDANTIC, CUBLAS_GEMM_DEFAULT);
                }
            if (s != CUBLAS_STATUS_SUCCESS) {
                dfs_log_once(DFS_LOG_ERROR, "f32-gemm-cublas", "ozaki-sgemm: an SGEMM (cuBLAS) "
                             "failed with status %d", (int)s);
                return s;
            }
            if (DFS_DRV(cuMemsetD32Async)((CUdeviceptr)(uintptr_t)l.count, 0, 1, R->st) !=
                CUDA_SUCCESS)
                return CUBLAS_STATUS_EXECUTION_FAILED;
            f.pstride = mb * nb;
            f.bm = mb;
            f.bn = nb;
            f.r0 = d.r0 = r0;
            f.c0 = d.c0 = c0;
            err |= dfs_launch(R->k[DFS_F32_K_FINISH],
                              (unsigned)((mb + DFS_F32_THREADS - 1) / DFS_F32_THREADS),
                              (unsigned)(nb < 65535 ? nb : 65535), 1, DFS_F32_THREADS, 1, R->st,
                              &f);
            err |= dfs_launch(R->k[DFS_F32_K_DIRECT], (unsigned)R->sms * 4, 1, 1,
                              32 * DFS_F32_DIRECT_WARPS, 1, R->st, &d);
        }
    }
    if (err)
        return CUBLAS_STATUS_EXECUTION_FAILED;
    volatile unsigned long long *slot = seen_slot(R->x->device);
    if (slot && *slot)
        dfs_log_once(DFS_LOG_INFO, "f32-direct", "ozaki-sgemm: %llu outputs of a DGEMM had Inf "
                     "or NaN operands, or rows and columns wider in range than binary32 "
                     "products carry; they were computed in plain binary64", *slot);
    if (slot && DFS_DRV(cuMemcpyDtoHAsync)((void *)slot, (CUdeviceptr)(uintptr_t)l.ndirect,
                                           sizeof(unsigned long long), R->st) != CUDA_SUCCESS)
        return CUBLAS_STATUS_EXECUTION_FAILED;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t dfs_f32_dgemm_gpu(const dfs_ctx *x, const dfs_gemm_call *c, int splits,
                                 size_t workspace)
{
    if (c->k > DFS_F32_MAX_K) { /* the slices could not be exact */
        dfs_log_once(DFS_LOG_INFO, "f32-k", "ozaki-sgemm: a DGEMM with k above 2^22 runs "
                     "natively");
        return DFS_STATUS_DECLINED;
    }
    run R;
    R.x = x;
    R.st = (CUstream)x->stream;
    R.k = dfs_module_kernels(&module);
    R.sms = dfs_sm_count(x->device);
    R.S = splits < 2 ? 2 : splits > DFS_F32_MAX_SPLITS ? DFS_F32_MAX_SPLITS : splits;
    R.p = dfs_f32_slice_bits(c->k);
    R.h = dfs_f32_headroom(c->k);
    R.wide = dfs_f32_wide_limit(c->k);
    R.workspace = workspace;
    if (!R.k || !DFS_REAL(cublasGemmEx_64) || !DFS_DRV(cuMemsetD32Async) ||
        !DFS_DRV(cuMemcpyDtoHAsync))
        return DFS_STATUS_DECLINED;
    pthread_mutex_lock(&x->scratch->lock);
    cublasStatus_t s = CUBLAS_STATUS_SUCCESS;
    for (int64_t i = 0; i < c->batch && s == CUBLAS_STATUS_SUCCESS; i++) {
        s = one_gemm(&R, c, c->A + i * c->strideA, c->B + i * c->strideB, c->C + i * c->strideC);
        if (s == DFS_STATUS_DECLINED && i > 0) /* never leave a batch half done */
            s = CUBLAS_STATUS_EXECUTION_FAILED;
    }
    dfs_scratch_unlock(x->scratch);
    if (s == CUBLAS_STATUS_EXECUTION_FAILED)
        dfs_log_once(DFS_LOG_ERROR, "f32-gemm", "ozaki-sgemm: a DGEMM kernel failed");
    return s;
}
