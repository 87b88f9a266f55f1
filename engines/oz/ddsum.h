/* ddsum.h — a sum of binary64 products in double-double with an error bound that holds for any
 * finite data, and the correctly rounded alpha S + beta c it decides when the bound allows: the
 * first way of repro's small kernel (kernels_small.cuh), which takes the exact expansions where
 * it does not.  Host C and CUDA device code alike; the operations are eft.h's (never contracted).
 *
 * A sum (h, l), |l| <= u |h| (u = 2^-53), takes a product x y = p + e (TwoProduct: p = fl(x y),
 * e = fma(x, y, -p)) as
 *     h1 + t = h + p                 TwoSum, exact
 *     l1 = fl(fl(l + t) + e)         the step's only two roundings
 *     h' + l' = h1 + l1              TwoSum, exact (so |l'| <= u |h'| again).
 * With |t| <= u |h1| <= u (1 + u) (|h| + |p|) and |e| <= u |p|, the two roundings err by at most
 * u (|l| + |t|) + u (|l| + |t| + |e|) (1 + u) < 4.1 u^2 (|h| + |p|).  Two sums merge the same way
 * (TwoSum of the highs; the lows and that error added; TwoSum), erring by less than
 * 4.1 u^2 (|h1| + |h2|).  |h| never exceeds S = sum |x y| of the products it holds by more than
 * its own errors (relative 2^-60 and less while k < 2^40), so after k products in lanes merged in
 * at most 5 levels,
 *     |exact - (h + l)| <= 4.1 u^2 (k + 5) S (1 + 2^-60) + k 2^-1075,
 * the last term for products below 2^-969, whose e is rounded in the subnormal range (half an ulp
 * of 2^-1074 each; additions there are exact).  s accumulates S by FMAs (fl(|x| |y| + s)), so
 * S <= s (1 + u)^k < 1.01 s while k u < 2^-7.  The bound used,
 *     B = 2^-102 (k + 8) s + (k + 8) 2^-1074   (16 u^2 (k + 8) s: 3.9 times the above),
 * covers that and its own roundings (computed, it errs by less than (k + 9) 2^-1075 where
 * s 2^-102 is subnormal, which the slack of its last term covers), and is rounded up to a power
 * of two (one bit: the rounding's terms stay close together; a subnormal b to the power above
 * its highest bit, so that tiny sums, far below 2^-1000, are decided too).  A product of
 * magnitude 2^1000 or more, Inf or NaN sets the flag: the caller takes the exact way (overflow
 * anywhere also leaves h, l or s not finite, which the decision refuses).
 *
 * The decision: the exact S lies in [h + l - B, h + l + B], and x -> RN(alpha x + beta c) is
 * monotone, so where both ends round to the same binary64 (the same bits: -0 and +0 differ),
 * that is RN(alpha S + beta c), the correctly rounded result, the same bits as every other repro
 * path.  The ends are rounded exactly from their three terms (dfs_oz_w_terms_axpby, wint.h).
 * Quick tests come first.  Each finds a binary64 r and x, E such that the exact value lies
 * within E of r + x, and takes r where x + E and x - E lie strictly inside r's rounding interval
 * (dfs_oz_rounds_to: r normal, binary exponent E_r >= -960; half an ulp 2^(E_r-53) away from
 * zero, toward zero the same or, below a power of two, a quarter; 1 - 2^-49 of it, for the
 * comparisons' two roundings of 2^-53 relative each).  For alpha = 1, beta = 0 (most calls):
 * r + t = h + l (TwoSum, exact: r = RN(h + l), whatever |l| is against h), x = t, E = B.
 * For any other alpha, beta (dfs_oz_ddsum_round_quick):
 * alpha h = p1 + e1, alpha l = p2 + e2, beta c = p3 + e3 (TwoProduct: exact but for at most
 * 2^-1075 each where a product underflows), s + t1 = p1 + p3 (TwoSum), qh + ql the rest
 * (t1 + p2 + e1 + e2 + e3, of magnitudes M) by TwoSums whose errors ql sums in binary64 (within
 * 3u of their magnitudes, at most 4.01 u M: so within 2^-100 M), r + t = s + qh (TwoSum), tt =
 * fl(t + ql); so alpha S + beta c - r lies within E of tt, E = 2^-52 |tt| + 2^-99 M + |alpha| B
 * + 2^-1070 (the last: 3 2^-1075 and the roundings in the subnormal range), its four roundings
 * covered by a factor 1 + 2^-48; x = tt.  Terms that cancel leave r far below M, and the
 * rest's errors stay second order. */
#ifndef DFS_OZ_DDSUM_H
#define DFS_OZ_DDSUM_H

#include "../common/eft.h"
#include "wint.h"

#if !defined(__CUDACC__)
#include <math.h> /* fabs (exact) */
#endif

typedef struct {
    double h, l; /* the sum, h + l */
    double s;    /* sum |x y|, rounded */
    unsigned f;  /* nonzero: a product it cannot take (the exact way decides) */
} dfs_oz_ddsum;

DFS_HD dfs_oz_ddsum dfs_oz_ddsum_zero(void)
{
    const dfs_oz_ddsum d = {0.0, 0.0, 0.0, 0u};
    return d;
}

/* d += x y (above). */
DFS_HD void dfs_oz_ddsum_add(dfs_oz_ddsum *d, double x, double y)
{
    const double p = dfs_d_mul(x, y);
    if (!(fabs(p) < 0x1p1000)) { /* huge, Inf or NaN (NaN compares false) */
        d->f = 1u;
        return;
    }
    const double e = dfs_d_fma(x, y, -p);
    double t;
    const double h1 = dfs_d_two_sum(d->h, p, &t);
    const double l1 = dfs_d_add(dfs_d_add(d->l, t), e);
    d->h = dfs_d_two_sum(h1, l1, &d->l);
    d->s = dfs_d_fma(fabs(x), fabs(y), d->s);
}

/* d += o, another lane's sum (above). */
DFS_HD void dfs_oz_ddsum_merge(dfs_oz_ddsum *d, dfs_oz_ddsum o)
{
    double t;
    const double h1 = dfs_d_two_sum(d->h, o.h, &t);
    const double l1 = dfs_d_add(dfs_d_add(d->l, o.l), t);
    d->h = dfs_d_two_sum(h1, l1, &d->l);
    d->s = dfs_d_add(d->s, o.s);
    d->f |= o.f;
}

/* b > 0 finite, rounded up to a power of two: 2^(its exponent + 1); for a subnormal b the power
 * of two above its highest set bit. */
DFS_HD double dfs_oz_pow2_above(double b)
{
    const uint64_t eb = dfs_d_bits(b) & 0x7ff0000000000000ull;
    return eb ? dfs_d_mul(dfs_d_from_bits(eb), 2.0)
              : dfs_d_from_bits(1ull << (64 - dfs_clz64(dfs_d_bits(b))));
}

/* The bound B above as a power of two, with extra (>= 0: an absolute bound of what else the
 * exact sum holds) added, or 0 where the sum cannot decide (a flagged product, h or the bound
 * not finite or too large).  extra enters twice over, which covers the addition's rounding. */
DFS_HD double dfs_oz_ddsum_bound(const dfs_oz_ddsum *d, int64_t k, double extra)
{
    const double n = (double)(k + 8);
    double b = dfs_d_fma(dfs_d_mul(d->s, 0x1p-102), n, dfs_d_mul(n, 0x1p-1074));
    b = dfs_d_fma(extra, 2.0, b);
    if (d->f || !(fabs(d->h) < 0x1p1020) || !(b < 0x1p1000))
        return 0.0;
    return dfs_oz_pow2_above(b);
}

/* Whether every value within E (>= 0) of r + x rounds to r (the quick tests' interval test,
 * comment at the top); NaN anywhere: 0. */
DFS_HD int dfs_oz_rounds_to(double r, double x, double E)
{
    const uint64_t br = dfs_d_bits(r), er = br & 0x7ff0000000000000ull; /* (E_r + 1023) << 52 */
    if (!(er >= (uint64_t)(1023 - 960) << 52 && er < 0x7ff0000000000000ull))
        return 0;
    const double away = dfs_d_from_bits(er - ((uint64_t)53 << 52));
    const double toward = (br & 0x000fffffffffffffull) ? away : dfs_d_mul(away, 0.5);
    const double tau = r < 0 ? -x : x; /* > 0: away from zero */
    return dfs_d_add(tau, E) < dfs_d_mul(away, 1.0 - 0x1p-49) &&
           dfs_d_sub(E, tau) < dfs_d_mul(toward, 1.0 - 0x1p-49);
}

/* The quick decision for any alpha, beta (comment at the top; beta = 0: cv not read): 1 and *v
 * = RN(alpha (h + l + d) + beta cv) for every |d| <= B, or 0 where the test cannot tell (the
 * exact way can). */
DFS_HD int dfs_oz_ddsum_round_quick(const dfs_oz_ddsum *d, double B, double alpha, double beta,
                                    double cv, double *v)
{
    double e1, e2, e3 = 0.0, t1, t, g;
    const double p1 = dfs_d_two_prod(alpha, d->h, &e1), p2 = dfs_d_two_prod(alpha, d->l, &e2);
    const double p3 = beta != 0.0 ? dfs_d_two_prod(beta, cv, &e3) : 0.0;
    const double s = dfs_d_two_sum(p1, p3, &t1);
    /* the rest, t1 + p2 + e1 + e2 + e3, as qh + ql: TwoSums, their errors summed in ql */
    double qh = dfs_d_two_sum(t1, p2, &g), ql = g;
    qh = dfs_d_two_sum(qh, e1, &g);
    ql = dfs_d_add(ql, g);
    qh = dfs_d_two_sum(qh, e2, &g);
    ql = dfs_d_add(ql, g);
    qh = dfs_d_two_sum(qh, e3, &g);
    ql = dfs_d_add(ql, g);
    const double r = dfs_d_two_sum(s, qh, &t);
    const double tt = dfs_d_add(t, ql); /* the rest, r's remainder, within 2^-53 |tt| */
    const double M = dfs_d_add(dfs_d_add(dfs_d_add(fabs(t1), fabs(p2)),
                                         dfs_d_add(fabs(e1), fabs(e2))),
                               fabs(e3));
    const double E0 = dfs_d_add(dfs_d_add(dfs_d_add(dfs_d_mul(fabs(tt), 0x1p-52),
                                                    dfs_d_mul(M, 0x1p-99)),
                                          dfs_d_mul(fabs(alpha), B)),
                                0x1p-1070);
    const double E = dfs_d_mul(E0, 1.0 + 0x1p-48); /* E0's own roundings */
    if (!dfs_oz_rounds_to(r, tt, E))
        return 0;
    *v = r;
    return 1;
}

/* The decision for a sum of k products (all lanes), alpha != 0, whose exact value lies within
 * B (dfs_oz_ddsum_bound) of h + l: 1 and *v = RN(alpha S + beta cv) (beta = 0: cv not read), or
 * 0 when the bound leaves it open (or anything is not finite).  shift: the products were of
 * operands scaled by powers of two (dfs_oz_ddsum_scale), the exact S being 2^shift times
 * theirs; 0 for none. */
DFS_HD int dfs_oz_ddsum_round_within(const dfs_oz_ddsum *d, double B, int shift, double alpha,
                                     double beta, double cv, double *v)
{
    if (B == 0)
        return 0;
    if (shift == 0 && alpha == 1.0 && beta == 0.0) { /* the cheapest quick test */
        double t;
        const double r = dfs_d_two_sum(d->h, d->l, &t);
        if (dfs_oz_rounds_to(r, t, B)) {
            *v = r;
            return 1;
        }
    } else if (shift == 0 && dfs_oz_ddsum_round_quick(d, B, alpha, beta, cv, v)) {
        return 1;
    }
    const double lo[3] = {d->h, d->l, -B}, hi[3] = {d->h, d->l, B};
    double v1, v2;
    if (!dfs_oz_w_terms_axpby_at(lo, 3, shift, alpha, beta, cv, &v1) ||
        !dfs_oz_w_terms_axpby_at(hi, 3, shift, alpha, beta, cv, &v2) ||
        dfs_d_bits(v1) != dfs_d_bits(v2))
        return 0;
    *v = v1;
    return 1;
}

/* The same with the bound of k products (dfs_oz_ddsum_bound, nothing else in the sum). */
DFS_HD int dfs_oz_ddsum_round(const dfs_oz_ddsum *d, int64_t k, int shift, double alpha,
                              double beta, double cv, double *v)
{
    return dfs_oz_ddsum_round_within(d, dfs_oz_ddsum_bound(d, k, 0.0), shift, alpha, beta, cv, v);
}

/* A second try for a sum the first left open because its products are tiny (s below 2^-900, or
 * every product below binary64's range, s = 0; not flagged): the scale 2^sigma (returned; 0:
 * no second try) that brings s near 2^500, at most 2^2046, applied to the operands as *px =
 * 2^(sigma/2) and *py = 2^(sigma - sigma/2).  Multiplying by them is exact (a product that
 * overflows becomes Inf: flagged), the bound holds for the scaled products as for any finite
 * data, and dfs_oz_ddsum_round(..., -sigma, ...) rounds the sum scaled back: tiny sums, where
 * the bound's last term (k + 8) 2^-1074 would span many of the result's ulps, are decided. */
DFS_HD int dfs_oz_ddsum_scale(const dfs_oz_ddsum *d, double *px, double *py)
{
    if (d->f || !(d->s < 0x1p-900))
        return 0;
    const uint64_t bs = dfs_d_bits(d->s);
    /* the binary exponent of s: subnormal s by its highest bit; s = 0: below 2^-1074 */
    const int es = bs == 0 ? -1075
                 : bs >> 52 ? (int)(bs >> 52) - 1023
                            : -1075 + 64 - dfs_clz64(bs);
    const int sigma = 500 - es > 2046 ? 2046 : 500 - es, a = sigma / 2;
    *px = dfs_d_from_bits((uint64_t)(1023 + a) << 52);
    *py = dfs_d_from_bits((uint64_t)(1023 + sigma - a) << 52);
    return sigma;
}

/* ---- one thread's products in order, without renormalising (the tiled small kernel) ----
 * Dot2 of Ogita, Rump and Oishi: p = fl(x y), e = fma(x, y, -p), h + t = h + p (TwoSum, exact),
 * l = fl(l + fl(t + e)): 11 operations a product where dfs_oz_ddsum_add takes 17, for a bound
 * growing as k^2 rather than k.  After k products the exact S = h + sum (t_i + e_i) (e_i exact
 * where |x y| >= 2^-969, else off by at most 2^-1075); |t_i| <= u |h_i| <= u (1 + u)^k P and
 * |e_i| <= u |p_i|, P = sum |p_i| <= (1 + u) sum |x y|; l's 2k roundings err by at most
 * gamma_2k sum |t_i + e_i| <= gamma_2k u P (k (1 + u)^k + 1).  With k u < 2^-7 that is below
 * 2.1 (k + 1)^2 u^2 sum |x y|, and s (the FMAs' sum |x| |y|) >= sum |x y| / 1.01, so
 *     |S - (h + l)| <= 2.2 (k + 1)^2 u^2 s + k 2^-1075;
 * the bound used, 2^-104 (k + 2)^2 s + (k + 2) 2^-1074 (1.8 times that), also covers its own
 * roundings, and is rounded up to a power of two as dfs_oz_ddsum_bound's.  No product is
 * flagged on the way: s >= |p| / 1.01 for each and |h_i| <= 1.02 s, so s < 2^1020 at the end
 * means no product reached 2^1021, none was Inf or NaN, and no TwoSum came near overflow (its
 * terms stay below 2^1022); else the sum is open.
 * The result is a dfs_oz_ddsum (h, l not renormalised: |l| may exceed u |h|, which the
 * decision, dfs_oz_ddsum_round_within, allows) with its bound (0: open). */
typedef struct {
    double h, l, s;
} dfs_oz_dot2;

DFS_HD dfs_oz_dot2 dfs_oz_dot2_zero(void)
{
    const dfs_oz_dot2 d = {0.0, 0.0, 0.0};
    return d;
}

/* d += x y, ax = |x|, ay = |y| (loaded once per tile row or column) */
DFS_HD void dfs_oz_dot2_add(dfs_oz_dot2 *d, double x, double y, double ax, double ay)
{
    const double p = dfs_d_mul(x, y);
    const double e = dfs_d_fma(x, y, -p);
    double t;
    d->h = dfs_d_two_sum(d->h, p, &t);
    d->l = dfs_d_add(d->l, dfs_d_add(t, e));
    d->s = dfs_d_fma(ax, ay, d->s);
}

/* The sum as a dfs_oz_ddsum and its bound *B (a power of two; 0: open), for k products. */
DFS_HD dfs_oz_ddsum dfs_oz_dot2_done(const dfs_oz_dot2 *d, int64_t k, double *B)
{
    const dfs_oz_ddsum r = {d->h, d->l, d->s, 0u};
    const double n = (double)(k + 2);
    *B = 0.0;
    if (!(d->s < 0x1p1020) || !(fabs(d->h) < 0x1p1020) || !(fabs(d->l) < 0x1p1020))
        return r;
    /* (k + 2)^2 s 2^-104 + (k + 2) 2^-1074: s n^2 normal or exact-or-rounded by 2^-1075, the
     * FMA one rounding more */
    const double b = dfs_d_fma(dfs_d_mul(d->s, dfs_d_mul(n, n)), 0x1p-104, dfs_d_mul(n, 0x1p-1074));
    if (b < 0x1p1000)
        *B = dfs_oz_pow2_above(b);
    return r;
}

/* ---- two classes in one pass: products below 2^-900 summed on scaled operands ---- */

/* The products x y of magnitude 2^-900 or more (and Inf, NaN: flagged) in m; the others, whose
 * TwoProduct would lose bits to underflow, in t as (x 2^550)(y 2^550): t stands for 2^-1100
 * times its sum.  The scalings are exact (an operand that overflows becomes Inf: flagged), so
 * each class's bound holds as for any finite data; a product below 2^-2069 even scaled is
 * within t's last term.  One pass over the data decides sums of underflowing products too. */
#define DFS_OZ_DDSUM2_TINY 0x1p-900
#define DFS_OZ_DDSUM2_SHIFT 1100
typedef struct {
    dfs_oz_ddsum m, t;
} dfs_oz_ddsum2;

DFS_HD dfs_oz_ddsum2 dfs_oz_ddsum2_zero(void)
{
    const dfs_oz_ddsum2 d = {dfs_oz_ddsum_zero(), dfs_oz_ddsum_zero()};
    return d;
}

DFS_HD void dfs_oz_ddsum2_add(dfs_oz_ddsum2 *d, double x, double y)
{
    if (fabs(dfs_d_mul(x, y)) < DFS_OZ_DDSUM2_TINY) /* NaN compares false: to m, flagged */
        dfs_oz_ddsum_add(&d->t, dfs_d_mul(x, 0x1p550), dfs_d_mul(y, 0x1p550));
    else
        dfs_oz_ddsum_add(&d->m, x, y);
}

DFS_HD void dfs_oz_ddsum2_merge(dfs_oz_ddsum2 *d, dfs_oz_ddsum2 o)
{
    dfs_oz_ddsum_merge(&d->m, o.m);
    dfs_oz_ddsum_merge(&d->t, o.t);
}

DFS_HD int dfs_oz_ddsum_empty(const dfs_oz_ddsum *d)
{
    return d->h == 0 && d->l == 0 && d->s == 0 && !d->f;
}

/* A bound of the tiny class's whole value (below 2 s_t + (k + 8) 2^-1074, times 2^-1100,
 * rounded up), for m's bound to take it in. */
DFS_HD double dfs_oz_ddsum2_tiny_extent(const dfs_oz_ddsum2 *d, int64_t k)
{
    const double es = dfs_d_fma(d->t.s, 2.0, dfs_d_mul((double)(k + 8), 0x1p-1074));
    /* times 2^-1100 in two exact-or-subnormal steps, each rounding by at most 2^-1075 */
    return dfs_d_add(dfs_d_mul(dfs_d_mul(es, 0x1p-550), 0x1p-550), 0x1p-1073);
}

/* The decision for two classes of k products in all, alpha != 0 (as dfs_oz_ddsum_round): one
 * class alone, as that; t far below m, its magnitude (below 2 s_t + (k + 8) 2^-1074, times
 * 2^-1100, rounded up) added to m's bound; else both placed on one integer, each end of the
 * two bounds (the same sign: S = S_m + 2^-1100 S_t grows with both) rounded once. */
DFS_HD int dfs_oz_ddsum2_round(const dfs_oz_ddsum2 *d, int64_t k, double alpha, double beta,
                               double cv, double *v)
{
    if (dfs_oz_ddsum_empty(&d->t))
        return dfs_oz_ddsum_round(&d->m, k, 0, alpha, beta, cv, v);
    if (dfs_oz_ddsum_empty(&d->m))
        return dfs_oz_ddsum_round(&d->t, k, -DFS_OZ_DDSUM2_SHIFT, alpha, beta, cv, v);
    if (d->m.f || d->t.f)
        return 0;
    const double e = dfs_oz_ddsum2_tiny_extent(d, k);
    if (dfs_oz_ddsum_round_within(&d->m, dfs_oz_ddsum_bound(&d->m, k, e), 0, alpha, beta, cv, v))
        return 1;
    const double bm = dfs_oz_ddsum_bound(&d->m, k, 0.0), bt = dfs_oz_ddsum_bound(&d->t, k, 0.0);
    if (bm == 0 || bt == 0)
        return 0;
    double r[2];
    for (int end = 0; end < 2; end++) {
        const double a[3] = {d->m.h, d->m.l, end ? bm : -bm};
        const double b[3] = {d->t.h, d->t.l, end ? bt : -bt};
        int la = 0, ta = 0, lb = 0, tb = 0;
        dfs_oz_w_terms_span(a, 3, 0, &la, &ta); /* both bounds are not zero: terms in each */
        dfs_oz_w_terms_span(b, 3, 0, &lb, &tb);
        lb -= DFS_OZ_DDSUM2_SHIFT;
        tb -= DFS_OZ_DDSUM2_SHIFT;
        const int lsb = la < lb ? la : lb, top = ta > tb ? ta : tb;
        if (top - lsb > 64 * DFS_OZ_TW - 4)
            return 0;
        uint64_t x[DFS_OZ_TW], y[DFS_OZ_TW];
        dfs_oz_w_terms_int(a, 3, lsb, x, DFS_OZ_TW);
        dfs_oz_w_terms_int(b, 3, lsb + DFS_OZ_DDSUM2_SHIFT, y, DFS_OZ_TW);
        dfs_oz_w_addsub(x, y, DFS_OZ_TW, 0);
        if (!dfs_oz_w_int_axpby(x, DFS_OZ_TW, lsb, alpha, beta, cv, &r[end]))
            return 0;
    }
    if (dfs_d_bits(r[0]) != dfs_d_bits(r[1]))
        return 0;
    *v = r[0];
    return 1;
}

/* The sum of two classes of k products as one interval: its exact value lies within
 * t[0] + t[1] -+ t[2] (the bound), times 2^*shift: one class where the other is empty, or m with
 * the tiny class's extent in its bound.  0 where there is none (a flagged product, no bound). */
DFS_HD int dfs_oz_ddsum2_interval(const dfs_oz_ddsum2 *d, int64_t k, double t[3], int *shift)
{
    const int tiny_only = dfs_oz_ddsum_empty(&d->m);
    const dfs_oz_ddsum *c = tiny_only ? &d->t : &d->m;
    double extra = 0.0;
    if (!tiny_only && !dfs_oz_ddsum_empty(&d->t)) {
        if (d->t.f)
            return 0;
        extra = dfs_oz_ddsum2_tiny_extent(d, k);
    }
    t[0] = c->h;
    t[1] = c->l;
    t[2] = dfs_oz_ddsum_bound(c, k, extra);
    *shift = tiny_only ? -DFS_OZ_DDSUM2_SHIFT : 0;
    return t[2] != 0;
}

/* Both parts of RN(alpha S + beta c) for the complex S = Sr + i Si whose parts are sums of k
 * products each in double-double (dr, di: both classes), alpha != 0, beta = 0 (c not read) or
 * not: v[0] = RN(ar Sr - ai Si + br cr - bi ci), v[1] = RN(ai Sr + ar Si + bi cr + br ci), and
 * 1, where the bounds decide both (each part as dfs_oz_ddsum_round decides a real one); else 0.
 * Real scalars: each part by dfs_oz_ddsum2_round.  Complex ones: each part is linear in (Sr,
 * Si), so over the box of the two intervals (dfs_oz_ddsum2_interval) its least and greatest
 * values lie at corners chosen by its coefficients' signs; each corner placed on one integer
 * grid and rounded once (wint.h's dfs_oz_w_combine_regs), the part is decided where both round
 * alike.  A zero result is left open (its sign, for an exact zero, is the exact way's). */
DFS_HD int dfs_oz_ddsum2_zround(const dfs_oz_ddsum2 *dr, const dfs_oz_ddsum2 *di, int64_t k,
                                const double *alpha, const double *beta, const double *c,
                                double *v)
{
    const int with_c = beta[0] != 0 || beta[1] != 0;
    double r[2];
    if (alpha[1] == 0 && beta[1] == 0) {
        if (!dfs_oz_ddsum2_round(dr, k, alpha[0], beta[0], with_c ? c[0] : 0.0, &r[0]) ||
            !dfs_oz_ddsum2_round(di, k, alpha[0], beta[0], with_c ? c[1] : 0.0, &r[1]))
            return 0;
    } else {
        double t[2][3];
        int sh[2], lsb = 0, top = 0, any = 0;
        if (!dfs_oz_ddsum2_interval(dr, k, t[0], &sh[0]) ||
            !dfs_oz_ddsum2_interval(di, k, t[1], &sh[1]))
            return 0;
        for (int p = 0; p < 2; p++) { /* the span of both parts' terms (the bound not zero) */
            int l = 0, h = 0;
            dfs_oz_w_terms_span(t[p], 3, 0, &l, &h);
            l += sh[p];
            h += sh[p];
            lsb = any && lsb < l ? lsb : l;
            top = any && top > h ? top : h;
            any = 1;
        }
        if (top - lsb > 64 * DFS_OZ_TW - 4)
            return 0;
        /* part q: a1 S_q + a2 S_(1-q) + b1 c_q + b2 c_(1-q) */
        const double a1 = alpha[0], b1 = beta[0];
        for (int q = 0; q < 2; q++) {
            const double a2 = q ? alpha[1] : -alpha[1], b2 = q ? beta[1] : -beta[1];
            double ends[2];
            for (int hi = 0; hi < 2; hi++) {
                uint64_t x[2][DFS_OZ_TW];
                for (int p = 0; p < 2; p++) { /* S_q, then S_(1-q), at the corner */
                    const int part = p ? 1 - q : q;
                    const double a = p ? a2 : a1;
                    const int up = (a >= 0) == (hi != 0);
                    const double e[3] = {t[part][0], t[part][1], up ? t[part][2] : -t[part][2]};
                    dfs_oz_w_terms_int(e, 3, lsb - sh[part], x[p], DFS_OZ_TW);
                }
                int margin;
                if (!dfs_oz_w_combine_regs(x[0], x[1], DFS_OZ_TW, lsb, a1, a2, with_c, b1,
                                           with_c ? c[q] : 0.0, b2, with_c ? c[1 - q] : 0.0,
                                           &ends[hi], &margin))
                    return 0;
            }
            if (dfs_d_bits(ends[0]) != dfs_d_bits(ends[1]))
                return 0;
            r[q] = ends[0];
        }
    }
    if (r[0] == 0 || r[1] == 0)
        return 0;
    v[0] = r[0];
    v[1] = r[1];
    return 1;
}

#endif
