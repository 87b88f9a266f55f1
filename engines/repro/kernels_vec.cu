/* kernels_vec.cu — the reproducible engine's DOT and GEMV: every product added exactly, every
 * output rounded once (the steps of host.c, with real threads).
 *
 * DOT: each thread adds its products into DFS_OZ_TERMS binary64 terms (fpe.h), and those
 * below and above their range into two more expansions of their own, scaled (fpe.h,
 * dfs_fpe_add_product3_rest: underflowing and huge products stay on the fast path).  The terms
 * then go into exact integer accumulators (xacc.h) in shared memory, one per block, with 64-bit
 * integer atomics: integer addition is associative, so neither the grid nor the scheduling
 * changes a bit.  What a thread's terms cannot take goes straight into its block's accumulator
 * (add_product3_spilling, ../oz/device.cuh).
 * Infinities and NaN travel as flags (xacc.h) and are resolved at the end.
 * GEMV: sums in double-double with an error bound instead (../oz/ddsum.h: 17 operations a
 * product, a third of an expansion step's; products below 2^-900 in a class of their own, on
 * scaled operands), per chunk of the inner dimension, merged and rounded once where the bounds
 * decide; the outputs it leaves open are computed exactly
 * (dfs_oz_gemv_final below).  Any way gives RN(exact): the same bits. */
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

/* ---------- DOT ---------- */

/* Both classes' sums of a group of L lanes merged (group_merge_sum). */
template <int L> __device__ __forceinline__ void group_merge_sum2(dfs_oz_ddsum2 *d)
{
    group_merge_sum<L>(&d->m);
    group_merge_sum<L>(&d->t);
}

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
                const double *in = a.terms + (int64_t)i * DFS_OZ_GEMV_SUMS * a.len + o;
                const dfs_oz_ddsum2 c = {{in[0], in[a.len], in[2 * a.len], 0u},
                                         {in[3 * a.len], in[4 * a.len], in[5 * a.len], 0u}};
                dfs_oz_ddsum2_merge(&d, c);
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
