/* kernels_small_tiled.cuh — repro's small DGEMMs by tiles (kernels.cu includes it; one module):
 *   dfs_oz_small_tiled   every output of a batch of small products in one launch, correctly
 *                        rounded, each thread a DFS_OZ_TILE_M x DFS_OZ_TILE_N tile of outputs
 *                        of one entry;
 *   dfs_oz_small_tiled1  the same with 1 x 1 tiles (four times the threads, twice the loads).
 * Every product of a tile's outputs summed in order in double-double without renormalising
 * (ddsum.h's dfs_oz_dot2, 11 operations a product), op(A)'s and op(B)'s elements loaded once
 * per tile row and column (at 2 x 2 one load a product), and rounded where the bound decides;
 * sums of tiny products again on operands scaled up.  The outputs a block leaves open
 * (magnitudes of 2^1020 or more, Inf, NaN, a result within the bound of a rounding boundary) are
 * then taken by groups of lanes of the block's warps as dfs_oz_small takes every output
 * (kernels_small.cuh's small_group_output).  Any way gives RN(exact): the bits of dfs_oz_small
 * and every other repro path.  No workspace, no cuBLAS call.  Chosen by repro's option small:
 * tiled, tiled1, or auto from tuning.h's tiled_outputs outputs in all (tiled1 while the 2 x 2
 * tiles would give fewer than tiled_threads_per_sm threads a multiprocessor). */
#ifndef DFS_OZ_KERNELS_SMALL_TILED_CUH
#define DFS_OZ_KERNELS_SMALL_TILED_CUH

#include "args.h"
#include "ddsum.h"
#include "device.cuh"
#include "tuning.h"

/* U steps of the inner dimension of a tile's sums d (A, B at the first step's row of op(A) and
 * column of op(B); a tile has at least one row and column, whose loads need no test): their
 * loads first, the operands times px, py where Scaled (exact: powers of two). */
template <int TM, int TN, bool Scaled, int U>
__device__ __forceinline__ void tile_steps(const dfs_oz_finish_args &a, const double *A,
                                           const double *B, int rows, int cols, double px,
                                           double py, dfs_oz_dot2 (&d)[TM][TN])
{
    double x[U][TM], y[U][TN];
#pragma unroll
    for (int u = 0; u < U; u++) {
#pragma unroll
        for (int i = 0; i < TM; i++)
            x[u][i] = i == 0 || i < rows ? A[u * a.aqs + i * a.ars] : 0.0;
#pragma unroll
        for (int j = 0; j < TN; j++)
            y[u][j] = j == 0 || j < cols ? B[u * a.bqs + j * a.bcs] : 0.0;
    }
#pragma unroll
    for (int u = 0; u < U; u++) {
        if (Scaled) {
#pragma unroll
            for (int i = 0; i < TM; i++)
                x[u][i] = dfs_d_mul(x[u][i], px);
#pragma unroll
            for (int j = 0; j < TN; j++)
                y[u][j] = dfs_d_mul(y[u][j], py);
        }
#pragma unroll
        for (int i = 0; i < TM; i++)
#pragma unroll
            for (int j = 0; j < TN; j++)
                dfs_oz_dot2_add(&d[i][j], x[u][i], y[u][j], fabs(x[u][i]), fabs(y[u][j]));
    }
}

/* The sums of a tile (rows x cols of TM x TN; A, B at op(A)'s row and op(B)'s column) into d:
 * the inner dimension four steps at a time, then one at a time. */
template <int TM, int TN, bool Scaled>
__device__ __forceinline__ void tile_sums(const dfs_oz_finish_args &a, const double *A,
                                          const double *B, int rows, int cols, double px,
                                          double py, dfs_oz_dot2 (&d)[TM][TN])
{
    constexpr int U = 4;
#pragma unroll
    for (int i = 0; i < TM; i++)
#pragma unroll
        for (int j = 0; j < TN; j++)
            d[i][j] = dfs_oz_dot2_zero();
    int64_t q = 0;
    for (; q + U <= a.k; q += U, A += U * a.aqs, B += U * a.bqs)
        tile_steps<TM, TN, Scaled, U>(a, A, B, rows, cols, px, py, d);
    for (; q < a.k; q++, A += a.aqs, B += a.bqs)
        tile_steps<TM, TN, Scaled, 1>(a, A, B, rows, cols, px, py, d);
}

/* The tile of outputs rows r0 .., columns c0 .. of one entry (rows x cols of it inside the
 * product; A, B at op(A)'s row r0 and op(B)'s column c0, C at the entry's C): its sums, each
 * output rounded where the bound decides; then, where some of them were left open as sums of
 * tiny products (s below 2^-900), the tile's sums again on operands scaled up by the power of
 * two that brings the largest such s near 2^500 (dfs_oz_ddsum_scale), and those outputs rounded
 * where that bound decides; the indices o = (e bn + c) bm + r of the others appended to open_o
 * (count *nopen).  The sums pass through the thread's TM TN places in shared memory, so that
 * one copy of the rounding serves every output of both passes (inlined per output, the copies
 * made the kernel spill on sm_90): field f (h, l, s) of output o at mine[(3 o + f) NT], NT the
 * block's threads, so that a warp's accesses are to consecutive words. */
template <int TM, int TN, int NT>
__device__ __forceinline__ void tile_outputs(const dfs_oz_finish_args &a, const double *A,
                                             const double *B, double *C, int64_t e, int64_t r0,
                                             int64_t c0, int rows, int cols, double alpha,
                                             double beta, double *mine, int64_t *open_o,
                                             int *nopen)
{
    unsigned open = 0; /* bit i TN + j: output (i, j) not yet written */
#pragma unroll
    for (int i = 0; i < TM; i++)
#pragma unroll
        for (int j = 0; j < TN; j++)
            open |= (i < rows && j < cols ? 1u : 0u) << (i * TN + j);
    if (alpha == 0) { /* C = beta C, as cuBLAS: A and B not read */
        for (int o = 0; o < TM * TN; o++)
            if (open >> o & 1u) {
                double *out = C + (r0 + o / TN) + (c0 + o % TN) * a.ldc;
                *out = beta != 0 ? dfs_d_mul(beta, *out) : 0.0;
            }
        return;
    }
    double px = 1.0, py = 1.0;
    int sigma = 0;
#pragma unroll 1
    for (int pass = 0; pass < 2; pass++) {
        {
            dfs_oz_dot2 d[TM][TN];
            if (pass == 0)
                tile_sums<TM, TN, false>(a, A, B, rows, cols, 1.0, 1.0, d);
            else
                tile_sums<TM, TN, true>(a, A, B, rows, cols, px, py, d);
#pragma unroll
            for (int i = 0; i < TM; i++)
#pragma unroll
                for (int j = 0; j < TN; j++) {
                    double *const m = mine + 3 * (i * TN + j) * NT;
                    m[0] = d[i][j].h;
                    m[NT] = d[i][j].l;
                    m[2 * NT] = d[i][j].s;
                }
        }
        int any_tiny = 0; /* an open one with s below 2^-900, the largest such s in tiny.s */
        dfs_oz_ddsum tiny = dfs_oz_ddsum_zero();
#pragma unroll 1
        for (int o = 0; o < TM * TN; o++) {
            if (!(open >> o & 1u))
                continue;
            double *out = C + (r0 + o / TN) + (c0 + o % TN) * a.ldc;
            double Bd, v;
            const dfs_oz_dot2 d = {mine[3 * o * NT], mine[(3 * o + 1) * NT],
                                   mine[(3 * o + 2) * NT]};
            const dfs_oz_ddsum dd = dfs_oz_dot2_done(&d, a.k, &Bd);
            if (dfs_oz_ddsum_round_within(&dd, Bd, -sigma, alpha, beta, beta != 0 ? *out : 0.0,
                                          &v)) {
                *out = v;
                open &= ~(1u << o);
            } else if (dd.s < 0x1p-900) { /* NaN compares false */
                any_tiny = 1;
                tiny.s = dd.s > tiny.s ? dd.s : tiny.s;
            }
        }
        if (pass == 1 || !any_tiny || !(sigma = dfs_oz_ddsum_scale(&tiny, &px, &py)))
            break;
    }
    for (int o = 0; o < TM * TN; o++)
        if (open >> o & 1u)
            open_o[atomicAdd(nopen, 1)] = (e * a.bn + c0 + o % TN) * a.bm + r0 + o / TN;
}

/* The block's open outputs (their indices in open_o, n of them), each by a group of lanes of
 * the block's warps, as dfs_oz_small takes every output (small_group_output: double-double in
 * lanes, on scaled operands for tiny products, then expansions, then the warp exactly).  Not
 * inlined: inlined, the kernel's registers spilled on sm_90. */
__device__ __noinline__ void open_outputs(const dfs_oz_small_args &s, const int64_t *open_o,
                                          int n, long long *wa, long long *ws, double alpha,
                                          double beta)
{
    constexpr int PER_WARP = 32 / DFS_OZ_SMALL_LANES;
    const int lane = threadIdx.x & 31;
    for (int i = (threadIdx.x >> 5) * PER_WARP; i < n; i += DFS_OZ_TILED_WARPS * PER_WARP) {
        const int idx = i + lane / DFS_OZ_SMALL_LANES;
        small_group_output(s, idx < n ? open_o[idx] : 0, idx < n, wa, ws, alpha, beta);
    }
}

/* The kernel of TM x TN tiles: each thread a tile, the block's open outputs after each round. */
template <int TM, int TN> __device__ __forceinline__ void small_tiled(const dfs_oz_small_args &s)
{
    constexpr int W = DFS_OZ_TILED_WARPS;
    __shared__ long long wa[W][DFS_X_WORDS];
    __shared__ long long ws[W][DFS_X_WORDS];
    __shared__ int64_t open_o[32 * W * TM * TN];
    __shared__ double sums[3 * TM * TN][32 * W]; /* the tiles' sums (tile_outputs) */
    __shared__ int nopen;
    const dfs_oz_finish_args &a = s.blk;
    const int64_t tm = (a.bm + TM - 1) / TM, tn = (a.bn + TN - 1) / TN, per = tm * tn;
    const int64_t total = per * s.batch;
    const double alpha = blk_alpha(a), beta = blk_beta(a);
    const int wp = threadIdx.x >> 5;
    /* the block's threads take consecutive tiles, consecutive down a column of tiles (op(A)'s
     * reads coalesce where its rows are contiguous, op(B)'s are shared); every thread takes
     * part in every round (the barriers) */
    for (int64_t base = (int64_t)blockIdx.x * blockDim.x; base < total;
         base += (int64_t)gridDim.x * blockDim.x) {
        if (threadIdx.x == 0)
            nopen = 0;
        __syncthreads();
        const int64_t t = base + threadIdx.x;
        if (t < total) {
            const int64_t e = s.batch > 1 ? t / per : 0, rc = t - e * per;
            const int64_t r0 = rc % tm * TM, c0 = rc / tm * TN;
            const int rows = (int)min64(TM, a.bm - r0), cols = (int)min64(TN, a.bn - c0);
            tile_outputs<TM, TN, 32 * W>(a, a.A + e * s.sA + r0 * a.ars,
                                         a.B + e * s.sB + c0 * a.bcs, a.C + e * s.sC, e, r0, c0,
                                         rows, cols, alpha, beta, &sums[0][threadIdx.x], open_o,
                                         &nopen);
        }
        __syncthreads();
        if (nopen) /* the same in every thread */
            open_outputs(s, open_o, nopen, wa[wp], ws[wp], alpha, beta);
        __syncthreads();
    }
}

/* DFS_OZ_TILE_M x DFS_OZ_TILE_N tiles (fewer loads a product; for many outputs) */
extern "C" __global__ void __launch_bounds__(32 * DFS_OZ_TILED_WARPS)
    dfs_oz_small_tiled(const __grid_constant__ dfs_oz_small_args s)
{
    small_tiled<DFS_OZ_TILE_M, DFS_OZ_TILE_N>(s);
}

/* 1 x 1 tiles (four times the threads; for outputs too few to fill the GPU in tiles) */
extern "C" __global__ void __launch_bounds__(32 * DFS_OZ_TILED_WARPS)
    dfs_oz_small_tiled1(const __grid_constant__ dfs_oz_small_args s)
{
    small_tiled<1, 1>(s);
}

#endif
