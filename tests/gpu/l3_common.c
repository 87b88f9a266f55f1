/* l3_common.c — the Level-3 GPU tests' shared plumbing (l3_common.h). */
#include "l3_common.h"

#include <cublas.h>
#include <stdio.h>
#include <string.h>

const char *const l3_fname[F_COUNT] = {"v2", "_64", "legacy"};
cublasHandle_t l3_h;
cudaStream_t l3_stream;

void l3_start(const char *test, const char *what)
{
    printf("%s: EXBLAS_MODE=%s: %s\n", test, gt_mode() ? gt_mode() : "(unset)", what);
    GT_CUBLAS(cublasCreate_v2(&l3_h));
    if (cublasInit() != CUBLAS_STATUS_SUCCESS)
        gt_fatal("cublasInit failed");
    GT_CUDA(cudaStreamCreateWithFlags(&l3_stream, cudaStreamNonBlocking));
}

int l3_finish(void)
{
    GT_CUDA(cudaStreamDestroy(l3_stream));
    return gt_finish();
}

void l3_pointer_mode(int dev)
{
    GT_CUBLAS(cublasSetPointerMode_v2(l3_h, dev ? CUBLAS_POINTER_MODE_DEVICE
                                                : CUBLAS_POINTER_MODE_HOST));
}

int l3_call_ok(cublasStatus_t st)
{
    GT_CUDA(cudaDeviceSynchronize());
    if (st == CUBLAS_STATUS_SUCCESS)
        return 1;
    gt_fail("status %s", gt_status_name(st));
    return 0;
}

void l3_capture_begin(void)
{
    GT_CUBLAS(cublasSetStream_v2(l3_h, l3_stream));
    GT_CUDA(cudaStreamBeginCapture(l3_stream, cudaStreamCaptureModeGlobal));
}

cudaGraphExec_t l3_capture_end(cudaGraph_t *graph)
{
    *graph = NULL;
    return gt_end_capture(l3_stream, graph) ? gt_instantiate(*graph) : NULL;
}

void l3_replay(cudaGraphExec_t exec)
{
    GT_CUDA(cudaGraphLaunch(exec, l3_stream));
    GT_CUDA(cudaStreamSynchronize(l3_stream));
}

void l3_capture_free(cudaGraphExec_t exec, cudaGraph_t graph)
{
    if (exec)
        GT_CUDA(cudaGraphExecDestroy(exec));
    if (graph)
        GT_CUDA(cudaGraphDestroy(graph));
    GT_CUBLAS(cublasSetStream_v2(l3_h, NULL));
}

int l3_in_tri(int lower, int64_t i, int64_t j)
{
    return lower ? i >= j : i <= j;
}

int l3_same(double a, double b)
{
    return !memcmp(&a, &b, sizeof a);
}
