/* kernels_vec.cu — the reproducible engine's DOT and GEMV: every product added exactly, every
 * output rounded once (the steps of host.c, with real threads).
 *
 * Fast path: each thread adds its products into DFS_OZ_TERMS binary64 terms (fpe.h).  The terms
 * then go into exact integer accumulators (xacc.h) in shared memory, one per block (DOT) or per
 * warp (GEMV finish), with 64-bit integer atomics: integer addition is associative, so neither
 * the grid nor the scheduling changes a bit.  Slow path: an output whose thread spilled (fpe.h)
 * is recomputed with every product straight into the accumulator.  Infinities and NaN travel as
 * flags (xacc.h) and are resolved at the end. */
#include "../common/fpe.h"
#include "oz_vec.h"

/* Element i of a BLAS vector of n with increment inc. */
__device__ __forceinline__ int64_t vidx(int64_t i, int64_t inc, int64_t n)
{
    return (inc > 0 ? 0 : (n - 1) * -inc) + i * inc;
}

/* w += (-1)^neg M 2^e, w a full accumulator (DFS_X_WORDS words from DFS_X_LSB) that other
 * threads update too.  Every finite double and product fits. */
__device__ __forceinline__ void atomic_add(long long *w, int neg, dfs_u128 M, int e)
{
    int q;
    uint32_t d[5];
    if (M == 0 || !dfs_x_place(DFS_X_WORDS, DFS_X_LSB, M, e, &q, d))
        return;
    for (int j = 0; j < 5; j++)
        if (d[j])
            atomicAdd((unsigned long long *)&w[q + j],
                      neg ? 0ull - (unsigned long long)d[j] : (unsigned long long)d[j]);
}

__device__ __forceinline__ void atomic_add_double(long long *w, double v)
{
    uint64_t m;
    int e;
    int neg = dfs_d_split(v, &m, &e);
    atomic_add(w, neg, (dfs_u128)m, e);
}

__device__ __forceinline__ void atomic_add_product(long long *w, double x, double y)
{
    uint64_t mx, my;
    int ex, ey;
    int neg = dfs_d_split(x, &mx, &ex) ^ dfs_d_split(y, &my, &ey);
    atomic_add(w, neg, (dfs_u128)mx * my, ex + ey);
}

/* A product into an accumulator on the slow path; returns its special flags. */
__device__ __forceinline__ unsigned slow_product(long long *w, double x, double y)
{
    unsigned f = dfs_x_product_flags(x, y);
    if (!f)
        atomic_add_product(w, x, y);
    return f;
}

__device__ __forceinline__ int64_t min64(int64_t a, int64_t b)
{
    return a < b ? a : b;
}

/* OR over the warp (all lanes active). */
__device__ __forceinline__ unsigned warp_or(unsigned f)
{
    for (int off = 16; off > 0; off >>= 1)
        f |= __shfl_xor_sync(0xffffffffu, f, off);
    return f;
}

__device__ __forceinline__ void zero_words(long long *w, int n, int tid, int nthreads)
{
    for (int i = tid; i < n; i += nthreads)
        w[i] = 0;
}

__device__ __forceinline__ void fpe_zero(double *t)
{
#pragma unroll
    for (int i = 0; i < DFS_OZ_TERMS; i++)
        t[i] = 0.0;
}

/* Products per block before its accumulator words could overflow (each addition puts less than
 * 2^32 into a word): the slow paths normalise in between. */
#define SLOW_ROUND (1ll << 28)

/* The full accumulator in the words w (filled by atomics: not normalised). */
__device__ __forceinline__ dfs_xacc view(long long *w)
{
    dfs_xacc a;
    a.w = (int64_t *)w;
    a.nw = DFS_X_WORDS;
    a.lsb = DFS_X_LSB;
    a.pending = 1;
    return a;
}

/* Carry propagation of a shared accumulator by one thread (the others wait at the barriers). */
__device__ void normalize_shared(long long *w)
{
    __syncthreads();
    if (threadIdx.x == 0) {
        dfs_xacc a = view(w);
        dfs_x_normalize(&a);
    }
    __syncthreads();
}

/* ---------- DOT ---------- */

extern "C" __global__ void __launch_bounds__(DFS_OZ_DOT_THREADS) dfs_oz_dot(dfs_oz_dot_args a)
{
    __shared__ long long w[DFS_X_WORDS];
    zero_words(w, DFS_X_WORDS, threadIdx.x, blockDim.x);
    double t[DFS_OZ_TERMS];
    fpe_zero(t);
    unsigned f = 0;
    const int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < a.n; i += stride)
        f |= dfs_fpe_add_product(t, DFS_OZ_TERMS, a.x[vidx(i, a.incx, a.n)],
                                 a.y[vidx(i, a.incy, a.n)]);
    __syncthreads();
    if (!(f & DFS_FPE_SPILL))
        for (int i = 0; i < DFS_OZ_TERMS; i++)
            if (t[i] != 0)
                atomic_add_double(w, t[i]);
    f = warp_or(f);
    if (f && (threadIdx.x & 31) == 0)
        atomicOr(a.flags, f);
    __syncthreads();
    for (int i = threadIdx.x; i < DFS_X_WORDS; i += blockDim.x)
        a.acc[(int64_t)blockIdx.x * DFS_X_WORDS + i] = w[i];
}

/* Runs after dfs_oz_dot with the same grid; does nothing unless a thread spilled, then rebuilds
 * every block's accumulator from the products. */
extern "C" __global__ void __launch_bounds__(DFS_OZ_DOT_THREADS)
    dfs_oz_dot_slow(dfs_oz_dot_args a)
{
    if (!(*(volatile unsigned *)a.flags & DFS_FPE_SPILL))
        return;
    __shared__ long long w[DFS_X_WORDS];
    zero_words(w, DFS_X_WORDS, threadIdx.x, blockDim.x);
    __syncthreads();
    const int64_t stride = (int64_t)gridDim.x * blockDim.x;
    int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    for (int64_t done = 0; done < a.n; done += SLOW_ROUND * stride / blockDim.x) {
        const int64_t end = done + SLOW_ROUND * stride / blockDim.x;
        for (; i < a.n && i < end; i += stride)
            slow_product(w, a.x[vidx(i, a.incx, a.n)], a.y[vidx(i, a.incy, a.n)]);
        normalize_shared(w);
    }
    __syncthreads();
    for (int j = threadIdx.x; j < DFS_X_WORDS; j += blockDim.x)
        a.acc[(int64_t)blockIdx.x * DFS_X_WORDS + j] = w[j];
}

/* One block: the blocks' accumulators summed word by word, rounded once. */
extern "C" __global__ void __launch_bounds__(DFS_OZ_DOT_THREADS)
    dfs_oz_dot_final(dfs_oz_dot_args a)
{
    __shared__ long long w[DFS_X_WORDS], scratch[DFS_X_WORDS];
    for (int j = threadIdx.x; j < DFS_X_WORDS; j += blockDim.x) {
        long long s = 0; /* |word| < 2^43 per block: no overflow below 2^20 blocks */
        for (int b = 0; b < a.blocks; b++)
            s += a.acc[(int64_t)b * DFS_X_WORDS + j];
        w[j] = s;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        dfs_xacc s = view(w);
        int ok;
        *a.result = dfs_x_axpby(&s, *a.flags & DFS_X_SPECIAL, 1.0, 0.0, 0.0, (int64_t *)scratch,
                                DFS_X_WORDS, &ok);
    }
}

/* ---------- GEMV ---------- */

__device__ __forceinline__ void store_terms(const dfs_oz_gemv_args &a, int64_t o, int s,
                                            const double *t, unsigned f)
{
#pragma unroll
    for (int i = 0; i < DFS_OZ_TERMS; i++)
        a.terms[((int64_t)s * DFS_OZ_TERMS + i) * a.len + o] = t[i];
    if (f)
        atomicOr(&a.flags[o], f);
}

/* op(A) = A: one thread per row and chunk of columns (reads of A coalesced along the column). */
extern "C" __global__ void __launch_bounds__(DFS_OZ_GEMV_THREADS)
    dfs_oz_gemv_n(dfs_oz_gemv_args a)
{
    const int64_t r = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    const int s = blockIdx.y;
    if (r >= a.len)
        return;
    const int64_t j0 = (int64_t)s * a.chunk, j1 = min64(a.inner, j0 + a.chunk);
    double t[DFS_OZ_TERMS];
    fpe_zero(t);
    unsigned f = 0;
    const double *col = a.A + r + j0 * a.lda;
    for (int64_t j = j0; j < j1; j++, col += a.lda)
        f |= dfs_fpe_add_product(t, DFS_OZ_TERMS, *col, a.x[vidx(j, a.incx, a.inner)]);
    store_terms(a, r, s, t, f);
}

/* op(A) = A^T: one warp per column and chunk of rows; the lanes' expansions are merged exactly
 * (an error left over spills the output to the slow path). */
extern "C" __global__ void __launch_bounds__(DFS_OZ_GEMV_THREADS)
    dfs_oz_gemv_t(dfs_oz_gemv_args a)
{
    const int lane = threadIdx.x & 31;
    const int64_t c = (int64_t)blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    const int s = blockIdx.y;
    if (c >= a.len)
        return;
    const int64_t i0 = (int64_t)s * a.chunk, i1 = min64(a.inner, i0 + a.chunk);
    double t[DFS_OZ_TERMS];
    fpe_zero(t);
    unsigned f = 0;
    const double *col = a.A + c * a.lda;
    for (int64_t i = i0 + lane; i < i1; i += 32)
        f |= dfs_fpe_add_product(t, DFS_OZ_TERMS, col[i], a.x[vidx(i, a.incx, a.inner)]);
    for (int off = 16; off > 0; off >>= 1) {
        double u[DFS_OZ_TERMS];
#pragma unroll
        for (int i = 0; i < DFS_OZ_TERMS; i++)
            u[i] = __shfl_down_sync(0xffffffffu, t[i], off);
        if (lane < off)
#pragma unroll
            for (int i = 0; i < DFS_OZ_TERMS; i++)
                f |= dfs_fpe_insert(t, DFS_OZ_TERMS, u[i]);
    }
    f = warp_or(f);
    if (lane == 0)
        store_terms(a, c, s, t, f);
}

/* One warp per output: the chunks' terms (or, after a spill, every product of the output) into
 * the warp's accumulator in shared memory, then y = RN(alpha S + beta y). */
extern "C" __global__ void __launch_bounds__(32 * DFS_OZ_FINAL_WARPS)
    dfs_oz_gemv_final(dfs_oz_gemv_args a)
{
    __shared__ long long wa[DFS_OZ_FINAL_WARPS][DFS_X_WORDS];
    __shared__ long long ws[DFS_OZ_FINAL_WARPS][DFS_X_WORDS];
    const int lane = threadIdx.x & 31, wp = threadIdx.x / 32;
    const int64_t o = (int64_t)blockIdx.x * DFS_OZ_FINAL_WARPS + wp;
    if (o >= a.len)
        return; /* whole warps only: no block-wide barrier below */
    long long *w = wa[wp];
    zero_words(w, DFS_X_WORDS, lane, 32);
    __syncwarp();
    const double alpha = a.alpha ? *a.alpha : a.alpha_v;
    const double beta = a.beta ? *a.beta : a.beta_v;
    unsigned f = a.flags[o];
    if (alpha != 0) {
        if (!(f & DFS_FPE_SPILL)) {
            for (int i = lane; i < a.splits * DFS_OZ_TERMS; i += 32) {
                double v = a.terms[(int64_t)i * a.len + o];
                if (v != 0)
                    atomic_add_double(w, v);
            }
        } else {
            /* the slow path: every product of this output, in rounds that keep words in range */
            unsigned g = 0;
            for (int64_t q0 = 0; q0 < a.inner; q0 += SLOW_ROUND) {
                const int64_t q1 = min64(a.inner, q0 + SLOW_ROUND);
                for (int64_t q = q0 + lane; q < q1; q += 32) {
                    const double av = a.trans ? a.A[q + o * a.lda] : a.A[o + q * a.lda];
                    g |= slow_product(w, av, a.x[vidx(q, a.incx, a.inner)]);
                }
                __syncwarp();
                if (lane == 0) {
                    dfs_xacc n = view(w);
                    dfs_x_normalize(&n);
                }
                __syncwarp();
            }
            f = warp_or(g);
        }
    }
    __syncwarp();
    if (lane == 0) {
        dfs_xacc s = view(w);
        double *yo = a.y + vidx(o, a.incy, a.len);
        const double c = beta != 0 ? *yo : 0.0;
        int ok;
        *yo = dfs_x_axpby(&s, alpha != 0 ? f & DFS_X_SPECIAL : 0u, alpha, beta, c,
                          (int64_t *)ws[wp], DFS_X_WORDS, &ok);
    }
}
