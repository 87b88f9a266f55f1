/* dd_complex.c — test_dd's test of the dd mode's CPU ZGEMM (engines/dd/zhost.c), part by part
 * against the reproducible engine's CPU ZGEMM (every part RN(exact); test_repro's repro_complex
 * holds it to MPFR):
 *   - phi 0 to 4 data, and tiny imaginary parts (2^-60 of the real ones) beside large real ones,
 *     ops N, T and C on both sides, complex alpha and beta, k = 1, 37 and 300: at least 99.9% of
 *     the parts equal RN(exact), none is more than 1 ulp off, and never more parts are wrong than
 *     with a plain binary64 FMA loop of the same order;
 *   - alpha = 0 or k = 0: A and B are not read (NaN there changes nothing); beta = 0: C is not read;
 *   - a NaN in a row of A makes both parts of that row's outputs NaN, the others stay exact. */
#include "../../engines/dd/host.h"
#include "../../engines/repro/host.h"

#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/gen.h"

enum { ZM = 7, ZN = 5, ZK = 300 };

typedef struct {
    long parts, wrong, native_wrong, far;
} ztally;

/* The plain binary64 result of one output: FMAs in dd's order, then alpha and beta as
 * dfs_dd_finish_plain_z does. */
static void plain_output(int ta, int tb, int64_t k, const double al[2], const double *A,
                         const double *B, const double be[2], const double *c, int64_t i,
                         int64_t j, double out[2])
{
    double pr = 0, pi = 0;
    for (int64_t q = 0; q < k; q++) {
        const double *a = ta ? A + 2 * (q + i * ZK) : A + 2 * (i + q * ZM);
        const double *b = tb ? B + 2 * (j + q * ZN) : B + 2 * (q + j * ZK);
        const double ar = a[0], ai = ta == 2 ? -a[1] : a[1];
        const double br = b[0], bi = tb == 2 ? -b[1] : b[1];
        pr = fma(-ai, bi, fma(ar, br, pr));
        pi = fma(ai, br, fma(ar, bi, pi));
    }
    out[0] = al[0] * pr + -al[1] * pi + be[0] * c[0] + -be[1] * c[1];
    out[1] = al[0] * pi + al[1] * pr + be[0] * c[1] + be[1] * c[0];
}

/* got against RN (want), and native's part beside it. */
static void tally_part(ztally *t, double got, double want, double nat)
{
    t->parts++;
    if (got != want) {
        t->wrong++;
        if (nextafter(want, INFINITY) != got && nextafter(want, -INFINITY) != got)
            t->far++;
    }
    t->native_wrong += nat != want;
}

START_TEST(dd_zgemm)
{
    rng r = rng_seed(2811);
    const int gens[] = {G_PHI0, G_PHI1, G_PHI2, G_PHI4, -1}; /* -1: tiny imaginary parts */
    const double scal[][4] = {{1, 0, 0, 0}, {0.5, -2, 1.5, 0.25}, {-1, 0.75, 0, 1}};
    const int64_t ks[] = {1, 37, ZK};
    double *A = malloc(2 * sizeof(double) * ZM * ZK), *B = malloc(2 * sizeof(double) * ZK * ZN);
    double C0[2 * ZM * ZN], Cd[2 * ZM * ZN], Cr[2 * ZM * ZN];
    ck_assert(A && B);
    for (size_t g = 0; g < sizeof gens / sizeof gens[0]; g++) {
        ztally t = {0, 0, 0, 0};
        for (int64_t i = 0; i < ZM * ZK; i++) {
            A[2 * i] = gens[g] < 0 ? gen_phi(&r, 1) : gen_value(&r, gens[g]);
            A[2 * i + 1] = gens[g] < 0 ? A[2 * i] * 0x1p-60 * gen_phi(&r, 0)
                                       : gen_value(&r, gens[g]);
        }
        for (int64_t i = 0; i < ZK * ZN; i++) {
            B[2 * i] = gens[g] < 0 ? gen_phi(&r, 1) : gen_value(&r, gens[g]);
            B[2 * i + 1] = gens[g] < 0 ? B[2 * i] * 0x1p-70 * gen_phi(&r, 0)
                                       : gen_value(&r, gens[g]);
        }
        for (int i = 0; i < 2 * ZM * ZN; i++)
            C0[i] = gens[g] < 0 ? gen_phi(&r, 1) : gen_value(&r, gens[g]);
        for (int ta = 0; ta < 3; ta++)
            for (int tb = 0; tb < 3; tb++)
                for (size_t s = 0; s < sizeof scal / sizeof scal[0]; s++)
                    for (size_t kk = 0; kk < sizeof ks / sizeof ks[0]; kk++) {
                        const int64_t k = ks[kk];
                        const int64_t lda = ta ? ZK : ZM, ldb = tb ? ZN : ZK;
                        const double al[2] = {scal[s][0], scal[s][1]};
                        const double be[2] = {scal[s][2], scal[s][3]};
                        memcpy(Cd, C0, sizeof Cd);
                        memcpy(Cr, C0, sizeof Cr);
                        dfs_dd_zgemm_host(ta, tb, ZM, ZN, k, al, A, lda, B, ldb, be, Cd, ZM);
                        ck_assert(dfs_repro_zgemm_host(ta, tb, ZM, ZN, k, al, A, lda, B, ldb, be,
                                                       Cr, ZM) == 0);
                        for (int64_t j = 0; j < ZN; j++)
                            for (int64_t i = 0; i < ZM; i++) {
                                double nat[2];
                                plain_output(ta, tb, k, al, A, B, be, C0 + 2 * (i + j * ZM), i,
                                             j, nat);
                                for (int p = 0; p < 2; p++)
                                    tally_part(&t, Cd[2 * (i + j * ZM) + p],
                                               Cr[2 * (i + j * ZM) + p], nat[p]);
                            }
                    }
        ck_assert_msg(t.wrong * 1000 <= t.parts, "%s: %ld of %ld parts not RN",
                      gens[g] < 0 ? "tiny imaginary" : gen_label(gens[g]), t.wrong, t.parts);
        ck_assert_msg(t.far == 0, "%ld parts more than 1 ulp off", t.far);
        ck_assert(t.wrong <= t.native_wrong);
        printf("dd: ZGEMM (CPU) on %s data: %ld parts (ops NN..CC, k 1, 37, 300), %ld not "
               "correctly rounded (native FMA loop: %ld)\n",
               gens[g] < 0 ? "tiny-imaginary" : gen_label(gens[g]), t.parts, t.wrong,
               t.native_wrong);
    }
    /* what is not read must not matter: A and B with alpha = 0 or k = 0, C with beta = 0 */
    for (int64_t i = 0; i < 2 * ZM * ZK; i++)
        A[i] = NAN;
    const double zero[2] = {0, 0}, one[2] = {1, 0}, two[2] = {2, -1};
    for (int i = 0; i < 2 * ZM * ZN; i++)
        Cd[i] = C0[i] = i + 0.5;
    dfs_dd_zgemm_host(0, 0, ZM, ZN, ZK, zero, A, ZM, B, ZK, two, Cd, ZM);
    for (int i = 0; i < ZM * ZN; i++) {
        ck_assert(Cd[2 * i] == 2 * C0[2 * i] + C0[2 * i + 1]);
        ck_assert(Cd[2 * i + 1] == 2 * C0[2 * i + 1] - C0[2 * i]);
    }
    memcpy(Cd, C0, sizeof Cd);
    dfs_dd_zgemm_host(0, 0, ZM, ZN, 0, one, A, ZM, B, ZK, one, Cd, ZM);
    ck_assert(memcmp(Cd, C0, sizeof Cd) == 0);
    /* a NaN in row 2 of A (k = 3, exact data): row 2's parts NaN, the others exact; C not read */
    double sA[2 * 3 * 3], sB[2 * 3 * 2], sC[2 * 3 * 2];
    for (int i = 0; i < 18; i++)
        sA[i] = i % 5 - 2;
    for (int i = 0; i < 12; i++)
        sB[i] = i % 3 - 1, sC[i] = NAN;
    sA[2 * (2 + 1 * 3)] = NAN;
    dfs_dd_zgemm_host(0, 0, 3, 2, 3, one, sA, 3, sB, 3, zero, sC, 3);
    for (int j = 0; j < 2; j++)
        for (int i = 0; i < 3; i++) {
            double re = 0, im = 0;
            for (int q = 0; q < 3; q++) {
                const double *a = sA + 2 * (i + q * 3), *b = sB + 2 * (q + j * 3);
                re += a[0] * b[0] - a[1] * b[1];
                im += a[0] * b[1] + a[1] * b[0];
            }
            const double *c = sC + 2 * (i + j * 3);
            if (i == 2)
                ck_assert(isnan(c[0]) && isnan(c[1]));
            else
                ck_assert(c[0] == re && c[1] == im);
        }
    free(A);
    free(B);
    fflush(stdout);
}
END_TEST

void dd_complex_tests(TCase *t)
{
    tcase_add_test(t, dd_zgemm);
}
