/* bench-check.h — exblas-bench's --check: sampled outputs of a DGEMM (or an SGEMM on the same
 * data) against the correctly rounded RN(alpha op(A) op(B) + beta C0) of the reproducible
 * engine's CPU DGEMM (include/reprohost.h), all on host copies. */
#ifndef DFS_BENCH_CHECK_H
#define DFS_BENCH_CHECK_H

#include <stddef.h>

typedef struct {
    size_t m, n, k;       /* op(A) is m x k, op(B) k x n */
    size_t lda, ldb, ldc; /* column-major leading dimensions as the call had them */
    int ta, tb;           /* op(A), op(B) transposed */
    double alpha, beta;
    const double *A, *B; /* the operands */
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

#endif
