/* common.h — helpers shared by the GPU tests.
 *
 * Every test runs with libdfshim.so in LD_PRELOAD.  A plain call (cublasDgemm_v2(...)) reaches
 * the shim; gt_real.<fn> is the real cuBLAS function, found with dlsym on libcublas's own
 * handle, which does not search the preloaded shim.  gt_init() exits 77 (skipped) when no GPU
 * is present and fails when the shim is not preloaded. */
#ifndef GT_COMMON_H
#define GT_COMMON_H

#include <cublas_api.h>
#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>

/* ---------- start-up ---------- */

/* The real cuBLAS entry points the shim intercepts. */
typedef struct {
    __typeof__(&cublasDgemm_v2) Dgemm;
    __typeof__(&cublasDgemm_v2_64) Dgemm_64;
    __typeof__(&cublasDgemmStridedBatched) DgemmSB;
    __typeof__(&cublasDgemmStridedBatched_64) DgemmSB_64;
    __typeof__(&cublasGemmEx) GemmEx;
    __typeof__(&cublasGemmEx_64) GemmEx_64;
    __typeof__(&cublasGemmStridedBatchedEx) GemmSBEx;
    __typeof__(&cublasGemmStridedBatchedEx_64) GemmSBEx_64;
    __typeof__(&cublasDgemv_v2) Dgemv;
    __typeof__(&cublasDgemv_v2_64) Dgemv_64;
    __typeof__(&cublasDdot_v2) Ddot;
    __typeof__(&cublasDdot_v2_64) Ddot_64;
    __typeof__(&cublasZdotc_v2) Zdotc;
    __typeof__(&cublasDestroy_v2) Destroy;
} gt_real_fns;

extern gt_real_fns gt_real;

/* Exits 77 when cudaGetDeviceCount fails or finds no device; loads gt_real; exits 1 unless
 * every intercepted symbol as the program sees it differs from the real one (shim preloaded).
 * Prints one line about the device and the EXBLAS_* settings. */
void gt_init(const char *test_name);
/* After gt_init: the real libcublas function `name` (dlsym on libcublas's own handle); exits 1
 * when libcublas has none, or when the program's `name` is that one (not intercepted). */
void *gt_real_fn(const char *name);

/* ---------- the mode under test: EXBLAS_MODE=NAME[:key=value[,key=value...]] ---------- */

/* EXBLAS_MODE as it is now, or NULL when it is unset or empty (the shim then takes the policy's
 * mode auto). */
const char *gt_mode(void);
/* The mode's name, before any ':' (e.g. "df" for df:scheme=paper); "native" when EXBLAS_MODE is
 * unset or empty, as the tests that accept no mode take it. */
const char *gt_mode_engine(void);
/* Whether gt_mode_engine() is name (with options or without). */
int gt_mode_is(const char *name);
/* The value of the mode's option key (its last key=value, as the shim takes it), or NULL when the
 * mode has none.  The strings these give stay valid until EXBLAS_MODE changes. */
const char *gt_mode_option(const char *key);

/* ---------- results ---------- */

/* Groups and cases.  gt_group closes the previous group (printing its one line) and opens a
 * new one; gt_case closes the previous case and opens a new one; gt_fail marks the current case
 * failed and prints the message (the first few per group).  gt_finish prints the last group
 * and "N passed, N failed" and returns the exit status. */
void gt_group(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void gt_case(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void gt_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints a line (not a failure) about the current case, under the same per-group limit. */
void gt_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int gt_case_failed(void);
/* Closes the current group (printing its line), e.g. before printing a summary table. */
void gt_end_group(void);
int gt_finish(void);

/* Bitwise comparison of `count` elements of `elsize` bytes (8: double, 4: float).  On a
 * difference: gt_fail naming `what`, the first differing index (row and column too when ld > 0)
 * with both values, and how many elements differ.  Returns 1 when equal. */
int gt_cmp(const char *what, const void *real, const void *shim, size_t count, size_t elsize,
           int64_t ld);
/* gt_fail unless the status of the shimmed call equals the real one. Returns 1 when equal. */
int gt_cmp_status(const char *routine, cublasStatus_t real, cublasStatus_t shim);
/* gt_fail unless the handle still has these pointer and math modes. */
void gt_check_modes(cublasHandle_t h, cublasPointerMode_t pm, cublasMath_t mm);

/* CUDA graphs: gt_still_capturing fails the current case unless stream s is still capturing
 * (the call `after` names did not invalidate the capture); gt_end_capture ends the capture begun
 * on s into *graph, gt_instantiate makes *graph executable, each failing the current case
 * (clearing CUDA's last error) and returning 0 / NULL on an error. */
void gt_still_capturing(cudaStream_t s, const char *after);
int gt_end_capture(cudaStream_t s, cudaGraph_t *graph);
cudaGraphExec_t gt_instantiate(cudaGraph_t graph);

const char *gt_status_name(cublasStatus_t s);
char gt_op_char(cublasOperation_t op);

/* ---------- CUDA plumbing (fatal on error: exit 1 with the call and its location) ---------- */

#define GT_CUDA(x) gt_cuda_ok((x), #x, __FILE__, __LINE__)
#define GT_CUBLAS(x) gt_cublas_ok((x), #x, __FILE__, __LINE__)
void gt_cuda_ok(cudaError_t e, const char *what, const char *file, int line);
void gt_cublas_ok(cublasStatus_t s, const char *what, const char *file, int line);
void gt_fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

void *gt_dmalloc(size_t bytes); /* device memory, zeroed */
void *gt_hmalloc(size_t bytes); /* host memory, zeroed */
void gt_h2d(void *dst, const void *src, size_t bytes);
void gt_d2h(void *dst, const void *src, size_t bytes);
double gt_now(void); /* seconds, monotonic */

/* ---------- data ---------- */

void gt_fill(double *h, size_t n, uint64_t seed);   /* uniform in [-1, 1), full mantissas */
void gt_fill_f(float *h, size_t n, uint64_t seed);  /* same for floats */
void gt_fill_const(double *h, size_t n, double v);
double gt_qnan(void);                               /* a quiet NaN with a recognisable payload */
uint64_t gt_rand(uint64_t *state);                  /* splitmix64 */

/* ---------- the routines, called for real (real = 1) or through the shim (real = 0) ---------- */

typedef enum {
    GT_DGEMM,
    GT_DGEMM_64,
    GT_DGEMM_SB,
    GT_DGEMM_SB_64,
    GT_GEMMEX,
    GT_GEMMEX_64,
    GT_GEMM_SBEX,
    GT_GEMM_SBEX_64,
    GT_GEMM_API_COUNT
} gt_gemm_api;

extern const char *const gt_gemm_api_name[GT_GEMM_API_COUNT];
int gt_gemm_api_is64(gt_gemm_api api);
int gt_gemm_api_strided(gt_gemm_api api);
int gt_gemm_api_ex(gt_gemm_api api);

typedef struct {
    gt_gemm_api api;
    cublasOperation_t ta, tb;
    int64_t m, n, k, lda, ldb, ldc;
    long long sA, sB, sC; /* strided APIs */
    int64_t batch;        /* strided APIs */
    cudaDataType typeA, typeB, typeC;  /* Ex APIs */
    cublasComputeType_t compute;       /* Ex APIs */
    cublasGemmAlgo_t algo;             /* Ex APIs */
    const void *alpha, *beta, *A, *B;
    void *C;
} gt_gemm;

/* Arguments in the order of the cuBLAS prototypes. */
typedef struct {
    int is64;
    cublasOperation_t trans;
    int64_t m, n;
    const double *alpha, *A;
    int64_t lda;
    const double *x;
    int64_t incx;
    const double *beta;
    double *y;
    int64_t incy;
} gt_gemv;

typedef struct {
    int is64;
    int64_t n;
    const double *x;
    int64_t incx;
    const double *y;
    int64_t incy;
    double *result;
} gt_dot;

/* The 32-bit entry points get the int64 values narrowed to int. */
cublasStatus_t gt_run_gemm(int real, cublasHandle_t h, const gt_gemm *g);
cublasStatus_t gt_run_gemv(int real, cublasHandle_t h, const gt_gemv *g);
cublasStatus_t gt_run_dot(int real, cublasHandle_t h, const gt_dot *d);
const char *gt_gemv_name(int is64);
const char *gt_dot_name(int is64);

/* Elements a strided-vector argument spans: 1 + (n - 1) * |inc| (0 when n <= 0). */
size_t gt_span(int64_t n, int64_t inc);

#endif
