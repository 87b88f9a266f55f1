/* lt_zmatmul — cublasLtMatmul on complex FP64 matrices (CUDA_C_64F, JAX/XLA's path to complex128
 * products) through the shim, in the engine that EXBLAS_MODE names.
 *
 * Each case builds A, B, C in column- or row-major order (every combination of A's, B's and
 * C/D's order), ops N, T, C (the conjugate transpose), batches of 1 and 3 (strides with gaps,
 * or tight), C = D or C != D with another leading dimension, alpha and beta real or complex,
 * on the host or the device; D's padding and batch gaps hold a sentinel.  Checked, every entry
 * bit for bit (any NaN equal):
 *   - native mode, and every call the shim must leave to cuBLASLt (a conjugated operand stored
 *     row-major, or with a row-major D, which would need a conjugation without transposition):
 *     the real cublasLtMatmul's D and status (found with dlsym on libcublasLt's own handle);
 *   - dd, accurate and repro (any scalars): what the same mode gives through
 *     cublasZgemm_v2 with the same scalars on column-major copies of op(A), op(B) and C, ops N:
 *     dd's order of terms does not depend on the storage, and repro's result is the correctly
 *     rounded one (accurate: repro or dd, as its rule routes the call); and, per group, a case
 *     where that differs from the real cublasLtMatmul (the engine computed it);
 *   - D's padding and batch gaps unchanged. */
#include "common.h"
#include "lt_layout.h"

#include <cublasLt.h>
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static __typeof__(&cublasLtMatmul) real_lt;
static int engine_bitwise;
static cublasLtHandle_t lt;
static cublasHandle_t h;
static double sentinel;

typedef struct {
    cublasOperation_t ta, tb;
    int oa, ob, od; /* orders */
    int batch, c_is_d, dev_ptr;
    cuDoubleComplex alpha, beta;
    int64_t m, n, k;
    int tight; /* batch strides without gaps */
} zcase;

static void fill(double *x, size_t n, uint64_t *s)
{
    for (size_t i = 0; i < n; i++)
        x[i] = (double)(gt_rand(s) >> 11) * 0x1p-53 - 0.5;
}

static int same(double a, double b)
{
    return (isnan(a) && isnan(b)) || !memcmp(&a, &b, sizeof a);
}

/* Element (i, j) of op(X) for X stored in layout l: its two parts. */
static void op_elem(const double *X, const lay *l, cublasOperation_t op, int b, int64_t i,
                    int64_t j, double *re, double *im)
{
    const size_t e = op == CUBLAS_OP_N ? at(l, b, i, j) : at(l, b, j, i);
    *re = X[2 * e];
    *im = op == CUBLAS_OP_C ? -X[2 * e + 1] : X[2 * e + 1];
}

/* Whether the shim must leave the call to cuBLASLt (ltplan.h). */
static int forwarded(const zcase *c)
{
    return (c->ta == CUBLAS_OP_C && (c->oa == CUBLASLT_ORDER_ROW || c->od == CUBLASLT_ORDER_ROW)) ||
           (c->tb == CUBLAS_OP_C && (c->ob == CUBLASLT_ORDER_ROW || c->od == CUBLASLT_ORDER_ROW));
}

static int engaged;

/* The same engine through cublasZgemm_v2 on column-major copies of op(A), op(B), C, ops N, its
 * scalars where the case has them (dab on the device: the same routing): the logical result
 * R[2 (b m n + i + j m) + part]. */
static void via_zgemm(const zcase *c, const lay *la, const lay *lb, const lay *lc, const double *hA,
                      const double *hB, const double *hC, const cuDoubleComplex *dab, double *R)
{
    const int64_t m = c->m, n = c->n, k = c->k;
    double *a = gt_hmalloc((size_t)(m * k) * 16), *b = gt_hmalloc((size_t)(k * n) * 16);
    double *dA = gt_dmalloc((size_t)(m * k) * 16), *dB = gt_dmalloc((size_t)(k * n) * 16),
           *dC = gt_dmalloc((size_t)(m * n) * 16);
    for (int q = 0; q < c->batch; q++) {
        for (int64_t i = 0; i < m; i++)
            for (int64_t x = 0; x < k; x++)
                op_elem(hA, la, c->ta, q, i, x, &a[2 * (i + x * m)], &a[2 * (i + x * m) + 1]);
        for (int64_t x = 0; x < k; x++)
            for (int64_t j = 0; j < n; j++)
                op_elem(hB, lb, c->tb, q, x, j, &b[2 * (x + j * k)], &b[2 * (x + j * k) + 1]);
        double *r = R + 2 * q * m * n;
        for (int64_t j = 0; j < n; j++)
            for (int64_t i = 0; i < m; i++)
                memcpy(&r[2 * (i + j * m)], &hC[2 * at(lc, q, i, j)], 16);
        gt_h2d(dA, a, (size_t)(m * k) * 16);
        gt_h2d(dB, b, (size_t)(k * n) * 16);
        gt_h2d(dC, r, (size_t)(m * n) * 16);
        GT_CUBLAS(cublasSetPointerMode_v2(h, c->dev_ptr ? CUBLAS_POINTER_MODE_DEVICE
                                                        : CUBLAS_POINTER_MODE_HOST));
        GT_CUBLAS(cublasZgemm_v2(h, CUBLAS_OP_N, CUBLAS_OP_N, (int)m, (int)n, (int)k,
                                 c->dev_ptr ? dab : &c->alpha, (const cuDoubleComplex *)dA, (int)m,
                                 (const cuDoubleComplex *)dB, (int)k,
                                 c->dev_ptr ? dab + 1 : &c->beta, (cuDoubleComplex *)dC, (int)m));
        gt_d2h(r, dC, (size_t)(m * n) * 16);
    }
    GT_CUDA(cudaFree(dA));
    GT_CUDA(cudaFree(dB));
    GT_CUDA(cudaFree(dC));
    free(a);
    free(b);
}

static void run_case(const zcase *c, uint64_t seed)
{
    const int64_t m = c->m, n = c->n, k = c->k;
    gt_case("orders %c%c%c ops %d%d batch %d C%sD %s alpha %g%+gi beta %g%+gi",
            "CR"[c->oa], "CR"[c->ob], "CR"[c->od], (int)c->ta, (int)c->tb, c->batch,
            c->c_is_d ? "=" : "!=", c->dev_ptr ? "device" : "host", c->alpha.x, c->alpha.y,
            c->beta.x, c->beta.y);
    const lay la = make_lay(c->oa, c->ta == CUBLAS_OP_N ? m : k, c->ta == CUBLAS_OP_N ? k : m, 2,
                            c->batch, c->tight ? 0 : 5);
    const lay lb = make_lay(c->ob, c->tb == CUBLAS_OP_N ? k : n, c->tb == CUBLAS_OP_N ? n : k, 1,
                            c->batch, c->tight ? 0 : 5);
    const lay lc = make_lay(c->od, m, n, 3, c->batch, c->tight ? 0 : 5);
    const lay ld = c->c_is_d ? lc : make_lay(c->od, m, n, 1, c->batch, c->tight ? 0 : 5);
    const size_t na = elems(&la), nb = elems(&lb), nc = elems(&lc), nd = elems(&ld);
    double *hA = gt_hmalloc(na * 16), *hB = gt_hmalloc(nb * 16), *hC = gt_hmalloc(nc * 16);
    double *hD = gt_hmalloc(nd * 16), *hS = gt_hmalloc(nd * 16), *hR = gt_hmalloc(nd * 16);
    uint64_t s = seed;
    fill(hA, 2 * na, &s);
    fill(hB, 2 * nb, &s);
    fill(hC, 2 * nc, &s);
    if (c->c_is_d)
        memcpy(hD, hC, nc * 16);
    else
        gt_fill_const(hD, 2 * nd, sentinel);
    double *dA = gt_dmalloc(na * 16), *dB = gt_dmalloc(nb * 16), *dC = gt_dmalloc(nc * 16);
    double *dDs = gt_dmalloc(nd * 16), *dDr = gt_dmalloc(nd * 16);
    cuDoubleComplex *dab = gt_dmalloc(32);
    const cuDoubleComplex ab[2] = {c->alpha, c->beta};
    gt_h2d(dab, ab, 32);
    gt_h2d(dA, hA, na * 16);
    gt_h2d(dB, hB, nb * 16);
    gt_h2d(dC, hC, nc * 16);
    gt_h2d(dDs, hD, nd * 16);
    gt_h2d(dDr, hD, nd * 16);
    cublasLtMatmulDesc_t desc;
    GT_CUBLAS(cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_64F, CUDA_C_64F));
    int32_t ta = c->ta, tb = c->tb;
    int32_t pm = c->dev_ptr ? CUBLASLT_POINTER_MODE_DEVICE : CUBLASLT_POINTER_MODE_HOST;
    GT_CUBLAS(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSA, &ta, 4));
    GT_CUBLAS(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSB, &tb, 4));
    GT_CUBLAS(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_POINTER_MODE, &pm, 4));
    cublasLtMatrixLayout_t A = lt_layout(&la, CUDA_C_64F), B = lt_layout(&lb, CUDA_C_64F),
                           C = lt_layout(&lc, CUDA_C_64F), D = lt_layout(&ld, CUDA_C_64F);
    const void *al = c->dev_ptr ? (const void *)dab : (const void *)&c->alpha;
    const void *be = c->dev_ptr ? (const void *)(dab + 1) : (const void *)&c->beta;
    const void *Cs = c->c_is_d ? dDs : dC, *Cr = c->c_is_d ? dDr : dC;
    const cublasStatus_t sr = real_lt(lt, desc, al, dA, A, dB, B, be, Cr, C, dDr, D, NULL, NULL,
                                      0, 0);
    const cublasStatus_t ss = cublasLtMatmul(lt, desc, al, dA, A, dB, B, be, Cs, C, dDs, D, NULL,
                                             NULL, 0, 0);
    GT_CUDA(cudaDeviceSynchronize());
    gt_cmp_status("cublasLtMatmul", sr, ss);
    gt_d2h(hS, dDs, nd * 16);
    gt_d2h(hR, dDr, nd * 16);
    /* the reference: the real call's D, or the engine through cublasZgemm_v2 */
    const int computes = engine_bitwise && !forwarded(c);
    double *W = NULL;
    if (computes) {
        W = gt_hmalloc((size_t)(c->batch * m * n) * 16);
        via_zgemm(c, &la, &lb, &lc, hA, hB, hC, dab, W);
    }
    int bad = 0, differs = 0;
    for (int q = 0; q < c->batch; q++)
        for (int64_t j = 0; j < n; j++)
            for (int64_t i = 0; i < m; i++)
                for (int p = 0; p < 2; p++) {
                    const size_t e = 2 * at(&ld, q, i, j) + (size_t)p;
                    const double want = W ? W[2 * (q * m * n + i + j * m) + p] : hR[e];
                    differs |= !same(hS[e], hR[e]);
                    if (!same(hS[e], want) && !bad++)
                        gt_fail("D[%d](%lld,%lld) %s: %.17g, want %.17g (%s)", q, (long long)i,
                                (long long)j, p ? "im" : "re", hS[e], want,
                                W ? "the engine through cublasZgemm_v2" : "real cuBLASLt");
                    hS[e] = hR[e] = sentinel; /* what is left must be as it was */
                }
    if (bad > 1)
        gt_fail("%d parts differ", bad);
    engaged |= computes && !bad && differs;
    if (!c->c_is_d)
        for (size_t e = 0; e < 2 * nd; e++)
            if (!same(hS[e], sentinel)) {
                gt_fail("D changed outside the product at %zu", e / 2);
                break;
            }
    cublasLtMatrixLayoutDestroy(A);
    cublasLtMatrixLayoutDestroy(B);
    cublasLtMatrixLayoutDestroy(C);
    cublasLtMatrixLayoutDestroy(D);
    cublasLtMatmulDescDestroy(desc);
    GT_CUDA(cudaFree(dA));
    GT_CUDA(cudaFree(dB));
    GT_CUDA(cudaFree(dC));
    GT_CUDA(cudaFree(dDs));
    GT_CUDA(cudaFree(dDr));
    GT_CUDA(cudaFree(dab));
    free(hA), free(hB), free(hC), free(hD), free(hS), free(hR), free(W);
}

int main(void)
{
    gt_init("lt_zmatmul");
    engine_bitwise = gt_mode_is("repro") || gt_mode_is("dd") || gt_mode_is("accurate");
    real_lt = lt_real_matmul();
    const uint64_t sb = 0xfff8dead5e171e11ULL;
    memcpy(&sentinel, &sb, sizeof sentinel);
    GT_CUBLAS(cublasLtCreate(&lt));
    GT_CUBLAS(cublasCreate_v2(&h));
    printf("lt_zmatmul: EXBLAS_MODE=%s: %s\n", gt_mode() ? gt_mode() : "(unset)",
           engine_bitwise ? "the engine's cublasZgemm_v2 where it computes, real cuBLASLt elsewhere"
                          : "real cuBLASLt");

    static const cublasOperation_t ops[3] = {CUBLAS_OP_N, CUBLAS_OP_T, CUBLAS_OP_C};
    static const cuDoubleComplex scal[3][2] = {{{1.0, 0.0}, {0.0, 0.0}},
                                               {{1.25, 0.0}, {-0.75, 0.0}},
                                               {{0.5, -2.0}, {-0.75, 0.25}}};
    uint64_t seed = 1;
    gt_group("orders x ops, batch 1, C = D, host scalars");
    engaged = 0;
    for (int o = 0; o < 8; o++)
        for (int t = 0; t < 9; t++) {
            const zcase c = {ops[t % 3], ops[t / 3], o & 1, (o >> 1) & 1, o >> 2, 1, 1, 0,
                             scal[t % 3][0], scal[t % 3][1], 13, 9, 21, 0};
            run_case(&c, seed++);
        }
    if (engine_bitwise) {
        gt_case("engaged: a case where the engine's D differs from the real cuBLASLt's");
        if (!engaged)
            gt_fail("none: nothing shows that the engine computed a call");
    }
    gt_group("batches (with gaps, and tight), C != D, device scalars, beta = 0");
    engaged = 0;
    for (int o = 0; o < 8; o++)
        for (int v = 0; v < 8; v++) {
            const zcase c = {ops[v % 3], ops[(v + 1) % 3], o & 1, (o >> 1) & 1, o >> 2,
                             v & 1 ? 3 : 1, v == 4, v >= 3 && v < 6, scal[v % 3][0],
                             scal[v % 3][1], 7 + v, 11, 30, v >= 6};
            run_case(&c, seed++);
        }
    if (engine_bitwise) {
        gt_case("engaged: a case where the engine's D differs from the real cuBLASLt's");
        if (!engaged)
            gt_fail("none: nothing shows that the engine computed a call");
    }
    cublasDestroy_v2(h);
    cublasLtDestroy(lt);
    return gt_finish();
}
