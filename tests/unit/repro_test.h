/* repro_test.h — what the files of the reproducible engine's unit test (test_repro.c, repro_*.c)
 * share: the headers, the MPFR reference and the comparisons (repro_common.c), and the functions
 * that add each file's tests to the suite. */
#ifndef DFS_REPRO_TEST_H
#define DFS_REPRO_TEST_H

#include "../../engines/common/fpe.h"
#include "../../engines/common/xacc.h"
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

/* Whether two doubles have the same bits (signed zeros and NaN payloads told apart). */
static inline int same_bits(double a, double b)
{
    return !memcmp(&a, &b, sizeof a);
}

/* repro_common.c */
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

/* Exact accumulators for the bound tests (repro_bound.c, repro_tail.c, repro_i192.c). */
uint64_t bits_of_d(double d);
/* A fresh full accumulator in w. */
void full_init(dfs_xacc *a, int64_t *w);
/* dst (words dw, as many as src's) := src. */
void acc_copy(dfs_xacc *dst, int64_t *dw, const dfs_xacc *src);
/* dst += (-1)^neg src, both with the same words (nw, lsb); normalises both. */
void acc_add_acc(dfs_xacc *dst, dfs_xacc *src, int neg);
/* Add (-1)^neg 2^e. */
void add_pow2(dfs_xacc *a, int neg, int e);

/* Each adds its file's tests to t, in the order they stand there. */
void repro_xacc_tests(TCase *t);   /* repro_xacc.c: xacc.h directly */
void repro_dot_tests(TCase *t);    /* repro_dot.c: DDOT */
void repro_matrix_tests(TCase *t); /* repro_matrix.c: DGEMV and DGEMM */
void repro_bound_tests(TCase *t);  /* repro_bound.c: the rounding margin of xacc.h */
void repro_tail_tests(TCase *t);   /* repro_tail.c: the Ozaki split's tail bound */
void repro_i192_tests(TCase *t);   /* repro_i192.c: the Ozaki finish's 192-bit fast path */
void repro_finish_tests(TCase *t); /* repro_finish.c: the GPU DGEMM's finish step, on the CPU */
void repro_crt_tests(TCase *t);    /* repro_crt.c: the Ozaki scheme II (crt.h, host_crt.c) */
void repro_crt_fast_tests(TCase *t); /* repro_crt_fast.c: the int8 engine's CPU twin */
void repro_f32_tests(TCase *t);   /* repro_f32.c: the Ozaki scheme on binary32 products */
void repro_plan_tests(TCase *t);  /* repro_plan.c: the block shapes of the GEMM paths (plan.c) */

#endif
