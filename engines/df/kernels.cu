/* kernels.cu — the DF engine's GPU kernels: row/column scale exponents, packing binary64 operands
 * into scaled DF planes, and the DF GEMM main loop with its binary64 epilogue; and, from
 * kernels_small.cuh, the small kernel that does all of it in one launch.  Built with nvcc into a
 * fatbin that gemm.c loads through the driver API; the kernels have C names. */
#include "../common/df.h"
#include "df_steps.h"
#include "df_gemm.h"

#include <stdint.h>

/* ---------- exponents ---------- */

/* The scale exponent and span (df_steps.h) of rows rbase .. rbase+R-1 (R = 32 or 16) of the
 * rows x inner matrix src(r, p) = trans ? src[p + r*ld] : src[r + p*ld], by 256 threads (t their
 * index): row rbase + i's into exps[i] and spans[i], for the rows below `rows`.  trans = 0:
 * thread t reads row rbase + t % R (consecutive threads, consecutive addresses) at p = t / R,
 * t / R + 256 / R, ..., and the 256 / R of a row are combined in shared memory; trans = 1: warp
 * w = t / 32 reads rows w, w + 8, ... along p, combined by shuffles.  The maxima and minima come
 * out the same in any order.  Shared by dfs_df_exps and the small kernel, which calls it twice in
 * a row: `red` is free again when it returns. */
template <int R>
__device__ __forceinline__ void rows_exps(const double *src, int64_t ld, int trans, int64_t rows,
                                          int64_t inner, int64_t rbase, int t, int *exps,
                                          int *spans)
{
    constexpr int NY = 256 / R;
    __shared__ unsigned long long red[NY][R + 1], redmin[NY][R + 1];
    if (!trans) {
        const int tx = t % R, ty = t / R;
        const int64_t r = rbase + tx;
        unsigned long long m = 0, mn = DFS_DF_NO_MIN;
        if (r < rows)
            for (int64_t p = ty; p < inner; p += NY) {
                unsigned long long b = dfs_df_abs_bits(src[r + p * ld]);
                m = b > m ? b : m;
                mn = dfs_df_min_nonzero(mn, b);
            }
        red[ty][tx] = m;
        redmin[ty][tx] = mn;
        __syncthreads();
        if (ty == 0 && r < rows) {
            for (int i = 1; i < NY; i++) {
                m = red[i][tx] > m ? red[i][tx] : m;
                mn = redmin[i][tx] < mn ? redmin[i][tx] : mn;
            }
            exps[tx] = dfs_df_scale_exponent(m);
            spans[tx] = dfs_df_span(m, mn);
        }
        __syncthreads();
    } else {
        const int tx = t % 32;
        for (int rr = t / 32; rr < R; rr += 8) {
            const int64_t r = rbase + rr;
            if (r >= rows)
                break;
            unsigned long long m = 0, mn = DFS_DF_NO_MIN;
            for (int64_t p = tx; p < inner; p += 32) {
                unsigned long long b = dfs_df_abs_bits(src[p + r * ld]);
                m = b > m ? b : m;
                mn = dfs_df_min_nonzero(mn, b);
            }
            for (int off = 16; off; off >>= 1) {
                unsigned long long o = __shfl_xor_sync(0xffffffffu, m, off);
                m = o > m ? o : m;
                o = __shfl_xor_sync(0xffffffffu, mn, off);
                mn = o < mn ? o : mn;
            }
            if (tx == 0) {
                exps[rr] = dfs_df_scale_exponent(m);
                spans[rr] = dfs_df_span(m, mn);
            }
        }
    }
}

/* One block (32 x 8 threads) per 32 rows: each row's scale exponent and span. */
extern "C" __global__ void dfs_df_exps(dfs_df_exps_args a)
{
    const int64_t rbase = (int64_t)blockIdx.x * 32;
    const int64_t inner = a.alpha && *a.alpha == 0.0 ? 0 : a.inner; /* alpha = 0: not read */
    rows_exps<32>(a.src, a.ld, a.trans, a.rows, inner, rbase, threadIdx.x + 32 * threadIdx.y,
                  a.exps + rbase, a.spans + rbase);
}

/* ---------- packing ---------- */

/* Block 32 x 8 threads per 32 x 32 tile of (r, p); coalesced reads in either layout through a
 * shared-memory transpose, coalesced writes of the [p][r] planes. */
extern "C" __global__ void dfs_df_pack(dfs_df_pack_args a)
{
    __shared__ double tile[32][33];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int64_t rb = (int64_t)blockIdx.x * 32, pb = (int64_t)blockIdx.y * 32;
    const int64_t K = a.alpha && *a.alpha == 0.0 ? 0 : a.K; /* alpha = 0: zeros, not read */
    for (int j = ty; j < 32; j += 8) {
        if (!a.trans) {
            const int64_t r = rb + tx, p = pb + j;
            tile[j][tx] = r < a.R && p < K ? a.src[(a.r0 + r) + p * a.ld] : 0.0;
        } else {
            const int64_t r = rb + j, p = pb + tx;
            tile[tx][j] = r < a.R && p < K ? a.src[p + (a.r0 + r) * a.ld] : 0.0;
        }
    }
    __syncthreads();
    for (int j = ty; j < 32; j += 8) {
        const int64_t r = rb + tx, p = pb + j;
        if (r >= a.Rp || p >= a.Kp)
            continue;
        const dfs_df d = dfs_df_scaled(tile[j][tx], r < a.R ? a.exps[a.r0 + r] : 0);
        a.hi[p * a.Rp + r] = d.hi;
        a.lo[p * a.Rp + r] = d.lo;
    }
}

/* DF input (hi, lo pairs): the same tiling, no scaling. */
extern "C" __global__ void dfs_df_pack_df(dfs_df_pack_df_args a)
{
    __shared__ float2 tile[32][33];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int64_t rb = (int64_t)blockIdx.x * 32, pb = (int64_t)blockIdx.y * 32;
    const float2 *src = (const float2 *)a.src;
    for (int j = ty; j < 32; j += 8) {
        if (!a.trans) {
            const int64_t r = rb + tx, p = pb + j;
            tile[j][tx] = r < a.R && p < a.K ? src[r + p * a.ld] : make_float2(0.0f, 0.0f);
        } else {
            const int64_t r = rb + j, p = pb + tx;
            tile[tx][j] = r < a.R && p < a.K ? src[p + r * a.ld] : make_float2(0.0f, 0.0f);
        }
    }
    __syncthreads();
    for (int j = ty; j < 32; j += 8) {
        const int64_t r = rb + tx, p = pb + j;
        if (r >= a.Rp || p >= a.Kp)
            continue;
        a.hi[p * a.Rp + r] = tile[j][tx].x;
        a.lo[p * a.Rp + r] = tile[j][tx].y;
    }
}

/* ---------- GEMM ---------- */

/* C(i, j) in binary64 from the original operands, in order of p (rows or columns with Inf/NaN:
 * IEEE semantics like native DGEMM). */
__device__ __noinline__ double dot64(const double *A, int64_t lda, int ta, const double *B,
                                     int64_t ldb, int tb, int64_t k, int64_t i, int64_t j)
{
    double s = 0.0;
    for (int64_t p = 0; p < k; p++) {
        double x = ta ? A[p + i * lda] : A[i + p * lda];
        double y = tb ? B[j + p * ldb] : B[p + j * ldb];
        s = __fma_rn(x, y, s);
    }
    return s;
}

/* The binary64 epilogue of output (i, j) of DGEMM-D(DF), *c = al ab + be *c (*c read only for
 * be != 0): ab the DF sum acc of the products of row i and column j scaled by 2^-*ea and 2^-*eb,
 * unscaled; or dot64 where the row or column is marked non-finite or the sum may have lost
 * accuracy to binary32's subnormals (the spans *span_a, *span_b read only for tiny sums).
 * al = 0: ab is not formed (BLAS: A and B are not referenced).  Shared by the GEMM kernels (the
 * exponents in global memory) and the small kernel (in shared memory): the same bits. */
__device__ __forceinline__ void epilogue64(double *c, double al, double be, dfs_df acc,
                                           const int *ea, const int *eb, const int *span_a,
                                           const int *span_b, const dfs_df_orig64 &o,
                                           int64_t i, int64_t j)
{
    double r;
    if (al == 0.0) {
        r = 0.0;
    } else {
        const int xa = *ea, xb = *eb;
        const bool b64 = xa == DFS_DF_EXP_NONFINITE || xb == DFS_DF_EXP_NONFINITE ||
                         (fabsf(acc.hi) < 0x1p-92f &&
                          dfs_df_needs_binary64(acc, *span_a, *span_b));
        double ab = b64 ? dot64(o.A, o.lda, o.transa, o.B, o.ldb, o.transb, o.k, i, j)
                        : ldexp(dfs_df_to_double(acc), xa + xb);
        r = __dmul_rn(al, ab);
    }
    if (be != 0.0)
        r = __dadd_rn(r, __dmul_rn(be, *c));
    *c = r;
}

__device__ __forceinline__ void store(const dfs_df_gemm_args &a, double al, double be, int64_t i,
                                      int64_t j, dfs_df acc)
{
    if (i >= a.m || j >= a.n)
        return;
    const int64_t gi = a.m0 + i, gj = a.n0 + j;
    if (a.Cdf) { /* DGEMM-DF(DF) */
        float *c2 = &a.Cdf[2 * (gi + gj * a.ldc)];
        const dfs_df c = dfs_df_make(c2[0], c2[1]);
        const dfs_df r = dfs_df_axpby(a.scheme, dfs_df_make(a.alpha_hi, a.alpha_lo), acc,
                                      dfs_df_make(a.beta_hi, a.beta_lo), &c);
        c2[0] = r.hi;
        c2[1] = r.lo;
        return;
    }
    epilogue64(&a.C[gi + gj * a.ldc], al, be, acc, &a.expA[gi], &a.expB[gj], &a.spanA[gi],
               &a.spanB[gj], a.orig, gi, gj);
}

#if __CUDA_ARCH__ >= 800
__device__ __forceinline__ void copy_async(float4 *smem, const float4 *gmem)
{
    const unsigned dst = (unsigned)__cvta_generic_to_shared(smem);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst), "l"(gmem) : "memory");
}
__device__ __forceinline__ void copy_commit()
{
    asm volatile("cp.async.commit_group;\n" ::: "memory");
}
__device__ __forceinline__ void copy_wait()
{
    asm volatile("cp.async.wait_group 0;\n" ::: "memory");
}
__device__ __forceinline__ void copy_commit_wait()
{
    copy_commit();
    copy_wait();
}
#endif

/* One block of 16 x 16 threads computes a (16*TM) x (16*TN) tile of C; each thread TM x TN
 * entries: rows tx*4 + {0..3} (and 64 + tx*4 + {0..3} for TM = 8), columns ty*4 + {0..3} (and
 * 64 + ty*4 + {0..3} for TN = 8), so that every fragment is one 16-byte shared-memory load per
 * plane.  TM, TN in {4, 8}. */
template <int S, int TM, int TN> __device__ __forceinline__ void gemm_body(const dfs_df_gemm_args &a)
{
    constexpr int BM = 16 * TM, BN = 16 * TN;
    constexpr int A_LOADS = DFS_DF_BK * BM / 4, B_LOADS = DFS_DF_BK * BN / 4; /* float4 per plane */
    __shared__ float4 sAh[2][DFS_DF_BK][BM / 4], sAl[2][DFS_DF_BK][BM / 4];
    __shared__ float4 sBh[2][DFS_DF_BK][BN / 4], sBl[2][DFS_DF_BK][BN / 4];
    const int t = threadIdx.x, tx = t % 16, ty = t / 16;
    const int64_t mt = (int64_t)blockIdx.x * BM, nt = (int64_t)blockIdx.y * BN;
    /* global -> shared: one float4 of each plane per thread, for the first A_LOADS / B_LOADS
     * threads */
    const int lr = t / (BM / 4), lc = t % (BM / 4);
    const int br = t / (BN / 4), bc = t % (BN / 4);
    const bool aload = t < A_LOADS, bload = t < B_LOADS;
    const float4 *gAh = (const float4 *)(a.Ahi + lr * a.Mp + mt) + lc;
    const float4 *gAl = (const float4 *)(a.Alo + lr * a.Mp + mt) + lc;
    const float4 *gBh = (const float4 *)(a.Bhi + br * a.Np + nt) + bc;
    const float4 *gBl = (const float4 *)(a.Blo + br * a.Np + nt) + bc;
    const int64_t strideA = DFS_DF_BK * a.Mp / 4, strideB = DFS_DF_BK * a.Np / 4;

    dfs_df acc[TM][TN];
#pragma unroll
    for (int i = 0; i < TM; i++)
#pragma unroll
        for (int j = 0; j < TN; j++)
            acc[i][j] = dfs_df_make(0.0f, 0.0f);

#if __CUDA_ARCH__ >= 800
    /* Ampere and later: stage the next tile with cp.async (no registers held across the math). */
    if (aload) {
        copy_async(&sAh[0][lr][lc], gAh);
        copy_async(&sAl[0][lr][lc], gAl);
    }
    if (bload) {
        copy_async(&sBh[0][br][bc], gBh);
        copy_async(&sBl[0][br][bc], gBl);
    }
    copy_commit_wait();
#else
    float4 pah = make_float4(0, 0, 0, 0), pal = pah, pbh = pah, pbl = pah;
    if (aload) {
        pah = gAh[0];
        pal = gAl[0];
        sAh[0][lr][lc] = pah;
        sAl[0][lr][lc] = pal;
    }
    if (bload) {
        pbh = gBh[0];
        pbl = gBl[0];
        sBh[0][br][bc] = pbh;
        sBl[0][br][bc] = pbl;
    }
#endif
    __syncthreads();
    int s = 0;
    for (int64_t kt = 0; kt < a.Kp; kt += DFS_DF_BK) {
        const bool more = kt + DFS_DF_BK < a.Kp;
        if (more) {
            gAh += strideA;
            gAl += strideA;
            gBh += strideB;
            gBl += strideB;
#if __CUDA_ARCH__ >= 800
            if (aload) {
                copy_async(&sAh[s ^ 1][lr][lc], gAh);
                copy_async(&sAl[s ^ 1][lr][lc], gAl);
            }
            if (bload) {
                copy_async(&sBh[s ^ 1][br][bc], gBh);
                copy_async(&sBl[s ^ 1][br][bc], gBl);
            }
            copy_commit();
#else
            if (aload) {
                pah = *gAh;
                pal = *gAl;
            }
            if (bload) {
                pbh = *gBh;
                pbl = *gBl;
            }
#endif
        }
#pragma unroll
        for (int kk = 0; kk < DFS_DF_BK; kk++) {
            dfs_df x[TM];
            {
                const float4 ah0 = sAh[s][kk][tx], al0 = sAl[s][kk][tx];
                x[0] = dfs_df_make(ah0.x, al0.x);
                x[1] = dfs_df_make(ah0.y, al0.y);
                x[2] = dfs_df_make(ah0.z, al0.z);
                x[3] = dfs_df_make(ah0.w, al0.w);
            }
            if (TM == 8) {
                const float4 ah1 = sAh[s][kk][(16 + tx) % (BM / 4)], al1 = sAl[s][kk][(16 + tx) % (BM / 4)];
                x[4 % TM] = dfs_df_make(ah1.x, al1.x);
                x[5 % TM] = dfs_df_make(ah1.y, al1.y);
                x[6 % TM] = dfs_df_make(ah1.z, al1.z);
                x[7 % TM] = dfs_df_make(ah1.w, al1.w);
            }
            dfs_df y[TN];
            {
                const float4 bh0 = sBh[s][kk][ty], bl0 = sBl[s][kk][ty];
                y[0] = dfs_df_make(bh0.x, bl0.x);
                y[1] = dfs_df_make(bh0.y, bl0.y);
                y[2] = dfs_df_make(bh0.z, bl0.z);
                y[3] = dfs_df_make(bh0.w, bl0.w);
            }
            if (TN == 8) {
                const float4 bh1 = sBh[s][kk][(16 + ty) % (BN / 4)], bl1 = sBl[s][kk][(16 + ty) % (BN / 4)];
                y[4 % TN] = dfs_df_make(bh1.x, bl1.x);
                y[5 % TN] = dfs_df_make(bh1.y, bl1.y);
                y[6 % TN] = dfs_df_make(bh1.z, bl1.z);
                y[7 % TN] = dfs_df_make(bh1.w, bl1.w);
            }
#pragma unroll
            for (int i = 0; i < TM; i++)
#pragma unroll
                for (int j = 0; j < TN; j++)
                    acc[i][j] = dfs_df_mad(S, acc[i][j], x[i], y[j]);
            if (S == DFS_DF_MAD12 && (kk + 1) % DFS_DF_LAZY_B == 0) {
#pragma unroll
                for (int i = 0; i < TM; i++)
#pragma unroll
                    for (int j = 0; j < TN; j++)
                        acc[i][j] = dfs_df_renorm(acc[i][j]);
            }
        }
#if __CUDA_ARCH__ >= 800
        if (more)
            copy_wait();
#else
        if (more) {
            if (aload) {
                sAh[s ^ 1][lr][lc] = pah;
                sAl[s ^ 1][lr][lc] = pal;
            }
            if (bload) {
                sBh[s ^ 1][br][bc] = pbh;
                sBl[s ^ 1][br][bc] = pbl;
            }
        }
#endif
        __syncthreads();
        s ^= 1;
    }

    const double al = a.alpha ? *a.alpha : a.alpha_v;
    const double be = a.beta ? *a.beta : a.beta_v;
#pragma unroll
    for (int i = 0; i < TM; i++)
#pragma unroll
        for (int j = 0; j < TN; j++) {
            const int64_t ri = mt + (i < 4 ? tx * 4 + i : 64 + tx * 4 + i - 4);
            const int64_t cj = nt + (j < 4 ? ty * 4 + j : 64 + ty * 4 + j - 4);
            store(a, al, be, ri, cj, acc[i][j]);
        }
}

#define DFS_DF_GEMM_KERNEL(name, S, TM, TN, MINB)                                                  \
    extern "C" __global__ void __launch_bounds__(DFS_DF_THREADS, MINB) name(dfs_df_gemm_args a) \
    {                                                                                              \
        gemm_body<S, TM, TN>(a);                                                                   \
    }
/* The GEMM kernels of df_gemm.h's list (DFS_DF_GEMM_KERNELS), under their extern "C" names. */
DFS_DF_GEMM_KERNELS(DFS_DF_GEMM_KERNEL)

/* The small kernel: a whole call in one launch (the steps above, per block). */
#include "kernels_small.cuh"
