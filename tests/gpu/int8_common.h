/* int8_common.h — what the files of the int8 test share (int8.c says what it checks): state,
 * the engine's moduli, the CPU twin on threads, data, and the calls through the shim
 * (int8_common.c). */
#ifndef DFS_GPU_INT8_COMMON_H
#define DFS_GPU_INT8_COMMON_H

#include "common.h"
#include "df_common.h"
#include "layout.h"

#include "../common/gen.h"
#include "../../engines/oz/crt.h"
#include "../../engines/oz/host_crt.h"
#include "../../include/reprohost.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BUF ((size_t)9 << 18) /* elements of every operand's staging and device buffer */
#define GUARD 64              /* sentinel elements before and after C's span */
#define NBMAX 3               /* batch entries */
#define NAB 12                /* (alpha, beta) pairs */
#define MAX_THREADS 64

extern cublasHandle_t handle;
extern double *dA, *dA0, *dB, *dB0, *dC, *d_ab; /* device; dC: BUF + 2 GUARD */
extern double *hS, *hCt, *hCo; /* pinned: operand staging, C template, C back */
extern double *gotb; /* one gathered batch entry */
extern double qnan, gap_c; /* gap_c: C's sentinel (a NaN with a payload) */
extern int n_threads;
extern int opt_moduli; /* the moduli= option (0: by k) */
extern double ref_seconds;
extern long long ref_calls;

enum { K_PHI0, K_PHI1, K_PHI4, K_PHI8, K_ROWS, K_SPECIAL, K_TINY, K_COUNT };
extern const char *const kind_names[K_COUNT];

/* Logical operands, column-major and tight: op(A) m x k, op(B) k x n, C m x n; A0, B0 the
 * poisoned copies.  distinct = 0: every batch entry is the first (the same memory). */
typedef struct {
    int64_t m, n, k;
    int nb, distinct;
    double *A[NBMAX], *B[NBMAX], *C[NBMAX], *A0[NBMAX], *B0[NBMAX];
    double *Cnan;
} problem;

/* int8_common.c documents each of these. */
double of_bits(uint64_t b);
int parse_mode(void);
int moduli_for(int64_t k);
/* One twin call: op(A) m x k and op(B) k x n stored tight in the layout of (ta, tb) (lda = ta ?
 * k : m, ldb = tb ? n : k), C0 (m x n, tight) the C before the call, C the result. */
typedef struct {
    int ta, tb, moduli;
    int64_t m, n, k, lda, ldb;
    double alpha, beta;
    const double *A, *B, *C0;
    double *C;
} ref_task;
void run_refs(const ref_task *tasks, int nt);
void twin(int ta, int tb, int64_t m, int64_t n, int64_t k, double alpha, const double *A,
          int64_t lda, const double *B, int64_t ldb, double beta, double *C, int64_t ldc);
void fill(double *x, int64_t n, int g, uint64_t seed);
void make_problem(problem *P, int64_t m, int64_t n, int64_t k, int kind, int nb, int distinct,
                  uint64_t seed);
void free_problem(problem *P);
double *stored(double *L, int64_t rows, int64_t cols, int trans);
void upload(double *d, double *const *L, int nb, int64_t rows, int64_t cols, int trans, int64_t ld,
            int64_t stride);
size_t c_template(const gt_gemm *g, int nb, double *const *Cl);
cublasStatus_t call(int real, gt_gemm *g, int dev, double alpha, double beta, size_t span);
void check_around(const gt_gemm *g, int nb, size_t span);
int cmp_c(const char *what, const char *want_name, const double *want, const double *got, int64_t m,
          int64_t n);
const char *ptr_name(int dev);

#endif
