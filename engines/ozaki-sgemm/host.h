/* host.h — the ozaki-sgemm engine on the CPU (host_f32.c): the model of the GPU path on SGEMM
 * and its error bound, for the tests. */
#ifndef DFS_SGEMM_HOST_H
#define DFS_SGEMM_HOST_H

#include <stdint.h>

/* C = alpha op(A) op(B) + beta C by the Ozaki scheme on binary32 products (f32split.h,
 * host_f32.c: the CPU model of the GPU backend on SGEMM), `splits` 2 or 3; bound, when not NULL
 * (m x n, leading dimension m), gets each output's error bound, valid for every order of
 * summation inside the binary32 products (+Inf for outputs with Inf or NaN operands, which are
 * computed in plain binary64).  Finite inputs of any range. */
void dfs_oz_f32_gemm_host(int transa, int transb, int64_t m, int64_t n, int64_t k, double alpha,
                          const double *A, int64_t lda, const double *B, int64_t ldb, double beta,
                          double *C, int64_t ldc, int splits, double *bound);

#endif
