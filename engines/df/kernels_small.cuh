/* kernels_small.cuh — the DF engine's small kernel (kernels.cu includes it; one module): every
 * output of a binary64 DGEMM, or of a whole strided batch of them, in one launch and without
 * workspace.  A block per (32 x 32 or 16 x 16 tile of C, batch entry) does for its rows and
 * columns what the path of four launches and packed planes does for all (gemm.c): the exponents
 * and spans of its rows of op(A) and columns of op(B) over the whole inner dimension
 * (rows_exps), then k in stages of DFS_DF_BK converted as dfs_df_pack converts them
 * (dfs_df_scaled, zeros up to the padded Kp), summed in order of p with the scheme's
 * multiply-add and the lazy scheme's renormalisations at the same k as gemm_body, then the same
 * epilogue (epilogue64).  Each output meets the same DF operations in the same order: the same
 * bits as the GEMM kernels and as dfs_df_gemm_host.
 *
 * Why 32 x 32 with 2 x 2 outputs per thread.  A multiprocessor issues 4 warp instructions a clock
 * (128 FP32 lanes) and its shared memory serves one 128-byte wavefront a clock.  Per k step a
 * warp (16 x 2 threads) here loads op(A)'s two DF pairs as 16 distinct float4 (2 wavefronts) and
 * op(B)'s as 2 broadcast ones (1), 3 clocks of shared memory against 4 multiply-adds of 12 to 29
 * FP32 instructions each, 12 to 29 clocks of FP32 issue (2 load instructions among 50 to 118):
 * FP32-bound with room to spare.  One output per thread (16 x 16) would load 2 wavefronts per
 * 12 to 29 instructions, 2 load instructions among 14 to 31 (an eighth of the issue slots at
 * 15 ops), and convert twice as many operand elements per multiply-add in its stages (1/8
 * against 1/16, each a binary64 ldexp and two conversions).  A 64 x 64 tile, as the tiled path's,
 * would give a fourth of the blocks: the point here is to spread a small product over many
 * multiprocessors (a 64^3 product is 4 blocks, 256^3 64, a batch entry of 32^3 one).  Where even
 * 32 x 32 tiles leave most multiprocessors idle (256^3: 64 blocks for 132 SMs) the _t16 kernels
 * take 16 x 16 tiles, an output a thread, the half of the threads loading each stage: four times
 * the blocks for the price of the loads above (gemm.c's rule, tuning.h's small16_waves).  The
 * price of no workspace: each block reads its rows of op(A) and columns of op(B) twice
 * (exponents, then the stages) and converts them itself, once per tile of C they meet. */
#ifndef DFS_DF_KERNELS_SMALL_CUH
#define DFS_DF_KERNELS_SMALL_CUH

/* Element (r, p) of the rows x k matrix src(r, p) = trans ? src[p + r*ld] : src[r + p*ld], 0
 * beyond it (the last stage's padding up to Kp, the last tile's rows). */
__device__ __forceinline__ double small_elem(const double *src, int64_t ld, int trans,
                                             int64_t rows, int64_t k, int64_t r, int64_t p)
{
    if (r >= rows || p >= k)
        return 0.0;
    return trans ? src[p + r * ld] : src[r + p * ld];
}

/* A converted element into its stage, (hi, lo) side by side: a thread's two rows are one float4. */
__device__ __forceinline__ void small_put(float2 *slot, double x, int e)
{
    const dfs_df d = dfs_df_scaled(x, e);
    *slot = make_float2(d.hi, d.lo);
}

/* The block's tile of T x T outputs (T = 32: 2 x 2 a thread; T = 16: one a thread), 16 x 16
 * threads. */
template <int S, int T> __device__ __forceinline__ void small_body(const dfs_df_small_args &a)
{
    constexpr int BK = DFS_DF_BK, R = T / 16, E = BK * T; /* E: a stage's elements of each */
    static_assert(DFS_DF_SMALL_THREADS == 256 && (T == 32 || T == 16) && E <= 256,
                  "the thread maps below: 16 x 16 threads of R x R outputs, at most one element "
                  "of each operand per thread and stage, rows_exps' 256 threads");
    static_assert(BK % DFS_DF_LAZY_B == 0, "the lazy scheme renormalises inside a stage");
    /* two stages, [buffer][p][row]; the rows' exponents and spans */
    __shared__ __align__(16) float2 sA[2][BK][T], sB[2][BK][T];
    __shared__ int eA[T], eB[T], spA[T], spB[T];
    const int t = threadIdx.x, tx = t % 16, ty = t / 16;
    const int64_t tiles_m = (a.m + T - 1) / T;
    const int64_t mt = (int64_t)blockIdx.x % tiles_m * T, nt = (int64_t)blockIdx.x / tiles_m * T;
    /* op(B) taken as an n x k matrix, as gemm.c takes it: its layout flag is the opposite of B's
     * transpose flag */
    const int tbk = !a.op.transb;
    /* this thread's element of each stage (threads t < E): consecutive threads at consecutive
     * addresses, along the rows where they are contiguous, else 8 along p */
    const bool st = E == DFS_DF_SMALL_THREADS || t < E;
    const int ra = a.op.transa ? t / BK : t % T, pa = a.op.transa ? t % BK : t / T;
    const int rb = tbk ? t / BK : t % T, pb = tbk ? t % BK : t / T;
    const double al = a.alpha ? *a.alpha : a.alpha_v;
    const double be = a.beta ? *a.beta : a.beta_v;
    const int64_t k = a.op.k, Kp = k > 0 ? (k + BK - 1) / BK * BK : BK; /* k = 0: one stage of 0 */

    for (int64_t b = blockIdx.y; b < a.batch; b += gridDim.y) {
        /* this entry's operands */
        dfs_df_orig64 o = a.op;
        o.A += b * a.strideA;
        o.B += b * a.strideB;
        dfs_df acc[R][R];
#pragma unroll
        for (int i = 0; i < R; i++)
#pragma unroll
            for (int j = 0; j < R; j++)
                acc[i][j] = dfs_df_make(0.0f, 0.0f);
        if (al != 0.0) { /* alpha = 0: A and B are not read (the epilogue writes beta C) */
            rows_exps<T>(o.A, o.lda, o.transa, a.m, k, mt, t, eA, spA);
            rows_exps<T>(o.B, o.ldb, tbk, a.n, k, nt, t, eB, spB);
            __syncthreads();
            const int xa_e = st && mt + ra < a.m ? eA[ra] : 0;
            const int xb_e = st && nt + rb < a.n ? eB[rb] : 0;
            double xa = st ? small_elem(o.A, o.lda, o.transa, a.m, k, mt + ra, pa) : 0.0;
            double xb = st ? small_elem(o.B, o.ldb, tbk, a.n, k, nt + rb, pb) : 0.0;
            if (st) {
                small_put(&sA[0][pa][ra], xa, xa_e);
                small_put(&sB[0][pb][rb], xb, xb_e);
            }
            __syncthreads();
            int s = 0;
            for (int64_t kt = 0; kt < Kp; kt += BK) {
                /* the next stage's elements in flight during this one's products */
                const bool more = kt + BK < Kp;
                if (more && st) {
                    xa = small_elem(o.A, o.lda, o.transa, a.m, k, mt + ra, kt + BK + pa);
                    xb = small_elem(o.B, o.ldb, tbk, a.n, k, nt + rb, kt + BK + pb);
                }
#pragma unroll
                for (int kk = 0; kk < BK; kk++) {
                    dfs_df x[R], y[R];
                    if constexpr (R == 2) {
                        const float4 fa = *reinterpret_cast<const float4 *>(&sA[s][kk][2 * tx]);
                        const float4 fb = *reinterpret_cast<const float4 *>(&sB[s][kk][2 * ty]);
                        x[0] = dfs_df_make(fa.x, fa.y);
                        x[1] = dfs_df_make(fa.z, fa.w);
                        y[0] = dfs_df_make(fb.x, fb.y);
                        y[1] = dfs_df_make(fb.z, fb.w);
                    } else {
                        const float2 fa = sA[s][kk][tx], fb = sB[s][kk][ty];
                        x[0] = dfs_df_make(fa.x, fa.y);
                        y[0] = dfs_df_make(fb.x, fb.y);
                    }
#pragma unroll
                    for (int i = 0; i < R; i++)
#pragma unroll
                        for (int j = 0; j < R; j++)
                            acc[i][j] = dfs_df_mad(S, acc[i][j], x[i], y[j]);
                    if (S == DFS_DF_MAD12 && (kk + 1) % DFS_DF_LAZY_B == 0) {
#pragma unroll
                        for (int i = 0; i < R; i++)
#pragma unroll
                            for (int j = 0; j < R; j++)
                                acc[i][j] = dfs_df_renorm(acc[i][j]);
                    }
                }
                if (more && st) {
                    small_put(&sA[s ^ 1][pa][ra], xa, xa_e);
                    small_put(&sB[s ^ 1][pb][rb], xb, xb_e);
                }
                __syncthreads();
                s ^= 1;
            }
        }
        double *C = a.C + b * a.strideC;
#pragma unroll
        for (int i = 0; i < R; i++)
#pragma unroll
            for (int j = 0; j < R; j++) {
                const int li = R * tx + i, lj = R * ty + j;
                const int64_t gi = mt + li, gj = nt + lj;
                if (gi < a.m && gj < a.n)
                    epilogue64(&C[gi + gj * a.ldc], al, be, acc[i][j], &eA[li], &eB[lj],
                               &spA[li], &spB[lj], o, gi, gj);
            }
        __syncthreads(); /* the exponents and the stages are the next entry's */
    }
}

#define DFS_DF_SMALL_KERNEL(name, S, T)                                                            \
    extern "C" __global__ void __launch_bounds__(DFS_DF_SMALL_THREADS, DFS_DF_MINB_SMALL)          \
        name(dfs_df_small_args a)                                                                  \
    {                                                                                              \
        small_body<S, T>(a);                                                                       \
    }
/* The small kernels of df_gemm.h's list (DFS_DF_SMALL_KERNELS), under their extern "C" names. */
DFS_DF_SMALL_KERNELS(DFS_DF_SMALL_KERNEL)

#endif
