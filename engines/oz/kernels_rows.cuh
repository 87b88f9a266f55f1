/* kernels_rows.cuh — the passes over the rows of op(A) and the columns of op(B) that every
 * Ozaki-family DGEMM starts with (kernels.cu includes it; one module):
 *   dfs_oz_rows     per row of op(A) / column of op(B): top exponent, slices needed, l1 norm,
 *                   sum of squares, specials (of every element, or of one group of the inner
 *                   dimension);
 *   dfs_oz_kgroups  the inner dimension's classes and split (kgroups.h), from rows passes over
 *                   op(A)'s columns and op(B)'s rows. */
#ifndef DFS_OZ_KERNELS_ROWS_CUH
#define DFS_OZ_KERNELS_ROWS_CUH

#include "args.h"
#include "device.cuh"
#include "kgroups.h"
#include "steps.h"

/* ---------- rows ---------- */

#define ROW_PARTS 32 /* threads per row when the rows are the contiguous dimension: a warp's
                        worth, as with the rows contiguous */

/* A thread's elements x[q * qs] for q = q0, q0 + step, ... below k, added in that order, their
 * loads issued ROW_LOADS at a time (tuning.h). */
#define ROW_LOADS DFS_OZ_ROW_LOADS
__device__ __forceinline__ void row_sweep(dfs_oz_row *ri, const double *x, int64_t q0, int step,
                                          int64_t k, int64_t qs)
{
    int64_t q = q0;
    for (; q + (ROW_LOADS - 1) * step < k; q += ROW_LOADS * step) {
        double v[ROW_LOADS];
#pragma unroll
        for (int i = 0; i < ROW_LOADS; i++)
            v[i] = x[(q + i * step) * qs];
#pragma unroll
        for (int i = 0; i < ROW_LOADS; i++)
            dfs_oz_row_add(ri, v[i]);
    }
    for (; q < k; q += step)
        dfs_oz_row_add(ri, x[q * qs]);
}

/* The same over one group of the inner dimension (kgroups.h): the elements of the other groups
 * count only for the row's specials. */
__device__ __forceinline__ void row_sweep_group(dfs_oz_row *ri, const double *x, int64_t q0, int step,
                                             int64_t k, int64_t qs, const signed char *kcls,
                                             int group)
{
    for (int64_t q = q0; q < k; q += step) {
        const double v = x[q * qs];
        if (kcls[q] == group)
            dfs_oz_row_add(ri, v);
        else if (!dfs_d_is_finite(v))
            ri->special = 1;
    }
}

/* A thread's part of a row: all of it, or its group's. */
__device__ __forceinline__ void row_part(const dfs_oz_rows_args &a, dfs_oz_row *ri,
                                         const double *x, int64_t q0, int step)
{
    if (a.kcls)
        row_sweep_group(ri, x, q0, step, a.k, a.qs, a.kcls, a.group);
    else
        row_sweep(ri, x, q0, step, a.k, a.qs);
}

/* Block bx of one operand's pass.  With qs == 1 (warp_per_row) a warp per row, its lanes along
 * the row; otherwise DFS_OZ_ROWS_PER_BLOCK x ROW_PARTS threads for DFS_OZ_ROWS_PER_BLOCK rows,
 * consecutive threads on consecutive rows (coalesced), ROW_PARTS threads per row each taking
 * every ROW_PARTS-th element (enough warps in flight for a few thousand rows), merged through
 * shared memory.  Either way the same partial sums merged in the same order (host_common.h's
 * row_of_gpu).  The rows per block (tuning.h) keep several blocks per SM at 40 registers. */
__device__ __forceinline__ void rows_pass(const dfs_oz_rows_args &a, unsigned bx)
{
    __shared__ dfs_oz_row parts[ROW_PARTS][DFS_OZ_ROWS_PER_BLOCK];
    if (bx == 0 && threadIdx.x == 0 && a.consts) {
        a.consts[0] = 1.0;
        a.consts[1] = 0.0;
        ((int32_t *)(a.consts + 2))[0] = 1;
        ((int32_t *)(a.consts + 2))[1] = 0;
    }
    if (a.gate && dfs_oz_kgate_closed(a.gate))
        return; /* the classes' pass on narrow data (dfs_oz_kgroups) */
    const int lane = threadIdx.x & 31;
    const int skip = a.alpha && *a.alpha == 0.0; /* alpha = 0: X is not read */
    int64_t r;
    dfs_oz_row ri = dfs_oz_row_init();
    if (a.warp_per_row) {
        r = ((int64_t)bx * blockDim.x + threadIdx.x) / 32;
        if (r >= a.rows)
            return; /* whole warps */
        if (!skip)
            row_part(a, &ri, a.X + r * a.rs, lane, 32);
        for (int off = 16; off > 0; off >>= 1) {
            dfs_oz_row o;
            o.tau = __shfl_xor_sync(0xffffffffu, ri.tau, off);
            o.low = __shfl_xor_sync(0xffffffffu, ri.low, off);
            o.special = __shfl_xor_sync(0xffffffffu, ri.special, off);
            o.l1 = __shfl_xor_sync(0xffffffffu, ri.l1, off);
            o.ss = __shfl_xor_sync(0xffffffffu, ri.ss, off);
            dfs_oz_row_merge(&ri, o);
        }
        if (lane != 0)
            return;
    } else {
        const int part = threadIdx.x / DFS_OZ_ROWS_PER_BLOCK;
        const int row = threadIdx.x % DFS_OZ_ROWS_PER_BLOCK;
        r = (int64_t)bx * DFS_OZ_ROWS_PER_BLOCK + row;
        if (r < a.rows && !skip)
            row_part(a, &ri, a.X + r * a.rs, part, ROW_PARTS);
        /* merged as a tree, part p with part p + off: the sums of the warp's butterfly above
         * (its lane 0), so that the norms, hence the int8 engine's bits, do not depend on
         * which dimension of the operand is contiguous */
        parts[part][row] = ri;
        __syncthreads();
        for (int off = ROW_PARTS / 2; off > 0; off >>= 1) {
            if (part < off) {
                dfs_oz_row m = parts[part][row];
                dfs_oz_row_merge(&m, parts[part + off][row]);
                parts[part][row] = m;
            }
            __syncthreads();
        }
        if (part != 0 || r >= a.rows)
            return;
        ri = parts[0][row];
    }
    const int need = ri.special ? DFS_OZ_SPECIAL : dfs_oz_row_slices(ri, a.beta);
    a.tau[r] = ri.tau;
    a.need[r] = need;
    a.nrm[r] = dfs_oz_row_l1(ri, a.k);
    if (a.ss)
        a.ss[r] = dfs_oz_row_l2sq(ri, a.k);
    if (need > 0)
        atomicMax(a.maxneed, need);
}

/* One operand's pass (b.rows = 0), or two in one launch: a's first a_blocks blocks, then b's
 * (dfs_oz_rows_pair). */
extern "C" __global__ void __launch_bounds__(DFS_OZ_ROWS_PER_BLOCK * ROW_PARTS)
    dfs_oz_rows(const __grid_constant__ dfs_oz_rows_pair p)
{
    const bool is_b = blockIdx.x >= p.a_blocks;
    const dfs_oz_rows_args a = is_b ? p.b : p.a;
    rows_pass(a, is_b ? blockIdx.x - p.a_blocks : blockIdx.x);
}

/* ---------- the inner dimension in groups (kgroups.h) ---------- */

/* One block: the values s_q takes marked in a bitmap of bins, each thread the largest gap inside
 * its run of bins, thread 0 the gaps between the runs (the same split as dfs_oz_ksplit_host:
 * the largest gap, ties the higher), then kcls for every q. */
#define KG_RUN ((DFS_OZ_KS_BINS + DFS_OZ_KGROUPS_THREADS - 1) / DFS_OZ_KGROUPS_THREADS)
extern "C" __global__ void __launch_bounds__(DFS_OZ_KGROUPS_THREADS)
    dfs_oz_kgroups(dfs_oz_kgroups_args a)
{
    __shared__ unsigned char present[KG_RUN * DFS_OZ_KGROUPS_THREADS];
    __shared__ int first[DFS_OZ_KGROUPS_THREADS], last[DFS_OZ_KGROUPS_THREADS],
        gap[DFS_OZ_KGROUPS_THREADS], top[DFS_OZ_KGROUPS_THREADS];
    __shared__ int split, thr;
    const int t = threadIdx.x;
    if (a.gate && dfs_oz_kgate_closed(a.gate)) {
        if (t == 0) /* no row or column wide enough for a split to help (kgroups.h) */
            a.out[0] = a.out[1] = 0;
        return;
    }
    for (int i = t; i < KG_RUN * DFS_OZ_KGROUPS_THREADS; i += blockDim.x)
        present[i] = 0;
    __syncthreads();
    for (int64_t q = t; q < a.k; q += blockDim.x) {
        const int s = dfs_oz_ks(a.tA[q], a.tB[q]);
        if (s != DFS_OZ_NONE_TAU)
            present[s - DFS_OZ_KS_LO] = 1;
    }
    __syncthreads();
    int f = -1, l = -1, g = 0, tp = 0;
    for (int i = t * KG_RUN; i < (t + 1) * KG_RUN; i++) {
        if (!present[i])
            continue;
        if (l >= 0 && i - l >= g) {
            g = i - l;
            tp = i;
        }
        if (f < 0)
            f = i;
        l = i;
    }
    first[t] = f;
    last[t] = l;
    gap[t] = g;
    top[t] = tp;
    __syncthreads();
    if (t == 0) {
        int prev = -1, best = 0, at = 0;
        for (int j = 0; j < DFS_OZ_KGROUPS_THREADS; j++) {
            if (first[j] < 0)
                continue;
            if (prev >= 0 && first[j] - prev >= best) {
                best = first[j] - prev;
                at = first[j];
            }
            if (gap[j] > 0 && gap[j] >= best) {
                best = gap[j];
                at = top[j];
            }
            prev = last[j];
        }
        split = best >= DFS_OZ_KGAP;
        thr = at + DFS_OZ_KS_LO;
        a.out[0] = best;
        a.out[1] = split;
    }
    __syncthreads();
    for (int64_t q = t; q < a.k; q += blockDim.x)
        a.kcls[q] = dfs_oz_kclass(dfs_oz_ks(a.tA[q], a.tB[q]), split, thr);
}

#endif
