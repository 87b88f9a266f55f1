/* df_vec_calls.c — the df_vec test's groups about the calls themselves (see df_vec.c): 0, the
 * calls reach the df engine; 6, host pointer mode DDOT has its value in the host variable when
 * the call returns, after a cudaMemcpyAsync on the handle's non-blocking stream. */
#include "df_vec_common.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>

/* ---------- 0. the calls reach the df engine ---------- */

void engaged_group(void)
{
    const double xv = 1.0 + 0x1p-25 + 0x1p-52, one = 1.0;
    df_group("engaged: x = 1 + 2^-25 + 2^-52 (no double-float holds it) times 1: DDOT n=1 and "
          "DGEMV 1x1 ops N,T (alpha 1, beta 0) through the shim give a value other than x "
          "(binary64, native cuBLAS: x exactly); 32/64-bit APIs, host/device pointers");
    gt_h2d(dX, &xv, sizeof xv);
    gt_h2d(dY, &one, sizeof one);
    gt_h2d(dA, &xv, sizeof xv);
    gt_h2d(dX + XT_OFF, &one, sizeof one);
    for (int is64 = 0; is64 < 2; is64++)
        for (int dev = 0; dev < 2; dev++) {
            gt_case("%s ptr=%s", gt_dot_name(is64), dev ? "device" : "host");
            /* the DGEMV cases below write their y where DDOT's y lives: load both again */
            gt_h2d(dX, &xv, sizeof xv);
            gt_h2d(dY, &one, sizeof one);
            const double r = dot_shim(is64, 1, 1, 1, dev), rn = dot_real(is64, 1, 1, 1, dev);
            if (r == xv)
                gt_fail("the result is x exactly (%.17g): binary64 arithmetic, not the df engine "
                        "(declined or routed natively?)", r);
            else if (fabs(r - xv) > 0x1p-46)
                gt_fail("result %.17g, x = %.17g", r, xv);
            if (rn != xv)
                gt_note("native cuBLAS gives %.17g, not x", rn);
            for (int t = 0; t < 2; t++) {
                gt_case("%s op=%c ptr=%s", gt_gemv_name(is64), t ? 'T' : 'N',
                        dev ? "device" : "host");
                gparams p = {t ? CUBLAS_OP_T : CUBLAS_OP_N, 1, 1, 1, 1, 1, 1.0, 0.0, dev, is64,
                             dA, dX + XT_OFF};
                double y;
                lay_vec(hYt[0], &qnan, 1, 1, Y_GAP);
                run_gemv(0, &p, hYt[0], &y);
                if (y == xv)
                    gt_fail("y is A*x exactly (%.17g): binary64 arithmetic, not the df engine", y);
                else if (fabs(y - xv) > 0x1p-46)
                    gt_fail("y = %.17g, A*x = %.17g", y, xv);
            }
        }
    df_group_end();
}

/* ---------- 6. host pointer mode DDOT: the value is there when the call returns ---------- */

void host_result_group(void)
{
    const int64_t n = (int64_t)1 << 22;
    df_group("host pointer mode DDOT n=%lld on a non-blocking stream: x replaced by a "
          "cudaMemcpyAsync on that stream just before the call; the host variable (pageable, "
          "then pinned) holds bitwise the device-pointer-mode result of the new data as the call "
          "returns; 32/64-bit APIs", (long long)n);
    cudaStream_t s;
    cublasHandle_t hs;
    GT_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    GT_CUBLAS(cublasCreate_v2(&hs));
    GT_CUBLAS(cublasSetStream_v2(hs, s));
    double *x1 = df_xmalloc((size_t)n), *y = df_xmalloc((size_t)n);
    double *x2 = df_pinned((size_t)n), *hres = df_pinned(1);
    gt_fill(x1, (size_t)n, 16001);
    gt_fill(x2, (size_t)n, 16002);
    gt_fill(y, (size_t)n, 16003);
    gt_h2d(dY, y, (size_t)n * sizeof *y);
    GT_CUDA(cudaDeviceSynchronize());
    for (int is64 = 0; is64 < 2; is64++) {
        double expect[2];
        const double *xs[2] = {x1, x2};
        for (int q = 0; q < 2; q++) {
            gt_case("%s: reference values, device pointer mode on the stream",
                    gt_dot_name(is64));
            gt_h2d(dX, xs[q], (size_t)n * sizeof *x1);
            GT_CUDA(cudaDeviceSynchronize()); /* a pageable copy may still be in flight */
            cublasStatus_t st;
            int late;
            expect[q] = call_dot(&bufs, 0, hs, is64, n, dX, 1, dY, 1, 1, &st, &late);
            if (st != CUBLAS_STATUS_SUCCESS)
                gt_fail("status %s", gt_status_name(st));
        }
        if (df_bits(expect[0]) == df_bits(expect[1]))
            gt_fail("test bug: the two data sets give the same result");
        for (int pin = 0; pin < 2; pin++) {
            gt_case("%s: host pointer mode, result in %s memory, after cudaMemcpyAsync of x "
                    "(%.0f MiB) on the stream", gt_dot_name(is64), pin ? "pinned" : "pageable",
                    (double)n * 8 / 1048576.0);
            gt_h2d(dX, x1, (size_t)n * sizeof *x1);
            GT_CUDA(cudaDeviceSynchronize());
            double pageable = sentinel();
            double *res = pin ? hres : &pageable;
            *res = sentinel();
            GT_CUBLAS(cublasSetPointerMode_v2(hs, CUBLAS_POINTER_MODE_HOST));
            GT_CUDA(cudaMemcpyAsync(dX, x2, (size_t)n * sizeof *x2, cudaMemcpyHostToDevice, s));
            gt_dot d = {is64, n, dX, 1, dY, 1, res};
            cublasStatus_t st = gt_run_dot(0, hs, &d);
            const double got = *res; /* before any synchronisation */
            GT_CUDA(cudaStreamSynchronize(s));
            const double after = *res;
            if (st != CUBLAS_STATUS_SUCCESS)
                gt_fail("status %s", gt_status_name(st));
            if (df_bits(got) == df_bits(sentinel()))
                gt_fail("the host variable was not written when the call returned (after a "
                        "stream synchronisation: %.17g)", after);
            else if (df_bits(got) == df_bits(expect[0]))
                gt_fail("the result is that of the data before the cudaMemcpyAsync (%.17g): the "
                        "call did not wait for the handle's stream", got);
            else if (df_bits(got) != df_bits(expect[1]))
                gt_fail("result %.17g [%016" PRIx64 "], device pointer mode gave %.17g [%016" PRIx64
                        "]", got, df_bits(got), expect[1], df_bits(expect[1]));
            if (df_bits(after) != df_bits(got))
                gt_fail("the host variable changed after the call returned: %.17g, then %.17g",
                        got, after);
        }
    }
    GT_CUBLAS(cublasDestroy_v2(hs));
    GT_CUDA(cudaStreamDestroy(s));
    GT_CUDA(cudaFreeHost(x2));
    GT_CUDA(cudaFreeHost(hres));
    free(x1);
    free(y);
    df_group_end();
}
