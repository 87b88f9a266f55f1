/* df_vec — DGEMV and DDOT through the df engine (EXBLAS_MODE=df[:scheme=fused|paper|accurate]).
 * The scheme is read from EXBLAS_MODE only to pick the error bound: accurate -> (3k+4)u^2 + 2^-52,
 * fused and paper -> 4(k+1)u^2 + 2^-52, u = 2^-24, k the inner length (n for DDOT); errors are
 * normwise, |r - ref| / (|alpha| sum|a_p x_p| + |beta y|), against a double-double reference
 * (TwoProd by fma + TwoSum on the CPU).  Every call goes through the shim as a normal cuBLAS call;
 * native cuBLAS (the real function, dlsym) runs on the same data for comparison.  x and y gaps
 * (|inc| > 1) and the padding of A hold NaN (a stray read shows); y outside the vector holds a
 * sentinel that must stay untouched.  cublasDgemv_v2 / _64 and cublasDdot_v2 / _64 alternate.
 *
 *  0. engaged: x = 1 + 2^-25 + 2^-52 (no double-float holds it) times 1 through DDOT n=1 and DGEMV
 *     1x1: the result is not x (binary64 would give x exactly): the calls reach the df engine.
 *  1. accuracy: DDOT n in {1, 7, 1000, 2^20, 2^24+3}, (incx, incy) in {1,3,-2}^2 (2^24+3: three
 *     pairs); DGEMV N, T, C with m x n in {1x1, 37x19, 1000x300, 300x1000, 4096x4096, 16384x64,
 *     64x16384}, lda tight and +5, (incx, incy) in {1,-2}^2, alpha {1,0.5,-3} x beta {0,1,-0.75}
 *     (beta = 0: y full of NaN, which must not propagate); host and device pointer modes; data
 *     uniform [-1,1), phi in {0,1,2,4} ((U - 0.5) exp(phi N(0,1))) and cancellation-heavy pairs.
 *     Every output (4096x4096: 48 sampled) within the bound; a table of the max errors beside
 *     native's.  Also: each call repeated gives bitwise the same result (5.); host and device
 *     pointer modes give bitwise the same result; C gives bitwise the T result; host-mode DDOT has
 *     the value in the host variable as the call returns (6.); whether results depend on the
 *     layout (lda, increments) is only reported.
 *  2. range: elements outside the fast window [2^-37, 2^38): operands scaled by 2^300, 2^-300,
 *     1e-310 (subnormal), 1e200 / 1e-200 mixed in one vector, a single huge element, sums and
 *     products beyond DBL_MAX.  Every output has the kind of the exact result (+-Inf only where
 *     the exact result overflows) and, when finite, lies within the bound (plus (4|alpha| + 4)
 *     2^-1074 absolute, for results in the subnormal range); where native cuBLAS computes without
 *     an intermediate overflow, its kind is the same.
 *  3. special values: Inf, -Inf, NaN in x, y or A (Inf*0, Inf + -Inf included): every output has
 *     the kind (NaN / +Inf / -Inf / finite) of real cuBLAS's; outputs that meet no special value
 *     are finite and within the bound.
 *  4. alpha = 0 in device memory (DGEMV): y = beta*y exactly (0 for beta = 0, y full of NaN), with
 *     NaN and Inf in A and x.
 *  6. host pointer mode DDOT on a non-blocking stream, x changed by a cudaMemcpyAsync on that
 *     stream just before the call: the host variable (pageable or pinned) holds the result of
 *     the new data when the call returns. */
#include "common.h"
#include "df_common.h"
#include "layout.h"

#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DOT_MAXN (((int64_t)1 << 24) + 3)
#define VEC_BUF ((size_t)(1 + (DOT_MAXN - 1) * 3)) /* dX, dY, hX, hY: the largest DDOT span */
#define A_BUF ((size_t)4096 * (4096 + 5))           /* dA, hA */
#define XT_OFF ((size_t)65536)                      /* GEMV: x for op T at dX + XT_OFF */
#define Y_BUF ((size_t)65536)                       /* GEMV y templates and output */
#define Y_GAP (-777.25)                             /* y outside the vector */
#define NSAMP 48                                    /* sampled outputs (4096x4096) */
#define NGEN 6

static int scheme; /* DFS_DF_MAD* */
static const char *scheme_name;
static cublasHandle_t handle;
static double *dX, *dY, *dA, *d_ab, *d_res;
static double *hX, *hY, *hA, *hYt[4], *hYo;
static call_bufs bufs; /* d_ab, d_res, dY, hYo */
static double qnan;
static double t_start;

/* ---------- small helpers ---------- */

static int fclass(double x)
{
    return isnan(x) ? 1 : isinf(x) ? (x > 0 ? 2 : 3) : 0;
}

static const char *const fclass_name[4] = {"finite", "NaN", "+Inf", "-Inf"};

/* EXBLAS_MODE=df[:key=value,...] -> the scheme; fatal for anything else. */
static void parse_mode(void)
{
    scheme = df_test_scheme("df_vec", &scheme_name);
}

/* ---------- double-double reference ---------- */

/* sum_p a_p x_p = s * 2^e and sum_p |a_p x_p| = d * 2^e (finite inputs). */
typedef struct {
    dd s;
    double d;
    int e;
} vref;

/* sum over p < k of a[p*sa] * x[p*sx].  robust = 0: products computed directly (every nonzero
 * product well inside the normal range).  robust = 1: any finite inputs; each product is taken
 * as (ma*mx) 2^(ea+ex) (frexp) and scaled to the largest one (two passes). */
static vref ref_dot(const double *a, int64_t sa, const double *x, int64_t sx, int64_t k,
                    int robust)
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
static vref ref_out(const double *A, int64_t m, int64_t n, int trans, int64_t r, const double *x,
                    int robust)
{
    return trans ? ref_dot(A + r * m, 1, x, 1, m, robust) : ref_dot(A + r, m, x, 1, n, robust);
}

typedef struct {
    int kind;     /* kind of the exact result: 0 finite, 2 +Inf, 3 -Inf */
    int ok;       /* r has that kind and, when finite, lies within the bound */
    int sub;      /* den below 2^-1000 (errors then reported in units of 2^-1074) */
    double rel;   /* |r - exact| / den */
    double units; /* |r - exact| / 2^-1074 */
} verdict;

/* r against alpha * f + beta * y0 (y0 not read for beta = 0): allowed |r - exact| <=
 * bound * (|alpha| sum|a x| + |beta y0|) + (4|alpha| + 4) 2^-1074.  Computed in units of 2^U with
 * U the exponent of that denominator, so that neither overflow nor underflow disturbs it. */
static verdict judge(double r, const vref *f, double alpha, double beta, double y0, double bound)
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

/* Maxima of errors over outputs. */
typedef struct {
    double norm; /* max normwise error over outputs with den >= 2^-1000 */
    double sub;  /* max error in units of 2^-1074 over the others; -1 if none */
    size_t viol; /* outputs not ok */
    int64_t vr;  /* the worst of them */
    double vgot, vrel;
    int vkind;
} errs;

static void errs_init(errs *e)
{
    memset(e, 0, sizeof *e);
    e->sub = -1;
    e->vr = -1;
}

static void errs_add(errs *e, const verdict *v, int64_t r, double got)
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

static void errs_merge(errs *into, const errs *e)
{
    if (e->norm > into->norm || e->norm != e->norm)
        into->norm = e->norm;
    if (e->sub > into->sub || e->sub != e->sub)
        into->sub = e->sub;
    into->viol += e->viol;
}

static void errs_report(const errs *e, const char *what, double bound)
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

/* ---------- data ---------- */

static double unif(uint64_t *s)
{
    return (double)(gt_rand(s) >> 11) * 0x1p-52 - 1.0;
}

/* gen 0: uniform [-1, 1); 1..4: (U - 0.5) exp(phi N(0,1)), phi = 0, 1, 2, 4; 5: see below. */
static const char *const gen_names[NGEN] = {"uniform", "phi=0", "phi=1", "phi=2", "phi=4",
                                            "cancel"};
static const double gen_phi[NGEN] = {0, 0, 1, 2, 4, 0};

static void fill_phi(double *x, size_t n, double phi, uint64_t seed)
{
    uint64_t s = seed;
    for (size_t i = 0; i < n; i += 2) {
        const double u1 = ((double)(gt_rand(&s) >> 11) + 1.0) * 0x1p-53;
        const double u2 = (double)(gt_rand(&s) >> 11) * 0x1p-53;
        const double rad = sqrt(-2.0 * log(u1)), t = 6.283185307179586 * u2;
        const double g[2] = {rad * cos(t), rad * sin(t)};
        for (size_t q = 0; q < 2 && i + q < n; q++) {
            const double U = (double)(gt_rand(&s) >> 11) * 0x1p-53;
            x[i + q] = phi == 0 ? U - 0.5 : (U - 0.5) * exp(phi * g[q]);
        }
    }
}

/* (U - 0.5) 2^e, e uniform in [-15, 15]: the wide-exponent values of the cancellation data. */
static double wide(uint64_t *s)
{
    const double U = (double)(gt_rand(s) >> 11) * 0x1p-53;
    return ldexp(U - 0.5, (int)(gt_rand(s) % 31) - 15);
}

/* v (1 + d), |d| < 2^-21: the partner of v in a cancelling pair. */
static double perturb(double v, uint64_t *s)
{
    return v * (1.0 + ((double)(gt_rand(s) >> 11) * 0x1p-53 - 0.5) * 0x1p-20);
}

static void fill_vec(double *x, size_t n, int gen, uint64_t seed)
{
    if (gen == 0)
        gt_fill(x, n, seed);
    else
        fill_phi(x, n, gen_phi[gen], seed);
}

/* DDOT data.  Cancellation: x[h+i] = x[i] (1 + d_i), y[h+i] = -y[i] (h = n/2), x wide-exponent:
 * sum x y = -sum x_i y_i d_i, some 2^-21 of sum |x y|. */
static void fill_dot(double *x, double *y, int64_t n, int gen, uint64_t seed)
{
    if (gen != NGEN - 1) {
        fill_vec(x, (size_t)n, gen, seed);
        fill_vec(y, (size_t)n, gen, seed + 1);
        return;
    }
    uint64_t s = seed;
    const int64_t h = n / 2;
    for (int64_t i = 0; i < h; i++) {
        x[i] = wide(&s);
        y[i] = unif(&s);
        x[h + i] = perturb(x[i], &s);
        y[h + i] = -y[i];
    }
    if (n & 1) {
        x[n - 1] = wide(&s) * 0x1p-20;
        y[n - 1] = unif(&s);
    }
}

/* GEMV data for the stored m x n matrix A, x for op N (n elements) and op T (m).  Cancellation:
 * A's four quadrants (hm = m/2, hn = n/2) are one wide-exponent block perturbed three ways, and
 * x = [x1, -x1] (an odd last element 2^-20 small): every output of op(A) x cancels. */
static void fill_gemv(double *A, int64_t m, int64_t n, double *xN, double *xT, int gen,
                      uint64_t seed)
{
    if (gen != NGEN - 1) {
        fill_vec(A, (size_t)(m * n), gen, seed);
        fill_vec(xN, (size_t)n, gen, seed + 1);
        fill_vec(xT, (size_t)m, gen, seed + 2);
        return;
    }
    uint64_t s = seed;
    for (int64_t i = 0; i < m * n; i++)
        A[i] = wide(&s);
    const int64_t hm = m / 2, hn = n / 2;
    for (int64_t j = 0; j < hn; j++)
        for (int64_t i = 0; i < hm; i++) {
            const double b = A[i + j * m];
            A[i + (j + hn) * m] = perturb(b, &s);
            A[i + hm + j * m] = perturb(b, &s);
            A[i + hm + (j + hn) * m] = perturb(b, &s);
        }
    double *xs[2] = {xN, xT};
    const int64_t len[2] = {n, m};
    for (int t = 0; t < 2; t++) {
        const int64_t h = len[t] / 2;
        for (int64_t i = 0; i < h; i++) {
            xs[t][i] = unif(&s);
            xs[t][h + i] = -xs[t][i];
        }
        if (len[t] & 1)
            xs[t][len[t] - 1] = unif(&s) * 0x1p-20;
    }
}

/* ---------- layouts ---------- */

/* A staging buffer for a strided vector; remembers where its gaps are so that a vector of the
 * same length and |inc| is stored without rewriting them. */
typedef struct {
    double *h;
    int64_t n, ainc;
    uint64_t gap;
} stage;

static stage sX, sY;

static size_t stage_vec(stage *s, const double *v, int64_t n, int64_t inc, double gap)
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

static double dot_shim(int is64, int64_t n, int64_t incx, int64_t incy, int dev)
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

static double dot_real(int is64, int64_t n, int64_t incx, int64_t incy, int dev)
{
    cublasStatus_t st;
    int late;
    const double r = call_dot(&bufs, 1, handle, is64, n, dX, incx, dY, incy, dev, &st, &late);
    if (st != CUBLAS_STATUS_SUCCESS)
        gt_fail("real %s: status %s", gt_dot_name(is64), gt_status_name(st));
    return r;
}

/* One DGEMV on `handle` (call_gemv). */
static void run_gemv(int real, const gparams *p, const double *ytmpl, double *yl)
{
    call_gemv(&bufs, real, handle, p, ytmpl, yl);
}

/* Bitwise comparison of two logical result vectors; fails naming `what`. */
static int same_bits(const char *what, const double *a, const double *b, int64_t len,
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

/* ---------- 0. the calls reach the df engine ---------- */

static void engaged_group(void)
{
    const double xv = 1.0 + 0x1p-25 + 0x1p-52, one = 1.0;
    df_group("engaged: x = 1 + 2^-25 + 2^-52 (no double-float holds it) times 1: DDOT n=1 and "
          "DGEMV 1x1 ops N,T (alpha 1, beta 0) through the shim give a value other than x "
          "(binary64, native cuBLAS: x exactly); 32/64-bit APIs, host/device pointers");
    gt_h2d(dX, &xv, sizeof xv);
    gt_h2d(dY, &one, sizeof one);
    gt_h2d(dA, &xv, sizeof xv);
    gt_h2d(dX + XT_OFF, &one, sizeof one);
    for (int is64 = 0; is64 < 2; is64++)
        for (int dev = 0; dev < 2; dev++) {
            gt_case("%s ptr=%s", gt_dot_name(is64), dev ? "device" : "host");
            /* the DGEMV cases below write their y where DDOT's y lives: load both again */
            gt_h2d(dX, &xv, sizeof xv);
            gt_h2d(dY, &one, sizeof one);
            const double r = dot_shim(is64, 1, 1, 1, dev), rn = dot_real(is64, 1, 1, 1, dev);
            if (r == xv)
                gt_fail("the result is x exactly (%.17g): binary64 arithmetic, not the df engine "
                        "(declined or routed natively?)", r);
            else if (fabs(r - xv) > 0x1p-46)
                gt_fail("result %.17g, x = %.17g", r, xv);
            if (rn != xv)
                gt_note("native cuBLAS gives %.17g, not x", rn);
            for (int t = 0; t < 2; t++) {
                gt_case("%s op=%c ptr=%s", gt_gemv_name(is64), t ? 'T' : 'N',
                        dev ? "device" : "host");
                gparams p = {t ? CUBLAS_OP_T : CUBLAS_OP_N, 1, 1, 1, 1, 1, 1.0, 0.0, dev, is64,
                             dA, dX + XT_OFF};
                double y;
                lay_vec(hYt[0], &qnan, 1, 1, Y_GAP);
                run_gemv(0, &p, hYt[0], &y);
                if (y == xv)
                    gt_fail("y is A*x exactly (%.17g): binary64 arithmetic, not the df engine", y);
                else if (fabs(y - xv) > 0x1p-46)
                    gt_fail("y = %.17g, A*x = %.17g", y, xv);
            }
        }
    df_group_end();
}

/* ---------- 1. accuracy: DDOT ---------- */

static const int64_t dot_ns[5] = {1, 7, 1000, 1 << 20, DOT_MAXN};
static const int64_t inc3[3] = {1, 3, -2};
/* (incx, incy) for the largest n */
static const int64_t big_incs[3][2] = {{1, 1}, {3, -2}, {-2, 3}};

typedef struct {
    errs df, nat;
    double bound;
    int cases;
} tab_row;

static void accuracy_dot_group(void)
{
    static tab_row tab[5][NGEN];
    df_group("accuracy DDOT (scheme %s): n in {1,7,1000,2^20,2^24+3} x (incx,incy) in {1,3,-2}^2 "
          "(2^24+3: (1,1),(3,-2),(-2,3)) x host/device ptr x data {uniform, phi=0,1,2,4, "
          "cancel}: |r - ref| / sum|x y| <= %s; each call twice (bitwise), host = device ptr "
          "(bitwise), host-mode result in the variable as the call returns", scheme_name,
          df_test_bound_text(scheme));
    double *x = df_xmalloc((size_t)DOT_MAXN), *y = df_xmalloc((size_t)DOT_MAXN);
    size_t layout_diff = 0, layout_total = 0;
    for (int ni = 0; ni < 5; ni++) {
        const int64_t n = dot_ns[ni];
        const double bound = df_test_bound(scheme, n);
        for (int gi = 0; gi < NGEN; gi++) {
            tab_row *row = &tab[ni][gi];
            errs_init(&row->df);
            errs_init(&row->nat);
            row->bound = bound;
            fill_dot(x, y, n, gi, 7000 + 100 * (uint64_t)ni + 10 * (uint64_t)gi);
            const vref f = ref_dot(x, 1, y, 1, n, 0);
            const int ncombo = ni < 4 ? 9 : 3;
            double first = 0;
            for (int cc = 0; cc < ncombo; cc++) {
                /* every other data set in reverse: the staging buffers keep their gaps */
                const int c = gi & 1 ? ncombo - 1 - cc : cc;
                const int64_t incx = ni < 4 ? inc3[c / 3] : big_incs[c][0];
                const int64_t incy = ni < 4 ? inc3[c % 3] : big_incs[c][1];
                gt_h2d(dX, hX, stage_vec(&sX, x, n, incx, qnan) * sizeof *hX);
                gt_h2d(dY, hY, stage_vec(&sY, y, n, incy, qnan) * sizeof *hY);
                double host_r = 0;
                for (int dev = 0; dev < 2; dev++) {
                    const int is64 = (c + dev) & 1;
                    gt_case("%s n=%lld incx=%lld incy=%lld %s ptr=%s", gt_dot_name(is64),
                            (long long)n, (long long)incx, (long long)incy, gen_names[gi],
                            dev ? "device" : "host");
                    row->cases++;
                    const double r = dot_shim(is64, n, incx, incy, dev);
                    const double r2 = dot_shim(is64, n, incx, incy, dev);
                    const double rn = dot_real(is64, n, incx, incy, dev);
                    errs e, en;
                    errs_init(&e);
                    errs_init(&en);
                    verdict v = judge(r, &f, 1.0, 0.0, 0.0, bound);
                    errs_add(&e, &v, 0, r);
                    v = judge(rn, &f, 1.0, 0.0, 0.0, bound);
                    errs_add(&en, &v, 0, rn);
                    errs_report(&e, "result", bound);
                    errs_merge(&row->df, &e);
                    errs_merge(&row->nat, &en);
                    same_bits("the same call again", &r, &r2, 1, "first", "second");
                    if (!dev)
                        host_r = r;
                    else
                        same_bits("device vs host pointer mode", &host_r, &r, 1, "host",
                                  "device");
                    if (cc == 0 && dev == 0)
                        first = r;
                    layout_total++;
                    layout_diff += df_bits(r) != df_bits(first);
                }
            }
        }
    }
    free(x);
    free(y);
    df_group_end();
    printf("     results that differ (bitwise) from the first of the same data with other "
           "increments (not required): %zu of %zu\n", layout_diff, layout_total);
    printf("     DDOT accuracy (scheme %s, u = 2^-24): max |r - ref| / sum|x y| over the "
           "increments and pointer modes\n", scheme_name);
    for (int ni = 0; ni < 5; ni++)
        for (int gi = 0; gi < NGEN; gi++) {
            const tab_row *t = &tab[ni][gi];
            printf("     n=%-9lld %-8s df %9.3e (%8.3f u^2)  native %9.3e  df/native %8.3g  "
                   "bound %9.3e  (%d calls)\n", (long long)dot_ns[ni], gen_names[gi], t->df.norm,
                   t->df.norm / 0x1p-48, t->nat.norm,
                   t->nat.norm > 0 ? t->df.norm / t->nat.norm : INFINITY, t->bound, t->cases);
        }
}

/* ---------- 1. accuracy: DGEMV ---------- */

static const int64_t gemv_shapes[7][2] = {{1, 1},       {37, 19},     {1000, 300}, {300, 1000},
                                          {4096, 4096}, {16384, 64}, {64, 16384}};
static const double alphas3[3] = {1, 0.5, -3};
static const double betas3[3] = {0, 1, -0.75};
static const int64_t inc2[2] = {1, -2};

/* Up to NSAMP outputs below len: the ends, both sides of 256, the middle, then random ones. */
static int sample_outputs(int64_t len, int64_t *out, uint64_t seed)
{
    int cnt = 0;
    const int64_t fixed[7] = {0, len - 1, 255, 256, len / 2, 31, 32};
    uint64_t s = seed;
    for (int f = 0; cnt < NSAMP; f++) {
        int64_t v = f < 7 ? fixed[f] : (int64_t)(gt_rand(&s) % (uint64_t)len);
        int dup = v >= len;
        for (int c = 0; c < cnt && !dup; c++)
            dup = out[c] == v;
        if (!dup)
            out[cnt++] = v;
    }
    return cnt;
}

static void accuracy_gemv_group(void)
{
    static tab_row tab[7][2][NGEN];
    df_group("accuracy DGEMV (scheme %s): m x n in {1x1, 37x19, 1000x300, 300x1000, 4096x4096 "
          "(%d sampled outputs), 16384x64, 64x16384} x ops N,T,C x lda tight/+5 x (incx,incy) in "
          "{1,-2}^2 x alpha {1,0.5,-3} x beta {0,1,-0.75} x host/device ptr x data {uniform, "
          "phi=0,1,2,4, cancel}: |y - ref| / (|alpha| sum|a x| + |beta y|) <= %s; each call "
          "twice (bitwise), host = device ptr (bitwise), C = T (bitwise); beta = 0 with y full "
          "of NaN", scheme_name, NSAMP, df_test_bound_text(scheme));
    const size_t maxlen = 16384;
    double *ycur[2][2], *yfirst[2][9], *nan_vec = df_xmalloc(maxlen);
    double *yN = df_xmalloc(maxlen), *yT = df_xmalloc(maxlen), *xN = df_xmalloc(maxlen),
           *xT = df_xmalloc(maxlen);
    double *yl = df_xmalloc(maxlen), *yl2 = df_xmalloc(maxlen), *yn = df_xmalloc(maxlen),
           *yc = df_xmalloc(maxlen);
    for (int t = 0; t < 2; t++) {
        for (int d = 0; d < 2; d++)
            ycur[t][d] = df_xmalloc(maxlen);
        for (int a = 0; a < 9; a++)
            yfirst[t][a] = df_xmalloc(maxlen);
    }
    gt_fill_const(nan_vec, maxlen, qnan);
    vref *R[2] = {malloc(maxlen * sizeof(vref)), malloc(maxlen * sizeof(vref))};
    int64_t *outs[2] = {malloc(maxlen * sizeof(int64_t)), malloc(maxlen * sizeof(int64_t))};
    double *A = df_xmalloc((size_t)4096 * 4096);
    if (!R[0] || !R[1] || !outs[0] || !outs[1])
        gt_fatal("out of host memory");
    size_t layout_diff = 0, layout_total = 0;
    int counter = 0;
    for (int si = 0; si < 7; si++) {
        const int64_t m = gemv_shapes[si][0], n = gemv_shapes[si][1];
        const int sampled = m * n > 4096 * 1024;
        for (int gi = 0; gi < NGEN; gi++) {
            const uint64_t seed = 9000 + 100 * (uint64_t)si + 10 * (uint64_t)gi;
            fill_gemv(A, m, n, xN, xT, gi, seed);
            gt_fill(yN, (size_t)m, seed + 5);
            gt_fill(yT, (size_t)n, seed + 6);
            int nout[2];
            for (int t = 0; t < 2; t++) {
                const int64_t len = t ? n : m;
                if (sampled) {
                    nout[t] = sample_outputs(len, outs[t], seed + 7 + (uint64_t)t);
                } else {
                    nout[t] = (int)len;
                    for (int64_t r = 0; r < len; r++)
                        outs[t][r] = r;
                }
                for (int q = 0; q < nout[t]; q++)
                    R[t][q] = ref_out(A, m, n, t, outs[t][q], t ? xT : xN, 0);
                tab_row *row = &tab[si][t][gi];
                errs_init(&row->df);
                errs_init(&row->nat);
                row->bound = df_test_bound(scheme, t ? m : n);
                row->cases = 0;
            }
            for (int pad = 0; pad <= 5; pad += 5) {
                const int64_t lda = m + pad;
                upload_A(dA, hA, A_BUF, A, m, n, lda);
                for (int ic = 0; ic < 4; ic++) {
                    const int64_t incx = inc2[ic / 2], incy = inc2[ic % 2];
                    size_t sp = lay_vec(hX, xN, n, incx, qnan);
                    gt_h2d(dX, hX, sp * sizeof *hX);
                    sp = lay_vec(hX, xT, m, incx, qnan);
                    gt_h2d(dX + XT_OFF, hX, sp * sizeof *hX);
                    sX.n = -1; /* hX rewritten */
                    make_ytemplates(hYt, yN, yT, m, n, incy, nan_vec, Y_GAP);
                    for (int ab = 0; ab < 9; ab++) {
                        const double alpha = alphas3[ab / 3], beta = betas3[ab % 3];
                        for (int dev = 0; dev < 2; dev++) {
                            const int is64 = counter++ & 1;
                            for (int t = 0; t < 3; t++) { /* N, T, C */
                                const int tr = t > 0;
                                const cublasOperation_t op =
                                    t == 0 ? CUBLAS_OP_N : t == 1 ? CUBLAS_OP_T : CUBLAS_OP_C;
                                const int64_t len = tr ? n : m, k = tr ? m : n;
                                const double bound = df_test_bound(scheme, k);
                                const double *ytm = hYt[2 * tr + (beta == 0.0)];
                                const double *y0 = tr ? yT : yN;
                                gparams p = {op, m, n, lda, incx, incy, alpha, beta, dev, is64,
                                             dA, tr ? dX + XT_OFF : dX};
                                gt_case("%s %lldx%lld op=%c lda=%lld incx=%lld incy=%lld "
                                        "alpha=%g beta=%g %s ptr=%s", gt_gemv_name(is64),
                                        (long long)m, (long long)n, gt_op_char(op),
                                        (long long)lda, (long long)incx, (long long)incy, alpha,
                                        beta, gen_names[gi], dev ? "device" : "host");
                                if (t == 2) {
                                    run_gemv(0, &p, ytm, yc);
                                    same_bits("op C vs op T", ycur[1][dev], yc, len, "T", "C");
                                    continue;
                                }
                                tab_row *row = &tab[si][tr][gi];
                                row->cases++;
                                run_gemv(0, &p, ytm, yl);
                                run_gemv(0, &p, ytm, yl2);
                                run_gemv(1, &p, ytm, yn);
                                memcpy(ycur[tr][dev], yl, (size_t)len * sizeof *yl);
                                same_bits("the same call again", yl, yl2, len, "first", "second");
                                if (dev)
                                    same_bits("device vs host pointer mode", ycur[tr][0], yl, len,
                                              "host", "device");
                                if (beta == 0.0) {
                                    int64_t bad = -1;
                                    for (int64_t r = 0; r < len && bad < 0; r++)
                                        if (isnan(yl[r]))
                                            bad = r;
                                    if (bad >= 0)
                                        gt_fail("y(%lld) is NaN with beta = 0 (the NaN in y "
                                                "propagated?)", (long long)bad);
                                }
                                errs e, en;
                                errs_init(&e);
                                errs_init(&en);
                                for (int q = 0; q < nout[tr]; q++) {
                                    const int64_t r = outs[tr][q];
                                    verdict v = judge(yl[r], &R[tr][q], alpha, beta, y0[r], bound);
                                    errs_add(&e, &v, r, yl[r]);
                                    v = judge(yn[r], &R[tr][q], alpha, beta, y0[r], bound);
                                    errs_add(&en, &v, r, yn[r]);
                                }
                                errs_report(&e, "y", bound);
                                errs_merge(&row->df, &e);
                                errs_merge(&row->nat, &en);
                                if (pad == 0 && ic == 0 && dev == 0) {
                                    memcpy(yfirst[tr][ab], yl, (size_t)len * sizeof *yl);
                                } else {
                                    layout_total++;
                                    layout_diff += memcmp(yfirst[tr][ab], yl,
                                                          (size_t)len * sizeof *yl) != 0;
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    df_group_end();
    printf("     result vectors that differ (bitwise) from those of the same data with lda tight "
           "and incx = incy = 1 (not required): %zu of %zu\n", layout_diff, layout_total);
    printf("     DGEMV accuracy (scheme %s, u = 2^-24): max |y - ref| / (|alpha| sum|a x| + "
           "|beta y|) over lda, increments, alpha, beta, pointer modes (C: bitwise T)\n",
           scheme_name);
    for (int si = 0; si < 7; si++)
        for (int t = 0; t < 2; t++)
            for (int gi = 0; gi < NGEN; gi++) {
                const tab_row *r = &tab[si][t][gi];
                char shape[32];
                snprintf(shape, sizeof shape, "%lldx%lld %c", (long long)gemv_shapes[si][0],
                         (long long)gemv_shapes[si][1], t ? 'T' : 'N');
                printf("     %-13s %-8s df %9.3e (%8.3f u^2)  native %9.3e  df/native %8.3g  "
                       "bound %9.3e  (%d calls)\n", shape, gen_names[gi], r->df.norm,
                       r->df.norm / 0x1p-48, r->nat.norm,
                       r->nat.norm > 0 ? r->df.norm / r->nat.norm : INFINITY, r->bound, r->cases);
            }
    for (int t = 0; t < 2; t++) {
        for (int d = 0; d < 2; d++)
            free(ycur[t][d]);
        for (int a = 0; a < 9; a++)
            free(yfirst[t][a]);
        free(R[t]);
        free(outs[t]);
    }
    free(nan_vec);
    free(yN);
    free(yT);
    free(xN);
    free(xT);
    free(yl);
    free(yl2);
    free(yn);
    free(yc);
    free(A);
}

/* ---------- 2. range ---------- */

/* How a scenario changes uniform data: which operands are scaled and how. */
enum {
    SC_NONE,
    SC_MUL,   /* times a constant */
    SC_MIXED, /* times 1e200 or 1e-200, at random */
};

typedef struct {
    const char *desc;
    int a_how;      /* first operand: DDOT x, DGEMV A */
    double a_by;
    int x_how;      /* second operand: DDOT y, DGEMV x */
    double x_by;
    int special;    /* scenario-specific edits, below */
    int native_cmp; /* native computes without intermediate overflow: compare its kinds */
} range_sc;

enum {
    RS_NONE,
    RS_HUGE_A,     /* one element of the first operand 1e300 */
    RS_HUGE_X,     /* one element of the second operand 1e300 */
    RS_OVF_POS,    /* products ~2^1020 of one sign, the sum overflows */
    RS_OVF_PROD,   /* one product 1e310 (DDOT); DGEMV: see range_edit_gemv */
    RS_CANCEL_OVF, /* products +-1e310 that cancel: exact result finite */
    RS_PARTIAL,    /* DDOT: +-1.5e308 terms whose partial sums may overflow, exact finite */
};

static const range_sc range_scs[] = {
    {"x,y (A,x) * 2^300", SC_MUL, 0x1p300, SC_MUL, 0x1p300, RS_NONE, 1},
    {"x,y (A,x) * 2^-300", SC_MUL, 0x1p-300, SC_MUL, 0x1p-300, RS_NONE, 1},
    {"x (A) * 2^300, y (x) * 2^-300", SC_MUL, 0x1p300, SC_MUL, 0x1p-300, RS_NONE, 1},
    {"x (A) * 1e-310 (subnormal)", SC_MUL, 1e-310, SC_NONE, 1, RS_NONE, 1},
    {"x (A) * 1e-310, y (x) * 2^300", SC_MUL, 1e-310, SC_MUL, 0x1p300, RS_NONE, 1},
    {"x,y (A,x) * 1e-310 (exact result below the subnormals)", SC_MUL, 1e-310, SC_MUL, 1e-310,
     RS_NONE, 1},
    {"x (A) mixed 1e200 / 1e-200", SC_MIXED, 0, SC_NONE, 1, RS_NONE, 1},
    {"y (x) mixed 1e200 / 1e-200", SC_NONE, 1, SC_MIXED, 0, RS_NONE, 1},
    {"both mixed 1e200 / 1e-200 (products 1e400: the exact sums overflow)", SC_MIXED, 0,
     SC_MIXED, 0, RS_NONE, 0},
    {"one element of x (A) = 1e300", SC_NONE, 1, SC_NONE, 1, RS_HUGE_A, 1},
    {"one element of y (x) = 1e300", SC_NONE, 1, SC_NONE, 1, RS_HUGE_X, 1},
    {"products ~2^1020 of one sign: the sum overflows", SC_NONE, 1, SC_NONE, 1, RS_OVF_POS, 1},
    {"one product 1e300 * 1e10 (overflows)", SC_NONE, 1, SC_NONE, 1, RS_OVF_PROD, 1},
    {"products +1e310 and -1e310 cancel: the exact result is finite (native: Inf - Inf)",
     SC_NONE, 1, SC_NONE, 1, RS_CANCEL_OVF, 0},
};
#define N_RANGE (int)(sizeof range_scs / sizeof range_scs[0])

static void scale_vec(double *v, size_t n, int how, double by, uint64_t seed)
{
    uint64_t s = seed;
    for (size_t i = 0; i < n; i++) {
        if (how == SC_MUL)
            v[i] *= by;
        else if (how == SC_MIXED)
            v[i] *= (gt_rand(&s) & 1) ? 1e200 : 1e-200;
    }
}

/* Positive values in [0.5, 1) times s. */
static void pos_vec(double *v, size_t n, double sc, uint64_t seed)
{
    uint64_t st = seed;
    for (size_t i = 0; i < n; i++)
        v[i] = ((double)(gt_rand(&st) >> 11) * 0x1p-54 + 0.5) * sc;
}

/* Results tallied per range scenario (and op): errors, non-finite counts. */
typedef struct {
    errs df, nat;
    size_t outs, inf_exact, inf_df, inf_nat, nan_nat;
    int cases;
} range_row;

static void range_tally(range_row *row, const double *got, const double *nat, const vref *R,
                        int64_t len, double alpha, double beta, const double *y0, double bound,
                        int native_cmp)
{
    errs e;
    errs_init(&e);
    int64_t kd = -1, nkd = 0;
    for (int64_t r = 0; r < len; r++) {
        const double yv = beta == 0.0 ? 0.0 : y0[r];
        verdict v = judge(got[r], &R[r], alpha, beta, yv, bound);
        errs_add(&e, &v, r, got[r]);
        verdict vn = judge(nat[r], &R[r], alpha, beta, yv, bound);
        if (vn.kind == 0)
            errs_add(&row->nat, &vn, r, nat[r]);
        row->outs++;
        row->inf_exact += v.kind != 0;
        row->inf_df += isinf(got[r]) != 0;
        row->inf_nat += isinf(nat[r]) != 0;
        row->nan_nat += isnan(nat[r]) != 0;
        if (native_cmp && fclass(got[r]) != fclass(nat[r]) && !nkd++)
            kd = r;
    }
    errs_report(&e, len > 1 ? "y" : "result", bound);
    errs_merge(&row->df, &e);
    if (nkd)
        gt_fail("%lld outputs differ in kind from real cuBLAS; first %lld: shim %s (%.17g), "
                "real %s (%.17g)", (long long)nkd, (long long)kd, fclass_name[fclass(got[kd])],
                got[kd], fclass_name[fclass(nat[kd])], nat[kd]);
}

static void range_row_print(const char *label, const range_row *r)
{
    char sub[128] = "";
    if (r->df.sub >= 0 || r->nat.sub >= 0)
        snprintf(sub, sizeof sub, "  subnormal-range outputs: |r - ref| df %.3g native %.3g "
                 "x 2^-1074", r->df.sub, r->nat.sub);
    printf("     %-34s df %9.3e  native %9.3e  outputs %zu, exact overflow %zu, df +-Inf %zu, "
           "native +-Inf %zu NaN %zu%s\n", label, r->df.norm, r->nat.norm, r->outs, r->inf_exact,
           r->inf_df, r->inf_nat, r->nan_nat, sub);
}

/* The DDOT data of range scenario sc (variant ni) of length n. */
static void range_data_dot(int sc, int ni, double *x, double *y, int64_t n)
{
    const range_sc *S = &range_scs[sc];
    const uint64_t seed = 11000 + 10 * (uint64_t)sc + (uint64_t)ni;
    gt_fill(x, (size_t)n, seed);
    gt_fill(y, (size_t)n, seed + 1);
    scale_vec(x, (size_t)n, S->a_how, S->a_by, seed + 2);
    scale_vec(y, (size_t)n, S->x_how, S->x_by, seed + 3);
    const int64_t i0 = n / 3;
    switch (S->special) {
    case RS_HUGE_A:
        x[i0] = 1e300;
        break;
    case RS_HUGE_X:
        y[i0] = -1e300;
        break;
    case RS_OVF_POS:
        pos_vec(x, (size_t)n, 0x1.8p1020, seed + 4);
        pos_vec(y, (size_t)n, ni ? -1.0 : 1.0, seed + 5); /* -Inf, +Inf */
        break;
    case RS_OVF_PROD:
        x[i0] = 1e300;
        y[i0] = -1e10;
        break;
    case RS_CANCEL_OVF:
        x[i0] = 1e300;
        x[i0 + 7] = -1e300;
        y[i0] = y[i0 + 7] = 1e10;
        break;
    default:
        break;
    }
}

static void range_dot_group(void)
{
    static const int64_t ns[2] = {1000, 100003};
    static range_row tab[N_RANGE];
    df_group("range DDOT, n in {1000, 100003} x (incx,incy) in {(1,1),(-2,3)} x host/device ptr, "
          "uniform data with elements outside [2^-37, 2^38): the kind of the exact result, "
          "within %s (+8 x 2^-1074); the kind of native's where it has no intermediate overflow",
          df_test_bound_text(scheme));
    double *x = df_xmalloc(100003), *y = df_xmalloc(100003);
    for (int sc = 0; sc < N_RANGE; sc++) {
        const range_sc *S = &range_scs[sc];
        memset(&tab[sc], 0, sizeof tab[sc]);
        errs_init(&tab[sc].df);
        errs_init(&tab[sc].nat);
        for (int ni = 0; ni < 2; ni++) {
            const int64_t n = ns[ni];
            range_data_dot(sc, ni, x, y, n);
            const vref f = ref_dot(x, 1, y, 1, n, 1);
            const double bound = df_test_bound(scheme, n);
            for (int c = 0; c < 2; c++) {
                const int64_t incx = c ? -2 : 1, incy = c ? 3 : 1;
                gt_h2d(dX, hX, stage_vec(&sX, x, n, incx, qnan) * sizeof *hX);
                gt_h2d(dY, hY, stage_vec(&sY, y, n, incy, qnan) * sizeof *hY);
                for (int dev = 0; dev < 2; dev++) {
                    const int is64 = (c + dev + ni) & 1;
                    gt_case("%s: %s n=%lld incx=%lld incy=%lld ptr=%s", S->desc,
                            gt_dot_name(is64), (long long)n, (long long)incx, (long long)incy,
                            dev ? "device" : "host");
                    tab[sc].cases++;
                    const double r = dot_shim(is64, n, incx, incy, dev);
                    const double r2 = dot_shim(is64, n, incx, incy, dev);
                    const double rn = dot_real(is64, n, incx, incy, dev);
                    same_bits("the same call again", &r, &r2, 1, "first", "second");
                    range_tally(&tab[sc], &r, &rn, &f, 1, 1.0, 0.0, NULL, bound, S->native_cmp);
                }
            }
        }
    }
    free(x);
    free(y);
    df_group_end();
    printf("     DDOT range (scheme %s): max normwise errors (outputs out of the subnormal "
           "range)\n", scheme_name);
    for (int sc = 0; sc < N_RANGE; sc++)
        range_row_print(range_scs[sc].desc, &tab[sc]);
}

/* DGEMV range edits on the stored m x n matrix A and xN (n), xT (m). */
static void range_edit_gemv(int special, double *A, int64_t m, int64_t n, double *xN, double *xT,
                            uint64_t seed)
{
    switch (special) {
    case RS_HUGE_A:
        A[5 + 7 * m] = 1e300;
        break;
    case RS_HUGE_X:
        xN[7] = -1e300;
        xT[5] = 1e300;
        break;
    case RS_OVF_POS:
        /* row 5 and column 7 of A ~1.5 2^1020, x positive: output 5 of op N and output 7 of op T
         * overflow to +Inf; the others meet one such product (finite) */
        pos_vec(xN, (size_t)n, 1.0, seed);
        pos_vec(xT, (size_t)m, 1.0, seed + 1);
        for (int64_t j = 0; j < n; j++)
            A[5 + j * m] = 0x1.8p1020 * (0.75 + 0.25 * fabs(A[5 + j * m]));
        for (int64_t i = 0; i < m; i++)
            if (i != 5) /* A(5,7) is already large */
                A[i + 7 * m] = 0x1.8p1020 * (0.75 + 0.25 * fabs(A[i + 7 * m]));
        break;
    case RS_OVF_PROD:
        /* A(5,7) = 1e300 with x 1e10 where it multiplies it: -Inf at output 5 (N) / 7 (T) */
        A[5 + 7 * m] = 1e300;
        xN[7] = -1e10;
        xT[5] = -1e10;
        break;
    case RS_CANCEL_OVF:
        /* op N output 3: A(3,0) x(0) + A(3,1) x(1) = 1e310 - 1e310; op T output 3 likewise */
        A[3 + 0 * m] = 1e300;
        A[3 + 1 * m] = -1e300;
        A[0 + 3 * m] = 1e300;
        A[1 + 3 * m] = -1e300;
        xN[0] = xN[1] = 1e10;
        xT[0] = xT[1] = 1e10;
        break;
    default:
        break;
    }
}

/* The DGEMV data of range scenario sc (variant si): the stored m x n A, x and y for both ops. */
static void range_data_gemv(int sc, int si, double *A, int64_t m, int64_t n, double *xN,
                            double *xT, double *yN, double *yT)
{
    const range_sc *S = &range_scs[sc];
    const uint64_t seed = 12000 + 10 * (uint64_t)sc + (uint64_t)si;
    gt_fill(A, (size_t)(m * n), seed);
    gt_fill(xN, (size_t)n, seed + 1);
    gt_fill(xT, (size_t)m, seed + 2);
    gt_fill(yN, (size_t)m, seed + 3);
    gt_fill(yT, (size_t)n, seed + 4);
    scale_vec(A, (size_t)(m * n), S->a_how, S->a_by, seed + 5);
    scale_vec(xN, (size_t)n, S->x_how, S->x_by, seed + 6);
    scale_vec(xT, (size_t)m, S->x_how, S->x_by, seed + 7);
    /* y on the scale of the products, so that beta*y does not hide alpha*op(A)x */
    const double ysc = (S->a_how == SC_MUL ? S->a_by : 1) * (S->x_how == SC_MUL ? S->x_by : 1);
    scale_vec(yN, (size_t)m, SC_MUL, ysc, 0);
    scale_vec(yT, (size_t)n, SC_MUL, ysc, 0);
    range_edit_gemv(S->special, A, m, n, xN, xT, seed + 8);
}

static void range_gemv_group(void)
{
    static const int64_t shapes[2][2] = {{300, 200}, {64, 5000}};
    static const double abs_[2][2] = {{1, 0}, {-3, 0.5}};
    static range_row tab[N_RANGE][2];
    df_group("range DGEMV, m x n in {300x200, 64x5000} x ops N,T x lda +5 x (incx,incy) in "
          "{(1,1),(-2,-2)} x (alpha,beta) in {(1,0),(-3,0.5)} x host/device ptr, the same "
          "scenarios (x -> A, y -> x; y scaled like the products): the kind of the exact "
          "result, within %s (+(4|alpha|+4) 2^-1074); the kind of native's where it has no "
          "intermediate overflow",
          df_test_bound_text(scheme));
    const size_t maxA = 300 * 200 > 64 * 5000 ? 300 * 200 : 64 * 5000;
    double *A = df_xmalloc(maxA), *xN = df_xmalloc(5000), *xT = df_xmalloc(300), *yN = df_xmalloc(5000),
           *yT = df_xmalloc(5000), *nan_vec = df_xmalloc(5000);
    double *yl = df_xmalloc(5000), *yl2 = df_xmalloc(5000), *yn = df_xmalloc(5000);
    vref *R = malloc(5000 * sizeof *R);
    if (!R)
        gt_fatal("out of host memory");
    gt_fill_const(nan_vec, 5000, qnan);
    int counter = 0;
    for (int sc = 0; sc < N_RANGE; sc++) {
        const range_sc *S = &range_scs[sc];
        for (int t = 0; t < 2; t++) {
            memset(&tab[sc][t], 0, sizeof tab[sc][t]);
            errs_init(&tab[sc][t].df);
            errs_init(&tab[sc][t].nat);
        }
        for (int si = 0; si < 2; si++) {
            const int64_t m = shapes[si][0], n = shapes[si][1], lda = m + 5;
            range_data_gemv(sc, si, A, m, n, xN, xT, yN, yT);
            upload_A(dA, hA, A_BUF, A, m, n, lda);
            for (int t = 0; t < 2; t++) {
                const cublasOperation_t op = t ? CUBLAS_OP_T : CUBLAS_OP_N;
                const int64_t len = t ? n : m, k = t ? m : n;
                const double *xv = t ? xT : xN, *y0 = t ? yT : yN;
                for (int64_t r = 0; r < len; r++)
                    R[r] = ref_out(A, m, n, t, r, xv, 1);
                for (int c = 0; c < 2; c++) {
                    const int64_t inc = c ? -2 : 1;
                    const size_t sp = lay_vec(hX, xv, k, inc, qnan);
                    gt_h2d(dX, hX, sp * sizeof *hX);
                    sX.n = -1;
                    lay_vec(hYt[0], y0, len, inc, Y_GAP);
                    lay_vec(hYt[1], nan_vec, len, inc, Y_GAP);
                    for (int ab = 0; ab < 2; ab++)
                        for (int dev = 0; dev < 2; dev++) {
                            const double alpha = abs_[ab][0], beta = abs_[ab][1];
                            const int is64 = counter++ & 1;
                            gparams p = {op, m, n, lda, inc, inc, alpha, beta, dev, is64, dA, dX};
                            gt_case("%s: %s %lldx%lld op=%c inc=%lld alpha=%g beta=%g ptr=%s",
                                    S->desc, gt_gemv_name(is64), (long long)m, (long long)n,
                                    gt_op_char(op), (long long)inc, alpha, beta,
                                    dev ? "device" : "host");
                            tab[sc][t].cases++;
                            const double *ytm = hYt[beta == 0.0];
                            run_gemv(0, &p, ytm, yl);
                            run_gemv(0, &p, ytm, yl2);
                            run_gemv(1, &p, ytm, yn);
                            same_bits("the same call again", yl, yl2, len, "first", "second");
                            range_tally(&tab[sc][t], yl, yn, R, len, alpha, beta, y0,
                                        df_test_bound(scheme, k), S->native_cmp);
                        }
                }
            }
        }
    }
    df_group_end();
    printf("     DGEMV range (scheme %s): max normwise errors (outputs out of the subnormal "
           "range)\n", scheme_name);
    for (int sc = 0; sc < N_RANGE; sc++)
        for (int t = 0; t < 2; t++) {
            char label[64];
            snprintf(label, sizeof label, "op %c: %.27s", t ? 'T' : 'N', range_scs[sc].desc);
            range_row_print(label, &tab[sc][t]);
        }
    free(A);
    free(xN);
    free(xT);
    free(yN);
    free(yT);
    free(nan_vec);
    free(yl);
    free(yl2);
    free(yn);
    free(R);
}

/* ---------- 3. special values ---------- */

static void special_dot_group(void)
{
    static const struct {
        const char *desc;
        int count;
        struct {
            int in_y;
            int64_t at; /* from the start (>= 0) or from the end (< 0: n + at); clipped to n-1 */
            double v;
        } s[4];
    } vs[] = {
        {"x(17)=+Inf, y(17)=0.5 -> +Inf", 2, {{0, 17, INFINITY}, {1, 17, 0.5}}},
        {"x(17)=+Inf, y(17)=-0.5 -> -Inf", 2, {{0, 17, INFINITY}, {1, 17, -0.5}}},
        {"x(17)=NaN -> NaN", 1, {{0, 17, NAN}}},
        {"y(last)=-Inf, x(last)=0.25 -> -Inf", 2, {{1, -1, -INFINITY}, {0, -1, 0.25}}},
        {"x(17)=+Inf, y(17)=0: Inf*0 -> NaN", 2, {{0, 17, INFINITY}, {1, 17, 0.0}}},
        {"x(3)=+Inf y(3)=1, x(last)=+Inf y(last)=-1: Inf + -Inf -> NaN", 4,
         {{0, 3, INFINITY}, {1, 3, 1.0}, {0, -1, INFINITY}, {1, -1, -1.0}}},
        {"x(3)=-Inf, y(3)=+Inf -> -Inf", 2, {{0, 3, -INFINITY}, {1, 3, INFINITY}}},
        {"x(0)=+Inf, y(9)=NaN -> NaN", 2, {{0, 0, INFINITY}, {1, 9, NAN}}},
    };
    static const int64_t ns[3] = {1, 1000, 100003};
    df_group("special values DDOT, n in {1, 1000, 100003} x (incx,incy) in {(1,1),(-2,3)} x "
          "host/device ptr: Inf, -Inf, NaN in x and y (Inf*0, Inf + -Inf): the kind of real "
          "cuBLAS's result (n = 1: the specials fall on the one element)");
    double *x = df_xmalloc(100003), *y = df_xmalloc(100003);
    for (size_t v = 0; v < sizeof vs / sizeof vs[0]; v++)
        for (int ni = 0; ni < 3; ni++) {
            const int64_t n = ns[ni];
            gt_fill(x, (size_t)n, 13000 + v);
            gt_fill(y, (size_t)n, 13100 + v);
            for (int q = 0; q < vs[v].count; q++) {
                int64_t at = vs[v].s[q].at < 0 ? n + vs[v].s[q].at : vs[v].s[q].at;
                if (at >= n)
                    at = n - 1;
                const double val = isnan(vs[v].s[q].v) ? qnan : vs[v].s[q].v;
                (vs[v].s[q].in_y ? y : x)[at] = val;
            }
            for (int c = 0; c < 2; c++) {
                const int64_t incx = c ? -2 : 1, incy = c ? 3 : 1;
                gt_h2d(dX, hX, stage_vec(&sX, x, n, incx, qnan) * sizeof *hX);
                gt_h2d(dY, hY, stage_vec(&sY, y, n, incy, qnan) * sizeof *hY);
                for (int dev = 0; dev < 2; dev++) {
                    const int is64 = (c + dev) & 1;
                    gt_case("%s: %s n=%lld incx=%lld incy=%lld ptr=%s", vs[v].desc,
                            gt_dot_name(is64), (long long)n, (long long)incx, (long long)incy,
                            dev ? "device" : "host");
                    const double r = dot_shim(is64, n, incx, incy, dev);
                    const double rn = dot_real(is64, n, incx, incy, dev);
                    if (fclass(r) != fclass(rn))
                        gt_fail("shim %s (%.17g), real cuBLAS %s (%.17g)", fclass_name[fclass(r)],
                                r, fclass_name[fclass(rn)], rn);
                    if (fclass(rn) == 0)
                        gt_note("real cuBLAS's result is finite (%.17g)", rn);
                }
            }
        }
    free(x);
    free(y);
    df_group_end();
}

/* DGEMV special values, on the stored m x n matrix A, xN (n), xT (m), yN (m), yT (n). */
static const char *const gemv_special_desc[] = {
    "A(5,7)=+Inf A(20,30)=-Inf A(40,3)=NaN",
    "A(5,7)=+Inf with x 0 where it multiplies it: Inf*0 -> NaN",
    "A(9,1)=A(1,9)=+Inf, A(9,150%n)=A(150%m,9)=+Inf, the x they meet of opposite signs: "
    "Inf + -Inf -> NaN; A(10,1..2), A(1..2,10)=+Inf, x positive: +Inf",
    "x(7)=+Inf (op N) / x(5)=+Inf (op T), A(3,7) = A(5,3) = 0: every output +-Inf, NaN at 3",
    "x(11)=NaN: every output NaN",
    "y(4)=+Inf y(8)=NaN y(12)=-Inf (the input y: non-finite results for beta != 0 only)",
};
#define N_GSPECIAL (int)(sizeof gemv_special_desc / sizeof gemv_special_desc[0])

static void special_edit_gemv(int v, double *A, int64_t m, int64_t n, double *xN, double *xT,
                              double *yN, double *yT)
{
    switch (v) {
    case 0:
        A[5 + 7 * m] = INFINITY;
        A[20 + 30 * m] = -INFINITY;
        A[40 + 3 * m] = qnan;
        break;
    case 1:
        A[5 + 7 * m] = INFINITY;
        xN[7] = 0.0;
        xT[5] = 0.0;
        break;
    case 2: {
        const int64_t pn = 150 % n, pm = 150 % m;
        A[9 + 1 * m] = INFINITY;
        A[9 + pn * m] = INFINITY;
        xN[1] = 0.5;
        xN[pn] = -0.5;
        A[1 + 9 * m] = INFINITY;
        A[pm + 9 * m] = INFINITY;
        xT[1] = 0.5;
        xT[pm] = -0.5;
        A[10 + 1 * m] = A[10 + 2 * m] = INFINITY;
        A[1 + 10 * m] = A[2 + 10 * m] = INFINITY;
        xN[2] = 0.25;
        xT[2] = 0.25;
        /* row 10 (N) also meets x(pn) < 0 when A(10,pn) is finite: fine; column 10 (T) too */
        break;
    }
    case 3:
        xN[7] = INFINITY;
        xT[5] = INFINITY;
        A[3 + 7 * m] = 0.0;
        A[5 + 3 * m] = 0.0;
        break;
    case 4:
        xN[11] = qnan;
        xT[11] = qnan;
        break;
    case 5:
        yN[4] = yT[4] = INFINITY;
        yN[8] = yT[8] = qnan;
        yN[12] = yT[12] = -INFINITY;
        break;
    default:
        break;
    }
}

static int all_finite_out(const double *A, int64_t m, int64_t n, int trans, int64_t r,
                          const double *x)
{
    const int64_t k = trans ? m : n;
    for (int64_t p = 0; p < k; p++) {
        const double a = trans ? A[p + r * m] : A[r + p * m];
        if (!isfinite(a) || !isfinite(x[p]))
            return 0;
    }
    return 1;
}

static void special_gemv_group(void)
{
    static const int64_t shapes[2][2] = {{300, 200}, {64, 5000}};
    static const double abs_[2][2] = {{-1.5, 0.5}, {-1.5, 0}};
    df_group("special values DGEMV, m x n in {300x200, 64x5000} x ops N,T,C x lda +5 x (incx,incy) "
          "in {(1,1),(-2,-2)} x (alpha,beta) in {(-1.5,0.5),(-1.5,0)} x host/device ptr: every "
          "output of the kind of real cuBLAS's; outputs that meet no Inf/NaN finite and within "
          "%s", df_test_bound_text(scheme));
    const size_t maxA = 300 * 200 > 64 * 5000 ? 300 * 200 : 64 * 5000;
    double *A = df_xmalloc(maxA), *xN = df_xmalloc(5000), *xT = df_xmalloc(300), *yN = df_xmalloc(5000),
           *yT = df_xmalloc(5000), *nan_vec = df_xmalloc(5000);
    double *yl = df_xmalloc(5000), *yn = df_xmalloc(5000);
    vref *R = malloc(5000 * sizeof *R);
    char *clean = malloc(5000);
    if (!R || !clean)
        gt_fatal("out of host memory");
    gt_fill_const(nan_vec, 5000, qnan);
    int counter = 0;
    for (int v = 0; v < N_GSPECIAL; v++)
        for (int si = 0; si < 2; si++) {
            const int64_t m = shapes[si][0], n = shapes[si][1], lda = m + 5;
            const uint64_t seed = 14000 + 10 * (uint64_t)v + (uint64_t)si;
            gt_fill(A, (size_t)(m * n), seed);
            gt_fill(xN, (size_t)n, seed + 1);
            gt_fill(xT, (size_t)m, seed + 2);
            gt_fill(yN, (size_t)m, seed + 3);
            gt_fill(yT, (size_t)n, seed + 4);
            special_edit_gemv(v, A, m, n, xN, xT, yN, yT);
            upload_A(dA, hA, A_BUF, A, m, n, lda);
            for (int t = 0; t < 3; t++) {
                const int tr = t > 0;
                const cublasOperation_t op = t == 0 ? CUBLAS_OP_N : t == 1 ? CUBLAS_OP_T
                                                                           : CUBLAS_OP_C;
                const int64_t len = tr ? n : m, k = tr ? m : n;
                const double *xv = tr ? xT : xN, *y0 = tr ? yT : yN;
                for (int64_t r = 0; r < len; r++) {
                    clean[r] = (char)all_finite_out(A, m, n, tr, r, xv);
                    if (clean[r])
                        R[r] = ref_out(A, m, n, tr, r, xv, 0);
                }
                for (int c = 0; c < 2; c++) {
                    const int64_t inc = c ? -2 : 1;
                    const size_t sp = lay_vec(hX, xv, k, inc, qnan);
                    gt_h2d(dX, hX, sp * sizeof *hX);
                    sX.n = -1;
                    lay_vec(hYt[0], y0, len, inc, Y_GAP);
                    lay_vec(hYt[1], nan_vec, len, inc, Y_GAP);
                    for (int ab = 0; ab < 2; ab++)
                        for (int dev = 0; dev < 2; dev++) {
                            const double alpha = abs_[ab][0], beta = abs_[ab][1];
                            const int is64 = counter++ & 1;
                            gparams p = {op, m, n, lda, inc, inc, alpha, beta, dev, is64, dA, dX};
                            gt_case("%s: %s %lldx%lld op=%c inc=%lld alpha=%g beta=%g ptr=%s",
                                    gemv_special_desc[v], gt_gemv_name(is64), (long long)m,
                                    (long long)n, gt_op_char(op), (long long)inc, alpha, beta,
                                    dev ? "device" : "host");
                            const double *ytm = hYt[beta == 0.0];
                            run_gemv(0, &p, ytm, yl);
                            run_gemv(1, &p, ytm, yn);
                            int64_t nk = 0, fk = -1, nonfin = 0;
                            errs e;
                            errs_init(&e);
                            for (int64_t r = 0; r < len; r++) {
                                const int cs = fclass(yl[r]), cr = fclass(yn[r]);
                                nonfin += cr != 0;
                                if (cs != cr && !nk++)
                                    fk = r;
                                const int meets = !clean[r] || (beta != 0.0 && !isfinite(y0[r]));
                                if (!meets) {
                                    verdict vd = judge(yl[r], &R[r], alpha, beta,
                                                       beta == 0.0 ? 0.0 : y0[r], df_test_bound(scheme, k));
                                    errs_add(&e, &vd, r, yl[r]);
                                }
                            }
                            if (nk)
                                gt_fail("%lld outputs differ in kind from real cuBLAS; first "
                                        "y(%lld): shim %s (%.17g), real %s (%.17g)",
                                        (long long)nk, (long long)fk, fclass_name[fclass(yl[fk])],
                                        yl[fk], fclass_name[fclass(yn[fk])], yn[fk]);
                            errs_report(&e, "outputs that meet no Inf/NaN", df_test_bound(scheme, k));
                            if (nonfin == 0 && !(v == 5 && beta == 0.0))
                                gt_note("real cuBLAS gives no non-finite output here");
                        }
                }
            }
        }
    free(A);
    free(xN);
    free(xT);
    free(yN);
    free(yT);
    free(nan_vec);
    free(yl);
    free(yn);
    free(R);
    free(clean);
    df_group_end();
}

/* ---------- 4. alpha = 0 in device memory ---------- */

static void alpha0_group(void)
{
    const int64_t m = 130, n = 140, lda = m + 3;
    static const double bts[4] = {1, -0.75, 0, 3};
    df_group("alpha = 0 in device memory, DGEMV %lldx%lld lda %lld, NaN and Inf in A and x: y = "
          "beta*y exactly (0 for beta = 0 with y full of NaN); ops N,T,C x incy {1,-2} x "
          "beta {1,-0.75,0,3} x 32/64-bit API", (long long)m, (long long)n, (long long)lda);
    double *A = df_xmalloc((size_t)(m * n)), *xN = df_xmalloc((size_t)n), *xT = df_xmalloc((size_t)m);
    double *yN = df_xmalloc((size_t)n), *yT = df_xmalloc((size_t)n), *nan_vec = df_xmalloc((size_t)n);
    double *yl = df_xmalloc((size_t)n), *yn = df_xmalloc((size_t)n), *expect = df_xmalloc((size_t)n);
    gt_fill(A, (size_t)(m * n), 15001);
    gt_fill(xN, (size_t)n, 15002);
    gt_fill(xT, (size_t)m, 15003);
    gt_fill(yN, (size_t)m, 15004);
    gt_fill(yT, (size_t)n, 15005);
    gt_fill_const(nan_vec, (size_t)n, qnan);
    A[0] = qnan;
    A[64 + 30 * m] = qnan;
    A[10 + 10 * m] = INFINITY;
    A[129 + 139 * m] = -INFINITY;
    xN[5] = qnan;
    xN[77] = INFINITY;
    xT[5] = qnan;
    xT[77] = -INFINITY;
    upload_A(dA, hA, A_BUF, A, m, n, lda);
    for (int t = 0; t < 3; t++) {
        const int tr = t > 0;
        const cublasOperation_t op = t == 0 ? CUBLAS_OP_N : t == 1 ? CUBLAS_OP_T : CUBLAS_OP_C;
        const int64_t len = tr ? n : m, k = tr ? m : n;
        const double *xv = tr ? xT : xN, *y0 = tr ? yT : yN;
        gt_h2d(dX, xv, (size_t)k * sizeof *xv);
        for (int c = 0; c < 2; c++) {
            const int64_t incy = c ? -2 : 1;
            lay_vec(hYt[0], y0, len, incy, Y_GAP);
            lay_vec(hYt[1], nan_vec, len, incy, Y_GAP);
            for (int bi = 0; bi < 4; bi++)
                for (int is64 = 0; is64 < 2; is64++) {
                    const double beta = bts[bi];
                    gt_case("%s op=%c incy=%lld alpha=0 (device) beta=%g", gt_gemv_name(is64),
                            gt_op_char(op), (long long)incy, beta);
                    gparams p = {op, m, n, lda, 1, incy, 0.0, beta, 1, is64, dA, dX};
                    const double *ytm = hYt[beta == 0.0];
                    run_gemv(0, &p, ytm, yl);
                    for (int64_t r = 0; r < len; r++)
                        expect[r] = beta == 0.0 ? 0.0 : beta * y0[r];
                    same_bits("y vs beta*y", expect, yl, len, "beta*y", "shim");
                    run_gemv(1, &p, ytm, yn);
                    if (memcmp(expect, yn, (size_t)len * sizeof *yn))
                        gt_note("real cuBLAS differs from beta*y here (not checked)");
                }
        }
    }
    free(A);
    free(xN);
    free(xT);
    free(yN);
    free(yT);
    free(nan_vec);
    free(yl);
    free(yn);
    free(expect);
    df_group_end();
}

/* ---------- 6. host pointer mode DDOT: the value is there when the call returns ---------- */

static void host_result_group(void)
{
    const int64_t n = (int64_t)1 << 22;
    df_group("host pointer mode DDOT n=%lld on a non-blocking stream: x replaced by a "
          "cudaMemcpyAsync on that stream just before the call; the host variable (pageable, "
          "then pinned) holds bitwise the device-pointer-mode result of the new data as the call "
          "returns; 32/64-bit APIs", (long long)n);
    cudaStream_t s;
    cublasHandle_t hs;
    GT_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    GT_CUBLAS(cublasCreate_v2(&hs));
    GT_CUBLAS(cublasSetStream_v2(hs, s));
    double *x1 = df_xmalloc((size_t)n), *y = df_xmalloc((size_t)n);
    double *x2 = df_pinned((size_t)n), *hres = df_pinned(1);
    gt_fill(x1, (size_t)n, 16001);
    gt_fill(x2, (size_t)n, 16002);
    gt_fill(y, (size_t)n, 16003);
    gt_h2d(dY, y, (size_t)n * sizeof *y);
    GT_CUDA(cudaDeviceSynchronize());
    for (int is64 = 0; is64 < 2; is64++) {
        double expect[2];
        const double *xs[2] = {x1, x2};
        for (int q = 0; q < 2; q++) {
            gt_case("%s: reference values, device pointer mode on the stream",
                    gt_dot_name(is64));
            gt_h2d(dX, xs[q], (size_t)n * sizeof *x1);
            GT_CUDA(cudaDeviceSynchronize()); /* a pageable copy may still be in flight */
            cublasStatus_t st;
            int late;
            expect[q] = call_dot(&bufs, 0, hs, is64, n, dX, 1, dY, 1, 1, &st, &late);
            if (st != CUBLAS_STATUS_SUCCESS)
                gt_fail("status %s", gt_status_name(st));
        }
        if (df_bits(expect[0]) == df_bits(expect[1]))
            gt_fail("test bug: the two data sets give the same result");
        for (int pin = 0; pin < 2; pin++) {
            gt_case("%s: host pointer mode, result in %s memory, after cudaMemcpyAsync of x "
                    "(%.0f MiB) on the stream", gt_dot_name(is64), pin ? "pinned" : "pageable",
                    (double)n * 8 / 1048576.0);
            gt_h2d(dX, x1, (size_t)n * sizeof *x1);
            GT_CUDA(cudaDeviceSynchronize());
            double pageable = sentinel();
            double *res = pin ? hres : &pageable;
            *res = sentinel();
            GT_CUBLAS(cublasSetPointerMode_v2(hs, CUBLAS_POINTER_MODE_HOST));
            GT_CUDA(cudaMemcpyAsync(dX, x2, (size_t)n * sizeof *x2, cudaMemcpyHostToDevice, s));
            gt_dot d = {is64, n, dX, 1, dY, 1, res};
            cublasStatus_t st = gt_run_dot(0, hs, &d);
            const double got = *res; /* before any synchronisation */
            GT_CUDA(cudaStreamSynchronize(s));
            const double after = *res;
            if (st != CUBLAS_STATUS_SUCCESS)
                gt_fail("status %s", gt_status_name(st));
            if (df_bits(got) == df_bits(sentinel()))
                gt_fail("the host variable was not written when the call returned (after a "
                        "stream synchronisation: %.17g)", after);
            else if (df_bits(got) == df_bits(expect[0]))
                gt_fail("the result is that of the data before the cudaMemcpyAsync (%.17g): the "
                        "call did not wait for the handle's stream", got);
            else if (df_bits(got) != df_bits(expect[1]))
                gt_fail("result %.17g [%016" PRIx64 "], device pointer mode gave %.17g [%016" PRIx64
                        "]", got, df_bits(got), expect[1], df_bits(expect[1]));
            if (df_bits(after) != df_bits(got))
                gt_fail("the host variable changed after the call returned: %.17g, then %.17g",
                        got, after);
        }
    }
    GT_CUBLAS(cublasDestroy_v2(hs));
    GT_CUDA(cudaStreamDestroy(s));
    GT_CUDA(cudaFreeHost(x2));
    GT_CUDA(cudaFreeHost(hres));
    free(x1);
    free(y);
    df_group_end();
}

int main(void)
{
    gt_init("df_vec");
    t_start = gt_now();
    parse_mode();
    qnan = gt_qnan();
    printf("df_vec: scheme %s, bound %s, u = 2^-24\n", scheme_name, df_test_bound_text(scheme));
    GT_CUBLAS(cublasCreate_v2(&handle));

    dX = gt_dmalloc(VEC_BUF * sizeof(double));
    dY = gt_dmalloc(VEC_BUF * sizeof(double));
    dA = gt_dmalloc(A_BUF * sizeof(double));
    d_ab = gt_dmalloc(2 * sizeof(double));
    d_res = gt_dmalloc(sizeof(double));
    hX = df_pinned(VEC_BUF);
    hY = df_pinned(VEC_BUF);
    hA = df_pinned(A_BUF);
    for (int i = 0; i < 4; i++)
        hYt[i] = df_pinned(Y_BUF);
    hYo = df_pinned(Y_BUF);
    sX = (stage){hX, -1, 0, 0};
    sY = (stage){hY, -1, 0, 0};
    bufs = (call_bufs){.d_ab = d_ab, .d_res = d_res, .dY = dY, .hYo = hYo, .y_cap = Y_BUF};

    engaged_group();
    accuracy_dot_group();
    accuracy_gemv_group();
    range_dot_group();
    range_gemv_group();
    special_dot_group();
    special_gemv_group();
    alpha0_group();
    host_result_group();

    GT_CUBLAS(cublasDestroy_v2(handle));
    GT_CUDA(cudaFree(dX));
    GT_CUDA(cudaFree(dY));
    GT_CUDA(cudaFree(dA));
    GT_CUDA(cudaFree(d_ab));
    GT_CUDA(cudaFree(d_res));
    GT_CUDA(cudaFreeHost(hX));
    GT_CUDA(cudaFreeHost(hY));
    GT_CUDA(cudaFreeHost(hA));
    for (int i = 0; i < 4; i++)
        GT_CUDA(cudaFreeHost(hYt[i]));
    GT_CUDA(cudaFreeHost(hYo));
    printf("df_vec: %.1f s in all\n", gt_now() - t_start);
    return gt_finish();
}
