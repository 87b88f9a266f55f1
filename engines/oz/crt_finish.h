/* crt_finish.h — one output of the DGEMM by the Ozaki scheme II (crt.h) from its residues: the
 * body of the GPU finish kernel (kernels.cu) and of the CPU twin (host_crt.c), host and
 * device alike, so that both give the same bits in both modes:
 *   fast    C = alpha RN(X 2^e0) + beta C (fma), X the exact product of the rounded or
 *           truncated row and column, where that meets the int8 engine's contract
 *           (crt_check.h), else left to the repair (README.md: the fast contract);
 *   verify  C = RN(alpha S + beta C) for the exact S, or the output goes direct: the truncation
 *           bounded (dfs_crt_bound) against the rounding margin, as in the scheme-I finish. */
#ifndef DFS_OZ_CRT_FINISH_H
#define DFS_OZ_CRT_FINISH_H

#include "crt.h"
#include "crt_check.h"

#if !defined(__CUDACC__)
#include <math.h> /* scalbn (exact) */
#endif

/* RN(X 2^e0) in binary64, from the top 64 bits of |X| with a sticky bit (one rounding, then an
 * exact scaling; results in the subnormal range are rounded twice, the same way on the CPU
 * and the GPU).  Written without indexing or loops over words, for registers. */
DFS_HD double dfs_crt_to_double(const dfs_oz_i192 *x, int e0)
{
    const int neg = (int)(x->w[2] >> 63);
    uint64_t w0 = x->w[0], w1 = x->w[1], w2 = x->w[2];
    if (neg) { /* |X|: two's complement negation */
        w0 = ~w0 + 1;
        const uint64_t c1 = w0 == 0;
        w1 = ~w1 + c1;
        const uint64_t c2 = c1 && w1 == 0;
        w2 = ~w2 + c2;
    }
    /* the top word and the two below it */
    int base = 128;
    if (w2 == 0) {
        w2 = w1;
        w1 = w0;
        w0 = 0;
        base = 64;
        if (w2 == 0) {
            w2 = w1;
            w1 = 0;
            base = 0;
        }
    }
    if (w2 == 0)
        return 0.0;
    const int z = dfs_clz64(w2);
    const uint64_t top = z ? w2 << z | w1 >> (64 - z) : w2;
    const uint64_t rest = (z ? w1 << z : w1) | w0;
#if defined(__CUDA_ARCH__)
    double r = __ull2double_rn(top | (rest != 0));
#else
    double r = (double)(top | (rest != 0)); /* 64 bits, sticky below the rounding bit */
#endif
    /* r 2^s, r in [2^63, 2^64]: a multiplication by the normal 2^s when the result is normal
     * (exact, what scalbn gives), scalbn itself near the ends of the range */
    const int s = e0 + base - z;
    if (s >= -1022 && s <= 1023 - 64)
        r = dfs_d_mul(r, dfs_d_from_bits((uint64_t)(s + 1023) << 52));
    else
        r = scalbn(r, s);
    return neg ? -r : r;
}

/* alpha s + beta cv as the int8 engine and its repair write it (cv not read when beta = 0). */
DFS_HD double dfs_crt_axpby(double alpha, double s, double beta, double cv)
{
    if (beta == 0)
        return alpha == 1 ? s : dfs_d_mul(alpha, s);
    return dfs_d_fma(alpha, s, dfs_d_mul(beta, cv));
}

/* What the fast finish needs of a row (or column) besides its top exponent and bits: its l1
 * norm, its sum of squares (for the moduli it would need), whether it holds Inf or NaN. */
typedef struct {
    int tau, bits, special;
    double nrm, ss;
} dfs_crt_rowinfo;

/* The int8 engine's output (fast) from residue sums c[l * stride] (the magnitude product after
 * the moduli, at c[n * stride], n = nfix or the table's; nfix: dfs_crt_reconstruct; the GPU
 * passes its registers, stride 1) of a row and a column: *v = alpha
 * RN(X 2^e0) + beta cv (dfs_crt_axpby; cv not read when beta = 0) and DFS_OZ_WRITTEN when the
 * output meets the contract (crt_check.h), DFS_OZ_UNDECIDED when it does not (C untouched: the
 * repair recomputes it), DFS_OZ_LISTED when an operand holds Inf or NaN (the direct path).  With
 * want_need, *need = the moduli it would need (dfs_crt_fast_need; 0: not asked). */
DFS_HD int dfs_crt_output_fast(const dfs_crt_step *st, const int nfix, const int32_t *c,
                               uint32_t stride, const dfs_crt_rowinfo *ra,
                               const dfs_crt_rowinfo *rb, double alpha, double beta, double cv,
                               int want_need, double *v, int *need)
{
    *need = 0;
    if (alpha == 0 || st->k == 0) { /* C = beta C, as cuBLAS: A and B not read */
        *v = beta != 0 ? dfs_d_mul(beta, cv) : 0.0;
        return DFS_OZ_WRITTEN;
    }
    if (ra->special || rb->special)
        return DFS_OZ_LISTED;
    double s = 0.0;
    if (ra->tau != DFS_OZ_NONE_TAU && rb->tau != DFS_OZ_NONE_TAU) {
        dfs_oz_i192 x;
        dfs_crt_reconstruct(&st->tab, c, stride, &x, nfix);
        s = dfs_crt_to_double(&x, ra->tau + rb->tau - ra->bits - rb->bits);
        const double su = dfs_crt_to_double(&x, -ra->bits - rb->bits), sabs = su < 0 ? -su : su;
        const double ecur =
            ra->bits > 0 && rb->bits > 0
                ? dfs_crt_fast_bound(ra->bits, rb->bits, dfs_crt_rounds(1, ra->bits),
                                     dfs_crt_rounds(1, rb->bits), ra->nrm, rb->nrm)
                : 1.0 / 0.0;
        const dfs_crt_check ck = dfs_crt_check_init(st->k, ra->tau + rb->tau, ra->nrm, rb->nrm,
                                                    sabs, c[(uint32_t)(nfix ? nfix : st->tab.n) * stride],
                                                    ecur);
        const int ok = dfs_crt_fast_ok(&ck, ra->bits, rb->bits, ecur);
        if (want_need || !ok)
            *need = dfs_crt_fast_need(&ck, st->Ln, ra->ss, rb->ss, st->k, ok ? 2 : st->tab.n + 1);
        if (!ok)
            return DFS_OZ_UNDECIDED;
    }
    *v = dfs_crt_axpby(alpha, s, beta, cv);
    return DFS_OZ_WRITTEN;
}

/* The inner dimension in two groups (crt_gemm.c, kgroups): an output's sum is S0 + S1, each
 * group's part from its own rows' scales.  The exponent e with |S_g| < 2^e for a part whose row
 * and column have top exponents ta, tb and l1 norms nA, nB in those units (|S_g| <= min(nA, nB),
 * doubled for the norms' roundings), or DFS_OZ_NO_EXP when the part is zero (a row or column of
 * zeros in the group). */
DFS_HD int dfs_crt_group_exp(int ta, int tb, double nA, double nB)
{
    if (ta == DFS_OZ_NONE_TAU || tb == DFS_OZ_NONE_TAU)
        return DFS_OZ_NO_EXP;
    const double m = nA < nB ? nA : nB;
    return ta + tb + (m > 0 ? dfs_oz_exp_up(dfs_d_add(m, m)) : 0);
}

/* The group whose part of an output is the larger by its exponent (e0, e1: dfs_crt_group_exp;
 * group 0 on a tie), and in *eo the other's. */
DFS_HD int dfs_crt_group_pick(int e0, int e1, int *eo)
{
    *eo = e1 > e0 ? e0 : e1;
    return e1 > e0;
}

/* For an output that st->tab.n moduli left undecided with this margin: the fewest moduli, from
 * st->tab.n + 1 to DFS_CRT_MODULI, whose rows' bits (dfs_crt_row_bits) would have decided it
 * with the same margin, or DFS_CRT_MODULI + 1 when none would.  The margin of the result with
 * more bits may differ a little; an estimate for the next call's moduli (feedback.h), never for
 * a result. */
DFS_HD int dfs_crt_verify_need(const dfs_crt_step *st, int ta, int tb, double nA, double nB,
                               double sA, double sB, int eo, double alpha, int margin)
{
    for (int n = st->tab.n + 1; n <= DFS_CRT_MODULI; n++) {
        const int L = st->Ln[n], b1 = dfs_crt_row_bits(L, sA, st->k),
                  b2 = dfs_crt_row_bits(L, sB, st->k);
        if (b1 > 0 && b2 > 0 &&
            dfs_oz_decided2(dfs_crt_bound(b1, b2, nA, nB), ta, tb, eo, alpha, margin))
            return n;
    }
    return DFS_CRT_MODULI + 1;
}

/* Output with residue sums c[l * stride] of a row and a column with top exponents ta, tb,
 * truncated to bA = dfs_crt_row_bits(st->L, sA, k) and bB bits (nA, nB: their l1 norms,
 * dfs_oz_row_l1; sA, sB: their sums of squares, dfs_oz_row_l2sq; read in verify only),
 * special: either holds Inf or NaN.  alpha, beta, cv (C's
 * value; not read when beta = 0).  DFS_OZ_WRITTEN with *v, or DFS_OZ_LISTED (special values, or
 * alpha S + beta C beyond the window), or DFS_OZ_UNDECIDED (verify: the truncation could change
 * the rounding).  *lower (written): one modulus
 * fewer would have left it undecided.  win, res: DFS_OZ_WIN and DFS_OZ_RWIN words (verify
 * only).  wide: the table has more than DFS_CRT_FAST_MODULI moduli (X in five words; a
 * constant in each GPU kernel, so the narrow one keeps its registers).  nfix: 0, or (narrow
 * only) st->tab.n as a constant where inlined (dfs_crt_reconstruct).  *need (written):
 * for an undecided output, the fewest moduli that would have decided it with the same
 * margin (dfs_crt_verify_need), else 0.  eo: with the inner dimension in two groups, these
 * are the larger part's (crt_gemm.c), and the other part of the sum is below 2^eo
 * (dfs_crt_group_exp; DFS_OZ_NO_EXP: zero, or one group): it is left out like the truncation. */
DFS_HD int dfs_crt_output(const dfs_crt_step *st, const int32_t *c, uint32_t stride, int ta,
                          int tb, int bA, int bB, double nA, double nB, double sA, double sB,
                          int eo, int special, double alpha, double beta, double cv,
                          int64_t *win, int64_t *res, double *v, int *lower, const int wide,
                          const int nfix, int *need)
{
    *lower = 0;
    *need = 0;
    if (alpha == 0 || st->k == 0) { /* C = beta C, as cuBLAS: A and B not read */
        *v = beta != 0 ? dfs_d_mul(beta, cv) : 0.0;
        return DFS_OZ_WRITTEN;
    }
    if (special)
        return DFS_OZ_LISTED;
    dfs_oz_ix x = {{0, 0, 0, 0, 0}};
    const int nxw = wide ? DFS_OZ_XW : 3;
    const int zero = ta == DFS_OZ_NONE_TAU || tb == DFS_OZ_NONE_TAU;
    if (!zero) {
        if (wide) {
            dfs_crt_reconstruct_wide(&st->tab, c, stride, &x);
        } else {
            dfs_oz_i192 x3;
            dfs_crt_reconstruct(&st->tab, c, stride, &x3, nfix);
            x.w[0] = x3.w[0], x.w[1] = x3.w[1], x.w[2] = x3.w[2];
        }
    }
    const int e0 = zero ? 0 : ta + tb - bA - bB;
    int margin;
    if (!dfs_oz_w_axpby(x.w, nxw, e0, alpha, beta, cv, win, DFS_OZ_WIN, e0, res, DFS_OZ_RWIN, v,
                        &margin))
        return DFS_OZ_LISTED;
    if (zero && eo == DFS_OZ_NO_EXP)
        return DFS_OZ_WRITTEN; /* exact: nothing was truncated */
    if (zero) /* the other part alone left out (a part never exceeds the larger one) */
        return dfs_oz_decided2(0.0, 0, 0, eo, alpha, margin) ? DFS_OZ_WRITTEN : DFS_OZ_UNDECIDED;
    if (!dfs_oz_decided2(dfs_crt_bound(bA, bB, nA, nB), ta, tb, eo, alpha, margin)) {
        *need = dfs_crt_verify_need(st, ta, tb, nA, nB, sA, sB, eo, alpha, margin);
        return DFS_OZ_UNDECIDED;
    }
    if (st->lower_L > 0) {
        const int lA = dfs_crt_row_bits(st->lower_L, sA, st->k),
                  lB = dfs_crt_row_bits(st->lower_L, sB, st->k);
        *lower = lA == 0 || lB == 0 ||
                 !dfs_oz_decided2(dfs_crt_bound(lA, lB, nA, nB), ta, tb, eo, alpha, margin);
    }
    return DFS_OZ_WRITTEN;
}

#endif
