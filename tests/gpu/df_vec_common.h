/* df_vec_common.h — what the files of the df_vec test share (see df_vec.c for what it checks):
 * the buffer sizes, the buffers and state (df_vec.c), the double-double reference, the verdicts
 * against the bound and their maxima, the staging of strided vectors and the calls
 * (df_vec_common.c), and the groups. */
#ifndef DFS_GPU_DF_VEC_COMMON_H
#define DFS_GPU_DF_VEC_COMMON_H

#include "common.h"
#include "df_common.h"
#include "layout.h"

#include <stddef.h>
#include <stdint.h>

#define DOT_MAXN (((int64_t)1 << 24) + 3)
#define VEC_BUF ((size_t)(1 + (DOT_MAXN - 1) * 3)) /* dX, dY, hX, hY: the largest DDOT span */
#define A_BUF ((size_t)4096 * (4096 + 5))           /* dA, hA */
#define XT_OFF ((size_t)65536)                      /* GEMV: x for op T at dX + XT_OFF */
#define Y_BUF ((size_t)65536)                       /* GEMV y templates and output */
#define Y_GAP (-777.25)                             /* y outside the vector */
#define NSAMP 48                                    /* sampled outputs (4096x4096) */
#define NGEN 6

/* ---------- buffers and state (df_vec.c) ---------- */

extern int scheme; /* DFS_DF_MAD* */
extern const char *scheme_name;
extern cublasHandle_t handle;
extern double *dX, *dY, *dA, *d_ab, *d_res;
extern double *hX, *hY, *hA, *hYt[4], *hYo;
extern call_bufs bufs; /* d_ab, d_res, dY, hYo */
extern double qnan;

/* ---------- small helpers (df_vec_common.c) ---------- */

/* The kind of x: 0 finite, 1 NaN, 2 +Inf, 3 -Inf; fclass_name names it. */
int fclass(double x);
extern const char *const fclass_name[4];

/* ---------- double-double reference (df_vec_common.c) ---------- */

/* sum_p a_p x_p = s * 2^e and sum_p |a_p x_p| = d * 2^e (finite inputs). */
typedef struct {
    dd s;
    double d;
    int e;
} vref;

/* sum over p < k of a[p*sa] * x[p*sx] (robust = 1: any finite inputs). */
vref ref_dot(const double *a, int64_t sa, const double *x, int64_t sx, int64_t k, int robust);
/* Output r of op(A) x for the tight stored m x n matrix A (trans: op(A) = A^T). */
vref ref_out(const double *A, int64_t m, int64_t n, int trans, int64_t r, const double *x,
             int robust);

typedef struct {
    int kind;     /* kind of the exact result: 0 finite, 2 +Inf, 3 -Inf */
    int ok;       /* r has that kind and, when finite, lies within the bound */
    int sub;      /* den below 2^-1000 (errors then reported in units of 2^-1074) */
    double rel;   /* |r - exact| / den */
    double units; /* |r - exact| / 2^-1074 */
} verdict;

/* r against alpha * f + beta * y0 within the bound (+(4|alpha| + 4) 2^-1074). */
verdict judge(double r, const vref *f, double alpha, double beta, double y0, double bound);

/* Maxima of errors over outputs. */
typedef struct {
    double norm; /* max normwise error over outputs with den >= 2^-1000 */
    double sub;  /* max error in units of 2^-1074 over the others; -1 if none */
    size_t viol; /* outputs not ok */
    int64_t vr;  /* the worst of them */
    double vgot, vrel;
    int vkind;
} errs;

void errs_init(errs *e);
void errs_add(errs *e, const verdict *v, int64_t r, double got);
void errs_merge(errs *into, const errs *e);
/* Fails (naming `what`) where outputs were not ok. */
void errs_report(const errs *e, const char *what, double bound);

/* ---------- layouts (df_vec_common.c) ---------- */

/* A staging buffer for a strided vector; remembers where its gaps are so that a vector of the
 * same length and |inc| is stored without rewriting them. */
typedef struct {
    double *h;
    int64_t n, ainc;
    uint64_t gap;
} stage;

extern stage sX, sY; /* hX, hY */

/* The vector v (n elements) with increment inc into s; `gap` elsewhere.  Returns the span. */
size_t stage_vec(stage *s, const double *v, int64_t n, int64_t inc, double gap);

/* ---------- the calls (df_vec_common.c) ---------- */

/* One DDOT on `handle` with x at dX, y at dY: through the shim (which must leave the host-mode
 * result in the host variable as it returns) / real cuBLAS. */
double dot_shim(int is64, int64_t n, int64_t incx, int64_t incy, int dev);
double dot_real(int is64, int64_t n, int64_t incx, int64_t incy, int dev);
/* One DGEMV on `handle` (call_gemv). */
void run_gemv(int real, const gparams *p, const double *ytmpl, double *yl);
/* The vectors of DGEMVs with increment inc (x and y): x (k elements, gaps NaN) to dX through hX
 * (sX forgets what it staged); y's templates, len elements with gaps Y_GAP, in hYt[0] (y0) and
 * hYt[1] (ynan: for beta = 0). */
void gemv_vectors(const double *x, int64_t k, const double *y0, const double *ynan, int64_t len,
                  int64_t inc);
/* Opens the case of one DGEMV (named desc and its arguments) and gives the arguments: A at dA,
 * x at dX, both increments inc. */
gparams gemv_case(const char *desc, cublasOperation_t op, int64_t m, int64_t n, int64_t lda,
                  int64_t inc, double alpha, double beta, int dev, int is64);
/* Bitwise comparison of two logical result vectors; fails naming `what`. */
int same_bits(const char *what, const double *a, const double *b, int64_t len, const char *aname,
              const char *bname);

/* ---------- the groups ---------- */

/* df_vec_calls.c: 0, the calls reach the df engine; 6, host pointer mode DDOT's result */
void engaged_group(void);
void host_result_group(void);
/* df_vec_accuracy.c: 1, accuracy */
void accuracy_dot_group(void);
void accuracy_gemv_group(void);
/* df_vec_range.c: 2, range */
void range_dot_group(void);
void range_gemv_group(void);
/* df_vec_special.c: 3, special values; 4, alpha = 0 in device memory */
void special_dot_group(void);
void special_gemv_group(void);
void alpha0_group(void);

#endif
