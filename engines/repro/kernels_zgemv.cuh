/* kernels_zgemv.cuh — the reproducible engine's complex GEMV (issue 28), part of kernels_vec.cu
 * (its streaming and double-double sums): y = alpha op(A) x + beta y with each part of each
 * output rounded once, RN(Re(alpha S + beta y)) and RN(Im(alpha S + beta y)), S = op(A) x.
 *
 * Each part of S is a real dot of 2K exact products, Re S = sum ar xr + (-ai) xi and Im S =
 * sum ar xi + ai xr (ai: op(A)'s imaginary part, negated under op C).  The first kernels
 * (dfs_oz_zgemv_n, dfs_oz_zgemv_t) are the real ones' with two double-double sums of both
 * classes (ddsum.h's dfs_oz_ddsum2), one per part, filled in one pass over A and x (each
 * element's four products); they store both (vec_args.h).  The finish kernel
 * (dfs_oz_zgemv_final, a warp per output) merges each part's chunks and rounds both parts of
 * alpha S + beta y where the bounds decide them (dfs_oz_ddsum2_zround: real scalars part by
 * part, complex ones by the corners of the two intervals); else it adds every product of the
 * output into an exact accumulator per part (warp_exact_sums) and rounds each part once from
 * the two exact sums (zfinish_output, xcombine.h's dfs_x_zaxpby: the CPU twin's combination).
 * Either way each part is RN of its exact value: the bits of dfs_repro_zgemv_host. */

#define ZGEMV_N_AHEAD 1 /* complex elements loaded at a time (N: with the next in flight) */
#define ZGEMV_N_PREFETCH 1
#define ZGEMV_T_AHEAD 2
#define ZGEMV_T_PREFETCH 0

/* alpha = 0 given on the device: A and x are not read (the finish gives RN(beta y)); given on
 * the host, vec.c launches no first kernel. */
__device__ __forceinline__ int zalpha_zero(const dfs_oz_gemv_args &a)
{
    return a.alpha && a.alpha[0] == 0.0 && a.alpha[1] == 0.0;
}

/* Both parts' sums of one output and chunk: op(A) = A (T false: a thread per row and chunk of
 * columns, reads of A coalesced along the column) or A^T, A^H (T: a warp per column and chunk
 * of rows, the lanes' sums merged by the butterfly), stored as sums 2 s and 2 s + 1 of the
 * chunk (store_sum). */
template <bool T> __device__ __forceinline__ void zgemv_first(const dfs_oz_zgemv_args &z)
{
    const dfs_oz_gemv_args &a = z.g;
    const int lane = threadIdx.x & 31;
    const int64_t o = T ? (int64_t)blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32
                        : (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (zalpha_zero(a) || o >= a.len)
        return;
    const int64_t q0 = (int64_t)blockIdx.y * a.chunk, q1 = min64(a.inner, q0 + a.chunk);
    dfs_oz_ddsum2 dr = dfs_oz_ddsum2_zero(), di = dfs_oz_ddsum2_zero();
    const zpair *A = (const zpair *)a.A, *x = (const zpair *)a.x;
    const int conj = z.conj; /* op C only */
    const auto add = [&](zpair u, zpair v) {
        const double im = conj ? -u.im : u.im;
        dfs_oz_ddsum2_add(&dr, u.re, v.re);
        dfs_oz_ddsum2_add(&dr, -im, v.im);
        dfs_oz_ddsum2_add(&di, u.re, v.im);
        dfs_oz_ddsum2_add(&di, im, v.re);
    };
    if (T) {
        stream_strided<ZGEMV_T_AHEAD, ZGEMV_T_PREFETCH>(
            A + o * a.lda + q0 + lane, 32, x + vidx(q0 + lane, a.incx, a.inner), 32 * a.incx,
            strided_count(q0 + lane, q1, 32), add);
        group_merge_sum2<32>(&dr);
        group_merge_sum2<32>(&di);
        if (lane != 0)
            return;
    } else {
        stream_strided<ZGEMV_N_AHEAD, ZGEMV_N_PREFETCH>(
            A + o + q0 * a.lda, a.lda, x + vidx(q0, a.incx, a.inner), a.incx, q1 - q0, add);
    }
    store_sum(a, o, 2 * (int)blockIdx.y, dr);
    store_sum(a, o, 2 * (int)blockIdx.y + 1, di);
}

extern "C" __global__ void __launch_bounds__(DFS_OZ_GEMV_THREADS)
    dfs_oz_zgemv_n(dfs_oz_zgemv_args z)
{
    zgemv_first<false>(z);
}

extern "C" __global__ void __launch_bounds__(DFS_OZ_GEMV_THREADS)
    dfs_oz_zgemv_t(dfs_oz_zgemv_args z)
{
    zgemv_first<true>(z);
}

/* The first way of an output of the finish (alpha != 0, workspace): each part's sums of every
 * chunk merged (each lane its chunks, then the butterfly) and both parts of alpha S + beta y
 * rounded where the bounds decide (dfs_oz_ddsum2_zround; the levels of merges count beside the
 * 2K products, as the real finish's).  Returns 1 (in every lane) where it wrote y.  Not inlined
 * (nor zfinish_output): inlined, dfs_oz_zgemv_final's registers spilled on sm_100. */
__device__ __noinline__ int zgemv_round_sums(const dfs_oz_gemv_args &a, int64_t o,
                                             const double *alpha, const double *beta, double *y,
                                             int lane)
{
    dfs_oz_ddsum2 d[2] = {dfs_oz_ddsum2_zero(), dfs_oz_ddsum2_zero()};
    for (int i = lane; i < a.splits; i += 32)
#pragma unroll
        for (int p = 0; p < 2; p++)
            dfs_oz_ddsum2_merge(&d[p], load_sum(a, o, 2 * i + p));
    group_merge_sum2<32>(&d[0]);
    group_merge_sum2<32>(&d[1]);
    int done = 0;
    if (lane == 0) {
        const int64_t levels = 5 + (a.splits + 31) / 32 + (a.trans ? 5 : 0);
        const int c = beta[0] != 0 || beta[1] != 0;
        const double cv[2] = {c ? y[0] : 0.0, c ? y[1] : 0.0};
        double v[2];
        if (dfs_oz_ddsum2_zround(&d[0], &d[1], 2 * a.inner + levels, alpha, beta, cv, v)) {
            y[0] = v[0];
            y[1] = v[1];
            done = 1;
        }
    }
    return __shfl_sync(0xffffffffu, done, 0);
}

/* One warp per output: both parts rounded by zgemv_round_sums where the sums decide; else every
 * product of the output into its part's exact accumulator in shared memory, then both parts of
 * y = alpha S + beta y rounded once each.  Without workspace every output takes the exact way. */
extern "C" __global__ void __launch_bounds__(32 * DFS_OZ_ZFINAL_WARPS, 1)
    dfs_oz_zgemv_final(dfs_oz_zgemv_args z)
{
    __shared__ long long wa[DFS_OZ_ZFINAL_WARPS][2][DFS_X_WORDS];
    __shared__ long long ws[DFS_OZ_ZFINAL_WARPS][DFS_X_ZSCRATCH];
    const dfs_oz_gemv_args &a = z.g;
    const int lane = threadIdx.x & 31, wp = threadIdx.x / 32;
    const int64_t o = (int64_t)blockIdx.x * DFS_OZ_ZFINAL_WARPS + wp;
    if (o >= a.len)
        return; /* whole warps only: no block-wide barrier below */
    const double alpha[2] = {a.alpha ? a.alpha[0] : a.alpha_v, a.alpha ? a.alpha[1] : z.alpha_i};
    const double beta[2] = {a.beta ? a.beta[0] : a.beta_v, a.beta ? a.beta[1] : z.beta_i};
    double *y = a.y + 2 * vidx(o, a.incy, a.len);
    const int products = alpha[0] != 0 || alpha[1] != 0;
    if (products && a.terms && a.flags[o] == 0 && zgemv_round_sums(a, o, alpha, beta, y, lane))
        return;
    long long *const w[2] = {wa[wp][0], wa[wp][1]};
    zero_words(wa[wp][0], 2 * DFS_X_WORDS, lane, 32);
    __syncwarp();
    unsigned g[2] = {0, 0};
    if (products) {
        /* every product of this output, in one pass; half-step q takes the real (q even) or
         * imaginary part of op(A)'s element q / 2: Re S gets ar xr or (-ai) xi, Im S ar xi or
         * ai xr */
        const double *arow = a.A + 2 * (a.trans ? o * a.lda : o);
        const int64_t sa = a.trans ? 1 : a.lda;
        const int conj = z.conj;
        warp_exact_sums<2>(
            w, 2 * a.inner,
            [&](int64_t q, double *u, double *v) {
                const int64_t j = q >> 1;
                const int odd = (int)(q & 1);
                const double *xe = a.x + 2 * vidx(j, a.incx, a.inner);
                const double e = arow[2 * j * sa + odd];
                const double opa = odd && conj ? -e : e; /* ar, or op(A)'s ai */
                u[0] = odd ? -opa : opa;
                v[0] = xe[odd];
                u[1] = opa;
                v[1] = xe[1 - odd];
            },
            g);
    }
    __syncwarp();
    zfinish_output(w[0], w[1], ws[wp], g[0], g[1], alpha, beta, y);
}
