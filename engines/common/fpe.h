/* fpe.h — exact accumulation of binary64 products in a short floating-point expansion: the fast
 * path of the correctly rounded DOT and GEMV (host C and CUDA device code alike).
 *
 * Each thread keeps T binary64 terms whose unevaluated sum is exactly the sum of the products it
 * has seen.  A product x*y is split exactly into p + e (TwoProduct with FMA) and both are inserted
 * with TwoSum down the terms, stopping as soon as the carried error is zero (ExBLAS's "early exit"
 * filter).  Every step is error-free, so the terms are exact whatever the data; what the data
 * decides is only whether the thread can stay on this path:
 *   - a product is "in range" when p == 0 with a zero operand, or 2^-960 <= |p| < 2^960: then
 *     TwoProduct is exact (the error is a multiple of 2^-1074) and no partial sum of fewer than
 *     2^60 terms overflows;
 *   - an insertion that still carries an error after the last term, or a product out of range,
 *     sets DFS_FPE_SPILL: the caller then computes that output exactly on the slow path (xacc.h).
 * Special operands (Inf, NaN) are not inserted; their xacc.h flags are kept instead.
 *
 * The binary64 operations are eft.h's (never contracted or reassociated). */
#ifndef DFS_FPE_H
#define DFS_FPE_H

#include "eft.h"
#include "xacc.h"

#if !defined(__CUDACC__)
#include <math.h> /* fabs (exact) */
#endif

#define DFS_FPE_SPILL 16u /* beside the xacc.h flags: this output needs the slow path */

/* Insert v into the T terms t[], from t[first] on (t[first], ..., t[T - 1], t[0], ...); returns
 * what is left over (0 mostly): the terms plus it are exactly the terms before plus v, whatever
 * the order.  Each step is FastTwoSum with the operands ordered by magnitude (|hi| >= |lo|:
 * exact, Dekker), three additions instead of TwoSum's six. */
DFS_HD double dfs_fpe_insert_rest_from(double *t, int T, int first, double v)
{
    for (int j = 0; j < T; j++) {
        if (v == 0)
            return 0.0;
        const int i = j + first < T ? j + first : j + first - T;
        const double a = t[i];
        const int sw = fabs(v) > fabs(a);
        t[i] = dfs_d_fast_two_sum(sw ? v : a, sw ? a : v, &v);
    }
    return v;
}

DFS_HD double dfs_fpe_insert_rest(double *t, int T, double v)
{
    return dfs_fpe_insert_rest_from(t, T, 0, v);
}

/* A product's two parts p + e (TwoProduct) into the terms: p from t[0], e from t[1].  e lies
 * below half an ulp of p, and t[0] has just taken p: added there first, e would mostly come
 * back unchanged, one step spent for nothing. */
DFS_HD void dfs_fpe_insert_pair(double *t, int T, double p, double e, double *r1, double *r2)
{
    *r1 = dfs_fpe_insert_rest(t, T, p);
    *r2 = dfs_fpe_insert_rest_from(t, T, T > 1, e);
}

/* Insert v into the T terms t[]; returns 0, or DFS_FPE_SPILL if an error remained. */
DFS_HD unsigned dfs_fpe_insert(double *t, int T, double v)
{
    return dfs_fpe_insert_rest(t, T, v) == 0 ? 0u : DFS_FPE_SPILL;
}

/* Whether x*y = p is in the expansion's range (2^-960 <= |p| < 2^960: TwoProduct exact, no
 * partial sum of fewer than 2^60 such terms overflows). */
DFS_HD int dfs_fpe_in_range(double p)
{
    const uint64_t ap = dfs_d_bits(p) & 0x7fffffffffffffffull;
    return ap >= (63ull << 52) && ap < (1983ull << 52); /* biased exponents 63 .. 1982 */
}

/* Products outside the terms' range, in two more expansions of their own: those below 2^-960
 * (underflowing, subnormal) with both operands scaled up by 2^(DFS_FPE_SHIFT / 2), those from
 * 2^960 on (huge, or overflowing) with both scaled down by it.  Both scalings are exact: a
 * product below 2^-960 has both operands below 2^114 (the other is at least 2^-1074), so they
 * stay below 2^664; one from 2^960 on (|x y| > 2^959) has both above 2^-65 (the other is below
 * 2^1024), so they stay above 2^-615, normal.  The scaled product is x y 2^(+-DFS_FPE_SHIFT): in
 * [2^-141, 2^948) for the huge ones, in range for the small ones down to 2^-2060.  The lo terms
 * stand for their sum times 2^-DFS_FPE_SHIFT, the hi terms for theirs times 2^DFS_FPE_SHIFT. */
#define DFS_FPE_SHIFT 1100

/* Add x*y exactly into the terms t[T] (in range), lo[Tx] or hi[Tx] (below or above it, scaled
 * as above), the rest for an exact accumulator (xacc.h) beside them.  On return *r1, *r2 are
 * values (0: none) that stand for themselves times 2^*shift (0, -DFS_FPE_SHIFT for the lo terms,
 * DFS_FPE_SHIFT for the hi terms), and *whole says whether the product x*y itself (one below
 * 2^-2060, which no scaling brings into range) must be added to the accumulator: the three
 * expansions plus those are exactly the expansions before plus x*y.  Returns the special flags
 * (xacc.h's; Inf and NaN are neither inserted nor left). */
DFS_HD unsigned dfs_fpe_add_product3_rest(double *t, int T, double *lo, double *hi, int Tx,
                                          double x, double y, double *r1, double *r2, int *shift,
                                          int *whole)
{
    const double p = dfs_d_mul(x, y);
    *r1 = *r2 = 0.0;
    *shift = 0;
    *whole = 0;
    if (dfs_fpe_in_range(p)) {
        dfs_fpe_insert_pair(t, T, p, dfs_d_fma(x, y, -p), r1, r2);
        return 0;
    }
    const unsigned f = dfs_x_product_flags(x, y);
    if (f || x == 0 || y == 0)
        return f; /* a special term, or an exact zero */
    const int small = (dfs_d_bits(p) & 0x7fffffffffffffffull) < (63ull << 52);
    const double sc = small ? 0x1p550 : 0x1p-550; /* 2^(+-DFS_FPE_SHIFT / 2) */
    const double xs = dfs_d_mul(x, sc), ys = dfs_d_mul(y, sc), ps = dfs_d_mul(xs, ys);
    if (!dfs_fpe_in_range(ps)) {
        *whole = 1;
        return 0;
    }
    const double es = dfs_d_fma(xs, ys, -ps);
    /* two branches, not a pointer chosen at run time: on the GPU the terms stay in registers */
    if (small) {
        *shift = -DFS_FPE_SHIFT;
        dfs_fpe_insert_pair(lo, Tx, ps, es, r1, r2);
    } else {
        *shift = DFS_FPE_SHIFT;
        dfs_fpe_insert_pair(hi, Tx, ps, es, r1, r2);
    }
    return 0;
}

/* The same, for a caller that has no accumulator beside the expansions: returns the special
 * flags, plus DFS_FPE_SPILL when anything is left over (the caller then takes the slow path). */
DFS_HD unsigned dfs_fpe_add_product3(double *t, int T, double *lo, double *hi, int Tx, double x,
                                     double y)
{
    double r1, r2;
    int shift, whole;
    const unsigned f = dfs_fpe_add_product3_rest(t, T, lo, hi, Tx, x, y, &r1, &r2, &shift, &whole);
    return f | (r1 != 0 || r2 != 0 || whole ? DFS_FPE_SPILL : 0u);
}

/* Add x*y to the terms; returns the flags to OR into the thread's flags (xacc.h's, plus
 * DFS_FPE_SPILL when something is left that the terms did not take). */
DFS_HD unsigned dfs_fpe_add_product(double *t, int T, double x, double y)
{
    double p = dfs_d_mul(x, y);
    if (dfs_fpe_in_range(p)) {
        double r1, r2;
        dfs_fpe_insert_pair(t, T, p, dfs_d_fma(x, y, -p), &r1, &r2);
        return r1 != 0 || r2 != 0 ? DFS_FPE_SPILL : 0u;
    }
    unsigned f = dfs_x_product_flags(x, y);
    if (f || x == 0 || y == 0)
        return f; /* a special term, or an exact zero */
    return DFS_FPE_SPILL; /* finite but out of range: underflow or overflow */
}

#endif
