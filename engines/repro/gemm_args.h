/* gemm_args.h — repro's own DGEMM kernels on binary64 slices (kernels_gemm.cu, launched by
 * gemm.c): their list and the split's argument block; the finish takes ../oz/args.h's
 * dfs_oz_finish_args. */
#ifndef DFS_REPRO_GEMM_ARGS_H
#define DFS_REPRO_GEMM_ARGS_H

#include <stdint.h>

#define DFS_REPRO_GEMM_KERNELS(X) X(DFS_REPRO_K_SPLIT, dfs_oz_split) X(DFS_REPRO_K_FINISH, dfs_oz_finish)

/* Slices 0 .. s-1 of rows r0 .. r0+rows-1 of op(X): slice i of element (r, q) goes to
 * S[i * sstride + (r - r0) * srs + q * sqs]. */
typedef struct {
    const double *X;
    int64_t rs, qs, r0, rows, k;
    const int *tau;
    int s, beta;
    double *S;
    int64_t sstride, srs, sqs;
} dfs_oz_split_args;

#endif
