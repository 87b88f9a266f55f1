/* l3_trsm_common.h — the harness level3_trsm (real) and zlevel3_trsm (complex) share: the
 * configurations, the CPU twin of the blocked sweep (shim/l3_trsm.h with the CPU solve and
 * copy), the host images (A well conditioned with NaN where it is not read, B with NaN padding,
 * the twin's X), one configuration in every form and pointer mode, the groups of shapes and the
 * CUDA graph.  The type's own parts (the calls, the twin's GEMM, the check) come in l3t_type;
 * an element is w doubles (1 real, 2 complex). */
#ifndef GT_L3_TRSM_COMMON_H
#define GT_L3_TRSM_COMMON_H

#include "l3_common.h"

#include "../../shim/l3_trsm.h"

typedef struct {
    int left, lower, trans, unit; /* trans 0 N, 1 T, 2 C */
    int64_t m, n, lda, ldb;
    _Alignas(16) double alpha[2]; /* real: alpha[0]; complex: passed as cuDoubleComplex */
} cfg;

typedef struct {
    const char *routine; /* "dtrsm", "ztrsm" */
    int w;               /* doubles an element */
    double diag;         /* A's diagonal: +-(diag + 0.5 u), u uniform in [-1, 1), each part */
    /* the call through the shim: form f, alpha on the device (dev) or the host */
    cublasStatus_t (*call)(const cfg *c, int f, int dev, double *B);
    /* the twin's GEMM (a CPU twin of the engine's) */
    cublasStatus_t (*twin_gemm)(void *ctx, const dfs_gemm_call *g);
    /* got (B after the call) against want (exact) or the mode's bound, B's padding against B0 */
    void (*check)(const cfg *c, const double *A, const double *B0, const double *want,
                  const double *got, int exact);
    /* with bitwise: whether the call in pointer mode dev is checked bit for bit (NULL: all) */
    int (*exact)(const cfg *c, int dev);
} l3t_type;

typedef struct {
    const l3t_type *type;
    double *dA, *dB, *dAlpha; /* device buffers */
    int bitwise;              /* repro: X bit for bit the twin (where it computes the call) */
    double tol;               /* else: the backward-error constant */
    int64_t nb;               /* the engine's TRSM block size */
} l3t_state;

extern l3t_state l3t;

int64_t l3t_order(const cfg *c); /* A's order */

/* gt_init, the mode's bound and block size (c = 2^(-44, -50, -40) times 2^tol_shift), the line
 * saying what is checked (bitwise_what under repro), the handle and stream. */
void l3t_start(const char *test, const l3t_type *type, int tol_shift, const char *bitwise_what);
/* The device buffers: A and B of elems elements each, alpha. */
void l3t_alloc(size_t elems);

/* One configuration in every form and pointer mode (legacy: host). */
void l3t_run_cfg(const cfg *c, uint64_t seed);
/* The groups every type runs: orders 1, 7, 33, nb, nb + 1 with 5 or 9 right-hand sides, and
 * 300 x 64 and 64 x 300, in every side, uplo, op and diag; returns the next seed. */
unsigned l3t_shapes(void);
/* c captured in a CUDA graph (after: its routine's name), replayed twice: both the expected X,
 * the second the first's bits. */
void l3t_graph(const char *title, const char *after, const cfg *c);

#endif
