/* sgemm_f32.c — test_sgemm's tests of the ozaki-sgemm engine's CPU model: the Ozaki scheme on
 * binary32 products (engines/ozaki-sgemm/f32split.h, host_f32.c; issue 8), against exact
 * references:
 *   f32_split: dfs_f32_top against frexp, dfs_f32_round_to against nearbyint; the slices of
 *     random rows are binary32 numbers, add up with the rest to the row exactly, and their
 *     products summed in binary32 in order and in reverse order both equal the exact sum;
 *   f32_bound: every output of dfs_oz_f32_gemm_host (2 to 6 splits, all ops, every data
 *     generator, k from 1 to 4096, rows scaled to 2^+-900, a row and a column spread over ~100
 *     binades each) within its own error bound of the correctly rounded product (MPFR), plus
 *     half an ulp;
 *   f32_gain: at k = 4096 the largest |error| / sum |a b| at least 15 and 500 times (the
 *     paper's gains) below binary32 GEMM's (binary32 inputs and sums) with the splits each data
 *     needs: 2 and 3 on the paper's data (uniform in [-5, 5]) and phi 0, 3 and 4 at phi 1, 4
 *     and 5 at phi 2, 6 for 15 at phi 4 (tests/common/sgemm_gain.h). */
#include "ozfamily_test.h"

#include "../../engines/ozaki-sgemm/f32split.h"
#include "../../engines/ozaki-sgemm/host.h"
#include "../common/gen.h"
#include "../common/sgemm_gain.h"

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
            for (int S = 2; S <= DFS_F32_MAX_SPLITS; S++)
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
    printf("sgemm: f32 model: %d outputs within their bound (largest error %.3g of it)\n",
           checked, worst);
}
END_TEST

START_TEST(f32_gain)
{
    const int64_t m = 8, n = 8, k = 4096;
    double *A = malloc((size_t)(m * k) * 8), *B = malloc((size_t)(k * n) * 8), C[64];
    for (int d = 0; d < SG_COUNT; d++) {
        rng r = rng_seed(93 + (uint64_t)d);
        const double phi = sgemm_gain[d].phi;
        for (int64_t i = 0; i < m * k; i++)
            A[i] = phi < 0 ? 10 * unif(&r) - 5 : gen_phi(&r, phi);
        for (int64_t i = 0; i < k * n; i++)
            B[i] = phi < 0 ? 10 * unif(&r) - 5 : gen_phi(&r, phi);
        double ref[64], mag[64], e_sg = 0;
        for (int64_t j = 0; j < n; j++)
            for (int64_t i = 0; i < m; i++) {
                ref[i + j * m] = reference(k, A + i, m, B + j * k, 1, 1.0, 0.0, 0.0);
                float sg = 0;
                double ab = 0;
                for (int64_t q = 0; q < k; q++) {
                    sg = fmaf((float)A[i + q * m], (float)B[q + j * k], sg);
                    ab += fabs(A[i + q * m] * B[q + j * k]);
                }
                mag[i + j * m] = ab;
                e_sg = fmax(e_sg, fabs((double)sg - ref[i + j * m]) / ab);
            }
        printf("sgemm: f32 model, %s, k = 4096: largest |error| / sum |a b|: binary32 GEMM %.3g",
               sgemm_gain[d].name, e_sg);
        for (int S = 2; S <= DFS_F32_MAX_SPLITS; S++) {
            dfs_oz_f32_gemm_host(0, 0, m, n, k, 1.0, A, m, B, k, 0.0, C, m, S, NULL);
            double e = 0;
            for (int i = 0; i < 64; i++)
                e = fmax(e, fabs(C[i] - ref[i]) / mag[i]);
            const double g = e > 0 ? e_sg / e : INFINITY;
            printf(", %d splits %.3g (%.0fx)", S, e, g);
            const double want = sgemm_gain_wanted(d, S);
            ck_assert_msg(g >= want, "%s, %d splits: only %.1fx better than binary32 (want %g)",
                          sgemm_gain[d].name, S, g, want);
        }
        printf("\n");
    }
    free(A), free(B);
}
END_TEST

void sgemm_f32_tests(TCase *t)
{
    tcase_add_test(t, f32_split);
    tcase_add_test(t, f32_bound);
    tcase_add_test(t, f32_gain);
}
