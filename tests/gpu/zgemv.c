/* zgemv — cublasZgemv_v2, its _64 form and the legacy cublasZgemv through the shim: no engine
 * computes complex GEMV yet, so in every mode each call must be the real cuBLAS's, bit for bit
 * (y, with the gaps of a strided y untouched), with its status.
 *
 * Cases: ops N, T, C x (m, n) in {(1, 1), (7, 5), (64, 33), (300, 200)} x (incx, incy) in
 * {(1, 1), (2, -3)} x lda tight or + 3 x alpha, beta complex (one with a zero imaginary part,
 * beta = 0 with y holding NaN: not read) x host / device scalars (legacy: host), data phi 0 and
 * phi 8 with an Inf in A; invalid arguments (a bad op, m or n < 0, lda < m, incx or incy = 0)
 * and quick returns (m or n = 0, a NULL handle) with the real cuBLAS's status and y. */
#include "common.h"

#include "../common/gen.h"

#include <cublas.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { Z_V2, Z_64, Z_LEG, Z_COUNT };
static const char *const zname[Z_COUNT] = {"cublasZgemv_v2", "cublasZgemv_v2_64", "cublasZgemv"};
static void *real_fn[Z_COUNT];
static cublasHandle_t h;

typedef struct {
    int api;
    cublasOperation_t op;
    int64_t m, n, lda, incx, incy;
    const double *alpha, *beta; /* two doubles each, host or device */
    const double *A, *x;
    double *y;
} zcall;

static char op_char(cublasOperation_t op)
{
    return op == CUBLAS_OP_N ? 'N' : op == CUBLAS_OP_T ? 'T' : op == CUBLAS_OP_C ? 'C' : 'X';
}

/* The call through the shim (real = 0) or for real; the legacy one reports through
 * cublasGetError. */
static cublasStatus_t run(int real, cublasHandle_t hh, const zcall *c)
{
    typedef cublasStatus_t (*v2)(cublasHandle_t, cublasOperation_t, int, int,
                                 const cuDoubleComplex *, const cuDoubleComplex *, int,
                                 const cuDoubleComplex *, int, const cuDoubleComplex *,
                                 cuDoubleComplex *, int);
    typedef cublasStatus_t (*v64)(cublasHandle_t, cublasOperation_t, int64_t, int64_t,
                                  const cuDoubleComplex *, const cuDoubleComplex *, int64_t,
                                  const cuDoubleComplex *, int64_t, const cuDoubleComplex *,
                                  cuDoubleComplex *, int64_t);
    typedef void (*leg)(char, int, int, cuDoubleComplex, const cuDoubleComplex *, int,
                        const cuDoubleComplex *, int, cuDoubleComplex, cuDoubleComplex *, int);
    const cuDoubleComplex *al = (const cuDoubleComplex *)c->alpha,
                          *be = (const cuDoubleComplex *)c->beta,
                          *A = (const cuDoubleComplex *)c->A, *x = (const cuDoubleComplex *)c->x;
    cuDoubleComplex *y = (cuDoubleComplex *)c->y;
    void *f = real_fn[c->api];
    if (c->api == Z_V2) {
        v2 g = cublasZgemv_v2;
        if (real)
            memcpy(&g, &f, sizeof f);
        return g(hh, c->op, (int)c->m, (int)c->n, al, A, (int)c->lda, x, (int)c->incx, be, y,
                 (int)c->incy);
    }
    if (c->api == Z_64) {
        v64 g = cublasZgemv_v2_64;
        if (real)
            memcpy(&g, &f, sizeof f);
        return g(hh, c->op, c->m, c->n, al, A, c->lda, x, c->incx, be, y, c->incy);
    }
    leg g = cublasZgemv;
    if (real)
        memcpy(&g, &f, sizeof f);
    cublasGetError();
    g(op_char(c->op), (int)c->m, (int)c->n, *al, A, (int)c->lda, x, (int)c->incx, *be, y,
      (int)c->incy);
    return cublasGetError();
}

static int same(double a, double b)
{
    return (isnan(a) && isnan(b)) || !memcmp(&a, &b, sizeof a);
}

static int64_t span(int64_t len, int64_t inc)
{
    return len > 0 ? (len - 1) * (inc < 0 ? -inc : inc) + 1 : 1;
}

/* Runs c for real and through the shim from the same y0 (device buffers dy, dy2 of ylen
 * complex elements) and compares status and every double of y. */
static void compare(const zcall *c, cublasHandle_t hh, const double *y0, int64_t ylen, double *dy,
                    double *dy2)
{
    zcall r = *c, s = *c;
    gt_h2d(dy, y0, (size_t)ylen * 16);
    gt_h2d(dy2, y0, (size_t)ylen * 16);
    r.y = dy;
    s.y = dy2;
    const cublasStatus_t sr = run(1, hh, &r);
    GT_CUDA(cudaDeviceSynchronize());
    const cublasStatus_t ss = run(0, hh, &s);
    GT_CUDA(cudaDeviceSynchronize());
    gt_cmp_status(zname[c->api], sr, ss);
    double *a = gt_hmalloc((size_t)ylen * 16), *b = gt_hmalloc((size_t)ylen * 16);
    gt_d2h(a, dy, (size_t)ylen * 16);
    gt_d2h(b, dy2, (size_t)ylen * 16);
    int64_t bad = 0, first = -1;
    for (int64_t i = 0; i < 2 * ylen; i++)
        if (!same(a[i], b[i]) && bad++ == 0)
            first = i;
    if (bad)
        gt_fail("%lld doubles of y differ from real cuBLAS's; first [%lld]: %.17g, want %.17g",
                (long long)bad, (long long)first, b[first], a[first]);
    free(a);
    free(b);
}

int main(void)
{
    gt_init("zgemv");
    for (int a = 0; a < Z_COUNT; a++)
        real_fn[a] = gt_real_fn(zname[a]);
    printf("zgemv: EXBLAS_MODE=%s: every result against real cuBLAS\n",
           gt_mode() ? gt_mode() : "(unset)");
    GT_CUBLAS(cublasCreate_v2(&h));
    if (cublasInit() != CUBLAS_STATUS_SUCCESS)
        gt_fatal("cublasInit failed");
    const int64_t MAXE = 303 * 200 + 1000, MAXV = 3 * 300 + 10;
    double *hA = gt_hmalloc((size_t)MAXE * 16), *hx = gt_hmalloc((size_t)MAXV * 16);
    double *y0 = gt_hmalloc((size_t)MAXV * 16);
    double *dA = gt_dmalloc((size_t)MAXE * 16), *dx = gt_dmalloc((size_t)MAXV * 16);
    double *dy = gt_dmalloc((size_t)MAXV * 16), *dy2 = gt_dmalloc((size_t)MAXV * 16);
    double *dscal = gt_dmalloc(64);
    static const int64_t shapes[4][2] = {{1, 1}, {7, 5}, {64, 33}, {300, 200}};
    static const int64_t incs[2][2] = {{1, 1}, {2, -3}};
    static const cublasOperation_t ops[3] = {CUBLAS_OP_N, CUBLAS_OP_T, CUBLAS_OP_C};
    static const double scal[3][4] = {{1.0, 0.0, 0.0, 0.0},     /* alpha 1, beta 0 */
                                      {-0.5, 2.0, 0.75, -1.25}, /* both complex */
                                      {1.5, 0.0, -1.0, 0.0}};   /* real parts only */
    for (int si = 0; si < 4; si++) {
        const int64_t m = shapes[si][0], n = shapes[si][1];
        gt_group("m = %lld, n = %lld: every entry point, op, increment, lda, scalars, data",
                 (long long)m, (long long)n);
        for (int kind = 0; kind < 2; kind++) {
            rng r = rng_seed(1000u * (uint64_t)si + (uint64_t)kind);
            for (int64_t i = 0; i < MAXE * 2; i++)
                hA[i] = gen_phi(&r, kind ? 8 : 0);
            for (int64_t i = 0; i < MAXV * 2; i++) {
                hx[i] = gen_phi(&r, kind ? 8 : 0);
                y0[i] = gen_phi(&r, 0);
            }
            if (kind)
                hA[2 * (m / 2)] = INFINITY;
            gt_h2d(dA, hA, (size_t)MAXE * 16);
            gt_h2d(dx, hx, (size_t)MAXV * 16);
            for (int api = 0; api < Z_COUNT; api++)
                for (int oi = 0; oi < 3; oi++)
                    for (int ii = 0; ii < 2; ii++)
                        for (int sc = 0; sc < 3; sc++)
                            for (int dev = 0; dev <= (api != Z_LEG); dev++) {
                                const int pad = (oi + ii + sc) % 2 ? 3 : 0;
                                const cublasOperation_t op = ops[oi];
                                const int64_t ylen = op == CUBLAS_OP_N ? m : n;
                                zcall c = {api, op, m, n, m + pad, incs[ii][0], incs[ii][1],
                                           scal[sc], scal[sc] + 2, dA, dx, NULL};
                                if (dev) {
                                    gt_h2d(dscal, scal[sc], 32);
                                    c.alpha = dscal;
                                    c.beta = dscal + 2;
                                }
                                gt_case("%s op=%c inc %lld,%lld lda %lld alpha %g%+gi beta %g%+gi "
                                        "%s scalars, phi %d",
                                        zname[api], op_char(op), (long long)c.incx,
                                        (long long)c.incy, (long long)c.lda, scal[sc][0],
                                        scal[sc][1], scal[sc][2], scal[sc][3],
                                        dev ? "device" : "host", kind ? 8 : 0);
                                if (api != Z_LEG)
                                    GT_CUBLAS(cublasSetPointerMode_v2(
                                        h, dev ? CUBLAS_POINTER_MODE_DEVICE
                                               : CUBLAS_POINTER_MODE_HOST));
                                double *yy = gt_hmalloc((size_t)MAXV * 16);
                                memcpy(yy, y0, (size_t)MAXV * 16);
                                if (sc == 0) /* beta = 0: y is not read */
                                    for (int64_t i = 0; i < MAXV * 2; i++)
                                        yy[i] = gt_qnan();
                                compare(&c, h, yy, span(ylen, c.incy), dy, dy2);
                                free(yy);
                            }
        }
        gt_end_group();
    }
    GT_CUBLAS(cublasSetPointerMode_v2(h, CUBLAS_POINTER_MODE_HOST));
    gt_group("invalid arguments and quick returns: the real cuBLAS's status and y");
    static const struct {
        const char *what;
        int op, null_handle;
        int64_t m, n, lda, incx, incy;
    } bad[] = {{"a bad op", 7, 0, 4, 3, 4, 1, 1},   {"m < 0", 0, 0, -1, 3, 4, 1, 1},
               {"n < 0", 0, 0, 4, -1, 4, 1, 1},     {"lda < m", 0, 0, 4, 3, 3, 1, 1},
               {"incx = 0", 0, 0, 4, 3, 4, 0, 1},   {"incy = 0", 0, 0, 4, 3, 4, 1, 0},
               {"m = 0", 0, 0, 0, 3, 1, 1, 1},      {"n = 0", 0, 0, 4, 0, 4, 1, 1},
               {"NULL handle", 0, 1, 4, 3, 4, 1, 1}};
    for (size_t b = 0; b < sizeof bad / sizeof bad[0]; b++)
        for (int api = 0; api < Z_LEG; api++) {
            gt_case("%s: %s", zname[api], bad[b].what);
            const zcall c = {api, (cublasOperation_t)bad[b].op, bad[b].m, bad[b].n, bad[b].lda,
                             bad[b].incx, bad[b].incy, scal[1], scal[1] + 2, dA, dx, NULL};
            compare(&c, bad[b].null_handle ? NULL : h, y0, 8, dy, dy2);
        }
    gt_end_group();
    free(hA);
    free(hx);
    free(y0);
    return gt_finish();
}
