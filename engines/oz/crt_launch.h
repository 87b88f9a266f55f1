/* crt_launch.h — the launches of the Ozaki scheme II's steps that crt_gemm.c's driver runs per
 * block: the residue kernel over one operand or two, the complex operands' three matrices
 * (zk), and a block's int8 GEMMs on cuBLAS (with a triangular operand, in strips over the inner
 * ranges where it is not zero).  Host code; each returns nonzero (or a cuBLAS status) when a
 * launch fails. */
#ifndef DFS_OZ_CRT_LAUNCH_H
#define DFS_OZ_CRT_LAUNCH_H

#include "../../core/gpu.h"
#include "../engine.h"
#include "args.h"
#include "crt_gemm.h"

#include <stdint.h>

/* One call's launch context: its engine context and options, the oz module's kernels, the
 * stream and the device's multiprocessors. */
typedef struct {
    const dfs_ctx *x;
    const dfs_crt_gemm_opts *o;
    const CUfunction *k;
    CUstream st;
    int sms;
} dfs_crt_run;

/* The words per element of the residue kernel's byte form (dfs_crt_bcoefs) with L bits of
 * moduli: 2 when no row gets more than 62 bits (dfs_crt_max_bits), else 4. */
int dfs_crt_residue_words(int L);

/* The residues of rows r0 .. r0+rows-1 of an operand: a (its fields but the rows and R set
 * once per call, its coefficients for dfs_crt_residue_words(a->L) words), into the planes from
 * plane0 on of the block's residues at base (plane l at base + l * rows * kp, or a->ps apart). */
int dfs_crt_launch_residues(const dfs_crt_run *R, dfs_crt_residue_args *a, int64_t r0,
                            int64_t rows, signed char *base, int plane0);

/* op(A)'s residues (all its rows, into RA) and those of op(B)'s columns c0 .. c0+cols-1 (into
 * RB) in one launch: the two fill the GPU together where each alone would leave it half idle
 * (n = 1024: one wave each).  The same residues as dfs_crt_launch_residues's. */
int dfs_crt_launch_residues_ab(const dfs_crt_run *R, dfs_crt_residue_args *a, int64_t rows,
                               signed char *RA, dfs_crt_residue_args *b, int64_t c0,
                               int64_t cols, signed char *RB);

/* zk: the residues of rows r0 .. r0+rows-1 of a complex operand, its real parts by re and its
 * imaginary parts (or, op(B), minus them) by im, into the first two of each plane's three
 * matrices at base, then the third (dfs_crt_zk_sums: the difference for op(A), sub, else the
 * sum). */
int dfs_crt_launch_zk_residues(const dfs_crt_run *R, dfs_crt_residue_args *re,
                               dfs_crt_residue_args *im, int64_t r0, int64_t rows,
                               signed char *base, int planes, int sub);

/* A block's int8 GEMMs, Cl_l = RA_l^T RB_l (int8 in, exact int32 sums): rows lo .. lo+mt-1 of
 * op(A) (their residues at ra, planes sa apart), columns c0 .. c0+nb-1 of op(B) (at rb, planes
 * sb apart), into Cl (mt x nb, planes mt nb apart), P planes, inner dimension padded to kp.
 * A triangular operand (ta, tb: dfs_gemm_call's tri_a, tri_b) in strips of rows (columns),
 * each over the inner range, in steps of 16, where its part of the operand is not zero: the
 * products left out are zero, so the sums are the same. */
typedef struct {
    const signed char *ra, *rb;
    int64_t sa, sb, lo, mt, c0, nb, kp;
    int P;
    dfs_tri ta, tb;
} dfs_crt_block_gemm;

/* g's GEMMs into Cl; one_p and zero_p: int32 1 and 0 in the handle's pointer mode. */
cublasStatus_t dfs_crt_block_gemms(const dfs_crt_run *R, const dfs_crt_block_gemm *g,
                                   int32_t *Cl, const void *one_p, const void *zero_p);

#endif
