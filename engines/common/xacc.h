/* xacc.h — exact fixed-point accumulation of binary64 values and products, and the one rounding
 * to binary64 at the end.  Host C and CUDA device code alike (integer arithmetic only, so the
 * CPU and every GPU give the same bits by construction).
 *
 * An accumulator is an array of nw signed 64-bit words; word i carries the digit of weight
 * 2^(lsb + 32 i).  The represented value is sum_i w[i] 2^(lsb + 32 i) exactly.  Additions put at
 * most 2^32 - 1 into a word, so 2^30 of them may pile up before dfs_x_normalize() propagates the
 * carries (done automatically); after it, w[0 .. nw-2] are digits in [0, 2^32) and w[nw-1] holds
 * the signed rest.  Integer addition is associative: the result does not depend on the order of
 * the additions, the number of threads or the blocking.
 *
 * A *full* accumulator (DFS_X_WORDS words from DFS_X_LSB) holds alpha * sum(x_i y_i) + beta c
 * exactly for any finite binary64 operands and up to 2^63 terms: products reach down to
 * 2^-2148 and up to 2^2048, alpha times their sum down to 2^-3222 and up to 2^3136.
 * A *window* accumulator (fewer words, an lsb chosen by the caller) holds what fits; an addition
 * that does not fit changes nothing and returns 0, so the caller can take an exact slower path.
 *
 * Special values are not accumulated: callers classify their operands first
 * (dfs_x_product_flags) and keep the flags beside the accumulator; dfs_x_axpby applies IEEE
 * semantics to them, independently of the order of the terms: NaN if any term is NaN or both
 * +Inf and -Inf occur, else the infinity.  An exact zero sum is +0, as in reference BLAS, whose
 * sums start from +0. */
#ifndef DFS_XACC_H
#define DFS_XACC_H

#include "bits.h"

#if defined(__CUDACC__)
typedef unsigned __int128 dfs_u128;
#else
__extension__ typedef unsigned __int128 dfs_u128;
#endif

#define DFS_X_LSB (-3232)
#define DFS_X_WORDS 202 /* 2^-3232 .. 2^3232 */
#define DFS_X_MAX_PENDING (1u << 30)

/* Flags kept beside an accumulator. */
#define DFS_X_NAN 1u     /* a NaN term (NaN operand, or 0 * Inf) */
#define DFS_X_PINF 2u    /* a +Inf term */
#define DFS_X_NINF 4u    /* a -Inf term */
#define DFS_X_SPECIAL (DFS_X_NAN | DFS_X_PINF | DFS_X_NINF)

typedef struct {
    int64_t *w;
    int nw, lsb;
    uint32_t pending;
} dfs_xacc;

/* ---- binary64 numbers as integers ------------------------------------------------------- */

DFS_HD int dfs_d_is_finite(double d)
{
    return ((dfs_d_bits(d) >> 52) & 0x7ff) != 0x7ff;
}

/* d = (-1)^sign * m * 2^e with m < 2^53 an integer (no implicit bit for subnormals); d finite.
 * Returns the sign bit. */
DFS_HD int dfs_d_split(double d, uint64_t *m, int *e)
{
    uint64_t b = dfs_d_bits(d);
    int ex = (int)((b >> 52) & 0x7ff);
    uint64_t f = b & 0xfffffffffffffull;
    if (ex == 0) {
        *m = f;
        *e = -1074;
    } else {
        *m = f | (1ull << 52);
        *e = ex - 1075;
    }
    return (int)(b >> 63);
}

/* The flags of the term x*y: 0 if both are finite, else IEEE's (NaN if either is NaN or the
 * product is 0 * Inf). */
DFS_HD unsigned dfs_x_product_flags(double x, double y)
{
    uint64_t bx = dfs_d_bits(x), by = dfs_d_bits(y);
    uint64_t ax = bx & 0x7fffffffffffffffull, ay = by & 0x7fffffffffffffffull;
    const uint64_t inf = 0x7ff0000000000000ull;
    if (ax < inf && ay < inf)
        return 0;
    if (ax > inf || ay > inf || ax == 0 || ay == 0)
        return DFS_X_NAN;
    return (bx ^ by) >> 63 ? DFS_X_NINF : DFS_X_PINF;
}

/* ---- the accumulator ----------------------------------------------------------------------- */

DFS_HD void dfs_x_init(dfs_xacc *a, int64_t *w, int nw, int lsb)
{
    a->w = w;
    a->nw = nw;
    a->lsb = lsb;
    a->pending = 0;
    DFS_ROLLED
    for (int i = 0; i < nw; i++)
        w[i] = 0;
}

/* The accumulator w[0 .. nw-1] (word i of weight 2^(lsb + 32 i), not normalised), all of whose
 * words below lo and above hi are zero, as an accumulator of its own over words lo .. hi + 1
 * (or .. nw - 1 when hi is the last): the same value, the word above hi taking the carries as
 * the full accumulator's top word does, so that normalising and rounding walk only those words.
 * hi < lo (no non-zero word): the value 0.  w itself is shared, not copied. */
DFS_HD dfs_xacc dfs_x_window(int64_t *w, int nw, int lsb, int lo, int hi)
{
    if (hi < lo)
        lo = hi = 0;
    const int end = hi + 2 < nw ? hi + 2 : nw;
    dfs_xacc a;
    a.w = w + lo;
    a.nw = end - lo;
    a.lsb = lsb + 32 * lo;
    a.pending = 1;
    return a;
}

/* The accumulator a as the window over its non-zero words (dfs_x_window; its words shared): what
 * the GPU's finishes round (view_window, ../oz/device.cuh), so the CPU twins take the same
 * path. */
DFS_HD dfs_xacc dfs_x_trim(const dfs_xacc *a)
{
    int lo = a->nw, hi = -1;
    for (int i = 0; i < a->nw; i++)
        if (a->w[i]) {
            lo = lo < i ? lo : i;
            hi = i;
        }
    return dfs_x_window(a->w, a->nw, a->lsb, lo, hi);
}

/* Propagate the carries: w[0 .. nw-2] become digits in [0, 2^32), w[nw-1] the signed rest. */
DFS_HD void dfs_x_normalize(dfs_xacc *a)
{
    int64_t c = 0;
    DFS_ROLLED
    for (int i = 0; i < a->nw - 1; i++) {
        int64_t v = a->w[i] + c;
        a->w[i] = v & 0xffffffffll;
        c = v >> 32; /* arithmetic shift (gcc, clang and nvcc define it so) */
    }
    a->w[a->nw - 1] += c;
    a->pending = 0;
}

/* Where M * 2^e lands in words of weight 2^(lsb + 32 i), nw of them: the 32-bit digits d[0..4]
 * for words q .. q+4.  Returns 0 if a non-zero bit falls outside the words. */
DFS_HD int dfs_x_place(int nw, int lsb, dfs_u128 M, int e, int *q, uint32_t d[5])
{
    int b = e - lsb;
    if (b < 0) {
        uint64_t lo64 = (uint64_t)M;
        int tz = lo64 ? dfs_ctz64(lo64) : 64 + dfs_ctz64((uint64_t)(M >> 64));
        if (tz < -b)
            return 0;
        M >>= -b;
        b = 0;
    }
    int r = b & 31;
    uint64_t lo = (uint64_t)M, hi = (uint64_t)(M >> 64);
    uint64_t x0 = lo << r;
    uint64_t x1 = r ? (hi << r) | (lo >> (64 - r)) : hi;
    uint64_t x2 = r ? hi >> (64 - r) : 0;
    d[0] = (uint32_t)x0;
    d[1] = (uint32_t)(x0 >> 32);
    d[2] = (uint32_t)x1;
    d[3] = (uint32_t)(x1 >> 32);
    d[4] = (uint32_t)x2;
    *q = b >> 5;
    for (int j = 0; j < 5; j++)
        if (d[j] && *q + j >= nw)
            return 0;
    return 1;
}

/* Add (-1)^neg * M * 2^e.  Returns 1, or 0 (changing nothing) if a bit of it falls outside the
 * accumulator's words. */
DFS_HD int dfs_x_add(dfs_xacc *a, int neg, dfs_u128 M, int e)
{
    int q;
    uint32_t d[5];
    if (M == 0)
        return 1;
    if (!dfs_x_place(a->nw, a->lsb, M, e, &q, d))
        return 0;
    if (a->pending >= DFS_X_MAX_PENDING)
        dfs_x_normalize(a);
    for (int j = 0; j < 5; j++)
        if (d[j])
            a->w[q + j] += neg ? -(int64_t)d[j] : (int64_t)d[j];
    a->pending++;
    return 1;
}

/* Add d * 2^shift (d finite). */
DFS_HD int dfs_x_add_double(dfs_xacc *a, double d, int shift)
{
    uint64_t m;
    int e;
    int neg = dfs_d_split(d, &m, &e);
    return dfs_x_add(a, neg, (dfs_u128)m, e + shift);
}

/* Add x * y * 2^shift exactly (x, y finite). */
DFS_HD int dfs_x_add_product(dfs_xacc *a, double x, double y, int shift)
{
    uint64_t mx, my;
    int ex, ey;
    int neg = dfs_d_split(x, &mx, &ex) ^ dfs_d_split(y, &my, &ey);
    return dfs_x_add(a, neg, (dfs_u128)mx * my, ex + ey + shift);
}

/* Adds x y to the accumulator (exactly), or its special flags (Inf, NaN: dfs_x_product_flags)
 * to *flags; a zero product adds nothing. */
DFS_HD void dfs_x_add_product_or_flag(dfs_xacc *a, unsigned *flags, double x, double y)
{
    const unsigned f = dfs_x_product_flags(x, y);
    if (f)
        *flags |= f;
    else if (x != 0 && y != 0)
        dfs_x_add_product(a, x, y, 0);
}

/* -1, 0 or +1: the sign of the value (normalises). */
DFS_HD int dfs_x_sign(dfs_xacc *a)
{
    dfs_x_normalize(a);
    if (a->w[a->nw - 1] < 0)
        return -1;
    for (int i = a->nw - 1; i >= 0; i--)
        if (a->w[i])
            return 1;
    return 0;
}

/* Replace the value by its absolute value; returns 1 if it was negative (normalises). */
DFS_HD int dfs_x_abs(dfs_xacc *a)
{
    dfs_x_normalize(a);
    if (a->w[a->nw - 1] >= 0)
        return 0;
    int64_t c = 0;
    DFS_ROLLED
    for (int i = 0; i < a->nw - 1; i++) {
        int64_t v = c - a->w[i];
        a->w[i] = v & 0xffffffffll;
        c = v >> 32;
    }
    a->w[a->nw - 1] = c - a->w[a->nw - 1];
    return 1;
}

/* (-1)^neg * Q * 2^L as binary64, where Q < 2^54 and either Q >= 2^52 or L = -1074 (the result
 * of rounding): overflow gives the infinity. */
DFS_HD double dfs_d_compose(int neg, uint64_t Q, int L)
{
    if (Q >> 53) {
        Q >>= 1; /* Q was 2^53: exact */
        L++;
    }
    uint64_t b;
    if (Q < (1ull << 52)) {
        b = Q; /* subnormal or zero: L == -1074 */
    } else {
        int biased = L + 1075;
        b = biased >= 2047 ? 0x7ff0000000000000ull
                           : ((uint64_t)biased << 52) | (Q & 0xfffffffffffffull);
    }
    return dfs_d_from_bits(b | ((uint64_t)neg << 63));
}

/* "No margin" (dfs_x_round_margin): a perturbation of any size may change the rounding. */
#define DFS_X_NO_MARGIN (-100000)

/* The value rounded to the nearest binary64, ties to even, subnormals exact, overflow to the
 * infinity; an exact zero is returned as -0 when zero_neg, else +0.  Destroys the value.
 * With margin != NULL it also says how far the value may move without changing that result:
 * *margin = the largest m such that every real within 2^m of the value (inclusive) rounds to
 * the same non-zero finite binary64, as far as the top three digits show; DFS_X_NO_MARGIN when
 * the result is zero or infinite or those digits cannot tell.  Conservative: the true margin is
 * never smaller. */
DFS_HD double dfs_x_round_margin(dfs_xacc *a, int zero_neg, int *margin)
{
    if (margin)
        *margin = DFS_X_NO_MARGIN;
    int neg = dfs_x_abs(a);
    int h = a->nw - 1;
    while (h >= 0 && a->w[h] == 0)
        h--;
    if (h < 0)
        return dfs_d_from_bits((uint64_t)(zero_neg != 0) << 63);
    /* T = the top three words (the top word may exceed a digit: T < 2^127), eb the weight of its
     * last bit; the lower words only make a sticky bit */
    dfs_u128 T = 0;
    for (int i = h; i >= h - 2; i--)
        T = (T << 32) | (dfs_u128)(i >= 0 ? (uint64_t)a->w[i] : 0);
    int eb = a->lsb + 32 * (h - 2);
    int sticky_low = 0;
    for (int i = h - 3; i >= 0; i--)
        sticky_low |= a->w[i] != 0;
    uint64_t thi = (uint64_t)(T >> 64);
    int bitlen = thi ? 128 - dfs_clz64(thi) : 64 - dfs_clz64((uint64_t)T);
    int E = eb + bitlen - 1; /* 2^E <= value < 2^(E+1) */
    if (E > 1024)
        return dfs_d_from_bits(0x7ff0000000000000ull | ((uint64_t)neg << 63));
    int L = E - 52 > -1074 ? E - 52 : -1074;
    int s = L - eb; /* >= 12: T has at least 65 bits below its leading one */
    uint64_t Q = s < 128 ? (uint64_t)(T >> s) : 0;
    int round = s - 1 < 128 ? (int)((T >> (s - 1)) & 1) : 0;
    dfs_u128 below = s - 1 < 128 ? T & ((((dfs_u128)1) << (s - 1)) - 1) : T;
    int sticky = sticky_low || below != 0;
    if (round && (sticky || (Q & 1)))
        Q++;
    double r = dfs_d_compose(neg, Q, L);
    if (margin && Q != 0 && dfs_d_is_finite(r) && s - 1 < 128) {
        /* The value is T 2^eb + (lower words, < 2^eb); `below` = T's bits 0 .. s-2.  Round bit
         * set: the value lies below * 2^eb + lower above the midpoint under r, so a set bit j of
         * below puts it at least 2^(eb+j) above.  Round bit clear: it lies 2^(L-1) - below * 2^eb
         * - lower under the midpoint above r, so a clear bit j puts it more than 2^(eb+j) under.
         * Either way a move of at most 2^(eb+j-1) <= 2^(L-3) crosses neither midpoint (the one
         * on the other side is at least 2^(L-2) away, also at a binade's bottom). */
        dfs_u128 x = round ? T : ~T;
        x &= (((dfs_u128)1) << (s - 1)) - 1;
        uint64_t xh = (uint64_t)(x >> 64), xl = (uint64_t)x;
        if (xh || xl) {
            int j = xh ? 127 - dfs_clz64(xh) : 63 - dfs_clz64(xl);
            *margin = eb + j - 1;
        }
    }
    return r;
}

DFS_HD double dfs_x_round(dfs_xacc *a, int zero_neg)
{
    return dfs_x_round_margin(a, zero_neg, NULL);
}

/* The exponents of the lowest and the highest non-zero digit of a normalised, non-negative
 * accumulator: the value lies in [2^lo, 2^hi); returns 0 if it is zero. */
DFS_HD int dfs_x_span(const dfs_xacc *a, int *lo, int *hi)
{
    int l = 0, h = a->nw - 1;
    while (h >= 0 && a->w[h] == 0)
        h--;
    if (h < 0)
        return 0;
    while (a->w[l] == 0)
        l++;
    *lo = a->lsb + 32 * l + dfs_ctz64((uint64_t)a->w[l]);
    *hi = a->lsb + 32 * h + 64 - dfs_clz64((uint64_t)a->w[h]);
    return 1;
}

/* dfs_x_axpby, and with margin != NULL the margin of the result (dfs_x_round_margin) as a
 * function of the exact value alpha * S + beta * c: DFS_X_NO_MARGIN for special results.
 * *r = RN(alpha * S + beta * c) with IEEE semantics on the exact values, where S is the exact
 * sum held in s with flags sflags (an exact zero S is +0).  beta == 0 means c is not read (as
 * BLAS): then *r = RN(+0 + alpha * S), +0 for an exact zero.  scratch holds cap words for the exact result; the window it
 * needs is at most DFS_X_WORDS words (always enough), usually a few.  Returns 1, or 0 when cap is
 * too small (then *r is NaN).  Destroys s.  (The result goes through a pointer so that device
 * code can store it straight to global memory.) */
DFS_HD int dfs_x_axpby_margin(dfs_xacc *s, unsigned sflags, double alpha, double beta, double c,
                              int64_t *scratch, int cap, double *r, int *margin)
{
    if (margin)
        *margin = DFS_X_NO_MARGIN;
    const uint64_t sign = 0x8000000000000000ull;
    /* The special cases, decided on the exact values. */
    int s_sign = dfs_x_sign(s);
    unsigned f = 0; /* flags of the two terms alpha*S and beta*c */
    /* no beta*c term (beta == 0): the sum starts from +0, as BLAS starts C from 0 */
    int t1_zero_neg = 0, t2_zero_neg = 0;
    if ((sflags & DFS_X_NAN) || ((sflags & DFS_X_PINF) && (sflags & DFS_X_NINF)) ||
        alpha != alpha) {
        f |= DFS_X_NAN;
    } else if (sflags & (DFS_X_PINF | DFS_X_NINF)) {
        if (alpha == 0)
            f |= DFS_X_NAN;
        else
            f |= ((sflags & DFS_X_NINF) != 0) ^ (alpha < 0) ? DFS_X_NINF : DFS_X_PINF;
    } else if (!dfs_d_is_finite(alpha)) {
        if (s_sign == 0)
            f |= DFS_X_NAN;
        else
            f |= (s_sign < 0) ^ (alpha < 0) ? DFS_X_NINF : DFS_X_PINF;
    } else if (s_sign == 0 || alpha == 0) {
        /* alpha * S is a zero: its sign by IEEE's rule for products (S = +0 when zero) */
        t1_zero_neg = (s_sign < 0) ^ (int)(dfs_d_bits(alpha) >> 63);
    }
    if (beta != 0) {
        unsigned g = dfs_x_product_flags(beta, c);
        f |= g;
        t2_zero_neg = c == 0 && ((dfs_d_bits(beta) ^ dfs_d_bits(c)) >> 63);
    }
    if ((f & DFS_X_NAN) || ((f & DFS_X_PINF) && (f & DFS_X_NINF))) {
        *r = dfs_d_from_bits(0x7ff8000000000000ull);
        return 1;
    }
    if (f & (DFS_X_PINF | DFS_X_NINF)) {
        *r = dfs_d_from_bits(0x7ff0000000000000ull | ((f & DFS_X_PINF) ? 0 : sign));
        return 1;
    }
    /* Both terms finite: one exact sum in a window that holds both, one rounding.  A term far
     * below every bit of the other (below half its lowest set bit) can only break a tie or pick
     * a side of a representable value: it is replaced by a tiny value of its sign, just below the
     * other term's bits, which rounds the same way.  So the window spans one term, not both. */
    int have1 = s_sign != 0 && alpha != 0, have2 = beta != 0 && c != 0;
    int neg1 = 0, neg2 = 0, lo1 = 0, hi1 = 0, lo2 = 0, hi2 = 0;
    uint64_t ma = 0, mb = 0, mc = 0;
    int ea = 0, eb = 0, ec = 0;
    if (have1) {
        int slo = 0, shi = 0;
        neg1 = dfs_x_abs(s);
        dfs_x_span(s, &slo, &shi);
        neg1 ^= dfs_d_split(alpha, &ma, &ea);
        lo1 = slo + ea;      /* <= the lowest set bit of alpha * S */
        hi1 = shi + ea + 54; /* alpha * S < 2^hi1 */
    }
    if (have2) {
        neg2 = dfs_d_split(beta, &mb, &eb) ^ dfs_d_split(c, &mc, &ec);
        lo2 = eb + ec;
        hi2 = eb + ec + 107;
    }
    int sticky1 = have1 && have2 && hi1 <= lo2 - 1;
    int sticky2 = have1 && have2 && hi2 <= lo1 - 1;
    if (sticky1)
        lo1 = lo2 - 2, hi1 = lo2 - 1;
    if (sticky2)
        lo2 = lo1 - 2, hi2 = lo1 - 1;
    int lo = have1 ? lo1 : lo2, hi = have1 ? hi1 : hi2;
    if (have1 && have2) {
        lo = lo1 < lo2 ? lo1 : lo2;
        hi = hi1 > hi2 ? hi1 : hi2;
    }
    int lsb = lo - ((lo % 32) + 32) % 32; /* any alignment works; this one keeps digits whole */
    int nw = (hi + 2 - lsb) / 32 + 2;
    if (nw > cap) {
        *r = dfs_d_from_bits(0x7ff8000000000000ull);
        return 0;
    }
    dfs_xacc x;
    dfs_x_init(&x, scratch, nw, lsb);
    if (sticky1)
        dfs_x_add(&x, neg1, 1, lo1);
    else if (have1)
        for (int i = 0; i < s->nw; i++)
            if (s->w[i])
                dfs_x_add(&x, neg1, (dfs_u128)(uint64_t)s->w[i] * ma, s->lsb + 32 * i + ea);
    if (sticky2)
        dfs_x_add(&x, neg2, 1, lo2);
    else if (have2)
        dfs_x_add(&x, neg2, (dfs_u128)mb * mc, eb + ec);
    /* a stand-in sticky term is not the value: no margin then */
    *r = dfs_x_round_margin(&x, t1_zero_neg && t2_zero_neg, sticky1 || sticky2 ? NULL : margin);
    return 1;
}

DFS_HD int dfs_x_axpby(dfs_xacc *s, unsigned sflags, double alpha, double beta, double c,
                       int64_t *scratch, int cap, double *r)
{
    return dfs_x_axpby_margin(s, sflags, alpha, beta, c, scratch, cap, r, NULL);
}


#endif
