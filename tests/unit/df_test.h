/* df_test.h — what the files of the DF unit test (test_df.c, df_*.c) share: the headers, the
 * unit roundoffs, and the functions that add each file's tests to the suite. */
#ifndef DFS_DF_TEST_H
#define DFS_DF_TEST_H

#include "../../engines/common/df.h"
#include "../../engines/df/df_gemm.h"
#include "../../engines/df/host.h"

#include <check.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpfr.h>

#include "rng.h"

#define U 0x1p-24   /* binary32 unit roundoff */
#define U2 0x1p-48  /* u^2 */
#define U3 0x1p-72  /* u^3 */
#define U64 0x1p-53 /* binary64 unit roundoff */

/* Each adds its file's tests to t, in the order they stand there. */
void df_ops_tests(TCase *t);           /* df_ops.c: the DF operations */
void df_gemm_accuracy_tests(TCase *t); /* df_gemm_accuracy.c: host DGEMM accuracy and range */
void df_gemm_special_tests(TCase *t);  /* df_gemm_special.c: host DGEMM special cases */

#endif
