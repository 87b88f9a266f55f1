/* ddblas.h — BLAS on data kept in extended precision (libddblas.so): double-double and the two
 * triple-precision storage formats of Mukunoki & Takahashi, computed in double-double on the GPU.
 *
 * Formats (each vector or matrix is two arrays of the same layout, "structure of arrays", so
 * that loads stay coalesced; the value of element i is hi[i] + lo[i] read as below):
 *   DDBLAS_DD          hi double, lo double: double-double, about 106 bits, binary64's range.
 *   DDBLAS_DS          hi double, lo float: 77 bits; lo has binary32's range, so about
 *                      2^-72 <= |x| < 2^181 keeps every bit (below, lo is a binary32 subnormal
 *                      and loses bits; above, lo would overflow and is stored as 0: the value
 *                      is then binary64's).
 *   DDBLAS_DI          hi double, lo int32: the upper 32 bits of the DD's lo (its sign,
 *                      exponent and top 20 fraction bits): 74 bits over binary64's range (above
 *                      about 2^-960).  Written by truncation (the paper's conversion).
 *   DDBLAS_DI_NEAREST  the same storage, written rounded to nearest: about half the error.
 * Every routine computes in double-double: products by DWTimesDW3 (relative error < 4u^2,
 * u = 2^-53) and sums by AccurateDWPlusDW (<= 3u^2 + 13u^3) — except ddblas_gemm with
 * DDBLAS_PAPER, the paper's 20-operation multiply-add (DDMul + QD sloppy add: no bound under
 * cancellation, the fastest) — and each result is converted once to its array's format.
 * The inputs may each have their own format; the format is read at run time at every load.
 *
 * Arrays are column-major in device memory; increments as BLAS (a negative one walks the vector
 * from its end).  beta == 0: the output is not read; alpha == 0: A, B and x are not read (GEMM
 * with k == 0: C = beta C, alpha not used).
 * Inf and NaN: an output whose double-double result is not finite is the plain binary64 result
 * of the hi parts (alpha.hi * sum hi*hi + beta.hi * c.hi, the sum in the same order), with lo 0:
 * IEEE's kinds, as a double BLAS gives them.  The results are the same bits on every run and
 * every GPU (the summation order depends on the shape alone), and those of ddblas_*_host (the
 * CPU implementation in the same library, for checking).
 *
 * All GPU work is queued on the given stream, without host synchronisation.  A handle may be
 * used by one thread at a time; link with -lddblas; needs the CUDA driver. */
#ifndef DDBLAS_H
#define DDBLAS_H

#include <cuda_runtime_api.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    double hi, lo;
} ddblas_dd;

typedef enum {
    DDBLAS_DD = 0,
    DDBLAS_DS = 1,
    DDBLAS_DI = 2,
    DDBLAS_DI_NEAREST = 3,
} ddblas_format;

/* An array in one of the formats: hi and lo have the same layout (lo: double, float or int32_t
 * elements by fmt).  Inputs are only read. */
typedef struct {
    ddblas_format fmt;
    double *hi;
    void *lo;
} ddblas_array;

typedef enum {
    DDBLAS_SUCCESS = 0,
    DDBLAS_INVALID_VALUE = 1, /* a size, increment, leading dimension, op, format or handle */
    DDBLAS_ALLOC_FAILED = 2,  /* no workspace (DOT, GEMV) */
    DDBLAS_NO_GPU = 3,        /* no CUDA driver, context or kernel for this GPU */
    DDBLAS_EXECUTION_FAILED = 4,
} ddblas_status;

typedef enum {
    DDBLAS_ACCURATE = 0, /* DWTimesDW3 + AccurateDWPlusDW: 29 binary64 operations per term */
    DDBLAS_PAPER = 1,    /* DDMul + sloppy add (the paper's): 20 operations, no bound under
                          * cancellation */
} ddblas_scheme;

typedef struct ddblas_context *ddblas_handle;

ddblas_status ddblas_create(ddblas_handle *handle);
/* Frees the workspace (stream-ordered on the last stream used). */
ddblas_status ddblas_destroy(ddblas_handle handle);

/* y = alpha x + y, n elements. */
ddblas_status ddblas_axpy(ddblas_handle handle, cudaStream_t stream, int64_t n, ddblas_dd alpha,
                          ddblas_array x, int64_t incx, ddblas_array y, int64_t incy);

/* *result = x . y (result: device memory; n == 0 gives 0). */
ddblas_status ddblas_dot(ddblas_handle handle, cudaStream_t stream, int64_t n, ddblas_array x,
                         int64_t incx, ddblas_array y, int64_t incy, ddblas_dd *result);

/* y = alpha op(A) x + beta y, A m x n; trans 'N', 'T' or 'C' (as 'T'). */
ddblas_status ddblas_gemv(ddblas_handle handle, cudaStream_t stream, char trans, int64_t m,
                          int64_t n, ddblas_dd alpha, ddblas_array A, int64_t lda, ddblas_array x,
                          int64_t incx, ddblas_dd beta, ddblas_array y, int64_t incy);

/* C = alpha op(A) op(B) + beta C, op(A) m x k, op(B) k x n. */
ddblas_status ddblas_gemm(ddblas_handle handle, cudaStream_t stream, ddblas_scheme scheme,
                          char transa, char transb, int64_t m, int64_t n, int64_t k,
                          ddblas_dd alpha, ddblas_array A, int64_t lda, ddblas_array B,
                          int64_t ldb, ddblas_dd beta, ddblas_array C, int64_t ldc);

/* Converts n elements from src (increment incs) to dst (incd) on the GPU: to DS and DI the
 * value is rounded as the format says; from a shorter format the missing bits are zero. */
ddblas_status ddblas_convert(ddblas_handle handle, cudaStream_t stream, int64_t n,
                             ddblas_array src, int64_t incs, ddblas_array dst, int64_t incd);

/* ---- the same on the CPU (host memory), bit for bit the GPU's results ---- */

ddblas_status ddblas_axpy_host(int64_t n, ddblas_dd alpha, ddblas_array x, int64_t incx,
                               ddblas_array y, int64_t incy);
ddblas_status ddblas_dot_host(int64_t n, ddblas_array x, int64_t incx, ddblas_array y,
                              int64_t incy, ddblas_dd *result);
ddblas_status ddblas_gemv_host(char trans, int64_t m, int64_t n, ddblas_dd alpha, ddblas_array A,
                               int64_t lda, ddblas_array x, int64_t incx, ddblas_dd beta,
                               ddblas_array y, int64_t incy);
ddblas_status ddblas_gemm_host(ddblas_scheme scheme, char transa, char transb, int64_t m,
                               int64_t n, int64_t k, ddblas_dd alpha, ddblas_array A, int64_t lda,
                               ddblas_array B, int64_t ldb, ddblas_dd beta, ddblas_array C,
                               int64_t ldc);
ddblas_status ddblas_convert_host(int64_t n, ddblas_array src, int64_t incs, ddblas_array dst,
                                  int64_t incd);

/* One value: element i of an array in host memory (as a DD; {NaN, 0} for an invalid format),
 * and a DD stored into it (nothing for an invalid format). */
ddblas_dd ddblas_get(ddblas_array a, int64_t i);
void ddblas_set(ddblas_array a, int64_t i, ddblas_dd v);

#ifdef __cplusplus
}
#endif

#endif
