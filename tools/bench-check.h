/* bench-check.h — exblas-bench's --check: sampled outputs of a DGEMM (or an SGEMM on the same
 * data) against the correctly rounded RN(alpha op(A) op(B) + beta C0) of the reproducible
 * engine's CPU DGEMM (include/reprohost.h), or of a ZGEMM against its CPU ZGEMM, each real and
 * imaginary part correctly rounded (engines/repro/host.h), all on host copies. */
#ifndef DFS_BENCH_CHECK_H
#define DFS_BENCH_CHECK_H

#include <stddef.h>

typedef struct {
    size_t m, n, k;       /* op(A) is m x k, op(B) k x n */
    size_t lda, ldb, ldc; /* column-major leading dimensions as the call had them (in elements:
                             complex ones for a ZGEMM) */
    int ta, tb;           /* op(A), op(B): 0 N, 1 T, 2 C (the conjugate transpose, ZGEMM) */
    double alpha, beta;   /* (ZGEMM: the real parts) */
    double alpha_im, beta_im; /* ZGEMM: the imaginary parts */
    const double *A, *B; /* the operands (ZGEMM: interleaved re, im, as cuDoubleComplex) */
    const double *C;     /* the call's result (binary32 results widened) */
    const double *C0;    /* C before the call (read when beta != 0) */
    size_t samples;      /* entries (i, j) drawn with replacement from a fixed seed of their own;
                            every entry once when samples >= m n */
} dfs_bench_check;

/* The largest relative error |c - ref| / |ref| over the sample (|c - ref| where ref = 0; NaN when
 * some c is NaN; infinite when c misses an infinite ref), and in *norm the largest normwise
 * error |c - ref| / (|alpha| sum_q |op(A)(i,q) op(B)(q,j)| + |beta c0|) (0 where c = ref, the
 * error FP64's own bound scales with).  0 for an empty C. */
double dfs_bench_check_gemm(const dfs_bench_check *c, double *norm);

/* The same for a ZGEMM, over the real and the imaginary parts of the sampled entries (the same
 * entries as dfs_bench_check_gemm's), each part's error against its own correctly rounded
 * value; a part's normwise denominator is the sum of the absolute values of the real terms of
 * its exact value: for the real part, with a = op(A)(i,q), b = op(B)(q,j), c0 = C0(i,j),
 *     |Re alpha| sum_q (|Re a Re b| + |Im a Im b|) + |Im alpha| sum_q (|Re a Im b| + |Im a Re b|)
 *     + |Re beta Re c0| + |Im beta Im c0|,
 * for the imaginary part the same with the two sums over q swapped and c0's parts swapped (with
 * real alpha and beta: |alpha| sum_q of that part's products + |beta| |that part of c0|). */
double dfs_bench_check_zgemm(const dfs_bench_check *c, double *norm);

#endif
