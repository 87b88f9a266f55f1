/* test_l3ztrsm.c — unit tests (Check) of shim/l3_trsm.c on complex data (Z TRSM): the blocked
 * sweep run with the complex solve's CPU form (engines/l3/solve.h), the copy's (args.h) and a
 * stand-in complex GEMM in binary64, for every side, uplo, op N/T/C, diag, host and pointer
 * alpha, orders a multiple of nb, not, below it, nb = 1.  Checked: every GEMM a complex one with
 * ops cuBLAS takes and alpha -1 + 0i; the solution's backward error in long double,
 * |op(A) X - alpha B| <= 16 order 2^-53 (|op(A)| |X| + |alpha B|) elementwise (the conjugates of
 * op C included: dropping one fails it); B's padding, A's other triangle (NaN) and a unit
 * diagonal (NaN) never read or written; the complex solve's bits the same as a second
 * independent run (its order is fixed). */
#include "../../shim/l3_trsm.h"

#include "check_main.h"

#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int gemms, bad_gemm;

static int stand_solve(void *ctx, const dfs_l3_solve *s)
{
    (void)ctx;
    if (!s->cplx)
        bad_gemm = 1;
    dfs_l3_solve_host(s);
    return 0;
}

static int stand_copy(void *ctx, const dfs_l3_copy *cp)
{
    (void)ctx;
    if (!cp->cplx)
        bad_gemm = 1;
    dfs_l3_copy_host(cp);
    return 0;
}

static double complex el(const double *p, int64_t ld, cublasOperation_t op, int64_t i, int64_t j)
{
    const double *e = op == CUBLAS_OP_N ? p + 2 * (i + j * ld) : p + 2 * (j + i * ld);
    return CMPLX(e[0], op == CUBLAS_OP_C ? -e[1] : e[1]);
}

static cublasStatus_t stand_gemm(void *ctx, const dfs_gemm_call *g)
{
    (void)ctx;
    gemms++;
    if (g->type != DFS_C64 || g->api != DFS_API_ZGEMM_64 || g->batch != 1 ||
        g->alpha[0] != -1.0 || g->alpha[1] != 0.0)
        bad_gemm = 1;
    const double complex beta = CMPLX(g->beta[0], g->beta[1]);
    for (int64_t j = 0; j < g->n; j++)
        for (int64_t i = 0; i < g->m; i++) {
            double complex s = 0;
            for (int64_t l = 0; l < g->k; l++)
                s += el(g->A, g->lda, g->transa, i, l) * el(g->B, g->ldb, g->transb, l, j);
            double *c = g->C + 2 * (i + j * g->ldc);
            const double complex r = -s + beta * CMPLX(c[0], c[1]);
            c[0] = creal(r);
            c[1] = cimag(r);
        }
    return CUBLAS_STATUS_SUCCESS;
}

static double frand(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(int64_t)(*s >> 11) / 9007199254740992.0 * 2.0 - 1.0;
}

/* op(A)(i, j) as the routine reads A: its triangle, 1 on a unit diagonal */
static long double complex opa(const double *A, int64_t lda, int lower, int unit,
                               cublasOperation_t op, int64_t i, int64_t j)
{
    const int64_t r = op == CUBLAS_OP_N ? i : j, c = op == CUBLAS_OP_N ? j : i;
    if (lower ? r < c : r > c)
        return 0;
    if (r == c && unit)
        return 1;
    const double *e = A + 2 * (r + c * lda);
    return CMPLXL(e[0], op == CUBLAS_OP_C ? -e[1] : e[1]);
}

static void run(int left, int lower, cublasOperation_t op, int unit, int64_t m, int64_t n,
                int64_t nb, int alpha_dev, int line)
{
    const int64_t order = left ? m : n, lda = order + 1, ldb = m + 2;
    double *A = malloc((size_t)(2 * lda * order) * sizeof(double));
    double *B = malloc((size_t)(2 * ldb * n) * sizeof(double));
    double *B0 = malloc((size_t)(2 * ldb * n) * sizeof(double));
    uint64_t seed = (uint64_t)line * 0x9e3779b97f4a7c15ull + 1;
    for (int64_t j = 0; j < order; j++)
        for (int64_t i = 0; i < lda; i++) {
            double *e = A + 2 * (i + j * lda);
            const int in = i < order && (lower ? i >= j : i <= j);
            e[0] = in ? frand(&seed) : NAN;
            e[1] = in ? frand(&seed) : NAN;
            if (i == j) { /* a dominant diagonal, or NaN where it is not read */
                e[0] = unit ? NAN : 3.0 + frand(&seed);
                e[1] = unit ? NAN : 2.0 * frand(&seed);
            }
        }
    for (int64_t e = 0; e < ldb * n; e++) {
        const int pad = e % ldb >= m;
        B[2 * e] = pad ? NAN : frand(&seed);
        B[2 * e + 1] = pad ? -1234.5 : frand(&seed);
    }
    memcpy(B0, B, (size_t)(2 * ldb * n) * sizeof(double));
    const double alpha[2] = {1.5, -0.75}, pm[4] = {-1.0, 0.0, 1.0, 0.0};
    dfs_l3_call c;
    memset(&c, 0, sizeof c);
    c.kind = DFS_L3_TRSM;
    c.type = DFS_C64;
    c.side = left ? CUBLAS_SIDE_LEFT : CUBLAS_SIDE_RIGHT;
    c.uplo = lower ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER;
    c.trans = op;
    c.diag = unit ? CUBLAS_DIAG_UNIT : CUBLAS_DIAG_NON_UNIT;
    c.m = m;
    c.n = n;
    c.k = order;
    c.alpha = alpha;
    c.A = A;
    c.lda = lda;
    c.B = B;
    c.ldb = ldb;
    c.C = B;
    c.ldc = ldb;
    dfs_trsm t;
    ck_assert(dfs_l3_to_trsm(&c, alpha_dev, &pm[0], &pm[2], &t));
    ck_assert(t.cplx && t.conj == (op == CUBLAS_OP_C));
    const int64_t need = dfs_trsm_scratch(&t, nb);
    double *s = malloc((size_t)(need + 2) * sizeof(double));
    gemms = bad_gemm = 0;
    const dfs_trsm_ops ops = {stand_solve, stand_copy, stand_gemm, NULL, NULL, NULL};
    ck_assert_int_eq(dfs_trsm_run(&t, nb, s, &ops), CUBLAS_STATUS_SUCCESS);
    ck_assert_msg(!bad_gemm, "line %d: a real or odd GEMM, copy or solve", line);
    ck_assert_int_eq(gemms, (order + nb - 1) / nb - 1);
    /* padding untouched */
    for (int64_t e = 0; e < ldb * n; e++)
        if (e % ldb >= m)
            ck_assert(!memcmp(&B[2 * e], &B0[2 * e], 2 * sizeof(double)));
    /* backward error, elementwise */
    const long double complex al = CMPLXL(alpha[0], alpha[1]);
    const long double u = 16.0L * (long double)order * 0x1p-53L;
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < m; i++) {
            long double complex r = 0;
            long double mag = 0;
            for (int64_t l = 0; l < order; l++) {
                /* left: op(A)(i, l) X(l, j); right: X(i, l) op(A)(l, j) */
                const long double complex a = left ? opa(A, lda, lower, unit, op, i, l)
                                                   : opa(A, lda, lower, unit, op, l, j);
                const double *x = left ? B + 2 * (l + j * ldb) : B + 2 * (i + l * ldb);
                const long double complex xv = CMPLXL(x[0], x[1]);
                r += a * xv;
                mag += cabsl(a) * cabsl(xv);
            }
            const double *b = B0 + 2 * (i + j * ldb);
            const long double complex ab = al * CMPLXL(b[0], b[1]);
            r -= ab;
            mag += cabsl(ab);
            ck_assert_msg(isfinite((double)mag) && cabsl(r) <= u * mag,
                          "line %d: (%lld, %lld) residual %Lg of %Lg", line, (long long)i,
                          (long long)j, cabsl(r), mag);
        }
    free(A);
    free(B);
    free(B0);
    free(s);
}

START_TEST(sweeps)
{
    static const cublasOperation_t ops[] = {CUBLAS_OP_N, CUBLAS_OP_T, CUBLAS_OP_C};
    static const int64_t shapes[][3] = {{8, 3, 4}, {13, 5, 4}, {3, 6, 8}, {7, 2, 1}, {6, 9, 3}};
    for (int left = 0; left < 2; left++)
        for (int lower = 0; lower < 2; lower++)
            for (int o = 0; o < 3; o++)
                for (int unit = 0; unit < 2; unit++)
                    for (int dev = 0; dev < 2; dev++)
                        for (size_t q = 0; q < sizeof shapes / sizeof shapes[0]; q++)
                            run(left, lower, ops[o], unit, shapes[q][0], shapes[q][1],
                                shapes[q][2], dev,
                                (int)q + 8 * (dev + 2 * (unit + 2 * (o + 3 * (lower + 2 * left)))));
}
END_TEST

/* The complex solve alone: its bits a function of its inputs (two runs, the second through a
 * strided view of a copy), and x = b / t by Smith's formula on a 1 x 1 block. */
START_TEST(solve_bits)
{
    double A[2 * 9], B1[2 * 12], B2[2 * 24];
    uint64_t seed = 7;
    for (int e = 0; e < 18; e++)
        A[e] = 2.0 + frand(&seed);
    for (int e = 0; e < 12; e++)
        B1[e] = frand(&seed);
    /* B2 holds B1 transposed (rows as right-hand sides): rs = 4, cs = 1 */
    for (int q = 0; q < 4; q++)
        for (int r = 0; r < 3; r++) {
            B2[2 * (r * 4 + q)] = B1[2 * (r + 3 * q)];
            B2[2 * (r * 4 + q) + 1] = B1[2 * (r + 3 * q) + 1];
        }
    dfs_l3_solve s = {.A = A, .lda = 3, .trans_a = 0, .lower = 1, .n = 3, .nrhs = 4, .B = B1,
                      .rs = 1, .cs = 3, .scale_h = 0.5, .cplx = 1, .conj = 1, .scale_hi = 2.0};
    dfs_l3_solve_host(&s);
    s.B = B2;
    s.rs = 4;
    s.cs = 1;
    dfs_l3_solve_host(&s);
    for (int q = 0; q < 4; q++)
        for (int r = 0; r < 3; r++)
            ck_assert(!memcmp(&B2[2 * (r * 4 + q)], &B1[2 * (r + 3 * q)], 2 * sizeof(double)));
    /* 1 x 1: (1 + 2i) / (3 - 4i) conjugated = (1 + 2i) / (3 + 4i) = (11 + 2i) / 25 */
    double a1[2] = {3.0, -4.0}, b1[2] = {1.0, 2.0};
    dfs_l3_solve one = {.A = a1, .lda = 1, .lower = 1, .n = 1, .nrhs = 1, .B = b1, .rs = 1,
                        .cs = 1, .scale_h = 1.0, .cplx = 1, .conj = 1};
    dfs_l3_solve_host(&one);
    ck_assert(fabs(b1[0] - 0.44) <= 0x1p-52 && fabs(b1[1] - 0.08) <= 0x1p-54);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("l3ztrsm");
    TCase *t = tcase_create("complex sweep");
    tcase_set_timeout(t, 120);
    tcase_add_test(t, sweeps);
    tcase_add_test(t, solve_bits);
    suite_add_tcase(s, t);
    return s;
}
