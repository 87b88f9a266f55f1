/* test_dd.c — unit tests (Check + MPFR) of the double-double arithmetic and the triple-precision
 * formats (engines/common/dd.h), each result held against the exact value computed with MPFR:
 *   - the proven bounds: AccurateDWPlusDW <= 3u^2 + 13u^3, DWTimesDW3 < 4u^2, the paper's DDMul
 *     (DWTimesDW1) <= 6u^2, u = 2^-53, over random canonical DDs of all signs, adversarial
 *     significands, gaps between hi and lo and cancellation; the sloppy add's error is measured
 *     (no bound under cancellation; <= 3u^2-ish for same signs, asserted there);
 *   - the dot-product error of the paper's multiply-add against its accumulated bound, and its
 *     size next to binary64's (the paper's Table 5 orders of magnitude);
 *   - D+S and D+I round trips: errors <= 2^-77 (D+S, in its range), 2^-73 (D+I truncated) and
 *     2^-74 (D+I to nearest) relative to |x| while lo is normal (|x| >= 2^-960 or so; below, a
 *     subnormal lo keeps fewer bits: documented in dd.h); to nearest never worse than
 *     truncation;
 *   - the DD results are canonical (|lo| <= ulp(hi)/2).
 *   - the dd mode's CPU DDOT/DGEMV/DGEMM (engines/dd/host.c; its chunked orders included) on
 *     phi data (phi 0..4): at least
 *     99.9% of the outputs equal RN(exact) (the MPFR reference of exact_ref.c), never more
 *     wrong outputs than a plain binary64 FMA loop, never more than 1 ulp off; Inf/NaN kinds as
 *     binary64's;
 *   - its CPU ZGEMM (engines/dd/zhost.c), part by part against RN(exact) (dd_complex.c).
 * Deterministic (own PRNG).  The worst errors are printed on lines starting "dd:". */
#include "../../engines/common/dd.h"
#include "../../engines/dd/host.h"

#include <check.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include <mpfr.h>

#include "../common/gen.h"
#include "exact_ref.h"
#include "rng.h"

#define U 0x1p-53
#define PREC 1200 /* exact for every sum and product below */

/* A 53-bit significand, often adversarial: near a power of two, runs of ones, sparse. */
static uint64_t mant53(rng *r)
{
    uint64_t x = (next64(r) >> 11) | (1ull << 52);
    switch (below(r, 6)) {
    case 0: return (1ull << 52) | (x & 0xf);
    case 1: return ((1ull << 53) - 1) ^ (x & 0xf);
    case 2: return x | 0xffffffff000ull;
    default: return x;
    }
}

/* A canonical DD with hi's exponent in [emin, emax]; lo 0..gap binades below ulp(hi)/2. */
static dfs_dd rand_dd(rng *r, int emin, int emax, int gap)
{
    int e = emin + below(r, emax - emin + 1);
    double hi = ldexp((double)mant53(r), e - 52);
    if (next64(r) & 1)
        hi = -hi;
    double lo = 0.0;
    if (below(r, 8)) {
        lo = ldexp((double)mant53(r), e - 106 - below(r, gap + 1));
        if (next64(r) & 1)
            lo = -lo;
    }
    double l, h = dfs_d_fast_two_sum(hi, lo, &l);
    return dfs_dd_make(h, l);
}

static void set_dd(mpfr_t x, dfs_dd a)
{
    mpfr_set_d(x, a.hi, MPFR_RNDN);
    mpfr_add_d(x, x, a.lo, MPFR_RNDN); /* exact at PREC */
}

/* |got - exact| / |exact| (0 when both are 0). */
static double rel_err(mpfr_srcptr exact, dfs_dd got)
{
    mpfr_t g, d;
    mpfr_inits2(PREC, g, d, (mpfr_ptr)0);
    set_dd(g, got);
    mpfr_sub(d, g, exact, MPFR_RNDN);
    double r = mpfr_zero_p(exact) ? (mpfr_zero_p(d) ? 0.0 : INFINITY)
                                  : fabs(mpfr_get_d(d, MPFR_RNDN) / mpfr_get_d(exact, MPFR_RNDN));
    mpfr_clears(g, d, (mpfr_ptr)0);
    return r;
}

static int canonical(dfs_dd a)
{
    if (a.hi == 0)
        return a.lo == 0;
    int e;
    frexp(a.hi, &e);
    return fabs(a.lo) <= ldexp(1.0, e - 54) && dfs_d_add(a.hi, a.lo) == a.hi;
}

START_TEST(add_and_mul_bounds)
{
    rng r = rng_seed(7);
    mpfr_t x, y, z;
    mpfr_inits2(PREC, x, y, z, (mpfr_ptr)0);
    double worst_acc = 0, worst_sloppy_same = 0, worst_sloppy = 0, worst_mul3 = 0, worst_mul = 0;
    for (int it = 0; it < 200000; it++) {
        dfs_dd a = rand_dd(&r, -40, 40, 60), b = rand_dd(&r, -40, 40, 60);
        if (it % 4 == 0) { /* cancellation: b = -a.hi plus a canonical small lo of its own */
            int e;
            frexp(a.hi, &e);
            double lo = ldexp((double)mant53(&r), e - 106 - 1 - below(&r, 60)), l;
            double h = dfs_d_fast_two_sum(-a.hi, (next64(&r) & 1) ? -lo : lo, &l);
            b = dfs_dd_make(h, l);
        }
        set_dd(x, a);
        set_dd(y, b);
        mpfr_add(z, x, y, MPFR_RNDN);
        dfs_dd s = dfs_dd_add_accurate(a, b);
        double e = rel_err(z, s);
        ck_assert_msg(e <= 3 * U * U + 13 * U * U * U, "add_accurate error %g u^2", e / (U * U));
        ck_assert(canonical(s));
        worst_acc = fmax(worst_acc, e);
        e = rel_err(z, dfs_dd_add_sloppy(a, b));
        worst_sloppy = fmax(worst_sloppy, e);
        if (signbit(a.hi) == signbit(b.hi)) {
            ck_assert_msg(e <= 3 * U * U, "add_sloppy same-sign error %g u^2", e / (U * U));
            worst_sloppy_same = fmax(worst_sloppy_same, e);
        }
        mpfr_mul(z, x, y, MPFR_RNDN);
        dfs_dd p = dfs_dd_mul_accurate(a, b);
        e = rel_err(z, p);
        ck_assert_msg(e < 4 * U * U, "mul_accurate error %g u^2", e / (U * U));
        worst_mul3 = fmax(worst_mul3, e);
        p = dfs_dd_mul(a, b);
        e = rel_err(z, p);
        ck_assert_msg(e <= 6 * U * U, "mul (DWTimesDW1) error %g u^2", e / (U * U));
        ck_assert(canonical(p));
        worst_mul = fmax(worst_mul, e);
    }
    printf("dd: 200000 random pairs: add_accurate %.3g u^2 (bound 3), add_sloppy %.3g u^2 with "
           "equal signs (%.3g overall, cancellation), mul_accurate %.3g u^2 (bound 4), mul %.3g "
           "u^2 (bound 6)\n", worst_acc / (U * U), worst_sloppy_same / (U * U),
           worst_sloppy / (U * U), worst_mul3 / (U * U), worst_mul / (U * U));
    fflush(stdout);
    mpfr_clears(x, y, z, (mpfr_ptr)0);
}
END_TEST

/* A dot product of binary64 inputs uniform in [0, 1) (the paper's Table 5 data), accumulated
 * with the paper's DD multiply-add and in binary64. */
START_TEST(dot_accuracy)
{
    rng r = rng_seed(8);
    static const int sizes[] = {100, 1000};
    for (int s = 0; s < 2; s++) {
        const int n = sizes[s];
        mpfr_t exact, t;
        mpfr_inits2(PREC, exact, t, (mpfr_ptr)0);
        mpfr_set_zero(exact, 1);
        dfs_dd acc = dfs_dd_from_double(0.0);
        double d = 0.0, sum_abs = 0.0;
        for (int i = 0; i < n; i++) {
            double x = unif(&r), y = unif(&r);
            mpfr_set_d(t, x, MPFR_RNDN);
            mpfr_mul_d(t, t, y, MPFR_RNDN);
            mpfr_add(exact, exact, t, MPFR_RNDN);
            acc = dfs_dd_mad(acc, dfs_dd_from_double(x), dfs_dd_from_double(y));
            d += x * y;
            sum_abs += fabs(x * y);
        }
        double e_dd = rel_err(exact, acc), e_d = rel_err(exact, dfs_dd_from_double(d));
        /* each multiply-add: a 6u^2 product and a sloppy add of same-sign terms (3u^2) */
        ck_assert_msg(e_dd <= (9.0 * n + 9) * U * U, "DD dot n=%d error %g", n, e_dd);
        ck_assert(e_dd < e_d * 1e-12 || e_d == 0);
        printf("dd: dot of uniform [0,1) data, n = %d: DD %.3g, binary64 %.3g (relative)\n", n,
               e_dd, e_d);
        mpfr_clears(exact, t, (mpfr_ptr)0);
    }
    fflush(stdout);
}
END_TEST

START_TEST(triple_formats)
{
    rng r = rng_seed(9);
    mpfr_t x;
    mpfr_init2(x, PREC);
    double worst_ds = 0, worst_trunc = 0, worst_near = 0;
    for (int it = 0; it < 200000; it++) {
        /* D+S: hi in binary32's comfortable range; D+I: wherever lo is normal (|hi| >= 2^-960) */
        dfs_dd a = rand_dd(&r, it % 2 ? -60 : -960, it % 2 ? 60 : 1000, 8);
        set_dd(x, a);
        if (it % 2) {
            double e = rel_err(x, dfs_dd_from_ds(a.hi, dfs_ds_lo(a)));
            ck_assert_msg(e <= 0x1p-77, "D+S round trip error 2^%.1f", log2(e));
            worst_ds = fmax(worst_ds, e);
        }
        double et = rel_err(x, dfs_dd_from_di(a.hi, dfs_di_lo_trunc(a)));
        double en = rel_err(x, dfs_dd_from_di(a.hi, dfs_di_lo_nearest(a)));
        ck_assert_msg(et <= 0x1p-73, "D+I truncated error 2^%.1f", log2(et));
        ck_assert_msg(en <= 0x1p-74, "D+I nearest error 2^%.1f", log2(en));
        ck_assert(en <= et);
        worst_trunc = fmax(worst_trunc, et);
        worst_near = fmax(worst_near, en);
    }
    /* the carry of the rounding into lo's exponent: fraction bits all ones */
    dfs_dd c = dfs_dd_make(1.0, dfs_d_from_bits(0x3c9fffffffffffffull));
    ck_assert(dfs_dd_from_di(c.hi, dfs_di_lo_nearest(c)).lo == 0x1p-53);
    printf("dd: triple formats, 200000 values: D+S 2^%.2f, D+I truncated 2^%.2f, D+I nearest "
           "2^%.2f (relative)\n", log2(worst_ds), log2(worst_trunc), log2(worst_near));
    fflush(stdout);
    mpfr_clear(x);
}
END_TEST

/* ulps between two finite doubles of the same sign (0 if equal) */
static double ulps(double a, double b)
{
    if (a == b)
        return 0;
    return fabs(a - b) / (nextafter(fmax(fabs(a), fabs(b)), INFINITY) - fmax(fabs(a), fabs(b)));
}

static double native_dot(int64_t K, const double *a, int64_t sa, const double *b, int64_t sb,
                         double alpha, double beta, double c)
{
    double s = 0.0;
    for (int64_t q = 0; q < K; q++)
        s = fma(a[q * sa], b[q * sb], s);
    return beta != 0 ? fma(alpha, s, beta * c) : alpha * s;
}

typedef struct {
    long outputs, dd_wrong, native_wrong;
    double dd_worst_ulps;
} tally;

static void count(tally *t, double dd, double native, double want)
{
    t->outputs++;
    if (!same(dd, want)) {
        t->dd_wrong++;
        t->dd_worst_ulps = fmax(t->dd_worst_ulps, ulps(dd, want));
    }
    t->native_wrong += !same(native, want);
}

START_TEST(dd_mode_routines)
{
    rng r = rng_seed(10);
    static const double phis[] = {0, 1, 2, 4};
    enum { N = 400, M = 30, K = 300 };
    static double x[N], y[N], A[M * K], B[K * M], C[M * M], C0[M * M], yv[K], yv0[K];
    static double xl[300000], yl[300000];
    for (int ph = 0; ph < 4; ph++) {
        tally t = {0, 0, 0, 0};
        for (int rep = 0; rep < 25; rep++) {
            for (int i = 0; i < N; i++)
                x[i] = gen_phi(&r, phis[ph]), y[i] = gen_phi(&r, phis[ph]);
            const double want = reference(N, x, 1, y, 1, 1.0, 0.0, 0.0);
            count(&t, dfs_dd_dot_host(N, x, 1, y, 1), native_dot(N, x, 1, y, 1, 1.0, 0.0, 0.0),
                  want);
        }
        /* long DOTs: several chunks (5000), more chunks than the 256 lanes merging them (300000),
         * with negative increments */
        for (int rep = 0; rep < 2; rep++) {
            const int64_t n = rep ? 300000 : 5000;
            for (int64_t i = 0; i < n; i++)
                xl[i] = gen_phi(&r, phis[ph]), yl[i] = gen_phi(&r, phis[ph]);
            count(&t, dfs_dd_dot_host(n, xl, -1, yl, rep ? 1 : -1),
                  native_dot(n, xl + n - 1, -1, rep ? yl : yl + n - 1, rep ? 1 : -1, 1.0, 0.0, 0.0),
                  reference(n, xl + n - 1, -1, rep ? yl : yl + n - 1, rep ? 1 : -1, 1.0, 0.0, 0.0));
        }
        /* GEMV T over long columns, split into chunks (3 outputs x 10000 terms) */
        for (int i = 0; i < 3 * 10000; i++)
            xl[i] = gen_phi(&r, phis[ph]);
        for (int o = 0; o < 3; o++)
            yv0[o] = yv[o] = gen_phi(&r, phis[ph]);
        dfs_dd_gemv_host(1, 10000, 3, -1.0, xl, 10000, yl, 1, 2.0, yv, 1);
        for (int o = 0; o < 3; o++)
            count(&t, yv[o], native_dot(10000, xl + o * 10000, 1, yl, 1, -1.0, 2.0, yv0[o]),
                  reference(10000, xl + o * 10000, 1, yl, 1, -1.0, 2.0, yv0[o]));
        for (int i = 0; i < M * K; i++)
            A[i] = gen_phi(&r, phis[ph]), B[i] = gen_phi(&r, phis[ph]);
        for (int trans = 0; trans < 2; trans++) {
            const int64_t len = trans ? K : M, inner = trans ? M : K;
            for (int i = 0; i < K; i++)
                yv0[i] = gen_phi(&r, phis[ph]);
            for (int i = 0; i < K; i++)
                yv[i] = yv0[i];
            dfs_dd_gemv_host(trans, M, K, 1.5, A, M, x, 1, -0.5, yv, 1);
            for (int64_t o = 0; o < len; o++) {
                const double *a = trans ? A + o * M : A + o;
                const int64_t sa = trans ? 1 : M;
                count(&t, yv[o], native_dot(inner, a, sa, x, 1, 1.5, -0.5, yv0[o]),
                      reference(inner, a, sa, x, 1, 1.5, -0.5, yv0[o]));
            }
        }
        for (int i = 0; i < M * M; i++)
            C0[i] = C[i] = gen_phi(&r, phis[ph]);
        dfs_dd_gemm_host(0, 1, M, M, K, -2.0, A, M, B, M, 3.0, C, M);
        for (int j = 0; j < M; j++)
            for (int i = 0; i < M; i++)
                count(&t, C[i + j * M], native_dot(K, A + i, M, B + j, M, -2.0, 3.0, C0[i + j * M]),
                      reference(K, A + i, M, B + j, M, -2.0, 3.0, C0[i + j * M]));
        ck_assert_msg(t.dd_wrong * 1000 <= t.outputs, "phi %g: %ld of %ld outputs not RN",
                      phis[ph], t.dd_wrong, t.outputs);
        ck_assert_msg(t.dd_wrong <= t.native_wrong, "phi %g: dd wrong %ld, native wrong %ld",
                      phis[ph], t.dd_wrong, t.native_wrong);
        ck_assert(t.dd_worst_ulps <= 1.0);
        printf("dd: mode on phi %g data: %ld outputs (DDOT n=%d, DGEMV N/T %dx%d, DGEMM NT "
               "%dx%dx%d), %ld not correctly rounded (native FMA loop: %ld)\n", phis[ph],
               t.outputs, N, M, K, M, M, K, t.dd_wrong, t.native_wrong);
        fflush(stdout);
    }
    /* special values: binary64's kinds */
    const double I = INFINITY;
    const double sx[3] = {1, I, 2}, sy[3] = {1, 1, -1}, sz[3] = {1, I, -I}, s1[3] = {1, 1, 1};
    const double s0[3] = {1, 0, 1};
    ck_assert(isinf(dfs_dd_dot_host(3, sx, 1, sy, 1)) && dfs_dd_dot_host(3, sx, 1, sy, 1) > 0);
    ck_assert(isnan(dfs_dd_dot_host(3, sz, 1, s1, 1)));  /* Inf - Inf */
    ck_assert(isnan(dfs_dd_dot_host(3, sx, 1, s0, 1)));  /* Inf * 0 */
    /* a sum beyond binary64's range: +Inf as native (the DD sum overflows; the plain one too;
     * products of both signs beyond the range would give Inf or NaN by the order, as native) */
    const double ox[3] = {1e300, 1e300, -1e300}, oy[3] = {1e10, 1e10, 1e-10};
    ck_assert(dfs_dd_dot_host(3, ox, 1, oy, 1) == I);
    /* DGEMV and DGEMM: a NaN in one row of A makes that output NaN, the others stay exact */
    double gA[6] = {1, NAN, 3, 4, 5, 6}, gB[6] = {1, 0.5, 0.25, 0, 0, 0}, gy[2] = {7, 7};
    double gC[4] = {0};
    dfs_dd_gemv_host(0, 2, 3, 1.0, gA, 2, gB, 1, 0.0, gy, 1);
    ck_assert(gy[0] == 3.75 && isnan(gy[1]));
    dfs_dd_gemm_host(0, 0, 2, 2, 3, 1.0, gA, 2, gB, 3, 0.0, gC, 2);
    ck_assert(gC[0] == 3.75 && isnan(gC[1]) && gC[2] == 0 && isnan(gC[3])); /* NaN * 0 */
    fflush(stdout);
}
END_TEST

void dd_complex_tests(TCase *t); /* dd_complex.c: the CPU ZGEMM */

static Suite *suite(void)
{
    Suite *s = suite_create("dd");
    TCase *t = tcase_create("all");
    tcase_set_timeout(t, 120);
    tcase_add_test(t, add_and_mul_bounds);
    tcase_add_test(t, dot_accuracy);
    tcase_add_test(t, triple_formats);
    tcase_add_test(t, dd_mode_routines);
    dd_complex_tests(t);
    suite_add_tcase(s, t);
    return s;
}

#include "check_main.h"
