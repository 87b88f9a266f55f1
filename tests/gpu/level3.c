/* level3 — the real Level-3 routines an engine computes through its GEMM (shim/l3_mm.h):
 * cublasDsyrk_v2, Dsyrkx, Dsyr2k_v2, Dsymm_v2 and Dtrmm_v2, their _64 forms and the legacy
 * cublasDsyrk, Dsyr2k, Dsymm, Dtrmm (in place), through the shim, against a correctly rounded
 * CPU reference: repro_dgemm_host (include/reprohost.h, MPFR-tested) on the operands made dense
 * (op applied; the symmetric matrix mirrored; the triangular one with zeros and a unit
 * diagonal; SYR2K's [op(A) op(B)] times [op(B) op(A)]^T, one sum of 2k products), each output
 * RN(alpha sum + beta c).  By mode (gt_mode_engine()):
 *   repro            every output bit for bit the reference (its per-output contract);
 *   dd, accurate     within 1 ulp of it plus 2^-100 k S (double-double, rounded once);
 *   df               within 4 (k + 2) 2^-48 S + 2 ulp (the DF GEMM's tested bound);
 *   int8, fast, ...  within (k + 2) 2^-52 S + 1 ulp (native FP64's own bound);
 * S = |alpha| sum |a b| + |beta c| per output, k the products per output (2k for SYR2K).  In
 * every mode C's other triangle (rank-k routines) and its padding rows keep their bits (NaN
 * sentinels), with beta = 0 C's triangle holds NaN (never read), A's unreferenced triangle (SYMM,
 * TRMM) and a unit diagonal hold NaN (never read).  Cases: uplo L/U, op N/T/C (rank-k, TRMM), side
 * L/R, diag N/U, TRMM with C = B (v2: both), sizes 7, 33 and 100 (k 5, 9, 37; n 5, 9, 45: panels
 * of 32, the last one partial, and fewer than one), one of 300 x 64 per routine (and 700 x 40
 * per rank-k routine: the triangle GEMM in blocks under a small workspace), leading
 * dimensions padded, three (alpha, beta) pairs (one with beta = 0), host and device scalars
 * (legacy: host); a SYRK and an in-place TRMM captured into a CUDA graph and replayed twice.
 * Failures print the first bad element. */
#include "l3_mm_common.h"

#include "../../include/reprohost.h"

#include <cublas.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { K_SYRK, K_SYRKX, K_SYR2K, K_SYMM, K_TRMM, K_COUNT };
static const char *const kname[K_COUNT] = {"syrk", "syrkx", "syr2k", "symm", "trmm"};

static char ch(int v, const char *s)
{
    return s[v];
}

/* The call through the shim: form f, scalars on the device (dev) or the host. */
static cublasStatus_t call(const cfg *c, int f, int dev, const double *A, const double *B,
                           double *C)
{
    const cublasFillMode_t u = c->uplo ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
    const cublasOperation_t t = (cublasOperation_t)c->trans;
    const cublasSideMode_t s = c->side ? CUBLAS_SIDE_RIGHT : CUBLAS_SIDE_LEFT;
    const cublasDiagType_t d = c->diag ? CUBLAS_DIAG_UNIT : CUBLAS_DIAG_NON_UNIT;
    const double *al = dev ? l3m.dScal : c->alpha, *be = dev ? l3m.dScal + 1 : c->beta;
    const int n = (int)c->n, k = (int)c->k, m = (int)c->m;
    const int lda = (int)c->lda, ldb = (int)c->ldb, ldc = (int)c->ldc;
    const char uc = ch(c->uplo, "LU"), tc = ch(c->trans, "NTC"), sc = ch(c->side, "LR"),
               dc = ch(c->diag, "NU");
    if (f == F_LEG)
        cublasGetError();
    switch (c->kind * F_COUNT + f) {
    case K_SYRK * F_COUNT + F_V2: return cublasDsyrk_v2(l3_h, u, t, n, k, al, A, lda, be, C, ldc);
    case K_SYRK * F_COUNT + F_64:
        return cublasDsyrk_v2_64(l3_h, u, t, c->n, c->k, al, A, c->lda, be, C, c->ldc);
    case K_SYRK * F_COUNT + F_LEG: cublasDsyrk(uc, tc, n, k, *al, A, lda, *be, C, ldc); break;
    case K_SYRKX * F_COUNT + F_V2:
        return cublasDsyrkx(l3_h, u, t, n, k, al, A, lda, B, ldb, be, C, ldc);
    case K_SYRKX * F_COUNT + F_64:
        return cublasDsyrkx_64(l3_h, u, t, c->n, c->k, al, A, c->lda, B, c->ldb, be, C, c->ldc);
    case K_SYR2K * F_COUNT + F_V2:
        return cublasDsyr2k_v2(l3_h, u, t, n, k, al, A, lda, B, ldb, be, C, ldc);
    case K_SYR2K * F_COUNT + F_64:
        return cublasDsyr2k_v2_64(l3_h, u, t, c->n, c->k, al, A, c->lda, B, c->ldb, be, C, c->ldc);
    case K_SYR2K * F_COUNT + F_LEG:
        cublasDsyr2k(uc, tc, n, k, *al, A, lda, B, ldb, *be, C, ldc);
        break;
    case K_SYMM * F_COUNT + F_V2:
        return cublasDsymm_v2(l3_h, s, u, m, n, al, A, lda, B, ldb, be, C, ldc);
    case K_SYMM * F_COUNT + F_64:
        return cublasDsymm_v2_64(l3_h, s, u, c->m, c->n, al, A, c->lda, B, c->ldb, be, C, c->ldc);
    case K_SYMM * F_COUNT + F_LEG:
        cublasDsymm(sc, uc, m, n, *al, A, lda, B, ldb, *be, C, ldc);
        break;
    case K_TRMM * F_COUNT + F_V2:
        return cublasDtrmm_v2(l3_h, s, u, t, d, m, n, al, A, lda, B, ldb, C, ldc);
    case K_TRMM * F_COUNT + F_64:
        return cublasDtrmm_v2_64(l3_h, s, u, t, d, c->m, c->n, al, A, c->lda, B, c->ldb, C, c->ldc);
    case K_TRMM * F_COUNT + F_LEG: /* in place on B */
        cublasDtrmm(sc, uc, tc, dc, m, n, *al, A, lda, C, ldb);
        break;
    default: gt_fatal("no form %s of %s", l3_fname[f], kname[c->kind]);
    }
    return cublasGetError();
}

/* ---------- the reference ---------- */

/* op(X)(i, j) of a stored X */
static double opel(const double *X, int64_t ld, int op, int64_t i, int64_t j)
{
    return op == 0 ? X[i + j * ld] : X[j + i * ld];
}

/* The operands made dense: P (m x kk, ld m) and Q (kk x n, ld kk), C = alpha P Q + beta C. */
static void dense(const cfg *c, const image *im, double *P, double *Q)
{
    const int op = c->trans != 0, lower = c->uplo == 0;
    const int64_t m = c->m, n = c->n, k = c->k;
    if (l3m_rank_k(c->kind)) {
        const double *B = c->kind == K_SYRK ? im->A : im->B;
        const int64_t ldb = c->kind == K_SYRK ? c->lda : c->ldb;
        for (int64_t l = 0; l < k; l++)
            for (int64_t i = 0; i < n; i++) {
                const double a = opel(im->A, c->lda, op, i, l), b = opel(B, ldb, op, i, l);
                P[i + l * m] = a;
                Q[l + i * im->kk] = b;
                if (c->kind == K_SYR2K) {
                    P[i + (k + l) * m] = b;
                    Q[k + l + i * im->kk] = a;
                }
            }
        return;
    }
    /* SYMM, TRMM: the structured matrix X (k x k), and B (m x n) */
    double *X = malloc((size_t)(k * k) * sizeof(double));
    for (int64_t j = 0; j < k; j++)
        for (int64_t i = 0; i < k; i++) {
            const int64_t r = c->kind == K_TRMM && op ? j : i, q = c->kind == K_TRMM && op ? i : j;
            double v;
            if (c->kind == K_SYMM)
                v = l3_in_tri(lower, r, q) ? im->A[r + q * c->lda] : im->A[q + r * c->lda];
            else
                v = !l3_in_tri(lower, r, q) ? 0.0 : r == q && c->diag ? 1.0 : im->A[r + q * c->lda];
            X[i + j * k] = v;
        }
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < m; i++) {
            const double b = im->B[i + j * c->ldb];
            if (c->side == 0)
                Q[i + j * k] = b;
            else
                P[i + j * m] = b;
        }
    memcpy(c->side == 0 ? P : Q, X, (size_t)(k * k) * sizeof(double));
    free(X);
}

/* Fills A, B, C0 for c (seed), with NaN where nothing may be read, and computes ref and sabs. */
static void build(const cfg *c, uint64_t seed, image *im)
{
    const int rk = l3m_rank_k(c->kind), lower = c->uplo == 0;
    const int64_t ar = rk ? (c->trans ? c->k : c->n) : c->k, ac = rk ? (c->trans ? c->n : c->k)
                                                                  : c->k;
    const int64_t brows = rk ? ar : c->m, bcols = rk ? ac : c->n;
    im->kk = c->kind == K_SYR2K ? 2 * c->k : c->k;
    im->A = gt_hmalloc((size_t)(c->lda * ac) * sizeof(double) + 8);
    im->B = gt_hmalloc((size_t)(c->ldb * bcols) * sizeof(double) + 8);
    im->C0 = gt_hmalloc((size_t)(c->ldc * c->n) * sizeof(double));
    im->ref = gt_hmalloc((size_t)(c->ldc * c->n) * sizeof(double));
    im->sabs = gt_hmalloc((size_t)(c->ldc * c->n) * sizeof(double));
    gt_fill(im->A, (size_t)(c->lda * ac), seed);
    gt_fill(im->B, (size_t)(c->ldb * bcols), seed + 1);
    gt_fill(im->C0, (size_t)(c->ldc * c->n), seed + 2);
    for (int64_t j = 0; j < ac; j++)
        for (int64_t i = 0; i < c->lda; i++)
            if (i >= ar || (!rk && !l3_in_tri(lower, i, j)) ||
                (c->kind == K_TRMM && c->diag && i == j))
                im->A[i + j * c->lda] = gt_qnan();
    for (int64_t j = 0; j < bcols; j++)
        for (int64_t i = brows; i < c->ldb; i++)
            im->B[i + j * c->ldb] = gt_qnan();
    const int reads_c = c->kind != K_TRMM && c->beta[0] != 0.0;
    for (int64_t j = 0; j < c->n; j++)
        for (int64_t i = 0; i < c->ldc; i++)
            if (!l3m_target(c, i, j) || !reads_c)
                im->C0[i + j * c->ldc] = gt_qnan();
    if (c->alias) /* C is B: its image is B's */
        memcpy(im->C0, im->B, (size_t)(c->ldb * c->n) * sizeof(double));
    /* the reference: RN(alpha P Q + beta C) on the targets (C zero there where it is not read) */
    const int64_t m = c->m, n = c->n, kk = im->kk;
    double *P = malloc((size_t)(m * kk + 1) * sizeof(double)),
           *Q = malloc((size_t)(kk * n + 1) * sizeof(double));
    dense(c, im, P, Q);
    memcpy(im->ref, im->C0, (size_t)(c->ldc * n) * sizeof(double));
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < m; i++)
            if (!reads_c)
                im->ref[i + j * c->ldc] = 0.0;
    repro_dgemm_host('N', 'N', m, n, kk, c->alpha[0], P, m, Q, kk > 0 ? kk : 1,
                     reads_c ? c->beta[0] : 0.0, im->ref, c->ldc);
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < m; i++) {
            double s = 0;
            for (int64_t l = 0; l < kk; l++)
                s += fabs(P[i + l * m] * Q[l + j * kk]);
            im->sabs[i + j * c->ldc] = fabs(c->alpha[0]) * s +
                                       (reads_c ? fabs(c->beta[0] * im->C0[i + j * c->ldc]) : 0.0);
        }
    free(P);
    free(Q);
}

/* got (C's buffer after the call) against the image: targets within the mode's bound, the rest
 * bit for bit as before.  Fails the case at the first bad element. */
static void check(const cfg *c, const image *im, const double *got, int dev)
{
    (void)dev;
    int64_t bad = 0, bi = 0, bj = 0;
    double bgot = 0, bwant = 0, bound = 0;
    for (int64_t j = 0; j < c->n; j++)
        for (int64_t i = 0; i < c->ldc; i++) {
            const int64_t e = i + j * c->ldc;
            double want = im->C0[e], tol = 0;
            int ok;
            if (l3m_target(c, i, j)) {
                want = im->ref[e];
                const double ulp = nextafter(fabs(want), INFINITY) - fabs(want);
                tol = l3m.tol_rel * (double)(im->kk + 2) * im->sabs[e] + l3m.tol_ulp * ulp;
                ok = l3m.tol_rel < 0 ? l3_same(got[e], want) : fabs(got[e] - want) <= tol;
            } else {
                ok = l3_same(got[e], want);
            }
            if (!ok && bad++ == 0) {
                bi = i, bj = j, bgot = got[e], bwant = want;
                bound = l3m.tol_rel < 0 || !l3m_target(c, i, j) ? 0 : tol;
            }
        }
    if (bad)
        gt_fail("%lld of %lld elements wrong; first C(%lld, %lld) = %.17g, expected %.17g (%s, "
                "bound %.3g)",
                (long long)bad, (long long)(c->ldc * c->n), (long long)bi, (long long)bj, bgot,
                bwant, l3m_target(c, bi, bj) ? "computed" : "must be untouched", bound);
}

static const double scal[3][2] = {{1.5, 0.75}, {-1.0, 0.0}, {0.3, 1.0}};

static void rank_k_group(int kind)
{
    static const int64_t shapes[][2] = {{7, 5}, {33, 9}, {100, 37}};
    gt_group("%s: uplo, op, sizes (panels of 32), scalars, forms, pointer modes", kname[kind]);
    for (int s = 0; s < 3; s++)
        for (int u = 0; u < 2; u++)
            for (int op = 0; op < 3; op++) {
                const int p = (s + u + op) % 3;
                cfg c = {kind, 0, u, op, 0, 0, shapes[s][0], shapes[s][0], shapes[s][1], 0, 0, 0,
                         {scal[p][0]}, {scal[p][1]}};
                l3m_dims(&c);
                l3m_run_cfg(c, 1000u * (unsigned)kind + 10u * (unsigned)(3 * s + u) + (unsigned)op);
            }
    cfg big = {kind, 0, 1, 1, 0, 0, 300, 300, 64, 0, 0, 0, {1.5}, {0.75}};
    l3m_dims(&big);
    l3m_run_cfg(big, 900u + (unsigned)kind);
    /* the engines' triangle GEMM (engines/engine.h's DFS_CAP_TRIANGLE) in blocks of rows and
     * columns under a small workspace (meson.build's level3_repro_crt, level3_int8_ws): blocks
     * on, across and past the diagonal */
    cfg wide = {kind, 0, kind != K_SYRKX, 0, 0, 0, 700, 700, 40, 0, 0, 0, {-0.5}, {2.0}};
    l3m_dims(&wide);
    l3m_run_cfg(wide, 950u + (unsigned)kind);
}

static void symm_group(void)
{
    static const int64_t shapes[][2] = {{7, 5}, {33, 9}, {100, 45}};
    gt_group("symm: side, uplo, sizes, scalars, forms, pointer modes");
    for (int s = 0; s < 3; s++)
        for (int side = 0; side < 2; side++)
            for (int u = 0; u < 2; u++) {
                const int p = (s + side + u) % 3;
                const int64_t m = shapes[s][0], n = shapes[s][1];
                cfg c = {K_SYMM, side, u, 0, 0, 0, m, n, side ? n : m, 0, 0, 0, {scal[p][0]},
                         {scal[p][1]}};
                l3m_dims(&c);
                l3m_run_cfg(c, 5000u + 10u * (unsigned)(2 * s + side) + (unsigned)u);
            }
    cfg big = {K_SYMM, 1, 0, 0, 0, 0, 64, 300, 300, 0, 0, 0, {-1.0}, {0.0}};
    l3m_dims(&big);
    l3m_run_cfg(big, 5900u);
}

static void trmm_group(void)
{
    static const int64_t shapes[][2] = {{7, 5}, {33, 9}, {100, 45}};
    gt_group("trmm: side, uplo, op, diag, C = B, sizes, forms, pointer modes");
    for (int s = 0; s < 3; s++)
        for (int side = 0; side < 2; side++)
            for (int u = 0; u < 2; u++)
                for (int op = 0; op < 3; op++)
                    for (int diag = 0; diag < 2; diag++)
                        for (int alias = 0; alias < 2; alias++) {
                            const int64_t m = shapes[s][0], n = shapes[s][1];
                            cfg c = {K_TRMM, side, u, op, diag, alias, m, n, side ? n : m, 0,
                                     0, 0, {(s + op) % 2 ? -0.3 : 1.5}, {0.0}};
                            l3m_dims(&c);
                            l3m_run_cfg(c, 7000u + 100u * (unsigned)s +
                                               10u * (unsigned)(4 * side + 2 * u + diag) +
                                               (unsigned)op);
                        }
    cfg big = {K_TRMM, 0, 0, 1, 1, 1, 300, 64, 300, 0, 0, 0, {1.5}, {0.0}};
    l3m_dims(&big);
    l3m_run_cfg(big, 7900u);
}

static int has_legacy(int kind)
{
    return kind != K_SYRKX; /* no legacy SYRKX */
}

static const l3m_type real = {1, kname, K_SYR2K, K_TRMM, call, has_legacy, build, check};

/* repro's and int8's integer path take a rank-k routine's triangle as one GEMM of it: where the
 * mode sends every call there (int8; repro with small=products, not products=f64: by default
 * repro's small kernel takes these sizes, and the triangle is then computed in panels), the
 * trace (EXBLAS_LOG_FILE) must show both triangles taken so. */
static char log_path[64];

static int triangle_path(void)
{
    const char *p = gt_mode_option("products"), *s = gt_mode_option("small");
    return (gt_mode_is("repro") && s && !strcmp(s, "products") && !(p && !strcmp(p, "f64"))) ||
           gt_mode_is("int8");
}

static void triangles_taken(void)
{
    gt_group("the rank-k routines' triangles as one GEMM of the integer path");
    gt_case("the trace's triangle lines");
    FILE *f = fopen(log_path, "r");
    char line[1024];
    int lower = 0, upper = 0;
    while (f && fgets(line, sizeof line, f)) {
        lower += strstr(line, "C's lower triangle only") != NULL;
        upper += strstr(line, "C's upper triangle only") != NULL;
    }
    if (f)
        fclose(f);
    if (!lower || !upper)
        gt_fail("%d lower and %d upper triangles taken whole (%s)", lower, upper, log_path);
    unlink(log_path);
}

int main(void)
{
    if (triangle_path()) {
        snprintf(log_path, sizeof log_path, "/tmp/dfshim-level3-%d.log", (int)getpid());
        unlink(log_path);
        setenv("EXBLAS_LOG", "trace", 1);
        setenv("EXBLAS_LOG_FILE", log_path, 1);
    }
    l3m_start("level3", &real, ldexp(1.0, -52),
              "every output bit for bit the correctly rounded one",
              "every output within the mode's bound of the correctly rounded one");
    for (int k = K_SYRK; k <= K_SYR2K; k++)
        rank_k_group(k);
    symm_group();
    trmm_group();
    l3m_graph("a SYRK and an in-place TRMM in a CUDA graph, replayed twice",
              (cfg){K_SYRK, 0, 0, 0, 0, 0, 100, 100, 37, 0, 0, 0, {1.5}, {0.75}}, "cublasDsyrk_v2",
              (cfg){K_TRMM, 1, 1, 1, 0, 1, 45, 100, 100, 0, 0, 0, {-0.3}, {0.0}}, "cublasDtrmm_v2");
    if (triangle_path())
        triangles_taken();
    return l3_finish();
}
