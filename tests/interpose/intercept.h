/* intercept.h — what the files of test_intercept share: the two ways into cuBLAS (through the
 * shim, straight into the stand-in), the bookkeeping of the 'calls' child, the GEMM family's
 * call, the case types, and the functions that check one call of each routine. */
#ifndef INTERCEPT_H
#define INTERCEPT_H

#include "common.h"
#include "fake_cublas.h"

#include <stddef.h>
#include <stdint.h>

/* ---------- the two ways in: through the shim, and straight into the stand-in ---------- */

typedef struct {
    __typeof__(&cublasDgemm_v2) dgemm;
    __typeof__(&cublasDgemm_v2_64) dgemm64;
    __typeof__(&cublasDgemmStridedBatched) sb;
    __typeof__(&cublasDgemmStridedBatched_64) sb64;
    __typeof__(&cublasGemmEx) ex;
    __typeof__(&cublasGemmEx_64) ex64;
    __typeof__(&cublasGemmStridedBatchedEx) sbex;
    __typeof__(&cublasGemmStridedBatchedEx_64) sbex64;
    __typeof__(&cublasDgemv_v2) dgemv;
    __typeof__(&cublasDgemv_v2_64) dgemv64;
    __typeof__(&cublasDdot_v2) ddot;
    __typeof__(&cublasDdot_v2_64) ddot64;
    __typeof__(&cublasDestroy_v2) destroy;
} fns;

extern const fns shim; /* the program's own references: into the shim */
extern fns raw;        /* looked up in the stand-in by load_raw() */
void load_raw(void);

/* ---------- bookkeeping ---------- */

extern log_cursor logc;
extern cublasHandle_t H_host, H_dev;
extern long expect_count[3]; /* dgemm, dgemv, ddot calls the shim should have counted */

typedef struct {
    long entry, total;
} snap;

snap snap_of(const char *entry);
void expect_one_call(const char *what, const char *entry, snap before);
cublasHandle_t handle_of(int kind);
char op_char(cublasOperation_t op);
int64_t clamp(int64_t v, int64_t lo, int64_t hi);
void *xcalloc(size_t n, size_t size);
/* A new handle with pointer mode pm. */
cublasHandle_t create(cublasPointerMode_t pm);

#define OK CUBLAS_STATUS_SUCCESS
#define INV CUBLAS_STATUS_INVALID_VALUE
#define NOINIT CUBLAS_STATUS_NOT_INITIALIZED
#define NOSUP CUBLAS_STATUS_NOT_SUPPORTED
#define INVALID " (invalid arguments)"
#define QUICK " (quick return)"

/* ---------- GEMM family, FP64 ---------- */

typedef enum { G_DGEMM, G_DGEMM64, G_SB, G_SB64, G_EX, G_EX64, G_SBEX, G_SBEX64 } gapi;
extern const char *const gapi_name[];

typedef struct {
    gapi api;
    cublasOperation_t ta, tb;
    int64_t m, n, k, lda, ldb, ldc;
    long long sA, sB, sC;
    int64_t batch; /* 0 in the table means 1 for the non-batched forms */
    double alpha, beta;
    int handle; /* 0: host pointer mode, 1: device pointer mode, 2: NULL */
    int nan_c;  /* C starts as NaN (beta must be 0) */
    cublasComputeType_t ctype; /* GemmEx forms; 0 = CUBLAS_COMPUTE_64F */
    cublasGemmAlgo_t algo;     /* GemmEx forms */
    cublasStatus_t expect;
    const char *why; /* "", INVALID or QUICK: the trace suffix */
    cublasStatus_t inject; /* the stand-in fails the call with this status */
} gcase;

int is_ex(gapi a);
int is_batched(gapi a);
cublasStatus_t call_gemm(const fns *f, const gcase *c, cublasHandle_t h, const double *al,
                         const double *A, const double *B, const double *be, double *C);

#define TOOBIG (-(1LL << 32) + 3) /* negative in 64 bits, 3 if truncated to int */
#define N_ CUBLAS_OP_N
#define T_ CUBLAS_OP_T
#define C_ CUBLAS_OP_C

/* ---------- GemmEx with non-FP64 types: forwarded untouched ---------- */

typedef struct {
    gapi api; /* one of the four Ex forms */
    cudaDataType at, bt, ct;
    cublasComputeType_t ctype;
    int64_t m, n, k, batch;
    cublasStatus_t expect;
} fcase;

/* ---------- GEMV ---------- */

typedef struct {
    int is64;
    cublasOperation_t t;
    int64_t m, n, lda, incx, incy;
    double alpha, beta;
    int handle, nan_y;
    cublasStatus_t expect;
    const char *why;
    cublasStatus_t inject;
} vcase;

/* ---------- DOT ---------- */

typedef struct {
    int is64;
    int64_t n, incx, incy;
    int handle, null_result;
    cublasStatus_t expect;
    const char *why;
    cublasStatus_t inject;
} dcase;

/* ---------- one call of a case, checked (intercept_run.c) ---------- */

void run_gemm(const gcase *c0, int idx);
void run_fwd(const fcase *c, int idx);
void run_gemv(const vcase *c, int idx);
void run_dot(const dcase *c, int idx);

/* The 'calls' child (intercept_cases.c): every case, traced into log_path. */
int child_calls(const char *log_path);

#endif
