/* df_gemm_common.h — what the files of the df_gemm test share (see df_gemm.c for what it checks):
 * the buffer sizes, the buffers and state (df_gemm.c), the panel plan, the problems, the bitwise
 * comparisons and the host results they compare with (df_gemm_common.c), the C template cache of
 * group 1 (df_gemm_bitwise.c), and the groups. */
#ifndef DFS_GPU_DF_GEMM_COMMON_H
#define DFS_GPU_DF_GEMM_COMMON_H

#include "common.h"
#include "df_common.h"
#include "layout.h"

#include <stddef.h>
#include <stdint.h>

#define NB 3                   /* batch entries of the strided-batched calls */
#define NS 8                   /* sampled rows and columns where the host result is not whole */
#define BUF ((size_t)4 << 20)  /* elements of each device buffer and staging buffer */
#define C_GAP (-777.25)        /* C outside the matrices */
#define FULL0 (256.0 * 256 * 256) /* host result whole up to this m*n*k (batch entry 0) */
#define FULL1 (2.3e6)             /* ... and this for batch entries 1, 2 */

/* ---------- buffers and state (df_gemm.c) ---------- */

extern int scheme;
extern const char *scheme_name;
extern char *mode_orig; /* EXBLAS_MODE as the test started */
extern int reread;
extern cublasHandle_t handle;
extern double *dA, *dB, *dC, *d_ab;  /* device: BUF elements each; alpha, beta */
extern double *hA, *hB, *hCt, *hCo;  /* pinned staging: A, B, C template, C out */
extern call_bufs bufs;               /* d_ab, dC, hCt, hCo */
extern double *got[NB], *got2;       /* tight results, BUF elements each */
extern double qnan;

/* ---------- helpers, problems, comparisons (df_gemm_common.c) ---------- */

/* The mode the test started with (mode_orig) with the options `extra` ("key=value,...") added,
 * replacing the same keys; malloc'd.  set_mode: setenv("EXBLAS_MODE", v), which the shim
 * re-reads at the next call where EXBLAS_REREAD=1 (reread). */
char *mode_with(const char *extra);
void set_mode(const char *v);

/* The panel plan of engines/df/gemm.c (plan_panels, static there), replicated for the messages
 * only. */
void df_plan(int64_t m, int64_t n, int64_t k, size_t budget, int64_t *Mb, int64_t *Nb,
             size_t *bytes);

/* Logical operands: op(A) m x k, op(B) k x n and C m x n, column-major, tight. */
typedef struct {
    int64_t m, n, k;
    int nb;
    double *A[NB], *B[NB], *C[NB];
    double *Cnan; /* m x n quiet NaNs: C for beta = 0 */
} problem;

problem make_problem(int64_t m, int64_t n, int64_t k, int nb, uint64_t seed);
void free_problem(problem *P);

/* Tight m x n `have` against tight `want`, bitwise: 1 if equal, else fails naming `what`, 0. */
int cmp_tight(const char *what, const char *want_name, const double *want, const double *have,
              int64_t m, int64_t n, int64_t b);

/* dfs_df_gemm_host's result for one batch entry of a problem: whole, or on sampled rows and
 * columns (op(A) rows x all of op(B), all of op(A) x op(B) columns: entry (i, j) depends only on
 * row i of op(A), column j of op(B), alpha, beta and C(i, j)). */
typedef struct {
    int ready, full;
    double *E; /* full: m x n */
    int nr, nc;
    int64_t rows[NS], cols[NS];
    double *R;     /* sampled: C(rows[r], j) at R[r + j*nr] */
    double *Cc;    /* sampled: C(i, cols[c]) at Cc[i + c*m] */
    double *first; /* sampled: the first GPU result checked against this, m x n */
} ref;

void ref_free(ref *r);
void ref_compute(ref *r, const problem *P, int b, double alpha, double beta, int full);
/* The tight GPU result of batch entry b against the host result. */
void ref_check(ref *r, const double *have, int64_t m, int64_t n, int64_t b);

/* ---------- the C template of group 1 (df_gemm_bitwise.c) ---------- */

/* What hCt holds as group 1 laid it out; valid = 0 wherever hCt is written otherwise. */
typedef struct {
    int valid, nb, beta0;
    int64_t ldc, sC;
    const problem *P;
    size_t span;
} tmpl_cache;
extern tmpl_cache tmpl_key;

/* ---------- the groups ---------- */

/* df_gemm_bitwise.c: 1, bitwise, one group per shape (si 0..6); 2, blocking */
void bitwise_shape(int si);
void blocking_group(void);
/* df_gemm_accuracy.c: 3, accuracy */
void accuracy_group(void);
/* df_gemm_special.c: 4, special values; 5, alpha = 0 in device memory */
void special_group(void);
void alpha0_group(void);
/* df_gemm_graph.c: 6, graph capture */
void graph_group(void);
/* df_gemm_special.c: 7, wide spans */
void wide_group(void);
/* df_gemm_small.c: 8, the small kernel against the host and the tiled path */
void small_group(void);
/* The entries E(rows[*], cols[*]) of an m x n product with lda = m, ldb = k, ldc = m: each
 * alpha (A B)_ij + beta C_ij, (A B)_ij the binary64 FMA sum in order of q (those the span rule
 * sends to binary64), bit for bit; a failure per entry that is not. */
void check_binary64_entries(const double *A, const double *B, const double *C, int64_t m,
                            int64_t k, const int64_t *rows, int nr, const int64_t *cols, int nc,
                            double alpha, double beta, const double *E);

#endif
