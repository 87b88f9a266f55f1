/* host.h — the DF engine's DGEMM on the CPU: the same scaling, conversion, multiply-add scheme and
 * order of operations as the GPU kernels, so the results are bit for bit the same.  For tests and
 * for users who want the GPU's answer on the host. */
#ifndef DFS_DF_HOST_H
#define DFS_DF_HOST_H

#include <stdint.h>

/* C = alpha*op(A)*op(B) + beta*C, column-major; transa/transb: 0 = N, 1 = T (or C).
 * scheme: DFS_DF_MAD16, DFS_DF_MAD15 or DFS_DF_MAD29 (df_gemm.h). */
void dfs_df_gemm_host(int scheme, int transa, int transb, int64_t m, int64_t n, int64_t k,
                      double alpha, const double *A, int64_t lda, const double *B, int64_t ldb,
                      double beta, double *C, int64_t ldc);

/* DGEMM-DF(DF) (include/dfblas.h): A, B, C are (hi, lo) pairs; alpha, beta too. */
void dfs_df_gemm_df_host(int scheme, int transa, int transb, int64_t m, int64_t n, int64_t k,
                         const float alpha[2], const float *A, int64_t lda, const float *B,
                         int64_t ldb, const float beta[2], float *C, int64_t ldc);

/* The scale exponent of a row (as the GPU's exponent kernel computes it); span (when not NULL):
 * its span (dfs_df_span). */
int dfs_df_exponent(const double *x, int64_t count, int64_t stride, int *span);

#endif
