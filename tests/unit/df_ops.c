/* df_ops.c — test_df's tests of the single DF operations (engines/common/df.h): multiply, add,
 * conversions from and to binary64, each against MPFR; with the random DF values they use. */
#include "df_test.h"

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

void df_ops_tests(TCase *t)
{
    tcase_add_test(t, mul_accurate_bound);
    tcase_add_test(t, add_accurate_bound);
    tcase_add_test(t, from_double_bound);
    tcase_add_test(t, to_double_rounding);
}
