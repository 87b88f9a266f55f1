/* wint.h — integers of a few 64-bit words (two's complement) for the Ozaki-family finishes,
 * host and device alike: the scheme I's sums (three words, dfs_oz_i192 in steps.h) and the
 * scheme II's (up to DFS_OZ_XW: repro with more than 24 moduli), their one rounding to binary64
 * with its margin, and RN(alpha X 2^e0 + beta c).  The word count is a constant where these are
 * inlined, so the words stay in registers. */
#ifndef DFS_OZ_WINT_H
#define DFS_OZ_WINT_H

#include "../common/xacc.h"

#define DFS_OZ_XW 5
/* The most words any helper here takes: X's, or alpha X + beta c's (dfs_oz_w_axpby_regs: X's
 * and three more; dfs_oz_w_combine_regs: four more). */
#define DFS_OZ_AW (DFS_OZ_XW + 4)

typedef struct {
    uint64_t w[DFS_OZ_XW];
} dfs_oz_ix;

/* m = |x| (nw words); returns 1 if x < 0. */
DFS_HD int dfs_oz_w_abs(const uint64_t *x, int nw, uint64_t *m)
{
    const int neg = (int)(x[nw - 1] >> 63);
    uint64_t carry = 1;
    DFS_UNROLLED
    for (int i = 0; i < nw; i++) {
        m[i] = neg ? ~x[i] + carry : x[i];
        carry = carry && m[i] == 0;
    }
    return neg;
}

/* Word q of m (0 when q >= nw), chosen without indexing so that m stays in registers. */
DFS_HD uint64_t dfs_oz_w_word(const uint64_t *m, int nw, int q)
{
    uint64_t r = 0;
    DFS_UNROLLED
    for (int i = 0; i < nw; i++)
        r = q == i ? m[i] : r;
    return r;
}

/* Bits off .. off+63 of the non-negative m (off >= 0). */
DFS_HD uint64_t dfs_oz_w_bits(const uint64_t *m, int nw, int off)
{
    const int q = off >> 6, b = off & 63;
    const uint64_t lo = dfs_oz_w_word(m, nw, q) >> b;
    const uint64_t hi = b ? dfs_oz_w_word(m, nw, q + 1) << (64 - b) : 0;
    return lo | hi;
}

/* The index of the highest set bit of m among bits 0 .. n-1, or -1. */
DFS_HD int dfs_oz_w_top(const uint64_t *m, int nw, int n)
{
    DFS_UNROLLED
    for (int q = DFS_OZ_AW - 1; q >= 0; q--) {
        if (q >= nw)
            continue;
        if (64 * q >= n)
            continue;
        uint64_t w = m[q];
        if (n - 64 * q < 64)
            w &= (1ull << (n - 64 * q)) - 1;
        if (w)
            return 64 * q + 63 - dfs_clz64(w);
    }
    return -1;
}

/* *r = RN(x 2^e0) and its margin (dfs_x_round_margin's meaning, computed on all the bits), x of
 * nw words, subnormal results included (their last bit 2^-1074).  An exact zero is +0 (as
 * dfs_x_axpby with alpha = 1, beta = 0) with no margin; a value that rounds to zero gets its
 * sign, and a margin below 2^-1076 (none nearer to 2^-1075; dfs_x_round_margin gives none for
 * these).  Returns 0, leaving the work to the general
 * path, when the value is 2^1023 or more (the result near overflow). */
DFS_HD int dfs_oz_w_round(const uint64_t *x, int nw, int e0, double *r, int *margin)
{
    uint64_t m[DFS_OZ_AW];
    const int neg = dfs_oz_w_abs(x, nw, m);
    *margin = DFS_X_NO_MARGIN;
    const int p = dfs_oz_w_top(m, nw, 64 * nw);
    if (p < 0) {
        *r = 0.0;
        return 1;
    }
    const int etop = e0 + p; /* 2^etop <= |value| < 2^(etop+1) */
    if (etop > 1022)
        return 0;
    /* the result's last bit, and the bits of m below it */
    const int L = etop - 52 > -1074 ? etop - 52 : -1074, s = L - e0;
    uint64_t Q;
    int round = 0, below = -1;
    if (s <= 0) {
        Q = m[0] << -s; /* m < 2^53: exact */
    } else {
        Q = dfs_oz_w_bits(m, nw, s);
        round = (int)(dfs_oz_w_bits(m, nw, s - 1) & 1);
        below = dfs_oz_w_top(m, nw, s - 1);
    }
    if (round && (below >= 0 || (Q & 1)))
        Q++;
    *r = dfs_d_compose(neg, Q, L);
    /* the highest bit under the round bit that differs from it (dfs_x_round_margin); below e0
     * every bit is 0 */
    if (Q == 0) {
        /* rounded to a zero of the value's sign: every real within 2^(etop-1) keeps that sign
         * and stays below 2^-1075 (which rounds to zero too) when |value| < 2^-1076; nearer to
         * 2^-1075, none */
        if (etop <= -1077)
            *margin = etop - 1;
    } else if (s <= 0) {
        *margin = L - 3;
    } else if (round) {
        if (below >= 0)
            *margin = e0 + below - 1;
    } else {
        uint64_t c[DFS_OZ_AW];
        DFS_UNROLLED
        for (int i = 0; i < nw; i++)
            c[i] = ~m[i];
        const int j = dfs_oz_w_top(c, nw, s - 1);
        *margin = j >= 0 ? e0 + j - 1 : e0 - 2;
    }
    return 1;
}

/* r (nr words) = m (n words, non-negative) times 2^s, s >= 0; the caller keeps m 2^s below
 * 2^(64 nr).  Words chosen without indexing (dfs_oz_w_word): everything stays in registers. */
DFS_HD void dfs_oz_w_shl(const uint64_t *m, int n, int s, uint64_t *r, int nr)
{
    const int q = s >> 6, b = s & 63;
    DFS_UNROLLED
    for (int i = 0; i < DFS_OZ_AW; i++) {
        if (i >= nr)
            break;
        const uint64_t hi = dfs_oz_w_word(m, n, i - q), lo = dfs_oz_w_word(m, n, i - q - 1);
        r[i] = (hi << b) | (b ? lo >> (64 - b) : 0);
    }
}

/* acc += (-1)^neg t, both of n words (two's complement, modulo 2^(64 n)). */
DFS_HD void dfs_oz_w_addsub(uint64_t *acc, const uint64_t *t, int n, int neg)
{
    uint64_t c = (uint64_t)neg; /* acc - t = acc + ~t + 1 */
    DFS_UNROLLED
    for (int i = 0; i < DFS_OZ_AW; i++) {
        if (i >= n)
            break;
        const uint64_t ti = neg ? ~t[i] : t[i];
        const uint64_t s1 = acc[i] + ti, c1 = s1 < ti;
        acc[i] = s1 + c;
        c = c1 | (acc[i] < s1);
    }
}

/* *v = RN(alpha X 2^e0 + beta cv) and its margin (dfs_oz_w_round's, on the exact value) for the
 * integer X of nw words (two's complement, nw + 3 <= DFS_OZ_AW), in registers: alpha X exactly in
 * nw + 1 words, beta cv exactly in two, both placed from the lower one's last bit into nw + 3
 * words, added, rounded once.  beta == 0: cv not read.  An exact zero from two zero terms gets
 * IEEE's sign (dfs_x_axpby_margin's rule: -0 only for alpha < 0 with beta cv a -0); one from
 * cancellation is +0.  Returns 0, leaving the work to the window path, when alpha is zero or not
 * finite, beta or (beta != 0) cv not finite, the two terms' bits span more than those words
 * hold (one far below the other), or the result would be near overflow. */
DFS_HD int dfs_oz_w_axpby_regs(const uint64_t *x, int nw, int e0, double alpha, double beta,
                               double cv, double *v, int *margin)
{
    const int na = nw + 3;
    if (alpha == 0 || !dfs_d_is_finite(alpha) || !dfs_d_is_finite(beta) ||
        (beta != 0 && !dfs_d_is_finite(cv)))
        return 0;
    uint64_t m[DFS_OZ_AW], p[DFS_OZ_AW], t[DFS_OZ_AW], acc[DFS_OZ_AW];
    uint64_t ma;
    int ea;
    const int neg1 = dfs_oz_w_abs(x, nw, m) ^ dfs_d_split(alpha, &ma, &ea);
    uint64_t carry = 0;
    DFS_UNROLLED
    for (int i = 0; i < DFS_OZ_AW; i++) { /* p = ma m, nw + 1 words */
        if (i >= nw)
            break;
        const dfs_u128 z = (dfs_u128)m[i] * ma + carry;
        p[i] = (uint64_t)z;
        carry = (uint64_t)(z >> 64);
    }
    p[nw] = carry;
    const int top_p = dfs_oz_w_top(p, nw + 1, 64 * (nw + 1)); /* -1: X = 0 */
    const int e1 = e0 + ea;
    uint64_t q[2] = {0, 0};
    int neg2 = 0, e2 = 0;
    const int have2 = beta != 0 && cv != 0;
    if (have2) {
        uint64_t mb, mc;
        int eb, ec;
        neg2 = dfs_d_split(beta, &mb, &eb) ^ dfs_d_split(cv, &mc, &ec);
        const dfs_u128 z = (dfs_u128)mb * mc;
        q[0] = (uint64_t)z;
        q[1] = (uint64_t)(z >> 64);
        e2 = eb + ec;
    }
    if (top_p < 0 && !have2) {
        const int z2 = beta != 0 && ((dfs_d_bits(beta) ^ dfs_d_bits(cv)) >> 63);
        *v = dfs_d_from_bits((uint64_t)((int)(dfs_d_bits(alpha) >> 63) & z2) << 63);
        *margin = DFS_X_NO_MARGIN;
        return 1;
    }
    /* the terms' lowest possible bit and the least power of two above both */
    const int top1 = e1 + top_p + 1, top2 = e2 + 106;
    const int lsb = top_p < 0 ? e2 : !have2 ? e1 : e1 < e2 ? e1 : e2;
    const int top = top_p < 0 ? top2 : !have2 ? top1 : top1 > top2 ? top1 : top2;
    if (top - lsb > 64 * na - 2) /* room for the sum and its sign */
        return 0;
    DFS_UNROLLED
    for (int i = 0; i < DFS_OZ_AW; i++)
        acc[i] = 0;
    if (top_p >= 0) {
        dfs_oz_w_shl(p, nw + 1, e1 - lsb, t, na);
        dfs_oz_w_addsub(acc, t, na, neg1);
    }
    if (have2) {
        dfs_oz_w_shl(q, 2, e2 - lsb, t, na);
        dfs_oz_w_addsub(acc, t, na, neg2);
    }
    return dfs_oz_w_round(acc, na, lsb, v, margin);
}

/* *v = RN(alpha (t[0] + ... + t[T-1]) + beta cv) for T finite binary64 terms (a thread's
 * expansion, fpe.h; beta == 0: cv not read), in registers: the terms placed as one integer of
 * DFS_OZ_TW words from the lowest set bit among them, then rounded once (dfs_oz_w_round when
 * alpha = 1 and beta = 0, else dfs_oz_w_axpby_regs).  An exact zero sum is +0, as BLAS starts
 * its sums.  Returns 0, leaving the output to an exact accumulator, when the terms span more than
 * those words hold, or the rounding declines (alpha, beta or cv not finite, a result near
 * overflow). */
#define DFS_OZ_TW 4

/* The T finite terms t's lowest set bit *lsb and a power of two *top above the largest
 * (|t[i]| < 2^top), from *lsb, *top as they are when any is set (several sets of terms in one
 * span); returns any, or 1 when a term is not zero. */
DFS_HD int dfs_oz_w_terms_span(const double *t, int T, int any, int *lsb, int *top)
{
    for (int i = 0; i < T; i++) {
        if (t[i] == 0)
            continue;
        uint64_t m;
        int e;
        dfs_d_split(t[i], &m, &e);
        const int lo = e + dfs_ctz64(m), hi = e + 64 - dfs_clz64(m); /* |t| < 2^hi */
        *lsb = !any || lo < *lsb ? lo : *lsb;
        *top = !any || hi > *top ? hi : *top;
        any = 1;
    }
    return any;
}

/* x = the sum of the T finite terms t in units of 2^lsb, an integer of nw words (two's
 * complement, nw <= DFS_OZ_AW); lsb at most their lowest set bit, and the words enough (T terms
 * below 2^top: top - lsb <= 64 nw - 4 for T <= 8). */
DFS_HD void dfs_oz_w_terms_int(const double *t, int T, int lsb, uint64_t *x, int nw)
{
    uint64_t sh[DFS_OZ_AW];
    DFS_UNROLLED
    for (int i = 0; i < DFS_OZ_AW; i++) {
        if (i >= nw)
            break;
        x[i] = 0;
    }
    for (int i = 0; i < T; i++) {
        if (t[i] == 0)
            continue;
        uint64_t m;
        int e;
        const int neg = dfs_d_split(t[i], &m, &e), z = dfs_ctz64(m);
        m >>= z; /* from its lowest set bit: e + z >= lsb */
        dfs_oz_w_shl(&m, 1, e + z - lsb, sh, nw);
        dfs_oz_w_addsub(x, sh, nw, neg);
    }
}

/* *v = RN(alpha X 2^e0 + beta cv) for the integer X of nw words (nw + 3 <= DFS_OZ_AW) in
 * registers (dfs_oz_w_round, dfs_oz_w_axpby_regs; 0 where they decline). */
DFS_HD int dfs_oz_w_int_axpby(const uint64_t *x, int nw, int e0, double alpha, double beta,
                              double cv, double *v)
{
    int margin;
    if (alpha == 1.0 && beta == 0.0)
        return dfs_oz_w_round(x, nw, e0, v, &margin);
    return dfs_oz_w_axpby_regs(x, nw, e0, alpha, beta, cv, v, &margin);
}

/* The same for terms that stand for t[i] 2^shift (a sum made on operands scaled by powers of
 * two: the result may lie far below the binary64 range, and rounds to a subnormal or zero). */
DFS_HD int dfs_oz_w_terms_axpby_at(const double *t, int T, int shift, double alpha, double beta,
                                   double cv, double *v)
{
    int lsb = 0, top = 0;
    const int any = dfs_oz_w_terms_span(t, T, 0, &lsb, &top);
    /* T terms below 2^top: their sum and its sign within the words (T <= 8) */
    if (any && top - lsb > 64 * DFS_OZ_TW - 4)
        return 0;
    uint64_t x[DFS_OZ_TW];
    dfs_oz_w_terms_int(t, T, lsb, x, DFS_OZ_TW);
    return dfs_oz_w_int_axpby(x, DFS_OZ_TW, lsb + shift, alpha, beta, cv, v);
}

/* The terms as they stand (shift 0): the rounding described above dfs_oz_w_terms_span. */
DFS_HD int dfs_oz_w_terms_axpby(const double *t, int T, double alpha, double beta, double cv,
                                double *v)
{
    return dfs_oz_w_terms_axpby_at(t, T, 0, alpha, beta, cv, v);
}

/* *v = RN(alpha X 2^e0 + beta cv) for the integer X of nw words (beta == 0: cv not used), with
 * its margin (dfs_x_round_margin): directly when alpha = 1 and beta = 0, else in registers
 * (dfs_oz_w_axpby_regs) when it can, else through the
 * window win of wn words from 2^wlsb (wlsb <= e0) and the scratch of sn words
 * (dfs_x_axpby_margin).  Returns 0 when the window or scratch cannot hold it. */
DFS_HD int dfs_oz_w_axpby(const uint64_t *x, int nw, int e0, double alpha, double beta,
                          double cv, int64_t *win, int wn, int wlsb, int64_t *scratch, int sn,
                          double *v, int *margin)
{
    if (alpha == 1.0 && beta == 0.0 && dfs_oz_w_round(x, nw, e0, v, margin))
        return 1;
    if (dfs_oz_w_axpby_regs(x, nw, e0, alpha, beta, cv, v, margin))
        return 1;
    dfs_xacc acc;
    uint64_t m[DFS_OZ_XW];
    dfs_x_init(&acc, win, wn, wlsb);
    const int neg = dfs_oz_w_abs(x, nw, m);
    int ok = 1;
    DFS_UNROLLED
    for (int i = 0; i < nw; i += 2)
        ok = ok && dfs_x_add(&acc, neg,
                             (dfs_u128)m[i] | (i + 1 < nw ? (dfs_u128)m[i + 1] << 64 : 0),
                             e0 + 64 * i);
    return ok && dfs_x_axpby_margin(&acc, 0u, alpha, beta, cv, scratch, sn, v, margin);
}

/* *v = RN(a1 X1 2^e0 + a2 X2 2^e0 + b1 y1 + b2 y2) and its margin (dfs_oz_w_round's, on the
 * exact value) for the integers X1, X2 of nw words (two's complement, nw + 4 <= DFS_OZ_AW), in
 * registers: one part of a complex alpha S + beta c whose S has the parts X1 2^e0 and X2 2^e0
 * (the real part: a1 = Re alpha, a2 = -Im alpha, b1 = Re beta, y1 = Re c, b2 = -Im beta, y2 =
 * Im c).  with_c = 0: no b terms (beta = 0; y1, y2 not read).  An exact zero is -0 only when
 * every term is a zero of negative sign (a X with X = 0 has a's sign), as xacc.h's
 * dfs_x_combine; cancellation gives +0.  Returns 0, leaving the work to dfs_x_combine, when a
 * scalar or (with_c) a y is not finite, when the terms' bits span more than nw + 4 words hold,
 * or when the result would be near overflow. */
DFS_HD int dfs_oz_w_combine_regs(const uint64_t *x1, const uint64_t *x2, int nw, int e0,
                                 double a1, double a2, int with_c, double b1, double y1,
                                 double b2, double y2, double *v, int *margin)
{
    const int na = nw + 4;
    if (!dfs_d_is_finite(a1) || !dfs_d_is_finite(a2) ||
        (with_c && (!dfs_d_is_finite(b1) || !dfs_d_is_finite(y1) || !dfs_d_is_finite(b2) ||
                    !dfs_d_is_finite(y2))))
        return 0;
    /* the terms' magnitudes (words), last bits' exponents, signs, top bits (-1: a zero term) */
    uint64_t p[4][DFS_OZ_AW], t[DFS_OZ_AW], acc[DFS_OZ_AW];
    int len[4], e[4], neg[4], top[4];
    int zero_neg = 1, lsb = 0, hi = 0, any = 0;
    DFS_UNROLLED
    for (int i = 0; i < 4; i++) {
        if (i >= 2 && !with_c) {
            top[i] = -1;
            len[i] = e[i] = neg[i] = 0;
            continue;
        }
        if (i < 2) {
            uint64_t m[DFS_OZ_AW], ma;
            int ea;
            const double a = i ? a2 : a1;
            neg[i] = dfs_oz_w_abs(i ? x2 : x1, nw, m) ^ dfs_d_split(a, &ma, &ea);
            uint64_t carry = 0;
            DFS_UNROLLED
            for (int w = 0; w < DFS_OZ_AW; w++) {
                if (w >= nw)
                    break;
                const dfs_u128 z = (dfs_u128)m[w] * ma + carry;
                p[i][w] = (uint64_t)z;
                carry = (uint64_t)(z >> 64);
            }
            p[i][nw] = carry;
            len[i] = nw + 1;
            e[i] = e0 + ea;
        } else {
            const double b = i == 2 ? b1 : b2, y = i == 2 ? y1 : y2;
            uint64_t mb, my;
            int eb, ey;
            neg[i] = dfs_d_split(b, &mb, &eb) ^ dfs_d_split(y, &my, &ey);
            const dfs_u128 z = (dfs_u128)mb * my;
            p[i][0] = (uint64_t)z;
            p[i][1] = (uint64_t)(z >> 64);
            len[i] = 2;
            e[i] = eb + ey;
        }
        top[i] = dfs_oz_w_top(p[i], len[i], 64 * len[i]);
        if (top[i] < 0) {
            zero_neg &= neg[i]; /* a zero term: the sign IEEE's product gives it */
            continue;
        }
        zero_neg = 0;
        const int h = e[i] + top[i] + 1;
        lsb = any && lsb < e[i] ? lsb : e[i];
        hi = any && hi > h ? hi : h;
        any = 1;
    }
    if (!any) {
        *v = dfs_d_from_bits((uint64_t)zero_neg << 63);
        *margin = DFS_X_NO_MARGIN;
        return 1;
    }
    if (hi - lsb > 64 * na - 3) /* room for four terms' sum and its sign */
        return 0;
    DFS_UNROLLED
    for (int w = 0; w < DFS_OZ_AW; w++)
        acc[w] = 0;
    DFS_UNROLLED
    for (int i = 0; i < 4; i++) {
        if (top[i] < 0)
            continue;
        dfs_oz_w_shl(p[i], len[i], e[i] - lsb, t, na);
        dfs_oz_w_addsub(acc, t, na, neg[i]);
    }
    return dfs_oz_w_round(acc, na, lsb, v, margin);
}

#endif
