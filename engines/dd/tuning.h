/* tuning.h — the double-double engine's and libddblas's tuning numbers, all in one place: the
 * choices of speed that another GPU may want otherwise.  Compile-time ones as macros, and
 * run-time ones (host code only) as a row per device class, dfs_dd_tuning_for.  Plain C,
 * included by the kernels (kernels.cu) and the host code (through dd_steps.h).  The
 * measurements behind them: README.md.  What the kernels' code fixes (256 threads per block,
 * the DOT's 256 lanes, a warp merging a GEMV output's chunks, the GEMM's 64 x 64 x 16 tiles:
 * dd_steps.h, dd_kernels.h) is not a tuning number. */
#ifndef DFS_DD_TUNING_H
#define DFS_DD_TUNING_H

/* ---------- compile time: the kernels ---------- */

#define DFS_DD_UNROLL 4 /* DOT and GEMV sums: terms per lane whose loads are in flight together */
#define DFS_DD_GEMM_MIN_BLOCKS 1 /* GEMM blocks per SM (__launch_bounds__); 2: 128 registers,
                                  * which spills */

/* ---------- compile time: the summation order ----------
 * These decide the chunks and lanes of dd_steps.h's order (dfs_dd_dot_plan, dfs_dd_gemv_plan),
 * and so the bits: one value for every GPU (the results are the same bits on every GPU and on
 * the CPU twins, host.c and ddblas_host.c), never in a per-device row; changing one may change
 * results in their last bits. */

#define DFS_DD_DOT_CHUNKS 2048  /* DOT: at most this many chunks */
#define DFS_DD_DOT_LANE_TERMS 4 /* DOT: at least this many terms per lane per chunk */
/* GEMV: chunks until about this many threads (op N: rows; op T: columns x lanes), enough
 * pieces of work that the last wave of a large GPU is short (measured: README.md) */
#define DFS_DD_GEMV_N_THREADS (1 << 18)
#define DFS_DD_GEMV_T_THREADS (1 << 21)
#define DFS_DD_GEMV_LANE_TERMS 16   /* GEMV op T: lanes per output (up to 32) double while each
                                     * would take more than this many terms */
#define DFS_DD_GEMV_CHUNK_TERMS 128 /* GEMV: at least this many terms per lane per chunk */

/* ---------- run time: a row per device class (host code) ---------- */

#ifndef __CUDACC__
#include "../../core/types.h"

typedef struct {
    int waves;      /* DOT, GEMV, AXPY and conversion grids: at most this many waves of resident
                     * blocks (grid-stride loops over the rest) */
    double gemm_smaller; /* DGEMM: a smaller tile (dd_kernels.h) only where its padded outputs per
                          * multiprocessor are below this fraction of the larger's */
} dfs_dd_tuning;

/* The row of a GPU of compute capability cc_major.cc_minor (core/types.h's
 * dfs_device_class_row). */
static inline const dfs_dd_tuning *dfs_dd_tuning_for(int cc_major, int cc_minor)
{
    static const int from[] = {0}; /* the classes: from these compute capabilities on */
    static const dfs_dd_tuning rows[] = {
        /* chosen on sm_90 (H100, H200), for every GPU until another row comes: one wave, as a
         * block more would start a second one; a smaller DGEMM tile where it saves a tenth of
         * the busiest multiprocessor's work (README.md) */
        {.waves = 1, .gemm_smaller = 0.9},
    };
    _Static_assert(sizeof from / sizeof from[0] == sizeof rows / sizeof rows[0], "a class a row");
    return &rows[dfs_device_class_row(from, (int)(sizeof from / sizeof from[0]), cc_major,
                                      cc_minor)];
}
#endif

#endif
