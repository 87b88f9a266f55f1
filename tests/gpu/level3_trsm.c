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
#include "l3_trsm_common.h"

#include "../../include/reprohost.h"

#include <cublas.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static cublasStatus_t call(const cfg *c, int f, int dev, double *B)
{
    const cublasSideMode_t s = c->left ? CUBLAS_SIDE_LEFT : CUBLAS_SIDE_RIGHT;
    const cublasFillMode_t u = c->lower ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER;
    const cublasOperation_t t = c->trans == 0 ? CUBLAS_OP_N : c->trans == 1 ? CUBLAS_OP_T
                                                                            : CUBLAS_OP_C;
    const cublasDiagType_t d = c->unit ? CUBLAS_DIAG_UNIT : CUBLAS_DIAG_NON_UNIT;
    const double *al = dev ? l3t.dAlpha : c->alpha;
    switch (f) {
    case F_V2:
        return cublasDtrsm_v2(l3_h, s, u, t, d, (int)c->m, (int)c->n, al, l3t.dA, (int)c->lda, B,
                              (int)c->ldb);
    case F_64:
        return cublasDtrsm_v2_64(l3_h, s, u, t, d, c->m, c->n, al, l3t.dA, c->lda, B, c->ldb);
    default:
        cublasGetError();
        cublasDtrsm("LR"[!c->left], "UL"[c->lower], "NTC"[c->trans], "NU"[c->unit], (int)c->m,
                    (int)c->n, c->alpha[0], l3t.dA, (int)c->lda, B, (int)c->ldb);
        return cublasGetError();
    }
}

/* ---------- the CPU twin's GEMM and the residual ---------- */

static cublasStatus_t twin_gemm(void *ctx, const dfs_gemm_call *g)
{
    (void)ctx;
    repro_dgemm_host(g->transa == CUBLAS_OP_N ? 'N' : 'T', g->transb == CUBLAS_OP_N ? 'N' : 'T',
                     g->m, g->n, g->k, *g->alpha, g->A, g->lda, g->B, g->ldb, *g->beta, g->C,
                     g->ldc);
    return CUBLAS_STATUS_SUCCESS;
}

static long double opa(const cfg *c, const double *A, int64_t i, int64_t j)
{
    const int64_t r = c->trans ? j : i, q = c->trans ? i : j;
    if (!l3_in_tri(c->lower, r, q))
        return 0.0L;
    return r == q && c->unit ? 1.0L : (long double)A[r + q * c->lda];
}

/* got (B after the call) against the twin (exact) or the residual bound, the padding against
 * B0.  Fails the case at the first bad element. */
static void check(const cfg *c, const double *A, const double *B0, const double *want,
                  const double *got, int exact)
{
    const int64_t k = l3t_order(c);
    int64_t bad = 0, bi = 0, bj = 0;
    double bgot = 0, bwant = 0;
    long double bres = 0, bbound = 0;
    for (int64_t j = 0; j < c->n; j++)
        for (int64_t i = 0; i < c->ldb; i++) {
            const int64_t e = i + j * c->ldb;
            int ok;
            long double r = 0, s = 0, bound = 0;
            if (i >= c->m) {
                ok = l3_same(got[e], B0[e]);
            } else if (exact) {
                ok = l3_same(got[e], want[e]);
            } else {
                for (int64_t l = 0; l < k; l++) {
                    const long double a = c->left ? opa(c, A, i, l) : opa(c, A, l, j);
                    const long double x = c->left ? got[l + j * c->ldb] : got[i + l * c->ldb];
                    r += a * x;
                    s += fabsl(a * x);
                }
                const long double ab = (long double)c->alpha[0] * B0[e];
                r -= ab;
                s += fabsl(ab);
                bound = (long double)l3t.tol * (long double)(k + 2) * s;
                ok = fabsl(r) <= bound;
            }
            if (!ok && bad++ == 0) {
                bi = i, bj = j, bgot = got[e], bwant = i >= c->m ? B0[e] : want[e];
                bres = r, bbound = bound;
            }
        }
    if (bad && (bi >= c->m || exact))
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

static const l3t_type dtrsm = {"dtrsm", 1, 1.5, call, twin_gemm, check, NULL};

/* cuSOLVER's getrs: a tall system, one to three right-hand sides (GEMM updates of n <= 3) */
static void getrs_group(unsigned seed)
{
    gt_group("dtrsm: orders 4 nb and 2 nb + 3 with 1, 2, 3 right-hand sides, ld = order");
    const int64_t tall[2] = {4 * l3t.nb, 2 * l3t.nb + 3};
    for (int o = 0; o < 2; o++)
        for (int64_t r = 1; r <= 3; r++)
            for (int left = 0; left < 2; left++)
                for (int lower = 0; lower < 2; lower++)
                    for (int trans = 0; trans < 2; trans++) {
                        cfg c = {left, lower, trans, (int)(r == 2), left ? tall[o] : r,
                                 left ? r : tall[o], 0, 0, {1.0, 0.0}};
                        c.lda = tall[o];
                        c.ldb = c.m;
                        l3t_run_cfg(&c, 1000u + seed++);
                    }
}

int main(void)
{
    l3t_start("level3_trsm", &dtrsm, 0, "X bit for bit the CPU twin (blocks of 256)");
    const int64_t side = 4 * l3t.nb > 304 ? 4 * l3t.nb : 304; /* the largest order or ld */
    l3t_alloc((size_t)(side * side));
    getrs_group(l3t_shapes());
    const cfg g = {1, 1, 0, 0, 300, 64, 301, 303, {1.5, 0.0}};
    l3t_graph("a TRSM of 300 x 64 in a CUDA graph, replayed twice", "cublasDtrsm_v2", &g);
    return l3_finish();
}
