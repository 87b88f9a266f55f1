/* crt_zpair.h — one complex output of repro's ZGEMM with complex (or device) scalars by the
 * Ozaki scheme II, from the residue sums of a row pair: the body of the GPU's pair finish
 * (kernels_zpairs.cuh) and of the CPU twin (host_crt.c), host and device alike.
 *
 * The real representation by row pairs (../zreal/zreal.h, dfs_zr_gemm_pairs): row 2i of op(A)'
 * holds (Ar, -Ai) and row 2i+1 holds (Ai, Ar) of op(A)'s row i, q by q, against op(B)' = (Br;
 * Bi) q by q, so that output (2i, j) of the real product is Sr = Re S(i, j) and (2i+1, j) is Si,
 * each the exact sum of 2k products of binary64 values.  The two rows hold the same values up to
 * sign and order: the same top exponent, about the same norms and bits.  With X_p the exact
 * product of the truncated integers of part p (crt_finish.h) and E_p its truncation bound
 * (dfs_crt_bound, units 2^(ta_p + tb)), each part of
 *     Re = RN(ar Sr - ai Si + br cr - bi ci),   Im = RN(ar Si + ai Sr + br ci + bi cr)
 * is rounded once from the exact X's (wint.h's dfs_oz_w_combine_regs, both X's on one grid)
 * and kept where it cannot change for any S within the bounds: part q moves by less than
 * |a1| E_q + |a2| E_(1-q) (E_p = E_p 2^(ta_p + tb)), which must fit in its rounding's margin (as
 * steps.h's dfs_oz_decided; one more bit for the two terms).  With the inner dimension in two
 * groups (kgroups.h) each part comes from its larger group, the other bounded, as in the real
 * finish (dfs_crt_output's eo).  What it cannot decide, or
 * hold, goes to the exact way (the direct kernel's pairs; host_crt.c's exact_zoutput): a special
 * operand, alpha = 0, k = 0, non-finite scalars or c, terms too far apart for the registers, a
 * result near overflow, and a part that is an exact zero or rounds to one from just below
 * 2^-1075 (no margin: the sign of an exact zero is the exact way's). */
#ifndef DFS_OZ_CRT_ZPAIR_H
#define DFS_OZ_CRT_ZPAIR_H

#include "crt_finish.h"

/* What the pair finish needs of a row (or column): its top exponent, bits, l1 norm and the
 * bound of its sum of squares (dfs_oz_row_l2sq; the bits of fewer moduli). */
typedef struct {
    int tau, bits;
    double nrm, ss;
} dfs_crt_vrow;

/* X (nw words, two's complement) times 2^s into nr >= nw words (nr <= DFS_OZ_XW); 0 when it
 * would not fit. */
DFS_HD int dfs_crt_pair_shift(const uint64_t *x, int nw, int s, uint64_t *r, int nr)
{
    uint64_t m[DFS_OZ_XW], t[DFS_OZ_XW];
    const int neg = dfs_oz_w_abs(x, nw, m);
    DFS_UNROLLED
    for (int w = 0; w < DFS_OZ_XW; w++) {
        if (w >= nr)
            break;
        if (w >= nw)
            m[w] = 0;
        r[w] = 0;
    }
    const int top = dfs_oz_w_top(m, nr, 64 * nr);
    if (top >= 0 && top + s > 64 * nr - 3)
        return 0;
    dfs_oz_w_shl(m, nr, s, t, nr);
    dfs_oz_w_addsub(r, t, nr, neg);
    return 1;
}

/* The exponent x with part p's error below 2^x: its truncation E[p] (units 2^(ta[p] + tb[p]))
 * and the left-out part below 2^eo[p] (DFS_OZ_NO_EXP: none); 0 when it has no error. */
DFS_HD int dfs_crt_pair_err(const double *E, const int *ta, const int *tb, const int *eo, int p,
                            int *x)
{
    const int has_e = E[p] != 0, has_o = eo[p] != DFS_OZ_NO_EXP;
    const int xe = has_e ? ta[p] + tb[p] + dfs_oz_exp_up(E[p]) : 0;
    if (!has_e && !has_o)
        return 0;
    *x = !has_o ? xe : !has_e ? eo[p] : (xe > eo[p] ? xe : eo[p]) + 1;
    return 1;
}

/* Whether part q keeps its rounding (margin mg) for every S within the errors: part q = a1 S_q
 * + a2 S_(1-q) + ... moves by less than |a1| 2^x_q + |a2| 2^x_(1-q), each term below
 * 2^(ea + 53 + x) for a coefficient a = ma 2^ea (none for a zero coefficient), and terms left
 * out of the rounding below 2^slack (DFS_OZ_NO_EXP: none); two terms below twice the larger,
 * three below four times. */
DFS_HD int dfs_crt_pair_decided_part(const double *E, const int *ta, const int *tb,
                                     const int *eo, const double *alpha, int slack, int mg,
                                     int q)
{
    int x[2], has[2];
    DFS_UNROLLED
    for (int p = 0; p < 2; p++)
        has[p] = dfs_crt_pair_err(E, ta, tb, eo, p, &x[p]);
    int n = slack != DFS_OZ_NO_EXP, e = slack;
    DFS_UNROLLED
    for (int t = 0; t < 2; t++) { /* t = 0: a1 = Re alpha on S_q; 1: Im alpha on S_(1-q) */
        const int p = t ? 1 - q : q;
        if (!has[p] || alpha[t] == 0)
            continue;
        uint64_t ma;
        int ea;
        dfs_d_split(alpha[t], &ma, &ea);
        const int et = ea + 53 + x[p];
        e = n && e > et ? e : et;
        n++;
    }
    return !n || e + (n > 1) + (n > 2) <= mg;
}

/* Both parts (margins mg[0], mg[1]). */
DFS_HD int dfs_crt_pair_decided(const double *E, const int *ta, const int *tb, const int *eo,
                                const double *alpha, int slack, const int *mg)
{
    return dfs_crt_pair_decided_part(E, ta, tb, eo, alpha, slack, mg[0], 0) &&
           dfs_crt_pair_decided_part(E, ta, tb, eo, alpha, slack, mg[1], 1);
}

/* A margin that stands for "decided whatever the errors" (a part settled another way). */
#define DFS_CRT_SETTLED (1 << 28)

/* The bounds E[p] with rows of L bits of moduli (0: the step's rows, their bits). */
DFS_HD void dfs_crt_pair_bounds(const dfs_crt_step *st, int L, const dfs_crt_vrow *const *ra,
                                const dfs_crt_vrow *const *rb, double *E, int *ta, int *tb)
{
    DFS_UNROLLED
    for (int p = 0; p < 2; p++) {
        ta[p] = ra[p]->tau;
        tb[p] = rb[p]->tau;
        if (ra[p]->tau == DFS_OZ_NONE_TAU || rb[p]->tau == DFS_OZ_NONE_TAU) {
            E[p] = 0.0;
            continue;
        }
        const int bA = L ? dfs_crt_row_bits(L, ra[p]->ss, st->k) : ra[p]->bits;
        const int bB = L ? dfs_crt_row_bits(L, rb[p]->ss, st->k) : rb[p]->bits;
        E[p] = bA > 0 && bB > 0 ? dfs_crt_bound(bA, bB, ra[p]->nrm, rb[p]->nrm) : 1.0 / 0.0;
    }
}

/* Both parts of C's output: part p (0 Re, 1 Im, rows 2i and 2i+1) from its residue sums c[p]
 * (c[p][l * stride]), its row ra[p] and column rb[p] (with the inner dimension in two groups,
 * crt_finish.h's dfs_crt_group_pick: the part's larger group's, the other part of its sum below
 * 2^eo[p]; else DFS_OZ_NO_EXP); special: an operand holds Inf or NaN; alpha, beta the complex
 * scalars, cv C's value (not read when beta = 0).  DFS_OZ_WRITTEN with v[0] = Re and v[1] = Im,
 * else DFS_OZ_LISTED or DFS_OZ_UNDECIDED (C untouched: the exact way).  wide: more than
 * DFS_CRT_FAST_MODULI moduli (a constant in each GPU kernel).  *lower: one modulus fewer would
 * have left it undecided; *need: for an undecided output, the fewest moduli that would have
 * decided it with the same margins (an estimate, as dfs_crt_verify_need), else 0. */
DFS_HD int dfs_crt_output_pair(const dfs_crt_step *st, const int32_t *const *c, uint32_t stride,
                               const dfs_crt_vrow *const *ra, const dfs_crt_vrow *const *rb,
                               const int *eo, int special, const double *alpha,
                               const double *beta, const double *cv, const int wide, double *v,
                               int *lower, int *need)
{
    *lower = 0;
    *need = 0;
    if ((alpha[0] == 0 && alpha[1] == 0) || st->k == 0 || special)
        return DFS_OZ_LISTED;
    uint64_t x[2][DFS_OZ_XW];
    const int nx = wide ? DFS_OZ_XW : 4; /* X's words, one more than the narrow X's for a shift */
    int e[2], zero[2], lo = 0, any = 0;
    DFS_UNROLLED
    for (int p = 0; p < 2; p++) {
        zero[p] = ra[p]->tau == DFS_OZ_NONE_TAU || rb[p]->tau == DFS_OZ_NONE_TAU;
        e[p] = zero[p] ? 0 : ra[p]->tau + rb[p]->tau - ra[p]->bits - rb[p]->bits;
        if (!zero[p]) {
            lo = any && lo < e[p] ? lo : e[p];
            any = 1;
        }
    }
    DFS_UNROLLED
    for (int p = 0; p < 2; p++) {
        const int32_t *cp = c[p];
        uint64_t w[DFS_OZ_XW] = {0, 0, 0, 0, 0};
        int nw = 3;
        if (!zero[p] && wide) {
            dfs_oz_ix xi;
            dfs_crt_reconstruct_wide(&st->tab, cp, stride, &xi);
            for (int i = 0; i < DFS_OZ_XW; i++)
                w[i] = xi.w[i];
            nw = DFS_OZ_XW;
        } else if (!zero[p]) {
            dfs_oz_i192 x3;
            dfs_crt_reconstruct(&st->tab, cp, stride, &x3, 0);
            w[0] = x3.w[0], w[1] = x3.w[1], w[2] = x3.w[2];
        }
        /* both on the grid of 2^lo (a zero part is 0 on any grid), in nx words */
        if (!dfs_crt_pair_shift(w, nw, zero[p] ? 0 : e[p] - lo, x[p], nx))
            return DFS_OZ_LISTED;
    }
    int with_c = beta[0] != 0 || beta[1] != 0;
    if (with_c && !(dfs_d_is_finite(beta[0]) && dfs_d_is_finite(beta[1]) &&
                    dfs_d_is_finite(cv[0]) && dfs_d_is_finite(cv[1])))
        return DFS_OZ_LISTED; /* IEEE's results, and terms left out, the exact way's */
    /* alpha's terms and C's: when one side lies far below the other (beyond what the registers
     * hold together), it is left out of the rounding and bounded instead (the slack) */
    int slack = DFS_OZ_NO_EXP, drop_a = 0;
    {
        int hiA = DFS_OZ_NO_EXP, hiC = DFS_OZ_NO_EXP;
        DFS_UNROLLED
        for (int p = 0; p < 2; p++) {
            uint64_t mg[DFS_OZ_XW], ma;
            int ea;
            dfs_oz_w_abs(x[p], nx, mg);
            const int top = dfs_oz_w_top(mg, nx, 64 * nx);
            DFS_UNROLLED
            for (int t = 0; t < 2 && top >= 0; t++)
                if (alpha[t] != 0 && dfs_d_is_finite(alpha[t])) {
                    dfs_d_split(alpha[t], &ma, &ea);
                    const int h = ea + 53 + lo + top + 1; /* |a X 2^lo| < 2^h */
                    hiA = hiA > h ? hiA : h;
                }
        }
        DFS_UNROLLED
        for (int t = 0; with_c && t < 4; t++) { /* beta's part t / 2 times c's part t % 2 */
            const double b = beta[t / 2], y = cv[t % 2];
            uint64_t mb, my;
            int eb, ey;
            if (b == 0 || y == 0)
                continue;
            dfs_d_split(b, &mb, &eb);
            dfs_d_split(y, &my, &ey);
            hiC = hiC > eb + ey + 106 ? hiC : eb + ey + 106; /* |b y| < 2^(eb + ey + 106) */
        }
        const int far = 64 * nx - 64; /* well inside combine's room */
        if (hiA != DFS_OZ_NO_EXP && hiC != DFS_OZ_NO_EXP && hiA - hiC > far) {
            with_c = 0;
            slack = hiC + 1;
        } else if (hiA != DFS_OZ_NO_EXP && hiC != DFS_OZ_NO_EXP && hiC - hiA > far) {
            drop_a = 1;
            slack = hiA + 1;
        }
    }
    double E[2];
    int ta[2], tb[2];
    dfs_crt_pair_bounds(st, 0, ra, rb, E, ta, tb);
    int margin[2];
    DFS_UNROLLED
    for (int q = 0; q < 2; q++) { /* part q: a1 S_q + a2 S_(1-q) + b1 c_q + b2 c_(1-q) */
        const double a2 = q ? alpha[1] : -alpha[1], b2 = q ? beta[1] : -beta[1];
        if (!dfs_oz_w_combine_regs(x[q], x[1 - q], nx, lo, drop_a ? 0.0 : alpha[0],
                                   drop_a ? 0.0 : a2, with_c, beta[0], with_c ? cv[q] : 0.0, b2,
                                   with_c ? cv[1 - q] : 0.0, &v[q], &margin[q]))
            return DFS_OZ_LISTED;
        if (v[q] == 0 && margin[q] == DFS_X_NO_MARGIN)
            return DFS_OZ_LISTED; /* an exact zero: its sign is the exact way's */
        if (drop_a && margin[q] == DFS_X_NO_MARGIN) {
            /* C's terms alone lie on a tie (dfs_oz_w_round gives no margin else), alpha's far
             * below it: the side it rounds to is the sign of alpha's terms where that is sure
             * (their own rounding decided and not an exact zero), the result C's terms plus any
             * value of that sign below their lowest bit (here 2^(lsb-2)).  Between the tie and
             * its next grid point there is no other rounding boundary. */
            uint64_t one[DFS_OZ_XW] = {1, 0, 0, 0, 0}, m;
            int lsb = 0, any_c = 0, mA;
            double vA;
            for (int t = 0; t < 2; t++) {
                const double b = t ? b2 : beta[0], y = t ? cv[1 - q] : cv[q];
                if (b == 0 || y == 0)
                    continue;
                int eb, ey;
                dfs_d_split(b, &m, &eb);
                dfs_d_split(y, &m, &ey);
                lsb = any_c && lsb < eb + ey ? lsb : eb + ey;
                any_c = 1;
            }
            if (!any_c || slack >= lsb - 4 ||
                !dfs_oz_w_combine_regs(x[q], x[1 - q], nx, lo, alpha[0], a2, 0, 0.0, 0.0, 0.0,
                                       0.0, &vA, &mA) ||
                (vA == 0 && mA == DFS_X_NO_MARGIN) ||
                !dfs_crt_pair_decided_part(E, ta, tb, eo, alpha, DFS_OZ_NO_EXP, mA, q))
                return DFS_OZ_LISTED;
            const double side = (dfs_d_bits(vA) >> 63) ? -1.0 : 1.0;
            if (!dfs_oz_w_combine_regs(one, x[1 - q], nx, lsb - 2, side, 0.0, 1, beta[0], cv[q],
                                       b2, cv[1 - q], &v[q], &margin[q]))
                return DFS_OZ_LISTED;
            margin[q] = DFS_CRT_SETTLED;
        }
    }
    if (!dfs_crt_pair_decided(E, ta, tb, eo, alpha, slack, margin)) {
        *need = DFS_CRT_MODULI + 1;
        for (int n = st->tab.n + 1; n <= DFS_CRT_MODULI; n++) {
            dfs_crt_pair_bounds(st, st->Ln[n], ra, rb, E, ta, tb);
            if (dfs_crt_pair_decided(E, ta, tb, eo, alpha, slack, margin)) {
                *need = n;
                break;
            }
        }
        return DFS_OZ_UNDECIDED;
    }
    if (st->lower_L > 0) {
        dfs_crt_pair_bounds(st, st->lower_L, ra, rb, E, ta, tb);
        *lower = !dfs_crt_pair_decided(E, ta, tb, eo, alpha, slack, margin);
    }
    return DFS_OZ_WRITTEN;
}

#endif
