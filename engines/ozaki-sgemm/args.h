/* args.h — the argument blocks of the Ozaki scheme on binary32 products (f32split.h; the
 * kernels in kernels_f32.cu, launched by f32_gemm.c). */
#ifndef DFS_SGEMM_ARGS_H
#define DFS_SGEMM_ARGS_H

#include <stdint.h>

/* The kernels of kernels_f32.cu, in the order f32_gemm.c names them. */
#define DFS_F32_KERNELS(X)                                                                         \
    X(DFS_F32_K_ROWS, dfs_f32_rows) X(DFS_F32_K_SPLIT, dfs_f32_split)                              \
    X(DFS_F32_K_FINISH, dfs_f32_finish) X(DFS_F32_K_DIRECT, dfs_f32_direct)
#define DFS_F32_KERNEL_ID(id, symbol) id,
enum { DFS_F32_KERNELS(DFS_F32_KERNEL_ID) DFS_F32_K_COUNT };
#undef DFS_F32_KERNEL_ID

#define DFS_F32_INF_BITS 0x7ff0000000000000ull /* |x|'s bits at or above: Inf or NaN */
#define DFS_F32_THREADS 256
#define DFS_F32_DIRECT_WARPS 8

/* Per row r < rows of op(X), element (r, q) at X[r * rs + q * qs]: hi[r] = the largest bits of
 * |x| (at or above DFS_F32_INF_BITS: the row holds Inf or NaN), lo[r] = the smallest bits of a
 * nonzero finite |x|, merged in with atomics (hi zeroed and lo set to all ones before).
 * warp_per_row: qs == 1 (the row contiguous).  Block 0 also writes 1.0f and 0.0f to consts
 * (cuBLAS's device scalars) when consts is not NULL.  alpha: in device pointer mode the call's
 * alpha; 0 there: X is not read. */
typedef struct {
    const double *X;
    int64_t rs, qs, rows, k;
    unsigned long long *hi, *lo;
    int warp_per_row;
    float *consts;
    const double *alpha;
} dfs_f32_rows_args;

/* The parts (f32split.h) of rows r0 .. r0+rows-1 of op(X), X's element (r, q) at
 * X[r * ld + q] (row_inner = 0) or X[r + q * ld] (row_inner = 1), written in the same
 * orientation, dense: part j of (r, q) at W[j * pstride + q + (r - r0) k] or
 * W[j * pstride + (r - r0) + q rows].  Parts of op(A) (is_b = 0): slices 1 .. S-1, then the
 * rest rounded to binary32; of op(B): slices 1 .. S-1, then the rests after 0 .. S-1 slices
 * rounded to binary32.  A row with Inf or NaN gets zeros (its outputs are computed directly). */
typedef struct {
    const double *X;
    int64_t ld;
    int row_inner;
    int64_t r0, rows, k;
    const unsigned long long *hi;
    int S, p, h, is_b;
    float *W;
    int64_t pstride;
    const double *alpha;
} dfs_f32_split_args;

/* alpha and beta (device pointers when dev), C and where its outputs go. */
typedef struct {
    const double *alpha, *beta;
    double alpha_h, beta_h;
    int dev;
    double *C;
    int64_t ldc;
} dfs_f32_out;

/* One block of C, rows r0 .. r0+bm-1, columns c0 .. c0+bn-1: output (r, c) is
 * alpha 2^(eA + eB) sum_j P[j * pstride + (r - r0) + (c - c0) bm] + beta C, with e = top - h of
 * the row's hi; outputs of a row or column with Inf or NaN, or of spans adding up to more
 * than wide, are appended to list[] ((r - r0) | (c - c0) << 16; *count zeroed before) for
 * dfs_f32_direct, and counted in *ndirect. */
typedef struct {
    const float *P;
    int64_t pstride;
    int npairs, h, wide;
    int64_t bm, bn, r0, c0;
    const unsigned long long *hiA, *loA, *hiB, *loB;
    uint32_t *list;
    unsigned *count;
    unsigned long long *ndirect;
    dfs_f32_out o;
} dfs_f32_finish_args;

/* The listed outputs of a block in plain binary64 (a warp per output): op(A)(r, q) at
 * A[r * ars + q * aqs], op(B)(q, c) at B[q * bqs + c * bcs]. */
typedef struct {
    const double *A, *B;
    int64_t ars, aqs, bqs, bcs, k, r0, c0;
    const uint32_t *list;
    const unsigned *count;
    dfs_f32_out o;
} dfs_f32_direct_args;

#endif
