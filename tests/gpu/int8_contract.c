/* int8_contract — the int8 engine's contract with its moduli chosen from the data
 * (EXBLAS_MODE=int8, no moduli option): every output within native FP64's own bound of the
 * exact value (engines/oz/crt_check.h: gamma_{k+2} (|alpha| S + |beta c0|) + (k + 4) 2^-1074
 * (|alpha| + 1)), call after call of one shape while the engine adapts its moduli or turns to
 * native, on every hostile data class.
 *
 * For each data class (phi 0, 1, 2, 4, 8; 1e+-300 mixed by columns with zero partners for the
 * even output columns; products that underflow; subnormal results; zero rows and columns) and
 * two shapes (96 x 80 x 700: every output checked; 1024 x 768 x 3000: 4096 sampled outputs),
 * then 8192^3 (phi 0, 8, mixed; 4096 sampled outputs), five calls of
 * cublasDgemm_v2 (NN, then TN, alpha and beta varied) on the same data, each waited for, so that
 * the engine's counters land between calls.  Checked:
 *   - every checked output within the bound of RN(exact) (reprohost.h) plus u |RN(exact)|;
 *   - on sm_90, where the cost model was measured: the two small shapes run natively on every
 *     call (native is faster there whatever the data); at 8192^3, phi 0 stays on int8
 *     (some output differs from real cuBLAS's): narrow data must not send it native; and phi 8
 *     and mixed run natively on most calls (3 of 5: the result is real cuBLAS's bit for bit), as
 *     the counts say native is faster there (a trial of int8 between pauses, and the slots carry
 *     over from the class before);
 *   - with EXBLAS_MODE=int8:native=never (the test int8_contract_never), the small shapes only:
 *     every output on int8, phi 0 and 1 not native's bits;
 * and the info log (EXBLAS_LOG=info) says what was repaired and chosen: printed.
 * Exit 0: passed; 1: an output outside the bound, or a wrong path; 77: no GPU. */
#include "common.h"

#include "../../include/reprohost.h"
#include "../common/gen.h"

#include <cublas_v2.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { D_PHI0, D_PHI1, D_PHI2, D_PHI4, D_PHI8, D_MIXED, D_UNDER, D_SUBN, D_ZEROS, D_COUNT };
static const char *const dname[D_COUNT] = {"phi0",  "phi1",  "phi2",      "phi4",    "phi8",
                                           "mixed", "under", "subnormal", "zerorows"};

/* op(A) m x k and op(B) k x n of class d, column-major, tight. */
static void make(rng *r, int d, int64_t m, int64_t n, int64_t k, double *A, double *B)
{
    static const double phis[] = {0, 1, 2, 4, 8};
    for (int64_t q = 0; q < k; q++)
        for (int64_t i = 0; i < m; i++)
            A[i + q * m] = d <= D_PHI8    ? gen_phi(r, phis[d])
                           : d == D_MIXED ? gen_sign_rand(r, (1 + unif(r)) * (q % 8 ? 1e-300 : 1e300))
                           : d == D_UNDER ? gen_sign_rand(r, (1 + unif(r)) * 1e-160)
                           : d == D_SUBN  ? ldexp(gen_phi(r, 1), -1000)
                           : i % 3 == 0   ? 0.0
                                          : gen_phi(r, 2);
    for (int64_t c = 0; c < n; c++)
        for (int64_t q = 0; q < k; q++)
            B[q + c * k] = d <= D_PHI8    ? gen_phi(r, phis[d])
                           : d == D_MIXED ? (q % 8 == 0 && c % 2 == 0 ? 0.0 : gen_sign_rand(r, 1 + unif(r)))
                           : d == D_UNDER ? gen_sign_rand(r, (1 + unif(r)) * 1e-160)
                           : d == D_SUBN  ? ldexp(gen_phi(r, 1), -40)
                           : c % 4 == 1   ? 0.0
                                          : gen_phi(r, 2);
}

/* The bound for output (i, c) against want = RN(exact); A tight m x k, B tight k x n. */
static long double allowance(int64_t m, int64_t k, const double *A, const double *B, int64_t i,
                             int64_t c, double alpha, double beta, double c0, double want)
{
    long double S = 0;
    for (int64_t q = 0; q < k; q++)
        S += fabsl((long double)A[i + q * m] * B[q + c * k]);
    const long double u = 0x1p-53L, j = (long double)(k + 2), gamma = j * u / (1 - j * u);
    return gamma * (fabsl((long double)alpha) * S * (1 + 0x1p-60L) + fabsl((long double)beta * c0)) +
           (j + 2) * 0x1p-1074L * (fabsl((long double)alpha) + 1) +
           u * fabsl((long double)want) * (1 + 0x1p-50L);
}

/* What the calls of a shape must have run on: int8 on narrow data (and, unless never, natively
 * on most calls of wide data); natively (the cost model gives the shape to native); or not
 * checked (a GPU without a measured model). */
enum { PATH_INT8, PATH_INT8_NEVER, PATH_NATIVE, PATH_ANY };

static void run_class(cublasHandle_t h, int d, int64_t m, int64_t n, int64_t k, int sampled,
                      int path)
{
    rng r = rng_seed(4242 + (uint64_t)d);
    double *A = malloc((size_t)(m * k) * sizeof *A), *At = malloc((size_t)(m * k) * sizeof *At);
    double *B = malloc((size_t)(k * n) * sizeof *B), *C0 = malloc((size_t)(m * n) * sizeof *C0);
    double *got = malloc((size_t)(m * n) * sizeof *got), *real = malloc((size_t)(m * n) * sizeof *real);
    make(&r, d, m, n, k, A, B);
    for (int64_t i = 0; i < m; i++)
        for (int64_t q = 0; q < k; q++)
            At[q + i * k] = A[i + q * m];
    for (int64_t i = 0; i < m * n; i++)
        C0[i] = gen_phi(&r, 1);
    double *dA = gt_dmalloc((size_t)(m * k) * 8), *dAt = gt_dmalloc((size_t)(m * k) * 8);
    double *dB = gt_dmalloc((size_t)(k * n) * 8), *dC = gt_dmalloc((size_t)(m * n) * 8);
    gt_h2d(dA, A, (size_t)(m * k) * 8);
    gt_h2d(dAt, At, (size_t)(m * k) * 8);
    gt_h2d(dB, B, (size_t)(k * n) * 8);
    static const double alphas[] = {1.0, 1.0, -0.5, 1.0, 2.0}, betas[] = {0.0, 0.0, 0.75, 0.0, -1.0};
    int differs_from_native = 0, native_calls = 0;
    for (int call = 0; call < 5; call++) {
        const int t = call % 2; /* NN, then TN on A stored transposed */
        const double alpha = alphas[call], beta = betas[call];
        gt_case("%s %lldx%lldx%lld call %d %s alpha %g beta %g", dname[d], (long long)m,
                (long long)n, (long long)k, call, t ? "TN" : "NN", alpha, beta);
        for (int real_ = 1; real_ >= 0; real_--) {
            gt_h2d(dC, C0, (size_t)(m * n) * 8);
            const cublasOperation_t ta = t ? CUBLAS_OP_T : CUBLAS_OP_N;
            const cublasStatus_t st =
                real_ ? gt_real.Dgemm(h, ta, CUBLAS_OP_N, (int)m, (int)n, (int)k, &alpha,
                                      t ? dAt : dA, t ? (int)k : (int)m, dB, (int)k, &beta, dC, (int)m)
                      : cublasDgemm(h, ta, CUBLAS_OP_N, (int)m, (int)n, (int)k, &alpha,
                                    t ? dAt : dA, t ? (int)k : (int)m, dB, (int)k, &beta, dC, (int)m);
            if (st != CUBLAS_STATUS_SUCCESS)
                gt_fail("%scublasDgemm: status %s", real_ ? "real " : "", gt_status_name(st));
            GT_CUDA(cudaDeviceSynchronize());
            gt_d2h(real_ ? real : got, dC, (size_t)(m * n) * 8);
        }
        const int native = !memcmp(got, real, (size_t)(m * n) * 8);
        differs_from_native |= !native;
        native_calls += native;
        uint64_t seed = 99 + (uint64_t)call;
        const int64_t count = sampled ? 4096 : m * n;
        long bad = 0;
        for (int64_t s = 0; s < count; s++) {
            const int64_t i = sampled ? (int64_t)(gt_rand(&seed) % (uint64_t)m) : s % m;
            const int64_t c = sampled ? (int64_t)(gt_rand(&seed) % (uint64_t)n) : s / m;
            double want = C0[i + c * m];
            repro_dgemm_host('T', 'N', 1, 1, k, alpha, At + i * k, k, B + c * k, k, beta, &want, 1);
            const double g = got[i + c * m];
            if (!isfinite(want) || !isfinite(g)) {
                if (!(isnan(want) && isnan(g)) && want != g && !bad++)
                    gt_fail("C(%lld,%lld) = %a, RN(exact) %a", (long long)i, (long long)c, g, want);
                continue;
            }
            const long double tol = allowance(m, k, A, B, i, c, alpha, beta, C0[i + c * m], want);
            if (!(fabsl((long double)g - want) <= tol) && !bad++)
                gt_fail("C(%lld,%lld) = %a, RN(exact) %a: error %La above native's bound %La%s",
                        (long long)i, (long long)c, g, want, fabsl((long double)g - want), tol,
                        native ? " (the call ran natively)" : "");
        }
        if (bad)
            gt_note("%ld of %lld checked outputs outside the bound", bad, (long long)count);
    }
    gt_case("%s %lldx%lldx%lld: the path", dname[d], (long long)m, (long long)n, (long long)k);
    if ((path == PATH_INT8 || path == PATH_INT8_NEVER) && (d == D_PHI0 || d == D_PHI1) &&
        !differs_from_native)
        gt_fail("narrow data: every call gave native's bits (the engine turned native)");
    if (path == PATH_INT8 && sampled && (d == D_PHI8 || d == D_MIXED) && native_calls < 3)
        gt_fail("wide data: %d of 5 calls ran natively (native is faster there; a trial of int8 "
                "now and then, most calls native)", native_calls);
    if (path == PATH_NATIVE && native_calls < 5)
        gt_fail("%d of 5 calls ran on int8 where native is faster by the cost model",
                5 - native_calls);
    cudaFree(dA), cudaFree(dAt), cudaFree(dB), cudaFree(dC);
    free(A), free(At), free(B), free(C0), free(got), free(real);
}

int main(void)
{
    char log_path[64];
    snprintf(log_path, sizeof log_path, "/tmp/dfshim-int8c-%d.log", (int)getpid());
    setenv("EXBLAS_LOG", "info", 1);
    setenv("EXBLAS_LOG_FILE", log_path, 1);
    gt_init("int8_contract");
    if (!gt_mode_is("int8") || gt_mode_option("moduli"))
        gt_fatal("run with EXBLAS_MODE=int8 (the moduli chosen from the data)");
    const char *nat = gt_mode_option("native");
    const int never = nat && !strcmp(nat, "never");
    /* the cost model's numbers were measured on sm_90 (H100, H200: full FP64) */
    struct cudaDeviceProp prop;
    GT_CUDA(cudaGetDeviceProperties(&prop, 0));
    const int modelled = prop.major == 9 && prop.minor == 0;
    const int small_path = never ? PATH_INT8_NEVER : modelled ? PATH_NATIVE : PATH_ANY;
    cublasHandle_t h;
    GT_CUBLAS(cublasCreate(&h));
    gt_group("every output within native's bound, 96x80x700");
    for (int d = 0; d < D_COUNT; d++)
        run_class(h, d, 96, 80, 700, 0, small_path);
    gt_group("sampled outputs within native's bound, 1024x768x3000");
    for (int d = 0; d < D_COUNT; d++)
        run_class(h, d, 1024, 768, 3000, 1, small_path);
    if (!never) { /* a shape the model tries on int8: the data decide */
        gt_group("sampled outputs within native's bound, 8192^3");
        static const int big[] = {D_PHI0, D_PHI8, D_MIXED};
        for (size_t i = 0; i < sizeof big / sizeof big[0]; i++)
            run_class(h, big[i], 8192, 8192, 8192, 1, modelled ? PATH_INT8 : PATH_ANY);
    }
    gt_end_group();
    cublasDestroy(h);
    /* what the engine said it did */
    FILE *f = fopen(log_path, "r");
    char line[512];
    int lines = 0;
    while (f && fgets(line, sizeof line, f) && lines < 60)
        if (strstr(line, "int8") || strstr(line, "native"))
            printf("  log: %s", line), lines++;
    if (f)
        fclose(f);
    unlink(log_path);
    return gt_finish();
}
