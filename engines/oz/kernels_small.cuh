/* kernels_small.cuh — repro's small DGEMMs (kernels.cu includes it; one module):
 *   dfs_oz_small  every output of a batch of small products in one launch, correctly rounded:
 *                 DFS_OZ_SMALL_LANES lanes per output first sum the k products in
 *                 double-double with an error bound (ddsum.h, 17 operations a product), and
 *                 the output's lane rounds alpha S + beta c where the bound decides it (nearly
 *                 always on narrow data; sums of tiny products a second time on operands
 *                 scaled up, dfs_oz_ddsum_scale).  For the outputs left open the lanes add
 *                 the products exactly into short expansions (fpe.h), merged (device.cuh's
 *                 group_exact_sum), and the output's lane rounds alpha S + beta c once from the
 *                 terms (dfs_oz_w_terms_axpby, wint.h).  An output the expansions cannot carry
 *                 (a product out of their range, an error left after the last term, Inf or NaN,
 *                 terms too far apart) is then computed by its whole warp on the direct path
 *                 (warp_exact_products, finish_output: every product into an exact
 *                 accumulator), in the same launch.  Any path gives RN(exact): the same bits as
 *                 every other repro path.  No workspace, no cuBLAS call. */
#ifndef DFS_OZ_KERNELS_SMALL_CUH
#define DFS_OZ_KERNELS_SMALL_CUH

#include "args.h"
#include "device.cuh"
#include "tuning.h"
#include "wint.h"

/* Entry e, row r and column c of output o of a batch of bm x bn products. */
__device__ __forceinline__ void small_output(const dfs_oz_small_args &s, int64_t o, int64_t *e,
                                             int64_t *r, int64_t *c)
{
    const int64_t per = s.blk.bm * s.blk.bn;
    *e = s.batch > 1 ? o / per : 0;
    const int64_t rc = o - *e * per;
    *r = rc % s.blk.bm;
    *c = rc / s.blk.bm;
}

/* Output o of the batch (live: o is one; else the lanes only take part) by its group of
 * DFS_OZ_SMALL_LANES lanes, as the header says; called by the whole warp (its shuffles and
 * votes), each group with its own output.  wa, ws: the warp's exact accumulators. */
__device__ __forceinline__ void small_group_output(const dfs_oz_small_args &s, int64_t o, int live,
                                                   long long *wa, long long *ws, double alpha,
                                                   double beta)
{
    constexpr int L = DFS_OZ_SMALL_LANES, T = DFS_OZ_SMALL_TERMS;
    const dfs_oz_finish_args &a = s.blk;
    const int lane = threadIdx.x & 31, g = lane % L;
    int64_t e = 0, r = 0, c = 0;
    if (live)
        small_output(s, o, &e, &r, &c);
    const double *A = a.A + e * s.sA + r * a.ars, *B = a.B + e * s.sB + c * a.bcs;
    double *out = a.C + e * s.sC + r + c * a.ldc;
    /* first the double-double sums, rounded where their bound decides (ddsum.h) */
    int done = 0;
    if (alpha != 0) { /* alpha = 0 (C = beta C): below */
        const dfs_oz_ddsum d = group_dd_sum<L>(a.k, A, a.aqs, B, a.bqs, g, live);
        double v;
        if (live && g == 0 &&
            dfs_oz_ddsum_round(&d, a.k, 0, alpha, beta, beta != 0 ? *out : 0.0, &v)) {
            *out = v;
            done = 1;
        }
        done = __shfl_sync(0xffffffffu, done, lane - g); /* the group's lane 0's */
        /* tiny products (underflowing ones): the sums again on operands scaled up by powers of
         * two (every lane of a group has the same d, so the same scale) */
        double px, py;
        const int sigma = live && !done ? dfs_oz_ddsum_scale(&d, &px, &py) : 0;
        if (__any_sync(0xffffffffu, sigma != 0)) {
            const dfs_oz_ddsum d2 =
                group_dd_sum<L, true>(a.k, A, a.aqs, B, a.bqs, g, sigma != 0, px, py);
            if (sigma != 0 && g == 0 &&
                dfs_oz_ddsum_round(&d2, a.k, -sigma, alpha, beta, beta != 0 ? *out : 0.0, &v)) {
                *out = v;
                done = 1;
            }
            done = __shfl_sync(0xffffffffu, done, lane - g);
        }
    }
    const bool open = live && !done;
    if (!__any_sync(0xffffffffu, open))
        return;
    /* then the exact expansions for the outputs left open (alpha = 0: A and B not read) */
    double t[T];
    unsigned f = group_exact_sum<L, T, false>(t, alpha != 0 ? a.k : 0, A, a.aqs, B, a.bqs, g,
                                              open);
    int slow = 0;
    if (open && g == 0) {
        const double cv = beta != 0 ? *out : 0.0;
        double v;
        if (alpha == 0) /* C = beta C, as cuBLAS */
            *out = beta != 0 ? dfs_d_mul(beta, cv) : 0.0;
        else if (f == 0 && dfs_oz_w_terms_axpby(t, T, alpha, beta, cv, &v))
            *out = v;
        else
            slow = 1;
    }
    /* the warp's outputs the expansions could not carry: each by the whole warp, exactly */
    unsigned m = __ballot_sync(0xffffffffu, slow);
    while (m) {
        const int src = __ffs(m) - 1;
        m &= m - 1;
        int64_t se, sr, sc;
        small_output(s, __shfl_sync(0xffffffffu, o, src), &se, &sr, &sc);
        warp_exact_output(wa, ws, a.k, a.A + se * s.sA + sr * a.ars, a.aqs,
                          a.B + se * s.sB + sc * a.bcs, a.bqs, a.k, alpha, beta,
                          a.C + se * s.sC + sr + sc * a.ldc);
    }
}

extern "C" __global__ void __launch_bounds__(32 * DFS_OZ_SMALL_WARPS, 4)
    dfs_oz_small(const __grid_constant__ dfs_oz_small_args s)
{
    constexpr int PER_WARP = 32 / DFS_OZ_SMALL_LANES;
    __shared__ long long wa[DFS_OZ_SMALL_WARPS][DFS_X_WORDS];
    __shared__ long long ws[DFS_OZ_SMALL_WARPS][DFS_X_WORDS];
    const dfs_oz_finish_args &a = s.blk;
    const int lane = threadIdx.x & 31, wp = threadIdx.x >> 5;
    const int64_t total = a.bm * a.bn * s.batch;
    const double alpha = blk_alpha(a), beta = blk_beta(a);
    /* a warp takes PER_WARP consecutive outputs at a time (consecutive rows: op(A)'s reads
     * coalesce where its rows are contiguous, op(B)'s are shared) */
    for (int64_t base = ((int64_t)blockIdx.x * DFS_OZ_SMALL_WARPS + wp) * PER_WARP; base < total;
         base += (int64_t)gridDim.x * DFS_OZ_SMALL_WARPS * PER_WARP) {
        const int64_t o = base + lane / DFS_OZ_SMALL_LANES;
        small_group_output(s, o, o < total, wa[wp], ws[wp], alpha, beta);
    }
}

#endif
