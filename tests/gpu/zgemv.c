/* zgemv — cublasZgemv_v2, its _64 form and the legacy cublasZgemv through the shim.
 *
 * References, by mode (gt_mode_engine()):
 *   repro, ozaki,  (their complex GEMV) both parts of every output bit for bit the correctly
 *   accurate       rounded value, repro_zgemv_host (include/reprohost.h, MPFR-tested in
 *                  unit/repro_complex.c; NaN equals NaN), and the gaps of a strided y untouched;
 *                  but for alpha = 0 and beta = 1 given on the host (cuBLAS's quick return, which
 *                  the shim leaves to it): real cuBLAS's bits; per group, a case where real cuBLAS
 *                  gives something else (the engine computed it); with alpha = 0, A and x
 *                  unreadable (never read);
 *   anything else  (no other engine computes complex GEMV: native) the real cuBLAS call's bits.
 * In every mode the status is the real cuBLAS's.
 *
 * Cases: ops N, T, C x (m, n) in {(1, 1), (7, 5), (64, 33), (300, 200), (3, 40000), (40000, 3)}
 * (the long inner dimensions cut into chunks, the long outputs many) x (incx, incy) in {(1, 1),
 * (2, -3)} x lda tight or + 3 x alpha, beta complex (zero ones, zero imaginary parts, beta = 0
 * with y holding NaN: not read; alpha = 0) x host / device scalars (legacy: host) x data: phi 0,
 * phi 8 with an Inf in A, 1e+-300 mixes, products that underflow, Im ~ 1e-20 Re, signed zeros,
 * Inf and NaN in A, x and y (the two long shapes: fewer of these); invalid arguments (a bad op,
 * m or n < 0, lda < m, incx or incy = 0) and quick returns (m or n = 0, a NULL handle) with the
 * real cuBLAS's status and y. */
#include "common.h"

#include "../../include/reprohost.h"
#include "../common/gen.h"

#include <cublas.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { Z_V2, Z_64, Z_LEG, Z_COUNT };
static const char *const zname[Z_COUNT] = {"cublasZgemv_v2", "cublasZgemv_v2_64", "cublasZgemv"};
static void *real_fn[Z_COUNT];
static cublasHandle_t h;
static int twin_mode, engaged;

enum { K_PHI0, K_PHI8, K_WIDE, K_UNDER, K_TINYIM, K_ZERO, K_SPECIAL, K_COUNT };
static const char *const kname[K_COUNT] = {"phi 0",        "phi 8 + Inf", "1e+-300",
                                           "underflowing", "Im~1e-20Re",  "signed zeros",
                                           "Inf/NaN"};

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

/* A part of the data kind's values: element e (of A or x, which = 0 or 1) or of y (2). */
static double value(rng *r, int kind, int which, int64_t e)
{
    static const double wide[3] = {1e300, 1e-300, 1.0}, wide_x[3] = {1e-300, 1.0, 1e-10};
    switch (kind) {
    case K_PHI8: return which < 2 ? gen_phi(r, 8) : gen_phi(r, 0);
    case K_WIDE: return gen_phi(r, 0) * (which == 0 ? wide[e % 3] : which == 1 ? wide_x[e % 3] : 1);
    case K_UNDER: return gen_phi(r, 0) * (which < 2 ? 1e-170 : 1e-300);
    case K_ZERO: return which < 2 ? ((next64(r) & 1) ? -0.0 : 0.0) : gen_phi(r, 0);
    default: return gen_phi(r, 0);
    }
}

/* A, x and y's first image of the kind (MAXE, MAXV complex elements). */
static void fill(int kind, uint64_t seed, int64_t m, double *A, int64_t ne, double *x, double *y,
                 int64_t nv)
{
    rng r = rng_seed(seed);
    for (int64_t i = 0; i < 2 * ne; i++)
        A[i] = value(&r, kind, 0, i / 2);
    for (int64_t i = 0; i < 2 * nv; i++) {
        x[i] = value(&r, kind, 1, i / 2);
        y[i] = value(&r, kind, 2, i / 2);
    }
    if (kind == K_TINYIM)
        for (int64_t e = 0; e < ne; e++)
            A[2 * e + 1] = A[2 * e] * 1e-20;
    if (kind == K_TINYIM)
        for (int64_t e = 0; e < nv; e++)
            x[2 * e + 1] = x[2 * e] * 1e-20;
    if (kind == K_PHI8)
        A[2 * (m / 2)] = INFINITY;
    if (kind == K_SPECIAL) {
        A[2 * (m / 2) + 1] = -INFINITY;
        A[2 * (m + 1)] = INFINITY;
        x[2 * 3 + 1] = gt_qnan();
        y[2 * 1 + 1] = INFINITY;
    }
}

/* Runs c for real and through the shim from the same y0 (device buffers dy, dy2 of ylen
 * complex elements), compares the statuses, and y with the reference: real cuBLAS's, or in twin
 * mode repro_zgemv_host's on the host images hA, hx (unless alpha = 0 and beta = 1 on the host:
 * real cuBLAS's quick return).  hal, hbe: the scalars' values. */
static void compare(const zcall *c, cublasHandle_t hh, const double *y0, int64_t ylen, double *dy,
                    double *dy2, const double *hA, const double *hx, const double *hal,
                    const double *hbe, int host_scalars)
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
    double *real = gt_hmalloc((size_t)ylen * 16), *got = gt_hmalloc((size_t)ylen * 16);
    double *want = real;
    gt_d2h(real, dy, (size_t)ylen * 16);
    gt_d2h(got, dy2, (size_t)ylen * 16);
    const int quick = host_scalars && hal[0] == 0 && hal[1] == 0 && hbe[0] == 1 && hbe[1] == 0;
    if (twin_mode && sr == CUBLAS_STATUS_SUCCESS && !quick) {
        want = gt_hmalloc((size_t)ylen * 16);
        memcpy(want, y0, (size_t)ylen * 16);
        if (repro_zgemv_host(op_char(c->op), c->m, c->n, hal, hA, c->lda, hx, c->incx, hbe,
                             want, c->incy))
            gt_fatal("repro_zgemv_host: out of memory");
    }
    int64_t bad = 0, first = -1, differs = 0;
    for (int64_t i = 0; i < 2 * ylen; i++) {
        if (!same(got[i], want[i]) && bad++ == 0)
            first = i;
        differs |= !same(real[i], want[i]);
    }
    if (bad)
        gt_fail("%lld doubles of y differ from %s; first [%lld]: %.17g, want %.17g (real cuBLAS "
                "%.17g)",
                (long long)bad, want == real ? "real cuBLAS's" : "the correctly rounded ones",
                (long long)first, got[first], want[first], real[first]);
    else if (want != real && differs)
        engaged = 1;
    if (want != real)
        free(want);
    free(real);
    free(got);
}

/* With alpha = 0 the engine reads neither A nor x: they point to an unmapped address (a read
 * faults the context), y = beta y part by part, on the host and on the device. */
static void alpha_zero_unread(double *dy, double *dscal, const double *y0)
{
    gt_group("alpha = 0: A and x unreadable, y = RN(beta y) per part");
    static const double sc[4] = {0.0, 0.0, 0.5, -3.0};
    const double *BAD = (const double *)(uintptr_t)0x1000;
    for (int op = 0; op < 3; op++)
        for (int dev = 0; dev < 2; dev++) {
            const cublasOperation_t o = op == 0 ? CUBLAS_OP_N : op == 1 ? CUBLAS_OP_T : CUBLAS_OP_C;
            gt_case("cublasZgemv_v2 op=%c %s scalars", op_char(o), dev ? "device" : "host");
            GT_CUBLAS(cublasSetPointerMode_v2(h, dev ? CUBLAS_POINTER_MODE_DEVICE
                                                     : CUBLAS_POINTER_MODE_HOST));
            gt_h2d(dscal, sc, 32);
            gt_h2d(dy, y0, 300 * 16);
            const zcall c = {Z_V2, o, 300, 300, 300, 1, 1, dev ? dscal : sc,
                             dev ? dscal + 2 : sc + 2, BAD, BAD, dy};
            const cublasStatus_t s = run(0, h, &c);
            if (s != CUBLAS_STATUS_SUCCESS) {
                gt_fail("status %s", gt_status_name(s));
                continue;
            }
            GT_CUDA(cudaDeviceSynchronize()); /* a fault shows here */
            double got[600], want[600];
            gt_d2h(got, dy, sizeof got);
            memcpy(want, y0, sizeof want);
            if (repro_zgemv_host(op_char(o), 300, 300, sc, BAD, 300, BAD, 1, sc + 2, want, 1))
                gt_fatal("repro_zgemv_host: out of memory");
            for (int i = 0; i < 600; i++)
                if (!same(got[i], want[i])) {
                    gt_fail("y[%d] = %.17g, want %.17g", i, got[i], want[i]);
                    break;
                }
        }
    GT_CUBLAS(cublasSetPointerMode_v2(h, CUBLAS_POINTER_MODE_HOST));
}

int main(void)
{
    gt_init("zgemv");
    twin_mode = gt_mode_is("repro") || gt_mode_is("ozaki") || gt_mode_is("accurate");
    for (int a = 0; a < Z_COUNT; a++)
        real_fn[a] = gt_real_fn(zname[a]);
    printf("zgemv: EXBLAS_MODE=%s: every result against %s\n", gt_mode() ? gt_mode() : "(unset)",
           twin_mode ? "the correctly rounded value (repro_zgemv_host)" : "real cuBLAS");
    GT_CUBLAS(cublasCreate_v2(&h));
    if (cublasInit() != CUBLAS_STATUS_SUCCESS)
        gt_fatal("cublasInit failed");
    const int64_t MAXE = 40003 * 6 + 1000, MAXV = 3 * 40000 + 10;
    double *hA = gt_hmalloc((size_t)MAXE * 16), *hx = gt_hmalloc((size_t)MAXV * 16);
    double *y0 = gt_hmalloc((size_t)MAXV * 16), *yy = gt_hmalloc((size_t)MAXV * 16);
    double *dA = gt_dmalloc((size_t)MAXE * 16), *dx = gt_dmalloc((size_t)MAXV * 16);
    double *dy = gt_dmalloc((size_t)MAXV * 16), *dy2 = gt_dmalloc((size_t)MAXV * 16);
    double *dscal = gt_dmalloc(64);
    static const int64_t shapes[6][2] = {{1, 1},    {7, 5},     {64, 33},
                                         {300, 200}, {3, 40000}, {40000, 3}};
    static const int64_t incs[2][2] = {{1, 1}, {2, -3}};
    static const cublasOperation_t ops[3] = {CUBLAS_OP_N, CUBLAS_OP_T, CUBLAS_OP_C};
    static const double scal[6][4] = {{1.0, 0.0, 0.0, 0.0},     /* alpha 1, beta 0 */
                                      {-0.5, 2.0, 0.75, -1.25}, /* both complex */
                                      {1.5, 0.0, -1.0, 0.0},    /* real parts only */
                                      {0.0, 0.0, 0.5, -3.0},    /* alpha 0: A, x not read */
                                      {0.0, -2.0, 0.0, 1.0},    /* imaginary parts only */
                                      {0.0, 0.0, 1.0, 0.0}};    /* alpha 0, beta 1 */
    for (int si = 0; si < 6; si++) {
        const int64_t m = shapes[si][0], n = shapes[si][1];
        const int big = m * n > 100000; /* fewer cases: the CPU reference's time */
        gt_group("m = %lld, n = %lld: %s", (long long)m, (long long)n,
                 big ? "v2 and legacy entry points, op, increment, lda, three data kinds, "
                       "two scalar pairs"
                     : "every entry point, op, increment, lda, scalars, data kind");
        engaged = 0;
        for (int kind = 0; kind < K_COUNT; kind++) {
            if (big && kind != K_PHI0 && kind != K_PHI8 && kind != K_UNDER)
                continue;
            fill(kind, 1000u * (uint64_t)si + (uint64_t)kind, m, hA, MAXE, hx, y0, MAXV);
            gt_h2d(dA, hA, (size_t)MAXE * 16);
            gt_h2d(dx, hx, (size_t)MAXV * 16);
            for (int api = 0; api < Z_COUNT; api++)
                for (int oi = 0; oi < 3; oi++)
                    for (int ii = 0; ii < 2; ii++)
                        for (int sc = 0; sc < 6; sc++)
                            for (int dev = 0; dev <= (api != Z_LEG); dev++) {
                                if (big && (api == Z_64 || (sc != 1 && sc != 3)))
                                    continue;
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
                                        "%s scalars, %s",
                                        zname[api], op_char(op), (long long)c.incx,
                                        (long long)c.incy, (long long)c.lda, scal[sc][0],
                                        scal[sc][1], scal[sc][2], scal[sc][3],
                                        dev ? "device" : "host", kname[kind]);
                                if (api != Z_LEG)
                                    GT_CUBLAS(cublasSetPointerMode_v2(
                                        h, dev ? CUBLAS_POINTER_MODE_DEVICE
                                               : CUBLAS_POINTER_MODE_HOST));
                                memcpy(yy, y0, (size_t)MAXV * 16);
                                if (sc == 0) /* beta = 0: y is not read */
                                    for (int64_t i = 0; i < MAXV * 2; i++)
                                        yy[i] = gt_qnan();
                                compare(&c, h, yy, span(ylen, c.incy), dy, dy2, hA, hx, scal[sc],
                                        scal[sc] + 2, !dev);
                            }
        }
        if (twin_mode && m * n >= 35) {
            gt_case("engaged: a result real cuBLAS rounds otherwise and the shim correctly");
            if (!engaged)
                gt_fail("none: nothing shows that the engine computed the calls");
        }
        gt_end_group();
    }
    if (twin_mode) {
        fill(K_PHI0, 7, 300, hA, MAXE, hx, y0, MAXV);
        alpha_zero_unread(dy, dscal, y0);
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
    const int saved = twin_mode;
    twin_mode = 0; /* statuses and quick returns: real cuBLAS's */
    for (size_t b = 0; b < sizeof bad / sizeof bad[0]; b++)
        for (int api = 0; api < Z_LEG; api++) {
            gt_case("%s: %s", zname[api], bad[b].what);
            const zcall c = {api, (cublasOperation_t)bad[b].op, bad[b].m, bad[b].n, bad[b].lda,
                             bad[b].incx, bad[b].incy, scal[1], scal[1] + 2, dA, dx, NULL};
            compare(&c, bad[b].null_handle ? NULL : h, y0, 8, dy, dy2, hA, hx, scal[1],
                    scal[1] + 2, 1);
        }
    twin_mode = saved;
    gt_end_group();
    free(hA);
    free(hx);
    free(y0);
    free(yy);
    return gt_finish();
}
