/* vec.c — the reproducible engine's DDOT and DGEMV on the GPU: scratch layout and launches of
 * kernels_vec.cu (the algorithm: ../oz/README.md and host.c, its CPU twin).  No host
 * synchronisation, except Ddot with a host result, where cuBLAS blocks too. */
#include "vec.h"

#include "../../core/gpu.h"
#include "../common/xacc.h"
#include "../../core/log.h"
#include "../../core/resolve.h"
#include "../oz/tuning.h"
#include "vec_args.h"

#include <stdint.h>
#include <string.h>

extern const unsigned char dfs_repro_vec_fatbin[];

#define VEC_KERNELS(X)                                                                             \
    X(K_DOT, dfs_oz_dot) X(K_DOT_BLOCK, dfs_oz_dot_block) X(K_DOT_FINAL, dfs_oz_dot_final)        \
    X(K_DOT_SINGLE, dfs_oz_dot_single) X(K_GEMV_N, dfs_oz_gemv_n) X(K_GEMV_T, dfs_oz_gemv_t)       \
    X(K_GEMV_FINAL, dfs_oz_gemv_final) X(K_ZDOT_SINGLE, dfs_oz_zdot_single)                      \
    X(K_ZDOTC_ONE, dfs_oz_zdotc_one) X(K_ZDOTU_ONE, dfs_oz_zdotu_one)                            \
    X(K_ZGEMV_N, dfs_oz_zgemv_n) X(K_ZGEMV_T, dfs_oz_zgemv_t) X(K_ZGEMV_FINAL, dfs_oz_zgemv_final) \
    X(K_DOT_DD, dfs_oz_dot_dd) X(K_ZDOTC_DD, dfs_oz_zdotc_dd) X(K_ZDOTU_DD, dfs_oz_zdotu_dd)
enum { VEC_KERNELS(DFS_KERNEL_ID) K_COUNT };
DFS_MODULE(module, dfs_repro_vec_fatbin, VEC_KERNELS);

static size_t round_up(size_t x, size_t to)
{
    return (x + to - 1) / to * to;
}

/* Scratch of `bytes` followed by `nflags` zeroed flag words; 0 when it cannot be had. */
static char *scratch(const dfs_ctx *x, size_t bytes, size_t nflags, unsigned **flags)
{
    bytes = round_up(bytes, 256);
    CUdeviceptr base = dfs_scratch_get(x->scratch, bytes + round_up(nflags * 4, 256),
                                       (CUstream)x->stream);
    if (!base || !DFS_DRV(cuMemsetD32Async))
        return NULL;
    *flags = (unsigned *)(uintptr_t)(base + bytes);
    if (nflags && DFS_DRV(cuMemsetD32Async)((CUdeviceptr)(uintptr_t)*flags, 0, nflags,
                                            (CUstream)x->stream) != CUDA_SUCCESS)
        return NULL;
    return (char *)(uintptr_t)base;
}

/* No workspace and the result wanted on the host: one block (exact, slow) writes it into pinned
 * host memory the device can write, and the call waits for it, as cuBLAS's host-mode DDOT does. */
static cublasStatus_t dot_to_pinned(CUfunction single, CUstream st, dfs_oz_dot_args *a,
                                    double *result)
{
    double *pinned = NULL;
    if (!DFS_DRV(cuMemHostAlloc) || !DFS_DRV(cuMemFreeHost) || !DFS_DRV(cuStreamSynchronize) ||
        DFS_DRV(cuMemHostAlloc)((void **)&pinned, sizeof(double),
                                CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP) !=
            CUDA_SUCCESS) {
        dfs_log_once(DFS_LOG_ERROR, "repro-dot-scratch", "repro: no memory for a DOT's result");
        return CUBLAS_STATUS_ALLOC_FAILED;
    }
    dfs_log_once(DFS_LOG_WARN, "repro-dot-single", "repro: no workspace for a DOT; it runs in one "
                 "block (exact, slow)");
    a->result = pinned;
    int err = dfs_launch(single, 1, 1, 1, DFS_OZ_DOT_THREADS, 1, st, a);
    err = err || DFS_DRV(cuStreamSynchronize)(st) != CUDA_SUCCESS;
    if (!err)
        *result = *pinned;
    DFS_DRV(cuMemFreeHost)(pinned);
    if (err) {
        dfs_log_once(DFS_LOG_ERROR, "repro-dot", "repro: a DOT kernel failed");
        return CUBLAS_STATUS_EXECUTION_FAILED;
    }
    return CUBLAS_STATUS_SUCCESS;
}

/* Both parts of a complex DOT need the accumulators of the one-pass kernel: without workspace
 * the parts run one after the other. */
#define TWO_PASSES ((cublasStatus_t)0x7d7e)

/* One real DOT: of c itself (zmode 0), or both parts of the complex c in one pass (DFS_OZ_ZC,
 * DFS_OZ_ZU: result [0] and [1]; TWO_PASSES without workspace), or, without workspace, one part
 * of it as a real DOT of 2n terms in one block (vec_args.h's DFS_OZ_Z*_RE/IM), into result (c's
 * pointer mode). */
static cublasStatus_t dot_part(const dfs_ctx *x, const dfs_dot_call *c, int zmode, double *result)
{
    CUstream st = (CUstream)x->stream;
    const int host_result = x->pointer_mode == CUBLAS_POINTER_MODE_HOST;
    if (host_result && dfs_stream_capturing(st))
        return DFS_STATUS_DECLINED; /* needs a synchronisation: cuBLAS fails the same way */
    const CUfunction *k = dfs_module_kernels(&module);
    if (!k)
        return DFS_STATUS_DECLINED;
    /* at least 32 products per thread (a block's flush of its accumulator costs about as much
     * as that: short vectors take fewer blocks), at most one wave; any grid gives the same
     * bits, the sums being exact */
    const int64_t n = zmode ? 2 * c->n : c->n; /* the real terms */
    int64_t blocks = (n + 32 * DFS_OZ_DOT_THREADS - 1) / (32 * DFS_OZ_DOT_THREADS);
    const int64_t most =
        (int64_t)dfs_sm_count(x->device) * dfs_blocks_per_sm(k[K_DOT], DFS_OZ_DOT_THREADS);
    blocks = blocks < most ? blocks : most;
    /* at most 2^28 products a block (its accumulator's additions stay below 2^30: kernels_vec.cu,
     * dfs_oz_dot); a grid-stride loop takes any count of blocks */
    const int64_t fewest = (int64_t)((uint64_t)n >> 28) + 1;
    blocks = blocks > fewest ? blocks : fewest;
    const int parts = zmode == DFS_OZ_ZC || zmode == DFS_OZ_ZU ? 2 : 1;
    /* a real DOT, or both parts of a complex one, in several blocks: double-double first
     * (dfs_oz_dot_dd, dfs_oz_zdot*_dd, its own grid: a few products per thread for short
     * vectors, short serial chains of loads; 32 for longer ones, fewer blocks, measured faster
     * there), the exact kernels only where it leaves the result open */
    const int dd_kernel = zmode == DFS_OZ_ZC ? K_ZDOTC_DD : zmode == DFS_OZ_ZU ? K_ZDOTU_DD
                                                                            : K_DOT_DD;
    int64_t dd_blocks = 0;
    if ((!zmode || parts == 2) && blocks > 1) {
        const int64_t dd_most = (int64_t)dfs_sm_count(x->device) *
                                dfs_blocks_per_sm(k[dd_kernel], DFS_OZ_DOT_THREADS);
        const int64_t per_block = (int64_t)DFS_OZ_DOT_THREADS *
                                  (n <= DFS_OZ_DOT_INLINE_MAX ? DFS_OZ_DOT_DD_PER_THREAD : 32);
        dd_blocks = (n + per_block - 1) / per_block;
        dd_blocks = dd_blocks < dd_most ? dd_blocks : dd_most;
        dd_blocks = dd_blocks > 1 ? dd_blocks : 1;
    }
    pthread_mutex_lock(&x->scratch->lock);
    dfs_oz_dot_args a;
    memset(&a, 0, sizeof a);
    /* the result (host pointer mode) and the blocks' double-double sums, then zeroed: per part
     * the accumulator and the flags (in 32-bit words), and the double-double way's count and
     * open; one block rounds its own accumulators: nothing zeroed, no second kernel */
    unsigned *zeroed = NULL;
    const int one_part = zmode && parts == 1; /* the fallback of TWO_PASSES: one block */
    const size_t res_bytes = round_up(parts * sizeof(double), 256);
    char *base = one_part ? NULL
                          : scratch(x, res_bytes + (size_t)(dd_blocks * parts) *
                                                       DFS_OZ_DOT_SUM_WORDS * sizeof(double),
                                    blocks > 1 ? (size_t)parts * DFS_OZ_DOT_PART_WORDS +
                                                     (dd_blocks ? 2 : 0)
                                               : 0,
                                    &zeroed);
    a.x = c->x;
    a.y = c->y;
    a.incx = c->incx;
    a.incy = c->incy;
    a.n = parts == 2 ? c->n : n; /* the one-pass kernels count complex elements */
    a.zmode = zmode;
    int err;
    double *tmp = NULL;
    if (base) {
        a.acc = (long long *)zeroed;
        a.flags = (unsigned *)(a.acc + DFS_X_WORDS);
        tmp = (double *)base;
        a.result = host_result ? tmp : result;
        const int kernel = zmode == DFS_OZ_ZC   ? K_ZDOTC_ONE
                           : zmode == DFS_OZ_ZU ? K_ZDOTU_ONE
                           : blocks == 1        ? K_DOT_BLOCK
                                                : K_DOT;
        err = 0;
        /* short vectors: an open result computed by dfs_oz_dot_dd's last block, alone; longer
         * ones: by the exact kernels, launched always and returning at once unless *a.open */
        const int exact_kernels = !dd_blocks || n > DFS_OZ_DOT_INLINE_MAX;
        if (dd_blocks) {
            a.sums = (double *)(base + res_bytes);
            a.count = zeroed + (size_t)parts * DFS_OZ_DOT_PART_WORDS;
            a.open = exact_kernels ? a.count + 1 : NULL;
            err = dfs_launch(k[dd_kernel], (unsigned)dd_blocks, 1, 1, DFS_OZ_DOT_THREADS, 1, st,
                             &a);
        }
        if (exact_kernels)
            err |= dfs_launch(k[kernel], (unsigned)blocks, 1, 1, DFS_OZ_DOT_THREADS, 1, st, &a);
        for (int p = 0; p < parts && blocks > 1 && exact_kernels; p++) {
            dfs_oz_dot_args f = a;
            f.acc = dfs_oz_dot_part(zeroed, p);
            f.flags = (unsigned *)(f.acc + DFS_X_WORDS);
            f.result = a.result + p;
            err |= dfs_launch(k[K_DOT_FINAL], 1, 1, 1, 32, 1, st, &f);
        }
    } else if (parts == 2) {
        dfs_scratch_unlock(x->scratch);
        return TWO_PASSES;
    } else if (!host_result) {
        /* no workspace: one block, exact, slow (never native: the promise holds) */
        dfs_log_once(DFS_LOG_WARN, "repro-dot-single", "repro: no workspace for a DOT; it runs "
                     "in one block (exact, slow)");
        a.result = result;
        err = dfs_launch(k[zmode ? K_ZDOT_SINGLE : K_DOT_SINGLE], 1, 1, 1, DFS_OZ_DOT_THREADS, 1,
                         st, &a);
    } else {
        dfs_scratch_unlock(x->scratch);
        return dot_to_pinned(k[zmode ? K_ZDOT_SINGLE : K_DOT_SINGLE], st, &a, result);
    }
    if (!err && host_result)
        err = dfs_result_to_host(result, (CUdeviceptr)(uintptr_t)tmp, parts * sizeof(double), st);
    dfs_scratch_unlock(x->scratch);
    if (err) {
        dfs_log_once(DFS_LOG_ERROR, "repro-dot", "repro: a DOT kernel failed");
        return CUBLAS_STATUS_EXECUTION_FAILED;
    }
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t dfs_oz_ddot_gpu(const dfs_ctx *x, const dfs_dot_call *c)
{
    if (c->type != DFS_C64)
        return dot_part(x, c, 0, c->result);
    /* complex: each part the exact sum of the 2n products that make it, rounded once; both in
     * one pass, or without workspace one after the other */
    cublasStatus_t s = dot_part(x, c, c->conj ? DFS_OZ_ZC : DFS_OZ_ZU, c->result);
    if (s != TWO_PASSES)
        return s;
    s = dot_part(x, c, c->conj ? DFS_OZ_ZC_RE : DFS_OZ_ZU_RE, c->result);
    if (s != CUBLAS_STATUS_SUCCESS)
        return s;
    return dot_part(x, c, c->conj ? DFS_OZ_ZC_IM : DFS_OZ_ZU_IM, c->result + 1);
}

#define GEMV_N_MIN_CHUNK 32

/* A GEMV's first kernel (the real or complex one for its op, `first`), its finish kernel (`final`,
 * a warp per output, final_warps per block), and the doubles it stores per chunk and output
 * (vec_args.h: real DFS_OZ_GEMV_SUMS, complex both parts' sums). */
typedef struct {
    int first, final, final_warps, words;
} gemv_kernels;

/* Fills a (but for the workspace) for the call c: its shape, operands, scalars (the real ones,
 * or the first part of complex ones given on the host) and its chunks. */
static void gemv_args(const dfs_ctx *x, const dfs_gemv_call *c, CUfunction first,
                      dfs_oz_gemv_args *a)
{
    const int dev = x->pointer_mode == CUBLAS_POINTER_MODE_DEVICE, t = c->trans != CUBLAS_OP_N;
    *a = (dfs_oz_gemv_args){
        .A = c->A, .x = c->x, .lda = c->lda, .incx = c->incx, .m = c->m, .n = c->n, .trans = t,
        .len = t ? c->n : c->m, .inner = t ? c->m : c->n, .y = c->y, .incy = c->incy,
        .alpha = dev ? c->alpha : NULL, .beta = dev ? c->beta : NULL,
        .alpha_v = dev ? 0 : *c->alpha, .beta_v = dev ? 0 : *c->beta};
    /* Enough blocks to fill the GPU: cut the inner dimension when the outputs are few, into
     * as many chunks as fit in one wave (a block more would start a second), each at least
     * min_chunk long: a chunk is one thread's serial chain of products for N (a thread per
     * output), a warp's for T (a lane takes every 32nd), so N's chunks are shorter. */
    const int64_t per_block = t ? DFS_OZ_GEMV_THREADS / 32 : DFS_OZ_GEMV_THREADS;
    const int64_t out_blocks = (a->len + per_block - 1) / per_block;
    const int64_t want = (int64_t)dfs_sm_count(x->device) *
                         dfs_blocks_per_sm(first, DFS_OZ_GEMV_THREADS),
                  min_chunk = t ? 256 : GEMV_N_MIN_CHUNK;
    int64_t splits = out_blocks >= want ? 1 : want / out_blocks;
    if (splits > (a->inner + min_chunk - 1) / min_chunk)
        splits = (a->inner + min_chunk - 1) / min_chunk;
    splits = splits < 1 ? 1 : splits > 65535 ? 65535 : splits;
    a->chunk = (a->inner + splits - 1) / splits;
    a->splits = (int)splits;
}

/* The first kernel into the workspace (kn.first < 0: none, A and x not read), then the finish;
 * a: the call's arguments (gemv_args), inside the block `args` that the kernels take (a itself,
 * or the complex block holding it). */
static cublasStatus_t gemv_run(const dfs_ctx *x, const CUfunction *k, gemv_kernels kn,
                               dfs_oz_gemv_args *a, void *args)
{
    CUstream st = (CUstream)x->stream;
    const int64_t per_block = a->trans ? DFS_OZ_GEMV_THREADS / 32 : DFS_OZ_GEMV_THREADS;
    const int64_t out_blocks = (a->len + per_block - 1) / per_block;
    const size_t terms = (size_t)kn.words * (size_t)a->len * sizeof(double);
    pthread_mutex_lock(&x->scratch->lock);
    char *base = kn.first < 0 ? NULL
                              : scratch(x, (size_t)a->splits * terms, (size_t)a->len, &a->flags);
    if (!base && kn.first >= 0 && a->splits > 1) { /* the least workspace: one chunk */
        a->chunk = a->inner;
        a->splits = 1;
        base = scratch(x, terms, (size_t)a->len, &a->flags);
    }
    int err = 0;
    if (base) {
        a->terms = (double *)base;
        err = dfs_launch(k[kn.first], (unsigned)out_blocks, (unsigned)a->splits, 1,
                         DFS_OZ_GEMV_THREADS, 1, st, args);
    } else {
        /* no workspace: each output summed by one warp of the finish (never native) */
        if (kn.first >= 0)
            dfs_log_once(DFS_LOG_WARN, "repro-gemv-scratch", "repro: no workspace for a GEMV; "
                         "each output is computed by one warp (slower)");
        a->terms = NULL;
        a->flags = NULL;
    }
    err |= dfs_launch(k[kn.final], (unsigned)((a->len + kn.final_warps - 1) / kn.final_warps), 1,
                      1, 32 * kn.final_warps, 1, st, args);
    dfs_scratch_unlock(x->scratch);
    if (err) {
        dfs_log_once(DFS_LOG_ERROR, "repro-gemv", "repro: a GEMV kernel failed");
        return CUBLAS_STATUS_EXECUTION_FAILED;
    }
    return CUBLAS_STATUS_SUCCESS;
}

/* Complex GEMV (kernels_zgemv.cuh): each part of each output rounded once; with alpha = 0 given
 * on the host no first kernel (A and x not read). */
static cublasStatus_t zgemv(const dfs_ctx *x, const dfs_gemv_call *c, const CUfunction *k)
{
    dfs_oz_zgemv_args z;
    memset(&z, 0, sizeof z);
    const int first = c->trans == CUBLAS_OP_N ? K_ZGEMV_N : K_ZGEMV_T;
    gemv_args(x, c, k[first], &z.g);
    const int dev = x->pointer_mode == CUBLAS_POINTER_MODE_DEVICE;
    z.alpha_i = dev ? 0 : c->alpha[1];
    z.beta_i = dev ? 0 : c->beta[1];
    z.conj = c->trans == CUBLAS_OP_C;
    const int no_products = !dev && c->alpha[0] == 0 && c->alpha[1] == 0;
    const gemv_kernels kn = {no_products ? -1 : first, K_ZGEMV_FINAL, DFS_OZ_ZFINAL_WARPS,
                             2 * DFS_OZ_GEMV_SUMS};
    return gemv_run(x, k, kn, &z.g, &z);
}

cublasStatus_t dfs_oz_dgemv_gpu(const dfs_ctx *x, const dfs_gemv_call *c)
{
    const CUfunction *k = dfs_module_kernels(&module);
    if (!k)
        return DFS_STATUS_DECLINED;
    if (c->type == DFS_C64)
        return zgemv(x, c, k);
    dfs_oz_gemv_args a;
    const int first = c->trans != CUBLAS_OP_N ? K_GEMV_T : K_GEMV_N;
    gemv_args(x, c, k[first], &a);
    const gemv_kernels kn = {first, K_GEMV_FINAL, DFS_OZ_FINAL_WARPS, DFS_OZ_GEMV_SUMS};
    return gemv_run(x, k, kn, &a, &a);
}
