/* gemm.h — the reproducible engine's DGEMM on the GPU (gemm.c). */
#ifndef DFS_OZ_GEMM_HOST_H
#define DFS_OZ_GEMM_HOST_H

#include "plan.h"
#include "../engine.h"
#include "oz_gemm.h"

#include <cuda.h>
#include <stdint.h>

#include <stddef.h>

typedef struct {
    int splits;     /* 0: correctly rounded; N > 0: exactly N slices (reproducible only) */
    int max_splits; /* with splits == 0: the most slices taken; rows needing more go direct */
    int fast;       /* with splits > 0: skip the slice pairs i + j >= N */
    int fixed_sum;  /* the partials added in a fixed order in binary64 (reproducible only) */
    size_t workspace; /* bytes of scratch a call may use */
} dfs_oz_gemm_opts;

cublasStatus_t dfs_oz_dgemm_gpu(const dfs_ctx *x, const dfs_gemm_call *c,
                                const dfs_oz_gemm_opts *o);

/* C = RN(beta C) for every batch entry, A and B not read: the call with alpha = 0 (known on
 * the host), as cuBLAS computes it. */
cublasStatus_t dfs_oz_dgemm_scale(const dfs_ctx *x, const dfs_gemm_call *c);

/* The DGEMM by the Ozaki scheme II on integer tensor cores (crt_gemm.c). */
typedef struct {
    int verify;       /* 1: correctly rounded (repro); 0: the int8 engine's fast result */
    int moduli;       /* fast: the moduli (0: dfs_crt_fast_moduli); verify: unused (guessed) */
    size_t workspace; /* bytes of scratch a call may use */
} dfs_crt_gemm_opts;

/* DFS_STATUS_DECLINED when it cannot take the call (k >= 2^17, no kernels, or no workspace):
 * nothing has been written then. */
cublasStatus_t dfs_crt_dgemm_gpu(const dfs_ctx *x, const dfs_gemm_call *c,
                                 const dfs_crt_gemm_opts *o);

/* What both DGEMM paths keep in the workspace per call: the rows pass's results (l1 norms; the
 * sums of squares for the int8 path's bits, NULL in scheme I's), scalars for
 * cuBLAS's device pointer mode (1.0 and 0.0 written by the rows kernel, then room for two
 * int32), the list counter and the finish kernels' counters. */
typedef struct {
    double *consts;
    int *maxneed, *tauA, *needA, *tauB, *needB;
    double *nrmA, *nrmB, *ssA, *ssB;
    unsigned *count;
    unsigned long long *stats;
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
 * sums of squares (ss) or without; the bytes. */
size_t dfs_oz_carve_call(CUdeviceptr base, int64_t m, int64_t n, int ss, dfs_oz_call_ws *w);

/* Shared by gemm.c and crt_gemm.c: the kernels of kernels_gemm.cu in the current context
 * (DFS_OZ_K_* in oz_gemm.h), the rows pass, and the call's fields of a finish/direct block. */
const CUfunction *dfs_oz_gemm_kernels(void);
int dfs_oz_launch_rows(const CUfunction *kern, CUstream st, const double *X, int64_t rs,
                       int64_t qs, int64_t rows, int64_t k, int *tau, int *need, double *nrm,
                       double *ss, int *maxneed, int beta, double *consts,
                       const double *alpha_dev);
void dfs_oz_finish_call_fields(dfs_oz_finish_args *f, const dfs_ctx *x, const dfs_gemm_call *c,
                               const double *A, const double *B, double *C);
/* The fields of a finish/direct block that come from the call's workspace: rows, list,
 * counters (stats only when verifying; seq the call's number). */
void dfs_oz_finish_ws_fields(dfs_oz_finish_args *f, const dfs_oz_call_ws *w, uint32_t *list,
                             int verify, unsigned long long seq);
/* Every output of C by the direct kernel (exact; with alpha = 0, C = RN(beta C) and A and B
 * are not read).  0 on success. */
int dfs_oz_launch_direct_all(const CUfunction *kern, CUstream st, int sms, const dfs_ctx *x,
                             const dfs_gemm_call *c, const double *A, const double *B, double *C);

#endif
