/* kernels_vec.cu — the reproducible engine's DOT and GEMV: every output rounded once, RN of
 * its exact value (the steps of host.c, with real threads): the same bits on every grid.
 *
 * Both sum first in double-double with an error bound (../oz/ddsum.h: 17 operations a product;
 * products below 2^-900 in a class of their own, on scaled operands) and round where the bound
 * decides; what it leaves open is computed exactly.  DOT (real and complex, kernels_dot.cuh):
 * the blocks' sums merged by the last block; the exact way adds every product into binary64
 * expansions (fpe.h) and exact integer accumulators (xacc.h) with 64-bit atomics.  GEMV (below;
 * complex: kernels_zgemv.cuh): per chunk of the inner dimension, merged by a warp per output
 * (dfs_oz_gemv_final), which computes an open output exactly itself. */
#include "../oz/device.cuh"
#include "../oz/wint.h"
#include "vec_args.h"

/* A block's accumulator into the global one (zeroed before the kernel): only its non-zero
 * words, a few for most data.  Each block adds less than 2^43 to a word (2^30 products at most
 * before a normalisation), so 2^20 blocks cannot overflow one. */
__device__ __forceinline__ void flush_words(long long *global, const long long *w)
{
    for (int i = threadIdx.x; i < DFS_X_WORDS; i += blockDim.x)
        if (w[i])
            atomicAdd((unsigned long long *)&global[i], (unsigned long long)w[i]);
}

/* Elements loaded ahead of the expansion updates: their loads do not wait on the (branchy,
 * serial) updates of the previous ones.  The products are exact in any order. */
/* How each kernel streams its pairs (stream_strided below), chosen by measurement
 * (../oz/README.md, "DDOT and DGEMV"): DDOT and DGEMV N two at a time with the next two in
 * flight, DGEMV T four at a time (prefetching made it slower), the one-pass complex DOT one
 * element with the next in flight (two: 4% slower, 122 registers against 108). */
#define DOT_AHEAD 2
#define DOT_PREFETCH 1
#define GEMV_N_AHEAD 2
#define GEMV_N_PREFETCH 1
#define GEMV_T_AHEAD 4
#define GEMV_T_PREFETCH 0
#define ZDOT_AHEAD 1 /* the one-pass complex DOT: one element with the next in flight */
#define ZDOT_PREFETCH 1

/* use(x[u sx], y[u sy]) for u = 0 .. count - 1, in that order, elements E (a double, or a
 * complex one) loaded N at a time (zeros past the end: exact zero products), the next N in
 * flight during the current ones' updates with PREFETCH; the addresses are stepped, not computed
 * per element (computed, the index arithmetic was a quarter of the DOT's instructions). */
template <int N, int PREFETCH, typename E, typename Use>
__device__ __forceinline__ void stream_strided(const E *x, int64_t sx, const E *y, int64_t sy,
                                               int64_t count, Use use)
{
    int64_t left = count; /* pairs not yet loaded */
    auto next = [&](E *a, E *b) {
        *a = *b = E{};
        if (left > 0) {
            *a = *x;
            *b = *y;
            x += sx;
            y += sy;
            left--;
        }
    };
    E xs[N], ys[N];
#pragma unroll
    for (int u = 0; u < N; u++) {
        xs[u] = ys[u] = E{};
        if (PREFETCH)
            next(&xs[u], &ys[u]);
    }
    for (int64_t done = 0; done < count; done += N) {
        E xn[N], yn[N];
#pragma unroll
        for (int u = 0; u < N; u++)
            next(&xn[u], &yn[u]);
#pragma unroll
        for (int u = 0; u < N; u++) {
            if (PREFETCH) {
                use(xs[u], ys[u]);
                xs[u] = xn[u];
                ys[u] = yn[u];
            } else {
                use(xn[u], yn[u]);
            }
        }
    }
}

/* How many of first, first + step, ... lie below end. */
__device__ __forceinline__ int64_t strided_count(int64_t first, int64_t end, int64_t step)
{
    return first < end ? (end - 1 - first) / step + 1 : 0;
}

#include "kernels_dot.cuh"

/* ---------- GEMV ---------- */

/* A chunk's sums into the workspace: h, l and s (ddsum.h) of both classes (products from 2^-900
 * up, and below it scaled: dfs_oz_ddsum2) of chunk s of output o; a product the sums cannot
 * take sets the output's flag (the final kernel computes it exactly). */
__device__ __forceinline__ void store_sum(const dfs_oz_gemv_args &a, int64_t o, int s,
                                          const dfs_oz_ddsum2 &d)
{
    double *out = a.terms + (int64_t)s * DFS_OZ_GEMV_SUMS * a.len + o;
    out[0] = d.m.h;
    out[a.len] = d.m.l;
    out[2 * a.len] = d.m.s;
    out[3 * a.len] = d.t.h;
    out[4 * a.len] = d.t.l;
    out[5 * a.len] = d.t.s;
    if (d.m.f | d.t.f)
        atomicOr(&a.flags[o], 1u);
}

/* The sums store_sum left for chunk s of output o (flags not included: flags[o] has them). */
__device__ __forceinline__ dfs_oz_ddsum2 load_sum(const dfs_oz_gemv_args &a, int64_t o, int s)
{
    const double *in = a.terms + (int64_t)s * DFS_OZ_GEMV_SUMS * a.len + o;
    const dfs_oz_ddsum2 c = {{in[0], in[a.len], in[2 * a.len], 0u},
                             {in[3 * a.len], in[4 * a.len], in[5 * a.len], 0u}};
    return c;
}

/* op(A) = A: one thread per row and chunk of columns (reads of A coalesced along the column). */
extern "C" __global__ void __launch_bounds__(DFS_OZ_GEMV_THREADS)
    dfs_oz_gemv_n(dfs_oz_gemv_args a)
{
    if (a.alpha && *a.alpha == 0.0)
        return; /* A and x are not read: dfs_oz_gemv_final gives RN(beta y) */
    const int64_t r = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    const int s = blockIdx.y;
    if (r >= a.len)
        return;
    const int64_t j0 = (int64_t)s * a.chunk, j1 = min64(a.inner, j0 + a.chunk);
    dfs_oz_ddsum2 d = dfs_oz_ddsum2_zero();
    stream_strided<GEMV_N_AHEAD, GEMV_N_PREFETCH>(
        a.A + r + j0 * a.lda, a.lda, a.x + vidx(j0, a.incx, a.inner), a.incx, j1 - j0,
        [&](double x, double y) { dfs_oz_ddsum2_add(&d, x, y); });
    store_sum(a, r, s, d);
}

/* op(A) = A^T: one warp per column and chunk of rows; the lanes' sums merged (group_merge_sum2). */
extern "C" __global__ void __launch_bounds__(DFS_OZ_GEMV_THREADS)
    dfs_oz_gemv_t(dfs_oz_gemv_args a)
{
    if (a.alpha && *a.alpha == 0.0)
        return; /* A and x are not read: dfs_oz_gemv_final gives RN(beta y) */
    const int lane = threadIdx.x & 31;
    const int64_t c = (int64_t)blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    const int s = blockIdx.y;
    if (c >= a.len)
        return;
    const int64_t i0 = (int64_t)s * a.chunk, i1 = min64(a.inner, i0 + a.chunk);
    dfs_oz_ddsum2 d = dfs_oz_ddsum2_zero();
    stream_strided<GEMV_T_AHEAD, GEMV_T_PREFETCH>(
        a.A + c * a.lda + i0 + lane, 32, a.x + vidx(i0 + lane, a.incx, a.inner), 32 * a.incx,
        strided_count(i0 + lane, i1, 32), [&](double x, double y) { dfs_oz_ddsum2_add(&d, x, y); });
    group_merge_sum2<32>(&d);
    if (lane == 0)
        store_sum(a, c, s, d);
}

/* One warp per output: y = RN(alpha S + beta y).  First the chunks' double-double sums of both
 * classes merged (each lane its chunks, then group_merge_sum2) and rounded where their bounds
 * decide it (ddsum.h's dfs_oz_ddsum2_round; without workspace the warp sums the whole output
 * so); what is still open (a product out of the sums' range, Inf or NaN, a result within the
 * bound of a rounding boundary, beta y far from alpha S) exactly: every product into the warp's
 * accumulator in shared memory, rounded once (warp_exact_output).  The levels of merges on the
 * way to a sum (T's in-chunk butterfly, a lane's chunks, the final butterfly) count in the bound
 * beside the products (ddsum.h: an error of 4.1 u^2 S per level). */
extern "C" __global__ void __launch_bounds__(32 * DFS_OZ_FINAL_WARPS, 2)
    dfs_oz_gemv_final(dfs_oz_gemv_args a)
{
    __shared__ long long wa[DFS_OZ_FINAL_WARPS][DFS_X_WORDS];
    __shared__ long long ws[DFS_OZ_FINAL_WARPS][DFS_X_WORDS];
    const int lane = threadIdx.x & 31, wp = threadIdx.x / 32;
    const int64_t o = (int64_t)blockIdx.x * DFS_OZ_FINAL_WARPS + wp;
    if (o >= a.len)
        return; /* whole warps only: no block-wide barrier below */
    const double alpha = a.alpha ? *a.alpha : a.alpha_v;
    const double beta = a.beta ? *a.beta : a.beta_v;
    double *y = a.y + vidx(o, a.incy, a.len);
    /* op(A)'s row o as a BLAS vector of a.inner, and x */
    const double *arow = a.trans ? a.A + o * a.lda : a.A + o;
    const int64_t astep = a.trans ? 1 : a.lda;
    if (alpha != 0) {
        dfs_oz_ddsum2 d = dfs_oz_ddsum2_zero();
        int64_t levels = 5;
        if (a.terms) {
            for (int i = lane; i < a.splits; i += 32) {
                dfs_oz_ddsum2_merge(&d, load_sum(a, o, i));
            }
            d.m.f = a.flags[o];
            levels += (a.splits + 31) / 32 + (a.trans ? 5 : 0);
        } else {
            lane_products<32>(
                a.inner, arow, astep, a.x + vidx(0, a.incx, a.inner), a.incx, lane, true,
                [&](double x, double v) { dfs_oz_ddsum2_add(&d, x, v); },
                [] { return false; });
        }
        group_merge_sum2<32>(&d);
        double v;
        int done = 0;
        if (lane == 0 &&
            dfs_oz_ddsum2_round(&d, a.inner + levels, alpha, beta, beta != 0 ? *y : 0.0, &v)) {
            *y = v;
            done = 1;
        }
        if (__shfl_sync(0xffffffffu, done, 0))
            return;
    }
    warp_exact_output(wa[wp], ws[wp], a.inner, arow, astep, a.x, a.incx, a.inner, alpha, beta, y);
}

/* ---------- complex GEMV (kernels of their own: kernels_zgemv.cuh) ---------- */

#include "kernels_zgemv.cuh"
