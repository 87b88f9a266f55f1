/* two_gpus — two GPUs in one process, a cuBLAS handle (and a cuBLASLt handle) on each, in the
 * engine EXBLAS_MODE names.  Skipped (77) with fewer than two devices.
 *
 *   1. Interleaved: for each device in turn (made current), DGEMM (op T, N), DGEMV (op T), DDOT
 *      (result on the device) and an FP64 cublasLtMatmul, on the same data copied to both
 *      devices.  Every result is within 2^-30 of sum |terms| of the real cuBLAS's on device 0
 *      (an engine computing on the wrong device, or with another device's workspace, faults or
 *      gives garbage), and, in an engine, device 1's bits are device 0's (the same engine on two
 *      GPUs of one model).
 *   2. Concurrently: one thread per device, each with its own non-blocking stream, repeats the
 *      four calls 30 times; every result bit for bit that of step 1 on its device.
 *   3. Device 1's handle is destroyed (through the shim, freeing its state and workspace) while
 *      device 0 keeps computing; a new handle on device 1 computes step 1's results again. */
#include "common.h"

#include <cublasLt.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define M 384
#define N 320
#define K 448
#define REPEAT 30

typedef struct {
    int dev;
    cublasHandle_t h;
    cublasLtHandle_t lt;
    cudaStream_t stream;
    double *A, *B, *C, *C2, *x, *y, *r;
    /* step 1's results on this device */
    double gemm[M * N], gemv[N], dot, ltm[M * N];
    int failed;
} gpu;

static double hA[K * M], hB[K * N], hx[K];
static gpu g[2];

static void setup(gpu *d, int dev)
{
    d->dev = dev;
    GT_CUDA(cudaSetDevice(dev));
    GT_CUBLAS(cublasCreate_v2(&d->h));
    GT_CUBLAS(cublasLtCreate(&d->lt));
    d->stream = 0;
    d->A = gt_dmalloc(sizeof hA), d->B = gt_dmalloc(sizeof hB);
    d->C = gt_dmalloc(8 * M * N), d->C2 = gt_dmalloc(8 * M * N);
    d->x = gt_dmalloc(sizeof hx), d->y = gt_dmalloc(8 * N), d->r = gt_dmalloc(8);
    gt_h2d(d->A, hA, sizeof hA), gt_h2d(d->B, hB, sizeof hB), gt_h2d(d->x, hx, sizeof hx);
}

/* The four calls on device d (current), results into the host arrays. */
static void compute(gpu *d, double *gemm, double *gemv, double *dot, double *ltm)
{
    const double one = 1.0, zero = 0.0;
    cublasHandle_t h = d->h;
    GT_CUBLAS(cublasSetStream_v2(h, d->stream));
    GT_CUBLAS(cublasSetPointerMode_v2(h, CUBLAS_POINTER_MODE_HOST));
    /* C (M x N) = A^T B, A stored K x M, B K x N */
    GT_CUBLAS(cublasDgemm_v2(h, CUBLAS_OP_T, CUBLAS_OP_N, M, N, K, &one, d->A, K, d->B, K, &zero,
                             d->C, M));
    /* y (N) = B^T x */
    GT_CUBLAS(cublasDgemv_v2(h, CUBLAS_OP_T, K, N, &one, d->B, K, d->x, 1, &zero, d->y, 1));
    GT_CUBLAS(cublasSetPointerMode_v2(h, CUBLAS_POINTER_MODE_DEVICE));
    GT_CUBLAS(cublasDdot_v2(h, K, d->x, 1, d->A, 1, d->r));
    GT_CUBLAS(cublasSetPointerMode_v2(h, CUBLAS_POINTER_MODE_HOST));
    /* the same product through cuBLASLt, into C2 */
    cublasLtMatmulDesc_t desc;
    GT_CUBLAS(cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_64F, CUDA_R_64F));
    int32_t t = CUBLAS_OP_T;
    GT_CUBLAS(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSA, &t, 4));
    cublasLtMatrixLayout_t la, lb, lc;
    GT_CUBLAS(cublasLtMatrixLayoutCreate(&la, CUDA_R_64F, K, M, K));
    GT_CUBLAS(cublasLtMatrixLayoutCreate(&lb, CUDA_R_64F, K, N, K));
    GT_CUBLAS(cublasLtMatrixLayoutCreate(&lc, CUDA_R_64F, M, N, M));
    GT_CUBLAS(cublasLtMatmul(d->lt, desc, &one, d->A, la, d->B, lb, &zero, d->C2, lc, d->C2, lc,
                             NULL, NULL, 0, d->stream));
    GT_CUDA(cudaStreamSynchronize(d->stream));
    cublasLtMatmulDescDestroy(desc);
    cublasLtMatrixLayoutDestroy(la), cublasLtMatrixLayoutDestroy(lb), cublasLtMatrixLayoutDestroy(lc);
    gt_d2h(gemm, d->C, 8 * M * N);
    gt_d2h(gemv, d->y, 8 * N);
    gt_d2h(dot, d->r, 8);
    gt_d2h(ltm, d->C2, 8 * M * N);
}

/* got within 2^-30 of S of want, S from the magnitudes (|A|^T |B| etc. computed on the host). */
static void near(const char *what, const double *want, const double *got, const double *S,
                 size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!(fabs(got[i] - want[i]) <= 0x1p-30 * S[i] + 0x1p-1000)) {
            gt_fail("%s[%zu] = %.17g, the real cuBLAS gives %.17g", what, i, got[i], want[i]);
            return;
        }
}

static void *worker(void *arg)
{
    gpu *d = arg;
    double *gemm = malloc(8 * M * N), *ltm = malloc(8 * M * N), gemv[N], dot;
    if (!gemm || !ltm)
        gt_fatal("out of host memory");
    GT_CUDA(cudaSetDevice(d->dev));
    GT_CUDA(cudaStreamCreateWithFlags(&d->stream, cudaStreamNonBlocking));
    for (int i = 0; i < REPEAT && !d->failed; i++) {
        compute(d, gemm, gemv, &dot, ltm);
        d->failed = memcmp(gemm, d->gemm, 8 * M * N) || memcmp(gemv, d->gemv, sizeof gemv) ||
                    memcmp(&dot, &d->dot, 8) || memcmp(ltm, d->ltm, 8 * M * N);
    }
    GT_CUDA(cudaStreamSynchronize(d->stream));
    GT_CUDA(cudaStreamDestroy(d->stream));
    d->stream = 0;
    free(gemm), free(ltm);
    return NULL;
}

int main(void)
{
    gt_init("two_gpus");
    int count = 0;
    GT_CUDA(cudaGetDeviceCount(&count));
    if (count < 2) {
        printf("two_gpus: SKIP: %d device(s)\n", count);
        return 77;
    }
    const char *mode = gt_mode();
    const int engine = !gt_mode_is("native");
    gt_fill(hA, K * M, 1), gt_fill(hB, K * N, 2), gt_fill(hx, K, 3);
    for (int d = 0; d < 2; d++)
        setup(&g[d], d);

    /* references: the real cuBLAS on device 0, and the magnitudes */
    static double ref_gemm[M * N], ref_gemv[N], S_gemm[M * N], S_gemv[N], ref_dot, S_dot = 0;
    GT_CUDA(cudaSetDevice(0));
    const double one = 1.0, zero = 0.0;
    GT_CUBLAS(gt_real.Dgemm(g[0].h, CUBLAS_OP_T, CUBLAS_OP_N, M, N, K, &one, g[0].A, K, g[0].B, K,
                            &zero, g[0].C, M));
    GT_CUBLAS(gt_real.Dgemv(g[0].h, CUBLAS_OP_T, K, N, &one, g[0].B, K, g[0].x, 1, &zero, g[0].y, 1));
    GT_CUBLAS(gt_real.Ddot(g[0].h, K, g[0].x, 1, g[0].A, 1, &ref_dot));
    gt_d2h(ref_gemm, g[0].C, sizeof ref_gemm);
    gt_d2h(ref_gemv, g[0].y, sizeof ref_gemv);
    for (int j = 0; j < N; j++) {
        for (int i = 0; i < M; i++) {
            double s = 0;
            for (int p = 0; p < K; p++)
                s += fabs(hA[p + i * K] * hB[p + j * K]);
            S_gemm[i + j * M] = s;
        }
        double s = 0;
        for (int p = 0; p < K; p++)
            s += fabs(hB[p + j * K] * hx[p]);
        S_gemv[j] = s;
    }
    for (int p = 0; p < K; p++)
        S_dot += fabs(hx[p] * hA[p]);

    gt_group("interleaved calls on two devices (%s)", engine ? mode : "native");
    for (int round = 0; round < 2; round++)
        for (int d = 0; d < 2; d++) {
            gt_case("round %d, device %d", round, d);
            GT_CUDA(cudaSetDevice(d));
            compute(&g[d], g[d].gemm, g[d].gemv, &g[d].dot, g[d].ltm);
            near("dgemm", ref_gemm, g[d].gemm, S_gemm, M * N);
            near("dgemv", ref_gemv, g[d].gemv, S_gemv, N);
            near("ddot", &ref_dot, &g[d].dot, &S_dot, 1);
            near("cublasLtMatmul", ref_gemm, g[d].ltm, S_gemm, M * N);
        }
    if (engine) {
        gt_case("device 1's bits are device 0's");
        gt_cmp("dgemm", g[0].gemm, g[1].gemm, M * N, 8, M);
        gt_cmp("dgemv", g[0].gemv, g[1].gemv, N, 8, 0);
        gt_cmp("ddot", &g[0].dot, &g[1].dot, 1, 8, 0);
        gt_cmp("cublasLtMatmul", g[0].ltm, g[1].ltm, M * N, 8, M);
    }

    gt_group("one thread per device, %d rounds each", REPEAT);
    gt_case("both threads");
    pthread_t th[2];
    for (int d = 0; d < 2; d++)
        if (pthread_create(&th[d], NULL, worker, &g[d]))
            gt_fatal("pthread_create");
    for (int d = 0; d < 2; d++)
        pthread_join(th[d], NULL);
    for (int d = 0; d < 2; d++)
        if (g[d].failed)
            gt_fail("device %d: a result differs from its first", d);

    gt_group("device 1's handle destroyed while device 0 computes");
    gt_case("destroy and recreate");
    GT_CUDA(cudaSetDevice(1));
    GT_CUBLAS(cublasDestroy_v2(g[1].h));
    GT_CUDA(cudaSetDevice(0));
    static double gemm[M * N], ltm[M * N];
    double gemv[N], dot;
    compute(&g[0], gemm, gemv, &dot, ltm);
    gt_cmp("dgemm on device 0", g[0].gemm, gemm, M * N, 8, M);
    GT_CUDA(cudaSetDevice(1));
    GT_CUBLAS(cublasCreate_v2(&g[1].h));
    compute(&g[1], gemm, gemv, &dot, ltm);
    gt_cmp("dgemm on a new handle on device 1", g[1].gemm, gemm, M * N, 8, M);
    gt_cmp("dgemv on a new handle on device 1", g[1].gemv, gemv, N, 8, 0);
    gt_cmp("cublasLtMatmul on device 1", g[1].ltm, ltm, M * N, 8, M);
    for (int d = 0; d < 2; d++) {
        GT_CUDA(cudaSetDevice(d));
        cublasDestroy_v2(g[d].h);
        cublasLtDestroy(g[d].lt);
    }
    return gt_finish();
}
