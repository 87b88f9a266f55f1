/* c_blas_legacy.c — c_blas's calls of the legacy API (<cublas.h>): cublasInit, cublasDgemm with
 * operation characters, cublasDdot returning its value, cublasGetError, cublasShutdown. */
#include <cublas.h>
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <string.h>

int c_blas_legacy(const double *dA, const double *A, int m, int k);

/* x = A^T ones (k values) with the legacy DGEMM, then x . x with the legacy DDOT. */
int c_blas_legacy(const double *dA, const double *A, int m, int k)
{
    double ones[64], x[64], want[64], *dones, *dx;
    if (m > 64 || k > 64 || cublasInit() != CUBLAS_STATUS_SUCCESS)
        return 1;
    for (int i = 0; i < m; i++)
        ones[i] = 1.0;
    if (cudaMalloc((void **)&dones, sizeof ones) != cudaSuccess ||
        cudaMalloc((void **)&dx, sizeof x) != cudaSuccess ||
        cudaMemcpy(dones, ones, sizeof ones, cudaMemcpyHostToDevice) != cudaSuccess)
        return 1;
    cublasDgemm('t', 'N', k, 1, m, 1.0, dA, m, dones, m, 0.0, dx, k);
    if (cublasGetError() != CUBLAS_STATUS_SUCCESS ||
        cudaMemcpy(x, dx, (size_t)k * sizeof(double), cudaMemcpyDeviceToHost) != cudaSuccess)
        return 1;
    double wd = 0;
    for (int j = 0; j < k; j++) {
        double s = 0;
        for (int i = 0; i < m; i++)
            s += A[i + j * m];
        want[j] = s;
        wd += s * s;
    }
    if (memcmp(x, want, (size_t)k * sizeof(double))) {
        printf("c_blas: the legacy cublasDgemm differs\n");
        return 1;
    }
    double d = cublasDdot(k, dx, 1, dx, 1);
    if (cublasGetError() != CUBLAS_STATUS_SUCCESS || d != wd) {
        printf("c_blas: the legacy cublasDdot gives %g, expected %g\n", d, wd);
        return 1;
    }
    cudaFree(dones);
    cudaFree(dx);
    return cublasShutdown() != CUBLAS_STATUS_SUCCESS;
}
