/* kernels.cu — the dd engine's kernels: DOT and GEMV (memory-bound: every element read once) and
 * DGEMM (compute-bound: 22 binary64 operations per term), each output accumulated in double-double
 * in the order dd_steps.h defines, so that the bits are host.c's on every GPU. */
#include "dd_kernels.h"
#include "dd_steps.h"

#define UNROLL 4 /* terms per lane whose loads are in flight together */
#define FULL 0xffffffffu

/* BLAS vectors: element i of a length-n vector with increment inc is at base(inc, n) + i*inc. */
__device__ __forceinline__ int64_t vbase(int64_t inc, int64_t n)
{
    return inc > 0 ? 0 : (n - 1) * -inc;
}

__device__ __forceinline__ dfs_dda shfl_down(dfs_dda a, int s, int width)
{
    dfs_dda b;
    b.s.hi = __shfl_down_sync(FULL, a.s.hi, s, width);
    b.s.lo = __shfl_down_sync(FULL, a.s.lo, s, width);
    b.p = __shfl_down_sync(FULL, a.p, s, width);
    return b;
}

/* The tree of dd_steps.h over the lanes of groups of `lanes` threads (a power of two <= 32;
 * every lane of the warp takes part): lane 0 of each group ends with the group's sum. */
__device__ __forceinline__ dfs_dda group_tree(dfs_dda v, int lanes)
{
    const int l = threadIdx.x & (lanes - 1);
    for (int s = lanes / 2; s >= 1; s >>= 1) {
        const dfs_dda o = shfl_down(v, s, lanes);
        if (l < s)
            v = dfs_dda_merge(v, o);
    }
    return v;
}

/* The tree over the 256 threads of the block: thread 0 ends with the sum.  Every thread calls it;
 * it may be called again after it returns. */
__device__ dfs_dda block_tree(dfs_dda v)
{
    __shared__ dfs_dda sh[256];
    const int t = threadIdx.x;
    sh[t] = v;
    __syncthreads();
    for (int s = 128; s >= 32; s >>= 1) {
        if (t < s) {
            v = dfs_dda_merge(v, sh[t + s]);
            sh[t] = v;
        }
        __syncthreads();
    }
    if (t < 32)
        v = group_tree(v, 32);
    return v;
}

/* lane sum over terms q0 + lane, q0 + lane + step, ... < q1 of x[q*sx] y[q*sy], loads first */
__device__ __forceinline__ dfs_dda lane_sum(const double *x, int64_t sx, const double *y,
                                            int64_t sy, int64_t q, int64_t q1, int64_t step)
{
    dfs_dda acc = dfs_dda_zero();
    for (; q + (UNROLL - 1) * step < q1; q += UNROLL * step) {
        double a[UNROLL], b[UNROLL];
#pragma unroll
        for (int u = 0; u < UNROLL; u++) {
            a[u] = __ldg(x + (q + u * step) * sx);
            b[u] = __ldg(y + (q + u * step) * sy);
        }
#pragma unroll
        for (int u = 0; u < UNROLL; u++)
            acc = dfs_dda_mad(acc, a[u], b[u]);
    }
    for (; q < q1; q += step)
        acc = dfs_dda_mad(acc, __ldg(x + q * sx), __ldg(y + q * sy));
    return acc;
}

__device__ __forceinline__ double finish(dfs_dda t, double alpha, double beta, double c)
{
    double r;
    if (!dfs_dd_finish(t.s, alpha, beta, c, &r))
        r = dfs_dd_finish_plain(t.p, alpha, beta, c);
    return r;
}

/* ---------- DOT ---------- */

/* One chunk per block at a time (grid-stride over the chunks): 256 lanes, then the block tree. */
extern "C" __global__ void __launch_bounds__(256) dfs_dd_dot(dfs_dd_dot_args a)
{
    const double *x = a.x + vbase(a.incx, a.n), *y = a.y + vbase(a.incy, a.n);
    for (int64_t c = blockIdx.x; c < a.nchunks; c += gridDim.x) {
        const int64_t q0 = c * a.chunk, q1 = q0 + a.chunk < a.n ? q0 + a.chunk : a.n;
        dfs_dda v = lane_sum(x, a.incx, y, a.incy, q0 + threadIdx.x, q1, DFS_DD_DOT_LANES);
        v = block_tree(v);
        if (threadIdx.x == 0) {
            a.part.s[c] = v.s;
            a.part.p[c] = v.p;
        }
    }
}

/* The chunks' sums: lane t takes chunks t, t + 256, ..., then the tree; the result rounded. */
extern "C" __global__ void __launch_bounds__(256) dfs_dd_dot_final(dfs_dd_dot_args a)
{
    dfs_dda v = dfs_dda_zero();
    for (int64_t c = threadIdx.x; c < a.nchunks; c += DFS_DD_DOT_LANES) {
        dfs_dda b;
        b.s = a.part.s[c];
        b.p = a.part.p[c];
        v = dfs_dda_merge(v, b);
    }
    v = block_tree(v);
    if (threadIdx.x == 0)
        *a.result = finish(v, 1.0, 0.0, 0.0);
}

/* ---------- GEMV ---------- */

__device__ __forceinline__ double load_alpha(const dfs_dd_gemv_args &a)
{
    return a.alpha ? *a.alpha : a.alpha_v;
}

__device__ __forceinline__ double *y_at(const dfs_dd_gemv_args &a, int64_t o)
{
    return a.y + vbase(a.incy, a.len) + o * a.incy;
}

/* y[o] = RN(alpha t + beta y[o]) (beta = 0: y not read). */
__device__ __forceinline__ void store_y(const dfs_dd_gemv_args &a, int64_t o, dfs_dda t,
                                        double alpha)
{
    const double beta = a.beta ? *a.beta : a.beta_v;
    double *yo = y_at(a, o);
    *yo = finish(t, alpha, beta, beta != 0.0 ? *yo : 0.0);
}

/* Grid-stride over items (block of outputs, chunk): op N one thread per row, op T groups of
 * `lanes` threads per column.  With one chunk the outputs are finished here; else the chunk's
 * partials go to a.part. */
extern "C" __global__ void __launch_bounds__(256) dfs_dd_gemv(dfs_dd_gemv_args a)
{
    const double alpha = load_alpha(a);
    if (alpha == 0.0 && a.nchunks > 1)
        return; /* the final kernel writes beta y; A and x not read */
    const int per_block = 256 / a.lanes;
    const int64_t oblocks = (a.len + per_block - 1) / per_block;
    const double *x = a.x + vbase(a.incx, a.K);
    for (int64_t it = blockIdx.x; it < a.items; it += gridDim.x) {
        const int64_t ob = it % oblocks, c = it / oblocks;
        const int64_t o = ob * per_block + threadIdx.x / a.lanes;
        const int64_t q0 = c * a.chunk, q1 = q0 + a.chunk < a.K ? q0 + a.chunk : a.K;
        dfs_dda v = dfs_dda_zero();
        if (o < a.len && alpha != 0.0) {
            if (a.trans)
                v = lane_sum(a.A + o * a.lda, 1, x, a.incx, q0 + (threadIdx.x & (a.lanes - 1)),
                             q1, a.lanes);
            else
                v = lane_sum(a.A + o, a.lda, x, a.incx, q0, q1, 1);
        }
        if (a.lanes > 1)
            v = group_tree(v, a.lanes);
        if (o >= a.len || (threadIdx.x & (a.lanes - 1)))
            continue;
        if (a.nchunks == 1) {
            store_y(a, o, alpha != 0.0 ? dfs_dda_merge(dfs_dda_zero(), v) : v, alpha);
        } else {
            a.part.s[c * a.len + o] = v.s;
            a.part.p[c * a.len + o] = v.p;
        }
    }
}

/* Warp per output: the chunks' partials merged by the 32 lanes and their tree, then alpha and
 * beta. */
extern "C" __global__ void __launch_bounds__(256) dfs_dd_gemv_final(dfs_dd_gemv_args a)
{
    const int64_t o = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32;
    if (o >= a.len) /* whole warps */
        return;
    const double alpha = load_alpha(a);
    dfs_dda t = dfs_dda_zero();
    if (alpha != 0.0) {
        for (int64_t c = threadIdx.x % 32; c < a.nchunks; c += DFS_DD_GEMV_MERGE_LANES) {
            dfs_dda b;
            b.s = a.part.s[c * a.len + o];
            b.p = a.part.p[c * a.len + o];
            t = dfs_dda_merge(t, b);
        }
        t = group_tree(t, DFS_DD_GEMV_MERGE_LANES);
    }
    if (threadIdx.x % 32 == 0)
        store_y(a, o, t, alpha);
}

/* ---------- DGEMM ---------- */

#define BM DFS_DD_GEMM_BM
#define BN DFS_DD_GEMM_BN
#define BK DFS_DD_GEMM_BK
#define TM 4
#define TN 4
#ifndef DD_GEMM_MIN_BLOCKS
#define DD_GEMM_MIN_BLOCKS 1 /* 2: 128 registers, which spills */
#endif

/* Tiles of BK terms staged in shared memory (the next tile's loads in registers meanwhile);
 * thread (tx, ty) owns rows ty + 16 i and columns tx + 16 j of the block's tile.  Each output
 * is summed over k in order from zero; outputs whose DD result is not finite recompute their
 * plain binary64 sum in the epilogue. */
extern "C" __global__ void __launch_bounds__(256, DD_GEMM_MIN_BLOCKS) dfs_dd_gemm(dfs_dd_gemm_args a)
{
    __shared__ double As[BK][BM + 1], Bs[BK][BN + 1];
    const int t = threadIdx.x, tx = t % 16, ty = t / 16;
    const double alpha = a.alpha ? *a.alpha : a.alpha_v;
    const double beta = a.beta ? *a.beta : a.beta_v;
    const int64_t mtiles = (a.m + BM - 1) / BM, ntiles = (a.n + BN - 1) / BN;
    for (int64_t z = blockIdx.z; z < a.batch; z += gridDim.z)
        for (int64_t nt = blockIdx.y; nt < ntiles; nt += gridDim.y)
            for (int64_t mt = blockIdx.x; mt < mtiles; mt += gridDim.x) {
                const double *A = a.A + z * a.sA, *B = a.B + z * a.sB;
                double *C = a.C + z * a.sC;
                const int64_t i0 = mt * BM, j0 = nt * BN;
                dfs_dd acc[TM][TN];
#pragma unroll
                for (int i = 0; i < TM; i++)
#pragma unroll
                    for (int j = 0; j < TN; j++)
                        acc[i][j] = dfs_dd_make(0.0, 0.0);
                /* this thread's staging elements, r-th of 4: A tile row ar, term ak; B tile term
                 * bk, column bc (the mapping coalesced for the operand's layout; recomputed
                 * where used, cheaper than registers) */
#define AR(r) (a.ta ? (t + 256 * (r)) / BK : (t + 256 * (r)) % BM)
#define AK(r) (a.ta ? (t + 256 * (r)) % BK : (t + 256 * (r)) / BM)
#define BKK(r) (a.tb ? (t + 256 * (r)) / BN : (t + 256 * (r)) % BK)
#define BC(r) (a.tb ? (t + 256 * (r)) % BN : (t + 256 * (r)) / BK)
                double pa[4], pb[4];
                /* loads the tile at k0 into pa, pb (zeros outside) */
                auto load = [&](int64_t k0) {
#pragma unroll
                    for (int r = 0; r < 4; r++) {
                        const int64_t i = i0 + AR(r), q = k0 + AK(r);
                        pa[r] = i < a.m && q < a.k
                                    ? __ldg(A + (a.ta ? q + i * a.lda : i + q * a.lda))
                                    : 0.0;
                        const int64_t j = j0 + BC(r), qb = k0 + BKK(r);
                        pb[r] = j < a.n && qb < a.k
                                    ? __ldg(B + (a.tb ? j + qb * a.ldb : qb + j * a.ldb))
                                    : 0.0;
                    }
                };
                if (alpha != 0.0 && a.k > 0) {
                    load(0);
                    for (int64_t k0 = 0; k0 < a.k; k0 += BK) {
                        __syncthreads(); /* the previous tile is used up */
#pragma unroll
                        for (int r = 0; r < 4; r++) {
                            As[AK(r)][AR(r)] = pa[r];
                            Bs[BKK(r)][BC(r)] = pb[r];
                        }
                        __syncthreads();
                        if (k0 + BK < a.k)
                            load(k0 + BK);
                        const int kn = a.k - k0 < BK ? (int)(a.k - k0) : BK;
                        if (kn == BK) {
#pragma unroll 4
                            for (int kk = 0; kk < BK; kk++) {
                                double fa[TM], fb[TN];
#pragma unroll
                                for (int i = 0; i < TM; i++)
                                    fa[i] = As[kk][ty + 16 * i];
#pragma unroll
                                for (int j = 0; j < TN; j++)
                                    fb[j] = Bs[kk][tx + 16 * j];
#pragma unroll
                                for (int i = 0; i < TM; i++)
#pragma unroll
                                    for (int j = 0; j < TN; j++)
                                        acc[i][j] = dfs_dd_mad_d(acc[i][j], fa[i], fb[j]);
                            }
                        } else {
                            for (int kk = 0; kk < kn; kk++) {
                                double fa[TM], fb[TN];
#pragma unroll
                                for (int i = 0; i < TM; i++)
                                    fa[i] = As[kk][ty + 16 * i];
#pragma unroll
                                for (int j = 0; j < TN; j++)
                                    fb[j] = Bs[kk][tx + 16 * j];
#pragma unroll
                                for (int i = 0; i < TM; i++)
#pragma unroll
                                    for (int j = 0; j < TN; j++)
                                        acc[i][j] = dfs_dd_mad_d(acc[i][j], fa[i], fb[j]);
                            }
                        }
                    }
                }
#pragma unroll
                for (int i = 0; i < TM; i++)
#pragma unroll
                    for (int j = 0; j < TN; j++) {
                        const int64_t ii = i0 + ty + 16 * i, jj = j0 + tx + 16 * j;
                        if (ii >= a.m || jj >= a.n)
                            continue;
                        double *c = C + ii + jj * a.ldc;
                        const double cv = beta != 0.0 ? *c : 0.0;
                        double r;
                        if (!dfs_dd_finish(acc[i][j], alpha, beta, cv, &r)) {
                            /* Inf, NaN or overflow: the plain binary64 sum, in order */
                            double p = 0.0;
                            if (alpha != 0.0)
                                DFS_ROLLED for (int64_t q = 0; q < a.k; q++)
                                    p = dfs_d_fma(
                                        A[a.ta ? q + ii * a.lda : ii + q * a.lda],
                                        B[a.tb ? jj + q * a.ldb : q + jj * a.ldb], p);
                            r = dfs_dd_finish_plain(p, alpha, beta, cv);
                        }
                        *c = r;
                    }
                __syncthreads(); /* shared tiles free for the next output tile */
            }
}
