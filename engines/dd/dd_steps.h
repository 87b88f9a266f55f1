/* dd_steps.h — the dd mode's arithmetic and its summation order, shared by the kernels
 * (kernels.cu) and the CPU implementation (host.c), so that both compute the same bits.
 *
 * Every output is alpha * S + beta * c, S = sum over q of a_q b_q.  Each product is split exactly
 * by TwoProd and added to a double-double (DD) sum with AccurateDWPlusDW (22 binary64 operations
 * per term); alpha * S is taken with DWTimesDW3, beta * c by TwoProd, the two added accurately
 * and the DD rounded once to binary64.  The sum's error is a few u^2 (u = 2^-53) per term times
 * the sum of |a_q b_q|, so the result is RN(exact) but for near ties or sums cancelling to below
 * about 2^-50 of sum |a_q b_q|.
 *
 * Beside the DD sum runs a plain binary64 sum of the same terms in the same order (fma): when the
 * DD result is not finite (an Inf or NaN operand, or a partial sum beyond binary64's range) the
 * output is the plain one, alpha * plain + beta * c: IEEE's kinds as native cuBLAS gives them.
 *
 * The order (the same on every run and every GPU, so the bits are):
 *   - the q range is cut into chunks of `chunk` consecutive terms (the last shorter);
 *   - in a chunk, `lanes` (a power of two) lanes: lane l sums terms l, l + lanes, ... of the
 *     chunk, each from zero; then the lanes are merged as a tree: for s = lanes/2 .. 1, lane l < s
 *     takes merge(lane l, lane l + s);
 *   - the chunks' sums are merged by `mlanes` lanes (DOT 256, GEMV 32): lane t merges chunks
 *     t, t + mlanes, ... into zero in order, then the lanes' tree as above; a GEMV of one chunk
 *     takes merge(zero, the chunk's sum) instead;
 *   - DGEMM: one chunk, one lane (q from 0 to k-1), and its plain sum only recomputed when the DD
 *     result is not finite.
 * The chunk and lane counts are functions of the shape alone (dfs_dd_dot_plan, dfs_dd_gemv_plan,
 * with tuning.h's numbers). */
#ifndef DFS_DD_STEPS_H
#define DFS_DD_STEPS_H

#include "../common/dd.h"
#include "tuning.h"

#include <stdint.h>

/* A DD sum and its plain binary64 twin. */
typedef struct {
    dfs_dd s;
    double p;
} dfs_dda;

DFS_HD dfs_dda dfs_dda_zero(void)
{
    dfs_dda a;
    a.s = dfs_dd_make(0.0, 0.0);
    a.p = 0.0;
    return a;
}

/* s + x*y: TwoProd, then AccurateDWPlusDW (22 operations). */
DFS_HD dfs_dd dfs_dd_mad_d(dfs_dd s, double x, double y)
{
    double e, p = dfs_d_two_prod(x, y, &e);
    return dfs_dd_add_accurate(s, dfs_dd_make(p, e));
}

DFS_HD dfs_dda dfs_dda_mad(dfs_dda a, double x, double y)
{
    a.s = dfs_dd_mad_d(a.s, x, y);
    a.p = dfs_d_fma(x, y, a.p);
    return a;
}

DFS_HD dfs_dda dfs_dda_merge(dfs_dda a, dfs_dda b)
{
    a.s = dfs_dd_add_accurate(a.s, b.s);
    a.p = dfs_d_add(a.p, b.p);
    return a;
}

DFS_HD int dfs_dd_finite(double x)
{
    return ((dfs_d_bits(x) >> 52) & 0x7ff) != 0x7ff;
}

/* *out = RN(alpha * s + beta * c) from the DD sum (beta == 0: c not used; alpha == 0: s not
 * used); 0 when that is not finite: then the plain sum decides (dfs_dd_finish_plain). */
DFS_HD int dfs_dd_finish(dfs_dd s, double alpha, double beta, double c, double *out)
{
    double bc_lo = 0.0, bc = beta != 0.0 ? dfs_d_two_prod(beta, c, &bc_lo) : 0.0;
    if (!dfs_dd_finite(alpha) || !dfs_dd_finite(bc) || !dfs_dd_finite(bc_lo))
        return 0;
    dfs_dd r = dfs_dd_make(0.0, 0.0);
    if (alpha != 0.0) {
        if (!dfs_dd_finite(s.hi) || !dfs_dd_finite(s.lo))
            return 0;
        r = dfs_dd_mul_accurate(dfs_dd_make(alpha, 0.0), s);
    }
    if (beta != 0.0)
        r = dfs_dd_add_accurate(r, dfs_dd_make(bc, bc_lo));
    const double v = dfs_dd_to_double(r);
    if (!dfs_dd_finite(r.hi) || !dfs_dd_finite(r.lo) || !dfs_dd_finite(v))
        return 0;
    *out = v;
    return 1;
}

/* One part of a complex output from its DD sums: *out = RN(a1 s1 + a2 s2 + b1 y1 + b2 y2), each
 * product with a double exact to DD accuracy (DWTimesDW3 for the sums, TwoProd for the others),
 * added in this order by AccurateDWPlusDW and rounded once.  Re(alpha S + beta c) is (ar, sr) +
 * (-ai, si) + (br, cr) + (-bi, ci), Im is (ar, si) + (ai, sr) + (br, ci) + (bi, cr).  A zero
 * coefficient's term is left out (alpha = 0: the sums are not used; beta = 0: C is not read).
 * 0 when something is not finite: then the plain sums decide (dfs_dd_finish_plain_z). */
DFS_HD int dfs_dd_finish_z(dfs_dd s1, dfs_dd s2, double a1, double a2, double b1, double y1,
                           double b2, double y2, double *out)
{
    const dfs_dd s[2] = {s1, s2};
    const double a[2] = {a1, a2}, b[2] = {b1, b2}, y[2] = {y1, y2};
    dfs_dd r = dfs_dd_make(0.0, 0.0);
    for (int i = 0; i < 2; i++) {
        if (!dfs_dd_finite(a[i]))
            return 0;
        if (a[i] == 0.0)
            continue;
        if (!dfs_dd_finite(s[i].hi) || !dfs_dd_finite(s[i].lo))
            return 0;
        r = dfs_dd_add_accurate(r, dfs_dd_mul_accurate(dfs_dd_make(a[i], 0.0), s[i]));
    }
    for (int i = 0; i < 2; i++) {
        if (b[i] == 0.0)
            continue;
        double lo, hi = dfs_d_two_prod(b[i], y[i], &lo);
        if (!dfs_dd_finite(hi) || !dfs_dd_finite(lo))
            return 0;
        r = dfs_dd_add_accurate(r, dfs_dd_make(hi, lo));
    }
    const double v = dfs_dd_to_double(r);
    if (!dfs_dd_finite(r.hi) || !dfs_dd_finite(r.lo) || !dfs_dd_finite(v))
        return 0;
    *out = v;
    return 1;
}

/* The same part in binary64 from the plain sums p1, p2, in the same order, as native; a term
 * whose coefficient is zero left out, as above (no 0 * Inf), but a1 p1 when every one is. */
DFS_HD double dfs_dd_finish_plain_z(double p1, double p2, double a1, double a2, double b1,
                                    double y1, double b2, double y2)
{
    double r = a1 != 0.0 || a2 == 0.0 ? dfs_d_mul(a1, p1) : dfs_d_mul(a2, p2);
    if (a1 != 0.0 && a2 != 0.0)
        r = dfs_d_add(r, dfs_d_mul(a2, p2));
    if (b1 != 0.0)
        r = dfs_d_add(r, dfs_d_mul(b1, y1));
    if (b2 != 0.0)
        r = dfs_d_add(r, dfs_d_mul(b2, y2));
    return r;
}

/* alpha * p + beta * c in binary64, as native (beta == 0: c not used). */
DFS_HD double dfs_dd_finish_plain(double p, double alpha, double beta, double c)
{
    const double ap = dfs_d_mul(alpha, p);
    return beta != 0.0 ? dfs_d_add(ap, dfs_d_mul(beta, c)) : ap;
}

/* ---------- the summation order: functions of the shape alone ---------- */

typedef struct {
    int64_t chunk;   /* terms per chunk (a multiple of lanes) */
    int64_t nchunks; /* chunks (>= 1) */
    int lanes;       /* lanes per chunk, a power of two */
} dfs_dd_plan;

/* Fixed by the kernels' code; the plans' tuning numbers (chunk counts, terms per lane) are
 * tuning.h's. */
#define DFS_DD_DOT_LANES 256      /* DOT: one thread block per chunk, and its chunks' merge */
#define DFS_DD_GEMV_MERGE_LANES 32 /* GEMV: lanes merging an output's chunks (a warp) */

DFS_HD int64_t dfs_dd_cdiv(int64_t a, int64_t b)
{
    return (a + b - 1) / b;
}

/* DOT of n >= 1 terms: 256 lanes, at least DFS_DD_DOT_LANE_TERMS terms per lane per chunk, at
 * most DFS_DD_DOT_CHUNKS chunks. */
DFS_HD dfs_dd_plan dfs_dd_dot_plan(int64_t n)
{
    int64_t per = dfs_dd_cdiv(n, (int64_t)DFS_DD_DOT_LANES * DFS_DD_DOT_CHUNKS);
    if (per < DFS_DD_DOT_LANE_TERMS)
        per = DFS_DD_DOT_LANE_TERMS;
    dfs_dd_plan p;
    p.lanes = DFS_DD_DOT_LANES;
    p.chunk = per * DFS_DD_DOT_LANES;
    p.nchunks = dfs_dd_cdiv(n, p.chunk);
    return p;
}

/* GEMV (trans: 0 = N, 1 = T) of an m x n matrix, m, n >= 1: outputs len = trans ? n : m, inner
 * K = trans ? m : n.  Op N: one lane per output (a thread per row); op T: lanes per output up
 * to 32, about DFS_DD_GEMV_LANE_TERMS terms each or more.  Chunks until the outputs x lanes x
 * chunks reach DFS_DD_GEMV_N/T_THREADS, at least DFS_DD_GEMV_CHUNK_TERMS terms per lane per
 * chunk. */
DFS_HD dfs_dd_plan dfs_dd_gemv_plan(int trans, int64_t m, int64_t n)
{
    const int64_t len = trans ? n : m, K = trans ? m : n;
    dfs_dd_plan p;
    p.lanes = 1;
    while (trans && p.lanes < 32 && (int64_t)p.lanes * DFS_DD_GEMV_LANE_TERMS < K)
        p.lanes *= 2;
    int64_t s = dfs_dd_cdiv(trans ? DFS_DD_GEMV_T_THREADS : DFS_DD_GEMV_N_THREADS, len * p.lanes);
    const int64_t most = dfs_dd_cdiv(K, (int64_t)p.lanes * DFS_DD_GEMV_CHUNK_TERMS);
    if (s > most)
        s = most;
    if (s < 1)
        s = 1;
    p.chunk = dfs_dd_cdiv(dfs_dd_cdiv(K, s), p.lanes) * p.lanes;
    p.nchunks = dfs_dd_cdiv(K, p.chunk);
    return p;
}

#endif
