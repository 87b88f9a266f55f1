/* lt_matmul — cublasLtMatmul on FP64 matrices through the shim (JAX/XLA's and PyTorch's path to
 * FP64 products), in the engine that EXBLAS_MODE names.
 *
 * Each case builds A, B, C in column- or row-major order (all combinations of A's, B's and
 * C/D's order), ops N, T, C, batches of 1 and 3, C = D or C != D with another leading
 * dimension, alpha and beta on the host or the device, beta = 0 or not; D starts as a sentinel
 * wherever the product does not write.  Checked:
 *   - native mode: D and the status bit for bit those of the real cublasLtMatmul (found with
 *     dlsym on libcublasLt's own handle) on the same arguments;
 *   - an engine: every entry within 2^-36 of sum |alpha a b| + |beta c| of a long double
 *     reference (a mistaken layout, transposition or batch gives errors of order 1), and bit
 *     for bit what the same engine gives through cublasDgemm_v2 on column-major copies of
 *     op(A), op(B), C in repro mode (correctly rounded: one answer) and dd mode (its order is
 *     the same for every storage, and a product's terms commute exactly), and in int8 mode
 *     when D is column-major (its results do not depend on the storage of op(A) and op(B));
 *   - D's padding (between the rows stored and the leading dimension, and between batches)
 *     still holds the sentinel;
 *   - the trace: each such call names cublasLtMatmul and the engine (not native), and calls the
 *     shim must not take (an epilogue, pedantic compute, FP32, mismatched dimensions, alpha and
 *     beta vectors) are forwarded, with D and the status bit for bit the real library's. */
#include "common.h"
#include "lt_layout.h"

#include <cublasLt.h>
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SENTINEL (-1234.5)

static __typeof__(&cublasLtMatmul) real_lt;
static const char *mode;
static int native, engine_bitwise_any, engine_bitwise_col;
static char log_path[256];
static long log_seen;

/* The trace lines written since the last call, into buf. */
static void new_log(char *buf, size_t len)
{
    buf[0] = 0;
    FILE *f = fopen(log_path, "r");
    if (!f)
        return;
    fseek(f, log_seen, SEEK_SET);
    size_t n = fread(buf, 1, len - 1, f);
    buf[n] = 0;
    log_seen = ftell(f);
    fclose(f);
}

static void skip_log(void)
{
    FILE *f = fopen(log_path, "r");
    if (f && fseek(f, 0, SEEK_END) == 0)
        log_seen = ftell(f);
    if (f)
        fclose(f);
}

static void expect_trace(int taken)
{
    static char buf[1 << 16];
    new_log(buf, sizeof buf);
    const char *line = strstr(buf, "cublasLtMatmul");
    if (!line) {
        gt_fail("no cublasLtMatmul line in the trace");
        return;
    }
    const char *end = strchr(line, '\n');
    int len = end ? (int)(end - line) : (int)strlen(line);
    if (!taken) {
        if (!strstr(buf, "cublasLtMatmul -> forwarded ("))
            gt_fail("not forwarded: %.*s", len, line);
    } else if (strncmp(line, "cublasLtMatmul op=", 18) || (!native && strstr(line, "-> native")))
        gt_fail("not computed by the %s engine: %.*s", mode, len, line);
}

typedef struct {
    cublasOperation_t ta, tb;
    int oa, ob, od;       /* orders */
    int batch, c_is_d, dev_ptr;
    double alpha, beta;
    int64_t m, n, k;
} lt_case;

static cublasLtHandle_t lt;
static cublasHandle_t h;

/* The shim's cublasDgemm_v2 on column-major copies of op(A), op(B) and C, into R (logical). */
static void via_dgemm(const lt_case *c, const lay *la, const lay *lb, const lay *lc,
                      const double *A, const double *B, const double *C, double *R)
{
    const int64_t m = c->m, n = c->n, k = c->k;
    double *a = malloc(sizeof(double) * m * k), *b = malloc(sizeof(double) * k * n);
    double *cc = malloc(sizeof(double) * m * n);
    double *da = gt_dmalloc(sizeof(double) * m * k), *db = gt_dmalloc(sizeof(double) * k * n);
    double *dc = gt_dmalloc(sizeof(double) * m * n);
    GT_CUBLAS(cublasSetPointerMode_v2(h, CUBLAS_POINTER_MODE_HOST));
    for (int q = 0; q < c->batch; q++) {
        for (int64_t i = 0; i < m; i++)
            for (int64_t p = 0; p < k; p++)
                a[i + p * m] = A[c->ta == CUBLAS_OP_N ? at(la, q, i, p) : at(la, q, p, i)];
        for (int64_t p = 0; p < k; p++)
            for (int64_t j = 0; j < n; j++)
                b[p + j * k] = B[c->tb == CUBLAS_OP_N ? at(lb, q, p, j) : at(lb, q, j, p)];
        for (int64_t i = 0; i < m; i++)
            for (int64_t j = 0; j < n; j++)
                cc[i + j * m] = C[at(lc, q, i, j)];
        gt_h2d(da, a, sizeof(double) * m * k);
        gt_h2d(db, b, sizeof(double) * k * n);
        gt_h2d(dc, cc, sizeof(double) * m * n);
        GT_CUBLAS(cublasDgemm_v2(h, CUBLAS_OP_N, CUBLAS_OP_N, (int)m, (int)n, (int)k, &c->alpha,
                                 da, (int)m, db, (int)k, &c->beta, dc, (int)m));
        gt_d2h(R + (size_t)q * m * n, dc, sizeof(double) * m * n);
    }
    free(a), free(b), free(cc);
    cudaFree(da), cudaFree(db), cudaFree(dc);
}

static void run_case(const lt_case *c)
{
    const int64_t m = c->m, n = c->n, k = c->k;
    const char on[2] = {'C', 'R'};
    gt_case("op=%c%c order A%c B%c D%c m=%lld n=%lld k=%lld batch=%d %s %s alpha=%g beta=%g",
            gt_op_char(c->ta), gt_op_char(c->tb), on[c->oa], on[c->ob], on[c->od], (long long)m,
            (long long)n, (long long)k, c->batch, c->c_is_d ? "C=D" : "C!=D",
            c->dev_ptr ? "device" : "host", c->alpha, c->beta);
    lay la = make_lay(c->oa, c->ta == CUBLAS_OP_N ? m : k, c->ta == CUBLAS_OP_N ? k : m, 3,
                      c->batch, 5);
    lay lb = make_lay(c->ob, c->tb == CUBLAS_OP_N ? k : n, c->tb == CUBLAS_OP_N ? n : k, 1,
                      c->batch, 5);
    lay lc = make_lay(c->od, m, n, 2, c->batch, 5);
    lay ld = c->c_is_d ? lc : make_lay(c->od, m, n, 4, c->batch, 5);
    const size_t na = elems(&la), nb = elems(&lb), nc = elems(&lc), nd = elems(&ld);
    double *A = gt_hmalloc(na * 8), *B = gt_hmalloc(nb * 8), *C = gt_hmalloc(nc * 8);
    double *D0 = gt_hmalloc(nd * 8), *D = gt_hmalloc(nd * 8), *R = gt_hmalloc(nd * 8);
    gt_fill(A, na, 11 + (uint64_t)c->batch);
    gt_fill(B, nb, 12 + (uint64_t)c->oa);
    gt_fill_const(C, nc, SENTINEL);
    uint64_t s = 13;
    for (int q = 0; q < c->batch; q++)
        for (int64_t i = 0; i < m; i++)
            for (int64_t j = 0; j < n; j++)
                C[at(&lc, q, i, j)] = (double)(gt_rand(&s) >> 11) * 0x1p-53 - 0.5;
    if (c->c_is_d)
        memcpy(D0, C, nd * 8);
    else
        gt_fill_const(D0, nd, SENTINEL);

    double *dA = gt_dmalloc(na * 8), *dB = gt_dmalloc(nb * 8), *dC = gt_dmalloc(nc * 8);
    double *dD = c->c_is_d ? dC : gt_dmalloc(nd * 8), *dS = gt_dmalloc(16);
    gt_h2d(dA, A, na * 8), gt_h2d(dB, B, nb * 8), gt_h2d(dC, C, nc * 8);
    const double scal[2] = {c->alpha, c->beta};
    gt_h2d(dS, scal, 16);

    cublasLtMatmulDesc_t desc;
    GT_CUBLAS(cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_64F, CUDA_R_64F));
    int32_t ta = c->ta, tb = c->tb, pm = c->dev_ptr ? CUBLASLT_POINTER_MODE_DEVICE
                                                    : CUBLASLT_POINTER_MODE_HOST;
    GT_CUBLAS(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSA, &ta, 4));
    GT_CUBLAS(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSB, &tb, 4));
    GT_CUBLAS(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_POINTER_MODE, &pm, 4));
    cublasLtMatrixLayout_t lA = lt_layout(&la, CUDA_R_64F), lB = lt_layout(&lb, CUDA_R_64F);
    cublasLtMatrixLayout_t lC = lt_layout(&lc, CUDA_R_64F), lD = lt_layout(&ld, CUDA_R_64F);
    const void *alpha = c->dev_ptr ? (const void *)dS : &scal[0];
    const void *beta = c->dev_ptr ? (const void *)(dS + 1) : &scal[1];
    size_t ws_size = 32 << 20;
    void *ws = gt_dmalloc(ws_size);

    /* through the shim */
    gt_h2d(dD, D0, nd * 8);
    if (c->c_is_d)
        gt_h2d(dC, C, nc * 8);
    cublasStatus_t st = cublasLtMatmul(lt, desc, alpha, dA, lA, dB, lB, beta, dC, lC, dD, lD,
                                       NULL, ws, ws_size, 0);
    GT_CUDA(cudaDeviceSynchronize());
    gt_d2h(D, dD, nd * 8);
    expect_trace(1);
    if (st != CUBLAS_STATUS_SUCCESS)
        gt_fail("status %s", gt_status_name(st));

    if (native) {
        gt_h2d(dD, D0, nd * 8);
        if (c->c_is_d)
            gt_h2d(dC, C, nc * 8);
        cublasStatus_t rs = real_lt(lt, desc, alpha, dA, lA, dB, lB, beta, dC, lC, dD, lD, NULL,
                                    ws, ws_size, 0);
        GT_CUDA(cudaDeviceSynchronize());
        gt_d2h(R, dD, nd * 8);
        gt_cmp_status("cublasLtMatmul", rs, st);
        gt_cmp("D", R, D, nd, 8, 0);
    } else {
        /* padding untouched */
        size_t bad = 0;
        for (size_t e = 0; e < nd; e++) {
            int64_t q = ld.batch > 1 ? (int64_t)(e / (size_t)ld.stride) : 0;
            int64_t off = (int64_t)e - q * ld.stride;
            int in = q < ld.batch && off < ld.ld * scols(&ld) && off % ld.ld < srows(&ld);
            if (!in && D[e] != D0[e] && bad++ == 0)
                gt_fail("D[%zu], outside the product, changed from %g to %g", e, D0[e], D[e]);
        }
        /* accuracy against long double */
        double worst = 0;
        for (int q = 0; q < c->batch; q++)
            for (int64_t i = 0; i < m; i++)
                for (int64_t j = 0; j < n; j++) {
                    long double sum = 0, mag = 0;
                    for (int64_t p = 0; p < k; p++) {
                        long double a = A[c->ta == CUBLAS_OP_N ? at(&la, q, i, p) : at(&la, q, p, i)];
                        long double b = B[c->tb == CUBLAS_OP_N ? at(&lb, q, p, j) : at(&lb, q, j, p)];
                        sum += a * b;
                        mag += fabsl(a * b);
                    }
                    long double cv = c->beta != 0 ? C[at(&lc, q, i, j)] : 0;
                    long double ref = c->alpha * sum + c->beta * cv;
                    long double S = fabsl(c->alpha) * mag + fabsl(c->beta * cv);
                    double err = (double)(fabsl((long double)D[at(&ld, q, i, j)] - ref) / S);
                    if (!(err <= worst))
                        worst = err;
                }
        if (!(worst <= 0x1p-36))
            gt_fail("error %.3g of sum |terms| (allowed 2^-36)", worst);
        if (engine_bitwise_any || (engine_bitwise_col && c->od == CUBLASLT_ORDER_COL)) {
            via_dgemm(c, &la, &lb, &lc, A, B, C, R);
            size_t diff = 0, first = 0;
            for (int q = 0; q < c->batch; q++)
                for (int64_t j = 0; j < n; j++)
                    for (int64_t i = 0; i < m; i++) {
                        double want = R[(size_t)q * m * n + i + j * m];
                        double got = D[at(&ld, q, i, j)];
                        if (memcmp(&want, &got, 8) && diff++ == 0)
                            first = (size_t)q * m * n + i + j * m;
                    }
            if (diff)
                gt_fail("%zu entries differ from cublasDgemm_v2's in this engine (first: "
                        "batch-major index %zu)", diff, first);
            skip_log(); /* cublasDgemm_v2's lines */
        }
    }
    cublasLtMatmulDescDestroy(desc);
    cublasLtMatrixLayoutDestroy(lA), cublasLtMatrixLayoutDestroy(lB);
    cublasLtMatrixLayoutDestroy(lC), cublasLtMatrixLayoutDestroy(lD);
    cudaFree(dA), cudaFree(dB), cudaFree(dC), cudaFree(dS), cudaFree(ws);
    if (!c->c_is_d)
        cudaFree(dD);
    free(A), free(B), free(C), free(D0), free(D), free(R);
}

/* A call the shim must forward: D and status bit for bit the real library's. */
typedef enum { F_EPILOGUE, F_PEDANTIC, F_FP32, F_DIMS, F_VECTOR, F_COUNT } fwd_kind;
static const char *const fwd_name[F_COUNT] = {"epilogue RELU", "CUBLAS_COMPUTE_64F_PEDANTIC",
                                              "FP32", "k of A != k of B", "alpha vector"};

static void run_forwarded(fwd_kind f)
{
    gt_case("forwarded: %s", fwd_name[f]);
    const int64_t m = 40, n = 24, k = 33;
    const int fp32 = f == F_FP32;
    const size_t e = fp32 ? 4 : 8;
    const cudaDataType t = fp32 ? CUDA_R_32F : CUDA_R_64F;
    double hA[40 * 33], hB[33 * 24], hD[40 * 24], hS[40 * 24], hR[40 * 24];
    gt_fill(hA, 40 * 33, 21), gt_fill(hB, 33 * 24, 22), gt_fill(hD, 40 * 24, 23);
    void *dA = gt_dmalloc(sizeof hA), *dB = gt_dmalloc(sizeof hB), *dD = gt_dmalloc(sizeof hD);
    double *dv = gt_dmalloc(8 * 40);
    gt_h2d(dA, hA, sizeof hA), gt_h2d(dB, hB, sizeof hB);
    cublasLtMatmulDesc_t desc;
    GT_CUBLAS(cublasLtMatmulDescCreate(&desc, f == F_PEDANTIC ? CUBLAS_COMPUTE_64F_PEDANTIC
                                              : fp32          ? CUBLAS_COMPUTE_32F
                                                              : CUBLAS_COMPUTE_64F,
                                       fp32 ? CUDA_R_32F : CUDA_R_64F));
    if (f == F_EPILOGUE) {
        uint32_t ep = CUBLASLT_EPILOGUE_RELU;
        GT_CUBLAS(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &ep, 4));
    }
    if (f == F_VECTOR) {
        int32_t pm = CUBLASLT_POINTER_MODE_ALPHA_DEVICE_VECTOR_BETA_HOST;
        GT_CUBLAS(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_POINTER_MODE, &pm, 4));
        double v[40];
        for (int i = 0; i < 40; i++)
            v[i] = 1.0 + i / 8.0;
        gt_h2d(dv, v, sizeof v);
    }
    cublasLtMatrixLayout_t lA, lB, lD;
    GT_CUBLAS(cublasLtMatrixLayoutCreate(&lA, t, m, f == F_DIMS ? k + 1 : k, m));
    GT_CUBLAS(cublasLtMatrixLayoutCreate(&lB, t, k, n, k));
    GT_CUBLAS(cublasLtMatrixLayoutCreate(&lD, t, m, n, m));
    const double one = 1.0, half = 0.5;
    const float onef = 1.0f, halff = 0.5f;
    const void *alpha = f == F_VECTOR ? (const void *)dv : fp32 ? (const void *)&onef : &one;
    const void *beta = fp32 ? (const void *)&halff : &half;
    double *out[2] = {hS, hR};
    cublasStatus_t st[2];
    for (int r = 0; r < 2; r++) {
        gt_h2d(dD, hD, sizeof hD);
        st[r] = (r ? real_lt : cublasLtMatmul)(lt, desc, alpha, dA, lA, dB, lB, beta, dD, lD, dD,
                                               lD, NULL, NULL, 0, 0);
        GT_CUDA(cudaDeviceSynchronize());
        if (r == 0)
            expect_trace(0);
        gt_d2h(out[r], dD, sizeof hD);
    }
    gt_cmp_status("cublasLtMatmul", st[1], st[0]);
    gt_cmp("D", hR, hS, (size_t)m * n * e / 8, 8, 0);
    cublasLtMatmulDescDestroy(desc);
    cublasLtMatrixLayoutDestroy(lA), cublasLtMatrixLayoutDestroy(lB), cublasLtMatrixLayoutDestroy(lD);
    cudaFree(dA), cudaFree(dB), cudaFree(dD), cudaFree(dv);
}

int main(void)
{
    snprintf(log_path, sizeof log_path, "/tmp/dfshim-lt-%d.log", (int)getpid());
    setenv("EXBLAS_LOG", "trace", 1);
    setenv("EXBLAS_LOG_FILE", log_path, 1);
    gt_init("lt_matmul");
    native = gt_mode_is("native"); /* EXBLAS_MODE native, unset or empty */
    mode = native ? "native" : gt_mode();
    engine_bitwise_any = gt_mode_is("repro") || gt_mode_is("dd");
    engine_bitwise_col = gt_mode_is("int8");
    real_lt = lt_real_matmul();
    GT_CUBLAS(cublasLtCreate(&lt));
    GT_CUBLAS(cublasCreate_v2(&h));

    static const cublasOperation_t ops[3] = {CUBLAS_OP_N, CUBLAS_OP_T, CUBLAS_OP_C};
    gt_group("orders x ops, batch 1, C = D, host scalars");
    for (int o = 0; o < 8; o++)
        for (int t = 0; t < 4; t++) {
            lt_case c = {ops[t & 1], ops[t >> 1], o & 1, (o >> 1) & 1, o >> 2, 1, 1, 0, 1.25,
                         -0.75, 37, 29, 45};
            run_case(&c);
        }
    gt_group("batches, C != D, device scalars, beta = 0, op C");
    static const int orders[4] = {0, 3, 6, 7};
    for (int oi = 0; oi < 4; oi++)
        for (int v = 0; v < 4; v++) {
            const int o = orders[oi];
            lt_case c = {ops[v % 3], ops[(v + 2) % 3], o & 1, (o >> 1) & 1, o >> 2,
                         v & 1 ? 3 : 1, v == 3, v & 2 ? 1 : 0, -2.0, v == 2 ? 0.0 : 0.5,
                         61, 17 + v, 130};
            run_case(&c);
        }
    gt_group("calls the shim forwards");
    for (int f = 0; f < F_COUNT; f++)
        run_forwarded((fwd_kind)f);

    cublasDestroy_v2(h);
    cublasLtDestroy(lt);
    unlink(log_path);
    return gt_finish();
}
