/* bits.h — the bits of binary64 and binary32 numbers, and bit scans, for host C and CUDA device
 * code alike (memcpy on the host, the reinterpreting intrinsics on the device). */
#ifndef DFS_BITS_H
#define DFS_BITS_H

#include "hd.h"

#include <stdint.h>
#if !defined(__CUDACC__)
#include <string.h>
#endif

DFS_HD uint64_t dfs_d_bits(double d)
{
#if defined(__CUDA_ARCH__)
    return (uint64_t)__double_as_longlong(d);
#else
    uint64_t b;
    memcpy(&b, &d, sizeof b);
    return b;
#endif
}

DFS_HD double dfs_d_from_bits(uint64_t b)
{
#if defined(__CUDA_ARCH__)
    return __longlong_as_double((long long)b);
#else
    double d;
    memcpy(&d, &b, sizeof d);
    return d;
#endif
}

DFS_HD float dfs_float_of_bits(unsigned int u)
{
#if defined(__CUDA_ARCH__)
    return __uint_as_float(u);
#else
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
#endif
}

/* Leading and trailing zero bits of x != 0. */
DFS_HD int dfs_clz64(uint64_t x)
{
#if defined(__CUDA_ARCH__)
    return __clzll((long long)x);
#else
    return __builtin_clzll(x);
#endif
}

DFS_HD int dfs_ctz64(uint64_t x)
{
#if defined(__CUDA_ARCH__)
    return __ffsll((long long)x) - 1;
#else
    return __builtin_ctzll(x);
#endif
}

#endif
