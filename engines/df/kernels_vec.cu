/* kernels_vec.cu — the DF engine's memory-bound kernels: DOT and GEMV.  Every element is read once.
 * Fast path: elements converted to DF and summed with the engine's scheme, while they stay inside
 * the window of dfs_df_fast_ok (no scaling needed there).  A thread that meets an element outside
 * it sums its share again with a running exponent (dfs_dfx: any finite range); Inf/NaN mark the
 * output for a binary64 sum (IEEE results, as native). */
#include "../common/df.h"
#include "df_gemm.h"

#include <stdint.h>

#define UNROLL DFS_DF_VEC_UNROLL /* elements per thread whose loads are in flight together */

/* BLAS vectors: element i of a length-n vector with increment inc is at base(inc, n) + i*inc. */
__device__ __forceinline__ int64_t vbase(int64_t inc, int64_t n)
{
    return inc > 0 ? 0 : (n - 1) * -inc;
}

__device__ __forceinline__ int64_t vidx(int64_t i, int64_t inc, int64_t n)
{
    return vbase(inc, n) + i * inc;
}

__device__ __forceinline__ dfs_df fast_mad(dfs_df acc, double x, double y, int accurate)
{
    const dfs_df a = dfs_df_from_double(x), b = dfs_df_from_double(y);
    return accurate ? dfs_df_mad29(acc, a, b) : dfs_df_mad16(acc, a, b);
}

__device__ __forceinline__ bool nonfinite(double v)
{
    return ((dfs_d_bits(v) >> 52) & 0x7ff) == 0x7ff;
}

__device__ __forceinline__ dfs_dfx shfl_xor(dfs_dfx a, int off)
{
    dfs_dfx b;
    b.v.hi = __shfl_xor_sync(0xffffffffu, a.v.hi, off);
    b.v.lo = __shfl_xor_sync(0xffffffffu, a.v.lo, off);
    b.e = __shfl_xor_sync(0xffffffffu, a.e, off);
    return b;
}

/* Butterfly over groups of g lanes (g a power of two <= 32; every lane of the warp takes
 * part): each lane ends with its group's sum, in the same order on every run. */
__device__ __forceinline__ dfs_dfx group_sum(dfs_dfx a, int g, int accurate)
{
    for (int off = 1; off < g; off <<= 1) {
        dfs_dfx b = shfl_xor(a, off);
        a = (threadIdx.x & off) ? dfs_dfx_merge(b, a, accurate) : dfs_dfx_merge(a, b, accurate);
    }
    return a;
}

/* Block of 256: warp sums, then warp 0 sums the 8 of them. */
__device__ dfs_dfx block_sum(dfs_dfx a, int accurate)
{
    __shared__ float sh[8], sl[8];
    __shared__ int se[8];
    a = group_sum(a, 32, accurate);
    const int w = threadIdx.x / 32, l = threadIdx.x % 32;
    if (l == 0) {
        sh[w] = a.v.hi;
        sl[w] = a.v.lo;
        se[w] = a.e;
    }
    __syncthreads();
    dfs_dfx r = dfs_dfx_zero();
    if (w == 0) {
        for (int i = 0; i < (int)(blockDim.x / 32); i++) {
            dfs_dfx b;
            b.v = dfs_df_make(sh[i], sl[i]);
            b.e = se[i];
            r = dfs_dfx_merge(r, b, accurate);
        }
    }
    return r;
}

/* ---------- DOT ---------- */

extern "C" __global__ void __launch_bounds__(256) dfs_df_dot(dfs_df_dot_args a)
{
    const int64_t i0 = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    const int64_t stride = (int64_t)gridDim.x * blockDim.x;
    const double *px0 = a.x + vidx(i0, a.incx, a.n), *py0 = a.y + vidx(i0, a.incy, a.n);
    const int64_t sx = stride * a.incx, sy = stride * a.incy;
    dfs_df fast = dfs_df_make(0.0f, 0.0f);
    bool ok = true;
    const double *px = px0, *py = py0;
    int64_t i = i0;
    /* UNROLL elements per step, all their loads issued first (memory parallelism); the sum in
     * the same order as one at a time */
    for (; i + (UNROLL - 1) * stride < a.n; i += UNROLL * stride) {
        double x[UNROLL], y[UNROLL];
#pragma unroll
        for (int u = 0; u < UNROLL; u++) {
            x[u] = __ldg(px + u * sx);
            y[u] = __ldg(py + u * sy);
        }
        px += UNROLL * sx;
        py += UNROLL * sy;
#pragma unroll
        for (int u = 0; u < UNROLL; u++) {
            ok &= dfs_df_fast_ok(x[u]) & dfs_df_fast_ok(y[u]);
            fast = fast_mad(fast, x[u], y[u], a.accurate);
        }
    }
    for (; i < a.n; i += stride, px += sx, py += sy) {
        const double x = __ldg(px), y = __ldg(py);
        ok &= dfs_df_fast_ok(x) & dfs_df_fast_ok(y);
        fast = fast_mad(fast, x, y, a.accurate);
    }
    dfs_dfx acc = dfs_dfx_from_df(fast);
    bool bad = false;
    if (!ok) { /* this thread's share again, over any exponent range */
        acc = dfs_dfx_zero();
        px = px0;
        py = py0;
        for (int64_t i = i0; i < a.n; i += stride, px += sx, py += sy) {
            const double x = *px, y = *py;
            if (nonfinite(x) || nonfinite(y))
                bad = true;
            else
                acc = dfs_dfx_mad(acc, x, y, a.accurate);
        }
    }
    if (__syncthreads_or(bad) && threadIdx.x == 0)
        atomicOr(a.flag, 1);
    acc = block_sum(acc, a.accurate);
    if (threadIdx.x == 0) {
        a.part.hi[blockIdx.x] = acc.v.hi;
        a.part.lo[blockIdx.x] = acc.v.lo;
        a.part.e[blockIdx.x] = acc.e;
    }
}

/* One block: the partial sums in block order, or, when Inf/NaN was met, the binary64 sum. */
extern "C" __global__ void __launch_bounds__(256) dfs_df_dot_final(dfs_df_dot_args a)
{
    if (*a.flag) {
        __shared__ double s64[256];
        double s = 0.0;
        for (int64_t i = threadIdx.x; i < a.n; i += blockDim.x)
            s = __fma_rn(a.x[vidx(i, a.incx, a.n)], a.y[vidx(i, a.incy, a.n)], s);
        s64[threadIdx.x] = s;
        __syncthreads();
        if (threadIdx.x == 0) {
            double t = 0.0;
            for (int i = 0; i < (int)blockDim.x; i++)
                t = __dadd_rn(t, s64[i]);
            *a.result = t;
        }
        return;
    }
    /* thread t merges parts t, t + 256, ... in order, then the block's fixed tree: the same
     * order on every run, and no thread walks all the parts alone */
    dfs_dfx r = dfs_dfx_zero();
    for (int i = threadIdx.x; i < a.nparts; i += blockDim.x) {
        dfs_dfx b;
        b.v = dfs_df_make(a.part.hi[i], a.part.lo[i]);
        b.e = a.part.e[i];
        r = dfs_dfx_merge(r, b, a.accurate);
    }
    r = block_sum(r, a.accurate);
    if (threadIdx.x == 0)
        *a.result = dfs_dfx_to_double(r);
}

/* ---------- GEMV ---------- */

/* x(j) for j in [jt, jt + count), converted to DF once per block into shared memory; *bad is
 * set when one of them is outside the fast window. */
__device__ __forceinline__ void stage_x(const dfs_df_gemv_args &a, int64_t len, int64_t jt,
                                        int count, float *xh, float *xl, int *bad)
{
    if (threadIdx.x == 0)
        *bad = 0;
    __syncthreads();
    if ((int)threadIdx.x < count) {
        const double xv = __ldg(a.x + vidx(jt + threadIdx.x, a.incx, len));
        const dfs_df d = dfs_df_from_double(xv);
        xh[threadIdx.x] = d.hi;
        xl[threadIdx.x] = d.lo;
        if (!dfs_df_fast_ok(xv))
            *bad = 1;
    }
    __syncthreads();
}

__device__ __forceinline__ dfs_df df_mad(dfs_df acc, dfs_df a, dfs_df b, int accurate)
{
    return accurate ? dfs_df_mad29(acc, a, b) : dfs_df_mad16(acc, a, b);
}

/* op(A) = A: a thread per row, a block per 256 rows and inner chunk (columns). */
extern "C" __global__ void __launch_bounds__(256) dfs_df_gemv_n(dfs_df_gemv_args a)
{
    __shared__ float xh[256], xl[256];
    __shared__ int xbad;
    if (a.alpha && *a.alpha == 0.0)
        return; /* A and x are not read: dfs_df_gemv_final gives beta y */
    const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    const bool active = i < a.m;
    const int s = blockIdx.y;
    const int64_t j0 = s * a.chunk, j1 = j0 + a.chunk < a.n ? j0 + a.chunk : a.n;
    const double *col0 = a.A + (active ? i : 0) + j0 * a.lda;
    dfs_df fast = dfs_df_make(0.0f, 0.0f);
    bool ok = true;
    const double *col = col0;
    for (int64_t jt = j0; jt < j1; jt += 256) {
        const int count = j1 - jt < 256 ? (int)(j1 - jt) : 256;
        stage_x(a, a.n, jt, count, xh, xl, &xbad);
        ok &= !xbad;
        if (active) {
            int jj = 0;
            for (; jj + UNROLL <= count; jj += UNROLL) { /* loads first, as in dfs_df_dot */
                double v[UNROLL];
#pragma unroll
                for (int u = 0; u < UNROLL; u++)
                    v[u] = __ldg(col + u * a.lda);
                col += UNROLL * a.lda;
#pragma unroll
                for (int u = 0; u < UNROLL; u++) {
                    ok &= dfs_df_fast_ok(v[u]);
                    fast = df_mad(fast, dfs_df_from_double(v[u]),
                                  dfs_df_make(xh[jj + u], xl[jj + u]), a.accurate);
                }
            }
            for (; jj < count; jj++, col += a.lda) {
                const double v = __ldg(col);
                ok &= dfs_df_fast_ok(v);
                fast = df_mad(fast, dfs_df_from_double(v), dfs_df_make(xh[jj], xl[jj]), a.accurate);
            }
        }
        __syncthreads(); /* before the next tile of x replaces this one */
    }
    if (!active)
        return;
    dfs_dfx acc = dfs_dfx_from_df(fast);
    bool bad = false;
    if (!ok) { /* this row's chunk again, over any exponent range */
        acc = dfs_dfx_zero();
        col = col0;
        const double *px = a.x + vidx(j0, a.incx, a.n);
        for (int64_t j = j0; j < j1; j++, col += a.lda, px += a.incx) {
            const double v = *col, xv = *px;
            if (nonfinite(v) || nonfinite(xv))
                bad = true;
            else
                acc = dfs_dfx_mad(acc, v, xv, a.accurate);
        }
    }
    const int64_t o = (int64_t)s * a.len + i;
    a.part.hi[o] = acc.v.hi;
    a.part.lo[o] = acc.v.lo;
    a.part.e[o] = acc.e;
    if (bad)
        atomicOr(&a.flags[i], 1);
}

/* op(A) = A^T: a group of G lanes per column of A (an output), over a chunk of its rows; the
 * block's eight warps share the staged x.  G = 32 (dfs_df_gemv_t): a warp per output, for long
 * chunks; G = 0 (dfs_df_gemv_tg): a.group lanes, fewer for short chunks (more outputs per warp).
 * G is a template constant so that the warp kernel keeps to 32 registers. */
template <int G> __device__ __forceinline__ void gemv_t(const dfs_df_gemv_args &a)
{
    __shared__ float xh[256], xl[256];
    __shared__ int xbad;
    if (a.alpha && *a.alpha == 0.0)
        return; /* A and x are not read: dfs_df_gemv_final gives beta y */
    const int g = G ? G : a.group, lane = threadIdx.x % 32, gl = lane % g;
    const int64_t j = ((int64_t)blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32) * (32 / g) +
                      lane / g;
    const bool active = j < a.n;
    const int s = blockIdx.y;
    const int64_t c0 = s * a.chunk, i1 = c0 + a.chunk < a.m ? c0 + a.chunk : a.m;
    const double *col = a.A + (active ? j : 0) * a.lda;
    dfs_df fast = dfs_df_make(0.0f, 0.0f);
    bool ok = true;
    for (int64_t it = c0; it < i1; it += 256) {
        const int count = i1 - it < 256 ? (int)(i1 - it) : 256;
        stage_x(a, a.m, it, count, xh, xl, &xbad);
        ok &= !xbad;
        if (active && g == 32 && count == 256) { /* a whole tile: UNROLL loads at a time */
#pragma unroll
            for (int u0 = 0; u0 < 8; u0 += UNROLL) {
                double v[UNROLL];
#pragma unroll
                for (int u = 0; u < UNROLL; u++)
                    v[u] = __ldg(&col[it + lane + 32 * (u0 + u)]);
#pragma unroll
                for (int u = 0; u < UNROLL; u++) {
                    const int q = lane + 32 * (u0 + u);
                    ok &= dfs_df_fast_ok(v[u]);
                    fast = df_mad(fast, dfs_df_from_double(v[u]), dfs_df_make(xh[q], xl[q]),
                                  a.accurate);
                }
            }
        } else if (active) {
            for (int q = gl; q < count; q += g) {
                const double v = __ldg(&col[it + q]);
                ok &= dfs_df_fast_ok(v);
                fast = df_mad(fast, dfs_df_from_double(v), dfs_df_make(xh[q], xl[q]), a.accurate);
            }
        }
        __syncthreads();
    }
    dfs_dfx acc = dfs_dfx_from_df(fast);
    int bad = 0;
    if (active && !ok) {
        acc = dfs_dfx_zero();
        const int64_t sx = (int64_t)g * a.incx;
        const double *px = a.x + vidx(c0 + gl, a.incx, a.m);
        for (int64_t i = c0 + gl; i < i1; i += g, px += sx) {
            const double v = col[i], xv = *px;
            if (nonfinite(v) || nonfinite(xv))
                bad = 1;
            else
                acc = dfs_dfx_mad(acc, v, xv, a.accurate);
        }
    }
    acc = group_sum(acc, g, a.accurate); /* every lane: the shuffles need the whole warp */
    for (int off = 1; off < g; off <<= 1)
        bad |= __shfl_xor_sync(0xffffffffu, bad, off);
    if (active && gl == 0) {
        const int64_t o = (int64_t)s * a.len + j;
        a.part.hi[o] = acc.v.hi;
        a.part.lo[o] = acc.v.lo;
        a.part.e[o] = acc.e;
        if (bad)
            atomicOr(&a.flags[j], 1);
    }
}

extern "C" __global__ void __launch_bounds__(256) dfs_df_gemv_t(dfs_df_gemv_args a)
{
    gemv_t<32>(a);
}

extern "C" __global__ void __launch_bounds__(256) dfs_df_gemv_tg(dfs_df_gemv_args a)
{
    gemv_t<0>(a);
}

/* y(r) = alpha * sum + beta * y(r): the chunks in order, or binary64 for outputs with Inf/NaN. */
extern "C" __global__ void __launch_bounds__(256) dfs_df_gemv_final(dfs_df_gemv_args a)
{
    const int64_t r = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= a.len)
        return;
    const double al = a.alpha ? *a.alpha : a.alpha_v, be = a.beta ? *a.beta : a.beta_v;
    double *y = &a.y[vidx(r, a.incy, a.len)];
    double v = 0.0;
    if (al != 0.0) {
        if (a.flags[r]) {
            for (int64_t p = 0; p < a.inner; p++) {
                const double av = a.trans ? a.A[p + r * a.lda] : a.A[r + p * a.lda];
                v = __fma_rn(av, a.x[vidx(p, a.incx, a.inner)], v);
            }
        } else {
            dfs_dfx acc = dfs_dfx_zero();
            for (int s = 0; s < a.splits; s++) {
                const int64_t o = (int64_t)s * a.len + r;
                dfs_dfx b;
                b.v = dfs_df_make(a.part.hi[o], a.part.lo[o]);
                b.e = a.part.e[o];
                acc = dfs_dfx_merge(acc, b, a.accurate);
            }
            v = dfs_dfx_to_double(acc);
        }
        v = __dmul_rn(al, v);
    }
    if (be != 0.0)
        v = __dadd_rn(v, __dmul_rn(be, *y));
    *y = v;
}
