/* df_vec — DGEMV and DDOT through the df engine (EXBLAS_MODE=df[:scheme=fused|paper|accurate]).
 * The scheme is read from EXBLAS_MODE only to pick the error bound: accurate -> (3k+4)u^2 + 2^-52,
 * fused and paper -> 4(k+1)u^2 + 2^-52, u = 2^-24, k the inner length (n for DDOT); errors are
 * normwise, |r - ref| / (|alpha| sum|a_p x_p| + |beta y|), against a double-double reference
 * (TwoProd by fma + TwoSum on the CPU).  Every call goes through the shim as a normal cuBLAS call;
 * native cuBLAS (the real function, dlsym) runs on the same data for comparison.  x and y gaps
 * (|inc| > 1) and the padding of A hold NaN (a stray read shows); y outside the vector holds a
 * sentinel that must stay untouched.  cublasDgemv_v2 / _64 and cublasDdot_v2 / _64 alternate.
 *
 *  0. engaged: x = 1 + 2^-25 + 2^-52 (no double-float holds it) times 1 through DDOT n=1 and DGEMV
 *     1x1: the result is not x (binary64 would give x exactly): the calls reach the df engine.
 *  1. accuracy: DDOT n in {1, 7, 1000, 2^20, 2^24+3}, (incx, incy) in {1,3,-2}^2 (2^24+3: three
 *     pairs); DGEMV N, T, C with m x n in {1x1, 37x19, 1000x300, 300x1000, 4096x4096, 16384x64,
 *     64x16384}, lda tight and +5, (incx, incy) in {1,-2}^2, alpha {1,0.5,-3} x beta {0,1,-0.75}
 *     (beta = 0: y full of NaN, which must not propagate); host and device pointer modes; data
 *     uniform [-1,1), phi in {0,1,2,4} ((U - 0.5) exp(phi N(0,1))) and cancellation-heavy pairs.
 *     Every output (4096x4096: 48 sampled) within the bound; a table of the max errors beside
 *     native's.  Also: each call repeated gives bitwise the same result (5.); host and device
 *     pointer modes give bitwise the same result; C gives bitwise the T result; host-mode DDOT has
 *     the value in the host variable as the call returns (6.); whether results depend on the
 *     layout (lda, increments) is only reported.
 *  2. range: elements outside the fast window [2^-37, 2^38): operands scaled by 2^300, 2^-300,
 *     1e-310 (subnormal), 1e200 / 1e-200 mixed in one vector, a single huge element, sums and
 *     products beyond DBL_MAX.  Every output has the kind of the exact result (+-Inf only where
 *     the exact result overflows) and, when finite, lies within the bound (plus (4|alpha| + 4)
 *     2^-1074 absolute, for results in the subnormal range); where native cuBLAS computes without
 *     an intermediate overflow, its kind is the same.
 *  3. special values: Inf, -Inf, NaN in x, y or A (Inf*0, Inf + -Inf included): every output has
 *     the kind (NaN / +Inf / -Inf / finite) of real cuBLAS's; outputs that meet no special value
 *     are finite and within the bound.
 *  4. alpha = 0 in device memory (DGEMV): y = beta*y exactly (0 for beta = 0, y full of NaN), with
 *     NaN and Inf in A and x.
 *  6. host pointer mode DDOT on a non-blocking stream, x changed by a cudaMemcpyAsync on that
 *     stream just before the call: the host variable (pageable or pinned) holds the result of
 *     the new data when the call returns.
 *
 * Here: the buffers and state every group shares, and main.  df_vec_common.c: the double-double
 * reference, the verdicts, the staging of vectors and the calls; df_vec_calls.c: groups 0 and 6;
 * df_vec_accuracy.c: group 1 and its data; df_vec_range.c: group 2; df_vec_special.c: groups 3
 * and 4; layout.c (shared with the other engines' tests): the layouts and the calls. */
#include "df_vec_common.h"

#include <stdio.h>

/* ---------- buffers and state (see df_vec_common.h) ---------- */

int scheme; /* DFS_DF_MAD* */
const char *scheme_name;
cublasHandle_t handle;
double *dX, *dY, *dA, *d_ab, *d_res;
double *hX, *hY, *hA, *hYt[4], *hYo;
call_bufs bufs; /* d_ab, d_res, dY, hYo */
double qnan;
static double t_start;

/* EXBLAS_MODE=df[:key=value,...] -> the scheme; fatal for anything else. */
static void parse_mode(void)
{
    scheme = df_test_scheme("df_vec", &scheme_name);
}

int main(void)
{
    gt_init("df_vec");
    t_start = gt_now();
    parse_mode();
    qnan = gt_qnan();
    printf("df_vec: scheme %s, bound %s, u = 2^-24\n", scheme_name, df_test_bound_text(scheme));
    GT_CUBLAS(cublasCreate_v2(&handle));

    dX = gt_dmalloc(VEC_BUF * sizeof(double));
    dY = gt_dmalloc(VEC_BUF * sizeof(double));
    dA = gt_dmalloc(A_BUF * sizeof(double));
    d_ab = gt_dmalloc(2 * sizeof(double));
    d_res = gt_dmalloc(sizeof(double));
    hX = df_pinned(VEC_BUF);
    hY = df_pinned(VEC_BUF);
    hA = df_pinned(A_BUF);
    for (int i = 0; i < 4; i++)
        hYt[i] = df_pinned(Y_BUF);
    hYo = df_pinned(Y_BUF);
    sX = (stage){hX, -1, 0, 0};
    sY = (stage){hY, -1, 0, 0};
    bufs = (call_bufs){.d_ab = d_ab, .d_res = d_res, .dY = dY, .hYo = hYo, .y_cap = Y_BUF};

    engaged_group();
    accuracy_dot_group();
    accuracy_gemv_group();
    range_dot_group();
    range_gemv_group();
    special_dot_group();
    special_gemv_group();
    alpha0_group();
    host_result_group();

    GT_CUBLAS(cublasDestroy_v2(handle));
    GT_CUDA(cudaFree(dX));
    GT_CUDA(cudaFree(dY));
    GT_CUDA(cudaFree(dA));
    GT_CUDA(cudaFree(d_ab));
    GT_CUDA(cudaFree(d_res));
    GT_CUDA(cudaFreeHost(hX));
    GT_CUDA(cudaFreeHost(hY));
    GT_CUDA(cudaFreeHost(hA));
    for (int i = 0; i < 4; i++)
        GT_CUDA(cudaFreeHost(hYt[i]));
    GT_CUDA(cudaFreeHost(hYo));
    printf("df_vec: %.1f s in all\n", gt_now() - t_start);
    return gt_finish();
}
