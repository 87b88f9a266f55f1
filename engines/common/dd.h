/* dd.h — double-double (DD) arithmetic: a value carried as the unevaluated sum hi + lo of two
 * binary64 numbers, |lo| <= ulp(hi)/2, about 106 significant bits and binary64's exponent range;
 * and the two triple-precision storage formats of Mukunoki-Takahashi (ALGORITHMS.md section 2),
 * converted to and from DD in registers.  Host C and CUDA device code alike (built on eft.h and
 * dw_t.h, like df.h; nothing is contracted or reassociated).  u = 2^-53.
 *
 *   dfs_dd_add_sloppy    the paper's DDAdd (QD sloppy add), 11 ops: no bound under cancellation
 *   dfs_dd_add_accurate  AccurateDWPlusDW, 20 ops, relative error <= 3u^2 + 13u^3
 *   dfs_dd_mul           the paper's DDMul: TwoProdFMA + both cross terms + QuickTwoSum, i.e.
 *                        DWTimesDW1 (JMP Alg. 10), relative error <= 6u^2
 *   dfs_dd_mul_accurate  DWTimesDW3, relative error < 4u^2
 *   dfs_dd_mad           acc + a*b the paper's way (DDMul then DDAdd): 20 FP64 instructions
 *
 * Triple precision (storage only; arithmetic in DD):
 *   D+S  binary64 hi + binary32 lo: 77 bits, but lo has binary32's exponent range, so about
 *        2^-72 <= |x| < 2^181 keeps them all (lo is subnormal below, overflows above);
 *   D+I  binary64 hi + int32: the sign, exponent and top 20 fraction bits of the DD's lo (its
 *        upper 32 bits): 74 bits over binary64's range, as long as lo is normal (|x| above
 *        about 2^-960; a subnormal lo keeps fewer bits).  From DD by truncation (the paper) or
 *        rounded to nearest (half the error). */
#ifndef DFS_DD_H
#define DFS_DD_H

#include "bits.h"
#include "eft.h"

typedef struct {
    double hi, lo;
} dfs_dd;

#define DW_T double
#define DW dfs_dd
#define DW_FN(name) dfs_dd_##name
#define DW_ADD dfs_d_add
#define DW_MUL dfs_d_mul
#define DW_FMA dfs_d_fma
#define DW_TWO_SUM dfs_d_two_sum
#define DW_FAST_TWO_SUM dfs_d_fast_two_sum
#define DW_TWO_PROD dfs_d_two_prod
#include "dw_t.h" /* dfs_dd_make, dfs_dd_add_sloppy, dfs_dd_add_accurate, dfs_dd_mul_accurate */

DFS_HD dfs_dd dfs_dd_from_double(double x)
{
    return dfs_dd_make(x, 0.0);
}

/* DD -> binary64: hi + lo rounded once to nearest (one binary64 addition of the two words). */
DFS_HD double dfs_dd_to_double(dfs_dd a)
{
    return dfs_d_add(a.hi, a.lo);
}

/* The paper's DDMul: TwoProdFMA(a.hi, b.hi), the cross terms added to its error, QuickTwoSum. */
DFS_HD dfs_dd dfs_dd_mul(dfs_dd a, dfs_dd b)
{
    double e, p = dfs_d_two_prod(a.hi, b.hi, &e);
    e = dfs_d_add(e, dfs_d_add(dfs_d_mul(a.hi, b.lo), dfs_d_mul(a.lo, b.hi)));
    double hi = dfs_d_fast_two_sum(p, e, &e);
    return dfs_dd_make(hi, e);
}

/* acc + a*b the paper's way: DDMul then DDAdd (sloppy). */
DFS_HD dfs_dd dfs_dd_mad(dfs_dd acc, dfs_dd a, dfs_dd b)
{
    return dfs_dd_add_sloppy(acc, dfs_dd_mul(a, b));
}

/* ---- D+S: binary64 + binary32 ---- */

DFS_HD float dfs_ds_lo(dfs_dd a) /* lo rounded to binary32 */
{
    return (float)a.lo;
}

DFS_HD dfs_dd dfs_dd_from_ds(double hi, float lo)
{
    return dfs_dd_make(hi, (double)lo);
}

/* ---- D+I: binary64 + the upper 32 bits of the DD's lo ---- */

/* Truncated (the paper): the lower 32 bits of lo's encoding dropped, i.e. toward zero. */
DFS_HD int32_t dfs_di_lo_trunc(dfs_dd a)
{
    return (int32_t)(dfs_d_bits(a.lo) >> 32);
}

/* Rounded to nearest (ties away from zero) on lo's magnitude: the dropped half decides. */
DFS_HD int32_t dfs_di_lo_nearest(dfs_dd a)
{
    uint64_t b = dfs_d_bits(a.lo);
    const uint64_t mag = b & 0x7fffffffffffffffull;
    /* stay finite: a lo at the top of binary64's range is only truncated */
    if (mag < 0x7fefffff80000000ull)
        b += 0x80000000ull; /* carries into the exponent when the fraction is all ones: exact */
    return (int32_t)(b >> 32);
}

DFS_HD dfs_dd dfs_dd_from_di(double hi, int32_t lo)
{
    return dfs_dd_make(hi, dfs_d_from_bits((uint64_t)(uint32_t)lo << 32));
}

#endif
