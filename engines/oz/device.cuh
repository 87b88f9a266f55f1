/* device.cuh — device helpers of the Ozaki-family kernels (kernels.cu, ../repro/kernels_*.cu):
 * exact accumulators in shared memory updated with 64-bit integer atomics (xacc.h's layout), the
 * slow path that adds every product of one output into such an accumulator with one warp, and
 * what a finish kernel does with an output it cannot write (the list, the counters). */
#ifndef DFS_OZ_DEVICE_CUH
#define DFS_OZ_DEVICE_CUH

#include "../common/fpe.h"
#include "../common/xcombine.h"
#include "args.h"
#include "ddsum.h"
#include "steps.h"

/* A finish or direct block's alpha and beta: read through the device pointers, else the
 * values the host passed. */
__device__ __forceinline__ double blk_alpha(const dfs_oz_finish_args &b)
{
    return b.alpha ? *b.alpha : b.alpha_v;
}
__device__ __forceinline__ double blk_beta(const dfs_oz_finish_args &b)
{
    return b.beta_p ? *b.beta_p : b.beta_v;
}

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

/* w += v 2^shift exactly (v a double). */
__device__ __forceinline__ void atomic_add_shifted(long long *w, double v, int shift)
{
    uint64_t m;
    int e;
    const int neg = dfs_d_split(v, &m, &e);
    atomic_add(w, neg, (dfs_u128)m, e + shift);
}

/* A thread's three expansions (fpe.h, dfs_fpe_add_product3_rest): T terms for the products in
 * range, Tx each for those below and above it (scaled). */
template <int T, int Tx> struct terms3 {
    double mid[T], lo[Tx], hi[Tx];
};

template <int T, int Tx> __device__ __forceinline__ void terms3_zero(terms3<T, Tx> *t)
{
#pragma unroll
    for (int i = 0; i < T; i++)
        t->mid[i] = 0.0;
#pragma unroll
    for (int i = 0; i < Tx; i++)
        t->lo[i] = t->hi[i] = 0.0;
}

/* Adds x*y exactly: into the thread's expansions t where they take it, and what they do not (an
 * error left after the last term of its expansion, or a product below 2^-2060) straight into
 * the accumulator w (shared), exactly, *spilled set then.  So no output leaves the fast path
 * for a second pass, whatever the range: underflowing and huge products have expansions of
 * their own, and a spill costs a few shared-memory atomics.  Returns the special flags
 * (xacc.h). */
template <int T, int Tx>
__device__ __forceinline__ unsigned add_product3_spilling(long long *w, terms3<T, Tx> *t,
                                                          double x, double y, unsigned *spilled)
{
    double r1, r2;
    int shift, whole;
    const unsigned f =
        dfs_fpe_add_product3_rest(t->mid, T, t->lo, t->hi, Tx, x, y, &r1, &r2, &shift, &whole);
    if ((r1 != 0) | (r2 != 0) | whole) { /* rare: one branch, not three */
        if (r1 != 0)
            atomic_add_shifted(w, r1, shift);
        if (r2 != 0)
            atomic_add_shifted(w, r2, shift);
        if (whole)
            atomic_add_product(w, x, y);
        *spilled = 1;
    }
    return f;
}

/* The expansions' terms into the accumulator w (shared), exactly: the lo and hi terms scaled
 * back (fpe.h).  The side ones only when some term is there. */
template <int T, int Tx>
__device__ __forceinline__ void add_terms3(long long *w, const terms3<T, Tx> *t)
{
    for (int i = 0; i < T; i++)
        if (t->mid[i] != 0)
            atomic_add_shifted(w, t->mid[i], 0);
    for (int i = 0; i < Tx; i++) {
        if (t->lo[i] != 0)
            atomic_add_shifted(w, t->lo[i], -DFS_FPE_SHIFT);
        if (t->hi[i] != 0)
            atomic_add_shifted(w, t->hi[i], DFS_FPE_SHIFT);
    }
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

/* Terms per lane of the fast way of warp_exact_products (fpe.h): in range, below and above. */
#define DFS_OZ_LANE_TERMS 4
#define DFS_OZ_LANE_SIDE 4

/* Carry propagation of the P full accumulators w[p] (by the calling thread). */
template <int P> __device__ __forceinline__ void normalize_parts(long long *const *w)
{
#pragma unroll
    for (int p = 0; p < P; p++) {
        dfs_xacc n = view(w[p]);
        dfs_x_normalize(&n);
    }
}

/* One warp adds, for q < K, P products per q, x[p] * y[p] for p < P as pairs(q, x, y) gives
 * them, each into the full accumulator w[p] of its part p (shared, zeroed), and leaves in g[p]
 * part p's special flags (the same in every lane).  The accumulators are left as the adds
 * leave them, their words below 2^62 (finish_output normalises only the window of the non-zero
 * words: one lane's walk over all DFS_X_WORDS words was a large part of an output's time).
 * Each lane adds its products exactly into short expansions (fpe.h; products below and above
 * the range in expansions of their own, scaled), a set per part; what they do not take (an
 * error left after the last term) goes straight into w[p], exactly, so one pass serves any
 * data: a few atomics per lane on narrow or underflowing data, a few more per spill on wide
 * data, never a second pass.  In rounds of SLOW_ROUND values of q, the w[p] normalised after
 * each (a product adds to a word at most twice: below xacc.h's 2^30 additions). */
template <int P, typename Pairs>
__device__ __forceinline__ void warp_exact_sums(long long *const *w, int64_t K, Pairs pairs,
                                                unsigned *g)
{
    const int lane = threadIdx.x & 31;
    terms3<DFS_OZ_LANE_TERMS, DFS_OZ_LANE_SIDE> t[P];
#pragma unroll
    for (int p = 0; p < P; p++) {
        terms3_zero(&t[p]);
        g[p] = 0;
    }
    for (int64_t q0 = 0; q0 < K; q0 += SLOW_ROUND) {
        const int64_t q1 = min64(K, q0 + SLOW_ROUND);
        unsigned spilled = 0;
        for (int64_t q = q0 + lane; q < q1; q += 32) {
            double x[P], y[P];
            pairs(q, x, y);
#pragma unroll
            for (int p = 0; p < P; p++)
                g[p] |= add_product3_spilling(w[p], &t[p], x[p], y[p], &spilled);
        }
        __syncwarp();
        if (q1 < K && lane == 0)
            normalize_parts<P>(w);
        __syncwarp();
    }
#pragma unroll
    for (int p = 0; p < P; p++) {
        add_terms3(w[p], &t[p]);
        g[p] = warp_or(g[p]);
    }
    __syncwarp();
#pragma unroll
    for (int p = 0; p < P; p++)
        g[p] &= DFS_X_SPECIAL;
}

/* One warp adds the K products a[q*sa] * x(q) (x a BLAS vector of xn with increment incx) into
 * the full accumulator w (shared, zeroed), and returns the special flags (the same in every
 * lane): warp_exact_sums with one part.  Not inlined: inlined into dfs_oz_gemv_final, sm_100's
 * register allocation spilled. */
__device__ __noinline__ unsigned warp_exact_products(long long *w, int64_t K, const double *a,
                                                     int64_t sa, const double *x, int64_t incx,
                                                     int64_t xn)
{
    unsigned g;
    warp_exact_sums<1>(
        &w, K,
        [&](int64_t q, double *u, double *v) {
            u[0] = a[q * sa];
            v[0] = x[vidx(q, incx, xn)];
        },
        &g);
    return g;
}

/* The T terms t of each group of L lanes (L a power of two up to 32, groups aligned in the warp)
 * merged by a butterfly, exactly, by the same insertions (fpe.h): every lane of a group ends
 * with terms whose sum is the group's, or with DFS_FPE_SPILL in *f where an error was left after
 * the last term; *f also gets the group's OR of the flags.  Every lane of the warp calls it. */
template <int L, int T> __device__ __forceinline__ void group_merge(double *t, unsigned *f)
{
#pragma unroll
    for (int sh = 1; sh < L; sh <<= 1) {
        double u[T];
#pragma unroll
        for (int i = 0; i < T; i++)
            u[i] = __shfl_xor_sync(0xffffffffu, t[i], sh);
        *f |= __shfl_xor_sync(0xffffffffu, *f, sh);
#pragma unroll
        for (int i = 0; i < T; i++)
            *f |= dfs_fpe_insert(t, T, u[i]);
    }
}

/* add(a[q*sa], b[q*sb]) for this lane's share of the K products of one output summed by a group
 * of L lanes (L a power of two up to 32, the group's lanes consecutive and aligned in the warp,
 * g this lane's place in it): q = g, g + L, ..., four pairs loaded ahead so that their loads are
 * in flight together.  A lane that is not live (no output) adds nothing.  Every lane of the warp calls it with the same K: the loop's trip count is the warp's, so that stop(), asked after
 * every four pairs by every lane, may end it with a warp vote. */
template <int L, typename Add, typename Stop>
__device__ __forceinline__ void lane_products(int64_t K, const double *a, int64_t sa,
                                              const double *b, int64_t sb, int g, bool live,
                                              Add add, Stop stop)
{
    /* the addresses stepped, not multiplied out per pair */
    const int64_t da = L * sa, db = L * sb;
    a += g * sa;
    b += g * sb;
    for (int64_t q0 = 0; q0 < K; q0 += 4 * L) {
        if (q0 + 4 * L <= K) { /* the warp's common case: four pairs each, loads first */
            double x[4], y[4];
#pragma unroll
            for (int j = 0; j < 4; j++) {
                x[j] = live ? a[j * da] : 0.0;
                y[j] = live ? b[j * db] : 0.0;
            }
            if (live)
#pragma unroll
                for (int j = 0; j < 4; j++)
                    add(x[j], y[j]);
            a += 4 * da;
            b += 4 * db;
        } else if (live) {
            for (int64_t r = q0 + g; r < K; r += L, a += da, b += db)
                add(*a, *b);
        }
        if (stop())
            break;
    }
}

/* The exact sum of the K products a[q*sa] * b[q*sb] of one output by a group of L lanes
 * (lane_products: each lane its share into T terms, fpe.h), then the group's expansions merged
 * (group_merge).  Every lane of the group ends with T terms t whose sum is the output's
 * exactly, unless the returned flags (the group's OR: xacc.h's special flags and DFS_FPE_SPILL)
 * are not zero: then the terms could not carry it.  With STOP a vote ends the products as soon
 * as any lane of the warp has spilled (for a group that is the whole warp, whose output then
 * takes another path). */
template <int L, int T, bool STOP>
__device__ __forceinline__ unsigned group_exact_sum(double *t, int64_t K, const double *a,
                                                    int64_t sa, const double *b, int64_t sb,
                                                    int g, bool live)
{
#pragma unroll
    for (int i = 0; i < T; i++)
        t[i] = 0.0;
    unsigned f = 0;
    lane_products<L>(
        K, a, sa, b, sb, g, live,
        [&](double x, double y) { f |= dfs_fpe_add_product(t, T, x, y); },
        [&] { return STOP && __any_sync(0xffffffffu, f != 0); });
    group_merge<L, T>(t, &f);
    return f;
}

/* The double-double sums d of a group of L lanes (aligned, L a power of two) merged by a
 * butterfly of log2 L levels (ddsum.h); every lane of the group ends with the whole sum (a merge
 * gives the same bits in either order).  Every lane of the warp calls it. */
template <int L> __device__ __forceinline__ void group_merge_sum(dfs_oz_ddsum *d)
{
#pragma unroll
    for (int sh = 1; sh < L; sh <<= 1) {
        dfs_oz_ddsum o;
        o.h = __shfl_xor_sync(0xffffffffu, d->h, sh);
        o.l = __shfl_xor_sync(0xffffffffu, d->l, sh);
        o.s = __shfl_xor_sync(0xffffffffu, d->s, sh);
        o.f = __shfl_xor_sync(0xffffffffu, d->f, sh);
        dfs_oz_ddsum_merge(d, o);
    }
}

/* Both classes' sums of a group of L lanes merged (group_merge_sum). */
template <int L> __device__ __forceinline__ void group_merge_sum2(dfs_oz_ddsum2 *d)
{
    group_merge_sum<L>(&d->m);
    group_merge_sum<L>(&d->t);
}

/* The first way's sum of one output by a group of L lanes (lane_products), in double-double
 * with the magnitudes beside it (ddsum.h), the group merged (group_merge_sum).  Every lane of the
 * warp calls it with the same K.  SCALED: the operands multiplied by the powers of two px
 * and py first (dfs_oz_ddsum_scale). */
template <int L, bool SCALED = false>
__device__ __forceinline__ dfs_oz_ddsum group_dd_sum(int64_t K, const double *a, int64_t sa,
                                                     const double *b, int64_t sb, int g, bool live,
                                                     double px = 1.0, double py = 1.0)
{
    dfs_oz_ddsum d = dfs_oz_ddsum_zero();
    lane_products<L>(
        K, a, sa, b, sb, g, live,
        [&](double x, double y) {
            if (SCALED) {
                x = dfs_d_mul(x, px);
                y = dfs_d_mul(y, py);
            }
            dfs_oz_ddsum_add(&d, x, y);
        },
        [] { return false; });
    group_merge_sum<L>(&d);
    return d;
}

/* The non-zero words of the accumulator w (DFS_X_WORDS words, not normalised) as an accumulator
 * of their own (dfs_x_window, xacc.h).  The lanes of the warp find the window together: every
 * lane calls it, after w is complete (__syncwarp). */
__device__ __forceinline__ dfs_xacc view_window(long long *w)
{
    int lo = DFS_X_WORDS, hi = -1;
    for (int j = threadIdx.x & 31; j < DFS_X_WORDS; j += 32)
        if (w[j]) {
            lo = lo < j ? lo : j;
            hi = j; /* j grows */
        }
    for (int off = 16; off > 0; off >>= 1) {
        const int l2 = __shfl_xor_sync(0xffffffffu, lo, off);
        const int h2 = __shfl_xor_sync(0xffffffffu, hi, off);
        lo = l2 < lo ? l2 : lo;
        hi = h2 > hi ? h2 : hi;
    }
    return dfs_x_window((int64_t *)w, DFS_X_WORDS, DFS_X_LSB, lo, hi);
}

/* *out = RN(alpha S + beta *out) (beta = 0: *out not read) for the exact sum S in w: every lane
 * of the warp calls it (the window of view_window), lane 0 rounds and stores.  The rounding
 * walks the few words that hold the value instead of all DFS_X_WORDS. */
__device__ void finish_output(long long *w, long long *scratch, unsigned flags, double alpha,
                              double beta, double *out)
{
    dfs_xacc s = view_window(w);
    if ((threadIdx.x & 31) != 0)
        return;
    const double c = beta != 0 ? *out : 0.0;
    dfs_x_axpby(&s, flags & DFS_X_SPECIAL, alpha, beta, c, (int64_t *)scratch, DFS_X_WORDS, out);
}

/* *out = RN(alpha S + beta *out) for the sum S of the K products a[q*sa] * x(q) (x a BLAS
 * vector of xn with increment incx) by the whole warp, exactly: every product into the
 * accumulator w (shared; zeroed here), rounded once (finish_output; scratch: its words).  alpha
 * = 0: A and x are not read.  Every lane of the warp calls it; the warp is in step after it. */
__device__ __forceinline__ void warp_exact_output(long long *w, long long *scratch, int64_t K,
                                                  const double *a, int64_t sa, const double *x,
                                                  int64_t incx, int64_t xn, double alpha,
                                                  double beta, double *out)
{
    zero_words(w, DFS_X_WORDS, threadIdx.x & 31, 32);
    __syncwarp();
    const unsigned f = alpha != 0 ? warp_exact_products(w, K, a, sa, x, incx, xn) : 0u;
    __syncwarp();
    finish_output(w, scratch, f, alpha, beta, out);
    __syncwarp();
}

/* Both parts of the complex *out (two doubles) = alpha S + beta *out, each rounded once
 * (dfs_x_zaxpby: beta = 0, both parts, means *out is not read) for the complex S whose parts'
 * exact sums are in wr and wi (special flags fr, fi); alpha and beta two doubles each, scratch
 * DFS_X_ZSCRATCH words.  Every lane of the warp calls it (view_window), lane 0 rounds and
 * stores.  Not inlined: inlined into dfs_oz_zgemv_final, sm_100's register allocation spilled. */
__device__ __noinline__ void zfinish_output(long long *wr, long long *wi, long long *scratch,
                                            unsigned fr, unsigned fi, const double *alpha,
                                            const double *beta, double *out)
{
    dfs_xacc sr = view_window(wr), si = view_window(wi);
    if ((threadIdx.x & 31) != 0)
        return;
    const int read_c = beta[0] != 0 || beta[1] != 0;
    dfs_x_zaxpby(&sr, fr, &si, fi, alpha, beta, read_c ? out[0] : 0.0, read_c ? out[1] : 0.0,
                 (int64_t *)scratch, out);
}

/* ---- what every finish kernel does with an output it cannot write ---- */

/* (r - r0) and (c - c0) of a listed output, 16 bits each (blocks are at most 65536 wide). */
__device__ __forceinline__ uint32_t pack_rc(int64_t r, int64_t c)
{
    return (uint32_t)r | ((uint32_t)c << 16);
}

/* The finish kernels' counters for the host's next guess (feedback.h): undecided outputs, those
 * one step fewer would have left undecided, listed ones.  Each thread tallies its outputs
 * (tally_output), the block sums them in shared memory and adds them once (tally_flush, which
 * every thread of the block calls): one atomic per block and counter, not one per warp and
 * output on the same three words.  The thread of output 0 writes the call's number. */
struct out_tally {
    unsigned und, low, lst;
};

__device__ __forceinline__ void tally_output(out_tally *t, int how, int lower)
{
    t->und += how == DFS_OZ_UNDECIDED;
    t->low += how == DFS_OZ_UNDECIDED || lower;
    t->lst += how != DFS_OZ_WRITTEN;
}

__device__ __forceinline__ void tally_flush(unsigned long long *stats, unsigned long long seq,
                                            int first, out_tally t)
{
    __shared__ unsigned sum[3];
    if (!stats)
        return;
    if (first)
        stats[2] = seq;
    if (threadIdx.x < 3)
        sum[threadIdx.x] = 0;
    __syncthreads();
    for (int o = 16; o > 0; o >>= 1) {
        t.und += __shfl_xor_sync(0xffffffffu, t.und, o);
        t.low += __shfl_xor_sync(0xffffffffu, t.low, o);
        t.lst += __shfl_xor_sync(0xffffffffu, t.lst, o);
    }
    if ((threadIdx.x & 31) == 0 && (t.und | t.low | t.lst)) {
        atomicAdd(&sum[0], t.und);
        atomicAdd(&sum[1], t.low);
        atomicAdd(&sum[2], t.lst);
    }
    __syncthreads();
    if (threadIdx.x < 3 && sum[threadIdx.x])
        atomicAdd(&stats[threadIdx.x == 2 ? 3 : threadIdx.x], (unsigned long long)sum[threadIdx.x]);
}

#endif
