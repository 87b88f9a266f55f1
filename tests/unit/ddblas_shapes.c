/* ddblas_shapes.c — libddblas unit tests, part 3 (see test_ddblas.c): what holds by design of
 * the order (ddx_steps.h) — the same bits for a vector given with increment 1 or as the same
 * logical vector stored reversed with a negative increment, for any op character of the same
 * meaning, for a GEMM output whatever m, n, the op and the leading dimensions (its order depends
 * on k alone), for values that one format holds exactly given in another; AXPY's error against
 * MPFR; the empty shapes; and the argument rules (each invalid argument: DDBLAS_INVALID_VALUE,
 * nothing written). */
#include "../../engines/common/dd.h"
#include "ddblas_test.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The array from element off on. */
static ddblas_array at(ddblas_array a, int64_t off)
{
    a.hi += off;
    a.lo = (char *)a.lo + off * (int64_t)ddt_lo_size(a.fmt);
    return a;
}

/* A new array of n elements of format f holding v at base + i inc (the rest zero). */
static ddblas_array vec(ddblas_format f, const ddblas_dd *v, int64_t n, int64_t inc)
{
    const int64_t span = 1 + (n - 1) * (inc < 0 ? -inc : inc);
    ddblas_array a = ddt_alloc(f, (size_t)span);
    ddt_store(a, v, (size_t)n, inc < 0 ? (n - 1) * -inc : 0, inc);
    return a;
}

static void same_elems(ddblas_array a, int64_t abase, int64_t ainc, ddblas_array b, int64_t bbase,
                       int64_t binc, int64_t n, const char *what)
{
    for (int64_t i = 0; i < n; i++) {
        const ddblas_dd x = ddblas_get(a, abase + i * ainc), y = ddblas_get(b, bbase + i * binc);
        DDT_CHECK(dd_same(x, y), "%s: element %lld differs: %a + %a vs %a + %a", what,
                      (long long)i, x.hi, x.lo, y.hi, y.lo);
    }
}

START_TEST(increments)
{
    enum { N = 5000, M = 37 };
    rng r = rng_seed(1200);
    static ddblas_dd xv[N], yv[N], Av[M * N];
    ddt_gen(&r, xv, N, 1, 0);
    ddt_gen(&r, yv, N, 1, 0);
    ddt_gen(&r, Av, M * N, 1, 0);
    const ddblas_dd alpha = {0.8125, -0x1.3p-57}, beta = {-1.5, 0x1.1p-55};
    /* DOT (5 chunks): x with increment -3, y with 2 */
    ddblas_array x1 = vec(DDBLAS_DI_NEAREST, xv, N, 1), x3 = vec(DDBLAS_DI_NEAREST, xv, N, -3),
                 y1 = vec(DDBLAS_DS, yv, N, 1), y2 = vec(DDBLAS_DS, yv, N, 2);
    ddblas_dd d1, d2;
    ck_assert_int_eq(ddblas_dot_host(N, x1, 1, y1, 1, &d1), DDBLAS_SUCCESS);
    ck_assert_int_eq(ddblas_dot_host(N, x3, -3, y2, 2, &d2), DDBLAS_SUCCESS);
    ck_assert(dd_same(d1, d2));
    /* GEMV op N (M outputs, K = N) and op T (N outputs, K = M): x -3, y -2 */
    ddblas_array A = vec(DDBLAS_DD, Av, M * N, 1);
    for (int t = 0; t < 2; t++) {
        const int64_t len = t ? N : M, K = t ? M : N;
        ddblas_array xa = vec(DDBLAS_DS, xv, K, 1), xb = vec(DDBLAS_DS, xv, K, -3),
                     ya = vec(DDBLAS_DI, yv, len, 1), yb = vec(DDBLAS_DI, yv, len, -2);
        ck_assert_int_eq(ddblas_gemv_host(t ? 'T' : 'N', M, N, alpha, A, M, xa, 1, beta, ya, 1),
                         DDBLAS_SUCCESS);
        ck_assert_int_eq(ddblas_gemv_host(t ? 'T' : 'N', M, N, alpha, A, M, xb, -3, beta, yb, -2),
                         DDBLAS_SUCCESS);
        same_elems(ya, 0, 1, yb, 2 * (len - 1), -2, len, t ? "GEMV T increments" : "GEMV N");
        ddt_free(xa);
        ddt_free(xb);
        ddt_free(ya);
        ddt_free(yb);
    }
    /* AXPY and CONVERT: x -3, y 2 */
    ck_assert_int_eq(ddblas_axpy_host(N, alpha, x1, 1, y1, 1), DDBLAS_SUCCESS);
    ck_assert_int_eq(ddblas_axpy_host(N, alpha, x3, -3, y2, 2), DDBLAS_SUCCESS);
    same_elems(y1, 0, 1, y2, 0, 2, N, "AXPY increments");
    ck_assert_int_eq(ddblas_convert_host(N, x1, 1, y1, 1), DDBLAS_SUCCESS);
    ck_assert_int_eq(ddblas_convert_host(N, x3, -3, y2, 2), DDBLAS_SUCCESS);
    same_elems(y1, 0, 1, y2, 0, 2, N, "CONVERT increments");
    same_elems(y1, 0, 1, x1, 0, 1, N, "CONVERT D+I -> D+S"); /* 21 bits of lo fit in binary32 */
    ddt_free(x1);
    ddt_free(x3);
    ddt_free(y1);
    ddt_free(y2);
    ddt_free(A);
}
END_TEST

START_TEST(same_meaning)
{
    enum { M = 40, N = 30, K = 50 };
    rng r = rng_seed(1300);
    static ddblas_dd Av[M * K], Bv[K * N], Cv[M * N];
    ddt_gen(&r, Av, M * K, 1, 0);
    ddt_gen(&r, Bv, K * N, 1, 0);
    ddt_gen(&r, Cv, M * N, 1, 0);
    const ddblas_dd alpha = {-2.25, 0x1.7p-54}, beta = {0.5, -0x1.2p-57};
    /* GEMV: 't', 'C' and 'c' are 'T'; 'n' is 'N' */
    ddblas_array A = vec(DDBLAS_DS, Av, M * K, 1), x = vec(DDBLAS_DD, Bv, K, 1);
    ddblas_array y[6];
    static const char ops[6] = {'T', 't', 'C', 'c', 'N', 'n'};
    for (int o = 0; o < 6; o++) {
        y[o] = vec(DDBLAS_DD, Cv, K, 1);
        ck_assert_int_eq(ddblas_gemv_host(ops[o], M, K, alpha, A, M, x, 1, beta, y[o], 1),
                         DDBLAS_SUCCESS);
    }
    for (int o = 1; o < 4; o++)
        same_elems(y[0], 0, 1, y[o], 0, 1, K, "GEMV op characters");
    same_elems(y[4], 0, 1, y[5], 0, 1, M, "GEMV n");
    for (int o = 0; o < 6; o++)
        ddt_free(y[o]);
    ddt_free(x);
    /* GEMM: the full product, a block of it as its own product (leading dimensions padded), the
     * same with A and B stored transposed (op T), and with op(B) = 'c' */
    ddblas_array B = vec(DDBLAS_DI, Bv, K * N, 1), C = vec(DDBLAS_DD, Cv, M * N, 1);
    ddblas_array At = ddt_alloc(DDBLAS_DS, (K + 1) * M), Bt = ddt_alloc(DDBLAS_DI, (N + 2) * K);
    for (int64_t i = 0; i < M; i++)
        for (int64_t q = 0; q < K; q++)
            ddblas_set(At, q + i * (K + 1), ddblas_get(A, i + q * M));
    for (int64_t q = 0; q < K; q++)
        for (int64_t j = 0; j < N; j++)
            ddblas_set(Bt, j + q * (N + 2), ddblas_get(B, q + j * K));
    for (int sch = 0; sch < 2; sch++) {
        ddblas_array Cf = vec(DDBLAS_DD, Cv, M * N, 1);
        ck_assert_int_eq(ddblas_gemm_host((ddblas_scheme)sch, 'N', 'N', M, N, K, alpha, A, M, B,
                                          K, beta, Cf, M), DDBLAS_SUCCESS);
        enum { I0 = 9, J0 = 4, BM = 8, BN = 7, LDC = 11 };
        ddblas_array Cb = ddt_alloc(DDBLAS_DD, LDC * BN), Ct = ddt_alloc(DDBLAS_DD, LDC * BN);
        for (int64_t j = 0; j < BN; j++)
            for (int64_t i = 0; i < BM; i++) {
                ddblas_set(Cb, i + j * LDC, ddblas_get(C, I0 + i + (J0 + j) * M));
                ddblas_set(Ct, i + j * LDC, ddblas_get(C, I0 + i + (J0 + j) * M));
            }
        ck_assert_int_eq(ddblas_gemm_host((ddblas_scheme)sch, 'N', 'N', BM, BN, K, alpha,
                                          at(A, I0), M, at(B, J0 * K), K, beta, Cb, LDC),
                         DDBLAS_SUCCESS);
        ck_assert_int_eq(ddblas_gemm_host((ddblas_scheme)sch, 'T', 'c', BM, BN, K, alpha,
                                          at(At, I0 * (K + 1)), K + 1, at(Bt, J0), N + 2, beta,
                                          Ct, LDC), DDBLAS_SUCCESS);
        for (int64_t j = 0; j < BN; j++) {
            same_elems(Cf, I0 + (J0 + j) * M, 1, Cb, j * LDC, 1, BM, "GEMM block");
            same_elems(Cf, I0 + (J0 + j) * M, 1, Ct, j * LDC, 1, BM, "GEMM transposed");
        }
        ddt_free(Cb);
        ddt_free(Ct);
        ddt_free(Cf);
    }
    /* values held exactly by D+S given as DD (converted): the same bits */
    ddblas_array Ad = ddt_alloc(DDBLAS_DD, M * K), C1 = vec(DDBLAS_DD, Cv, M * N, 1);
    ck_assert_int_eq(ddblas_convert_host(M * K, A, 1, Ad, 1), DDBLAS_SUCCESS);
    ck_assert_int_eq(ddblas_gemm_host(DDBLAS_ACCURATE, 'N', 'N', M, N, K, alpha, A, M, B, K, beta,
                                      C, M), DDBLAS_SUCCESS);
    ck_assert_int_eq(ddblas_gemm_host(DDBLAS_ACCURATE, 'N', 'N', M, N, K, alpha, Ad, M, B, K,
                                      beta, C1, M), DDBLAS_SUCCESS);
    same_elems(C, 0, 1, C1, 0, 1, M * N, "GEMM D+S as DD");
    ddt_free(Ad);
    ddt_free(C1);
    ddt_free(A);
    ddt_free(At);
    ddt_free(B);
    ddt_free(Bt);
    ddt_free(C);
}
END_TEST

/* AXPY: mul_accurate (< 4u^2 |alpha x|) then add_accurate (<= (3u^2 + 13u^3) |alpha x + y|
 * computed): error <= 7.0001 u^2 (|alpha x| + |y|); of the same sign, that is |result|. */
START_TEST(axpy_error)
{
    enum { N = 20000 };
    rng r = rng_seed(1400);
    static ddblas_dd xv[N], yv[N];
    ddt_gen(&r, xv, N, 1, 0);
    ddt_gen(&r, yv, N, 1, 0);
    for (int i = 0; i < N; i++) /* every fourth: y nearly -alpha x (cancellation) */
        if (i % 4 == 0)
            yv[i] = ddt_with_lo(&r, -1.375 * xv[i].hi);
    const ddblas_dd alpha = {1.375, 0x1.3p-55};
    ddblas_array x = vec(DDBLAS_DS, xv, N, 1), y = vec(DDBLAS_DD, yv, N, 1),
                 y0 = vec(DDBLAS_DD, yv, N, 1);
    ck_assert_int_eq(ddblas_axpy_host(N, alpha, x, 1, y, 1), DDBLAS_SUCCESS);
    mpfr_t e, ax;
    ref_init(e);
    ref_init(ax);
    double worst = 0, worst_same = 0;
    for (int64_t i = 0; i < N; i++) {
        const ddblas_dd xi = ddblas_get(x, i), yi = ddblas_get(y0, i);
        mpfr_set_zero(ax, 1);
        ref_add_prod(ax, alpha, xi);
        mpfr_set(e, ax, MPFR_RNDN);
        ref_add_dd(e, yi);
        const double sum_abs = fabs(mpfr_get_d(ax, MPFR_RNDU)) + fabs(yi.hi) + fabs(yi.lo);
        const double err = ref_abs_err(e, ddblas_get(y, i));
        DDT_CHECK(err <= 7.0001 * U * U * sum_abs, "AXPY %lld: error %g u^2 of |ax| + |y|",
                      (long long)i, err / (U * U * sum_abs));
        worst = fmax(worst, err / (U * U * sum_abs));
        if (signbit(xi.hi) == signbit(yi.hi))
            worst_same = fmax(worst_same, ref_rel_err(e, ddblas_get(y, i)) / (U * U));
    }
    ck_assert(worst_same <= 7.0001);
    printf("ddblas: AXPY: error %.3g u^2 of |alpha x| + |y| at most (bound 7); relative %.3g u^2 "
           "when of the same sign\n", worst, worst_same);
    fflush(stdout);
    mpfr_clears(e, ax, (mpfr_ptr)0);
    ddt_free(x);
    ddt_free(y);
    ddt_free(y0);
}
END_TEST

/* Empty shapes: DOT n = 0 gives +0 (no array needed); GEMV with m or n 0 and GEMM with m or n 0
 * do nothing (y, C NaN stay); GEMM k = 0 gives beta C (DWTimesDW3) whatever alpha, even Inf. */
START_TEST(empty_shapes)
{
    const ddblas_array none = {DDBLAS_DD, NULL, NULL};
    const ddblas_dd one = {1, 0}, beta = {0.3, 0x1.1p-56}, nan2 = {NAN, NAN};
    ddblas_dd d = nan2;
    ck_assert_int_eq(ddblas_dot_host(0, none, 1, none, -1, &d), DDBLAS_SUCCESS);
    ck_assert(dd_same(d, ddt_make(0.0, 0.0)));
    ddblas_array y = ddt_alloc(DDBLAS_DD, 4);
    for (int i = 0; i < 4; i++)
        ddblas_set(y, i, nan2);
    ck_assert_int_eq(ddblas_gemv_host('N', 4, 0, one, none, 4, none, 1, one, y, 1),
                     DDBLAS_SUCCESS);
    ck_assert_int_eq(ddblas_gemv_host('T', 0, 4, one, none, 1, none, 1, one, y, 1),
                     DDBLAS_SUCCESS);
    ck_assert_int_eq(ddblas_gemm_host(DDBLAS_ACCURATE, 'N', 'N', 2, 0, 3, one, none, 2, none, 3,
                                      one, y, 2), DDBLAS_SUCCESS);
    for (int i = 0; i < 4; i++)
        ck_assert(isnan(ddblas_get(y, i).hi) && isnan(ddblas_get(y, i).lo));
    for (int i = 0; i < 4; i++)
        ddblas_set(y, i, ddt_make(1.0 + i, 0x1p-60 * (i + 1)));
    /* alpha Inf or 1 with the empty sum: alpha is not used (as BLAS), C = beta C */
    const ddblas_dd alphas[2] = {{INFINITY, 0}, {1, 0}};
    for (int a = 0; a < 2; a++) {
        for (int i = 0; i < 4; i++)
            ddblas_set(y, i, ddt_make(1.0 + i, 0x1p-60 * (i + 1)));
        ck_assert_int_eq(ddblas_gemm_host(DDBLAS_PAPER, 'N', 'T', 2, 2, 0, alphas[a], none, 2,
                                          none, 2, beta, y, 2), DDBLAS_SUCCESS);
        for (int i = 0; i < 4; i++) {
            const dfs_dd want = dfs_dd_mul_accurate(dfs_dd_make(beta.hi, beta.lo),
                                                    dfs_dd_make(1.0 + i, 0x1p-60 * (i + 1)));
            ck_assert(dd_same(ddblas_get(y, i), ddt_make(want.hi, want.lo)));
        }
    }
    ddt_free(y);
}
END_TEST

void add_shape_tests(TCase *t)
{
    tcase_add_test(t, increments);
    tcase_add_test(t, same_meaning);
    tcase_add_test(t, axpy_error);
    tcase_add_test(t, empty_shapes);
    add_arg_tests(t);
}
