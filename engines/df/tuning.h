/* tuning.h — the DF engine's tuning numbers, all in one place: the choices of speed that another
 * GPU may want otherwise.  Compile-time ones (the kernels are built with them) as macros, and
 * run-time ones (host code only) as a row per device class, dfs_df_tuning_for.  Plain C,
 * included by the kernels (kernels.cu, kernels_vec.cu, through df_gemm.h) and the host code.
 * The measurements behind them: README.md.  What the kernels' code fixes (the GEMM's 16 x 16
 * threads, its k stage DFS_DF_BK, the packing's tile DFS_DF_BM x DFS_DF_BN, the small kernel's
 * 32 x 32 tile: df_gemm.h; the DOT and GEMV kernels' 256 threads) is not a tuning number. */
#ifndef DFS_DF_TUNING_H
#define DFS_DF_TUNING_H

#include <stddef.h>

/* ---------- compile time ---------- */

/* The C tiles of one GEMM thread block (their registers: below), the `tile` option's values;
 * df_gemm.h's DFS_DF_GEMM_KERNELS has a kernel per tile and scheme. */
enum { DFS_DF_TILE_128x128, DFS_DF_TILE_128x64, DFS_DF_TILE_64x64, DFS_DF_TILES };

/* Blocks per SM each GEMM kernel is compiled for (__launch_bounds__): 128 x 128, one (the register
 * tile takes ~250 registers); 128 x 64, one (about 160 registers: with two blocks' 128 ptxas
 * spills); 64 x 64, two for the 15- and 16-op schemes (about 115 registers: room for ptxas to
 * interleave four multiply-adds; three blocks at 80 registers issue fewer FP32 instructions per
 * cycle) and the lazy 12-op one, three for the 29-op scheme (faster than two). */
#define DFS_DF_MINB_128x128 1
#define DFS_DF_MINB_128x64 1
#define DFS_DF_MINB_64x64 2
#define DFS_DF_MINB_64x64_MAD29 3
/* The small kernel (kernels_small.cuh), two blocks per SM: about 115 to 128 registers (it keeps
 * a stage's shared-memory loads in flight); with three, ptxas caps it at 80 and spills. */
#define DFS_DF_MINB_SMALL 2

/* DOT and GEMV (kernels_vec.cu): elements per thread whose loads are in flight together (the sum
 * is in the same order as one at a time; a divisor of 8). */
#define DFS_DF_VEC_UNROLL 4

/* ---------- run time: a row per device class (host code) ---------- */

#ifndef __CUDACC__
#include "../../core/types.h"

typedef struct {
    size_t workspace;    /* bytes: the default of the option workspace_mb (and of dfblas's 0) */
    int tile;            /* DFS_DF_TILE_*: what tile=auto (and dfblas_gemm) takes */
    int waves;           /* DOT and GEMV grids: at most this many waves of resident blocks */
    int gemv_lane_terms; /* GEMV op T: lanes per output double (up to a warp) while each would
                          * take more than this many inner elements */
    int gemv_min_chunk;  /* GEMV: the inner dimension is split in chunks of at least this many */
    double small_waves;  /* small=auto: a binary64 GEMM goes to the small kernel (one launch for
                          * the whole call) when the tiled path's GEMM launch for one batch entry
                          * has fewer blocks than this many waves of its kernel (a wave: as many
                          * blocks as the GPU holds at once) */
    double small16_waves; /* the small kernel takes tiles of 16 x 16 (an output a thread) where
                           * its 32 x 32 tiles of the whole call would be fewer blocks than this
                           * many waves of it */
} dfs_df_tuning;

/* The row of a GPU of compute capability cc_major.cc_minor (core/types.h's
 * dfs_device_class_row). */
static inline const dfs_df_tuning *dfs_df_tuning_for(int cc_major, int cc_minor)
{
    static const int from[] = {0}; /* the classes: from these compute capabilities on */
    static const dfs_df_tuning rows[] = {
        /* chosen on sm_90 (H100, H200), for every GPU until another row comes: 64 x 64 is the
         * fastest tile measured and the one with the most blocks for small products; one wave,
         * as a block more would start a second one.  small_waves = 0.5, measured (README.md):
         * below half a wave the tiled path leaves multiprocessors idle where the small kernel's
         * four times as many blocks (32 x 32) spread, and takes five launches per batch entry;
         * from a wave on its 4 x 4 outputs per thread and operands converted once win.
         * small16_waves = 0.4, measured (README.md): 16 x 16 tiles win at 0.24 of a wave of
         * 32 x 32 ones (256^3), lose from 0.55 (384^3) */
        {.workspace = (size_t)1024 << 20, .tile = DFS_DF_TILE_64x64, .waves = 1,
         .gemv_lane_terms = 8, .gemv_min_chunk = 256, .small_waves = 0.5,
         .small16_waves = 0.4},
    };
    _Static_assert(sizeof from / sizeof from[0] == sizeof rows / sizeof rows[0], "a class a row");
    return &rows[dfs_device_class_row(from, (int)(sizeof from / sizeof from[0]), cc_major,
                                      cc_minor)];
}
#endif

#endif
