/* vec_args.h — the argument blocks of the reproducible engine's DOT and GEMV kernels
 * (kernels_vec.cu), shared with the host code that launches them.  Every kernel takes its block
 * by value. */
#ifndef DFS_REPRO_VEC_ARGS_H
#define DFS_REPRO_VEC_ARGS_H

#include <stddef.h>
#include <stdint.h>

#define DFS_OZ_TERMS 4        /* expansion terms per thread (DOT), in range */
#define DFS_OZ_DOT_SIDE 4     /* and for the products below and above it, each (fpe.h) */
/* GEMV's first kernels: per (chunk, output), and complex per part too, the double-double sums
 * with their magnitudes of both classes (ddsum.h's dfs_oz_ddsum2: h, l, s each),
 * DFS_OZ_GEMV_SUMS doubles. */
#define DFS_OZ_GEMV_SUMS 6
#define DFS_OZ_DOT_THREADS 256
#define DFS_OZ_GEMV_THREADS 256
#define DFS_OZ_FINAL_WARPS 8  /* outputs per block of the GEMV finish kernel */

/* DOT: result = RN(x . y).  First way (dfs_oz_dot_dd, several blocks): each block's sums in
 * double-double (ddsum.h's dfs_oz_ddsum2: h, l, s of both classes, then its flag as 0 or 1) in
 * sums[b * DFS_OZ_DOT_SUM_WORDS ...]; count and open, zeroed before, count the blocks done and
 * say whether the result is still open (both parts of a complex one: sums 2 b and 2 b + 1,
 * count and open after both parts' accumulators).  The exact way: `acc` holds DFS_X_WORDS words, the
 * exact accumulator, and flags one word: both zeroed before the first kernel.  The blocks add
 * their shared accumulators into it with 64-bit atomics (open not NULL: only when *open).  zmode != 0: x and y are complex vectors of n / 2 elements (interleaved,
 * increments in elements) and the DOT is one part of their complex one, the real DOT of its n
 * products: term 2j + p (p = 0, 1) is xp_j times
 *   DFS_OZ_ZC_RE  yp_j                 (Re of conj(x) . y: xr yr + xi yi)
 *   DFS_OZ_ZC_IM  p ? -yr_j : yi_j     (Im of conj(x) . y: xr yi - xi yr)
 *   DFS_OZ_ZU_RE  p ? -yi_j : yr_j     (Re of x . y: xr yr - xi yi)
 *   DFS_OZ_ZU_IM  p ? yr_j : yi_j      (Im of x . y: xr yi + xi yr) */
enum { DFS_OZ_ZC_RE = 1, DFS_OZ_ZC_IM, DFS_OZ_ZU_RE, DFS_OZ_ZU_IM };
/* Both parts in one pass (dfs_oz_zdotc_one, dfs_oz_zdotu_one: conj(x) . y, x . y): n counts
 * complex elements; `acc` holds per part DFS_X_WORDS words and then its flags word and one
 * more, DFS_OZ_DOT_PART_WORDS 32-bit words in all, part 1's from part 0's end (dfs_oz_dot_part);
 * result [0] and [1]. */
enum { DFS_OZ_ZC = 5, DFS_OZ_ZU };
#define DFS_OZ_DOT_PART_WORDS (2 * DFS_X_WORDS + 2) /* xacc.h's DFS_X_WORDS */
#define DFS_OZ_DOT_SUM_WORDS 8 /* doubles per block of dfs_oz_dot_dd's sums (7 used) */

/* Part p's accumulator in a zeroed area laid out as above (its flags: the words after it). */
#define dfs_oz_dot_part(acc0, p) \
    ((long long *)((unsigned *)(acc0) + (size_t)(p) * DFS_OZ_DOT_PART_WORDS))
typedef struct {
    const double *x, *y;
    int64_t incx, incy, n;
    int zmode;
    long long *acc;
    unsigned *flags;
    double *result; /* device memory */
    double *sums;
    unsigned *count, *open;
} dfs_oz_dot_args;

/* GEMV: y = RN(alpha op(A) x + beta y).  The inner dimension is cut into `splits` chunks of
 * `chunk`; the first kernel leaves its double-double sums per (chunk, output) in
 * terms[(s * DFS_OZ_GEMV_SUMS + t) * len + o] (t: h, l, s of each class) and sets flags[o]
 * (zeroed before) where a product is out of the sums' range; the finish kernel merges and
 * rounds them where their bounds decide, else recomputes the output from A (kernels_vec.cu). */
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

/* Complex GEMV (dfs_oz_zgemv_*, kernels_zgemv.cuh): y = alpha op(A) x + beta y, each part of
 * each output rounded once.  g as above, for complex A, x, y (interleaved parts, lda and the
 * increments in elements) and complex scalars: device pointers to two doubles each, or NULL:
 * then g.alpha_v + i alpha_i, g.beta_v + i beta_i.  Per (chunk s, part p, output o) the first
 * kernels leave the sums of part p of S = op(A) x (0: Re, 1: Im) as the real ones leave theirs
 * for chunk 2 s + p, in terms[((2 s + p) * DFS_OZ_GEMV_SUMS + t) * len + o], and set flags[o]
 * where either part has a product the sums cannot take. */
#define DFS_OZ_ZFINAL_WARPS 4 /* outputs per block of the complex finish kernel */
typedef struct {
    dfs_oz_gemv_args g;
    double alpha_i, beta_i;
    int conj; /* op C: op(A)'s elements conjugated */
} dfs_oz_zgemv_args;

#endif
