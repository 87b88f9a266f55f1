/* eft.h — error-free transformations in binary32, for host C and CUDA device code alike.
 *
 * Every operation is one IEEE binary32 operation rounded to nearest even that the compiler may
 * neither contract nor reassociate: on the device the explicit __fadd_rn/__fmul_rn/__fmaf_rn
 * intrinsics, on the host plain float arithmetic compiled with -ffp-contract=off (and SSE, so
 * FLT_EVAL_METHOD == 0) plus fmaf.  Used by df.h; shared by every engine that needs it. */
#ifndef DFS_EFT_H
#define DFS_EFT_H

#include "hd.h"

#if !defined(__CUDACC__)
#include <math.h>
#if defined(__FLT_EVAL_METHOD__) && __FLT_EVAL_METHOD__ != 0
#error "binary32 EFTs need FLT_EVAL_METHOD == 0 (SSE arithmetic)"
#endif
#endif

DFS_HD float dfs_f_add(float a, float b)
{
#if defined(__CUDA_ARCH__)
    return __fadd_rn(a, b);
#else
    return a + b;
#endif
}

DFS_HD float dfs_f_sub(float a, float b)
{
#if defined(__CUDA_ARCH__)
    return __fsub_rn(a, b);
#else
    return a - b;
#endif
}

DFS_HD float dfs_f_mul(float a, float b)
{
#if defined(__CUDA_ARCH__)
    return __fmul_rn(a, b);
#else
    return a * b;
#endif
}

DFS_HD float dfs_f_fma(float a, float b, float c)
{
#if defined(__CUDA_ARCH__)
    return __fmaf_rn(a, b, c);
#else
    return fmaf(a, b, c);
#endif
}

/* s + e = a + b exactly (6 ops, any a, b). */
DFS_HD float dfs_two_sum(float a, float b, float *e)
{
    float s = dfs_f_add(a, b);
    float v = dfs_f_sub(s, a);
    *e = dfs_f_add(dfs_f_sub(a, dfs_f_sub(s, v)), dfs_f_sub(b, v));
    return s;
}

/* s + e = a + b exactly when exponent(a) >= exponent(b) (3 ops). */
DFS_HD float dfs_fast_two_sum(float a, float b, float *e)
{
    float s = dfs_f_add(a, b);
    *e = dfs_f_sub(b, dfs_f_sub(s, a));
    return s;
}

/* p + e = a * b exactly, barring underflow (2 ops). */
DFS_HD float dfs_two_prod(float a, float b, float *e)
{
    float p = dfs_f_mul(a, b);
    *e = dfs_f_fma(a, b, -p);
    return p;
}

#endif
