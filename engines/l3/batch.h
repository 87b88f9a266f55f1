/* batch.h — the argument block of the pointer-array batch kernels (kernels.cu: gather, scatter),
 * shared with their launches (copy.c) and the shim's driver (shim/ptr_batch.c), and the same
 * moves on the CPU for the unit tests.
 *
 * Moves only, no arithmetic: a pointer-array GEMM batch (DgemmBatched, ZgemmBatched,
 * GemmBatchedEx) computed through an engine's strided GEMM has each entry's matrix gathered into
 * a packed buffer and, for C, scattered back.  For e < count, i < rows, j < cols, with
 * X = ptrs[first + e] (rows x cols, leading dimension ld) and P = packed + e * stride (rows x
 * cols, leading dimension rows):
 *   gather   P(i, j) = X(i, j)
 *   scatter  X(i, j) = P(i, j)
 * Elements of 8 bytes (a double), or of 16 when cplx (a complex double, real part first: ld,
 * stride and the pointers count and point at whole elements).  ptrs is the caller's array of
 * batch pointers; on the GPU it is device memory, read only by the kernels (never on the host).
 * Nothing else of X is read or written (its padding between rows and ld stays as it is).  The
 * packed buffer and the matrices never overlap; the matrices of different entries may (a
 * repeated A or B pointer: gathered twice; for C cuBLAS leaves the result undefined, and here
 * entries are scattered with no order between them).  The kernel: one warp per column of one
 * entry at a time (consecutive lanes along the column, coalesced on both sides), blocks of
 * DFS_L3_BATCH_WARPS warps, a grid-stride loop over the count x cols columns. */
#ifndef DFS_L3_BATCH_H
#define DFS_L3_BATCH_H

#include <stdint.h>

/* Warps per block of the gather and scatter kernels (blocks of 32 x DFS_L3_BATCH_WARPS). */
#define DFS_L3_BATCH_WARPS 8

typedef struct {
    const void *const *ptrs; /* the batch's pointers: entry e's matrix at ptrs[first + e] */
    int64_t ld;              /* of each entry's matrix, in elements */
    int64_t rows, cols;
    int cplx;                /* elements of 16 bytes (else 8) */
    double *packed;          /* entry e's copy at packed + e * stride elements, ld = rows */
    int64_t stride;          /* elements between packed entries (at least rows * cols) */
    int64_t first, count;    /* the entries moved: first ... first + count - 1 */
} dfs_l3_batch;

#ifndef __CUDACC__
/* The moves on the CPU (host memory, host pointers in ptrs), element by element as the
 * kernels do them: to_packed 1 gathers, 0 scatters. */
static inline void dfs_l3_batch_host(const dfs_l3_batch *b, int to_packed)
{
    const int64_t z = b->cplx ? 2 : 1;
    for (int64_t e = 0; e < b->count; e++) {
        double *x = (double *)(uintptr_t)b->ptrs[b->first + e];
        double *p = b->packed + z * e * b->stride;
        for (int64_t j = 0; j < b->cols; j++)
            for (int64_t i = 0; i < z * b->rows; i++) {
                double *xs = &x[i + z * j * b->ld], *ps = &p[i + z * j * b->rows];
                if (to_packed)
                    *ps = *xs;
                else
                    *xs = *ps;
            }
    }
}

static inline void dfs_l3_gather_host(const dfs_l3_batch *b)
{
    dfs_l3_batch_host(b, 1);
}

static inline void dfs_l3_scatter_host(const dfs_l3_batch *b)
{
    dfs_l3_batch_host(b, 0);
}
#endif

#endif
