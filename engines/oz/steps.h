/* steps.h — the Ozaki scheme's split, element by element, for the kernels and the CPU
 * implementation alike (integer bit operations only: no libm, so every machine agrees).
 *
 * A row of op(A) (or a column of op(B)) with inner dimension k is cut into slices of beta bits
 * each, on a grid fixed by the row's top exponent tau (every |a| < 2^tau):
 *     slice i of a = sign(a) * (the bits of |a| of weight in [2^(tau-(i+1)beta), 2^(tau-i beta)))
 * stored scaled by 2^-(tau - i beta), i.e. as v * 2^-beta with v < 2^beta an integer, so a stored
 * slice lies in (-1, 1).  With beta = floor((53 - ceil(log2 k)) / 2) every product of two stored
 * slices is an integer multiple of 2^-2beta below 1 and a sum of k of them stays below
 * 2^(53 - 2beta): exact in binary64 in any order, with or without FMA.  So any DGEMM of slices is
 * exact, and slice pair (i, j) contributes P_ij * 2^(tau_r + tau_c - (i + j) beta) to C(r, c).
 *
 * Truncation (not rounding) makes the slices a pure function of the element and tau: the number
 * of slices a row needs is known after one pass, ceil((tau - low) / beta) where low is the
 * exponent of the lowest set bit in the row, and no pass over the remainders is needed. */
#ifndef DFS_OZ_STEPS_H
#define DFS_OZ_STEPS_H

#include "../common/eft.h"
#include "../common/xacc.h"
#include "wint.h"

/* What a row (or column) pass collects: tau = max top exponent (|a| < 2^tau), low = min exponent
 * of the lowest set bit, special = an Inf or NaN seen, l1 = the sum of |a| (rounded, in whatever
 * order: it only bounds, dfs_oz_row_l1), ss = the sum of (a 2^-tau)^2 for the tau so far
 * (rounded, terms below 2^-1000 left out: dfs_oz_row_l2sq bounds it).  Start from
 * dfs_oz_row_init(). */
typedef struct {
    int tau, low, special;
    double l1, ss;
} dfs_oz_row;

#define DFS_OZ_NONE_TAU (-100000) /* tau of a row of zeros */

/* What a finish (repro/finish.h, crt_finish.h) did with an output: written, or left for the
 * direct path because it cannot be computed there (a special row or column, a window too small)
 * or, verifying, because what was left out could change its rounding. */
enum { DFS_OZ_WRITTEN = 0, DFS_OZ_LISTED = 1, DFS_OZ_UNDECIDED = 2 };

DFS_HD dfs_oz_row dfs_oz_row_init(void)
{
    dfs_oz_row r;
    r.tau = DFS_OZ_NONE_TAU;
    r.low = 100000;
    r.special = 0;
    r.l1 = 0.0;
    r.ss = 0.0;
    return r;
}

/* ss (a sum of squares in units of 2^(2 from)) in units of 2^(2 to), to >= from: times
 * 2^-2(to - from), exactly unless the result is below 2^-1022 (then within 2^-1074); 0 when
 * that is below 2^-1000 times ss (what is left out is bounded in dfs_oz_row_l2sq). */
DFS_HD double dfs_oz_ss_rescale(double ss, int from, int to)
{
    const int d = 2 * (to - from);
    if (d == 0 || ss == 0.0)
        return ss;
    if (d > 1000)
        return 0.0;
    return dfs_d_mul(ss, dfs_d_from_bits((uint64_t)(1023 - d) << 52));
}

DFS_HD void dfs_oz_row_add(dfs_oz_row *r, double a)
{
    uint64_t b = dfs_d_bits(a) & 0x7fffffffffffffffull;
    if (b == 0)
        return;
    if (b >= 0x7ff0000000000000ull) {
        r->special = 1;
        return;
    }
    uint64_t m;
    int e;
    dfs_d_split(a, &m, &e);
    int top = e + 64 - dfs_clz64(m); /* |a| < 2^top */
    int low = e + dfs_ctz64(m);
    if (top > r->tau) {
        r->ss = dfs_oz_ss_rescale(r->ss, r->tau, top);
        r->tau = top;
    }
    r->low = low < r->low ? low : r->low;
    r->l1 = dfs_d_add(r->l1, dfs_d_from_bits(b));
    /* x = |a| 2^-tau = m 2^(e - tau) < 1, exactly; x^2 added when x >= 2^-500 */
    const int sh = e - r->tau;
    if (top - r->tau > -500) {
        const double x = dfs_d_mul((double)m, dfs_d_from_bits((uint64_t)(1023 + sh) << 52));
        r->ss = dfs_d_add(r->ss, dfs_d_mul(x, x));
    }
}

DFS_HD void dfs_oz_row_merge(dfs_oz_row *r, dfs_oz_row o)
{
    const int t = o.tau > r->tau ? o.tau : r->tau;
    r->ss = dfs_d_add(dfs_oz_ss_rescale(r->ss, r->tau, t), dfs_oz_ss_rescale(o.ss, o.tau, t));
    r->tau = t;
    r->low = o.low < r->low ? o.low : r->low;
    r->special |= o.special;
    r->l1 = dfs_d_add(r->l1, o.l1);
}

/* The row's l1 norm in units of 2^tau, at most k (every |a| < 2^tau): nrm in dfs_oz_tail_bound.
 * The sum is at least 2^(tau-1), so the scaling neither underflows nor loses bits. */
DFS_HD double dfs_oz_row_l1(dfs_oz_row r, int64_t k)
{
    if (r.tau == DFS_OZ_NONE_TAU)
        return 0.0;
    double v = r.l1;
    /* v * 2^-tau in two exact steps (2^-tau alone may not be representable) */
    const int h = -r.tau / 2, rest = -r.tau - h;
    v = dfs_d_mul(v, dfs_d_from_bits((uint64_t)(1023 + h) << 52));
    v = dfs_d_mul(v, dfs_d_from_bits((uint64_t)(1023 + rest) << 52));
    return dfs_d_is_finite(v) && v < (double)k ? v : (double)k;
}

/* An upper bound of sum_q (a_q 2^-tau)^2 over the row (each term below 1, so at most k; at least
 * 1/4, the largest |a| being at least 2^(tau-1)): ss enlarged by 2^-30 of itself for its
 * roundings (fewer than 3k of at most 2^-53 each, k < 2^20) and by 2^-960 for the terms left out
 * or lost below 2^-1022 (each below 2^-1000).  0 for a row of zeros. */
DFS_HD double dfs_oz_row_l2sq(dfs_oz_row r, int64_t k)
{
    if (r.tau == DFS_OZ_NONE_TAU)
        return 0.0;
    const double v = dfs_d_add(dfs_d_mul(r.ss, 1.0 + 0x1p-30), 0x1p-960);
    return v < (double)k ? v : (double)k;
}

/* ceil(log2 k) for k >= 1. */
DFS_HD int dfs_oz_ceil_log2(int64_t k)
{
    return k <= 1 ? 0 : 64 - dfs_clz64((uint64_t)(k - 1)); /* one instruction on the GPU */
}

/* Bits per slice for inner dimension k (k >= 1): floor((53 - ceil(log2 k)) / 2). */
DFS_HD int dfs_oz_beta(int64_t k)
{
    return (53 - dfs_oz_ceil_log2(k)) / 2;
}

/* Slices a row needs so that nothing is left over (0 for a row of zeros). */
DFS_HD int dfs_oz_row_slices(dfs_oz_row r, int beta)
{
    if (r.tau == DFS_OZ_NONE_TAU)
        return 0;
    return (r.tau - r.low + beta - 1) / beta;
}

/* Stored slice i of a (finite) in a row with top exponent tau: sign(a) * v * 2^-beta. */
DFS_HD double dfs_oz_slice(double a, int tau, int beta, int i)
{
    uint64_t m;
    int e;
    int neg = dfs_d_split(a, &m, &e);
    int lo = tau - (i + 1) * beta; /* weight of the slice's last bit */
    int sh = lo - e;               /* v = (m >> sh) & mask, or m << -sh */
    uint64_t v;
    if (sh >= 64 || m == 0)
        return 0.0;
    if (sh >= 0)
        v = m >> sh;
    else
        v = -sh >= 64 ? 0 : m << -sh;
    v &= (1ull << beta) - 1;
    /* v * 2^-beta: exact (v < 2^26), built from the bits so no libm is involved */
    if (v == 0)
        return 0.0;
    int top = 63 - dfs_clz64(v); /* v in [2^top, 2^(top+1)) */
    uint64_t bits =
        ((uint64_t)(top - beta + 1023) << 52) | ((v << (52 - top)) & 0xfffffffffffffull);
    return dfs_d_from_bits(bits | ((uint64_t)neg << 63));
}

/* 2^-x as binary64, 0 <= x <= 1022. */
DFS_HD double dfs_oz_pow2m(int x)
{
    return dfs_d_from_bits((uint64_t)(1023 - x) << 52);
}

/* The exponent of the least power of two >= x (x > 0 finite). */
DFS_HD int dfs_oz_exp_up(double x)
{
    const uint64_t b = dfs_d_bits(x);
    const int e = (int)(b >> 52) - 1023;
    return (b & 0xfffffffffffffull) ? e + 1 : e;
}

/* The pairs a DGEMM takes: slices i < sa of a row of op(A) times slices j < sb of a column of
 * op(B) with i + j <= d (d >= sa + sb - 2: all of them).  Row slice i meets the first
 * dfs_oz_cols(i) column slices. */
DFS_HD int dfs_oz_cols(int sb, int d, int i)
{
    int j = d - i + 1;
    return j < sb ? (j > 0 ? j : 0) : sb;
}

/* A bound on what the pairs left out contribute to one output, in units of 2^(tau_a + tau_b):
 * sum_q |a_q b_q - sum over the pairs taken of (slice i of a_q)(slice j of b_q)|, for a row that
 * needs na slices (dfs_oz_row_slices), a column that needs nb, k terms, and nrm_a >=
 * sum_q |a_q| 2^-tau_a (likewise nrm_b; each at most k).  0 when nothing is left out.
 *
 * With a_i the slices of a (|a_i,q| < 2^-i beta and <= |a_q| in these units) and a>=I the rest
 * after I of them (< 2^-I beta and <= |a_q|), the pairs left out are
 *     sum_{i < sa} a_i (b>=J(i)) + (a>=sa) b,    J(i) = dfs_oz_cols(sb, d, i),
 * and each part is bounded by min(l1 norm of one factor * largest element of the other) with
 * l1(a_i) <= min(nrm_a, k 2^-i beta), l1(b>=J) <= min(nrm_b, k 2^-J beta).  The result is twice
 * that: the factor covers the rounding of nrm_a, nrm_b (summed in binary64: relative error below
 * k 2^-53) and of this function. */
DFS_HD double dfs_oz_tail_bound(int64_t k, int beta, int sa, int sb, int d, int na, int nb,
                                double nrm_a, double nrm_b)
{
    const double kd = (double)k;
    double e = 0.0;
    const int ia = sa < na ? sa : na;
    for (int i = 0; i < ia; i++) {
        const int J = dfs_oz_cols(sb, d, i);
        if (J >= nb)
            continue;
        const double pa = dfs_oz_pow2m(i * beta), pb = dfs_oz_pow2m(J * beta);
        const double la = nrm_a < kd * pa ? nrm_a : kd * pa; /* l1(a_i) */
        const double lb = nrm_b < kd * pb ? nrm_b : kd * pb; /* l1(b>=J) */
        const double x = la * pb, y = pa * lb;
        e += x < y ? x : y;
    }
    if (sa < na) {
        const double pa = dfs_oz_pow2m(sa * beta);
        const double la = nrm_a < kd * pa ? nrm_a : kd * pa; /* l1(a>=sa); |b_q| < 1 */
        const double y = pa * nrm_b;
        e += la < y ? la : y;
    }
    return 2.0 * e;
}

/* ---- an output's partials as one 192-bit integer (the GPU finish kernel's fast path) ----
 * Pair (i, j) of an output adds P_ij 2^(tau_a + tau_b - (i + j) beta), and P_ij 2^(2 beta) is an
 * integer below 2^53 in magnitude (the choice of beta).  With e0 = tau_a + tau_b - (d + 2) beta,
 * the output's sum is X 2^e0 with X = sum of (P_ij 2^(2 beta)) 2^((d - i - j) beta): an integer
 * of at most d beta + 53 + log2(pairs) bits, kept in three 64-bit words (two's complement) when
 * d beta <= DFS_OZ_I192_MAX_SHIFT. */
#define DFS_OZ_I192_MAX_SHIFT 128

typedef struct {
    uint64_t w[3];
} dfs_oz_i192;

/* x += v 2^sh, |v| < 2^63, 0 <= sh <= DFS_OZ_I192_MAX_SHIFT (modulo 2^192: exact while the sum
 * fits, as it does here). */
DFS_HD void dfs_oz_i192_add(dfs_oz_i192 *x, int64_t v, int sh)
{
    const int q = sh >> 6, b = sh & 63;
    const uint64_t ext = v < 0 ? ~0ull : 0ull;
    uint64_t y[3] = {0, 0, 0};
    y[q] = (uint64_t)v << b;
    if (q + 1 < 3)
        y[q + 1] = b ? (uint64_t)(v >> (64 - b)) : ext; /* arithmetic shift: the sign extends */
    if (q + 2 < 3)
        y[q + 2] = ext;
    uint64_t carry = 0;
    for (int i = 0; i < 3; i++) {
        const uint64_t t = x->w[i] + y[i];
        const uint64_t c1 = t < y[i];
        x->w[i] = t + carry;
        carry = c1 | (x->w[i] < t);
    }
}

/* The three-word forms (the scheme I's sums, the scheme II up to 24 moduli). */
DFS_HD int dfs_oz_i192_abs(const dfs_oz_i192 *x, uint64_t m[3])
{
    return dfs_oz_w_abs(x->w, 3, m);
}
DFS_HD uint64_t dfs_oz_i192_word(const uint64_t m[3], int q)
{
    return dfs_oz_w_word(m, 3, q);
}
DFS_HD uint64_t dfs_oz_i192_bits(const uint64_t m[3], int off)
{
    return dfs_oz_w_bits(m, 3, off);
}
DFS_HD int dfs_oz_i192_top(const uint64_t m[3], int n)
{
    return dfs_oz_w_top(m, 3, n);
}
DFS_HD int dfs_oz_i192_round(const dfs_oz_i192 *x, int e0, double *r, int *margin)
{
    return dfs_oz_w_round(x->w, 3, e0, r, margin);
}
DFS_HD int dfs_oz_i192_axpby(const dfs_oz_i192 *x, int e0, double alpha, double beta, double cv,
                             int64_t *win, int wn, int wlsb, int64_t *scratch, int sn, double *v,
                             int *margin)
{
    return dfs_oz_w_axpby(x->w, 3, e0, alpha, beta, cv, win, wn, wlsb, scratch, sn, v, margin);
}

/* Whether a result with this margin is also RN(alpha (S + t) + beta c) for every |t| <=
 * E 2^(tau_a + tau_b) (E >= 0): |alpha t| < 2^(ea + 53) E 2^(tau_a + tau_b) must fit in it. */
DFS_HD int dfs_oz_decided(double E, int ta, int tb, double alpha, int margin)
{
    if (E == 0)
        return 1;
    uint64_t ma;
    int ea;
    dfs_d_split(alpha, &ma, &ea);
    return ta + tb + dfs_oz_exp_up(E) + ea + 53 <= margin;
}

/* No such exponent: an output's other part (dfs_oz_decided2) is zero. */
#define DFS_OZ_NO_EXP (-1000000)

/* dfs_oz_decided for a result that leaves out, besides the truncation E 2^(tau_a + tau_b), a
 * part of the sum below 2^eo in magnitude (eo == DFS_OZ_NO_EXP: none): |alpha| (E 2^(ta + tb)
 * + 2^eo) < 2^(max(ta + tb + exp_up(E), eo) + 1 + ea + 53) must fit in the margin. */
DFS_HD int dfs_oz_decided2(double E, int ta, int tb, int eo, double alpha, int margin)
{
    if (eo == DFS_OZ_NO_EXP)
        return dfs_oz_decided(E, ta, tb, alpha, margin);
    uint64_t ma;
    int ea;
    dfs_d_split(alpha, &ma, &ea);
    int e = eo;
    if (E != 0) {
        const int eE = ta + tb + dfs_oz_exp_up(E);
        e = eE > eo ? eE : eo;
    }
    return e + 1 + ea + 53 <= margin;
}

/* Words of an output's window accumulator for its partials (GPU finish kernel), and of the one
 * for alpha * S + beta * c. */
#define DFS_OZ_WIN 20
#define DFS_OZ_RWIN 24

/* The slices taken per operand, reduced (the larger first) until an output's partials fit its
 * window: (sa + sb) beta + ceil(log2 k) + 2 bits below the top word.  The CPU and the GPU apply
 * the same rule, so fixed-split results agree bit for bit. */
DFS_HD void dfs_oz_fit(int64_t k, int beta, int *sa, int *sb)
{
    while (*sa + *sb > 2 &&
           (*sa + *sb) * beta + dfs_oz_ceil_log2(k) + 2 > 32 * (DFS_OZ_WIN - 1) - 2) {
        if (*sa >= *sb)
            (*sa)--;
        else
            (*sb)--;
    }
}

#endif
