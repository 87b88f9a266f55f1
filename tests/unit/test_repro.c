/* test_repro.c — unit tests (Check + MPFR) of the reproducible engine's arithmetic and CPU
 * implementation (engines/common/xacc.h, fpe.h, engines/repro/host.c): every output must be
 * RN(alpha * sum a_k b_k + beta * c), the correctly rounded value of the exact real number, as an
 * independent MPFR reference computes it; and the bits must not depend on the order of the
 * elements, the increments, the number of lanes or expansion terms, nor on which path (fast,
 * slow, direct) an output took.  Deterministic (rng.h's PRNG, fixed seeds; the data generators
 * are in ../common/gen.h, shared with the GPU test tests/gpu/repro.c).  Lines starting "repro:"
 * in the log say what was covered.  Compiled with -ffp-contract=off.
 *
 * The tests: repro_xacc.c (the accumulator), repro_dot.c (DDOT), repro_matrix.c (DGEMV, DGEMM),
 * against the reference in repro_common.c; repro_bound.c (the rounding margin), repro_tail.c
 * (the Ozaki tail bound) and repro_i192.c (the Ozaki finish's 192-bit fast path), against exact
 * values; repro_finish.c (the GPU DGEMM's per-output step on the CPU) and repro_crt.c (the Ozaki
 * scheme II arithmetic and CPU DGEMM), repro_f32.c (the Ozaki scheme on binary32 products, issue
 * 8) and repro_plan.c (the GEMM paths' block shapes); this file gathers them into one suite. */
#include "repro_test.h"

static Suite *suite(void)
{
    Suite *s = suite_create("repro");
    TCase *t = tcase_create("all");
    tcase_set_timeout(t, 300);
    repro_xacc_tests(t);
    repro_dot_tests(t);
    repro_matrix_tests(t);
    repro_bound_tests(t);
    repro_tail_tests(t);
    repro_i192_tests(t);
    repro_finish_tests(t);
    repro_crt_tests(t);
    repro_crt_fast_tests(t);
    repro_plan_tests(t);
    repro_f32_tests(t);
    suite_add_tcase(s, t);
    return s;
}

#include "check_main.h"
