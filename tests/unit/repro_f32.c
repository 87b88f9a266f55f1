/* repro_f32.c — the Ozaki scheme on binary32 products (engines/ozaki/f32split.h, host_f32.c;
 * issue 8), against exact references:
 *   f32_split: dfs_f32_top against frexp, dfs_f32_round_to against nearbyint; the slices of
 *     random rows are binary32 numbers, add up with the rest to the row exactly, and their
 *     products summed in binary32 in order and in reverse order both equal the exact sum;
 *   f32_bound: every output of dfs_oz_f32_gemm_host (2 and 3 splits, all ops, every data
 *     generator, k from 1 to 4096, rows scaled to 2^+-900, a row and a column spread over ~100
 *     binades each) within its own error bound of the correctly rounded product (MPFR), plus
 *     half an ulp;
 *   f32_gain: on the paper's data (uniform in [-5, 5]) at k = 4096 the largest relative error
 *     is at least 15 times (2 splits) and 500 times (3 splits) below binary32 GEMM's (binary32
 *     inputs, binary32 sums in the same order), as the paper measured. */
#include "repro_test.h"

#include "../../engines/ozaki/f32split.h"
#include "../common/gen.h"

START_TEST(f32_split)
{
    rng r = rng_seed(91);
    for (int i = 0; i < 20000; i++) {
        double x = ldexp(unif(&r) + 0.5, below(&r, 2100) - 1080);
        if (x == 0 || !isfinite(x))
            continue;
        int e;
        frexp(x, &e); /* 2^(e-1) <= x < 2^e */
        ck_assert_int_eq(dfs_f32_top(x), e);
        ck_assert_int_eq(dfs_f32_top(-x), e);
        const double y = unif_pm1(&r) * 1024;
        const int g = below(&r, 40) - 30;
        ck_assert(dfs_f32_round_to(y, g) == ldexp(nearbyint(ldexp(y, -g)), g));
    }
    static const int64_t ks[4] = {1, 100, 4096, 1 << 16};
    for (int ki = 0; ki < 4; ki++) {
        const int64_t k = ks[ki];
        const int p = dfs_f32_slice_bits(k);
        ck_assert(p >= 1 && (double)k * ldexp(1, 2 * p) <= 0x1p24);
        double *x = malloc((size_t)k * 8), *y = malloc((size_t)k * 8);
        double *P[2][2];
        for (int v = 0; v < 2; v++) {
            double *src = v ? y : x;
            for (int64_t q = 0; q < k; q++)
                src[q] = gen_phi(&r, 2);
            double mu = 0;
            for (int64_t q = 0; q < k; q++)
                mu = fmax(mu, fabs(src[q]));
            const int h = dfs_f32_headroom(k), e = dfs_f32_top(mu) - h;
            ck_assert((double)k * ldexp(1, 2 * h) <= 0x1p126);
            for (int64_t q = 0; q < k; q++)
                src[q] = ldexp(src[q], -e); /* in (-2^h, 2^h) */
            for (int s = 0; s < 2; s++)
                P[v][s] = malloc((size_t)k * 8);
            for (int64_t q = 0; q < k; q++) {
                double rest = src[q];
                for (int s = 0; s < 2; s++) {
                    P[v][s][q] = dfs_f32_round_to(rest, h - (s + 1) * p);
                    ck_assert((double)(float)P[v][s][q] == P[v][s][q]);
                    rest -= P[v][s][q];
                }
                ck_assert(P[v][0][q] + P[v][1][q] + rest == src[q]);
                ck_assert(fabs(rest) <= ldexp(1, h - 2 * p - 1));
            }
        }
        for (int s = 0; s < 2; s++)
            for (int t = 0; s + t < 2; t++) {
                double exact = 0;
                float fwd = 0, bwd = 0;
                for (int64_t q = 0; q < k; q++) {
                    exact += P[0][s][q] * P[1][t][q];
                    fwd = fmaf((float)P[0][s][q], (float)P[1][t][q], fwd);
                    bwd = fmaf((float)P[0][s][k - 1 - q], (float)P[1][t][k - 1 - q], bwd);
                }
                ck_assert_msg((double)fwd == exact && (double)bwd == exact,
                              "k %lld slices %d x %d: binary32 sums %a %a, exact %a", (long long)k,
                              s + 1, t + 1, (double)fwd, (double)bwd, exact);
            }
        for (int v = 0; v < 2; v++)
            for (int s = 0; s < 2; s++)
                free(P[v][s]);
        free(x), free(y);
    }
}
END_TEST

START_TEST(f32_bound)
{
    rng r = rng_seed(92);
    static const int64_t ks[5] = {1, 7, 64, 513, 4096};
    int checked = 0;
    double worst = 0;
    for (int g = 0; g < G_COUNT; g++) {
        if (g == G_SUBNORMAL) /* products that overflow: out of the model's scope */
            continue;
        for (int ki = 0; ki < 5; ki++)
            for (int S = 2; S <= 3; S++)
                for (int op = 0; op < 4; op++) {
                    const int64_t m = 5, n = 4, k = ks[ki];
                    const int ta = op & 1, tb = op >> 1;
                    const int64_t lda = ta ? k : m, ldb = tb ? n : k;
                    double *A = malloc((size_t)(m * k) * 8), *B = malloc((size_t)(k * n) * 8);
                    double C[20], C0[20], bound[20];
                    gen_fill(&r, g, A, m * k);
                    gen_fill(&r, g, B, k * n);
                    for (int64_t i = 0; i < m; i++) /* rows far apart in range */
                        for (int64_t q = 0; q < k; q++)
                            A[ta ? q + i * lda : i + q * lda] *= ldexp(1, (int)(i - 2) * 450);
                    /* wide rows: row 1 of op(A) and column 1 of op(B) spread over ~100 binades
                     * each (near the limit alone, computed in binary64 together) */
                    for (int64_t q = 0; q < k; q++) {
                        A[ta ? q + lda : 1 + q * lda] *= ldexp(1, -(int)(q % 4) * 33);
                        B[tb ? 1 + q * ldb : q + ldb] *= ldexp(1, -(int)(q % 5) * 26);
                    }
                    for (int i = 0; i < 20; i++)
                        C0[i] = C[i] = unif_pm1(&r);
                    const double alpha = 1.25, beta = (op & 2) ? 0.0 : 0.5;
                    dfs_oz_f32_gemm_host(ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, m, S,
                                         bound);
                    for (int64_t j = 0; j < n; j++)
                        for (int64_t i = 0; i < m; i++) {
                            const double ref = reference(k, ta ? A + i * lda : A + i,
                                                         ta ? 1 : lda, tb ? B + j : B + j * ldb,
                                                         tb ? ldb : 1, alpha, beta, C0[i + j * m]);
                            if (!isfinite(ref) || fabs(ref) > 0x1p1000)
                                continue;
                            const double got = C[i + j * m], err = fabs(got - ref);
                            const double allowed = bound[i + j * m] + 0x1p-53 * fabs(ref);
                            ck_assert_msg(err <= allowed, "%s k %lld splits %d op %d%d (%lld,%lld): "
                                          "%a, exact %a: error %.3g > bound %.3g", gen_label(g),
                                          (long long)k, S, ta, tb, (long long)i, (long long)j, got,
                                          ref, err, allowed);
                            if (allowed > 0)
                                worst = fmax(worst, err / allowed);
                            checked++;
                        }
                    free(A), free(B);
                }
    }
    printf("repro: f32 model: %d outputs within their bound (largest error %.3g of it)\n",
           checked, worst);
}
END_TEST

/* The largest relative errors of binary32 GEMM and of 2 and 3 splits over 8 x 8 outputs of
 * k = 4096 terms; data 0: uniform in [-5, 5], else phi = data. */
static void gain(int data, double *e_sg, double *e2, double *e3)
{
    const int64_t m = 8, n = 8, k = 4096;
    rng r = rng_seed(93 + (uint64_t)data);
    double *A = malloc((size_t)(m * k) * 8), *B = malloc((size_t)(k * n) * 8);
    for (int64_t i = 0; i < m * k; i++)
        A[i] = data ? gen_phi(&r, data) : 10 * unif(&r) - 5;
    for (int64_t i = 0; i < k * n; i++)
        B[i] = data ? gen_phi(&r, data) : 10 * unif(&r) - 5;
    double C2[64] = {0}, C3[64] = {0};
    dfs_oz_f32_gemm_host(0, 0, m, n, k, 1.0, A, m, B, k, 0.0, C2, m, 2, NULL);
    dfs_oz_f32_gemm_host(0, 0, m, n, k, 1.0, A, m, B, k, 0.0, C3, m, 3, NULL);
    *e_sg = *e2 = *e3 = 0;
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < m; i++) {
            const double ref = reference(k, A + i, m, B + j * k, 1, 1.0, 0.0, 0.0);
            float sg = 0;
            for (int64_t q = 0; q < k; q++)
                sg = fmaf((float)A[i + q * m], (float)B[q + j * k], sg);
            *e_sg = fmax(*e_sg, fabs((double)sg - ref) / fabs(ref));
            *e2 = fmax(*e2, fabs(C2[i + j * m] - ref) / fabs(ref));
            *e3 = fmax(*e3, fabs(C3[i + j * m] - ref) / fabs(ref));
        }
    free(A), free(B);
}

START_TEST(f32_gain)
{
    for (int data = 0; data <= 2; data++) {
        double e_sg, e2, e3;
        gain(data, &e_sg, &e2, &e3);
        printf("repro: f32 model, %s, k = 4096: largest relative error binary32 GEMM %.3g, "
               "2 splits %.3g (%.1fx), 3 splits %.3g (%.1fx)\n", data ? (data == 1 ? "phi 1" : "phi 2") : "U[-5,5]", e_sg,
               e2, e_sg / e2, e3, e_sg / e3);
        if (data == 0) { /* the paper's data: its gains at least */
            ck_assert_msg(e_sg / e2 >= 15, "2 splits only %.1fx better than binary32", e_sg / e2);
            ck_assert_msg(e_sg / e3 >= 500, "3 splits only %.1fx better than binary32",
                          e_sg / e3);
        }
    }
}
END_TEST

void repro_f32_tests(TCase *t)
{
    tcase_add_test(t, f32_split);
    tcase_add_test(t, f32_bound);
    tcase_add_test(t, f32_gain);
}
