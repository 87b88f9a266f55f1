/* bench-check.c — bench-check.h. */
#include "bench-check.h"

#include "bench-data.h"

#include "../include/reprohost.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static double rel_err(double c, double ref)
{
    if (c == ref)
        return 0.0;
    if (isnan(c) || isinf(ref))
        return isnan(c) ? c : INFINITY;
    return ref != 0 ? fabs(c - ref) / fabs(ref) : fabs(c - ref);
}

/* Sample s of count: entry (i, j) (every entry once when all). */
static void sample(const dfs_bench_check *c, int all, size_t s, uint64_t *seed, size_t *i,
                   size_t *j)
{
    *i = all ? s % c->m : (size_t)(bench_splitmix64(seed) % c->m);
    *j = all ? s / c->m : (size_t)(bench_splitmix64(seed) % c->n);
}

/* Keeps the larger error in *worst (a NaN stays: nothing is > NaN). */
static void keep(double *worst, double err)
{
    if (err > *worst || isnan(err))
        *worst = err;
}

/* The normwise error of got against ref, with S the sum of the absolute values of the terms. */
static double norm_err(double got, double ref, long double S)
{
    const double dif = fabs(got - ref);
    return dif == 0 ? 0.0 : S > 0 ? (double)(dif / S) : INFINITY;
}

double dfs_bench_check_gemm(const dfs_bench_check *c, double *norm)
{
    *norm = 0.0;
    const size_t m = c->m, n = c->n, k = c->k, lda = c->lda, ldb = c->ldb, ldc = c->ldc;
    if (m == 0 || n == 0)
        return 0.0;
    const int all = (uint64_t)c->samples >= (uint64_t)m * n;
    const size_t count = all ? m * n : c->samples;
    uint64_t seed = 0x13198a2e03707344ULL; /* the sample's own, fixed */
    double worst = 0.0;
    for (size_t s = 0; s < count; s++) {
        size_t i, j;
        sample(c, all, s, &seed, &i, &j);
        /* row i of op(A) and column j of op(B), as 1 x k and k x 1 operands with the same
         * leading dimensions and transposes (with k = 0 nothing is read: the bases will do) */
        const double *a = k == 0 ? c->A : c->ta ? c->A + i * lda : c->A + i;
        const double *b = k == 0 ? c->B : c->tb ? c->B + j : c->B + j * ldb;
        const double c0 = c->beta != 0 ? c->C0[i + j * ldc] : 0.0;
        double ref = c0;
        repro_dgemm_host(c->ta ? 'T' : 'N', c->tb ? 'T' : 'N', 1, 1, (int64_t)k, c->alpha, a,
                         (int64_t)lda, b, (int64_t)ldb, c->beta, &ref, 1);
        const double got = c->C[i + j * ldc];
        keep(&worst, rel_err(got, ref));
        long double S = 0;
        for (size_t q = 0; q < k; q++)
            S += fabsl((long double)(c->ta ? a[q] : a[q * lda]) * (c->tb ? b[q * ldb] : b[q]));
        S = fabsl((long double)c->alpha) * S + fabsl((long double)c->beta * c0);
        keep(norm, norm_err(got, ref, S));
    }
    return worst;
}

/* Element (r, q) of op(X), X complex (two doubles an element) with leading dimension ld; op 0,
 * 1, 2 for N, T, C. */
static void z_elem(const double *X, int64_t ld, int op, int64_t r, int64_t q, double *re,
                   double *im)
{
    const double *p = op ? X + 2 * (q + r * ld) : X + 2 * (r + q * ld);
    *re = p[0];
    *im = op == 2 ? -p[1] : p[1];
}

double dfs_bench_check_zgemm(const dfs_bench_check *c, double *norm)
{
    *norm = 0.0;
    const size_t m = c->m, n = c->n, k = c->k, lda = c->lda, ldb = c->ldb, ldc = c->ldc;
    if (m == 0 || n == 0)
        return 0.0;
    const int all = (uint64_t)c->samples >= (uint64_t)m * n;
    const size_t count = all ? m * n : c->samples;
    uint64_t seed = 0x13198a2e03707344ULL; /* the sample's own, fixed: dgemm's entries */
    const double alpha[2] = {c->alpha, c->alpha_im}, beta[2] = {c->beta, c->beta_im};
    const int read_c = beta[0] != 0 || beta[1] != 0;
    double worst = 0.0;
    for (size_t s = 0; s < count; s++) {
        size_t i, j;
        sample(c, all, s, &seed, &i, &j);
        /* row i of op(A) and column j of op(B) as 1 x k and k x 1 operands (complex elements:
         * two doubles each; with k = 0 nothing is read) */
        const double *a = k == 0 ? c->A : c->ta ? c->A + 2 * i * lda : c->A + 2 * i;
        const double *b = k == 0 ? c->B : c->tb ? c->B + 2 * j : c->B + 2 * j * ldb;
        const double *c0p = read_c ? c->C0 + 2 * (i + j * ldc) : NULL;
        const double c0[2] = {c0p ? c0p[0] : 0.0, c0p ? c0p[1] : 0.0};
        double ref[2] = {c0[0], c0[1]};
        static const char opc[3] = {'N', 'T', 'C'};
        if (repro_zgemm_host(opc[c->ta], opc[c->tb], 1, 1, (int64_t)k, alpha, a, (int64_t)lda, b,
                             (int64_t)ldb, beta, ref, 1)) {
            fprintf(stderr, "exblas-bench: out of host memory for --check\n");
            exit(1);
        }
        const double *got = c->C + 2 * (i + j * ldc);
        keep(&worst, rel_err(got[0], ref[0]));
        keep(&worst, rel_err(got[1], ref[1]));
        /* Pr: the real part's products |ar br| + |ai bi|, Pi: the imaginary part's */
        long double Pr = 0, Pi = 0;
        for (size_t q = 0; q < k; q++) {
            double ar, ai, br, bi;
            z_elem(a, (int64_t)lda, c->ta, 0, (int64_t)q, &ar, &ai);
            z_elem(b, (int64_t)ldb, c->tb, (int64_t)q, 0, &br, &bi);
            Pr += fabsl((long double)ar * br) + fabsl((long double)ai * bi);
            Pi += fabsl((long double)ar * bi) + fabsl((long double)ai * br);
        }
        const long double aR = fabsl((long double)alpha[0]), aI = fabsl((long double)alpha[1]);
        const long double Sr = aR * Pr + aI * Pi + fabsl((long double)beta[0] * c0[0]) +
                               fabsl((long double)beta[1] * c0[1]);
        const long double Si = aR * Pi + aI * Pr + fabsl((long double)beta[0] * c0[1]) +
                               fabsl((long double)beta[1] * c0[0]);
        keep(norm, norm_err(got[0], ref[0], Sr));
        keep(norm, norm_err(got[1], ref[1], Si));
    }
    return worst;
}
