/* solve.h — the small triangular solve of a blocked TRSM's diagonal block (shim/l3_trsm.h): its
 * argument block, shared by the kernel (kernels.cu), its launch (copy.c) and the sweep, and the
 * same solve on the CPU, operation for operation, for the CPU twin of the whole TRSM.
 *
 * T X = s B for one block: T (n x n) is T(r, c) = A[r + c lda], or A[c + r lda] when trans_a,
 * lower or upper triangular (lower: forward substitution, else backward), only that triangle
 * read, its diagonal not read when unit; B (n x nrhs) is B(r, q) = B[r rs + q cs] and is
 * overwritten with X.  s is *scale when scale is not NULL (a device pointer on the GPU: the
 * caller's alpha in device pointer mode), else scale_h.
 *
 * The order of operations is fixed and the same on the CPU and the GPU (plain binary64, each
 * operation rounded to nearest, no fused multiply-add: the project's -ffp-contract=off and
 * nvcc's -fmad=false, and explicit _rn intrinsics on the device): for every right-hand side,
 *   b_r := s * b_r                                       for every r
 *   for i in order (0..n-1 forward, n-1..0 backward):
 *       x_i := unit ? b_i : b_i / T(i, i)
 *       b_r := b_r - T(r, i) * x_i                       for r after i (below forward, above
 *                                                        backward), the product rounded first
 * so each b_r sees its subtractions in one order, whatever thread does them.  The same bits on
 * every GPU, launch shape and the CPU.  No singularity test: a zero diagonal gives Inf or NaN
 * by IEEE rules, as cuBLAS. */
#ifndef DFS_L3_SOLVE_H
#define DFS_L3_SOLVE_H

#include <stdint.h>

/* The largest block the kernel takes (its shared memory holds DFS_L3_SOLVE_MAX x 16 doubles). */
#define DFS_L3_SOLVE_MAX 256

typedef struct {
    const double *A;
    int64_t lda;
    int trans_a, lower, unit;
    int64_t n, nrhs;
    double *B;
    int64_t rs, cs;
    const double *scale;
    double scale_h;
} dfs_l3_solve;

#ifndef __CUDACC__
/* The solve on the CPU (host memory): dfs_l3_solve_kernel's operations in its order. */
static inline void dfs_l3_solve_host(const dfs_l3_solve *a)
{
    const double s = a->scale ? *a->scale : a->scale_h;
    for (int64_t q = 0; q < a->nrhs; q++) {
        double *b = a->B + q * a->cs;
        for (int64_t r = 0; r < a->n; r++)
            b[r * a->rs] = s * b[r * a->rs];
        for (int64_t p = 0; p < a->n; p++) {
            const int64_t i = a->lower ? p : a->n - 1 - p;
            double x = b[i * a->rs];
            if (!a->unit)
                x = x / a->A[i + i * a->lda];
            b[i * a->rs] = x;
            const int64_t r0 = a->lower ? i + 1 : 0, r1 = a->lower ? a->n : i;
            for (int64_t r = r0; r < r1; r++) {
                const double t = a->trans_a ? a->A[i + r * a->lda] : a->A[r + i * a->lda];
                const double prod = t * x;
                b[r * a->rs] = b[r * a->rs] - prod;
            }
        }
    }
}
#endif

#endif
