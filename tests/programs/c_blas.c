/* c_blas.c — a plain C program that calls cuBLAS the way C codes do and knows nothing of dfshim:
 * the v2 API through <cublas_v2.h> (whose macros turn cublasDgemm into cublasDgemm_v2, and so
 * on), in both pointer modes, and cudaMalloc'd memory.  (The legacy API is in c_blas_legacy.c:
 * <cublas.h> and <cublas_v2.h> cannot share a translation unit.)  The data are small integers,
 * so every result is exact and compared bit for bit with a plain C loop.  Prints
 * "c_blas: ok" and exits 0, or names the first difference and exits 1.  tests/ links it to the
 * real libraries (GPU suite) and to the stand-ins (interposition suite). */
#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int c_blas_legacy(const double *dA, const double *A, int m, int k);

#define M 33
#define N 21
#define K 45

static void check(int ok, const char *what)
{
    if (!ok) {
        printf("c_blas: %s failed\n", what);
        exit(1);
    }
}

static void compare(const char *what, const double *got, const double *want, int n)
{
    for (int i = 0; i < n; i++)
        if (memcmp(&got[i], &want[i], sizeof got[i])) {
            printf("c_blas: %s element %d is %g, expected %g\n", what, i, got[i], want[i]);
            exit(1);
        }
}

int main(void)
{
    static double A[M * K], B[K * N], C[M * N], W[M * N], x[K], y[M], wy[M];
    for (int i = 0; i < M * K; i++)
        A[i] = (double)((i * 7) % 13 - 6);
    for (int i = 0; i < K * N; i++)
        B[i] = (double)((i * 5) % 11 - 5);
    for (int i = 0; i < K; i++)
        x[i] = (double)(i % 5 - 2);
    for (int i = 0; i < M * N; i++)
        C[i] = 1.0;
    for (int i = 0; i < M; i++)
        y[i] = -1.0;
    double *dA, *dB, *dC, *dx, *dy, *dr;
    check(cudaMalloc((void **)&dA, sizeof A) == cudaSuccess, "cudaMalloc");
    check(cudaMalloc((void **)&dB, sizeof B) == cudaSuccess, "cudaMalloc");
    check(cudaMalloc((void **)&dC, sizeof C) == cudaSuccess, "cudaMalloc");
    check(cudaMalloc((void **)&dx, sizeof x) == cudaSuccess, "cudaMalloc");
    check(cudaMalloc((void **)&dy, sizeof y) == cudaSuccess, "cudaMalloc");
    check(cudaMalloc((void **)&dr, 3 * sizeof(double)) == cudaSuccess, "cudaMalloc");
    check(cudaMemcpy(dA, A, sizeof A, cudaMemcpyHostToDevice) == cudaSuccess, "copy A");
    check(cudaMemcpy(dB, B, sizeof B, cudaMemcpyHostToDevice) == cudaSuccess, "copy B");
    check(cudaMemcpy(dC, C, sizeof C, cudaMemcpyHostToDevice) == cudaSuccess, "copy C");
    check(cudaMemcpy(dx, x, sizeof x, cudaMemcpyHostToDevice) == cudaSuccess, "copy x");
    check(cudaMemcpy(dy, y, sizeof y, cudaMemcpyHostToDevice) == cudaSuccess, "copy y");

    cublasHandle_t h;
    check(cublasCreate(&h) == CUBLAS_STATUS_SUCCESS, "cublasCreate");
    /* C = 3 A^T(as stored K x M, transposed) ... kept simple: C = 3 A B - C, A M x K */
    const double three = 3.0, minus1 = -1.0, one = 1.0, half = 0.5;
    check(cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, M, N, K, &three, dA, M, dB, K, &minus1, dC, M) ==
              CUBLAS_STATUS_SUCCESS, "cublasDgemm");
    check(cudaMemcpy(C, dC, sizeof C, cudaMemcpyDeviceToHost) == cudaSuccess, "copy C back");
    for (int j = 0; j < N; j++)
        for (int i = 0; i < M; i++) {
            double s = 0;
            for (int l = 0; l < K; l++)
                s += A[i + l * M] * B[l + j * K];
            W[i + j * M] = 3.0 * s - 1.0;
        }
    compare("cublasDgemm", C, W, M * N);

    check(cublasDgemv(h, CUBLAS_OP_N, M, K, &one, dA, M, dx, 1, &half, dy, 1) ==
              CUBLAS_STATUS_SUCCESS, "cublasDgemv");
    check(cudaMemcpy(y, dy, sizeof y, cudaMemcpyDeviceToHost) == cudaSuccess, "copy y back");
    for (int i = 0; i < M; i++) {
        double s = 0;
        for (int l = 0; l < K; l++)
            s += A[i + l * M] * x[l];
        wy[i] = s - 0.5;
    }
    compare("cublasDgemv", y, wy, M);

    /* DDOT with the result in host memory, then in device memory */
    double r = 0, wr = 0, rd = 0;
    for (int i = 0; i < K; i++)
        wr += x[i] * x[i];
    check(cublasDdot(h, K, dx, 1, dx, 1, &r) == CUBLAS_STATUS_SUCCESS, "cublasDdot (host result)");
    compare("cublasDdot (host result)", &r, &wr, 1);
    check(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE) == CUBLAS_STATUS_SUCCESS,
          "cublasSetPointerMode");
    check(cublasDdot(h, K, dx, 1, dx, 1, dr) == CUBLAS_STATUS_SUCCESS, "cublasDdot (device result)");
    check(cudaMemcpy(&rd, dr, sizeof rd, cudaMemcpyDeviceToHost) == cudaSuccess, "copy r back");
    compare("cublasDdot (device result)", &rd, &wr, 1);
    check(cublasDestroy(h) == CUBLAS_STATUS_SUCCESS, "cublasDestroy");

    check(c_blas_legacy(dA, A, M, K) == 0, "the legacy API");
    cudaFree(dA), cudaFree(dB), cudaFree(dC), cudaFree(dx), cudaFree(dy), cudaFree(dr);
    printf("c_blas: ok\n");
    return 0;
}
