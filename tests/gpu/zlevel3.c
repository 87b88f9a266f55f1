/* zlevel3 — the complex Level-3 routines an engine computes through its complex GEMM
 * (shim/l3_mm.h): cublasZsyrk_v2, Zherk_v2, Zsyrkx, Zherkx, Zsyr2k_v2, Zher2k_v2, Zsymm_v2,
 * Zhemm_v2, Ztrmm_v2, their _64 forms and the legacy cublasZsyrk, Zherk, Zsyr2k, Zher2k, Zsymm,
 * Zhemm, Ztrmm (in place), through the shim, against repro_zgemm_host (include/reprohost.h: each
 * part correctly rounded) on the operands made dense: op applied (op C conjugated); the
 * symmetric matrix mirrored, the Hermitian one mirrored conjugated with Im(A_ii) taken as 0
 * (7 is stored there); the triangular one with zeros and 1 + 0i on a unit diagonal; SYR2K's and
 * HER2K's [op(A) op(B)] times [op(B); op(A)]^T (^H), one sum of 2k products; C's diagonal read
 * with Im 0 (3 is stored there) and written with Im 0 for HERK, HERKX, HER2K.  By mode:
 *   repro       bit for bit (its complex GEMM rounds each part once whatever the scalars), but
 *               a HER2K with a complex alpha or device scalars, which runs natively in every
 *               mode and is held to native's bound below;
 *   dd, accurate  within 1 ulp of each part plus 2^-100 (2k + 2) S;
 *   df          within 4 (2k + 2) 2^-48 S + 2 ulp;
 *   others      within 4 (2k + 2) 2^-52 S + 1 ulp (native's own class);
 * S = |alpha| sum |p q| + |beta c| per output.  In every mode C's other triangle and its padding
 * keep their NaN sentinels, C holds NaN where it is not read (beta = 0, TRMM), A NaN in its
 * unreferenced triangle and on a unit diagonal.  Cases: uplo, op N/T/C as each routine takes
 * it (Zsyrk... N/T, Zherk... N/C), side, diag, TRMM with C = B, sizes 7, 33, 100 (panels of
 * 32), padded leading dimensions, real and complex scalars, host and device pointer modes; a
 * HERK and an in-place TRMM captured in a CUDA graph and replayed twice. */
#include "l3_mm_common.h"

#include "../../include/reprohost.h"

#include <cublas.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { K_SYRK, K_HERK, K_SYRKX, K_HERKX, K_SYR2K, K_HER2K, K_SYMM, K_HEMM, K_TRMM, K_COUNT };
static const char *const kname[K_COUNT] = {"zsyrk", "zherk", "zsyrkx", "zherkx", "zsyr2k",
                                           "zher2k", "zsymm", "zhemm", "ztrmm"};

static int repro; /* the mode */

static int herm(int k)
{
    return k == K_HERK || k == K_HERKX || k == K_HER2K || k == K_HEMM;
}

/* C's diagonal Hermitian */
static int herm_c(int k)
{
    return herm(k) && l3m_rank_k(k);
}

static cuDoubleComplex z(const double v[2])
{
    return make_cuDoubleComplex(v[0], v[1]);
}

/* The cases of call()'s switch for a routine's forms: RK, SYRK and HERK (alpha AL, beta BE;
 * the legacy form's ALEG, BLEG); RKB, the _v2 (V2) and _64 (V64) forms of SYRKX, HERKX, SYR2K and
 * HER2K (beta BE); SM, SYMM and HEMM. */
#define RK(KD, F, AL, BE, ALEG, BLEG)                                                             \
    case KD * F_COUNT + F_V2: return F##_v2(l3_h, u, t, n, k, AL, zA, lda, BE, zC, ldc);           \
    case KD * F_COUNT + F_64: return F##_v2_64(l3_h, u, t, N, K, AL, zA, LA, BE, zC, LC);          \
    case KD * F_COUNT + F_LEG: F(uc, tc, n, k, ALEG, zA, lda, BLEG, zC, ldc); break
#define RKB(KD, V2, V64, BE)                                                                      \
    case KD * F_COUNT + F_V2: return V2(l3_h, u, t, n, k, al, zA, lda, zB, ldb, BE, zC, ldc);      \
    case KD * F_COUNT + F_64: return V64(l3_h, u, t, N, K, al, zA, LA, zB, LB, BE, zC, LC)
#define SM(KD, F)                                                                                 \
    case KD * F_COUNT + F_V2:                                                                     \
        return F##_v2(l3_h, s, u, m, n, al, zA, lda, zB, ldb, be, zC, ldc);                       \
    case KD * F_COUNT + F_64: return F##_v2_64(l3_h, s, u, M, N, al, zA, LA, zB, LB, be, zC, LC); \
    case KD * F_COUNT + F_LEG:                                                                    \
        F(sc, uc, m, n, z(c->alpha), zA, lda, zB, ldb, z(c->beta), zC, ldc);                      \
        break

/* The call through the shim: form f, scalars on the device (dev) or the host.  HERK's alpha and
 * beta, HERKX's and HER2K's beta, are the real parts. */
static cublasStatus_t call(const cfg *c, int f, int dev, const double *A, const double *B,
                           double *C)
{
    const cublasFillMode_t u = c->uplo ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
    const cublasOperation_t t = (cublasOperation_t)c->trans;
    const cublasSideMode_t s = c->side ? CUBLAS_SIDE_RIGHT : CUBLAS_SIDE_LEFT;
    const cublasDiagType_t d = c->diag ? CUBLAS_DIAG_UNIT : CUBLAS_DIAG_NON_UNIT;
    const cuDoubleComplex *al = (const cuDoubleComplex *)(dev ? l3m.dScal : c->alpha),
                          *be = (const cuDoubleComplex *)(dev ? l3m.dScal + 2 : c->beta);
    const double *ar = dev ? l3m.dScal : c->alpha, *br = dev ? l3m.dScal + 2 : c->beta;
    const cuDoubleComplex *zA = (const cuDoubleComplex *)A, *zB = (const cuDoubleComplex *)B;
    cuDoubleComplex *zC = (cuDoubleComplex *)C;
    const int n = (int)c->n, k = (int)c->k, m = (int)c->m;
    const int lda = (int)c->lda, ldb = (int)c->ldb, ldc = (int)c->ldc;
    const int64_t N = c->n, K = c->k, M = c->m, LA = c->lda, LB = c->ldb, LC = c->ldc;
    const char uc = "LU"[c->uplo], tc = "NTC"[c->trans], sc = "LR"[c->side], dc = "NU"[c->diag];
    if (f == F_LEG)
        cublasGetError();
    switch (c->kind * F_COUNT + f) {
        RK(K_SYRK, cublasZsyrk, al, be, z(c->alpha), z(c->beta));
        RK(K_HERK, cublasZherk, ar, br, c->alpha[0], c->beta[0]);
        RKB(K_SYRKX, cublasZsyrkx, cublasZsyrkx_64, be);
        RKB(K_HERKX, cublasZherkx, cublasZherkx_64, br);
        RKB(K_SYR2K, cublasZsyr2k_v2, cublasZsyr2k_v2_64, be);
    case K_SYR2K * F_COUNT + F_LEG:
        cublasZsyr2k(uc, tc, n, k, z(c->alpha), zA, lda, zB, ldb, z(c->beta), zC, ldc);
        break;
        RKB(K_HER2K, cublasZher2k_v2, cublasZher2k_v2_64, br);
    case K_HER2K * F_COUNT + F_LEG:
        cublasZher2k(uc, tc, n, k, z(c->alpha), zA, lda, zB, ldb, c->beta[0], zC, ldc);
        break;
        SM(K_SYMM, cublasZsymm);
        SM(K_HEMM, cublasZhemm);
    case K_TRMM * F_COUNT + F_V2:
        return cublasZtrmm_v2(l3_h, s, u, t, d, m, n, al, zA, lda, zB, ldb, zC, ldc);
    case K_TRMM * F_COUNT + F_64:
        return cublasZtrmm_v2_64(l3_h, s, u, t, d, M, N, al, zA, LA, zB, LB, zC, LC);
    case K_TRMM * F_COUNT + F_LEG: /* in place on B */
        cublasZtrmm(sc, uc, tc, dc, m, n, z(c->alpha), zA, lda, zC, ldb);
        break;
    default: gt_fatal("no form %s of %s", l3_fname[f], kname[c->kind]);
    }
    return cublasGetError();
}

/* ---------- the reference ---------- */

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
        if (!l3_in_tri(lower, r, q))
            v[0] = v[1] = 0.0;
        else if (r == q && c->diag)
            v[0] = 1.0, v[1] = 0.0;
        else
            opel(A, c->lda, 0, r, q, v);
        if (c->trans == 2)
            v[1] = -v[1];
        return;
    }
    opel(A, c->lda, 0, l3_in_tri(lower, r, q) ? r : q, l3_in_tri(lower, r, q) ? q : r, v);
    if (c->kind == K_HEMM && r == q)
        v[1] = 0.0;
    else if (c->kind == K_HEMM && !l3_in_tri(lower, r, q))
        v[1] = -v[1];
}

/* The operands made dense: P (m x kk, ld m) and Q (kk x n, ld kk), C = alpha P Q + beta C. */
static void dense(const cfg *c, const image *im, double *P, double *Q)
{
    const int64_t m = c->m, n = c->n, k = c->k, kk = im->kk;
    double v[2], w[2];
    if (l3m_rank_k(c->kind)) {
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

/* Whether c runs natively although the mode names an engine: HER2K with a complex alpha or
 * device scalars in every mode (its k-concatenation needs alpha real and seen on the host).
 * repro's complex GEMM takes any scalars (real ones on the host through its real GEMM, the
 * others by row pairs). */
static int declined(const cfg *c, int dev)
{
    return c->kind == K_HER2K && (c->alpha[1] != 0.0 || dev);
}

static void build(const cfg *c, uint64_t seed, image *im)
{
    const int rk = l3m_rank_k(c->kind), lower = c->uplo == 0;
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
            if (i >= ar || (!rk && !l3_in_tri(lower, i, j)) ||
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
            if (!l3m_target(c, i, j) || !reads_c)
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
    const double beta[2] = {c->beta[0], herm(c->kind) && l3m_rank_k(c->kind) ? 0.0 : c->beta[1]};
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

/* bitwise: every part the reference's bits; native: native's bound (the call was declined) */
static void check_parts(const cfg *c, const image *im, const double *got, int bitwise,
                        int native)
{
    int64_t bad = 0, bi = 0, bj = 0, bp = 0;
    double bgot = 0, bwant = 0, bound = 0;
    for (int64_t j = 0; j < c->n; j++)
        for (int64_t i = 0; i < c->ldc; i++)
            for (int p = 0; p < 2; p++) {
                const int64_t e = 2 * (i + j * c->ldc) + p;
                double want = im->C0[e], tol = 0;
                int ok;
                if (l3m_target(c, i, j)) {
                    want = im->ref[e];
                    const double ulp = nextafter(fabs(want), INFINITY) - fabs(want);
                    const double rel =
                        l3m.tol_rel < 0 || native ? 4 * ldexp(1.0, -52) : l3m.tol_rel;
                    tol = rel * (double)(2 * im->kk + 2) * im->sabs[e / 2] +
                          (l3m.tol_rel < 0 || native ? 1 : l3m.tol_ulp) * ulp;
                    ok = bitwise ? l3_same(got[e], want) : fabs(got[e] - want) <= tol;
                } else {
                    ok = l3_same(got[e], want);
                }
                if (!ok && bad++ == 0)
                    bi = i, bj = j, bp = p, bgot = got[e], bwant = want, bound = tol;
            }
    if (bad)
        gt_fail("%lld parts wrong; first %s C(%lld, %lld) = %.17g, expected %.17g (%s, bound "
                "%.3g)",
                (long long)bad, bp ? "Im" : "Re", (long long)bi, (long long)bj, bgot, bwant,
                !l3m_target(c, bi, bj) ? "must be untouched" : bitwise ? "bit for bit" : "bound",
                bound);
}

/* check_parts for a call in pointer mode dev (-1: in the graph, where repro computes each) */
static void check(const cfg *c, const image *im, const double *got, int dev)
{
    if (dev < 0) {
        check_parts(c, im, got, repro, 0);
        return;
    }
    const int native = declined(c, dev);
    check_parts(c, im, got, repro && !native, native);
}

/* (alpha, beta): real, real with beta = 0, complex (HERK: the real parts; HER2K: its alpha) */
static const double scal[3][4] = {{1.5, 0, 0.75, 0}, {-1.0, 0, 0, 0}, {0.3, -0.7, 1.0, 0.5}};

static void set_scal(cfg *c, int p)
{
    memcpy(c->alpha, scal[p], 2 * sizeof(double));
    memcpy(c->beta, scal[p] + 2, 2 * sizeof(double));
    if (c->kind == K_HERK)
        c->alpha[1] = 0.0;
    if (herm(c->kind) && l3m_rank_k(c->kind))
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
                l3m_dims(&c);
                l3m_run_cfg(c, 1000u * (unsigned)kind + 10u * (unsigned)(3 * s + u) + (unsigned)t);
            }
    cfg big = {kind, 0, 1, herm(kind) ? 2 : 1, 0, 0, 300, 300, 64, 0, 0, 0, {0, 0}, {0, 0}};
    set_scal(&big, 0);
    l3m_dims(&big);
    l3m_run_cfg(big, 900u + (unsigned)kind);
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
                l3m_dims(&c);
                l3m_run_cfg(c, 5000u + 100u * (unsigned)kind + 10u * (unsigned)(2 * s + side) +
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
                            l3m_dims(&c);
                            l3m_run_cfg(c, 7000u + 100u * (unsigned)s +
                                               10u * (unsigned)(4 * side + 2 * u + diag) +
                                               (unsigned)(3 * alias + op));
                        }
}

static int has_legacy(int kind)
{
    return kind != K_SYRKX && kind != K_HERKX; /* no legacy SYRKX, HERKX */
}

static const l3m_type cplx = {2, kname, K_HER2K, K_TRMM, call, has_legacy, build, check};

int main(void)
{
    l3m_start("zlevel3", &cplx, 4 * ldexp(1.0, -52),
              "each part bit for bit the correctly rounded one where repro computes it",
              "each part within the mode's bound of the correctly rounded one");
    repro = gt_mode_is("repro");
    for (int k = K_SYRK; k <= K_HER2K; k++)
        rank_k_group(k);
    symm_group(K_SYMM);
    symm_group(K_HEMM);
    trmm_group();
    l3m_graph("a ZHERK and an in-place ZTRMM in a CUDA graph, replayed twice",
              (cfg){K_HERK, 0, 0, 2, 0, 0, 100, 100, 37, 0, 0, 0, {1.5, 0}, {0.75, 0}},
              "cublasZherk_v2",
              (cfg){K_TRMM, 1, 1, 2, 0, 1, 45, 100, 100, 0, 0, 0, {-0.3, 0}, {0, 0}},
              "cublasZtrmm_v2");
    return l3_finish();
}
