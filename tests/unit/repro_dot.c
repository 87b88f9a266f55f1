/* repro_dot.c — test_repro's tests of the CPU DDOT (engines/repro/host.c): correctly rounded
 * for every generator, size and condition number, special values, and the same bits whatever the
 * order, increments, lanes, terms and path. */
#include "ozfamily_test.h"

#include "../common/gen.h"

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

/* ---------------- DDOT ---------------- */

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

void repro_dot_tests(TCase *t)
{
    tcase_add_test(t, dot_correctly_rounded);
    tcase_add_test(t, dot_ill_conditioned);
    tcase_add_test(t, dot_special_values);
    tcase_add_test(t, dot_reproducible);
}
