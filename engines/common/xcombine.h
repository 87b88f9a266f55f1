/* xcombine.h — several exact sums and binary64 terms, each with its coefficient, rounded once:
 * the complex finishes' combination (each part of alpha S + beta c), on xacc.h's accumulators.
 * Host C and CUDA device code alike. */
#ifndef DFS_XCOMBINE_H
#define DFS_XCOMBINE_H

#include "xacc.h"

/* ---- several terms, one rounding (the complex finish) ------------------------------------- */

/* A term of dfs_x_combine: coef * S, S the exact sum held in s with its special flags sflags
 * (an exact zero S is +0), or, with s NULL, coef * y for the double y. */
typedef struct {
    double coef;
    dfs_xacc *s;
    unsigned sflags;
    double y;
} dfs_x_term;

/* *r = RN(the sum of the n terms) with IEEE semantics on the exact values, term by term as
 * dfs_x_axpby_margin does for alpha * S and beta * c: a term is NaN when a factor is (S is NaN
 * with a NaN term or both infinities) or when one factor is infinite and the other zero,
 * infinite when a factor is; the sum is NaN when a term is or two infinite terms differ in
 * sign, else infinite when a term is, else the exact sum rounded once.  An exact zero sum is -0
 * only when every term is a zero of negative sign (IEEE's product and sum rules; a term 0 * S
 * with S = +0 has coef's sign), else +0.  The accumulators of the terms are normalised and
 * destroyed.  scratch holds cap words; a full accumulator's DFS_X_WORDS always suffice (the
 * terms' values lie within its range).  Returns 1, or 0 when cap is too small (then *r is NaN). */
DFS_HD int dfs_x_combine(dfs_x_term *t, int n, int64_t *scratch, int cap, double *r)
{
    *r = dfs_d_from_bits(0x7ff8000000000000ull);
    if (cap < DFS_X_WORDS)
        return 0;
    unsigned f = 0;
    int zero_neg = 1; /* every term so far a zero of negative sign */
    for (int i = 0; i < n; i++) {
        const double a = t[i].coef;
        const int a_neg = (int)(dfs_d_bits(a) >> 63);
        if (!t[i].s) {
            f |= dfs_x_product_flags(a, t[i].y);
            if (a != 0 && t[i].y != 0)
                zero_neg = 0;
            else
                zero_neg &= a_neg ^ (int)(dfs_d_bits(t[i].y) >> 63);
            continue;
        }
        const unsigned sf = t[i].sflags;
        const int ss = dfs_x_sign(t[i].s);
        if ((sf & DFS_X_NAN) || ((sf & DFS_X_PINF) && (sf & DFS_X_NINF)) || a != a)
            f |= DFS_X_NAN;
        else if (sf & (DFS_X_PINF | DFS_X_NINF))
            f |= a == 0 ? DFS_X_NAN : ((sf & DFS_X_NINF) != 0) ^ a_neg ? DFS_X_NINF : DFS_X_PINF;
        else if (!dfs_d_is_finite(a))
            f |= ss == 0 ? DFS_X_NAN : (ss < 0) ^ a_neg ? DFS_X_NINF : DFS_X_PINF;
        else if (ss != 0 && a != 0)
            zero_neg = 0;
        else /* a zero term: S = +0, or a = +-0 times a finite S */
            zero_neg &= (ss < 0) ^ a_neg;
    }
    if ((f & DFS_X_NAN) || ((f & DFS_X_PINF) && (f & DFS_X_NINF)))
        return 1;
    if (f) {
        *r = dfs_d_from_bits(0x7ff0000000000000ull | ((f & DFS_X_NINF) ? 1ull << 63 : 0));
        return 1;
    }
    /* The sum in a window that holds every term's bits and the carries of their sum: a few
     * words where the terms lie near each other (S given as a window: dfs_x_trim), the full
     * range at worst.  A term coef * S spans from S's lowest word times coef's last bit up to
     * S's top word (below 2^63 once normalised and made positive) times coef's significand
     * (below 2^53): below 2^(lsb + 32 (nw - 1) + 116 + ea); coef * y, 106 bits from its last
     * one.  Their sum has a few bits more than the largest (32 and more to spare). */
    int lo = 0, hi = 0, any = 0;
    for (int i = 0; i < n; i++) {
        uint64_t ma, my;
        int ea, ey;
        if (t[i].coef == 0 || (!t[i].s && t[i].y == 0))
            continue;
        dfs_d_split(t[i].coef, &ma, &ea);
        int tlo = ea, thi;
        if (t[i].s) {
            tlo += t[i].s->lsb;
            thi = tlo + 32 * (t[i].s->nw - 1) + 64 + 53;
        } else {
            dfs_d_split(t[i].y, &my, &ey);
            tlo += ey;
            thi = tlo + 106;
        }
        lo = any && lo < tlo ? lo : tlo;
        hi = any && hi > thi ? hi : thi;
        any = 1;
    }
    int xlsb = lo - ((lo % 32) + 32) % 32, xnw = (hi + 4 - xlsb) / 32 + 2;
    if (xnw > DFS_X_WORDS) {
        xlsb = DFS_X_LSB;
        xnw = DFS_X_WORDS;
    }
    dfs_xacc x;
    dfs_x_init(&x, scratch, xnw, xlsb);
    for (int i = 0; i < n; i++) {
        const double a = t[i].coef;
        if (a == 0)
            continue;
        if (!t[i].s) {
            if (t[i].y != 0)
                dfs_x_add_product(&x, a, t[i].y, 0);
            continue;
        }
        dfs_xacc *s = t[i].s;
        uint64_t ma;
        int ea;
        const int neg = dfs_x_abs(s) ^ dfs_d_split(a, &ma, &ea);
        for (int w = 0; w < s->nw; w++)
            if (s->w[w])
                dfs_x_add(&x, neg, (dfs_u128)(uint64_t)s->w[w] * ma, s->lsb + 32 * w + ea);
    }
    *r = dfs_x_round(&x, zero_neg);
    return 1;
}

/* Words a complex output's dfs_x_zaxpby needs as scratch. */
#define DFS_X_ZSCRATCH (3 * DFS_X_WORDS)

/* One complex output, each part rounded once: out[0] = RN(Re(alpha S + beta c)) and out[1] =
 * RN(Im(alpha S + beta c)) for S = Sr + i Si, the exact sums held in sr and si with their
 * special flags fr and fi (an exact zero sum is +0), alpha, beta and c = c_re + i c_im:
 *     Re = ar Sr + (-ai) Si + br c_re + (-bi) c_im,   Im = ar Si + ai Sr + br c_im + bi c_re,
 * each by dfs_x_combine (IEEE results for Inf and NaN, term by term on the exact values).  A
 * term whose scalar part is zero is left out (alpha = 1: Re = RN(Sr) whatever Si holds, as a
 * real alpha gives it; no 0 * Inf), except alpha's two when alpha = 0 (S is then +0: they give
 * the zero terms' signs); beta = 0: no c terms (c_re, c_im not used).  scratch holds
 * DFS_X_ZSCRATCH words (copies of sr and si for the second part, and the sum).  sr and si are
 * destroyed.  out is written after everything is read (it may be where c came from). */
DFS_HD void dfs_x_zaxpby(dfs_xacc *sr, unsigned fr, dfs_xacc *si, unsigned fi,
                         const double alpha[2], const double beta[2], double c_re, double c_im,
                         int64_t *scratch, double out[2])
{
    dfs_xacc sr2 = *sr, si2 = *si;
    sr2.w = scratch;
    si2.w = scratch + DFS_X_WORDS;
    DFS_ROLLED
    for (int i = 0; i < sr->nw; i++)
        sr2.w[i] = sr->w[i];
    DFS_ROLLED
    for (int i = 0; i < si->nw; i++)
        si2.w[i] = si->w[i];
    const dfs_x_term re_all[4] = {{alpha[0], sr, fr, 0.0}, {-alpha[1], si, fi, 0.0},
                                  {beta[0], NULL, 0, c_re}, {-beta[1], NULL, 0, c_im}};
    const dfs_x_term im_all[4] = {{alpha[0], &si2, fi, 0.0}, {alpha[1], &sr2, fr, 0.0},
                                  {beta[0], NULL, 0, c_im}, {beta[1], NULL, 0, c_re}};
    const int alpha0 = alpha[0] == 0.0 && alpha[1] == 0.0;
    const int read_c = beta[0] != 0.0 || beta[1] != 0.0;
    dfs_x_term re[4], im[4];
    int nt = 0;
    for (int t = 0; t < (read_c ? 4 : 2); t++)
        if (re_all[t].coef != 0.0 || (t < 2 && alpha0)) {
            re[nt] = re_all[t];
            im[nt++] = im_all[t];
        }
    double vr, vi;
    dfs_x_combine(re, nt, scratch + 2 * DFS_X_WORDS, DFS_X_WORDS, &vr);
    dfs_x_combine(im, nt, scratch + 2 * DFS_X_WORDS, DFS_X_WORDS, &vi);
    out[0] = vr;
    out[1] = vi;
}

/* A complex output on the CPU from its parts' full accumulators sr and si (flags fr, fi):
 * their non-zero words only, as the GPU's finish takes them (dfs_x_trim), then dfs_x_zaxpby with
 * C's value read from out when beta is not zero; out written. */
DFS_HD void dfs_x_zfinish(const dfs_xacc *sr, unsigned fr, const dfs_xacc *si, unsigned fi,
                          const double alpha[2], const double beta[2], int64_t *scratch,
                          double out[2])
{
    const int read_c = beta[0] != 0.0 || beta[1] != 0.0;
    dfs_xacc tr = dfs_x_trim(sr), ti = dfs_x_trim(si);
    dfs_x_zaxpby(&tr, fr, &ti, fi, alpha, beta, read_c ? out[0] : 0.0, read_c ? out[1] : 0.0,
                 scratch, out);
}

#endif
