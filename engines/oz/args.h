/* args.h — the Ozaki-family DGEMM kernels that the engines share (kernels.cu): their list and
 * argument blocks, plain C for the kernels and the host code that launches them (call.c,
 * crt_gemm.c, repro/gemm.c). */
#ifndef DFS_OZ_ARGS_H
#define DFS_OZ_ARGS_H

#include "crt.h"
#include "tuning.h"

#include <stdint.h>

/* The kernels of kernels.cu (core/gpu.h's DFS_MODULE list). */
#define DFS_OZ_KERNELS(X)                                                                          \
    X(DFS_OZ_K_ROWS, dfs_oz_rows) X(DFS_OZ_K_DIRECT, dfs_oz_direct)                                \
    X(DFS_OZ_K_RESIDUES, dfs_crt_residues) X(DFS_OZ_K_RESIDUES62, dfs_crt_residues62)              \
    X(DFS_OZ_K_CRT_FAST, dfs_crt_finish_fast) X(DFS_OZ_K_CRT_FAST13, dfs_crt_finish_fast13)        \
    X(DFS_OZ_K_CRT_FAST14, dfs_crt_finish_fast14)                                                  \
    X(DFS_OZ_K_CRT_FAST15, dfs_crt_finish_fast15) X(DFS_OZ_K_CRT_FAST16, dfs_crt_finish_fast16)    \
    X(DFS_OZ_K_CRT_FAST17, dfs_crt_finish_fast17) X(DFS_OZ_K_CRT_FAST18, dfs_crt_finish_fast18)    \
    X(DFS_OZ_K_CRT_FAST19, dfs_crt_finish_fast19) X(DFS_OZ_K_CRT_FAST20, dfs_crt_finish_fast20)    \
    X(DFS_OZ_K_CRT_VERIFY, dfs_crt_finish_verify)                                                  \
    X(DFS_OZ_K_CRT_VERIFY21, dfs_crt_finish_verify21)                                              \
    X(DFS_OZ_K_CRT_VERIFY22, dfs_crt_finish_verify22)                                              \
    X(DFS_OZ_K_CRT_VERIFY23, dfs_crt_finish_verify23)                                              \
    X(DFS_OZ_K_CRT_VERIFY24, dfs_crt_finish_verify24)                                              \
    X(DFS_OZ_K_CRT_VERIFY_WIDE, dfs_crt_finish_verify_wide) X(DFS_OZ_K_CRT_REPAIR, dfs_crt_repair) \
    X(DFS_OZ_K_KGROUPS, dfs_oz_kgroups) X(DFS_OZ_K_SMALL, dfs_oz_small)                           \
    X(DFS_OZ_K_SMALL_TILED, dfs_oz_small_tiled) X(DFS_OZ_K_SMALL_TILED1, dfs_oz_small_tiled1)   \
    X(DFS_OZ_K_CRT_PAIRS, dfs_crt_finish_pairs)                                                    \
    X(DFS_OZ_K_CRT_PAIRS_WIDE, dfs_crt_finish_pairs_wide)                                          \
    X(DFS_OZ_K_DIRECT_PAIRS, dfs_oz_direct_pairs)                                              \
    X(DFS_OZ_K_ZK_SUMS, dfs_crt_zk_sums) X(DFS_OZ_K_ZK_FAST, dfs_crt_finish_zk)                   \
    X(DFS_OZ_K_ZK_FAST14, dfs_crt_finish_zk14) X(DFS_OZ_K_ZK_FAST15, dfs_crt_finish_zk15)          \
    X(DFS_OZ_K_ZK_FAST16, dfs_crt_finish_zk16)
#define DFS_OZ_KERNEL_ID(id, symbol) id,
enum { DFS_OZ_KERNELS(DFS_OZ_KERNEL_ID) DFS_OZ_K_COUNT };
#undef DFS_OZ_KERNEL_ID
#ifndef __cplusplus /* crt_gemm.c picks the fast finish for N moduli as FAST13 + N - 13 */
_Static_assert(DFS_OZ_K_CRT_FAST20 == DFS_OZ_K_CRT_FAST13 + 7, "the fast finishes in order");
/* and the verifying finish for N moduli as VERIFY21 + N - 21 */
_Static_assert(DFS_OZ_K_CRT_VERIFY24 == DFS_OZ_K_CRT_VERIFY21 + 3, "the verifying finishes in order");
/* and the complex (Karatsuba) fast finish for N moduli as ZK_FAST14 + N - 14 */
_Static_assert(DFS_OZ_K_ZK_FAST16 == DFS_OZ_K_ZK_FAST14 + 2, "the complex finishes in order");
#endif

#define DFS_OZ_SPECIAL (-1)  /* need[] of a row holding Inf or NaN */
#define DFS_OZ_MAX_SLICES 16  /* the most slices per operand (the option max_splits) */


/* Per row of op(X), element (r, q) at X[r * rs + q * qs], q < k: the top exponent tau, the
 * slices it needs (dfs_oz_row_slices, or DFS_OZ_SPECIAL), its l1 norm (dfs_oz_row_l1), the bound
 * of its sum of squares (dfs_oz_row_l2sq) when ss is not NULL, and the
 * largest need over the rows that are not special into *maxneed (zeroed before).  warp_per_row
 * when qs == 1. */
typedef struct {
    const double *X;
    int64_t rs, qs, rows, k;
    int *tau, *need, *maxneed;
    double *nrm, *ss;
    int beta, warp_per_row;
    double *consts; /* the kernel also writes 1.0, 0.0 and after them int32 1, 0 here (device
                       scalars for cuBLAS) */
    const double *alpha; /* device pointer mode: the call's alpha; 0 there: X is not read (every
                            row as a row of zeros), as cuBLAS reads no operand then */
    /* the inner dimension in groups (dfs_oz_kgroups_args): when kcls is set, only the elements
     * (r, q) with kcls[q] == group count in the row's exponent and norms (all in its specials) */
    const signed char *kcls;
    int group;
    /* the inner dimension's classes (dfs_oz_kgroups_args' gate): when gate is set and closed
     * (dfs_oz_kgate_closed), the kernel does nothing */
    const int *gate;
} dfs_oz_rows_args;

/* What the rows kernel takes: one pass (a; b.rows = 0), or two in one launch, a's a_blocks blocks
 * first (dfs_oz_launch_rows). */
typedef struct {
    dfs_oz_rows_args a, b;
    unsigned a_blocks;
} dfs_oz_rows_pair;

/* One block of C: rows r0 .. r0+bm-1, columns c0 .. c0+bn-1.  The pairs taken are i < sa,
 * j < dfs_oz_cols(sb, d, i); their products are P[poff[i] + (j * bn + c) * bm + r].  Outputs
 * that must be computed directly (a special row or column, a window too small, or — verify —
 * a result that the pairs left out could change) are appended to list[] (r - r0 in the low 16
 * bits, c - c0 in the high), counted in *count (zeroed before).  verify: every output correctly
 * rounded (the pairs left out bounded by dfs_oz_tail_bound); stats[0] += the outputs listed for
 * that, stats[1] += those that d - 1 would have listed (the host's next choice of d). */
typedef struct {
    const double *P;
    int64_t poff[DFS_OZ_MAX_SLICES];
    int64_t bm, bn, r0, c0, k;
    int sa, sb, d, beta, verify, fixed_sum;
    const int *tauA, *tauB, *needA, *needB;
    const double *nrmA, *nrmB;
    unsigned long long *stats; /* [2] = seq: the call's number, written too; [3] += listed */
    unsigned long long seq;
    const double *alpha, *beta_p; /* device pointers, or NULL: alpha_v, beta_v */
    double alpha_v, beta_v;
    double *C;
    int64_t ldc;
    /* direct outputs */
    uint32_t *list;
    unsigned *count;
    /* op(A), op(B) for the direct path: (r, q) at A[r * ars + q * aqs], (q, c) at
     * B[q * bqs + c * bcs] */
    const double *A, *B;
    int64_t ars, aqs, bqs, bcs;
    /* the int8 path's finishes: 0, every output of the block; 1 (2), only those on or below
     * (above) C's diagonal, the others neither written, listed nor counted (dfs_gemm_call.tri) */
    int tri;
} dfs_oz_finish_args;

/* repro's small DGEMMs in one launch (dfs_oz_small, kernels_small.cuh; dfs_oz_small_tiled,
 * kernels_small_tiled.cuh): every output of batch
 * entries of blk.bm x blk.bn, entry i's op(A), op(B) and C at blk.A + i sA, blk.B + i sB,
 * blk.C + i sC (the list, the rows' data unused). */
typedef struct {
    dfs_oz_finish_args blk;
    int64_t batch, sA, sB, sC;
} dfs_oz_small_args;

/* ---- the Ozaki scheme II on integer tensor cores (crt.h, crt_gemm.c) ---- */

/* Residues of rows r0 .. r0+rows-1 of op(X) ((r, q) at X[r * rs + q * qs], q < k) scaled to
 * integers of bits[r] = dfs_crt_row_bits(L, ss[r], kb) bits (kb: the inner dimension the rows'
 * sums of squares are of, 0 for k; dfs_crt_scale with tau[r]; rows with need[r] ==
 * DFS_OZ_SPECIAL, or of zeros, give 0), times y, modulo the first n moduli: R[l * ps + (r - r0)
 * * kp + q] (ps: 0 for rows * kp), int8, with q from k to kp - 1 zero; bcoef from
 * dfs_crt_bcoefs (y_l for op(A), 1 for op(B); 2 words when dfs_crt_max_bits(L) <= 62, the
 * kernel dfs_crt_residues62, else 4, dfs_crt_residues).  The blocks of column 0 write bits[r].
 * fast: plane n holds the magnitudes dfs_crt_mag (crt_check.h) as well. */
typedef struct {
    const double *X;
    int64_t rs, qs, r0, rows, k, kp;
    const int *tau, *need;
    const double *ss;
    int *bits;
    int L, n;
    int64_t kb, ps;
    int mag_half; /* fast: the magnitude plane at 6 bits, floor(|a| 2^(6 - tau)), not 7 (zk: two
                     of them fit a byte) */
    int fast; /* the int8 engine: rows of enough bits rounded to nearest (dfs_crt_rounds) */
    signed char *R;
    const signed char *kcls; /* set: the elements with kcls[q] != group taken as zeros */
    int group;
    dfs_crt_bcoef bcoef[DFS_CRT_MODULI];
} dfs_crt_residue_args;

/* What the residue kernels take: one operand's residues (a; b.rows = 0), or both operands' in
 * one launch (the same kp and words): the first ceil(a.rows / 32) rows of blocks make a's, the
 * others b's. */
typedef struct {
    dfs_crt_residue_args a, b;
} dfs_crt_residue_pair;

/* The inner dimension of a verifying DGEMM in two groups (crt_gemm.c): from the top exponents
 * of op(A)'s columns and op(B)'s rows (tA[q], tB[q], DFS_OZ_NONE_TAU for zeros; rows passes
 * over them), s_q = tA[q] + tB[q]; the largest gap between the values s_q takes splits them,
 * when it is at least DFS_OZ_KGAP binades: kcls[q] = 1 above it, 0 below, -1 where s_q is
 * none (the products are zeros); out[0] = the gap found (0: fewer than two values), out[1] = 1
 * when split.  One block of DFS_OZ_KGROUPS_THREADS threads.  gate (or NULL): two ints, the
 * largest tau - low over op(A)'s rows and over op(B)'s columns (rows passes with beta 1); where
 * the gate is closed (kgroups.h, dfs_oz_kgate_closed) no split is sought: out = {0, 0}, kcls
 * and tA, tB not written (the rows passes over them, gated alike, do nothing). */
#define DFS_OZ_KGAP 64
#define DFS_OZ_KGROUPS_THREADS 1024
typedef struct {
    const int *tA, *tB;
    int64_t k;
    signed char *kcls;
    int *out;
    const int *gate;
} dfs_oz_kgroups_args;

/* What a fast call counts on the device (the int8 engine's feedback, crt_gemm.h): need[n] the
 * outputs that would pass the contract's check with n moduli and not fewer (n =
 * DFS_CRT_FAST_MODULI + 1: with none), the failing ones all, the passing ones 1 in 16 (in one
 * finish block of four, each warp's every fourth column), counted 16 times; failed: outputs
 * recomputed by the repair;
 * tiles: its tiles; seq: the call's number (set before the call). */
#define DFS_CRT_NEED_BINS 32
typedef struct {
    unsigned long long need[DFS_CRT_NEED_BINS];
    unsigned long long failed, tiles, seq;
} dfs_crt_fast_stats;

/* The repair's tiles of C (dfs_crt_repair): DFS_CRT_TILE x DFS_CRT_TILE outputs, 256 threads. */
#define DFS_CRT_TILE 64
#define DFS_CRT_TILE_K 16

/* One block of C from the int32 sums of its moduli, Cl[l * bm * bn + c * bm + r]: blk is the
 * same block as the direct kernel sees it (geometry, rows, list, counters, scalars, C, op(A),
 * op(B); its slice fields unused), bitsA and bitsB the rows' bits (dfs_crt_residue_args), step
 * the per-call constants of crt_finish.h.  A grid of ceil(bm / DFS_OZ_FINISH_THREADS) x
 * min(ceil(bn / 4), 65535) blocks: rows along x, columns along y.  Fast: the outputs that fail
 * the contract's check are marked in fail (bit r % 32 of word c * ceil(bm / 32) + r / 32; every
 * word written) for dfs_crt_repair, which takes the same block, and counted in fstats.  Verify:
 * vneed[n] counts the undecided outputs that n moduli would have decided (dfs_crt_verify_need;
 * DFS_CRT_VNEED_BINS counters, zeroed before the call), for the next call's moduli. */
#define DFS_CRT_VNEED_BINS (DFS_CRT_MODULI + 2)
typedef struct {
    const int32_t *Cl;
    const int *bitsA, *bitsB;
    const double *ssA, *ssB; /* fast: the moduli outputs would need; verify: the bits one
                                modulus fewer would give */
    uint32_t *fail;
    dfs_crt_fast_stats *fstats;
    unsigned long long *vneed;
    dfs_oz_finish_args blk;
    dfs_crt_step step;
    /* verify with the inner dimension in two groups (kgroups = 2; else 1): blk's, bitsA, bitsB,
     * ssA, ssB and Cl's first n planes are group 0's; group 1's rows and columns here, its
     * planes the next n.  Each output from its larger part, the other bounded
     * (dfs_crt_group_pick). */
    int kgroups;
    const int *tauA1, *tauB1, *needA1, *needB1, *bitsA1, *bitsB1;
    const double *nrmA1, *nrmB1, *ssA1, *ssB1;
    /* complex row pairs (crt_gemm.h's zpairs): rows 2i and 2i+1 of op(A) give Re and
     * Im of C's row i (C, ldc: its real view), each pair by dfs_crt_finish_pairs, the pairs it
     * lists by dfs_oz_direct_pairs (crt_zpair.h); the complex scalars as device pointers
     * (zalpha_d, zbeta_d: two doubles each) or values.  blk's alpha and beta unused. */
    int zpairs;
    const double *zalpha_d, *zbeta_d;
    double zalpha[2], zbeta[2];
} dfs_crt_finish_args;

/* A complex product by Karatsuba's three products (crt_gemm.h's zk; the finish
 * dfs_crt_finish_zk*): per plane l of a block's residues, three matrices of rows x kp bytes at
 * R + 3 l rows kp: the residues of the real parts, of the imaginary parts, and here made into the
 * third, s = x - y (sub; op(A)'s) or x + y (op(B)'s) modulo the plane's modulus (l < n) in the
 * residues' symmetric range; the magnitude plane (l = n, fast; 6-bit magnitudes): x + y.  mod: the
 * moduli (dfs_crt_modulus).  A grid of blocks of 256 threads, four bytes a thread, grid-stride
 * over a plane's words along x, the planes along y. */
typedef struct {
    signed char *R;
    int64_t rows, kp;
    int n, sub;
    int mod[DFS_CRT_MODULI];
} dfs_crt_zk_sums_args;

#endif
