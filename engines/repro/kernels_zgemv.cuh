/* kernels_zgemv.cuh — the reproducible engine's complex GEMV (issue 28), part of kernels_vec.cu
 * (its streaming, expansions and stores): y = alpha op(A) x + beta y with each part of each
 * output rounded once, RN(Re(alpha S + beta y)) and RN(Im(alpha S + beta y)), S = op(A) x.
 *
 * Each part of S is a real dot of 2K exact products, Re S = sum ar xr + (-ai) xi and Im S =
 * sum ar xi + ai xr (ai: op(A)'s imaginary part, negated under op C).  The first kernels
 * (dfs_oz_zgemv_n, dfs_oz_zgemv_t) are the real ones' with two sets of expansions, one per part,
 * filled in one pass over A and x (each element's four products); they store both (vec_args.h).
 * The finish kernel (dfs_oz_zgemv_final, a warp per output) rounds both parts from their merged
 * terms in registers where it can (zgemv_round_terms, as the real finish's gemv_round_terms);
 * else it adds each part's terms into an exact accumulator of its own (or, after a spill, every
 * product of the output, warp_exact_sums), then rounds each part of alpha S + beta y once from
 * the two exact sums (zfinish_output, xcombine.h's dfs_x_zaxpby: the CPU twin's combination).
 * Either way each part is RN of its exact value: the bits of dfs_repro_zgemv_host.  The real
 * kernels are untouched: these are kernels of their own. */

#define ZGEMV_N_AHEAD 1 /* complex elements loaded at a time (N: with the next in flight) */
#define ZGEMV_N_PREFETCH 1
#define ZGEMV_T_AHEAD 2
#define ZGEMV_T_PREFETCH 0

/* The four products of op(A)'s element (re, im) and x's element v into the expansions of Re S
 * (tr, flags fr) and Im S (ti, fi). */
__device__ __forceinline__ void zgemv_add(gemv_terms *tr, gemv_terms *ti, unsigned *fr,
                                          unsigned *fi, double re, double im, zpair v)
{
    *fr |= gemv_add(tr, re, v.re);
    *fr |= gemv_add(tr, -im, v.im);
    *fi |= gemv_add(ti, re, v.im);
    *fi |= gemv_add(ti, im, v.re);
}

/* alpha = 0 given on the device: A and x are not read (the finish gives RN(beta y)); given on
 * the host, vec.c launches no first kernel. */
__device__ __forceinline__ int zalpha_zero(const dfs_oz_gemv_args &a)
{
    return a.alpha && a.alpha[0] == 0.0 && a.alpha[1] == 0.0;
}

/* Output o's two expansions of chunk s, as the real kernels store one (store_terms). */
__device__ __forceinline__ void zstore_terms(const dfs_oz_gemv_args &a, int64_t o, int s,
                                             const gemv_terms *tr, const gemv_terms *ti,
                                             unsigned fr, unsigned fi)
{
    store_terms(a, o, 2 * s, tr, fr);
    store_terms(a, o, 2 * s + 1, ti, fi << DFS_OZ_ZFLAGS_SHIFT);
}

/* Both parts' terms of one output and chunk: op(A) = A (T false: a thread per row and chunk of
 * columns, reads of A coalesced along the column) or A^T, A^H (T: a warp per column and chunk
 * of rows, each part's lane expansions merged exactly by merge_lanes; an error left over spills
 * the output to the slow path). */
template <bool T> __device__ __forceinline__ void zgemv_first(const dfs_oz_zgemv_args &z)
{
    const dfs_oz_gemv_args &a = z.g;
    const int lane = threadIdx.x & 31;
    const int64_t o = T ? (int64_t)blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32
                        : (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (zalpha_zero(a) || o >= a.len)
        return;
    const int64_t q0 = (int64_t)blockIdx.y * a.chunk, q1 = min64(a.inner, q0 + a.chunk);
    gemv_terms tr, ti;
    terms3_zero(&tr);
    terms3_zero(&ti);
    unsigned fr = 0, fi = 0;
    const zpair *A = (const zpair *)a.A, *x = (const zpair *)a.x;
    const int conj = z.conj; /* op C only */
    const auto add = [&](zpair u, zpair v) {
        zgemv_add(&tr, &ti, &fr, &fi, u.re, conj ? -u.im : u.im, v);
    };
    if (T) {
        stream_strided<ZGEMV_T_AHEAD, ZGEMV_T_PREFETCH>(
            A + o * a.lda + q0 + lane, 32, x + vidx(q0 + lane, a.incx, a.inner), 32 * a.incx,
            strided_count(q0 + lane, q1, 32), add);
        fr = merge_lanes(&tr, fr, lane);
        fi = merge_lanes(&ti, fi, lane);
        if (lane != 0)
            return;
    } else {
        stream_strided<ZGEMV_N_AHEAD, ZGEMV_N_PREFETCH>(
            A + o + q0 * a.lda, a.lda, x + vidx(q0, a.incx, a.inner), a.incx, q1 - q0, add);
    }
    zstore_terms(a, o, (int)blockIdx.y, &tr, &ti, fr, fi);
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

/* The first way of an output of the finish (alpha != 0, no flags in either part): the lanes
 * insert each part's in-range terms of every chunk into an expansion of DFS_OZ_GEMV_MID terms
 * (fpe.h), merged by a butterfly (group_merge); lane 0 places both parts' terms as integers of
 * DFS_OZ_TW words on one grid and rounds each part of alpha S + beta y once in registers
 * (dfs_oz_w_combine_regs, wint.h).  Returns 0, y untouched, where a side term is present, an
 * error is left after the last term, the terms span too much, a scalar or a part of y is not
 * finite, a result is near overflow, or a part's result is zero (its sign depends on the terms
 * whose scalar part is zero, which dfs_x_zaxpby leaves out): the output then takes the
 * accumulators.  A non-zero result is the same: a zero scalar's term adds an exact zero.  Not
 * inlined (nor zfinish_output): inlined, dfs_oz_zgemv_final spilled on sm_100. */
__device__ __noinline__ int zgemv_round_terms(const dfs_oz_gemv_args &a, int64_t o,
                                              const double *alpha, const double *beta, double *y,
                                              int lane)
{
    constexpr int T = DFS_OZ_GEMV_MID;
    double tr[T], ti[T];
#pragma unroll
    for (int i = 0; i < T; i++)
        tr[i] = ti[i] = 0.0;
    unsigned f = 0;
    for (int i = lane; i < a.splits * 2 * DFS_OZ_GEMV_TERMS; i += 32) {
        const double v = a.terms[(int64_t)i * a.len + o];
        if (v == 0)
            continue;
        if (i % DFS_OZ_GEMV_TERMS >= T)
            f |= DFS_FPE_SPILL; /* a side term */
        else if ((i / DFS_OZ_GEMV_TERMS) & 1)
            f |= dfs_fpe_insert(ti, T, v);
        else
            f |= dfs_fpe_insert(tr, T, v);
    }
    group_merge<32, T>(tr, &f);
    group_merge<32, T>(ti, &f);
    int done = 0;
    if (lane == 0 && f == 0) {
        int lsb = 0, top = 0;
        const int any = dfs_oz_w_terms_span(ti, T, dfs_oz_w_terms_span(tr, T, 0, &lsb, &top),
                                            &lsb, &top);
        /* both parts' T terms below 2^top: each sum and its sign within the words */
        if (!any || top - lsb <= 64 * DFS_OZ_TW - 4) {
            uint64_t xr[DFS_OZ_TW], xi[DFS_OZ_TW];
            dfs_oz_w_terms_int(tr, T, lsb, xr, DFS_OZ_TW);
            dfs_oz_w_terms_int(ti, T, lsb, xi, DFS_OZ_TW);
            const int c = beta[0] != 0 || beta[1] != 0;
            const double yr = c ? y[0] : 0.0, yi = c ? y[1] : 0.0;
            /* Re = ar Sr + (-ai) Si + br yr + (-bi) yi, Im = ar Si + ai Sr + br yi + bi yr */
            double vr, vi;
            int mr, mi;
            if (dfs_oz_w_combine_regs(xr, xi, DFS_OZ_TW, lsb, alpha[0], -alpha[1], c, beta[0], yr,
                                      -beta[1], yi, &vr, &mr) &&
                dfs_oz_w_combine_regs(xi, xr, DFS_OZ_TW, lsb, alpha[0], alpha[1], c, beta[0], yi,
                                      beta[1], yr, &vi, &mi) &&
                vr != 0 && vi != 0) {
                y[0] = vr;
                y[1] = vi;
                done = 1;
            }
        }
    }
    return __shfl_sync(0xffffffffu, done, 0);
}

/* One warp per output: both parts rounded by zgemv_round_terms where it can; else each part's
 * terms of every chunk (or, after a spill in either part, every product of the output) into
 * that part's exact accumulator in shared memory, then both parts of y = alpha S + beta y
 * rounded once each. */
extern "C" __global__ void __launch_bounds__(32 * DFS_OZ_ZFINAL_WARPS)
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
    const unsigned spill = DFS_FPE_SPILL | DFS_FPE_SPILL << DFS_OZ_ZFLAGS_SHIFT;
    const unsigned f = a.flags ? a.flags[o] : spill; /* no workspace: every output slow */
    double *y = a.y + 2 * vidx(o, a.incy, a.len);
    const int products = alpha[0] != 0 || alpha[1] != 0;
    if (products && f == 0 && zgemv_round_terms(a, o, alpha, beta, y, lane))
        return;
    long long *const w[2] = {wa[wp][0], wa[wp][1]};
    zero_words(wa[wp][0], 2 * DFS_X_WORDS, lane, 32);
    __syncwarp();
    unsigned g[2] = {0, 0};
    if (products) {
        if (!(f & spill)) {
            for (int i = lane; i < a.splits * 2 * DFS_OZ_GEMV_TERMS; i += 32) {
                const double v = a.terms[(int64_t)i * a.len + o];
                if (v != 0)
                    add_term((i / DFS_OZ_GEMV_TERMS) & 1 ? w[1] : w[0], v, i % DFS_OZ_GEMV_TERMS);
            }
            g[0] = f & DFS_X_SPECIAL;
            g[1] = (f >> DFS_OZ_ZFLAGS_SHIFT) & DFS_X_SPECIAL;
        } else {
            /* the slow path: every product of this output, in one pass; half-step q takes the
             * real (q even) or imaginary part of op(A)'s element q / 2: Re S gets ar xr or
             * (-ai) xi, Im S ar xi or ai xr */
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
    }
    __syncwarp();
    zfinish_output(w[0], w[1], ws[wp], g[0], g[1], alpha, beta, y);
}
