/* level3_trsm — the real TRSM computed through an engine (shim/l3_trsm.h: diagonal solves by
 * the engines/l3 kernel, GEMM updates by the engine): cublasDtrsm_v2, cublasDtrsm_v2_64 and the
 * legacy cublasDtrsm through the shim.  By mode (gt_mode_engine()):
 *   repro            every element of X bit for bit the CPU twin of the same blocked algorithm
 *                    (dfs_trsm_run with nb = 256, the solve of engines/l3/solve.h on the CPU,
 *                    repro_dgemm_host for the updates);
 *   other engines    X with a small backward error: |op(A) X - alpha B| (left; X op(A) on the
 *                    right, in long double) within c (order + 2) (|op(A)| |X| + |alpha B|) per
 *                    element, c = 2^-50 (dd, accurate, int8, fast), 2^-44 (df), 2^-40 (others).
 * In every mode B's padding rows keep their bits (NaN sentinels), A holds NaN in its other
 * triangle, its padding and, with a unit diagonal, on the diagonal (never read: a NaN read
 * would show in X).  Cases: side L/R, uplo L/U, op N/T/C, diag N/U; orders 1, 7, 33, nb, nb + 1
 * (nb = 256, or 128 for dd and df) with 5 or 9 right-hand sides, 300 x 64 and 64 x 300, and
 * orders 4 nb and 2 nb + 3 with 1 to 3 right-hand sides (cuSOLVER's getrs; ld = order);
 * leading dimensions padded; alpha 1.5 or -0.75, on the host and on the device (legacy: host);
 * a TRSM of 300 x 64 captured in a CUDA graph and replayed twice (the same bits both times).
 * Failures print the first bad element. */
#include "common.h"

#include "../../include/reprohost.h"
#include "../../shim/l3_trsm.h"

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
    double alpha;
} cfg;

static cublasHandle_t h;
static cudaStream_t stream;
static double *dA, *dB, *dAlpha;
static int bitwise;  /* repro: X bit for bit the twin */
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
    const double *al = dev ? dAlpha : &c->alpha;
    switch (f) {
    case F_V2:
        return cublasDtrsm_v2(h, s, u, t, d, (int)c->m, (int)c->n, al, dA, (int)c->lda, B,
                              (int)c->ldb);
    case F_64: return cublasDtrsm_v2_64(h, s, u, t, d, c->m, c->n, al, dA, c->lda, B, c->ldb);
    default:
        cublasGetError();
        cublasDtrsm("LR"[!c->left], "UL"[c->lower], "NTC"[c->trans], "NU"[c->unit], (int)c->m,
                    (int)c->n, c->alpha, dA, (int)c->lda, B, (int)c->ldb);
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
    repro_dgemm_host(g->transa == CUBLAS_OP_N ? 'N' : 'T', g->transb == CUBLAS_OP_N ? 'N' : 'T',
                     g->m, g->n, g->k, *g->alpha, g->A, g->lda, g->B, g->ldb, *g->beta, g->C,
                     g->ldc);
    return CUBLAS_STATUS_SUCCESS;
}

/* X into B (host memory) by the blocked algorithm with blocks of nb. */
static void twin(const cfg *c, const double *A, double *B)
{
    static const double pm[2] = {-1.0, 1.0};
    const dfs_l3_call call = {.kind = DFS_L3_TRSM, .type = DFS_R64,
                              .side = c->left ? CUBLAS_SIDE_LEFT : CUBLAS_SIDE_RIGHT,
                              .uplo = c->lower ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER,
                              .trans = c->trans ? CUBLAS_OP_T : CUBLAS_OP_N,
                              .diag = c->unit ? CUBLAS_DIAG_UNIT : CUBLAS_DIAG_NON_UNIT,
                              .m = c->m, .n = c->n, .k = order(c), .alpha = &c->alpha,
                              .alpha_real = 1, .A = A, .lda = c->lda, .B = B, .ldb = c->ldb,
                              .C = B, .ldc = c->ldb};
    dfs_trsm t;
    if (!dfs_l3_to_trsm(&call, 0, &pm[0], &pm[1], &t))
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

static long double opa(const cfg *c, const double *A, int64_t i, int64_t j)
{
    const int64_t r = c->trans ? j : i, q = c->trans ? i : j;
    if (!in_tri(c->lower, r, q))
        return 0.0L;
    return r == q && c->unit ? 1.0L : (long double)A[r + q * c->lda];
}

static int same(double a, double b)
{
    return !memcmp(&a, &b, sizeof a);
}

/* got (B after the call) against the twin (bitwise) or the residual bound, the padding against
 * B0.  Fails the case at the first bad element. */
static void check(const cfg *c, const double *A, const double *B0, const double *want,
                  const double *got)
{
    const int64_t k = order(c);
    int64_t bad = 0, bi = 0, bj = 0;
    double bgot = 0, bwant = 0;
    long double bres = 0, bbound = 0;
    for (int64_t j = 0; j < c->n; j++)
        for (int64_t i = 0; i < c->ldb; i++) {
            const int64_t e = i + j * c->ldb;
            int ok;
            long double r = 0, s = 0, bound = 0;
            if (i >= c->m) {
                ok = same(got[e], B0[e]);
            } else if (bitwise) {
                ok = same(got[e], want[e]);
            } else {
                for (int64_t l = 0; l < k; l++) {
                    const long double a = c->left ? opa(c, A, i, l) : opa(c, A, l, j);
                    const long double x = c->left ? got[l + j * c->ldb] : got[i + l * c->ldb];
                    r += a * x;
                    s += fabsl(a * x);
                }
                const long double ab = (long double)c->alpha * B0[e];
                r -= ab;
                s += fabsl(ab);
                bound = (long double)tol * (long double)(k + 2) * s;
                ok = fabsl(r) <= bound;
            }
            if (!ok && bad++ == 0) {
                bi = i, bj = j, bgot = got[e], bwant = i >= c->m ? B0[e] : want[e];
                bres = r, bbound = bound;
            }
        }
    if (bad && (bi >= c->m || bitwise))
        gt_fail("%lld of %lld elements wrong; first B(%lld, %lld) = %.17g, expected %.17g (%s)",
                (long long)bad, (long long)(c->ldb * c->n), (long long)bi, (long long)bj, bgot,
                bwant, bi >= c->m ? "padding: must be untouched" : "the CPU twin's");
    else if (bad)
        gt_fail("%lld of %lld elements wrong; first X(%lld, %lld) = %.17g: residual %Lg above "
                "%Lg",
                (long long)bad, (long long)(c->ldb * c->n), (long long)bi, (long long)bj, bgot,
                bres, bbound);
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
    *A = gt_hmalloc((size_t)na * sizeof(double));
    *B0 = gt_hmalloc((size_t)nbb * sizeof(double));
    *X = gt_hmalloc((size_t)nbb * sizeof(double));
    rng = seed;
    for (int64_t e = 0; e < na; e++) {
        const int64_t i = e % c->lda, j = e / c->lda;
        const int used = i < k && in_tri(c->lower, i, j) && !(i == j && c->unit);
        const double v = i == j ? (uniform() < 0 ? -1.0 : 1.0) * (1.5 + 0.5 * uniform())
                                : uniform() / (double)k;
        (*A)[e] = used ? v : gt_qnan();
    }
    for (int64_t e = 0; e < nbb; e++)
        (*B0)[e] = e % c->ldb < c->m ? uniform() : gt_qnan();
    memcpy(*X, *B0, (size_t)nbb * sizeof(double));
    if (bitwise)
        twin(c, *A, *X);
}

static void run_cfg(const cfg *c, uint64_t seed)
{
    double *A, *B0, *X;
    build(c, seed, &A, &B0, &X);
    const int64_t nbb = c->ldb * c->n;
    gt_h2d(dA, A, (size_t)(c->lda * order(c)) * sizeof(double));
    gt_h2d(dAlpha, &c->alpha, sizeof(double));
    double *got = gt_hmalloc((size_t)nbb * sizeof(double));
    for (int f = 0; f < F_COUNT; f++)
        for (int dev = 0; dev <= (f != F_LEG); dev++) {
            gt_case("dtrsm %s side %c uplo %c op %c diag %c m %lld n %lld alpha %g, %s alpha",
                    fname[f], "RL"[c->left], "UL"[c->lower], "NTC"[c->trans], "NU"[c->unit],
                    (long long)c->m, (long long)c->n, c->alpha, dev ? "device" : "host");
            gt_h2d(dB, B0, (size_t)nbb * sizeof(double));
            GT_CUBLAS(cublasSetPointerMode_v2(h, dev ? CUBLAS_POINTER_MODE_DEVICE
                                                     : CUBLAS_POINTER_MODE_HOST));
            const cublasStatus_t st = call(c, f, dev, dB);
            GT_CUDA(cudaDeviceSynchronize());
            if (st != CUBLAS_STATUS_SUCCESS) {
                gt_fail("status %s", gt_status_name(st));
                continue;
            }
            gt_d2h(got, dB, (size_t)nbb * sizeof(double));
            check(c, A, B0, X, got);
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
    gt_group("dtrsm: side, uplo, op, diag; orders 1, 7, 33, nb, nb + 1; forms, pointer modes");
    unsigned seed = 1;
    for (int o = 0; o < 5; o++)
        for (int left = 0; left < 2; left++)
            for (int lower = 0; lower < 2; lower++)
                for (int trans = 0; trans < 3; trans++)
                    for (int unit = 0; unit < 2; unit++) {
                        const int64_t k = orders[o], r = (seed % 2) ? 5 : 9;
                        cfg c = {left, lower, trans, unit, left ? k : r, left ? r : k, 0, 0,
                                 (seed % 3) ? 1.5 : -0.75};
                        c.lda = k + 1;
                        c.ldb = c.m + 2;
                        run_cfg(&c, 1000u + seed++);
                    }
    gt_group("dtrsm: 300 x 64 and 64 x 300, every side, uplo, op, diag");
    for (int wide = 0; wide < 2; wide++)
        for (int left = 0; left < 2; left++)
            for (int lower = 0; lower < 2; lower++)
                for (int trans = 0; trans < 3; trans++)
                    for (int unit = 0; unit < 2; unit++) {
                        cfg c = {left, lower, trans, unit, wide ? 64 : 300, wide ? 300 : 64, 0, 0,
                                 (seed % 2) ? 1.5 : -0.75};
                        c.lda = order(&c) + 3;
                        c.ldb = c.m + 1;
                        run_cfg(&c, 1000u + seed++);
                    }
    /* cuSOLVER's getrs: a tall system, one to three right-hand sides (GEMM updates of n <= 3) */
    gt_group("dtrsm: orders 4 nb and 2 nb + 3 with 1, 2, 3 right-hand sides, ld = order");
    const int64_t tall[2] = {4 * nb, 2 * nb + 3};
    for (int o = 0; o < 2; o++)
        for (int64_t r = 1; r <= 3; r++)
            for (int left = 0; left < 2; left++)
                for (int lower = 0; lower < 2; lower++)
                    for (int trans = 0; trans < 2; trans++) {
                        cfg c = {left, lower, trans, (int)(r == 2), left ? tall[o] : r,
                                 left ? r : tall[o], 0, 0, 1.0};
                        c.lda = tall[o];
                        c.ldb = c.m;
                        run_cfg(&c, 1000u + seed++);
                    }
}

/* A TRSM captured on a stream into a graph, replayed twice: both replays the expected X, and
 * the same bits. */
static void graph_group(void)
{
    gt_group("a TRSM of 300 x 64 in a CUDA graph, replayed twice");
    cfg c = {1, 1, 0, 0, 300, 64, 301, 303, 1.5};
    double *A, *B0, *X;
    build(&c, 9000u, &A, &B0, &X);
    const int64_t nbb = c.ldb * c.n;
    gt_h2d(dA, A, (size_t)(c.lda * c.m) * sizeof(double));
    GT_CUBLAS(cublasSetStream_v2(h, stream));
    cudaGraph_t graph = NULL;
    GT_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
    const cublasStatus_t s1 = call(&c, F_V2, 0, dB);
    gt_still_capturing(stream, "cublasDtrsm_v2");
    cudaGraphExec_t exec = gt_end_capture(stream, &graph) ? gt_instantiate(graph) : NULL;
    double *got = gt_hmalloc((size_t)nbb * sizeof(double)),
           *first = gt_hmalloc((size_t)nbb * sizeof(double));
    for (int r = 0; exec && r < 2; r++) {
        gt_case("replay %d (capture status %s)", r, gt_status_name(s1));
        gt_h2d(dB, B0, (size_t)nbb * sizeof(double));
        GT_CUDA(cudaGraphLaunch(exec, stream));
        GT_CUDA(cudaStreamSynchronize(stream));
        gt_d2h(got, dB, (size_t)nbb * sizeof(double));
        check(&c, A, B0, X, got);
        if (r == 0)
            memcpy(first, got, (size_t)nbb * sizeof(double));
        else
            gt_cmp("the second replay against the first", first, got, (size_t)nbb, 8, c.ldb);
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
    gt_init("level3_trsm");
    const char *e = gt_mode_engine();
    bitwise = !strcmp(e, "repro");
    nb = !strcmp(e, "dd") || !strcmp(e, "df") ? 128 : 256;
    tol = !strcmp(e, "df") ? ldexp(1.0, -44)
          : !strcmp(e, "dd") || !strcmp(e, "accurate") || !strcmp(e, "int8") ||
                  !strcmp(e, "fast") || bitwise
              ? ldexp(1.0, -50)
              : ldexp(1.0, -40);
    printf("level3_trsm: EXBLAS_MODE=%s: %s\n", gt_mode() ? gt_mode() : "(unset)",
           bitwise ? "X bit for bit the CPU twin (blocks of 256)"
                   : "X within the mode's backward-error bound");
    GT_CUBLAS(cublasCreate_v2(&h));
    if (cublasInit() != CUBLAS_STATUS_SUCCESS)
        gt_fatal("cublasInit failed");
    GT_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    const size_t side = (size_t)(4 * nb > 304 ? 4 * nb : 304); /* the largest order or ld */
    dA = gt_dmalloc(side * side * sizeof(double));
    dB = gt_dmalloc(side * side * sizeof(double));
    dAlpha = gt_dmalloc(sizeof(double));
    shapes_group();
    graph_group();
    GT_CUDA(cudaStreamDestroy(stream));
    return gt_finish();
}
