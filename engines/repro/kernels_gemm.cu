/* kernels_gemm.cu — the reproducible engine's DGEMM around cuBLAS's exact slice products (the
 * steps of host.c's dfs_oz_gemm_host, with real threads; ../oz/README.md for the scheme), with
 * the shared rows and direct kernels of ../oz/kernels.cu:
 *   dfs_oz_split   the slices of a block of rows (../oz/steps.h), scaled into (-1, 1);
 *   (cuBLAS)       P_ij = S_A_i * S_B_j, exact in binary64;
 *   dfs_oz_finish  per output: the partials into a window accumulator, one rounding; outputs
 *                  that cannot (special values, a window too small, a rounding that the pairs
 *                  left out could change) go to a list for dfs_oz_direct. */
#include "../oz/args.h"
#include "../oz/device.cuh"
#include "../oz/steps.h"
#include "finish.h"
#include "gemm_args.h"

/* ---------- split ---------- */

extern "C" __global__ void __launch_bounds__(256) dfs_oz_split(dfs_oz_split_args a)
{
    const int64_t total = a.rows * a.k, stride = (int64_t)gridDim.x * blockDim.x;
    /* walk the element index with the source's contiguous dimension fastest */
    const int r_fast = a.rs == 1;
    for (int64_t e = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; e < total; e += stride) {
        const int64_t r = r_fast ? e % a.rows : e / a.k, q = r_fast ? e / a.rows : e % a.k;
        const int tau = a.tau[a.r0 + r];
        /* a row of zeros (or, alpha = 0, not read: dfs_oz_rows) is not loaded */
        const double v = tau == DFS_OZ_NONE_TAU ? 0.0 : a.X[(a.r0 + r) * a.rs + q * a.qs];
        double *out = a.S + r * a.srs + q * a.sqs;
        for (int i = 0; i < a.s; i++)
            out[i * a.sstride] =
                tau == DFS_OZ_NONE_TAU || !dfs_d_is_finite(v) ? 0.0 : dfs_oz_slice(v, tau, a.beta, i);
    }
}

/* ---------- finish ---------- */

extern "C" __global__ void __launch_bounds__(DFS_OZ_FINISH_THREADS)
    dfs_oz_finish(dfs_oz_finish_args a)
{
    /* word-major per thread with an odd stride: conflict-free enough */
    __shared__ long long win[DFS_OZ_FINISH_THREADS * DFS_OZ_WIN + DFS_OZ_FINISH_THREADS];
    __shared__ long long res[DFS_OZ_FINISH_THREADS * DFS_OZ_RWIN + DFS_OZ_FINISH_THREADS];
    const int64_t e = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    int how = DFS_OZ_WRITTEN, lower = 0;
    if (e < a.bm * a.bn) {
        const int64_t r = e % a.bm, c = e / a.bm; /* r fastest: P and C reads coalesce */
        how = dfs_oz_finish_output(&a, r, c, (int64_t *)win + threadIdx.x * (DFS_OZ_WIN + 1),
                                   (int64_t *)res + threadIdx.x * (DFS_OZ_RWIN + 1), &lower);
        /* listed outputs keep C as it was: the direct kernel reads it for beta * C */
        if (how != DFS_OZ_WRITTEN)
            a.list[atomicAdd(a.count, 1u)] = pack_rc(r, c);
    }
    out_tally t = {0, 0, 0};
    tally_output(&t, how, lower);
    tally_flush(a.stats, a.seq, e == 0, t);
}

