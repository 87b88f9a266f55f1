/* df_gemm.h — what the DF engine's host code and its kernels (kernels.cu, kernels_small.cuh,
 * kernels_vec.cu) share: the GEMM's blocking, the lists of GEMM and small kernels, the kernel
 * argument blocks and the exponent encoding; with tuning.h, its tuning numbers.  Plain C,
 * included by both. */
#ifndef DFS_DF_GEMM_H
#define DFS_DF_GEMM_H

#include "tuning.h"

#include <stdint.h>

/* The GEMM's blocking, fixed by the kernels' code (not tuning numbers). */
#define DFS_DF_BM 128      /* rows of C of the largest tile: packed panels are padded to them */
#define DFS_DF_BN 128      /* and its columns */
#define DFS_DF_BK 8        /* k per shared-memory stage */
#define DFS_DF_THREADS 256 /* per block, 16 x 16 */

/* Per row of op(A) / column of op(B): the power of two that scales it into [1, 2), or this
 * marker for a row holding Inf or NaN (computed in binary64 instead). */
#define DFS_DF_EXP_NONFINITE 0x40000000

/* Multiply-add schemes (engines/common/df.h). */
enum { DFS_DF_MAD16 = 0, DFS_DF_MAD15 = 1, DFS_DF_MAD29 = 2, DFS_DF_MAD12 = 3, DFS_DF_SCHEMES = 4 };
/* DFS_DF_MAD12 renormalises every DFS_DF_LAZY_B (df.h) products, at the same k on the GPU (inside a
 * stage) and on the CPU: k is padded with zeros to a multiple of DFS_DF_BK, a multiple of it. */

/* The GEMM kernels, one list for kernels.cu (which instantiates them) and gemm.c (which loads
 * them by name): X(symbol, scheme, TM, TN, blocks per SM), a block of DFS_DF_THREADS (16 x 16)
 * threads computing a (16*TM) x (16*TN) tile of C, compiled for that many blocks per SM
 * (__launch_bounds__; tuning.h says why).  Ordered [tile][scheme] (tuning.h's DFS_DF_TILE_*, the
 * DFS_DF_MAD* above): gemm.c indexes them so, and checks the order at compile time. */
#define DFS_DF_GEMM_KERNELS(X)                                                                     \
    X(dfs_df_gemm16, DFS_DF_MAD16, 8, 8, DFS_DF_MINB_128x128)                                      \
    X(dfs_df_gemm15, DFS_DF_MAD15, 8, 8, DFS_DF_MINB_128x128)                                      \
    X(dfs_df_gemm29, DFS_DF_MAD29, 8, 8, DFS_DF_MINB_128x128)                                      \
    X(dfs_df_gemm12, DFS_DF_MAD12, 8, 8, DFS_DF_MINB_128x128)                                      \
    X(dfs_df_gemm16n, DFS_DF_MAD16, 8, 4, DFS_DF_MINB_128x64)                                      \
    X(dfs_df_gemm15n, DFS_DF_MAD15, 8, 4, DFS_DF_MINB_128x64)                                      \
    X(dfs_df_gemm29n, DFS_DF_MAD29, 8, 4, DFS_DF_MINB_128x64)                                      \
    X(dfs_df_gemm12n, DFS_DF_MAD12, 8, 4, DFS_DF_MINB_128x64)                                      \
    X(dfs_df_gemm16s, DFS_DF_MAD16, 4, 4, DFS_DF_MINB_64x64)                                       \
    X(dfs_df_gemm15s, DFS_DF_MAD15, 4, 4, DFS_DF_MINB_64x64)                                       \
    X(dfs_df_gemm29s, DFS_DF_MAD29, 4, 4, DFS_DF_MINB_64x64_MAD29)                                 \
    X(dfs_df_gemm12s, DFS_DF_MAD12, 4, 4, DFS_DF_MINB_64x64)

/* The bound each scheme's DF sum of k products is documented and tested against, in units of
 * u^2 sum|a b| (u = 2^-24; README): MAD29 (3k + 4), proven to first order; MAD12 (17k + 196),
 * derived to first order (df.h); MAD16 and MAD15 4 (k + 1), empirical (no proof exists for the
 * sloppy add). */
static inline double dfs_df_scheme_bound(int s, int64_t k)
{
    return s == DFS_DF_MAD29   ? 3.0 * (double)k + 4.0
           : s == DFS_DF_MAD12 ? 17.0 * (double)k + 196.0
                               : 4.0 * ((double)k + 1.0);
}

/* R x K matrix src(r, p) = trans ? src[p + r*ld] : src[r + p*ld]. */
typedef struct {
    const double *src;
    int64_t ld;
    int trans;
    int64_t rows, inner;
    int *exps;           /* out: one per row */
    int *spans;          /* out: one per row (dfs_df_span) */
    const double *alpha; /* device pointer mode: the call's alpha; 0 there: src is not read */
} dfs_df_exps_args;

/* Packs rows r0 .. r0+R-1 of the R x K matrix above, scaled by 2^-exps[r], into DF planes
 * hi[p*Rp + r], lo[p*Rp + r] for p < Kp, r < Rp (zero beyond the matrix). */
typedef struct {
    const double *src;
    int64_t ld;
    int trans;
    int64_t r0, R, K, Rp, Kp;
    const int *exps;
    float *hi, *lo;
    const double *alpha; /* as in dfs_df_exps_args: 0 there, zeros are packed */
} dfs_df_pack_args;

/* The binary64 operands of a GEMM, op(A)(i, p) = transa ? A[p + i*lda] : A[i + p*lda] and
 * op(B)(p, j) = transb ? B[j + p*ldb] : B[p + j*ldb], p < k: what the binary64 path of the
 * epilogue reads (and the small kernel all of its operands). */
typedef struct {
    const double *A, *B;
    int64_t lda, ldb, k;
    int transa, transb;
} dfs_df_orig64;

/* C(m0 + i, n0 + j) = alpha * sum_p op(A)(i, p) op(B)(p, j) + beta * C for i < m, j < n, from
 * the packed panels; rows/columns marked non-finite, and entries whose DF sum may have lost
 * accuracy to binary32's subnormals (dfs_df_needs_binary64), are computed in binary64 from A and
 * B. */
typedef struct {
    const float *Ahi, *Alo, *Bhi, *Blo;
    int64_t Mp, Np, Kp;
    int64_t m, n, m0, n0;
    const int *expA, *expB;
    const int *spanA, *spanB; /* with expA, expB: dfs_df_span per row / column */
    double *C;
    int64_t ldc;
    const double *alpha, *beta; /* device pointers, or NULL: use the values below */
    double alpha_v, beta_v;
    dfs_df_orig64 orig; /* for the binary64 path */
    /* DGEMM-DF(DF) (dfblas.h): C in DF (hi, lo pairs), alpha and beta in DF, computed with the
     * scheme's DF product and sum; expA/expB NULL (no scaling).  Cdf NULL: binary64 C. */
    float *Cdf;
    float alpha_hi, alpha_lo, beta_hi, beta_lo;
    int scheme;
} dfs_df_gemm_args;

/* Packs op(src) stored in DF (hi, lo pairs; R x K with the same layouts as dfs_df_pack_args)
 * into DF planes, unscaled. */
typedef struct {
    const float *src; /* pairs */
    int64_t ld;
    int trans;
    int64_t R, K, Rp, Kp;
    float *hi, *lo;
} dfs_df_pack_df_args;

/* ---------- the small kernel (kernels_small.cuh) ---------- */

/* C(b) = alpha op(A(b)) op(B(b)) + beta C(b) for b < batch, binary64 operands and C, in one
 * launch without workspace: a block of DFS_DF_SMALL_THREADS threads per DFS_DF_SMALL_BM x
 * DFS_DF_SMALL_BN tile of C and batch entry (each thread 2 x 2 outputs), or, the _t16 kernels,
 * per DFS_DF_SMALL_T16 x DFS_DF_SMALL_T16 tile (an output a thread: four times the blocks, for
 * calls of few tiles), the same bits as the path above (exponents, packing, GEMM kernel).  Fixed
 * by the kernels' code, not tuning numbers. */
#define DFS_DF_SMALL_BM 32
#define DFS_DF_SMALL_BN 32
#define DFS_DF_SMALL_T16 16
#define DFS_DF_SMALL_THREADS 256

typedef struct {
    dfs_df_orig64 op;                    /* batch entry 0's */
    long long strideA, strideB, strideC; /* elements between batch entries */
    double *C;
    int64_t ldc, m, n, batch;
    const double *alpha, *beta; /* device pointers, or NULL: the values below */
    double alpha_v, beta_v;
} dfs_df_small_args;

/* The small kernels, one per tile (32, then 16) and scheme in DFS_DF_MAD* order (gemm.c checks
 * it): X(symbol, scheme, tile). */
#define DFS_DF_SMALL_KERNELS(X)                                                                    \
    X(dfs_df_small16, DFS_DF_MAD16, 32)                                                            \
    X(dfs_df_small15, DFS_DF_MAD15, 32)                                                            \
    X(dfs_df_small29, DFS_DF_MAD29, 32)                                                            \
    X(dfs_df_small12, DFS_DF_MAD12, 32)                                                            \
    X(dfs_df_small16_t16, DFS_DF_MAD16, 16)                                                        \
    X(dfs_df_small15_t16, DFS_DF_MAD15, 16)                                                        \
    X(dfs_df_small29_t16, DFS_DF_MAD29, 16)                                                        \
    X(dfs_df_small12_t16, DFS_DF_MAD12, 16)

/* ---------- DOT and GEMV (kernels_vec.cu) ---------- */

/* Partial sums: value (hi + lo) * 2^e; e = DFS_DFX_EMPTY for none. */
typedef struct {
    float *hi, *lo;
    int *e;
} dfs_df_parts;

/* x . y over n elements (BLAS increments, negative ones from the end). */
typedef struct {
    const double *x, *y;
    int64_t incx, incy, n;
    int accurate;
    dfs_df_parts part; /* one per block of the first kernel */
    int *flag;         /* set when an element is Inf or NaN */
    int nparts;
    double *result;    /* device */
} dfs_df_dot_args;

/* y = alpha op(A) x + beta y: partial sums over `splits` chunks of the inner dimension, one per
 * (chunk, output), then an epilogue combining them in chunk order. */
typedef struct {
    const double *A, *x;
    int64_t lda, incx, m, n;
    int trans, accurate;
    int64_t len, inner, chunk; /* outputs, inner dimension, inner elements per chunk */
    int splits;
    int group;         /* op T: lanes per output (1, 2, 4, 8, 16 or 32: fewer for short chunks) */
    dfs_df_parts part; /* [split * len + output] */
    int *flags;        /* per output: Inf or NaN met */
    double *y;
    int64_t incy;
    const double *alpha, *beta; /* device pointers, or NULL: the values below */
    double alpha_v, beta_v;
} dfs_df_gemv_args;

#endif
