/* graph_capture — shimmed calls captured into CUDA graphs (global capture mode).
 *  graph 1: a Dgemm, a Dgemv and a device-pointer-mode Ddot reading the Dgemv's output; the
 *           capture must end successfully and each of 3 replays must give bitwise what the same
 *           sequence gives eagerly through the real cuBLAS.
 *  graph 2: a Dgemm with device-pointer alpha/beta; alpha changes between replays (the scalars
 *           must be read at replay time, not at capture time).
 *  Both with a user workspace (cublasSetWorkspace), so that cuBLAS has the same workspace, hence
 *  the same algorithms, eagerly and under capture.
 *  graph 3: graph 1's sequence with cuBLAS's default workspace (as most applications run):
 *           captured once through the shim and once through the real functions; the replays
 *           must agree bitwise (a difference from the eager results is only reported: it would
 *           be cuBLAS's own behaviour under capture).
 * Run also with EXBLAS_TIMING=1: timing must leave captured calls alone. */
#include "common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define M 200
#define N 150
#define K 100
#define LDA (M + 1)
#define LDB (N)
#define LDC (M + 2)
#define M2 300
#define N2 200
#define REPLAYS 3
#define WORKSPACE (64u << 20) /* above the 32 MiB cuBLAS recommends for Hopper */

static cudaStream_t s;
static cublasHandle_t h;
/* A is used as M x K and as K x M (lda = LDA), B as N x K and as K x N (ldb = LDB). */
static double *A, *B, *C0, *A2, *x, *y_init, *x2;
static const size_t nC = (size_t)LDC * N;
static const double alpha = 0.75, beta = 0.5, galpha = -1.25, gbeta = -1.0;
static const double sentinel = -12345.678;

static double *upload_random(size_t n, uint64_t seed)
{
    double *hb = gt_hmalloc(n * sizeof *hb);
    gt_fill(hb, n, seed);
    double *d = gt_dmalloc(n * sizeof *d);
    gt_h2d(d, hb, n * sizeof *hb);
    free(hb);
    return d;
}

static double *copy_of(const double *src, size_t n)
{
    double *d = gt_dmalloc(n * sizeof *d);
    GT_CUDA(cudaMemcpy(d, src, n * sizeof *d, cudaMemcpyDeviceToDevice));
    return d;
}

/* Outputs of the Dgemm / Dgemv / Ddot sequence, on the device and copied to the host. */
typedef struct {
    double *C, *y, *r;
    double *hC, *hy, hr;
} outs;

static outs new_outs(void)
{
    outs o = {copy_of(C0, nC), copy_of(y_init, M2), gt_dmalloc(sizeof(double)),
              gt_hmalloc(nC * sizeof(double)), gt_hmalloc(M2 * sizeof(double)), 0};
    gt_h2d(o.r, &sentinel, sizeof sentinel);
    return o;
}

static void download(outs *o)
{
    gt_d2h(o->hC, o->C, nC * sizeof *o->hC);
    gt_d2h(o->hy, o->y, M2 * sizeof *o->hy);
    gt_d2h(&o->hr, o->r, sizeof o->hr);
}

static void check_status(int real, const char *what, cublasStatus_t st, int capturing)
{
    if (st != CUBLAS_STATUS_SUCCESS)
        gt_fail("%s %s%s: %s", real ? "real" : "shimmed", what,
                capturing ? " during capture" : "", gt_status_name(st));
    if (capturing)
        gt_still_capturing(s, what);
}

/* Dgemm NT, Dgemv N, then a device-pointer-mode Ddot of x2 with the Dgemv's y. */
static void sequence(int real, const outs *o, int capturing)
{
    gt_gemm g = {.api = GT_DGEMM, .ta = CUBLAS_OP_N, .tb = CUBLAS_OP_T, .m = M, .n = N, .k = K,
                 .alpha = &alpha, .A = A, .lda = LDA, .B = B, .ldb = LDB, .beta = &beta,
                 .C = o->C, .ldc = LDC, .batch = 1};
    check_status(real, "Dgemm", gt_run_gemm(real, h, &g), capturing);
    gt_gemv v = {.trans = CUBLAS_OP_N, .m = M2, .n = N2, .alpha = &galpha, .A = A2, .lda = M2,
                 .x = x, .incx = 1, .beta = &gbeta, .y = o->y, .incy = 1};
    check_status(real, "Dgemv", gt_run_gemv(real, h, &v), capturing);
    GT_CUBLAS(cublasSetPointerMode_v2(h, CUBLAS_POINTER_MODE_DEVICE));
    gt_dot d = {.n = M2, .x = x2, .incx = 1, .y = o->y, .incy = 1, .result = o->r};
    check_status(real, "Ddot (device result)", gt_run_dot(real, h, &d), capturing);
    GT_CUBLAS(cublasSetPointerMode_v2(h, CUBLAS_POINTER_MODE_HOST));
}

/* Ends the capture begun on s; on success instantiates.  Returns the executable graph or NULL
 * (and fails the current case). */
static cudaGraphExec_t end_capture(cudaGraph_t *graph)
{
    *graph = NULL;
    if (!gt_end_capture(s, graph))
        return NULL;
    size_t nodes = 0;
    GT_CUDA(cudaGraphGetNodes(*graph, NULL, &nodes));
    if (nodes == 0)
        gt_fail("the captured graph has no nodes");
    cudaGraphExec_t exec = gt_instantiate(*graph);
    if (!exec)
        return NULL;
    gt_note("captured graph: %zu nodes", nodes);
    return exec;
}

static cudaGraphExec_t capture_sequence(int real, const outs *o, cudaGraph_t *graph)
{
    GT_CUDA(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    sequence(real, o, 1);
    cudaGraphExec_t exec = end_capture(graph);
    double r = 0;
    gt_d2h(&r, o->r, sizeof r);
    if (r != sentinel)
        gt_fail("the Ddot result changed during capture (the call ran instead of being captured)");
    return exec;
}

static void destroy_graph(cudaGraphExec_t exec, cudaGraph_t graph)
{
    if (exec)
        GT_CUDA(cudaGraphExecDestroy(exec));
    if (graph)
        GT_CUDA(cudaGraphDestroy(graph));
}

int main(void)
{
    gt_init("graph_capture");
    GT_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    GT_CUBLAS(cublasCreate_v2(&h));
    GT_CUBLAS(cublasSetStream_v2(h, s));
    void *ws = gt_dmalloc(WORKSPACE);
    GT_CUBLAS(cublasSetWorkspace_v2(h, ws, WORKSPACE)); /* after SetStream, which resets it */

    A = upload_random((size_t)LDA * M, 41);
    B = upload_random((size_t)LDB * N, 42);
    C0 = upload_random(nC, 43);
    A2 = upload_random((size_t)M2 * N2, 44);
    x = upload_random(N2, 45);
    y_init = upload_random(M2, 46);
    x2 = upload_random(M2, 47);

    /* The eager reference: the real functions, REPLAYS times in a row. */
    outs ref[REPLAYS], e = new_outs();
    for (int it = 0; it < REPLAYS; it++) {
        sequence(1, &e, 0);
        GT_CUDA(cudaStreamSynchronize(s));
        download(&e);
        ref[it] = e;
        ref[it].hC = gt_hmalloc(nC * sizeof(double));
        ref[it].hy = gt_hmalloc(M2 * sizeof(double));
        memcpy(ref[it].hC, e.hC, nC * sizeof(double));
        memcpy(ref[it].hy, e.hy, M2 * sizeof(double));
    }

    /* ---------- graph 1 ---------- */
    gt_group("graph 1: shimmed Dgemm(NT) + Dgemv(N) + Ddot(device result, reads the Dgemv's y), "
             "user workspace, %d replays vs eager real cuBLAS", REPLAYS);
    gt_case("capture");
    outs g1 = new_outs();
    cudaGraph_t graph;
    cudaGraphExec_t exec = capture_sequence(0, &g1, &graph);
    for (int it = 0; exec && it < REPLAYS; it++) {
        gt_case("replay %d", it + 1);
        GT_CUDA(cudaGraphLaunch(exec, s));
        GT_CUDA(cudaStreamSynchronize(s));
        download(&g1);
        gt_cmp("C (Dgemm)", ref[it].hC, g1.hC, nC, 8, LDC);
        gt_cmp("y (Dgemv)", ref[it].hy, g1.hy, M2, 8, 0);
        gt_cmp("result (Ddot)", &ref[it].hr, &g1.hr, 1, 8, 0);
    }
    destroy_graph(exec, graph);

    /* ---------- graph 2 ---------- */
    gt_group("graph 2: shimmed Dgemm(TN) with device-pointer alpha/beta, user workspace, alpha "
             "changed between %d replays", REPLAYS);
    const double alphas[REPLAYS] = {1.0, -2.0, 0.5};
    double scal[2] = {0, 0.25};
    double *d_scal = gt_dmalloc(sizeof scal);
    double *C2r = copy_of(C0, nC), *C2g = copy_of(C0, nC);
    double *refC2 = gt_hmalloc(REPLAYS * nC * sizeof *refC2), *hC = gt_hmalloc(nC * sizeof *hC);
    gt_gemm g2 = {.api = GT_DGEMM, .ta = CUBLAS_OP_T, .tb = CUBLAS_OP_N, .m = M, .n = N, .k = K,
                  .alpha = &d_scal[0], .A = A, .lda = LDA, .B = B, .ldb = LDB,
                  .beta = &d_scal[1], .ldc = LDC, .batch = 1};
    GT_CUBLAS(cublasSetPointerMode_v2(h, CUBLAS_POINTER_MODE_DEVICE));
    for (int it = 0; it < REPLAYS; it++) {
        scal[0] = alphas[it];
        gt_h2d(d_scal, scal, sizeof scal);
        g2.C = C2r;
        GT_CUBLAS(gt_run_gemm(1, h, &g2));
        GT_CUDA(cudaStreamSynchronize(s));
        gt_d2h(refC2 + it * nC, C2r, nC * sizeof *C2r);
    }
    gt_case("capture");
    scal[0] = 99.0; /* what alpha holds at capture time: must not be used */
    gt_h2d(d_scal, scal, sizeof scal);
    GT_CUDA(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    g2.C = C2g;
    check_status(0, "Dgemm (device alpha/beta)", gt_run_gemm(0, h, &g2), 1);
    exec = end_capture(&graph);
    GT_CUBLAS(cublasSetPointerMode_v2(h, CUBLAS_POINTER_MODE_HOST));
    for (int it = 0; exec && it < REPLAYS; it++) {
        gt_case("replay %d, alpha = %g", it + 1, alphas[it]);
        scal[0] = alphas[it];
        gt_h2d(d_scal, scal, sizeof scal);
        GT_CUDA(cudaGraphLaunch(exec, s));
        GT_CUDA(cudaStreamSynchronize(s));
        gt_d2h(hC, C2g, nC * sizeof *hC);
        gt_cmp("C", refC2 + it * nC, hC, nC, 8, LDC);
    }
    destroy_graph(exec, graph);

    /* ---------- graph 3 ---------- */
    gt_group("graph 3: graph 1's sequence with cuBLAS's default workspace, captured through the "
             "shim and through the real cuBLAS, %d replays each", REPLAYS);
    GT_CUBLAS(cublasSetStream_v2(h, s)); /* back to the default workspace */
    outs g3s = new_outs(), g3r = new_outs();
    cudaGraph_t graph_s, graph_r;
    gt_case("capture through the real cuBLAS");
    cudaGraphExec_t exec_r = capture_sequence(1, &g3r, &graph_r);
    gt_case("capture through the shim");
    cudaGraphExec_t exec_s = capture_sequence(0, &g3s, &graph_s);
    for (int it = 0; exec_r && exec_s && it < REPLAYS; it++) {
        gt_case("replay %d", it + 1);
        GT_CUDA(cudaGraphLaunch(exec_r, s));
        GT_CUDA(cudaGraphLaunch(exec_s, s));
        GT_CUDA(cudaStreamSynchronize(s));
        download(&g3r);
        download(&g3s);
        int same = gt_cmp("C (Dgemm) vs the real capture", g3r.hC, g3s.hC, nC, 8, LDC);
        same &= gt_cmp("y (Dgemv) vs the real capture", g3r.hy, g3s.hy, M2, 8, 0);
        same &= gt_cmp("result (Ddot) vs the real capture", &g3r.hr, &g3s.hr, 1, 8, 0);
        if (same && (memcmp(g3s.hC, ref[it].hC, nC * sizeof(double)) ||
                     memcmp(g3s.hy, ref[it].hy, M2 * sizeof(double)) ||
                     memcmp(&g3s.hr, &ref[it].hr, sizeof(double))))
            gt_note("the replay differs from the eager results, for the real capture too: "
                    "cuBLAS computes differently under capture with its default workspace "
                    "(not a shim failure)");
    }
    destroy_graph(exec_r, graph_r);
    destroy_graph(exec_s, graph_s);

    /* ---------- eager calls after the captures ---------- */
    gt_group("after the captures: eager shimmed Dgemm, Dgemv, host-mode Ddot vs real");
    gt_case("Dgemm, Dgemv");
    outs er = new_outs(), es = new_outs();
    sequence(1, &er, 0);
    sequence(0, &es, 0);
    GT_CUDA(cudaStreamSynchronize(s));
    download(&er);
    download(&es);
    gt_cmp("C (Dgemm)", er.hC, es.hC, nC, 8, LDC);
    gt_cmp("y (Dgemv)", er.hy, es.hy, M2, 8, 0);
    gt_cmp("result (Ddot, device)", &er.hr, &es.hr, 1, 8, 0);
    gt_case("Ddot host result");
    double dr = sentinel, ds = sentinel;
    gt_dot d = {.n = M2, .x = x2, .incx = 1, .y = y_init, .incy = 1, .result = &dr};
    check_status(1, "Ddot", gt_run_dot(1, h, &d), 0);
    d.result = &ds;
    check_status(0, "Ddot", gt_run_dot(0, h, &d), 0);
    gt_cmp("result", &dr, &ds, 1, 8, 0);
    gt_check_modes(h, CUBLAS_POINTER_MODE_HOST, CUBLAS_DEFAULT_MATH);
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess)
        gt_fail("cudaGetLastError: %s", cudaGetErrorName(err));

    GT_CUBLAS(cublasDestroy_v2(h));
    GT_CUDA(cudaStreamDestroy(s));
    return gt_finish();
}
