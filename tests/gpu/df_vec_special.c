/* df_vec_special.c — the df_vec test's groups 3 and 4 (see df_vec.c): Inf, -Inf and NaN in x, y
 * or A give outputs of real cuBLAS's kinds (the others within the bound); DGEMV with alpha = 0 in
 * device memory gives beta*y exactly despite NaN and Inf in A and x. */
#include "df_vec_common.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---------- 3. special values ---------- */

void special_dot_group(void)
{
    static const struct {
        const char *desc;
        int count;
        struct {
            int in_y;
            int64_t at; /* from the start (>= 0) or from the end (< 0: n + at); clipped to n-1 */
            double v;
        } s[4];
    } vs[] = {
        {"x(17)=+Inf, y(17)=0.5 -> +Inf", 2, {{0, 17, INFINITY}, {1, 17, 0.5}}},
        {"x(17)=+Inf, y(17)=-0.5 -> -Inf", 2, {{0, 17, INFINITY}, {1, 17, -0.5}}},
        {"x(17)=NaN -> NaN", 1, {{0, 17, NAN}}},
        {"y(last)=-Inf, x(last)=0.25 -> -Inf", 2, {{1, -1, -INFINITY}, {0, -1, 0.25}}},
        {"x(17)=+Inf, y(17)=0: Inf*0 -> NaN", 2, {{0, 17, INFINITY}, {1, 17, 0.0}}},
        {"x(3)=+Inf y(3)=1, x(last)=+Inf y(last)=-1: Inf + -Inf -> NaN", 4,
         {{0, 3, INFINITY}, {1, 3, 1.0}, {0, -1, INFINITY}, {1, -1, -1.0}}},
        {"x(3)=-Inf, y(3)=+Inf -> -Inf", 2, {{0, 3, -INFINITY}, {1, 3, INFINITY}}},
        {"x(0)=+Inf, y(9)=NaN -> NaN", 2, {{0, 0, INFINITY}, {1, 9, NAN}}},
    };
    static const int64_t ns[3] = {1, 1000, 100003};
    df_group("special values DDOT, n in {1, 1000, 100003} x (incx,incy) in {(1,1),(-2,3)} x "
          "host/device ptr: Inf, -Inf, NaN in x and y (Inf*0, Inf + -Inf): the kind of real "
          "cuBLAS's result (n = 1: the specials fall on the one element)");
    double *x = df_xmalloc(100003), *y = df_xmalloc(100003);
    for (size_t v = 0; v < sizeof vs / sizeof vs[0]; v++)
        for (int ni = 0; ni < 3; ni++) {
            const int64_t n = ns[ni];
            gt_fill(x, (size_t)n, 13000 + v);
            gt_fill(y, (size_t)n, 13100 + v);
            for (int q = 0; q < vs[v].count; q++) {
                int64_t at = vs[v].s[q].at < 0 ? n + vs[v].s[q].at : vs[v].s[q].at;
                if (at >= n)
                    at = n - 1;
                const double val = isnan(vs[v].s[q].v) ? qnan : vs[v].s[q].v;
                (vs[v].s[q].in_y ? y : x)[at] = val;
            }
            for (int c = 0; c < 2; c++) {
                const int64_t incx = c ? -2 : 1, incy = c ? 3 : 1;
                gt_h2d(dX, hX, stage_vec(&sX, x, n, incx, qnan) * sizeof *hX);
                gt_h2d(dY, hY, stage_vec(&sY, y, n, incy, qnan) * sizeof *hY);
                for (int dev = 0; dev < 2; dev++) {
                    const int is64 = (c + dev) & 1;
                    gt_case("%s: %s n=%lld incx=%lld incy=%lld ptr=%s", vs[v].desc,
                            gt_dot_name(is64), (long long)n, (long long)incx, (long long)incy,
                            dev ? "device" : "host");
                    const double r = dot_shim(is64, n, incx, incy, dev);
                    const double rn = dot_real(is64, n, incx, incy, dev);
                    if (fclass(r) != fclass(rn))
                        gt_fail("shim %s (%.17g), real cuBLAS %s (%.17g)", fclass_name[fclass(r)],
                                r, fclass_name[fclass(rn)], rn);
                    if (fclass(rn) == 0)
                        gt_note("real cuBLAS's result is finite (%.17g)", rn);
                }
            }
        }
    free(x);
    free(y);
    df_group_end();
}

/* DGEMV special values, on the stored m x n matrix A, xN (n), xT (m), yN (m), yT (n). */
static const char *const gemv_special_desc[] = {
    "A(5,7)=+Inf A(20,30)=-Inf A(40,3)=NaN",
    "A(5,7)=+Inf with x 0 where it multiplies it: Inf*0 -> NaN",
    "A(9,1)=A(1,9)=+Inf, A(9,150%n)=A(150%m,9)=+Inf, the x they meet of opposite signs: "
    "Inf + -Inf -> NaN; A(10,1..2), A(1..2,10)=+Inf, x positive: +Inf",
    "x(7)=+Inf (op N) / x(5)=+Inf (op T), A(3,7) = A(5,3) = 0: every output +-Inf, NaN at 3",
    "x(11)=NaN: every output NaN",
    "y(4)=+Inf y(8)=NaN y(12)=-Inf (the input y: non-finite results for beta != 0 only)",
};
#define N_GSPECIAL (int)(sizeof gemv_special_desc / sizeof gemv_special_desc[0])

static void special_edit_gemv(int v, double *A, int64_t m, int64_t n, double *xN, double *xT,
                              double *yN, double *yT)
{
    switch (v) {
    case 0:
        A[5 + 7 * m] = INFINITY;
        A[20 + 30 * m] = -INFINITY;
        A[40 + 3 * m] = qnan;
        break;
    case 1:
        A[5 + 7 * m] = INFINITY;
        xN[7] = 0.0;
        xT[5] = 0.0;
        break;
    case 2: {
        const int64_t pn = 150 % n, pm = 150 % m;
        A[9 + 1 * m] = INFINITY;
        A[9 + pn * m] = INFINITY;
        xN[1] = 0.5;
        xN[pn] = -0.5;
        A[1 + 9 * m] = INFINITY;
        A[pm + 9 * m] = INFINITY;
        xT[1] = 0.5;
        xT[pm] = -0.5;
        A[10 + 1 * m] = A[10 + 2 * m] = INFINITY;
        A[1 + 10 * m] = A[2 + 10 * m] = INFINITY;
        xN[2] = 0.25;
        xT[2] = 0.25;
        /* row 10 (N) also meets x(pn) < 0 when A(10,pn) is finite: fine; column 10 (T) too */
        break;
    }
    case 3:
        xN[7] = INFINITY;
        xT[5] = INFINITY;
        A[3 + 7 * m] = 0.0;
        A[5 + 3 * m] = 0.0;
        break;
    case 4:
        xN[11] = qnan;
        xT[11] = qnan;
        break;
    case 5:
        yN[4] = yT[4] = INFINITY;
        yN[8] = yT[8] = qnan;
        yN[12] = yT[12] = -INFINITY;
        break;
    default:
        break;
    }
}

static int all_finite_out(const double *A, int64_t m, int64_t n, int trans, int64_t r,
                          const double *x)
{
    const int64_t k = trans ? m : n;
    for (int64_t p = 0; p < k; p++) {
        const double a = trans ? A[p + r * m] : A[r + p * m];
        if (!isfinite(a) || !isfinite(x[p]))
            return 0;
    }
    return 1;
}

void special_gemv_group(void)
{
    static const int64_t shapes[2][2] = {{300, 200}, {64, 5000}};
    static const double abs_[2][2] = {{-1.5, 0.5}, {-1.5, 0}};
    df_group("special values DGEMV, m x n in {300x200, 64x5000} x ops N,T,C x lda +5 x (incx,incy) "
          "in {(1,1),(-2,-2)} x (alpha,beta) in {(-1.5,0.5),(-1.5,0)} x host/device ptr: every "
          "output of the kind of real cuBLAS's; outputs that meet no Inf/NaN finite and within "
          "%s", df_test_bound_text(scheme));
    const size_t maxA = 300 * 200 > 64 * 5000 ? 300 * 200 : 64 * 5000;
    double *A = df_xmalloc(maxA), *xN = df_xmalloc(5000), *xT = df_xmalloc(300), *yN = df_xmalloc(5000),
           *yT = df_xmalloc(5000), *nan_vec = df_xmalloc(5000);
    double *yl = df_xmalloc(5000), *yn = df_xmalloc(5000);
    vref *R = malloc(5000 * sizeof *R);
    char *clean = malloc(5000);
    if (!R || !clean)
        gt_fatal("out of host memory");
    gt_fill_const(nan_vec, 5000, qnan);
    int counter = 0;
    for (int v = 0; v < N_GSPECIAL; v++)
        for (int si = 0; si < 2; si++) {
            const int64_t m = shapes[si][0], n = shapes[si][1], lda = m + 5;
            const uint64_t seed = 14000 + 10 * (uint64_t)v + (uint64_t)si;
            gt_fill(A, (size_t)(m * n), seed);
            gt_fill(xN, (size_t)n, seed + 1);
            gt_fill(xT, (size_t)m, seed + 2);
            gt_fill(yN, (size_t)m, seed + 3);
            gt_fill(yT, (size_t)n, seed + 4);
            special_edit_gemv(v, A, m, n, xN, xT, yN, yT);
            upload_A(dA, hA, A_BUF, A, m, n, lda);
            for (int t = 0; t < 3; t++) {
                const int tr = t > 0;
                const cublasOperation_t op = t == 0 ? CUBLAS_OP_N : t == 1 ? CUBLAS_OP_T
                                                                           : CUBLAS_OP_C;
                const int64_t len = tr ? n : m, k = tr ? m : n;
                const double *xv = tr ? xT : xN, *y0 = tr ? yT : yN;
                for (int64_t r = 0; r < len; r++) {
                    clean[r] = (char)all_finite_out(A, m, n, tr, r, xv);
                    if (clean[r])
                        R[r] = ref_out(A, m, n, tr, r, xv, 0);
                }
                for (int c = 0; c < 2; c++) {
                    const int64_t inc = c ? -2 : 1;
                    gemv_vectors(xv, k, y0, nan_vec, len, inc);
                    for (int ab = 0; ab < 2; ab++)
                        for (int dev = 0; dev < 2; dev++) {
                            const double alpha = abs_[ab][0], beta = abs_[ab][1];
                            const int is64 = counter++ & 1;
                            const gparams p = gemv_case(gemv_special_desc[v], op, m, n, lda, inc,
                                                        alpha, beta, dev, is64);
                            const double *ytm = hYt[beta == 0.0];
                            run_gemv(0, &p, ytm, yl);
                            run_gemv(1, &p, ytm, yn);
                            int64_t nk = 0, fk = -1, nonfin = 0;
                            errs e;
                            errs_init(&e);
                            for (int64_t r = 0; r < len; r++) {
                                const int cs = fclass(yl[r]), cr = fclass(yn[r]);
                                nonfin += cr != 0;
                                if (cs != cr && !nk++)
                                    fk = r;
                                const int meets = !clean[r] || (beta != 0.0 && !isfinite(y0[r]));
                                if (!meets) {
                                    verdict vd = judge(yl[r], &R[r], alpha, beta,
                                                       beta == 0.0 ? 0.0 : y0[r], df_test_bound(scheme, k));
                                    errs_add(&e, &vd, r, yl[r]);
                                }
                            }
                            if (nk)
                                gt_fail("%lld outputs differ in kind from real cuBLAS; first "
                                        "y(%lld): shim %s (%.17g), real %s (%.17g)",
                                        (long long)nk, (long long)fk, fclass_name[fclass(yl[fk])],
                                        yl[fk], fclass_name[fclass(yn[fk])], yn[fk]);
                            errs_report(&e, "outputs that meet no Inf/NaN", df_test_bound(scheme, k));
                            if (nonfin == 0 && !(v == 5 && beta == 0.0))
                                gt_note("real cuBLAS gives no non-finite output here");
                        }
                }
            }
        }
    free(A);
    free(xN);
    free(xT);
    free(yN);
    free(yT);
    free(nan_vec);
    free(yl);
    free(yn);
    free(R);
    free(clean);
    df_group_end();
}

/* ---------- 4. alpha = 0 in device memory ---------- */

void alpha0_group(void)
{
    const int64_t m = 130, n = 140, lda = m + 3;
    static const double bts[4] = {1, -0.75, 0, 3};
    df_group("alpha = 0 in device memory, DGEMV %lldx%lld lda %lld, NaN and Inf in A and x: y = "
          "beta*y exactly (0 for beta = 0 with y full of NaN); ops N,T,C x incy {1,-2} x "
          "beta {1,-0.75,0,3} x 32/64-bit API", (long long)m, (long long)n, (long long)lda);
    double *A = df_xmalloc((size_t)(m * n)), *xN = df_xmalloc((size_t)n), *xT = df_xmalloc((size_t)m);
    double *yN = df_xmalloc((size_t)n), *yT = df_xmalloc((size_t)n), *nan_vec = df_xmalloc((size_t)n);
    double *yl = df_xmalloc((size_t)n), *yn = df_xmalloc((size_t)n), *expect = df_xmalloc((size_t)n);
    gt_fill(A, (size_t)(m * n), 15001);
    gt_fill(xN, (size_t)n, 15002);
    gt_fill(xT, (size_t)m, 15003);
    gt_fill(yN, (size_t)m, 15004);
    gt_fill(yT, (size_t)n, 15005);
    gt_fill_const(nan_vec, (size_t)n, qnan);
    A[0] = qnan;
    A[64 + 30 * m] = qnan;
    A[10 + 10 * m] = INFINITY;
    A[129 + 139 * m] = -INFINITY;
    xN[5] = qnan;
    xN[77] = INFINITY;
    xT[5] = qnan;
    xT[77] = -INFINITY;
    upload_A(dA, hA, A_BUF, A, m, n, lda);
    for (int t = 0; t < 3; t++) {
        const int tr = t > 0;
        const cublasOperation_t op = t == 0 ? CUBLAS_OP_N : t == 1 ? CUBLAS_OP_T : CUBLAS_OP_C;
        const int64_t len = tr ? n : m, k = tr ? m : n;
        const double *xv = tr ? xT : xN, *y0 = tr ? yT : yN;
        gt_h2d(dX, xv, (size_t)k * sizeof *xv);
        for (int c = 0; c < 2; c++) {
            const int64_t incy = c ? -2 : 1;
            lay_vec(hYt[0], y0, len, incy, Y_GAP);
            lay_vec(hYt[1], nan_vec, len, incy, Y_GAP);
            for (int bi = 0; bi < 4; bi++)
                for (int is64 = 0; is64 < 2; is64++) {
                    const double beta = bts[bi];
                    gt_case("%s op=%c incy=%lld alpha=0 (device) beta=%g", gt_gemv_name(is64),
                            gt_op_char(op), (long long)incy, beta);
                    gparams p = {op, m, n, lda, 1, incy, 0.0, beta, 1, is64, dA, dX};
                    const double *ytm = hYt[beta == 0.0];
                    run_gemv(0, &p, ytm, yl);
                    for (int64_t r = 0; r < len; r++)
                        expect[r] = beta == 0.0 ? 0.0 : beta * y0[r];
                    same_bits("y vs beta*y", expect, yl, len, "beta*y", "shim");
                    run_gemv(1, &p, ytm, yn);
                    if (memcmp(expect, yn, (size_t)len * sizeof *yn))
                        gt_note("real cuBLAS differs from beta*y here (not checked)");
                }
        }
    }
    free(A);
    free(xN);
    free(xT);
    free(yN);
    free(yT);
    free(nan_vec);
    free(yl);
    free(yn);
    free(expect);
    df_group_end();
}

