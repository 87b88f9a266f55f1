/* repro_matrix.c — test_repro's tests of the CPU DGEMV and DGEMM (engines/repro/host.c):
 * correctly rounded across transposes, shapes, generators, alpha and beta, special values and
 * the direct path; fixed splits and the fast sum reproducible. */
#include "ozfamily_test.h"

#include "../common/gen.h"

/* ---------------- DGEMV ---------------- */

static const double scalars[] = {1.0, 0.0, -1.0, 3.0, 0.1, 0x1p-1074, 1e300};
#define NSCAL ((int)(sizeof scalars / sizeof scalars[0]))

START_TEST(gemv_correctly_rounded)
{
    rng r = rng_seed(31);
    dfs_oz_stats st;
    int checked = 0, slow = 0;
    static const int gens[] = {G_PHI0, G_PHI4, G_PHI8, G_MIXED, G_SUBNORMAL, G_ZEROS};
    for (int trans = 0; trans < 2; trans++)
        for (size_t gi = 0; gi < sizeof gens / sizeof gens[0]; gi++)
            for (int sc = 0; sc < 6; sc++) {
                const int g = gens[gi];
                const int64_t m = 1 + below(&r, 40), n = 1 + below(&r, 60), lda = m + below(&r, 3);
                const int64_t incx = (below(&r, 2) ? 1 : -1) * (1 + below(&r, 3));
                const int64_t incy = (below(&r, 2) ? 1 : -1) * (1 + below(&r, 2));
                const int64_t lx = trans ? m : n, ly = trans ? n : m;
                double *A = malloc((size_t)(lda * n) * sizeof *A);
                double *x = malloc((size_t)(lx * 3) * sizeof *x);
                double *y = malloc((size_t)(ly * 2) * sizeof *y), *y0 = malloc((size_t)(ly * 2) * sizeof *y0);
                gen_fill(&r, g, A, lda * n);
                gen_fill(&r, g == G_MIXED ? G_PHI1 : g, x, lx * 3);
                gen_fill(&r, G_PHI2, y, ly * 2);
                const double alpha = scalars[below(&r, NSCAL)], beta = scalars[below(&r, NSCAL)];
                if (beta == 0)
                    for (int64_t i = 0; i < ly * 2; i++)
                        y[i] = NAN; /* not read */
                if (alpha == 0)
                    A[below(&r, (int)(lda * n))] = NAN; /* not read */
                memcpy(y0, y, (size_t)(ly * 2) * sizeof *y);
                dfs_oz_params p = params(1 + below(&r, 4), 1 + below(&r, 40));
                dfs_oz_gemv_host(&p, trans, m, n, alpha, A, lda, x, incx, beta, y, incy, &st);
                slow += st.slow > 0;
                const double *xb = incx < 0 ? x + (lx - 1) * -incx : x;
                const double *yb0 = incy < 0 ? y0 + (ly - 1) * -incy : y0;
                const double *yb = incy < 0 ? y + (ly - 1) * -incy : y;
                for (int64_t i = 0; i < ly; i++) {
                    const double *a = trans ? A + i * lda : A + i;
                    double want = reference(lx, a, trans ? 1 : lda, xb, incx, alpha, beta,
                                            yb0[i * incy]);
                    if (!same(yb[i * incy], want))
                        ck_abort_msg("gemv %c %s %lldx%lld alpha %a beta %a out %lld: got %a "
                                     "want %a", trans ? 'T' : 'N', gen_label(g), (long long)m,
                                     (long long)n, alpha, beta, (long long)i, yb[i * incy], want);
                    checked++;
                }
                free(A);
                free(x);
                free(y);
                free(y0);
            }
    printf("repro: DGEMV N and T, lda > m, increments +-1..3, alpha/beta incl. 0 with NaN "
           "behind: %d outputs correctly rounded (%d calls with slow outputs)\n", checked, slow);
    fflush(stdout);
}
END_TEST

/* ---------------- DGEMM ---------------- */

typedef struct {
    int64_t m, n, k, lda, ldb, ldc;
    double *A, *B, *C;
} gm;

static void gm_make(rng *r, gm *g, int ta, int tb, int64_t m, int64_t n, int64_t k, int gen_a,
                    int gen_b)
{
    g->m = m, g->n = n, g->k = k;
    g->lda = (ta ? k : m) + below(r, 2);
    g->ldb = (tb ? n : k) + below(r, 2);
    g->ldc = m + below(r, 2);
    g->A = malloc((size_t)(g->lda * (ta ? m : k)) * sizeof *g->A);
    g->B = malloc((size_t)(g->ldb * (tb ? k : n)) * sizeof *g->B);
    g->C = malloc((size_t)(g->ldc * n) * sizeof *g->C);
    gen_fill(r, gen_a, g->A, g->lda * (ta ? m : k));
    gen_fill(r, gen_b, g->B, g->ldb * (tb ? k : n));
    gen_fill(r, G_PHI1, g->C, g->ldc * n);
}

static void gm_free(gm *g)
{
    free(g->A);
    free(g->B);
    free(g->C);
}

/* Checks every entry of C (computed from C0) against the reference; returns mismatches (or
 * aborts when must_equal). */
static int gemm_check(const gm *g, int ta, int tb, double alpha, double beta, const double *C0,
                      const double *C, int must_equal)
{
    int bad = 0;
    double *col = malloc((size_t)(g->k > 0 ? g->k : 1) * sizeof *col);
    double *row = malloc((size_t)(g->k > 0 ? g->k : 1) * sizeof *row);
    for (int64_t j = 0; j < g->n; j++)
        for (int64_t i = 0; i < g->m; i++) {
            for (int64_t q = 0; q < g->k; q++) {
                row[q] = ta ? g->A[q + i * g->lda] : g->A[i + q * g->lda];
                col[q] = tb ? g->B[j + q * g->ldb] : g->B[q + j * g->ldb];
            }
            double want = reference(g->k, row, 1, col, 1, alpha, beta, C0[i + j * g->ldc]);
            double got = C[i + j * g->ldc];
            if (!same(got, want)) {
                if (must_equal)
                    ck_abort_msg("gemm %c%c %lldx%lldx%lld alpha %a beta %a (%lld,%lld): got %a "
                                 "want %a", ta ? 'T' : 'N', tb ? 'T' : 'N', (long long)g->m,
                                 (long long)g->n, (long long)g->k, alpha, beta, (long long)i,
                                 (long long)j, got, want);
                bad++;
            }
        }
    free(col);
    free(row);
    return bad;
}

START_TEST(gemm_correctly_rounded)
{
    rng r = rng_seed(41);
    static const int64_t shapes[][3] = {{13, 17, 29}, {1, 1, 1}, {5, 3, 1}, {20, 20, 300}, {7, 9, 0}};
    static const int gens[] = {G_PHI0, G_PHI1, G_PHI4, G_PHI8, G_MIXED, G_ZEROS};
    dfs_oz_params p = dfs_oz_default_params();
    dfs_oz_stats st;
    int checked = 0, maxs = 0;
    for (int ta = 0; ta < 2; ta++)
        for (int tb = 0; tb < 2; tb++)
            for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
                for (size_t gi = 0; gi < sizeof gens / sizeof gens[0]; gi++) {
                    gm g;
                    gm_make(&r, &g, ta, tb, shapes[s][0], shapes[s][1], shapes[s][2], gens[gi],
                            gens[gi] == G_MIXED ? G_PHI1 : gens[gi]);
                    double alpha = scalars[below(&r, NSCAL)], beta = scalars[below(&r, NSCAL)];
                    if (alpha == 0)
                        alpha = 1.0; /* alpha = 0: gemm_alpha_beta */
                    double *C0 = malloc((size_t)(g.ldc * g.n) * sizeof *C0);
                    memcpy(C0, g.C, (size_t)(g.ldc * g.n) * sizeof *C0);
                    dfs_oz_gemm_host(&p, ta, tb, g.m, g.n, g.k, alpha, g.A, g.lda, g.B, g.ldb,
                                     beta, g.C, g.ldc, &st);
                    maxs = st.slices_a > maxs ? st.slices_a : maxs;
                    gemm_check(&g, ta, tb, alpha, beta, C0, g.C, 1);
                    checked += (int)(g.m * g.n);
                    free(C0);
                    gm_free(&g);
                }
    printf("repro: DGEMM, 4 transpose pairs x 5 shapes (k = 0, 1, 29, 300) x phi 0/1/4/8, "
           "1e+-300, zeros: %d entries correctly rounded (up to %d slices)\n", checked, maxs);
    fflush(stdout);
}
END_TEST

START_TEST(gemm_alpha_beta)
{
    rng r = rng_seed(42);
    dfs_oz_params p = dfs_oz_default_params();
    dfs_oz_stats st;
    int checked = 0;
    for (int a = 0; a < NSCAL; a++)
        for (int b = 0; b < NSCAL; b++) {
            gm g;
            gm_make(&r, &g, 0, 1, 6, 5, 7, G_PHI2, G_PHI2);
            if (scalars[b] == 0)
                for (int64_t i = 0; i < g.ldc * g.n; i++)
                    g.C[i] = NAN; /* beta = 0: C not read */
            if (scalars[a] == 0)
                g.A[3] = NAN, g.B[2] = INFINITY; /* alpha = 0: A, B not read */
            double *C0 = malloc((size_t)(g.ldc * g.n) * sizeof *C0);
            memcpy(C0, g.C, (size_t)(g.ldc * g.n) * sizeof *C0);
            dfs_oz_gemm_host(&p, 0, 1, g.m, g.n, g.k, scalars[a], g.A, g.lda, g.B, g.ldb,
                             scalars[b], g.C, g.ldc, &st);
            gemm_check(&g, 0, 1, scalars[a], scalars[b], C0, g.C, 1);
            checked += (int)(g.m * g.n);
            free(C0);
            gm_free(&g);
        }
    printf("repro: DGEMM alpha x beta in {1, 0, -1, 3, 0.1, 2^-1074, 1e300}^2: %d entries "
           "correctly rounded\n", checked);
    fflush(stdout);
}
END_TEST

START_TEST(gemm_special_and_direct)
{
    rng r = rng_seed(43);
    dfs_oz_stats st;
    gm g;
    gm_make(&r, &g, 0, 0, 9, 8, 40, G_PHI4, G_PHI4);
    g.A[2 + 5 * g.lda] = INFINITY;  /* row 2 */
    g.A[4 + 7 * g.lda] = NAN;       /* row 4 */
    g.B[3 + 6 * g.ldb] = -INFINITY; /* column 6 */
    g.A[6 + 1 * g.lda] = 1e300;     /* row 6 spans 1e300 .. phi 4 */
    g.A[6 + 2 * g.lda] = 1e-300;
    double *C0 = malloc((size_t)(g.ldc * g.n) * sizeof *C0), *C1 = malloc((size_t)(g.ldc * g.n) * sizeof *C1);
    memcpy(C0, g.C, (size_t)(g.ldc * g.n) * sizeof *C0);
    memcpy(C1, g.C, (size_t)(g.ldc * g.n) * sizeof *C1);
    dfs_oz_params p = dfs_oz_default_params();
    dfs_oz_gemm_host(&p, 0, 0, g.m, g.n, g.k, 1.5, g.A, g.lda, g.B, g.ldb, -0.5, g.C, g.ldc, &st);
    ck_assert_int_gt(st.slow, 0); /* the special rows and the wide row go direct */
    gemm_check(&g, 0, 0, 1.5, -0.5, C0, g.C, 1);
    int direct_default = (int)st.slow;
    /* a small cap sends more rows direct: the same bits */
    p.max_splits = 2;
    dfs_oz_gemm_host(&p, 0, 0, g.m, g.n, g.k, 1.5, g.A, g.lda, g.B, g.ldb, -0.5, C1, g.ldc, &st);
    ck_assert_int_gt(st.slow, direct_default);
    for (int64_t i = 0; i < g.ldc * g.n; i++)
        expect(C1[i], g.C[i], "max_splits = 2 vs default");
    printf("repro: DGEMM with Inf/NaN rows and columns and a 1e+-300 row: correctly rounded, %d "
           "entries direct; max_splits = 2: %d direct, the same bits\n", direct_default,
           (int)st.slow);
    fflush(stdout);
    free(C0);
    free(C1);
    gm_free(&g);
}
END_TEST

/* splits = N and fast mode: reproducible, not correctly rounded. */
START_TEST(gemm_fixed_splits)
{
    rng r = rng_seed(44);
    dfs_oz_stats st;
    gm g;
    gm_make(&r, &g, 1, 0, 16, 16, 64, G_PHI4, G_PHI4);
    const size_t bytes = (size_t)(g.ldc * g.n) * sizeof(double);
    double *C0 = malloc(bytes), *C1 = malloc(bytes), *C2 = malloc(bytes);
    memcpy(C0, g.C, bytes);
    int bad[3] = {0, 0, 0};
    static const int splits[3] = {2, 3, 40};
    for (int s = 0; s < 3; s++)
        for (int fast = 0; fast < 2; fast++) {
            dfs_oz_params p = dfs_oz_default_params();
            p.splits = splits[s];
            p.fast = fast;
            memcpy(C1, C0, bytes);
            memcpy(C2, C0, bytes);
            dfs_oz_gemm_host(&p, 1, 0, g.m, g.n, g.k, 1.0, g.A, g.lda, g.B, g.ldb, 0.0, C1, g.ldc, &st);
            dfs_oz_gemm_host(&p, 1, 0, g.m, g.n, g.k, 1.0, g.A, g.lda, g.B, g.ldb, 0.0, C2, g.ldc, &st);
            ck_assert(!memcmp(C1, C2, bytes)); /* deterministic */
            int b = gemm_check(&g, 1, 0, 1.0, 0.0, C0, C1, 0);
            if (!fast)
                bad[s] = b;
        }
    ck_assert_int_gt(bad[0], 0);  /* 2 slices of 22 bits cannot hold phi = 4 rows */
    ck_assert_int_eq(bad[2], 0);  /* 40, reduced to what a window holds (13 at k = 64): enough */
    /* sum = fixed: within a few ulps at phi 0 */
    gm h;
    gm_make(&r, &h, 0, 0, 12, 12, 50, G_PHI0, G_PHI0);
    dfs_oz_params p = dfs_oz_default_params();
    p.sum = DFS_OZ_SUM_FIXED;
    p.splits = 4; /* sum = fixed needs splits (3 hold phi = 0 rows at k = 50) */
    double *H0 = malloc((size_t)(h.ldc * h.n) * sizeof *H0);
    memcpy(H0, h.C, (size_t)(h.ldc * h.n) * sizeof *H0);
    dfs_oz_gemm_host(&p, 0, 0, h.m, h.n, h.k, 1.0, h.A, h.lda, h.B, h.ldb, 0.0, h.C, h.ldc, &st);
    double worst = 0;
    for (int64_t j = 0; j < h.n; j++)
        for (int64_t i = 0; i < h.m; i++) {
            double row[50], col[50];
            for (int q = 0; q < 50; q++)
                row[q] = h.A[i + q * h.lda], col[q] = h.B[q + j * h.ldb];
            double want = reference(50, row, 1, col, 1, 1.0, 0.0, 0.0);
            double ulps = fabs(h.C[i + j * h.ldc] - want) / (nextafter(fabs(want), INFINITY) - fabs(want));
            worst = ulps > worst ? ulps : worst;
        }
    ck_assert(worst <= 4.0);
    printf("repro: DGEMM splits = 2/3/40 at phi 4: %d/%d/%d of 256 entries not correctly rounded "
           "(deterministic); sum = fixed at phi 0: worst %.1f ulp\n", bad[0], bad[1], bad[2], worst);
    fflush(stdout);
    free(C0);
    free(C1);
    free(C2);
    free(H0);
    gm_free(&g);
    gm_free(&h);
}
END_TEST

void repro_matrix_tests(TCase *t)
{
    tcase_add_test(t, gemv_correctly_rounded);
    tcase_add_test(t, gemm_correctly_rounded);
    tcase_add_test(t, gemm_alpha_beta);
    tcase_add_test(t, gemm_special_and_direct);
    tcase_add_test(t, gemm_fixed_splits);
}
