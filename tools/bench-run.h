/* bench-run.h — exblas-bench's measurements (bench-run.c): the operands on the GPU, the timed
 * runs, --host-overhead's loop, --check and the CSV rows.  exblas-bench.c parses the arguments
 * into an options and calls these. */
#ifndef DFS_TOOLS_BENCH_RUN_H
#define DFS_TOOLS_BENCH_RUN_H

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

typedef enum { DGEMM, DGEMV, DDOT, SGEMM, ZGEMM, DSYRK, DTRSM, DTRMM } routine;
#define BENCH_ROUTINES 8

/* The routines' names, as on the command line and in the CSV's routine column. */
extern const char *const dfs_bench_routine_names[BENCH_ROUTINES];

typedef struct {
    routine r;
    int m, n, k;
    cublasOperation_t ta, tb; /* CUBLAS_OP_C for zgemm only */
    int reps, warmup, calls;
    int host_overhead, quick_return;
    int no_shim;
    const char *shim;
    int has_phi; /* --phi given: data (U - 0.5) exp(phi N) */
    double phi;
    int check; /* --check S: entries of C checked (0: no check) */
    int data;  /* --data: BENCH_* of bench-data.h */
    double alpha, beta; /* --alpha, --beta (dgemm, dgemv, zgemm: the real parts) */
    double alpha_im, beta_im; /* --alpha-im, --beta-im (zgemm) */
} options;

typedef struct {
    double *A, *B, *C; /* dgemv: A, x, y; ddot: x, y, result; zgemm: interleaved (re, im);
                        * dsyrk: A, -, C; dtrsm: A (lower, unit-free), -, B;
                        * dtrmm: A (lower), B, C */
    float *fA, *fB, *fC; /* sgemm */
    int lda, ldb;
    const double *alpha, *beta; /* host pointer mode */
    cuDoubleComplex zalpha, zbeta; /* zgemm's scalars */
    double *C0; /* dgemm, zgemm with --check and beta != 0: C's first values, for the checked
                 * run; dtrsm: B's, restored before every run (the solve overwrites B) */
} operands;

/* The operands of o's routine on the GPU, from the data generator (bench-data.h); ddot sets
 * device pointer mode on h.  Exits 1 when a CUDA call fails or host memory runs out. */
void dfs_bench_operands(cublasHandle_t h, const options *o, operands *d);

void dfs_bench_operands_free(const options *o, operands *d);

/* The timed runs (GPU time, CUDA events) and, with --check, the check; one CSV header and row
 * on stdout. */
void dfs_bench_gpu(cublasHandle_t h, const options *o, const operands *d);

/* --host-overhead: host time per call; one CSV header and row on stdout. */
void dfs_bench_host(cublasHandle_t h, const options *o, const operands *d);

/* Exits 1 with a line on stderr when a CUDA or cuBLAS call failed. */
void dfs_bench_cuda_check(cudaError_t e, const char *what, int line);
void dfs_bench_cublas_check(cublasStatus_t s, const char *what, int line);

#define CUDA_CHECK(x) dfs_bench_cuda_check((x), #x, __LINE__)
#define CUBLAS_CHECK(x) dfs_bench_cublas_check((x), #x, __LINE__)

#endif
