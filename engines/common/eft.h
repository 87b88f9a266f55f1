/* eft.h — error-free transformations in binary32 and binary64, for host C and CUDA device code
 * alike.
 *
 * Every operation is one IEEE operation rounded to nearest even that the compiler may neither
 * contract nor reassociate: on the device the explicit __fadd_rn/__fmul_rn/__fmaf_rn (__dadd_rn,
 * __fma_rn, ...) intrinsics, on the host plain arithmetic compiled with -ffp-contract=off (and
 * SSE, so FLT_EVAL_METHOD == 0) plus fmaf/fma.  Used by df.h and fpe.h; shared by every engine
 * that needs it. */
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

#define EFT_T float
#define EFT_FN(name) dfs_##name
#define EFT_ADD dfs_f_add
#define EFT_SUB dfs_f_sub
#define EFT_MUL dfs_f_mul
#define EFT_FMA dfs_f_fma
#include "eft_t.h" /* dfs_two_sum, dfs_fast_two_sum, dfs_two_prod */

/* ---- binary64 ---- */

DFS_HD double dfs_d_add(double a, double b)
{
#if defined(__CUDA_ARCH__)
    return __dadd_rn(a, b);
#else
    return a + b;
#endif
}

DFS_HD double dfs_d_sub(double a, double b)
{
#if defined(__CUDA_ARCH__)
    return __dsub_rn(a, b);
#else
    return a - b;
#endif
}

DFS_HD double dfs_d_mul(double a, double b)
{
#if defined(__CUDA_ARCH__)
    return __dmul_rn(a, b);
#else
    return a * b;
#endif
}

DFS_HD double dfs_d_fma(double a, double b, double c)
{
#if defined(__CUDA_ARCH__)
    return __fma_rn(a, b, c);
#else
    return fma(a, b, c);
#endif
}

#define EFT_T double
#define EFT_FN(name) dfs_d_##name
#define EFT_ADD dfs_d_add
#define EFT_SUB dfs_d_sub
#define EFT_MUL dfs_d_mul
#define EFT_FMA dfs_d_fma
#include "eft_t.h" /* dfs_d_two_sum, dfs_d_fast_two_sum, dfs_d_two_prod */

#endif
