/* crt_check.h — the int8 engine's per-output contract (the mode `fast`), host and device alike:
 * every output of C = alpha op(A) op(B) + beta C it writes satisfies native FP64 DGEMM's own
 * guarantee (Higham, Accuracy and Stability, 2nd ed., section 3.5),
 *     |c^ - c| <= gamma_{k+2} (|alpha| S + |beta c0|) + (k + 4) 2^-1074 (|alpha| + 1),
 * gamma_j = j u / (1 - j u), u = 2^-53, S = sum_q |a_q b_q|, c0 = C's value before the call,
 * the last term gradual underflow.  The scheme II computes s = sum a_q b_q from the rows and
 * columns scaled to integers of bA and bB bits (crt.h); this header bounds that error per output
 * from the rows' norms and bits, bounds S from below (by the magnitude product, one more int8 GEMM
 * on the top 7 bits of each element, and by |s| itself), and says whether the output passes: its
 * error E (in the sum, before any rounding) within k u S.  The roundings that follow (the sum to binary64, alpha, beta: at most
 * 2u (|alpha| S + |beta c0|) to first order) fit the rest of gamma_{k+2}.  Outputs that do not
 * pass are recomputed in plain FP64 (the repair kernel), which meets the bound as native does.
 * README.md: "The fast contract". */
#ifndef DFS_OZ_CRT_CHECK_H
#define DFS_OZ_CRT_CHECK_H

#include "crt.h"

/* The magnitude plane: floor(|a| 2^(7 - tau)), in [0, 127] for |a| < 2^tau, 0 for a row of
 * zeros.  Their products summed over k < 2^17 fit int32 (127^2 2^17 < 2^31); the sum is at
 * most S 2^(14 - tauA - tauB): a lower bound of S, good where the elements sit near their row's
 * top, 0 where every product of the output is far below it. */
#define DFS_CRT_MAG_BITS 7
DFS_HD int dfs_crt_mag(double a, int tau)
{
    if (tau == DFS_OZ_NONE_TAU)
        return 0;
    uint64_t m;
    int e;
    dfs_d_split(a, &m, &e);
    const int sh = e + DFS_CRT_MAG_BITS - tau; /* |a| 2^(7 - tau) = m 2^sh < 2^7 */
    return sh <= -64 ? 0 : sh >= 0 ? (int)(m << sh) : (int)(m >> -sh);
}

/* A bound, in units of 2^(tauA + tauB), of |sum_q a_q b_q - 2^-(bA + bB) sum_q a~_q b~_q| for a
 * row and a column with l1 norms nA, nB (computed sums, dfs_oz_row_l1; every |element| < 1 in
 * these units) whose integers are truncated (rA = 0: a - a~ 2^-b below 2^-b and below |a|, a~
 * 2^-b at most |a|) or rounded to nearest (rA = 1, dfs_crt_rounds: a - a~ 2^-b at most 2^-(b+1)
 * and |a|, a~ 2^-b at most 2|a|): sum |a - a~| |b| <= min(m, dA nB), sum |a~| |b - b~| <= gA
 * min(m, dB nA), m = min(nA, nB) >= sum |a b|.  Times 1 + 2^-20 for the roundings of the norms
 * (k < 2^17 terms) and of this formula. */
DFS_HD double dfs_crt_fast_bound(int bA, int bB, int rA, int rB, double nA, double nB)
{
    const double m = nA < nB ? nA : nB;
    const double xa = dfs_d_mul(dfs_oz_pow2m(bA + rA), nB), xb = dfs_d_mul(dfs_oz_pow2m(bB + rB), nA);
    const double ea = m < xa ? m : xa, eb = m < xb ? m : xb;
    return dfs_d_mul(dfs_d_add(ea, rA ? dfs_d_add(eb, eb) : eb), 1.0 + 0x1p-20);
}

/* What the check of one output needs besides the bits, in units of 2^(tauA + tauB): the rows'
 * norms, and the right side k u S- + uf, with uf = k 2^-1074 2^-(tauA + tauB) the allowance for
 * underflow (+Inf when that exceeds binary64). */
typedef struct {
    double nA, nB, rhs, goal;
} dfs_crt_check;

/* The accuracy goal the moduli are chosen for (dfs_crt_fast_need): the bound within g u S-,
 * g = k / 16 (at least 1), where the contract (which the repair enforces) asks k u S-.  The
 * bound is a worst case over the signs and the truncations of k terms; on data of random signs
 * the error is far below it, yet measured on uniform data the moduli that just meet k u S- leave
 * it several times native FP64's; four bits more (about one modulus) bring it under native's, as
 * `fast` promises on narrow data (README.md, "Measurements"). */
DFS_HD double dfs_crt_goal_terms(int64_t k)
{
    return k >= 32 ? (double)(k >> 4) : 1.0;
}

/* k 2^(-1074 - t) as binary64 (t = tauA + tauB), 0 below its range, +Inf above. */
DFS_HD double dfs_crt_underflow_units(int64_t k, int t)
{
    const int e = -1074 - t; /* 2^e, times k < 2^17 */
    if (e > 1000)
        return 1.0 / 0.0;
    if (e < -1074)
        return 0.0;
    const double p = e >= -1022 ? dfs_d_from_bits((uint64_t)(e + 1023) << 52)
                                : dfs_d_from_bits((uint64_t)1 << (e + 1074));
    return dfs_d_mul((double)k, p);
}

/* The check's fixed parts for an output whose sum, computed with the bits taken, has the error
 * bound ecur (dfs_crt_fast_bound) and is sabs in magnitude (|X| 2^-(bA + bB), rounded): S- =
 * max(mag 2^-14, |s| from below), |s| >= sabs (1 - 2^-50) - ecur, mag the magnitude product (S >=
 * |s| always; the magnitudes bound S where the products cancel, |s| where a few large products
 * dominate). */
DFS_HD dfs_crt_check dfs_crt_check_init(int64_t k, int t, double nA, double nB, double sabs,
                                        int32_t mag, double ecur)
{
    dfs_crt_check c;
    c.nA = nA;
    c.nB = nB;
    const double sm = dfs_d_mul((double)mag, 0x1p-14);
    const double ss = dfs_d_sub(dfs_d_mul(sabs, 1.0 - 0x1p-50), ecur);
    const double slow = sm > ss ? sm : ss;
    /* k u S- rounded down (one rounding of a product of two numbers, less 2^-50 of it) */
    const double uf = dfs_crt_underflow_units(k, t);
    c.rhs = dfs_d_add(dfs_d_mul(dfs_d_mul((double)k * 0x1p-53, slow), 1.0 - 0x1p-50), uf);
    c.goal = dfs_d_add(dfs_d_mul(dfs_d_mul(dfs_crt_goal_terms(k) * 0x1p-53, slow), 1.0 - 0x1p-50),
                       uf);
    return c;
}

/* Whether the output's product, computed with bA and bB bits, meets the contract: its error
 * bound (with 2^-50 of it to spare for the roundings' second-order terms) within k u of the
 * lower bound of S, or within the underflow allowance. */
DFS_HD int dfs_crt_fast_within(const dfs_crt_check *c, int bA, int bB, double rhs)
{
    if (bA <= 0 || bB <= 0)
        return 0;
    const double e = dfs_crt_fast_bound(bA, bB, dfs_crt_rounds(1, bA), dfs_crt_rounds(1, bB),
                                        c->nA, c->nB);
    return dfs_d_mul(e, 1.0 + 0x1p-50) <= rhs;
}
/* The same with the bound for bA and bB bits already at hand (e = dfs_crt_fast_bound(bA, bB,
 * dfs_crt_rounds(1, bA), dfs_crt_rounds(1, bB), nA, nB): what dfs_crt_output_fast has). */
DFS_HD int dfs_crt_fast_ok(const dfs_crt_check *c, int bA, int bB, double e)
{
    return bA > 0 && bB > 0 && dfs_d_mul(e, 1.0 + 0x1p-50) <= c->rhs;
}

/* The fewest moduli (from lo to DFS_CRT_FAST_MODULI) with which the output's bound would meet the
 * goal (dfs_crt_goal_terms; it implies the contract), the rows' bits taken as dfs_crt_row_bits
 * gives them for that many (sA, sB: their sums of squares; Ln[n] = dfs_crt_bits(n), the step's
 * table), or DFS_CRT_FAST_MODULI + 1 when none would: for the next call's choice (the engine's
 * feedback). */
DFS_HD int dfs_crt_fast_need(const dfs_crt_check *c, const int *Ln, double sA, double sB,
                             int64_t k, int lo)
{
    const int nmax = DFS_CRT_FAST_MODULI;
    if (!dfs_crt_fast_within(c, dfs_crt_row_bits(Ln[nmax], sA, k),
                             dfs_crt_row_bits(Ln[nmax], sB, k), c->goal))
        return nmax + 1;
    int a = lo < 2 ? 2 : lo, b = nmax; /* passes at b; find the least */
    while (a < b) {
        const int mid = (a + b) / 2, L = Ln[mid];
        if (dfs_crt_fast_within(c, dfs_crt_row_bits(L, sA, k), dfs_crt_row_bits(L, sB, k),
                                c->goal))
            b = mid;
        else
            a = mid + 1;
    }
    return b;
}

#endif
