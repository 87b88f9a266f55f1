/* zreal.h — complex GEMM through an engine's real GEMM: the real representation (LEVEL3.md,
 * "Forms"), for engines without a complex kernel of their own.
 *
 * With op(A) = Ar + i Ai (m x k) and op(B) = Br + i Bi (k x n), one real GEMM of m x 2n x 2k,
 *     [Ar Ai] . [Br  Bi]  =  [Re S  Im S],
 *              [-Bi Br]
 * gives both parts of S = op(A) op(B), each part one real dot product of length 2k of exact
 * binary64 values (moves and negations only): the real engine's per-output contract holds for
 * each part with k' = 2k.  The operands are staged as real planes in temporaries (the size of
 * A, twice B's, C's), op T and C applied there, with the columns of B' and of the product
 * interleaved: B' column 2j = (Br_j; -Bi_j), column 2j+1 = (Bi_j; Br_j), so that the product's
 * columns 2j and 2j+1 are Re and Im of S's column j (a real engine may then take both parts of
 * an output together: the int8 engine's three products, ../oz/crt_gemm.h's zk). */
#ifndef DFS_ZREAL_H
#define DFS_ZREAL_H

#include "../engine.h"

/* The engine's real GEMM (a dfs_engine's gemm, given calls of type DFS_R64 only). */
typedef cublasStatus_t (*dfs_zr_real_gemm)(const dfs_ctx *x, const dfs_gemm_call *c);

/* The complex call c through real.  exact = 1 (an engine that rounds each output once, repro):
 * real alpha and beta (imaginary parts zero, host pointer mode) go into the real call, so each
 * part of C is the engine's rounding of Re / Im (alpha S + beta C); other scalars are declined
 * (such an engine takes them by row pairs, dfs_zr_gemm_pairs).
 * exact = 0: the real call computes S (alpha 1, beta 0) and alpha S + beta C follows in
 * binary64, as cuBLAS forms it (a term with a zero scalar left out).  Returns the real call's
 * status, or DFS_STATUS_DECLINED (C untouched) when the temporaries cannot be had, the scalars
 * do not suit exact, or the real engine declines. */
cublasStatus_t dfs_zr_gemm(const dfs_ctx *x, const dfs_gemm_call *c, dfs_zr_real_gemm real,
                           int exact);

/* The real representation by row pairs, for an engine that rounds each part once whatever the
 * scalars (repro on the Ozaki scheme II: ../oz/crt_zpair.h): with op(A)'s row i and q < k,
 *     op(A)'(2i, 2q) = Ar,  op(A)'(2i, 2q+1) = -Ai,  op(A)'(2i+1, 2q) = Ai,
 *     op(A)'(2i+1, 2q+1) = Ar
 * (2m x 2k, staged) against op(B)'(2q + p, j) = part p of op(B)(q, j) (2k x n: B itself viewed
 * as real when op(B) = N, else staged), so that output (2i, j) of the real product is Re S(i, j)
 * and (2i+1, j) is Im S(i, j), and C viewed as real (2m x n, leading dimension 2 ldc) is where
 * they belong.  The real call gets alpha standing for whether alpha is zero (host: 1; device: a
 * device double the staging writes, 0 when alpha is, and then no operand is read) and the
 * complex scalars apart, as given (host or device pointers).  Returns its status, or
 * DFS_STATUS_DECLINED (C untouched) when the temporaries cannot be had or it declines. */
typedef cublasStatus_t (*dfs_zr_pairs_gemm)(const dfs_ctx *x, const dfs_gemm_call *c,
                                            const double *zalpha, const double *zbeta);
cublasStatus_t dfs_zr_gemm_pairs(const dfs_ctx *x, const dfs_gemm_call *c,
                                 dfs_zr_pairs_gemm real);

#endif
