/* layout.h — what the engines' GPU tests (df_gemm, df_vec, repro and dd, int8, ozaki_sgemm)
 * share about operands in memory: strided vectors with gaps and matrices with padding and batch
 * strides laid out in host staging buffers, the outputs gathered back, checks that nothing
 * outside the outputs was written; and one DDOT / DGEMV / DGEMM run through such buffers, with
 * alpha and beta (and DDOT's result) in host or device memory.  Built on common.h and
 * df_common.h. */
#ifndef DFS_GPU_LAYOUT_H
#define DFS_GPU_LAYOUT_H

#include "common.h"

#include <stddef.h>
#include <stdint.h>

/* ---------- layouts ---------- */

/* The vector v (n elements) with increment inc into dst; `gap` elsewhere in the span.  Returns
 * the span (gt_span). */
size_t lay_vec(double *dst, const double *v, int64_t n, int64_t inc, double gap);
/* The n elements of the vector at src with increment inc into v (logical order). */
void gather_vec(double *v, const double *src, int64_t n, int64_t inc);
/* Fails unless the span of y outside the vector is as in the template. */
void check_gaps(const double *tmpl, const double *out, size_t span, int64_t inc);
/* A DGEMV's y templates with increment incy, `gap` outside the vectors: t[2*tr + beta0], tr = 0
 * (op N): yN (m elements), 1 (op T): yT (n); beta0 = 1: nan_vec instead (beta = 0). */
void make_ytemplates(double *const t[4], const double *yN, const double *yT, int64_t m, int64_t n,
                     int64_t incy, const double *nan_vec, double gap);

/* The tight m x n matrix A into device memory `dst` with leading dimension lda (NaN padding,
 * gt_qnan()), staged in `stage` (cap elements). */
void upload_A(double *dst, double *stage, size_t cap, const double *A, int64_t m, int64_t n,
              int64_t lda);
/* Stores the nb logical rows x cols matrices L[b] as the operand of a call with leading dimension
 * ld and batch stride `stride`: trans = 0: dst[r + c*ld]; trans = 1: the transpose,
 * dst[c + r*ld].  Everything else in the span is `gap`.  Returns the span (elements; 1 for an
 * empty matrix), fatal beyond cap. */
size_t lay_out(double *dst, size_t cap, double *const *L, int nb, int64_t rows, int64_t cols,
               int trans, int64_t ld, int64_t stride, double gap);
/* Bitwise equal, any NaN equal to any NaN. */
int same(double a, double b);
int64_t max64(int64_t a, int64_t b);
/* len GPU outputs against the expected ones, named want_name (ld > 0: a matrix, for the
 * message); 1 when all equal, else fails the case naming the first difference. */
int cmp_named(const char *what, const char *want_name, const double *want, const double *got,
              int64_t len, int64_t ld);
/* A gt_gemm for api, ops (ta, tb: CUBLAS_OP_C for the _64 entry point's transpositions) and
 * sizes, FP64 types, with leading dimensions tight + pad and, for a strided API, batch nb with
 * strides leaving gaps. */
gt_gemm gemm_setup(gt_gemm_api api, int ta, int tb, int64_t m, int64_t n, int64_t k, int pad,
                   int nb);
/* A copy of n values with NaN and Inf at a few places: the operands of alpha = 0 runs. */
void poison(double *dst, const double *src, int64_t n);
/* (alpha, beta) pair ab (0 .. 11) of the Ozaki engines' DGEMM tests: alpha {1, 0.5, -3, 0} x
 * beta {0, 1, -0.75}. */
double ab_alpha(int ab);
double ab_beta(int ab);
/* DGEMM test data, the tight m x k op(A) and k x n op(B): rows of A scaled by 1e300, 1e-300, 1
 * in turn (wide_rows); every 8th column of A scaled by 1e300, the others by 1e-300, and B's rows
 * there zero in the even columns of C, whose outputs then are sums of the small products alone
 * (wide_cols: the 'mixed' matrix, two groups of the inner dimension); Inf and NaN placed in row
 * 0, row m/2, row m-1 and column n-1, and a 0 meeting row 0's Inf in C(0, 0) (place_specials;
 * k > 0). */
void wide_rows(double *A, int64_t m, int64_t k);
void wide_cols(double *A, double *B, int64_t m, int64_t n, int64_t k);
void place_specials(double *A, double *B, int64_t m, int64_t n, int64_t k);
/* The m x n matrix at `src` (leading dimension ld) into tight `dst`. */
void gather(double *dst, const double *src, int64_t m, int64_t n, int64_t ld);
/* Fails unless everything in the C span outside the nb m x n matrices is as in the template. */
void check_outside(const double *tmpl, const double *out, int nb, int64_t m, int64_t n,
                   int64_t ldc, int64_t sC);

/* ---------- the calls ---------- */

/* The buffers the calls below go through (each test sets the ones it uses). */
typedef struct {
    double *d_ab;           /* device: alpha, beta for device pointer mode */
    double *d_res;          /* device: DDOT's result for device pointer mode */
    double *dY, *hYo;       /* DGEMV: y on the device; pinned: y's span downloaded */
    size_t y_cap;           /* elements of dY and hYo */
    double *dC, *hCt, *hCo; /* DGEMM: C on the device; pinned: its template, its span downloaded */
} call_bufs;

/* The host result variable before a DDOT: a NaN no computation gives. */
double sentinel(void);

/* One DDOT on handle hh (shim: real = 0, real cuBLAS: real = 1) with x and y at px, py, the
 * result in a host variable (dev = 0) or b->d_res.  Host pointer mode: *late = 1 when the host
 * variable did not hold the result as the call returned (then the value read after a
 * synchronisation is returned).  Host pointer mode afterwards. */
double call_dot(const call_bufs *b, int real, cublasHandle_t hh, int is64, int64_t n,
                const double *px, int64_t incx, const double *py, int64_t incy, int dev,
                cublasStatus_t *st, int *late);

/* A DGEMV's arguments but y. */
typedef struct {
    cublasOperation_t op;
    int64_t m, n, lda, incx, incy;
    double alpha, beta;
    int dev, is64;
    const double *A, *x; /* device */
} gparams;

/* One DGEMV on handle hh: y from the template (its span) uploaded to b->dY, alpha/beta on the
 * host or in b->d_ab; the result gathered into yl (logical); the shim's call must leave y's gaps
 * alone.  Host pointer mode afterwards. */
void call_gemv(const call_bufs *b, int real, cublasHandle_t hh, const gparams *p,
               const double *ytmpl, double *yl);

/* Uploads span elements of b->hCt to b->dC, runs g (C = b->dC) on hh for real or through the
 * shim with alpha and beta on the host or in device memory, downloads the span into b->hCo.
 * Host pointer mode afterwards. */
cublasStatus_t call_gemm(const call_bufs *b, int real, cublasHandle_t hh, gt_gemm *g, int dev,
                         double alpha, double beta, size_t span);


#endif
