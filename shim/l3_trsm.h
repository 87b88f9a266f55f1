/* l3_trsm.h — TRSM, real and complex, as a recursive blocked sweep (../shared/design/LEVEL3.md
 * §3.5, §5.3): small triangular solves of the diagonal blocks (engines/l3/solve.h) and GEMM
 * updates, most of the work in a few large ones.  Pure host logic: the solves, GEMMs and copies go through callbacks
 * (the shim's l3_gemm.c gives the GPU kernels and an engine's GEMM; the tests the CPU twins or a
 * recording stand-in).
 *
 * op(A) X = alpha B (side left, B m x n, A m x m) in blocks of nb rows of B; X op(A) = alpha B
 * (side right, A n x n) as the transposed left problem op(A)^T X^T = alpha B^T, in blocks of nb
 * columns of B (views and operand ops, no copies).  With T = op(A) (left) or op(A)^T (right) and
 * B' = B or B^T, the sweep runs forward (the blocks aligned from the top, the partial one at the
 * bottom) when T is lower triangular, else backward (aligned from the bottom, the partial one at
 * the top), and recursively, so that most of the work is in a few large GEMMs (an Ozaki-type
 * engine prepares both operands of every GEMM):
 *     part(rows P of B', s):            s: alpha while P is untouched, then 1
 *         P of at most nb rows:  X_P := solve(T_PP, s B'_P)
 *         else:  J := the first ceil(blocks / 2) blocks of P in the sweep's order, R the rest;
 *                part(J, s);  B'_R := s B'_R - T_RJ X_J;  part(R, 1)
 * the update a GEMM with alpha = -1 and beta = s (left: B(R, :) = -op(A)(R, J) X_J + s B(R, :);
 * right: B(:, R) = -X_J op(A)(J, R) + s B(:, R)).  alpha is applied once to every row, in the
 * caller's pointer mode; T_RJ lies in A's stored triangle, whose other triangle is never read
 * (nor a unit diagonal).  X overwrites B in place.  The largest GEMM is the top-level update
 * (dfs_trsm_largest_gemm), of k about half the order; the first, right after the first block,
 * one of the smallest.
 *
 * The first block is solved in scratch and copied into B only after the first GEMM succeeded, so
 * that an engine declining that GEMM leaves B untouched.  An engine whose contract is native
 * FP64's may instead leave parts to cuBLAS's TRSM (dfs_trsm_ops.trsm): every leaf, and every
 * part whose update GEMM it would leave to native, is then one cuBLAS call in place.  With one
 * block (order <= nb) there is no GEMM: the solve alone.
 *
 * Complex data: the same sweep with complex solves and complex GEMMs (two doubles an element;
 * alpha, -1 and 1 complex).  op C: T is conj(A)^T on the left and conj(A) on the right (the
 * solve reads A conjugated), and the updates' op(A) is op C (left: op(A)(R, J); right:
 * op(A)(J, R)), so no conjugate-without-transpose is needed. */
#ifndef DFS_L3_TRSM_H
#define DFS_L3_TRSM_H

#include "../engines/engine.h"
#include "../engines/l3/args.h"
#include "../engines/l3/solve.h"

typedef struct {
    int64_t m, n; /* B */
    const double *A;
    int64_t lda;
    int left, lower, trans, unit; /* side, A's stored triangle, op(A) T (or C), diag */
    int cplx, conj;               /* complex data; op(A) C on complex data */
    double *B;
    int64_t ldb;
    /* alpha: the caller's, in its pointer mode (alpha_dev: a device pointer); minus_one, one:
     * -1.0 and 1.0 in that mode (the GEMMs' alpha and later beta; complex: -1 + 0i, 1 + 0i) */
    const double *alpha, *minus_one, *one;
    int alpha_dev;
} dfs_trsm;

/* The sweep of a TRSM record c: 1, or 0 when c is not one. */
int dfs_l3_to_trsm(const dfs_l3_call *c, int alpha_dev, const double *minus_one,
                   const double *one, dfs_trsm *t);

/* Whether the sweep runs forward (blocks from the top of B'), and its order (A's). */
int dfs_trsm_forward(const dfs_trsm *t);
int64_t dfs_trsm_order(const dfs_trsm *t);

/* Doubles of scratch dfs_trsm_run needs with blocks of nb: the first block of B', when there is
 * more than one (two doubles an element when complex). */
int64_t dfs_trsm_scratch(const dfs_trsm *t, int64_t nb);

typedef struct {
    /* 0 when the solve (copy) is enqueued */
    int (*solve)(void *ctx, const dfs_l3_solve *s);
    int (*copy)(void *ctx, const dfs_l3_copy *cp);
    /* one GEMM of the call's type (batch 1), alpha and beta in the call's pointer mode */
    cublasStatus_t (*gemm)(void *ctx, const dfs_gemm_call *g);
    void *ctx;
    /* Optional (NULL: not used).  trsm: the part sub (a TRSM record of its own: a diagonal block
     * of A, the rows of B' beside it, alpha or 1) solved by cuBLAS's TRSM; gemm_native: 1 where
     * the engine leaves a GEMM of g's shape to native arithmetic.  With trsm, every leaf is one
     * such call instead of the solve (no scratch), and so is, with gemm_native too, every part
     * whose own update GEMM (J's X applied to R) the engine leaves to native: native arithmetic
     * where the engine would not be faster, in the fewest calls. */
    cublasStatus_t (*trsm)(void *ctx, const dfs_trsm *sub);
    int (*gemm_native)(void *ctx, const dfs_gemm_call *g);
} dfs_trsm_ops;

/* The shape (and ops, type) of the sweep's largest GEMM, the top-level update, in g (no
 * pointers): 1, or 0 when the sweep has no GEMM (one block). */
int dfs_trsm_largest_gemm(const dfs_trsm *t, int64_t nb, dfs_gemm_call *g);

/* t through ops in blocks of nb (1 <= nb <= DFS_L3_SOLVE_MAX), scratch: dfs_trsm_scratch(t, nb)
 * doubles (none, NULL, with ops->trsm).  SUCCESS; the first status other than SUCCESS a GEMM
 * or ops->trsm returns (nothing further is done; B untouched when it is the first GEMM's and
 * no ops->trsm ran before it); or CUBLAS_STATUS_EXECUTION_FAILED when a solve or copy fails (B
 * untouched when no GEMM ran before). */
cublasStatus_t dfs_trsm_run(const dfs_trsm *t, int64_t nb, double *scratch,
                            const dfs_trsm_ops *ops);

#endif
