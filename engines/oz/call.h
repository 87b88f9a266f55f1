/* call.h — what every Ozaki-family DGEMM on the GPU does per call, whichever products it takes
 * (repro's binary64 slices, the integer tensor cores of crt_gemm.c): the shared kernels
 * (kernels.cu, args.h), the call's share of the workspace, the rows pass, the fields of a
 * finish/direct block, and the small kernel's launches (every output correctly rounded, no
 * workspace). */
#ifndef DFS_OZ_CALL_H
#define DFS_OZ_CALL_H

#include "../../core/gpu.h"
#include "../engine.h"
#include "args.h"

#include <cuda.h>
#include <stddef.h>
#include <stdint.h>

/* The small kernel's forms: DFS_OZ_SMALL_LANES lanes an output (dfs_oz_small,
 * kernels_small.cuh), a thread a DFS_OZ_TILE_M x DFS_OZ_TILE_N tile (dfs_oz_small_tiled) or a
 * thread an output (dfs_oz_small_tiled1, kernels_small_tiled.cuh).  The same bits. */
typedef enum { DFS_OZ_FORM_LANES, DFS_OZ_FORM_TILES, DFS_OZ_FORM_TILES1 } dfs_oz_small_form;

/* Every output of the call (every entry of a batch) correctly rounded in one launch of the
 * small kernel in the form `form`, no workspace, no cuBLAS call: for repro's small calls
 * (tuning.h's cost model).  DFS_STATUS_DECLINED without kernels. */
cublasStatus_t dfs_oz_dgemm_direct(const dfs_ctx *x, const dfs_gemm_call *c,
                                   dfs_oz_small_form form);

/* The tuning numbers for the call's device (tuning.h). */
static inline const dfs_oz_tuning *dfs_oz_tuning_ctx(const dfs_ctx *x)
{
    return dfs_oz_tuning_of(x->dev ? x->dev->cc_major : 0, x->dev ? x->dev->cc_minor : 0);
}

/* The shared kernels in the current context (DFS_OZ_K_* in args.h), or NULL. */
const CUfunction *dfs_oz_kernels(void);

/* What every call keeps in the workspace: the rows pass's results (l1 norms; the sums of
 * squares for the integer path's bits, NULL in scheme I's), scalars for cuBLAS's device pointer
 * mode (1.0 and 0.0, then int32 1 and 0, all written by the rows kernel of op(A)), the list
 * counter and the finish kernels' counters, and `extra` counters of the caller's.  The counters
 * lie together: zero_words 32-bit words from maxneed on (maxneed, count, stats, extra), zeroed by
 * one memset (dfs_oz_zero_counters). */
typedef struct {
    double *consts;
    int *maxneed, *tauA, *needA, *tauB, *needB;
    double *nrmA, *nrmB, *ssA, *ssB;
    unsigned *count;
    unsigned long long *stats;
    void *extra;
    size_t zero_words;
} dfs_oz_call_ws;

/* The next `bytes` of a workspace at base + *off (rounded up to 256 bytes), advancing *off; NULL
 * when base is 0 (counting only). */
static inline void *dfs_oz_take(CUdeviceptr base, size_t *off, size_t bytes)
{
    void *p = base ? (void *)(uintptr_t)(base + *off) : NULL;
    *off += (bytes + 255) / 256 * 256;
    return p;
}

/* dfs_oz_call_ws for m rows of op(A) and n columns of op(B) from base (0: counting), with the
 * sums of squares (ss) or without, and extra bytes of the caller's counters (0: none, extra
 * NULL); the bytes. */
size_t dfs_oz_carve_call(CUdeviceptr base, int64_t m, int64_t n, int ss, size_t extra,
                         dfs_oz_call_ws *w);
/* The call's counters zeroed on the stream (one memset); 0 on success. */
int dfs_oz_zero_counters(const dfs_oz_call_ws *w, CUstream st);
/* A block's list counter zeroed before its finish (the first block's is, with the call's). */
int dfs_oz_zero_count(const dfs_oz_call_ws *w, int first_block, CUstream st);
/* Its rows pass's part alone (tau, need, nrm and, with ss, ss of op(A)'s rows and op(B)'s
 * columns) from offset off; the other fields untouched; the offset after them. */
size_t dfs_oz_carve_rows(CUdeviceptr base, size_t off, int64_t m, int64_t n, int ss,
                         dfs_oz_call_ws *w);

/* The rows pass over op(X) ((r, q) at X[r * rs + q * qs]): dfs_oz_rows_args's fields (kcls
 * NULL: every element; else those of one group of the inner dimension; no gate). */
dfs_oz_rows_args dfs_oz_rows_of(const double *X, int64_t rs, int64_t qs, int64_t rows, int64_t k,
                                int *tau, int *need, double *nrm, double *ss, int *maxneed,
                                int beta, double *consts, const double *alpha_dev,
                                const signed char *kcls, int group);
/* The passes a and b (or NULL) in one launch: the two small passes of a call fill the GPU
 * together where each alone would leave most of it idle. */
int dfs_oz_launch_rows(const CUfunction *kern, CUstream st, dfs_oz_rows_args a,
                       const dfs_oz_rows_args *b);
/* The call's fields of a finish/direct block (scalars, C, op(A) and op(B)). */
void dfs_oz_finish_call_fields(dfs_oz_finish_args *f, const dfs_ctx *x, const dfs_gemm_call *c,
                               const double *A, const double *B, double *C);
/* The fields of a finish/direct block that come from the call's workspace: rows, list,
 * counters (stats only when verifying; seq the call's number). */
void dfs_oz_finish_ws_fields(dfs_oz_finish_args *f, const dfs_oz_call_ws *w, uint32_t *list,
                             int verify, unsigned long long seq);
/* Every output of C correctly rounded by the small kernel (with alpha = 0, C = RN(beta C) and A
 * and B are not read): the path without workspace.  0 on success. */
int dfs_oz_launch_direct_all(const CUfunction *kern, CUstream st, int sms, const dfs_ctx *x,
                             const dfs_gemm_call *c, const double *A, const double *B, double *C);

#endif
