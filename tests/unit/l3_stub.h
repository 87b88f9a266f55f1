/* l3_stub.h — what the recording stand-ins of test_l3mm.c (real data) and test_l3zmm.c (complex)
 * share: A, B, C and the scratch as regions with a record per element, the first misuse the
 * stand-ins saw, the GEMM count and the GEMM to decline, where a stand-in's operands lie, and
 * the small-integer data.  An element is l3s_width doubles (1 real, 2 complex: set it first). */
#ifndef L3_STUB_H
#define L3_STUB_H

#include "../../shim/l3_mm.h"

#include <stdint.h>

enum { R_A, R_B, R_C, R_S, R_COUNT };
typedef struct {
    double *p;   /* l3s_width n doubles */
    int64_t n;   /* elements */
    int *writes; /* writes into this element */
    int *gemms;  /* GEMMs its value went through (copies carry it along; real data) */
    int64_t *k;  /* the inner dimension of the GEMM that finished it (-1: none) */
} region;

extern int l3s_width;           /* doubles an element */
extern region reg[R_COUNT];
extern char problem[256];       /* the first misuse the stand-ins saw */
extern int calls, decline_at;   /* GEMMs called; the one to decline (0: none) */
extern int out_region;          /* C's buffer: B's when C = B */

#define SENTINEL 12345.0

void misuse(const char *what);
void region_init(int r, int64_t n);
void region_free(void);
/* The region holding a rows x cols matrix at p with leading dimension ld (in elements; its
 * element offset in *off), -2 for an empty one, or -1 (a misuse) when it does not lie inside one
 * or starts inside an element. */
int locate(const double *p, int64_t rows, int64_t cols, int64_t ld, int64_t *off);

/* A stand-in GEMM's first step: counts the call; 1 when it is the one to decline. */
int l3s_declines(void);
/* The regions of a GEMM's operands: C's (the output's or the scratch), its element offset in
 * *oc; -1 after misuse(what) when an operand is out of place. */
int l3s_gemm_regions(const dfs_gemm_call *g, int64_t *oc, const char *what);
/* The regions of a copy's source (*rs, offset *os) and destination (returned, offset *od): -1
 * after misuse(what) unless it copies from another buffer into the output or the scratch. */
int l3s_copy_regions(const dfs_l3_copy *cp, int *rs, int64_t *os, int64_t *od, const char *what);
/* Runs mm in panels of nb with a scratch of dfs_mm_scratch (NaN in it with nan_scratch; it must
 * be whole elements), the misuse and the count cleared first. */
cublasStatus_t l3s_run(const dfs_mm *mm, int64_t nb, const dfs_mm_ops *ops, int nan_scratch);

double small_int(uint64_t *s); /* -4 ... 4 */
int in_tri(int lower, int64_t i, int64_t j);

#endif
