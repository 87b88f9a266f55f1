/* test_ltplan.c — unit tests (Check) of shim/ltplan.c, which turns a cublasLtMatmul call into a
 * column-major GEMM or says why the shim leaves it to cuBLASLt.
 *
 * mapping: for every order of A, B and C/D (column- or row-major), ops N, T, C on A and B,
 * batches of 1 and 3, C = D or not, beta = 0 or not, and two shapes, the plan is carried out by
 * a plain column-major GEMM on the storage (with C copied into D first when the plan says so),
 * and every entry of D must equal the definition D = alpha op(A) op(B) + beta C computed on the
 * logical matrices (small integers: exact), with the padding of D untouched and, with beta = 0
 * and C != D, C never needed.
 * zmapping: the same for complex matrices (op C conjugating), and the refusals a row-major
 * layout brings to conjugated operands; mixed real and complex types refused.
 * reasons: one valid call, then one attribute at a time changed to something the shim must not
 * take: each must be refused (and the valid call taken). */
#include "../../shim/ltplan.h"

#include <check.h>
#include <cublasLt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define COL CUBLASLT_ORDER_COL
#define ROW CUBLASLT_ORDER_ROW

static int64_t srows(const dfs_lt_layout *l) { return (int64_t)(l->order == COL ? l->rows : l->cols); }
static int64_t scols(const dfs_lt_layout *l) { return (int64_t)(l->order == COL ? l->cols : l->rows); }
static size_t elems(const dfs_lt_layout *l)
{
    return (size_t)((l->batch - 1) * l->stride + l->ld * scols(l));
}
static size_t at(const dfs_lt_layout *l, int b, int64_t i, int64_t j)
{
    return (size_t)(b * l->stride + (l->order == COL ? i + j * l->ld : j + i * l->ld));
}

static dfs_lt_layout lay(int order, int64_t rows, int64_t cols, int pad, int batch)
{
    dfs_lt_layout l = {CUDA_R_64F, order, (uint64_t)rows, (uint64_t)cols, 0, batch, 0, 0, 0};
    l.ld = srows(&l) + pad;
    l.stride = batch > 1 ? l.ld * scols(&l) + 3 : 0;
    return l;
}

static dfs_lt_desc desc(int ta, int tb)
{
    dfs_lt_desc d = {CUBLAS_COMPUTE_64F, CUDA_R_64F, CUBLASLT_POINTER_MODE_HOST, ta, tb, CUBLAS_OP_N,
                     CUBLAS_FILL_MODE_FULL, CUBLASLT_EPILOGUE_DEFAULT, 0};
    return d;
}

static double op_at(const double *X, const dfs_lt_layout *l, cublasOperation_t op, int b,
                    int64_t i, int64_t j)
{
    return X[op == CUBLAS_OP_N ? at(l, b, i, j) : at(l, b, j, i)];
}

/* What an engine does with the plan: D' = alpha op_a(A') op_b(B') + beta D', column-major. */
static void run_plan(const dfs_lt_plan *p, double alpha, const double *A, const double *B,
                     double beta, const double *C, double *D)
{
    if (p->copy_c)
        for (int64_t q = 0; q < p->batch; q++)
            for (int64_t j = 0; j < p->c_cols; j++)
                for (int64_t i = 0; i < p->c_rows; i++)
                    D[q * p->sD + i + j * p->ldd] = C[q * p->sC + i + j * p->ldc];
    for (int64_t q = 0; q < p->batch; q++)
        for (int64_t j = 0; j < p->n; j++)
            for (int64_t i = 0; i < p->m; i++) {
                double s = 0;
                for (int64_t l = 0; l < p->k; l++) {
                    const double *a = A + q * p->sA, *b = B + q * p->sB;
                    double av = p->transa == CUBLAS_OP_N ? a[i + l * p->lda] : a[l + i * p->lda];
                    double bv = p->transb == CUBLAS_OP_N ? b[l + j * p->ldb] : b[j + l * p->ldb];
                    s += av * bv;
                }
                double *d = &D[q * p->sD + i + j * p->ldd];
                *d = alpha * s + (beta == 0 ? 0 : beta * *d);
            }
}

static void fill_ints(double *x, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++) {
        seed = seed * 1103515245u + 12345u;
        x[i] = (double)((int)((seed >> 16) % 15) - 7);
    }
}

static void mapping_case(int oa, int ob, int od, cublasOperation_t ta, cublasOperation_t tb,
                         int batch, int c_is_d, double beta, int64_t m, int64_t n, int64_t k)
{
    const double alpha = 3;
    dfs_lt_layout l[4];
    l[DFS_LT_A] = lay(oa, ta == CUBLAS_OP_N ? m : k, ta == CUBLAS_OP_N ? k : m, 2, batch);
    l[DFS_LT_B] = lay(ob, tb == CUBLAS_OP_N ? k : n, tb == CUBLAS_OP_N ? n : k, 1, batch);
    l[DFS_LT_C] = lay(od, m, n, 3, batch);
    l[DFS_LT_D] = c_is_d ? l[DFS_LT_C] : lay(od, m, n, 1, batch);
    const dfs_lt_layout *la = &l[0], *lb = &l[1], *lc = &l[2], *ld = &l[3];
    size_t na = elems(la), nb = elems(lb), nc = elems(lc), nd = elems(ld);
    double *A = malloc(na * 8), *B = malloc(nb * 8), *C = malloc(nc * 8), *D = malloc(nd * 8);
    double *D0 = malloc(nd * 8);
    fill_ints(A, na, 1u + (unsigned)batch), fill_ints(B, nb, 2u + (unsigned)oa);
    fill_ints(C, nc, 3u + (unsigned)od);
    if (c_is_d)
        memcpy(D, C, nc * 8);
    else
        for (size_t i = 0; i < nd; i++)
            D[i] = NAN; /* never read: written whole, or C copied in first */
    if (!c_is_d && beta == 0)
        for (size_t i = 0; i < nc; i++)
            C[i] = NAN; /* beta = 0: C is not needed either */
    memcpy(D0, D, nd * 8);
    dfs_lt_desc d = desc(ta, tb);
    dfs_lt_plan p;
    const char *why = dfs_lt_plan_make(&d, l, c_is_d, beta == 0, &p);
    ck_assert_msg(!why, "refused: %s", why ? why : "");
    run_plan(&p, alpha, p.swap ? B : A, p.swap ? A : B, beta, C, D);
    for (int q = 0; q < batch; q++)
        for (int64_t i = 0; i < m; i++)
            for (int64_t j = 0; j < n; j++) {
                double s = 0;
                for (int64_t x = 0; x < k; x++)
                    s += op_at(A, la, ta, q, i, x) * op_at(B, lb, tb, q, x, j);
                double want = alpha * s + (beta == 0 ? 0 : beta * C[at(lc, q, i, j)]);
                double got = D[at(ld, q, i, j)];
                ck_assert_msg(got == want,
                              "orders %d%d%d ops %d%d batch %d C%sD beta %g: D[%d](%lld,%lld) = %g, "
                              "want %g", oa, ob, od, (int)ta, (int)tb, batch, c_is_d ? "=" : "!=",
                              beta, q, (long long)i, (long long)j, got, want);
                D[at(ld, q, i, j)] = D0[at(ld, q, i, j)]; /* what is left must be as it was */
            }
    ck_assert_msg(memcmp(D, D0, nd * 8) == 0, "D changed outside the product (orders %d%d%d)", oa,
                  ob, od);
    free(A), free(B), free(C), free(D), free(D0);
}

START_TEST(mapping)
{
    static const cublasOperation_t ops[3] = {CUBLAS_OP_N, CUBLAS_OP_T, CUBLAS_OP_C};
    static const int64_t shapes[2][3] = {{5, 4, 3}, {2, 7, 6}};
    for (int o = 0; o < 8; o++)
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 3; b++)
                for (int v = 0; v < 8; v++) {
                    const int64_t *s = shapes[v & 1];
                    mapping_case(o & 1, (o >> 1) & 1, o >> 2, ops[a], ops[b], v & 2 ? 3 : 1,
                                 (v >> 2) & 1, v & 2 ? 0.0 : -2.0, s[0], s[1], s[2]);
                }
}
END_TEST

/* Complex (all CUDA_C_64F): the same on interleaved data, op C conjugating; the shim refuses
 * exactly the conjugated operands that a row-major A, B or D would need conjugated without
 * transposition. */
static void zop_at(const double *X, const dfs_lt_layout *l, cublasOperation_t op, int b, int64_t i,
                   int64_t j, double *re, double *im)
{
    const size_t e = op == CUBLAS_OP_N ? at(l, b, i, j) : at(l, b, j, i);
    *re = X[2 * e];
    *im = op == CUBLAS_OP_C ? -X[2 * e + 1] : X[2 * e + 1];
}

static void zmapping_case(int oa, int ob, int od, cublasOperation_t ta, cublasOperation_t tb,
                          int batch, int c_is_d)
{
    const int64_t m = 3, n = 4, k = 5;
    const double al[2] = {3, -1}, be[2] = {-2, 1};
    dfs_lt_layout l[4];
    l[DFS_LT_A] = lay(oa, ta == CUBLAS_OP_N ? m : k, ta == CUBLAS_OP_N ? k : m, 2, batch);
    l[DFS_LT_B] = lay(ob, tb == CUBLAS_OP_N ? k : n, tb == CUBLAS_OP_N ? n : k, 1, batch);
    l[DFS_LT_C] = lay(od, m, n, 3, batch);
    l[DFS_LT_D] = c_is_d ? l[DFS_LT_C] : lay(od, m, n, 1, batch);
    for (int i = 0; i < 4; i++)
        l[i].type = CUDA_C_64F;
    dfs_lt_desc d = desc(ta, tb);
    d.scale_type = CUDA_C_64F;
    dfs_lt_plan p;
    const char *why = dfs_lt_plan_make(&d, l, c_is_d, 0, &p);
    const int refuse = (ta == CUBLAS_OP_C && (oa == ROW || od == ROW)) ||
                       (tb == CUBLAS_OP_C && (ob == ROW || od == ROW));
    ck_assert_msg(!why == !refuse, "orders %d%d%d ops %d%d: %s", oa, ob, od, (int)ta, (int)tb,
                  why ? why : "taken");
    if (refuse)
        return;
    ck_assert_int_eq(p.complex, 1);
    const dfs_lt_layout *la = &l[0], *lb = &l[1], *lc = &l[2], *ld = &l[3];
    const size_t na = elems(la), nb = elems(lb), nc = elems(lc), nd = elems(ld);
    double *A = malloc(na * 16), *B = malloc(nb * 16), *C = malloc(nc * 16), *D = malloc(nd * 16);
    fill_ints(A, 2 * na, 5u + (unsigned)batch), fill_ints(B, 2 * nb, 6u + (unsigned)oa);
    fill_ints(C, 2 * nc, 7u + (unsigned)od);
    if (c_is_d)
        memcpy(D, C, nc * 16);
    /* the plan carried out by a complex column-major GEMM on the storage */
    const double *A1 = p.swap ? B : A, *B1 = p.swap ? A : B;
    if (p.copy_c)
        for (int64_t q = 0; q < p.batch; q++)
            for (int64_t j = 0; j < p.c_cols; j++)
                for (int64_t i = 0; i < p.c_rows; i++)
                    memcpy(&D[2 * (q * p.sD + i + j * p.ldd)], &C[2 * (q * p.sC + i + j * p.ldc)],
                           16);
    for (int64_t q = 0; q < p.batch; q++)
        for (int64_t j = 0; j < p.n; j++)
            for (int64_t i = 0; i < p.m; i++) {
                double sr = 0, si = 0;
                for (int64_t x = 0; x < p.k; x++) {
                    const double *a = A1 + 2 * (q * p.sA + (p.transa == CUBLAS_OP_N ? i + x * p.lda
                                                                                   : x + i * p.lda));
                    const double *b = B1 + 2 * (q * p.sB + (p.transb == CUBLAS_OP_N ? x + j * p.ldb
                                                                                   : j + x * p.ldb));
                    const double ai = p.transa == CUBLAS_OP_C ? -a[1] : a[1];
                    const double bi = p.transb == CUBLAS_OP_C ? -b[1] : b[1];
                    sr += a[0] * b[0] - ai * bi;
                    si += a[0] * bi + ai * b[0];
                }
                double *dd = &D[2 * (q * p.sD + i + j * p.ldd)];
                const double cr = dd[0], ci = dd[1];
                dd[0] = al[0] * sr - al[1] * si + be[0] * cr - be[1] * ci;
                dd[1] = al[0] * si + al[1] * sr + be[0] * ci + be[1] * cr;
            }
    for (int q = 0; q < batch; q++)
        for (int64_t i = 0; i < m; i++)
            for (int64_t j = 0; j < n; j++) {
                double sr = 0, si = 0;
                for (int64_t x = 0; x < k; x++) {
                    double ar, ai, br, bi;
                    zop_at(A, la, ta, q, i, x, &ar, &ai);
                    zop_at(B, lb, tb, q, x, j, &br, &bi);
                    sr += ar * br - ai * bi;
                    si += ar * bi + ai * br;
                }
                const double *c = &C[2 * at(lc, q, i, j)], *g = &D[2 * at(ld, q, i, j)];
                const double wr = al[0] * sr - al[1] * si + be[0] * c[0] - be[1] * c[1];
                const double wi = al[0] * si + al[1] * sr + be[0] * c[1] + be[1] * c[0];
                ck_assert_msg(g[0] == wr && g[1] == wi,
                              "complex orders %d%d%d ops %d%d batch %d: D[%d](%lld,%lld) = %g%+gi, "
                              "want %g%+gi", oa, ob, od, (int)ta, (int)tb, batch, q, (long long)i,
                              (long long)j, g[0], g[1], wr, wi);
            }
    free(A), free(B), free(C), free(D);
}

START_TEST(zmapping)
{
    static const cublasOperation_t ops[3] = {CUBLAS_OP_N, CUBLAS_OP_T, CUBLAS_OP_C};
    for (int o = 0; o < 8; o++)
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 3; b++)
                for (int v = 0; v < 4; v++)
                    zmapping_case(o & 1, (o >> 1) & 1, o >> 2, ops[a], ops[b], v & 1 ? 3 : 1,
                                  v >> 1);
    /* mixed types: refused */
    dfs_lt_layout l[4] = {lay(COL, 3, 5, 0, 1), lay(COL, 5, 4, 0, 1), lay(COL, 3, 4, 0, 1),
                          lay(COL, 3, 4, 0, 1)};
    dfs_lt_desc d = desc(CUBLAS_OP_N, CUBLAS_OP_N);
    dfs_lt_plan p;
    d.scale_type = CUDA_C_64F;
    ck_assert_ptr_nonnull(dfs_lt_plan_make(&d, l, 1, 0, &p)); /* C_64F scale, R_64F matrices */
    for (int i = 0; i < 4; i++)
        l[i].type = CUDA_C_64F;
    ck_assert_ptr_null(dfs_lt_plan_make(&d, l, 1, 0, &p));
    l[DFS_LT_B].type = CUDA_R_64F;
    ck_assert_ptr_nonnull(dfs_lt_plan_make(&d, l, 1, 0, &p));
}
END_TEST

START_TEST(reasons)
{
    dfs_lt_layout base[4] = {lay(COL, 6, 5, 1, 2), lay(COL, 5, 4, 0, 2), lay(COL, 6, 4, 2, 2),
                             lay(COL, 6, 4, 2, 2)};
    dfs_lt_desc d0 = desc(CUBLAS_OP_N, CUBLAS_OP_N);
    dfs_lt_plan p;
    ck_assert_ptr_null(dfs_lt_plan_make(&d0, base, 1, 0, &p));
    ck_assert_ptr_null(dfs_lt_plan_make(&d0, base, 0, 0, &p));
    ck_assert_int_eq(p.copy_c, 1);
    ck_assert_ptr_null(dfs_lt_plan_make(&d0, base, 0, 1, &p));
    ck_assert_int_eq(p.copy_c, 0);

    /* the descriptor */
    struct { const char *what; dfs_lt_desc d; } descs[] = {
        {"pedantic", d0}, {"32F", d0}, {"emulated", d0}, {"scale 32F", d0}, {"vector", d0},
        {"transa", d0}, {"transc", d0}, {"fill", d0}, {"epilogue", d0}, {"extras", d0}};
    descs[0].d.compute = CUBLAS_COMPUTE_64F_PEDANTIC;
    descs[1].d.compute = CUBLAS_COMPUTE_32F;
    descs[2].d.compute = CUBLAS_COMPUTE_64F_EMULATED_FIXEDPOINT;
    descs[3].d.scale_type = CUDA_R_32F;
    descs[4].d.pointer_mode = CUBLASLT_POINTER_MODE_DEVICE_VECTOR;
    descs[5].d.transa = 7;
    descs[6].d.transc = CUBLAS_OP_T;
    descs[7].d.fill = CUBLAS_FILL_MODE_LOWER;
    descs[8].d.epilogue = CUBLASLT_EPILOGUE_RELU;
    descs[9].d.extras = 1;
    for (size_t i = 0; i < sizeof descs / sizeof descs[0]; i++)
        ck_assert_msg(dfs_lt_plan_make(&descs[i].d, base, 1, 0, &p) != NULL, "%s taken",
                      descs[i].what);

    /* the layouts */
    for (int w = 0; w < 4; w++) {
        for (int change = 0; change < 8; change++) {
            dfs_lt_layout l[4];
            memcpy(l, base, sizeof l);
            switch (change) {
            case 0: l[w].type = CUDA_R_32F; break;
            case 1: l[w].order = CUBLASLT_ORDER_COL32; break;
            case 2: l[w].plane_offset = 64; break;
            case 3: l[w].batch_mode = CUBLASLT_BATCH_MODE_POINTER_ARRAY; break;
            case 4: l[w].rows = 0; break;
            case 5: l[w].ld = srows(&l[w]) - 1; break;
            case 6: l[w].batch = 3; break;
            case 7: l[w].stride = -1; break;
            }
            ck_assert_msg(dfs_lt_plan_make(&d0, l, 0, 0, &p) != NULL, "matrix %d change %d taken",
                          w, change);
        }
    }
    dfs_lt_layout l[4];
    memcpy(l, base, sizeof l);
    l[DFS_LT_A].cols = 6; /* k of A != k of B */
    ck_assert_ptr_nonnull(dfs_lt_plan_make(&d0, l, 0, 0, &p));
    memcpy(l, base, sizeof l);
    l[DFS_LT_C] = lay(ROW, 6, 4, 2, 2); /* C and D in different orders */
    ck_assert_ptr_nonnull(dfs_lt_plan_make(&d0, l, 0, 0, &p));
    memcpy(l, base, sizeof l);
    l[DFS_LT_D].ld = 9; /* C = D with another leading dimension */
    l[DFS_LT_D].stride = 40;
    ck_assert_ptr_nonnull(dfs_lt_plan_make(&d0, l, 1, 0, &p));
    ck_assert_ptr_null(dfs_lt_plan_make(&d0, l, 0, 0, &p)); /* fine when they differ */
    memcpy(l, base, sizeof l);
    l[DFS_LT_D].stride = l[DFS_LT_D].ld * 4 - 1; /* batches of D overlap */
    ck_assert_ptr_nonnull(dfs_lt_plan_make(&d0, l, 0, 0, &p));
    memcpy(l, base, sizeof l);
    l[DFS_LT_B].cols = l[DFS_LT_C].cols = l[DFS_LT_D].cols = (uint64_t)INT32_MAX + 1;
    ck_assert_ptr_nonnull(dfs_lt_plan_make(&d0, l, 0, 0, &p));
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("ltplan");
    TCase *t = tcase_create("plan");
    tcase_add_test(t, mapping);
    tcase_add_test(t, zmapping);
    tcase_add_test(t, reasons);
    suite_add_tcase(s, t);
    return s;
}

#include "check_main.h"
