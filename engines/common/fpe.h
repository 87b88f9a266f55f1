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

/* Insert v into the T terms t[]; returns 0, or DFS_FPE_SPILL if an error remained.  Each step
 * is FastTwoSum with the operands ordered by magnitude (|hi| >= |lo|: exact, Dekker), three
 * additions instead of TwoSum's six. */
DFS_HD unsigned dfs_fpe_insert(double *t, int T, double v)
{
    for (int i = 0; i < T; i++) {
        if (v == 0)
            return 0;
        const double a = t[i];
        const int sw = fabs(v) > fabs(a);
        t[i] = dfs_d_fast_two_sum(sw ? v : a, sw ? a : v, &v);
    }
    return v == 0 ? 0u : DFS_FPE_SPILL;
}

/* Add x*y to the terms; returns the flags to OR into the thread's flags (xacc.h's, plus
 * DFS_FPE_SPILL). */
DFS_HD unsigned dfs_fpe_add_product(double *t, int T, double x, double y)
{
    double p = dfs_d_mul(x, y);
    uint64_t ap = dfs_d_bits(p) & 0x7fffffffffffffffull;
    /* 2^-960 <= |p| < 2^960: biased exponents 63 .. 1982 */
    if (ap >= (63ull << 52) && ap < (1983ull << 52)) {
        double e = dfs_d_fma(x, y, -p);
        return dfs_fpe_insert(t, T, p) | dfs_fpe_insert(t, T, e);
    }
    unsigned f = dfs_x_product_flags(x, y);
    if (f || (ap == 0 && (x == 0 || y == 0)))
        return f; /* a special term, or an exact zero */
    return DFS_FPE_SPILL; /* finite but out of range: underflow or overflow */
}

#endif
