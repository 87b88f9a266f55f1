/* native_bitwise — with the native engine (EXBLAS_MODE=native, or auto), every intercepted
 * routine through the shim gives bitwise the real cuBLAS's output, over a matrix of operations,
 * shapes, leading dimensions, increments, scalars and pointer modes; FP32 and pedantic GemmEx
 * (forwarded untouched) too.  The handle's pointer and math modes must survive every call. */
#include "common.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define NA (1u << 21)   /* elements of the A / B buffers */
#define NC (1u << 19)   /* elements of each C buffer */
#define NV (1u << 14)   /* elements of each gemv x / y buffer */
#define VOFF (1u << 12) /* where the gemv vectors start in their buffers (guards both sides) */
#define DOT_N_MAX (1 << 20)

static const double scal[5] = {0, 1, -1, 0.5, 3};
static const float scalf[5] = {0, 1, -1, 0.5f, 3};
static const cublasOperation_t ops[3] = {CUBLAS_OP_N, CUBLAS_OP_T, CUBLAS_OP_C};
static const int64_t sizes[4][3] = {{1, 1, 1}, {17, 33, 9}, {128, 64, 256}, {257, 129, 65}};
/* (alpha, beta) index pairs used where the full 5 x 5 grid would be too much. */
static const int ab_few[5][2] = {{1, 0}, {2, 1}, {3, 4}, {0, 2}, {4, 0}};

static cublasHandle_t h;
static cublasMath_t math_mode = CUBLAS_DEFAULT_MATH;
static double *d_scal;
static float *d_scalf;
static double *dA, *dB, *dCr, *dCs;
static float *dAf, *dBf, *dCrf, *dCsf;
static double *hC_rand, *hC_nan, *hr, *hs;
static float *hCf_rand, *hCf_nan, *hrf, *hsf;

static void set_pm(cublasPointerMode_t pm)
{
    GT_CUBLAS(cublasSetPointerMode_v2(h, pm));
}

/* ---------- GEMM family ---------- */

/* Runs g for real into one C buffer and through the shim into another, both starting from the
 * same contents (NaN when beta = 0), and compares the whole span of C (gaps included). */
static void gemm_case(gt_gemm *g, int ia, int ib, int devptr)
{
    int fp32 = g->typeC == CUDA_R_32F;
    size_t elsize = fp32 ? 4 : 8;
    int64_t batch = gt_gemm_api_strided(g->api) ? g->batch : 1;
    long long sC = gt_gemm_api_strided(g->api) ? g->sC : 0;
    size_t count = (size_t)(sC * (batch - 1) + g->ldc * g->n);
    if (count > NC)
        gt_fatal("test bug: C span %zu > %u", count, NC);
    int beta0 = ib == 0;
    void *Cr = fp32 ? (void *)dCrf : (void *)dCr, *Cs = fp32 ? (void *)dCsf : (void *)dCs;
    const void *tmpl = fp32 ? (beta0 ? (void *)hCf_nan : (void *)hCf_rand)
                            : (beta0 ? (void *)hC_nan : (void *)hC_rand);
    gt_case("%s%s op=%c%c m=%lld n=%lld k=%lld lda=%lld ldb=%lld ldc=%lld%s alpha=%g beta=%g "
            "ptr=%s", gt_gemm_api_name[g->api],
            !gt_gemm_api_ex(g->api) ? ""
            : fp32                  ? "[R_32F,COMPUTE_32F]"
            : g->compute == CUBLAS_COMPUTE_64F_PEDANTIC ? "[R_64F,COMPUTE_64F_PEDANTIC]"
                                                        : "[R_64F,COMPUTE_64F]",
            gt_op_char(g->ta), gt_op_char(g->tb), (long long)g->m, (long long)g->n,
            (long long)g->k, (long long)g->lda, (long long)g->ldb, (long long)g->ldc,
            gt_gemm_api_strided(g->api) ? " strided" : "", scal[ia], scal[ib],
            devptr ? "device" : "host");
    gt_h2d(Cr, tmpl, count * elsize);
    gt_h2d(Cs, tmpl, count * elsize);
    cublasPointerMode_t pm = devptr ? CUBLAS_POINTER_MODE_DEVICE : CUBLAS_POINTER_MODE_HOST;
    set_pm(pm);
    if (fp32) {
        g->alpha = devptr ? (const void *)&d_scalf[ia] : (const void *)&scalf[ia];
        g->beta = devptr ? (const void *)&d_scalf[ib] : (const void *)&scalf[ib];
    } else {
        g->alpha = devptr ? &d_scal[ia] : &scal[ia];
        g->beta = devptr ? &d_scal[ib] : &scal[ib];
    }
    g->C = Cr;
    cublasStatus_t sr = gt_run_gemm(1, h, g);
    g->C = Cs;
    cublasStatus_t ss = gt_run_gemm(0, h, g);
    gt_check_modes(h, pm, math_mode);
    if (sr != CUBLAS_STATUS_SUCCESS)
        gt_fail("real cuBLAS rejected a valid call: %s", gt_status_name(sr));
    gt_cmp_status(gt_gemm_api_name[g->api], sr, ss);
    GT_CUDA(cudaDeviceSynchronize());
    void *r = fp32 ? (void *)hrf : (void *)hr, *s = fp32 ? (void *)hsf : (void *)hs;
    gt_d2h(r, Cr, count * elsize);
    gt_d2h(s, Cs, count * elsize);
    if (!gt_cmp("C", r, s, count, elsize, g->ldc) || !beta0)
        return;
    for (int64_t b = 0; b < batch; b++)
        for (int64_t j = 0; j < g->n; j++)
            for (int64_t i = 0; i < g->m; i++) {
                size_t at = (size_t)(b * sC + j * g->ldc + i);
                if (fp32 ? isnan(hsf[at]) : isnan(hs[at])) {
                    gt_fail("C(%lld,%lld) of batch %lld is NaN with beta = 0: the NaN in C "
                            "propagated (real cuBLAS too: the outputs are bitwise equal)",
                            (long long)i, (long long)j, (long long)b);
                    return;
                }
            }
}

static void fill_dims(gt_gemm *g, int si, int pad)
{
    g->m = sizes[si][0];
    g->n = sizes[si][1];
    g->k = sizes[si][2];
    int64_t ra = g->ta == CUBLAS_OP_N ? g->m : g->k, rb = g->tb == CUBLAS_OP_N ? g->k : g->n;
    g->lda = (ra > 1 ? ra : 1) + pad;
    g->ldb = (rb > 1 ? rb : 1) + pad;
    g->ldc = (g->m > 1 ? g->m : 1) + pad;
}

/* Dgemm / Dgemm_64: every op pair, size, tight and padded ld, the full alpha x beta grid,
 * both pointer modes. */
static void gemm_full(gt_gemm_api api)
{
    gt_group("%s: ops {N,T,C}^2 x 4 sizes x ld tight/+5 x alpha,beta in {0,1,-1,0.5,3}^2 x "
             "host/device pointers", gt_gemm_api_name[api]);
    for (int oa = 0; oa < 3; oa++)
        for (int ob = 0; ob < 3; ob++)
            for (int si = 0; si < 4; si++)
                for (int pad = 0; pad <= 5; pad += 5)
                    for (int ia = 0; ia < 5; ia++)
                        for (int ib = 0; ib < 5; ib++)
                            for (int dp = 0; dp < 2; dp++) {
                                gt_gemm g = {.api = api, .ta = ops[oa], .tb = ops[ob],
                                             .A = dA, .B = dB, .batch = 1,
                                             .typeA = CUDA_R_64F, .typeB = CUDA_R_64F,
                                             .typeC = CUDA_R_64F};
                                fill_dims(&g, si, pad);
                                gemm_case(&g, ia, ib, dp);
                            }
}

/* Strided batched and Ex: every op pair and size, ld +3, five (alpha, beta) pairs, both pointer
 * modes.  Strided: batch 3, strides larger than the matrices, and B broadcast (stride 0). */
static void gemm_more(gt_gemm_api api, cudaDataType type, cublasComputeType_t compute)
{
    int strided = gt_gemm_api_strided(api), ex = gt_gemm_api_ex(api);
    gt_group("%s%s%s: ops {N,T,C}^2 x 4 sizes x ld +3 x 5 alpha,beta x host/device pointers%s",
             gt_gemm_api_name[api], ex ? " " : "",
             !ex                                   ? ""
             : type == CUDA_R_32F                  ? "R_32F/COMPUTE_32F (forwarded)"
             : compute == CUBLAS_COMPUTE_64F_PEDANTIC ? "R_64F/COMPUTE_64F_PEDANTIC (forwarded)"
                                                      : "R_64F/COMPUTE_64F",
             strided ? " x batch 3 with gaps / B stride 0" : "");
    for (int oa = 0; oa < 3; oa++)
        for (int ob = 0; ob < 3; ob++)
            for (int si = 0; si < 4; si++)
                for (int sv = 0; sv < (strided ? 2 : 1); sv++)
                    for (int p = 0; p < 5; p++)
                        for (int dp = 0; dp < 2; dp++) {
                            int fp32 = type == CUDA_R_32F;
                            gt_gemm g = {.api = api, .ta = ops[oa], .tb = ops[ob],
                                         .A = fp32 ? (void *)dAf : (void *)dA,
                                         .B = fp32 ? (void *)dBf : (void *)dB, .batch = 1,
                                         .typeA = type, .typeB = type, .typeC = type,
                                         .compute = compute, .algo = CUBLAS_GEMM_DEFAULT};
                            fill_dims(&g, si, 3);
                            if (strided) {
                                g.batch = 3;
                                g.sA = (long long)(g.lda * (g.ta == CUBLAS_OP_N ? g.k : g.m)) + 11;
                                g.sB = sv ? 0
                                          : (long long)(g.ldb * (g.tb == CUBLAS_OP_N ? g.n : g.k)) +
                                                7;
                                g.sC = (long long)(g.ldc * g.n) + 13;
                            }
                            gemm_case(&g, ab_few[p][0], ab_few[p][1], dp);
                        }
}

/* A non-default math mode must survive shimmed calls too. */
static void gemm_math_mode(void)
{
    gt_group("math mode CUBLAS_PEDANTIC_MATH kept: Dgemm, Dgemm_64, GemmEx R_32F; ops {N,T,C}^2 "
             "x 2 sizes");
    math_mode = CUBLAS_PEDANTIC_MATH;
    GT_CUBLAS(cublasSetMathMode(h, math_mode));
    const gt_gemm_api apis[3] = {GT_DGEMM, GT_DGEMM_64, GT_GEMMEX};
    for (int a = 0; a < 3; a++)
        for (int oa = 0; oa < 3; oa++)
            for (int ob = 0; ob < 3; ob++)
                for (int si = 1; si < 3; si++) {
                    int fp32 = apis[a] == GT_GEMMEX;
                    cudaDataType t = fp32 ? CUDA_R_32F : CUDA_R_64F;
                    gt_gemm g = {.api = apis[a], .ta = ops[oa], .tb = ops[ob],
                                 .A = fp32 ? (void *)dAf : (void *)dA,
                                 .B = fp32 ? (void *)dBf : (void *)dB, .batch = 1, .typeA = t,
                                 .typeB = t, .typeC = t, .compute = CUBLAS_COMPUTE_32F,
                                 .algo = CUBLAS_GEMM_DEFAULT};
                    fill_dims(&g, si, 1);
                    gemm_case(&g, 3, 2, 0);
                }
    math_mode = CUBLAS_DEFAULT_MATH;
    GT_CUBLAS(cublasSetMathMode(h, math_mode));
}

/* ---------- GEMV ---------- */

static double *dX, *dYr, *dYs, *hY, *hyr, *hys;

static void gemv_group(int is64)
{
    static const int64_t shapes[5][2] = {{1, 1}, {37, 19}, {19, 37}, {1000, 300}, {300, 1000}};
    static const int64_t incs[4] = {1, 2, -1, -3};
    gt_group("%s: ops N,T,C x 5 shapes x lda tight/+3 x inc{x,y} in {1,2,-1,-3}^2 x 5 "
             "alpha,beta x host/device pointers", gt_gemv_name(is64));
    for (int o = 0; o < 3; o++)
        for (int si = 0; si < 5; si++)
            for (int pad = 0; pad <= 3; pad += 3)
                for (int ix = 0; ix < 4; ix++)
                    for (int iy = 0; iy < 4; iy++)
                        for (int p = 0; p < 5; p++)
                            for (int dp = 0; dp < 2; dp++) {
                                int ia = ab_few[p][0], ib = ab_few[p][1];
                                int64_t m = shapes[si][0], n = shapes[si][1];
                                int64_t ylen = ops[o] == CUBLAS_OP_N ? m : n;
                                int64_t yinc = incs[iy], ainc = yinc < 0 ? -yinc : yinc;
                                gt_gemv g = {.is64 = is64, .trans = ops[o], .m = m, .n = n,
                                             .A = dA, .lda = m + pad, .x = dX + VOFF,
                                             .incx = incs[ix], .incy = yinc};
                                gt_case("%s op=%c m=%lld n=%lld lda=%lld incx=%lld incy=%lld "
                                        "alpha=%g beta=%g ptr=%s", gt_gemv_name(is64),
                                        gt_op_char(g.trans), (long long)m, (long long)n,
                                        (long long)g.lda, (long long)g.incx, (long long)g.incy,
                                        scal[ia], scal[ib], dp ? "device" : "host");
                                /* Random y; with beta = 0 its elements are NaN (guards stay
                                 * random, so stray writes show too). */
                                memcpy(hY, hC_rand, NV * sizeof *hY);
                                if (ib == 0)
                                    for (int64_t j = 0; j < ylen; j++)
                                        hY[VOFF + j * ainc] = gt_qnan();
                                gt_h2d(dYr, hY, NV * sizeof *hY);
                                gt_h2d(dYs, hY, NV * sizeof *hY);
                                cublasPointerMode_t pm =
                                    dp ? CUBLAS_POINTER_MODE_DEVICE : CUBLAS_POINTER_MODE_HOST;
                                set_pm(pm);
                                g.alpha = dp ? &d_scal[ia] : &scal[ia];
                                g.beta = dp ? &d_scal[ib] : &scal[ib];
                                g.y = dYr + VOFF;
                                cublasStatus_t sr = gt_run_gemv(1, h, &g);
                                g.y = dYs + VOFF;
                                cublasStatus_t ss = gt_run_gemv(0, h, &g);
                                gt_check_modes(h, pm, math_mode);
                                if (sr != CUBLAS_STATUS_SUCCESS)
                                    gt_fail("real cuBLAS rejected a valid call: %s",
                                            gt_status_name(sr));
                                gt_cmp_status(gt_gemv_name(is64), sr, ss);
                                gt_d2h(hyr, dYr, NV * sizeof *hyr);
                                gt_d2h(hys, dYs, NV * sizeof *hys);
                                if (!gt_cmp("y (whole buffer, y at element 4096)", hyr, hys, NV,
                                            8, 0) || ib != 0)
                                    continue;
                                for (int64_t j = 0; j < ylen; j++)
                                    if (isnan(hys[VOFF + j * ainc])) {
                                        gt_fail("y element %lld is NaN with beta = 0 (real cuBLAS "
                                                "too)", (long long)j);
                                        break;
                                    }
                            }
}

/* ---------- DOT ---------- */

static void dot_group(int is64, double *dx, double *dy, size_t off, double *d_res)
{
    static const int64_t ns[4] = {0, 1, 1000, DOT_N_MAX};
    static const int64_t incs[3] = {1, 3, -2};
    const double sentinel = -12345.678;
    gt_group("%s: n in {0,1,1000,2^20} x inc{x,y} in {1,3,-2}^2 x result host/device",
             gt_dot_name(is64));
    for (int ni = 0; ni < 4; ni++)
        for (int ix = 0; ix < 3; ix++)
            for (int iy = 0; iy < 3; iy++)
                for (int dp = 0; dp < 2; dp++) {
                    gt_dot d = {.is64 = is64, .n = ns[ni], .x = dx + off, .incx = incs[ix],
                                .y = dy + off, .incy = incs[iy]};
                    gt_case("%s n=%lld incx=%lld incy=%lld result=%s", gt_dot_name(is64),
                            (long long)d.n, (long long)d.incx, (long long)d.incy,
                            dp ? "device" : "host");
                    cublasPointerMode_t pm =
                        dp ? CUBLAS_POINTER_MODE_DEVICE : CUBLAS_POINTER_MODE_HOST;
                    set_pm(pm);
                    double res[2] = {sentinel, sentinel}, r = sentinel, s = sentinel;
                    gt_h2d(d_res, res, sizeof res);
                    d.result = dp ? &d_res[0] : &r;
                    cublasStatus_t sr = gt_run_dot(1, h, &d);
                    d.result = dp ? &d_res[1] : &s;
                    cublasStatus_t ss = gt_run_dot(0, h, &d);
                    gt_check_modes(h, pm, math_mode);
                    if (sr != CUBLAS_STATUS_SUCCESS)
                        gt_fail("real cuBLAS rejected a valid call: %s", gt_status_name(sr));
                    gt_cmp_status(gt_dot_name(is64), sr, ss);
                    if (dp) {
                        gt_d2h(res, d_res, sizeof res);
                        r = res[0];
                        s = res[1];
                    }
                    gt_cmp("result", &r, &s, 1, 8, 0);
                }
}

int main(void)
{
    gt_init("native_bitwise");
    GT_CUBLAS(cublasCreate_v2(&h));
    GT_CUBLAS(cublasSetMathMode(h, math_mode));

    d_scal = gt_dmalloc(sizeof scal);
    gt_h2d(d_scal, scal, sizeof scal);
    d_scalf = gt_dmalloc(sizeof scalf);
    gt_h2d(d_scalf, scalf, sizeof scalf);

    double *hA = gt_hmalloc(NA * sizeof *hA);
    float *hAf = gt_hmalloc(NA * sizeof *hAf);
    dA = gt_dmalloc(NA * sizeof *dA);
    dB = gt_dmalloc(NA * sizeof *dB);
    dAf = gt_dmalloc(NA * sizeof *dAf);
    dBf = gt_dmalloc(NA * sizeof *dBf);
    gt_fill(hA, NA, 1);
    gt_h2d(dA, hA, NA * sizeof *hA);
    gt_fill(hA, NA, 2);
    gt_h2d(dB, hA, NA * sizeof *hA);
    gt_fill_f(hAf, NA, 3);
    gt_h2d(dAf, hAf, NA * sizeof *hAf);
    gt_fill_f(hAf, NA, 4);
    gt_h2d(dBf, hAf, NA * sizeof *hAf);

    dCr = gt_dmalloc(NC * sizeof *dCr);
    dCs = gt_dmalloc(NC * sizeof *dCs);
    dCrf = gt_dmalloc(NC * sizeof *dCrf);
    dCsf = gt_dmalloc(NC * sizeof *dCsf);
    hC_rand = gt_hmalloc(NC * sizeof *hC_rand);
    hC_nan = gt_hmalloc(NC * sizeof *hC_nan);
    hr = gt_hmalloc(NC * sizeof *hr);
    hs = gt_hmalloc(NC * sizeof *hs);
    hCf_rand = gt_hmalloc(NC * sizeof *hCf_rand);
    hCf_nan = gt_hmalloc(NC * sizeof *hCf_nan);
    hrf = gt_hmalloc(NC * sizeof *hrf);
    hsf = gt_hmalloc(NC * sizeof *hsf);
    gt_fill(hC_rand, NC, 5);
    gt_fill_const(hC_nan, NC, gt_qnan());
    gt_fill_f(hCf_rand, NC, 6);
    for (size_t i = 0; i < NC; i++)
        hCf_nan[i] = (float)gt_qnan();

    gemm_full(GT_DGEMM);
    gemm_full(GT_DGEMM_64);
    gemm_more(GT_DGEMM_SB, CUDA_R_64F, CUBLAS_COMPUTE_64F);
    gemm_more(GT_DGEMM_SB_64, CUDA_R_64F, CUBLAS_COMPUTE_64F);
    const gt_gemm_api ex[4] = {GT_GEMMEX, GT_GEMMEX_64, GT_GEMM_SBEX, GT_GEMM_SBEX_64};
    for (int e = 0; e < 4; e++) {
        gemm_more(ex[e], CUDA_R_64F, CUBLAS_COMPUTE_64F);
        gemm_more(ex[e], CUDA_R_64F, CUBLAS_COMPUTE_64F_PEDANTIC);
        gemm_more(ex[e], CUDA_R_32F, CUBLAS_COMPUTE_32F);
    }
    gemm_math_mode();

    dX = gt_dmalloc(NV * sizeof *dX);
    dYr = gt_dmalloc(NV * sizeof *dYr);
    dYs = gt_dmalloc(NV * sizeof *dYs);
    hY = gt_hmalloc(NV * sizeof *hY);
    hyr = gt_hmalloc(NV * sizeof *hyr);
    hys = gt_hmalloc(NV * sizeof *hys);
    gt_fill(hY, NV, 7);
    gt_h2d(dX, hY, NV * sizeof *hY);
    gemv_group(0);
    gemv_group(1);

    /* Dot vectors: the largest span is 1 + (2^20 - 1) * 3; the pointers sit that far into
     * their buffers so that no reading convention for negative increments leaves them. */
    size_t off = gt_span(DOT_N_MAX, 3), nvec = 2 * off + 1;
    double *hv = gt_hmalloc(nvec * sizeof *hv);
    double *dx = gt_dmalloc(nvec * sizeof *dx), *dy = gt_dmalloc(nvec * sizeof *dy);
    gt_fill(hv, nvec, 8);
    gt_h2d(dx, hv, nvec * sizeof *hv);
    gt_fill(hv, nvec, 9);
    gt_h2d(dy, hv, nvec * sizeof *hv);
    double *d_res = gt_dmalloc(2 * sizeof *d_res);
    dot_group(0, dx, dy, off, d_res);
    dot_group(1, dx, dy, off, d_res);

    set_pm(CUBLAS_POINTER_MODE_HOST);
    GT_CUBLAS(cublasDestroy_v2(h));
    return gt_finish();
}
