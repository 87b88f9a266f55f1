/* kernels_f32.cu — DGEMM by the Ozaki scheme on binary32 products (f32split.h, f32_gemm.c;
 * host_f32.c is the CPU model):
 *   dfs_f32_rows    per row of op(A) / column of op(B): the largest and smallest magnitudes;
 *   dfs_f32_split   the row scaled into (-2^h, 2^h) and cut into binary32 parts;
 *   (cuBLAS)        SGEMM of the pairs of parts, the slice x slice ones exact;
 *   dfs_f32_finish  per output: the partials added in binary64, scaled back, alpha and beta;
 *                   outputs with Inf or NaN operands or a range binary32 cannot carry listed;
 *   dfs_f32_direct  the listed outputs in plain binary64.
 * No contraction (-fmad=false) and no flush to zero: the split's additions must round as
 * written. */
#include "f32split.h"
#include "args.h"

#include "../common/bits.h"

#define ROWS_CHUNK 512 /* elements of a row per thread block and row */

__device__ __forceinline__ int top_of_bits(unsigned long long b)
{
    return dfs_f32_top(dfs_d_from_bits(b));
}

/* 256 threads.  warp_per_row: eight rows per block, a warp per row, its lanes along the row;
 * otherwise 32 rows per block, consecutive threads on consecutive rows (coalesced when the rows
 * are the contiguous dimension), eight threads per row.  Each block takes ROWS_CHUNK elements
 * of its rows (blockIdx.y, then every gridDim.y-th chunk). */
extern "C" __global__ void __launch_bounds__(DFS_F32_THREADS) dfs_f32_rows(dfs_f32_rows_args a)
{
    if (blockIdx.x == 0 && blockIdx.y == 0 && threadIdx.x == 0 && a.consts) {
        a.consts[0] = 1.0f;
        a.consts[1] = 0.0f;
    }
    if (a.alpha && *a.alpha == 0.0)
        return; /* X is not read: every row as a row of zeros */
    const int lane = threadIdx.x & 31, sub = threadIdx.x >> 5;
    const int64_t r = a.warp_per_row ? (int64_t)blockIdx.x * 8 + sub
                                     : (int64_t)blockIdx.x * 32 + lane;
    if (r >= a.rows)
        return; /* whole warps in warp_per_row */
    unsigned long long hi = 0, lo = ~0ull;
    for (int64_t c0 = (int64_t)blockIdx.y * ROWS_CHUNK; c0 < a.k;
         c0 += (int64_t)gridDim.y * ROWS_CHUNK) {
        const int64_t end = c0 + ROWS_CHUNK < a.k ? c0 + ROWS_CHUNK : a.k;
        const int first = a.warp_per_row ? lane : sub, step = a.warp_per_row ? 32 : 8;
        for (int64_t q = c0 + first; q < end; q += step) {
            const unsigned long long b =
                dfs_d_bits(a.X[r * a.rs + q * a.qs]) & 0x7fffffffffffffffull;
            hi = b > hi ? b : hi;
            if (b != 0 && b < DFS_F32_INF_BITS && b < lo)
                lo = b;
        }
    }
    if (a.warp_per_row) {
        for (int off = 16; off > 0; off >>= 1) {
            const unsigned long long h2 = __shfl_xor_sync(0xffffffffu, hi, off);
            const unsigned long long l2 = __shfl_xor_sync(0xffffffffu, lo, off);
            hi = h2 > hi ? h2 : hi;
            lo = l2 < lo ? l2 : lo;
        }
        if (lane != 0)
            return;
    }
    if (hi)
        atomicMax(&a.hi[r], hi);
    if (lo != ~0ull)
        atomicMin(&a.lo[r], lo);
}

/* 256 threads as 32 x 8: x along X's contiguous dimension, y along the other (every
 * gridDim.y * 8-th line). */
extern "C" __global__ void __launch_bounds__(DFS_F32_THREADS) dfs_f32_split(dfs_f32_split_args a)
{
    const int64_t inner = a.row_inner ? a.rows : a.k, outer = a.row_inner ? a.k : a.rows;
    const int64_t i = (int64_t)blockIdx.x * 32 + (threadIdx.x & 31);
    if (i >= inner)
        return;
    const int skip = a.alpha && *a.alpha == 0.0;
    const int nparts = a.is_b ? 2 * a.S - 1 : a.S;
    for (int64_t o = (int64_t)blockIdx.y * 8 + (threadIdx.x >> 5); o < outer;
         o += (int64_t)gridDim.y * 8) {
        const int64_t rr = a.row_inner ? i : o; /* row within the block */
        const int64_t q = a.row_inner ? o : i;
        const unsigned long long hi = a.hi[a.r0 + rr];
        float *w = a.W + i + o * inner;
        if (skip || hi >= DFS_F32_INF_BITS || hi == 0) {
            for (int j = 0; j < nparts; j++)
                w[j * a.pstride] = 0.0f;
            continue;
        }
        const double x = a.row_inner ? a.X[(a.r0 + rr) + q * a.ld] : a.X[q + (a.r0 + rr) * a.ld];
        const int e = top_of_bits(hi) - a.h;
        double rest = dfs_f32_scale(x, -e); /* in (-2^h, 2^h), exact */
        for (int s = 1; s < a.S; s++) {
            if (a.is_b) /* the rest before slice s */
                w[(a.S - 1 + s - 1) * a.pstride] = __double2float_rn(rest);
            const double sl = dfs_f32_round_to(rest, a.h - s * a.p);
            w[(s - 1) * a.pstride] = __double2float_rn(sl); /* exact */
            rest = __dsub_rn(rest, sl);                      /* exact */
        }
        w[(a.is_b ? 2 * a.S - 2 : a.S - 1) * a.pstride] = __double2float_rn(rest);
    }
}

__device__ __forceinline__ void load_scalars(const dfs_f32_out *o, double *alpha, double *beta)
{
    *alpha = o->dev ? *o->alpha : o->alpha_h;
    *beta = o->dev ? *o->beta : o->beta_h;
}

/* alpha v + beta C, C not read when beta = 0 (as cuBLAS). */
__device__ __forceinline__ void store(const dfs_f32_out *o, int64_t r, int64_t c, double alpha,
                                      double beta, double v)
{
    double *cp = o->C + r + c * o->ldc;
    const double bc = beta == 0.0 ? 0.0 : __dmul_rn(beta, *cp);
    *cp = __dadd_rn(__dmul_rn(alpha, v), bc);
}

__device__ __forceinline__ int span_of(unsigned long long hi, unsigned long long lo)
{
    return hi ? top_of_bits(hi) - top_of_bits(lo) : 0;
}

/* DFS_F32_THREADS threads along the rows of C, blockIdx.y along its columns (every
 * gridDim.y-th). */
extern "C" __global__ void __launch_bounds__(DFS_F32_THREADS)
    dfs_f32_finish(dfs_f32_finish_args a)
{
    const int64_t rb = (int64_t)blockIdx.x * DFS_F32_THREADS + threadIdx.x;
    if (rb >= a.bm)
        return;
    double alpha, beta;
    load_scalars(&a.o, &alpha, &beta);
    const int64_t r = a.r0 + rb;
    const unsigned long long hiA = a.hiA[r];
    const int spanA = hiA < DFS_F32_INF_BITS ? span_of(hiA, a.loA[r]) : 0;
    const int eA = hiA ? top_of_bits(hiA) - a.h : 0;
    for (int64_t cb = blockIdx.y; cb < a.bn; cb += gridDim.y) {
        const int64_t c = a.c0 + cb;
        if (alpha == 0.0) { /* A and B not read, as cuBLAS */
            store(&a.o, r, c, 0.0, beta, 0.0);
            continue;
        }
        const unsigned long long hiB = a.hiB[c];
        if (hiA >= DFS_F32_INF_BITS || hiB >= DFS_F32_INF_BITS ||
            spanA + span_of(hiB, a.loB[c]) > a.wide) {
            const unsigned at = atomicAdd(a.count, 1u);
            a.list[at] = (uint32_t)rb | (uint32_t)cb << 16;
            atomicAdd(a.ndirect, 1ull);
            continue;
        }
        const float *p = a.P + rb + cb * a.bm;
        double s = 0.0;
        for (int j = 0; j < a.npairs; j++)
            s = __dadd_rn(s, (double)p[j * a.pstride]);
        const int eB = hiB ? top_of_bits(hiB) - a.h : 0;
        store(&a.o, r, c, alpha, beta, dfs_f32_scale(s, eA + eB));
    }
}

/* DFS_F32_DIRECT_WARPS warps per block, a warp per listed output (every gridDim.x-th):
 * products summed in binary64 by lane, then across lanes in a fixed butterfly. */
extern "C" __global__ void __launch_bounds__(32 * DFS_F32_DIRECT_WARPS)
    dfs_f32_direct(dfs_f32_direct_args a)
{
    const unsigned n = *a.count;
    const int lane = threadIdx.x & 31;
    double alpha, beta;
    load_scalars(&a.o, &alpha, &beta);
    for (unsigned w = blockIdx.x * DFS_F32_DIRECT_WARPS + (threadIdx.x >> 5); w < n;
         w += gridDim.x * DFS_F32_DIRECT_WARPS) {
        const uint32_t e = a.list[w];
        const int64_t r = a.r0 + (e & 0xffff), c = a.c0 + (e >> 16);
        double s = 0.0;
        for (int64_t q = lane; q < a.k; q += 32)
            s = __fma_rn(a.A[r * a.ars + q * a.aqs], a.B[q * a.bqs + c * a.bcs], s);
        for (int off = 16; off > 0; off >>= 1)
            s = __dadd_rn(s, __shfl_xor_sync(0xffffffffu, s, off));
        if (lane == 0)
            store(&a.o, r, c, alpha, beta, s);
    }
}
