/* zlevel3_trsm — the complex TRSM computed through an engine (shim/l3_trsm.h: diagonal solves
 * by the engines/l3 complex kernel, updates by the engine's complex GEMM): cublasZtrsm_v2,
 * cublasZtrsm_v2_64 and the legacy cublasZtrsm through the shim.  By mode (gt_mode_engine()):
 *   repro            where it computes the call (alpha real and on the host, or a single block:
 *                    the solve alone), every part of X bit for bit the CPU twin of the same
 *                    blocked algorithm (dfs_trsm_run with nb = 256, the complex solve of
 *                    engines/l3/solve.h on the CPU, repro_zgemm_host for the updates); otherwise
 *                    (its complex GEMM declines the first update: the call runs natively) the
 *                    backward-error bound below;
 *   other engines    X with a small backward error: |op(A) X - alpha B| (left; X op(A) on the
 *                    right, complex, in long double) within c (order + 2) (|op(A)| |X| +
 *                    |alpha B|) per element, c = 2^-49 (dd, accurate, int8, fast, and repro's
 *                    declined calls), 2^-43 (df), 2^-39 (others).  op C conjugates A.
 * In every mode B's padding rows keep their bits (NaN sentinels), A holds NaN in its other
 * triangle, its padding and, with a unit diagonal, on the diagonal (never read: a NaN read
 * would show in X).  Cases: side L/R, uplo L/U, op N/T/C, diag N/U; orders 1, 7, 33, nb, nb + 1
 * (nb = 256, or 128 for dd and df) with 5 or 9 right-hand sides, and 300 x 64 and 64 x 300;
 * leading dimensions padded; alpha 1.5 + 0i or -0.75 + 0.5i, on the host and on the device
 * (legacy: host); a TRSM of 300 x 64 captured in a CUDA graph and replayed twice (the same bits
 * both times).
 * Failures print the first bad element. */
#include "common.h"

#include "../../include/reprohost.h"
#include "../../shim/l3_trsm.h"

#include <complex.h>
#include <cublas.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { F_V2, F_64, F_LEG, F_COUNT };
static const char *const fname[F_COUNT] = {"v2", "_64", "legacy"};

typedef struct {
    int left, lower, trans, unit; /* trans 0 N, 1 T, 2 C */
    int64_t m, n, lda, ldb;
    _Alignas(16) double alpha[2]; /* passed as cuDoubleComplex (16-byte loads) */
} cfg;

static cublasHandle_t h;
static cudaStream_t stream;
static double *dA, *dB, *dAlpha;
static int bitwise;  /* repro: X bit for bit the twin where repro computes the call */
static double tol;   /* else: the backward-error constant */
static int64_t nb;   /* the engine's TRSM block size */

static int64_t order(const cfg *c)
{
    return c->left ? c->m : c->n;
}

static cublasStatus_t call(const cfg *c, int f, int dev, double *B)
{
    const cublasSideMode_t s = c->left ? CUBLAS_SIDE_LEFT : CUBLAS_SIDE_RIGHT;
    const cublasFillMode_t u = c->lower ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER;
    const cublasOperation_t t = c->trans == 0 ? CUBLAS_OP_N : c->trans == 1 ? CUBLAS_OP_T
                                                                            : CUBLAS_OP_C;
    const cublasDiagType_t d = c->unit ? CUBLAS_DIAG_UNIT : CUBLAS_DIAG_NON_UNIT;
    const cuDoubleComplex *al = (const cuDoubleComplex *)(dev ? dAlpha : c->alpha);
    const cuDoubleComplex *zA = (const cuDoubleComplex *)dA;
    cuDoubleComplex *zB = (cuDoubleComplex *)B;
    switch (f) {
    case F_V2:
        return cublasZtrsm_v2(h, s, u, t, d, (int)c->m, (int)c->n, al, zA, (int)c->lda, zB,
                              (int)c->ldb);
    case F_64: return cublasZtrsm_v2_64(h, s, u, t, d, c->m, c->n, al, zA, c->lda, zB, c->ldb);
    default:
        cublasGetError();
        cublasZtrsm("LR"[!c->left], "UL"[c->lower], "NTC"[c->trans], "NU"[c->unit], (int)c->m,
                    (int)c->n, make_cuDoubleComplex(c->alpha[0], c->alpha[1]), zA, (int)c->lda,
                    zB, (int)c->ldb);
        return cublasGetError();
    }
}

/* ---------- the CPU twin and the residual ---------- */

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

static cublasStatus_t twin_gemm(void *ctx, const dfs_gemm_call *g)
{
    (void)ctx;
    const char ta = "NTC"[g->transa], tb = "NTC"[g->transb];
    repro_zgemm_host(ta, tb, g->m, g->n, g->k, g->alpha, g->A, g->lda, g->B, g->ldb, g->beta,
                     g->C, g->ldc);
    return CUBLAS_STATUS_SUCCESS;
}

/* X into B (host memory) by the blocked algorithm with blocks of nb. */
static void twin(const cfg *c, const double *A, double *B)
{
    static const double pm[4] = {-1.0, 0.0, 1.0, 0.0};
    const dfs_l3_call call = {.kind = DFS_L3_TRSM, .type = DFS_C64,
                              .side = c->left ? CUBLAS_SIDE_LEFT : CUBLAS_SIDE_RIGHT,
                              .uplo = c->lower ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER,
                              .trans = (cublasOperation_t)c->trans,
                              .diag = c->unit ? CUBLAS_DIAG_UNIT : CUBLAS_DIAG_NON_UNIT,
                              .m = c->m, .n = c->n, .k = order(c), .alpha = c->alpha,
                              .A = A, .lda = c->lda, .B = B, .ldb = c->ldb,
                              .C = B, .ldc = c->ldb};
    dfs_trsm t;
    if (!dfs_l3_to_trsm(&call, 0, &pm[0], &pm[2], &t))
        gt_fatal("the twin does not take this TRSM");
    double *s = gt_hmalloc((size_t)(dfs_trsm_scratch(&t, nb) + 1) * sizeof(double));
    const dfs_trsm_ops ops = {twin_solve, twin_copy, twin_gemm, NULL};
    if (dfs_trsm_run(&t, nb, s, &ops) != CUBLAS_STATUS_SUCCESS)
        gt_fatal("the twin failed");
    free(s);
}

static int in_tri(int lower, int64_t i, int64_t j)
{
    return lower ? i >= j : i <= j;
}

static long double complex opa(const cfg *c, const double *A, int64_t i, int64_t j)
{
    const int64_t r = c->trans ? j : i, q = c->trans ? i : j;
    if (!in_tri(c->lower, r, q))
        return 0.0L;
    if (r == q && c->unit)
        return 1.0L;
    const double *e = A + 2 * (r + q * c->lda);
    return CMPLXL(e[0], c->trans == 2 ? -e[1] : e[1]);
}

/* Whether repro computes c (else its first update is declined: the call runs natively). */
static int computed(const cfg *c, int dev)
{
    return order(c) <= nb || (!dev && c->alpha[1] == 0.0);
}

static int same(double a, double b)
{
    return !memcmp(&a, &b, sizeof a);
}

/* got (B after the call) against the twin (exact) or the residual bound, the padding against
 * B0.  Fails the case at the first bad element. */
static void check(const cfg *c, const double *A, const double *B0, const double *want,
                  const double *got, int exact)
{
    const int64_t k = order(c);
    int64_t bad = 0, bi = 0, bj = 0;
    double bgot[2] = {0, 0}, bwant[2] = {0, 0};
    long double bres = 0, bbound = 0;
    const long double complex al = CMPLXL(c->alpha[0], c->alpha[1]);
    for (int64_t j = 0; j < c->n; j++)
        for (int64_t i = 0; i < c->ldb; i++) {
            const int64_t e = i + j * c->ldb;
            int ok;
            long double complex r = 0;
            long double s = 0, bound = 0;
            if (i >= c->m || exact) {
                const double *w = i >= c->m ? B0 : want;
                ok = same(got[2 * e], w[2 * e]) && same(got[2 * e + 1], w[2 * e + 1]);
            } else {
                for (int64_t l = 0; l < k; l++) {
                    const long double complex a = c->left ? opa(c, A, i, l) : opa(c, A, l, j);
                    const double *x = c->left ? got + 2 * (l + j * c->ldb)
                                              : got + 2 * (i + l * c->ldb);
                    const long double complex xv = CMPLXL(x[0], x[1]);
                    r += a * xv;
                    s += cabsl(a) * cabsl(xv);
                }
                const long double complex ab = al * CMPLXL(B0[2 * e], B0[2 * e + 1]);
                r -= ab;
                s += cabsl(ab);
                bound = (long double)tol * (long double)(k + 2) * s;
                ok = cabsl(r) <= bound;
            }
            if (!ok && bad++ == 0) {
                const double *w = i >= c->m ? B0 : want;
                bi = i, bj = j, bgot[0] = got[2 * e], bgot[1] = got[2 * e + 1];
                bwant[0] = w[2 * e], bwant[1] = w[2 * e + 1];
                bres = cabsl(r), bbound = bound;
            }
        }
    if (bad && (bi >= c->m || exact))
        gt_fail("%lld of %lld elements wrong; first B(%lld, %lld) = %.17g%+.17gi, expected "
                "%.17g%+.17gi (%s)",
                (long long)bad, (long long)(c->ldb * c->n), (long long)bi, (long long)bj,
                bgot[0], bgot[1], bwant[0], bwant[1],
                bi >= c->m ? "padding: must be untouched" : "the CPU twin's");
    else if (bad)
        gt_fail("%lld of %lld elements wrong; first X(%lld, %lld) = %.17g%+.17gi: residual %Lg "
                "above %Lg",
                (long long)bad, (long long)(c->ldb * c->n), (long long)bi, (long long)bj,
                bgot[0], bgot[1], bres, bbound);
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
    const int64_t k = order(c), na = c->lda * k, nbb = c->ldb * c->n;
    *A = gt_hmalloc((size_t)(2 * na) * sizeof(double));
    *B0 = gt_hmalloc((size_t)(2 * nbb) * sizeof(double));
    *X = gt_hmalloc((size_t)(2 * nbb) * sizeof(double));
    rng = seed;
    for (int64_t e = 0; e < na; e++) {
        const int64_t i = e % c->lda, j = e / c->lda;
        const int used = i < k && in_tri(c->lower, i, j) && !(i == j && c->unit);
        for (int p = 0; p < 2; p++) {
            const double v = i == j ? (uniform() < 0 ? -1.0 : 1.0) * (1.0 + 0.5 * uniform())
                                    : uniform() / (double)k;
            (*A)[2 * e + p] = used ? v : gt_qnan();
        }
    }
    for (int64_t e = 0; e < 2 * nbb; e++)
        (*B0)[e] = (e / 2) % c->ldb < c->m ? uniform() : gt_qnan();
    memcpy(*X, *B0, (size_t)(2 * nbb) * sizeof(double));
    if (bitwise)
        twin(c, *A, *X);
}

static void run_cfg(const cfg *c, uint64_t seed)
{
    double *A, *B0, *X;
    build(c, seed, &A, &B0, &X);
    const int64_t nbb = c->ldb * c->n;
    gt_h2d(dA, A, (size_t)(2 * c->lda * order(c)) * sizeof(double));
    gt_h2d(dAlpha, c->alpha, 2 * sizeof(double));
    double *got = gt_hmalloc((size_t)(2 * nbb) * sizeof(double));
    for (int f = 0; f < F_COUNT; f++)
        for (int dev = 0; dev <= (f != F_LEG); dev++) {
            gt_case("ztrsm %s side %c uplo %c op %c diag %c m %lld n %lld alpha %g%+gi, %s alpha",
                    fname[f], "RL"[c->left], "UL"[c->lower], "NTC"[c->trans], "NU"[c->unit],
                    (long long)c->m, (long long)c->n, c->alpha[0], c->alpha[1],
                    dev ? "device" : "host");
            gt_h2d(dB, B0, (size_t)(2 * nbb) * sizeof(double));
            GT_CUBLAS(cublasSetPointerMode_v2(h, dev ? CUBLAS_POINTER_MODE_DEVICE
                                                     : CUBLAS_POINTER_MODE_HOST));
            const cublasStatus_t st = call(c, f, dev, dB);
            GT_CUDA(cudaDeviceSynchronize());
            if (st != CUBLAS_STATUS_SUCCESS) {
                gt_fail("status %s", gt_status_name(st));
                continue;
            }
            gt_d2h(got, dB, (size_t)(2 * nbb) * sizeof(double));
            check(c, A, B0, X, got, bitwise && computed(c, dev));
        }
    GT_CUBLAS(cublasSetPointerMode_v2(h, CUBLAS_POINTER_MODE_HOST));
    free(got);
    free(A);
    free(B0);
    free(X);
}

static void shapes_group(void)
{
    const int64_t orders[5] = {1, 7, 33, nb, nb + 1};
    gt_group("ztrsm: side, uplo, op, diag; orders 1, 7, 33, nb, nb + 1; forms, pointer modes");
    unsigned seed = 1;
    for (int o = 0; o < 5; o++)
        for (int left = 0; left < 2; left++)
            for (int lower = 0; lower < 2; lower++)
                for (int trans = 0; trans < 3; trans++)
                    for (int unit = 0; unit < 2; unit++) {
                        const int64_t k = orders[o], r = (seed % 2) ? 5 : 9;
                        cfg c = {left, lower, trans, unit, left ? k : r, left ? r : k, 0, 0,
                                 {(seed % 3) ? 1.5 : -0.75, (seed % 3) ? 0.0 : 0.5}};
                        c.lda = k + 1;
                        c.ldb = c.m + 2;
                        run_cfg(&c, 1000u + seed++);
                    }
    gt_group("ztrsm: 300 x 64 and 64 x 300, every side, uplo, op, diag");
    for (int wide = 0; wide < 2; wide++)
        for (int left = 0; left < 2; left++)
            for (int lower = 0; lower < 2; lower++)
                for (int trans = 0; trans < 3; trans++)
                    for (int unit = 0; unit < 2; unit++) {
                        cfg c = {left, lower, trans, unit, wide ? 64 : 300, wide ? 300 : 64, 0, 0,
                                 {(seed % 2) ? 1.5 : -0.75, (seed % 2) ? 0.0 : 0.5}};
                        c.lda = order(&c) + 3;
                        c.ldb = c.m + 1;
                        run_cfg(&c, 1000u + seed++);
                    }
}

/* A TRSM captured on a stream into a graph, replayed twice: both replays the expected X, and
 * the same bits. */
static void graph_group(void)
{
    gt_group("a ZTRSM of 300 x 64 (op C) in a CUDA graph, replayed twice");
    cfg c = {1, 1, 2, 0, 300, 64, 301, 303, {1.5, 0.0}};
    double *A, *B0, *X;
    build(&c, 9000u, &A, &B0, &X);
    const int64_t nbb = c.ldb * c.n;
    gt_h2d(dA, A, (size_t)(2 * c.lda * c.m) * sizeof(double));
    GT_CUBLAS(cublasSetStream_v2(h, stream));
    cudaGraph_t graph = NULL;
    GT_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
    const cublasStatus_t s1 = call(&c, F_V2, 0, dB);
    gt_still_capturing(stream, "cublasZtrsm_v2");
    cudaGraphExec_t exec = gt_end_capture(stream, &graph) ? gt_instantiate(graph) : NULL;
    double *got = gt_hmalloc((size_t)(2 * nbb) * sizeof(double)),
           *first = gt_hmalloc((size_t)(2 * nbb) * sizeof(double));
    for (int r = 0; exec && r < 2; r++) {
        gt_case("replay %d (capture status %s)", r, gt_status_name(s1));
        gt_h2d(dB, B0, (size_t)(2 * nbb) * sizeof(double));
        GT_CUDA(cudaGraphLaunch(exec, stream));
        GT_CUDA(cudaStreamSynchronize(stream));
        gt_d2h(got, dB, (size_t)(2 * nbb) * sizeof(double));
        check(&c, A, B0, X, got, bitwise);
        if (r == 0)
            memcpy(first, got, (size_t)(2 * nbb) * sizeof(double));
        else
            gt_cmp("the second replay against the first", first, got, (size_t)(2 * nbb), 8,
                   2 * c.ldb);
    }
    if (exec)
        GT_CUDA(cudaGraphExecDestroy(exec));
    if (graph)
        GT_CUDA(cudaGraphDestroy(graph));
    GT_CUBLAS(cublasSetStream_v2(h, NULL));
    free(got);
    free(first);
    free(A);
    free(B0);
    free(X);
}

int main(void)
{
    gt_init("zlevel3_trsm");
    const char *e = gt_mode_engine();
    bitwise = !strcmp(e, "repro");
    nb = !strcmp(e, "dd") || !strcmp(e, "df") ? 128 : 256;
    tol = !strcmp(e, "df") ? ldexp(1.0, -43)
          : !strcmp(e, "dd") || !strcmp(e, "accurate") || !strcmp(e, "int8") ||
                  !strcmp(e, "fast") || bitwise
              ? ldexp(1.0, -49)
              : ldexp(1.0, -39);
    printf("zlevel3_trsm: EXBLAS_MODE=%s: %s\n", gt_mode() ? gt_mode() : "(unset)",
           bitwise ? "X bit for bit the CPU twin (blocks of 256) where repro computes it"
                   : "X within the mode's backward-error bound");
    GT_CUBLAS(cublasCreate_v2(&h));
    if (cublasInit() != CUBLAS_STATUS_SUCCESS)
        gt_fatal("cublasInit failed");
    GT_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    dA = gt_dmalloc((size_t)(2 * 304 * 304) * sizeof(double));
    dB = gt_dmalloc((size_t)(2 * 304 * 304) * sizeof(double));
    dAlpha = gt_dmalloc(2 * sizeof(double));
    shapes_group();
    graph_group();
    GT_CUDA(cudaStreamDestroy(stream));
    return gt_finish();
}
