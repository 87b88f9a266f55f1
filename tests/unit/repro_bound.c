/* repro_bound.c — test_repro's tests of the rounding margin of xacc.h (dfs_x_round_margin,
 * dfs_x_axpby_margin), checked for soundness against exact values (full accumulators of xacc.h,
 * MPFR): every real within 2^margin of the exact value must round to the same binary64 as the
 * result.  The Ozaki bounds are in oz_tail.c and oz_i192.c. */
#include "ozfamily_test.h"

#include "../common/gen.h"

/* Add alpha * x * y exactly (alpha, x, y finite): alpha's mantissa in three 21-bit pieces, each
 * times the 106-bit product x*y (< 2^127). */
static void add_triple(dfs_xacc *a, double alpha, double x, double y)
{
    uint64_t ma, mx, my;
    int ea, ex, ey;
    int neg = dfs_d_split(alpha, &ma, &ea) ^ dfs_d_split(x, &mx, &ex) ^ dfs_d_split(y, &my, &ey);
    dfs_u128 p = (dfs_u128)mx * my;
    for (int k = 0; k < 3; k++)
        REQUIRE(dfs_x_add(a, neg, p * ((ma >> (21 * k)) & 0x1fffffu), ea + ex + ey + 21 * k));
}

/* The value of a as an unevaluated sum of three doubles, RN at each step (for messages). */
static void describe(const dfs_xacc *a, char *buf, size_t len)
{
    int64_t w[DFS_X_WORDS], w2[DFS_X_WORDS];
    dfs_xacc c, d;
    double part[3] = {0, 0, 0};
    acc_copy(&c, w, a);
    for (int i = 0; i < 3; i++) {
        acc_copy(&d, w2, &c);
        part[i] = dfs_x_round(&d, 0);
        if (!isfinite(part[i]))
            break;
        REQUIRE(dfs_x_add_double(&c, -part[i], 0));
    }
    snprintf(buf, len, "%a + %a + %a", part[0], part[1], part[2]);
}

/* ---------------- the rounding margin (xacc.h) ---------------- */

/* 2^e as a product x * y of two doubles, -2148 <= e <= 2046. */
static void pow2_pair(int e, double *x, double *y)
{
    int e1 = e >= 0 ? e / 2 : -((-e + 1) / 2);
    *x = ldexp(1.0, e1);
    *y = ldexp(1.0, e - e1);
}

static long margins_checked; /* margins other than DFS_X_NO_MARGIN shown sound */

/* The soundness of margin m for the result r of the exact value V: if m is not
 * DFS_X_NO_MARGIN, r must be finite and non-zero and V - 2^m and V + 2^m (hence, rounding being
 * monotonic, every real in between) must round to r's bits. */
static void check_margin(const dfs_xacc *V, double r, int m, const char *what, int it)
{
    if (m == DFS_X_NO_MARGIN)
        return;
    char buf[200];
    if (!(r != 0 && isfinite(r)) || m < DFS_X_LSB || m > 1024) {
        describe(V, buf, sizeof buf);
        ck_abort_msg("%s (case %d): margin %d with result %a (value %s)", what, it, m, r, buf);
    }
    for (int neg = 0; neg < 2; neg++) {
        int64_t w[DFS_X_WORDS];
        dfs_xacc c;
        acc_copy(&c, w, V);
        add_pow2(&c, neg, m);
        double got = dfs_x_round(&c, 0);
        if (bits_of_d(got) != bits_of_d(r)) {
            describe(V, buf, sizeof buf);
            ck_abort_msg("%s (case %d): margin %d unsound: value %s %c 2^%d rounds to %a, the "
                         "value to %a",
                         what, it, m, buf, neg ? '-' : '+', m, got, r);
        }
    }
    margins_checked++;
}

/* The same with MPFR as the judge: V = sum x[i] y[i] (n terms, room for one more) rounds to r,
 * and so do V -/+ 2^m (the perturbation as one more product). */
static void check_margin_mpfr(int n, double *x, double *y, double r, int m, const char *what,
                              int it)
{
    expect(reference(n, x, 1, y, 1, 1.0, 0.0, 0.0), r, what);
    if (m == DFS_X_NO_MARGIN)
        return;
    for (int neg = 0; neg < 2; neg++) {
        pow2_pair(m, &x[n], &y[n]);
        if (neg)
            x[n] = -x[n];
        double got = reference(n + 1, x, 1, y, 1, 1.0, 0.0, 0.0);
        if (!same(got, r))
            ck_abort_msg("%s (case %d, MPFR): margin %d unsound: value %c 2^%d rounds to %a, "
                         "the value to %a (n %d)",
                         what, it, m, neg ? '-' : '+', m, got, r, n);
    }
}

/* The accumulator of sum x[i] y[i]. */
static void sum_terms(dfs_xacc *a, int64_t *w, int n, const double *x, const double *y)
{
    full_init(a, w);
    for (int i = 0; i < n; i++)
        REQUIRE(dfs_x_add_product(a, x[i], y[i], 0));
}

/* The exact value alpha * sum x[i] y[i] + beta * c (beta == 0: c not read). */
static void axpby_exact(dfs_xacc *a, int64_t *w, int n, const double *x, const double *y,
                        double alpha, double beta, double c)
{
    full_init(a, w);
    for (int i = 0; i < n && alpha != 0; i++)
        add_triple(a, alpha, x[i], y[i]);
    if (beta != 0)
        REQUIRE(dfs_x_add_product(a, beta, c, 0));
}

/* dfs_x_axpby_margin on S = sum x[i] y[i] (finite terms); as the callers do (BLAS: A and B do
 * not enter when alpha == 0), nothing is accumulated when alpha == 0. */
static double axpby_m(int n, const double *x, const double *y, unsigned flags, double alpha,
                      double beta, double c, int *m)
{
    int64_t w[DFS_X_WORDS], scratch[DFS_X_WORDS];
    dfs_xacc s;
    sum_terms(&s, w, alpha != 0 ? n : 0, x, y);
    double r;
    *m = 12345; /* must be overwritten */
    REQUIRE(dfs_x_axpby_margin(&s, flags, alpha, beta, c, scratch, DFS_X_WORDS, &r, m));
    return r;
}

/* dfs_x_round_margin on a copy of V. */
static double round_m(const dfs_xacc *V, int zero_neg, int *m)
{
    int64_t w[DFS_X_WORDS];
    dfs_xacc c;
    acc_copy(&c, w, V);
    *m = 12345;
    return dfs_x_round_margin(&c, zero_neg, m);
}

START_TEST(margin_edges)
{
    int64_t w[DFS_X_WORDS];
    dfs_xacc V;
    int m, checked = 0;
    double r;
    char what[160];

    /* zero, values that round to zero, and overflow: no margin */
    full_init(&V, w);
    r = round_m(&V, 0, &m);
    REQUIRE(bits_of_d(r) == 0 && m == DFS_X_NO_MARGIN);
    r = round_m(&V, 1, &m);
    REQUIRE(bits_of_d(r) == 0x8000000000000000ull && m == DFS_X_NO_MARGIN);
    add_pow2(&V, 0, -1075); /* the tie between 0 and 2^-1074: 0 */
    r = round_m(&V, 0, &m);
    REQUIRE(r == 0 && m == DFS_X_NO_MARGIN);
    add_pow2(&V, 0, -1300); /* just above the tie */
    r = round_m(&V, 0, &m);
    REQUIRE(r == 0x1p-1074);
    check_margin(&V, r, m, "2^-1075 + 2^-1300", 0);
    full_init(&V, w);
    add_pow2(&V, 1, -1076);
    r = round_m(&V, 0, &m);
    REQUIRE(bits_of_d(r) == 0x8000000000000000ull && m == DFS_X_NO_MARGIN);
    full_init(&V, w);
    REQUIRE(dfs_x_add_double(&V, DBL_MAX, 0));
    r = round_m(&V, 0, &m);
    REQUIRE(r == DBL_MAX && m != DFS_X_NO_MARGIN);
    check_margin(&V, r, m, "DBL_MAX", 0);
    add_pow2(&V, 0, 970); /* the tie with 2^1024: Inf */
    r = round_m(&V, 0, &m);
    REQUIRE(r == INFINITY && m == DFS_X_NO_MARGIN);
    full_init(&V, w);
    add_pow2(&V, 1, 3000);
    r = round_m(&V, 0, &m);
    REQUIRE(r == -INFINITY && m == DFS_X_NO_MARGIN);
    checked += 9;

    /* dfs_x_axpby_margin's special and zero results: no margin */
    {
        const double one = 1.0, big = 0x1p1000, small = 0x1p-1000, x3[3] = {1.0, -1.0, 0x1p-1000};
        const double y3[3] = {1.0, 1.0, 0.0};
        struct {
            int n;
            const double *x, *y;
            unsigned flags;
            double alpha, beta, c, want;
        } sc[] = {
            {1, &one, &one, DFS_X_NAN, 1.0, 0.0, 0.0, NAN},
            {1, &one, &one, DFS_X_PINF, 1.0, 0.0, 0.0, INFINITY},
            {1, &one, &one, DFS_X_PINF, -1.0, 1.0, 2.0, -INFINITY},
            {1, &one, &one, DFS_X_PINF | DFS_X_NINF, 1.0, 0.0, 0.0, NAN},
            {1, &one, &one, 0, INFINITY, 0.0, 0.0, INFINITY},
            {1, &one, &one, 0, 1.0, 1.0, -INFINITY, -INFINITY},
            {1, &one, &one, 0, 1.0, INFINITY, 0.0, NAN},
            {1, &big, &big, 0, 1.0, 0.0, 0.0, INFINITY},          /* 2^2000 overflows */
            {1, &big, &big, 0, 0x1p-976, 0.0, 0.0, INFINITY},     /* 2^1024 */
            {1, &big, &big, 0, -0x1p-977, -1.0, DBL_MAX, -INFINITY}, /* -2^1023 - DBL_MAX */
            {1, &one, &one, 0, 1.0, -1.0, 1.0, 0.0},              /* exact cancellation */
            {1, &one, &one, 0, -1.0, 1.0, 1.0, 0.0},
            {3, x3, y3, 0, 1.0, 0.0, 0.0, 0.0},                   /* S = 0 */
            {3, x3, y3, 0, 2.0, -1.0, 0.0, 0.0},                  /* S = 0, beta * c = -0 */
            {1, &one, &one, 0, 0.0, 0.0, 0.0, 0.0},               /* alpha = 0 */
            {1, &one, &one, 0, 0x1p-1074, 0.0, 0.0, 0x1p-1074},   /* has a margin */
            {1, &one, &one, 0, 0x1p-1074, -0.5, 0x1p-1074, 0.0}, /* 2^-1075: tie to 0 */
            {1, &small, &small, 0, 0x1p-100, 0.0, 0.0, 0.0},      /* 2^-2100: rounds to 0 */
        };
        for (size_t i = 0; i < sizeof sc / sizeof sc[0]; i++) {
            r = axpby_m(sc[i].n, sc[i].x, sc[i].y, sc[i].flags, sc[i].alpha, sc[i].beta, sc[i].c,
                        &m);
            snprintf(what, sizeof what, "axpby special/zero case %zu", i);
            expect(r, sc[i].want, what);
            if (r == 0 || !isfinite(r)) {
                if (m != DFS_X_NO_MARGIN)
                    ck_abort_msg("%s: result %a with margin %d", what, r, m);
            } else {
                axpby_exact(&V, w, sc[i].n, sc[i].x, sc[i].y, sc[i].alpha, sc[i].beta, sc[i].c);
                check_margin(&V, r, m, what, (int)i);
            }
            checked++;
        }
    }

    /* A midpoint in one term and a tiny value far below all its bits in the other, which
     * dfs_x_axpby replaces by a stand-in just below the first term's bits: the stand-in decides
     * the rounding, but its distance to the midpoint is not the value's.  M = 3 (2^52 + 1) lies
     * halfway between 3 2^52 + 2 (odd) and 3 2^52 + 4 (even), and so does M 2^-1074 in units of
     * 2^-1074; the tiny term is +-2^-t, so the true margin is -t above the midpoint (it rounds to
     * the same, even, result) and -t - 1 below.  With full 53-bit factors the stand-in lies 106
     * bits under the midpoint's leading bit; with alpha = 2^-1074 or a subnormal c (one- or two-
     * bit factors) it lies within the top three digits, where it would show. */
    {
        const double three = 3.0, odd = 0x1p52 + 1, c3 = 0x1.8p-1073, t250 = 0x1p-250,
                     t600 = 0x1p-600;
        for (int way = 0; way < 4; way++)
            for (int sgn = 0; sgn < 2; sgn++) {
                const int sub = way >= 2; /* the midpoint times 2^-1074 */
                const double tiny = sub ? t600 : t250, tx = sgn ? -tiny : tiny;
                const double unit = sub ? 0x1p-1074 : 1.0;
                double want = (sgn ? 3 * 0x1p52 + 2 : 3 * 0x1p52 + 4) * unit;
                int tm = (sub ? -1200 : -500) - sgn;
                const double *x1 = &tx, *y1 = &tiny;
                double alpha = 1.0, beta, c;
                if (way == 0) /* the midpoint as beta * c = 3 (2^52 + 1), alpha * S = tiny^2 */
                    beta = three, c = odd;
                else if (way == 2) /* beta * c = (2^52 + 1) (3 2^-1074), c subnormal */
                    beta = odd, c = c3;
                else if (way == 1) /* the midpoint as alpha * S, beta * c = tiny^2 */
                    x1 = &three, y1 = &odd, beta = tx, c = tiny;
                else /* alpha * S = 2^-1074 (3 (2^52 + 1)) */
                    x1 = &three, y1 = &odd, alpha = 0x1p-1074, beta = tx, c = tiny;
                r = axpby_m(1, x1, y1, 0, alpha, beta, c, &m);
                snprintf(what, sizeof what, "midpoint%s as %s, %s2^%d as %s",
                         sub ? " * 2^-1074" : "", way & 1 ? "alpha * S" : "beta * c",
                         sgn ? "-" : "+", -(sub ? 1200 : 500), way & 1 ? "beta * c" : "alpha * S");
                expect(r, want, what);
                if (m != DFS_X_NO_MARGIN && m > tm)
                    ck_abort_msg("%s: margin %d above the true one %d", what, m, tm);
                axpby_exact(&V, w, 1, x1, y1, alpha, beta, c);
                check_margin(&V, r, m, what, sgn);
                /* the same value in one accumulator (the tiny term out of the top three
                 * digits: no margin expected, but none above the true one) */
                double r1 = round_m(&V, 0, &m);
                expect(r1, want, what);
                if (m != DFS_X_NO_MARGIN && m > tm)
                    ck_abort_msg("%s [round_margin]: margin %d above the true one %d", what, m, tm);
                check_margin(&V, r1, m, what, sgn);
                checked += 2;
            }
    }

    /* Values at and near the midpoints between neighbours lo < hi (at binade boundaries, in the
     * subnormal range, at the overflow threshold): V = mid + s 2^j, j = h - t where 2^h is half
     * the gap.  V rounds to hi (s = 1) or lo (s = -1); the midpoint to the even one of them.  A
     * move of 2^j reaches the midpoint, so the true margin is at most j when the midpoint rounds
     * to the same result, else j - 1 (the other midpoint is more than 2^(j+1) away); an exact
     * midpoint (t = -1 in ts) has no margin. */
    rng rg = rng_seed(41);
    double r0s[64];
    int nr0 = 0;
    static const double fixed[] = {0.0, 1.0, 1.5, 3.0, 0.1, 0x1.fffffffffffffp0, 0x1p-1022,
                                   0x1p-1023, 0x0.fffffffffffffp-1022, 0x1p-1074, 0x1p-1073,
                                   0x1.8p-1073, 0x1p1023, DBL_MAX, 0x1.ffffffffffffep1023,
                                   0x1p-1021, 0x1p-1000, 0x1p500};
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        r0s[nr0++] = fixed[i];
    while (nr0 < 48) {
        int e = below(&rg, 2098) - 1074;
        double v = ldexp(1.0 + unif(&rg), e);
        if (nr0 % 3 == 0)
            v = ldexp(1.0, e); /* a power of two */
        if (nr0 % 7 == 0)
            v = fabs(gen_subnormal(&rg));
        if (isfinite(v) && v > 0)
            r0s[nr0++] = v;
    }
    static const int ts[] = {-1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 16, 20, 31, 32, 33, 40, 52, 53, 54,
                             60, 63, 64, 65, 70, 96, 100, 128, 129, 140};
    long direct = 0, informative = 0;
    for (int ir = 0; ir < nr0; ir++)
        for (int side = 0; side < 2; side++) {
            double lo, hi, gap;
            if (side == 0) {
                lo = r0s[ir];
                hi = nextafter(lo, INFINITY);
            } else {
                if (r0s[ir] == 0)
                    continue;
                hi = r0s[ir];
                lo = nextafter(hi, 0.0);
            }
            gap = isfinite(hi) ? hi - lo : 0x1p971; /* exact: neighbours */
            int h = ilogb(gap) - 1;
            double even = (bits_of_d(lo) & 1) ? hi : lo; /* Inf's bits are even */
            for (size_t it = 0; it < sizeof ts / sizeof ts[0]; it++)
                for (int sgn = 0; sgn < 2; sgn++)
                    for (int neg = 0; neg < 2; neg++) {
                        int t = ts[it], tie = t < 0, j = h - t;
                        if (tie && sgn)
                            continue;
                        /* the terms: lo, the half gap, s 2^j; negated when neg */
                        double x[8], y[8];
                        int n = 0;
                        x[n] = lo, y[n++] = 1.0;
                        pow2_pair(h, &x[n], &y[n]);
                        n++;
                        if (!tie) {
                            pow2_pair(j, &x[n], &y[n]);
                            if (sgn)
                                x[n] = -x[n];
                            n++;
                        }
                        for (int i = 0; i < n && neg; i++)
                            x[i] = -x[i];
                        double want = tie ? even : sgn ? lo : hi;
                        if (neg)
                            want = -want;
                        int tm = tie ? 0 /* unused */ : (sgn ? lo : hi) == even ? j : j - 1;
                        snprintf(what, sizeof what, "lo %a hi %a %s 2^%d%s", lo, hi,
                                 tie ? "tie" : sgn ? "mid -" : "mid +", j, neg ? " negated" : "");
                        sum_terms(&V, w, n, x, y);
                        int ms[4];
                        double rs[4];
                        rs[0] = round_m(&V, 0, &ms[0]);
                        rs[1] = axpby_m(n, x, y, 0, 1.0, 0.0, 0.0, &ms[1]);
                        /* lo as beta * c, the rest as alpha * S */
                        rs[2] = axpby_m(n - 1, x + 1, y + 1, 0, 1.0, 1.0, x[0], &ms[2]);
                        /* alpha = 2^-10, S = 2^10 V */
                        {
                            double y2[8];
                            for (int i = 0; i < n; i++)
                                y2[i] = y[i] * 0x1p10;
                            rs[3] = axpby_m(n, x, y2, 0, 0x1p-10, 0.0, 0.0, &ms[3]);
                        }
                        for (int v = 0; v < 4; v++) {
                            char what2[200];
                            static const char *const way[4] = {
                                "round_margin", "axpby 1, 0", "axpby, lo as beta * c",
                                "axpby, alpha = 2^-10"};
                            snprintf(what2, sizeof what2, "%s [%s]", what, way[v]);
                            expect(rs[v], want, what2);
                            if (rs[v] == 0 || !isfinite(rs[v])) {
                                if (ms[v] != DFS_X_NO_MARGIN)
                                    ck_abort_msg("%s: result %a with margin %d", what2, rs[v],
                                                 ms[v]);
                                continue;
                            }
                            if (tie && ms[v] != DFS_X_NO_MARGIN)
                                ck_abort_msg("%s: an exact midpoint with margin %d", what2, ms[v]);
                            if (!tie && ms[v] > tm)
                                ck_abort_msg("%s: margin %d above the true one %d", what2, ms[v],
                                             tm);
                            check_margin(&V, rs[v], ms[v], what2, (int)it);
                            checked++;
                        }
                        check_margin_mpfr(n, x, y, rs[0], ms[0], what, (int)it);
                        /* Informative: with 2^j among the top 64 bits below the leading one
                         * (within the three words the function reads), the margin is within 2
                         * of the true one (which is j or j - 1; the function gives j - 1 above
                         * a midpoint, j - 2 below one). */
                        if (!tie && t <= 8 && rs[0] != 0 && isfinite(rs[0])) {
                            direct++;
                            if (ms[0] == DFS_X_NO_MARGIN || ms[0] < j - 2)
                                ck_abort_msg("%s: margin %d uninformative (true margin %d)", what,
                                             ms[0], tm);
                            informative++;
                        }
                    }
        }
    printf("repro: margin edges: %d results (specials, zeros, %d neighbour pairs' midpoints "
           "+- 2^j, four ways each), margins %ld sound, %ld of %ld near-midpoint margins within 2 "
           "of the true one\n",
           checked, nr0, margins_checked, informative, direct);
    fflush(stdout);
}
END_TEST

START_TEST(margin_random)
{
    rng r = rng_seed(42);
    enum { N = 24, CLASSES = 7 };
    static const char *const cls_name[CLASSES] = {"moderate", "wide", "cancel", "subnormal",
                                                  "near-overflow", "near-midpoint", "gen"};
    static const double alphas[] = {1.0, -1.0, 3.0, 0.1, -0x1.234567p-3, 0x1p-600, 0x1p600,
                                    0x1p-1074, 0.0, 0x1.fffffffffffffp0};
    static const double betas[] = {0.0, 0.0, 1.0, -1.0, 0.3, 0x1p-1000, -7.0};
    int64_t w[DFS_X_WORDS];
    dfs_xacc V;
    double x[N + 1], y[N + 1];
    long cases = 0, with_margin[2] = {0, 0}, normal_rich = 0, rich_informative = 0;
    char what[200];
    for (int it = 0; it < 24000; it++) {
        int cls = it % CLASSES, n = 1 + below(&r, N - 4);
        for (int i = 0; i < n; i++) {
            switch (cls) {
            case 0:
                x[i] = ldexp(unif_pm1(&r), below(&r, 120) - 60);
                y[i] = ldexp(unif_pm1(&r), below(&r, 120) - 60);
                break;
            case 1:
                x[i] = ldexp(unif_pm1(&r), below(&r, 2098) - 1074);
                y[i] = ldexp(unif_pm1(&r), below(&r, 2098) - 1074);
                break;
            case 2: /* big terms that cancel exactly, small ones left */
                if (i > 0 && below(&r, 2)) {
                    x[i] = -x[i - 1], y[i] = y[i - 1];
                } else {
                    x[i] = ldexp(unif_pm1(&r), below(&r, 200) - 100);
                    y[i] = ldexp(unif_pm1(&r), below(&r, 200) - 100);
                }
                break;
            case 3: /* sums around 2^-1074 .. 2^-1000 */
                x[i] = ldexp(unif_pm1(&r), -500 - below(&r, 60));
                y[i] = ldexp(unif_pm1(&r), -500 - below(&r, 60));
                if (below(&r, 4) == 0)
                    x[i] = gen_subnormal(&r), y[i] = ldexp(unif_pm1(&r), below(&r, 8));
                break;
            case 4: /* sums around DBL_MAX */
                x[i] = ldexp(unif_pm1(&r), 512 - below(&r, 4));
                y[i] = ldexp(unif_pm1(&r), 512 - below(&r, 4));
                if (below(&r, 4) == 0)
                    x[i] = gen_sign_rand(&r, DBL_MAX), y[i] = unif(&r);
                break;
            case 5:
                break; /* below */
            default:
                x[i] = gen_value(&r, below(&r, G_COUNT));
                y[i] = gen_value(&r, below(&r, G_COUNT));
                break;
            }
        }
        if (cls == 5) {
            /* a random double d, the midpoint above or below it, s 2^j with j up to 130 below
             * the half gap, tiny random products below that, and a cancelling big pair */
            double d = ldexp(1.0 + unif(&r), below(&r, 2098) - 1074);
            if (below(&r, 3) == 0)
                d = ldexp(1.0, below(&r, 2098) - 1074);
            if (below(&r, 5) == 0)
                d = fabs(gen_subnormal(&r));
            if (below(&r, 9) == 0)
                d = DBL_MAX;
            if (!isfinite(d) || d == 0)
                d = 1.0;
            int up = below(&r, 2);
            double o = nextafter(d, up ? INFINITY : 0.0);
            double gap = isfinite(o) ? fabs(o - d) : 0x1p971;
            int h = ilogb(gap) - 1, j = h - 1 - below(&r, 130);
            n = 0;
            x[n] = d, y[n++] = 1.0;
            pow2_pair(h, &x[n], &y[n]);
            if (!up)
                x[n] = -x[n];
            n++;
            if (below(&r, 4)) {
                pow2_pair(j, &x[n], &y[n]);
                if (below(&r, 2))
                    x[n] = -x[n];
                n++;
            }
            for (int k = below(&r, 4); k > 0; k--) {
                x[n] = ldexp(unif_pm1(&r), j - 3 - below(&r, 40) - (j - 3) / 2);
                y[n] = ldexp(unif(&r), (j - 3) / 2);
                n++;
            }
            if (below(&r, 2)) {
                x[n] = ldexp(unif_pm1(&r), 300), y[n] = 3.0;
                x[n + 1] = -x[n], y[n + 1] = 3.0;
                n += 2;
            }
            if (below(&r, 2))
                for (int i = 0; i < n; i++)
                    x[i] = -x[i];
        }
        /* dfs_x_round_margin on S itself (alpha = 1): the accumulator and MPFR as judges */
        sum_terms(&V, w, n, x, y);
        int m;
        double r1 = round_m(&V, 0, &m);
        snprintf(what, sizeof what, "round_margin %s n %d", cls_name[cls], n);
        if ((r1 == 0 || !isfinite(r1)) && m != DFS_X_NO_MARGIN)
            ck_abort_msg("%s (case %d): result %a with margin %d", what, it, r1, m);
        check_margin(&V, r1, m, what, it);
        if (it % 3 == 0)
            check_margin_mpfr(n, x, y, r1, m, what, it);
        with_margin[0] += m != DFS_X_NO_MARGIN;
        /* informative for sums with many low bits: products of random 53-bit numbers, the result
         * a normal number */
        if ((cls == 0 || cls == 1) && isfinite(r1) && fabs(r1) >= DBL_MIN) {
            normal_rich++;
            rich_informative += m != DFS_X_NO_MARGIN && m >= ilogb(r1) - 60;
        }
        cases++;

        /* dfs_x_axpby_margin: alpha = 1, beta = 0 first, then random alpha, beta, c */
        for (int v = 0; v < 2; v++) {
            double alpha = 1.0, beta = 0.0, c = 0.0;
            if (v == 1) {
                alpha = alphas[below(&r, sizeof alphas / sizeof alphas[0])];
                beta = betas[below(&r, sizeof betas / sizeof betas[0])];
                c = gen_value(&r, below(&r, G_COUNT));
                int pick = below(&r, 6);
                if (pick == 0 && isfinite(r1)) /* V = alpha (S - RN(S)): deep cancellation */
                    beta = -alpha, c = r1;
                else if (pick == 1) /* c of the size of alpha * S */
                    c = ldexp(unif_pm1(&r), (isfinite(r1) && r1 != 0 ? ilogb(r1) : 0) +
                                                 (alpha != 0 ? ilogb(alpha) : 0) -
                                                 (beta != 0 ? ilogb(beta) : 0) + below(&r, 5) - 2);
                else if (pick == 2) /* c far above or below alpha * S */
                    c = ldexp(unif_pm1(&r), below(&r, 400) - 200);
                else if (pick == 3 && isfinite(r1) && r1 != 0) /* far below alpha * S */
                    alpha = 1.0, beta = 1.0,
                    c = ldexp(unif_pm1(&r), ilogb(r1) - 110 - below(&r, 400));
                if (!isfinite(c))
                    c = 1.0;
            }
            double r2 = axpby_m(n, x, y, 0, alpha, beta, c, &m);
            snprintf(what, sizeof what, "axpby_margin %s n %d alpha %a beta %a c %a", cls_name[cls],
                     n, alpha, beta, c);
            expect(r2, reference(n, x, 1, y, 1, alpha, beta, c), what);
            if (r2 == 0 || !isfinite(r2)) {
                if (m != DFS_X_NO_MARGIN)
                    ck_abort_msg("%s (case %d): result %a with margin %d", what, it, r2, m);
                continue;
            }
            axpby_exact(&V, w, n, x, y, alpha, beta, c);
            {
                int64_t w2[DFS_X_WORDS];
                dfs_xacc c2;
                acc_copy(&c2, w2, &V);
                expect(dfs_x_round(&c2, 0), r2, what); /* the exact value is the one rounded */
            }
            check_margin(&V, r2, m, what, it);
            with_margin[1] += m != DFS_X_NO_MARGIN;
            cases++;
        }
    }
    /* the margin must not be vacuous: nearly always there for sums of random products */
    if (rich_informative < normal_rich * 9 / 10)
        ck_abort_msg("margin too often absent or loose: %ld of %ld normal results of random sums "
                     "have a margin >= exponent - 60",
                     rich_informative, normal_rich);
    printf("repro: margin random: %ld results (round_margin and axpby_margin, 7 classes), "
           "%ld + %ld with a margin, all sound; %ld of %ld normal random sums have margin >= "
           "exponent - 60\n",
           cases, with_margin[0], with_margin[1], rich_informative, normal_rich);
    fflush(stdout);
}
END_TEST

void repro_bound_tests(TCase *t)
{
    tcase_add_test(t, margin_edges);
    tcase_add_test(t, margin_random);
}
