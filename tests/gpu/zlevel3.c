/* zlevel3 — the complex Level-3 routines an engine computes through its complex GEMM
 * (shim/l3_mm.h): cublasZsyrk_v2, Zherk_v2, Zsyrkx, Zherkx, Zsyr2k_v2, Zher2k_v2, Zsymm_v2,
 * Zhemm_v2, Ztrmm_v2, their _64 forms and the legacy cublasZsyrk, Zherk, Zsyr2k, Zher2k, Zsymm,
 * Zhemm, Ztrmm (in place), through the shim, against repro_zgemm_host (include/reprohost.h: each
 * part correctly rounded) on the operands made dense: op applied (op C conjugated); the
 * symmetric matrix mirrored, the Hermitian one mirrored conjugated with Im(A_ii) taken as 0
 * (7 is stored there); the triangular one with zeros and 1 + 0i on a unit diagonal; SYR2K's and
 * HER2K's [op(A) op(B)] times [op(B); op(A)]^T (^H), one sum of 2k products; C's diagonal read
 * with Im 0 (3 is stored there) and written with Im 0 for HERK, HERKX, HER2K.  By mode:
 *   repro       bit for bit where its complex GEMM rounds each part once (alpha and beta real,
 *               on the host); otherwise the call runs natively (repro declines it) and is held
 *               to native's bound below, as is a HER2K with a complex alpha in every mode;
 *   dd, accurate  within 1 ulp of each part plus 2^-100 (2k + 2) S;
 *   df          within 4 (2k + 2) 2^-48 S + 2 ulp;
 *   others      within 4 (2k + 2) 2^-52 S + 1 ulp (native's own class);
 * S = |alpha| sum |p q| + |beta c| per output.  In every mode C's other triangle and its padding
 * keep their NaN sentinels, C holds NaN where it is not read (beta = 0, TRMM), A NaN in its
 * unreferenced triangle and on a unit diagonal.  Cases: uplo, op N/T/C as each routine takes
 * it (Zsyrk... N/T, Zherk... N/C), side, diag, TRMM with C = B, sizes 7, 33, 100 (panels of
 * 32), padded leading dimensions, real and complex scalars, host and device pointer modes; a
 * HERK and an in-place TRMM captured in a CUDA graph and replayed twice. */
#include "common.h"

#include "../../include/reprohost.h"

#include <cublas.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { K_SYRK, K_HERK, K_SYRKX, K_HERKX, K_SYR2K, K_HER2K, K_SYMM, K_HEMM, K_TRMM, K_COUNT };
enum { F_V2, F_64, F_LEG, F_COUNT };
static const char *const kname[K_COUNT] = {"zsyrk", "zherk", "zsyrkx", "zherkx", "zsyr2k",
                                           "zher2k", "zsymm", "zhemm", "ztrmm"};
static const char *const fname[F_COUNT] = {"v2", "_64", "legacy"};

#define MAXE (320 * 320) /* complex elements of each device buffer */

typedef struct {
    int kind, side, uplo, trans, diag, alias;
    int64_t m, n, k, lda, ldb, ldc;
    _Alignas(16) double alpha[2], beta[2]; /* passed as cuDoubleComplex (16-byte loads) */
} cfg;

static cublasHandle_t h;
static cudaStream_t stream;
static double *dA, *dB, *dC, *dScal;
static double tol_rel, tol_ulp; /* the mode's bound; tol_rel < 0: bit for bit where exact */
static int repro;

static int rank_k(int k)
{
    return k <= K_HER2K;
}

static int herm(int k)
{
    return k == K_HERK || k == K_HERKX || k == K_HER2K || k == K_HEMM;
}

/* C's diagonal Hermitian */
static int herm_c(int k)
{
    return herm(k) && rank_k(k);
}

static int in_tri(int lower, int64_t i, int64_t j)
{
    return lower ? i >= j : i <= j;
}

static cuDoubleComplex z(const double v[2])
{
    return make_cuDoubleComplex(v[0], v[1]);
}

/* The call through the shim: form f, scalars on the device (dev) or the host.  HERK's alpha and
 * beta, HERKX's and HER2K's beta, are the real parts. */
static cublasStatus_t call(const cfg *c, int f, int dev, const double *A, const double *B,
                           double *C)
{
    const cublasFillMode_t u = c->uplo ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
    const cublasOperation_t t = (cublasOperation_t)c->trans;
    const cublasSideMode_t s = c->side ? CUBLAS_SIDE_RIGHT : CUBLAS_SIDE_LEFT;
    const cublasDiagType_t d = c->diag ? CUBLAS_DIAG_UNIT : CUBLAS_DIAG_NON_UNIT;
    const cuDoubleComplex *al = (const cuDoubleComplex *)(dev ? dScal : c->alpha),
                          *be = (const cuDoubleComplex *)(dev ? dScal + 2 : c->beta);
    const double *ar = dev ? dScal : c->alpha, *br = dev ? dScal + 2 : c->beta;
    const cuDoubleComplex *zA = (const cuDoubleComplex *)A, *zB = (const cuDoubleComplex *)B;
    cuDoubleComplex *zC = (cuDoubleComplex *)C;
    const int n = (int)c->n, k = (int)c->k, m = (int)c->m;
    const int lda = (int)c->lda, ldb = (int)c->ldb, ldc = (int)c->ldc;
    const int64_t N = c->n, K = c->k, M = c->m, LA = c->lda, LB = c->ldb, LC = c->ldc;
    const char uc = "LU"[c->uplo], tc = "NTC"[c->trans], sc = "LR"[c->side], dc = "NU"[c->diag];
    if (f == F_LEG)
        cublasGetError();
    switch (c->kind * F_COUNT + f) {
    case K_SYRK * F_COUNT + F_V2: return cublasZsyrk_v2(h, u, t, n, k, al, zA, lda, be, zC, ldc);
    case K_SYRK * F_COUNT + F_64: return cublasZsyrk_v2_64(h, u, t, N, K, al, zA, LA, be, zC, LC);
    case K_SYRK * F_COUNT + F_LEG:
        cublasZsyrk(uc, tc, n, k, z(c->alpha), zA, lda, z(c->beta), zC, ldc);
        break;
    case K_HERK * F_COUNT + F_V2: return cublasZherk_v2(h, u, t, n, k, ar, zA, lda, br, zC, ldc);
    case K_HERK * F_COUNT + F_64: return cublasZherk_v2_64(h, u, t, N, K, ar, zA, LA, br, zC, LC);
    case K_HERK * F_COUNT + F_LEG:
        cublasZherk(uc, tc, n, k, c->alpha[0], zA, lda, c->beta[0], zC, ldc);
        break;
    case K_SYRKX * F_COUNT + F_V2:
        return cublasZsyrkx(h, u, t, n, k, al, zA, lda, zB, ldb, be, zC, ldc);
    case K_SYRKX * F_COUNT + F_64:
        return cublasZsyrkx_64(h, u, t, N, K, al, zA, LA, zB, LB, be, zC, LC);
    case K_HERKX * F_COUNT + F_V2:
        return cublasZherkx(h, u, t, n, k, al, zA, lda, zB, ldb, br, zC, ldc);
    case K_HERKX * F_COUNT + F_64:
        return cublasZherkx_64(h, u, t, N, K, al, zA, LA, zB, LB, br, zC, LC);
    case K_SYR2K * F_COUNT + F_V2:
        return cublasZsyr2k_v2(h, u, t, n, k, al, zA, lda, zB, ldb, be, zC, ldc);
    case K_SYR2K * F_COUNT + F_64:
        return cublasZsyr2k_v2_64(h, u, t, N, K, al, zA, LA, zB, LB, be, zC, LC);
    case K_SYR2K * F_COUNT + F_LEG:
        cublasZsyr2k(uc, tc, n, k, z(c->alpha), zA, lda, zB, ldb, z(c->beta), zC, ldc);
        break;
    case K_HER2K * F_COUNT + F_V2:
        return cublasZher2k_v2(h, u, t, n, k, al, zA, lda, zB, ldb, br, zC, ldc);
    case K_HER2K * F_COUNT + F_64:
        return cublasZher2k_v2_64(h, u, t, N, K, al, zA, LA, zB, LB, br, zC, LC);
    case K_HER2K * F_COUNT + F_LEG:
        cublasZher2k(uc, tc, n, k, z(c->alpha), zA, lda, zB, ldb, c->beta[0], zC, ldc);
        break;
    case K_SYMM * F_COUNT + F_V2:
        return cublasZsymm_v2(h, s, u, m, n, al, zA, lda, zB, ldb, be, zC, ldc);
    case K_SYMM * F_COUNT + F_64:
        return cublasZsymm_v2_64(h, s, u, M, N, al, zA, LA, zB, LB, be, zC, LC);
    case K_SYMM * F_COUNT + F_LEG:
        cublasZsymm(sc, uc, m, n, z(c->alpha), zA, lda, zB, ldb, z(c->beta), zC, ldc);
        break;
    case K_HEMM * F_COUNT + F_V2:
        return cublasZhemm_v2(h, s, u, m, n, al, zA, lda, zB, ldb, be, zC, ldc);
    case K_HEMM * F_COUNT + F_64:
        return cublasZhemm_v2_64(h, s, u, M, N, al, zA, LA, zB, LB, be, zC, LC);
    case K_HEMM * F_COUNT + F_LEG:
        cublasZhemm(sc, uc, m, n, z(c->alpha), zA, lda, zB, ldb, z(c->beta), zC, ldc);
        break;
    case K_TRMM * F_COUNT + F_V2:
        return cublasZtrmm_v2(h, s, u, t, d, m, n, al, zA, lda, zB, ldb, zC, ldc);
    case K_TRMM * F_COUNT + F_64:
        return cublasZtrmm_v2_64(h, s, u, t, d, M, N, al, zA, LA, zB, LB, zC, LC);
    case K_TRMM * F_COUNT + F_LEG: /* in place on B */
        cublasZtrmm(sc, uc, tc, dc, m, n, z(c->alpha), zA, lda, zC, ldb);
        break;
    default: gt_fatal("no form %s of %s", fname[f], kname[c->kind]);
    }
    return cublasGetError();
}

/* ---------- the reference ---------- */

typedef struct {
    double *A, *B, *C0, *ref, *sabs; /* complex, interleaved; sabs one double an element */
    int64_t kk;
} image;

static int target(const cfg *c, int64_t i, int64_t j)
{
    return i < c->m && (!rank_k(c->kind) || in_tri(c->uplo == 0, i, j));
}

/* op(X)(i, j) of a stored complex X into v */
static void opel(const double *X, int64_t ld, int op, int64_t i, int64_t j, double v[2])
{
    const double *e = op == 0 ? X + 2 * (i + j * ld) : X + 2 * (j + i * ld);
    v[0] = e[0];
    v[1] = op == 2 ? -e[1] : e[1];
}

/* The structured k x k operand as the routine reads it (op applied for TRMM). */
static void structured(const cfg *c, const double *A, int64_t i, int64_t j, double v[2])
{
    const int lower = c->uplo == 0, tr = c->kind == K_TRMM && c->trans;
    const int64_t r = tr ? j : i, q = tr ? i : j;
    if (c->kind == K_TRMM) {
        if (!in_tri(lower, r, q))
            v[0] = v[1] = 0.0;
        else if (r == q && c->diag)
            v[0] = 1.0, v[1] = 0.0;
        else
            opel(A, c->lda, 0, r, q, v);
        if (c->trans == 2)
            v[1] = -v[1];
        return;
    }
    opel(A, c->lda, 0, in_tri(lower, r, q) ? r : q, in_tri(lower, r, q) ? q : r, v);
    if (c->kind == K_HEMM && r == q)
        v[1] = 0.0;
    else if (c->kind == K_HEMM && !in_tri(lower, r, q))
        v[1] = -v[1];
}

/* The operands made dense: P (m x kk, ld m) and Q (kk x n, ld kk), C = alpha P Q + beta C. */
static void dense(const cfg *c, const image *im, double *P, double *Q)
{
    const int64_t m = c->m, n = c->n, k = c->k, kk = im->kk;
    double v[2], w[2];
    if (rank_k(c->kind)) {
        const double *B = c->kind <= K_HERK ? im->A : im->B;
        const int64_t ldb = c->kind <= K_HERK ? c->lda : c->ldb;
        const int hc = herm(c->kind), two = c->kind >= K_SYR2K;
        for (int64_t l = 0; l < k; l++)
            for (int64_t i = 0; i < n; i++) {
                opel(im->A, c->lda, c->trans, i, l, v); /* op(A)(i, l) */
                opel(B, ldb, c->trans, i, l, w);        /* op(B)(i, l) */
                P[2 * (i + l * m)] = v[0], P[2 * (i + l * m) + 1] = v[1];
                /* Q(l, i) = op(B)(i, l), conjugated for the H kinds */
                Q[2 * (l + i * kk)] = w[0], Q[2 * (l + i * kk) + 1] = hc ? -w[1] : w[1];
                if (two) {
                    P[2 * (i + (k + l) * m)] = w[0], P[2 * (i + (k + l) * m) + 1] = w[1];
                    Q[2 * (k + l + i * kk)] = v[0], Q[2 * (k + l + i * kk) + 1] = hc ? -v[1] : v[1];
                }
            }
        return;
    }
    for (int64_t j = 0; j < k; j++)
        for (int64_t i = 0; i < k; i++) {
            structured(c, im->A, i, j, v);
            double *x = c->side == 0 ? P + 2 * (i + j * m) : Q + 2 * (i + j * k);
            x[0] = v[0], x[1] = v[1];
        }
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < m; i++) {
            double *x = c->side == 0 ? Q + 2 * (i + j * k) : P + 2 * (i + j * m);
            x[0] = im->B[2 * (i + j * c->ldb)], x[1] = im->B[2 * (i + j * c->ldb) + 1];
        }
}

static int accurate;

/* Whether repro's complex GEMM takes c's scalars (real, on the host; HER2K's alpha real). */
static int real_host_scalars(const cfg *c, int dev)
{
    return !dev && c->alpha[1] == 0.0 && (c->kind == K_TRMM || c->beta[1] == 0.0);
}

/* Whether c runs natively although the mode names an engine: HER2K with a complex alpha or
 * device scalars in every mode (its k-concatenation needs alpha real and seen on the host); under
 * repro (and accurate's repro from order 256) scalars its complex GEMM declines. */
static int declined(const cfg *c, int dev)
{
    const int64_t mn = c->m < c->n ? c->m : c->n, md = mn < c->k ? mn : c->k;
    if (c->kind == K_HER2K && (c->alpha[1] != 0.0 || dev))
        return 1;
    return (repro || (accurate && md >= 256)) && !real_host_scalars(c, dev);
}

static void build(const cfg *c, uint64_t seed, image *im)
{
    const int rk = rank_k(c->kind), lower = c->uplo == 0;
    const int64_t ar = rk ? (c->trans ? c->k : c->n) : c->k,
                  ac = rk ? (c->trans ? c->n : c->k) : c->k;
    const int64_t brows = rk ? ar : c->m, bcols = rk ? ac : c->n, ldc = c->ldc, n = c->n;
    im->kk = c->kind >= K_SYR2K && rk ? 2 * c->k : c->k;
    im->A = gt_hmalloc((size_t)(2 * c->lda * ac) * sizeof(double) + 16);
    im->B = gt_hmalloc((size_t)(2 * c->ldb * bcols) * sizeof(double) + 16);
    im->C0 = gt_hmalloc((size_t)(2 * ldc * n) * sizeof(double));
    im->ref = gt_hmalloc((size_t)(2 * ldc * n) * sizeof(double));
    im->sabs = gt_hmalloc((size_t)(ldc * n) * sizeof(double));
    gt_fill(im->A, (size_t)(2 * c->lda * ac), seed);
    gt_fill(im->B, (size_t)(2 * c->ldb * bcols), seed + 1);
    gt_fill(im->C0, (size_t)(2 * ldc * n), seed + 2);
    for (int64_t j = 0; j < ac; j++)
        for (int64_t i = 0; i < c->lda; i++) {
            double *e = im->A + 2 * (i + j * c->lda);
            if (i >= ar || (!rk && !in_tri(lower, i, j)) ||
                (c->kind == K_TRMM && c->diag && i == j))
                e[0] = e[1] = gt_qnan();
            else if (c->kind == K_HEMM && i == j)
                e[1] = 7.0; /* not read */
        }
    for (int64_t j = 0; j < bcols; j++)
        for (int64_t i = brows; i < c->ldb; i++)
            im->B[2 * (i + j * c->ldb)] = im->B[2 * (i + j * c->ldb) + 1] = gt_qnan();
    const int reads_c = c->kind != K_TRMM && (c->beta[0] != 0.0 || c->beta[1] != 0.0);
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < ldc; i++) {
            double *e = im->C0 + 2 * (i + j * ldc);
            if (!target(c, i, j) || !reads_c)
                e[0] = e[1] = gt_qnan();
            else if (herm_c(c->kind) && i == j)
                e[1] = 3.0; /* read as 0 */
        }
    if (c->alias)
        memcpy(im->C0, im->B, (size_t)(2 * c->ldb * n) * sizeof(double));
    const int64_t m = c->m, kk = im->kk;
    double *P = calloc((size_t)(2 * m * kk + 2), sizeof(double)),
           *Q = calloc((size_t)(2 * kk * n + 2), sizeof(double));
    dense(c, im, P, Q);
    memcpy(im->ref, im->C0, (size_t)(2 * ldc * n) * sizeof(double));
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < m; i++) {
            double *e = im->ref + 2 * (i + j * ldc);
            if (!reads_c)
                e[0] = e[1] = 0.0;
            else if (herm_c(c->kind) && i == j)
                e[1] = 0.0;
        }
    /* HER2K with a complex alpha: alpha P1 Q1 + conj(alpha) P2 Q2; the reference then scales Q2
     * by conj(alpha) / alpha (a native-bound check only: such calls run natively) */
    if (c->kind == K_HER2K && c->alpha[1] != 0.0) {
        const double ar_ = c->alpha[0], ai = c->alpha[1], d = ar_ * ar_ + ai * ai;
        const double fr = (ar_ * ar_ - ai * ai) / d, fi = -2 * ar_ * ai / d;
        for (int64_t i = 0; i < n; i++)
            for (int64_t l = c->k; l < kk; l++) {
                double *q = Q + 2 * (l + i * kk);
                const double qr = q[0], qi = q[1];
                q[0] = fr * qr - fi * qi, q[1] = fr * qi + fi * qr;
            }
    }
    const double zero[2] = {0, 0};
    const double beta[2] = {c->beta[0], herm(c->kind) && rank_k(c->kind) ? 0.0 : c->beta[1]};
    repro_zgemm_host('N', 'N', m, n, kk, c->alpha, P, m, Q, kk > 0 ? kk : 1,
                     reads_c ? beta : zero, im->ref, ldc);
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < m; i++) {
            double s = 0;
            for (int64_t l = 0; l < kk; l++)
                s += hypot(P[2 * (i + l * m)], P[2 * (i + l * m) + 1]) *
                     hypot(Q[2 * (l + j * kk)], Q[2 * (l + j * kk) + 1]);
            const double *c0 = im->C0 + 2 * (i + j * ldc);
            im->sabs[i + j * ldc] = hypot(c->alpha[0], c->alpha[1]) * s +
                                    (reads_c ? hypot(beta[0], beta[1]) * hypot(c0[0], c0[1]) : 0);
            if (herm_c(c->kind) && i == j)
                im->ref[2 * (i + j * ldc) + 1] = 0.0;
        }
    free(P);
    free(Q);
}

static void image_free(image *im)
{
    free(im->A);
    free(im->B);
    free(im->C0);
    free(im->ref);
    free(im->sabs);
}

static int same(double a, double b)
{
    return !memcmp(&a, &b, sizeof a);
}

/* bitwise: every part the reference's bits; native: native's bound (the call was declined) */
static void check(const cfg *c, const image *im, const double *got, int bitwise, int native)
{
    int64_t bad = 0, bi = 0, bj = 0, bp = 0;
    double bgot = 0, bwant = 0, bound = 0;
    for (int64_t j = 0; j < c->n; j++)
        for (int64_t i = 0; i < c->ldc; i++)
            for (int p = 0; p < 2; p++) {
                const int64_t e = 2 * (i + j * c->ldc) + p;
                double want = im->C0[e], tol = 0;
                int ok;
                if (target(c, i, j)) {
                    want = im->ref[e];
                    const double ulp = nextafter(fabs(want), INFINITY) - fabs(want);
                    const double rel = tol_rel < 0 || native ? 4 * ldexp(1.0, -52) : tol_rel;
                    tol = rel * (double)(2 * im->kk + 2) * im->sabs[e / 2] +
                          (tol_rel < 0 || native ? 1 : tol_ulp) * ulp;
                    ok = bitwise ? same(got[e], want) : fabs(got[e] - want) <= tol;
                } else {
                    ok = same(got[e], want);
                }
                if (!ok && bad++ == 0)
                    bi = i, bj = j, bp = p, bgot = got[e], bwant = want, bound = tol;
            }
    if (bad)
        gt_fail("%lld parts wrong; first %s C(%lld, %lld) = %.17g, expected %.17g (%s, bound "
                "%.3g)",
                (long long)bad, bp ? "Im" : "Re", (long long)bi, (long long)bj, bgot, bwant,
                !target(c, bi, bj) ? "must be untouched" : bitwise ? "bit for bit" : "bound",
                bound);
}

static void run_cfg(cfg c, uint64_t seed)
{
    image im;
    build(&c, seed, &im);
    const int64_t ac = rank_k(c.kind) ? (c.trans ? c.n : c.k) : c.k;
    const int64_t bcols = rank_k(c.kind) ? ac : c.n;
    gt_h2d(dA, im.A, (size_t)(2 * c.lda * ac) * sizeof(double));
    gt_h2d(dB, im.B, (size_t)(2 * c.ldb * bcols) * sizeof(double));
    /* device scalars: alpha at 0, beta at 2 (the real routines' real parts first) */
    const double sc[4] = {c.alpha[0], c.alpha[1], c.beta[0], c.beta[1]};
    gt_h2d(dScal, sc, sizeof sc);
    double *got = gt_hmalloc((size_t)(2 * c.ldc * c.n) * sizeof(double));
    for (int f = 0; f < F_COUNT; f++) {
        const int no_legacy = c.kind == K_SYRKX || c.kind == K_HERKX;
        if (f == F_LEG && (no_legacy || (c.kind == K_TRMM && !c.alias)))
            continue; /* no legacy SYRKX, HERKX; the legacy TRMM is in place */
        for (int dev = 0; dev <= (f != F_LEG); dev++) {
            gt_case("%s %s side %c uplo %c op %c diag %c%s m %lld n %lld k %lld alpha %g%+gi "
                    "beta %g%+gi, %s scalars",
                    kname[c.kind], fname[f], "LR"[c.side], "LU"[c.uplo], "NTC"[c.trans],
                    "NU"[c.diag], c.alias ? " C = B" : "", (long long)c.m, (long long)c.n,
                    (long long)c.k, c.alpha[0], c.alpha[1], c.beta[0], c.beta[1],
                    dev ? "device" : "host");
            gt_h2d(dC, im.C0, (size_t)(2 * c.ldc * c.n) * sizeof(double));
            GT_CUBLAS(cublasSetPointerMode_v2(h, dev ? CUBLAS_POINTER_MODE_DEVICE
                                                     : CUBLAS_POINTER_MODE_HOST));
            const cublasStatus_t st = call(&c, f, dev, dA, c.alias ? dC : dB, dC);
            GT_CUDA(cudaDeviceSynchronize());
            if (st != CUBLAS_STATUS_SUCCESS) {
                gt_fail("status %s", gt_status_name(st));
                continue;
            }
            gt_d2h(got, dC, (size_t)(2 * c.ldc * c.n) * sizeof(double));
            const int native = declined(&c, dev);
            check(&c, &im, got, repro && !native, native);
        }
    }
    GT_CUBLAS(cublasSetPointerMode_v2(h, CUBLAS_POINTER_MODE_HOST));
    free(got);
    image_free(&im);
}

/* (alpha, beta): real, real with beta = 0, complex (HERK: the real parts; HER2K: its alpha) */
static const double scal[3][4] = {{1.5, 0, 0.75, 0}, {-1.0, 0, 0, 0}, {0.3, -0.7, 1.0, 0.5}};

static void dims(cfg *c)
{
    const int rk = rank_k(c->kind);
    c->lda = (rk ? (c->trans ? c->k : c->n) : c->k) + 1;
    c->ldb = rk ? c->lda + 1 : c->m + 2;
    c->ldc = c->alias ? c->ldb : c->m + 3;
}

static void set_scal(cfg *c, int p)
{
    memcpy(c->alpha, scal[p], 2 * sizeof(double));
    memcpy(c->beta, scal[p] + 2, 2 * sizeof(double));
    if (c->kind == K_HERK)
        c->alpha[1] = 0.0;
    if (herm(c->kind) && rank_k(c->kind))
        c->beta[1] = 0.0;
}

static void rank_k_group(int kind)
{
    static const int64_t shapes[][2] = {{7, 5}, {33, 9}, {100, 37}};
    gt_group("%s: uplo, op, sizes (panels of 32), scalars, forms, pointer modes", kname[kind]);
    for (int s = 0; s < 3; s++)
        for (int u = 0; u < 2; u++)
            for (int t = 0; t < 2; t++) {
                cfg c = {kind, 0, u, t ? (herm(kind) ? 2 : 1) : 0, 0, 0, shapes[s][0],
                         shapes[s][0], shapes[s][1], 0, 0, 0, {0, 0}, {0, 0}};
                set_scal(&c, (s + u + t) % 3);
                dims(&c);
                run_cfg(c, 1000u * (unsigned)kind + 10u * (unsigned)(3 * s + u) + (unsigned)t);
            }
    cfg big = {kind, 0, 1, herm(kind) ? 2 : 1, 0, 0, 300, 300, 64, 0, 0, 0, {0, 0}, {0, 0}};
    set_scal(&big, 0);
    dims(&big);
    run_cfg(big, 900u + (unsigned)kind);
}

static void symm_group(int kind)
{
    static const int64_t shapes[][2] = {{7, 5}, {33, 9}, {100, 45}};
    gt_group("%s: side, uplo, sizes, scalars, forms, pointer modes", kname[kind]);
    for (int s = 0; s < 3; s++)
        for (int side = 0; side < 2; side++)
            for (int u = 0; u < 2; u++) {
                const int64_t m = shapes[s][0], n = shapes[s][1];
                cfg c = {kind, side, u, 0, 0, 0, m, n, side ? n : m, 0, 0, 0, {0, 0}, {0, 0}};
                set_scal(&c, (s + side + u) % 3);
                dims(&c);
                run_cfg(c, 5000u + 100u * (unsigned)kind + 10u * (unsigned)(2 * s + side) +
                               (unsigned)u);
            }
}

static void trmm_group(void)
{
    static const int64_t shapes[][2] = {{7, 5}, {33, 9}, {100, 45}};
    gt_group("ztrmm: side, uplo, op, diag, C = B, sizes, forms, pointer modes");
    for (int s = 0; s < 3; s++)
        for (int side = 0; side < 2; side++)
            for (int u = 0; u < 2; u++)
                for (int op = 0; op < 3; op++)
                    for (int diag = 0; diag < 2; diag++)
                        for (int alias = 0; alias < 2; alias++) {
                            const int64_t m = shapes[s][0], n = shapes[s][1];
                            cfg c = {K_TRMM, side, u, op, diag, alias, m, n, side ? n : m, 0,
                                     0, 0, {0, 0}, {0, 0}};
                            set_scal(&c, (s + op + alias) % 2 ? 2 : 0);
                            dims(&c);
                            run_cfg(c, 7000u + 100u * (unsigned)s +
                                           10u * (unsigned)(4 * side + 2 * u + diag) +
                                           (unsigned)(3 * alias + op));
                        }
}

/* A HERK and an in-place TRMM captured on a stream into one graph, replayed twice. */
static void graph_group(void)
{
    gt_group("a ZHERK and an in-place ZTRMM in a CUDA graph, replayed twice");
    cfg s = {K_HERK, 0, 0, 2, 0, 0, 100, 100, 37, 0, 0, 0, {1.5, 0}, {0.75, 0}};
    cfg t = {K_TRMM, 1, 1, 2, 0, 1, 45, 100, 100, 0, 0, 0, {-0.3, 0}, {0, 0}};
    dims(&s);
    dims(&t);
    image is, it;
    build(&s, 8100u, &is);
    build(&t, 8200u, &it);
    double *dA2 = gt_dmalloc((size_t)(2 * t.lda * t.k) * sizeof(double));
    double *dC2 = gt_dmalloc((size_t)(2 * t.ldc * t.n) * sizeof(double));
    gt_h2d(dA, is.A, (size_t)(2 * s.lda * s.n) * sizeof(double));
    gt_h2d(dA2, it.A, (size_t)(2 * t.lda * t.k) * sizeof(double));
    GT_CUBLAS(cublasSetStream_v2(h, stream));
    cudaGraph_t graph = NULL;
    GT_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
    const cublasStatus_t s1 = call(&s, F_V2, 0, dA, NULL, dC);
    gt_still_capturing(stream, "cublasZherk_v2");
    const cublasStatus_t s2 = call(&t, F_V2, 0, dA2, dC2, dC2);
    gt_still_capturing(stream, "cublasZtrmm_v2");
    cudaGraphExec_t exec = gt_end_capture(stream, &graph) ? gt_instantiate(graph) : NULL;
    double *got = gt_hmalloc((size_t)(2 * (t.ldc * t.n + s.ldc * s.n)) * sizeof(double));
    for (int r = 0; exec && r < 2; r++) {
        gt_case("replay %d (capture statuses %s, %s)", r, gt_status_name(s1),
                gt_status_name(s2));
        gt_h2d(dC, is.C0, (size_t)(2 * s.ldc * s.n) * sizeof(double));
        gt_h2d(dC2, it.C0, (size_t)(2 * t.ldc * t.n) * sizeof(double));
        GT_CUDA(cudaGraphLaunch(exec, stream));
        GT_CUDA(cudaStreamSynchronize(stream));
        gt_d2h(got, dC, (size_t)(2 * s.ldc * s.n) * sizeof(double));
        check(&s, &is, got, repro, 0);
        gt_d2h(got, dC2, (size_t)(2 * t.ldc * t.n) * sizeof(double));
        check(&t, &it, got, repro, 0);
    }
    if (exec)
        GT_CUDA(cudaGraphExecDestroy(exec));
    if (graph)
        GT_CUDA(cudaGraphDestroy(graph));
    GT_CUBLAS(cublasSetStream_v2(h, NULL));
    free(got);
    GT_CUDA(cudaFree(dA2));
    GT_CUDA(cudaFree(dC2));
    image_free(&is);
    image_free(&it);
}

int main(void)
{
    gt_init("zlevel3");
    const char *e = gt_mode_engine();
    repro = !strcmp(e, "repro");
    accurate = !strcmp(e, "accurate");
    if (repro)
        tol_rel = -1, tol_ulp = 0;
    else if (!strcmp(e, "dd") || !strcmp(e, "accurate"))
        tol_rel = ldexp(1.0, -100), tol_ulp = 1;
    else if (!strcmp(e, "df"))
        tol_rel = 4 * ldexp(1.0, -48), tol_ulp = 2;
    else
        tol_rel = 4 * ldexp(1.0, -52), tol_ulp = 1;
    printf("zlevel3: EXBLAS_MODE=%s: %s\n", gt_mode() ? gt_mode() : "(unset)",
           repro ? "each part bit for bit the correctly rounded one where repro computes it"
                 : "each part within the mode's bound of the correctly rounded one");
    GT_CUBLAS(cublasCreate_v2(&h));
    if (cublasInit() != CUBLAS_STATUS_SUCCESS)
        gt_fatal("cublasInit failed");
    GT_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    dA = gt_dmalloc((size_t)(2 * MAXE) * sizeof(double));
    dB = gt_dmalloc((size_t)(2 * MAXE) * sizeof(double));
    dC = gt_dmalloc((size_t)(2 * MAXE) * sizeof(double));
    dScal = gt_dmalloc(4 * sizeof(double));
    for (int k = K_SYRK; k <= K_HER2K; k++)
        rank_k_group(k);
    symm_group(K_SYMM);
    symm_group(K_HEMM);
    trmm_group();
    graph_group();
    GT_CUDA(cudaStreamDestroy(stream));
    return gt_finish();
}
