/* host.c — the dd mode on the CPU (host.h), step for step the kernels' order (dd_steps.h).
 * Compiled with -ffp-contract=off. */
#include "host.h"

#include "dd_steps.h"

#include <stdlib.h>

static const double *vec_base(const double *x, int64_t n, int64_t inc)
{
    return inc < 0 ? x + (n - 1) * -inc : x;
}

/* The sum of terms q in [q0, q1) of a (stride sa) times b (stride sb) by `lanes` lanes and the
 * tree (dd_steps.h); lane[] holds lanes accumulators. */
static dfs_dda chunk_sum(int64_t q0, int64_t q1, int lanes, const double *a, int64_t sa,
                         const double *b, int64_t sb, dfs_dda *lane)
{
    for (int l = 0; l < lanes; l++) {
        dfs_dda acc = dfs_dda_zero();
        for (int64_t q = q0 + l; q < q1; q += lanes)
            acc = dfs_dda_mad(acc, a[q * sa], b[q * sb]);
        lane[l] = acc;
    }
    for (int s = lanes / 2; s >= 1; s /= 2)
        for (int l = 0; l < s; l++)
            lane[l] = dfs_dda_merge(lane[l], lane[l + s]);
    return lane[0];
}

/* The chunks' sums parts[0 .. n) merged by `lanes` lanes and the tree (dd_steps.h); lane[]
 * holds lanes accumulators. */
static dfs_dda merge_chunks(const dfs_dda *parts, int64_t n, int lanes, dfs_dda *lane)
{
    for (int t = 0; t < lanes; t++) {
        lane[t] = dfs_dda_zero();
        for (int64_t c = t; c < n; c += lanes)
            lane[t] = dfs_dda_merge(lane[t], parts[c]);
    }
    for (int s = lanes / 2; s >= 1; s /= 2)
        for (int l = 0; l < s; l++)
            lane[l] = dfs_dda_merge(lane[l], lane[l + s]);
    return lane[0];
}

static double finish(dfs_dda t, double alpha, double beta, double c)
{
    double r;
    if (!dfs_dd_finish(t.s, alpha, beta, c, &r))
        r = dfs_dd_finish_plain(t.p, alpha, beta, c);
    return r;
}

double dfs_dd_dot_host(int64_t n, const double *x, int64_t incx, const double *y, int64_t incy)
{
    if (n <= 0)
        return 0.0;
    const double *xb = vec_base(x, n, incx), *yb = vec_base(y, n, incy);
    const dfs_dd_plan p = dfs_dd_dot_plan(n);
    dfs_dda lane[DFS_DD_DOT_LANES];
    dfs_dda *parts = malloc((size_t)p.nchunks * sizeof *parts);
    if (!parts)
        return 0.0 / 0.0; /* the tests' CPU side: out of memory shows as a NaN */
    for (int64_t c = 0; c < p.nchunks; c++) {
        const int64_t q1 = (c + 1) * p.chunk < n ? (c + 1) * p.chunk : n;
        parts[c] = chunk_sum(c * p.chunk, q1, p.lanes, xb, incx, yb, incy, lane);
    }
    const dfs_dda t = merge_chunks(parts, p.nchunks, DFS_DD_DOT_LANES, lane);
    free(parts);
    return finish(t, 1.0, 0.0, 0.0);
}

void dfs_dd_gemv_host(int trans, int64_t m, int64_t n, double alpha, const double *A, int64_t lda,
                      const double *x, int64_t incx, double beta, double *y, int64_t incy)
{
    if (m <= 0 || n <= 0)
        return;
    const int64_t rows = trans ? n : m, K = trans ? m : n;
    const double *xb = vec_base(x, K, incx);
    double *yb = (double *)vec_base(y, rows, incy);
    const dfs_dd_plan p = dfs_dd_gemv_plan(trans, m, n);
    dfs_dda lane[32], *parts = malloc((size_t)p.nchunks * sizeof *parts);
    if (!parts) { /* the tests' CPU side: out of memory shows as NaNs */
        for (int64_t i = 0; i < rows; i++)
            yb[i * incy] = 0.0 / 0.0;
        return;
    }
    for (int64_t i = 0; i < rows; i++) {
        double *yi = yb + i * incy;
        dfs_dda t = dfs_dda_zero();
        if (alpha != 0.0) {
            for (int64_t c = 0; c < p.nchunks; c++) {
                const int64_t q1 = (c + 1) * p.chunk < K ? (c + 1) * p.chunk : K;
                parts[c] = chunk_sum(c * p.chunk, q1, p.lanes, trans ? A + i * lda : A + i,
                                     trans ? 1 : lda, xb, incx, lane);
            }
            t = p.nchunks == 1 ? dfs_dda_merge(t, parts[0])
                               : merge_chunks(parts, p.nchunks, DFS_DD_GEMV_MERGE_LANES, lane);
        }
        *yi = finish(t, alpha, beta, beta != 0.0 ? *yi : 0.0);
    }
    free(parts);
}

void dfs_dd_gemm_host(int transa, int transb, int64_t m, int64_t n, int64_t k, double alpha,
                      const double *A, int64_t lda, const double *B, int64_t ldb, double beta,
                      double *C, int64_t ldc)
{
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < m; i++) {
            double *c = &C[i + j * ldc];
            /* row i of op(A), column j of op(B), as strided vectors */
            const double *a = transa ? A + i * lda : A + i, *b = transb ? B + j : B + j * ldb;
            const int64_t sa = transa ? 1 : lda, sb = transb ? ldb : 1;
            const double cv = beta != 0.0 ? *c : 0.0;
            dfs_dd s = dfs_dd_make(0.0, 0.0);
            if (alpha != 0.0)
                for (int64_t q = 0; q < k; q++)
                    s = dfs_dd_mad_d(s, a[q * sa], b[q * sb]);
            double r;
            if (!dfs_dd_finish(s, alpha, beta, cv, &r)) {
                double p = 0.0;
                if (alpha != 0.0)
                    for (int64_t q = 0; q < k; q++)
                        p = dfs_d_fma(a[q * sa], b[q * sb], p);
                r = dfs_dd_finish_plain(p, alpha, beta, cv);
            }
            *c = r;
        }
}
