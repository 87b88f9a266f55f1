/* df_gemm_special.c — test_df's tests of the host DGEMM's special cases: Inf and NaN, signed
 * zeros, the documented algorithm bit for bit, and the limit of row/column scaling. */
#include "df_gemm_ref.h"

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
    double ma = 0.0, mb = 0.0, na = INFINITY, nb = INFINITY; /* largest and smallest nonzero */
    for (int64_t p = 0; p < k; p++) {
        ma = fmax(ma, fabs(a[p * sa]));
        mb = fmax(mb, fabs(b[p]));
        if (a[p * sa] != 0.0)
            na = fmin(na, fabs(a[p * sa]));
        if (b[p] != 0.0)
            nb = fmin(nb, fabs(b[p]));
    }
    int ea = 0, eb = 0, fa = 0, fb = 0;
    if (ma > 0.0)
        frexp(ma, &ea), ea--;
    if (mb > 0.0)
        frexp(mb, &eb), eb--;
    if (na < INFINITY)
        frexp(na, &fa), fa--;
    if (nb < INFINITY)
        frexp(nb, &fb), fb--;
    int64_t kp = (k + DFS_DF_BK - 1) / DFS_DF_BK * DFS_DF_BK;
    dfs_df acc = dfs_df_make(0.0f, 0.0f);
    for (int64_t p = 0; p < kp; p++) {
        dfs_df x = dfs_df_from_double(p < k ? ldexp(a[p * sa], -ea) : 0.0);
        dfs_df y = dfs_df_from_double(p < k ? ldexp(b[p], -eb) : 0.0);
        acc = scheme == DFS_DF_MAD16   ? dfs_df_mad16(acc, x, y)
              : scheme == DFS_DF_MAD15 ? dfs_df_mad15(acc, x, y)
              : scheme == DFS_DF_MAD12 ? dfs_df_mad12(acc, x, y)
                                       : dfs_df_mad29(acc, x, y);
        if (scheme == DFS_DF_MAD12 && (p + 1) % DFS_DF_LAZY_B == 0)
            acc = dfs_df_renorm(acc);
    }
    /* spans adding up to more than 92 and a scaled sum below 2^-92: binary64, in order */
    const int span = (na < INFINITY ? ea - fa : 0) + (nb < INFINITY ? eb - fb : 0);
    if (span > 92 && fabsf(acc.hi) < 0x1p-92f) {
        double s = 0.0;
        for (int64_t p = 0; p < k; p++)
            s = fma(a[p * sa], b[p], s);
        return s;
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
     * falls into binary32's subnormals and rounds differently under any other power of two; with
     * the row's span of 110 and a scaled sum below 2^-92 the entry is then computed in binary64
     * (dfs_df_needs_binary64), which the documented algorithm says too. */
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

/* ---------------- what row/column scaling cannot do alone ---------------- */

/* op(A) row [1, (1 + 2^-25 + 2^-40) 2^-110] and op(B) column [x 2^-120, 1]: each is scaled by its
 * own maximum, so the lo of the second entry of the row, 2^-135 + 2^-150, falls into binary32's
 * subnormals and loses 2^-150, about 2^-40 of the products' sum |A||B| ~ 2^-110: far above the
 * bound in DF.  It takes an exponent spread above about 100 inside one row and one column, their
 * large entries facing small ones; such entries (spans adding up to more than 92, a scaled sum
 * below 2^-92) are computed in binary64, within the bound.  Also checked: the same row and
 * column with a third term 1 x 1 (the sum no longer small: DF), a sum of 2 cancelling to 2^-100
 * with a span of 100 (binary64), and one cancelling to 2^-40 with spans of 0 (DF). */
START_TEST(gemm_scaling_limit)
{
    static const struct {
        int k;
        double a[3], b[3];
        const char *what;
    } cases[] = {
        {2, {1.0, 0x1.0000008001000p-110}, {0x1.fedcba9876543p-120, 1.0}, "spans 110 + 120"},
        {3, {1.0, 0x1.0000008001000p-110, 1.0}, {0x1.fedcba9876543p-120, 1.0, 1.0},
         "the same and 1 x 1"},
        {3, {1.0, 1.0, 0x1p-100}, {1.0, -1.0, 0x1.8p0}, "spans 100 + 0, cancelling to 2^-100"},
        {2, {1.0, 0x1.0000000001p0}, {1.0, -1.0}, "spans 0 + 0, cancelling to 2^-40"},
    };
    wsg w;
    wsg_init(&w);
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        gcase g;
        gc_init(&g, 1, 1, cases[c].k);
        for (int p = 0; p < cases[c].k; p++) {
            g.A[p] = cases[c].a[p];
            g.B[p] = cases[c].b[p];
        }
        gc_reference(&g);
        for (int sc = 0; sc < DFS_DF_SCHEMES; sc++) {
            double out;
            int ok;
            run_gemm(sc, 0, 0, &g, 1.0, 0.0, NULL, 0, &out);
            double err = entry_err(&w, &g, 0, out, 1.0, 0.0, 0.0,
                                   gemm_bound(sc, cases[c].k, 1.0, 0.0), &ok);
            printf("df: scaling limit (%s), %s: normwise error %.3g = %.3g u^2\n", cases[c].what,
                   scheme_name[sc], err, err / U2);
            ck_assert_msg(isfinite(out) && ok, "df: scaling limit (%s), %s: error %.3g u^2 "
                          "outside the bound", cases[c].what, scheme_name[sc], err / U2);
        }
        gc_free(&g);
    }
    fflush(stdout);
    wsg_clear(&w);
}
END_TEST

void df_gemm_special_tests(TCase *t)
{
    tcase_add_test(t, gemm_special);
    tcase_add_test(t, gemm_zeros);
    tcase_add_test(t, gemm_matches_spec);
    tcase_add_test(t, gemm_scaling_limit);
}
