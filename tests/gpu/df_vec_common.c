/* df_vec_common.c — the df_vec test's helpers (see df_vec.c): the double-double reference for
 * DDOT and DGEMV outputs, the verdict of an output against the bound and the maxima of errors,
 * the staging buffers of strided vectors, and the DDOT / DGEMV calls on the test's handle. */
#include "df_vec_common.h"

#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <string.h>

/* ---------- small helpers ---------- */

int fclass(double x)
{
    return isnan(x) ? 1 : isinf(x) ? (x > 0 ? 2 : 3) : 0;
}

const char *const fclass_name[4] = {"finite", "NaN", "+Inf", "-Inf"};

/* ---------- double-double reference ---------- */

/* sum over p < k of a[p*sa] * x[p*sx].  robust = 0: products computed directly (every nonzero
 * product well inside the normal range).  robust = 1: any finite inputs; each product is taken
 * as (ma*mx) 2^(ea+ex) (frexp) and scaled to the largest one (two passes). */
vref ref_dot(const double *a, int64_t sa, const double *x, int64_t sx, int64_t k, int robust)
{
    vref r = {{0, 0}, 0, 0};
    if (!robust) {
        for (int64_t p = 0; p < k; p++) {
            dd t = two_prod(a[p * sa], x[p * sx]);
            r.s = dd_add(r.s, t);
            r.d += fabs(t.hi);
        }
        return r;
    }
    int emax = INT_MIN;
    for (int64_t p = 0; p < k; p++) {
        const double av = a[p * sa], xv = x[p * sx];
        if (av == 0.0 || xv == 0.0)
            continue;
        int ea, ex;
        frexp(av, &ea);
        frexp(xv, &ex);
        if (ea + ex > emax)
            emax = ea + ex;
    }
    if (emax == INT_MIN)
        return r;
    for (int64_t p = 0; p < k; p++) {
        const double av = a[p * sa], xv = x[p * sx];
        if (av == 0.0 || xv == 0.0)
            continue;
        int ea, ex;
        const double ma = frexp(av, &ea), mx = frexp(xv, &ex);
        dd t = two_prod(ma, mx);
        const int sh = ea + ex - emax;
        t.hi = ldexp(t.hi, sh);
        t.lo = ldexp(t.lo, sh);
        r.s = dd_add(r.s, t);
        r.d += fabs(t.hi);
    }
    r.e = emax;
    return r;
}

/* Output r of op(A) x for the tight stored m x n matrix A (trans: op(A) = A^T). */
vref ref_out(const double *A, int64_t m, int64_t n, int trans, int64_t r, const double *x,
             int robust)
{
    return trans ? ref_dot(A + r * m, 1, x, 1, m, robust) : ref_dot(A + r, m, x, 1, n, robust);
}

/* r against alpha * f + beta * y0 (y0 not read for beta = 0): allowed |r - exact| <=
 * bound * (|alpha| sum|a x| + |beta y0|) + (4|alpha| + 4) 2^-1074.  Computed in units of 2^U with
 * U the exponent of that denominator, so that neither overflow nor underflow disturbs it. */
verdict judge(double r, const vref *f, double alpha, double beta, double y0, double bound)
{
    verdict v = {0, 0, 0, 0, 0};
    const double absu = 4.0 * fabs(alpha) + 4.0;
    const double by = beta == 0.0 ? 0.0 : fabs(beta * y0);
    if (f->e == 0 && isfinite(r) && f->d < 0x1p900 && by < 0x1p900 &&
        fabs(alpha) * f->d + by > 0x1p-900) {
        /* everything well inside the normal range: no scaling needed */
        dd V = dd_mul_d(f->s, alpha);
        if (beta != 0.0)
            V = dd_add(V, two_prod(beta, y0));
        const double den = fabs(alpha) * f->d + by;
        const double err = fabs((r - V.hi) - V.lo);
        v.ok = err <= bound * den + absu * 0x1p-1074;
        v.rel = err / den;
        v.units = ldexp(err, 1074);
        return v;
    }
    int U = INT_MIN;
    if (alpha != 0.0 && f->d > 0)
        U = ilogb(fabs(alpha) * f->d) + f->e;
    if (beta != 0.0 && y0 != 0.0) {
        int ey = ilogb(beta) + ilogb(y0) + 1;
        if (ey > U)
            U = ey;
    }
    if (U == INT_MIN)
        U = 0;
    const int sh = f->e - U;
    const dd s = {ldexp(f->s.hi, sh), ldexp(f->s.lo, sh)};
    dd V = dd_mul_d(s, alpha);
    double ys = 0;
    if (beta != 0.0) {
        ys = ldexp(y0, -U);
        V = dd_add(V, two_prod(beta, ys));
    }
    const double dens = fabs(alpha) * ldexp(f->d, sh) + fabs(beta * ys);
    const double full = ldexp(V.hi + V.lo, U);
    if (isinf(full)) {
        v.kind = full > 0 ? 2 : 3;
        v.ok = fclass(r) == v.kind;
        v.rel = v.ok ? 0 : INFINITY;
        v.units = v.rel;
        return v;
    }
    v.sub = dens == 0 || U + ilogb(dens) < -1000;
    if (!isfinite(r)) {
        v.rel = v.units = INFINITY;
        return v;
    }
    if (r != 0 && ilogb(r) - U > 1000) {
        /* r dwarfs the exact result: only the absolute allowance can cover it */
        v.ok = fabs(r) <= ldexp(bound * dens, U) + (absu + 1.0) * 0x1p-1074;
        v.rel = INFINITY;
        v.units = ldexp(fabs(r), 1074);
        return v;
    }
    const double rs = ldexp(r, -U);
    const double err = fabs((rs - V.hi) - V.lo);
    v.ok = err <= bound * dens + ldexp(absu, -1074 - U);
    v.rel = dens > 0 ? err / dens : (err == 0 ? 0 : INFINITY);
    v.units = ldexp(err, U + 1074);
    return v;
}

void errs_init(errs *e)
{
    memset(e, 0, sizeof *e);
    e->sub = -1;
    e->vr = -1;
}

void errs_add(errs *e, const verdict *v, int64_t r, double got)
{
    if (!v->ok) {
        if (!e->viol++ || v->rel > e->vrel) {
            e->vr = r;
            e->vgot = got;
            e->vrel = v->rel;
            e->vkind = v->kind;
        }
    }
    if (v->kind != 0)
        return;
    if (v->sub) {
        if (v->units > e->sub || v->units != v->units)
            e->sub = v->units;
    } else if (v->rel > e->norm || v->rel != v->rel) {
        e->norm = v->rel;
    }
}

void errs_merge(errs *into, const errs *e)
{
    if (e->norm > into->norm || e->norm != e->norm)
        into->norm = e->norm;
    if (e->sub > into->sub || e->sub != e->sub)
        into->sub = e->sub;
    into->viol += e->viol;
}

void errs_report(const errs *e, const char *what, double bound)
{
    if (!e->viol)
        return;
    if (e->vkind)
        gt_fail("%s: %zu outputs wrong; e.g. output %lld = %.17g, the exact result overflows to "
                "%s", what, e->viol, (long long)e->vr, e->vgot, fclass_name[e->vkind]);
    else
        gt_fail("%s: %zu outputs above the bound %.3g (+(4|alpha|+4) 2^-1074); worst output "
                "%lld = %.17g, error %.3g x den (%.2f u^2)", what, e->viol, bound,
                (long long)e->vr, e->vgot, e->vrel, e->vrel / 0x1p-48);
}

/* ---------- layouts ---------- */

stage sX, sY;

size_t stage_vec(stage *s, const double *v, int64_t n, int64_t inc, double gap)
{
    const int64_t ainc = inc < 0 ? -inc : inc;
    const size_t span = gt_span(n, inc);
    if (s->n != n || s->ainc != ainc || s->gap != df_bits(gap)) {
        if (ainc > 1)
            for (size_t i = 0; i < span; i++)
                s->h[i] = gap;
        s->n = n;
        s->ainc = ainc;
        s->gap = df_bits(gap);
    }
    const int64_t base = inc > 0 ? 0 : (n - 1) * ainc;
    for (int64_t i = 0; i < n; i++)
        s->h[base + i * inc] = v[i];
    return span;
}

/* ---------- the calls ---------- */

double dot_shim(int is64, int64_t n, int64_t incx, int64_t incy, int dev)
{
    cublasStatus_t st;
    int late;
    const double r = call_dot(&bufs, 0, handle, is64, n, dX, incx, dY, incy, dev, &st, &late);
    if (st != CUBLAS_STATUS_SUCCESS)
        gt_fail("%s: status %s", gt_dot_name(is64), gt_status_name(st));
    if (late)
        gt_fail("host pointer mode: the result was not in the host variable when %s returned",
                gt_dot_name(is64));
    return r;
}

double dot_real(int is64, int64_t n, int64_t incx, int64_t incy, int dev)
{
    cublasStatus_t st;
    int late;
    const double r = call_dot(&bufs, 1, handle, is64, n, dX, incx, dY, incy, dev, &st, &late);
    if (st != CUBLAS_STATUS_SUCCESS)
        gt_fail("real %s: status %s", gt_dot_name(is64), gt_status_name(st));
    return r;
}

void gemv_vectors(const double *x, int64_t k, const double *y0, const double *ynan, int64_t len,
                  int64_t inc)
{
    const size_t sp = lay_vec(hX, x, k, inc, qnan);
    gt_h2d(dX, hX, sp * sizeof *hX);
    sX.n = -1;
    lay_vec(hYt[0], y0, len, inc, Y_GAP);
    lay_vec(hYt[1], ynan, len, inc, Y_GAP);
}

gparams gemv_case(const char *desc, cublasOperation_t op, int64_t m, int64_t n, int64_t lda,
                  int64_t inc, double alpha, double beta, int dev, int is64)
{
    gt_case("%s: %s %lldx%lld op=%c inc=%lld alpha=%g beta=%g ptr=%s", desc, gt_gemv_name(is64),
            (long long)m, (long long)n, gt_op_char(op), (long long)inc, alpha, beta,
            dev ? "device" : "host");
    return (gparams){op, m, n, lda, inc, inc, alpha, beta, dev, is64, dA, dX};
}

/* One DGEMV on `handle` (call_gemv). */
void run_gemv(int real, const gparams *p, const double *ytmpl, double *yl)
{
    call_gemv(&bufs, real, handle, p, ytmpl, yl);
}

/* Bitwise comparison of two logical result vectors; fails naming `what`. */
int same_bits(const char *what, const double *a, const double *b, int64_t len,
              const char *aname, const char *bname)
{
    if (!memcmp(a, b, (size_t)len * sizeof *a))
        return 1;
    int64_t first = -1, nd = 0;
    for (int64_t i = 0; i < len; i++)
        if (df_bits(a[i]) != df_bits(b[i]) && !nd++)
            first = i;
    gt_fail("%s: %lld of %lld outputs differ; first %lld: %s %.17g [%016" PRIx64 "], %s %.17g "
            "[%016" PRIx64 "]", what, (long long)nd, (long long)len, (long long)first, aname,
            a[first], df_bits(a[first]), bname, b[first], df_bits(b[first]));
    return 0;
}
