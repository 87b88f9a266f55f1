/* ddblas_host.c — libddblas's CPU implementation (include/ddblas.h's ddblas_*_host, ddblas_get and
 * ddblas_set): step for step the kernels' arithmetic and order (ddx_steps.h, dd_steps.h), so that
 * the results are the GPU's bits.  Host memory only.  Compiled with -ffp-contract=off.
 *
 * The argument rules are ddblas_args.h's, shared with the GPU entry points (ddblas.c): an
 * invalid call returns DDBLAS_INVALID_VALUE before anything is read or written.  Then, out of
 * memory for the chunks' partial sums (DOT, GEMV) gives DDBLAS_ALLOC_FAILED, also before
 * anything is written.  alpha == 0 (both words zero; a NaN is not zero): A, B, x not read;
 * beta == 0: y, C not read. */
#include "ddblas_args.h"

#include "ddx_steps.h"

#include <stdlib.h>

#define DDBLAS_API __attribute__((visibility("default")))

/* ---------- element access ---------- */

static dfs_dd dd_of(ddblas_dd a)
{
    return dfs_dd_make(a.hi, a.lo);
}

static dfs_dd load(ddblas_array a, int64_t i)
{
    return dfs_ddx_load((int)a.fmt, a.hi, a.lo, i);
}

static void store(ddblas_array a, int64_t i, dfs_dd v)
{
    dfs_ddx_store((int)a.fmt, a.hi, a.lo, i, v);
}

/* Index of element 0 of a strided vector of n elements (BLAS: a negative increment walks it from
 * the end, element i at base + i * inc). */
static int64_t vec_base(int64_t n, int64_t inc)
{
    return inc < 0 ? (n - 1) * -inc : 0;
}

/* A strided vector of the sum: element q at a[base + q * stride]. */
typedef struct {
    ddblas_array a;
    int64_t base, stride;
} strided;

static dfs_dd term(strided v, int64_t q)
{
    return load(v.a, v.base + q * v.stride);
}

/* ---------- the summation order (dd_steps.h) ---------- */

/* The lanes' tree: for s = lanes/2 .. 1, lane l < s takes merge(lane l, lane l + s). */
static dfs_dda tree(dfs_dda *lane, int lanes)
{
    for (int s = lanes / 2; s >= 1; s /= 2)
        for (int l = 0; l < s; l++)
            lane[l] = dfs_dda_merge(lane[l], lane[l + s]);
    return lane[0];
}

/* The sum of terms q in [q0, q1) of a times b by `lanes` lanes, lane l over l, l + lanes, ...
 * from zero (dfs_ddx_mad), then the lanes' tree; lane[] holds lanes accumulators. */
static dfs_dda chunk_sum(int64_t q0, int64_t q1, int lanes, strided a, strided b, dfs_dda *lane)
{
    for (int l = 0; l < lanes; l++) {
        dfs_dda acc = dfs_dda_zero();
        for (int64_t q = q0 + l; q < q1; q += lanes)
            acc = dfs_ddx_mad(acc, term(a, q), term(b, q));
        lane[l] = acc;
    }
    return tree(lane, lanes);
}

/* The chunks' sums parts[0 .. n) merged by `lanes` lanes (lane t: chunks t, t + lanes, ... into
 * zero in order) and the lanes' tree. */
static dfs_dda merge_chunks(const dfs_dda *parts, int64_t n, int lanes, dfs_dda *lane)
{
    for (int t = 0; t < lanes; t++) {
        lane[t] = dfs_dda_zero();
        for (int64_t c = t; c < n; c += lanes)
            lane[t] = dfs_dda_merge(lane[t], parts[c]);
    }
    return tree(lane, lanes);
}

/* The sums of the chunks of K terms into parts[] (plan p). */
static void chunk_sums(dfs_dd_plan p, int64_t K, strided a, strided b, dfs_dda *parts,
                       dfs_dda *lane)
{
    for (int64_t c = 0; c < p.nchunks; c++) {
        const int64_t q1 = (c + 1) * p.chunk < K ? (c + 1) * p.chunk : K;
        parts[c] = chunk_sum(c * p.chunk, q1, p.lanes, a, b, lane);
    }
}

/* ---------- the routines ---------- */

DDBLAS_API ddblas_status ddblas_axpy_host(int64_t n, ddblas_dd alpha, ddblas_array x,
                                          int64_t incx, ddblas_array y, int64_t incy)
{
    if (!ddblas_axpy_ok(n, alpha, x, incx, y, incy))
        return DDBLAS_INVALID_VALUE;
    if (n == 0 || ddblas_is_zero(alpha))
        return DDBLAS_SUCCESS;
    const int64_t xb = vec_base(n, incx), yb = vec_base(n, incy);
    const dfs_dd a = dd_of(alpha);
    for (int64_t i = 0; i < n; i++) {
        const int64_t yi = yb + i * incy;
        store(y, yi, dfs_ddx_axpy(a, load(x, xb + i * incx), load(y, yi)));
    }
    return DDBLAS_SUCCESS;
}

DDBLAS_API ddblas_status ddblas_dot_host(int64_t n, ddblas_array x, int64_t incx, ddblas_array y,
                                         int64_t incy, ddblas_dd *result)
{
    if (!ddblas_dot_ok(n, x, incx, y, incy, result))
        return DDBLAS_INVALID_VALUE;
    if (n == 0) {
        result->hi = result->lo = 0.0;
        return DDBLAS_SUCCESS;
    }
    const dfs_dd_plan p = dfs_dd_dot_plan(n);
    dfs_dda lane[DFS_DD_DOT_LANES];
    dfs_dda *parts = malloc((size_t)p.nchunks * sizeof *parts);
    if (!parts)
        return DDBLAS_ALLOC_FAILED;
    const strided xs = {x, vec_base(n, incx), incx}, ys = {y, vec_base(n, incy), incy};
    chunk_sums(p, n, xs, ys, parts, lane);
    const dfs_dd r = dfs_ddx_sum(merge_chunks(parts, p.nchunks, DFS_DD_DOT_LANES, lane));
    free(parts);
    result->hi = r.hi;
    result->lo = r.lo;
    return DDBLAS_SUCCESS;
}

DDBLAS_API ddblas_status ddblas_gemv_host(char trans, int64_t m, int64_t n, ddblas_dd alpha,
                                          ddblas_array A, int64_t lda, ddblas_array x,
                                          int64_t incx, ddblas_dd beta, ddblas_array y,
                                          int64_t incy)
{
    int op;
    if (!ddblas_gemv_ok(trans, &op, m, n, alpha, A, lda, x, incx, y, incy))
        return DDBLAS_INVALID_VALUE;
    if (m == 0 || n == 0)
        return DDBLAS_SUCCESS; /* BLAS's quick return: y is not scaled either */
    const int in = !ddblas_is_zero(alpha); /* A and x read */
    const int64_t rows = op ? n : m, K = op ? m : n;
    const dfs_dd_plan p = dfs_dd_gemv_plan(op, m, n);
    dfs_dda lane[DFS_DD_GEMV_MERGE_LANES], *parts = NULL;
    if (in && !(parts = malloc((size_t)p.nchunks * sizeof *parts)))
        return DDBLAS_ALLOC_FAILED;
    const dfs_dd al = dd_of(alpha), be = dd_of(beta);
    const int64_t yb = vec_base(rows, incy);
    const strided xs = {x, vec_base(K, incx), incx};
    for (int64_t i = 0; i < rows; i++) {
        dfs_dda t = dfs_dda_zero();
        if (in) { /* row i of A (op N) or its column i (op T) */
            const strided as = {A, op ? i * lda : i, op ? 1 : lda};
            chunk_sums(p, K, as, xs, parts, lane);
            t = p.nchunks == 1 ? dfs_dda_merge(t, parts[0])
                               : merge_chunks(parts, p.nchunks, DFS_DD_GEMV_MERGE_LANES, lane);
        }
        const int64_t yi = yb + i * incy;
        const dfs_dd c = ddblas_is_zero(beta) ? dfs_dd_make(0.0, 0.0) : load(y, yi);
        store(y, yi, dfs_ddx_result(t, al, be, c));
    }
    free(parts);
    return DDBLAS_SUCCESS;
}

DDBLAS_API ddblas_status ddblas_gemm_host(ddblas_scheme scheme, char transa, char transb,
                                          int64_t m, int64_t n, int64_t k, ddblas_dd alpha,
                                          ddblas_array A, int64_t lda, ddblas_array B,
                                          int64_t ldb, ddblas_dd beta, ddblas_array C,
                                          int64_t ldc)
{
    int ta, tb;
    if (!ddblas_gemm_ok(scheme, transa, transb, &ta, &tb, m, n, k, alpha, A, lda, B, ldb, C, ldc))
        return DDBLAS_INVALID_VALUE;
    const int in = k > 0 && !ddblas_is_zero(alpha); /* A and B read */
    /* k = 0: C = beta C, alpha not used (as BLAS) */
    const dfs_dd al = k > 0 ? dd_of(alpha) : dfs_dd_make(0.0, 0.0), be = dd_of(beta);
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < m; i++) {
            /* row i of op(A), column j of op(B) */
            const strided a = {A, ta ? i * lda : i, ta ? 1 : lda};
            const strided b = {B, tb ? j : j * ldb, tb ? ldb : 1};
            const int64_t ci = i + j * ldc;
            const dfs_dd c = ddblas_is_zero(beta) ? dfs_dd_make(0.0, 0.0) : load(C, ci);
            dfs_dd s = dfs_dd_make(0.0, 0.0), r;
            for (int64_t q = 0; in && q < k; q++)
                s = scheme == DDBLAS_PAPER
                        ? dfs_dd_mad(s, term(a, q), term(b, q))
                        : dfs_dd_add_accurate(s, dfs_dd_mul_accurate(term(a, q), term(b, q)));
            if (!dfs_ddx_finish(s, al, be, c, &r)) { /* not finite: the plain sum decides */
                double p = 0.0;
                for (int64_t q = 0; in && q < k; q++)
                    p = dfs_d_fma(term(a, q).hi, term(b, q).hi, p);
                r = dfs_ddx_finish_plain(p, al, be, c);
            }
            store(C, ci, r);
        }
    return DDBLAS_SUCCESS;
}

DDBLAS_API ddblas_status ddblas_convert_host(int64_t n, ddblas_array src, int64_t incs,
                                             ddblas_array dst, int64_t incd)
{
    if (!ddblas_convert_ok(n, src, incs, dst, incd))
        return DDBLAS_INVALID_VALUE;
    const int64_t sb = vec_base(n, incs), db = vec_base(n, incd);
    for (int64_t i = 0; i < n; i++)
        store(dst, db + i * incd, load(src, sb + i * incs));
    return DDBLAS_SUCCESS;
}

/* ---------- one element ---------- */

/* An unknown format reads as a NaN and is not written (these have no status to return). */
DDBLAS_API ddblas_dd ddblas_get(ddblas_array a, int64_t i)
{
    ddblas_dd r = {0.0 / 0.0, 0.0};
    if (ddblas_array_ok(a, 0)) {
        const dfs_dd v = load(a, i);
        r.hi = v.hi;
        r.lo = v.lo;
    }
    return r;
}

DDBLAS_API void ddblas_set(ddblas_array a, int64_t i, ddblas_dd v)
{
    if (ddblas_array_ok(a, 0))
        store(a, i, dd_of(v));
}
