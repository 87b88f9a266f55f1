/* l3_trsm_common.c — the TRSM tests' shared harness (l3_trsm_common.h). */
#include "l3_trsm_common.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

l3t_state l3t;

int64_t l3t_order(const cfg *c)
{
    return c->left ? c->m : c->n;
}

/* ---------- the CPU twin ---------- */

static int twin_solve(void *ctx, const dfs_l3_solve *s)
{
    (void)ctx;
    dfs_l3_solve_host(s);
    return 0;
}

static int twin_copy(void *ctx, const dfs_l3_copy *cp)
{
    (void)ctx;
    dfs_l3_copy_host(cp);
    return 0;
}

/* X into B (host memory) by the blocked algorithm with blocks of nb. */
static void twin(const cfg *c, const double *A, double *B)
{
    static const double pm_r[2] = {-1.0, 1.0}, pm_z[4] = {-1.0, 0.0, 1.0, 0.0};
    const int cplx = l3t.type->w == 2;
    const double *pm = cplx ? pm_z : pm_r;
    const cublasOperation_t op = cplx ? (cublasOperation_t)c->trans
                                      : c->trans ? CUBLAS_OP_T : CUBLAS_OP_N;
    const dfs_l3_call call = {.kind = DFS_L3_TRSM, .type = cplx ? DFS_C64 : DFS_R64,
                              .side = c->left ? CUBLAS_SIDE_LEFT : CUBLAS_SIDE_RIGHT,
                              .uplo = c->lower ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER,
                              .trans = op,
                              .diag = c->unit ? CUBLAS_DIAG_UNIT : CUBLAS_DIAG_NON_UNIT,
                              .m = c->m, .n = c->n, .k = l3t_order(c), .alpha = c->alpha,
                              .alpha_real = !cplx, .A = A, .lda = c->lda, .B = B, .ldb = c->ldb,
                              .C = B, .ldc = c->ldb};
    dfs_trsm t;
    if (!dfs_l3_to_trsm(&call, 0, &pm[0], &pm[l3t.type->w], &t))
        gt_fatal("the twin does not take this TRSM");
    double *s = gt_hmalloc((size_t)(dfs_trsm_scratch(&t, l3t.nb) + 1) * sizeof(double));
    const dfs_trsm_ops ops = {twin_solve, twin_copy, l3t.type->twin_gemm, NULL, NULL, NULL};
    if (dfs_trsm_run(&t, l3t.nb, s, &ops) != CUBLAS_STATUS_SUCCESS)
        gt_fatal("the twin failed");
    free(s);
}

/* ---------- the cases ---------- */

static uint64_t rng;

static double uniform(void)
{
    return (double)(gt_rand(&rng) >> 11) / 4503599627370496.0 - 1.0;
}

/* Host images of c: A (well conditioned, NaN where it is not read), B (NaN padding), the twin's
 * X. */
static void build(const cfg *c, uint64_t seed, double **A, double **B0, double **X)
{
    const int w = l3t.type->w;
    const double d0 = l3t.type->diag;
    const int64_t k = l3t_order(c), na = c->lda * k, nbb = c->ldb * c->n;
    *A = gt_hmalloc((size_t)(w * na) * sizeof(double));
    *B0 = gt_hmalloc((size_t)(w * nbb) * sizeof(double));
    *X = gt_hmalloc((size_t)(w * nbb) * sizeof(double));
    rng = seed;
    for (int64_t e = 0; e < na; e++) {
        const int64_t i = e % c->lda, j = e / c->lda;
        const int used = i < k && l3_in_tri(c->lower, i, j) && !(i == j && c->unit);
        for (int p = 0; p < w; p++) {
            /* the diagonal's sign drawn first, then its size (one order on every compiler) */
            const double sign = i == j && uniform() < 0 ? -1.0 : 1.0;
            const double v = i == j ? sign * (d0 + 0.5 * uniform()) : uniform() / (double)k;
            (*A)[w * e + p] = used ? v : gt_qnan();
        }
    }
    for (int64_t e = 0; e < w * nbb; e++)
        (*B0)[e] = (e / w) % c->ldb < c->m ? uniform() : gt_qnan();
    memcpy(*X, *B0, (size_t)(w * nbb) * sizeof(double));
    if (l3t.bitwise)
        twin(c, *A, *X);
}

void l3t_run_cfg(const cfg *c, uint64_t seed)
{
    const int w = l3t.type->w;
    double *A, *B0, *X;
    build(c, seed, &A, &B0, &X);
    const int64_t nbb = c->ldb * c->n;
    gt_h2d(l3t.dA, A, (size_t)(w * c->lda * l3t_order(c)) * sizeof(double));
    gt_h2d(l3t.dAlpha, c->alpha, (size_t)w * sizeof(double));
    double *got = gt_hmalloc((size_t)(w * nbb) * sizeof(double));
    char alpha[64];
    if (w == 2)
        snprintf(alpha, sizeof alpha, "%g%+gi", c->alpha[0], c->alpha[1]);
    else
        snprintf(alpha, sizeof alpha, "%g", c->alpha[0]);
    for (int f = 0; f < F_COUNT; f++)
        for (int dev = 0; dev <= (f != F_LEG); dev++) {
            gt_case("%s %s side %c uplo %c op %c diag %c m %lld n %lld alpha %s, %s alpha",
                    l3t.type->routine, l3_fname[f], "RL"[c->left], "UL"[c->lower],
                    "NTC"[c->trans], "NU"[c->unit], (long long)c->m, (long long)c->n, alpha,
                    dev ? "device" : "host");
            gt_h2d(l3t.dB, B0, (size_t)(w * nbb) * sizeof(double));
            l3_pointer_mode(dev);
            if (!l3_call_ok(l3t.type->call(c, f, dev, l3t.dB)))
                continue;
            gt_d2h(got, l3t.dB, (size_t)(w * nbb) * sizeof(double));
            l3t.type->check(c, A, B0, X, got,
                            l3t.bitwise && (!l3t.type->exact || l3t.type->exact(c, dev)));
        }
    l3_pointer_mode(0);
    free(got);
    free(A);
    free(B0);
    free(X);
}

unsigned l3t_shapes(void)
{
    const int64_t orders[5] = {1, 7, 33, l3t.nb, l3t.nb + 1};
    const int cplx = l3t.type->w == 2;
    gt_group("%s: side, uplo, op, diag; orders 1, 7, 33, nb, nb + 1; forms, pointer modes",
             l3t.type->routine);
    unsigned seed = 1;
    for (int o = 0; o < 5; o++)
        for (int left = 0; left < 2; left++)
            for (int lower = 0; lower < 2; lower++)
                for (int trans = 0; trans < 3; trans++)
                    for (int unit = 0; unit < 2; unit++) {
                        const int64_t k = orders[o], r = (seed % 2) ? 5 : 9;
                        cfg c = {left, lower, trans, unit, left ? k : r, left ? r : k, 0, 0,
                                 {(seed % 3) ? 1.5 : -0.75, cplx && !(seed % 3) ? 0.5 : 0.0}};
                        c.lda = k + 1;
                        c.ldb = c.m + 2;
                        l3t_run_cfg(&c, 1000u + seed++);
                    }
    gt_group("%s: 300 x 64 and 64 x 300, every side, uplo, op, diag", l3t.type->routine);
    for (int wide = 0; wide < 2; wide++)
        for (int left = 0; left < 2; left++)
            for (int lower = 0; lower < 2; lower++)
                for (int trans = 0; trans < 3; trans++)
                    for (int unit = 0; unit < 2; unit++) {
                        cfg c = {left, lower, trans, unit, wide ? 64 : 300, wide ? 300 : 64, 0, 0,
                                 {(seed % 2) ? 1.5 : -0.75, cplx && !(seed % 2) ? 0.5 : 0.0}};
                        c.lda = l3t_order(&c) + 3;
                        c.ldb = c.m + 1;
                        l3t_run_cfg(&c, 1000u + seed++);
                    }
    return seed;
}

void l3t_graph(const char *title, const char *after, const cfg *c)
{
    const int w = l3t.type->w;
    gt_group("%s", title);
    double *A, *B0, *X;
    build(c, 9000u, &A, &B0, &X);
    const int64_t nbb = c->ldb * c->n;
    gt_h2d(l3t.dA, A, (size_t)(w * c->lda * c->m) * sizeof(double));
    l3_capture_begin();
    const cublasStatus_t s1 = l3t.type->call(c, F_V2, 0, l3t.dB);
    gt_still_capturing(l3_stream, after);
    cudaGraph_t graph;
    cudaGraphExec_t exec = l3_capture_end(&graph);
    double *got = gt_hmalloc((size_t)(w * nbb) * sizeof(double)),
           *first = gt_hmalloc((size_t)(w * nbb) * sizeof(double));
    for (int r = 0; exec && r < 2; r++) {
        gt_case("replay %d (capture status %s)", r, gt_status_name(s1));
        gt_h2d(l3t.dB, B0, (size_t)(w * nbb) * sizeof(double));
        l3_replay(exec);
        gt_d2h(got, l3t.dB, (size_t)(w * nbb) * sizeof(double));
        l3t.type->check(c, A, B0, X, got, l3t.bitwise);
        if (r == 0)
            memcpy(first, got, (size_t)(w * nbb) * sizeof(double));
        else
            gt_cmp("the second replay against the first", first, got, (size_t)(w * nbb), 8,
                   w * c->ldb);
    }
    l3_capture_free(exec, graph);
    free(got);
    free(first);
    free(A);
    free(B0);
    free(X);
}

/* ---------- the start ---------- */

void l3t_start(const char *test, const l3t_type *type, int tol_shift, const char *bitwise_what)
{
    gt_init(test);
    const char *e = gt_mode_engine();
    l3t.type = type;
    l3t.bitwise = !strcmp(e, "repro");
    l3t.nb = !strcmp(e, "dd") || !strcmp(e, "df") ? 128 : 256;
    l3t.tol = !strcmp(e, "df") ? ldexp(1.0, -44 + tol_shift)
              : !strcmp(e, "dd") || !strcmp(e, "accurate") || !strcmp(e, "int8") ||
                      !strcmp(e, "fast") || l3t.bitwise
                  ? ldexp(1.0, -50 + tol_shift)
                  : ldexp(1.0, -40 + tol_shift);
    l3_start(test, l3t.bitwise ? bitwise_what : "X within the mode's backward-error bound");
}

void l3t_alloc(size_t elems)
{
    const size_t w = (size_t)l3t.type->w;
    l3t.dA = gt_dmalloc(w * elems * sizeof(double));
    l3t.dB = gt_dmalloc(w * elems * sizeof(double));
    l3t.dAlpha = gt_dmalloc(w * sizeof(double));
}
