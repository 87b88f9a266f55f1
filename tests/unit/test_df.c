/* test_df.c — unit tests (Check + MPFR) of the double-float arithmetic (engines/common/df.h) and
 * of the DF engine's host DGEMM (engines/df/host.c, bit for bit what the GPU computes), each held
 * against an exact reference computed with MPFR.  Deterministic (fixed seeds, own PRNG).  The worst
 * errors measured are printed on lines starting "df:" (in the test log), for the README.
 * Compiled with -ffp-contract=off: the binary64 reference loops must not be contracted.
 *
 * The tests: df_ops.c (single operations), df_gemm_accuracy.c and df_gemm_special.c (the host
 * DGEMM), on the common ground of df_gemm_ref.c; this file gathers them into one suite. */
#include "df_test.h"

static Suite *suite(void)
{
    Suite *s = suite_create("df");
    TCase *t = tcase_create("all");
    tcase_set_timeout(t, 120);
    df_ops_tests(t);
    df_gemm_accuracy_tests(t);
    df_gemm_special_tests(t);
    suite_add_tcase(s, t);
    return s;
}

#include "check_main.h"
