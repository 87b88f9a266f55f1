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
 * against the reference in exact_ref.c; repro_bound.c (the rounding margin), against exact
 * values; repro_finish.c (the GPU DGEMM's per-output step on the CPU); repro_complex.c (the
 * CPU ZGEMM, zhost.c, against its own MPFR reference); this file gathers them
 * into one suite.  What the Ozaki-family engines share (engines/oz) is tested by test_oz.c, the
 * int8 engine's CPU twin by test_int8.c, the ozaki-sgemm engine's CPU model by test_sgemm.c. */
#include "ozfamily_test.h"

static Suite *suite(void)
{
    static void (*const add[])(TCase *) = {repro_xacc_tests,  repro_dot_tests,
                                           repro_matrix_tests, repro_bound_tests,
                                           repro_finish_tests, repro_complex_tests, NULL};
    return ozfamily_suite("repro", add);
}

#include "check_main.h"
