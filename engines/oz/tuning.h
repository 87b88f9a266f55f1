/* tuning.h — the Ozaki family's tuning numbers (repro, int8, ozaki-sgemm and what they share),
 * in one place: run-time numbers per device class (dfs_oz_tuning_of), and the compile-time
 * shapes of the shared kernels.  Plain C, for the host code and the kernels alike.  How each
 * number was chosen, with the GPU and the date: README.md, "Measurements". */
#ifndef DFS_OZ_TUNING_H
#define DFS_OZ_TUNING_H

#include <stdint.h>

/* ---- compile time: the shared kernels' shapes (kernels.cu) ---- */
#define DFS_OZ_FINISH_THREADS 128 /* threads per block of the finish kernels */
#define DFS_OZ_DIRECT_WARPS 8     /* warps (outputs at a time) per block of the direct kernel */
#define DFS_OZ_DIRECT_TERMS 8     /* the terms of each of its lanes' expansions */
#define DFS_OZ_ZPAIR_WARPS 4      /* warps (pairs at a time) per block of the complex direct
                                   * kernel (shared memory: two accumulators and scratch each) */
#define DFS_OZ_SMALL_WARPS 4      /* warps per block of repro's small kernel (dfs_oz_small) */
#define DFS_OZ_SMALL_LANES 4      /* its lanes per output (a power of two, at most 32) */
#define DFS_OZ_SMALL_TERMS 6      /* the terms of each lane's expansion */
#define DFS_OZ_TILE_M 2           /* repro's tiled small kernel (dfs_oz_small_tiled): a thread's */
#define DFS_OZ_TILE_N 2           /*   tile of outputs, rows x columns */
#define DFS_OZ_TILED_WARPS 4      /*   and its warps per block */
#define DFS_OZ_ROWS_PER_BLOCK 16  /* rows per block of the rows pass where they are not the
                                     contiguous dimension (32 threads each) */
#define DFS_OZ_ROW_LOADS 4        /* loads a rows-pass thread issues at a time */
#define DFS_OZ_DOT_DD_PER_THREAD 4 /* repro's DDOT up to DFS_OZ_DOT_INLINE_MAX: its double-
                                      double kernel's blocks, at most one wave, take at least
                                      this many products a thread (32 above) */
#define DFS_OZ_DOT_INLINE_MAX (1 << 18) /* repro's DDOT: up to this n, a result its double-
                                           double way leaves open is computed by that kernel's
                                           last block alone, without the exact kernels' launches */

/* feedback.c: a verifying call takes one level more when more than 1/DFS_OZ_FB_MORE of its
 * outputs were undecided, one fewer when one level fewer would have left at most
 * 1/DFS_OZ_FB_FEWER; per kind of level (slice pairs, moduli), feedback.h's order.  An undecided
 * output costs a direct computation (k exact products), a level far less. */
#define DFS_OZ_FB_MORE {64, 2048}
#define DFS_OZ_FB_FEWER {256, 8192}

/* int8 (int8/choice.c): the next call takes the fewest moduli that leave at most 1 in
 * 2^DFS_INT8_REPAIR_SHIFT outputs to the repair; an output repaired in FP64 costs about
 * DFS_INT8_REPAIR_COST times its share of a native DGEMM (its k products read from memory,
 * uncoalesced); after a call that prefers native, the next DFS_INT8_BACKOFF_FIRST calls of the
 * shape run natively before one tries int8 again, twice as many each time it still prefers
 * native, at most DFS_INT8_BACKOFF_MAX. */
#define DFS_INT8_REPAIR_SHIFT 16
#define DFS_INT8_REPAIR_COST 640.0
#define DFS_INT8_BACKOFF_FIRST 4
#define DFS_INT8_BACKOFF_MAX 64

/* ---- run time, per device class (host code) ---- */
#ifndef __CUDACC__
#include "../../core/types.h"

typedef struct {
    const char *chosen_on; /* the parts these numbers were measured on */
    /* block planning (plan.h): a GEMM on a bm x bn block costs (1 + thin/bm + thin/bn) times its
     * work; a byte of operand traffic costs ops_per_byte (int8, crt_gemm.c) or flops_per_byte
     * (binary32, ozaki-sgemm) operations; the int8 path takes blocks of at most block_outputs */
    double thin;
    /* a triangle of C on the int8 path (crt_gemm.c): column blocks of about n / tri_blocks
     * (narrower ones waste less of the diagonal's squares, but thin GEMMs and per-block steps
     * cost more than `thin` says), the nearest that fits the workspace otherwise */
    double tri_blocks;
    double crt_ops_per_byte;
    int64_t crt_block_outputs;
    /* the scheme II's int8 GEMMs of a block of at most crt_batched_outputs outputs in one
     * strided batched cuBLAS call (small blocks: the moduli's GEMMs fill the GPU together),
     * larger ones one call per modulus (cuBLAS picks larger tiles for those) */
    int64_t crt_batched_outputs;
    double f32_flops_per_byte;
    /* ozaki-sgemm: a DGEMM of at most f32_native_products products per entry runs natively
     * (option native=faster): its dozen launches and S (S + 1) / 2 SGEMM calls cost more than
     * native FP64 at that size, even where FP64 runs at 1/64 of FP32 */
    double f32_native_products;
    /* repro on binary64 slices: slices per operand on a device's first call (feedback.h) */
    int first_slices;
    /* int8 (int8/rule.c): a cost model of an m x n x k DGEMM fitted to measured times (README.md,
     * "Measurements"): native FP64 takes 2mnk fp64_flop_fs + fp64_call_us; the int8 engine with N
     * moduli (N + 1 int8 GEMMs with the magnitude plane) takes (N + 1) (2mnk int8_op_fs + mn
     * int8_output_ps + (m + n) k int8_operand_ps) + mn int8_finish_ps + int8_call_us: per GEMM
     * its products, its int32 outputs (written, then read by the finish) and its operands'
     * residues; once, the finish and the call's fixed costs.  Units: fs = 1e-15 s, ps = 1e-12 s.
     * fp64_starved devices (FP64 at 1/32 or less of FP32) never prefer native. */
    double fp64_flop_fs, fp64_call_us;
    double int8_op_fs, int8_output_ps, int8_operand_ps, int8_finish_ps, int8_call_us;
    /* repro's cost model for small calls (engines/repro/engine.c): the small kernel (every
     * output of a batch in one launch, dfs_oz_dgemm_direct) takes max(P small_ps, ceil(k /
     * DFS_OZ_SMALL_LANES) small_chain_ns) for P products in all, the second term a lane's chain
     * of dependent products where few outputs leave the GPU idle; the products (rows pass,
     * residues, 20-odd int8 GEMMs per entry) take products_us + P products_ps per batch entry.
     * The call goes where it is cheaper.  Its tiled form (dfs_oz_small_tiled), chosen from
     * tiled_outputs outputs in all, takes outputs tiled_output_ps + P tiled_ps; its 1 x 1 tiles
     * (dfs_oz_small_tiled1) are taken while 2 x 2 tiles would give fewer than
     * tiled_threads_per_sm threads a multiprocessor. */
    double small_ps, small_chain_ns, products_us, products_ps;
    double tiled_outputs, tiled_output_ps, tiled_ps, tiled_threads_per_sm;
} dfs_oz_tuning;

/* The numbers for a device of compute capability cc_major.cc_minor (core/types.h's
 * dfs_device_class_row). */
static inline const dfs_oz_tuning *dfs_oz_tuning_of(int cc_major, int cc_minor)
{
    static const int from[] = {0}; /* the classes: from these compute capabilities on */
    static const dfs_oz_tuning rows[] = {
        /* chosen on sm_90 (H100, H200), for every GPU until another row comes */
        {
            .chosen_on = "sm_90 (H100, H200)",
            .thin = 64.0,
            /* README.md, "Measurements": a triangle's column blocks */
            .tri_blocks = 8.0,
            .crt_ops_per_byte = 450.0,
            .crt_block_outputs = (int64_t)1 << 25,
            .crt_batched_outputs = (int64_t)1 << 22,
            .f32_flops_per_byte = 16.0,
            /* README.md, "Measurements": 256^3 */
            .f32_native_products = 16777216.0,
            .first_slices = 4,
            /* fitted on an H200, 2026-11-26: 17 shapes, within 9% of every time */
            .fp64_flop_fs = 17.33,
            .fp64_call_us = 1.1,
            .int8_op_fs = 0.630,
            .int8_output_ps = 2.40,
            .int8_operand_ps = 1.00,
            .int8_finish_ps = 11.4,
            .int8_call_us = 79.0,
            /* README.md, "Measurements": with its double-double way the small kernel wins to
             * about 320^3 (and k up to 4096 on 64 x 64) */
            .small_ps = 4.1,
            .small_chain_ns = 145.0,
            .products_us = 130.0,
            .products_ps = 0.2,
            /* README.md, "Measurements": 4096 x 32^3 and 512 x 128^3 (H100, then H200 after
             * the quick rounding test: 72 -> 13 ps an output) */
            .tiled_outputs = 32768.0,
            .tiled_output_ps = 13.0,
            .tiled_ps = 0.86,
            /* README.md, "Measurements" (H100, 2026-11-27): 1 x 1 tiles win at 9216 and 16384
             * 2 x 2 tiles (192^3, 256^3), lose at 65536 (64 x 64^3) */
            .tiled_threads_per_sm = 256.0,
        },
    };
    _Static_assert(sizeof from / sizeof from[0] == sizeof rows / sizeof rows[0], "a class a row");
    return &rows[dfs_device_class_row(from, (int)(sizeof from / sizeof from[0]), cc_major,
                                      cc_minor)];
}

#endif

#endif
