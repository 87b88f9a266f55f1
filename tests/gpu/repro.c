/* repro — the reproducible engine (EXBLAS_MODE=repro) through the shim.
 *
 * The engine's promise (engines/oz/README.md): every output is RN(alpha * sum_k a_k b_k +
 * beta * c), the correctly rounded value of the exact real number, so its bits depend on the
 * inputs only.  Here every output of cublasDdot / Dgemv / Dgemm and their variants, called as
 * ordinary cuBLAS calls, must equal bit for bit what the engine's CPU implementation gives
 * (engines/repro/host.c with dfs_oz_default_params(); tests/unit/test_repro.c proves it
 * correctly rounded against MPFR); any NaN equals any NaN.  The CPU result is computed once per
 * logical problem, from tight operands, and stands for every layout, transposition, API, pointer
 * mode, stream and handle (the promise says the bits do not depend on them); the CPU work is
 * spread over threads (by outputs: each output is computed alone).
 *
 * Data (tests/common/gen.h, shared with the unit test): the phi generator (U - 0.5) exp(phi N),
 * magnitudes 1e300 / 1e-300 / 1 / 1e-10 mixed, subnormals, signed zeros, GenDot's ill-conditioned
 * dot products (the running exact sum kept in an xacc.h accumulator), and Inf / NaN.  Gaps of
 * strided vectors and the padding of matrices hold NaN (a stray read shows); y and C around the
 * outputs hold a sentinel that must stay untouched.  beta = 0 runs with y / C full of NaN (not
 * read); alpha = 0 runs with NaN and Inf in A and x / A and B (not read).  The 32-bit and _64
 * entry points alternate.
 *
 *  0. engaged: dot products whose correctly rounded value a plain binary64 sum misses
 *     (x = {1, 2^-53, 2^-53} . {1, 1, 1}: RN = 1 + 2^-52, left to right 1; products with
 *     rounding errors that cancel; GenDot at cond 1e20 and 1e30) through DDOT (host and device
 *     pointers), DGEMV (one row, one column) and DGEMM (1 x 1 x k): every result equals the CPU's,
 *     and for each routine at least one case where real cuBLAS gives something else (else the
 *     group fails: it could not tell that the engine is reached).
 *  1. DDOT: n in {1, 2, 7, 1000, 100003, 2^20, 2^24+3} x (incx, incy) in {(1,1), (3,-2), (-2,3),
 *     (-2,-2), (1,3)} (100003, 2^20: the first three; 2^24+3: the first two) x data {phi 0, 1, 4,
 *     8; x 1e+-300
 *     mixed; subnormals; zeros; NaN; +Inf; -Inf; +Inf and -Inf products; Inf * 0; a product
 *     beyond DBL_MAX; two such that cancel; products that underflow; products near 2^-1000
 *     between ones that cancel} (2^24+3: eight of them) x host / device pointers; GenDot
 *     n in {1000, 10^5} x cond {1e8, 1e32, 1e100, 1e200, 1e300}.  Host pointer mode: the value is
 *     in the host variable when the call returns.
 *  2. DGEMV: ops N, T, C (C against T's CPU result) x m x n in {1x1, 37x19, 1000x300, 300x1000,
 *     4096x4096, 16384x64, 64x16384} x lda tight / +5 x (incx, incy) in {1,-2}^2 (4096x4096:
 *     (1,1), (-2,-2)) x alpha {1, 0.5, -3, 0} x beta {0, 1, -0.75} x host / device pointers x data
 *     {phi 0, phi 4, A 1e+-300 mixed}: every output (4096x4096 included).
 *  3. DGEMM: cublasDgemm_v2 (ld tight), cublasDgemm_v2_64 (ld +3, transposition given as
 *     CUBLAS_OP_C), cublasDgemmStridedBatched (batch 3, every entry its own data, strides with
 *     gaps) and cublasGemmEx (CUDA_R_64F, CUBLAS_COMPUTE_64F, ld +3) x ops NN, NT, TN, TT x
 *     m x n x k in {1x1x1, 13x17x29, 64x64x300, 257x129x65, 512x512x512, 7x9x0} x data {phi 0,
 *     1, 4; rows of op(A) times 1e300 / 1e-300; Inf / NaN in a row and a column, Inf * 0} x
 *     alpha {1, 0.5, -3, 0} x beta {0, 1, -0.75} (512^3: four pairs, no phi 1, batch entries the
 *     same data) x host / device pointers: every entry of every batch entry.
 *  4. reproducibility: DDOT (fast and slow path data), DGEMV N and T, DGEMM on two handles, one
 *     on a blocking stream and one on a non-blocking stream, issued interleaved without
 *     synchronisation, three times: all bitwise equal to each other and to the CPU.  Graph
 *     capture (non-blocking stream, global mode): a DGEMV and a device-pointer-mode DDOT of its
 *     output, captured after the same calls ran eagerly, replayed twice: bitwise the eager
 *     results (and the CPU's).
 *  5. the slow and direct paths: DDOT with products spanning 1e-300 .. 1e300 and with exponents
 *     spread over 2^-700 .. 2^700 (fast path spills); DGEMV with a few rows and columns that
 *     spill among fast ones; DGEMM with rows and columns that need more slices than the
 *     default cap (1e300 beside 1e-300, 1e250 beside 3e-250) among ordinary ones, and one where
 *     every row does.  The CPU must take those paths too (its statistics say so) and the GPU
 *     must give its bits.
 *
 * Needs EXBLAS_MODE=repro (or repro:<options> that keep the results correctly rounded).
 *
 * Here: main.  The groups are a harness shared with the dd test (dd.c): twin_cases.c: the
 * buffers and state every group shares, helpers, CPU work on threads, data, the CPU
 * implementation; twin_cases_vec.c: groups 0-2; twin_cases_gemm.c: group 3; twin_cases_paths.c:
 * groups 4 and 5; layout.c (shared with the df tests): the layouts and the calls. */
#include "twin_cases.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---------- main ---------- */

int main(void)
{
    gt_init("repro");
    const double t0 = gt_now();
    const char *mode = gt_mode();
    if (!gt_mode_is("repro"))
        gt_fatal("repro needs EXBLAS_MODE=repro[:options], not '%s'", mode ? mode : "(unset)");
    shared_setup();
    printf("repro: EXBLAS_MODE=%s against dfs_oz_*_host with the default parameters (max_splits "
           "%d, terms %d, lanes %d); %d CPU threads for the references\n", mode, oz.max_splits,
           oz.terms, oz.lanes, n_threads);

    engaged_group();
    dot_group();
    gemv_group();
    gemm_group();
    reproducibility_group();
    slow_group();

    shared_teardown();
    printf("repro: %.1f s in all\n", gt_now() - t0);
    return gt_finish();
}
