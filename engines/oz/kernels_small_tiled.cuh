/* kernels_small_tiled.cuh — repro's small DGEMMs by tiles (kernels.cu includes it; one module):
 *   dfs_oz_small_tiled  every output of a batch of small products in one launch, correctly
 *                 rounded, each thread a DFS_OZ_TILE_M x DFS_OZ_TILE_N tile of outputs of one
 *                 entry: every product of each summed serially in double-double of two classes
 *                 (ddsum.h's dfs_oz_ddsum2: products below 2^-900 on scaled operands), op(A)'s
 *                 and op(B)'s elements loaded once per tile row and column (at 2 x 2 one load a
 *                 product, where dfs_oz_small's lanes take two), and rounded where the bound
 *                 decides.  The outputs a block leaves open (a product of 2^1000 or more, Inf,
 *                 NaN, a result within the bound of a rounding boundary) are then computed each
 *                 by one warp of the block, exactly (warp_exact_output).  Any way gives
 *                 RN(exact): the bits of dfs_oz_small and every other repro path.  No
 *                 workspace, no cuBLAS call.  Chosen by repro's option small=tiled. */
#ifndef DFS_OZ_KERNELS_SMALL_TILED_CUH
#define DFS_OZ_KERNELS_SMALL_TILED_CUH

#include "args.h"
#include "ddsum.h"
#include "device.cuh"
#include "tuning.h"

/* One output's sum d of k products rounded into *out where the bound decides (1), else 0.  Not
 * inlined: four inlined copies of the rounding made the kernel spill on sm_90. */
__device__ __noinline__ int round_output(dfs_oz_ddsum2 d, int64_t k, double alpha, double beta,
                                         double *out)
{
    double v;
    if (!dfs_oz_ddsum2_round(&d, k, alpha, beta, beta != 0 ? *out : 0.0, &v))
        return 0;
    *out = v;
    return 1;
}

/* The tile of outputs rows r0 .., columns c0 .. of one entry (rows x cols of it inside the
 * product; A, B at op(A)'s row r0 and op(B)'s column c0, C at the entry's C): its sums, and
 * each output rounded where the bound decides; the others' indices o = (e bn + c) bm + r
 * appended to open_o (count *nopen). */
template <int TM, int TN>
__device__ __forceinline__ void tile_outputs(const dfs_oz_finish_args &a, const double *A,
                                             const double *B, double *C, int64_t e, int64_t r0,
                                             int64_t c0, int rows, int cols, double alpha,
                                             double beta, int64_t *open_o, int *nopen)
{
    dfs_oz_ddsum2 d[TM][TN];
#pragma unroll
    for (int i = 0; i < TM; i++)
#pragma unroll
        for (int j = 0; j < TN; j++)
            d[i][j] = dfs_oz_ddsum2_zero();
    if (alpha != 0) /* alpha = 0 (C = beta C): A and B not read */
        for (int64_t q = 0; q < a.k; q++, A += a.aqs, B += a.bqs) {
            double x[TM], y[TN];
#pragma unroll
            for (int i = 0; i < TM; i++)
                x[i] = i < rows ? A[i * a.ars] : 0.0;
#pragma unroll
            for (int j = 0; j < TN; j++)
                y[j] = j < cols ? B[j * a.bcs] : 0.0;
#pragma unroll
            for (int i = 0; i < TM; i++)
#pragma unroll
                for (int j = 0; j < TN; j++)
                    dfs_oz_ddsum2_add(&d[i][j], x[i], y[j]);
        }
#pragma unroll
    for (int i = 0; i < TM; i++)
#pragma unroll
        for (int j = 0; j < TN; j++) {
            if (i >= rows || j >= cols)
                continue;
            double *out = C + (r0 + i) + (c0 + j) * a.ldc;
            if (alpha == 0) /* C = beta C, as cuBLAS */
                *out = beta != 0 ? dfs_d_mul(beta, *out) : 0.0;
            else if (!round_output(d[i][j], a.k, alpha, beta, out))
                open_o[atomicAdd(nopen, 1)] = (e * a.bn + c0 + j) * a.bm + r0 + i;
        }
}

/* The block's open outputs (their indices in open_o, n of them), each by one warp of the block,
 * exactly (warp_exact_output in the warp's accumulators wa, ws).  Not inlined: inlined, the
 * kernel's registers spilled on sm_90. */
__device__ __noinline__ void open_outputs(const dfs_oz_small_args &s, const int64_t *open_o,
                                          int n, long long *wa, long long *ws, double alpha,
                                          double beta)
{
    const dfs_oz_finish_args &a = s.blk;
    const int64_t mn = a.bm * a.bn;
    for (int i = threadIdx.x >> 5; i < n; i += DFS_OZ_TILED_WARPS) {
        const int64_t o = open_o[i], e = o / mn, rc = o - e * mn, r = rc % a.bm, c = rc / a.bm;
        warp_exact_output(wa, ws, a.k, a.A + e * s.sA + r * a.ars, a.aqs,
                          a.B + e * s.sB + c * a.bcs, a.bqs, a.k, alpha, beta,
                          a.C + e * s.sC + r + c * a.ldc);
    }
}

extern "C" __global__ void __launch_bounds__(32 * DFS_OZ_TILED_WARPS)
    dfs_oz_small_tiled(const __grid_constant__ dfs_oz_small_args s)
{
    constexpr int TM = DFS_OZ_TILE_M, TN = DFS_OZ_TILE_N, W = DFS_OZ_TILED_WARPS;
    __shared__ long long wa[W][DFS_X_WORDS];
    __shared__ long long ws[W][DFS_X_WORDS];
    __shared__ int64_t open_o[32 * W * TM * TN];
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
            tile_outputs<TM, TN>(a, a.A + e * s.sA + r0 * a.ars, a.B + e * s.sB + c0 * a.bcs,
                                 a.C + e * s.sC, e, r0, c0, rows, cols, alpha, beta, open_o,
                                 &nopen);
        }
        __syncthreads();
        if (nopen) /* the same in every thread */
            open_outputs(s, open_o, nopen, wa[wp], ws[wp], alpha, beta);
        __syncthreads();
    }
}

#endif
