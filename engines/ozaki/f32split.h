/* f32split.h — the split of the Ozaki scheme on binary32 products (issue 8: DGEMM from cuBLAS
 * SGEMM), shared by the CPU model (host_f32.c) and, next, the GPU kernels.
 *
 * Each row of op(A) (column of op(B)) is scaled by 2^-e, e the least integer with max |x| <
 * 2^e, so that its values lie in (-1, 1) whatever their range in binary64 (exact: a power of
 * two).  With S splits the scaled row x is cut into S - 1 slices of p bits,
 *
 *     slice s = x_{s-1} rounded to a multiple of 2^(-s p),   x_s = x_{s-1} - slice s   (exact),
 *
 * |slice s| <= 2^(-(s-1) p - 1) + 2^(-s p - 1), and a last part, the rest rounded to binary32.
 * With p = floor((24 - ceil(log2 k)) / 2), a product of two slices summed over k terms is a
 * multiple of 2^(-(s+t) p) below k 2^(2p) of those units <= 2^24: exact in binary32 in any order
 * of summation, so cuBLAS SGEMM computes it exactly.  Products with a last part are not exact;
 * host_f32.c gives their bound. */
#ifndef DFS_OZ_F32SPLIT_H
#define DFS_OZ_F32SPLIT_H

#include "../common/hd.h"

#include <stdint.h>
#include <string.h>

/* Bits per slice for inner dimension k (at least 1). */
DFS_HD int dfs_f32_slice_bits(int64_t k)
{
    int lg = 0;
    while (lg < 62 && ((int64_t)1 << lg) < k)
        lg++;
    const int p = (24 - lg) / 2;
    return p < 1 ? 1 : p;
}

/* The least e with |x| < 2^e, for a finite x != 0 (bit operations: the same on CPU and GPU). */
DFS_HD int dfs_f32_top(double x)
{
    uint64_t b;
    memcpy(&b, &x, sizeof b);
    int ex = (int)((b >> 52) & 0x7ff);
    if (ex == 0) { /* subnormal: the position of the leading bit */
        uint64_t f = b & 0xfffffffffffffull;
        int lead = 51;
        while (lead > 0 && !(f >> lead))
            lead--;
        return lead - 1073; /* 2^(lead-1074) <= |x| < 2^(lead-1073) */
    }
    return ex - 1022; /* 2^(ex-1023) <= |x| < 2^(ex-1022) */
}

/* 2^e as a double, for -1074 <= e <= 1023. */
DFS_HD double dfs_f32_pow2(int e)
{
    uint64_t b = e >= -1022 ? (uint64_t)(e + 1023) << 52 : (uint64_t)1 << (e + 1074);
    double d;
    memcpy(&d, &b, sizeof d);
    return d;
}

/* x 2^e in two exact steps (e may lie outside binary64's exponent range, the product not). */
DFS_HD double dfs_f32_scale(double x, int e)
{
    return x * dfs_f32_pow2(e / 2) * dfs_f32_pow2(e - e / 2);
}

/* x rounded to the nearest multiple of 2^g (ties to even), for |x| <= 2^(g + 50) and
 * -1000 < g < 900: (x + sigma) - sigma with sigma = 1.5 * 2^(g + 52), both additions exact
 * but the first's rounding. */
DFS_HD double dfs_f32_round_to(double x, int g)
{
    const double sigma = 1.5 * dfs_f32_pow2(g + 52);
#if defined(__CUDA_ARCH__)
    return __dsub_rn(__dadd_rn(x, sigma), sigma);
#else
    volatile double t = x + sigma;
    return t - sigma;
#endif
}

#endif
