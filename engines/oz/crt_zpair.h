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
 * and kept where it cannot change for any S within the bounds: the part moves by at most
 * |a1| E_1 + |a2| E_2 <= 2 max(|ar|, |ai|) max_p(E_p 2^(ta_p + tb)), which must fit in the
 * rounding's margin (steps.h's dfs_oz_decided, with one more bit).  What it cannot decide, or
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

/* X (nw words, two's complement) times 2^s into DFS_OZ_XW words; 0 when it would not fit. */
DFS_HD int dfs_crt_pair_shift(const uint64_t *x, int nw, int s, uint64_t *r)
{
    uint64_t m[DFS_OZ_XW], t[DFS_OZ_XW];
    const int neg = dfs_oz_w_abs(x, nw, m);
    DFS_UNROLLED
    for (int w = 0; w < DFS_OZ_XW; w++) {
        if (w >= nw)
            m[w] = 0;
        r[w] = 0;
    }
    const int top = dfs_oz_w_top(m, DFS_OZ_XW, 64 * DFS_OZ_XW);
    if (top >= 0 && top + s > 64 * DFS_OZ_XW - 3)
        return 0;
    dfs_oz_w_shl(m, DFS_OZ_XW, s, t, DFS_OZ_XW);
    dfs_oz_w_addsub(r, t, DFS_OZ_XW, neg);
    return 1;
}

/* Whether parts with truncation bounds E[p] (units 2^(ta[p] + tb)) leave a result of this
 * margin unchanged for coefficients of at most 2^(ea + 53) in magnitude. */
DFS_HD int dfs_crt_pair_decided(const double *E, const int *ta, int tb, int ea, int margin)
{
    int any = 0, e = 0;
    for (int p = 0; p < 2; p++)
        if (E[p] != 0) {
            const int ep = ta[p] + tb + dfs_oz_exp_up(E[p]);
            e = any && e > ep ? e : ep;
            any = 1;
        }
    return !any || e + 1 + ea + 53 <= margin;
}

/* The bounds E[p] with rows of La bits of moduli (0: the step's rows, bA[p] and bB bits). */
DFS_HD void dfs_crt_pair_bounds(const dfs_crt_step *st, int L, const dfs_crt_vrow *const *ra,
                                const dfs_crt_vrow *rb, double *E, int *ta)
{
    for (int p = 0; p < 2; p++) {
        ta[p] = ra[p]->tau;
        if (ra[p]->tau == DFS_OZ_NONE_TAU || rb->tau == DFS_OZ_NONE_TAU) {
            E[p] = 0.0;
            continue;
        }
        const int bA = L ? dfs_crt_row_bits(L, ra[p]->ss, st->k) : ra[p]->bits;
        const int bB = L ? dfs_crt_row_bits(L, rb->ss, st->k) : rb->bits;
        E[p] = bA > 0 && bB > 0 ? dfs_crt_bound(bA, bB, ra[p]->nrm, rb->nrm) : 1.0 / 0.0;
    }
}

/* Both parts of C's output from the residue sums of rows 2i (c0[l * stride]) and 2i+1 (c1) of
 * one column (rb), their rows ra0 and ra1; special: an operand holds Inf or NaN; alpha, beta
 * the complex scalars, cv C's value (not read when beta = 0).  DFS_OZ_WRITTEN with v[0] = Re and
 * v[1] = Im, else DFS_OZ_LISTED or DFS_OZ_UNDECIDED (C untouched: the exact way).  wide: more
 * than DFS_CRT_FAST_MODULI moduli (a constant in each GPU kernel).  *lower: one modulus fewer
 * would have left it undecided; *need: for an undecided output, the fewest moduli that would
 * have decided it with the same margins (an estimate, as dfs_crt_verify_need), else 0. */
DFS_HD int dfs_crt_output_pair(const dfs_crt_step *st, const int32_t *c0, const int32_t *c1,
                               uint32_t stride, const dfs_crt_vrow *ra0, const dfs_crt_vrow *ra1,
                               const dfs_crt_vrow *rb, int special, const double *alpha,
                               const double *beta, const double *cv, const int wide, double *v,
                               int *lower, int *need)
{
    *lower = 0;
    *need = 0;
    if ((alpha[0] == 0 && alpha[1] == 0) || st->k == 0 || special)
        return DFS_OZ_LISTED;
    const dfs_crt_vrow *ra[2] = {ra0, ra1};
    uint64_t x[2][DFS_OZ_XW];
    int e[2], zero[2], lo = 0, any = 0;
    for (int p = 0; p < 2; p++) {
        zero[p] = ra[p]->tau == DFS_OZ_NONE_TAU || rb->tau == DFS_OZ_NONE_TAU;
        e[p] = zero[p] ? 0 : ra[p]->tau + rb->tau - ra[p]->bits - rb->bits;
        if (!zero[p]) {
            lo = any && lo < e[p] ? lo : e[p];
            any = 1;
        }
    }
    for (int p = 0; p < 2; p++) {
        const int32_t *cp = p ? c1 : c0;
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
        /* both on the grid of 2^lo (a zero part is 0 on any grid) */
        if (!dfs_crt_pair_shift(w, nw, zero[p] ? 0 : e[p] - lo, x[p]))
            return DFS_OZ_LISTED;
    }
    const int with_c = beta[0] != 0 || beta[1] != 0;
    const double a0 = alpha[0] < 0 ? -alpha[0] : alpha[0], a1 = alpha[1] < 0 ? -alpha[1] : alpha[1];
    const double amag = a0 > a1 ? a0 : a1;
    uint64_t ma;
    int ea;
    dfs_d_split(amag, &ma, &ea);
    int margin[2];
    for (int q = 0; q < 2; q++) { /* part q: a1 S_q + a2 S_(1-q) + b1 c_q + b2 c_(1-q) */
        const double a2 = q ? alpha[1] : -alpha[1], b2 = q ? beta[1] : -beta[1];
        if (!dfs_oz_w_combine_regs(x[q], x[1 - q], DFS_OZ_XW, lo, alpha[0], a2, with_c, beta[0],
                                   with_c ? cv[q] : 0.0, b2, with_c ? cv[1 - q] : 0.0, &v[q],
                                   &margin[q]))
            return DFS_OZ_LISTED;
        if (v[q] == 0 && margin[q] == DFS_X_NO_MARGIN)
            return DFS_OZ_LISTED; /* an exact zero: its sign is the exact way's */
    }
    const int mg = margin[0] < margin[1] ? margin[0] : margin[1];
    double E[2];
    int ta[2];
    dfs_crt_pair_bounds(st, 0, ra, rb, E, ta);
    if (!dfs_crt_pair_decided(E, ta, rb->tau, ea, mg)) {
        *need = DFS_CRT_MODULI + 1;
        for (int n = st->tab.n + 1; n <= DFS_CRT_MODULI; n++) {
            dfs_crt_pair_bounds(st, st->Ln[n], ra, rb, E, ta);
            if (dfs_crt_pair_decided(E, ta, rb->tau, ea, mg)) {
                *need = n;
                break;
            }
        }
        return DFS_OZ_UNDECIDED;
    }
    if (st->lower_L > 0) {
        dfs_crt_pair_bounds(st, st->lower_L, ra, rb, E, ta);
        *lower = !dfs_crt_pair_decided(E, ta, rb->tau, ea, mg);
    }
    return DFS_OZ_WRITTEN;
}

#endif
