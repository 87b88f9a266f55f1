/* zdot — cublasZdotc_v2, cublasZdotu_v2 (and their _64 forms) and the legacy cublasZdotc and
 * cublasZdotu through the shim.
 *
 * References, by mode (gt_mode_engine()):
 *   repro, accurate  both parts of every result bit for bit the correctly rounded value, the
 *                    repro engine's CPU ZGEMM repro_zgemm_host on 1 x 1 x n (include/
 *                    reprohost.h; NaN equals NaN), and per group a case where real cuBLAS gives
 *                    something else (the engine computed it);
 *   anything else    (engines without a complex DOT decline it; native) the real cuBLAS call's
 *                    bits.
 * Cases: n in {1, 2, 7, 1000, 50003, 2^20 + 3} x (incx, incy) in {(1,1), (3,-2), (-2,3), (-1,-1)} x
 * data {phi 0, phi 4, phi 8, rows of 1e+-300, products that underflow, Im ~ 1e-20 Re, zeros,
 * Inf/NaN} x conj / not x host / device result; gaps of strided vectors hold NaN (a stray read
 * shows).  Statuses and quick returns (NULL handle, n <= 0) are the real cuBLAS's; a NULL
 * result is not tried: cuBLAS 13.1's Zdotc writes through it in device pointer mode (an illegal
 * address that ends the process's context; the shim forwards such calls untouched). */
#include "common.h"

#include "../../include/reprohost.h"
#include "../common/gen.h"

#include <cublas.h>
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { D_C, D_C64, D_U, D_U64, D_LC, D_LU, D_COUNT };
static const char *const dname[D_COUNT] = {"cublasZdotc_v2", "cublasZdotc_v2_64",
                                           "cublasZdotu_v2", "cublasZdotu_v2_64", "cublasZdotc",
                                           "cublasZdotu"};
static void *real_fn[D_COUNT];
static int twin_mode, engaged;
static cublasHandle_t h;

enum { K_PHI0, K_PHI4, K_PHI8, K_WIDE, K_UNDER, K_TINYIM, K_ZERO, K_SPECIAL, K_COUNT };
static const char *const kname[K_COUNT] = {"phi0", "phi4", "phi8", "1e+-300", "underflow",
                                           "Im~1e-20Re", "zeros", "Inf/NaN"};

/* Element j of x (n elements, increment inc) in a strided buffer: its index. */
static int64_t vi(int64_t j, int64_t inc, int64_t n)
{
    return inc >= 0 ? j * inc : (n - 1 - j) * -inc;
}

static void gen(double *t, int64_t n, int kind, uint64_t seed, int which)
{
    rng r = rng_seed(seed);
    for (int64_t j = 0; j < n; j++) {
        double re, im;
        switch (kind) {
        case K_PHI4: re = gen_phi(&r, 4), im = gen_phi(&r, 4); break;
        case K_PHI8: re = gen_phi(&r, 8), im = gen_phi(&r, 8); break;
        case K_WIDE: {
            const double f = j % 3 == 0 ? 1e300 : j % 3 == 1 ? 1e-300 : 1.0;
            re = gen_phi(&r, 0) * f, im = gen_phi(&r, 0) * f;
            break;
        }
        case K_UNDER: re = gen_phi(&r, 0) * 1e-170, im = gen_phi(&r, 0) * 1e-170; break;
        case K_TINYIM: re = gen_phi(&r, 0), im = re * 1e-20; break;
        case K_ZERO: re = which ? -0.0 : 0.0, im = 0.0; break;
        default: re = gen_phi(&r, 0), im = gen_phi(&r, 0); break;
        }
        t[2 * j] = re;
        t[2 * j + 1] = im;
    }
    if (kind == K_SPECIAL && n > 2) {
        if (which == 0)
            t[2 * (n / 2)] = INFINITY;
        else
            t[2 * (n / 3) + 1] = gt_qnan();
    }
}

/* The call through the shim (real = 0) or for real; the legacy ones return the value. */
static cublasStatus_t run(int real, int api, cublasHandle_t hh, int64_t n, const double *x,
                          int64_t incx, const double *y, int64_t incy, double *res)
{
    const cuDoubleComplex *X = (const cuDoubleComplex *)x, *Y = (const cuDoubleComplex *)y;
    cuDoubleComplex *R = (cuDoubleComplex *)res;
    typedef cublasStatus_t (*v2)(cublasHandle_t, int, const cuDoubleComplex *, int,
                                 const cuDoubleComplex *, int, cuDoubleComplex *);
    typedef cublasStatus_t (*v64)(cublasHandle_t, int64_t, const cuDoubleComplex *, int64_t,
                                  const cuDoubleComplex *, int64_t, cuDoubleComplex *);
    typedef cuDoubleComplex (*leg)(int, const cuDoubleComplex *, int, const cuDoubleComplex *,
                                   int);
    void *f = real_fn[api];
    switch (api) {
    case D_C:
    case D_U: {
        v2 g = api == D_C ? cublasZdotc_v2 : cublasZdotu_v2;
        if (real)
            memcpy(&g, &f, sizeof f);
        return g(hh, (int)n, X, (int)incx, Y, (int)incy, R);
    }
    case D_C64:
    case D_U64: {
        v64 g = api == D_C64 ? cublasZdotc_v2_64 : cublasZdotu_v2_64;
        if (real)
            memcpy(&g, &f, sizeof f);
        return g(hh, n, X, incx, Y, incy, R);
    }
    default: {
        leg g = api == D_LC ? cublasZdotc : cublasZdotu;
        if (real)
            memcpy(&g, &f, sizeof f);
        cublasGetError();
        *R = g((int)n, X, (int)incx, Y, (int)incy);
        return cublasGetError();
    }
    }
}

static int same(double a, double b)
{
    return (isnan(a) && isnan(b)) || !memcmp(&a, &b, sizeof a);
}

static void one(int api, int64_t n, int64_t incx, int64_t incy, int kind, int dev, double *hx,
                double *hy, double *dx, double *dy, double *dres)
{
    const int conj = api == D_C || api == D_C64 || api == D_LC;
    const int legacy = api == D_LC || api == D_LU;
    gt_case("%s n=%lld inc %lld,%lld data=%s result=%s", dname[api], (long long)n,
            (long long)incx, (long long)incy, kname[kind], dev ? "device" : "host");
    /* tight data, then strided images with NaN gaps */
    double *tx = gt_hmalloc((size_t)n * 16), *ty = gt_hmalloc((size_t)n * 16);
    gen(tx, n, kind, 7u * (uint64_t)n + (uint64_t)kind, 0);
    gen(ty, n, kind, 11u * (uint64_t)n + (uint64_t)kind + 1, 1);
    const int64_t sx = (n - 1) * (incx < 0 ? -incx : incx) + 1,
                  sy = (n - 1) * (incy < 0 ? -incy : incy) + 1;
    gt_fill_const(hx, (size_t)(2 * sx), gt_qnan());
    gt_fill_const(hy, (size_t)(2 * sy), gt_qnan());
    for (int64_t j = 0; j < n; j++) {
        memcpy(&hx[2 * vi(j, incx, n)], &tx[2 * j], 16);
        memcpy(&hy[2 * vi(j, incy, n)], &ty[2 * j], 16);
    }
    gt_h2d(dx, hx, (size_t)sx * 16);
    gt_h2d(dy, hy, (size_t)sy * 16);
    double want[2] = {0, 0}, got[2] = {0, 0}, real[2] = {0, 0};
    if (!legacy)
        GT_CUBLAS(cublasSetPointerMode_v2(h, dev ? CUBLAS_POINTER_MODE_DEVICE
                                                 : CUBLAS_POINTER_MODE_HOST));
    const cublasStatus_t sr = run(1, api, h, n, dx, incx, dy, incy, dev ? dres : real);
    if (dev)
        gt_d2h(real, dres, 16);
    const cublasStatus_t ss = run(0, api, h, n, dx, incx, dy, incy, dev ? dres : got);
    if (dev)
        gt_d2h(got, dres, 16);
    gt_cmp_status(dname[api], sr, ss);
    if (twin_mode) {
        const double one_[2] = {1.0, 0.0}, zero_[2] = {0.0, 0.0};
        if (repro_zgemm_host(conj ? 'C' : 'T', 'N', 1, 1, n, one_, tx, n, ty, n, zero_, want, 1))
            gt_fatal("repro_zgemm_host: out of memory");
    } else {
        want[0] = real[0], want[1] = real[1];
    }
    for (int p = 0; p < 2; p++)
        if (!same(got[p], want[p]))
            gt_fail("%s: %.17g, want %.17g (%s; real cuBLAS %.17g)", p ? "im" : "re", got[p],
                    want[p], twin_mode ? "correctly rounded" : "real cuBLAS", real[p]);
    if (twin_mode && (!same(real[0], want[0]) || !same(real[1], want[1])) &&
        same(got[0], want[0]) && same(got[1], want[1]))
        engaged = 1;
    free(tx);
    free(ty);
}

static void statuses(double *dx, double *dy, double *dres)
{
    gt_group("invalid arguments and quick returns: the real cuBLAS's status and result");
    for (int api = 0; api < D_LC; api++)
        for (int v = 0; v < 4; v++) {
            if (v == 1)
                continue; /* a NULL result: cuBLAS 13 writes through it (an illegal address) */
            gt_case("%s %s", dname[api], v == 0 ? "NULL handle" : v == 2 ? "n = 0" : "n = -1");
            GT_CUBLAS(cublasSetPointerMode_v2(h, CUBLAS_POINTER_MODE_DEVICE));
            const double nan2[2] = {gt_qnan(), gt_qnan()};
            double r1[2], r2[2];
            gt_h2d(dres, nan2, 16);
            const cublasHandle_t hh = v == 0 ? NULL : h;
            const int64_t n = v == 2 ? 0 : v == 3 ? -1 : 5;
            const cublasStatus_t sr = run(1, api, hh, n, dx, 1, dy, 1, v == 1 ? NULL : dres);
            GT_CUDA(cudaDeviceSynchronize());
            gt_d2h(r1, dres, 16);
            gt_h2d(dres, nan2, 16);
            const cublasStatus_t ss = run(0, api, hh, n, dx, 1, dy, 1, v == 1 ? NULL : dres);
            GT_CUDA(cudaDeviceSynchronize());
            gt_d2h(r2, dres, 16);
            gt_cmp_status(dname[api], sr, ss);
            if (!same(r1[0], r2[0]) || !same(r1[1], r2[1]))
                gt_fail("result %g%+gi, real cuBLAS's %g%+gi", r2[0], r2[1], r1[0], r1[1]);
        }
}

int main(void)
{
    gt_init("zdot");
    twin_mode = gt_mode_is("repro") || gt_mode_is("accurate");
    void *lib = dlopen("libcublas.so.13", RTLD_NOW | RTLD_NOLOAD);
    if (!lib)
        lib = dlopen("libcublas.so.12", RTLD_NOW | RTLD_NOLOAD);
    if (!lib)
        gt_fatal("libcublas is not loaded");
    for (int a = 0; a < D_COUNT; a++) {
        if (!(real_fn[a] = dlsym(lib, dname[a])))
            gt_fatal("no %s in libcublas", dname[a]);
        if (dlsym(RTLD_DEFAULT, dname[a]) == real_fn[a])
            gt_fatal("%s is not intercepted: is libdfshim.so preloaded?", dname[a]);
    }
    printf("zdot: EXBLAS_MODE=%s: every result against %s\n", gt_mode() ? gt_mode() : "(unset)",
           twin_mode ? "the correctly rounded value (repro_zgemm_host)" : "real cuBLAS");
    GT_CUBLAS(cublasCreate_v2(&h));
    if (cublasInit() != CUBLAS_STATUS_SUCCESS)
        gt_fatal("cublasInit failed");
    const int64_t NMAX = (1 << 20) + 3, SMAX = 3 * NMAX;
    double *hx = gt_hmalloc((size_t)SMAX * 16), *hy = gt_hmalloc((size_t)SMAX * 16);
    double *dx = gt_dmalloc((size_t)SMAX * 16), *dy = gt_dmalloc((size_t)SMAX * 16);
    double *dres = gt_dmalloc(16);
    /* 1000: one block; 50003: several, an open result computed by the last (repro's vec.c);
     * 2^20 + 3: several, an open result by the exact kernels */
    static const int64_t ns[6] = {1, 2, 7, 1000, 50003, (1 << 20) + 3};
    static const int64_t incs[4][2] = {{1, 1}, {3, -2}, {-2, 3}, {-1, -1}};
    for (int ni = 0; ni < 6; ni++) {
        gt_group("n = %lld: every entry point x increments x data x result location",
                 (long long)ns[ni]);
        engaged = 0;
        for (int api = 0; api < D_COUNT; api++)
            for (int ii = 0; ii < (ni == 5 ? 2 : 4); ii++)
                for (int kind = 0; kind < K_COUNT; kind++)
                    for (int dev = 0; dev <= (api < D_LC); dev++) {
                        if (ni == 5 && (kind % 2 || dev))
                            continue; /* the long vectors: fewer cases */
                        one(api, ns[ni], incs[ii][0], incs[ii][1], kind, dev, hx, hy, dx, dy,
                            dres);
                    }
        if (twin_mode && ns[ni] >= 7) {
            gt_case("engaged: a result real cuBLAS rounds otherwise and the shim correctly");
            if (!engaged)
                gt_fail("none: nothing shows that the engine computed the calls");
        }
    }
    statuses(dx, dy, dres);
    cublasDestroy_v2(h);
    cublasShutdown();
    return gt_finish();
}
