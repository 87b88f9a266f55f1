/* twin_cases.h — a harness of DDOT, DGEMV and DGEMM cases through the shim, every output
 * compared bit for bit with an engine's CPU twin: the reproducible engine's (dfs_oz_*_host) for
 * the repro test (repro.c, which says what each group runs), the dd engine's (dfs_dd_*_host) for
 * the dd test (dd.c).  Here: buffers and state, helpers, CPU work on threads, data, the CPU twins
 * (twin_cases.c), the layouts groups 1-3 run and group 5 runs again (twin_cases_vec.c,
 * twin_cases_gemm.c) and the groups themselves (twin_cases_vec.c, twin_cases_gemm.c,
 * twin_cases_paths.c). */
#ifndef DFS_GPU_TWIN_CASES_H
#define DFS_GPU_TWIN_CASES_H

#include "common.h"
#include "df_common.h"
#include "layout.h"

#include "../../engines/repro/host.h"

#include <stddef.h>
#include <stdint.h>

#define DOT_MAXN (((int64_t)1 << 24) + 3)
#define VEC_BUF ((size_t)(1 + (DOT_MAXN - 1) * 3)) /* dX, dY, hX, hY: the largest DDOT span */
#define A_BUF ((size_t)4096 * (4096 + 5))           /* dA, dA0, hA */
#define XOFF ((size_t)65536)    /* GEMV: x vectors at dX + q * XOFF: N, T, poisoned N, poisoned T */
#define X_BUF (VEC_BUF > 4 * XOFF ? VEC_BUF : 4 * XOFF) /* dX */
#define Y_BUF ((size_t)65536)   /* GEMV y templates and output */
#define G_BUF ((size_t)4 << 20) /* dB, dB0, dC, hB, hCt, hCo */
#define Y_GAP (-777.25)         /* y outside the vector */
#define C_GAP (-555.5)          /* C outside the matrices */
#define NB 3                    /* batch entries of the strided-batched calls */
#define NAB 12                  /* (alpha, beta) pairs */
#define MAX_THREADS 32

/* ---------- buffers and state (twin_cases.c) ---------- */

extern cublasHandle_t handle;
extern double *dX, *dY, *dA, *dA0, *dB, *dB0, *dC, *d_ab, *d_res;
extern double *hX, *hY, *hA, *hB, *hCt, *hCo, *hYt[4], *hYo;
extern call_bufs bufs; /* d_ab, d_res, dY, hYo, dC, hCt, hCo for layout.h's calls */
extern double qnan;
extern dfs_oz_params oz; /* the CPU implementation's parameters: the defaults */
/* the references (dot_ref, gemv_ref, gemm_ref) are the dd engine's CPU twin (dfs_dd_*_host)
 * when set, else the reproducible engine's (dfs_oz_*_host) */
extern int ref_dd;
extern int n_threads;
extern int call_counter; /* alternates the 32-bit and _64 entry points */

/* the handle, the buffers, oz, qnan, n_threads */
void shared_setup(void);
void shared_teardown(void);

/* ---------- helpers, data, the CPU implementation (twin_cases.c) ---------- */

/* len GPU outputs against the CPU implementation's. */
int cmp_out(const char *what, const double *want, const double *got, int64_t len, int64_t ld);
int cmp_one(const char *what, double want, double got);
void check_status(const char *routine, cublasStatus_t st);

/* n values of generator g (gen.h); each chunk of 2^16 has its own seed, so the data do not
 * depend on the number of threads. */
void fill(double *x, int64_t n, int g, uint64_t seed);
/* GenDot (gen.h): x, y of length n with condition number about cond. */
void gendot(int64_t n, double cond, double *x, double *y, uint64_t seed);

/* y = the CPU's alpha op(A) x + beta y0 for the tight m x n matrix A; returns the number of
 * outputs it computed on the slow path. */
int64_t gemv_ref(int trans, int64_t m, int64_t n, double alpha, const double *A, const double *x,
                 double beta, const double *y0, double *y);
/* C = the CPU's alpha A B + beta C0, A m x k, B k x n, C m x n, all tight; returns the number
 * of entries computed directly (*slices: the most slices used). */
int64_t gemm_ref(int64_t m, int64_t n, int64_t k, double alpha, const double *A, const double *B,
                 double beta, const double *C0, double *C, int *slices);
double dot_ref(int64_t n, const double *x, const double *y, int64_t *slow);

/* One DDOT on handle hh (through the shim: real = 0; real cuBLAS: real = 1), the result in a
 * host variable (dev = 0) or d_res.  Host pointer mode: the shim's result must be in the host
 * variable as the call returns.  Host pointer mode afterwards. */
double run_dot(int real, cublasHandle_t hh, int is64, int64_t n, const double *px, int64_t incx,
               const double *py, int64_t incy, int dev);

/* ---------- DDOT and DGEMV layouts (twin_cases_vec.c) ---------- */

/* One DDOT case: the logical x, y with the first nincs (incx, incy) of {(1,1), (3,-2), (-2,3),
 * (-2,-2), (1,3)}, host and device pointers, against `want`. */
void dot_layouts(const char *desc, const double *x, const double *y, int64_t n, int nincs,
                 double want);
/* x vectors of a GEMV: xN (n), xT (m), their poisoned copies, with increment incx, at dX +
 * {0, 1, 2, 3} * XOFF. */
void upload_xs(const double *xN, const double *xT, const double *xN0, const double *xT0,
               int64_t m, int64_t n, int64_t incx);
/* Every (alpha, beta) in abs_ x pointer mode x op N, T, C of one layout against the CPU results
 * ref[t][ab].  A at dA (alpha = 0: dA0), x as upload_xs left them. */
void gemv_layout(const char *desc, int64_t m, int64_t n, int64_t lda, int64_t incx, int64_t incy,
                 const int *abs_, int nab, double *ref[2][NAB], double *yl);

/* ---------- DGEMM problems and layouts (twin_cases_gemm.c) ---------- */

enum { GK_PHI0, GK_PHI1, GK_PHI4, GK_ROWS, GK_COLS, GK_SPECIAL, GK_COUNT };

/* Logical operands: op(A) m x k, op(B) k x n and C m x n, column-major, tight; A0, B0 the
 * poisoned copies (alpha = 0 runs); refs[ab][b] the CPU's C for (alpha, beta) pair ab. */
typedef struct {
    int64_t m, n, k;
    double *A[NB], *B[NB], *C[NB], *A0[NB], *B0[NB];
    double *Cnan;
    double *ref[NAB][NB];
} problem;

/* Data of kind GK_* (distinct = 0: every batch entry a copy of the first). */
void make_problem(problem *P, int64_t m, int64_t n, int64_t k, int kind, int distinct,
                  uint64_t seed);
/* The CPU's C for the pairs abs_[0..nab) (all batch entries: nb; entries that are copies share
 * the result); returns the entries computed directly. */
int64_t problem_refs(problem *P, const int *abs_, int nab, int distinct, int *slices);
void free_problem(problem *P);
/* One API and op pair of a problem: operands laid out and uploaded (clean to dA, dB; poisoned
 * to dA0, dB0), then every pair in abs_ x host/device pointers through the shim against the
 * CPU, every batch entry, C outside the matrices untouched. */
void gemm_layout(const problem *P, const char *desc, gt_gemm_api api, int ta, int tb, int pad,
                 const int *abs_, int nab, double *gotb);

/* ---------- the groups ---------- */

void engaged_group(void);         /* 0, twin_cases_vec.c */
void dot_group(void);             /* 1, twin_cases_vec.c */
void gemv_group(void);            /* 2, twin_cases_vec.c */
void gemm_group(void);            /* 3, twin_cases_gemm.c */
void reproducibility_group(void); /* 4, twin_cases_paths.c */
void slow_group(void);            /* 5, twin_cases_paths.c */

#endif
