/* fake_cublas.h — the test-only entry points of the stand-in libcublas.so.13 (fake_cublas.c).
 *
 * The stand-in implements the cuBLAS routines dfshim intercepts, v2 and legacy (and the handle
 * functions they need, and cuCtxGetCurrent for the legacy layer) on the CPU, with "device memory" in host memory, and counts every call per entry point
 * so that a test can prove a call reached the real library exactly once. */
#ifndef FAKE_CUBLAS_H
#define FAKE_CUBLAS_H

#include "fake_cublaslt.h"

#include <cublas_api.h>

/* Calls so far of the entry point `name` (e.g. "cublasDgemm_v2"); NULL: of all entry points;
 * -1 for a name the stand-in does not implement. */
long fake_cublas_calls(const char *name);

/* The next call of entry point `name` counts, then returns `status` without doing anything. */
void fake_cublas_fail_next(const char *name, cublasStatus_t status);

/* The arguments of the last call of any GemmEx-family entry point, as the stand-in received
 * them (to prove that dfshim forwards these calls untouched). */
typedef struct {
    const char *entry; /* "cublasGemmEx", ... */
    cublasHandle_t handle;
    cublasOperation_t transa, transb;
    int64_t m, n, k;
    const void *alpha, *A, *B, *beta;
    void *C;
    cudaDataType Atype, Btype, Ctype;
    int64_t lda, ldb, ldc;
    long long strideA, strideB, strideC;
    int64_t batch;
    cublasComputeType_t compute;
    cublasGemmAlgo_t algo;
} fake_gemmex_args;
const fake_gemmex_args *fake_cublas_last_gemmex(void);

/* The stream the legacy cublasSetKernelStream() last set. */
cudaStream_t fake_cublas_legacy_stream(void);

/* Calls cublasLtMatmul with these arguments from inside the stand-in libcublas, as cuBLAS's own
 * routines do (the stand-in is linked to the stand-in libcublasLt). */
cublasStatus_t fake_cublas_lt_matmul(const fake_lt_args *a);

#endif
