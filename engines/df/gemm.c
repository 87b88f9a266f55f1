/* gemm.c — runs the DF GEMM kernels (see gemm.h).  The tiled path: per-row/column exponents and
 * packing of the operands into DF planes in scratch space, then the GEMM kernel panel by panel so
 * that the packed panels fit the workspace budget, per batch entry.  The small kernel: a binary64
 * call whole in one launch, without scratch, where the rule below picks it.  Also the tuning row
 * of a device (tuning.h). */
#include "gemm.h"

#include "../../core/log.h"
#include "../../core/resolve.h"

#include <string.h>

extern const unsigned char dfs_df_fatbin[];

/* The module: the exponent and packing kernels, df_gemm.h's small kernels from K_SMALL on (one
 * per tile and scheme), then its GEMM kernels from K_GEMM on, [tile][scheme] (tiles as in
 * gemm.h), each X(K_symbol, symbol).  SMALL_##X and GEMM_##X turn core/gpu.h's DFS_KERNEL_ID
 * and DFS_KERNEL_NAME, the two X that DFS_MODULE and the enum pass, into the adapters below for
 * df_gemm.h's lists. */
#define DF_KERNELS(X)                                                                              \
    X(K_EXPS, dfs_df_exps) X(K_PACK, dfs_df_pack) X(K_PACK_DF, dfs_df_pack_df)                     \
        DFS_DF_SMALL_KERNELS(SMALL_##X) DFS_DF_GEMM_KERNELS(GEMM_##X)
#define SMALL_DFS_KERNEL_ID(sym, scheme, tile) DFS_KERNEL_ID(K_##sym, sym)
#define SMALL_DFS_KERNEL_NAME(sym, scheme, tile) DFS_KERNEL_NAME(K_##sym, sym)
#define GEMM_DFS_KERNEL_ID(sym, scheme, tm, tn, minb) DFS_KERNEL_ID(K_##sym, sym)
#define GEMM_DFS_KERNEL_NAME(sym, scheme, tm, tn, minb) DFS_KERNEL_NAME(K_##sym, sym)
enum {
    DF_KERNELS(DFS_KERNEL_ID) K_COUNT,
    K_SMALL = K_PACK_DF + 1,
    K_GEMM = K_SMALL + 2 * DFS_DF_SCHEMES
};
DFS_MODULE(module, dfs_df_fatbin, DF_KERNELS);

/* The small kernel of a scheme is kern[K_SMALL + scheme] in tiles of 32 x 32, kern[K_SMALL +
 * DFS_DF_SCHEMES + scheme] in tiles of 16 x 16. */
#define SMALL_AT_ITS_PLACE(sym, scheme, tile)                                                      \
    _Static_assert(K_##sym - K_SMALL == (scheme) + ((tile) == 16 ? DFS_DF_SCHEMES : 0) &&          \
                       ((tile) == DFS_DF_SMALL_BM || (tile) == DFS_DF_SMALL_T16),                  \
                   #sym " is out of tile and scheme order");
DFS_DF_SMALL_KERNELS(SMALL_AT_ITS_PLACE)

/* Rows and columns of C of one block of each tile. */
#define TILE_BM(tile) ((tile) == DFS_DF_TILE_64x64 ? 64 : 128)
#define TILE_BN(tile) ((tile) == DFS_DF_TILE_128x128 ? 128 : 64)

/* The GEMM kernel of a tile and scheme is kern[K_GEMM + tile * DFS_DF_SCHEMES + scheme]: the
 * list is in that order, each kernel's C tile that of its place. */
_Static_assert(K_COUNT == K_GEMM + DFS_DF_TILES * DFS_DF_SCHEMES, "one per tile and scheme");
#define GEMM_AT_ITS_PLACE(sym, scheme, tm, tn, minb)                                               \
    _Static_assert((K_##sym - K_GEMM) % DFS_DF_SCHEMES == (scheme) &&                             \
                       16 * (tm) == TILE_BM((K_##sym - K_GEMM) / DFS_DF_SCHEMES) &&                \
                       16 * (tn) == TILE_BN((K_##sym - K_GEMM) / DFS_DF_SCHEMES),                  \
                   #sym " is out of [tile][scheme] order");
DFS_DF_GEMM_KERNELS(GEMM_AT_ITS_PLACE)

const dfs_df_tuning *dfs_df_tuning_of(int device)
{
    int major, minor;
    dfs_device_cc(device, &major, &minor);
    return dfs_df_tuning_for(major, minor);
}

static int64_t round_up(int64_t x, int64_t to)
{
    return (x + to - 1) / to * to;
}

/* Panel sizes so that both packed panels fit the budget: whole matrices when they fit. */
static void plan_panels(int64_t m, int64_t n, int64_t Kp, size_t budget, int64_t *Mb, int64_t *Nb)
{
    *Mb = round_up(m, DFS_DF_BM);
    *Nb = round_up(n, DFS_DF_BN);
    while ((size_t)(*Mb + *Nb) * (size_t)Kp * 8 > budget && (*Mb > DFS_DF_BM || *Nb > DFS_DF_BN)) {
        if (*Mb >= *Nb)
            *Mb = round_up(*Mb / 2, DFS_DF_BM);
        else
            *Nb = round_up(*Nb / 2, DFS_DF_BN);
    }
}

/* The exponents and spans of the rows of an R x K operand (binary64 only). */
static int exps(const CUfunction *k, CUstream st, const dfs_df_operand *x, const void *p,
                int64_t rows, int64_t inner, int *out, int *spans, const double *alpha_dev)
{
    if (x->df)
        return 0;
    dfs_df_exps_args a = {p, x->ld, x->trans, rows, inner, out, spans, alpha_dev};
    return dfs_launch(k[K_EXPS], (unsigned)((rows + 31) / 32), 1, 1, 32, 8, st, &a);
}

static int pack(const CUfunction *k, CUstream st, const dfs_df_operand *x, const void *p,
                int64_t r0, int64_t R, int64_t K, int64_t Rp, int64_t Kp, const int *e, float *hi,
                float *lo, const double *alpha_dev)
{
    const unsigned gx = (unsigned)(Rp / 32), gy = (unsigned)((Kp + 31) / 32);
    if (x->df) {
        /* the panel starts at row r0: offset the pairs, as the binary64 packer offsets rows */
        const float *src = (const float *)p + 2 * (x->trans ? r0 * x->ld : r0);
        dfs_df_pack_df_args a = {src, x->ld, x->trans, R, K, Rp, Kp, hi, lo};
        return dfs_launch(k[K_PACK_DF], gx, gy, 1, 32, 8, st, &a);
    }
    dfs_df_pack_args a = {p, x->ld, x->trans, r0, R, K, Rp, Kp, e, hi, lo, alpha_dev};
    return dfs_launch(k[K_PACK], gx, gy, 1, 32, 8, st, &a);
}

static const void *entry(const dfs_df_operand *x, int64_t b)
{
    return (const char *)x->p + 8 * b * x->stride; /* a double or a pair of floats */
}

/* The tiled path: exponents, packed panels in scratch, the GEMM kernel; per batch entry. */
static int run_tiled(const CUfunction *kern, dfs_scratch *s, CUstream st, const dfs_df_path *path,
                     int64_t m, int64_t n, int64_t k, int64_t batch, const dfs_df_operand *A,
                     const dfs_df_operand *B, long long strideC, dfs_df_gemm_args *g)
{
    const int64_t Kp = k > 0 ? round_up(k, DFS_DF_BK) : DFS_DF_BK; /* k = 0: one stage of zeros */
    if ((Kp + 31) / 32 > 65535)
        return DFS_DF_TOO_BIG;
    const int tile = path->tile;
    int64_t Mb, Nb;
    plan_panels(m, n, Kp, path->workspace, &Mb, &Nb);
    const size_t exp_bytes = (size_t)round_up(m + n, 64) * 2 * sizeof(int); /* and spans */
    const size_t bytes = exp_bytes + (size_t)(Mb + Nb) * (size_t)Kp * 2 * sizeof(float);
    CUdeviceptr base = dfs_scratch_get(s, bytes, st);
    if (!base)
        return DFS_DF_NO_SCRATCH;
    int *expA = (int *)(uintptr_t)base, *expB = expA + m;
    int *spanA = expA + round_up(m + n, 64), *spanB = spanA + m;
    float *Ahi = (float *)((char *)(uintptr_t)base + exp_bytes), *Alo = Ahi + Mb * Kp;
    float *Bhi = Alo + Mb * Kp, *Blo = Bhi + Nb * Kp;
    g->expA = A->df ? NULL : expA;
    g->expB = B->df ? NULL : expB;
    g->spanA = A->df ? NULL : spanA;
    g->spanB = B->df ? NULL : spanB;
    g->orig.lda = A->ld;
    g->orig.ldb = B->ld;
    g->orig.k = k;
    g->orig.transa = A->trans;
    g->orig.transb = B->trans;
    g->Kp = Kp;
    g->Ahi = Ahi;
    g->Alo = Alo;
    g->Bhi = Bhi;
    g->Blo = Blo;
    double *C0 = g->C;
    float *Cdf0 = g->Cdf;
    /* op(B) is taken as an n x k matrix, whose (j, p) element is op(B)(p, j): its layout flag
     * is the opposite of B's transpose flag. */
    dfs_df_operand Bt = *B;
    Bt.trans = !B->trans;
    int err = 0;
    for (int64_t b = 0; b < batch && !err; b++) {
        const void *pa = entry(A, b), *pb = entry(B, b);
        g->orig.A = A->df ? NULL : pa;
        g->orig.B = B->df ? NULL : pb;
        g->C = C0 ? C0 + b * strideC : NULL;
        g->Cdf = Cdf0 ? Cdf0 + 2 * b * strideC : NULL;
        /* device pointer mode: the kernels read alpha; 0 there: A and B are not read */
        err |= exps(kern, st, A, pa, m, k, expA, spanA, g->alpha);
        err |= exps(kern, st, &Bt, pb, n, k, expB, spanB, g->alpha);
        for (int64_t n0 = 0; n0 < n && !err; n0 += Nb) {
            const int64_t nr = n - n0 < Nb ? n - n0 : Nb, Np = round_up(nr, DFS_DF_BN);
            err |= pack(kern, st, &Bt, pb, n0, nr, k, Np, Kp, expB, Bhi, Blo, g->alpha);
            for (int64_t m0 = 0; m0 < m && !err; m0 += Mb) {
                const int64_t mr = m - m0 < Mb ? m - m0 : Mb, Mp = round_up(mr, DFS_DF_BM);
                if (n0 == 0 || Mb < m) /* one m panel: packed once per batch entry */
                    err |= pack(kern, st, A, pa, m0, mr, k, Mp, Kp, expA, Ahi, Alo, g->alpha);
                g->Mp = Mp;
                g->Np = Np;
                g->m = mr;
                g->n = nr;
                g->m0 = m0;
                g->n0 = n0;
                const int64_t bm = TILE_BM(tile), bn = TILE_BN(tile);
                err |= dfs_launch(kern[K_GEMM + tile * DFS_DF_SCHEMES + g->scheme],
                                  (unsigned)(Mp / bm), (unsigned)(Np / bn), 1, DFS_DF_THREADS, 1,
                                  st, g);
            }
        }
    }
    g->C = C0;
    g->Cdf = Cdf0;
    return err ? DFS_DF_LAUNCH : DFS_DF_OK;
}

/* The small kernel's grid: a block per T x T tile of C in x, and the batch entries in y (the
 * kernel steps through more than 65535).  0 when the tiles do not fit x's 2^31 - 1. */
static unsigned small_grid_x(int64_t m, int64_t n, int64_t T)
{
    const int64_t tm = (m + T - 1) / T, tn = (n + T - 1) / T;
    return tm > 0 && tn > 0 && tm <= 0x7fffffff / tn ? (unsigned)(tm * tn) : 0;
}

/* Blocks of the small kernel (or of a GEMM kernel f) the device holds at once. */
static int64_t wave_of(CUfunction f, const dfs_df_path *path, int threads)
{
    return (int64_t)dfs_sm_count(path->device) * dfs_blocks_per_sm(f, threads);
}

/* Whether the call runs on the small kernel: binary64 operands and C, a grid that fits, and
 * path->small; auto: when the tiled path's GEMM launch for one batch entry would have fewer
 * blocks than path->small_waves waves of its kernel (tuning.h says why). */
static int small_chosen(const CUfunction *kern, const dfs_df_path *path, int64_t m, int64_t n,
                        int64_t batch, const dfs_df_operand *A, const dfs_df_operand *B,
                        const dfs_df_gemm_args *g)
{
    if (A->df || B->df || g->Cdf || batch < 1 || !small_grid_x(m, n, DFS_DF_SMALL_BM) ||
        path->small == DFS_DF_SMALL_NEVER)
        return 0;
    if (path->small != DFS_DF_SMALL_AUTO)
        return 1;
    /* at most the small kernel's tile count, so no overflow */
    const int64_t blocks = (m + TILE_BM(path->tile) - 1) / TILE_BM(path->tile) *
                           ((n + TILE_BN(path->tile) - 1) / TILE_BN(path->tile));
    const CUfunction f = kern[K_GEMM + path->tile * DFS_DF_SCHEMES + g->scheme];
    return (double)blocks < (double)wave_of(f, path, DFS_DF_THREADS) * path->small_waves;
}

/* The small kernel's tile: 16 x 16 where the 32 x 32 tiles of the whole batch would be fewer than
 * path->small16_waves waves of its blocks (tuning.h says why), or the option's; 32 x 32 where
 * the grid's x cannot hold the 16 x 16 tiles. */
static int small_t16(const CUfunction *kern, const dfs_df_path *path, int64_t m, int64_t n,
                     int64_t batch, int scheme)
{
    if (!small_grid_x(m, n, DFS_DF_SMALL_T16))
        return 0;
    if (path->small == DFS_DF_SMALL_16 || path->small == DFS_DF_SMALL_32)
        return path->small == DFS_DF_SMALL_16;
    const double blocks = (double)small_grid_x(m, n, DFS_DF_SMALL_BM) * (double)batch;
    return blocks < (double)wave_of(kern[K_SMALL + scheme], path, DFS_DF_SMALL_THREADS) *
                        path->small16_waves;
}

/* The small kernel: every output of the batch, one launch. */
static int run_small(const CUfunction *kern, CUstream st, const dfs_df_path *path, int64_t m,
                     int64_t n, int64_t k, int64_t batch, const dfs_df_operand *A,
                     const dfs_df_operand *B, long long strideC, const dfs_df_gemm_args *g)
{
    const int t16 = small_t16(kern, path, m, n, batch, g->scheme);
    dfs_df_small_args a = {
        .op = {.A = A->p, .B = B->p, .lda = A->ld, .ldb = B->ld, .k = k, .transa = A->trans,
               .transb = B->trans},
        .strideA = A->stride, .strideB = B->stride, .strideC = strideC, .C = g->C,
        .ldc = g->ldc, .m = m, .n = n, .batch = batch, .alpha = g->alpha, .beta = g->beta,
        .alpha_v = g->alpha_v, .beta_v = g->beta_v};
    const unsigned gy = (unsigned)(batch < 65535 ? batch : 65535);
    const unsigned gx = small_grid_x(m, n, t16 ? DFS_DF_SMALL_T16 : DFS_DF_SMALL_BM);
    if (dfs_log_on(DFS_LOG_TRACE))
        dfs_log(DFS_LOG_TRACE, "df: small kernel, %lld x %lld x %lld x %lld in tiles of %d",
                (long long)m, (long long)n, (long long)k, (long long)batch,
                t16 ? DFS_DF_SMALL_T16 : DFS_DF_SMALL_BM);
    const CUfunction f = kern[K_SMALL + (t16 ? DFS_DF_SCHEMES : 0) + g->scheme];
    return dfs_launch(f, gx, gy, 1, DFS_DF_SMALL_THREADS, 1, st, &a)
               ? DFS_DF_LAUNCH
               : DFS_DF_OK;
}

int dfs_df_gemm_run(dfs_scratch *s, CUstream st, const dfs_df_path *path, int64_t m, int64_t n,
                    int64_t k, int64_t batch, const dfs_df_operand *A, const dfs_df_operand *B,
                    long long strideC, dfs_df_gemm_args *g)
{
    const CUfunction *kern = dfs_module_kernels(&module);
    if (!kern)
        return DFS_DF_NO_MODULE;
    if (small_chosen(kern, path, m, n, batch, A, B, g))
        return run_small(kern, st, path, m, n, k, batch, A, B, strideC, g);
    return run_tiled(kern, s, st, path, m, n, k, batch, A, B, strideC, g);
}
