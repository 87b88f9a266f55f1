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
 * src and dst never overlap.  A grid of 32 x 32 tiles of dst, blocks of 32 x 8 threads.
 *
 * Complex data (cplx: elements of two doubles, real part first, as cuDoubleComplex; pointers at
 * an element's real part, leading dimensions in elements): the same moves on whole elements, the
 * constants 0 + 0i and 1 + 0i, and two more rules, sign changes and zeros only:
 *   conj    every value read from src is conjugated (COPY_T with conj: the conjugate transpose)
 *   herm    Hermitian: in SYM the mirrored values src(j, i) are conjugated, and in every mode a
 *           diagonal element written (i = j) gets imaginary part 0 (a Hermitian matrix's
 *           diagonal is real: its stored Im is not read)
 * Both are ignored on real data. */
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
    int cplx, conj, herm;
} dfs_l3_copy;

#ifndef __CUDACC__
/* Element (i, j)'s source under the mode: 1 and (*r, *c) = the src element read, or 0 for a
 * constant (*one: 1, else 0), or -1 when dst(i, j) is not written (MASK outside "in"). */
static inline int dfs_l3_copy_from(const dfs_l3_copy *a, int64_t i, int64_t j, int64_t *r,
                                   int64_t *c, int *one)
{
    const int in = a->lower ? i >= j : i <= j;
    *r = i;
    *c = j;
    *one = 0;
    switch (a->mode) {
    case DFS_L3_COPY: return 1;
    case DFS_L3_MASK: return in ? 1 : -1;
    case DFS_L3_TRI:
        *one = in && i == j && a->unit;
        return in && !*one;
    default: /* COPY_T; SYM outside "in" */
        if (a->mode == DFS_L3_COPY_T || !in) {
            *r = j;
            *c = i;
        }
        return 1;
    }
}

/* The copy on the CPU (host memory), element by element as the kernel does it (src read only
 * where it is used). */
static inline void dfs_l3_copy_host(const dfs_l3_copy *a)
{
    const int z = a->cplx ? 2 : 1;
    for (int64_t j = 0; j < a->cols; j++)
        for (int64_t i = 0; i < a->rows; i++) {
            int64_t r, c;
            int one;
            const int from = dfs_l3_copy_from(a, i, j, &r, &c, &one);
            if (from < 0)
                continue;
            double *o = &a->dst[z * (i + j * a->ldd)];
            const double *s = &a->src[z * (r + c * a->lds)];
            o[0] = from ? s[0] : one ? 1.0 : 0.0;
            if (!a->cplx)
                continue;
            /* Im: conjugated when conj, or when herm mirrors; 0 on a Hermitian diagonal */
            const int neg = a->conj != (a->herm && a->mode == DFS_L3_SYM && r != i);
            o[1] = !from || (a->herm && i == j) ? 0.0 : neg ? -s[1] : s[1];
        }
}
#endif

#endif
