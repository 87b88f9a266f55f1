/* no_workspace — every workspace allocation refused (EXBLAS_TEST_NO_WORKSPACE=1, the test hook of
 * engines/common/gpu.c, as when the device is out of memory), in the engine EXBLAS_MODE names.
 * Calls must still give the right results: in repro mode bit for bit the engine's CPU
 * implementation (correctly rounded: the paths that need no workspace), in dd mode DGEMM and a
 * DGEMV of one chunk (they need no workspace) bit for bit its CPU twin, in df mode (its default
 * scheme, small=auto) DGEMM bit for bit its CPU twin (the small kernel, which needs no workspace,
 * takes these shapes), and the rest, like the other engines' calls (which they decline), bit for
 * bit the real cuBLAS; DGEMM (NN, TN, a strided batch), DGEMV (N and T, increments 1 and -2),
 * DDOT and ZDOTC with the result on the host and on the device, ZGEMV (N and C, complex
 * scalars, increment -2; repro: every output on the finish's slow path).  The log
 * (EXBLAS_LOG=warn) says once that the workspace could not be had. */
#include "common.h"

#include "../../engines/dd/dd_steps.h"
#include "../../engines/dd/host.h"
#include "../../engines/df/df_gemm.h"
#include "../../engines/df/host.h"
#include "../../engines/repro/host.h"
#include "../../include/reprohost.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define M 200
#define N 150
#define K 300
#define NV 100000

static int repro, dd, df; /* the engine under test: its CPU result is the reference */
static dfs_oz_params params;
static dfs_oz_stats stats; /* the CPU implementation's (not checked) */

/* want: repro's CPU result or the real cuBLAS's (computed by the caller into want). */
static void compare(const char *what, const double *want, const double *got, size_t n, int64_t ld)
{
    gt_cmp(what, want, got, n, 8, ld);
}

static void gemm_case(cublasHandle_t h, cublasOperation_t ta, int batch, const double *hA,
                      const double *hB, const double *hC, double *dA, double *dB, double *dC)
{
    gt_case("Dgemm op=%cN %dx%dx%d batch %d", gt_op_char(ta), M, N, K, batch);
    const double alpha = 1.5, beta = -0.25;
    const int lda = ta == CUBLAS_OP_N ? M : K;
    const long long sA = (long long)M * K, sB = (long long)K * N, sC = (long long)M * N;
    static double want[2 * M * N], got[2 * M * N];
    memcpy(want, hC, sizeof(double) * (size_t)sC * (size_t)batch);
    gt_h2d(dC, hC, sizeof(double) * (size_t)sC * (size_t)batch);
    if (repro) {
        for (int b = 0; b < batch; b++)
            dfs_oz_gemm_host(&params, ta != CUBLAS_OP_N, 0, M, N, K, alpha, hA + b * sA, lda,
                             hB + b * sB, K, beta, want + b * sC, M, &stats);
    } else if (dd) {
        for (int b = 0; b < batch; b++)
            dfs_dd_gemm_host(ta != CUBLAS_OP_N, 0, M, N, K, alpha, hA + b * sA, lda, hB + b * sB,
                             K, beta, want + b * sC, M);
    } else if (df) {
        for (int b = 0; b < batch; b++)
            dfs_df_gemm_host(DFS_DF_MAD15, ta != CUBLAS_OP_N, 0, M, N, K, alpha, hA + b * sA,
                             lda, hB + b * sB, K, beta, want + b * sC, M);
    } else {
        GT_CUBLAS(gt_real.DgemmSB(h, ta, CUBLAS_OP_N, M, N, K, &alpha, dA, lda, sA, dB, K, sB,
                                  &beta, dC, M, sC, batch));
        gt_d2h(want, dC, sizeof(double) * (size_t)sC * (size_t)batch);
        gt_h2d(dC, hC, sizeof(double) * (size_t)sC * (size_t)batch);
    }
    if (batch == 1)
        GT_CUBLAS(cublasDgemm_v2(h, ta, CUBLAS_OP_N, M, N, K, &alpha, dA, lda, dB, K, &beta, dC, M));
    else
        GT_CUBLAS(cublasDgemmStridedBatched(h, ta, CUBLAS_OP_N, M, N, K, &alpha, dA, lda, sA, dB, K,
                                            sB, &beta, dC, M, sC, batch));
    gt_d2h(got, dC, sizeof(double) * (size_t)sC * (size_t)batch);
    compare("C", want, got, (size_t)sC * (size_t)batch, M);
}

static void gemv_case(cublasHandle_t h, cublasOperation_t t, int inc, const double *hA,
                      const double *hx, const double *hy, double *dA, double *dx, double *dy)
{
    gt_case("Dgemv op=%c %dx%d inc %d", gt_op_char(t), M, N, inc);
    const double alpha = -1.0, beta = 0.5;
    const int ylen = t == CUBLAS_OP_N ? M : N;
    const size_t span = (size_t)(ylen - 1) * (size_t)abs(inc) + 1;
    static double want[2 * M + 2 * N], got[2 * M + 2 * N];
    memcpy(want, hy, span * sizeof(double));
    gt_h2d(dy, hy, span * sizeof(double));
    if (repro) {
        dfs_oz_gemv_host(&params, t != CUBLAS_OP_N, M, N, alpha, hA, M, hx, inc, beta, want, inc,
                         &stats);
    } else if (dd && dfs_dd_gemv_plan(t != CUBLAS_OP_N, M, N).nchunks == 1) {
        dfs_dd_gemv_host(t != CUBLAS_OP_N, M, N, alpha, hA, M, hx, inc, beta, want, inc);
    } else {
        GT_CUBLAS(gt_real.Dgemv(h, t, M, N, &alpha, dA, M, dx, inc, &beta, dy, inc));
        gt_d2h(want, dy, span * sizeof(double));
        gt_h2d(dy, hy, span * sizeof(double));
    }
    GT_CUBLAS(cublasDgemv_v2(h, t, M, N, &alpha, dA, M, dx, inc, &beta, dy, inc));
    gt_d2h(got, dy, span * sizeof(double));
    compare("y", want, got, span, 0);
}

static void dot_case(cublasHandle_t h, int device_result, const double *hx, const double *hy,
                     double *dx, double *dy, double *dr)
{
    gt_case("Ddot n=%d result on the %s", NV, device_result ? "device" : "host");
    double want, got;
    if (repro) {
        want = dfs_oz_dot_host(&params, NV, hx, 1, hy, -1, &stats);
    } else {
        GT_CUBLAS(gt_real.Ddot(h, NV, dx, 1, dy, -1, &want));
    }
    if (device_result) {
        GT_CUBLAS(cublasSetPointerMode_v2(h, CUBLAS_POINTER_MODE_DEVICE));
        GT_CUBLAS(cublasDdot_v2(h, NV, dx, 1, dy, -1, dr));
        GT_CUBLAS(cublasSetPointerMode_v2(h, CUBLAS_POINTER_MODE_HOST));
        gt_d2h(&got, dr, sizeof got);
    } else {
        GT_CUBLAS(cublasDdot_v2(h, NV, dx, 1, dy, -1, &got));
    }
    compare("result", &want, &got, 1, 0);
}

/* Zdotc of x (NV / 2 complex elements, increment 1) and y (increment -1): in repro mode both
 * parts correctly rounded (its one-pass kernel needs workspace: the parts then run one after the
 * other in one block), else real cuBLAS's. */
static void zdot_case(cublasHandle_t h, int device_result, const double *hx, const double *hy,
                      double *dx, double *dy, double *dr)
{
    const int n = NV / 2;
    gt_case("Zdotc n=%d incy=-1 result on the %s", n, device_result ? "device" : "host");
    const cuDoubleComplex *X = (const cuDoubleComplex *)dx, *Y = (const cuDoubleComplex *)dy;
    double want[2], got[2];
    if (repro) {
        double *ty = gt_hmalloc((size_t)NV * 8); /* y in BLAS order: increment -1 reverses it */
        for (int j = 0; j < n; j++)
            ty[2 * j] = hy[2 * (n - 1 - j)], ty[2 * j + 1] = hy[2 * (n - 1 - j) + 1];
        const double one[2] = {1.0, 0.0}, zero[2] = {0.0, 0.0};
        if (repro_zgemm_host('C', 'N', 1, 1, n, one, hx, n, ty, n, zero, want, 1))
            gt_fatal("repro_zgemm_host: out of memory");
        free(ty);
    } else {
        GT_CUBLAS(gt_real.Zdotc(h, n, X, 1, Y, -1, (cuDoubleComplex *)want));
    }
    if (device_result) {
        GT_CUBLAS(cublasSetPointerMode_v2(h, CUBLAS_POINTER_MODE_DEVICE));
        GT_CUBLAS(cublasZdotc_v2(h, n, X, 1, Y, -1, (cuDoubleComplex *)dr));
        GT_CUBLAS(cublasSetPointerMode_v2(h, CUBLAS_POINTER_MODE_HOST));
        gt_d2h(got, dr, sizeof got);
    } else {
        GT_CUBLAS(cublasZdotc_v2(h, n, X, 1, Y, -1, (cuDoubleComplex *)got));
    }
    compare("result", want, got, 2, 0);
}

/* Zgemv of A (M x K complex, the first half of hA) and x (increment 1), y (hC, increment -2):
 * in repro mode each part of every output correctly rounded (no workspace: every output on the
 * finish's slow path, one warp each), else real cuBLAS's. */
static void zgemv_case(cublasHandle_t h, cublasOperation_t op, const double *hA, const double *hx,
                       const double *hC, double *dA, double *dx, double *dy)
{
    typedef cublasStatus_t (*zgemv_fn)(cublasHandle_t, cublasOperation_t, int, int,
                                       const cuDoubleComplex *, const cuDoubleComplex *, int,
                                       const cuDoubleComplex *, int, const cuDoubleComplex *,
                                       cuDoubleComplex *, int);
    const int len = op == CUBLAS_OP_N ? M : K, span = 2 * (len - 1) + 1;
    gt_case("Zgemv op=%c %dx%d incy=-2", gt_op_char(op), M, K);
    const cuDoubleComplex alpha = {0.75, -1.5}, beta = {-0.5, 0.25};
    static double want[2 * 2 * K], got[2 * 2 * K];
    memcpy(want, hC, sizeof(double) * 2 * (size_t)span);
    gt_h2d(dy, hC, sizeof(double) * 2 * (size_t)span);
    if (repro) {
        if (repro_zgemv_host(gt_op_char(op), M, K, (const double *)&alpha, hA, M, hx, 1,
                             (const double *)&beta, want, -2))
            gt_fatal("repro_zgemv_host: out of memory");
    } else {
        zgemv_fn real;
        void *f = gt_real_fn("cublasZgemv_v2");
        memcpy(&real, &f, sizeof f);
        GT_CUBLAS(real(h, op, M, K, &alpha, (const cuDoubleComplex *)dA, M,
                       (const cuDoubleComplex *)dx, 1, &beta, (cuDoubleComplex *)dy, -2));
        gt_d2h(want, dy, sizeof(double) * 2 * (size_t)span);
        gt_h2d(dy, hC, sizeof(double) * 2 * (size_t)span);
    }
    GT_CUBLAS(cublasZgemv_v2(h, op, M, K, &alpha, (const cuDoubleComplex *)dA, M,
                             (const cuDoubleComplex *)dx, 1, &beta, (cuDoubleComplex *)dy, -2));
    gt_d2h(got, dy, sizeof(double) * 2 * (size_t)span);
    compare("y", want, got, 2 * (size_t)span, 0);
}

int main(void)
{
    char log[64];
    snprintf(log, sizeof log, "/tmp/dfshim-nows-%d.log", (int)getpid());
    setenv("EXBLAS_LOG", "warn", 1);
    setenv("EXBLAS_LOG_FILE", log, 1);
    gt_init("no_workspace");
    const char *hook = getenv("EXBLAS_TEST_NO_WORKSPACE"), *mode = gt_mode();
    if (!hook || strcmp(hook, "1"))
        gt_fatal("run with EXBLAS_TEST_NO_WORKSPACE=1");
    repro = gt_mode_is("repro");
    dd = gt_mode_is("dd") || gt_mode_is("accurate");
    df = gt_mode_is("df");
    if (df && strcmp(mode, "df"))
        gt_fatal("run df as EXBLAS_MODE=df (its defaults: the scheme fused, small=auto)");
    params = dfs_oz_default_params();

    const size_t na = 2u * M * K, nb = 2u * K * N, nc = 2u * M * N;
    double *hA = gt_hmalloc(na * 8), *hB = gt_hmalloc(nb * 8), *hC = gt_hmalloc(nc * 8);
    double *hx = gt_hmalloc(NV * 8), *hy = gt_hmalloc(NV * 8);
    gt_fill(hA, na, 1), gt_fill(hB, nb, 2), gt_fill(hC, nc, 3), gt_fill(hx, NV, 4);
    gt_fill(hy, NV, 5);
    double *dA = gt_dmalloc(na * 8), *dB = gt_dmalloc(nb * 8), *dC = gt_dmalloc(nc * 8);
    double *dx = gt_dmalloc(NV * 8), *dy = gt_dmalloc(NV * 8), *dr = gt_dmalloc(16);
    double *dyv = gt_dmalloc(nc * 8);
    gt_h2d(dA, hA, na * 8), gt_h2d(dB, hB, nb * 8), gt_h2d(dx, hx, NV * 8), gt_h2d(dy, hy, NV * 8);
    cublasHandle_t h;
    GT_CUBLAS(cublasCreate_v2(&h));

    gt_group("no workspace (%s)", mode ? mode : "native");
    gemm_case(h, CUBLAS_OP_N, 1, hA, hB, hC, dA, dB, dC);
    gemm_case(h, CUBLAS_OP_T, 1, hA, hB, hC, dA, dB, dC);
    gemm_case(h, CUBLAS_OP_N, 2, hA, hB, hC, dA, dB, dC);
    for (int t = 0; t < 2; t++)
        for (int inc = 1; inc >= -2; inc -= 3)
            gemv_case(h, t ? CUBLAS_OP_T : CUBLAS_OP_N, inc, hA, hx, hC, dA, dx, dyv);
    dot_case(h, 0, hx, hy, dx, dy, dr);
    dot_case(h, 1, hx, hy, dx, dy, dr);
    zdot_case(h, 0, hx, hy, dx, dy, dr);
    zdot_case(h, 1, hx, hy, dx, dy, dr);
    zgemv_case(h, CUBLAS_OP_N, hA, hx, hC, dA, dx, dyv);
    zgemv_case(h, CUBLAS_OP_C, hA, hx, hC, dA, dx, dyv);
    GT_CUDA(cudaDeviceSynchronize());

    gt_case("the log says it once");
    FILE *f = fopen(log, "r");
    int lines = 0;
    char line[512];
    while (f && fgets(line, sizeof line, f))
        lines += strstr(line, "no device memory for an engine's workspace") != NULL;
    if (f)
        fclose(f);
    if (!gt_mode_is("native") && lines != 1)
        gt_fail("%d log lines about the workspace, expected 1", lines);
    unlink(log);
    GT_CUBLAS(cublasDestroy_v2(h));
    return gt_finish();
}
