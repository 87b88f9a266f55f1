/* kernels_dot.cuh — the reproducible engine's DOTs (kernels_vec.cu includes it; one module):
 * real, and both parts of a complex one in one pass.
 *
 * First way: each thread sums its products in double-double, both classes (../oz/ddsum.h); a
 * block merges its threads' sums; one block alone rounds them (block_dd_first), several store
 * them and the last to finish merges and rounds (dot_dd_blocks).  The exact way, where that
 * leaves the result open: each thread adds its products into DFS_OZ_TERMS binary64 terms
 * (fpe.h), and those below and above their range into two more expansions of their own, scaled
 * (fpe.h, dfs_fpe_add_product3_rest); the terms then go into exact integer accumulators (xacc.h)
 * in shared memory, one per block, with 64-bit integer atomics: integer addition is
 * associative, so neither the grid nor the scheduling changes a bit.  What a thread's terms
 * cannot take goes straight into its block's accumulator (add_product3_spilling,
 * ../oz/device.cuh).  Infinities and NaN travel as flags (xacc.h) and are resolved at the end. */
#ifndef DFS_REPRO_KERNELS_DOT_CUH
#define DFS_REPRO_KERNELS_DOT_CUH

/* The sums d of the block's threads merged, each warp's (5 levels), then the warps' in warp 0
 * (3): the block's sum, in every lane of warp 0.  Every thread calls it. */
__device__ __forceinline__ dfs_oz_ddsum2 block_merge_sum2(dfs_oz_ddsum2 d)
{
    constexpr int W = DFS_OZ_DOT_THREADS / 32;
    static_assert(W == 8, "the DOT's levels of merges (DOT_BLOCK_LEVELS) count 8 warps");
    __shared__ dfs_oz_ddsum2 warp_sums[W];
    const int lane = threadIdx.x & 31, wp = threadIdx.x >> 5;
    group_merge_sum2<32>(&d);
    if (lane == 0)
        warp_sums[wp] = d;
    __syncthreads();
    if (wp == 0) {
        d = lane < W ? warp_sums[lane] : dfs_oz_ddsum2_zero();
        group_merge_sum2<W>(&d);
    }
    return d;
}
#define DOT_BLOCK_LEVELS 8 /* levels of merges in block_merge_sum2 */

/* A thread's products x_i y_i, i = first, first + stride, ... < n, in double-double. */
__device__ __forceinline__ dfs_oz_ddsum2 thread_dd_sum(const dfs_oz_dot_args &a, int64_t first,
                                                       int64_t stride)
{
    dfs_oz_ddsum2 d = dfs_oz_ddsum2_zero();
    stream_strided<DOT_AHEAD, DOT_PREFETCH>(
        a.x + vidx(first, a.incx, a.n), stride * a.incx, a.y + vidx(first, a.incy, a.n),
        stride * a.incy, strided_count(first, a.n, stride),
        [&](double x, double y) { dfs_oz_ddsum2_add(&d, x, y); });
    return d;
}


/* Term i of the one-block DOT (vec_args.h: the real one, or with Z one part of a complex one). */
template <bool Z>
__device__ __forceinline__ void dot_pair(const dfs_oz_dot_args &a, int64_t i, double *x, double *y)
{
    if (!Z) {
        *x = a.x[vidx(i, a.incx, a.n)];
        *y = a.y[vidx(i, a.incy, a.n)];
        return;
    }
    const int64_t j = i >> 1, nz = a.n >> 1;
    const int p = (int)(i & 1);
    const double *xe = a.x + 2 * vidx(j, a.incx, nz), *ye = a.y + 2 * vidx(j, a.incy, nz);
    *x = xe[p];
    switch (a.zmode) {
    case DFS_OZ_ZC_RE: *y = ye[p]; break;
    case DFS_OZ_ZC_IM: *y = p ? -ye[0] : ye[1]; break;
    case DFS_OZ_ZU_RE: *y = p ? -ye[1] : ye[0]; break;
    default: *y = p ? ye[0] : ye[1]; break;
    }
}

/* ---- the DOTs' double-double way, real (P = 1 part) and complex (P = 2: Re, Im) ---- */

/* Each part's sums of the block merged (block_merge_sum2, one part after the other: warp 0 has
 * read the warps' sums before they are written again). */
template <int P> __device__ __forceinline__ void block_merge_parts(dfs_oz_ddsum2 *d)
{
#pragma unroll
    for (int p = 0; p < P; p++) {
        if (p)
            __syncthreads();
        d[p] = block_merge_sum2(d[p]);
    }
}

/* One block's whole DOT in double-double first: sums(first, stride, d) gives a thread's sums of
 * the elements first, first + stride, ..., merged over the block; thread 0 rounds them,
 * round(d, levels) (levels: the merges' beside the products; 1 where it wrote the result).
 * Returns that in every thread (0: the exact ways follow).  Every thread calls it. */
template <int P, typename Sums, typename Round>
__device__ __forceinline__ int block_dd_first(Sums sums, Round round)
{
    __shared__ int done;
    dfs_oz_ddsum2 d[P];
    sums((int64_t)threadIdx.x, (int64_t)blockDim.x, d);
    block_merge_parts<P>(d);
    if (threadIdx.x == 0)
        done = round(d, (int64_t)DOT_BLOCK_LEVELS);
    __syncthreads();
    return done;
}

/* A block's double-double sums (both classes, then the flag as 0 or 1) at out, and read back
 * by the last block, past L1 (__ldcg: written by other blocks during this kernel). */
__device__ __forceinline__ void store_block_sum(double *out, const dfs_oz_ddsum2 &d)
{
    out[0] = d.m.h;
    out[1] = d.m.l;
    out[2] = d.m.s;
    out[3] = d.t.h;
    out[4] = d.t.l;
    out[5] = d.t.s;
    out[6] = (d.m.f | d.t.f) ? 1.0 : 0.0;
}

__device__ __forceinline__ dfs_oz_ddsum2 load_block_sum(const double *in)
{
    const dfs_oz_ddsum2 c = {{__ldcg(in), __ldcg(in + 1), __ldcg(in + 2), __ldcg(in + 6) != 0},
                             {__ldcg(in + 3), __ldcg(in + 4), __ldcg(in + 5), 0u}};
    return c;
}

/* The DOT in several blocks, first way (sums and round as block_dd_first's): each block's
 * sums into a.sums (part p of block b at P b + p); the last block to finish (a.count, zeroed
 * before) merges them all, in block order (each thread every blockDim.x-th, then as a block's
 * own: one round of loads), and rounds where the bound decides.  The bound counts the levels of
 * merges beside the products: a block's twice (DOT_BLOCK_LEVELS), a thread's blocks.  Where it
 * leaves the result open: with a.open, *a.open = 1 and the exact kernels that follow (which
 * return at once while it is 0) compute it; without (short vectors: vec.c), this last block
 * computes it exactly itself, exact(), without those launches. */
template <int P, typename Sums, typename Round, typename Exact>
__device__ __forceinline__ void dot_dd_blocks(const dfs_oz_dot_args &a, Sums sums, Round round,
                                              Exact exact)
{
    dfs_oz_ddsum2 d[P];
    sums((int64_t)blockIdx.x * blockDim.x + threadIdx.x, (int64_t)gridDim.x * blockDim.x, d);
    block_merge_parts<P>(d);
    __shared__ int last, open_here;
    if (threadIdx.x == 0) {
#pragma unroll
        for (int p = 0; p < P; p++)
            store_block_sum(a.sums + (size_t)(P * blockIdx.x + p) * DFS_OZ_DOT_SUM_WORDS, d[p]);
        __threadfence(); /* the sums visible before the count says so */
        last = atomicAdd(a.count, 1u) == gridDim.x - 1;
        open_here = 0;
    }
    __syncthreads();
    if (!last)
        return;
    __threadfence();
#pragma unroll
    for (int p = 0; p < P; p++)
        d[p] = dfs_oz_ddsum2_zero();
    for (unsigned b = threadIdx.x; b < gridDim.x; b += blockDim.x)
#pragma unroll
        for (int p = 0; p < P; p++)
            dfs_oz_ddsum2_merge(&d[p], load_block_sum(a.sums + (size_t)(P * b + p) *
                                                                DFS_OZ_DOT_SUM_WORDS));
    block_merge_parts<P>(d);
    if (threadIdx.x == 0 &&
        !round(d, 2 * DOT_BLOCK_LEVELS + (int64_t)(gridDim.x + blockDim.x - 1) / blockDim.x)) {
        if (a.open)
            *a.open = 1;
        else
            open_here = 1;
    }
    __syncthreads();
    if (open_here) /* the whole block, or none */
        exact();
}

/* The real DOT's sums and rounding for those. */
__device__ __forceinline__ void real_dd_sums(const dfs_oz_dot_args &a, int64_t first,
                                             int64_t stride, dfs_oz_ddsum2 *d)
{
    d[0] = thread_dd_sum(a, first, stride);
}

__device__ __forceinline__ int real_dd_round(const dfs_oz_dot_args &a, const dfs_oz_ddsum2 *d,
                                             int64_t levels)
{
    double v;
    if (!dfs_oz_ddsum2_round(&d[0], a.n + levels, 1.0, 0.0, 0.0, &v))
        return 0;
    *a.result = v;
    return 1;
}

/* Terms of a whole block's sum merged for its rounding without the accumulator (one block's
 * DOT): a thread's DFS_OZ_TERMS in range widened to this many. */
#define BLOCK_TERMS 8

/* One block's sum rounded straight from its threads' in-range terms t: merged in each warp
 * (group_merge), the warps' sums then in warp 0, rounded once (dfs_oz_w_terms_axpby, alpha 1,
 * beta 0) into *out.  Returns 1 (in every thread) when it wrote *out; 0 when some thread has
 * `fail` set (a special flag or a spill into the accumulator), a side term (below or above the
 * range), an error left after the merged terms, or a rounding they cannot decide: then nothing
 * is written and the terms are untouched, for the accumulator's way.  Every thread calls it. */
__device__ int block_round_terms(const terms3<DFS_OZ_TERMS, DFS_OZ_DOT_SIDE> *t, unsigned fail,
                                 double *out)
{
    __shared__ double warp_terms[DFS_OZ_DOT_THREADS / 32][BLOCK_TERMS];
    __shared__ unsigned any_fail;
    __shared__ int done;
    const int lane = threadIdx.x & 31, wp = threadIdx.x >> 5, warps = blockDim.x >> 5;
    if (threadIdx.x == 0)
        any_fail = 0;
    double u[BLOCK_TERMS];
#pragma unroll
    for (int i = 0; i < BLOCK_TERMS; i++)
        u[i] = i < DFS_OZ_TERMS ? t->mid[i] : 0.0;
#pragma unroll
    for (int i = 0; i < DFS_OZ_DOT_SIDE; i++)
        fail |= (t->lo[i] != 0) | (t->hi[i] != 0);
    __syncthreads(); /* any_fail zeroed */
    group_merge<32, BLOCK_TERMS>(u, &fail);
    if (lane == 0) {
        if (fail)
            atomicOr(&any_fail, 1u);
#pragma unroll
        for (int i = 0; i < BLOCK_TERMS; i++)
            warp_terms[wp][i] = u[i];
    }
    __syncthreads();
    if (wp == 0 && !any_fail) { /* any_fail: the same in every lane */
        unsigned f = 0;
#pragma unroll
        for (int i = 0; i < BLOCK_TERMS; i++)
            u[i] = lane < warps ? warp_terms[lane][i] : 0.0;
        group_merge<32, BLOCK_TERMS>(u, &f);
        if (lane == 0) {
            double v;
            done = f == 0 && dfs_oz_w_terms_axpby(u, BLOCK_TERMS, 1.0, 0.0, 0.0, &v);
            if (done)
                *out = v;
        }
    } else if (threadIdx.x == 0) {
        done = 0;
    }
    __syncthreads();
    return done;
}

/* Each block: its products into its threads' terms and its accumulator, the terms added in;
 * a single block (ONE, launched alone) then rounds it into the result itself (from the terms
 * alone where they hold the sum: block_round_terms); otherwise the accumulator is
 * normalised when anything spilled (so that it adds less than 2^32 to each word
 * of the global one: 2^20 blocks cannot overflow it), then flushed.  Before normalising, a word
 * has taken at most 2 n / blocks + (DFS_OZ_TERMS + 2 DFS_OZ_DOT_SIDE) x threads additions of
 * less than 2^32 each, below xacc.h's 2^30 (vec.c keeps n / blocks below 2^28). */
template <bool ONE> __device__ __forceinline__ void dot_exact(const dfs_oz_dot_args &a)
{
    __shared__ long long w[DFS_X_WORDS];
    __shared__ unsigned block_spilled, block_flags;
    zero_words(w, DFS_X_WORDS, threadIdx.x, blockDim.x);
    if (threadIdx.x == 0)
        block_spilled = block_flags = 0;
    __syncthreads();
    terms3<DFS_OZ_TERMS, DFS_OZ_DOT_SIDE> t;
    terms3_zero(&t);
    unsigned f = 0, spilled = 0;
    const int64_t stride = ONE ? blockDim.x : (int64_t)gridDim.x * blockDim.x;
    const int64_t first = ONE ? threadIdx.x : (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    stream_strided<DOT_AHEAD, DOT_PREFETCH>(
        a.x + vidx(first, a.incx, a.n), stride * a.incx, a.y + vidx(first, a.incy, a.n),
        stride * a.incy, strided_count(first, a.n, stride),
        [&](double x, double y) { f |= add_product3_spilling(w, &t, x, y, &spilled); });
    /* one block: its sum rounded from the terms where they hold it, without the accumulator's
     * serial steps (every thread takes the same branch) */
    if (ONE && block_round_terms(&t, f | spilled, a.result))
        return;
    add_terms3(w, &t);
    if (spilled)
        block_spilled = 1;
    f = warp_or(f);
    if (ONE) {
        /* the whole sum is this block's: warp 0 rounds it (a.acc, a.flags unused) */
        if (f && (threadIdx.x & 31) == 0)
            atomicOr(&block_flags, f);
        __syncthreads();
        if (threadIdx.x < 32) {
            __shared__ long long scratch[DFS_X_WORDS];
            finish_output(w, scratch, block_flags, 1.0, 0.0, a.result);
        }
        return;
    }
    if (f && (threadIdx.x & 31) == 0)
        atomicOr(a.flags, f);
    __syncthreads();
    if (block_spilled)
        normalize_shared(w); /* every thread or none: block_spilled is read after the barrier */
    flush_words(a.acc, w);
}

/* The DOT's blocks: one block alone (ONE) tries double-double first; several blocks (the exact
 * way after dfs_oz_dot_dd) run only where it left the result open. */
template <bool ONE> __device__ __forceinline__ void dot_body(const dfs_oz_dot_args &a)
{
    const auto sums = [&](int64_t first, int64_t stride, dfs_oz_ddsum2 *d) {
        real_dd_sums(a, first, stride, d);
    };
    const auto round = [&](const dfs_oz_ddsum2 *d, int64_t levels) {
        return real_dd_round(a, d, levels);
    };
    if (ONE ? block_dd_first<1>(sums, round) : a.open && !*a.open)
        return; /* rounded in double-double (here, or by dfs_oz_dot_dd) */
    dot_exact<ONE>(a);
}

/* The real DOT in several blocks, double-double first (dot_dd_blocks). */
extern "C" __global__ void __launch_bounds__(DFS_OZ_DOT_THREADS) dfs_oz_dot_dd(dfs_oz_dot_args a)
{
    dot_dd_blocks<1>(
        a,
        [&](int64_t first, int64_t stride, dfs_oz_ddsum2 *d) {
            real_dd_sums(a, first, stride, d);
        },
        [&](const dfs_oz_ddsum2 *d, int64_t levels) { return real_dd_round(a, d, levels); },
        [&] { dot_exact<true>(a); });
}

/* The block's threads add the products x_i y_i, i = first, first + stride, ... (each thread its
 * own first; every thread of the block takes part) into the shared accumulator w, normalising
 * after every SLOW_ROUND products of the block.  Returns the thread's special flags. */
template <bool Z>
__device__ unsigned block_products(long long *w, const dfs_oz_dot_args &a, int64_t first,
                                   int64_t stride)
{
    const int64_t span = SLOW_ROUND / blockDim.x * stride; /* indices per round */
    unsigned f = 0;
    int64_t i = first;
    for (int64_t done = 0; done < a.n; done += span) {
        for (; i < a.n && i < done + span; i += stride) {
            double x, y;
            dot_pair<Z>(a, i, &x, &y);
            f |= slow_product(w, x, y);
        }
        normalize_shared(w);
    }
    return f;
}

/* Without workspace (e.g. during graph capture when it would have to grow): one block adds
 * every product into its accumulator and rounds; the result pointer is device memory. */
template <bool Z> __device__ __forceinline__ void dot_single_body(const dfs_oz_dot_args &a)
{
    __shared__ long long w[DFS_X_WORDS], scratch[DFS_X_WORDS];
    __shared__ unsigned flags;
    zero_words(w, DFS_X_WORDS, threadIdx.x, blockDim.x);
    if (threadIdx.x == 0)
        flags = 0;
    __syncthreads();
    atomicOr(&flags, block_products<Z>(w, a, threadIdx.x, blockDim.x));
    __syncthreads();
    if (threadIdx.x < 32) /* warp 0 */
        finish_output(w, scratch, flags, 1.0, 0.0, a.result); /* beta = 0: *result not read */
}

/* The real DOT in several blocks and in one, its one-block form without workspace, and that of
 * one part of a complex one (vec_args.h; both parts at once: dfs_oz_zdotc_one below). */
/* A DOT kernel of DFS_OZ_DOT_THREADS threads: name, running body (a template instance). */
#define DOT_KERNEL(name, body)                                                                     \
    extern "C" __global__ void __launch_bounds__(DFS_OZ_DOT_THREADS) name(dfs_oz_dot_args a)       \
    {                                                                                              \
        body(a);                                                                                   \
    }
DOT_KERNEL(dfs_oz_dot, dot_body<false>)
DOT_KERNEL(dfs_oz_dot_block, dot_body<true>)
DOT_KERNEL(dfs_oz_dot_single, dot_single_body<false>)
DOT_KERNEL(dfs_oz_zdot_single, dot_single_body<true>)

/* ---------- complex DOT: both parts in one pass ---------- */

struct zpair { /* a complex element as stored (8-byte aligned: two loads) */
    double re, im;
};

/* Both parts of a complex DOT (x^H y with CONJ, else x^T y) in one pass over x and y: each
 * element's four products go into the thread's two pairs of expansions, Re's and Im's, and what
 * they cannot take into the block's accumulator of that part.  The same exact sums as the
 * one-block kernel with the zmodes (each part's terms negated where dot_pair negates y, here on
 * x: the same products), so the same bits; x and y are read once instead of twice.  one: this
 * block alone sums every element (from threadIdx.x by blockDim.x) and rounds both parts; else
 * the blocks flush into the global accumulators (dfs_oz_dot_final rounds each part). */
template <bool CONJ>
__device__ __forceinline__ void zdot_exact(const dfs_oz_dot_args &a, bool one)
{
    __shared__ long long w[2][DFS_X_WORDS];
    __shared__ unsigned block_spilled, block_flags[2];
    zero_words(w[0], 2 * DFS_X_WORDS, threadIdx.x, blockDim.x);
    if (threadIdx.x == 0)
        block_spilled = block_flags[0] = block_flags[1] = 0;
    __syncthreads();
    terms3<DFS_OZ_TERMS, DFS_OZ_DOT_SIDE> tr, ti;
    terms3_zero(&tr);
    terms3_zero(&ti);
    unsigned fr = 0, fi = 0, spilled = 0;
    const int64_t stride = one ? blockDim.x : (int64_t)gridDim.x * blockDim.x;
    const int64_t first = one ? threadIdx.x : (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    const zpair *x = (const zpair *)a.x, *y = (const zpair *)a.y;
    stream_strided<ZDOT_AHEAD, ZDOT_PREFETCH>(
        x + vidx(first, a.incx, a.n), stride * a.incx, y + vidx(first, a.incy, a.n),
        stride * a.incy, strided_count(first, a.n, stride), [&](zpair u, zpair v) {
            fr |= add_product3_spilling(w[0], &tr, u.re, v.re, &spilled);
            fr |= add_product3_spilling(w[0], &tr, CONJ ? u.im : -u.im, v.im, &spilled);
            fi |= add_product3_spilling(w[1], &ti, u.re, v.im, &spilled);
            fi |= add_product3_spilling(w[1], &ti, CONJ ? -u.im : u.im, v.re, &spilled);
        });
    add_terms3(w[0], &tr);
    add_terms3(w[1], &ti);
    if (spilled)
        block_spilled = 1;
    fr = warp_or(fr);
    fi = warp_or(fi);
    if ((threadIdx.x & 31) == 0) {
        if (fr)
            atomicOr(one ? &block_flags[0] : a.flags, fr);
        if (fi)
            atomicOr(one ? &block_flags[1]
                         : (unsigned *)(dfs_oz_dot_part(a.acc, 1) + DFS_X_WORDS),
                     fi);
    }
    __syncthreads();
    if (one) { /* the whole sums are this block's: warps 0 and 1 round a part each */
        __shared__ long long scratch[2][DFS_X_WORDS];
        const int p = threadIdx.x / 32;
        if (p < 2)
            finish_output(w[p], scratch[p], block_flags[p], 1.0, 0.0, a.result + p);
        return;
    }
    if (block_spilled) { /* every thread or none: block_spilled is read after the barrier */
        normalize_shared(w[0]);
        normalize_shared(w[1]);
    }
    flush_words(a.acc, w[0]);
    flush_words(dfs_oz_dot_part(a.acc, 1), w[1]);
}

/* Both parts of a complex DOT in double-double first (x^H y with CONJ, else x^T y): a thread's
 * products of the elements first, first + stride, ... into two sums (Re's and Im's, both
 * classes), as zdot_exact adds them to its expansions. */
template <bool CONJ>
__device__ __forceinline__ void thread_zdd_sums(const dfs_oz_dot_args &a, int64_t first,
                                                int64_t stride, dfs_oz_ddsum2 *d)
{
    d[0] = d[1] = dfs_oz_ddsum2_zero();
    const zpair *x = (const zpair *)a.x, *y = (const zpair *)a.y;
    stream_strided<ZDOT_AHEAD, ZDOT_PREFETCH>(
        x + vidx(first, a.incx, a.n), stride * a.incx, y + vidx(first, a.incy, a.n),
        stride * a.incy, strided_count(first, a.n, stride), [&](zpair u, zpair v) {
            dfs_oz_ddsum2_add(&d[0], u.re, v.re);
            dfs_oz_ddsum2_add(&d[0], CONJ ? u.im : -u.im, v.im);
            dfs_oz_ddsum2_add(&d[1], u.re, v.im);
            dfs_oz_ddsum2_add(&d[1], CONJ ? -u.im : u.im, v.re);
        });
}

/* Both parts rounded where the bounds decide (alpha 1, beta 0: dfs_oz_ddsum2_zround) for k
 * products each, into result[0] and [1]; one thread. */
__device__ __forceinline__ int zdot_round(const dfs_oz_ddsum2 *d, int64_t k, double *result)
{
    const double one[2] = {1.0, 0.0}, zero[2] = {0.0, 0.0};
    double v[2];
    if (!dfs_oz_ddsum2_zround(&d[0], &d[1], k, one, zero, zero, v))
        return 0;
    result[0] = v[0];
    result[1] = v[1];
    return 1;
}

/* The complex DOT's double-double way: several blocks (DD: dot_dd_blocks, an open result by
 * the last block alone or the exact kernels), or one block alone (block_dd_first, else
 * zdot_exact in that block), or the exact kernels of several blocks after dfs_oz_zdot*_dd
 * (which return at once unless it left the result open). */
template <bool CONJ, bool DD> __device__ __forceinline__ void zdot_body(const dfs_oz_dot_args &a)
{
    const auto sums = [&](int64_t first, int64_t stride, dfs_oz_ddsum2 *d) {
        thread_zdd_sums<CONJ>(a, first, stride, d);
    };
    const auto round = [&](const dfs_oz_ddsum2 *d, int64_t levels) {
        return zdot_round(d, 2 * a.n + levels, a.result);
    };
    if (DD) {
        dot_dd_blocks<2>(a, sums, round, [&] { zdot_exact<CONJ>(a, true); });
        return;
    }
    if (gridDim.x == 1 ? block_dd_first<2>(sums, round) : a.open && !*a.open)
        return;
    zdot_exact<CONJ>(a, gridDim.x == 1);
}

DOT_KERNEL(dfs_oz_zdotc_one, (zdot_body<true, false>))
DOT_KERNEL(dfs_oz_zdotu_one, (zdot_body<false, false>))
DOT_KERNEL(dfs_oz_zdotc_dd, (zdot_body<true, true>))
DOT_KERNEL(dfs_oz_zdotu_dd, (zdot_body<false, true>))

/* One warp: the accumulator, rounded once. */
extern "C" __global__ void __launch_bounds__(32) dfs_oz_dot_final(dfs_oz_dot_args a)
{
    if (a.open && !*a.open)
        return; /* rounded in double-double (dfs_oz_dot_dd) */
    __shared__ long long w[DFS_X_WORDS], scratch[DFS_X_WORDS];
    const unsigned f = *a.flags;
    for (int j = threadIdx.x; j < DFS_X_WORDS; j += blockDim.x)
        w[j] = a.acc[j];
    __syncwarp();
    finish_output(w, scratch, f, 1.0, 0.0, a.result);
}

#endif
