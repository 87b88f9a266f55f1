/* df_gemm_graph.c — the df_gemm test's group 6 (see df_gemm.c), on the tiled path (small=never):
 * a call captured in a CUDA graph after the same shape ran eagerly replays bitwise the eager
 * result (device alpha changed between replays included); one that needs more workspace than
 * there is runs natively.  With small=always, the small kernel needs none: a call captured on a
 * fresh handle's first call computes, and replays bitwise the tiled path's eager result. */
#include "df_gemm_common.h"

#include <stdlib.h>
#include <string.h>

/* ---------- 6. graph capture ---------- */

/* Captures one call of g on s; returns the executable graph or NULL (case failed). */
static cudaGraphExec_t capture(cudaStream_t s, cublasHandle_t hg, gt_gemm *g, cudaGraph_t *graph)
{
    *graph = NULL;
    GT_CUDA(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    cublasStatus_t st = gt_run_gemm(0, hg, g);
    if (st != CUBLAS_STATUS_SUCCESS)
        gt_fail("shimmed call during capture: %s", gt_status_name(st));
    gt_still_capturing(s, "the shimmed call");
    return gt_end_capture(s, graph) ? gt_instantiate(*graph) : NULL;
}

/* Resets C (span elements from the pinned template), replays, downloads into out. */
static void replay(cudaStream_t s, cudaGraphExec_t exec, double *dCg, const double *tmpl,
                   size_t span, double *out)
{
    GT_CUDA(cudaMemcpyAsync(dCg, tmpl, span * sizeof *tmpl, cudaMemcpyHostToDevice, s));
    GT_CUDA(cudaGraphLaunch(exec, s));
    GT_CUDA(cudaStreamSynchronize(s));
    gt_d2h(out, dCg, span * sizeof *out);
}

void graph_group(void)
{
    const int64_t m1 = 384, n1 = 320, k1 = 256, m2 = 1024, n2 = 1024, k2 = 1024;
    const double alpha = 1.5, beta = -0.75, alpha_b = -0.5;
    int64_t Mb, Nb;
    size_t need1, need2;
    df_plan(m1, n1, k1, (size_t)1024 << 20, &Mb, &Nb, &need1);
    df_plan(m2, n2, k2, (size_t)1024 << 20, &Mb, &Nb, &need2);
    df_group("graph capture (own handle, non-blocking stream, 64 MiB cuBLAS workspace), "
          "small=never: %lldx%lldx%lld NT captured after an eager call (workspace ~%.1f MiB "
          "present), 2 replays bitwise the eager result, device alpha changed between replays; "
          "%lldx%lldx%lld TN (needs ~%.1f MiB) captured: native, bitwise real cuBLAS; "
          "small=always: the same captured on a fresh handle: df, bitwise the eager result",
          (long long)m1, (long long)n1, (long long)k1, (double)need1 / 1048576.0, (long long)m2,
          (long long)n2, (long long)k2, (double)need2 / 1048576.0);
    char *never = mode_with("small=never"), *always = mode_with("small=always");
    if (reread) /* else the blocking group has failed the run */
        set_mode(never);
    cudaStream_t s;
    cublasHandle_t hg;
    void *ws = NULL;
    const size_t ws_size = (size_t)64 << 20;
    GT_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    GT_CUBLAS(cublasCreate_v2(&hg));
    GT_CUBLAS(cublasSetStream_v2(hg, s));
    GT_CUDA(cudaMalloc(&ws, ws_size));
    GT_CUBLAS(cublasSetWorkspace_v2(hg, ws, ws_size));

    problem P1 = make_problem(m1, n1, k1, 1, 31), P2 = make_problem(m2, n2, k2, 1, 32);
    double *dA1 = gt_dmalloc((size_t)(m1 * k1) * 8), *dB1 = gt_dmalloc((size_t)(k1 * n1) * 8);
    double *dC1 = gt_dmalloc((size_t)(m1 * n1) * 8);
    double *dA2 = gt_dmalloc((size_t)(m2 * k2) * 8), *dB2 = gt_dmalloc((size_t)(k2 * n2) * 8);
    double *dC2 = gt_dmalloc((size_t)(m2 * n2) * 8);
    double *t1 = df_pinned((size_t)(m1 * n1)), *t2 = df_pinned((size_t)(m2 * n2));
    memcpy(t1, P1.C[0], (size_t)(m1 * n1) * 8);
    memcpy(t2, P2.C[0], (size_t)(m2 * n2) * 8);
    gt_h2d(dA1, hA, lay_out(hA, BUF, P1.A, 1, m1, k1, 0, m1, 0, qnan) * 8); /* N: m1 x k1 */
    gt_h2d(dB1, hB, lay_out(hB, BUF, P1.B, 1, k1, n1, 1, n1, 0, qnan) * 8); /* T: n1 x k1 */
    gt_h2d(dA2, hA, lay_out(hA, BUF, P2.A, 1, m2, k2, 1, k2, 0, qnan) * 8); /* T: k2 x m2 */
    gt_h2d(dB2, hB, lay_out(hB, BUF, P2.B, 1, k2, n2, 0, k2, 0, qnan) * 8); /* N: k2 x n2 */
    const size_t span1 = (size_t)(m1 * n1), span2 = (size_t)(m2 * n2);
    gt_gemm g1 = {.api = GT_DGEMM, .ta = CUBLAS_OP_N, .tb = CUBLAS_OP_T, .m = m1, .n = n1,
                  .k = k1, .batch = 1, .A = dA1, .B = dB1, .C = dC1, .lda = m1, .ldb = n1,
                  .ldc = m1, .alpha = &alpha, .beta = &beta};
    gt_gemm g2 = {.api = GT_DGEMM, .ta = CUBLAS_OP_T, .tb = CUBLAS_OP_N, .m = m2, .n = n2,
                  .k = k2, .batch = 1, .A = dA2, .B = dB2, .C = dC2, .lda = k2, .ldb = k2,
                  .ldc = m2, .alpha = &alpha, .beta = &beta};
    double *E1 = df_xmalloc(span1), *E1b = df_xmalloc(span1), *R2 = df_xmalloc(span2);
    double *out1 = df_xmalloc(span1), *out2 = df_xmalloc(span2);
    ref r1 = {0}, r2 = {0};
    cudaGraph_t graph = NULL;
    cudaGraphExec_t exec = NULL;

    gt_case("%lldx%lldx%lld NT eager through the shim (allocates the workspace) vs "
            "dfs_df_gemm_host (sampled)", (long long)m1, (long long)n1, (long long)k1);
    GT_CUBLAS(cublasSetPointerMode_v2(hg, CUBLAS_POINTER_MODE_HOST));
    gt_h2d(dC1, t1, span1 * 8);
    cublasStatus_t st = gt_run_gemm(0, hg, &g1);
    if (st != CUBLAS_STATUS_SUCCESS)
        gt_fail("status %s", gt_status_name(st));
    GT_CUDA(cudaStreamSynchronize(s));
    gt_d2h(E1, dC1, span1 * 8);
    ref_compute(&r1, &P1, 0, alpha, beta, 0);
    ref_check(&r1, E1, m1, n1, 0);
    /* and with alpha_b, for the device-pointer replays */
    g1.alpha = &alpha_b;
    gt_h2d(dC1, t1, span1 * 8);
    st = gt_run_gemm(0, hg, &g1);
    if (st != CUBLAS_STATUS_SUCCESS)
        gt_fail("status %s", gt_status_name(st));
    GT_CUDA(cudaStreamSynchronize(s));
    gt_d2h(E1b, dC1, span1 * 8);
    g1.alpha = &alpha;

    gt_case("%lldx%lldx%lld NT captured (host pointers), replayed twice: bitwise the eager "
            "result", (long long)m1, (long long)n1, (long long)k1);
    exec = capture(s, hg, &g1, &graph);
    for (int rep = 0; exec && rep < 2; rep++) {
        replay(s, exec, dC1, t1, span1, out1);
        cmp_tight(rep ? "replay 2 vs eager" : "replay 1 vs eager", "eager", E1, out1, m1, n1, 0);
    }
    if (exec)
        GT_CUDA(cudaGraphExecDestroy(exec));
    if (graph)
        GT_CUDA(cudaGraphDestroy(graph));

    gt_case("%lldx%lldx%lld NT captured with alpha/beta in device memory; alpha %g then %g "
            "between replays: bitwise the eager results", (long long)m1, (long long)n1,
            (long long)k1, alpha, alpha_b);
    {
        double ab[2] = {alpha, beta};
        gt_h2d(d_ab, ab, sizeof ab);
        GT_CUBLAS(cublasSetPointerMode_v2(hg, CUBLAS_POINTER_MODE_DEVICE));
        g1.alpha = &d_ab[0];
        g1.beta = &d_ab[1];
        exec = capture(s, hg, &g1, &graph);
        GT_CUBLAS(cublasSetPointerMode_v2(hg, CUBLAS_POINTER_MODE_HOST));
        g1.alpha = &alpha;
        g1.beta = &beta;
        if (exec) {
            replay(s, exec, dC1, t1, span1, out1);
            cmp_tight("replay with alpha 1.5 vs eager", "eager", E1, out1, m1, n1, 0);
            ab[0] = alpha_b;
            gt_h2d(d_ab, ab, sizeof ab);
            replay(s, exec, dC1, t1, span1, out1);
            cmp_tight("replay with alpha -0.5 vs eager", "eager", E1b, out1, m1, n1, 0);
            GT_CUDA(cudaGraphExecDestroy(exec));
        }
        if (graph)
            GT_CUDA(cudaGraphDestroy(graph));
    }

    gt_case("%lldx%lldx%lld TN captured, needing more workspace than allocated: capture "
            "succeeds, the call runs natively: 2 replays bitwise real cuBLAS (eager, same "
            "workspace)", (long long)m2, (long long)n2, (long long)k2);
    gt_h2d(dC2, t2, span2 * 8);
    st = gt_run_gemm(1, hg, &g2);
    if (st != CUBLAS_STATUS_SUCCESS)
        gt_fail("real cuBLAS: status %s", gt_status_name(st));
    GT_CUDA(cudaStreamSynchronize(s));
    gt_d2h(R2, dC2, span2 * 8);
    exec = capture(s, hg, &g2, &graph);
    for (int rep = 0; exec && rep < 2; rep++) {
        replay(s, exec, dC2, t2, span2, out2);
        cmp_tight(rep ? "replay 2 vs real cuBLAS" : "replay 1 vs real cuBLAS", "real", R2, out2,
                  m2, n2, 0);
    }
    if (exec)
        GT_CUDA(cudaGraphExecDestroy(exec));
    if (graph)
        GT_CUDA(cudaGraphDestroy(graph));

    gt_case("%lldx%lldx%lld TN eager after that capture: the engine grows its workspace: "
            "dfs_df_gemm_host (sampled)", (long long)m2, (long long)n2, (long long)k2);
    gt_h2d(dC2, t2, span2 * 8);
    st = gt_run_gemm(0, hg, &g2);
    if (st != CUBLAS_STATUS_SUCCESS)
        gt_fail("status %s", gt_status_name(st));
    GT_CUDA(cudaStreamSynchronize(s));
    gt_d2h(out2, dC2, span2 * 8);
    ref_compute(&r2, &P2, 0, alpha, beta, 0);
    ref_check(&r2, out2, m2, n2, 0);

    gt_case("%lldx%lldx%lld TN with small=always, captured on a fresh handle's first call (no "
            "workspace: the small kernel takes none): 2 replays bitwise the eager result above",
            (long long)m2, (long long)n2, (long long)k2);
    if (reread) {
        cublasHandle_t h3;
        GT_CUBLAS(cublasCreate_v2(&h3));
        GT_CUBLAS(cublasSetStream_v2(h3, s));
        GT_CUBLAS(cublasSetWorkspace_v2(h3, ws, ws_size));
        set_mode(always);
        exec = capture(s, h3, &g2, &graph);
        for (int rep = 0; exec && rep < 2; rep++) {
            replay(s, exec, dC2, t2, span2, R2);
            cmp_tight(rep ? "replay 2 vs eager (small=never)" : "replay 1 vs eager (small=never)",
                      "eager", out2, R2, m2, n2, 0);
        }
        if (exec)
            GT_CUDA(cudaGraphExecDestroy(exec));
        if (graph)
            GT_CUDA(cudaGraphDestroy(graph));
        GT_CUBLAS(cublasDestroy_v2(h3));
        set_mode(mode_orig);
    }
    free(never);
    free(always);

    GT_CUBLAS(cublasDestroy_v2(hg));
    GT_CUDA(cudaStreamDestroy(s));
    GT_CUDA(cudaFree(ws));
    GT_CUDA(cudaFree(dA1));
    GT_CUDA(cudaFree(dB1));
    GT_CUDA(cudaFree(dC1));
    GT_CUDA(cudaFree(dA2));
    GT_CUDA(cudaFree(dB2));
    GT_CUDA(cudaFree(dC2));
    GT_CUDA(cudaFreeHost(t1));
    GT_CUDA(cudaFreeHost(t2));
    ref_free(&r1);
    ref_free(&r2);
    free(E1);
    free(E1b);
    free(R2);
    free(out1);
    free(out2);
    free_problem(&P1);
    free_problem(&P2);
    df_group_end();
}
