/* df_gemm_accuracy.c — test_df's tests of the host DGEMM's accuracy against MPFR: input classes,
 * sizes, transposes, alpha and beta, empty problems, and the exponent range. */
#include "df_gemm_ref.h"

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
    printf("df: %-14s |", "class");
    for (int sc = 0; sc < DFS_DF_SCHEMES; sc++)
        printf(" %s c, c7, e1000, /b64%*s|", scheme_name[sc], 4, "");
    printf(" binary64 c64 = err/(k u64), e1000/u^2\n");
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
           "normwise error / u^2 MAD16 %.3f MAD15 %.3f MAD29 %.3f MAD12 %.3f (bound (3k+4) = %d for "
           "MAD29); %d overflow checks, %d bitwise scaling-invariance checks, %d entries with "
           "subnormal or zero result\n",
           worst[DFS_DF_MAD16] / U2, worst[DFS_DF_MAD15] / U2, worst[DFS_DF_MAD29] / U2,
           worst[DFS_DF_MAD12] / U2, 3 * (int)k + 4, n_inf, n_inv, n_sub);
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

void df_gemm_accuracy_tests(TCase *t)
{
    tcase_add_test(t, gemm_accuracy);
    tcase_add_test(t, gemm_alpha_beta);
    tcase_add_test(t, gemm_empty);
    tcase_add_test(t, gemm_range);
    tcase_add_test(t, gemm_overflow_edge);
}
