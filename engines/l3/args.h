/* args.h — the Level-3 copy kernel's argument block (kernels.cu), shared with copy.c and the
 * shim's decomposition (shim/l3_mm.c), and the same copy on the CPU for the unit tests.
 *
 * Copies only, no arithmetic: a Level-3 call computed through an engine's GEMM stages its
 * structured operand (a triangle, a symmetric matrix), SYR2K's concatenated operands and
 * diagonal blocks of C through these, and writes a diagonal block back masked.  For i < rows,
 * j < cols, with "in" = (lower ? i >= j : i <= j), dst(i, j) = dst[i + j ldd]:
 *   COPY    src(i, j)
 *   COPY_T  src(j, i)                      (src is cols x rows)
 *   TRI     in ? src(i, j) : 0, but 1 on the diagonal when unit (then the diagonal is not read)
 *   SYM     in ? src(i, j) : src(j, i)     (the symmetric matrix stored in one triangle)
 *   MASK    src(i, j) where in; dst left untouched elsewhere
 * src and dst never overlap.  A grid of 32 x 32 tiles of dst, blocks of 32 x 8 threads. */
#ifndef DFS_L3_ARGS_H
#define DFS_L3_ARGS_H

#include <stdint.h>

enum { DFS_L3_COPY, DFS_L3_COPY_T, DFS_L3_TRI, DFS_L3_SYM, DFS_L3_MASK };

typedef struct {
    const double *src;
    int64_t lds;
    double *dst;
    int64_t ldd;
    int64_t rows, cols;
    int mode, lower, unit;
} dfs_l3_copy;

#ifndef __CUDACC__
/* The copy on the CPU (host memory), element by element as the kernel does it. */
static inline void dfs_l3_copy_host(const dfs_l3_copy *a)
{
    for (int64_t j = 0; j < a->cols; j++)
        for (int64_t i = 0; i < a->rows; i++) {
            const int in = a->lower ? i >= j : i <= j;
            /* src(i, j), read only where it is used */
            const int direct = a->mode == DFS_L3_COPY || a->mode == DFS_L3_MASK
                                   ? a->mode == DFS_L3_COPY || in
                               : a->mode == DFS_L3_TRI ? in && !(i == j && a->unit)
                               : a->mode == DFS_L3_SYM ? in
                                                       : 0;
            const double d = direct ? a->src[i + j * a->lds] : 0.0;
            double *o = &a->dst[i + j * a->ldd];
            switch (a->mode) {
            case DFS_L3_COPY: *o = d; break;
            case DFS_L3_COPY_T: *o = a->src[j + i * a->lds]; break;
            case DFS_L3_TRI: *o = !in ? 0.0 : i == j && a->unit ? 1.0 : d; break;
            case DFS_L3_SYM: *o = in ? d : a->src[j + i * a->lds]; break;
            default:
                if (in)
                    *o = d;
                break;
            }
        }
}
#endif

#endif
