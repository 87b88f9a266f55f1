/* copy.h — the Level-3 helper kernels on the GPU: the copies (args.h), for the shim's
 * decomposition of Level-3 routines into GEMMs (shim/l3_mm.c) and for engines that stage
 * Level-3 operands, TRSM's diagonal solve (solve.h, shim/l3_trsm.c), and the pointer-array
 * batches' gather and scatter (batch.h, shim/ptr_batch.c). */
#ifndef DFS_L3_COPY_H
#define DFS_L3_COPY_H

#include "args.h"
#include "batch.h"
#include "solve.h"

#include <cuda.h>

/* Enqueues the copy on stream st (nothing for an empty one).  0 when launched, 1 when the
 * kernel could not be loaded or launched (logged once by core/gpu.c). */
int dfs_l3_copy_gpu(const dfs_l3_copy *cp, CUstream st);
/* Enqueues the solve on stream st (nothing for an empty one).  0 when launched, 1 when the
 * block is larger than DFS_L3_SOLVE_MAX or the kernel could not be loaded or launched. */
int dfs_l3_solve_gpu(const dfs_l3_solve *sv, CUstream st);
/* Enqueue the gather (the entries' matrices into the packed buffer) or the scatter (back) on
 * stream st (nothing for an empty one); b->ptrs is device memory, read by the kernel only.  0
 * when launched, 1 when the kernel could not be loaded or launched. */
int dfs_l3_gather_gpu(const dfs_l3_batch *b, CUstream st);
int dfs_l3_scatter_gpu(const dfs_l3_batch *b, CUstream st);

#endif
