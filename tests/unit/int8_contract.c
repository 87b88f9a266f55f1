/* int8_contract.c — test_int8's tests of the int8 engine's contract (engines/oz/crt_check.h) on
 * its CPU twin (dfs_oz_crt_gemm_host with fast = 1, the GPU's bits) and of its choice rule
 * (engines/int8/rule.c):
 *   fast_contract   every output, on every hostile data class (phi 0-8, erange, 1e+-300 mixed by
 *                   columns with zero partners, products that underflow, subnormal results,
 *                   GenDot sums up to condition 1e300, zero rows and columns, Inf/NaN), with
 *                   13, 15 and 20 moduli and the default, all ops, alpha/beta: within native
 *                   FP64's own bound of the exact value, gamma_{k+2} (|alpha| S + |beta c0|) +
 *                   (k + 4) 2^-1074 (|alpha| + 1), S = sum |a b| (the MPFR reference's RN(c)
 *                   and S in long double); special operands: the correctly rounded IEEE result.  The repair
 *                   must have been needed on the wide classes and not on phi 0 with the default
 *                   moduli.  Removing the check (dfs_crt_fast_ok always 1) fails it on phi 8,
 *                   mixed and GenDot data.
 *   choice_rule     dfs_int8_next_moduli on made-up counts.
 *   cost_model      dfs_int8_breakeven against DGEMM times measured on an H200;
 *   karatsuba_model dfs_int8_breakeven_z (ZGEMM by three products) against an H100's ZGEMM and
 *                   the four products' model; the limit of its inner dimension. */
#include "ozfamily_test.h"

#include "../../engines/int8/rule.h"
#include "../../engines/oz/crt.h"
#include "../common/gen.h"

enum { D_PHI0, D_PHI1, D_PHI2, D_PHI4, D_PHI6, D_PHI8, D_ERANGE, D_MIXED, D_UNDER, D_SUBN,
       D_GENDOT, D_ZEROS, D_SPECIAL, D_COUNT };
static const char *const dname[D_COUNT] = {"phi0",  "phi1",    "phi2",   "phi4",  "phi6",
                                           "phi8",  "erange",  "mixed",  "under", "subnormal",
                                           "gendot", "zerorows", "special"};

/* gen_dot's running sum in long double (its rounding only shapes the data; the reference is
 * MPFR's). */
static void ld_add(void *ctx, double x, double y)
{
    *(long double *)ctx += (long double)x * y;
}
static double ld_rounded(void *ctx)
{
    return (double)*(long double *)ctx;
}

/* op(A) m x k (tight, column-major) and op(B) k x n of data class d. */
static void make(rng *r, int d, int64_t m, int64_t n, int64_t k, double *A, double *B)
{
    static const double phis[] = {0, 1, 2, 4, 6, 8};
    for (int64_t q = 0; q < k; q++)
        for (int64_t i = 0; i < m; i++) {
            double v;
            switch (d) {
            case D_ERANGE: v = gen_erange(r, 16); break;
            case D_MIXED: v = gen_sign_rand(r, (1.0 + unif(r)) * (q % 8 == 0 ? 1e300 : 1e-300)); break;
            case D_UNDER: v = gen_sign_rand(r, (1.0 + unif(r)) * 1e-160); break;
            case D_SUBN: v = ldexp(gen_phi(r, 1), -1000); break;
            case D_ZEROS: v = i % 3 == 0 ? 0.0 : gen_phi(r, 2); break;
            case D_SPECIAL: v = below(r, 97) == 0 ? (below(r, 2) ? INFINITY : NAN) : gen_phi(r, 1); break;
            default: v = d <= D_PHI8 ? gen_phi(r, phis[d]) : gen_phi(r, 1); break;
            }
            A[i + q * m] = v;
        }
    for (int64_t c = 0; c < n; c++)
        for (int64_t q = 0; q < k; q++) {
            double v;
            switch (d) {
            case D_ERANGE: v = gen_erange(r, 16); break;
            /* zero on A's big columns for the even output columns: only tiny products there */
            case D_MIXED: v = q % 8 == 0 && c % 2 == 0 ? 0.0 : gen_sign_rand(r, 1.0 + unif(r)); break;
            case D_UNDER: v = gen_sign_rand(r, (1.0 + unif(r)) * 1e-160); break;
            case D_SUBN: v = ldexp(gen_phi(r, 1), -40); break;
            case D_ZEROS: v = c % 4 == 1 ? 0.0 : gen_phi(r, 2); break;
            case D_SPECIAL: v = gen_phi(r, 1); break;
            default: v = d <= D_PHI8 ? gen_phi(r, phis[d]) : gen_phi(r, 1); break;
            }
            B[q + c * k] = v;
        }
    if (d == D_GENDOT) /* row i of op(A) and column i of op(B): an ill-conditioned dot product */
        for (int64_t i = 0; i < m && i < n && k >= 2; i++) {
            double *x = malloc((size_t)k * sizeof *x), *y = malloc((size_t)k * sizeof *y);
            long double s = 0;
            const gen_exact_sum es = {ld_add, ld_rounded, &s};
            gen_dot(r, (int)k, pow(10.0, 10 * (double)(i % 31)), x, y, &es);
            for (int64_t q = 0; q < k; q++) {
                A[i + q * m] = x[q];
                B[q + i * k] = y[q];
            }
            free(x), free(y);
        }
}

/* The contract's allowance for output (i, c): native's gamma_{k+2} (|alpha| S + |beta c0|) +
 * (k + 4) 2^-1074 (|alpha| + 1), with the MPFR reference want = RN(c) standing in for c (|c -
 * want| <= u |want| more). */
static long double allowance(int64_t k, const double *a, int64_t sa, const double *b, int64_t sb,
                             double alpha, double beta, double c0, double want)
{
    long double S = 0;
    for (int64_t q = 0; q < k; q++)
        S += fabsl((long double)a[q * sa] * b[q * sb]);
    const long double u = 0x1p-53L, j = (long double)(k + 2);
    const long double gamma = j * u / (1 - j * u);
    return gamma * (fabsl((long double)alpha) * S * (1 + 0x1p-60L) + fabsl((long double)beta * c0)) +
           (j + 2) * 0x1p-1074L * (fabsl((long double)alpha) + 1) +
           u * fabsl((long double)want) * (1 + 0x1p-50L);
}

START_TEST(fast_contract)
{
    static const int64_t ks[] = {1, 2, 7, 64, 500, 3000};
    static const int mods[] = {13, 15, 20, 0};
    static const double alphas[] = {1.0, -0.75, 3.0}, betas[] = {0.0, 0.5, -1.0};
    rng r = rng_seed(2611);
    long outputs = 0, repaired_wide = 0, repaired_phi0 = 0, special = 0;
    for (int d = 0; d < D_COUNT; d++)
        for (int ik = 0; ik < 6; ik++)
            for (int im = 0; im < 4; im++) {
                const int64_t k = ks[ik], m = 5 + below(&r, 8), n = 4 + below(&r, 8);
                const int ta = below(&r, 2), tb = below(&r, 2);
                const double alpha = alphas[below(&r, 3)], beta = betas[below(&r, 3)];
                const int N = mods[im] ? mods[im] : dfs_crt_int8_moduli(0, k);
                double *A = malloc((size_t)(m * k) * sizeof *A), *B = malloc((size_t)(k * n) * sizeof *B);
                double *C0 = malloc((size_t)(m * n) * sizeof *C0), *C = malloc((size_t)(m * n) * sizeof *C);
                make(&r, d, m, n, k, A, B);
                for (int64_t i = 0; i < m * n; i++)
                    C0[i] = C[i] = gen_phi(&r, 2);
                /* stored as the ops say: op(A) = A^T when ta (lda = k), op(B) = B^T when tb */
                double *As = malloc((size_t)(m * k) * sizeof *As), *Bs = malloc((size_t)(k * n) * sizeof *Bs);
                for (int64_t i = 0; i < m; i++)
                    for (int64_t q = 0; q < k; q++)
                        As[ta ? q + i * k : i + q * m] = A[i + q * m];
                for (int64_t q = 0; q < k; q++)
                    for (int64_t c = 0; c < n; c++)
                        Bs[tb ? c + q * n : q + c * k] = B[q + c * k];
                dfs_oz_stats st;
                dfs_oz_crt_gemm_host(ta, tb, m, n, k, alpha, As, ta ? k : m, Bs, tb ? n : k, beta,
                                     C, m, N, 1, &st);
                if (d == D_PHI0 && !mods[im])
                    repaired_phi0 += st.repaired;
                else if (d >= D_PHI6 && d <= D_GENDOT)
                    repaired_wide += st.repaired;
                for (int64_t c = 0; c < n; c++)
                    for (int64_t i = 0; i < m; i++) {
                        const double got = C[i + c * m], c0 = C0[i + c * m];
                        const double want = reference(k, A + i, m, B + c * k, 1, alpha, beta, c0);
                        outputs++;
                        if (!isfinite(want) || !isfinite(got)) { /* IEEE, computed exactly */
                            special++;
                            if (!same(got, want))
                                ck_abort_msg("int8 contract %s: C(%lld,%lld) = %a, want %a",
                                             dname[d], (long long)i, (long long)c, got, want);
                            continue;
                        }
                        const long double tol =
                            allowance(k, A + i, m, B + c * k, 1, alpha, beta, c0, want);
                        if (!(fabsl((long double)got - want) <= tol))
                            ck_abort_msg("int8 contract %s %c%c %lldx%lldx%lld, %d moduli, alpha "
                                         "%g beta %g: C(%lld,%lld) = %a, RN(exact) %a, error "
                                         "%La above native's bound %La",
                                         dname[d], ta ? 'T' : 'N', tb ? 'T' : 'N', (long long)m,
                                         (long long)n, (long long)k, N, alpha, beta,
                                         (long long)i, (long long)c, got, want,
                                         fabsl((long double)got - want), tol);
                    }
                free(A), free(B), free(C0), free(C), free(As), free(Bs);
            }
    printf("int8 contract: %ld outputs within native's bound (%ld special); repaired on wide "
           "data %ld, on phi 0 with the default moduli %ld\n",
           outputs, special, repaired_wide, repaired_phi0);
    ck_assert_int_gt(repaired_wide, 100); /* the check and the repair were needed */
    ck_assert_int_eq(repaired_phi0, 0);   /* and not on narrow data */
    ck_assert_int_gt(special, 0);
}
END_TEST

/* A record of `outputs` outputs: frac[n] of them need n moduli (n = 25: none suffices). */
static dfs_crt_fast_stats record(unsigned long long outputs, const double *frac)
{
    dfs_crt_fast_stats s;
    memset(&s, 0, sizeof s);
    for (int n = 0; n < DFS_CRT_NEED_BINS && n <= DFS_CRT_FAST_MODULI + 1; n++)
        s.need[n] = (unsigned long long)(frac[n] * (double)outputs);
    return s;
}

START_TEST(choice_rule)
{
    const unsigned long long out = 1ull << 26; /* 8192 x 8192 */
    double f[DFS_CRT_NEED_BINS] = {0};
    int native;
    /* narrow data: everything passes with 13; two fewer a call from 15 */
    f[13] = 1.0;
    dfs_crt_fast_stats s = record(out, f);
    ck_assert_int_eq(dfs_int8_next_moduli(&s, out, 15, 18.0, &native), 13);
    ck_assert_int_eq(native, 0);
    ck_assert_int_eq(dfs_int8_next_moduli(&s, out, 17, 18.0, &native), 15);
    /* a few outputs (below 2^-16 of them) need more: ignored (the repair takes them) */
    f[13] = 1.0 - 0x1p-18;
    f[20] = 0x1p-18;
    s = record(out, f);
    ck_assert_int_eq(dfs_int8_next_moduli(&s, out, 15, 18.0, &native), 13);
    /* 1% need 18: 18 moduli; slower than native where the break-even is 18, faster at 23 */
    f[13] = 0.99;
    f[20] = 0;
    f[18] = 0.01;
    s = record(out, f);
    ck_assert_int_eq(dfs_int8_next_moduli(&s, out, 15, 18.0, &native), 18);
    ck_assert_int_eq(native, 1);
    ck_assert_int_eq(dfs_int8_next_moduli(&s, out, 15, 23.0, &native), 18);
    ck_assert_int_eq(native, 0);
    /* a tenth need more than 24: the repair would cost more than native, but FP64-starved
     * parts never go native */
    f[18] = 0;
    f[13] = 0.9;
    f[DFS_CRT_FAST_MODULI + 1] = 0.1;
    s = record(out, f);
    ck_assert_int_eq(dfs_int8_next_moduli(&s, out, 15, 23.0, &native), DFS_CRT_FAST_MODULI);
    ck_assert_int_eq(native, 1);
    dfs_int8_next_moduli(&s, out, 15, DFS_INT8_NEVER_NATIVE, &native);
    ck_assert_int_eq(native, 0);
    /* narrow data on a shape whose break-even is 10: native, whatever the default */
    f[DFS_CRT_FAST_MODULI + 1] = 0;
    f[13] = 1.0;
    s = record(out, f);
    dfs_int8_next_moduli(&s, out, 15, 10.0, &native);
    ck_assert_int_eq(native, 1);
}
END_TEST

/* The cost model (dfs_int8_breakeven with sm_90's numbers) against times measured on an H200
 * (2026-11-26, exblas-bench --phi 0, ms): native cuBLAS and the int8 engine with 14 and 18
 * moduli.  Where one side was faster by more than 5%, the model must say so at that count. */
static const struct {
    int64_t m, n, k;
    double native, int8_14, int8_18;
} measured[] = {
    {2048, 2048, 2048, 0.303, 0.576, 0.691},       {4096, 4096, 4096, 2.294, 2.534, 3.132},
    {6144, 6144, 6144, 7.567, 7.008, 8.758},       {8192, 8192, 8192, 18.77, 15.71, 19.83},
    {12288, 12288, 12288, 66.40, 51.58, 64.32},    {16384, 16384, 16384, 160.4, 110.5, 136.6},
    {16384, 16384, 1024, 9.242, 20.19, 24.69},     {16384, 16384, 2048, 18.78, 24.44, 30.03},
    {16384, 16384, 4096, 39.57, 36.07, 43.71},     {16384, 2048, 16384, 20.03, 15.41, 19.51},
    {2048, 16384, 16384, 19.83, 15.76, 20.03},     {8192, 8192, 2048, 4.579, 6.115, 7.567},
    {8192, 8192, 4096, 9.101, 8.869, 11.00},       {4096, 4096, 16384, 9.474, 7.956, 10.04},
    {1024, 1024, 65536, 2.314, 3.739, 4.683},      {16384, 4096, 16384, 39.75, 30.28, 38.59},
    {8192, 8192, 16384, 40.21, 27.97, 38.01},
};

START_TEST(cost_model)
{
    const dfs_oz_tuning *t = dfs_oz_tuning_of(9, 0);
    int checked = 0;
    for (size_t i = 0; i < sizeof measured / sizeof measured[0]; i++) {
        const double b = dfs_int8_breakeven(t, 0, measured[i].m, measured[i].n, measured[i].k);
        const int mod[2] = {14, 18};
        const double t8[2] = {measured[i].int8_14, measured[i].int8_18};
        for (int j = 0; j < 2; j++) {
            const double r = t8[j] / measured[i].native;
            if (r > 0.95 && r < 1.05)
                continue; /* a tie: either is right */
            ck_assert_msg((mod[j] < b) == (r < 1.0),
                          "%lld x %lld x %lld, %d moduli: int8/native %.2f, model break-even %.1f",
                          (long long)measured[i].m, (long long)measured[i].n,
                          (long long)measured[i].k, mod[j], r, b);
            checked++;
        }
    }
    ck_assert_int_ge(checked, 28);
    /* no trial where even two fewer than the default moduli lose; FP64-starved parts: always */
    ck_assert(!dfs_int8_worth_trying(dfs_int8_breakeven(t, 0, 4096, 4096, 4096), 15));
    ck_assert(dfs_int8_worth_trying(dfs_int8_breakeven(t, 0, 8192, 8192, 8192), 15));
    ck_assert(dfs_int8_breakeven(t, 0, 64, 64, 64) == 0.0);
    ck_assert(!dfs_int8_worth_trying(0.0, 15));
    ck_assert(dfs_int8_breakeven(t, 1, 64, 64, 64) == DFS_INT8_NEVER_NATIVE);
    ck_assert(dfs_int8_worth_trying(DFS_INT8_NEVER_NATIVE, 15));
}
END_TEST

/* A complex product by three products a modulus (dfs_int8_breakeven_z): against ZGEMM times
 * measured on an H100 (2026-11-27, exblas-bench --phi 0, ms, native cuBLAS / the int8 engine
 * with 15 moduli): 8192^3 84.1 / 54.8, where the model must choose int8; and against the real
 * representation's four (dfs_int8_breakeven of m x 2n x 2k): cheaper on large squares, by at
 * most the GEMMs' 4/3.  The limit of the inner dimension: the int32 room of Im = P1 - P2 - P3. */
START_TEST(karatsuba_model)
{
    const dfs_oz_tuning *t = dfs_oz_tuning_of(9, 0);
    ck_assert(15 < dfs_int8_breakeven_z(t, 0, 8192, 8192, 8192));
    for (int64_t n = 4096; n <= 16384; n *= 2) {
        const double bz = dfs_int8_breakeven_z(t, 0, n, n, n) + 1.0,
                     br = dfs_int8_breakeven(t, 0, n, 2 * n, 2 * n) + 1.0;
        ck_assert_msg(bz > 1.05 * br && bz < 4.0 / 3.0 * br, "n %lld: %.2f against %.2f",
                      (long long)n, bz, br);
    }
    ck_assert(dfs_int8_breakeven_z(t, 1, 64, 64, 64) == DFS_INT8_NEVER_NATIVE);
    const int64_t room = ((int64_t)1 << 31) - ((int64_t)1 << 14);
    ck_assert(3 * (int64_t)DFS_CRT_ZK_MAX_KP * 16384 <= room);
    ck_assert(3 * ((int64_t)DFS_CRT_ZK_MAX_KP + 16) * 16384 > room);
    ck_assert(dfs_crt_zk_fits(2 * (int64_t)DFS_CRT_ZK_MAX_KP));
    ck_assert(!dfs_crt_zk_fits(2 * (int64_t)DFS_CRT_ZK_MAX_KP + 2));
    ck_assert(dfs_crt_zk_fits(2) && !dfs_crt_zk_fits(0));
}
END_TEST

void int8_contract_tests(TCase *t)
{
    tcase_add_test(t, fast_contract);
    tcase_add_test(t, choice_rule);
    tcase_add_test(t, cost_model);
    tcase_add_test(t, karatsuba_model);
}
