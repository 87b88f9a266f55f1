/* df_gemm_ref.h — the host DGEMM tests' common ground (df_gemm_ref.c): the cases, their exact
 * MPFR reference, the calls of the host DGEMM, the error bound and the input classes. */
#ifndef DFS_DF_GEMM_REF_H
#define DFS_DF_GEMM_REF_H

#include "df_test.h"

extern const char *const scheme_name[DFS_DF_SCHEMES];

/* ---------------- GEMM: data, exact reference, host calls ---------------- */

enum { PREC_PROD = 128, PREC_REF = 256, PREC_EVAL = 320 };

typedef struct {
    int64_t m, n, k;
    double *A; /* op(A): m x k, A[i + p*m] */
    double *B; /* op(B): k x n, B[p + j*k] */
    mpfr_t *D; /* exact sum_p a_ip b_pj, rounded to PREC_REF bits; m x n */
    mpfr_t *S; /* sum_p |a_ip b_pj| (PREC_REF bits) */
} gcase;

size_t nz(int64_t x);
void gc_init(gcase *g, int64_t m, int64_t n, int64_t k);
void gc_free(gcase *g);
void gc_reference(gcase *g);
double dot64(const gcase *g, int64_t i, int64_t j);
void run_gemm(int scheme, int ta, int tb, const gcase *g, double alpha, double beta,
              const double *C0, int64_t pad, double *out);
int pow2_or_zero(double x);
double gemm_bound(int scheme, int64_t k, double alpha, double beta);

typedef struct {
    mpfr_t ex, den, t, lim;
} wsg;

void wsg_init(wsg *w);
void wsg_clear(wsg *w);
double entry_err(wsg *w, const gcase *g, int64_t e, double got, double alpha, double beta,
                 double c0, double bnd, int *ok);

/* ---------------- GEMM input classes ---------------- */

enum { C_UNIFORM, C_PHI0, C_PHI1, C_PHI2, C_MIRROR, C_PAIRS, C_LAST, NCLASS };
extern const char *const class_name[NCLASS];

void gc_fill(gcase *g, int cls, rng *r);

#endif
