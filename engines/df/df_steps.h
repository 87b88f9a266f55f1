/* df_steps.h — the per-element steps of the DF GEMM that the kernels (kernels.cu) and the CPU
 * implementation (host.c) share, so that both compute the same bits: the scale exponent of a row
 * or column, and the DGEMM-DF(DF) epilogue. */
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
