/* ddblas_props.c — libddblas unit tests, part 2 (see test_ddblas.c): the storage formats through
 * ddblas_set / ddblas_get / ddblas_convert_host, and the special values and arrays not read. */
#include "../../engines/common/dd.h"
#include "ddblas_test.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---------- formats ---------- */

/* v stored in format f and read back. */
static ddblas_dd round_trip(ddblas_format f, ddblas_dd v)
{
    double hi;
    union {
        double d;
        float f;
        int32_t i;
    } lo;
    const ddblas_array a = {f, &hi, &lo};
    ddblas_set(a, 0, v);
    return ddblas_get(a, 0);
}

/* |stored - v| relative to |v|, exactly (MPFR). */
static double trip_err(ddblas_format f, ddblas_dd v, double *abs_err)
{
    mpfr_t x;
    ref_init(x);
    ref_add_dd(x, v);
    const ddblas_dd w = round_trip(f, v);
    *abs_err = ref_abs_err(x, w);
    const double e = ref_rel_err(x, w);
    mpfr_clear(x);
    return e;
}

/* Storing what was read stores the same bits again; convert to DD gives the value read. */
static void check_idempotent(ddblas_format f, ddblas_dd v)
{
    const ddblas_dd w = round_trip(f, v);
    DDT_TRUE(dd_same(round_trip(f, w), w));
    double hi = 0, dhi = 0, dlo = 0;
    union {
        double d;
        float f;
        int32_t i;
    } lo;
    const ddblas_array a = {f, &hi, &lo}, d = {DDBLAS_DD, &dhi, &dlo};
    ddblas_set(a, 0, v);
    DDT_TRUE(ddblas_convert_host(1, a, 1, d, 1) == DDBLAS_SUCCESS);
    DDT_TRUE(dhi == w.hi && dlo == w.lo);
}

START_TEST(formats)
{
    rng r = rng_seed(1000);
    double worst[4] = {0, 0, 0, 0}, abs_err;
    for (int it = 0; it < 100000; it++) {
        /* |x| in [2^e, 2^(e+1)).  D+S where lo fits binary32 with its 24 bits, or its error
         * (2^-150 at most) is below 2^-77 |x|: 2^-72 <= |x| < 2^181 (lo <= 2^-54 |x| < 2^127);
         * D+I where lo is a normal binary64: |x| >= 2^-960 */
        const int ds = it % 2, e = ds ? below(&r, 253) - 72 : below(&r, 1983) - 960;
        const ddblas_dd v = ddt_with_lo(&r, ldexp((next64(&r) & 1 ? -1.0 : 1.0) * (1.0 + unif(&r)), e));
        DDT_TRUE(dd_same(round_trip(DDBLAS_DD, v), v));
        for (int f = ds ? 1 : 2; f < 4; f++) {
            const double err = trip_err((ddblas_format)f, v, &abs_err);
            static const double bnd[4] = {0, 0x1p-77, 0x1p-73, 0x1p-74};
            DDT_CHECK(err <= bnd[f], "%s: error 2^%.2f for %a + %a", ddt_fmt_name[f], log2(err),
                      v.hi, v.lo);
            worst[f] = fmax(worst[f], err);
            check_idempotent((ddblas_format)f, v);
        }
        DDT_TRUE(trip_err(DDBLAS_DI_NEAREST, v, &abs_err) <= trip_err(DDBLAS_DI, v, &abs_err));
    }
    /* beyond: |x| >= 2^181, D+S keeps hi alone (lo > binary32's largest is stored as 0) */
    static const int big[4] = {181, 200, 900, 1023};
    for (int b = 0; b < 4; b++)
        for (int s = 0; s < 2; s++) {
            const ddblas_dd v = ddt_with_lo(&r, ldexp(s ? -1.7 : 1.3, big[b]));
            const ddblas_dd w = round_trip(DDBLAS_DS, v);
            ck_assert(w.hi == v.hi);
            if (fabs(v.lo) > 0x1.fffffep127)
                ck_assert(w.lo == 0.0);
            else /* near 2^181 a lo of the largest binary32's size still fits */
                ck_assert(trip_err(DDBLAS_DS, v, &abs_err) <= 0x1p-77);
        }
    /* lo below the formats' normal range (D+S: |x| from 2^-72 down to 2^-160, where lo becomes a
     * binary32 subnormal, then 0; D+I: below 2^-960): some or all of lo is lost, never more
     * than lo itself, i.e. at least binary64's accuracy */
    for (int it = 0; it < 20000; it++) {
        const int ds = it % 2, e = ds ? -(73 + below(&r, 88)) : -(960 + below(&r, 60));
        const ddblas_dd v = ddt_with_lo(&r, ldexp(1.0 + unif(&r), e));
        for (int f = ds ? 1 : 2; f < (ds ? 2 : 4); f++) {
            const double rel = trip_err((ddblas_format)f, v, &abs_err);
            DDT_CHECK(abs_err <= fabs(v.lo) && rel <= U, "%s: %a + %a error %g",
                      ddt_fmt_name[f], v.hi, v.lo, abs_err);
            check_idempotent((ddblas_format)f, v);
        }
    }
    /* to nearest: lo's fraction all ones rounds up into its exponent, exactly, either sign */
    for (int s = 0; s < 2; s++) {
        const double one = s ? -1.0 : 1.0;
        const ddblas_dd v = ddt_make(one, one * dfs_d_from_bits(0x3c9fffffffffffffull));
        const ddblas_dd w = round_trip(DDBLAS_DI_NEAREST, v);
        ck_assert(w.hi == one && w.lo == one * 0x1p-53);
        ck_assert(round_trip(DDBLAS_DI, v).lo == one * dfs_d_from_bits(0x3c9fffff00000000ull));
    }
    /* Inf and NaN go through every format with lo 0 */
    for (int f = 0; f < 4; f++) {
        ddblas_dd w = round_trip((ddblas_format)f, ddt_make(-INFINITY, 0.0));
        ck_assert(w.hi == -INFINITY && w.lo == 0.0);
        w = round_trip((ddblas_format)f, ddt_make(NAN, 0.0));
        ck_assert(isnan(w.hi) && w.lo == 0.0);
    }
    /* an unknown format: ddblas_get reads a NaN, ddblas_set writes nothing */
    double hi = 5.0, lo = 6.0;
    const ddblas_array bad = {(ddblas_format)4, &hi, &lo};
    ddblas_set(bad, 0, ddt_make(1.0, 0.0));
    ck_assert(hi == 5.0 && lo == 6.0 && isnan(ddblas_get(bad, 0).hi));
    printf("ddblas: formats, 100000 values: D+S 2^%.2f, D+I truncated 2^%.2f, D+I nearest 2^%.2f "
           "(relative, stored and read back)\n", log2(worst[1]), log2(worst[2]), log2(worst[3]));
    fflush(stdout);
}
END_TEST

/* ---------- special values ---------- */

static ddblas_array dd_vec(size_t n, const double *hi)
{
    ddblas_array a = ddt_alloc(DDBLAS_DD, n);
    memcpy(a.hi, hi, n * sizeof *hi);
    return a;
}

/* got is exactly hi (a NaN: any NaN) with lo 0: every expected value below is a double. */
static void expect(ddblas_dd got, double hi)
{
    ck_assert_msg((isnan(hi) ? isnan(got.hi) : got.hi == hi) && got.lo == 0.0,
                  "got %a + %a, want %a", got.hi, got.lo, hi);
}

START_TEST(special_values)
{
    const double I = INFINITY, N = NAN;
    const double one[3] = {1, 1, 1}, x1[3] = {1, I, 2}, y1[3] = {1, 1, -1}, x2[3] = {1, I, -I},
                 z[3] = {1, 0, 1}, big[3] = {1e300, 1e300, -1e300}, bigy[3] = {1e10, 1e10, 1e-10};
    ddblas_array a1 = dd_vec(3, one), ax1 = dd_vec(3, x1), ay1 = dd_vec(3, y1),
                 ax2 = dd_vec(3, x2), az = dd_vec(3, z), abig = dd_vec(3, big),
                 abigy = dd_vec(3, bigy);
    ddblas_dd d;
    /* DOT: IEEE's kinds with lo 0, as binary64 gives them */
    ck_assert_int_eq(ddblas_dot_host(3, ax1, 1, ay1, 1, &d), DDBLAS_SUCCESS);
    expect(d, I);
    ddblas_dot_host(3, ax2, 1, a1, 1, &d); /* Inf - Inf */
    expect(d, N);
    ddblas_dot_host(3, ax1, 1, az, 1, &d); /* Inf 0 */
    expect(d, N);
    ddblas_dot_host(3, abig, 1, abigy, 1, &d); /* beyond binary64's range */
    expect(d, I);
    /* AXPY: alpha 1: Inf + 1, Inf - 1... element by element; alpha Inf times 0 */
    ddblas_array y = dd_vec(3, y1);
    ck_assert_int_eq(ddblas_axpy_host(3, ddt_make(1, 0), ax2, 1, y, 1), DDBLAS_SUCCESS);
    expect(ddblas_get(y, 0), 2);
    expect(ddblas_get(y, 1), I);
    expect(ddblas_get(y, 2), -I);
    ddblas_axpy_host(3, ddt_make(I, 0), az, 1, y, 1); /* Inf + 2, Inf 0 + Inf, Inf - Inf */
    expect(ddblas_get(y, 0), I);
    expect(ddblas_get(y, 1), N);
    expect(ddblas_get(y, 2), N);
    ddt_free(y);
    /* GEMV / GEMM: an Inf or NaN in one row of A makes that output Inf or NaN (with a 0 of B: NaN);
     * the other outputs stay exact (2 x 3 A, x = B's column 0) */
    const double gA[6] = {1, I, 0.5, 1, 0.25, 1}, gB[6] = {1, 2, 4, 0, 1, 1};
    ddblas_array A = dd_vec(6, gA), B = dd_vec(6, gB);
    for (int sch = -1; sch < 2; sch++) {
        ddblas_array C = dd_vec(6, gB); /* beta 1: c = 1, 2 (GEMV) */
        if (sch < 0) {
            ck_assert_int_eq(ddblas_gemv_host('N', 2, 3, ddt_make(1, 0), A, 2, B, 1,
                                              ddt_make(1, 0), C, 1), DDBLAS_SUCCESS);
            expect(ddblas_get(C, 0), 4.0);
            expect(ddblas_get(C, 1), I);
        } else {
            ck_assert_int_eq(ddblas_gemm_host((ddblas_scheme)sch, 'N', 'N', 2, 2, 3,
                                              ddt_make(1, 0), A, 2, B, 3, ddt_make(0, 0), C, 2),
                             DDBLAS_SUCCESS);
            expect(ddblas_get(C, 0), 3.0);
            expect(ddblas_get(C, 1), I);
            expect(ddblas_get(C, 2), 0.75);
            expect(ddblas_get(C, 3), N); /* Inf 0 */
        }
        ddt_free(C);
    }
    ddt_free(A);
    ddt_free(B);
    ddt_free(a1);
    ddt_free(ax1);
    ddt_free(ay1);
    ddt_free(ax2);
    ddt_free(az);
    ddt_free(abig);
    ddt_free(abigy);
}
END_TEST

/* alpha == 0: A, B, x not read (NaN there, or NULL); beta == 0: y, C not read (NaN there).  The
 * output is then exactly the DD finish's: beta c by DWTimesDW3 (and +0 when beta is 0 too). */
START_TEST(not_read)
{
    enum { M = 5, K = 7 };
    rng r = rng_seed(1100);
    ddblas_dd v[M * K];
    ddblas_array A = ddt_alloc(DDBLAS_DS, M * K), x = ddt_alloc(DDBLAS_DI, K),
                 y = ddt_alloc(DDBLAS_DD, M), yn = ddt_alloc(DDBLAS_DD, M),
                 y0 = ddt_alloc(DDBLAS_DD, M);
    const ddblas_array none = {DDBLAS_DD, NULL, NULL};
    const ddblas_dd zero = {0, 0}, nan2 = {NAN, NAN}, beta = {-0.75, 0x1.5p-55},
                    alpha = {1.5, 0x1p-60};
    ddt_gen(&r, v, M * K, 1, 0);
    ddt_store(A, v, M * K, 0, 1);
    ddt_gen(&r, v, M, 1, 0);
    ddt_store(y0, v, M, 0, 1);
    ddt_gen(&r, v, K, 1, 0);
    ddt_store(x, v, K, 0, 1);
    for (int pass = 0; pass < 4; pass++) {
        const int which = pass % 2; /* 0: GEMV, 1: GEMM (x as B, n = 1) */
        /* alpha 0: A and x poisoned (pass 0, 1) or NULL (pass 2, 3) */
        ddblas_array Ap = ddt_alloc(DDBLAS_DS, M * K), xp = ddt_alloc(DDBLAS_DI, K);
        for (int i = 0; i < M * K; i++)
            ddblas_set(Ap, i, nan2);
        for (int i = 0; i < K; i++)
            ddblas_set(xp, i, nan2);
        const ddblas_array Au = pass < 2 ? Ap : none, xu = pass < 2 ? xp : none;
        for (int i = 0; i < M; i++)
            ddblas_set(y, i, ddblas_get(y0, i));
        ck_assert_int_eq(which ? ddblas_gemm_host(DDBLAS_ACCURATE, 'N', 'N', M, 1, K, zero, Au,
                                                  M, xu, K, beta, y, M)
                               : ddblas_gemv_host('N', M, K, zero, Au, M, xu, 1, beta, y, 1),
                         DDBLAS_SUCCESS);
        for (int i = 0; i < M; i++) {
            const ddblas_dd c = ddblas_get(y0, i), got = ddblas_get(y, i);
            const dfs_dd want = dfs_dd_mul_accurate(dfs_dd_make(beta.hi, beta.lo),
                                                    dfs_dd_make(c.hi, c.lo));
            ck_assert(got.hi == want.hi && got.lo == want.lo);
        }
        /* alpha and beta 0: +0, nothing read */
        for (int i = 0; i < M; i++)
            ddblas_set(yn, i, nan2);
        ck_assert_int_eq(which ? ddblas_gemm_host(DDBLAS_PAPER, 'T', 'N', M, 1, K, zero, Au, K,
                                                  xu, K, zero, yn, M)
                               : ddblas_gemv_host('T', K, M, zero, Au, K, xu, 1, zero, yn, 1),
                         DDBLAS_SUCCESS);
        for (int i = 0; i < M; i++)
            ck_assert(dd_same(ddblas_get(yn, i), zero));
        /* beta 0: y poisoned gives the bits of y zero-filled */
        for (int i = 0; i < M; i++) {
            ddblas_set(yn, i, nan2);
            ddblas_set(y, i, zero);
        }
        ddblas_status s1, s2;
        if (which) {
            s1 = ddblas_gemm_host(DDBLAS_ACCURATE, 'N', 'N', M, 1, K, alpha, A, M, x, K, zero, yn,
                                  M);
            s2 = ddblas_gemm_host(DDBLAS_ACCURATE, 'N', 'N', M, 1, K, alpha, A, M, x, K, zero, y,
                                  M);
        } else {
            s1 = ddblas_gemv_host('N', M, K, alpha, A, M, x, 1, zero, yn, 1);
            s2 = ddblas_gemv_host('N', M, K, alpha, A, M, x, 1, zero, y, 1);
        }
        ck_assert(s1 == DDBLAS_SUCCESS && s2 == DDBLAS_SUCCESS);
        for (int i = 0; i < M; i++)
            ck_assert(isfinite(ddblas_get(yn, i).hi) && dd_same(ddblas_get(yn, i),
                                                                ddblas_get(y, i)));
        ddt_free(Ap);
        ddt_free(xp);
    }
    /* AXPY with alpha 0: y untouched, x not read (NULL) */
    for (int i = 0; i < M; i++)
        ddblas_set(y, i, ddblas_get(y0, i));
    ck_assert_int_eq(ddblas_axpy_host(M, ddt_make(-0.0, 0.0), none, 1, y, 1), DDBLAS_SUCCESS);
    for (int i = 0; i < M; i++)
        ck_assert(dd_same(ddblas_get(y, i), ddblas_get(y0, i)));
    ddt_free(A);
    ddt_free(x);
    ddt_free(y);
    ddt_free(yn);
    ddt_free(y0);
}
END_TEST

void add_prop_tests(TCase *t)
{
    tcase_add_test(t, formats);
    tcase_add_test(t, special_values);
    tcase_add_test(t, not_read);
    add_shape_tests(t);
}
