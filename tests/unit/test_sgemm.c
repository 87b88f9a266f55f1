/* test_sgemm.c — unit tests (Check + MPFR) of the ozaki-sgemm engine's CPU model
 * (engines/ozaki-sgemm/f32split.h, host_f32.c; sgemm_f32.c): the binary32 slices exact, every
 * output within its own error bound of the correctly rounded product (MPFR, exact_ref.c), and
 * the gains over binary32 GEMM.  Deterministic (fixed seeds).  Lines starting "sgemm:" in the
 * log say what was covered.  Compiled with -ffp-contract=off. */
#include "ozfamily_test.h"

static Suite *suite(void)
{
    static void (*const add[])(TCase *) = {sgemm_f32_tests, NULL};
    return ozfamily_suite("sgemm", add);
}

#include "check_main.h"
