/* oz_tail.c — test_oz's test of the Ozaki split's tail bound (engines/oz/steps.h
 * dfs_oz_tail_bound): what the slice pairs left out contribute to one output, summed exactly in
 * full accumulators of xacc.h, must not exceed the bound. */
#include "ozfamily_test.h"

#include "../../engines/oz/steps.h"
#include "../common/gen.h"

enum { SMAX = 6, KMAX = 1000 };

/* Row generators: the phi generator (0, 1, 4, 8), erange, 1e+-300 mixed, ../common/gen.h's
 * subnormal mix, subnormals only, phi 0 with a few huge elements, small integers and zeros,
 * powers of two, elements near DBL_MAX (whose l1 norm overflows), all zeros. */
enum { R_PHI0, R_PHI1, R_PHI4, R_PHI8, R_ERANGE, R_MIXED, R_SUBMIX, R_SUBNORMAL, R_HUGE, R_ZEROS,
       R_POW2, R_BIG, R_ALLZERO, R_COUNT };
static const char *const row_name[R_COUNT] = {"phi0",  "phi1",    "phi4",      "phi8",
                                              "erange", "1e+-300", "subnormal-mix", "subnormal",
                                              "huge",  "zeros",   "pow2",      "near-max",
                                              "all-zero"};

static void gen_row(rng *r, int g, double *x, int k)
{
    for (int q = 0; q < k; q++) {
        switch (g) {
        case R_PHI0: x[q] = gen_value(r, G_PHI0); break;
        case R_PHI1: x[q] = gen_value(r, G_PHI1); break;
        case R_PHI4: x[q] = gen_value(r, G_PHI4); break;
        case R_PHI8: x[q] = gen_value(r, G_PHI8); break;
        case R_ERANGE: x[q] = gen_value(r, G_ERANGE); break;
        case R_MIXED: x[q] = gen_value(r, G_MIXED); break;
        case R_SUBMIX: x[q] = gen_value(r, G_SUBNORMAL); break;
        case R_SUBNORMAL: x[q] = gen_subnormal(r); break;
        case R_HUGE: x[q] = gen_value(r, G_PHI0); break;
        case R_ZEROS: x[q] = gen_value(r, G_ZEROS); break;
        case R_POW2: x[q] = gen_sign_rand(r, ldexp(1.0, below(r, 40) - 20)); break;
        case R_BIG: x[q] = gen_sign_rand(r, ldexp(1.0 + unif(r), 1023 - below(r, 3))); break;
        default: x[q] = 0.0; break;
        }
    }
    if (g == R_HUGE)
        for (int i = 1 + below(r, 3); i > 0; i--)
            x[below(r, k)] = gen_sign_rand(r, ldexp(1.0 + unif(r), 100 + below(r, 500)));
}

/* A row's pass (dfs_oz_row_add; also split in two and merged, which must agree). */
static dfs_oz_row row_pass(const double *x, int k)
{
    dfs_oz_row a = dfs_oz_row_init(), b = dfs_oz_row_init(), c = dfs_oz_row_init();
    for (int q = 0; q < k; q++) {
        dfs_oz_row_add(&a, x[q]);
        dfs_oz_row_add(q < k / 2 ? &b : &c, x[q]);
    }
    dfs_oz_row_merge(&b, c);
    REQUIRE(a.tau == b.tau && a.low == b.low && a.special == 0 && b.special == 0);
    return a;
}

/* The row's checks: the slices of every element add up to it exactly, each has its sign and lies
 * in (-1, 1), slices from na on are zero; tau bounds every element; nrm is the l1 norm in units of
 * 2^tau to within the rounding of a binary64 sum, and at most k. */
static void check_row(const double *x, int k, dfs_oz_row row, int beta, int na, double nrm)
{
    if (row.tau == DFS_OZ_NONE_TAU) {
        REQUIRE(na == 0 && nrm == 0);
        for (int q = 0; q < k; q++)
            REQUIRE(x[q] == 0);
        return;
    }
    int64_t w[DFS_X_WORDS], wl[DFS_X_WORDS];
    dfs_xacc a, l1;
    full_init(&l1, wl);
    for (int q = 0; q < k; q++) {
        REQUIRE(fabs(x[q]) < ldexp(1.0, row.tau) || row.tau > 1023);
        REQUIRE(dfs_x_add_double(&l1, fabs(x[q]), -row.tau));
        full_init(&a, w);
        REQUIRE(dfs_x_add_double(&a, -x[q], 0));
        for (int i = 0; i < na + 1; i++) {
            double s = dfs_oz_slice(x[q], row.tau, beta, i);
            REQUIRE(fabs(s) < 1.0);
            if (s != 0 && signbit(s) != signbit(x[q]))
                ck_abort_msg("slice %d of %a (tau %d beta %d) has the wrong sign: %a", i, x[q],
                             row.tau, beta, s);
            if (i == na)
                REQUIRE(s == 0);
            else
                REQUIRE(dfs_x_add_double(&a, s, row.tau - i * beta));
        }
        if (dfs_x_sign(&a) != 0)
            ck_abort_msg("the %d slices of %a (tau %d beta %d) do not add up to it", na, x[q],
                         row.tau, beta);
    }
    double l1e = dfs_x_round(&l1, 0); /* the exact l1 norm in units of 2^tau, rounded */
    double tol = (double)k * 0x1p-52 * l1e;
    if (!(nrm <= (double)k && (nrm == (double)k || fabs(nrm - l1e) <= tol) && nrm >= 0.5))
        ck_abort_msg("dfs_oz_row_l1 %a: the l1 norm is %a (k %d tau %d)", nrm, l1e, k, row.tau);
}

/* A window accumulator for values of the row-column pair's products, the bound included:
 * [2^lsb, 2^top). */
typedef struct {
    int nw, lsb;
} window;

static dfs_xacc win_acc(window wn, int64_t *w)
{
    dfs_xacc a;
    dfs_x_init(&a, w, wn.nw, wn.lsb);
    return a;
}

static int64_t wP[SMAX][SMAX][2][DFS_X_WORDS]; /* pair (i, j): signed sum, sum of |.| */

START_TEST(oz_tail_bound_sound)
{
    rng r = rng_seed(43);
    static const int ks[] = {1, 2, 7, 64, 1000};
    static const int pairs_per_k[] = {300, 250, 150, 80, 30};
    static double a[KMAX], b[KMAX];
    long combos = 0, pairs = 0, zero_bounds = 0, nonzero_tails = 0, zero_tail_pos_bound = 0;
    /* looseness, log2(bound 2^(tau_a + tau_b) / sum_q |tail_q|), for phi 0 rows and columns with
     * k >= 64 (dense random bits: the bound must be close), and among them at k = 1000, sa = sb =
     * d = 3 */
    double loose_max = -1e9, loose_min = 1e9, loose3_max = -1e9, loose3_min = 1e9;
    int loose_n = 0, loose3_n = 0;
    char what[300];
    for (size_t ik = 0; ik < sizeof ks / sizeof ks[0]; ik++) {
        const int k = ks[ik], beta = dfs_oz_beta(k);
        REQUIRE(2 * beta + dfs_oz_ceil_log2(k) <= 53);
        for (int pi = 0; pi < pairs_per_k[ik]; pi++) {
            /* phi 0 pairs first (the looseness check below), then random generators */
            int ga = pi < 4 ? R_PHI0 : below(&r, R_COUNT);
            int gb = pi < 4 ? R_PHI0 : below(&r, R_COUNT);
            if ((ga == R_ALLZERO || gb == R_ALLZERO) && below(&r, 3))
                ga = gb = R_PHI1; /* all-zero rows: now and then */
            gen_row(&r, ga, a, k);
            gen_row(&r, gb, b, k);
            dfs_oz_row ra = row_pass(a, k), rb = row_pass(b, k);
            const int na = dfs_oz_row_slices(ra, beta), nb = dfs_oz_row_slices(rb, beta);
            const double nrm_a = dfs_oz_row_l1(ra, k), nrm_b = dfs_oz_row_l1(rb, k);
            check_row(a, k, ra, beta, na, nrm_a);
            check_row(b, k, rb, beta, nb, nrm_b);
            pairs++;
            if (na == 0 || nb == 0) {
                /* a row of zeros: nothing to leave out */
                for (int sa = 1; sa <= SMAX; sa++)
                    for (int sb = 1; sb <= SMAX; sb++)
                        for (int d = 0; d <= sa + sb - 2; d++) {
                            REQUIRE(dfs_oz_tail_bound(k, beta, sa, sb, d, na, nb, nrm_a,
                                                      nrm_b) == 0);
                            combos++;
                            zero_bounds++;
                        }
                continue;
            }
            const int ta = ra.tau, tb = rb.tau;
            /* the window: every product's bits, and the bound's (at least 2^-700 in units) */
            window wn;
            {
                int lo = ra.low + rb.low < ta + tb - 700 ? ra.low + rb.low : ta + tb - 700;
                wn.lsb = lo - 64 - (((lo - 64) % 32) + 32) % 32;
                wn.nw = (ta + tb + 64 - wn.lsb) / 32 + 2;
                REQUIRE(wn.nw <= DFS_X_WORDS);
            }
            /* exact sums over q: a_q b_q and |a_q b_q|, and per slice pair (i, j) */
            int64_t wS[2][DFS_X_WORDS];
            dfs_xacc S[2], P[SMAX][SMAX][2];
            const int pi_n = na < SMAX ? na : SMAX, pj_n = nb < SMAX ? nb : SMAX;
            for (int v = 0; v < 2; v++) {
                S[v] = win_acc(wn, wS[v]);
                for (int i = 0; i < pi_n; i++)
                    for (int j = 0; j < pj_n; j++)
                        P[i][j][v] = win_acc(wn, wP[i][j][v]);
            }
            for (int q = 0; q < k; q++) {
                if (a[q] == 0 || b[q] == 0)
                    continue;
                REQUIRE(dfs_x_add_product(&S[0], a[q], b[q], 0));
                REQUIRE(dfs_x_add_product(&S[1], fabs(a[q]), fabs(b[q]), 0));
                double sl_a[SMAX], sl_b[SMAX];
                for (int i = 0; i < pi_n; i++)
                    sl_a[i] = dfs_oz_slice(a[q], ta, beta, i);
                for (int j = 0; j < pj_n; j++)
                    sl_b[j] = dfs_oz_slice(b[q], tb, beta, j);
                for (int i = 0; i < pi_n; i++)
                    for (int j = 0; j < pj_n; j++) {
                        if (sl_a[i] == 0 || sl_b[j] == 0)
                            continue;
                        /* slice i of a_q is sl_a[i] 2^(tau_a - i beta) */
                        int sh = ta + tb - (i + j) * beta;
                        REQUIRE(dfs_x_add_product(&P[i][j][0], sl_a[i], sl_b[j], sh));
                        REQUIRE(dfs_x_add_product(&P[i][j][1], fabs(sl_a[i]), fabs(sl_b[j]), sh));
                    }
            }
            for (int sa = 1; sa <= SMAX; sa++)
                for (int sb = 1; sb <= SMAX; sb++)
                    for (int d = 0; d <= sa + sb - 2; d++) {
                        const double bound =
                            dfs_oz_tail_bound(k, beta, sa, sb, d, na, nb, nrm_a, nrm_b);
                        snprintf(what, sizeof what,
                                 "k %d beta %d rows %s x %s (pair %d; tau %d %d, na %d nb %d, "
                                 "nrm %a %a) sa %d sb %d d %d: bound %a",
                                 k, beta, row_name[ga], row_name[gb], pi, ta, tb, na, nb, nrm_a,
                                 nrm_b, sa, sb, d, bound);
                        if (!(bound >= 0 && isfinite(bound)))
                            ck_abort_msg("%s: not a bound", what);
                        /* zero exactly when every pair is taken */
                        const int all = sa >= na && sb >= nb && d >= na + nb - 2;
                        if ((bound == 0) != all)
                            ck_abort_msg("%s: zero %d but all pairs taken %d", what, bound == 0,
                                         all);
                        zero_bounds += bound == 0;
                        /* the tail, exactly: signed, and as sum_q |.| */
                        int64_t wt[2][DFS_X_WORDS];
                        dfs_xacc T[2];
                        for (int v = 0; v < 2; v++) {
                            T[v] = win_acc(wn, wt[v]);
                            acc_add_acc(&T[v], &S[v], 0);
                            for (int i = 0; i < sa && i < pi_n; i++) {
                                int J = dfs_oz_cols(sb, d, i);
                                for (int j = 0; j < J && j < pj_n; j++)
                                    acc_add_acc(&T[v], &P[i][j][v], 1);
                            }
                        }
                        /* the slices of a_q (of b_q) all have its sign, so each q's tail has
                         * the sign of a_q b_q and T[1] is sum_q |tail_q| >= |T[0]| */
                        if (dfs_x_sign(&T[1]) < 0)
                            ck_abort_msg("%s: sum of |tail_q| negative", what);
                        dfs_x_abs(&T[0]);
                        {
                            int64_t wd[DFS_X_WORDS];
                            dfs_xacc D = win_acc(wn, wd);
                            acc_add_acc(&D, &T[1], 0);
                            acc_add_acc(&D, &T[0], 1);
                            if (dfs_x_sign(&D) < 0)
                                ck_abort_msg("%s: |sum of tails| above the sum of |tails|", what);
                        }
                        const int tail_zero = dfs_x_sign(&T[1]) == 0;
                        nonzero_tails += !tail_zero;
                        zero_tail_pos_bound += tail_zero && bound > 0;
                        /* looseness, before the bound goes in */
                        if (!tail_zero) {
                            int64_t wc[DFS_X_WORDS];
                            dfs_xacc C = win_acc(wn, wc);
                            acc_add_acc(&C, &T[1], 0);
                            double tl = dfs_x_round(&C, 0); /* the tail, rounded */
                            double lg = log2(bound) + ta + tb - log2(tl);
                            if (k >= 64 && ga == R_PHI0 && gb == R_PHI0) {
                                /* measured 2^1.8 .. 2^3.2 (the bound's factor 2 included):
                                 * 2^10 leaves room for other seeds */
                                if (!(tl > 0 && lg <= 10))
                                    ck_abort_msg("%s: the bound is 2^%.1f times the sum of "
                                                 "|tail_q| %a 2^-(tau_a+tau_b)",
                                                 what, lg, ldexp(tl, -(ta + tb)));
                                loose_n++;
                                loose_max = lg > loose_max ? lg : loose_max;
                                loose_min = lg < loose_min ? lg : loose_min;
                                if (k == 1000 && sa == 3 && sb == 3 && d == 3) {
                                    loose3_n++;
                                    loose3_max = lg > loose3_max ? lg : loose3_max;
                                    loose3_min = lg < loose3_min ? lg : loose3_min;
                                }
                            }
                        }
                        /* soundness: sum_q |tail_q| <= bound 2^(tau_a + tau_b) */
                        for (int v = 0; v < 2; v++) {
                            if (!dfs_x_add_double(&T[v], -bound, ta + tb))
                                ck_abort_msg("%s: the bound does not fit the window", what);
                            if (dfs_x_sign(&T[v]) > 0) {
                                int64_t wz[DFS_X_WORDS];
                                dfs_xacc Z = win_acc(wn, wz);
                                acc_add_acc(&Z, &T[v], 0);
                                double over = dfs_x_round(&Z, 0);
                                ck_abort_msg("%s: the %s exceeds bound 2^(tau_a+tau_b) by %a "
                                             "(= %a 2^(tau_a+tau_b))",
                                             what, v ? "sum of |tail_q|" : "|tail|", over,
                                             ldexp(over, -(ta + tb)));
                            }
                        }
                        combos++;
                    }
        }
    }
    REQUIRE(loose_n > 100 && loose3_n >= 4);
    printf("oz: tail bound: %ld (sa, sb, d) combinations over %ld row/column pairs (k 1, 2, "
           "7, 64, 1000; 13 generators), all sound; %ld zero bounds (all pairs taken), %ld "
           "non-zero tails, %ld zero tails with a positive bound; phi0, k >= 64: bound / sum "
           "|tail_q| 2^%.1f .. 2^%.1f (%d combinations), at k 1000 and sa = sb = d = 3 2^%.1f .. "
           "2^%.1f (%d)\n",
           combos, pairs, zero_bounds, nonzero_tails, zero_tail_pos_bound, loose_min, loose_max,
           loose_n, loose3_min, loose3_max, loose3_n);
    fflush(stdout);
}
END_TEST

void oz_tail_tests(TCase *t)
{
    tcase_add_test(t, oz_tail_bound_sound);
}
