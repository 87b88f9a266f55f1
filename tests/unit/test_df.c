/* test_df.c — unit tests (Check + MPFR) of the double-float arithmetic (engines/common/df.h) and
 * of the DF engine's host DGEMM (engines/df/host.c, bit for bit what the GPU computes), each held
 * against an exact reference computed with MPFR.  Deterministic (fixed seeds, own PRNG).  The worst
 * errors measured are printed on lines starting "df:" (in the test log), for the README.
 * Compiled with -ffp-contract=off: the binary64 reference loops below must not be contracted. */
#include "../../engines/common/df.h"
#include "../../engines/df/df_gemm.h"
#include "../../engines/df/host.h"

#include <check.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpfr.h>

#include "rng.h"

#define U 0x1p-24   /* binary32 unit roundoff */
#define U2 0x1p-48  /* u^2 */
#define U3 0x1p-72  /* u^3 */
#define U64 0x1p-53 /* binary64 unit roundoff */

static const char *const scheme_name[DFS_DF_SCHEMES] = {"MAD16", "MAD15", "MAD29"};

/* ---------------- DF values ---------------- */

/* A 24-bit significand (bit 23 set), often adversarial: near a power of two, long runs of ones,
 * sparse. */
static uint32_t mant24(rng *r)
{
    uint32_t x = (uint32_t)(next64(r) >> 40) | 0x800000u;
    switch (below(r, 8)) {
    case 0:
        return 0x800000u | (x & 0xfu);
    case 1:
        return 0xffffffu ^ (x & 0xfu);
    case 2:
        return x | 0x7ff000u;
    case 3:
        return 0x800000u | (x & 0x00f00fu);
    default:
        return x;
    }
}

/* A random lo for a hi of exponent e (|hi| in [2^e, 2^(e+1))): |lo| < ulp(hi)/2 = 2^(e-24), its
 * exponent 0..maxgap below that (kept normal), or exactly ulp(hi)/2, or 0. */
static float rand_lo(rng *r, int e, int maxgap)
{
    float lo = 0.0f;
    int mode = below(r, 16);
    if (mode == 1) {
        lo = ldexpf(1.0f, e - 24);
    } else if (mode > 1) {
        int d = mode < 12 ? below(r, 3) : below(r, maxgap + 1);
        if (d > e + 101)
            d = e + 101; /* lo stays normal: |lo| >= 2^(e-25-d) >= 2^-126 */
        lo = ldexpf((float)mant24(r), e - 48 - d);
    }
    return (next64(r) & 1) ? -lo : lo;
}

/* A canonical DF (hi = RN32(hi + lo), so |lo| <= ulp(hi)/2) with hi's exponent in [emin, emax],
 * emin >= -100. */
static dfs_df rand_df_gap(rng *r, int emin, int emax, int maxgap)
{
    int e = emin + below(r, emax - emin + 1);
    float hi = ldexpf((float)mant24(r), e - 23);
    if (next64(r) & 1)
        hi = -hi;
    float lo = rand_lo(r, e, maxgap), l;
    float h = dfs_fast_two_sum(hi, lo, &l); /* exact; rounds a tie to hi's even neighbour */
    return dfs_df_make(h, l);
}

static dfs_df rand_df(rng *r, int emin, int emax) { return rand_df_gap(r, emin, emax, 40); }

/* A non-canonical DF: hi odd, lo = +-ulp(hi)/2 exactly, so RN32(hi + lo) != hi.  dfs_df_from_double
 * produces these (see from_double below). */
static dfs_df tie_df(rng *r, int emin, int emax)
{
    int e = emin + below(r, emax - emin + 1);
    float hi = ldexpf((float)(mant24(r) | 1u), e - 23), lo = ldexpf(1.0f, e - 24);
    return dfs_df_make((next64(r) & 1) ? -hi : hi, (next64(r) & 1) ? -lo : lo);
}

static int exponent_f(float x)
{
    int e;
    frexpf(x, &e);
    return e - 1;
}

/* |lo| <= ulp(hi)/2 and hi == RN32(hi + lo) (the binary64 sum is exact or far from a tie). */
static int canonical(dfs_df a)
{
    if (a.hi == 0.0f)
        return a.lo == 0.0f;
    return fabs((double)a.lo) <= ldexp(1.0, exponent_f(a.hi) - 24) &&
           a.hi == (float)((double)a.hi + (double)a.lo);
}

/* ---------------- MPFR helpers for single operations ---------------- */

enum { PREC1 = 512 }; /* holds every DF value and every sum or product of two exactly */

typedef struct {
    mpfr_t a, b, x, y, t;
} ws1;

static void ws1_init(ws1 *w) { mpfr_inits2(PREC1, w->a, w->b, w->x, w->y, w->t, (mpfr_ptr)0); }

static void ws1_clear(ws1 *w) { mpfr_clears(w->a, w->b, w->x, w->y, w->t, (mpfr_ptr)0); }

static void set_df(mpfr_t x, dfs_df a)
{
    mpfr_set_flt(x, a.hi, MPFR_RNDN);
    mpfr_add_d(x, x, (double)a.lo, MPFR_RNDN); /* exact at PREC1 */
}

/* |got - exact| / |exact|; 0 when both are 0, +Inf when only exact is. */
static double rel_err(mpfr_t tmp, mpfr_srcptr exact, mpfr_srcptr got)
{
    if (mpfr_zero_p(exact))
        return mpfr_zero_p(got) ? 0.0 : INFINITY;
    mpfr_sub(tmp, got, exact, MPFR_RNDN);
    mpfr_div(tmp, tmp, exact, MPFR_RNDN);
    return fabs(mpfr_get_d(tmp, MPFR_RNDN));
}

typedef struct {
    double worst;
    long cases;
    dfs_df a, b; /* the worst case's operands */
} stat1;

static void note(stat1 *s, double err, dfs_df a, dfs_df b)
{
    s->cases++;
    if (err > s->worst || s->cases == 1) {
        s->worst = err;
        s->a = a;
        s->b = b;
    }
}

static void print1(const char *what, const stat1 *s, const char *bound)
{
    printf("df: %-34s %8ld cases, worst relative error %.4f u^2 = %.3e  (%s; at (%a + %a), (%a + "
           "%a))\n",
           what, s->cases, s->worst / U2, s->worst, bound, (double)s->a.hi, (double)s->a.lo,
           (double)s->b.hi, (double)s->b.lo);
    fflush(stdout);
}

/* ---------------- 1. single operations ---------------- */

/* Multiplies with dfs_df_mul_accurate (asserted: relative error < 4u^2, output canonical) and
 * dfs_df_mul_fast (only measured). */
static void mul_case(ws1 *w, dfs_df a, dfs_df b, const char *what, long i, stat1 *acc, stat1 *fast)
{
    dfs_df c = dfs_df_mul_accurate(a, b);
    set_df(w->a, a);
    set_df(w->b, b);
    mpfr_mul(w->x, w->a, w->b, MPFR_RNDN); /* exact */
    set_df(w->y, c);
    double err = rel_err(w->t, w->x, w->y);
    ck_assert_msg(err < 4 * U2,
                  "mul_accurate, %s case %ld: (%a + %a) * (%a + %a) = (%a + %a): relative error "
                  "%.4f u^2, bound 4 u^2",
                  what, i, (double)a.hi, (double)a.lo, (double)b.hi, (double)b.lo, (double)c.hi,
                  (double)c.lo, err / U2);
    ck_assert_msg(canonical(c), "mul_accurate, %s case %ld: output (%a + %a) not normalised", what,
                  i, (double)c.hi, (double)c.lo);
    note(acc, err, a, b);
    dfs_df f = dfs_df_mul_fast(a, b);
    set_df(w->y, f);
    note(fast, rel_err(w->t, w->x, w->y), a, b);
}

/* Adds with dfs_df_add_accurate (asserted: relative error <= 3u^2 + 13u^3, exact zero when the sum
 * is zero, output canonical) and dfs_df_add_sloppy (only measured). */
static void add_case(ws1 *w, dfs_df a, dfs_df b, const char *what, long i, stat1 *acc,
                     stat1 *sloppy)
{
    dfs_df c = dfs_df_add_accurate(a, b);
    set_df(w->a, a);
    set_df(w->b, b);
    mpfr_add(w->x, w->a, w->b, MPFR_RNDN); /* exact */
    set_df(w->y, c);
    double err = rel_err(w->t, w->x, w->y);
    ck_assert_msg(err <= 3 * U2 + 13 * U3,
                  "add_accurate, %s case %ld: (%a + %a) + (%a + %a) = (%a + %a): relative error "
                  "%.4f u^2, bound 3 u^2 + 13 u^3",
                  what, i, (double)a.hi, (double)a.lo, (double)b.hi, (double)b.lo, (double)c.hi,
                  (double)c.lo, err / U2);
    ck_assert_msg(canonical(c), "add_accurate, %s case %ld: output (%a + %a) not normalised", what,
                  i, (double)c.hi, (double)c.lo);
    note(acc, err, a, b);
    dfs_df s = dfs_df_add_sloppy(a, b);
    set_df(w->y, s);
    note(sloppy, rel_err(w->t, w->x, w->y), a, b);
}

START_TEST(mul_accurate_bound)
{
    ws1 w;
    ws1_init(&w);
    stat1 acc = {0}, fast = {0}, acc_tie = {0}, fast_tie = {0};
    rng r = rng_seed(101);
    for (long i = 0; i < 200000; i++)
        mul_case(&w, rand_df(&r, -40, 40), rand_df(&r, -40, 40), "random", i, &acc, &fast);
    for (long i = 0; i < 20000; i++) { /* huge times tiny, product near 1 */
        dfs_df a = rand_df(&r, 60, 100), b = rand_df(&r, -100, -60);
        if (i & 1)
            mul_case(&w, a, b, "huge*tiny", i, &acc, &fast);
        else
            mul_case(&w, b, a, "tiny*huge", i, &acc, &fast);
    }
    print1("mul_accurate (DWTimesDW3)", &acc, "bound < 4 u^2, asserted");
    print1("mul_fast (paper, 5 ops; measured)", &fast, "no bound asserted");
    /* Non-canonical inputs (odd hi, lo = +-ulp(hi)/2), as dfs_df_from_double can produce: the
     * proof assumes canonical inputs; the bound is asserted anyway (see the README). */
    for (long i = 0; i < 20000; i++) {
        dfs_df a = tie_df(&r, -40, 40), b = (i & 1) ? tie_df(&r, -40, 40) : rand_df(&r, -40, 40);
        mul_case(&w, a, b, "half-ulp tie input", i, &acc_tie, &fast_tie);
    }
    print1("mul_accurate, half-ulp tie inputs", &acc_tie, "bound < 4 u^2, asserted");
    ws1_clear(&w);
}
END_TEST

/* A partner b for a with heavy or total cancellation in a + b. */
static dfs_df cancel_partner(rng *r, dfs_df a)
{
    float h = -a.hi, lo;
    int e = exponent_f(a.hi);
    switch (below(r, 6)) {
    case 0: /* equal magnitude, opposite sign: the sum is exactly 0 */
        return dfs_df_make(-a.hi, -a.lo);
    case 1: /* hi cancels, lo random */
        lo = rand_lo(r, e, 40);
        break;
    case 2: /* hi cancels, lo nearly cancels */
        lo = a.lo == 0.0f ? rand_lo(r, e, 40) : -a.lo;
        for (int j = below(r, 4) + 1; j > 0; j--)
            lo = nextafterf(lo, (next64(r) & 1) ? INFINITY : -INFINITY);
        break;
    case 3: /* hi within a few ulps */
        for (int j = below(r, 7) - 3; j != 0; j += j > 0 ? -1 : 1)
            h = nextafterf(h, j > 0 ? INFINITY : -INFINITY);
        lo = rand_lo(r, exponent_f(h), 40);
        break;
    case 4: /* one ulp smaller in magnitude: across a binade edge when a.hi is a power of two */
        h = -nextafterf(a.hi, 0.0f);
        lo = rand_lo(r, exponent_f(h), 40);
        break;
    default: /* same binade, other value: partial cancellation */
        h = -ldexpf((float)mant24(r), e - 23) * (a.hi < 0 ? -1.0f : 1.0f);
        lo = rand_lo(r, e, 40);
        break;
    }
    float l, s = dfs_fast_two_sum(h, lo, &l);
    return dfs_df_make(s, l);
}

START_TEST(add_accurate_bound)
{
    ws1 w;
    ws1_init(&w);
    stat1 acc = {0}, sloppy = {0}, acc_c = {0}, sloppy_c = {0}, acc_tie = {0}, sloppy_tie = {0};
    rng r = rng_seed(202);
    for (long i = 0; i < 200000; i++) {
        dfs_df a = rand_df(&r, -40, 40), b;
        if (i & 1) { /* same or neighbouring exponent: mostly partial cancellation */
            int e = exponent_f(a.hi) + below(&r, 3) - 1;
            b = rand_df(&r, e, e);
        } else {
            b = rand_df(&r, -40, 40);
        }
        add_case(&w, a, b, "random", i, &acc, &sloppy);
    }
    for (long i = 0; i < 20000; i++) { /* huge + tiny */
        dfs_df a = rand_df(&r, 80, 100), b = rand_df(&r, -100, -80);
        if (i & 1)
            add_case(&w, a, b, "huge+tiny", i, &acc, &sloppy);
        else
            add_case(&w, b, a, "tiny+huge", i, &acc, &sloppy);
    }
    print1("add_accurate (AccurateDWPlusDW)", &acc, "bound 3 u^2 + 13 u^3, asserted");
    print1("add_sloppy (QD sloppy; measured)", &sloppy, "no bound asserted");
    for (long i = 0; i < 150000; i++) {
        dfs_df a = rand_df(&r, -40, 40), b = cancel_partner(&r, a);
        if (i & 1)
            add_case(&w, a, b, "cancellation", i, &acc_c, &sloppy_c);
        else
            add_case(&w, b, a, "cancellation", i, &acc_c, &sloppy_c);
    }
    print1("add_accurate, cancellation", &acc_c, "bound 3 u^2 + 13 u^3, asserted");
    print1("add_sloppy, cancellation (measured)", &sloppy_c, "no bound: can reach 1");
    for (long i = 0; i < 20000; i++) {
        dfs_df a = tie_df(&r, -40, 40), b;
        switch (i % 3) {
        case 0:
            b = tie_df(&r, -40, 40);
            break;
        case 1:
            b = rand_df(&r, exponent_f(a.hi), exponent_f(a.hi));
            break;
        default:
            b = dfs_df_make(-a.hi, a.lo); /* the sum is 2 lo, exactly */
            break;
        }
        add_case(&w, a, b, "half-ulp tie input", i, &acc_tie, &sloppy_tie);
    }
    print1("add_accurate, half-ulp tie inputs", &acc_tie, "bound 3 u^2 + 13 u^3, asserted");
    ws1_clear(&w);
}
END_TEST

/* A random double with exponent e in [emin, emax], |x| < FLT_MAX after rounding to binary32; the
 * 29 bits below binary32's significand are often adversarial for the split hi + lo. */
static double rand_x(rng *r, int emin, int emax)
{
    int e = emin + below(r, emax - emin + 1);
    uint64_t H = (next64(r) >> 40) | (1ULL << 23), L;
    switch (below(r, 8)) {
    case 0: /* x - hi = 2^(e-25) + 2^(e-49): lo rounds a tie, error 2^(e-49) */
        H = (1ULL << 23) | (H & 3);
        L = (1ULL << 27) + 8;
        break;
    case 1: /* the same, negative x - hi */
        H = (1ULL << 23) | (H & 3);
        L = (1ULL << 29) - (1ULL << 27) - 8;
        break;
    case 2: /* x - hi rounds up to ulp(hi)/2 exactly: lo = +-ulp(hi)/2 */
        L = (next64(r) & 1) ? (1ULL << 28) - 1 : (1ULL << 28) + 1;
        break;
    case 3: /* hi itself is a tie */
        L = 1ULL << 28;
        break;
    case 4:
        L = ((next64(r) >> 35) & ~0xfULL) | 8;
        break;
    default:
        L = next64(r) >> 35;
        break;
    }
    if (e == 127 && H == 0xffffffULL)
        L &= (1ULL << 28) - 1; /* stays below FLT_MAX + ulp/2 */
    double x = ldexp((double)((H << 29) | L), e - 52);
    return (next64(r) & 1) ? -x : x;
}

START_TEST(from_double_bound)
{
    ws1 w;
    ws1_init(&w);
    rng r = rng_seed(303);
    double worst = 0.0, worst_x = 0.0, worst_sub = 0.0, worst_sub_abs = 0.0;
    long ties = 0, n = 0;
    double tie_x = 0.0;
    for (long i = 0; i < 300000; i++) {
        int low = i % 10 == 9; /* x in [2^-126, 2^-101): lo falls into binary32's subnormals */
        double x = low ? rand_x(&r, -126, -102) : rand_x(&r, -101, 127);
        dfs_df d = dfs_df_from_double(x);
        ck_assert_msg(d.hi == (float)x, "from_double(%a): hi %a is not RN32(x)", x, (double)d.hi);
        ck_assert_msg(fabs((double)d.lo) <= ldexp(1.0, exponent_f(d.hi) - 24),
                      "from_double(%a) = (%a + %a): |lo| > ulp(hi)/2", x, (double)d.hi,
                      (double)d.lo);
        if (d.hi != (float)((double)d.hi + (double)d.lo)) {
            if (!ties++)
                tie_x = x;
        }
        mpfr_set_d(w.x, x, MPFR_RNDN);
        set_df(w.y, d);
        mpfr_sub(w.t, w.y, w.x, MPFR_RNDN);
        double abs_err = fabs(mpfr_get_d(w.t, MPFR_RNDN));
        double err = rel_err(w.t, w.x, w.y);
        if (low) {
            /* binary32's subnormal spacing 2^-149 limits lo: |error| <= 2^-150 */
            ck_assert_msg(abs_err <= 0x1p-150, "from_double(%a) = (%a + %a): |error| %a > 2^-150",
                          x, (double)d.hi, (double)d.lo, abs_err);
            worst_sub = fmax(worst_sub, err);
            worst_sub_abs = fmax(worst_sub_abs, abs_err);
            continue;
        }
        /* hi = RN32(x) leaves |x - hi| <= ulp(hi)/2 <= 2^(e-24) for |x| in [2^e, 2^(e+1)); lo =
         * RN32(x - hi) then errs by at most half an ulp of a number below 2^(e-24), 2^(e-49):
         * relative error <= 2^-49 (= u^2/2), while |x| >= 2^-101 keeps lo normal. */
        ck_assert_msg(err <= 0x1p-49,
                      "from_double(%a) = (%a + %a): relative error %.4f u^2, bound 2^-49 = 0.5 u^2",
                      x, (double)d.hi, (double)d.lo, err / U2);
        n++;
        if (err > worst) {
            worst = err;
            worst_x = x;
        }
    }
    printf("df: %-34s %8ld cases, worst relative error %.4f u^2 = %.3e  (bound 2^-49 = 0.5 u^2 for "
           "|x| in [2^-101, FLT_MAX], asserted; at x = %a)\n",
           "from_double", n, worst / U2, worst, worst_x);
    printf("df: %-34s worst relative error %.3e, worst absolute %a (bound 2^-150, asserted)\n",
           "from_double, |x| in [2^-126,2^-101)", worst_sub, worst_sub_abs);
    printf("df: from_double: %ld of %ld results have |lo| = ulp(hi)/2 with hi odd, so hi != "
           "RN32(hi + lo) (non-canonical), e.g. x = %a\n",
           ties, 300000L, tie_x);
    fflush(stdout);
    ws1_clear(&w);
}
END_TEST

START_TEST(to_double_rounding)
{
    ws1 w;
    ws1_init(&w);
    rng r = rng_seed(404);
    long inexact = 0, total = 300000;
    dfs_df example = dfs_df_make(0.0f, 0.0f);
    for (long i = 0; i < total; i++) {
        dfs_df a = rand_df_gap(&r, -40, 40, 60);
        double got = dfs_df_to_double(a);
        set_df(w.x, a);
        double rn = mpfr_get_d(w.x, MPFR_RNDN);
        ck_assert_msg(memcmp(&got, &rn, sizeof got) == 0,
                      "to_double(%a + %a) = %a, correctly rounded sum is %a", (double)a.hi,
                      (double)a.lo, got, rn);
        int exact = mpfr_cmp_d(w.x, got) == 0;
        /* Exact whenever hi and lo are at most 29 binades apart (48 + 5 bits fit in 53). */
        if (a.lo != 0.0f && exponent_f(a.hi) - exponent_f(a.lo) <= 29)
            ck_assert_msg(exact, "to_double(%a + %a) = %a is not exact", (double)a.hi, (double)a.lo,
                          got);
        if (!exact && !inexact++)
            example = a;
    }
    printf("df: to_double: correctly rounded in all %ld cases (asserted); exact when hi, lo are "
           "<= 29 binades apart (asserted); %ld cases with lo far below hi are not representable "
           "in binary64 and were rounded, e.g. %a + %a\n",
           total, inexact, (double)example.hi, (double)example.lo);
    fflush(stdout);
    ws1_clear(&w);
}
END_TEST

/* ---------------- GEMM: data, exact reference, host calls ---------------- */

enum { PREC_PROD = 128, PREC_REF = 256, PREC_EVAL = 320 };

typedef struct {
    int64_t m, n, k;
    double *A; /* op(A): m x k, A[i + p*m] */
    double *B; /* op(B): k x n, B[p + j*k] */
    mpfr_t *D; /* exact sum_p a_ip b_pj, rounded to PREC_REF bits; m x n */
    mpfr_t *S; /* sum_p |a_ip b_pj| (PREC_REF bits) */
} gcase;

static size_t nz(int64_t x) { return (size_t)(x > 0 ? x : 1); }

static void gc_init(gcase *g, int64_t m, int64_t n, int64_t k)
{
    g->m = m;
    g->n = n;
    g->k = k;
    g->A = calloc(nz(m * k), sizeof(double));
    g->B = calloc(nz(k * n), sizeof(double));
    g->D = malloc(nz(m * n) * sizeof(mpfr_t));
    g->S = malloc(nz(m * n) * sizeof(mpfr_t));
    ck_assert(g->A && g->B && g->D && g->S);
    for (int64_t i = 0; i < m * n; i++) {
        mpfr_init2(g->D[i], PREC_REF);
        mpfr_init2(g->S[i], PREC_REF);
    }
}

static void gc_free(gcase *g)
{
    for (int64_t i = 0; i < g->m * g->n; i++) {
        mpfr_clear(g->D[i]);
        mpfr_clear(g->S[i]);
    }
    free(g->A);
    free(g->B);
    free(g->D);
    free(g->S);
}

/* D and S from A and B: every product is exact in PREC_PROD bits; mpfr_sum rounds the sum once. */
static void gc_reference(gcase *g)
{
    int64_t m = g->m, n = g->n, k = g->k;
    mpfr_t *pr = malloc(nz(k) * sizeof *pr);
    mpfr_ptr *pp = malloc(nz(k) * sizeof *pp);
    ck_assert(pr && pp);
    for (int64_t p = 0; p < k; p++) {
        mpfr_init2(pr[p], PREC_PROD);
        pp[p] = pr[p];
    }
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < m; i++) {
            for (int64_t p = 0; p < k; p++) {
                mpfr_set_d(pr[p], g->A[i + p * m], MPFR_RNDN);
                mpfr_mul_d(pr[p], pr[p], g->B[p + j * k], MPFR_RNDN);
            }
            mpfr_sum(g->D[i + j * m], pp, (unsigned long)k, MPFR_RNDN);
            for (int64_t p = 0; p < k; p++)
                mpfr_abs(pr[p], pr[p], MPFR_RNDN);
            mpfr_sum(g->S[i + j * m], pp, (unsigned long)k, MPFR_RNDN);
        }
    for (int64_t p = 0; p < k; p++)
        mpfr_clear(pr[p]);
    free(pr);
    free(pp);
}

/* The binary64 dot product of row i of op(A) and column j of op(B): an fma loop in order of p, as
 * the host code computes rows and columns holding Inf or NaN. */
static double dot64(const gcase *g, int64_t i, int64_t j)
{
    double s = 0.0;
    for (int64_t p = 0; p < g->k; p++)
        s = fma(g->A[i + p * g->m], g->B[p + j * g->k], s);
    return s;
}

/* The rows x cols matrix op (column-major, ld rows) stored as a GEMM with this trans flag and
 * leading dimension ld reads it; the padding is NaN (read by mistake, it would show). */
static double *layout(const double *op, int64_t rows, int64_t cols, int trans, int64_t ld)
{
    int64_t scols = trans ? rows : cols;
    double *s = malloc(nz(ld * scols) * sizeof *s);
    ck_assert(s != NULL);
    for (int64_t x = 0; x < ld * scols; x++)
        s[x] = NAN;
    for (int64_t c = 0; c < cols; c++)
        for (int64_t r = 0; r < rows; r++) {
            if (trans)
                s[c + r * ld] = op[r + c * rows];
            else
                s[r + c * ld] = op[r + c * rows];
        }
    return s;
}

static const double sentinel = -0x1.2345p+77;

/* out (m x n) = the host DGEMM's C for op(A) = g->A, op(B) = g->B, given trans flags, padding of
 * every leading dimension by pad, and C on entry C0 (m x n; NULL: all NaN).  Asserts that C's
 * padding rows stay untouched. */
static void run_gemm(int scheme, int ta, int tb, const gcase *g, double alpha, double beta,
                     const double *C0, int64_t pad, double *out)
{
    int64_t m = g->m, n = g->n, k = g->k;
    int64_t lda = (ta ? k : m) + pad, ldb = (tb ? n : k) + pad, ldc = m + pad;
    if (lda < 1)
        lda = 1;
    if (ldb < 1)
        ldb = 1;
    if (ldc < 1)
        ldc = 1;
    double *A = layout(g->A, m, k, ta, lda), *B = layout(g->B, k, n, tb, ldb);
    double *C = malloc(nz(ldc * n) * sizeof *C);
    ck_assert(C != NULL);
    for (int64_t x = 0; x < ldc * n; x++)
        C[x] = sentinel;
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < m; i++)
            C[i + j * ldc] = C0 ? C0[i + j * m] : NAN;
    dfs_df_gemm_host(scheme, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
    for (int64_t j = 0; j < n; j++) {
        for (int64_t i = m; i < ldc; i++)
            ck_assert_msg(memcmp(&C[i + j * ldc], &sentinel, sizeof sentinel) == 0,
                          "%s: C padding (%lld,%lld) (ldc %lld) was written", scheme_name[scheme],
                          (long long)i, (long long)j, (long long)ldc);
        for (int64_t i = 0; i < m; i++)
            out[i + j * m] = C[i + j * ldc];
    }
    free(A);
    free(B);
    free(C);
}

static int pow2_or_zero(double x)
{
    int e;
    return x == 0.0 || fabs(frexp(x, &e)) == 0.5;
}

/* The normwise bound on |computed - exact| / (|alpha| sum|a b| + |beta c|).  MAD29: the proven
 * first-order bound (3k + 4) u^2 (conversion of the inputs u^2, product < 4u^2, k - 1 additions of
 * <= 3u^2 + 13u^3 each; the padding to a multiple of 8 adds zeros exactly).  MAD16/MAD15: the
 * empirical bound 4 (k + 1) u^2 (no proof exists for the sloppy add; measured constants are
 * printed).  Plus one binary64 rounding (2^-53) for each of: the DF -> binary64 conversion,
 * alpha * ab (unless alpha is 0 or a power of two), beta * c (unless a power of two), the final
 * add. */
static double gemm_bound(int scheme, int64_t k, double alpha, double beta)
{
    double df =
        scheme == DFS_DF_MAD29 ? (3.0 * (double)k + 4.0) * U2 : 4.0 * ((double)k + 1.0) * U2;
    int r64 = 1 + !pow2_or_zero(alpha);
    if (beta != 0.0)
        r64 += 1 + !pow2_or_zero(beta);
    return df + r64 * U64;
}

typedef struct {
    mpfr_t ex, den, t, lim;
} wsg;

static void wsg_init(wsg *w) { mpfr_inits2(PREC_EVAL, w->ex, w->den, w->t, w->lim, (mpfr_ptr)0); }

static void wsg_clear(wsg *w) { mpfr_clears(w->ex, w->den, w->t, w->lim, (mpfr_ptr)0); }

/* For entry e of g: exact = alpha D + beta c0, den = |alpha| S + |beta c0|.  Returns
 * |got - exact| / den (0/0 = 0, x/0 = Inf); *ok: |got - exact| <= bnd * den + 4 * 2^-1074 (the
 * last term: binary64 roundings in the subnormal range). */
static double entry_err(wsg *w, const gcase *g, int64_t e, double got, double alpha, double beta,
                        double c0, double bnd, int *ok)
{
    mpfr_mul_d(w->ex, g->D[e], alpha, MPFR_RNDN);
    mpfr_mul_d(w->den, g->S[e], fabs(alpha), MPFR_RNDN);
    if (beta != 0.0) {
        mpfr_set_d(w->t, c0, MPFR_RNDN);
        mpfr_mul_d(w->t, w->t, beta, MPFR_RNDN);
        mpfr_add(w->ex, w->ex, w->t, MPFR_RNDN);
        mpfr_abs(w->t, w->t, MPFR_RNDN);
        mpfr_add(w->den, w->den, w->t, MPFR_RNDN);
    }
    if (!isfinite(got)) {
        *ok = 0;
        return INFINITY;
    }
    mpfr_set_d(w->t, got, MPFR_RNDN);
    mpfr_sub(w->t, w->t, w->ex, MPFR_RNDN);
    mpfr_abs(w->t, w->t, MPFR_RNDN);
    mpfr_mul_d(w->lim, w->den, bnd, MPFR_RNDN);
    mpfr_add_d(w->lim, w->lim, 0x1p-1072, MPFR_RNDN);
    *ok = mpfr_lessequal_p(w->t, w->lim);
    if (mpfr_zero_p(w->den))
        return mpfr_zero_p(w->t) ? 0.0 : INFINITY;
    mpfr_div(w->t, w->t, w->den, MPFR_RNDN);
    return mpfr_get_d(w->t, MPFR_RNDN);
}

/* ---------------- GEMM input classes ---------------- */

enum { C_UNIFORM, C_PHI0, C_PHI1, C_PHI2, C_MIRROR, C_PAIRS, C_LAST, NCLASS };
static const char *const class_name[NCLASS] = {
    "uniform[-1,1)", "phi=0", "phi=1", "phi=2", "cancel-mirror", "cancel-pairs", "cancel-last"};

/* x = (rand - 0.5) * exp(phi * randn) (ALGORITHMS.md section 3). */
static double phi_gen(rng *r, double phi) { return (unif(r) - 0.5) * exp(phi * randn(r)); }

/* An entry of class cls before the cancellation classes shape it: phi classes, else uniform. */
static double class_value(rng *r, int cls)
{
    if (cls == C_PHI0 || cls == C_PHI1 || cls == C_PHI2)
        return phi_gen(r, (double)(cls - C_PHI0));
    return unif_pm1(r);
}

/* Fills g (already sized) with class cls.  Cancellation classes: mirror: the second half of each
 * row of op(A) is the negated first half times (1 + O(2^-30)), op(B)'s second half repeats its
 * first, so partial sums grow and then cancel; pairs: the same for neighbouring p (cancellation at
 * every second step); last: op(B)'s last n rows are the identity and op(A)'s last n columns hold
 * -RN(partial dot products), so the last product cancels the whole sum (needs k > n). */
static void gc_fill(gcase *g, int cls, rng *r)
{
    int64_t m = g->m, n = g->n, k = g->k;
    for (int64_t x = 0; x < m * k; x++)
        g->A[x] = class_value(r, cls);
    for (int64_t x = 0; x < k * n; x++)
        g->B[x] = class_value(r, cls);
    if (cls == C_MIRROR || cls == C_PAIRS) {
        int64_t h = k / 2;
        for (int64_t q = 0; q < h; q++) {
            int64_t p0 = cls == C_MIRROR ? q : 2 * q, p1 = cls == C_MIRROR ? h + q : 2 * q + 1;
            for (int64_t i = 0; i < m; i++)
                g->A[i + p1 * m] = -g->A[i + p0 * m] * (1.0 + 0x1p-30 * unif_pm1(r));
            for (int64_t j = 0; j < n; j++)
                g->B[p1 + j * k] = g->B[p0 + j * k];
        }
    } else if (cls == C_LAST) {
        int64_t k0 = k - n;
        ck_assert(k0 > 0);
        for (int64_t q = 0; q < n; q++)
            for (int64_t j = 0; j < n; j++)
                g->B[k0 + q + j * k] = q == j ? 1.0 : 0.0;
        gcase h;
        gc_init(&h, m, n, k0);
        memcpy(h.A, g->A, (size_t)(m * k0) * sizeof(double));
        for (int64_t j = 0; j < n; j++)
            memcpy(h.B + j * k0, g->B + j * k, (size_t)k0 * sizeof(double));
        gc_reference(&h);
        for (int64_t j = 0; j < n; j++)
            for (int64_t i = 0; i < m; i++)
                g->A[i + (k0 + j) * m] = -mpfr_get_d(h.D[i + j * m], MPFR_RNDN);
        gc_free(&h);
    }
}

/* ---------------- 2. GEMM accuracy ---------------- */

static const struct {
    int64_t m, n, k;
} acc_sizes[] = {{13, 11, 1},  {13, 11, 7}, {9, 10, 8},    {7, 5, 9},
                 {11, 13, 33}, {6, 7, 130}, {12, 13, 1000}};
#define NSIZES ((int)(sizeof acc_sizes / sizeof acc_sizes[0]))

/* Every class, size, scheme and the four transposes (with and without padded leading dimensions),
 * alpha = 1, beta = 0 on a NaN C.  Asserts the normwise bound for every entry and that the four
 * layouts give bitwise the same C; prints the measured constants and the comparison with binary64
 * dot products on the same data. */
START_TEST(gemm_accuracy)
{
    wsg w;
    wsg_init(&w);
    double maxc[NCLASS][DFS_DF_SCHEMES] = {{0}}, err1000[NCLASS][DFS_DF_SCHEMES] = {{0}};
    double maxc7[NCLASS][DFS_DF_SCHEMES] = {{0}}; /* k >= 7 */
    double maxc64[NCLASS] = {0}, err1000_64[NCLASS] = {0};
    for (int cls = 0; cls < NCLASS; cls++) {
        for (int s = 0; s < NSIZES; s++) {
            int64_t m = acc_sizes[s].m, n = acc_sizes[s].n, k = acc_sizes[s].k;
            if (cls == C_LAST && k <= n)
                continue;
            gcase g;
            gc_init(&g, m, n, k);
            rng r = rng_seed(1000 + 100 * (uint64_t)cls + (uint64_t)s);
            gc_fill(&g, cls, &r);
            gc_reference(&g);
            double kd = (double)k;
            for (int64_t e = 0; e < m * n; e++) {
                int ok;
                double err = entry_err(&w, &g, e, dot64(&g, e % m, e / m), 1.0, 0.0, 0.0, 1.0, &ok);
                maxc64[cls] = fmax(maxc64[cls], err / (kd * U64));
                if (k == 1000)
                    err1000_64[cls] = fmax(err1000_64[cls], err);
            }
            double *base = malloc(nz(m * n) * sizeof *base), *out = malloc(nz(m * n) * sizeof *out);
            ck_assert(base && out);
            for (int sc = 0; sc < DFS_DF_SCHEMES; sc++) {
                double bnd = gemm_bound(sc, k, 1.0, 0.0);
                run_gemm(sc, 0, 0, &g, 1.0, 0.0, NULL, 0, base);
                for (int64_t e = 0; e < m * n; e++) {
                    int ok;
                    double err = entry_err(&w, &g, e, base[e], 1.0, 0.0, 0.0, bnd, &ok);
                    ck_assert_msg(ok,
                                  "%s, %s, m=%lld n=%lld k=%lld: entry (%lld,%lld) = %.17g, exact "
                                  "%.17g: error %.4g (k u^2) * |A||B|, bound %.4g",
                                  class_name[cls], scheme_name[sc], (long long)m, (long long)n,
                                  (long long)k, (long long)(e % m), (long long)(e / m), base[e],
                                  mpfr_get_d(g.D[e], MPFR_RNDN), err / (kd * U2), bnd / (kd * U2));
                    maxc[cls][sc] = fmax(maxc[cls][sc], err / (kd * U2));
                    if (k >= 7)
                        maxc7[cls][sc] = fmax(maxc7[cls][sc], err / (kd * U2));
                    if (k == 1000)
                        err1000[cls][sc] = fmax(err1000[cls][sc], err);
                }
                for (int t = 1; t < 8; t++) {
                    int ta = t & 1, tb = (t >> 1) & 1;
                    int64_t pad = t >= 4 ? 3 : 0;
                    run_gemm(sc, ta, tb, &g, 1.0, 0.0, NULL, pad, out);
                    for (int64_t e = 0; e < m * n; e++)
                        ck_assert_msg(memcmp(&out[e], &base[e], sizeof out[e]) == 0,
                                      "%s, %s, m=%lld n=%lld k=%lld, transa=%d transb=%d pad=%lld: "
                                      "entry (%lld,%lld) = %a, with N,N and tight ld: %a",
                                      class_name[cls], scheme_name[sc], (long long)m, (long long)n,
                                      (long long)k, ta, tb, (long long)pad, (long long)(e % m),
                                      (long long)(e / m), out[e], base[e]);
                }
            }
            free(base);
            free(out);
            gc_free(&g);
        }
    }
    printf(
        "df: GEMM normwise error |C - exact| / (|A||B|)_ij, alpha = 1, beta = 0; sizes (m,n,k) = "
        "(13,11,1) (13,11,7) (9,10,8) (7,5,9) (11,13,33) (6,7,130) (12,13,1000)\n");
    printf("df: c = max err / (k u^2) over all sizes (k = 1 dominates: input conversion and one "
           "product); c7 = the same over k >= 7; e1000 = max err at k = 1000 / u^2; /b64 = e1000 "
           "over the binary64 fma-loop dot product's max error at k = 1000 on the same data\n");
    printf("df: %-14s | %-28s | %-28s | %-28s | binary64 c64 = err/(k u64), e1000/u^2\n", "class",
           "MAD16 c, c7, e1000, /b64", "MAD15 c, c7, e1000, /b64", "MAD29 c, c7, e1000, /b64");
    for (int cls = 0; cls < NCLASS; cls++) {
        printf("df: %-14s |", class_name[cls]);
        for (int sc = 0; sc < DFS_DF_SCHEMES; sc++)
            printf(" %5.3f %5.3f %6.2f %6.1fx |", maxc[cls][sc], maxc7[cls][sc],
                   err1000[cls][sc] / U2,
                   err1000_64[cls] > 0 ? err1000[cls][sc] / err1000_64[cls] : INFINITY);
        printf(" %5.3f %.4f\n", maxc64[cls], err1000_64[cls] / U2);
    }
    fflush(stdout);
    wsg_clear(&w);
}
END_TEST

/* alpha, beta in {0, 1, -1, 3}, all transposes, padded and tight leading dimensions, every scheme;
 * beta = 0 on a C full of NaN (must not be read); alpha = 0 gives beta * C exactly (A and B full of
 * NaN then: not used); alpha = -1 is the exact negation of alpha = 1. */
START_TEST(gemm_alpha_beta)
{
    static const double ab[4] = {0.0, 1.0, -1.0, 3.0};
    wsg w;
    wsg_init(&w);
    int64_t sz[2][3] = {{5, 6, 7}, {4, 3, 9}};
    for (int z = 0; z < 2; z++) {
        int64_t m = sz[z][0], n = sz[z][1], k = sz[z][2];
        gcase g, gnan;
        gc_init(&g, m, n, k);
        gc_init(&gnan, m, n, k);
        rng r = rng_seed(5000 + (uint64_t)z);
        gc_fill(&g, z ? C_PHI1 : C_UNIFORM, &r);
        gc_reference(&g);
        for (int64_t x = 0; x < m * k; x++)
            gnan.A[x] = NAN;
        for (int64_t x = 0; x < k * n; x++)
            gnan.B[x] = NAN;
        double *C0 = malloc(nz(m * n) * sizeof *C0), *out = malloc(nz(m * n) * sizeof *out);
        double *one = malloc(nz(m * n) * sizeof *one);
        ck_assert(C0 && out && one);
        for (int64_t e = 0; e < m * n; e++)
            C0[e] = unif_pm1(&r);
        for (int sc = 0; sc < DFS_DF_SCHEMES; sc++)
            for (int t = 0; t < 8; t++) {
                int ta = t & 1, tb = (t >> 1) & 1;
                int64_t pad = t >= 4 ? 2 : 0;
                run_gemm(sc, ta, tb, &g, 1.0, 0.0, NULL, pad, one);
                for (int ia = 0; ia < 4; ia++)
                    for (int ib = 0; ib < 4; ib++) {
                        double alpha = ab[ia], beta = ab[ib], bnd = gemm_bound(sc, k, alpha, beta);
                        const double *c0 = beta == 0.0 ? NULL : C0;
                        run_gemm(sc, ta, tb, &g, alpha, beta, c0, pad, out);
                        for (int64_t e = 0; e < m * n; e++) {
                            int ok;
                            double err = entry_err(&w, &g, e, out[e], alpha, beta, C0[e], bnd, &ok);
                            ck_assert_msg(ok,
                                          "%s m=%lld n=%lld k=%lld transa=%d transb=%d pad=%lld "
                                          "alpha=%g beta=%g: entry (%lld,%lld) = %.17g: error "
                                          "%.4g u^2 * (|alpha||A||B| + |beta C|), bound %.4g u^2",
                                          scheme_name[sc], (long long)m, (long long)n, (long long)k,
                                          ta, tb, (long long)pad, alpha, beta, (long long)(e % m),
                                          (long long)(e / m), out[e], err / U2, bnd / U2);
                            if (alpha == 0.0)
                                ck_assert_msg(out[e] == beta * C0[e] && !isnan(out[e]),
                                              "%s alpha=0 beta=%g: entry (%lld,%lld) = %g, "
                                              "beta*C = %g",
                                              scheme_name[sc], beta, (long long)(e % m),
                                              (long long)(e / m), out[e], beta * C0[e]);
                            if (alpha == -1.0 && beta == 0.0)
                                ck_assert_msg(
                                    out[e] == -one[e],
                                    "%s alpha=-1: entry (%lld,%lld) = %a, alpha=1 gave %a",
                                    scheme_name[sc], (long long)(e % m), (long long)(e / m), out[e],
                                    one[e]);
                        }
                        if (alpha == 0.0) { /* A and B must not matter */
                            run_gemm(sc, ta, tb, &gnan, alpha, beta, c0, pad, out);
                            for (int64_t e = 0; e < m * n; e++)
                                ck_assert_msg(out[e] == beta * C0[e] && !isnan(out[e]),
                                              "%s alpha=0 beta=%g, A and B NaN: entry (%lld,%lld) "
                                              "= %g, beta*C = %g",
                                              scheme_name[sc], beta, (long long)(e % m),
                                              (long long)(e / m), out[e], beta * C0[e]);
                        }
                    }
            }
        free(C0);
        free(out);
        free(one);
        gc_free(&g);
        gc_free(&gnan);
    }
    wsg_clear(&w);
}
END_TEST

/* k = 0: C = beta C (nothing accumulated); m = 0 or n = 0: C untouched. */
START_TEST(gemm_empty)
{
    double C[6] = {1.5, -2.0, 0.25, 4.0, -8.0, 3.0}, A[6] = {1, 2, 3, 4, 5, 6},
           B[6] = {1, 2, 3, 4, 5, 6};
    for (int sc = 0; sc < DFS_DF_SCHEMES; sc++) {
        double c[6];
        memcpy(c, C, sizeof c);
        dfs_df_gemm_host(sc, 0, 0, 2, 3, 0, 2.0, A, 2, B, 1, 3.0, c, 2);
        for (int e = 0; e < 6; e++)
            ck_assert_msg(c[e] == 3.0 * C[e], "%s k=0: C[%d] = %g, expected %g", scheme_name[sc], e,
                          c[e], 3.0 * C[e]);
        memcpy(c, C, sizeof c);
        dfs_df_gemm_host(sc, 0, 0, 0, 3, 2, 2.0, A, 1, B, 2, 3.0, c, 1);
        dfs_df_gemm_host(sc, 0, 0, 2, 0, 2, 2.0, A, 2, B, 2, 3.0, c, 2);
        ck_assert_msg(memcmp(c, C, sizeof c) == 0, "%s m=0 or n=0 wrote C", scheme_name[sc]);
    }
}
END_TEST

/* ---------------- 3. range ---------------- */

/* Rows of op(A) and columns of op(B) scaled by 2^+-300, 1e300, 1e-310 (subnormal), 2^+-1000,
 * 1e-300, 2^-1060 (subnormal), 3: every entry either overflows exactly when the exact result
 * rounds to Inf in binary64 (then +-Inf of the right sign), or meets the same bound as unscaled
 * data; and where a row and a column are scaled exactly by powers of two, C is bit for bit the
 * unscaled C times that power (scaling makes DF independent of binary64's exponent range). */
START_TEST(gemm_range)
{
    static const double rs[10] = {1.0,       0x1p300,  0x1p-300, 1e300,     1e-310,
                                  0x1p-1000, 0x1p1000, 1e-300,   0x1p-1060, 3.0};
    static const double cs[10] = {0x1p-300, 1.0,       1e-310, 0x1p300, 1e300,
                                  0x1p1000, 0x1p-1000, 1e-300, 3.0,     0x1p-1060};
    const int64_t m = 10, n = 10, k = 40;
    wsg w;
    wsg_init(&w);
    gcase g0, g;
    gc_init(&g0, m, n, k);
    gc_init(&g, m, n, k);
    rng r = rng_seed(6000);
    gc_fill(&g0, C_UNIFORM, &r);
    int rexact[10], cexact[10], rlog[10], clog[10];
    for (int64_t i = 0; i < m; i++) {
        rexact[i] = pow2_or_zero(rs[i]);
        rlog[i] = ilogb(rs[i]);
        for (int64_t p = 0; p < k; p++) {
            g.A[i + p * m] = g0.A[i + p * m] * rs[i];
            rexact[i] &= ldexp(g.A[i + p * m], -rlog[i]) == g0.A[i + p * m];
        }
    }
    for (int64_t j = 0; j < n; j++) {
        cexact[j] = pow2_or_zero(cs[j]);
        clog[j] = ilogb(cs[j]);
        for (int64_t p = 0; p < k; p++) {
            g.B[p + j * k] = g0.B[p + j * k] * cs[j];
            cexact[j] &= ldexp(g.B[p + j * k], -clog[j]) == g0.B[p + j * k];
        }
    }
    gc_reference(&g);
    double *base = malloc((size_t)(m * n) * sizeof *base),
           *out = malloc((size_t)(m * n) * sizeof *out);
    ck_assert(base && out);
    int n_inf = 0, n_inv = 0, n_sub = 0;
    double worst[DFS_DF_SCHEMES] = {0};
    for (int sc = 0; sc < DFS_DF_SCHEMES; sc++) {
        double bnd = gemm_bound(sc, k, 1.0, 0.0);
        run_gemm(sc, 0, 0, &g0, 1.0, 0.0, NULL, 0, base);
        for (int t = 0; t < 4; t += 3) {
            run_gemm(sc, t & 1, t >> 1, &g, 1.0, 0.0, NULL, 1, out);
            for (int64_t j = 0; j < n; j++)
                for (int64_t i = 0; i < m; i++) {
                    int64_t e = i + j * m;
                    double rn = mpfr_get_d(g.D[e], MPFR_RNDN);
                    if (isinf(rn)) {
                        ck_assert_msg(out[e] == rn,
                                      "%s range: entry (%lld,%lld), scales %g x %g: exact result "
                                      "overflows to %g, got %g",
                                      scheme_name[sc], (long long)i, (long long)j, rs[i], cs[j], rn,
                                      out[e]);
                        n_inf++;
                        continue;
                    }
                    int ok;
                    double err = entry_err(&w, &g, e, out[e], 1.0, 0.0, 0.0, bnd, &ok);
                    ck_assert_msg(ok,
                                  "%s range: entry (%lld,%lld), scales %g x %g: got %.17g, exact "
                                  "%.17g: error %.4g u^2 * |A||B| (+ subnormal term), bound %.4g "
                                  "u^2",
                                  scheme_name[sc], (long long)i, (long long)j, rs[i], cs[j], out[e],
                                  rn, err / U2, bnd / U2);
                    if (fabs(rn) >= DBL_MIN)
                        worst[sc] = fmax(worst[sc], err);
                    else
                        n_sub++;
                    if (rexact[i] && cexact[j]) {
                        double want = ldexp(base[e], rlog[i] + clog[j]);
                        if (isfinite(want) && (want == 0.0 || fabs(want) >= DBL_MIN)) {
                            ck_assert_msg(
                                memcmp(&want, &out[e], sizeof want) == 0,
                                "%s range: entry (%lld,%lld), scales 2^%d x 2^%d: got %a, "
                                "unscaled result times the scales is %a",
                                scheme_name[sc], (long long)i, (long long)j, rlog[i], clog[j],
                                out[e], want);
                            n_inv++;
                        }
                    }
                }
        }
    }
    printf("df: range (k=40, scales 2^+-300, 1e300, 1e-310, 2^+-1000, 1e-300, 2^-1060, 3): worst "
           "normwise error / u^2 MAD16 %.3f MAD15 %.3f MAD29 %.3f (bound (3k+4) = %d for MAD29); "
           "%d overflow checks, %d bitwise scaling-invariance checks, %d entries with subnormal or "
           "zero result\n",
           worst[0] / U2, worst[1] / U2, worst[2] / U2, 3 * (int)k + 4, n_inf, n_inv, n_sub);
    fflush(stdout);
    free(base);
    free(out);
    gc_free(&g0);
    gc_free(&g);
    wsg_clear(&w);
}
END_TEST

/* Results near DBL_MAX: four rows of op(A) whose products with one column of op(B) overflow
 * binary64 in the partial sums; the last entry of each row is chosen so that the exact result is
 * +-0.9 DBL_MAX (must come out finite, within the bound) or +1.1 / -1.25 x 2^1024 (must overflow to
 * +-Inf). */
START_TEST(gemm_overflow_edge)
{
    static const double target[4] = {0.9, -0.9, 1.1, -1.25}; /* x 2^1024 (0.9: x DBL_MAX) */
    const int64_t m = 4, n = 1, k = 16;
    wsg w;
    wsg_init(&w);
    gcase g;
    gc_init(&g, m, n, k);
    rng r = rng_seed(7000);
    mpfr_t acc, t;
    mpfr_inits2(PREC_EVAL, acc, t, (mpfr_ptr)0);
    for (int64_t p = 0; p < k; p++)
        g.B[p] = 1.0 + unif(&r);
    for (int64_t i = 0; i < m; i++) {
        for (;;) { /* until the last entry fits in binary64 */
            mpfr_set_zero(acc, 1);
            for (int64_t p = 0; p < k - 1; p++) {
                double a = ldexp(1.0 + unif(&r), 1020);
                g.A[i + p * m] = (p < 8) == (target[i] > 0) ? a : -a;
                mpfr_set_d(t, g.A[i + p * m], MPFR_RNDN);
                mpfr_mul_d(t, t, g.B[p], MPFR_RNDN);
                mpfr_add(acc, acc, t, MPFR_RNDN);
            }
            mpfr_set_d(t, target[i] * (fabs(target[i]) < 1.0 ? DBL_MAX : 0x1p1023), MPFR_RNDN);
            if (fabs(target[i]) >= 1.0)
                mpfr_mul_2ui(t, t, 1, MPFR_RNDN);
            mpfr_sub(t, t, acc, MPFR_RNDN);
            mpfr_div_d(t, t, g.B[k - 1], MPFR_RNDN);
            double last = mpfr_get_d(t, MPFR_RNDN);
            if (isfinite(last)) {
                g.A[i + (k - 1) * m] = last;
                break;
            }
        }
    }
    gc_reference(&g);
    for (int sc = 0; sc < DFS_DF_SCHEMES; sc++) {
        double out[4], bnd = gemm_bound(sc, k, 1.0, 0.0);
        run_gemm(sc, 0, 0, &g, 1.0, 0.0, NULL, 0, out);
        for (int64_t i = 0; i < m; i++) {
            double rn = mpfr_get_d(g.D[i], MPFR_RNDN), d64 = dot64(&g, i, 0);
            if (fabs(target[i]) < 1.0) {
                int ok;
                double err = entry_err(&w, &g, i, out[i], 1.0, 0.0, 0.0, bnd, &ok);
                ck_assert_msg(isfinite(rn) && ok,
                              "%s near DBL_MAX: row %lld: got %a, exact %a (finite): error %.4g "
                              "u^2, bound %.4g u^2",
                              scheme_name[sc], (long long)i, out[i], rn, err / U2, bnd / U2);
            } else {
                ck_assert_msg(isinf(rn) && out[i] == rn,
                              "%s beyond DBL_MAX: row %lld: got %a, exact rounds to %a",
                              scheme_name[sc], (long long)i, out[i], rn);
            }
            if (sc == 0)
                printf("df: near DBL_MAX, row %lld: exact %.17g, DF %.17g, binary64 fma loop %g\n",
                       (long long)i, rn, out[i], d64);
        }
    }
    fflush(stdout);
    mpfr_clears(acc, t, (mpfr_ptr)0);
    gc_free(&g);
    wsg_clear(&w);
}
END_TEST

/* ---------------- 4. special values ---------------- */

/* Inf and NaN in op(A) and op(B): every entry whose row of op(A) or column of op(B) holds one is
 * what alpha * (binary64 fma loop in order of p) + beta * c gives (NaN, or Inf of the same sign);
 * the other entries stay finite and within the bound. */
START_TEST(gemm_special)
{
    const int64_t m = 6, n = 5, k = 9;
    wsg w;
    wsg_init(&w);
    gcase g;
    gc_init(&g, m, n, k);
    rng r = rng_seed(8000);
    gc_fill(&g, C_UNIFORM, &r);
    g.A[1 + 2 * m] = INFINITY;  /* row 1: +Inf ... */
    g.B[2 + 1 * k] = 0.0;       /* ... times 0 in column 1: NaN at (1,1) */
    g.B[2 + 0 * k] = 0.5;       /* (1,0) = +Inf */
    g.A[3 + 4 * m] = NAN;       /* row 3: NaN */
    g.A[4 + 0 * m] = -INFINITY; /* row 4: -Inf and +Inf */
    g.A[4 + 5 * m] = INFINITY;
    g.B[6 + 3 * k] = -INFINITY; /* column 3: -Inf */
    g.A[0 + 6 * m] = 0.75;      /* (0,3) = -Inf */
    gc_reference(&g);           /* used for the unaffected entries only */
    int rowbad[6] = {0, 1, 0, 1, 1, 0}, colbad[5] = {0, 0, 0, 1, 0};
    double C0[30], out[30];
    for (int e = 0; e < 30; e++)
        C0[e] = unif_pm1(&r);
    int counts[3] = {0, 0, 0}; /* NaN, Inf, finite among the affected (N,N, alpha 1, beta 0) */
    for (int sc = 0; sc < DFS_DF_SCHEMES; sc++)
        for (int t = 0; t < 4; t++)
            for (int v = 0; v < 4; v++) {
                double alpha = (v & 1) ? -1.0 : 1.0, beta = (v & 2) ? 1.0 : 0.0;
                double bnd = gemm_bound(sc, k, alpha, beta);
                run_gemm(sc, t & 1, t >> 1, &g, alpha, beta, beta != 0.0 ? C0 : NULL, t, out);
                for (int64_t j = 0; j < n; j++)
                    for (int64_t i = 0; i < m; i++) {
                        int64_t e = i + j * m;
                        if (rowbad[i] || colbad[j]) {
                            double want = alpha * dot64(&g, i, j);
                            if (beta != 0.0)
                                want = want + beta * C0[e];
                            ck_assert_msg(isnan(want) ? isnan(out[e]) : out[e] == want,
                                          "%s transa=%d transb=%d alpha=%g beta=%g: entry "
                                          "(%lld,%lld) = %g, binary64 dot product gives %g",
                                          scheme_name[sc], t & 1, t >> 1, alpha, beta, (long long)i,
                                          (long long)j, out[e], want);
                            if (sc == 0 && t == 0 && v == 0)
                                counts[isnan(out[e]) ? 0 : isinf(out[e]) ? 1 : 2]++;
                        } else {
                            int ok;
                            double err = entry_err(&w, &g, e, out[e], alpha, beta, C0[e], bnd, &ok);
                            ck_assert_msg(ok,
                                          "%s transa=%d transb=%d alpha=%g beta=%g: unaffected "
                                          "entry (%lld,%lld) = %g: error %.4g u^2, bound %.4g u^2",
                                          scheme_name[sc], t & 1, t >> 1, alpha, beta, (long long)i,
                                          (long long)j, out[e], err / U2, bnd / U2);
                        }
                    }
                /* hand-derived outcomes (alpha = 1, beta = 0) */
                if (v == 0) {
                    ck_assert_msg(isnan(out[1 + 1 * m]), "%s: Inf * 0 at (1,1) gave %g",
                                  scheme_name[sc], out[1 + 1 * m]);
                    ck_assert_msg(out[1 + 0 * m] == INFINITY, "%s: +Inf * 0.5 at (1,0) gave %g",
                                  scheme_name[sc], out[1 + 0 * m]);
                    ck_assert_msg(out[0 + 3 * m] == -INFINITY, "%s: 0.75 * -Inf at (0,3) gave %g",
                                  scheme_name[sc], out[0 + 3 * m]);
                    for (int64_t j = 0; j < n; j++)
                        ck_assert_msg(isnan(out[3 + j * m]), "%s: NaN row 3, (3,%lld) gave %g",
                                      scheme_name[sc], (long long)j, out[3 + j * m]);
                }
            }
    printf("df: special values: %d affected entries NaN, %d +-Inf, %d finite; all equal to the "
           "binary64 fma loop (asserted)\n",
           counts[0], counts[1], counts[2]);
    fflush(stdout);
    gc_free(&g);
    wsg_clear(&w);
}
END_TEST

/* ---------------- 5. signed zeros and exact cancellation ---------------- */

static char zsign(double x) { return x != 0.0 ? '?' : signbit(x) ? '-' : '+'; }

/* Small integers (every operation exact in binary32): columns 0..4 of op(A) negated in 5..9 with
 * op(B)'s rows repeated, so every entry is exactly 0 and must come out as 0 with every scheme; row
 * 0 of op(A) is +0 throughout, row 1 -0 throughout, column 0 of op(B) -0 throughout.  Prints the
 * signs of the zeros. */
START_TEST(gemm_zeros)
{
    const int64_t m = 4, n = 3, k = 10;
    gcase g;
    gc_init(&g, m, n, k);
    rng r = rng_seed(9000);
    for (int64_t p = 0; p < 5; p++) {
        for (int64_t i = 0; i < m; i++) {
            g.A[i + p * m] = (double)(below(&r, 17) - 8);
            g.A[i + (p + 5) * m] = -g.A[i + p * m];
        }
        for (int64_t j = 0; j < n; j++)
            g.B[p + j * k] = g.B[p + 5 + j * k] = (double)(below(&r, 17) - 8);
    }
    for (int64_t p = 0; p < k; p++) {
        g.A[0 + p * m] = 0.0;
        g.A[1 + p * m] = -0.0;
        g.B[p + 0 * k] = -0.0;
    }
    double out[12];
    printf("df: signed zeros (DF result / binary64 formula alpha*(fma loop)+beta*c); entries: "
           "(0,1) +0 row, (1,1) -0 row, (2,0) -0 column, (2,1) integer cancellation\n");
    for (int v = 0; v < 6; v++) {
        double alpha = (v & 1) ? -1.0 : 1.0, beta = v < 2 ? 0.0 : 1.0;
        double c0 = v < 4 ? 0.0 : -0.0;
        double C0[12];
        for (int e = 0; e < 12; e++)
            C0[e] = c0;
        char line[256];
        int len =
            snprintf(line, sizeof line, "df:   alpha=%+g beta=%g c=%c0:", alpha, beta, zsign(c0));
        for (int sc = 0; sc < DFS_DF_SCHEMES; sc++) {
            run_gemm(sc, 0, 0, &g, alpha, beta, beta != 0.0 ? C0 : NULL, 0, out);
            for (int64_t e = 0; e < m * n; e++)
                ck_assert_msg(
                    out[e] == 0.0, "%s alpha=%g beta=%g: entry (%lld,%lld) = %a, exact value 0",
                    scheme_name[sc], alpha, beta, (long long)(e % m), (long long)(e / m), out[e]);
            static const int64_t show[4] = {0 + 1 * 4, 1 + 1 * 4, 2 + 0 * 4, 2 + 1 * 4};
            len += snprintf(line + len, sizeof line - (size_t)len, "  %s", scheme_name[sc]);
            for (int q = 0; q < 4; q++) {
                int64_t e = show[q];
                double f = alpha * dot64(&g, e % m, e / m);
                if (beta != 0.0)
                    f = f + beta * c0;
                len += snprintf(line + len, sizeof line - (size_t)len, " %c/%c", zsign(out[e]),
                                zsign(f));
            }
        }
        printf("%s\n", line);
    }
    fflush(stdout);
    gc_free(&g);
}
END_TEST

/* ---------------- the host GEMM is the documented algorithm, bit for bit ---------------- */

/* One entry as host.h documents it, written out here independently: the row and the column are
 * scaled by 2^-e, e = floor(log2 max|x|), converted with dfs_df_from_double, accumulated with the
 * scheme's multiply-add in order p = 0 .. Kp-1 (zeros beyond k, Kp a multiple of DFS_DF_BK) from
 * DF zero, converted with dfs_df_to_double and scaled back. */
static double spec_dot(int scheme, const double *a, int64_t sa, const double *b, int64_t k)
{
    double ma = 0.0, mb = 0.0;
    for (int64_t p = 0; p < k; p++) {
        ma = fmax(ma, fabs(a[p * sa]));
        mb = fmax(mb, fabs(b[p]));
    }
    int ea = 0, eb = 0;
    if (ma > 0.0)
        frexp(ma, &ea), ea--;
    if (mb > 0.0)
        frexp(mb, &eb), eb--;
    int64_t kp = (k + DFS_DF_BK - 1) / DFS_DF_BK * DFS_DF_BK;
    dfs_df acc = dfs_df_make(0.0f, 0.0f);
    for (int64_t p = 0; p < kp; p++) {
        dfs_df x = dfs_df_from_double(p < k ? ldexp(a[p * sa], -ea) : 0.0);
        dfs_df y = dfs_df_from_double(p < k ? ldexp(b[p], -eb) : 0.0);
        acc = scheme == DFS_DF_MAD16   ? dfs_df_mad16(acc, x, y)
              : scheme == DFS_DF_MAD15 ? dfs_df_mad15(acc, x, y)
                                       : dfs_df_mad29(acc, x, y);
    }
    return ldexp(dfs_df_to_double(acc), ea + eb);
}

/* Pins the scheme and the order of operations: a swapped scheme, a reordered accumulation or a
 * different conversion changes the bits even where every error bound still holds. */
START_TEST(gemm_matches_spec)
{
    static const struct {
        int cls;
        int64_t m, n, k;
    } cases[] = {
        {C_UNIFORM, 5, 4, 13}, {C_PHI2, 3, 7, 100}, {C_PAIRS, 4, 3, 64}, {C_PHI1, 2, 2, 1}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        int64_t m = cases[c].m, n = cases[c].n, k = cases[c].k;
        gcase g;
        gc_init(&g, m, n, k);
        rng r = rng_seed(9500 + c);
        gc_fill(&g, cases[c].cls, &r);
        static const int rexp[5] = {-60, 200, -1040, 900, -1066}; /* two subnormal rows */
        for (int64_t p = 0; p < k; p++)
            for (int64_t i = 0; i < m; i++)
                g.A[i + p * m] = ldexp(g.A[i + p * m], rexp[i]);
        double out[64];
        for (int sc = 0; sc < DFS_DF_SCHEMES; sc++) {
            run_gemm(sc, (int)c & 1, 0, &g, 1.0, 0.0, NULL, 1, out);
            for (int64_t j = 0; j < n; j++)
                for (int64_t i = 0; i < m; i++) {
                    double want = spec_dot(sc, g.A + i, m, g.B + j * k, k);
                    ck_assert_msg(memcmp(&want, &out[i + j * m], sizeof want) == 0,
                                  "%s, %s, k=%lld: entry (%lld,%lld) = %a, the documented "
                                  "algorithm gives %a",
                                  class_name[cases[c].cls], scheme_name[sc], (long long)k,
                                  (long long)i, (long long)j, out[i + j * m], want);
                }
        }
        gc_free(&g);
    }
    /* The scale is exactly 2^-floor(log2 max): here the second entry's lo, 2^-135 + 5 * 2^-151,
     * falls into binary32's subnormals and rounds differently under any other power of two. */
    const double a[2] = {1.5, 0x1.0000008002800p-110}, b[2] = {0x1p-110, 1.0};
    for (int sc = 0; sc < DFS_DF_SCHEMES; sc++) {
        double out, want = spec_dot(sc, a, 1, b, 2);
        dfs_df_gemm_host(sc, 0, 0, 1, 1, 2, 1.0, a, 1, b, 2, 0.0, &out, 1);
        ck_assert_msg(memcmp(&want, &out, sizeof want) == 0,
                      "%s, row [1.5, 2^-110 (1 + 2^-25 + 5 2^-41)], column [2^-110, 1]: %a, the "
                      "documented algorithm gives %a",
                      scheme_name[sc], out, want);
    }
}
END_TEST

/* ---------------- what row/column scaling cannot do (printed, not asserted) ---------------- */

/* op(A) row [1, (1 + 2^-25 + 2^-40) 2^-110] and op(B) column [x 2^-120, 1]: each is scaled by its
 * own maximum, so the lo of the second entry of the row, 2^-135 + 2^-150, falls into binary32's
 * subnormals and loses 2^-150, about 2^-40 of the products' sum |A||B| ~ 2^-110: far above the
 * bound.  It takes an exponent spread above about 100 inside one row and one column, their large
 * entries facing small ones. */
START_TEST(gemm_scaling_limit)
{
    gcase g;
    gc_init(&g, 1, 1, 2);
    g.A[0] = 1.0;
    g.A[1] = 0x1.0000008001000p-110;
    g.B[0] = 0x1.fedcba9876543p-120;
    g.B[1] = 1.0;
    gc_reference(&g);
    wsg w;
    wsg_init(&w);
    for (int sc = 0; sc < DFS_DF_SCHEMES; sc++) {
        double out;
        int ok;
        run_gemm(sc, 0, 0, &g, 1.0, 0.0, NULL, 0, &out);
        double err = entry_err(&w, &g, 0, out, 1.0, 0.0, 0.0, gemm_bound(sc, 2, 1.0, 0.0), &ok);
        ck_assert(isfinite(out));
        printf("df: scaling limit (row [1, 2^-110], column [2^-120, 1]), %s: normwise error %.3g = "
               "%.3g u^2 (%s the k=2 bound)\n",
               scheme_name[sc], err, err / U2, ok ? "within" : "OUTSIDE");
    }
    fflush(stdout);
    wsg_clear(&w);
    gc_free(&g);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("df");
    TCase *t = tcase_create("all");
    tcase_set_timeout(t, 120);
    tcase_add_test(t, mul_accurate_bound);
    tcase_add_test(t, add_accurate_bound);
    tcase_add_test(t, from_double_bound);
    tcase_add_test(t, to_double_rounding);
    tcase_add_test(t, gemm_accuracy);
    tcase_add_test(t, gemm_alpha_beta);
    tcase_add_test(t, gemm_empty);
    tcase_add_test(t, gemm_range);
    tcase_add_test(t, gemm_overflow_edge);
    tcase_add_test(t, gemm_special);
    tcase_add_test(t, gemm_zeros);
    tcase_add_test(t, gemm_matches_spec);
    tcase_add_test(t, gemm_scaling_limit);
    suite_add_tcase(s, t);
    return s;
}

#include "check_main.h"
