/* test_ddblas.c — unit tests (Check + MPFR) of libddblas's CPU implementation
 * (engines/dd/ddblas_host.c; include/ddblas.h), every result held against the exact value of
 * alpha op(A) op(B) + beta C on the *stored* inputs (ddblas_ref.c: MPFR, checked exact):
 *   - the paper's Table 5 (Mukunoki-Takahashi; ../shared/design/ALGORITHMS.md section 2): inputs
 *     uniform in [0, 1) (a random hi and a full random lo, stored in each format through
 *     ddblas_set), GEMV and GEMM (both schemes) with n = 100 and 1000, the output in the inputs'
 *     format; the largest relative error per format: DD < 1e-30, D+S in (1e-27, 1e-22) (so that
 *     it really is 77 bits), D+I truncated < 1e-21, to nearest below 0.75 x truncated's on the
 *     same data, binary64 (the same with an FMA loop) in (1e-18, 1e-14).  Printed as a table
 *     (lines "ddblas: |").  GEMM n = 1000 computes an 8 x 8 block of a 1000^3 product: an
 *     output's order depends on k alone (ddx_steps.h), so it has the bits it would have in the
 *     full product;
 *   - single steps, sharp: one product within the multiplication's bound (relative), two
 *     cancelling terms with exact products within one AccurateDWPlusDW's 3u^2 + 13u^3, in each
 *     routine's order (lanes, the lanes' tree, GEMM's loop): a sloppy addition anywhere fails;
 *   - the error bounds of the accurate scheme (DWTimesDW3 < 4u^2, AccurateDWPlusDW <= 3u^2 +
 *     13u^3, u = 2^-53; see bound() for the derivation) on signed data cancelling to about 2^-53
 *     of sum |a b|, for GEMM (op pairs), GEMV (chunked, op N and T) and a DOT of 300000 terms
 *     (more chunks than the 256 lanes merging them), inputs in mixed formats; the paper's scheme
 *     (no bound under cancellation) on non-negative data only;
 *   - ddblas_props.c: the formats' conversions, special values, the arrays not read;
 *     ddblas_shapes.c: the invariances that hold by design, AXPY's error, the empty shapes;
 *     ddblas_args.c: the argument rules.
 * Deterministic (rng.h).  The worst errors are printed on lines starting "ddblas:". */
#include "ddblas_test.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------- the paper's Table 5 ---------- */

/* Non-trivial DD scalars (canonical: |lo| <= ulp(hi)/2). */
static const ddblas_dd ALPHA = {0.75, 0x1.3p-56}, BETA = {1.5, -0x1.7p-55};

enum { ROW_DOUBLE = 4, N_ROWS = 5 };                        /* the formats, then binary64 */
enum { COL_GEMV, COL_PAPER, COL_ACCURATE, N_COLS };         /* routines */
static const char *const row_name[N_ROWS] = {"DD", "D+S", "D+I (truncate)", "D+I (nearest)",
                                             "double"};
static const char *const col_name[N_COLS] = {"GEMV", "GEMM paper", "GEMM accurate"};

/* v[0 .. n) stored in the row's format; the binary64 row: the hi words (a DD array, lo 0). */
static ddblas_array stored(int row, const ddblas_dd *v, size_t n)
{
    ddblas_array a = ddt_alloc(row == ROW_DOUBLE ? DDBLAS_DD : (ddblas_format)row, n);
    for (size_t i = 0; i < n; i++)
        ddblas_set(a, (int64_t)i, row == ROW_DOUBLE ? ddt_make(v[i].hi, 0.0) : v[i]);
    return a;
}

static ddblas_dd row_scalar(int row, ddblas_dd s)
{
    return row == ROW_DOUBLE ? ddt_make(s.hi, 0.0) : s;
}

/* binary64: alpha (sum over q of a[q*sa] b[q*sb] by FMA) + beta c */
static double plain(int64_t K, const double *a, int64_t sa, const double *b, int64_t sb,
                    double alpha, double beta, double c)
{
    double s = 0.0;
    for (int64_t q = 0; q < K; q++)
        s = fma(a[q * sa], b[q * sb], s);
    return fma(alpha, s, beta * c);
}

/* The largest relative error of out[o] against alpha (sum of K terms) + beta c0[o], over the
 * outputs o < len; output o's terms: a from a0(o) step sa, b from b0(o) step sb. */
typedef struct {
    int64_t a0_mul, sa, b0_mul, sb, div; /* a0 = (o % div) a0_mul, b0 = (o / div) b0_mul */
} shape;

static double max_rel_err(int64_t len, int64_t K, ddblas_array a, ddblas_array b, shape s,
                          ddblas_array c0, ddblas_array out, ddblas_dd alpha, ddblas_dd beta,
                          const ddblas_array *out2, double *err2)
{
    mpfr_t sum, exact;
    ref_init(sum);
    ref_init(exact);
    double worst = 0.0;
    for (int64_t o = 0; o < len; o++) {
        mpfr_set_zero(sum, 1);
        ref_dot(sum, K, a, (o % s.div) * s.a0_mul, s.sa, b, (o / s.div) * s.b0_mul, s.sb);
        ref_finish(exact, sum, alpha, beta, ddblas_get(c0, o));
        worst = fmax(worst, ref_rel_err(exact, ddblas_get(out, o)));
        if (out2)
            *err2 = fmax(*err2, ref_rel_err(exact, ddblas_get(*out2, o)));
    }
    mpfr_clears(sum, exact, (mpfr_ptr)0);
    return worst;
}

/* y = alpha A x + beta y, A n x n (op N). */
static void table_gemv(int64_t n, double err[N_ROWS])
{
    rng r = rng_seed(500 + (uint64_t)n);
    ddblas_dd *Av = malloc((size_t)(n * n) * sizeof *Av), *xv = malloc((size_t)n * sizeof *xv),
              *yv = malloc((size_t)n * sizeof *yv);
    ck_assert(Av && xv && yv);
    ddt_gen(&r, Av, (size_t)(n * n), 0, 0);
    ddt_gen(&r, xv, (size_t)n, 0, 0);
    ddt_gen(&r, yv, (size_t)n, 0, 0);
    for (int row = 0; row < N_ROWS; row++) {
        ddblas_array A = stored(row, Av, (size_t)(n * n)), x = stored(row, xv, (size_t)n),
                     y = stored(row, yv, (size_t)n), y0 = stored(row, yv, (size_t)n);
        const ddblas_dd al = row_scalar(row, ALPHA), be = row_scalar(row, BETA);
        if (row == ROW_DOUBLE)
            for (int64_t i = 0; i < n; i++)
                y.hi[i] = plain(n, A.hi + i, n, x.hi, 1, al.hi, be.hi, y.hi[i]);
        else
            ck_assert_int_eq(ddblas_gemv_host('N', n, n, al, A, n, x, 1, be, y, 1),
                             DDBLAS_SUCCESS);
        const shape s = {1, n, 0, 1, n}; /* row o of A (step n), all of x */
        err[row] = max_rel_err(n, n, A, x, s, y0, y, al, be, NULL, NULL);
        ddt_free(A);
        ddt_free(x);
        ddt_free(y);
        ddt_free(y0);
    }
    free(Av);
    free(xv);
    free(yv);
}

/* C = alpha A B + beta C, A m x k, B k x m (op N, N), both schemes. */
static void table_gemm(int64_t m, int64_t k, double err_paper[N_ROWS], double err_acc[N_ROWS])
{
    rng r = rng_seed(600 + (uint64_t)k);
    const size_t na = (size_t)(m * k), nc = (size_t)(m * m);
    ddblas_dd *Av = malloc(na * sizeof *Av), *Bv = malloc(na * sizeof *Bv),
              *Cv = malloc(nc * sizeof *Cv);
    ck_assert(Av && Bv && Cv);
    ddt_gen(&r, Av, na, 0, 0);
    ddt_gen(&r, Bv, na, 0, 0);
    ddt_gen(&r, Cv, nc, 0, 0);
    for (int row = 0; row < N_ROWS; row++) {
        ddblas_array A = stored(row, Av, na), B = stored(row, Bv, na), C0 = stored(row, Cv, nc),
                     Cp = stored(row, Cv, nc), Ca = stored(row, Cv, nc);
        const ddblas_dd al = row_scalar(row, ALPHA), be = row_scalar(row, BETA);
        if (row == ROW_DOUBLE) {
            for (int64_t o = 0; o < m * m; o++)
                Cp.hi[o] = Ca.hi[o] = plain(k, A.hi + o % m, m, B.hi + o / m * k, 1, al.hi,
                                            be.hi, Cp.hi[o]);
        } else {
            ck_assert_int_eq(ddblas_gemm_host(DDBLAS_PAPER, 'N', 'N', m, m, k, al, A, m, B, k,
                                              be, Cp, m), DDBLAS_SUCCESS);
            ck_assert_int_eq(ddblas_gemm_host(DDBLAS_ACCURATE, 'N', 'N', m, m, k, al, A, m, B, k,
                                              be, Ca, m), DDBLAS_SUCCESS);
        }
        const shape s = {1, m, k, 1, m}; /* output o = i + j m: row i of A, column j of B */
        err_acc[row] = 0.0;
        err_paper[row] = max_rel_err(m * m, k, A, B, s, C0, Cp, al, be, &Ca, &err_acc[row]);
        ddt_free(A);
        ddt_free(B);
        ddt_free(C0);
        ddt_free(Cp);
        ddt_free(Ca);
    }
    free(Av);
    free(Bv);
    free(Cv);
}

START_TEST(table5)
{
    static const int64_t sizes[2] = {100, 1000};
    double t[N_COLS][2][N_ROWS];
    for (int s = 0; s < 2; s++) {
        table_gemv(sizes[s], t[COL_GEMV][s]);
        /* n = 1000: an 8 x 8 block of the product (k = 1000) */
        table_gemm(s ? 8 : sizes[s], sizes[s], t[COL_PAPER][s], t[COL_ACCURATE][s]);
    }
    printf("ddblas: Table 5: largest relative error, inputs uniform in [0, 1) in the output's "
           "format, alpha = %a + %a, beta = %a + %a (GEMM n = 1000: an 8 x 8 block, k = 1000)\n",
           ALPHA.hi, ALPHA.lo, BETA.hi, BETA.lo);
    printf("ddblas: | format |");
    for (int c = 0; c < N_COLS; c++)
        printf(" %s n=100 | %s n=1000 |", col_name[c], col_name[c]);
    printf("\nddblas: |---|");
    for (int c = 0; c < 2 * N_COLS; c++)
        printf("---|");
    printf("\n");
    for (int row = 0; row < N_ROWS; row++) {
        printf("ddblas: | %s |", row_name[row]);
        for (int c = 0; c < N_COLS; c++)
            printf(" %.3g | %.3g |", t[c][0][row], t[c][1][row]);
        printf("\n");
    }
    fflush(stdout);
    for (int c = 0; c < N_COLS; c++)
        for (int s = 0; s < 2; s++) {
            const double *e = t[c][s];
            ck_assert_msg(e[DDBLAS_DD] < 1e-30, "%s n=%lld DD %g", col_name[c],
                          (long long)sizes[s], e[DDBLAS_DD]);
            ck_assert_msg(e[DDBLAS_DS] < 1e-22 && e[DDBLAS_DS] > 1e-27, "%s D+S %g", col_name[c],
                          e[DDBLAS_DS]);
            ck_assert_msg(e[DDBLAS_DI] < 1e-21, "%s D+I %g", col_name[c], e[DDBLAS_DI]);
            ck_assert_msg(e[DDBLAS_DI_NEAREST] < 0.75 * e[DDBLAS_DI], "%s D+I nearest %g vs %g",
                          col_name[c], e[DDBLAS_DI_NEAREST], e[DDBLAS_DI]);
            ck_assert_msg(e[ROW_DOUBLE] < 1e-14 && e[ROW_DOUBLE] > 1e-18, "%s double %g",
                          col_name[c], e[ROW_DOUBLE]);
        }
}
END_TEST

/* ---------- error bounds ---------- */

/* The accurate scheme's bound on |result - exact| for K terms (mul: the product's bound in u^2,
 * 4 for DWTimesDW3, 6 for the paper's DDMul).  The sum: each product is off by mul u^2 |a b|
 * and each addition by eta = 3u^2 + 13u^3 times the sum it forms, at most T + (its error) with
 * T = sum |a b|; a term passes through at most K non-trivial additions (in any tree, each adds a
 * leaf; adding zero is exact), so |s - S| <= (mul + 3K) u^2 T (1 + O(K u^2)).  The finish:
 * alpha s by DWTimesDW3 (4u^2), beta c likewise, their sum (3u^2): <= |alpha| |s - S|
 * + 7u^2 (|alpha| T + |beta c|) + O(u^3).  Rounded up: (mul + 3K + 8) |alpha| T + 8 |beta c|
 * (the O(u^3) terms are < 2^-40 of it for K <= 10^6). */
static double bound(int64_t K, int mul, double T, ddblas_dd alpha, ddblas_dd beta, ddblas_dd c)
{
    const double a = fabs(alpha.hi) + fabs(alpha.lo), bc = (fabs(beta.hi) + fabs(beta.lo)) *
                                                           (fabs(c.hi) + fabs(c.lo));
    return U * U * ((mul + 3.0 * (double)K + 8.0) * a * T + 8.0 * bc);
}

/* n values; signed: hi in [-1, 1) times 2^e, e uniform in [-spread, spread]; from n/2 on
 * (mirror), the first half's hi again (negated when neg) with a fresh lo: the sum of the
 * products of a negated and a plain mirrored vector cancels to about 2^-53 of sum |a b|. */
static void gen_vec(rng *r, ddblas_dd *v, int64_t n, int is_signed, int spread, int mirror,
                    int neg)
{
    const int64_t h = mirror ? n / 2 : n;
    for (int64_t i = 0; i < n; i++) {
        if (i < h || i >= 2 * h)
            v[i] = ddt_rand(r, is_signed, spread ? below(r, 2 * spread + 1) - spread : 0);
        else
            v[i] = ddt_with_lo(r, neg ? -v[i - h].hi : v[i - h].hi);
    }
}

static int64_t max64(int64_t a, int64_t b)
{
    return a > b ? a : b;
}

/* One GEMM against bound(): row i of op(A) and column j of op(B) generated as vectors of k (with
 * mirror, cancelling), C and the scalars signed when is_signed; the output in DD. */
static void gemm_bound(ddblas_scheme scheme, char ta, char tb, int64_t m, int64_t n, int64_t k,
                       int is_signed, int mirror, ddblas_format fa, ddblas_format fb,
                       double *worst)
{
    rng r = rng_seed(700 + (uint64_t)(m * 31 + n * 7 + k) + (uint64_t)scheme);
    const int64_t lda = max64(1, ta == 'N' ? m : k) + 2, ldb = max64(1, tb == 'N' ? k : n) + 1;
    const int64_t ldc = m + 3;
    ddblas_array A = ddt_alloc(fa, (size_t)(lda * (ta == 'N' ? k : m))),
                 B = ddt_alloc(fb, (size_t)(ldb * (tb == 'N' ? n : k))),
                 C = ddt_alloc(DDBLAS_DD, (size_t)(ldc * n)),
                 C0 = ddt_alloc(DDBLAS_DD, (size_t)(ldc * n));
    ddblas_dd *v = malloc((size_t)max64(k, m) * sizeof *v);
    ck_assert(v != NULL);
    /* row i of op(A): element q at ai(i) + q sa; column j of op(B): bj(j) + q sb */
    const int64_t sa = ta == 'N' ? lda : 1, sb = tb == 'N' ? 1 : ldb;
    for (int64_t i = 0; i < m; i++) {
        gen_vec(&r, v, k, is_signed, 20, mirror, 1);
        ddt_store(A, v, (size_t)k, ta == 'N' ? i : i * lda, sa);
    }
    for (int64_t j = 0; j < n; j++) {
        gen_vec(&r, v, k, is_signed, 20, mirror, 0);
        ddt_store(B, v, (size_t)k, tb == 'N' ? j * ldb : j, sb);
        gen_vec(&r, v, m, is_signed, 10, 0, 0);
        ddt_store(C, v, (size_t)m, j * ldc, 1);
        ddt_store(C0, v, (size_t)m, j * ldc, 1);
    }
    const ddblas_dd alpha = ddt_make(is_signed ? -1.25 : 1.25, 0x1.9p-55),
                    beta = ddt_make(0.375, is_signed ? -0x1.1p-58 : 0x1.1p-58);
    ck_assert_int_eq(ddblas_gemm_host(scheme, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C,
                                      ldc), DDBLAS_SUCCESS);
    mpfr_t s, e;
    ref_init(s);
    ref_init(e);
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < m; i++) {
            const int64_t a0 = ta == 'N' ? i : i * lda, b0 = tb == 'N' ? j * ldb : j;
            const ddblas_dd c = ddblas_get(C0, i + j * ldc);
            mpfr_set_zero(s, 1);
            ref_dot(s, k, A, a0, sa, B, b0, sb);
            ref_finish(e, s, alpha, beta, c);
            const double b = bound(k, scheme == DDBLAS_PAPER ? 6 : 4,
                                   abs_sum(k, A, a0, sa, B, b0, sb), alpha, beta, c);
            const double err = ref_abs_err(e, ddblas_get(C, i + j * ldc));
            DDT_CHECK(err <= b, "GEMM %s %c%c %lldx%lldx%lld (%lld, %lld): error %g > bound %g",
                          scheme == DDBLAS_PAPER ? "paper" : "accurate", ta, tb, (long long)m,
                          (long long)n, (long long)k, (long long)i, (long long)j, err, b);
            *worst = fmax(*worst, err / b);
        }
    mpfr_clears(s, e, (mpfr_ptr)0);
    free(v);
    ddt_free(A);
    ddt_free(B);
    ddt_free(C);
    ddt_free(C0);
}

/* GEMV op T over columns of K = m (contiguous, cancelling) or op N over rows of K = n. */
static void gemv_bound(char trans, int64_t m, int64_t n, int mirror, double *worst)
{
    rng r = rng_seed(800 + (uint64_t)(m + n));
    const int t = trans != 'N', K = (int)(t ? m : n), len = (int)(t ? n : m);
    const int64_t lda = m + 1;
    ddblas_array A = ddt_alloc(DDBLAS_DS, (size_t)(lda * n)), x = ddt_alloc(DDBLAS_DI, (size_t)K),
                 y = ddt_alloc(DDBLAS_DD, (size_t)len), y0 = ddt_alloc(DDBLAS_DD, (size_t)len);
    ddblas_dd *v = malloc((size_t)(K > len ? K : len) * sizeof *v);
    ck_assert(v != NULL);
    for (int64_t o = 0; o < len; o++) { /* row or column o of A: the K terms of output o */
        gen_vec(&r, v, K, 1, 20, mirror, 1);
        ddt_store(A, v, (size_t)K, t ? o * lda : o, t ? 1 : lda);
    }
    gen_vec(&r, v, K, 1, 20, mirror, 0);
    ddt_store(x, v, (size_t)K, 0, 1);
    gen_vec(&r, v, len, 1, 5, 0, 0);
    ddt_store(y, v, (size_t)len, 0, 1);
    ddt_store(y0, v, (size_t)len, 0, 1);
    const ddblas_dd alpha = {-0.625, 0x1.dp-56}, beta = {3.0, 0x1.8p-53};
    ck_assert_int_eq(ddblas_gemv_host(trans, m, n, alpha, A, lda, x, 1, beta, y, 1),
                     DDBLAS_SUCCESS);
    mpfr_t s, e;
    ref_init(s);
    ref_init(e);
    for (int64_t o = 0; o < len; o++) {
        const int64_t a0 = t ? o * lda : o, sa = t ? 1 : lda;
        const ddblas_dd c = ddblas_get(y0, o);
        mpfr_set_zero(s, 1);
        ref_dot(s, K, A, a0, sa, x, 0, 1);
        ref_finish(e, s, alpha, beta, c);
        const double b = bound(K, 4, abs_sum(K, A, a0, sa, x, 0, 1), alpha, beta, c);
        const double err = ref_abs_err(e, ddblas_get(y, o));
        DDT_CHECK(err <= b, "GEMV %c %lldx%lld output %lld: error %g > bound %g", trans,
                      (long long)m, (long long)n, (long long)o, err, b);
        *worst = fmax(*worst, err / b);
    }
    mpfr_clears(s, e, (mpfr_ptr)0);
    free(v);
    ddt_free(A);
    ddt_free(x);
    ddt_free(y);
    ddt_free(y0);
}

/* One step, sharp: a product alone (DOT n = 1, GEMM k = 1: the sum starts from zero and every
 * merge with zero is exact) has the multiplication's bound, relative; two terms whose products
 * are exact (the other operand a power of two), whose hi words cancel and whose lo words lie on
 * different grids leave one inexact addition, so the result is within AccurateDWPlusDW's
 * 3u^2 + 13u^3 of the exact value, relative, where a sloppy addition loses up to 2^-53: DOT
 * terms 0 and 1 (two lanes: the lanes' tree) and terms 0 and 256 of 257 (one lane, the rest
 * zero), GEMV with K = 2 either op (one lane), GEMM k = 2. */
enum { ST_N = 257 };

START_TEST(single_steps)
{
    rng r = rng_seed(950);
    const ddblas_dd one = {1.0, 0.0}, zero = {0.0, 0.0};
    double w_mul = 0, w_paper = 0, w_add = 0;
    static double xh[ST_N], xl[ST_N], yh[ST_N], yl[ST_N], ch[2], cl[2];
    const ddblas_array x = {DDBLAS_DD, xh, xl}, y = {DDBLAS_DD, yh, yl};
    const ddblas_array c[2] = {{DDBLAS_DD, &ch[0], &cl[0]}, {DDBLAS_DD, &ch[1], &cl[1]}};
    mpfr_t e;
    ref_init(e);
    for (int it = 0; it < 3000; it++) {
        const ddblas_dd t = ddt_rand(&r, 1, below(&r, 9) - 4);
        const ddblas_dd u = it % 2 ? ddt_rand(&r, 1, 0) : one;
        /* one product: t u */
        ddblas_set(x, 0, t);
        ddblas_set(y, 0, u);
        ddblas_dd d, g[2];
        DDT_TRUE(ddblas_dot_host(1, x, 1, y, 1, &d) == DDBLAS_SUCCESS);
        for (int sch = 0; sch < 2; sch++) {
            DDT_TRUE(ddblas_gemm_host((ddblas_scheme)sch, 'N', 'N', 1, 1, 1, one, x, 1, y, 1,
                                      zero, c[sch], 1) == DDBLAS_SUCCESS);
            g[sch] = ddblas_get(c[sch], 0);
        }
        mpfr_set_zero(e, 1);
        ref_add_prod(e, t, u);
        const double ed = ref_rel_err(e, d), ea = ref_rel_err(e, g[0]), ep = ref_rel_err(e, g[1]);
        DDT_CHECK(ed < 4 * U * U && ea < 4 * U * U && ep <= 6 * U * U,
                  "one product %a + %a times %a + %a: DOT %g, GEMM %g, paper %g u^2", t.hi, t.lo,
                  u.hi, u.lo, ed / (U * U), ea / (U * U), ep / (U * U));
        w_mul = fmax(w_mul, fmax(ed, ea));
        w_paper = fmax(w_paper, ep);
        /* two exact products t 2^a and (-t.hi 2^(a-b) + lo) 2^b, lo 1 to 30 binades finer */
        const int a = below(&r, 7) - 3, b = below(&r, 7) - 3, f = 1 + below(&r, 30);
        int ex;
        frexp(t.hi, &ex);
        const ddblas_dd t2 = ddt_make(-ldexp(t.hi, a - b), ldexp(unif(&r) - 0.5, ex - 53 - f + a - b));
        memset(xh, 0, sizeof xh);
        memset(xl, 0, sizeof xl);
        memset(yh, 0, sizeof yh);
        memset(yl, 0, sizeof yl);
        ddblas_set(x, 0, t);
        ddblas_set(y, 0, ddt_make(ldexp(1.0, a), 0.0));
        ddblas_set(x, 1, t2);
        ddblas_set(y, 1, ddt_make(ldexp(1.0, b), 0.0));
        mpfr_set_zero(e, 1);
        ref_dot(e, 2, x, 0, 1, y, 0, 1);
        ddblas_dd res[6];
        DDT_TRUE(ddblas_dot_host(2, x, 1, y, 1, &res[0]) == DDBLAS_SUCCESS);
        for (int op = 0; op < 2; op++) { /* x as a 1 x 2 (op N) or 2 x 1 (op T) matrix */
            DDT_TRUE(ddblas_gemv_host(op ? 'T' : 'N', op ? 2 : 1, op ? 1 : 2, one, x, op ? 2 : 1,
                                      y, 1, zero, c[0], 1) == DDBLAS_SUCCESS);
            res[1 + op] = ddblas_get(c[0], 0);
            DDT_TRUE(ddblas_gemm_host(DDBLAS_ACCURATE, op ? 'T' : 'N', op ? 'N' : 'T', 1, 1, 2,
                                      one, x, op ? 2 : 1, y, op ? 2 : 1, zero, c[0], 1)
                     == DDBLAS_SUCCESS);
            res[3 + op] = ddblas_get(c[0], 0);
        }
        /* the second term moved to 256: lane 0 adds both */
        ddblas_set(x, ST_N - 1, t2);
        ddblas_set(y, ST_N - 1, ddt_make(ldexp(1.0, b), 0.0));
        ddblas_set(x, 1, zero);
        DDT_TRUE(ddblas_dot_host(ST_N, x, 1, y, 1, &res[5]) == DDBLAS_SUCCESS);
        for (int i = 0; i < 6; i++) {
            const double er = ref_rel_err(e, res[i]);
            DDT_CHECK(er <= 3 * U * U + 13 * U * U * U, "two terms (%s): %g u^2",
                      i == 0 || i == 5 ? "DOT" : i < 3 ? "GEMV" : "GEMM", er / (U * U));
            w_add = fmax(w_add, er);
        }
    }
    mpfr_clear(e);
    printf("ddblas: single steps, 3000 each: one product %.3g u^2 (bound 4), the paper's %.3g u^2 "
           "(bound 6); two cancelling terms %.3g u^2 (bound 3)\n", w_mul / (U * U),
           w_paper / (U * U), w_add / (U * U));
    fflush(stdout);
}
END_TEST

START_TEST(error_bounds)
{
    double w_gemm = 0, w_paper = 0, w_gemv = 0;
    static const char ops[3] = {'N', 'T', 'C'};
    for (int p = 0; p < 9; p++) /* every op pair, cancelling sums of 200 terms, mixed formats */
        gemm_bound(DDBLAS_ACCURATE, ops[p / 3], ops[p % 3], 5, 4, 200, 1, 1, DDBLAS_DS,
                   DDBLAS_DI_NEAREST, &w_gemm);
    gemm_bound(DDBLAS_ACCURATE, 'T', 'N', 6, 5, 1000, 1, 1, DDBLAS_DD, DDBLAS_DD, &w_gemm);
    gemm_bound(DDBLAS_ACCURATE, 'N', 'T', 7, 3, 333, 1, 0, DDBLAS_DI, DDBLAS_DD, &w_gemm);
    gemm_bound(DDBLAS_ACCURATE, 'N', 'N', 3, 3, 1, 1, 0, DDBLAS_DD, DDBLAS_DS, &w_gemm);
    gemm_bound(DDBLAS_ACCURATE, 'N', 'N', 4, 2, 7, 1, 1, DDBLAS_DD, DDBLAS_DD, &w_gemm);
    gemm_bound(DDBLAS_PAPER, 'T', 'N', 6, 5, 1000, 0, 0, DDBLAS_DD, DDBLAS_DD, &w_paper);
    gemm_bound(DDBLAS_PAPER, 'N', 'C', 5, 4, 200, 0, 0, DDBLAS_DS, DDBLAS_DI, &w_paper);
    /* op T: 5 chunks of 32 lanes per output; op N: 40 chunks, more than the 32 merging lanes;
     * one chunk (merged into zero) */
    gemv_bound('T', 20000, 3, 1, &w_gemv);
    gemv_bound('N', 40, 5000, 0, &w_gemv);
    gemv_bound('C', 300, 7, 1, &w_gemv);
    gemv_bound('N', 9, 100, 1, &w_gemv);

    /* DOT: 300000 cancelling terms, 293 chunks of 1024 (more than the 256 merging lanes), x in
     * D+I, y in D+S with increments -3 and 2 */
    enum { N = 300000 };
    rng r = rng_seed(900);
    ddblas_dd *v = malloc(N * sizeof *v);
    ck_assert(v != NULL);
    ddblas_array x = ddt_alloc(DDBLAS_DI, 3 * N), y = ddt_alloc(DDBLAS_DS, 2 * N);
    gen_vec(&r, v, N, 1, 20, 1, 1);
    ddt_store(x, v, N, 3 * (N - 1), -3);
    gen_vec(&r, v, N, 1, 20, 1, 0);
    ddt_store(y, v, N, 0, 2);
    ddblas_dd d;
    ck_assert_int_eq(ddblas_dot_host(N, x, -3, y, 2, &d), DDBLAS_SUCCESS);
    mpfr_t s;
    ref_init(s);
    ref_dot(s, N, x, 3 * (N - 1), -3, y, 0, 2);
    const double T = abs_sum(N, x, 3 * (N - 1), -3, y, 0, 2), b_dot = (4.0 + 3.0 * N) * U * U * T;
    const double e_dot = ref_abs_err(s, d);
    ck_assert_msg(e_dot <= b_dot, "DOT: error %g > bound %g", e_dot, b_dot);
    printf("ddblas: bounds: worst error / bound: GEMM accurate (signed, cancelling) %.3g, GEMM "
           "paper (non-negative) %.3g, GEMV %.3g, DOT n=%d %.3g (relative error %.3g, sum|ab| / "
           "|sum| %.3g)\n", w_gemm, w_paper, w_gemv, N, e_dot / b_dot, ref_rel_err(s, d),
           T / fabs(mpfr_get_d(s, MPFR_RNDN)));
    fflush(stdout);
    mpfr_clear(s);
    free(v);
    ddt_free(x);
    ddt_free(y);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("ddblas");
    TCase *t = tcase_create("all");
    tcase_set_timeout(t, 120);
    tcase_add_test(t, table5);
    tcase_add_test(t, single_steps);
    tcase_add_test(t, error_bounds);
    add_prop_tests(t);
    suite_add_tcase(s, t);
    return s;
}

#include "check_main.h"
