/* df_steps.h — the per-element steps of the DF GEMM that the kernels (kernels.cu) and the CPU
 * implementation (host.c) share, so that both compute the same bits: the scale exponent of a row
 * or column, the scaled DF form of its elements, and the DGEMM-DF(DF) epilogue. */
#ifndef DFS_DF_STEPS_H
#define DFS_DF_STEPS_H

#include "../common/df.h"
#include "df_gemm.h"

/* |x| as its bit pattern (orders like the magnitudes). */
DFS_HD unsigned long long dfs_df_abs_bits(double x)
{
    return dfs_d_bits(x) & 0x7fffffffffffffffULL;
}

/* From the largest |x| of a row (as bits): e with max|x| in [2^e, 2^(e+1)), 0 for a zero row,
 * DFS_DF_EXP_NONFINITE for a row holding Inf or NaN. */
DFS_HD int dfs_df_scale_exponent(unsigned long long b)
{
    if (b == 0)
        return 0;
    int field = (int)(b >> 52);
    if (field == 0x7ff)
        return DFS_DF_EXP_NONFINITE;
    if (field)
        return field - 1023;
#if defined(__CUDA_ARCH__)
    return (63 - __clzll((long long)b)) - 1074;
#else
    return (63 - __builtin_clzll(b)) - 1074;
#endif
}

/* The smallest nonzero bits of a row: the running minimum of b over nonzero elements, starting
 * from DFS_DF_NO_MIN (no nonzero element yet). */
#define DFS_DF_NO_MIN 0xffffffffffffffffULL
DFS_HD unsigned long long dfs_df_min_nonzero(unsigned long long m, unsigned long long b)
{
    return b != 0 && b < m ? b : m;
}

/* The span of a row, from the bits of its largest |x| and the running minimum above (0 when it
 * has no nonzero element, or for a row holding Inf or NaN): e_max - e_min, so that every
 * nonzero element scaled by 2^-e_max lies in [2^-span, 2). */
DFS_HD int dfs_df_span(unsigned long long max_bits, unsigned long long min_bits)
{
    const int emax = dfs_df_scale_exponent(max_bits);
    if (min_bits == DFS_DF_NO_MIN || emax == DFS_DF_EXP_NONFINITE)
        return 0;
    return emax - dfs_df_scale_exponent(min_bits);
}

/* Element x of a row with scale exponent e (dfs_df_scale_exponent) as it enters the DF products:
 * x 2^-e in DF, 0 for a row marked non-finite (computed in binary64 by the epilogue). */
DFS_HD dfs_df dfs_df_scaled(double x, int e)
{
    return dfs_df_from_double(e == DFS_DF_EXP_NONFINITE ? 0.0 : ldexp(x, -e));
}

/* Whether an entry of C must be recomputed in binary64 (the binary64 path of rows with Inf or
 * NaN), from its DF sum acc of the scaled products and the spans of its row and column.  In the
 * scaled units (row and column maxima in [1, 2)) a product below about 2^-102 has its DF error
 * terms in binary32's subnormal range: absolute errors of up to about 2^-146 per product instead
 * of 2^-48 of it.  Against the scheme's 4 (k + 1) u^2 S (u = 2^-24, S = sum |a b|) that matters
 * only when S < 2^-92 or so: then every nonzero product is below 2^-92, so the spans add up to
 * more than DFS_DF_SPAN_RISK, and |acc| <= S (1 + 2^-40) is below 2^-92 too.  Entries meeting
 * both conditions are recomputed (rows spanning 2^46 each, with large elements of one facing
 * small ones of the other, or sums that cancel below 2^-92 of the scales: rare); with either
 * condition false the DF result keeps its bound (S >= 2^-92: the subnormal errors, k 2^-146 at
 * most, stay below 2^-8 of it). */
#define DFS_DF_SPAN_RISK 92
DFS_HD int dfs_df_needs_binary64(dfs_df acc, int span_a, int span_b)
{
    return span_a + span_b > DFS_DF_SPAN_RISK && acc.hi < 0x1p-92f && acc.hi > -0x1p-92f;
}

/* acc + a*b with the scheme's multiply-add (DFS_DF_MAD12 unrenormalised: the caller renormalises
 * every DFS_DF_LAZY_B products).  A constant scheme folds to one of them. */
DFS_HD dfs_df dfs_df_mad(int scheme, dfs_df acc, dfs_df a, dfs_df b)
{
    if (scheme == DFS_DF_MAD16)
        return dfs_df_mad16(acc, a, b);
    if (scheme == DFS_DF_MAD15)
        return dfs_df_mad15(acc, a, b);
    if (scheme == DFS_DF_MAD12)
        return dfs_df_mad12(acc, a, b);
    return dfs_df_mad29(acc, a, b);
}

/* c = alpha*ab + beta*c in DF with the scheme's product and sum (beta = 0: c is not read;
 * alpha = 0: ab is not used). */
DFS_HD dfs_df dfs_df_axpby(int scheme, dfs_df alpha, dfs_df ab, dfs_df beta, const dfs_df *c)
{
    const int accurate = scheme == DFS_DF_MAD29;
    dfs_df r = dfs_df_make(0.0f, 0.0f);
    if (alpha.hi != 0.0f)
        r = accurate ? dfs_df_mul_accurate(alpha, ab) : dfs_df_mul_fast(alpha, ab);
    if (beta.hi != 0.0f) {
        dfs_df t = accurate ? dfs_df_mul_accurate(beta, *c) : dfs_df_mul_fast(beta, *c);
        r = accurate ? dfs_df_add_accurate(r, t) : dfs_df_add_sloppy(r, t);
    } else if (!accurate) {
        r = dfs_df_add_sloppy(r, dfs_df_make(0.0f, 0.0f)); /* renormalise the product */
    }
    return r;
}

#endif
