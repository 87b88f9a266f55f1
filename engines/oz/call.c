/* call.c — what every Ozaki-family DGEMM on the GPU does per call (call.h): the shared kernels'
 * module, the call's workspace, the rows pass, the finish block's fields, the direct path. */
#include "call.h"

#include "../../core/resolve.h"

#include <string.h>

extern const unsigned char dfs_oz_fatbin[];
DFS_MODULE(module, dfs_oz_fatbin, DFS_OZ_KERNELS);

const CUfunction *dfs_oz_kernels(void)
{
    return dfs_module_kernels(&module);
}

size_t dfs_oz_carve_call(CUdeviceptr base, int64_t m, int64_t n, int ss, size_t extra,
                         dfs_oz_call_ws *w)
{
    size_t off = 0;
    w->consts = dfs_oz_take(base, &off, 4 * sizeof(double));
    const size_t first = off;
    w->maxneed = dfs_oz_take(base, &off, 2 * sizeof(int));
    w->count = dfs_oz_take(base, &off, sizeof(unsigned));
    w->stats = dfs_oz_take(base, &off, 4 * sizeof(unsigned long long));
    w->extra = extra ? dfs_oz_take(base, &off, extra) : NULL;
    w->zero_words = (off - first) / 4;
    return dfs_oz_carve_rows(base, off, m, n, ss, w);
}

int dfs_oz_zero_counters(const dfs_oz_call_ws *w, CUstream st)
{
    return DFS_DRV(cuMemsetD32Async)((CUdeviceptr)(uintptr_t)w->maxneed, 0, w->zero_words, st) !=
           CUDA_SUCCESS;
}

int dfs_oz_zero_count(const dfs_oz_call_ws *w, int first_block, CUstream st)
{
    return !first_block &&
           DFS_DRV(cuMemsetD32Async)((CUdeviceptr)(uintptr_t)w->count, 0, 1, st) != CUDA_SUCCESS;
}

size_t dfs_oz_carve_rows(CUdeviceptr base, size_t off, int64_t m, int64_t n, int ss,
                         dfs_oz_call_ws *w)
{
    w->tauA = dfs_oz_take(base, &off, (size_t)m * sizeof(int));
    w->needA = dfs_oz_take(base, &off, (size_t)m * sizeof(int));
    w->tauB = dfs_oz_take(base, &off, (size_t)n * sizeof(int));
    w->needB = dfs_oz_take(base, &off, (size_t)n * sizeof(int));
    w->nrmA = dfs_oz_take(base, &off, (size_t)m * sizeof(double));
    w->nrmB = dfs_oz_take(base, &off, (size_t)n * sizeof(double));
    w->ssA = ss ? dfs_oz_take(base, &off, (size_t)m * sizeof(double)) : NULL;
    w->ssB = ss ? dfs_oz_take(base, &off, (size_t)n * sizeof(double)) : NULL;
    return off;
}

dfs_oz_rows_args dfs_oz_rows_of(const double *X, int64_t rs, int64_t qs, int64_t rows, int64_t k,
                                int *tau, int *need, double *nrm, double *ss, int *maxneed,
                                int beta, double *consts, const double *alpha_dev,
                                const signed char *kcls, int group)
{
    dfs_oz_rows_args a = {X,   rs,   qs,   rows,   k,         tau,  need, maxneed,
                          nrm, ss,   beta, 0,      consts,   alpha_dev, kcls, group, NULL};
    return a;
}

/* Blocks of `threads` for a pass: a warp per row, or DFS_OZ_ROWS_PER_BLOCK rows per block of
 * 32 times as many threads (kernels_rows.cuh; host_common.h's row_of_gpu follows the order). */
static int64_t rows_blocks(dfs_oz_rows_args *a, int64_t threads)
{
    a->warp_per_row = a->qs == 1;
    const int64_t per = DFS_OZ_ROWS_PER_BLOCK;
    return a->warp_per_row ? (a->rows * 32 + threads - 1) / threads : (a->rows + per - 1) / per;
}

int dfs_oz_launch_rows(const CUfunction *kern, CUstream st, dfs_oz_rows_args a,
                       const dfs_oz_rows_args *b)
{
    dfs_oz_rows_pair p;
    memset(&p, 0, sizeof p);
    p.a = a;
    /* a pass alone with a warp per row: blocks of 256 threads; otherwise, and for both passes
     * of a pair, the strided layout's 32 DFS_OZ_ROWS_PER_BLOCK threads (a warp per row takes
     * any whole number of warps) */
    const int64_t full = 32 * DFS_OZ_ROWS_PER_BLOCK;
    const int64_t threads = b || a.qs != 1 ? full : 256;
    int64_t blocks = rows_blocks(&p.a, threads);
    p.a_blocks = (unsigned)blocks;
    if (b) {
        p.b = *b;
        blocks += rows_blocks(&p.b, threads);
    }
    if (blocks <= 0)
        return 0;
    return dfs_launch(kern[DFS_OZ_K_ROWS], (unsigned)blocks, 1, 1, (unsigned)threads, 1, st, &p);
}

void dfs_oz_finish_call_fields(dfs_oz_finish_args *f, const dfs_ctx *x, const dfs_gemm_call *c,
                               const double *A, const double *B, double *C)
{
    const int ta = c->transa != CUBLAS_OP_N, tb = c->transb != CUBLAS_OP_N;
    const int dev_scalars = x->pointer_mode == CUBLAS_POINTER_MODE_DEVICE;
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

void dfs_oz_finish_ws_fields(dfs_oz_finish_args *f, const dfs_oz_call_ws *w, uint32_t *list,
                             int verify, unsigned long long seq)
{
    f->tauA = w->tauA;
    f->tauB = w->tauB;
    f->needA = w->needA;
    f->needB = w->needB;
    f->nrmA = w->nrmA;
    f->nrmB = w->nrmB;
    f->stats = verify ? w->stats : NULL;
    f->seq = seq;
    f->list = list;
    f->count = w->count;
}

/* Every output of `batch` entries (the call's strides) by the small kernel, one launch, in the
 * form `form` (call.h's dfs_oz_small_form). */
static int launch_small(const CUfunction *kern, CUstream st, int sms, const dfs_ctx *x,
                        const dfs_gemm_call *c, const double *A, const double *B, double *C,
                        int64_t batch, dfs_oz_small_form form)
{
    dfs_oz_small_args s;
    memset(&s, 0, sizeof s);
    s.blk.bm = c->m;
    s.blk.bn = c->n;
    dfs_oz_finish_call_fields(&s.blk, x, c, A, B, C);
    s.batch = batch;
    s.sA = c->strideA;
    s.sB = c->strideB;
    s.sC = c->strideC;
    const int tm = form == DFS_OZ_FORM_TILES ? DFS_OZ_TILE_M : 1,
              tn = form == DFS_OZ_FORM_TILES ? DFS_OZ_TILE_N : 1;
    /* threads: a tile each, or (lanes) DFS_OZ_SMALL_LANES an output */
    const int64_t work = (c->m + tm - 1) / tm * ((c->n + tn - 1) / tn) * batch;
    const int warps = form == DFS_OZ_FORM_LANES ? DFS_OZ_SMALL_WARPS : DFS_OZ_TILED_WARPS;
    const int64_t per_block = form == DFS_OZ_FORM_LANES ? 32 / DFS_OZ_SMALL_LANES * warps
                                                        : 32 * warps;
    int64_t blocks = (work + per_block - 1) / per_block;
    const int64_t most = (int64_t)sms * 16; /* then the blocks step through the outputs */
    blocks = blocks < most ? blocks : most;
    const int kernel = form == DFS_OZ_FORM_TILES    ? DFS_OZ_K_SMALL_TILED
                       : form == DFS_OZ_FORM_TILES1 ? DFS_OZ_K_SMALL_TILED1
                                                    : DFS_OZ_K_SMALL;
    return dfs_launch(kern[kernel], (unsigned)(blocks > 0 ? blocks : 1), 1, 1, 32 * warps, 1, st,
                      &s);
}

cublasStatus_t dfs_oz_dgemm_direct(const dfs_ctx *x, const dfs_gemm_call *c,
                                   dfs_oz_small_form form)
{
    const CUfunction *k = dfs_oz_kernels();
    if (!k)
        return DFS_STATUS_DECLINED;
    return launch_small(k, (CUstream)x->stream, dfs_sm_count(x->device), x, c, c->A, c->B, c->C,
                        c->batch, form)
               ? CUBLAS_STATUS_EXECUTION_FAILED
               : CUBLAS_STATUS_SUCCESS;
}

int dfs_oz_launch_direct_all(const CUfunction *kern, CUstream st, int sms, const dfs_ctx *x,
                             const dfs_gemm_call *c, const double *A, const double *B, double *C)
{
    return launch_small(kern, st, sms, x, c, A, B, C, 1, DFS_OZ_FORM_LANES);
}
