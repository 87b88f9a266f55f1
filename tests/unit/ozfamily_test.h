/* ozfamily_test.h — what the unit tests of the Ozaki-family engines share (test_repro.c,
 * test_oz.c, test_int8.c, test_sgemm.c and the files each gathers): the headers, the MPFR
 * reference (exact_ref.c), the comparisons, exact-accumulator helpers and the scheme II DGEMM
 * cases (ozfamily_helpers.c), and the functions that add each file's tests to a suite. */
#ifndef DFS_OZFAMILY_TEST_H
#define DFS_OZFAMILY_TEST_H

#include "../../engines/common/fpe.h"
#include "../../engines/common/xcombine.h" /* and xacc.h */
#include "../../engines/repro/host.h"

#include <check.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpfr.h>

#include "exact_ref.h"
#include "rng.h"

/* Whether two doubles have the same bits (signed zeros and NaN payloads told apart). */
static inline int same_bits(double a, double b)
{
    return !memcmp(&a, &b, sizeof a);
}

/* ---------------- ozfamily_helpers.c ---------------- */

/* A suite of one test case, "all" (300 s per test), holding the tests that each add[i] (up to
 * a NULL) adds, in that order. */
Suite *ozfamily_suite(const char *name, void (*const *add)(TCase *));

/* Fails the test unless same(got, want). */
void expect(double got, double want, const char *what);
/* The default parameters with these terms and lanes. */
dfs_oz_params params(int terms, int lanes);

/* Fails the test unless x: like ck_assert, without the mark point Check writes to its pipe on
 * every passing ck_assert (a system call: too slow for the inner loops of the bound tests). */
#define REQUIRE(x)                                                                                 \
    do {                                                                                           \
        if (!(x))                                                                                  \
            ck_abort_msg("Assertion '%s' failed", #x);                                             \
    } while (0)

/* Exact accumulators for the bound tests (repro_bound.c, oz_tail.c, oz_i192.c). */
uint64_t bits_of_d(double d);
/* A fresh full accumulator in w. */
void full_init(dfs_xacc *a, int64_t *w);
/* dst (words dw, as many as src's) := src. */
void acc_copy(dfs_xacc *dst, int64_t *dw, const dfs_xacc *src);
/* dst += (-1)^neg src, both with the same words (nw, lsb); normalises both. */
void acc_add_acc(dfs_xacc *dst, dfs_xacc *src, int neg);
/* Add (-1)^neg 2^e. */
void add_pow2(dfs_xacc *a, int neg, int e);

/* One random DGEMM case of the scheme-II tests (oz_crt.c, int8_crt_fast.c): data of generator
 * g (B sometimes phi 1, C phi 2, an Inf or NaN in A every 12th case), m, n below maxmn, k from
 * ks[nk], ld padding, alpha and beta from a list every 3rd case; C1 = the scheme-I CPU DGEMM
 * (correctly rounded), C2 = dfs_oz_crt_gemm_host with mods moduli (fast or verifying), both
 * from C0. */
typedef struct {
    int ta, tb;
    int64_t m, n, k, lda, ldb, ldc;
    double alpha, beta;
    double *A, *B, *C0, *C1, *C2;
    dfs_oz_stats s2;
} crt_case;
/* it: the case's number. */
void crt_case_run(rng *r, int it, int g, int maxmn, const int64_t *ks, int nk, int mods,
                  int fast, crt_case *t);
void crt_case_free(crt_case *t);

/* ---------------- each file's tests ---------------- */

/* Each adds its file's tests to t, in the order they stand there. */
void repro_xacc_tests(TCase *t);    /* repro_xacc.c: xacc.h directly */
void repro_dot_tests(TCase *t);     /* repro_dot.c: DDOT */
void repro_matrix_tests(TCase *t);  /* repro_matrix.c: DGEMV and DGEMM */
void repro_bound_tests(TCase *t);   /* repro_bound.c: the rounding margin of xacc.h */
void repro_finish_tests(TCase *t);  /* repro_finish.c: the GPU DGEMM's finish step, on the CPU */
void repro_complex_tests(TCase *t); /* repro_complex.c: the CPU ZGEMM (zhost.c) */
void oz_tail_tests(TCase *t);       /* oz_tail.c: the Ozaki split's tail bound (steps.h) */
void oz_i192_tests(TCase *t);       /* oz_i192.c: the Ozaki finish's 192-bit fast path */
void oz_axpby_tests(TCase *t);      /* oz_axpby.c: alpha X + beta c in registers (wint.h) */
void oz_crt_tests(TCase *t);        /* oz_crt.c: the Ozaki scheme II (crt.h, host_crt.c) */
void oz_kgroups_tests(TCase *t);    /* oz_kgroups.c: its inner dimension in two groups */
void oz_plan_tests(TCase *t);       /* oz_plan.c: the block shapes of the GEMM paths (plan.c) */
void oz_ddsum_tests(TCase *t);      /* oz_ddsum.c: the small kernel's double-double way */
void int8_crt_fast_tests(TCase *t); /* int8_crt_fast.c: the int8 engine's CPU twin */
void int8_contract_tests(TCase *t); /* int8_contract.c: its contract and its choice rule */
void sgemm_f32_tests(TCase *t);     /* sgemm_f32.c: the Ozaki scheme on binary32 products */

#endif
