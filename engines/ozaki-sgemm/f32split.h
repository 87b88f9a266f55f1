/* f32split.h — the split of the Ozaki scheme on binary32 products (issue 8: DGEMM from cuBLAS
 * SGEMM), shared by the CPU model (host_f32.c) and the GPU kernels (kernels_f32.cu).
 *
 * Each row of op(A) (column of op(B)) is scaled by 2^-e, e = top - h with top the least integer
 * with max |x| < 2^top, so that its values lie in (-2^h, 2^h) whatever their range in binary64
 * (exact: a power of two).  h, the headroom (dfs_f32_headroom), is as large as binary32's range
 * allows for sums of k products of two such values (k 2^(2h) <= 2^126), so that the small
 * elements of a row keep as many bits as binary32 can hold.  With S splits the scaled row x is
 * cut into S - 1 slices of p bits,
 *
 *     slice s = x_{s-1} rounded to a multiple of 2^(h - s p),   x_s = x_{s-1} - slice s  (exact),
 *
 * |slice s| <= 2^(h - (s-1) p - 1) + 2^(h - s p - 1), and a last part, the rest rounded to
 * binary32.  With p = floor((24 - ceil(log2 k)) / 2), a product of two slices summed over k
 * terms is a multiple of 2^(2h - (s+t) p) below k 2^(2p) of those units <= 2^24, all of them
 * normal binary32 numbers: exact in binary32 in any order of summation, so cuBLAS SGEMM computes
 * it exactly.  Products with a last part are not exact; host_f32.c gives their bound.
 *
 * Range: an element 2^span below its row's largest keeps its bits down to binary32's underflow
 * when 2h - spanA - spanB stays well above binary32's smallest normal; outputs of a row and a
 * column whose spans add up to more than dfs_f32_wide_limit(k) are computed directly in
 * binary64 instead (there an underflow could cost more than binary64's own rounding). */
#ifndef DFS_OZ_F32SPLIT_H
#define DFS_OZ_F32SPLIT_H

#include "../common/hd.h"

#include <stdint.h>
#include <string.h>

/* The most splits (S - 1 slices and a last part); S (S + 1) / 2 products. */
#define DFS_F32_MAX_SPLITS 6

/* The largest inner dimension the split is exact for (p >= 1). */
#define DFS_F32_MAX_K ((int64_t)1 << 22)

/* ceil(log2 k) for k >= 1 (0 for k <= 1). */
DFS_HD int dfs_f32_log2k(int64_t k)
{
    int lg = 0;
    while (lg < 62 && ((int64_t)1 << lg) < k)
        lg++;
    return lg;
}

/* Bits per slice for inner dimension k (at least 1). */
DFS_HD int dfs_f32_slice_bits(int64_t k)
{
    const int p = (24 - dfs_f32_log2k(k)) / 2;
    return p < 1 ? 1 : p;
}

/* The headroom h: rows and columns scaled to (-2^h, 2^h), k 2^(2h) <= 2^126. */
DFS_HD int dfs_f32_headroom(int64_t k)
{
    return (126 - dfs_f32_log2k(k)) / 2;
}

/* The most spanA + spanB (each the distance, in binades, from a row's largest element to its
 * smallest nonzero one, dfs_f32_top of each) that an output is computed from binary32 products
 * for: the smallest products of elements then stay at or above 2^(2h - limit - 2) = 2^-66, so
 * that binary32's underflow, even flushed to zero (below 2^-126 per rounding, at most 16
 * roundings per term), costs at most 2^-56 of them. */
DFS_HD int dfs_f32_wide_limit(int64_t k)
{
    return 2 * dfs_f32_headroom(k) + 64;
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

/* x 2^e, e in [-2300, 2000]: in steps of at most 2^-1022 down, then two halves, all exact
 * while the product stays in binary64's normal range; below it, within 2^-1074 (the steps
 * all go one way, so nothing rounded is scaled back up). */
DFS_HD double dfs_f32_scale(double x, int e)
{
    while (e < -2044) {
        x = x * dfs_f32_pow2(-1022);
        e += 1022;
    }
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
