/* host_sync — the synchronisation semantics of Ddot survive the shim.
 *  - Host pointer mode: the call returns with the value already in the host variable, even
 *    though the dot product reads the output of a big Dgemm still running when it is called.
 *  - Device pointer mode: the call returns without waiting: right after it returns, the stream
 *    (which holds several big Dgemms queued before the Ddot) is still busy.
 * Both for cublasDdot_v2 and cublasDdot_v2_64; the real cuBLAS is held to the same premise. */
#include "common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 8192          /* Dgemm size: about 1.1e12 flops, tens of ms in FP64 */
#define QUEUED 4        /* Dgemms queued before a device-mode Ddot */

static cudaStream_t s;
static cublasHandle_t h;
static double *A, *B, *C, *y;
static const double one = 1.0, zero = 0.0;

static void big_dgemm(void)
{
    GT_CUBLAS(gt_real.Dgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, N, N, N, &one, A, N, B, N, &zero, C, N));
}

static cublasStatus_t ddot(int real, int is64, double *result)
{
    gt_dot d = {.is64 = is64, .n = (int64_t)N * N, .x = C, .incx = 1, .y = y, .incy = 1,
                .result = result};
    return gt_run_dot(real, h, &d);
}

int main(void)
{
    gt_init("host_sync");
    GT_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    GT_CUBLAS(cublasCreate_v2(&h));
    GT_CUBLAS(cublasSetStream_v2(h, s));
    size_t nn = (size_t)N * N, bytes = nn * sizeof(double);
    double *hb = gt_hmalloc(bytes);
    A = gt_dmalloc(bytes);
    B = gt_dmalloc(bytes);
    C = gt_dmalloc(bytes);
    y = gt_dmalloc(bytes);
    gt_fill(hb, nn, 51);
    gt_h2d(A, hb, bytes);
    gt_fill(hb, nn, 52);
    gt_h2d(B, hb, bytes);
    gt_fill(hb, nn, 53);
    gt_h2d(y, hb, bytes);
    free(hb);
    const double sentinel = -12345.678;
    double *d_res = gt_dmalloc(sizeof *d_res);

    /* Expected values, and how long one Dgemm takes. */
    cudaEvent_t e0, e1;
    GT_CUDA(cudaEventCreate(&e0));
    GT_CUDA(cudaEventCreate(&e1));
    big_dgemm(); /* warm-up */
    GT_CUDA(cudaEventRecord(e0, s));
    big_dgemm();
    GT_CUDA(cudaEventRecord(e1, s));
    GT_CUDA(cudaStreamSynchronize(s));
    float dgemm_ms = 0;
    GT_CUDA(cudaEventElapsedTime(&dgemm_ms, e0, e1));
    double expect_host = sentinel, expect_dev = sentinel;
    GT_CUBLAS(ddot(1, 0, &expect_host));
    GT_CUBLAS(cublasSetPointerMode_v2(h, CUBLAS_POINTER_MODE_DEVICE));
    GT_CUBLAS(ddot(1, 0, d_res));
    GT_CUBLAS(cublasSetPointerMode_v2(h, CUBLAS_POINTER_MODE_HOST));
    GT_CUDA(cudaStreamSynchronize(s));
    gt_d2h(&expect_dev, d_res, sizeof expect_dev);
    printf("host_sync: one %dx%dx%d Dgemm takes %.2f ms; Ddot over n = %zu\n", N, N, N,
           (double)dgemm_ms, nn);
    if (dgemm_ms < 2.0f)
        printf("host_sync: warning: the Dgemm is short; the device-mode check has little margin\n");

    gt_group("host pointer mode: the value is in the host variable when Ddot returns "
             "(Ddot reads the output of a Dgemm still running)");
    for (int is64 = 0; is64 < 2; is64++)
        for (int real = 1; real >= 0; real--) {
            gt_case("%s %s", gt_dot_name(is64),
                    real ? "real cuBLAS (premise)" : "through the shim");
            GT_CUDA(cudaMemsetAsync(C, 0xff, bytes, s)); /* NaN until the Dgemm rewrites it */
            big_dgemm();
            double res = sentinel;
            double t0 = gt_now();
            cublasStatus_t st = ddot(real, is64, &res);
            double seen = res, dt = gt_now() - t0;
            cudaError_t q = cudaStreamQuery(s);
            if (st != CUBLAS_STATUS_SUCCESS)
                gt_fail("status %s", gt_status_name(st));
            gt_cmp("host result read right after the call", &expect_host, &seen, 1, 8, 0);
            gt_note("call took %.2f ms; stream afterwards: %s", dt * 1e3, cudaGetErrorName(q));
            GT_CUDA(cudaStreamSynchronize(s));
        }

    gt_group("device pointer mode: Ddot returns while %d queued Dgemms (~%.0f ms) still run",
             QUEUED, (double)dgemm_ms * QUEUED);
    for (int is64 = 0; is64 < 2; is64++)
        for (int real = 1; real >= 0; real--) {
            gt_case("%s %s", gt_dot_name(is64),
                    real ? "real cuBLAS (premise)" : "through the shim");
            gt_h2d(d_res, &sentinel, sizeof sentinel);
            for (int i = 0; i < QUEUED; i++)
                big_dgemm(); /* host alpha/beta: issued in host pointer mode */
            GT_CUBLAS(cublasSetPointerMode_v2(h, CUBLAS_POINTER_MODE_DEVICE));
            double t0 = gt_now();
            cublasStatus_t st = ddot(real, is64, d_res);
            double dt = gt_now() - t0;
            GT_CUBLAS(cublasSetPointerMode_v2(h, CUBLAS_POINTER_MODE_HOST));
            cudaError_t q = cudaStreamQuery(s);
            if (st != CUBLAS_STATUS_SUCCESS)
                gt_fail("status %s", gt_status_name(st));
            if (q != cudaErrorNotReady)
                gt_fail("the stream was already idle when Ddot returned (cudaStreamQuery: %s; "
                        "the call took %.2f ms): it synchronised%s", cudaGetErrorName(q),
                        dt * 1e3, real ? " (real cuBLAS itself: the test's premise fails)" : "");
            GT_CUDA(cudaStreamSynchronize(s));
            double got = sentinel;
            gt_d2h(&got, d_res, sizeof got);
            gt_cmp("device result after synchronising", &expect_dev, &got, 1, 8, 0);
            gt_note("call took %.3f ms", dt * 1e3);
        }

    GT_CUDA(cudaEventDestroy(e0));
    GT_CUDA(cudaEventDestroy(e1));
    GT_CUBLAS(cublasDestroy_v2(h));
    GT_CUDA(cudaStreamDestroy(s));
    return gt_finish();
}
