/* l3_mm.h — the Level-3 routines SYRK, SYRKX, SYR2K, SYMM and TRMM (double and complex double)
 * and HERK, HERKX, HER2K and HEMM (complex double) as one matrix-multiply descriptor each
 * (../shared/design/LEVEL3.md §5, kept small: no batches), and the descriptor degraded into
 * plain GEMMs (dfs_gemm_call, of the call's element type) for engines that compute nothing but
 * GEMM.  Pure host logic: the GEMMs and copies go through callbacks (the shim's l3_gemm.c gives
 * an engine's GEMM and the GPU copy kernel; the unit test a recording stand-in).
 *
 * The degradation keeps R1 (LEVEL3.md §3.1): every output is finished by exactly one GEMM that
 * sees its whole sum of products and beta c; nothing is ever chained through beta = 1.
 *   - a structured operand (TRI, SYM, HER) is materialised into scratch by a copy (zeros off the
 *     triangle and ones on a unit diagonal; the other triangle mirrored, conjugated for HER,
 *     whose diagonal's imaginary part is written as 0), its op kept (op C included);
 *   - fin SYM2 (SYR2K) becomes one product of k-concatenated operands, staged in scratch:
 *     alpha (D + D^T) + beta C with D = X Y equals alpha [X Y^T] [Y; X^T] + beta C, one sum of 2k
 *     products per output; fin HER2 (HER2K) likewise with ^H: alpha (D + D^H) + beta C equals
 *     alpha [X Y^H] [Y; X^H] + beta C, which holds for a real alpha only (HER2K's second term
 *     has conj(alpha)): a HER2K with another alpha, or whose alpha is in device memory (not
 *     seen), is not covered, and runs natively;
 *   - a triangle of output (out LOWER/UPPER) is computed by one GEMM of that triangle (real
 *     data, the engine's DFS_CAP_TRIANGLE: ops->tri) or, where the engine declines it or has no
 *     such GEMM, in panels of nb columns: the part of a panel below (above) its diagonal block
 *     straight into C by a GEMM on sub-matrix pointers, the nb x nb diagonal block into scratch
 *     (from a copy of C's block when beta may be nonzero) and copied back masked, so the other
 *     triangle of C is never written;
 *   - a triangular operand (TRMM) is multiplied in blocks of nb rows (on the left) or columns
 *     (on the right) of the output, each GEMM's inner range cut to the blocks of the operand
 *     that are not all zero (the zeros it leaves out change no exact sum);
 *   - an output that is an input's storage (TRMM with C = B) is computed into scratch and
 *     copied to C afterwards;
 *   - herm_diag (HERK, HERKX, HER2K): C's diagonal is read with imaginary part 0 (the diagonal
 *     block's copy into scratch zeroes it) and written with imaginary part 0 (the masked copy
 *     back zeroes it), so Im(C_ii) := 0 on every output, as cuBLAS. */
#ifndef DFS_L3_MM_H
#define DFS_L3_MM_H

#include "../engines/engine.h"
#include "../engines/l3/args.h"

typedef enum { DFS_SHAPE_GEN, DFS_SHAPE_TRI, DFS_SHAPE_SYM, DFS_SHAPE_HER } dfs_shape;
typedef enum { DFS_OUT_ALL, DFS_OUT_LOWER, DFS_OUT_UPPER } dfs_out;
typedef enum { DFS_FIN_AXPBY, DFS_FIN_SYM2, DFS_FIN_HER2 } dfs_fin;

/* An operand: op(X) with X stored at p (leading dimension ld, in elements; complex: p at the
 * first element's real part), op N or T, or C on complex data.  TRI: X is square and
 * triangular, stored in its `uplo` triangle, zero elsewhere; unit: ones on its diagonal, which
 * is not read.  SYM: X is square and symmetric, stored in its `uplo` triangle only; HER: X is
 * Hermitian, stored so, the imaginary parts of its diagonal not read (taken as 0). */
typedef struct {
    const double *p;
    int64_t ld;
    cublasOperation_t op;
    dfs_shape shape;
    int lower, unit;
} dfs_opnd;

/* fin AXPBY: C = alpha op(A) op(B) + beta C; fin SYM2: C = alpha (D + D^T) + beta C with
 * D = op(A) op(B) (m = n); fin HER2: C = alpha (D + D^H) + beta C (alpha real); only the part
 * `out` of C (m x n, leading dimension ldc) is written.  op(A) is m x k, op(B) k x n.  cplx: the
 * data are complex (every matrix, and alpha and beta, of two doubles an element).  alpha and
 * beta point at one element each in the call's pointer mode; beta_zero: beta is known to be 0
 * (C need not be read).  c_aliases_b: C is B's storage (TRMM in place).  herm_diag: C's
 * diagonal is Hermitian (read and written with imaginary part 0). */
typedef struct {
    int64_t m, n, k;
    dfs_opnd A, B;
    const double *alpha, *beta;
    int beta_zero;
    double *C;
    int64_t ldc;
    dfs_out out;
    dfs_fin fin;
    int c_aliases_b;
    int cplx, herm_diag;
} dfs_mm;

/* The descriptor of a Level-3 record c: 1, or 0 when this file does not cover the call (TRSM;
 * HERK...HEMM on real data; a complex record whose alpha or beta is real: the caller gives the
 * GEMMs' complex scalars by a copy of the record with alpha, beta at (value, 0) and alpha_real,
 * beta_real 0; complex SYRK, SYRKX, SYR2K with op C and the H kinds with op T, which cuBLAS
 * computes as it does; a HER2K whose alpha is not seen to be real).  host_scalars: alpha and
 * beta are host pointers (then a zero beta is seen); zero: a zero of the element type (two
 * doubles when complex) in the call's pointer mode, TRMM's beta. */
int dfs_l3_to_mm(const dfs_l3_call *c, int host_scalars, const double *zero, dfs_mm *mm);

/* The panel width the shim uses for mm cut into `panels` panels (the engine's l3_panels): about
 * 1/panels of the blocked dimension (the order of C for a triangle of output, of the triangular
 * operand for TRMM), a multiple of 32, at least 32.  With 8, the diagonal blocks' work on the
 * other triangle (or on TRMM's zeros) adds about nb / n, an eighth, to the work of the triangle
 * itself, in about 16 GEMMs. */
int64_t dfs_mm_panel(const dfs_mm *mm, int panels);
/* Doubles of scratch dfs_mm_run needs for mm with panels of nb (two an element when complex). */
int64_t dfs_mm_scratch(const dfs_mm *mm, int64_t nb);

typedef struct {
    /* 0 when the copy is enqueued */
    int (*copy)(void *ctx, const dfs_l3_copy *cp);
    /* one GEMM of mm's element type (batch 1): its status */
    cublasStatus_t (*gemm)(void *ctx, const dfs_gemm_call *g);
    void *ctx;
    /* 1: gemm takes a triangle of C (dfs_gemm_call.tri) on real data, and answers
     * DFS_STATUS_DECLINED, C untouched, where it cannot */
    int tri;
} dfs_mm_ops;

/* mm through ops in panels of nb (> 0), scratch: dfs_mm_scratch(mm, nb) doubles.  SUCCESS; the
 * first status other than SUCCESS a GEMM returns (nothing further is done); or
 * CUBLAS_STATUS_EXECUTION_FAILED when a copy fails.  Nothing is written to C before the first
 * GEMM, which is the one with the most work (the longest panel or block), so that an engine
 * declining it (or preferring native for it) leaves C untouched. */
cublasStatus_t dfs_mm_run(const dfs_mm *mm, int64_t nb, double *scratch, const dfs_mm_ops *ops);

#endif
