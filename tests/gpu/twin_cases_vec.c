/* twin_cases_vec.c — groups 0-2 of the repro and dd tests (repro.c says what they run): the
 * calls reach the engine, DDOT and DGEMV; and the DDOT and DGEMV layouts group 5 runs again. */
#include "twin_cases.h"

#include "../common/gen.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------- 0. the calls reach the engine ---------- */

void engaged_group(void)
{
    df_group("engaged: dot products a plain binary64 sum gets wrong, through DDOT (host/device "
             "pointers), DGEMV (1 x n N, n x 1 T) and DGEMM (1x1xn): the CPU's bits; and for each "
             "routine a case where real cuBLAS differs");
    enum { NE = 4 };
    const int64_t lens[NE] = {3, 4, 1000, 100000};
    const char *const names[NE] = {"{1, 2^-53, 2^-53} . {1, 1, 1}",
                                   "{1+2^-52, 1+2^-52, -1, -1} . {1-2^-52, 1-2^-52, 1, 1}",
                                   "GenDot n = 1000, cond 1e20", "GenDot n = 100000, cond 1e30"};
    double *x = df_xmalloc(100000), *y = df_xmalloc(100000);
    int differs[3] = {0, 0, 0}; /* real cuBLAS != RN: DDOT, DGEMV, DGEMM */
    for (int e = 0; e < NE; e++) {
        const int64_t n = lens[e];
        double want_rn = NAN;
        if (e == 0) {
            const double xs[3] = {1, 0x1p-53, 0x1p-53}, ys[3] = {1, 1, 1};
            memcpy(x, xs, sizeof xs);
            memcpy(y, ys, sizeof ys);
            want_rn = 1 + 0x1p-52;
        } else if (e == 1) {
            const double xs[4] = {1 + 0x1p-52, 1 + 0x1p-52, -1, -1};
            const double ys[4] = {1 - 0x1p-52, 1 - 0x1p-52, 1, 1};
            memcpy(x, xs, sizeof xs);
            memcpy(y, ys, sizeof ys);
            want_rn = -0x1p-103;
        } else {
            gendot(n, e == 2 ? 1e20 : 1e30, x, y, 100 + (uint64_t)e);
        }
        const double rn = dot_ref(n, x, y, NULL);
        /* the same sums as DGEMV (1 x n N, n x 1 T) and DGEMM 1 x 1 x n: for repro RN again, for
         * dd each routine's own order */
        double rn_gemv[2], rn_gemm, zero = 0.0;
        gemv_ref(0, 1, n, 1.0, x, y, 0.0, &zero, &rn_gemv[0]);
        gemv_ref(1, n, 1, 1.0, x, y, 0.0, &zero, &rn_gemv[1]);
        gemm_ref(1, 1, n, 1.0, x, y, 0.0, &zero, &rn_gemm, NULL);
        double plain = 0;
        for (int64_t i = 0; i < n; i++)
            plain += x[i] * y[i];
        gt_case("%s: the CPU implementation and a plain loop", names[e]);
        if (e < 2 && !same(rn, want_rn))
            gt_fail("the CPU implementation gives %a, not %a", rn, want_rn);
        if (same(plain, rn))
            gt_note("a plain left-to-right binary64 loop gives RN too (%.17g)", plain);
        gt_h2d(dX, x, (size_t)n * sizeof *x);
        gt_h2d(dY, y, (size_t)n * sizeof *y);
        /* DDOT */
        for (int dev = 0; dev < 2; dev++)
            for (int is64 = 0; is64 < 2; is64++) {
                gt_case("%s: %s ptr=%s", names[e], gt_dot_name(is64), dev ? "device" : "host");
                const double r = run_dot(0, handle, is64, n, dX, 1, dY, 1, dev);
                cmp_one("result", rn, r);
                const double rr = run_dot(1, handle, is64, n, dX, 1, dY, 1, dev);
                differs[0] += !same(rr, rn);
            }
        /* DGEMV: x as a 1 x n matrix (op N) and as an n x 1 matrix (op T), times y */
        gt_h2d(dA, x, (size_t)n * sizeof *x);
        gt_h2d(dB, y, (size_t)n * sizeof *y);
        for (int t = 0; t < 2; t++)
            for (int is64 = 0; is64 < 2; is64++) {
                const int dev = is64; /* both pointer modes, both entry points */
                gt_case("%s: %s op=%c ptr=%s", names[e], gt_gemv_name(is64), t ? 'T' : 'N',
                        dev ? "device" : "host");
                gparams p = {t ? CUBLAS_OP_T : CUBLAS_OP_N, t ? n : 1, t ? 1 : n, t ? n : 1, 1, 1,
                             1.0, 0.0, dev, is64, dA, dB};
                double got, real_y;
                lay_vec(hYt[0], &qnan, 1, 1, Y_GAP);
                call_gemv(&bufs, 0, handle, &p, hYt[0], &got);
                cmp_one("y", rn_gemv[t], got);
                call_gemv(&bufs, 1, handle, &p, hYt[0], &real_y);
                differs[1] += !same(real_y, rn_gemv[t]);
            }
        /* DGEMM 1 x 1 x n: op(A) = x as a row, op(B) = y as a column */
        for (int api = 0; api < 2; api++) {
            gt_case("%s: %s 1x1x%lld NN ptr=%s", names[e],
                    gt_gemm_api_name[api ? GT_GEMMEX : GT_DGEMM], (long long)n,
                    api ? "device" : "host");
            gt_gemm g = {.api = api ? GT_GEMMEX : GT_DGEMM, .ta = CUBLAS_OP_N, .tb = CUBLAS_OP_N,
                         .m = 1, .n = 1, .k = n, .lda = 1, .ldb = n, .ldc = 1, .batch = 1,
                         .typeA = CUDA_R_64F, .typeB = CUDA_R_64F, .typeC = CUDA_R_64F,
                         .compute = CUBLAS_COMPUTE_64F, .algo = CUBLAS_GEMM_DEFAULT, .A = dA,
                         .B = dB};
            hCt[0] = qnan;
            check_status(gt_gemm_api_name[g.api],
                         call_gemm(&bufs, 0, handle, &g, api, 1.0, 0.0, 1));
            cmp_one("C", rn_gemm, hCo[0]);
            call_gemm(&bufs, 1, handle, &g, api, 1.0, 0.0, 1);
            differs[2] += !same(hCo[0], rn_gemm);
        }
    }
    static const char *const routine[3] = {"DDOT", "DGEMV", "DGEMM"};
    for (int r = 0; r < 3; r++) {
        gt_case("%s: real cuBLAS misses RN somewhere (else this group proves nothing)",
                routine[r]);
        if (!differs[r])
            gt_fail("real cuBLAS gives the correctly rounded value in every case: the group "
                    "cannot tell that the shimmed %s calls reached the engine", routine[r]);
    }
    free(x);
    free(y);
    df_group_end();
}

/* ---------- 1. DDOT ---------- */

enum {
    DS_NONE,
    DS_NAN,       /* a NaN in x */
    DS_PINF,      /* +Inf in x, a positive y beside it */
    DS_NINF_Y,    /* -Inf in y, a positive x beside it */
    DS_INF_INF,   /* a +Inf and a -Inf product */
    DS_INF_ZERO,  /* Inf * 0 */
    DS_OVF,       /* one product 1e300 * 1e10 (operands finite): the exact sum overflows */
    DS_OVF_CANCEL, /* products 1e310 and -1e310: they cancel, the exact sum is finite */
    DS_UNDER,      /* x and y times 2^-530: every product underflows */
    DS_TINY_CANCEL /* pairs of products that cancel exactly, and between them pairs of products
                      near 2^-1000 (x times 2^-1000): the result is the tiny ones' sum */
};

typedef struct {
    const char *name;
    int gx, gy, special;
} dot_kind;

static const dot_kind dot_kinds[] = {
    {"phi0", G_PHI0, G_PHI0, DS_NONE},
    {"phi1", G_PHI1, G_PHI1, DS_NONE},
    {"phi4", G_PHI4, G_PHI4, DS_NONE},
    {"phi8", G_PHI8, G_PHI8, DS_NONE},
    {"x 1e+-300 mixed, y phi1", G_MIXED, G_PHI1, DS_NONE},
    {"x subnormals (1/4 phi1 * 2^900), y phi1", G_SUBNORMAL, G_PHI1, DS_NONE},
    {"x, y subnormals (1/4 phi1 * 2^900)", G_SUBNORMAL, G_SUBNORMAL, DS_NONE},
    {"signed zeros and small integers", G_ZEROS, G_ZEROS, DS_NONE},
    {"phi1, a NaN in x", G_PHI1, G_PHI1, DS_NAN},
    {"phi1, +Inf in x", G_PHI1, G_PHI1, DS_PINF},
    {"phi1, -Inf in y", G_PHI1, G_PHI1, DS_NINF_Y},
    {"phi1, +Inf and -Inf products", G_PHI1, G_PHI1, DS_INF_INF},
    {"phi1, Inf * 0", G_PHI1, G_PHI1, DS_INF_ZERO},
    {"phi1, a product 1e300 * 1e10", G_PHI1, G_PHI1, DS_OVF},
    {"phi1, products +-1e300 * 1e10 that cancel", G_PHI1, G_PHI1, DS_OVF_CANCEL},
    {"products underflowing (phi0 x 2^-530 each)", G_PHI0, G_PHI0, DS_UNDER},
    {"products near 2^-1000 between ones that cancel", G_PHI0, G_PHI0, DS_TINY_CANCEL},
};
#define N_DOT_KINDS ((int)(sizeof dot_kinds / sizeof dot_kinds[0]))
/* the kinds run at n = 2^24 + 3 */
static const int big_kinds[] = {0, 2, 4, 5, 11, 14, 15, 16};

static void dot_special(int sp, double *x, double *y, int64_t n)
{
    const int64_t p1 = n / 3, p2 = (2 * n) / 3;
    const int two = p2 != p1;
    switch (sp) {
    case DS_NAN:
        x[p1] = qnan;
        break;
    case DS_PINF:
        x[p1] = INFINITY;
        y[p1] = 0.75;
        break;
    case DS_NINF_Y:
        x[p1] = 1.25;
        y[p1] = -INFINITY;
        break;
    case DS_INF_INF:
        x[p1] = INFINITY;
        y[p1] = 2.0;
        if (two) {
            x[p2] = 3.0;
            y[p2] = -INFINITY;
        }
        break;
    case DS_INF_ZERO:
        x[p1] = -INFINITY;
        y[p1] = 0.0;
        break;
    case DS_OVF:
        x[p1] = 1e300;
        y[p1] = 1e10;
        break;
    case DS_OVF_CANCEL:
        x[p1] = 1e300;
        y[p1] = 1e10;
        if (two) {
            x[p2] = -1e300;
            y[p2] = 1e10;
        }
        break;
    case DS_UNDER:
        for (int64_t i = 0; i < n; i++) {
            x[i] = ldexp(x[i], -530);
            y[i] = ldexp(y[i], -530);
        }
        break;
    case DS_TINY_CANCEL:
        for (int64_t i = 0; i + 1 < n; i += 2) {
            if ((i / 2) % 2 == 0) {
                x[i + 1] = -x[i];
                y[i + 1] = y[i];
            } else {
                x[i] = ldexp(x[i], -1000);
                x[i + 1] = ldexp(x[i + 1], -1000);
            }
        }
        break;
    default:
        break;
    }
}

static const int64_t dot_incs[5][2] = {{1, 1}, {3, -2}, {-2, 3}, {-2, -2}, {1, 3}};

void dot_layouts(const char *desc, const double *x, const double *y, int64_t n, int nincs,
                 double want)
{
    for (int ic = 0; ic < nincs; ic++) {
        const int64_t incx = dot_incs[ic][0], incy = dot_incs[ic][1];
        gt_h2d(dX, hX, lay_vec(hX, x, n, incx, qnan) * sizeof *hX);
        gt_h2d(dY, hY, lay_vec(hY, y, n, incy, qnan) * sizeof *hY);
        for (int dev = 0; dev < 2; dev++) {
            const int is64 = call_counter++ & 1;
            gt_case("%s n=%lld incx=%lld incy=%lld %s ptr=%s", gt_dot_name(is64), (long long)n,
                    (long long)incx, (long long)incy, desc, dev ? "device" : "host");
            cmp_one("result", want, run_dot(0, handle, is64, n, dX, incx, dY, incy, dev));
        }
    }
}

void dot_group(void)
{
    /* 1000: one block; 100003: several, an open result computed by the last (vec.c); 2^20 and
     * up: several, an open result by the exact kernels */
    static const int64_t ns[7] = {1, 2, 7, 1000, 100003, (int64_t)1 << 20, DOT_MAXN};
    df_group("DDOT: n in {1, 2, 7, 1000, 100003, 2^20, 2^24+3} x up to 5 (incx, incy) x %d kinds "
             "of data "
             "(phi, 1e+-300, subnormals, zeros, Inf/NaN, overflow) and GenDot x host/device "
             "pointers: bitwise the CPU's", N_DOT_KINDS);
    double *x = df_xmalloc((size_t)DOT_MAXN), *y = df_xmalloc((size_t)DOT_MAXN);
    int64_t slow_cases = 0, cases = 0;
    for (int ni = 0; ni < 7; ni++) {
        const int64_t n = ns[ni];
        const int big = n == DOT_MAXN;
        const int nk = big ? (int)(sizeof big_kinds / sizeof big_kinds[0]) : N_DOT_KINDS;
        const int nincs = big ? 2 : n >= 100003 ? 3 : 5;
        for (int ki = 0; ki < nk; ki++) {
            const dot_kind *k = &dot_kinds[big ? big_kinds[ki] : ki];
            const uint64_t seed = 1000 + 100 * (uint64_t)ni + (uint64_t)ki;
            fill(x, n, k->gx, seed);
            fill(y, n, k->gy, seed + 50);
            dot_special(k->special, x, y, n);
            int64_t slow;
            const double want = dot_ref(n, x, y, &slow);
            slow_cases += slow > 0;
            cases++;
            dot_layouts(k->name, x, y, n, nincs, want);
        }
    }
    static const double conds[5] = {1e8, 1e32, 1e100, 1e200, 1e300};
    for (int ni = 0; ni < 2; ni++)
        for (int c = 0; c < 5; c++) {
            const int64_t n = ni ? 100000 : 1000;
            gendot(n, conds[c], x, y, 5000 + 10 * (uint64_t)ni + (uint64_t)c);
            int64_t slow;
            const double want = dot_ref(n, x, y, &slow);
            slow_cases += slow > 0;
            cases++;
            char desc[64];
            snprintf(desc, sizeof desc, "GenDot cond %g", conds[c]);
            dot_layouts(desc, x, y, n, 2, want);
        }
    free(x);
    free(y);
    df_group_end();
    printf("     (%lld of %lld data sets took the CPU's slow path)\n", (long long)slow_cases,
           (long long)cases);
}

/* ---------- 2. DGEMV ---------- */

typedef struct {
    const char *name;
    int ga, gx;
    int scale; /* A and x times 2^scale (0: as made) */
} gemv_kind;

#define GEMV_KINDS 6
static const gemv_kind gemv_kinds[GEMV_KINDS] = {
    {"phi0", G_PHI0, G_PHI0, 0},
    {"phi4", G_PHI4, G_PHI4, 0},
    {"A 1e+-300 mixed, x phi1", G_MIXED, G_PHI1, 0},
    {"phi8", G_PHI8, G_PHI8, 0},
    {"A subnormal, x phi0", G_SUBNORMAL, G_PHI0, 0},
    {"products underflowing (phi0 x 2^-530 each)", G_PHI0, G_PHI0, -530}};

/* v[0 .. n-1] *= 2^e (exact: the values stay normal). */
static void scale_by(double *v, int64_t n, int e)
{
    for (int64_t i = 0; e && i < n; i++)
        v[i] = ldexp(v[i], e);
}

void upload_xs(const double *xN, const double *xT, const double *xN0, const double *xT0,
               int64_t m, int64_t n, int64_t incx)
{
    const double *v[4] = {xN, xT, xN0, xT0};
    const int64_t len[4] = {n, m, n, m};
    for (int q = 0; q < 4; q++) {
        const size_t sp = lay_vec(hX, v[q], len[q], incx, qnan);
        if (sp > XOFF)
            gt_fatal("test bug: x span %zu > %zu", sp, XOFF);
        gt_h2d(dX + (size_t)q * XOFF, hX, sp * sizeof *hX);
    }
}

void gemv_layout(const char *desc, int64_t m, int64_t n, int64_t lda, int64_t incx,
                 int64_t incy, const int *abs_, int nab, double *ref[2][NAB], double *yl)
{
    for (int ai = 0; ai < nab; ai++) {
        const int ab = abs_[ai];
        const double alpha = ab_alpha(ab), beta = ab_beta(ab);
        for (int dev = 0; dev < 2; dev++)
            for (int t = 0; t < 3; t++) {
                const int tr = t > 0;
                const cublasOperation_t op = t == 0 ? CUBLAS_OP_N : t == 1 ? CUBLAS_OP_T
                                                                           : CUBLAS_OP_C;
                const int64_t len = tr ? n : m;
                const int is64 = call_counter++ & 1;
                gparams p = {op, m, n, lda, incx, incy, alpha, beta, dev, is64,
                             alpha == 0 ? dA0 : dA,
                             dX + (size_t)(2 * (alpha == 0) + tr) * XOFF};
                gt_case("%s %lldx%lld op=%c lda=%lld incx=%lld incy=%lld alpha=%g beta=%g %s "
                        "ptr=%s", gt_gemv_name(is64), (long long)m, (long long)n,
                        gt_op_char(op), (long long)lda, (long long)incx, (long long)incy, alpha,
                        beta, desc, dev ? "device" : "host");
                call_gemv(&bufs, 0, handle, &p, hYt[2 * tr + (beta == 0)], yl);
                cmp_out("y", ref[tr][ab], yl, len, 0);
            }
    }
}

void gemv_group(void)
{
    static const int64_t shapes[7][2] = {{1, 1},       {37, 19},    {1000, 300}, {300, 1000},
                                         {4096, 4096}, {16384, 64}, {64, 16384}};
    static const int64_t incs[4][2] = {{1, 1}, {-2, -2}, {1, -2}, {-2, 1}};
    df_group("DGEMV: N, T, C x 7 shapes up to 4096^2 x lda tight/+5 x incs {1,-2}^2 x alpha "
             "{1,0.5,-3,0} x beta {0,1,-0.75} x host/device pointers x {phi0, phi4, 1e+-300, "
             "phi8, subnormal, underflowing}: every output bitwise the CPU's");
    const size_t maxlen = 16384;
    double *A = df_xmalloc(A_BUF), *A0 = df_xmalloc(A_BUF);
    double *xN = df_xmalloc(maxlen), *xT = df_xmalloc(maxlen), *xN0 = df_xmalloc(maxlen),
           *xT0 = df_xmalloc(maxlen), *yN = df_xmalloc(maxlen), *yT = df_xmalloc(maxlen);
    double *nan_vec = df_xmalloc(maxlen), *yl = df_xmalloc(maxlen);
    double *ref[2][NAB];
    for (int t = 0; t < 2; t++)
        for (int ab = 0; ab < NAB; ab++)
            ref[t][ab] = df_xmalloc(maxlen);
    gt_fill_const(nan_vec, maxlen, qnan);
    int all_ab[NAB];
    for (int ab = 0; ab < NAB; ab++)
        all_ab[ab] = ab;
    int64_t slow = 0, outputs = 0;
    for (int si = 0; si < 7; si++) {
        const int64_t m = shapes[si][0], n = shapes[si][1];
        const int huge = m * n > 2000000;
        for (int ki = 0; ki < GEMV_KINDS; ki++) {
            const gemv_kind *k = &gemv_kinds[ki];
            const uint64_t seed = 2000 + 100 * (uint64_t)si + 10 * (uint64_t)ki;
            fill(A, m * n, k->ga, seed);
            fill(xN, n, k->gx, seed + 1);
            fill(xT, m, k->gx, seed + 2);
            scale_by(A, m * n, k->scale);
            scale_by(xN, n, k->scale);
            scale_by(xT, m, k->scale);
            fill(yN, m, G_PHI1, seed + 3);
            fill(yT, n, G_PHI1, seed + 4);
            poison(A0, A, m * n);
            poison(xN0, xN, n);
            poison(xT0, xT, m);
            for (int t = 0; t < 2; t++)
                for (int ab = 0; ab < NAB; ab++) {
                    const double alpha = ab_alpha(ab), beta = ab_beta(ab);
                    const double *xa = alpha == 0 ? (t ? xT0 : xN0) : (t ? xT : xN);
                    slow += gemv_ref(t, m, n, alpha, alpha == 0 ? A0 : A, xa, beta,
                                     beta == 0 ? nan_vec : t ? yT : yN, ref[t][ab]);
                    outputs += t ? n : m;
                }
            for (int pad = 0; pad <= 5; pad += 5) {
                const int64_t lda = m + pad;
                upload_A(dA, hA, A_BUF, A, m, n, lda);
                upload_A(dA0, hA, A_BUF, A0, m, n, lda);
                for (int ic = 0; ic < (huge ? 2 : 4); ic++) {
                    const int64_t incx = incs[ic][0], incy = incs[ic][1];
                    upload_xs(xN, xT, xN0, xT0, m, n, incx);
                    make_ytemplates(hYt, yN, yT, m, n, incy, nan_vec, Y_GAP);
                    gemv_layout(k->name, m, n, lda, incx, incy, all_ab, NAB, ref, yl);
                }
            }
        }
    }
    free(A);
    free(A0);
    free(xN);
    free(xT);
    free(xN0);
    free(xT0);
    free(yN);
    free(yT);
    free(nan_vec);
    free(yl);
    for (int t = 0; t < 2; t++)
        for (int ab = 0; ab < NAB; ab++)
            free(ref[t][ab]);
    df_group_end();
    printf("     (%lld of %lld CPU outputs took the slow path)\n", (long long)slow,
           (long long)outputs);
}
