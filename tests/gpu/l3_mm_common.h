/* l3_mm_common.h — the harness level3 (real) and zlevel3 (complex) share: the configurations
 * and their padded leading dimensions, the host images, one configuration in every form and
 * pointer mode, two calls captured in a CUDA graph, the mode's bound and the device buffers.
 * The type's own parts (its routines, the images' data and reference, the check) come in
 * l3m_type; an element is w doubles (1 real, 2 complex). */
#ifndef GT_L3_MM_COMMON_H
#define GT_L3_MM_COMMON_H

#include "l3_common.h"

#define MAXE (704 * 704) /* elements of each device buffer */

typedef struct {
    int kind, side, uplo, trans, diag, alias;
    int64_t m, n, k, lda, ldb, ldc;
    /* real: alpha[0], beta[0]; complex: passed as cuDoubleComplex (16-byte loads) */
    _Alignas(16) double alpha[2], beta[2];
} cfg;

/* Host images of one configuration: A, B, C's initial buffer (ldc x n), and per element of it
 * the correctly rounded result and S (|alpha| sum |a b| + |beta c|, one double an element). */
typedef struct {
    double *A, *B, *C0, *ref, *sabs;
    int64_t kk; /* products per output */
} image;

typedef struct {
    int w;                     /* doubles an element */
    const char *const *kname;  /* the kinds' names */
    int last_rank_k;           /* the kinds up to it are rank-k ones (C a triangle) */
    int trmm;                  /* the TRMM kind (the legacy one in place on B) */
    /* the call through the shim: form f, scalars on the device (dev) or the host */
    cublasStatus_t (*call)(const cfg *c, int f, int dev, const double *A, const double *B,
                           double *C);
    /* whether the kind has a legacy form */
    int (*has_legacy)(int kind);
    /* A, B, C0 for c (seed), NaN where nothing may be read, and ref and sabs */
    void (*build)(const cfg *c, uint64_t seed, image *im);
    /* got (C's buffer after the call in pointer mode dev; -1: in the graph) against im */
    void (*check)(const cfg *c, const image *im, const double *got, int dev);
} l3m_type;

typedef struct {
    const l3m_type *type;
    double *dA, *dB, *dC, *dScal; /* device buffers; dScal: alpha, then beta (w doubles each) */
    double tol_rel, tol_ulp;      /* the mode's bound; tol_rel < 0: bit for bit */
} l3m_state;

extern l3m_state l3m;

int l3m_rank_k(int kind);
/* Whether (i, j) is an output of c (C's triangle for the rank-k kinds). */
int l3m_target(const cfg *c, int64_t i, int64_t j);
/* lda, ldb, ldc padded; C = B: ldc = ldb */
void l3m_dims(cfg *c);
void l3m_image_free(image *im);

/* gt_init, the mode's bound (repro: bit for bit; dd, accurate: 2^-100 and 1 ulp; df: 4 2^-48
 * and 2 ulp; others: `others` and 1 ulp), the line saying what is checked, the handle, stream
 * and device buffers. */
void l3m_start(const char *test, const l3m_type *type, double others, const char *bitwise_what,
               const char *bound_what);
/* One configuration in every form and pointer mode that has it (legacy: host scalars). */
void l3m_run_cfg(cfg c, uint64_t seed);
/* s then t (in place: C = B) captured on a stream into one graph (the routines' names s_after,
 * t_after), replayed twice, each replay checked. */
void l3m_graph(const char *title, cfg s, const char *s_after, cfg t, const char *t_after);

#endif
