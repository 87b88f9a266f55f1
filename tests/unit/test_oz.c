/* test_oz.c — unit tests (Check, exact accumulators, MPFR) of what the Ozaki-family engines
 * share (engines/oz): the Ozaki split's tail bound and the finish's 192-bit fast path
 * (steps.h: oz_tail.c, oz_i192.c), against full accumulators of xacc.h; RN(alpha X 2^e0 + beta
 * c) in registers (wint.h: oz_axpby.c), against MPFR; the scheme II
 * arithmetic (crt.h) and its correctly rounded CPU DGEMM (host_crt.c, verifying: oz_crt.c),
 * against exact accumulators and the reproducible engine's CPU DGEMM (itself checked against
 * MPFR by test_repro), and with its inner dimension in two groups (kgroups.h: oz_kgroups.c,
 * against MPFR); the GEMM paths' block shapes (plan.c: oz_plan.c) against a brute-force
 * search; the small kernel's double-double sums and their decided roundings (ddsum.h:
 * oz_ddsum.c) against MPFR.  Deterministic (fixed seeds).  Lines starting "oz:" or "crt" in the log say what was
 * covered.  Compiled with -ffp-contract=off. */
#include "ozfamily_test.h"

static Suite *suite(void)
{
    static void (*const add[])(TCase *) = {oz_tail_tests, oz_i192_tests, oz_axpby_tests,
                                           oz_crt_tests, oz_kgroups_tests, oz_plan_tests,
                                           oz_ddsum_tests, NULL};
    return ozfamily_suite("oz", add);
}

#include "check_main.h"
