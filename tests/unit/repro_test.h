/* repro_test.h — what the files of the reproducible engine's unit test (test_repro.c, repro_*.c)
 * share: the headers, the MPFR reference and the comparisons (repro_common.c), and the functions
 * that add each file's tests to the suite. */
#ifndef DFS_REPRO_TEST_H
#define DFS_REPRO_TEST_H

#include "../../engines/common/fpe.h"
#include "../../engines/common/xacc.h"
#include "../../engines/ozaki/host.h"

#include <check.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpfr.h>

#include "exact_ref.h"

/* repro_common.c */
/* Fails the test unless same(got, want). */
void expect(double got, double want, const char *what);
/* The default parameters with these terms and lanes. */
dfs_oz_params params(int terms, int lanes);

/* Each adds its file's tests to t, in the order they stand there. */
void repro_xacc_tests(TCase *t);   /* repro_xacc.c: xacc.h directly */
void repro_dot_tests(TCase *t);    /* repro_dot.c: DDOT */
void repro_matrix_tests(TCase *t); /* repro_matrix.c: DGEMV and DGEMM */
void repro_bound_tests(TCase *t);  /* repro_bound.c: the rounding margin, the Ozaki tail bound */
void repro_finish_tests(TCase *t); /* repro_finish.c: the GPU DGEMM's finish step, on the CPU */
void repro_crt_tests(TCase *t);    /* repro_crt.c: the Ozaki scheme II (crt.h, host_crt.c) */

#endif
