/* ddx_steps.h — libddblas's arithmetic (include/ddblas.h): the formats read and written, the
 * multiply-adds, the finishing steps and the summation order, shared by its kernels
 * (kernels.cu, the X = true instances) and its CPU implementation (ddblas_host.c), so that both give the same bits.
 *
 * Order (dd_steps.h's plans and trees, with double-double operands):
 *   AXPY  y_i = store(alpha x_i + y_i): mul_accurate(alpha, x_i), add_accurate with y_i.
 *   DOT   dfs_dd_dot_plan(n): chunks of 256 lanes, each lane from zero over terms l, l + 256, ...
 *         of its chunk (dfs_ddx_mad), the lanes' tree, the chunks merged by 256 lanes and their
 *         tree (dfs_dda_merge); the result is the DD sum (its plain twin when not finite).
 *   GEMV  dfs_dd_gemv_plan(trans, m, n) exactly as the dd engine's DGEMV (dd_steps.h), terms by
 *         dfs_ddx_mad, then dfs_ddx_finish with alpha, beta and y_i.
 *   GEMM  every output from zero over q = 0 .. k-1 in order (DDBLAS_ACCURATE: dfs_ddx_mad's DD
 *         part; DDBLAS_PAPER: dfs_dd_mad, the paper's DDMul + sloppy add), then dfs_ddx_finish;
 *         when that is not finite, the plain sum of the hi parts in the same order.  k = 0:
 *         alpha is taken as zero (C = beta C, as BLAS).
 * In the DOT and GEMV sums a plain binary64 twin of the hi parts runs beside the DD sum (fma),
 * as in the dd engine, for the outputs that are not finite. */
#ifndef DFS_DDX_STEPS_H
#define DFS_DDX_STEPS_H

#include "dd_steps.h"

/* the lo array's element type by format (ddblas_format's values) */
enum { DFS_DDX_DD = 0, DFS_DDX_DS = 1, DFS_DDX_DI = 2, DFS_DDX_DI_NEAREST = 3 };

#define DFS_DDX_FLT_MAX 3.4028234663852886e38

DFS_HD dfs_dd dfs_ddx_load(int fmt, const double *hi, const void *lo, int64_t i)
{
    switch (fmt) {
    case DFS_DDX_DD:
        return dfs_dd_make(hi[i], ((const double *)lo)[i]);
    case DFS_DDX_DS:
        return dfs_dd_from_ds(hi[i], ((const float *)lo)[i]);
    default:
        return dfs_dd_from_di(hi[i], ((const int32_t *)lo)[i]);
    }
}

DFS_HD void dfs_ddx_store(int fmt, double *hi, void *lo, int64_t i, dfs_dd v)
{
    hi[i] = v.hi;
    switch (fmt) {
    case DFS_DDX_DD:
        ((double *)lo)[i] = v.lo;
        break;
    case DFS_DDX_DS: /* beyond binary32's range lo is dropped (the value is then v.hi's) */
        ((float *)lo)[i] = v.lo <= DFS_DDX_FLT_MAX && v.lo >= -DFS_DDX_FLT_MAX ? dfs_ds_lo(v) : 0.0f;
        break;
    case DFS_DDX_DI:
        ((int32_t *)lo)[i] = dfs_di_lo_trunc(v);
        break;
    default:
        ((int32_t *)lo)[i] = dfs_di_lo_nearest(v);
        break;
    }
}

DFS_HD int dfs_ddx_is_zero(dfs_dd a)
{
    return a.hi == 0.0 && a.lo == 0.0;
}

DFS_HD int dfs_ddx_finite(dfs_dd a)
{
    return dfs_dd_finite(a.hi) && dfs_dd_finite(a.lo);
}

/* acc + a*b: DWTimesDW3 and AccurateDWPlusDW (29 operations), the plain twin by fma. */
DFS_HD dfs_dda dfs_ddx_mad(dfs_dda acc, dfs_dd a, dfs_dd b)
{
    acc.s = dfs_dd_add_accurate(acc.s, dfs_dd_mul_accurate(a, b));
    acc.p = dfs_d_fma(a.hi, b.hi, acc.p);
    return acc;
}

/* *out = alpha s + beta c in DD (beta zero: c not used; alpha zero: s not used); 0 when that is
 * not finite: then dfs_ddx_finish_plain decides. */
DFS_HD int dfs_ddx_finish(dfs_dd s, dfs_dd alpha, dfs_dd beta, dfs_dd c, dfs_dd *out)
{
    dfs_dd r = dfs_dd_make(0.0, 0.0);
    if (!dfs_ddx_is_zero(alpha))
        r = dfs_dd_mul_accurate(alpha, s);
    if (!dfs_ddx_is_zero(beta))
        r = dfs_dd_add_accurate(r, dfs_dd_mul_accurate(beta, c));
    if (!dfs_ddx_finite(r) || !dfs_ddx_finite(alpha) || !dfs_ddx_finite(beta))
        return 0;
    *out = r;
    return 1;
}

/* alpha.hi * p + beta.hi * c.hi in binary64, lo = 0 (beta zero: c not used). */
DFS_HD dfs_dd dfs_ddx_finish_plain(double p, dfs_dd alpha, dfs_dd beta, dfs_dd c)
{
    double v = dfs_ddx_is_zero(alpha) ? 0.0 : dfs_d_mul(alpha.hi, p);
    if (!dfs_ddx_is_zero(beta))
        v = dfs_d_add(v, dfs_d_mul(beta.hi, c.hi));
    return dfs_dd_make(v, 0.0);
}

DFS_HD dfs_dd dfs_ddx_result(dfs_dda t, dfs_dd alpha, dfs_dd beta, dfs_dd c)
{
    dfs_dd r;
    if (!dfs_ddx_finish(t.s, alpha, beta, c, &r))
        r = dfs_ddx_finish_plain(t.p, alpha, beta, c);
    return r;
}

/* DOT's result: the DD sum, or its plain twin (lo = 0) when that is not finite. */
DFS_HD dfs_dd dfs_ddx_sum(dfs_dda t)
{
    return dfs_ddx_finite(t.s) ? t.s : dfs_dd_make(t.p, 0.0);
}

/* AXPY's element: alpha x + y. */
DFS_HD dfs_dd dfs_ddx_axpy(dfs_dd alpha, dfs_dd x, dfs_dd y)
{
    const dfs_dd r = dfs_dd_add_accurate(dfs_dd_mul_accurate(alpha, x), y);
    if (dfs_ddx_finite(r) && dfs_ddx_finite(alpha))
        return r;
    return dfs_dd_make(dfs_d_add(dfs_d_mul(alpha.hi, x.hi), y.hi), 0.0);
}

#endif
