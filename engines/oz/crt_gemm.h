/* crt_gemm.h — the DGEMM by the Ozaki scheme II on integer tensor cores (crt_gemm.c): the int8
 * engine's product (fast) and repro's correctly rounded one on the same residues (verify). */
#ifndef DFS_OZ_CRT_GEMM_H
#define DFS_OZ_CRT_GEMM_H

#include "../engine.h"
#include "args.h"

#include <stddef.h>

typedef struct {
    int verify;       /* 1: correctly rounded (repro); 0: the int8 engine's fast result */
    int moduli;       /* fast: the moduli (0: dfs_crt_fast_moduli); verify: unused (guessed) */
    size_t workspace; /* bytes of scratch a call may use */
    /* fast: where the device's counters go (pinned host memory, copied on the stream after the
     * call; NULL: nowhere), and the call's number they carry */
    volatile dfs_crt_fast_stats *record;
    unsigned long long seq;
    /* verify: the inner dimension in groups (kgroups.h): DFS_CRT_KGROUPS_AUTO (two when the
     * last call's split), _ONE (never; no classes made), _TWO (always two) */
    int kgroups;
    /* verify: complex row pairs (crt_zpair.h): c is the real
     * representation by row pairs (c->m even; C its real view) and zalpha, zbeta the complex
     * scalars, two doubles each, host or device pointers as the call's pointer mode; c->alpha
     * only says whether alpha is zero (in device pointer mode a device double, 0 when alpha is:
     * the rows passes then read no operand) and c->beta is unused. */
    int zpairs;
    const double *zalpha, *zbeta;
    /* fast: c is the real representation of a complex product with interleaved columns
     * (../zreal/zreal.h: op(A) = [Ar Ai], op(B)'s column 2 j = (Br; -Bi), 2 j + 1 = (Bi; Br),
     * ops N): the product by Karatsuba's three products a modulus instead of the real one's
     * four (kernels_zkara.cuh) where dfs_crt_zk_fits; the same results. */
    int zk;
} dfs_crt_gemm_opts;
enum { DFS_CRT_KGROUPS_AUTO, DFS_CRT_KGROUPS_ONE, DFS_CRT_KGROUPS_TWO };

/* DFS_STATUS_DECLINED when it cannot take the call (k >= 2^17, no kernels, or no workspace):
 * nothing has been written then. */
cublasStatus_t dfs_crt_dgemm_gpu(const dfs_ctx *x, const dfs_gemm_call *c,
                                 const dfs_crt_gemm_opts *o);

#endif
