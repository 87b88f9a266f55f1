/* status_matrix — invalid (and borderline) arguments: the shim returns exactly the real
 * cuBLAS status and leaves the outputs as the real cuBLAS does; and the shim's own argument
 * rules (shim/check.c, linked in statically) predict what cuBLAS does: DFS_ARGS_INVALID with
 * cuBLAS's status wherever cuBLAS rejects, anything else wherever it accepts.  Prediction
 * mismatches are printed as a table at the end (for correcting check.c).  No NULL
 * alpha/beta/A/B/C/x/y/result pointer is ever passed. */
#include "../../shim/check.h"
#include "common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NBUF (1u << 16) /* elements of every buffer */
#define STRIDE 8192     /* batch strides of the strided APIs */
#define VOFF 1024       /* where x and y start in their buffers */

#define BIG (1LL << 33) /* beyond int: only for the _64 entry points */

static cublasHandle_t h;
static double *dA, *dB, *dCr, *dCs, *hC, *hr, *hs;
static const double alpha_d = 1.5, beta_d = 2.0;
static const float alpha_f = 1.5f, beta_f = 2.0f;

/* ---------- the prediction table ---------- */

typedef struct {
    char routine[40];
    char label[320];
    cublasStatus_t real, shim;
    dfs_args pred;
    cublasStatus_t pred_status;
} mismatch;

static mismatch *mism;
static int nmism, cap_mism;
static int verbose;

static const char *args_name(dfs_args a)
{
    return a == DFS_ARGS_OK ? "OK" : a == DFS_ARGS_QUICK ? "QUICK" : "INVALID";
}

/* Checks the prediction against the real status; records and reports a mismatch. */
static void check_prediction(const char *routine, const char *label, cublasStatus_t real,
                             cublasStatus_t shim, dfs_args pred, cublasStatus_t pst)
{
    int ok = real == CUBLAS_STATUS_SUCCESS ? pred != DFS_ARGS_INVALID
                                           : pred == DFS_ARGS_INVALID && pst == real;
    if (verbose)
        printf("  %-30s %-44s real=%-16s predicted=%s%s%s\n", routine, label,
               gt_status_name(real), args_name(pred), pred == DFS_ARGS_INVALID ? "/" : "",
               pred == DFS_ARGS_INVALID ? gt_status_name(pst) : "");
    if (ok)
        return;
    gt_fail("check.c predicts %s%s%s, real cuBLAS returns %s", args_name(pred),
            pred == DFS_ARGS_INVALID ? " " : "",
            pred == DFS_ARGS_INVALID ? gt_status_name(pst) : "", gt_status_name(real));
    if (nmism == cap_mism) {
        cap_mism = cap_mism ? 2 * cap_mism : 64;
        mism = realloc(mism, (size_t)cap_mism * sizeof *mism);
        if (!mism)
            gt_fatal("out of memory");
    }
    mismatch *m = &mism[nmism++];
    snprintf(m->routine, sizeof m->routine, "%s", routine);
    snprintf(m->label, sizeof m->label, "%s", label);
    m->real = real;
    m->shim = shim;
    m->pred = pred;
    m->pred_status = pst;
}

static void print_table(void)
{
    if (!nmism) {
        printf("check.c predictions: all agree with real cuBLAS\n");
        return;
    }
    printf("check.c prediction mismatches (%d):\n", nmism);
    printf("  %-30s %-16s %-16s %-24s %s\n", "routine", "real status", "shim status",
           "check.c predicts", "case");
    for (int i = 0; i < nmism; i++) {
        const mismatch *m = &mism[i];
        char p[48];
        snprintf(p, sizeof p, "%s%s%s", args_name(m->pred), m->pred == DFS_ARGS_INVALID ? " " : "",
                 m->pred == DFS_ARGS_INVALID ? gt_status_name(m->pred_status) : "");
        printf("  %-30s %-16s %-16s %-24s %s\n", m->routine, gt_status_name(m->real),
               gt_status_name(m->shim), p, m->label);
    }
}

/* Resets both output buffers to the same contents. */
static void reset_outputs(double *r, double *s)
{
    gt_h2d(r, hC, NBUF * sizeof *hC);
    gt_h2d(s, hC, NBUF * sizeof *hC);
}

/* Compares both output buffers; when cuBLAS rejected the call, also notes a write by it. */
static void compare_outputs(const char *what, const double *r, const double *s,
                            cublasStatus_t real)
{
    GT_CUDA(cudaDeviceSynchronize());
    gt_d2h(hr, r, NBUF * sizeof *hr);
    gt_d2h(hs, s, NBUF * sizeof *hs);
    gt_cmp(what, hr, hs, NBUF, 8, 0);
    if (real != CUBLAS_STATUS_SUCCESS && memcmp(hr, hC, NBUF * sizeof *hr))
        gt_note("real cuBLAS returned %s but changed %s", gt_status_name(real), what);
}

/* ---------- GEMM ---------- */

typedef struct {
    char label[96];
    int null_handle;
    cublasOperation_t ta, tb;
    int64_t m, n, k, lda, ldb, ldc, batch;
    int only64, only_strided;
    int bad_algo_too; /* Ex: also run with a bogus algo (CUBLAS_GEMM_DEFAULT otherwise) */
} gemm_case;

static gemm_case gcases[256];
static int ngcases;

static gemm_case *add_gemm(const char *label, cublasOperation_t ta, cublasOperation_t tb)
{
    if (ngcases == (int)(sizeof gcases / sizeof gcases[0]))
        gt_fatal("too many gemm cases");
    gemm_case *c = &gcases[ngcases++];
    memset(c, 0, sizeof *c);
    c->ta = ta;
    c->tb = tb;
    c->m = 4;
    c->n = 5;
    c->k = 3;
    c->lda = ta == CUBLAS_OP_N ? c->m : c->k;
    c->ldb = tb == CUBLAS_OP_N ? c->k : c->n;
    c->ldc = c->m;
    c->batch = 2;
    snprintf(c->label, sizeof c->label, "%s op=%c%c", label, gt_op_char(ta), gt_op_char(tb));
    return c;
}

static void build_gemm_cases(void)
{
    static const cublasOperation_t ops[3] = {CUBLAS_OP_N, CUBLAS_OP_T, CUBLAS_OP_C};
    const cublasOperation_t N = CUBLAS_OP_N, T = CUBLAS_OP_T;
    gemm_case *c;
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) {
            add_gemm("valid, tight ld", ops[a], ops[b])->bad_algo_too = a == 0 && b == 0;
            c = add_gemm("lda = needed - 1", ops[a], ops[b]);
            c->lda--;
            c = add_gemm("ldb = needed - 1", ops[a], ops[b]);
            c->ldb--;
            c = add_gemm("ldc = m - 1", ops[a], ops[b]);
            c->ldc--;
        }
    c = add_gemm("valid, lda = ldb = ldc = 1000", N, N);
    c->lda = c->ldb = c->ldc = 1000;
    (c = add_gemm("m = -1", N, N))->m = -1;
    c->bad_algo_too = 1;
    (c = add_gemm("n = -1", N, N))->n = -1;
    (c = add_gemm("k = -1", N, N))->k = -1;
    (c = add_gemm("k = -1", T, T))->k = -1;
    (c = add_gemm("m = -1 and lda too small", N, N))->m = -1;
    c->lda = 0;
    (c = add_gemm("transa = 7", N, N))->ta = (cublasOperation_t)7;
    (c = add_gemm("transb = 7", N, N))->tb = (cublasOperation_t)7;
    (c = add_gemm("transa = 3 (CUBLAS_OP_CONJG)", N, N))->ta = CUBLAS_OP_CONJG;
    (c = add_gemm("transb = 3 (CUBLAS_OP_CONJG)", N, N))->tb = CUBLAS_OP_CONJG;
    (c = add_gemm("transa = 7 and m = -1", N, N))->ta = (cublasOperation_t)7;
    c->m = -1;
    /* Empty shapes and their leading dimensions. */
    c = add_gemm("m = 0, lda = ldc = 1", N, N);
    c->bad_algo_too = 1;
    c->m = 0;
    c->lda = c->ldc = 1;
    c = add_gemm("m = 0, lda = ldc = 0", N, N);
    c->m = 0;
    c->lda = c->ldc = 0;
    c = add_gemm("n = 0, ldb = 1", N, T);
    c->n = 0;
    c->ldb = 1;
    c = add_gemm("n = 0, ldb = 0", N, T);
    c->n = 0;
    c->ldb = 0;
    c = add_gemm("k = 0 (C = beta*C), lda = ldb = 1", T, N);
    c->bad_algo_too = 1;
    c->k = 0;
    c->lda = c->ldb = 1;
    c = add_gemm("k = 0 (C = beta*C), lda = ldb = 0", T, N);
    c->k = 0;
    c->lda = c->ldb = 0;
    c = add_gemm("k = 0, ldc = m - 1", N, N);
    c->k = 0;
    c->ldc = c->m - 1;
    c = add_gemm("m = n = k = 0, all ld 0", N, N);
    c->m = c->n = c->k = 0;
    c->lda = c->ldb = c->ldc = 0;
    c = add_gemm("m = 0 and k = -1", N, N);
    c->m = 0;
    c->k = -1;
    c = add_gemm("n = 0 and lda too small", N, N);
    c->n = 0;
    c->lda--;
    /* Handles. */
    (c = add_gemm("NULL handle", N, N))->null_handle = 1;
    (c = add_gemm("NULL handle and m = -1", N, N))->null_handle = 1;
    c->m = -1;
    (c = add_gemm("NULL handle and transa = 7", N, N))->null_handle = 1;
    c->ta = (cublasOperation_t)7;
    (c = add_gemm("NULL handle and lda too small", N, N))->null_handle = 1;
    c->lda--;
    /* Batches. */
    (c = add_gemm("batch = -1", N, N))->only_strided = 1;
    c->batch = -1;
    (c = add_gemm("batch = 0", N, N))->only_strided = 1;
    c->bad_algo_too = 1;
    c->batch = 0;
    (c = add_gemm("batch = 0 and lda too small", N, N))->only_strided = 1;
    c->batch = 0;
    c->lda--;
    (c = add_gemm("batch = -1 and m = 0", N, N))->only_strided = 1;
    c->batch = -1;
    c->m = 0;
    c->ldc = 1;
    (c = add_gemm("batch = 0 and m = -1", N, N))->only_strided = 1;
    c->batch = 0;
    c->m = -1;
    (c = add_gemm("NULL handle and batch = -1", N, N))->only_strided = 1;
    c->null_handle = 1;
    c->batch = -1;
    /* Beyond int (the _64 entry points only); all rejected for a too small ld. */
    (c = add_gemm("m = 2^33, lda = ldc = 4", N, N))->only64 = 1;
    c->m = BIG;
    (c = add_gemm("k = 2^33, ldb = 3", N, N))->only64 = 1;
    c->k = BIG;
    (c = add_gemm("n = 2^33, ldb = 3", N, T))->only64 = 1;
    c->n = BIG;
    (c = add_gemm("lda = 2^33, m = -1", N, N))->only64 = 1;
    c->lda = BIG;
    c->m = -1;
}

/* Ex-only variants on top of a case: an FP64 product (predicted) or something forwarded. */
typedef enum { EX_FP64, EX_FP64_BAD_ALGO, EX_FP64_PEDANTIC, EX_FP32, EX_MIXED, EX_COUNT } ex_kind;
static const char *const ex_kind_name[EX_COUNT] = {
    "R_64F/COMPUTE_64F", "R_64F/COMPUTE_64F algo=9999", "R_64F/COMPUTE_64F_PEDANTIC",
    "R_32F/COMPUTE_32F", "A R_32F, B/C R_64F, COMPUTE_64F"};

static void run_gemm_case(gt_gemm_api api, const gemm_case *c, ex_kind kind)
{
    int ex = gt_gemm_api_ex(api);
    int predicted = !ex || kind == EX_FP64 || kind == EX_FP64_BAD_ALGO;
    int fp32_scalars = ex && kind == EX_FP32;
    cudaDataType ta = CUDA_R_64F, tc = CUDA_R_64F;
    cublasComputeType_t ct = CUBLAS_COMPUTE_64F;
    cublasGemmAlgo_t algo = CUBLAS_GEMM_DEFAULT;
    if (ex && kind == EX_FP64_BAD_ALGO)
        algo = (cublasGemmAlgo_t)9999;
    if (ex && kind == EX_FP64_PEDANTIC)
        ct = CUBLAS_COMPUTE_64F_PEDANTIC;
    if (ex && kind == EX_FP32) {
        ta = tc = CUDA_R_32F;
        ct = CUBLAS_COMPUTE_32F;
    }
    if (ex && kind == EX_MIXED)
        ta = CUDA_R_32F;
    char label[320];
    snprintf(label, sizeof label, "%.95s m=%lld n=%lld k=%lld lda=%lld ldb=%lld ldc=%lld%s%s%s%s",
             c->label, (long long)c->m, (long long)c->n, (long long)c->k, (long long)c->lda,
             (long long)c->ldb, (long long)c->ldc, gt_gemm_api_strided(api) ? " batch=" : "",
             gt_gemm_api_strided(api) ? (c->batch < 0 ? "-1" : c->batch == 0 ? "0" : "2") : "",
             ex ? " " : "", ex ? ex_kind_name[kind] : "");
    gt_case("%s %s", gt_gemm_api_name[api], label);
    cublasHandle_t hh = c->null_handle ? NULL : h;
    gt_gemm g = {.api = api, .ta = c->ta, .tb = c->tb, .m = c->m, .n = c->n, .k = c->k,
                 .lda = c->lda, .ldb = c->ldb, .ldc = c->ldc, .sA = STRIDE, .sB = STRIDE,
                 .sC = STRIDE, .batch = gt_gemm_api_strided(api) ? c->batch : 1,
                 .typeA = ta, .typeB = tc, .typeC = tc, .compute = ct, .algo = algo,
                 .alpha = fp32_scalars ? (const void *)&alpha_f : (const void *)&alpha_d,
                 .beta = fp32_scalars ? (const void *)&beta_f : (const void *)&beta_d,
                 .A = dA, .B = dB};
    reset_outputs(dCr, dCs);
    g.C = dCr;
    cublasStatus_t sr = gt_run_gemm(1, hh, &g);
    g.C = dCs;
    cublasStatus_t ss = gt_run_gemm(0, hh, &g);
    gt_cmp_status(gt_gemm_api_name[api], sr, ss);
    compare_outputs("C buffer", dCr, dCs, sr);
    if (!c->null_handle)
        gt_check_modes(h, CUBLAS_POINTER_MODE_HOST, CUBLAS_DEFAULT_MATH);
    if (predicted) {
        cublasStatus_t pst;
        dfs_args pa = dfs_check_gemm(hh, gt_gemm_api_ex(api), c->ta, c->tb, c->m, c->n, c->k,
                                     c->lda, c->ldb, c->ldc, g.batch, algo, &pst);
        check_prediction(gt_gemm_api_name[api], label, sr, ss, pa, pst);
    } else if (verbose) {
        printf("  %-30s %-44s real=%-16s (forwarded, no prediction)\n", gt_gemm_api_name[api],
               label, gt_status_name(sr));
    }
}

static int applies(gt_gemm_api api, const gemm_case *c)
{
    return (!c->only64 || gt_gemm_api_is64(api)) &&
           (!c->only_strided || gt_gemm_api_strided(api));
}

static void gemm_groups(void)
{
    build_gemm_cases();
    for (int a = 0; a < GT_GEMM_API_COUNT; a++) {
        gt_gemm_api api = (gt_gemm_api)a;
        int ex = gt_gemm_api_ex(api), n = 0;
        for (int i = 0; i < ngcases; i++)
            n += applies(api, &gcases[i]);
        gt_group("%s: %d argument cases%s", gt_gemm_api_name[api], n,
                 ex ? " x {FP64, pedantic, FP32, mixed types} (+ a bogus algo for a few)" : "");
        for (int i = 0; i < ngcases; i++) {
            const gemm_case *c = &gcases[i];
            if (!applies(api, c))
                continue;
            for (int k = 0; k < (ex ? EX_COUNT : 1); k++)
                if (k != EX_FP64_BAD_ALGO || c->bad_algo_too)
                    run_gemm_case(api, c, (ex_kind)k);
        }
    }
}

/* ---------- GEMV ---------- */

typedef struct {
    char label[96];
    int null_handle, only64;
    cublasOperation_t trans;
    int64_t m, n, lda, incx, incy;
} gemv_case;

static void gemv_groups(void)
{
    static const cublasOperation_t ops[3] = {CUBLAS_OP_N, CUBLAS_OP_T, CUBLAS_OP_C};
    gemv_case cs[64];
    int nc = 0;
#define GV(lbl, nh, o64, tr, m_, n_, lda_, ix, iy)                                                 \
    cs[nc++] = (gemv_case){lbl, nh, o64, tr, m_, n_, lda_, ix, iy}
    for (int o = 0; o < 3; o++) {
        GV("valid", 0, 0, ops[o], 5, 4, 5, 1, 1);
        GV("valid, incx = -2, incy = -3", 0, 0, ops[o], 5, 4, 5, -2, -3);
        GV("lda = m - 1", 0, 0, ops[o], 5, 4, 4, 1, 1);
        GV("lda = n - 1 < m", 0, 0, ops[o], 5, 4, 3, 1, 1);
        GV("m = -1", 0, 0, ops[o], -1, 4, 5, 1, 1);
        GV("n = -1", 0, 0, ops[o], 5, -1, 5, 1, 1);
        GV("incx = 0", 0, 0, ops[o], 5, 4, 5, 0, 1);
        GV("incy = 0", 0, 0, ops[o], 5, 4, 5, 1, 0);
        GV("m = 0, lda = 1", 0, 0, ops[o], 0, 4, 1, 1, 1);
        GV("m = 0, lda = 0", 0, 0, ops[o], 0, 4, 0, 1, 1);
        GV("n = 0", 0, 0, ops[o], 5, 0, 5, 1, 1);
        GV("m = 0 and incx = 0", 0, 0, ops[o], 0, 4, 1, 0, 1);
        GV("n = 0 and lda too small", 0, 0, ops[o], 5, 0, 4, 1, 1);
    }
    GV("trans = 7", 0, 0, (cublasOperation_t)7, 5, 4, 5, 1, 1);
    GV("trans = 3 (CUBLAS_OP_CONJG)", 0, 0, CUBLAS_OP_CONJG, 5, 4, 5, 1, 1);
    GV("trans = 7 and incx = 0", 0, 0, (cublasOperation_t)7, 5, 4, 5, 0, 1);
    GV("NULL handle", 1, 0, CUBLAS_OP_N, 5, 4, 5, 1, 1);
    GV("NULL handle and incx = 0", 1, 0, CUBLAS_OP_N, 5, 4, 5, 0, 1);
    GV("NULL handle and m = -1", 1, 0, CUBLAS_OP_N, -1, 4, 5, 1, 1);
    /* Not "m = 2^33, lda = 5": cuBLAS 13.1's Dgemv_v2_64 does not reject it and ran past the
     * test's time limit (seen on an H200). */
    GV("incx = 2^33, m = -1", 0, 1, CUBLAS_OP_N, -1, 4, 5, BIG, 1);
#undef GV
    double *dx = dA, *dyr = dCr, *dys = dCs;
    for (int is64 = 0; is64 < 2; is64++) {
        int n = 0;
        for (int i = 0; i < nc; i++)
            n += is64 || !cs[i].only64;
        gt_group("%s: %d argument cases", gt_gemv_name(is64), n);
        for (int i = 0; i < nc; i++) {
            const gemv_case *c = &cs[i];
            if (c->only64 && !is64)
                continue;
            char label[320];
            snprintf(label, sizeof label, "%.95s op=%c m=%lld n=%lld lda=%lld incx=%lld incy=%lld",
                     c->label, gt_op_char(c->trans), (long long)c->m, (long long)c->n,
                     (long long)c->lda, (long long)c->incx, (long long)c->incy);
            gt_case("%s %s", gt_gemv_name(is64), label);
            cublasHandle_t hh = c->null_handle ? NULL : h;
            gt_gemv g = {.is64 = is64, .trans = c->trans, .m = c->m, .n = c->n, .alpha = &alpha_d,
                         .A = dB, .lda = c->lda, .x = dx + VOFF, .incx = c->incx,
                         .beta = &beta_d, .incy = c->incy};
            reset_outputs(dyr, dys);
            g.y = dyr + VOFF;
            cublasStatus_t sr = gt_run_gemv(1, hh, &g);
            g.y = dys + VOFF;
            cublasStatus_t ss = gt_run_gemv(0, hh, &g);
            gt_cmp_status(gt_gemv_name(is64), sr, ss);
            compare_outputs("y buffer", dyr, dys, sr);
            cublasStatus_t pst;
            dfs_args pa = dfs_check_gemv(hh, c->trans, c->m, c->n, c->lda, c->incx, c->incy, &pst);
            check_prediction(gt_gemv_name(is64), label, sr, ss, pa, pst);
        }
    }
}

/* ---------- DOT ---------- */

static void dot_groups(void)
{
    typedef struct {
        const char *label;
        int null_handle;
        int64_t n, incx, incy;
    } dot_case;
    static const dot_case cs[] = {
        {"valid", 0, 5, 1, 1},
        {"valid, incx = -1, incy = -2", 0, 5, -1, -2},
        {"n = 0", 0, 0, 1, 1},
        {"n = -1", 0, -1, 1, 1},
        {"incx = 0", 0, 5, 0, 1},
        {"incy = 0", 0, 5, 1, 0},
        {"n = 0 and incx = 0", 0, 0, 0, 1},
        {"NULL handle", 1, 5, 1, 1},
        {"NULL handle and n = -1", 1, -1, 1, 1},
        {"NULL handle and n = 0", 1, 0, 1, 1},
    };
    const int nc = (int)(sizeof cs / sizeof cs[0]);
    const double sentinel = -12345.678;
    double *d_res = gt_dmalloc(2 * sizeof *d_res);
    for (int is64 = 0; is64 < 2; is64++) {
        gt_group("%s: %d argument cases x result host/device", gt_dot_name(is64), nc);
        for (int i = 0; i < nc; i++)
            for (int dp = 0; dp < 2; dp++) {
                const dot_case *c = &cs[i];
                if (dp && c->null_handle)
                    continue; /* no pointer mode to set on a NULL handle */
                char label[320];
                snprintf(label, sizeof label, "%.95s n=%lld incx=%lld incy=%lld result=%s",
                         c->label,
                         (long long)c->n, (long long)c->incx, (long long)c->incy,
                         dp ? "device" : "host");
                gt_case("%s %s", gt_dot_name(is64), label);
                cublasHandle_t hh = c->null_handle ? NULL : h;
                cublasPointerMode_t pm = dp ? CUBLAS_POINTER_MODE_DEVICE : CUBLAS_POINTER_MODE_HOST;
                GT_CUBLAS(cublasSetPointerMode_v2(h, pm));
                double res[2] = {sentinel, sentinel}, r = sentinel, s = sentinel;
                gt_h2d(d_res, res, sizeof res);
                gt_dot d = {.is64 = is64, .n = c->n, .x = dA + VOFF, .incx = c->incx,
                            .y = dB + VOFF, .incy = c->incy};
                d.result = dp ? &d_res[0] : &r;
                cublasStatus_t sr = gt_run_dot(1, hh, &d);
                d.result = dp ? &d_res[1] : &s;
                cublasStatus_t ss = gt_run_dot(0, hh, &d);
                gt_cmp_status(gt_dot_name(is64), sr, ss);
                gt_check_modes(h, pm, CUBLAS_DEFAULT_MATH);
                GT_CUDA(cudaDeviceSynchronize());
                if (dp) {
                    gt_d2h(res, d_res, sizeof res);
                    r = res[0];
                    s = res[1];
                }
                gt_cmp("result", &r, &s, 1, 8, 0);
                cublasStatus_t pst;
                dfs_args pa = dfs_check_dot(hh, c->n, d.result, &pst);
                check_prediction(gt_dot_name(is64), label, sr, ss, pa, pst);
            }
    }
    GT_CUBLAS(cublasSetPointerMode_v2(h, CUBLAS_POINTER_MODE_HOST));
    GT_CUDA(cudaFree(d_res));
}

int main(void)
{
    gt_init("status_matrix");
    const char *v = getenv("GT_VERBOSE");
    verbose = v && *v && strcmp(v, "0");
    GT_CUBLAS(cublasCreate_v2(&h));
    dA = gt_dmalloc(NBUF * sizeof *dA);
    dB = gt_dmalloc(NBUF * sizeof *dB);
    dCr = gt_dmalloc(NBUF * sizeof *dCr);
    dCs = gt_dmalloc(NBUF * sizeof *dCs);
    hC = gt_hmalloc(NBUF * sizeof *hC);
    hr = gt_hmalloc(NBUF * sizeof *hr);
    hs = gt_hmalloc(NBUF * sizeof *hs);
    gt_fill(hC, NBUF, 11);
    gt_h2d(dA, hC, NBUF * sizeof *hC);
    gt_fill(hC, NBUF, 12);
    gt_h2d(dB, hC, NBUF * sizeof *hC);
    gt_fill(hC, NBUF, 13);

    gemm_groups();
    gemv_groups();
    dot_groups();
    gt_end_group();
    print_table();

    GT_CUBLAS(cublasDestroy_v2(h));
    return gt_finish();
}
