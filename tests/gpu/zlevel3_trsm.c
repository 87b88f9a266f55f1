/* zlevel3_trsm — the complex TRSM computed through an engine (shim/l3_trsm.h: diagonal solves
 * by the engines/l3 complex kernel, updates by the engine's complex GEMM): cublasZtrsm_v2,
 * cublasZtrsm_v2_64 and the legacy cublasZtrsm through the shim.  By mode (gt_mode_engine()):
 *   repro            every part of X bit for bit the CPU twin of the same blocked algorithm
 *                    (dfs_trsm_run with nb = 256, the complex solve of engines/l3/solve.h on the
 *                    CPU, repro_zgemm_host for the updates; its complex GEMM takes any scalars);
 *   other engines    X with a small backward error: |op(A) X - alpha B| (left; X op(A) on the
 *                    right, complex, in long double) within c (order + 2) (|op(A)| |X| +
 *                    |alpha B|) per element, c = 2^-49 (dd, accurate, int8, fast), 2^-43 (df),
 *                    2^-39 (others).  op C conjugates A.
 * In every mode B's padding rows keep their bits (NaN sentinels), A holds NaN in its other
 * triangle, its padding and, with a unit diagonal, on the diagonal (never read: a NaN read
 * would show in X).  Cases: side L/R, uplo L/U, op N/T/C, diag N/U; orders 1, 7, 33, nb, nb + 1
 * (nb = 256, or 128 for dd and df) with 5 or 9 right-hand sides, and 300 x 64 and 64 x 300;
 * leading dimensions padded; alpha 1.5 + 0i or -0.75 + 0.5i, on the host and on the device
 * (legacy: host); a TRSM of 300 x 64 captured in a CUDA graph and replayed twice (the same bits
 * both times).
 * Failures print the first bad element. */
#include "l3_trsm_common.h"

#include "../../include/reprohost.h"

#include <complex.h>
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
    const cuDoubleComplex *al = (const cuDoubleComplex *)(dev ? l3t.dAlpha : c->alpha);
    const cuDoubleComplex *zA = (const cuDoubleComplex *)l3t.dA;
    cuDoubleComplex *zB = (cuDoubleComplex *)B;
    switch (f) {
    case F_V2:
        return cublasZtrsm_v2(l3_h, s, u, t, d, (int)c->m, (int)c->n, al, zA, (int)c->lda, zB,
                              (int)c->ldb);
    case F_64: return cublasZtrsm_v2_64(l3_h, s, u, t, d, c->m, c->n, al, zA, c->lda, zB, c->ldb);
    default:
        cublasGetError();
        cublasZtrsm("LR"[!c->left], "UL"[c->lower], "NTC"[c->trans], "NU"[c->unit], (int)c->m,
                    (int)c->n, make_cuDoubleComplex(c->alpha[0], c->alpha[1]), zA, (int)c->lda,
                    zB, (int)c->ldb);
        return cublasGetError();
    }
}

/* ---------- the CPU twin's GEMM and the residual ---------- */

static cublasStatus_t twin_gemm(void *ctx, const dfs_gemm_call *g)
{
    (void)ctx;
    const char ta = "NTC"[g->transa], tb = "NTC"[g->transb];
    repro_zgemm_host(ta, tb, g->m, g->n, g->k, g->alpha, g->A, g->lda, g->B, g->ldb, g->beta,
                     g->C, g->ldc);
    return CUBLAS_STATUS_SUCCESS;
}

static long double complex opa(const cfg *c, const double *A, int64_t i, int64_t j)
{
    const int64_t r = c->trans ? j : i, q = c->trans ? i : j;
    if (!l3_in_tri(c->lower, r, q))
        return 0.0L;
    if (r == q && c->unit)
        return 1.0L;
    const double *e = A + 2 * (r + q * c->lda);
    return CMPLXL(e[0], c->trans == 2 ? -e[1] : e[1]);
}

/* got (B after the call) against the twin (exact) or the residual bound, the padding against
 * B0.  Fails the case at the first bad element. */
static void check(const cfg *c, const double *A, const double *B0, const double *want,
                  const double *got, int exact)
{
    const int64_t k = l3t_order(c);
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
                ok = l3_same(got[2 * e], w[2 * e]) && l3_same(got[2 * e + 1], w[2 * e + 1]);
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
                bound = (long double)l3t.tol * (long double)(k + 2) * s;
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

static const l3t_type ztrsm = {"ztrsm", 2, 1.0, call, twin_gemm, check, NULL};

int main(void)
{
    l3t_start("zlevel3_trsm", &ztrsm, 1,
              "X bit for bit the CPU twin (blocks of 256) where repro computes it");
    l3t_alloc(304 * 304);
    l3t_shapes();
    const cfg g = {1, 1, 2, 0, 300, 64, 301, 303, {1.5, 0.0}};
    l3t_graph("a ZTRSM of 300 x 64 (op C) in a CUDA graph, replayed twice", "cublasZtrsm_v2", &g);
    return l3_finish();
}
