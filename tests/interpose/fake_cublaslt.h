/* fake_cublaslt.h — the test-only entry points of the stand-in libcublasLt.so.13
 * (fake_cublaslt.c): descriptors that store and return their attributes as cuBLASLt's do
 * (exact sizes, size queries), and a cublasLtMatmul that computes nothing but records its
 * arguments and marks D. */
#ifndef FAKE_CUBLASLT_H
#define FAKE_CUBLASLT_H

#include <cublasLt.h>

typedef struct {
    cublasLtHandle_t lt;
    cublasLtMatmulDesc_t desc;
    const void *alpha, *A;
    cublasLtMatrixLayout_t Adesc;
    const void *B;
    cublasLtMatrixLayout_t Bdesc;
    const void *beta, *C;
    cublasLtMatrixLayout_t Cdesc;
    void *D;
    cublasLtMatrixLayout_t Ddesc;
    const cublasLtMatmulAlgo_t *algo;
    void *workspace;
    size_t workspace_size;
    cudaStream_t stream;
} fake_lt_args;

/* Calls of the stand-in's cublasLtMatmul so far, and the arguments of the last one.  Each call
 * writes 1000 + its number into the first entry of D (as a double) and returns `status`. */
long fake_cublaslt_calls(void);
const fake_lt_args *fake_cublaslt_last(void);

#endif
