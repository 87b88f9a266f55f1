/* vec_args.h — the argument blocks of the reproducible engine's DOT and GEMV kernels
 * (kernels_vec.cu), shared with the host code that launches them.  Every kernel takes its block
 * by value. */
#ifndef DFS_REPRO_VEC_ARGS_H
#define DFS_REPRO_VEC_ARGS_H

#include <stdint.h>

#define DFS_OZ_TERMS 4        /* expansion terms per thread */
#define DFS_OZ_DOT_THREADS 256
#define DFS_OZ_GEMV_THREADS 256
#define DFS_OZ_FINAL_WARPS 8  /* outputs per block of the GEMV finish kernel */

/* DOT: result = RN(x . y).  `acc` holds 2 * DFS_X_WORDS words, the fast path's exact
 * accumulator and the slow path's, and flags one word: all zeroed before the first kernel.  The
 * blocks add their shared accumulators into them with 64-bit atomics. */
typedef struct {
    const double *x, *y;
    int64_t incx, incy, n;
    long long *acc;
    unsigned *flags;
    double *result; /* device memory */
} dfs_oz_dot_args;

/* GEMV: y = RN(alpha op(A) x + beta y).  The inner dimension is cut into `splits` chunks of
 * `chunk`; the first kernel leaves DFS_OZ_TERMS terms per (chunk, output) in
 * terms[(s * DFS_OZ_TERMS + t) * len + o] and ORs the output's flags into flags[o] (zeroed
 * before); the finish kernel adds them exactly, or recomputes a spilled output from A. */
typedef struct {
    const double *A, *x;
    int64_t lda, incx, m, n;
    int trans;
    int64_t len, inner, chunk; /* outputs, inner dimension, chunk length */
    int splits;
    double *terms;
    unsigned *flags;
    double *y;
    int64_t incy;
    const double *alpha, *beta; /* device pointers, or NULL: then alpha_v, beta_v */
    double alpha_v, beta_v;
} dfs_oz_gemv_args;

#endif
