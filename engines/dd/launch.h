/* launch.h — the launches of the double-double DOT and GEMV kernels, shared by the dd engine
 * (engine.c: binary64 operands) and libddblas (ddblas.c: its formats): the plan of dd_steps.h
 * put into the argument block, the partials' scratch, grids of the device's waves (tuning.h),
 * the chunk and merge kernels; the GEMM's grid.  The caller fills the operands, sizes,
 * alpha/beta and result fields. */
#ifndef DFS_DD_LAUNCH_H
#define DFS_DD_LAUNCH_H

#include "../../core/gpu.h"
#include "dd_kernels.h"
#include "tuning.h"

enum { DFS_DD_LAUNCHED = 0, DFS_DD_NO_SCRATCH = 1, DFS_DD_LAUNCH_FAILED = 2 };

/* The GPU the kernels run on: its multiprocessors and its tuning row. */
typedef struct {
    int sms;
    const dfs_dd_tuning *tuning;
} dfs_dd_gpu;

/* The GPU of a device ordinal; a negative one, or what cannot be asked, gets dfs_sm_count's 80
 * multiprocessors and the first tuning row (cc 0). */
dfs_dd_gpu dfs_dd_gpu_of(int device);

/* DOT of a->n >= 1 terms: a->chunk, a->nchunks and a->part set here; with host_result, a->result
 * is pointed at a double of the scratch and *host_result to it (for the caller to copy out
 * before unlocking).  Call with s->lock held. */
int dfs_dd_launch_dot(CUfunction dot, CUfunction final, const dfs_dd_gpu *g, dfs_scratch *s,
                      CUstream st, dfs_dd_dot_args *a, double **host_result);

/* GEMV with a->trans, a->len (outputs) and a->K (inner dimension) >= 1 set: a->lanes, chunk,
 * nchunks, items and part set here.  Call with s->lock held. */
int dfs_dd_launch_gemv(CUfunction gemv, CUfunction final, const dfs_dd_gpu *g, dfs_scratch *s,
                       CUstream st, dfs_dd_gemv_args *a);

/* Which of the DGEMM's tiles (dd_kernels.h) a->batch products of a->m x a->n take on this GPU:
 * the one whose busiest multiprocessor computes the fewest outputs, padding included (the
 * kernels are bound by the FP64 units alike), a smaller one only where that saves the tuning
 * row's gemm_smaller. */
int dfs_dd_gemm_tile(const dfs_dd_gpu *g, const dfs_dd_gemm_args *a);

/* GEMM (a->batch >= 1 products): its grid of edge x edge tiles of C (the kernel's: a DGEMM
 * tile's DFS_DD_GEMM_EDGE, dfs_dd_zgemm's DFS_DD_ZGEMM_BM). */
int dfs_dd_launch_gemm(CUfunction gemm, int64_t edge, CUstream st, dfs_dd_gemm_args *a);

/* A grid of the tuning row's waves of 256-thread blocks of f, at most `items` blocks (at least
 * 1). */
unsigned dfs_dd_wave(CUfunction f, const dfs_dd_gpu *g, int64_t items);

#endif
