/* df/engine.c — the double-float (DF) engine: binary64 products computed with pairs of binary32
 * numbers on the FP32 units (Mukunoki & Imamura; ../shared/design/ALGORITHMS.md section 1).
 * Worth it where FP64 runs at 1/32 or 1/64 of FP32 (GeForce-class parts).
 *
 * DGEMM-D(DF): op(A) and op(B) are scaled row by row and column by column by powers of two
 * (exact) into [1, 2), converted to DF once into packed planes in scratch space, multiplied by
 * the DF kernel, and unscaled in binary64 in the epilogue.  Rows or columns holding Inf or NaN are
 * computed in binary64 by the epilogue (IEEE results, as native).
 *
 * DGEMV and DDOT (memory-bound): each element read once and summed in DF; elements outside the
 * fast window switch that thread's share to a DF sum with a running exponent (any finite binary64
 * range); outputs that meet Inf/NaN are computed in binary64 (kernels_vec.cu).
 *
 * Small products and strided batches of them (gemm.c's rule, the option small): the small
 * kernel does all of the above for a whole call in one launch, a block per tile of C and batch
 * entry, without scratch space (kernels_small.cuh); the same bits.
 *
 * Options (policy file or EXBLAS_MODE=df:key=value): the table df_options below, scheme (the
 * multiply-add), workspace_mb, tile and small; their defaults that depend on the GPU
 * (workspace_mb=0, tile=auto, small=auto's rule) are the device class's (tuning.h).
 * The tuning numbers (defaults, grids, the GEMV's split) are a row per device class in tuning.h,
 * looked up by the call's device. */
#include "../engine.h"
#include "../zreal/zreal.h"
#include "../../core/gpu.h"
#include "../../core/log.h"
#include "../../core/resolve.h"
#include "gemm.h"

#include <string.h>

extern const unsigned char dfs_df_vec_fatbin[];

/* The DOT and GEMV kernels (kernels_vec.cu). */
#define VEC_KERNELS(X)                                                                             \
    X(V_DOT, dfs_df_dot)                                                                           \
    X(V_DOT_FINAL, dfs_df_dot_final)                                                               \
    X(V_GEMV_N, dfs_df_gemv_n)                                                                     \
    X(V_GEMV_T, dfs_df_gemv_t)                                                                     \
    X(V_GEMV_TG, dfs_df_gemv_tg)                                                                   \
    X(V_GEMV_FINAL, dfs_df_gemv_final)
enum { VEC_KERNELS(DFS_KERNEL_ID) V_COUNT };
DFS_MODULE(vec_module, dfs_df_vec_fatbin, VEC_KERNELS);

static int df_can_run(const dfs_device *d)
{
    /* The fatbin holds code for cc 7.5 and later (and PTX for newer parts). */
    return d->cc_major > 7 || (d->cc_major == 7 && d->cc_minor >= 5);
}

/* The scheme's words in DFS_DF_MAD* order, the tile's after auto in DFS_DF_TILE_* order. */
_Static_assert(DFS_DF_MAD16 == 0 && DFS_DF_MAD15 == 1 && DFS_DF_MAD29 == 2 && DFS_DF_MAD12 == 3,
               "df_option_spec's scheme words");
_Static_assert(DFS_DF_TILE_128x128 == 0 && DFS_DF_TILE_128x64 == 1 && DFS_DF_TILE_64x64 == 2,
               "df_option_spec's tile words");
_Static_assert(DFS_DF_SMALL_AUTO == 0 && DFS_DF_SMALL_ALWAYS == 1 && DFS_DF_SMALL_NEVER == 2 &&
                   DFS_DF_SMALL_16 == 3 && DFS_DF_SMALL_32 == 4,
               "df_option_spec's small words");
static const dfs_option_spec df_option_spec[] = {
    {.key = "scheme", .kind = DFS_OPT_WORD, .def = DFS_DF_MAD15,
     .words = (const char *const[]){"paper|16", "fused|15", "accurate|29", "lazy|12", NULL},
     .meaning = "the DF multiply-add: 16 FP32 operations (the paper's), 15 (fused), 29 (proven "
                "bound) or 12 + 3/8 (lazy renormalisation, derived bound)"},
    {.key = "workspace_mb", .kind = DFS_OPT_INT, .lo = 16, .hi = 1 << 24,
     .zero = "the device class's", .def = 0,
     .meaning = "the most scratch space (MiB) a call may use (the device class's: tuning.h, 1024 "
                "today); larger problems are computed panel by panel (same bits)"},
    {.key = "tile", .kind = DFS_OPT_WORD, .def = 0,
     .words = (const char *const[]){"auto", "128x128", "128x64", "64x64", NULL},
     .meaning = "the C tile of one thread block; auto: the device class's (tuning.h: 64x64, the "
                "fastest measured)"},
    {.key = "small", .kind = DFS_OPT_WORD, .def = DFS_DF_SMALL_AUTO,
     .words = (const char *const[]){"auto", "always", "never", "16", "32", NULL},
     .meaning = "the small kernel: a whole DGEMM or strided batch in one launch, no workspace "
                "(the same bits); auto: where the tiled path's launch for one batch entry would "
                "fill less than the device class's share of a wave of the GPU (tuning.h: 0.5); "
                "16, 32: always, in tiles of 16 x 16 or 32 x 32 (else 16 x 16 where the 32 x 32 "
                "tiles would fill less than the class's share of a wave: tuning.h)"},
    {.key = NULL},
};
static const dfs_option_table df_options = {"df", df_option_spec, NULL};

typedef struct {
    int scheme;
    dfs_df_path path; /* GEMM: tile, workspace, small and its rule (device: the caller's) */
} df_call_options;

/* The call's options; t gives the defaults of workspace_mb and tile=auto, and small=auto's rule. */
static void read_options(const dfs_options *o, const dfs_df_tuning *t, df_call_options *out)
{
    out->scheme = dfs_option_word(o, &df_options, "scheme");
    const int tile = dfs_option_word(o, &df_options, "tile");
    out->path.tile = tile == 0 ? t->tile : tile - 1;
    const long long mb = dfs_option_int(o, &df_options, "workspace_mb");
    out->path.workspace = mb == 0 ? t->workspace : (size_t)mb << 20;
    out->path.small = dfs_option_word(o, &df_options, "small");
    out->path.small_waves = t->small_waves;
    out->path.small16_waves = t->small16_waves;
    out->path.device = -1;
}

static int64_t round_up(int64_t x, int64_t to)
{
    return (x + to - 1) / to * to;
}

static cublasStatus_t df_dgemm(const dfs_ctx *x, const dfs_gemm_call *c)
{
    df_call_options o;
    read_options(x->options, dfs_df_tuning_of(x->device), &o);
    o.path.device = x->device;
    const int dev_scalars = x->pointer_mode == CUBLAS_POINTER_MODE_DEVICE;
    dfs_df_gemm_args g;
    memset(&g, 0, sizeof g);
    g.C = c->C;
    g.ldc = c->ldc;
    g.alpha = dev_scalars ? c->alpha : NULL;
    g.beta = dev_scalars ? c->beta : NULL;
    g.alpha_v = dev_scalars ? 0 : *c->alpha;
    g.beta_v = dev_scalars ? 0 : *c->beta;
    g.scheme = o.scheme;
    const dfs_df_operand A = {c->A, c->lda, c->strideA, c->transa != CUBLAS_OP_N, 0};
    const dfs_df_operand B = {c->B, c->ldb, c->strideB, c->transb != CUBLAS_OP_N, 0};
    pthread_mutex_lock(&x->scratch->lock);
    int r = dfs_df_gemm_run(x->scratch, (CUstream)x->stream, &o.path, c->m, c->n, c->k,
                            c->batch, &A, &B, c->strideC, &g);
    dfs_scratch_unlock(x->scratch);
    switch (r) {
    case DFS_DF_OK:
        return CUBLAS_STATUS_SUCCESS;
    case DFS_DF_TOO_BIG:
        dfs_log_once(DFS_LOG_WARN, "df-k", "df: k = %lld is beyond the packing grid; such calls "
                     "run natively", (long long)c->k);
        return DFS_STATUS_DECLINED;
    case DFS_DF_NO_SCRATCH:
        dfs_log_once(DFS_LOG_WARN, "df-scratch", "df: no workspace for a %lld x %lld x %lld "
                     "product; such calls run natively", (long long)c->m, (long long)c->n,
                     (long long)c->k);
        return DFS_STATUS_DECLINED;
    case DFS_DF_NO_MODULE:
        return DFS_STATUS_DECLINED;
    default:
        dfs_log_once(DFS_LOG_ERROR, "df-launch", "df: a kernel launch failed");
        return CUBLAS_STATUS_EXECUTION_FAILED;
    }
}

/* ---------- DOT and GEMV: memory-bound, each element read once ---------- */

/* Scratch for `count` partial sums and `nflags` flags, zeroed flags; 0 when not available. */
static CUdeviceptr vec_scratch(const dfs_ctx *x, int64_t count, int64_t nflags, dfs_df_parts *p,
                               int **flags, double **result)
{
    const size_t parts = (size_t)round_up(count, 64) * 12, fl = (size_t)round_up(nflags, 64) * 4;
    CUdeviceptr base = dfs_scratch_get(x->scratch, parts + fl + 64, (CUstream)x->stream);
    if (!base)
        return 0;
    char *b = (char *)(uintptr_t)base;
    p->hi = (float *)b;
    p->lo = p->hi + round_up(count, 64);
    p->e = (int *)(p->lo + round_up(count, 64));
    *flags = (int *)(b + parts);
    *result = (double *)(b + parts + fl);
    if (!DFS_DRV(cuMemsetD32Async) ||
        DFS_DRV(cuMemsetD32Async)((CUdeviceptr)(uintptr_t)*flags, 0, (size_t)nflags,
                                  (CUstream)x->stream) != CUDA_SUCCESS)
        return 0;
    return base;
}

static cublasStatus_t df_ddot(const dfs_ctx *x, const dfs_dot_call *c)
{
    const dfs_df_tuning *t = dfs_df_tuning_of(x->device);
    df_call_options o;
    read_options(x->options, t, &o);
    CUstream st = (CUstream)x->stream;
    const int host_result = x->pointer_mode == CUBLAS_POINTER_MODE_HOST;
    if (host_result && dfs_stream_capturing(st))
        return DFS_STATUS_DECLINED; /* a host result needs a synchronisation */
    const CUfunction *k = dfs_module_kernels(&vec_module);
    if (!k)
        return DFS_STATUS_DECLINED;
    /* a grid-stride loop over at most t->waves waves of blocks (a wave: as many blocks as the
     * GPU holds at once) */
    int64_t blocks = (c->n + 255) / 256,
            most = (int64_t)dfs_sm_count(x->device) * dfs_blocks_per_sm(k[V_DOT], 256) * t->waves;
    blocks = blocks < most ? blocks : most;
    pthread_mutex_lock(&x->scratch->lock);
    dfs_df_dot_args a = {c->x, c->y, c->incx, c->incy, c->n, o.scheme == DFS_DF_MAD29,
                         {0, 0, 0}, NULL, (int)blocks, NULL};
    double *tmp;
    if (!vec_scratch(x, blocks, 1, &a.part, &a.flag, &tmp)) {
        dfs_scratch_unlock(x->scratch);
        return DFS_STATUS_DECLINED;
    }
    a.result = host_result ? tmp : c->result;
    int err = dfs_launch(k[V_DOT], (unsigned)blocks, 1, 1, 256, 1, st, &a);
    err |= dfs_launch(k[V_DOT_FINAL], 1, 1, 1, 256, 1, st, &a);
    if (!err && host_result)
        err = dfs_result_to_host(c->result, (CUdeviceptr)(uintptr_t)tmp, sizeof(double), st);
    dfs_scratch_unlock(x->scratch);
    if (err) {
        dfs_log_once(DFS_LOG_ERROR, "df-launch-dot", "df: a DOT kernel failed");
        return CUBLAS_STATUS_EXECUTION_FAILED;
    }
    return CUBLAS_STATUS_SUCCESS;
}

static cublasStatus_t df_dgemv(const dfs_ctx *x, const dfs_gemv_call *c)
{
    const dfs_df_tuning *t = dfs_df_tuning_of(x->device);
    df_call_options o;
    read_options(x->options, t, &o);
    CUstream st = (CUstream)x->stream;
    const CUfunction *k = dfs_module_kernels(&vec_module);
    if (!k)
        return DFS_STATUS_DECLINED;
    const int trans = c->trans != CUBLAS_OP_N;
    const int64_t len = trans ? c->n : c->m, inner = trans ? c->m : c->n;
    /* enough blocks to fill the GPU: split the inner dimension when the outputs are few, into
     * as many chunks as fit in t->waves waves (a block more would start another wave) */
    /* op T: lanes per output, about t->gemv_lane_terms inner elements per lane or more (a warp
     * from 32 times that on) */
    int group = 1;
    while (trans && group < 32 && (int64_t)group * t->gemv_lane_terms < inner)
        group *= 2;
    const int64_t per_block = trans ? 8 * (32 / group) : 256,
                  out_blocks = (len + per_block - 1) / per_block;
    const CUfunction kern = k[!trans ? V_GEMV_N : group == 32 ? V_GEMV_T : V_GEMV_TG];
    const int64_t want = (int64_t)dfs_sm_count(x->device) * dfs_blocks_per_sm(kern, 256) * t->waves;
    int64_t splits = out_blocks >= want ? 1 : want / out_blocks;
    const int64_t min_chunk = t->gemv_min_chunk;
    if (splits > (inner + min_chunk - 1) / min_chunk)
        splits = (inner + min_chunk - 1) / min_chunk;
    if (splits < 1)
        splits = 1;
    if (splits > 65535)
        splits = 65535;
    const int64_t chunk = (inner + splits - 1) / splits;
    const int dev = x->pointer_mode == CUBLAS_POINTER_MODE_DEVICE;
    dfs_df_gemv_args a;
    memset(&a, 0, sizeof a);
    a.A = c->A;
    a.x = c->x;
    a.lda = c->lda;
    a.incx = c->incx;
    a.m = c->m;
    a.n = c->n;
    a.trans = trans;
    a.accurate = o.scheme == DFS_DF_MAD29;
    a.len = len;
    a.inner = inner;
    a.chunk = chunk;
    a.splits = (int)splits;
    a.group = trans ? group : 32;
    a.y = c->y;
    a.incy = c->incy;
    a.alpha = dev ? c->alpha : NULL;
    a.beta = dev ? c->beta : NULL;
    a.alpha_v = dev ? 0 : *c->alpha;
    a.beta_v = dev ? 0 : *c->beta;
    pthread_mutex_lock(&x->scratch->lock);
    double *unused;
    if (!vec_scratch(x, splits * len, len, &a.part, &a.flags, &unused)) {
        dfs_scratch_unlock(x->scratch);
        return DFS_STATUS_DECLINED;
    }
    int err = dfs_launch(kern, (unsigned)out_blocks, (unsigned)splits, 1,
                         256, 1, st, &a);
    err |= dfs_launch(k[V_GEMV_FINAL], (unsigned)((len + 255) / 256), 1, 1, 256, 1, st, &a);
    dfs_scratch_unlock(x->scratch);
    if (err) {
        dfs_log_once(DFS_LOG_ERROR, "df-launch-gemv", "df: a GEMV kernel failed");
        return CUBLAS_STATUS_EXECUTION_FAILED;
    }
    return CUBLAS_STATUS_SUCCESS;
}

/* Complex calls through the real representation (../zreal/zreal.h). */
static cublasStatus_t df_gemm(const dfs_ctx *x, const dfs_gemm_call *c)
{
    return c->type == DFS_C64 ? dfs_zr_gemm(x, c, df_dgemm, 0) : df_dgemm(x, c);
}

const dfs_engine dfs_engine_df = {
    .name = "df",
    .summary = "double-float arithmetic on the FP32 units (for FP64-starved GPUs)",
    .options = &df_options,
    .can_run = df_can_run,
    .caps = DFS_CAP_COMPLEX,
    .gemm = df_gemm,
    .dgemv = df_dgemv,
    .ddot = df_ddot,
    /* SYRK...: four panels (H100, DSYRK 4096: 25.0 ms against 29.8 with eight, 28.6 with two) */
    .l3_panels = 4,
};
