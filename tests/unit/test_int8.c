/* test_int8.c — unit tests (Check) of the int8 engine's CPU twin (dfs_oz_crt_gemm_host with
 * fast = 1, engines/oz/host_crt.c; int8_crt_fast.c): within the truncation's error bound of the
 * correctly rounded product (the reproducible engine's CPU DGEMM, checked against MPFR by
 * test_repro), rows rounded to nearest, results independent of the operands' storage; the fast
 * contract on hostile data and the moduli's choice rule (int8_contract.c).  The
 * scheme II arithmetic it rests on: test_oz.  Deterministic (fixed seeds).  Lines starting "crt
 * fast" in the log say what was covered.  Compiled with -ffp-contract=off. */
#include "ozfamily_test.h"

static Suite *suite(void)
{
    static void (*const add[])(TCase *) = {int8_crt_fast_tests, int8_contract_tests, NULL};
    return ozfamily_suite("int8", add);
}

#include "check_main.h"
