/* repro_xacc.c — test_repro's tests of the exact accumulator (engines/common/xacc.h) on its own:
 * rounding edges and random wide-range sums with alpha and beta, against MPFR. */
#include "ozfamily_test.h"

#include "../common/gen.h"

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

/* dfs_x_window (the GPU's rounding of DOT, GEMV and direct DGEMM outputs walks only the
 * non-zero words of an accumulator): on raw accumulators as the GPU's atomics leave them (words
 * of up to +-2^62, any signs, so that carries cross into the word above the range and negative
 * totals borrow from it), the window's result equals the full accumulator's, bit for bit, for
 * alpha and beta (beta = 0 included); ranges at the bottom, at the top (no word above), of one
 * word, and empty. */
START_TEST(xacc_window)
{
    rng r = rng_seed(13);
    static const double alphas[] = {1.0, -1.0, 0.75, 3.0, 0x1p-600, 1e200};
    int checked = 0;
    for (int it = 0; it < 4000; it++) {
        int64_t full[DFS_X_WORDS], win[DFS_X_WORDS], scratch[DFS_X_WORDS];
        memset(full, 0, sizeof full);
        int lo, hi;
        switch (it % 5) {
        case 0: lo = 0, hi = below(&r, 6); break;                                  /* bottom */
        case 1: hi = DFS_X_WORDS - 1, lo = hi - below(&r, 6); break;               /* top */
        case 2: lo = hi = below(&r, DFS_X_WORDS); break;                           /* one */
        case 3: lo = 1, hi = 0; break;                                             /* empty */
        default: lo = below(&r, DFS_X_WORDS - 8), hi = lo + below(&r, 8); break;   /* middle */
        }
        for (int i = lo; i <= hi; i++) {
            const int kind = below(&r, 4);
            int64_t v = (int64_t)(next64(&r) >> (2 + below(&r, 60)));
            if (kind == 0)
                v = -v;
            if (kind == 1)
                v = (int64_t)0x3fffffffffffffffll * (below(&r, 2) ? 1 : -1);
            full[i] = v;
        }
        if (lo <= hi && full[lo] == 0)
            full[lo] = 1; /* the range is exact: its ends non-zero */
        if (lo <= hi && full[hi] == 0)
            full[hi] = -1;
        memcpy(win, full, sizeof win);
        const double alpha = alphas[below(&r, 6)];
        const double beta = below(&r, 3) ? 0.0 : unif_pm1(&r);
        const double c = ldexp(unif_pm1(&r), below(&r, 400) - 200);
        dfs_xacc a, b = dfs_x_window(win, DFS_X_WORDS, DFS_X_LSB, lo, hi);
        a.w = full;
        a.nw = DFS_X_WORDS;
        a.lsb = DFS_X_LSB;
        a.pending = 1;
        double want, got;
        ck_assert(dfs_x_axpby(&a, 0, alpha, beta, c, scratch, DFS_X_WORDS, &want));
        ck_assert(dfs_x_axpby(&b, 0, alpha, beta, c, scratch, DFS_X_WORDS, &got));
        ck_assert_msg(same(got, want), "case %d, words %d..%d: window %a, full %a", it, lo, hi,
                      got, want);
        checked++;
    }
    printf("repro: xacc windows: %d raw accumulators round as the full ones\n", checked);
}
END_TEST

/* dfs_x_combine (the complex finish) on accumulators given as their non-zero words (dfs_x_trim,
 * as the GPU gives them) against the same full accumulators: the same bits, with raw words as
 * large as 2^62 (carries that a normalisation puts into a window's top word) and coefficients
 * from 2^-1074 to 2^1000 (the window of the sum must hold every bit: a bound 77 bits too low
 * fails it). */
START_TEST(combine_window)
{
    rng r = rng_seed(14);
    int checked = 0;
    for (int it = 0; it < 20000; it++) {
        int64_t full[2][DFS_X_WORDS], win[2][DFS_X_WORDS], scratch[DFS_X_WORDS];
        dfs_xacc fa[2], ta[2];
        for (int p = 0; p < 2; p++) {
            memset(full[p], 0, sizeof full[p]);
            /* words 34 .. 150: alpha S within the full accumulator for any alpha */
            const int lo = 34 + below(&r, 100), hi = lo + below(&r, 17);
            for (int i = lo; i <= hi && below(&r, 8); i++) {
                int64_t v = (int64_t)(next64(&r) >> (1 + below(&r, 62)));
                full[p][i] = below(&r, 2) ? -v : v;
            }
            memcpy(win[p], full[p], sizeof win[p]);
            fa[p] = (dfs_xacc){full[p], DFS_X_WORDS, DFS_X_LSB, 1};
            ta[p] = dfs_x_trim(&(dfs_xacc){win[p], DFS_X_WORDS, DFS_X_LSB, 1});
        }
        double c[4];
        for (int i = 0; i < 4; i++)
            c[i] = below(&r, 6) ? ldexp(unif_pm1(&r), below(&r, 2074) - 1074)
                   : below(&r, 2) ? ldexp(1.0 - 0x1p-53, 1000) : 0x1p-1074;
        const double y0 = ldexp(unif_pm1(&r), below(&r, 600) - 300), y1 = unif_pm1(&r);
        dfs_x_term tw[4] = {{c[0], &ta[0], 0, 0.0}, {c[1], &ta[1], 0, 0.0}, {c[2], NULL, 0, y0},
                            {c[3], NULL, 0, y1}};
        dfs_x_term tf[4] = {{c[0], &fa[0], 0, 0.0}, {c[1], &fa[1], 0, 0.0}, {c[2], NULL, 0, y0},
                            {c[3], NULL, 0, y1}};
        const int n = 2 + below(&r, 3);
        double want, got;
        ck_assert(dfs_x_combine(tf, n, scratch, DFS_X_WORDS, &want));
        ck_assert(dfs_x_combine(tw, n, scratch, DFS_X_WORDS, &got));
        ck_assert_msg(same(got, want), "case %d: windows %a, full %a", it, got, want);
        checked++;
    }
    printf("repro: xacc windows: %d complex combinations of trimmed accumulators as of full "
           "ones\n", checked);
}
END_TEST

/* The sign of d - (the terms t[T] + lo[Tx] 2^-DFS_FPE_SHIFT + hi[Tx] 2^DFS_FPE_SHIFT + the
 * accumulator words spill), on a copy of d (lo, hi, spill may be NULL): 0 when the expansions
 * and what was spilled are exactly the sum d holds. */
static int residual_sign(const dfs_xacc *d, const double *t, int T, const double *lo,
                         const double *hi, int Tx, const int64_t *spill)
{
    dfs_xacc e;
    int64_t ew[DFS_X_WORDS];
    acc_copy(&e, ew, d);
    for (int j = 0; j < T; j++)
        REQUIRE(dfs_x_add_double(&e, -t[j], 0));
    for (int j = 0; j < Tx; j++) {
        uint64_t m;
        int ex;
        if (lo && lo[j] != 0) {
            const int neg = dfs_d_split(lo[j], &m, &ex);
            REQUIRE(dfs_x_add(&e, !neg, (dfs_u128)m, ex - DFS_FPE_SHIFT));
        }
        if (hi && hi[j] != 0) {
            const int neg = dfs_d_split(hi[j], &m, &ex);
            REQUIRE(dfs_x_add(&e, !neg, (dfs_u128)m, ex + DFS_FPE_SHIFT));
        }
    }
    if (spill)
        for (int j = 0; j < DFS_X_WORDS; j++)
            ew[j] -= spill[j];
    return dfs_x_sign(&e);
}

/* fpe.h's expansion stays exact: after every product, the terms plus what was inserted so far
 * sum to the products' exact sum (an exact accumulator holds their difference: zero), unless
 * the thread spilled.  Products of wide and of equal exponents (FastTwoSum's ordering by the
 * encodings' high words: equal high words, one operand larger in its low word), subnormal
 * errors, exact cancellation, zeros; some streams spill (too wide for four terms), most not. */
START_TEST(fpe_exact)
{
    rng r = rng_seed(12);
    int streams = 0, spilled = 0;
    for (int it = 0; it < 4000; it++) {
        double t[4] = {0, 0, 0, 0};
        int64_t w[DFS_X_WORDS];
        dfs_xacc d;
        full_init(&d, w);
        const int n = 1 + below(&r, 60), mode = below(&r, 5);
        unsigned f = 0;
        for (int i = 0; i < n && !f; i++) {
            double x = unif_pm1(&r), y = unif_pm1(&r);
            if (mode == 0) { /* wide: products from 2^-960 to 2^960 */
                x = ldexp(x, below(&r, 960) - 480);
                y = ldexp(y, below(&r, 960) - 480);
            } else if (mode == 1) { /* one exponent, last bits apart: equal high words */
                x = 1.0 + (double)below(&r, 1 << 20) * 0x1p-52;
                y = below(&r, 2) ? -1.0 : 1.0;
            } else if (mode == 2) { /* products near 2^-960: errors subnormal */
                x = ldexp(x, -500);
                y = ldexp(y, -459);
            } else if (mode == 3 && i > 0 && below(&r, 2)) { /* zeros */
                x = 0.0;
            }
            f |= dfs_fpe_add_product(t, 4, x, y);
            if (f)
                break;
            REQUIRE(dfs_x_add_product(&d, x, y, 0));
            ck_assert_msg(residual_sign(&d, t, 4, NULL, NULL, 0, NULL) == 0,
                          "stream %d (mode %d), product %d: the terms %a %a "
                          "%a %a are not the exact sum", it, mode, i, t[0], t[1], t[2], t[3]);
        }
        streams++;
        spilled += (f & DFS_FPE_SPILL) != 0;
    }
    printf("repro: fpe exact: %d streams, %d spilled\n", streams, spilled);
    ck_assert_int_lt(spilled, streams / 2);
}
END_TEST

/* dfs_fpe_add_product3_rest (the DOT kernel's and warp_exact_products' step): the three
 * expansions (the side ones scaled back) plus the rests (scaled by their shift) and whole
 * products put into an accumulator beside them are exactly the sum of the products, after every
 * product and on every class: phi 8 (rests), products that underflow,
 * subnormal results, huge products (side expansions), products below 2^-2060 (whole), 1e+-300
 * mixed, zeros, Inf/NaN (flags, nothing inserted).  Fails if a rest is dropped (try: skip r2)
 * or shifted wrongly. */
START_TEST(fpe_rest_exact)
{
    rng r = rng_seed(13);
    int rests = 0, wholes = 0, products = 0, sides = 0, lo_rests = 0, hi_rests = 0;
    for (int it = 0; it < 3000; it++) {
        double t[4] = {0, 0, 0, 0}, lo[4] = {0, 0, 0, 0}, hi[4] = {0, 0, 0, 0};
        int64_t w[DFS_X_WORDS], sw[DFS_X_WORDS];
        dfs_xacc d, spill;
        full_init(&d, w);
        full_init(&spill, sw);
        const int n = 1 + below(&r, 200), mode = below(&r, 9);
        unsigned flags = 0, want_flags = 0;
        for (int i = 0; i < n; i++) {
            double x = unif_pm1(&r), y = unif_pm1(&r);
            if (mode == 0) { /* phi 8 */
                x = gen_phi(&r, 8.0);
                y = gen_phi(&r, 8.0);
            } else if (mode == 1) { /* products that underflow */
                x = ldexp(x, -530 - below(&r, 20));
                y = ldexp(y, -530 - below(&r, 20));
            } else if (mode == 2) { /* subnormal results, subnormal operands */
                x = ldexp(x, -1000);
                y = ldexp(y, below(&r, 2) ? -40 : -74);
            } else if (mode == 3) { /* huge products */
                x = ldexp(x, 500 + below(&r, 20));
                y = ldexp(y, 480);
            } else if (mode == 4) { /* 1e+-300 mixed, zero partners */
                x *= i % 8 ? 1e-300 : 1e300;
                y = i % 8 == 0 && below(&r, 2) ? 0.0 : y;
            } else if (mode == 7) { /* underflowing products over 600 binades: lo rests */
                x = ldexp(x, -480 - below(&r, 500));
                y = ldexp(y, -480 - below(&r, 100));
            } else if (mode == 8) { /* huge products over 400 binades: hi rests */
                x = ldexp(x, 480 + below(&r, 300));
                y = ldexp(y, 480 + below(&r, 100));
            } else if (mode == 6 && below(&r, 4) == 0) { /* products below 2^-2060 */
                x = ldexp(x, -1040);
                y = ldexp(y, -1030);
            } else if (mode == 5 && below(&r, 50) == 0) { /* Inf and NaN now and then */
                x = below(&r, 3) == 0 ? NAN : below(&r, 2) ? INFINITY : -INFINITY;
            }
            double r1, r2;
            int shift, whole;
            flags |= dfs_fpe_add_product3_rest(t, 4, lo, hi, 4, x, y, &r1, &r2, &shift, &whole);
            want_flags |= dfs_x_product_flags(x, y);
            products++;
            if (r1 != 0 || r2 != 0)
                rests++;
            sides += shift != 0;
            lo_rests += shift < 0 && (r1 != 0 || r2 != 0);
            hi_rests += shift > 0 && (r1 != 0 || r2 != 0);
            if (whole) {
                wholes++;
                REQUIRE(dfs_x_add_product(&spill, x, y, 0));
            }
            REQUIRE(dfs_x_add_double(&spill, r1, shift));
            REQUIRE(dfs_x_add_double(&spill, r2, shift));
            if (!dfs_x_product_flags(x, y))
                REQUIRE(dfs_x_add_product(&d, x, y, 0));
            /* exact - terms - spilled == 0 */
            ck_assert_msg(residual_sign(&d, t, 4, lo, hi, 4, sw) == 0, "stream %d (mode %d), product %d: the terms and "
                          "the spilled values are not the exact sum", it, mode, i);
        }
        ck_assert_uint_eq(flags, want_flags);
    }
    printf("repro: fpe rests: %d products, %d left rests (%d below, %d above the range), %d went "
           "whole, %d to a side\n", products, rests, lo_rests, hi_rests, wholes, sides);
    ck_assert_int_gt(rests, 0);  /* phi 8 leaves some */
    ck_assert_int_gt(wholes, 0); /* below 2^-2060 */
    ck_assert_int_gt(sides, 0);  /* underflowing, subnormal, huge */
    ck_assert_int_gt(lo_rests, 0);
    ck_assert_int_gt(hi_rests, 0);
}
END_TEST

/* dfs_fpe_add_product3 (DGEMV's first kernel): the terms, plus the lo terms times
 * 2^-DFS_FPE_SHIFT and the hi terms times 2^DFS_FPE_SHIFT, are exactly the sum of the products
 * after every product, on phi 8 with 6 terms, products that underflow, subnormal results, huge
 * and overflowing products, 1e+-300 mixed in one stream (both scaled classes at once): none of
 * them spills in streams of up to 300 products.  Fails if a class is scaled the wrong way or a
 * term dropped. */
START_TEST(fpe_three_classes_exact)
{
    rng r = rng_seed(14);
    int spilled = 0, streams = 0, used_lo = 0, used_hi = 0, mode_spills[6] = {0};
    for (int it = 0; it < 3000; it++) {
        double t[6] = {0}, lo[4] = {0}, hi[4] = {0};
        int64_t w[DFS_X_WORDS];
        dfs_xacc d;
        full_init(&d, w);
        const int n = 1 + below(&r, 300), mode = below(&r, 6);
        unsigned f = 0;
        for (int i = 0; i < n; i++) {
            double x = unif_pm1(&r), y = unif_pm1(&r);
            if (mode == 0) {
                x = gen_phi(&r, 8.0);
                y = gen_phi(&r, 8.0);
            } else if (mode == 1) { /* products that underflow: 1e-160 x 1e-160 and below */
                x = ldexp(x, -530 - below(&r, 20));
                y = ldexp(y, -530 - below(&r, 20));
            } else if (mode == 2) { /* subnormal results */
                x = ldexp(x, -1000);
                y = ldexp(y, -40);
            } else if (mode == 3) { /* huge and overflowing products (2^980 .. 2^1060) */
                x = ldexp(x, 1000 + below(&r, 24));
                y = ldexp(y, below(&r, 40) - 20);
            } else if (mode == 4) { /* 1e+-300 mixed with partners near 1: both classes */
                x *= i % 8 ? 1e-300 : 1e300;
            }
            f |= dfs_fpe_add_product3(t, 6, lo, hi, 4, x, y);
            if (f & DFS_FPE_SPILL)
                break;
            REQUIRE(dfs_x_add_product(&d, x, y, 0));
            ck_assert_msg(residual_sign(&d, t, 6, lo, hi, 4, NULL) == 0,
                          "stream %d (mode %d), product %d: the three "
                          "expansions are not the exact sum", it, mode, i);
        }
        streams++;
        spilled += (f & DFS_FPE_SPILL) != 0;
        mode_spills[mode] += (f & DFS_FPE_SPILL) != 0;
        used_lo += lo[0] != 0;
        used_hi += hi[0] != 0;
    }
    printf("repro: fpe three classes: %d streams, %d spilled (by class: %d %d %d %d %d %d), %d "
           "used lo, %d used hi\n", streams, spilled, mode_spills[0], mode_spills[1],
           mode_spills[2], mode_spills[3], mode_spills[4], mode_spills[5], used_lo, used_hi);
    fflush(stdout);
    ck_assert_int_eq(spilled, 0); /* none of these classes fills an expansion */
    ck_assert_int_gt(used_lo, 0);
    ck_assert_int_gt(used_hi, 0);
}
END_TEST

void repro_xacc_tests(TCase *t)
{
    tcase_add_test(t, reference_and_rounding_edges);
    tcase_add_test(t, xacc_random);
    tcase_add_test(t, xacc_window);
    tcase_add_test(t, combine_window);
    tcase_add_test(t, fpe_exact);
    tcase_add_test(t, fpe_rest_exact);
    tcase_add_test(t, fpe_three_classes_exact);
}
