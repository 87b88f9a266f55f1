/* layout.c — see layout.h. */
#include "layout.h"

#include "df_common.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---------- layouts ---------- */

size_t lay_vec(double *dst, const double *v, int64_t n, int64_t inc, double gap)
{
    const size_t span = gt_span(n, inc);
    const int64_t ainc = inc < 0 ? -inc : inc, base = inc > 0 ? 0 : (n - 1) * ainc;
    if (ainc > 1) /* |inc| = 1: the vector fills its span */
        for (size_t i = 0; i < span; i++)
            dst[i] = gap;
    for (int64_t i = 0; i < n; i++)
        dst[base + i * inc] = v[i];
    return span;
}

void gather_vec(double *v, const double *src, int64_t n, int64_t inc)
{
    const int64_t ainc = inc < 0 ? -inc : inc, base = inc > 0 ? 0 : (n - 1) * ainc;
    for (int64_t i = 0; i < n; i++)
        v[i] = src[base + i * inc];
}

void check_gaps(const double *tmpl, const double *out, size_t span, int64_t inc)
{
    const int64_t ainc = inc < 0 ? -inc : inc;
    if (ainc == 1)
        return;
    size_t bad = 0, first = 0;
    for (size_t i = 0; i < span; i++)
        if (i % (size_t)ainc && df_bits(out[i]) != df_bits(tmpl[i]) && !bad++)
            first = i;
    if (bad)
        gt_fail("%zu elements of y between the vector's elements were written; first at %zu: "
                "%.17g", bad, first, out[first]);
}

void make_ytemplates(double *const t[4], const double *yN, const double *yT, int64_t m, int64_t n,
                     int64_t incy, const double *nan_vec, double gap)
{
    lay_vec(t[0], yN, m, incy, gap);
    lay_vec(t[1], nan_vec, m, incy, gap);
    lay_vec(t[2], yT, n, incy, gap);
    lay_vec(t[3], nan_vec, n, incy, gap);
}

void upload_A(double *dst, double *stage, size_t cap, const double *A, int64_t m, int64_t n,
              int64_t lda)
{
    const double qnan = gt_qnan();
    const size_t span = (size_t)(lda * (n - 1) + m);
    if (span > cap)
        gt_fatal("test bug: A span %zu > %zu", span, cap);
    for (int64_t j = 0; j < n; j++) {
        memcpy(stage + j * lda, A + j * m, (size_t)m * sizeof *A);
        if (j < n - 1)
            for (int64_t i = m; i < lda; i++)
                stage[i + j * lda] = qnan;
    }
    gt_h2d(dst, stage, span * sizeof *stage);
}

size_t lay_out(double *dst, size_t cap, double *const *L, int nb, int64_t rows, int64_t cols,
               int trans, int64_t ld, int64_t stride, double gap)
{
    const int64_t sr = trans ? cols : rows, sc = trans ? rows : cols;
    const size_t one = sr > 0 && sc > 0 ? (size_t)(ld * (sc - 1) + sr) : 1;
    const size_t span = (size_t)(stride * (nb - 1)) + one;
    if (span > cap)
        gt_fatal("test bug: operand span %zu > %zu", span, cap);
    for (size_t i = 0; i < span; i++)
        dst[i] = gap;
    for (int b = 0; b < nb; b++) {
        double *o = dst + (size_t)b * (size_t)stride;
        const double *l = L[b];
        for (int64_t c = 0; c < cols; c++)
            for (int64_t r = 0; r < rows; r++)
                o[trans ? c + r * ld : r + c * ld] = l[r + c * rows];
    }
    return span;
}

void gather(double *dst, const double *src, int64_t m, int64_t n, int64_t ld)
{
    for (int64_t j = 0; j < n; j++)
        memcpy(dst + j * m, src + j * ld, (size_t)m * sizeof *dst);
}

int same(double a, double b)
{
    return (isnan(a) && isnan(b)) || df_bits(a) == df_bits(b);
}

int64_t max64(int64_t a, int64_t b)
{
    return a > b ? a : b;
}

int cmp_named(const char *what, const char *want_name, const double *want,
              const double *got, int64_t len, int64_t ld)
{
    if (!memcmp(want, got, (size_t)len * sizeof *want))
        return 1;
    int64_t first = -1, nd = 0;
    for (int64_t i = 0; i < len; i++)
        if (!same(want[i], got[i]) && !nd++)
            first = i;
    if (!nd)
        return 1;
    char where[80] = "";
    if (ld > 0)
        snprintf(where, sizeof where, " (row %lld, col %lld)", (long long)(first % ld),
                 (long long)(first / ld));
    gt_fail("%s: %lld of %lld outputs differ from the %s ones; first %lld%s: %s %.17g "
            "[%016" PRIx64 "], GPU %.17g [%016" PRIx64 "]", what, (long long)nd, (long long)len,
            want_name, (long long)first, where, want_name, want[first], df_bits(want[first]),
            got[first], df_bits(got[first]));
    return 0;
}

gt_gemm gemm_setup(gt_gemm_api api, int ta, int tb, int64_t m, int64_t n, int64_t k, int pad,
                   int nb)
{
    const int strided = gt_gemm_api_strided(api);
    /* the _64 entry point gets its transpositions as CUBLAS_OP_C */
    const cublasOperation_t opT = api == GT_DGEMM_64 ? CUBLAS_OP_C : CUBLAS_OP_T;
    gt_gemm g = {.api = api, .ta = ta ? opT : CUBLAS_OP_N, .tb = tb ? opT : CUBLAS_OP_N,
                 .m = m, .n = n, .k = k, .batch = strided ? nb : 1, .typeA = CUDA_R_64F,
                 .typeB = CUDA_R_64F, .typeC = CUDA_R_64F, .compute = CUBLAS_COMPUTE_64F,
                 .algo = CUBLAS_GEMM_DEFAULT};
    g.lda = max64(ta ? k : m, 1) + pad;
    g.ldb = max64(tb ? n : k, 1) + pad;
    g.ldc = max64(m, 1) + pad;
    if (strided) {
        g.sA = (long long)(g.lda * (ta ? m : k) + 5);
        g.sB = (long long)(g.ldb * (tb ? k : n) + 7);
        g.sC = (long long)(g.ldc * n + 3);
    }
    return g;
}

static const double ab_alphas[4] = {1, 0.5, -3, 0};
static const double ab_betas[3] = {0, 1, -0.75};

double ab_alpha(int ab)
{
    return ab_alphas[ab / 3];
}

double ab_beta(int ab)
{
    return ab_betas[ab % 3];
}

void wide_rows(double *A, int64_t m, int64_t k)
{
    for (int64_t q = 0; q < k; q++)
        for (int64_t i = 0; i < m; i++)
            A[i + q * m] *= i % 3 == 0 ? 1e300 : i % 3 == 1 ? 1e-300 : 1.0;
}

void wide_cols(double *A, double *B, int64_t m, int64_t n, int64_t k)
{
    for (int64_t q = 0; q < k; q++) {
        for (int64_t i = 0; i < m; i++)
            A[i + q * m] *= q % 8 == 0 ? 1e300 : 1e-300;
        for (int64_t c = 0; c < n; c += 2)
            if (q % 8 == 0)
                B[q + c * k] = 0.0;
    }
}

void place_specials(double *A, double *B, int64_t m, int64_t n, int64_t k)
{
    A[0 + (k / 2) * m] = INFINITY;           /* row 0 */
    A[m / 2 + 0 * m] = gt_qnan();            /* row m/2 */
    B[(k - 1) + (n - 1) * k] = -INFINITY;    /* column n-1 */
    B[k / 2 + 0 * k] = 0.0;                  /* C(0, 0): Inf * 0 */
    if (m > 2)
        A[m - 1 + (k - 1) * m] = -INFINITY;  /* row m-1 meets column n-1's -Inf */
}

void poison(double *dst, const double *src, int64_t n)
{
    memcpy(dst, src, (size_t)n * sizeof *dst);
    if (n > 0)
        dst[0] = gt_qnan();
    if (n > 1)
        dst[n - 1] = INFINITY;
    if (n > 2)
        dst[n / 2] = -INFINITY;
    if (n > 3)
        dst[n / 3] = gt_qnan();
}

void check_outside(const double *tmpl, const double *out, int nb, int64_t m, int64_t n,
                   int64_t ldc, int64_t sC)
{
    size_t bad = 0, first = 0;
    for (int b = 0; b < nb; b++)
        for (int64_t j = 0; j < n; j++) {
            const size_t from = (size_t)(b * sC + j * ldc + m);
            const size_t to = j < n - 1    ? (size_t)(b * sC + (j + 1) * ldc)
                              : b < nb - 1 ? (size_t)((b + 1) * sC)
                                           : from;
            for (size_t i = from; i < to; i++)
                if (df_bits(out[i]) != df_bits(tmpl[i]) && !bad++)
                    first = i;
        }
    if (bad)
        gt_fail("%zu elements of C outside the matrices were written; first at element %zu: "
                "%.17g, was %.17g", bad, first, out[first], tmpl[first]);
}

/* ---------- the calls ---------- */

static double h_ab[2]; /* alpha, beta for host pointer mode */

static double of_bits(uint64_t b)
{
    double x;
    memcpy(&x, &b, sizeof x);
    return x;
}

double sentinel(void)
{
    return of_bits(0x7ff8dead0000beefULL);
}

double call_dot(const call_bufs *b, int real, cublasHandle_t hh, int is64, int64_t n,
                const double *px, int64_t incx, const double *py, int64_t incy, int dev,
                cublasStatus_t *st, int *late)
{
    const cublasPointerMode_t pm = dev ? CUBLAS_POINTER_MODE_DEVICE : CUBLAS_POINTER_MODE_HOST;
    const double sent = sentinel();
    double hr = sent, v = sent;
    if (dev)
        gt_h2d(b->d_res, &sent, sizeof sent);
    GT_CUBLAS(cublasSetPointerMode_v2(hh, pm));
    gt_dot d = {is64, n, px, incx, py, incy, dev ? b->d_res : &hr};
    *st = gt_run_dot(real, hh, &d);
    *late = 0;
    if (!dev) {
        v = hr; /* before any synchronisation */
        *late = df_bits(v) == df_bits(sent);
    }
    gt_check_modes(hh, pm, CUBLAS_DEFAULT_MATH);
    GT_CUDA(cudaDeviceSynchronize());
    if (dev)
        gt_d2h(&v, b->d_res, sizeof v);
    else if (*late)
        v = hr;
    GT_CUBLAS(cublasSetPointerMode_v2(hh, CUBLAS_POINTER_MODE_HOST));
    return v;
}

void call_gemv(const call_bufs *b, int real, cublasHandle_t hh, const gparams *p,
               const double *ytmpl, double *yl)
{
    const int64_t len = p->op == CUBLAS_OP_N ? p->m : p->n;
    const size_t yspan = gt_span(len, p->incy);
    if (yspan > b->y_cap)
        gt_fatal("test bug: y span %zu > %zu", yspan, b->y_cap);
    gt_h2d(b->dY, ytmpl, yspan * sizeof *ytmpl);
    h_ab[0] = p->alpha;
    h_ab[1] = p->beta;
    if (p->dev)
        gt_h2d(b->d_ab, h_ab, sizeof h_ab);
    const cublasPointerMode_t pm = p->dev ? CUBLAS_POINTER_MODE_DEVICE : CUBLAS_POINTER_MODE_HOST;
    GT_CUBLAS(cublasSetPointerMode_v2(hh, pm));
    gt_gemv g = {p->is64, p->op, p->m, p->n, p->dev ? &b->d_ab[0] : &h_ab[0], p->A, p->lda, p->x,
                 p->incx, p->dev ? &b->d_ab[1] : &h_ab[1], b->dY, p->incy};
    const cublasStatus_t st = gt_run_gemv(real, hh, &g);
    gt_check_modes(hh, pm, CUBLAS_DEFAULT_MATH);
    GT_CUDA(cudaDeviceSynchronize());
    gt_d2h(b->hYo, b->dY, yspan * sizeof *b->hYo);
    GT_CUBLAS(cublasSetPointerMode_v2(hh, CUBLAS_POINTER_MODE_HOST));
    if (st != CUBLAS_STATUS_SUCCESS)
        gt_fail("%s%s: status %s", real ? "real " : "", gt_gemv_name(p->is64), gt_status_name(st));
    if (!real)
        check_gaps(ytmpl, b->hYo, yspan, p->incy);
    gather_vec(yl, b->hYo, len, p->incy);
}

cublasStatus_t call_gemm(const call_bufs *b, int real, cublasHandle_t hh, gt_gemm *g, int dev,
                         double alpha, double beta, size_t span)
{
    gt_h2d(b->dC, b->hCt, span * sizeof *b->hCt);
    h_ab[0] = alpha;
    h_ab[1] = beta;
    if (dev)
        gt_h2d(b->d_ab, h_ab, sizeof h_ab);
    const cublasPointerMode_t pm = dev ? CUBLAS_POINTER_MODE_DEVICE : CUBLAS_POINTER_MODE_HOST;
    GT_CUBLAS(cublasSetPointerMode_v2(hh, pm));
    g->alpha = dev ? (const void *)&b->d_ab[0] : (const void *)&h_ab[0];
    g->beta = dev ? (const void *)&b->d_ab[1] : (const void *)&h_ab[1];
    g->C = b->dC;
    const cublasStatus_t st = gt_run_gemm(real, hh, g);
    gt_check_modes(hh, pm, CUBLAS_DEFAULT_MATH);
    GT_CUDA(cudaDeviceSynchronize());
    gt_d2h(b->hCo, b->dC, span * sizeof *b->hCo);
    GT_CUBLAS(cublasSetPointerMode_v2(hh, CUBLAS_POINTER_MODE_HOST));
    return st;
}

