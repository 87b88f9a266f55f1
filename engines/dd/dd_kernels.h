/* dd_kernels.h — the argument blocks of the double-double kernels (kernels.cu), shared with the
 * host sides: the dd engine (engine.c: binary64 operands, the dfs_dd_* kernels) and libddblas
 * (ddblas.c: operands in its formats, the dfs_ddx_* kernels, ddx_steps.h).  Each kernel takes one
 * of these by value; fields marked "ddblas" are not used by the dd engine's kernels and the
 * reverse. */
#ifndef DFS_DD_KERNELS_H
#define DFS_DD_KERNELS_H

#include "../common/dd.h"

#include <stdint.h>

/* An operand: hi (binary64) and, for ddblas, lo in format fmt (ddx_steps.h's DFS_DDX_*). */
typedef struct {
    const double *hi;
    const void *lo;
    int fmt;
} dfs_ddx_in;

typedef struct {
    double *hi;
    void *lo;
    int fmt;
} dfs_ddx_out;

/* Per-chunk partial sums of the DOT and GEMV kernels: the DD sum and its plain twin. */
typedef struct {
    dfs_dd *s;
    double *p;
} dfs_dd_parts;

/* x . y over n >= 1 elements (BLAS increments, negative ones from the end), in the order of
 * dfs_dd_dot_plan: dfs_dd_dot writes one partial per chunk, dfs_dd_dot_final merges them. */
typedef struct {
    dfs_ddx_in x, y;
    int64_t incx, incy, n;
    int64_t chunk, nchunks;
    dfs_dd_parts part; /* [nchunks] */
    double *result;    /* device */
    dfs_dd *xresult;   /* ddblas: device */
} dfs_dd_dot_args;

/* y = alpha op(A) x + beta y in the order of dfs_dd_gemv_plan: len outputs over an inner
 * dimension K; partials [chunk * len + output] when nchunks > 1, merged by dfs_dd_gemv_final. */
typedef struct {
    dfs_ddx_in A, x;
    int64_t lda, incx;
    int trans, lanes;
    int64_t len, K, chunk, nchunks;
    int64_t items; /* (blocks of outputs) x chunks */
    dfs_dd_parts part;
    dfs_ddx_out y;
    int64_t incy;
    const double *alpha, *beta; /* device pointers, or NULL: the values below */
    double alpha_v, beta_v;
    dfs_dd xalpha, xbeta; /* ddblas */
} dfs_dd_gemv_args;

/* C(b) = alpha op(A(b)) op(B(b)) + beta C(b), b < batch, each output summed over k in order.
 * The complex kernel (dfs_dd_zgemm) takes the same block: the matrices interleaved complex (ld
 * and strides in elements), ta / tb 0, 1, 2 for N, T, C, alpha and beta two doubles each
 * (device), or alpha_v + i alpha_vi, beta_v + i beta_vi. */
typedef struct {
    int64_t m, n, k, batch;
    dfs_ddx_in A;
    int64_t lda, sA;
    dfs_ddx_in B;
    int64_t ldb, sB;
    dfs_ddx_out C;
    int64_t ldc, sC;
    int ta, tb;
    const double *alpha, *beta; /* device pointers, or NULL: the values below */
    double alpha_v, beta_v;
    double alpha_vi, beta_vi; /* dfs_dd_zgemm */
    dfs_dd xalpha, xbeta;     /* ddblas */
} dfs_dd_gemm_args;

/* ddblas: y = alpha x + y (n elements). */
typedef struct {
    int64_t n, incx, incy;
    dfs_dd alpha;
    dfs_ddx_in x;
    dfs_ddx_out y;
} dfs_ddx_axpy_args;

/* ddblas: dst = src converted (n elements). */
typedef struct {
    int64_t n, incs, incd;
    dfs_ddx_in src;
    dfs_ddx_out dst;
} dfs_ddx_convert_args;

/* The DGEMM's C tiles, largest first: square, of a block of 16 x 16 threads with 4 x 4, 2 x 2
 * or one output each (dfs_dd_gemm, dfs_dd_gemm32, dfs_dd_gemm16; ddblas's GEMMs the first);
 * every tile sums each output in the same order, so all give the same bits. */
#define DFS_DD_GEMM_TILES 3
#define DFS_DD_GEMM_EDGE(tile) (64 >> (tile))
#define DFS_DD_GEMM_BK 16
#define DFS_DD_ZGEMM_BM 32 /* complex: 16 x 16 threads, 2 x 2 outputs each */
#define DFS_DD_ZGEMM_BN 32
#define DFS_DD_ZGEMM_BK 16

#endif
