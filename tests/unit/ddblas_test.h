/* ddblas_test.h — the libddblas unit test's exact references (ddblas_ref.c) and its parts
 * (test_ddblas.c: the paper's Table 5 and the error bounds; ddblas_props.c: formats, special
 * values, arrays not read; ddblas_shapes.c: invariances, AXPY, empty shapes; ddblas_args.c:
 * the argument rules).
 *
 * References are MPFR sums of the exact products of the *stored* inputs (each DD product as its
 * four products of binary64 words, each exact in 128 bits), at DDT_PREC bits; every MPFR
 * operation is checked to be exact (ternary value 0), so a reference is never rounded. */
#ifndef DFS_DDBLAS_TEST_H
#define DFS_DDBLAS_TEST_H

#include "../common/ddblas_data.h"

#include <check.h>
#include <mpfr.h>

/* Check's ck_assert reports every passing check to the runner (a write each): in loops these
 * test first and only report a failure. */
#define DDT_CHECK(cond, ...)                                                                       \
    do {                                                                                           \
        if (!(cond))                                                                               \
            ck_abort_msg(__VA_ARGS__);                                                             \
    } while (0)
#define DDT_TRUE(cond) DDT_CHECK(cond, "%s", #cond)

#define U 0x1p-53
/* Exact for sums of products of the test data (magnitudes 2^-200 .. 2^200, their lo words down
 * to 2^-320 or so); the ternary checks would fail a test that needed more. */
#define DDT_PREC 1200

void ref_init(mpfr_t x);                              /* DDT_PREC bits, +0 */
void ref_add_dd(mpfr_t acc, ddblas_dd a);             /* acc += a, exactly */
void ref_add_prod(mpfr_t acc, ddblas_dd a, ddblas_dd b); /* acc += a b, exactly */
/* out = alpha s + beta c exactly (beta == 0: c not used). */
void ref_finish(mpfr_t out, mpfr_srcptr s, ddblas_dd alpha, ddblas_dd beta, ddblas_dd c);
/* |got - exact| (rounded to a double) and that relative to |exact| (0 when both are 0). */
double ref_abs_err(mpfr_srcptr exact, ddblas_dd got);
double ref_rel_err(mpfr_srcptr exact, ddblas_dd got);

/* sum over q < K of |a_q b_q| in binary64, times 1 + 2^-20 so that it is an upper bound (for a
 * bound's right-hand side). */
double abs_sum(int64_t K, ddblas_array a, int64_t a0, int64_t sa, ddblas_array b, int64_t b0,
               int64_t sb);
/* The exact sum of a_q b_q into acc. */
void ref_dot(mpfr_t acc, int64_t K, ddblas_array a, int64_t a0, int64_t sa, ddblas_array b,
             int64_t b0, int64_t sb);

/* The same bits (NaNs of any payload equal). */
int dd_same(ddblas_dd a, ddblas_dd b);

void add_prop_tests(TCase *t);  /* ddblas_props.c */
void add_shape_tests(TCase *t); /* ddblas_shapes.c */
void add_arg_tests(TCase *t);   /* ddblas_args.c */

#endif
