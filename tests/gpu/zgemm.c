/* zgemm — complex double GEMM through the shim: cublasZgemm_v2, cublasZgemm_v2_64,
 * cublasZgemm3m, cublasZgemm3m_64, cublasZgemmStridedBatched(_64), cublasGemmEx(_64) and
 * cublasGemmStridedBatchedEx(_64) with A, B, C CUDA_C_64F and CUBLAS_COMPUTE_64F, and the legacy
 * cublasZgemm (cublas.h: operation characters, alpha and beta by value, cublasGetError).
 *
 * The reference depends on the mode (gt_mode_engine()):
 *   repro         where the engine computes complex GEMM (every call but alpha = 0 on the
 *                 host: real host scalars through its real GEMM, complex or device ones by row
 *                 pairs, ../../engines/zreal/zreal.h; each part rounded once), every output bit
 *                 for bit the correctly rounded CPU ZGEMM dfs_repro_zgemm_host (NaN as below;
 *                 every entry point must have a case where the real cuBLAS differs from it and
 *                 the shim does not); elsewhere bit for bit the real cuBLAS call.
 *   int8, df      every part within the engine's bound of the correctly rounded value r:
 *                 |c - r| <= T s + 2^-52 |r| + 2^-1060.  int8: T = (2k + 8) 2^-52, native's
 *                 gamma_2k for each part's real dot product of length 2k (and the binary64
 *                 alpha S + beta C), s that part's own scale: with Sr = sum_q |ar br| + |ai bi|
 *                 and Si = sum_q |ar bi| + |ai br|, Re |alpha_r| Sr + |alpha_i| Si + |beta_r cr|
 *                 + |beta_i ci|, Im |alpha_r| Si + |alpha_i| Sr + |beta_r ci| + |beta_i cr| (so
 *                 a tiny imaginary part is held to its own terms); df: T = 4 (2k + 1) 2^-48 +
 *                 2^-50 (its tested DF bound) and s = (|alpha_r| + |alpha_i|) (Sr + Si) +
 *                 (|beta_r| + |beta_i|)(|cr| + |ci|) for both parts; a NaN where r is NaN, an
 *                 Inf of r's sign or NaN where r is
 *                 Inf; and a case per entry point where the shim's bits differ from the real
 *                 cuBLAS's (the engine computed it).
 *   accurate      on GPUs with int8 tensor cores (cc 7.5 on) as repro where repro computes (the
 *                 embedded policy: zgemm = repro fallback=dd), as dd elsewhere;
 *   dd, accurate  every output bit for bit the dd engine's CPU twin dfs_dd_zgemm_host (any NaN
 *                 equals any NaN, part by part; Zgemm3m too: the dd engine takes four real
 *                 products there as well).  In each computing group, every entry point must
 *                 have a case where the real cuBLAS differs from the twin (and the shim does
 *                 not): that is what shows the engine computed it.  alpha = 0 given on the host
 *                 may also be left to the real cuBLAS (the shim does so for real GEMM): such a
 *                 call's C must then be the real one's, bit for bit.
 *   anything else native: every output bit for bit the real cuBLAS call (found with dlsym on
 *                 libcublas's handle).
 * In every mode the padding of C (rows m..ldc-1) and the gaps between batch entries hold a
 * sentinel that must come back untouched; the padding and gaps of A and B are NaN, which shows
 * wherever they are read; with beta = 0, C is NaN (not to be read).
 *
 * Groups: 1. every symbol intercepted; 2. ops {N,T,C}^2 x sizes 1x1x1, 13x17x29, 31x7x1,
 * 64x64x300 x alpha {1, 0.5-2i, 0} x beta {0, 1, -0.75+0.25i} x ld tight / +3 x host / device
 * pointers, on every non-batched entry point; 3. the data: (U-0.5) exp(4N), Im ~ 1e-20 Re, rows of
 * op(A) times 1e300 and 1e-300, Inf / NaN in a row of op(A) and a column of op(B); 4. the strided
 * batched forms: batch 3, strides with gaps, B shared through stride 0; 5. invalid arguments and
 * quick returns: the status and C of the real cuBLAS.  The data and the twins: zgemm_cases.c; the
 * calls: zgemm_calls.c. */
#include "common.h"
#include "zgemm.h"

#include <cublas.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const int plain_apis[7] = {Z_GEMM, Z_GEMM_64, Z_3M, Z_3M_64, Z_EX, Z_EX_64, Z_LEGACY};
static const int strided_apis[4] = {Z_SB, Z_SB_64, Z_SBEX, Z_SBEX_64};

/* ---------- state, data ---------- */

#define TMAX ((int64_t)350000) /* complex elements of one tight matrix (70000 x 5 at most) */
#define NBMAX 3                /* batch entries */
#define IMG ((int64_t)1 << 20) /* complex elements of an A, B or C image on the device */

static const cuDoubleComplex alphas[4] = {{1.0, 0.0}, {0.5, -2.0}, {0.0, 0.0}, {0.0, 1.0}};
static const cuDoubleComplex betas[3] = {{0.0, 0.0}, {1.0, 0.0}, {-0.75, 0.25}};
enum { ALPHA0 = 2 };

static cublasHandle_t h;
static cuDoubleComplex *d_ab; /* alphas, then betas, on the device */
static double *dA, *dB, *dCr, *dCs;
static double *hAt, *hBt, *hC0, *hTw; /* per batch entry (TMAX complex apart): tight op data */
static double *hSc;                   /* the bound's scale per part (REF_BOUND) */
/* accurate on a GPU with int8 tensor cores: repro's calls (real host scalars) are repro's, the
 * rest dd's (the embedded policy's zgemm = repro fallback=dd): hTw2 holds the repro twin */
static int accurate_repro;
static double *hTw2;
static const double *twin; /* the twin the case compares with: hTw, or hTw2 */
static double *himg, *hR, *hS;        /* device images on the host */
static double qnan_v, sentinel_v;
/* the reference (the header comment): real cuBLAS, the dd twin, the repro twin, or the bound */
enum { REF_NATIVE, REF_DD, REF_REPRO, REF_BOUND };
static int ref, nthreads;
static int tol_df;

enum { K_PHI0, K_PHI4, K_TINYIM, K_SCALED, K_SPECIAL, K_COUNT };
static const char *const kname[K_COUNT] = {"phi0", "phi4", "Im~1e-20Re", "rows*1e+-300",
                                           "Inf/NaN"};

/* One logical problem: C(b) = alpha op(A(b)) op(B(b)) + beta C(b), b < batch. */
typedef struct {
    cublasOperation_t ta, tb;
    int64_t m, n, k, batch;
    int kind, ia, ib, bshared; /* bshared: every B(b) the same (for B stride 0) */
    uint64_t seed;
} zprob;

/* Rows and columns of the stored A and B. */
static int64_t rows_a(const zprob *p) { return p->ta == CUBLAS_OP_N ? p->m : p->k; }
static int64_t cols_a(const zprob *p) { return p->ta == CUBLAS_OP_N ? p->k : p->m; }
static int64_t rows_b(const zprob *p) { return p->tb == CUBLAS_OP_N ? p->k : p->n; }
static int64_t cols_b(const zprob *p) { return p->tb == CUBLAS_OP_N ? p->n : p->k; }

/* ---------- layouts and runs ---------- */

typedef struct {
    int pad, bstride0;
    int64_t lda, ldb, ldc;
    long long sA, sB, sC;
} zlay;

static zlay make_lay(const zprob *p, int pad, int bstride0)
{
    zlay L = {pad, bstride0, (rows_a(p) > 1 ? rows_a(p) : 1) + pad,
              (rows_b(p) > 1 ? rows_b(p) : 1) + pad, (p->m > 1 ? p->m : 1) + pad, 0, 0, 0};
    L.sA = (long long)(L.lda * cols_a(p)) + 11;
    L.sB = bstride0 ? 0 : (long long)(L.ldb * cols_b(p)) + 7;
    L.sC = (long long)(L.ldc * p->n) + 13;
    return L;
}

static void upload_one(double *d, const double *tight, int64_t rows, int64_t cols, int64_t ld,
                       long long stride, int64_t nb)
{
    const int64_t span = (nb - 1) * stride + ld * cols;
    if (span > IMG)
        gt_fatal("test bug: image of %" PRId64 " elements", span);
    gt_fill_const(himg, (size_t)(2 * span), qnan_v); /* padding and gaps: NaN, never read */
    for (int64_t b = 0; b < nb; b++)
        for (int64_t j = 0; j < cols; j++)
            memcpy(himg + 2 * (b * stride + j * ld), tight + 2 * (b * TMAX + j * rows),
                   (size_t)rows * 16);
    gt_h2d(d, himg, (size_t)span * 16);
}

/* A and B of p in layout L on the device (nb batch entries). */
static void upload_ab(const zprob *p, const zlay *L, int64_t nb)
{
    upload_one(dA, hAt, rows_a(p), cols_a(p), L->lda, L->sA, nb);
    upload_one(dB, hBt, rows_b(p), cols_b(p), L->ldb, L->sB, nb);
}

/* Per group: the entry points run, and those with a case where the shim gave the twin's C and
 * the real cuBLAS did not. */
static int grp_used[Z_COUNT], grp_engaged[Z_COUNT], grp_alpha0_native;

static void zgroup(const char *what)
{
    static const char *const rn[] = {"real cuBLAS", "the dd twin", "the repro twin",
                                     "the bound around the repro twin"};
    gt_group("%s (reference: %s)", what, rn[ref]);
    memset(grp_used, 0, sizeof grp_used);
    memset(grp_engaged, 0, sizeof grp_engaged);
    grp_alpha0_native = 0;
}

static void zgroup_engaged(void)
{
    if (ref == REF_NATIVE)
        return;
    if (grp_alpha0_native)
        printf("     (%d calls with alpha = 0 on the host gave the real cuBLAS's C)\n",
               grp_alpha0_native);
    for (int a = 0; a < Z_COUNT; a++) {
        if (!grp_used[a])
            continue;
        gt_case("%s engaged: a case where %s", zname[a],
                ref == REF_BOUND ? "the shim's bits differ from the real cuBLAS's"
                                 : "the real cuBLAS differs from the twin and the shim does not");
        if (!grp_engaged[a])
            gt_fail("no such case in this group: nothing shows the engine computed %s",
                    zname[a]);
    }
}

static int same_part(double x, double y)
{
    return (isnan(x) && isnan(y)) || !memcmp(&x, &y, sizeof x);
}

static uint64_t bits(double x)
{
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    return u;
}

/* Compares got's outputs with want (an image like got) or, when want is NULL, with the twin
 * (NaN-aware); exact: bits.  Returns the number of differing parts; the first is described in
 * msg. */
static int64_t cmp_outputs(const zprob *p, const zlay *L, int64_t nb, const double *got,
                           const double *want, int exact, char *msg, size_t msglen)
{
    int64_t nd = 0;
    for (int64_t b = 0; b < nb; b++)
        for (int64_t j = 0; j < p->n; j++)
            for (int64_t i = 0; i < p->m; i++)
                for (int part = 0; part < 2; part++) {
                    const int64_t at = 2 * (b * L->sC + j * L->ldc + i) + part;
                    const double w = want ? want[at] : twin[2 * (b * TMAX + j * p->m + i) + part];
                    const double g = got[at];
                    if (exact ? bits(w) == bits(g) : same_part(w, g))
                        continue;
                    if (!nd++ && msg)
                        snprintf(msg, msglen,
                                 "C(%" PRId64 ",%" PRId64 ") of batch %" PRId64 " %s: want "
                                 "%.17g [%016" PRIx64 "] got %.17g [%016" PRIx64 "]",
                                 i, j, b, part ? "im" : "re", w, bits(w), g, bits(g));
                }
    return nd;
}

/* The padding and gaps of C in image img must still hold the sentinel. */
static void check_sentinel(const zprob *p, const zlay *L, int64_t nb, const double *img,
                           int64_t span)
{
    for (int64_t e = 0; e < span; e++) {
        const int64_t b = nb > 1 ? e / L->sC : 0, r = e - b * (nb > 1 ? L->sC : 0);
        if (b < nb && r < L->ldc * p->n && r % L->ldc < p->m)
            continue;
        if (bits(img[2 * e]) != bits(sentinel_v) || bits(img[2 * e + 1]) != bits(sentinel_v)) {
            gt_fail("C's %s at complex element %" PRId64 " was overwritten: %.17g%+.17gi",
                    r < L->ldc * p->n ? "padding" : "batch gap", e, img[2 * e], img[2 * e + 1]);
            return;
        }
    }
}

/* REF_BOUND: every part of got within the bound around the repro twin (header comment);
 * alpha = 0 on the host may be the real cuBLAS's C (the shim leaves it to cuBLAS). */
static void check_bound(const zprob *p, const zlay *L, int64_t nb, const double *got,
                        const double *real, int api, int dev)
{
    if (p->ia == ALPHA0 && !dev && !cmp_outputs(p, L, nb, got, real, 1, NULL, 0)) {
        grp_alpha0_native++;
        return;
    }
    const double T = tol_df ? 4.0 * (double)(2 * p->k + 1) * 0x1p-48 + 0x1p-50
                            : (double)(2 * p->k + 8) * 0x1p-52;
    int64_t bad = 0;
    for (int64_t b = 0; b < nb; b++)
        for (int64_t j = 0; j < p->n; j++)
            for (int64_t i = 0; i < p->m; i++)
                for (int part = 0; part < 2; part++) {
                    const int64_t at = 2 * (b * L->sC + j * L->ldc + i) + part,
                                  t = 2 * (b * TMAX + j * p->m + i) + part;
                    const double r = hTw[t], g = got[at];
                    int ok;
                    if (isnan(r))
                        ok = isnan(g);
                    else if (isinf(r))
                        ok = g == r || isnan(g);
                    else
                        ok = isfinite(g) && fabs(g - r) <= T * hSc[t] + 0x1p-52 * fabs(r) +
                                                               0x1p-1060;
                    if (!ok && !bad++)
                        gt_fail("C(%" PRId64 ",%" PRId64 ") of batch %" PRId64 " %s: %.17g, "
                                "correctly rounded %.17g, bound %.3g (real cuBLAS %.17g)", i, j,
                                b, part ? "im" : "re", g, r, T * hSc[t] + 0x1p-52 * fabs(r),
                                real[at]);
                }
    if (bad)
        gt_fail("%" PRId64 " parts outside the bound", bad);
    else if (cmp_outputs(p, L, nb, got, real, 1, NULL, 0))
        grp_engaged[api] = 1;
}

static void run_one(const zprob *p, const zlay *L, int api, int dev)
{
    const int64_t nb = is_strided(api) ? p->batch : 1;
    const long long sC = nb > 1 ? L->sC : 0;
    const int64_t span = (nb - 1) * sC + L->ldc * p->n;
    const cuDoubleComplex *al = &alphas[p->ia], *be = &betas[p->ib];
    gt_case("%s op=%c%c m=%" PRId64 " n=%" PRId64 " k=%" PRId64 " ld+%d%s%s alpha=%g%+gi "
            "beta=%g%+gi ptr=%s data=%s", zname[api], op_char(p->ta, 0), op_char(p->tb, 0), p->m,
            p->n, p->k, L->pad, nb > 1 ? " batch 3" : "",
            nb > 1 && L->bstride0 ? " B stride 0" : "", al->x, al->y, be->x, be->y,
            dev ? "device" : "host", kname[p->kind]);
    grp_used[api] = 1;
    gt_fill_const(hS, (size_t)(2 * span), sentinel_v);
    for (int64_t b = 0; b < nb; b++)
        for (int64_t j = 0; j < p->n; j++)
            for (int64_t i = 0; i < p->m; i++)
                for (int part = 0; part < 2; part++)
                    hS[2 * (b * sC + j * L->ldc + i) + part] =
                        p->ib == 0 ? qnan_v : hC0[2 * (b * TMAX + j * p->m + i) + part];
    gt_h2d(dCr, hS, (size_t)span * 16);
    gt_h2d(dCs, hS, (size_t)span * 16);
    const cublasPointerMode_t pm = dev ? CUBLAS_POINTER_MODE_DEVICE : CUBLAS_POINTER_MODE_HOST;
    GT_CUBLAS(cublasSetPointerMode_v2(h, pm));
    zcall c = {api, h, p->ta, p->tb, p->m, p->n, p->k, L->lda, L->ldb, L->ldc, L->sA, L->sB,
               L->sC, nb, CUBLAS_GEMM_DEFAULT, dev ? d_ab + p->ia : al,
               dev ? d_ab + 4 + p->ib : be, dA, dB, dCr, L->pad != 0};
    const cublasStatus_t sr = zrun(1, &c);
    c.C = dCs;
    const cublasStatus_t ss = zrun(0, &c);
    gt_check_modes(h, pm, CUBLAS_DEFAULT_MATH);
    if (sr != CUBLAS_STATUS_SUCCESS)
        gt_fail("real cuBLAS rejected a valid call: %s", gt_status_name(sr));
    gt_cmp_status(zname[api], sr, ss);
    GT_CUDA(cudaDeviceSynchronize());
    gt_d2h(hR, dCr, (size_t)span * 16);
    gt_d2h(hS, dCs, (size_t)span * 16);
    check_sentinel(p, L, nb, hS, span);
    char msg[320];
    /* repro computes every call but alpha = 0 on the host (left to the real cuBLAS) */
    const int repro_computes = dev || al->x != 0.0 || al->y != 0.0;
    twin = accurate_repro && repro_computes ? hTw2 : hTw;
    if (ref == REF_NATIVE || (ref == REF_REPRO && !repro_computes)) {
        const int64_t nd = cmp_outputs(p, L, nb, hS, hR, 1, msg, sizeof msg);
        if (nd)
            gt_fail("shim vs real cuBLAS: %s; %" PRId64 " parts differ", msg, nd);
        return;
    }
    if (ref == REF_BOUND) {
        check_bound(p, L, nb, hS, hR, api, dev);
        return;
    }
    const int64_t nd = cmp_outputs(p, L, nb, hS, NULL, 0, msg, sizeof msg);
    const int64_t real_nd = cmp_outputs(p, L, nb, hR, NULL, 0, NULL, 0);
    if (!nd) {
        grp_engaged[api] |= real_nd > 0;
        return;
    }
    if (p->ia == ALPHA0 && !dev && !cmp_outputs(p, L, nb, hS, hR, 1, NULL, 0)) {
        grp_alpha0_native++; /* alpha = 0 on the host: left to the real cuBLAS */
        return;
    }
    gt_fail("shim vs twin: %s; %" PRId64 " of %" PRId64 " parts differ (real cuBLAS: %" PRId64
            " differ from the twin)", msg, nd, 2 * nb * p->m * p->n, real_nd);
}

/* Every layout of one problem: pads 0 and 3, host and device pointers (the legacy call: host),
 * strided: B stride 0 too when the problem's B entries are one. */
static void run_problem(zprob *p, const int *apis, int napis)
{
    zgemm_gen(p->kind, (int)p->ta, (int)p->tb, p->m, p->n, p->k, p->batch, p->bshared, p->seed,
              TMAX, hAt, hBt, hC0);
    const double al[2] = {alphas[p->ia].x, alphas[p->ia].y},
                 be[2] = {betas[p->ib].x, betas[p->ib].y};
    if (ref != REF_NATIVE)
        zgemm_twin((int)p->ta, (int)p->tb, p->m, p->n, p->k, p->batch, al, be, hAt, hBt, hC0,
                   TMAX, nthreads, ref != REF_DD, hTw);
    if (accurate_repro)
        zgemm_twin((int)p->ta, (int)p->tb, p->m, p->n, p->k, p->batch, al, be, hAt, hBt, hC0,
                   TMAX, nthreads, 1, hTw2);
    if (ref == REF_BOUND)
        zgemm_scale((int)p->ta, (int)p->tb, p->m, p->n, p->k, p->batch, al, be, hAt, hBt, hC0,
                    TMAX, !tol_df, hSc);
    const int strided = is_strided(apis[0]);
    for (int pad = 0; pad <= 3; pad += 3)
        for (int b0 = 0; b0 <= (strided && p->bshared); b0++) {
            const zlay L = make_lay(p, pad, b0);
            upload_ab(p, &L, strided ? p->batch : 1);
            for (int a = 0; a < napis; a++)
                for (int dev = 0; dev <= (apis[a] != Z_LEGACY); dev++)
                    run_one(p, &L, apis[a], dev);
        }
}

/* ---------- groups ---------- */

static const cublasOperation_t ops[3] = {CUBLAS_OP_N, CUBLAS_OP_T, CUBLAS_OP_C};
/* (alpha, beta) index pairs of the data and strided groups */
static const int ab_few[5][2] = {{0, 0}, {1, 2}, {3, 1}, {1, 0}, {ALPHA0, 2}};
/* op pairs on 64x64x300 outside the ops group: NN, TC, CN */
static const int big_ops[3][2] = {{0, 0}, {1, 2}, {2, 0}};

static void interception_group(void)
{
    gt_group("the shim intercepts every complex GEMM entry point");
    for (int a = 0; a < Z_COUNT; a++) {
        gt_case("%s", zname[a]);
        if (!intercepted[a])
            gt_fail("%s resolves to the real libcublas: the shim does not intercept it",
                    zname[a]);
    }
}

static void ops_group(void)
{
    static const int64_t sizes[4][3] = {{1, 1, 1}, {13, 17, 29}, {31, 7, 1}, {64, 64, 300}};
    zgroup("ops {N,T,C}^2 x 1x1x1, 13x17x29, 31x7x1, 64x64x300 x alpha {1,0.5-2i,0} x beta "
           "{0 (C NaN),1,-0.75+0.25i} x ld tight/+3 x host/device pointers, phi 0; Zgemm(_64), "
           "Zgemm3m(_64), GemmEx(_64) C_64F, legacy Zgemm");
    for (int si = 0; si < 4; si++)
        for (int oa = 0; oa < 3; oa++)
            for (int ob = 0; ob < 3; ob++)
                for (int ia = 0; ia < 3; ia++)
                    for (int ib = 0; ib < 3; ib++) {
                        zprob p = {ops[oa], ops[ob], sizes[si][0], sizes[si][1], sizes[si][2], 1,
                                   K_PHI0, ia, ib, 0, (uint64_t)(100 + si * 9 + oa * 3 + ob)};
                        run_problem(&p, plain_apis, 7);
                    }
    zgroup_engaged();
}

static void data_group(void)
{
    zgroup("data (U-0.5)exp(4N), Im ~ 1e-20 Re, rows of op(A) x1e300/x1e-300, Inf/NaN in a row "
           "of op(A) and a column of op(B): 13x17x29 all ops, 64x64x300 NN TC CN, 5 alpha,beta");
    for (int kind = K_PHI4; kind < K_COUNT; kind++)
        for (int c = 0; c < 12; c++)
            for (int ab = 0; ab < 5; ab++) {
                const int big = c >= 9, oa = big ? big_ops[c - 9][0] : c / 3,
                          ob = big ? big_ops[c - 9][1] : c % 3;
                zprob p = {ops[oa], ops[ob], big ? 64 : 13, big ? 64 : 17, big ? 300 : 29, 1,
                           kind, ab_few[ab][0], ab_few[ab][1], 0,
                           (uint64_t)(1000 + kind * 100 + c)};
                run_problem(&p, plain_apis, 7);
            }
    zgroup_engaged();
}

static void strided_group(void)
{
    zgroup("strided batched, batch 3, strides with gaps (B stride 0 where the B entries are "
           "one): 1x1x1, 13x17x29 all ops, 64x64x300 NN TC CN; phi 0, phi 4 (13x17x29 NN "
           "Inf/NaN); 5 alpha,beta; ld tight/+3; host/device pointers");
    for (int c = 0; c < 13; c++)
        for (int kind = 0; kind < 3; kind++) {
            const int small = c == 0, big = c >= 10;
            const int oa = small ? 0 : big ? big_ops[c - 10][0] : (c - 1) / 3;
            const int ob = small ? 0 : big ? big_ops[c - 10][1] : (c - 1) % 3;
            const int kd = kind == 2 ? K_SPECIAL : kind;
            if (kind == 2 && !(c == 1))
                continue;
            for (int ab = 0; ab < 5; ab++) {
                zprob p = {ops[oa], ops[ob], small ? 1 : big ? 64 : 13, small ? 1 : big ? 64 : 17,
                           small ? 1 : big ? 300 : 29, NBMAX, kd, ab_few[ab][0], ab_few[ab][1],
                           (oa + ob + ab) & 1, (uint64_t)(5000 + c * 10 + kind)};
                run_problem(&p, strided_apis, 4);
            }
        }
    zgroup_engaged();
}

/* A tall product: 70000 x 3 x 5, NN and TC, Inf in row 35000 of op(A) and -Inf in a column of
 * op(B).  repro takes a complex alpha by row pairs (op(A)' of 140000 real rows): the Inf's
 * outputs are listed in the second block of rows, past real row 65536, where the list's 16-bit
 * row within a block held them wrongly while blocks could span 131072 real rows (fixed
 * 2026-11-27). */
static void tall_group(void)
{
    zgroup("tall 70000x3x5 NN and TC, Inf/NaN in row 35000 of op(A) and a column of op(B), "
           "alpha {1, 0.5-2i} x beta {0 (C NaN), -0.75+0.25i}");
    static const int ab[3][2] = {{1, 0}, {1, 2}, {0, 2}};
    for (int o = 0; o < 2; o++)
        for (int c = 0; c < 3; c++) {
            zprob p = {ops[o], ops[2 * o], 70000, 3, 5, 1, K_SPECIAL, ab[c][0], ab[c][1], 0,
                       (uint64_t)(7000 + 3 * o + c)};
            run_problem(&p, plain_apis, 3);
        }
    zgroup_engaged();
}

/* ---------- invalid arguments and quick returns ---------- */

#define ST_SPAN 600 /* complex elements of C the status cases compare */

static void status_case(const char *label, const zcall *base, int dev, int beta0)
{
    gt_case("%s %s", zname[base->api], label);
    if (beta0)
        gt_fill_const(hS, 2 * ST_SPAN, qnan_v);
    else
        gt_fill(hS, 2 * ST_SPAN, 77);
    gt_h2d(dCr, hS, ST_SPAN * 16);
    gt_h2d(dCs, hS, ST_SPAN * 16);
    const cublasPointerMode_t pm = dev ? CUBLAS_POINTER_MODE_DEVICE : CUBLAS_POINTER_MODE_HOST;
    GT_CUBLAS(cublasSetPointerMode_v2(h, pm));
    zcall c = *base;
    c.C = dCr;
    const cublasStatus_t sr = zrun(1, &c);
    c.C = dCs;
    const cublasStatus_t ss = zrun(0, &c);
    gt_check_modes(h, pm, CUBLAS_DEFAULT_MATH);
    gt_cmp_status(zname[c.api], sr, ss);
    GT_CUDA(cudaDeviceSynchronize());
    gt_d2h(hR, dCr, ST_SPAN * 16);
    gt_d2h(hS, dCs, ST_SPAN * 16);
    gt_cmp("C (doubles: re, im)", hR, hS, 2 * ST_SPAN, 8, 0);
}

static void status_group(void)
{
    static const char *const label[] = {
        "m=-1", "n=-1", "k=-1", "transa=7", "transb=7", "lda=m-1", "ldb=k-1", "ldc=m-1",
        "handle NULL", "batch=-1", "algo=57", "k=0", "k=0 beta=0 (C NaN)", "k=0 beta=1",
        "k=0 device pointers", "k=0 alpha=0", "m=0", "n=0", "batch=0"};
    enum { NV = sizeof label / sizeof *label };
    gt_group("invalid arguments and quick returns: the real cuBLAS's status and C (13x17x29 NN, "
             "lda 16, ldb 32, ldc 16, batch 2)");
    gt_fill(himg, 2 * 4096, 78);
    gt_h2d(dA, himg, 4096 * 16);
    gt_fill(himg, 2 * 4096, 79);
    gt_h2d(dB, himg, 4096 * 16);
    for (int a = 0; a < Z_COUNT; a++)
        for (int v = 0; v < NV; v++) {
            const int batchv = v == 9 || v == 18, legacy = a == Z_LEGACY;
            if ((batchv && !is_strided(a)) || (v == 10 && !is_ex(a)) ||
                (legacy && (v == 8 || v == 14)))
                continue;
            zcall c = {a, h, CUBLAS_OP_N, CUBLAS_OP_N, 13, 17, 29, 16, 32, 16, 16 * 29 + 11,
                       32 * 17 + 7, 16 * 17 + 13, 2, CUBLAS_GEMM_DEFAULT, &alphas[1], &betas[2],
                       dA, dB, NULL, v & 1};
            int dev = 0, beta0 = 0;
            switch (v) {
            case 0: c.m = -1; break;
            case 1: c.n = -1; break;
            case 2: c.k = -1; break;
            case 3: c.ta = (cublasOperation_t)7; break;
            case 4: c.tb = (cublasOperation_t)7; break;
            case 5: c.lda = 12; break;
            case 6: c.ldb = 28; break;
            case 7: c.ldc = 12; break;
            case 8: c.h = NULL; break;
            case 9: c.batch = -1; break;
            case 10: c.algo = (cublasGemmAlgo_t)57; break;
            case 11: c.k = 0; break;
            case 12: c.k = 0; c.beta = &betas[0]; beta0 = 1; break;
            case 13: c.k = 0; c.beta = &betas[1]; break;
            case 14: c.k = 0; c.alpha = d_ab + 1; c.beta = d_ab + 6; dev = 1; break;
            case 15: c.k = 0; c.alpha = &alphas[ALPHA0]; break;
            case 16: c.m = 0; break;
            case 17: c.n = 0; break;
            default: c.batch = 0; break;
            }
            status_case(label[v], &c, dev, beta0);
        }
}

int main(void)
{
    gt_init("zgemm");
    const double t0 = gt_now();
    zlookup();
    ref = gt_mode_is("dd") || gt_mode_is("accurate") ? REF_DD
          : gt_mode_is("repro")                      ? REF_REPRO
          : gt_mode_is("int8") || gt_mode_is("df")   ? REF_BOUND
                                                     : REF_NATIVE;
    tol_df = gt_mode_is("df");
    const long procs = sysconf(_SC_NPROCESSORS_ONLN);
    nthreads = procs < 1 ? 1 : procs > 16 ? 16 : (int)procs;
    qnan_v = gt_qnan();
    const uint64_t sb = 0xfff8dead5e171e11ULL; /* C's padding and gaps */
    memcpy(&sentinel_v, &sb, sizeof sentinel_v);
    static const char *const rn[] = {"the real cuBLAS call",
                                     "the dd engine's CPU twin dfs_dd_zgemm_host",
                                     "the correctly rounded dfs_repro_zgemm_host",
                                     "the engine's bound around dfs_repro_zgemm_host"};
    printf("zgemm: EXBLAS_MODE=%s: every output against %s; %d CPU threads for the twin\n",
           gt_mode() ? gt_mode() : "(unset)", rn[ref], nthreads);

    GT_CUBLAS(cublasCreate_v2(&h));
    if (cublasInit() != CUBLAS_STATUS_SUCCESS)
        gt_fatal("cublasInit failed");
    cuDoubleComplex ab[7];
    memcpy(ab, alphas, sizeof alphas);
    memcpy(ab + 4, betas, sizeof betas);
    d_ab = gt_dmalloc(sizeof ab);
    gt_h2d(d_ab, ab, sizeof ab);
    dA = gt_dmalloc((size_t)IMG * 16);
    dB = gt_dmalloc((size_t)IMG * 16);
    dCr = gt_dmalloc((size_t)IMG * 16);
    dCs = gt_dmalloc((size_t)IMG * 16);
    hAt = gt_hmalloc((size_t)(NBMAX * TMAX) * 16);
    hBt = gt_hmalloc((size_t)(NBMAX * TMAX) * 16);
    hC0 = gt_hmalloc((size_t)(NBMAX * TMAX) * 16);
    hTw = gt_hmalloc((size_t)(NBMAX * TMAX) * 16);
    hSc = gt_hmalloc((size_t)(NBMAX * TMAX) * 16);
    hTw2 = gt_hmalloc((size_t)(NBMAX * TMAX) * 16);
    int dev_id = 0, cc_major = 0, cc_minor = 0;
    GT_CUDA(cudaGetDevice(&dev_id));
    GT_CUDA(cudaDeviceGetAttribute(&cc_major, cudaDevAttrComputeCapabilityMajor, dev_id));
    GT_CUDA(cudaDeviceGetAttribute(&cc_minor, cudaDevAttrComputeCapabilityMinor, dev_id));
    accurate_repro = gt_mode_is("accurate") && cc_major * 10 + cc_minor >= 75;
    himg = gt_hmalloc((size_t)IMG * 16);
    hR = gt_hmalloc((size_t)IMG * 16);
    hS = gt_hmalloc((size_t)IMG * 16);

    interception_group();
    ops_group();
    data_group();
    strided_group();
    tall_group();
    status_group();

    GT_CUBLAS(cublasSetPointerMode_v2(h, CUBLAS_POINTER_MODE_HOST));
    GT_CUBLAS(cublasDestroy_v2(h));
    cublasShutdown();
    gt_end_group();
    printf("zgemm: %.1f s in all\n", gt_now() - t0);
    return gt_finish();
}
