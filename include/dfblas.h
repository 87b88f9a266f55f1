/* dfblas.h — DGEMM-DF(DF): matrix products on data kept in double-float form (libdfblas.so).
 *
 * For programs that store their matrices as double-float numbers (a value hi + lo of two binary32
 * numbers, about 48 significant bits, binary32's exponent range) instead of binary64: the product
 * is computed by dfshim's DF kernels with no conversion at all (Mukunoki & Imamura's DGEMM-DF(DF)).
 * Matrices are column-major arrays of dfblas_df in device memory; all work is queued on the
 * given stream with no host synchronisation.  Link with -ldfblas; needs the CUDA driver. */
#ifndef DFBLAS_H
#define DFBLAS_H

#include <cuda_runtime_api.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    float hi, lo;
} dfblas_df;

typedef enum {
    DFBLAS_SUCCESS = 0,
    DFBLAS_INVALID_VALUE = 1, /* a size, leading dimension, operation or handle is wrong */
    DFBLAS_ALLOC_FAILED = 2,  /* no workspace (or more would be needed during graph capture) */
    DFBLAS_NO_GPU = 3,        /* no CUDA driver, context or suitable kernel for this GPU */
    DFBLAS_EXECUTION_FAILED = 4,
} dfblas_status;

typedef enum {
    DFBLAS_FUSED = 0,    /* 15 FP32 operations per multiply-add (default) */
    DFBLAS_PAPER = 1,    /* 16: the paper's FMA product and sloppy sum */
    DFBLAS_ACCURATE = 2, /* 29: proven bound (3k + 4) u^2 sum|a b|, u = 2^-24 */
    DFBLAS_LAZY = 3,     /* 12 + 3/8: high parts summed exactly, errors renormalised every 8
                            products; first-order bound (17k + 196) u^2 sum|a b| */
} dfblas_scheme;

typedef struct dfblas_context *dfblas_handle;

dfblas_status dfblas_create(dfblas_handle *handle);
/* Frees the workspace (stream-ordered on the last stream used). */
dfblas_status dfblas_destroy(dfblas_handle handle);

/* C = alpha * op(A) * op(B) + beta * C; op: 'N', 'T' or 'C' (same as 'T').  beta = 0: C is not
 * read; alpha = 0: A and B are not read.  workspace_mb: the most scratch space used (0: 1024);
 * larger products run panel by panel with the same result. */
dfblas_status dfblas_gemm(dfblas_handle handle, cudaStream_t stream, dfblas_scheme scheme,
                          char transa, char transb, int64_t m, int64_t n, int64_t k,
                          dfblas_df alpha, const dfblas_df *A, int64_t lda, const dfblas_df *B,
                          int64_t ldb, dfblas_df beta, dfblas_df *C, int64_t ldc,
                          size_t workspace_mb);

/* Conversions on the host: hi = RN32(x), lo = RN32(x - hi); x must be within binary32's range. */
static inline dfblas_df dfblas_from_double(double x)
{
    dfblas_df r;
    r.hi = (float)x;
    r.lo = (float)(x - (double)r.hi);
    return r;
}

static inline double dfblas_to_double(dfblas_df a)
{
    return (double)a.hi + (double)a.lo;
}

#ifdef __cplusplus
}
#endif

#endif
