/* bench-check.c — bench-check.h. */
#include "bench-check.h"

#include "bench-data.h"

#include "../include/reprohost.h"

#include <math.h>
#include <stdint.h>

static double rel_err(double c, double ref)
{
    if (c == ref)
        return 0.0;
    if (isnan(c) || isinf(ref))
        return isnan(c) ? c : INFINITY;
    return ref != 0 ? fabs(c - ref) / fabs(ref) : fabs(c - ref);
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
        const size_t i = all ? s % m : (size_t)(bench_splitmix64(&seed) % m);
        const size_t j = all ? s / m : (size_t)(bench_splitmix64(&seed) % n);
        /* row i of op(A) and column j of op(B), as 1 x k and k x 1 operands with the same
         * leading dimensions and transposes (with k = 0 nothing is read: the bases will do) */
        const double *a = k == 0 ? c->A : c->ta ? c->A + i * lda : c->A + i;
        const double *b = k == 0 ? c->B : c->tb ? c->B + j : c->B + j * ldb;
        const double c0 = c->beta != 0 ? c->C0[i + j * ldc] : 0.0;
        double ref = c0;
        repro_dgemm_host(c->ta ? 'T' : 'N', c->tb ? 'T' : 'N', 1, 1, (int64_t)k, c->alpha, a,
                         (int64_t)lda, b, (int64_t)ldb, c->beta, &ref, 1);
        const double got = c->C[i + j * ldc];
        const double err = rel_err(got, ref);
        if (err > worst || isnan(err)) /* a NaN stays: nothing is > NaN */
            worst = err;
        long double S = 0;
        for (size_t q = 0; q < k; q++)
            S += fabsl((long double)(c->ta ? a[q] : a[q * lda]) * (c->tb ? b[q * ldb] : b[q]));
        S = fabsl((long double)c->alpha) * S + fabsl((long double)c->beta * c0);
        const double dif = fabs(got - ref);
        const double nerr = dif == 0 ? 0.0 : S > 0 ? (double)(dif / S) : INFINITY;
        if (nerr > *norm || isnan(nerr))
            *norm = nerr;
    }
    return worst;
}
