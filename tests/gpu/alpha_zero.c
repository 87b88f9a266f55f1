/* alpha_zero — with alpha = 0 in device pointer mode, the engines' DGEMM and DGEMV read neither
 * A nor B (x): C = beta C (y = beta y), as BLAS specifies.  The engine in EXBLAS_MODE gets calls
 * whose A, B and x point to the unmapped address 0x1000 (any read faults the context, and every
 * later CUDA call fails) with alpha = 0.0 and beta = 0.5 on the device, for ops NN, TN, NT, TT
 * and N, T; C must then be exactly 0.5 C.  The same calls in host pointer mode as a control.
 * With NULL operands instead, the shim's status must be the real cuBLAS's (which refuses them).
 * (Not NULL: cuBLAS 13.1 answers NULL operands in device pointer mode with INVALID_VALUE, measured
 * on an H200.  Not run in native mode: what cuBLAS does with an unreadable operand is its own
 * affair.) */
#include "common.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define BAD ((const double *)(uintptr_t)0x1000) /* never mapped */

#define M 300
#define N 200
#define K 257

static double hC0[M * N], hC[M * N];

static void check_half(const char *what, const double *got, size_t count)
{
    size_t bad = 0, first = 0;
    for (size_t i = 0; i < count; i++)
        if (got[i] != 0.5 * hC0[i] && bad++ == 0)
            first = i;
    if (bad)
        gt_fail("%s: %zu of %zu entries are not 0.5 C; first [%zu] = %a, want %a", what, bad,
                count, first, got[first], 0.5 * hC0[first]);
}

static void run(cublasHandle_t h, int dev_ptr, double *dC, const double *dscal)
{
    const double *alpha = dev_ptr ? dscal : &(double){0.0};
    const double *beta = dev_ptr ? dscal + 1 : &(double){0.5};
    GT_CUBLAS(cublasSetPointerMode_v2(h, dev_ptr ? CUBLAS_POINTER_MODE_DEVICE
                                                 : CUBLAS_POINTER_MODE_HOST));
    static const cublasOperation_t ops[2] = {CUBLAS_OP_N, CUBLAS_OP_T};
    for (int o = 0; o < 4; o++) {
        const cublasOperation_t ta = ops[o & 1], tb = ops[o >> 1];
        gt_case("Dgemm_v2 op=%c%c %s pointers, alpha 0, A and B unreadable", gt_op_char(ta),
                gt_op_char(tb), dev_ptr ? "device" : "host");
        gt_h2d(dC, hC0, sizeof hC0);
        const cublasStatus_t s =
            cublasDgemm_v2(h, ta, tb, M, N, K, alpha, BAD, ta ? K : M, BAD, tb ? N : K, beta, dC, M);
        if (s != CUBLAS_STATUS_SUCCESS) {
            gt_fail("status %s", gt_status_name(s));
            continue;
        }
        GT_CUDA(cudaDeviceSynchronize()); /* a fault shows here */
        gt_d2h(hC, dC, sizeof hC);
        check_half("C", hC, (size_t)M * N);
    }
    for (int o = 0; o < 2; o++) {
        gt_case("Dgemv_v2 op=%c %s pointers, alpha 0, A and x unreadable", gt_op_char(ops[o]),
                dev_ptr ? "device" : "host");
        gt_h2d(dC, hC0, sizeof hC0);
        const int64_t len = o ? N : M;
        const cublasStatus_t s = cublasDgemv_v2(h, ops[o], M, N, alpha, BAD, M, BAD, 1, beta, dC, 1);
        if (s != CUBLAS_STATUS_SUCCESS) {
            gt_fail("status %s", gt_status_name(s));
            continue;
        }
        GT_CUDA(cudaDeviceSynchronize());
        gt_d2h(hC, dC, (size_t)len * sizeof(double));
        check_half("y", hC, (size_t)len);
    }
}

/* NULL operands with alpha = 0 on the device: cuBLAS refuses them (INVALID_VALUE, measured on
 * cuBLAS 13.1) without reading anything; the shim must give the same status, whatever engine. */
static void null_operands(cublasHandle_t h, double *dC, const double *dscal)
{
    static const cublasOperation_t ops[2] = {CUBLAS_OP_N, CUBLAS_OP_T};
    GT_CUBLAS(cublasSetPointerMode_v2(h, CUBLAS_POINTER_MODE_DEVICE));
    for (int which = 0; which < 3; which++) {
        const double *A = which == 1 ? NULL : BAD, *B = which == 2 ? NULL : BAD;
        if (which == 0)
            A = B = NULL;
        const char *what = which == 0 ? "A and B" : which == 1 ? "A" : "B";
        for (int o = 0; o < 2; o++) {
            gt_case("Dgemm_v2 op=%cN, NULL %s, alpha 0 on the device", gt_op_char(ops[o]), what);
            const int lda = ops[o] == CUBLAS_OP_N ? M : K;
            gt_cmp_status("cublasDgemm_v2",
                          gt_real.Dgemm(h, ops[o], CUBLAS_OP_N, M, N, K, dscal, A, lda, B, K,
                                        dscal + 1, dC, M),
                          cublasDgemm_v2(h, ops[o], CUBLAS_OP_N, M, N, K, dscal, A, lda, B, K,
                                         dscal + 1, dC, M));
            gt_case("Dgemv_v2 op=%c, NULL %s, alpha 0 on the device", gt_op_char(ops[o]),
                    which == 0 ? "A and x" : which == 1 ? "A" : "x");
            gt_cmp_status("cublasDgemv_v2",
                          gt_real.Dgemv(h, ops[o], M, N, dscal, A, M, B, 1, dscal + 1, dC, 1),
                          cublasDgemv_v2(h, ops[o], M, N, dscal, A, M, B, 1, dscal + 1, dC, 1));
        }
    }
    GT_CUDA(cudaDeviceSynchronize());
    GT_CUBLAS(cublasSetPointerMode_v2(h, CUBLAS_POINTER_MODE_HOST));
}

int main(void)
{
    gt_init("alpha_zero");
    cublasHandle_t h;
    GT_CUBLAS(cublasCreate_v2(&h));
    gt_fill(hC0, (size_t)M * N, 77);
    double *dC = gt_dmalloc(sizeof hC0), *dscal = gt_dmalloc(2 * sizeof(double));
    const double scal[2] = {0.0, 0.5};
    gt_h2d(dscal, scal, sizeof scal);
    gt_group("alpha = 0 with unreadable operands: C = 0.5 C exactly");
    run(h, 0, dC, dscal);
    run(h, 1, dC, dscal);
    gt_group("NULL operands, alpha = 0 on the device: cuBLAS's status");
    null_operands(h, dC, dscal);
    GT_CUBLAS(cublasDestroy_v2(h));
    return gt_finish();
}
