/* test_repro.c — unit tests (Check + MPFR) of the reproducible engine's arithmetic and CPU
 * implementation (engines/common/xacc.h, fpe.h, engines/ozaki/host.c): every output must be
 * RN(alpha * sum a_k b_k + beta * c), the correctly rounded value of the exact real number, as an
 * independent MPFR reference computes it; and the bits must not depend on the order of the
 * elements, the increments, the number of lanes or expansion terms, nor on which path (fast,
 * slow, direct) an output took.  Deterministic (rng.h's PRNG, fixed seeds; the data generators
 * are in ../common/gen.h, shared with the GPU test tests/gpu/repro.c).  Lines starting "repro:"
 * in the log say what was covered.  Compiled with -ffp-contract=off. */
#include "../../engines/common/fpe.h"
#include "../../engines/common/xacc.h"
#include "../../engines/ozaki/host.h"

#include <check.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpfr.h>

#include "../common/gen.h"

/* ---------------- the reference ---------------- */

/* Bits enough to hold exactly: a sum of products of doubles (2^-2148 .. 2^2112: 4260 bits), alpha
 * times it (2^-3222 .. 2^3136), plus beta * c. */
#define PREC_S 4400
#define PREC_R 6600

static uint64_t bits_of(double d)
{
    uint64_t b;
    memcpy(&b, &d, sizeof b);
    return b;
}

/* Same value and, for zeros, same sign; any NaN equals any NaN. */
static int same(double a, double b)
{
    if (isnan(a) || isnan(b))
        return isnan(a) && isnan(b);
    return bits_of(a) == bits_of(b);
}

/* x rounded once to binary64, subnormals included (no double rounding). */
static double round_binary64(mpfr_srcptr x)
{
    mpfr_t y;
    mpfr_init2(y, 53);
    int inex = mpfr_set(y, x, MPFR_RNDN);
    mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
    mpfr_set_emin(-1073);
    mpfr_set_emax(1024);
    inex = mpfr_check_range(y, inex, MPFR_RNDN);
    mpfr_subnormalize(y, inex, MPFR_RNDN);
    double d = mpfr_get_d(y, MPFR_RNDN);
    mpfr_set_emin(emin);
    mpfr_set_emax(emax);
    mpfr_clear(y);
    return d;
}

/* The promise (engines/ozaki/README.md), computed independently: RN(alpha * S + beta * c) with
 * S = sum_{q<K} a[q*sa] * b[q*sb]; beta == 0: c not read; alpha == 0: a, b not read. */
static double reference(int64_t K, const double *a, int64_t sa, const double *b, int64_t sb,
                        double alpha, double beta, double c)
{
    int nan = 0, pinf = 0, ninf = 0;
    mpfr_t S, T1, T2, R;
    mpfr_ptr *tab = malloc((size_t)(K > 0 ? K : 1) * sizeof *tab);
    mpfr_t *p = malloc((size_t)(K > 0 ? K : 1) * sizeof *p);
    ck_assert(tab && p);
    mpfr_inits2(PREC_S, S, (mpfr_ptr)0);
    mpfr_inits2(PREC_R, T1, T2, R, (mpfr_ptr)0);
    int64_t n = 0;
    if (alpha != 0)
        for (int64_t q = 0; q < K; q++) {
            double x = a[q * sa], y = b[q * sb];
            if (isnan(x) || isnan(y)) {
                nan = 1;
            } else if (isinf(x) || isinf(y)) {
                if (x == 0 || y == 0)
                    nan = 1;
                else if (signbit(x) != signbit(y))
                    ninf = 1;
                else
                    pinf = 1;
            } else {
                mpfr_init2(p[n], 106);
                mpfr_set_d(p[n], x, MPFR_RNDN);
                mpfr_mul_d(p[n], p[n], y, MPFR_RNDN); /* exact: 53 + 53 bits */
                tab[n] = p[n];
                n++;
            }
        }
    mpfr_sum(S, tab, (unsigned long)n, MPFR_RNDN); /* exact at PREC_S; +0 when zero */
    if (mpfr_zero_p(S))
        mpfr_set_zero(S, +1); /* an exact zero sum is +0 */
    /* the special sum */
    int s_nan = nan || (pinf && ninf), s_inf = !s_nan && (pinf || ninf), s_neg_inf = ninf;
    /* T1 = alpha * S */
    int t1_nan = 0, t1_inf = 0, t1_neg = 0, t1_zero = 0, t1_zero_neg = 0;
    if (s_nan || isnan(alpha)) {
        t1_nan = 1;
    } else if (s_inf) {
        if (alpha == 0)
            t1_nan = 1;
        else
            t1_inf = 1, t1_neg = s_neg_inf ^ (alpha < 0);
    } else if (isinf(alpha)) {
        if (mpfr_zero_p(S))
            t1_nan = 1;
        else
            t1_inf = 1, t1_neg = (mpfr_sgn(S) < 0) ^ (alpha < 0);
    } else {
        mpfr_mul_d(T1, S, alpha, MPFR_RNDN); /* exact at PREC_R */
        if (mpfr_zero_p(T1))
            t1_zero = 1, t1_zero_neg = (mpfr_sgn(S) < 0) ^ (signbit(alpha) != 0);
    }
    /* T2 = beta * c (absent when beta == 0) */
    /* beta == 0: no term, the sum starts from +0 (as BLAS starts C from 0) */
    int t2_nan = 0, t2_inf = 0, t2_neg = 0, t2_zero = 1, t2_zero_neg = 0;
    mpfr_set_zero(T2, +1);
    if (beta != 0) {
        if (isnan(beta) || isnan(c) || ((isinf(beta) || isinf(c)) && (beta == 0 || c == 0))) {
            t2_nan = 1;
        } else if (isinf(beta) || isinf(c)) {
            t2_inf = 1;
            t2_neg = signbit(beta) != signbit(c);
        } else {
            mpfr_set_d(T2, beta, MPFR_RNDN);
            mpfr_mul_d(T2, T2, c, MPFR_RNDN); /* exact */
            t2_zero = c == 0;
            t2_zero_neg = t2_zero && (signbit(beta) != signbit(c));
        }
    }
    double r;
    if (t1_nan || t2_nan || (t1_inf && t2_inf && t1_neg != t2_neg))
        r = NAN;
    else if (t1_inf)
        r = t1_neg ? -INFINITY : INFINITY;
    else if (t2_inf)
        r = t2_neg ? -INFINITY : INFINITY;
    else {
        mpfr_add(R, T1, T2, MPFR_RNDN); /* exact at PREC_R */
        if (mpfr_zero_p(R))
            r = (t1_zero && t2_zero && t1_zero_neg && t2_zero_neg) ? -0.0 : 0.0;
        else
            r = round_binary64(R);
    }
    for (int64_t q = 0; q < n; q++)
        mpfr_clear(p[q]);
    mpfr_clears(S, T1, T2, R, (mpfr_ptr)0);
    free(tab);
    free(p);
    return r;
}

/* ---------------- generators (../common/gen.h) ---------------- */

/* gen_dot's running sum: MPFR at PREC_S bits, exact for the sums it builds. */
typedef struct {
    mpfr_t acc, t;
} mp_sum;

static void mp_sum_add(void *ctx, double x, double y)
{
    mp_sum *s = ctx;
    mpfr_set_d(s->t, x, MPFR_RNDN);
    mpfr_mul_d(s->t, s->t, y, MPFR_RNDN);
    mpfr_add(s->acc, s->acc, s->t, MPFR_RNDN);
}

static double mp_sum_rounded(void *ctx)
{
    return mpfr_get_d(((mp_sum *)ctx)->acc, MPFR_RNDN);
}

/* GenDot with an MPFR running sum. */
static void gen_dot_mpfr(rng *r, int n, double cond, double *x, double *y)
{
    mp_sum s;
    mpfr_inits2(PREC_S, s.acc, s.t, (mpfr_ptr)0);
    mpfr_set_zero(s.acc, +1);
    const gen_exact_sum es = {mp_sum_add, mp_sum_rounded, &s};
    gen_dot(r, n, cond, x, y, &es);
    mpfr_clears(s.acc, s.t, (mpfr_ptr)0);
}

/* ---------------- xacc.h directly ---------------- */

static double xacc_axpby(int n, const double *a, const double *b, double alpha, double beta,
                         double c)
{
    int64_t w[DFS_X_WORDS], scratch[DFS_X_WORDS];
    dfs_xacc acc;
    unsigned flags = 0;
    dfs_x_init(&acc, w, DFS_X_WORDS, DFS_X_LSB);
    for (int i = 0; i < n && alpha != 0; i++) {
        unsigned f = dfs_x_product_flags(a[i], b[i]);
        flags |= f;
        if (!f)
            ck_assert(dfs_x_add_product(&acc, a[i], b[i], 0));
    }
    double r;
    ck_assert(dfs_x_axpby(&acc, flags, alpha, beta, c, scratch, DFS_X_WORDS, &r));
    return r;
}

static void expect(double got, double want, const char *what)
{
    if (!same(got, want))
        ck_abort_msg("%s: got %a, want %a", what, got, want);
}

START_TEST(reference_and_rounding_edges)
{
    struct {
        double a[3], b[3];
        int n;
        double want;
        const char *what;
    } cases[] = {
        {{0.1, 0, 0}, {0.3, 0, 0}, 1, 0.1 * 0.3, "0.1*0.3"},
        {{1.0, 0x1p-53, 0}, {1, 1, 0}, 2, 1.0, "1 + 2^-53: tie to even (down)"},
        {{1.0, 0x1.8p-52, 0}, {1, 1, 0}, 2, 1.0 + 0x1p-51, "1 + 3*2^-53: tie to even (up)"},
        {{1.0, 0x1p-53, 0x1p-300}, {1, 1, 1}, 3, 1.0 + 0x1p-52, "1 + 2^-53 + tiny: up"},
        {{1.0, 0x1p-53, -0x1p-300}, {1, 1, 1}, 3, 1.0, "1 + 2^-53 - tiny: down"},
        {{0, 0, 0}, {0, 0, 0}, 0, 0, ""}, /* set below */
        {{DBL_MAX, 0x1p970, 0}, {1, 1, 0}, 2, INFINITY, "DBL_MAX + 2^970: tie to 2^1024 = Inf"},
        {{DBL_MAX, 0x1p970, -0x1p-1074}, {1, 1, 1}, 3, DBL_MAX, "just below the overflow tie"},
        {{DBL_MAX, DBL_MAX, 0}, {2, -1, 0}, 2, DBL_MAX, "2 DBL_MAX - DBL_MAX: no overflow"},
        {{0x1p-1074, 0x1p-1074, 0}, {0.5, 0.5, 0}, 2, 0x1p-1074, "two half-subnormals: exact"},
        {{0x1p-1074, 0, 0}, {0x1.8p-1, 0, 0}, 1, 0x1p-1074, "0.75 * 2^-1074 -> 2^-1074"},
        {{0x1p-1074, 0, 0}, {0.5, 0, 0}, 1, 0.0, "0.5 * 2^-1074: tie to even 0"},
        {{1e300, -1e300, 1e-300}, {1e300, 1e300, 1e-300}, 3, 0.0, "1e600 - 1e600 + 1e-600: 0+"},
    };
    /* 2^-1075 + 2^-1130: above the tie between 0 and 2^-1074, so 2^-1074 (double rounding
     * through 53 bits would see a tie and give 0) */
    cases[5].a[0] = 0x1p-1000;
    cases[5].b[0] = 0x1p-75;
    cases[5].a[1] = 0x1p-1000;
    cases[5].b[1] = 0x1p-130;
    cases[5].n = 2;
    cases[5].want = 0x1p-1074;
    cases[5].what = "2^-1075 + 2^-1130 -> 2^-1074";
    int checked = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        double ref = reference(cases[i].n, cases[i].a, 1, cases[i].b, 1, 1.0, 0.0, 0.0);
        expect(ref, cases[i].want, cases[i].what); /* the reference itself */
        expect(xacc_axpby(cases[i].n, cases[i].a, cases[i].b, 1.0, 0.0, 0.0), ref, cases[i].what);
        checked++;
    }
    /* alpha*S far below beta*c decides a tie (and the reverse): 3 (2^52 + 1) is halfway between
     * two binary64 numbers */
    {
        const double t = 0x1p-500, big = 0x1p52 + 1;
        const double up = 3 * 0x1p52 + 4, down = 3 * 0x1p52 + 2;
        expect(reference(1, &t, 1, &t, 1, 1.0, 3.0, big), up, "reference tie + tiny");
        expect(reference(1, &t, 1, &t, 1, -1.0, 3.0, big), down, "reference tie - tiny");
        expect(xacc_axpby(1, &t, &t, 1.0, 3.0, big), up, "tie + tiny alpha*S");
        expect(xacc_axpby(1, &t, &t, -1.0, 3.0, big), down, "tie - tiny alpha*S");
        expect(xacc_axpby(1, &big, &big, 3.0, 0x1p-1000, 0x1p-74),
               reference(1, &big, 1, &big, 1, 3.0, 0x1p-1000, 0x1p-74), "S, tiny beta*c");
        const double two[2] = {0x1p52, 1.0}, ones[2] = {3.0, 3.0};
        expect(xacc_axpby(2, two, ones, 1.0, -0x1p-900, 0x1p-170), down, "tie - tiny beta*c");
        expect(xacc_axpby(2, two, ones, 1.0, 0x1p-900, 0x1p-170), up, "tie + tiny beta*c");
        checked += 7;
    }
    /* a window accumulator: additions inside give the same result, outside ones are refused */
    int64_t w[6], scratch[DFS_X_WORDS];
    dfs_xacc win;
    dfs_x_init(&win, w, 6, -64);
    ck_assert(dfs_x_add_double(&win, 1.5, 0));
    ck_assert(dfs_x_add_double(&win, 0x1p-64, 0));
    ck_assert(!dfs_x_add_double(&win, 0x1p-65, 0));
    ck_assert(!dfs_x_add_double(&win, 0x1p200, 0));
    double wr;
    ck_assert(dfs_x_axpby(&win, 0, 1.0, 0.0, 0.0, scratch, DFS_X_WORDS, &wr));
    expect(wr, 1.5, "window");
    printf("repro: rounding edges: %d cases equal to the MPFR reference\n", checked);
    fflush(stdout);
}
END_TEST

START_TEST(xacc_random)
{
    rng r = rng_seed(11);
    enum { N = 40 };
    double a[N], b[N];
    static const double scal[] = {1.0, -1.0, 3.0, 0.1, 0x1p-1074, 1e300, -0x1.fffffffffffffp1023,
                                  0.0, INFINITY, NAN};
    int checked = 0;
    for (int it = 0; it < 3000; it++) {
        int n = 1 + below(&r, N);
        for (int i = 0; i < n; i++) {
            /* wide exponents: products from near 2^-2148 to near 2^2046, subnormals, cancellation */
            int mode = below(&r, 6);
            a[i] = ldexp(unif_pm1(&r), below(&r, 2098) - 1074);
            b[i] = ldexp(unif_pm1(&r), below(&r, 2098) - 1074);
            if (mode == 0 && i > 0)
                a[i] = -a[i - 1], b[i] = b[i - 1]; /* exact cancellation */
            if (mode == 1)
                a[i] = gen_subnormal(&r);
        }
        double alpha = scal[below(&r, 8)], beta = scal[below(&r, 10)], c = gen_value(&r, below(&r, G_COUNT));
        if (it % 50 == 0)
            a[below(&r, n)] = (it % 100) ? INFINITY : NAN;
        double want = reference(n, a, 1, b, 1, alpha, beta, c);
        double got = xacc_axpby(n, a, b, alpha, beta, c);
        if (!same(got, want))
            ck_abort_msg("case %d: got %a want %a (n %d alpha %a beta %a c %a)", it, got, want, n,
                         alpha, beta, c);
        checked++;
    }
    printf("repro: xacc random wide-range sums with alpha/beta: %d cases equal\n", checked);
    fflush(stdout);
}
END_TEST

/* ---------------- DDOT ---------------- */

static dfs_oz_params params(int terms, int lanes)
{
    dfs_oz_params p = dfs_oz_default_params();
    p.terms = terms;
    p.lanes = lanes;
    return p;
}

START_TEST(dot_correctly_rounded)
{
    rng r = rng_seed(21);
    static const int64_t sizes[] = {0, 1, 2, 3, 17, 100, 1000, 20000};
    dfs_oz_params p = dfs_oz_default_params();
    dfs_oz_stats st;
    int checked = 0, slow = 0;
    for (int g = 0; g < G_COUNT; g++)
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
            int64_t n = sizes[s];
            double *x = malloc((size_t)(n + 1) * sizeof *x), *y = malloc((size_t)(n + 1) * sizeof *y);
            gen_fill(&r, g, x, n);
            gen_fill(&r, g == G_MIXED ? G_PHI1 : g, y, n);
            double want = n > 0 ? reference(n, x, 1, y, 1, 1.0, 0.0, 0.0) : 0.0;
            double got = dfs_oz_dot_host(&p, n, x, 1, y, 1, &st);
            if (!same(got, want))
                ck_abort_msg("dot %s n=%lld: got %a want %a", gen_label(g), (long long)n, got, want);
            checked++;
            slow += st.slow > 0;
            free(x);
            free(y);
        }
    printf("repro: DDOT, %d generator x size cases correctly rounded (%d on the slow path)\n",
           checked, slow);
    fflush(stdout);
}
END_TEST

START_TEST(dot_ill_conditioned)
{
    rng r = rng_seed(22);
    dfs_oz_params p = dfs_oz_default_params();
    dfs_oz_stats st;
    int checked = 0, naive_wrong = 0;
    for (double cond = 1.0; cond <= 1e300; cond *= 1e10)
        for (int n = 100; n <= 1000; n *= 10) {
            double *x = malloc((size_t)n * sizeof *x), *y = malloc((size_t)n * sizeof *y);
            gen_dot_mpfr(&r, n, cond, x, y);
            double want = reference(n, x, 1, y, 1, 1.0, 0.0, 0.0);
            double got = dfs_oz_dot_host(&p, n, x, 1, y, 1, &st);
            if (!same(got, want))
                ck_abort_msg("GenDot cond %g n %d: got %a want %a", cond, n, got, want);
            /* a plain binary64 dot product misses RN on most of these: the test can tell */
            double naive = 0.0;
            for (int i = 0; i < n; i++)
                naive += x[i] * y[i];
            naive_wrong += !same(naive, want);
            checked++;
            free(x);
            free(y);
        }
    ck_assert_int_gt(naive_wrong, checked / 2);
    printf("repro: DDOT, GenDot cond 1e0..1e300 (step 1e10), n = 100, 1000: %d cases correctly "
           "rounded (a plain binary64 loop: %d wrong)\n", checked, naive_wrong);
    fflush(stdout);
}
END_TEST

START_TEST(dot_special_values)
{
    dfs_oz_params p = dfs_oz_default_params();
    dfs_oz_stats st;
    const double I = INFINITY;
    struct {
        double x[3], y[3];
        double want;
    } cases[] = {
        {{1, NAN, 2}, {1, 1, 1}, NAN},   {{1, I, 2}, {1, 1, 1}, I},    {{1, I, -I}, {1, 1, 1}, NAN},
        {{1, I, 2}, {1, 0, 1}, NAN},     {{1, -I, 2}, {1, 1, 1}, -I},  {{I, I, 1}, {1, 1, -1}, I},
        {{DBL_MAX, DBL_MAX, 1}, {2, 2, 1}, I}, {{-0.0, 0.0, -0.0}, {1, -1, 2}, 0.0},
        {{1e300, 1e300, -1e300}, {1e300, 1e300, 1e300}, I},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        double want = reference(3, cases[i].x, 1, cases[i].y, 1, 1.0, 0.0, 0.0);
        expect(want, cases[i].want, "reference special");
        for (int terms = 1; terms <= 4; terms++) {
            dfs_oz_params q = p;
            q.terms = terms;
            expect(dfs_oz_dot_host(&q, 3, cases[i].x, 1, cases[i].y, 1, &st), want, "dot special");
        }
    }
    /* n = 1 with -0: +0 (the sum starts from +0) */
    double mz = -0.0, one = 1.0;
    expect(dfs_oz_dot_host(&p, 1, &mz, 1, &one, 1, &st), 0.0, "dot of -0");
}
END_TEST

/* The same bits whatever the order, increments, lanes, terms and path. */
START_TEST(dot_reproducible)
{
    rng r = rng_seed(23);
    enum { N = 5000 };
    double *x = malloc(N * sizeof *x), *y = malloc(N * sizeof *y);
    double *xs = malloc(3 * N * sizeof *xs), *ys = malloc(3 * N * sizeof *ys);
    static const int lanes[] = {1, 7, 32, 1000};
    dfs_oz_stats st;
    int checked = 0, fast_seen = 0, slow_seen = 0;
    for (int g = 0; g < G_COUNT; g++) {
        gen_fill(&r, g, x, N);
        gen_fill(&r, g == G_MIXED ? G_PHI1 : g, y, N);
        dfs_oz_params p = dfs_oz_default_params();
        const double ref = dfs_oz_dot_host(&p, N, x, 1, y, 1, &st);
        for (int t = 1; t <= 4; t++)
            for (size_t l = 0; l < sizeof lanes / sizeof lanes[0]; l++) {
                dfs_oz_params q = params(t, lanes[l]);
                expect(dfs_oz_dot_host(&q, N, x, 1, y, 1, &st), ref, "terms/lanes");
                if (st.slow)
                    slow_seen++;
                else
                    fast_seen++;
                checked++;
            }
        /* reversed through negative increments: element i is x[(n-1-i)*|inc|] */
        for (int i = 0; i < N; i++) {
            xs[(N - 1 - i) * 3] = x[i];
            ys[(N - 1 - i) * 2] = y[i];
        }
        expect(dfs_oz_dot_host(&p, N, xs, -3, ys, -2, &st), ref, "negative increments");
        /* shuffled pairs */
        for (int i = 0; i < N; i++)
            xs[i] = x[i], ys[i] = y[i];
        for (int i = N - 1; i > 0; i--) {
            int j = below(&r, i + 1);
            double a = xs[i], b = ys[i];
            xs[i] = xs[j], ys[i] = ys[j];
            xs[j] = a, ys[j] = b;
        }
        expect(dfs_oz_dot_host(&p, N, xs, 1, ys, 1, &st), ref, "shuffled");
        /* sorted by the magnitude of the products, ascending, then descending */
        for (int dir = 0; dir < 2; dir++) {
            for (int i = 1; i < N; i++) /* insertion sort: N is small */
                for (int j = i; j > 0; j--) {
                    double p0 = fabs(xs[j - 1] * ys[j - 1]), p1 = fabs(xs[j] * ys[j]);
                    if (dir ? p0 >= p1 : p0 <= p1)
                        break;
                    double a = xs[j], b = ys[j];
                    xs[j] = xs[j - 1], ys[j] = ys[j - 1];
                    xs[j - 1] = a, ys[j - 1] = b;
                }
            expect(dfs_oz_dot_host(&p, N, xs, 1, ys, 1, &st), ref, "sorted");
        }
        checked += 4;
    }
    ck_assert_int_gt(fast_seen, 0);
    ck_assert_int_gt(slow_seen, 0);
    printf("repro: DDOT reproducibility: %d runs (terms 1-4 x lanes 1/7/32/1000, reversed with "
           "increments -3/-2, shuffled, sorted up and down) bitwise equal; %d took the slow path, %d the fast one\n",
           checked, slow_seen, fast_seen);
    fflush(stdout);
    free(x);
    free(y);
    free(xs);
    free(ys);
}
END_TEST

/* ---------------- DGEMV ---------------- */

static const double scalars[] = {1.0, 0.0, -1.0, 3.0, 0.1, 0x1p-1074, 1e300};
#define NSCAL ((int)(sizeof scalars / sizeof scalars[0]))

START_TEST(gemv_correctly_rounded)
{
    rng r = rng_seed(31);
    dfs_oz_stats st;
    int checked = 0, slow = 0;
    static const int gens[] = {G_PHI0, G_PHI4, G_PHI8, G_MIXED, G_SUBNORMAL, G_ZEROS};
    for (int trans = 0; trans < 2; trans++)
        for (size_t gi = 0; gi < sizeof gens / sizeof gens[0]; gi++)
            for (int sc = 0; sc < 6; sc++) {
                const int g = gens[gi];
                const int64_t m = 1 + below(&r, 40), n = 1 + below(&r, 60), lda = m + below(&r, 3);
                const int64_t incx = (below(&r, 2) ? 1 : -1) * (1 + below(&r, 3));
                const int64_t incy = (below(&r, 2) ? 1 : -1) * (1 + below(&r, 2));
                const int64_t lx = trans ? m : n, ly = trans ? n : m;
                double *A = malloc((size_t)(lda * n) * sizeof *A);
                double *x = malloc((size_t)(lx * 3) * sizeof *x);
                double *y = malloc((size_t)(ly * 2) * sizeof *y), *y0 = malloc((size_t)(ly * 2) * sizeof *y0);
                gen_fill(&r, g, A, lda * n);
                gen_fill(&r, g == G_MIXED ? G_PHI1 : g, x, lx * 3);
                gen_fill(&r, G_PHI2, y, ly * 2);
                const double alpha = scalars[below(&r, NSCAL)], beta = scalars[below(&r, NSCAL)];
                if (beta == 0)
                    for (int64_t i = 0; i < ly * 2; i++)
                        y[i] = NAN; /* not read */
                if (alpha == 0)
                    A[below(&r, (int)(lda * n))] = NAN; /* not read */
                memcpy(y0, y, (size_t)(ly * 2) * sizeof *y);
                dfs_oz_params p = params(1 + below(&r, 4), 1 + below(&r, 40));
                dfs_oz_gemv_host(&p, trans, m, n, alpha, A, lda, x, incx, beta, y, incy, &st);
                slow += st.slow > 0;
                const double *xb = incx < 0 ? x + (lx - 1) * -incx : x;
                const double *yb0 = incy < 0 ? y0 + (ly - 1) * -incy : y0;
                const double *yb = incy < 0 ? y + (ly - 1) * -incy : y;
                for (int64_t i = 0; i < ly; i++) {
                    const double *a = trans ? A + i * lda : A + i;
                    double want = reference(lx, a, trans ? 1 : lda, xb, incx, alpha, beta,
                                            yb0[i * incy]);
                    if (!same(yb[i * incy], want))
                        ck_abort_msg("gemv %c %s %lldx%lld alpha %a beta %a out %lld: got %a "
                                     "want %a", trans ? 'T' : 'N', gen_label(g), (long long)m,
                                     (long long)n, alpha, beta, (long long)i, yb[i * incy], want);
                    checked++;
                }
                free(A);
                free(x);
                free(y);
                free(y0);
            }
    printf("repro: DGEMV N and T, lda > m, increments +-1..3, alpha/beta incl. 0 with NaN "
           "behind: %d outputs correctly rounded (%d calls with slow outputs)\n", checked, slow);
    fflush(stdout);
}
END_TEST

/* ---------------- DGEMM ---------------- */

typedef struct {
    int64_t m, n, k, lda, ldb, ldc;
    double *A, *B, *C;
} gm;

static void gm_make(rng *r, gm *g, int ta, int tb, int64_t m, int64_t n, int64_t k, int gen_a,
                    int gen_b)
{
    g->m = m, g->n = n, g->k = k;
    g->lda = (ta ? k : m) + below(r, 2);
    g->ldb = (tb ? n : k) + below(r, 2);
    g->ldc = m + below(r, 2);
    g->A = malloc((size_t)(g->lda * (ta ? m : k)) * sizeof *g->A);
    g->B = malloc((size_t)(g->ldb * (tb ? k : n)) * sizeof *g->B);
    g->C = malloc((size_t)(g->ldc * n) * sizeof *g->C);
    gen_fill(r, gen_a, g->A, g->lda * (ta ? m : k));
    gen_fill(r, gen_b, g->B, g->ldb * (tb ? k : n));
    gen_fill(r, G_PHI1, g->C, g->ldc * n);
}

static void gm_free(gm *g)
{
    free(g->A);
    free(g->B);
    free(g->C);
}

/* Checks every entry of C (computed from C0) against the reference; returns mismatches (or
 * aborts when must_equal). */
static int gemm_check(const gm *g, int ta, int tb, double alpha, double beta, const double *C0,
                      const double *C, int must_equal)
{
    int bad = 0;
    double *col = malloc((size_t)(g->k > 0 ? g->k : 1) * sizeof *col);
    double *row = malloc((size_t)(g->k > 0 ? g->k : 1) * sizeof *row);
    for (int64_t j = 0; j < g->n; j++)
        for (int64_t i = 0; i < g->m; i++) {
            for (int64_t q = 0; q < g->k; q++) {
                row[q] = ta ? g->A[q + i * g->lda] : g->A[i + q * g->lda];
                col[q] = tb ? g->B[j + q * g->ldb] : g->B[q + j * g->ldb];
            }
            double want = reference(g->k, row, 1, col, 1, alpha, beta, C0[i + j * g->ldc]);
            double got = C[i + j * g->ldc];
            if (!same(got, want)) {
                if (must_equal)
                    ck_abort_msg("gemm %c%c %lldx%lldx%lld alpha %a beta %a (%lld,%lld): got %a "
                                 "want %a", ta ? 'T' : 'N', tb ? 'T' : 'N', (long long)g->m,
                                 (long long)g->n, (long long)g->k, alpha, beta, (long long)i,
                                 (long long)j, got, want);
                bad++;
            }
        }
    free(col);
    free(row);
    return bad;
}

START_TEST(gemm_correctly_rounded)
{
    rng r = rng_seed(41);
    static const int64_t shapes[][3] = {{13, 17, 29}, {1, 1, 1}, {5, 3, 1}, {20, 20, 300}, {7, 9, 0}};
    static const int gens[] = {G_PHI0, G_PHI1, G_PHI4, G_PHI8, G_MIXED, G_ZEROS};
    dfs_oz_params p = dfs_oz_default_params();
    dfs_oz_stats st;
    int checked = 0, maxs = 0;
    for (int ta = 0; ta < 2; ta++)
        for (int tb = 0; tb < 2; tb++)
            for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
                for (size_t gi = 0; gi < sizeof gens / sizeof gens[0]; gi++) {
                    gm g;
                    gm_make(&r, &g, ta, tb, shapes[s][0], shapes[s][1], shapes[s][2], gens[gi],
                            gens[gi] == G_MIXED ? G_PHI1 : gens[gi]);
                    double alpha = scalars[below(&r, NSCAL)], beta = scalars[below(&r, NSCAL)];
                    if (alpha == 0)
                        alpha = 1.0; /* alpha = 0: gemm_alpha_beta */
                    double *C0 = malloc((size_t)(g.ldc * g.n) * sizeof *C0);
                    memcpy(C0, g.C, (size_t)(g.ldc * g.n) * sizeof *C0);
                    dfs_oz_gemm_host(&p, ta, tb, g.m, g.n, g.k, alpha, g.A, g.lda, g.B, g.ldb,
                                     beta, g.C, g.ldc, &st);
                    maxs = st.slices_a > maxs ? st.slices_a : maxs;
                    gemm_check(&g, ta, tb, alpha, beta, C0, g.C, 1);
                    checked += (int)(g.m * g.n);
                    free(C0);
                    gm_free(&g);
                }
    printf("repro: DGEMM, 4 transpose pairs x 5 shapes (k = 0, 1, 29, 300) x phi 0/1/4/8, "
           "1e+-300, zeros: %d entries correctly rounded (up to %d slices)\n", checked, maxs);
    fflush(stdout);
}
END_TEST

START_TEST(gemm_alpha_beta)
{
    rng r = rng_seed(42);
    dfs_oz_params p = dfs_oz_default_params();
    dfs_oz_stats st;
    int checked = 0;
    for (int a = 0; a < NSCAL; a++)
        for (int b = 0; b < NSCAL; b++) {
            gm g;
            gm_make(&r, &g, 0, 1, 6, 5, 7, G_PHI2, G_PHI2);
            if (scalars[b] == 0)
                for (int64_t i = 0; i < g.ldc * g.n; i++)
                    g.C[i] = NAN; /* beta = 0: C not read */
            if (scalars[a] == 0)
                g.A[3] = NAN, g.B[2] = INFINITY; /* alpha = 0: A, B not read */
            double *C0 = malloc((size_t)(g.ldc * g.n) * sizeof *C0);
            memcpy(C0, g.C, (size_t)(g.ldc * g.n) * sizeof *C0);
            dfs_oz_gemm_host(&p, 0, 1, g.m, g.n, g.k, scalars[a], g.A, g.lda, g.B, g.ldb,
                             scalars[b], g.C, g.ldc, &st);
            gemm_check(&g, 0, 1, scalars[a], scalars[b], C0, g.C, 1);
            checked += (int)(g.m * g.n);
            free(C0);
            gm_free(&g);
        }
    printf("repro: DGEMM alpha x beta in {1, 0, -1, 3, 0.1, 2^-1074, 1e300}^2: %d entries "
           "correctly rounded\n", checked);
    fflush(stdout);
}
END_TEST

START_TEST(gemm_special_and_direct)
{
    rng r = rng_seed(43);
    dfs_oz_stats st;
    gm g;
    gm_make(&r, &g, 0, 0, 9, 8, 40, G_PHI4, G_PHI4);
    g.A[2 + 5 * g.lda] = INFINITY;  /* row 2 */
    g.A[4 + 7 * g.lda] = NAN;       /* row 4 */
    g.B[3 + 6 * g.ldb] = -INFINITY; /* column 6 */
    g.A[6 + 1 * g.lda] = 1e300;     /* row 6 spans 1e300 .. phi 4 */
    g.A[6 + 2 * g.lda] = 1e-300;
    double *C0 = malloc((size_t)(g.ldc * g.n) * sizeof *C0), *C1 = malloc((size_t)(g.ldc * g.n) * sizeof *C1);
    memcpy(C0, g.C, (size_t)(g.ldc * g.n) * sizeof *C0);
    memcpy(C1, g.C, (size_t)(g.ldc * g.n) * sizeof *C1);
    dfs_oz_params p = dfs_oz_default_params();
    dfs_oz_gemm_host(&p, 0, 0, g.m, g.n, g.k, 1.5, g.A, g.lda, g.B, g.ldb, -0.5, g.C, g.ldc, &st);
    ck_assert_int_gt(st.slow, 0); /* the special rows and the wide row go direct */
    gemm_check(&g, 0, 0, 1.5, -0.5, C0, g.C, 1);
    int direct_default = (int)st.slow;
    /* a small cap sends more rows direct: the same bits */
    p.max_splits = 2;
    dfs_oz_gemm_host(&p, 0, 0, g.m, g.n, g.k, 1.5, g.A, g.lda, g.B, g.ldb, -0.5, C1, g.ldc, &st);
    ck_assert_int_gt(st.slow, direct_default);
    for (int64_t i = 0; i < g.ldc * g.n; i++)
        expect(C1[i], g.C[i], "max_splits = 2 vs default");
    printf("repro: DGEMM with Inf/NaN rows and columns and a 1e+-300 row: correctly rounded, %d "
           "entries direct; max_splits = 2: %d direct, the same bits\n", direct_default,
           (int)st.slow);
    fflush(stdout);
    free(C0);
    free(C1);
    gm_free(&g);
}
END_TEST

/* splits = N and fast mode: reproducible, not correctly rounded. */
START_TEST(gemm_fixed_splits)
{
    rng r = rng_seed(44);
    dfs_oz_stats st;
    gm g;
    gm_make(&r, &g, 1, 0, 16, 16, 64, G_PHI4, G_PHI4);
    const size_t bytes = (size_t)(g.ldc * g.n) * sizeof(double);
    double *C0 = malloc(bytes), *C1 = malloc(bytes), *C2 = malloc(bytes);
    memcpy(C0, g.C, bytes);
    int bad[3] = {0, 0, 0};
    static const int splits[3] = {2, 3, 40};
    for (int s = 0; s < 3; s++)
        for (int fast = 0; fast < 2; fast++) {
            dfs_oz_params p = dfs_oz_default_params();
            p.splits = splits[s];
            p.fast = fast;
            memcpy(C1, C0, bytes);
            memcpy(C2, C0, bytes);
            dfs_oz_gemm_host(&p, 1, 0, g.m, g.n, g.k, 1.0, g.A, g.lda, g.B, g.ldb, 0.0, C1, g.ldc, &st);
            dfs_oz_gemm_host(&p, 1, 0, g.m, g.n, g.k, 1.0, g.A, g.lda, g.B, g.ldb, 0.0, C2, g.ldc, &st);
            ck_assert(!memcmp(C1, C2, bytes)); /* deterministic */
            int b = gemm_check(&g, 1, 0, 1.0, 0.0, C0, C1, 0);
            if (!fast)
                bad[s] = b;
        }
    ck_assert_int_gt(bad[0], 0);  /* 2 slices of 22 bits cannot hold phi = 4 rows */
    ck_assert_int_eq(bad[2], 0);  /* 40, reduced to what a window holds (13 at k = 64): enough */
    /* sum = fixed: within a few ulps at phi 0 */
    gm h;
    gm_make(&r, &h, 0, 0, 12, 12, 50, G_PHI0, G_PHI0);
    dfs_oz_params p = dfs_oz_default_params();
    p.sum = DFS_OZ_SUM_FIXED;
    double *H0 = malloc((size_t)(h.ldc * h.n) * sizeof *H0);
    memcpy(H0, h.C, (size_t)(h.ldc * h.n) * sizeof *H0);
    dfs_oz_gemm_host(&p, 0, 0, h.m, h.n, h.k, 1.0, h.A, h.lda, h.B, h.ldb, 0.0, h.C, h.ldc, &st);
    double worst = 0;
    for (int64_t j = 0; j < h.n; j++)
        for (int64_t i = 0; i < h.m; i++) {
            double row[50], col[50];
            for (int q = 0; q < 50; q++)
                row[q] = h.A[i + q * h.lda], col[q] = h.B[q + j * h.ldb];
            double want = reference(50, row, 1, col, 1, 1.0, 0.0, 0.0);
            double ulps = fabs(h.C[i + j * h.ldc] - want) / (nextafter(fabs(want), INFINITY) - fabs(want));
            worst = ulps > worst ? ulps : worst;
        }
    ck_assert(worst <= 4.0);
    printf("repro: DGEMM splits = 2/3/40 at phi 4: %d/%d/%d of 256 entries not correctly rounded "
           "(deterministic); sum = fixed at phi 0: worst %.1f ulp\n", bad[0], bad[1], bad[2], worst);
    fflush(stdout);
    free(C0);
    free(C1);
    free(C2);
    free(H0);
    gm_free(&g);
    gm_free(&h);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("repro");
    TCase *t = tcase_create("all");
    tcase_set_timeout(t, 300);
    tcase_add_test(t, reference_and_rounding_edges);
    tcase_add_test(t, xacc_random);
    tcase_add_test(t, dot_correctly_rounded);
    tcase_add_test(t, dot_ill_conditioned);
    tcase_add_test(t, dot_special_values);
    tcase_add_test(t, dot_reproducible);
    tcase_add_test(t, gemv_correctly_rounded);
    tcase_add_test(t, gemm_correctly_rounded);
    tcase_add_test(t, gemm_alpha_beta);
    tcase_add_test(t, gemm_special_and_direct);
    tcase_add_test(t, gemm_fixed_splits);
    suite_add_tcase(s, t);
    return s;
}

#include "check_main.h"
