/* df.h — double-float (DF) arithmetic: a value carried as the unevaluated sum hi + lo of two
 * binary32 numbers, |lo| <= ulp(hi)/2, about 48 significant bits and binary32's exponent range.
 * Host C and CUDA device code alike (built on eft.h, so nothing is contracted or reassociated).
 *
 * Multiply-add schemes (acc + a*b, all DF), u = 2^-24, K = number of accumulated products:
 *   dfs_df_mad16   the paper's 16 ops: FMA product without renormalisation + QD sloppy add.
 *                  No proven bound per step (the sloppy add under cancellation); in GEMM the
 *                  error stays near c*K*u^2*sum|a*b| with small c (tests measure it).
 *   dfs_df_mad15   15 ops: the product's cross terms folded straight into the sloppy add.
 *                  Same character as mad16, one op fewer.
 *   dfs_df_mad29   29 ops: DWTimesDW3 (< 4u^2, Muller-Rideau 2022) + AccurateDWPlusDW
 *                  (<= 3u^2 + 13u^3, Joldes-Muller-Popescu 2017): proven
 *                  |err| <= (3K + 4) u^2 sum|a*b| to first order.
 *   dfs_df_mad12   12 ops, lazy (Ogita-Rump-Oishi's Dot2 on DF operands): the high parts are
 *                  summed exactly by 2Sum, every error term goes into acc.lo unrenormalised; the
 *                  caller renormalises with dfs_df_renorm (3 ops) every DFS_DF_LAZY_B products,
 *                  12 + 3/8 ops per product; first-order bound (17K + 196) u^2 sum|a*b| with
 *                  the operands' conversion (derived at dfs_df_mad12). */
#ifndef DFS_DF_H
#define DFS_DF_H

#include "bits.h"
#include "eft.h"

#if !defined(__CUDACC__)
#include <math.h>
#include <string.h>
#endif

typedef struct {
    float hi, lo;
} dfs_df;

/* dfs_df_make, dfs_df_add_sloppy (11 ops), dfs_df_add_accurate (20 ops, <= 3u^2 + 13u^3),
 * dfs_df_mul_accurate (9 ops, < 4u^2): dw_t.h on binary32 words */
#define DW_T float
#define DW dfs_df
#define DW_FN(name) dfs_df_##name
#define DW_ADD dfs_f_add
#define DW_MUL dfs_f_mul
#define DW_FMA dfs_f_fma
#define DW_TWO_SUM dfs_two_sum
#define DW_FAST_TWO_SUM dfs_fast_two_sum
#define DW_TWO_PROD dfs_two_prod
#include "dw_t.h"

/* binary64 -> DF: hi = RN32(x), lo = RN32(x - hi) (the subtraction is exact in binary64).
 * Callers keep x inside binary32's range (the engines scale rows and columns by powers of 2). */
DFS_HD dfs_df dfs_df_from_double(double x)
{
    float hi = (float)x;
    float lo = (float)(x - (double)hi);
    return dfs_df_make(hi, lo);
}

/* DF -> binary64: hi + lo rounded once (exact when lo is within 29 binades of hi, as for every DF
 * the engines produce from normal data; a canonical DF can carry up to 77 bits otherwise). */
DFS_HD double dfs_df_to_double(dfs_df a)
{
    return (double)a.hi + (double)a.lo;
}

/* The paper's FMA product (5 ops, not renormalised): hi + lo ~= a*b. */
DFS_HD dfs_df dfs_df_mul_fast(dfs_df a, dfs_df b)
{
    float v = dfs_f_mul(a.hi, b.lo);
    float t = dfs_f_fma(a.lo, b.hi, v);
    float hi = dfs_f_fma(a.hi, b.hi, t);
    float e = dfs_f_fma(a.hi, b.hi, -hi);
    return dfs_df_make(hi, dfs_f_add(e, t));
}

/* acc + a*b, 16 ops (Mukunoki-Imamura). */
DFS_HD dfs_df dfs_df_mad16(dfs_df acc, dfs_df a, dfs_df b)
{
    return dfs_df_add_sloppy(acc, dfs_df_mul_fast(a, b));
}

/* acc + a*b, 15 ops: p + q = a.hi*b.hi exactly, the cross terms go into acc.lo by FMAs, then
 * 2Sum(acc.hi, p) and one Fast2Sum. */
DFS_HD dfs_df dfs_df_mad15(dfs_df acc, dfs_df a, dfs_df b)
{
    float q, p = dfs_two_prod(a.hi, b.hi, &q);
    float l = dfs_f_fma(a.hi, b.lo, acc.lo);
    l = dfs_f_fma(a.lo, b.hi, l);
    float e, s = dfs_two_sum(acc.hi, p, &e);
    float t = dfs_f_add(e, dfs_f_add(q, l));
    float hi = dfs_fast_two_sum(s, t, &e);
    return dfs_df_make(hi, e);
}

/* acc + a*b, 12 ops, lazy: p + q = a.hi*b.hi exactly, acc.hi + p = s + e exactly (2Sum), and the
 * cross terms, q and e go into acc.lo by two FMAs and two adds; nothing is renormalised, so acc.lo
 * grows by about u |s| + 3u |a*b| per product until the caller's dfs_df_renorm.
 *
 * Bound (first order in u = 2^-24; sigma = sum|a*b| over the whole sum, sigma_b over the block of
 * b products between two renormalisations, which starts with |acc.lo| <= u sigma): after the
 * block's i-th product |acc.lo| <= u sigma (1 + i) + 3u sigma_b, since each adds at most
 * |a.hi*b.lo| + |a.lo*b.hi| + |q| <= 3u |a*b| and |e| <= u sigma.  The product's four roundings
 * (two FMAs and an add on acc.lo-sized values, one on q + e) cost at most
 * u^2 (sigma (3i + 2) + 9 sigma_b + |a*b|), the dropped a.lo*b.lo u^2 |a*b|, and the renormalising
 * Fast2Sum at most u |acc.lo| (it is exact unless the sum has cancelled below acc.lo).  A block of
 * b = 8 costs at most u^2 (133 sigma + 77 sigma_b); K products, ceil(K/8) blocks, at most
 * (16.625 K + 194) u^2 sigma, and (17 K + 196) u^2 sigma with the conversion of binary64 operands
 * to DF (u^2 each).  Without renormalisation acc.lo would grow with K and the bound with K^2 u^2
 * (Dot2's gamma_K^2 term): never use dfs_df_mad12 without dfs_df_renorm. */
DFS_HD dfs_df dfs_df_mad12(dfs_df acc, dfs_df a, dfs_df b)
{
    float q, p = dfs_two_prod(a.hi, b.hi, &q);
    float l = dfs_f_fma(a.hi, b.lo, acc.lo);
    l = dfs_f_fma(a.lo, b.hi, l);
    float e, s = dfs_two_sum(acc.hi, p, &e);
    return dfs_df_make(s, dfs_f_add(l, dfs_f_add(q, e)));
}

/* Products between two renormalisations of dfs_df_mad12's accumulator (the GPU's k stage). */
#define DFS_DF_LAZY_B 8

/* hi + lo renormalised by Fast2Sum (3 ops): exact when |hi| >= |lo|; otherwise the sum has
 * cancelled below lo and the error is below u |lo|. */
DFS_HD dfs_df dfs_df_renorm(dfs_df a)
{
    float e, hi = dfs_fast_two_sum(a.hi, a.lo, &e);
    return dfs_df_make(hi, e);
}

/* acc + a*b, 29 ops, proven bound (see the top of this file). */
DFS_HD dfs_df dfs_df_mad29(dfs_df acc, dfs_df a, dfs_df b)
{
    return dfs_df_add_accurate(acc, dfs_df_mul_accurate(a, b));
}

/* ---------- DF with an exponent: sums of binary64 products over any exponent range ----------
 * A term x*y (binary64 x, y) is taken as X*Y*2^(ex+ey) with X, Y in [1, 2) split into DF using
 * integer operations only (no FP64 instruction).  An accumulator holds v*2^e with v a DF; terms
 * more than DFS_DFX_DROP binades below the largest term seen are dropped (they change the sum by
 * less than 2^-DFS_DFX_DROP of sum|x*y|, far below the DF rounding error). */
#define DFS_DFX_DROP 100
#define DFS_DFX_EMPTY (-100000)

typedef struct {
    dfs_df v;
    int e;
} dfs_dfx;

DFS_HD dfs_dfx dfs_dfx_zero(void)
{
    dfs_dfx r;
    r.v = dfs_df_make(0.0f, 0.0f);
    r.e = DFS_DFX_EMPTY;
    return r;
}

/* 2^d as a float, d in [-126, 127]. */
DFS_HD float dfs_pow2f(int d)
{
    return dfs_float_of_bits((unsigned int)(d + 127) << 23);
}

/* x (finite, non-zero) = (hi + lo) * 2^e with hi + lo in [1, 2) (sign of x), hi the leading 24
 * bits, lo the remaining 29 rounded to 24.  `x` subnormal: pre-scaled by 2^64 (exact). */
DFS_HD dfs_df dfs_df_split_exp(double x, int *e)
{
    unsigned long long u = dfs_d_bits(x);
    int f = (int)((u >> 52) & 0x7ff), adj = 0;
    if (f == 0) {
        x = x * 18446744073709551616.0; /* 2^64 */
        u = dfs_d_bits(x);
        f = (int)((u >> 52) & 0x7ff);
        adj = 64;
    }
    *e = f - 1023 - adj;
    unsigned int sign = (unsigned int)(u >> 63) << 31;
    unsigned long long mant = u & 0xfffffffffffffULL;
    float hi = dfs_float_of_bits(sign | (127u << 23) | (unsigned int)(mant >> 29));
    float lo = dfs_f_mul((float)(unsigned int)(mant & 0x1fffffffu), 2.220446049250313e-16f); /* 2^-52 */
    return dfs_df_make(hi, sign ? -lo : lo);
}

/* v * 2^d for d <= 0 (d < -DFS_DFX_DROP gives 0). */
DFS_HD dfs_df dfs_df_scale_down(dfs_df v, int d)
{
    if (d < -DFS_DFX_DROP)
        return dfs_df_make(0.0f, 0.0f);
    float s = dfs_pow2f(d);
    return dfs_df_make(dfs_f_mul(v.hi, s), dfs_f_mul(v.lo, s));
}

/* acc += p * 2^e with the sloppy (fast) or the accurate DF addition. */
DFS_HD dfs_dfx dfs_dfx_add(dfs_dfx acc, dfs_df p, int e, int accurate)
{
    if (e > acc.e) {
        acc.v = acc.e == DFS_DFX_EMPTY ? dfs_df_make(0.0f, 0.0f) : dfs_df_scale_down(acc.v, acc.e - e);
        acc.e = e;
    } else {
        p = dfs_df_scale_down(p, e - acc.e);
    }
    acc.v = accurate ? dfs_df_add_accurate(acc.v, p) : dfs_df_add_sloppy(acc.v, p);
    return acc;
}

/* acc += x * y for finite x, y (zeros add nothing). */
DFS_HD dfs_dfx dfs_dfx_mad(dfs_dfx acc, double x, double y, int accurate)
{
    if (x == 0.0 || y == 0.0)
        return acc;
    int ex, ey;
    dfs_df a = dfs_df_split_exp(x, &ex), b = dfs_df_split_exp(y, &ey);
    dfs_df p = accurate ? dfs_df_mul_accurate(a, b) : dfs_df_mul_fast(a, b);
    return dfs_dfx_add(acc, p, ex + ey, accurate);
}

DFS_HD dfs_dfx dfs_dfx_merge(dfs_dfx a, dfs_dfx b, int accurate)
{
    if (b.e == DFS_DFX_EMPTY)
        return a;
    return dfs_dfx_add(a, b.v, b.e, accurate);
}

/* A plain DF sum (any magnitude) as v * 2^e with |v.hi| in [1, 2). */
DFS_HD dfs_dfx dfs_dfx_from_df(dfs_df v)
{
    dfs_dfx r = dfs_dfx_zero();
    unsigned int u;
#if defined(__CUDA_ARCH__)
    u = __float_as_uint(v.hi);
#else
    memcpy(&u, &v.hi, sizeof u);
#endif
    int f = (int)((u >> 23) & 0xff);
    if (f == 0)
        return r; /* zero (a subnormal hi is below anything the callers keep) */
    int e = f - 127;
    /* scale by 2^-e in two exact steps (2^-e alone may not be a normal float) */
    float s1 = dfs_pow2f(-(e / 2)), s2 = dfs_pow2f(-(e - e / 2));
    r.v = dfs_df_make(dfs_f_mul(dfs_f_mul(v.hi, s1), s2), dfs_f_mul(dfs_f_mul(v.lo, s1), s2));
    r.e = e;
    return r;
}

/* Whether a binary64 element can take the fast DF path of DOT/GEMV: zero, or magnitude in
 * [2^-37, 2^38) — then products lie in [2^-74, 2^76), their DF error terms stay normal floats and
 * sums of up to 2^50 of them cannot overflow. */
DFS_HD int dfs_df_fast_ok(double x)
{
    unsigned long long u = dfs_d_bits(x) & 0x7fffffffffffffffULL;
    unsigned int f = (unsigned int)(u >> 52);
    return u == 0 || (f - (1023u - 37u)) < 75u;
}

DFS_HD double dfs_dfx_to_double(dfs_dfx a)
{
    if (a.e == DFS_DFX_EMPTY)
        return 0.0;
    return ldexp(dfs_df_to_double(a.v), a.e);
}

#endif
