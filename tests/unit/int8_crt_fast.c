/* int8_crt_fast.c — test_int8's tests of the int8 engine's CPU twin (dfs_oz_crt_gemm_host with
 * fast = 1, engines/oz/host_crt.c; the scheme II arithmetic itself: oz_crt.c): every output
 * within the truncation's error bound of the correctly rounded one (dfs_oz_gemm_host), and truly
 * truncated with few moduli; Cauchy-Schwarz's equality case at every moduli count, rows rounded
 * to nearest (errors that do not add up), and results independent of how op(A) and op(B) are
 * stored. */
#include "ozfamily_test.h"

#include "../../engines/oz/crt.h"
#include "../../engines/oz/host_common.h"
#include "../common/gen.h"

/* The int8 engine's result (fast = 1): within the truncation's error of the exact value, from
 * a bound computed here from the data (|a - a'| < 2^(tau_a - b) per element, |a'| <= |a|; half
 * that for rows rounded to nearest, dfs_crt_rounds), plus the roundings; outputs with Inf or NaN operands correctly rounded (computed directly); with
 * few moduli most results differ from the correctly rounded ones (the truncation is real). */
START_TEST(crt_gemm_fast)
{
    rng r = rng_seed(94);
    static const int gens[] = {G_PHI0, G_PHI1, G_PHI4, G_PHI8, G_ERANGE, G_MIXED, G_SUBNORMAL};
    static const int64_t ks[] = {1, 7, 64, 300, 2000};
    long outputs = 0, differ_few = 0, outputs_few = 0, checked = 0;
    for (int it = 0; it < 210; it++) {
        const int g = gens[it % 7], mods = 8 + below(&r, 17);
        crt_case t;
        crt_case_run(&r, it, g, 10, ks, 5, mods, 1, &t);
        const int ta = t.ta, tb = t.tb;
        const int64_t m = t.m, n = t.n, k = t.k, lda = t.lda, ldb = t.ldb, ldc = t.ldc;
        const double alpha = t.alpha, beta = t.beta, *A = t.A, *B = t.B, *C0 = t.C0, *C1 = t.C1,
                     *C2 = t.C2;
        const int bits = dfs_crt_scale_bits(mods, k);
        for (int64_t c = 0; c < n; c++)
            for (int64_t i = 0; i < m; i++) {
                /* the row and column: top exponents, l1 norms, special values */
                double maxa = 0, maxb = 0, l1a = 0, l1b = 0, l1ab = 0;
                int special = 0;
                for (int64_t q = 0; q < k; q++) {
                    const double a = ta ? A[q + i * lda] : A[i + q * lda];
                    const double b = tb ? B[c + q * ldb] : B[q + c * ldb];
                    special |= !isfinite(a) || !isfinite(b);
                    maxa = fmax(maxa, fabs(a));
                    maxb = fmax(maxb, fabs(b));
                    l1a += fabs(a);
                    l1b += fabs(b);
                    l1ab += fabs(a) * fabs(b);
                }
                const double got = C2[i + c * ldc], cr = C1[i + c * ldc];
                outputs++;
                if (special || alpha == 0 || k == 0) {
                    if (!same_bits(got, cr))
                        ck_abort_msg("crt fast: C(%lld,%lld) with special operands or alpha 0: "
                                     "%a, correctly rounded %a", (long long)i, (long long)c, got,
                                     cr);
                    continue;
                }
                int ea = 0, eb = 0;
                frexp(maxa, &ea); /* |a| < 2^ea */
                frexp(maxb, &eb);
                const double cv = C0[i + c * ldc];
                /* rows of DFS_CRT_ROUND_BITS bits and more are rounded: half the error per
                 * element, but |a'| may exceed |a| by it (the product of the two errors) */
                const double h = bits >= DFS_CRT_ROUND_BITS ? 0.5 : 1.0;
                const double trunc = h * ldexp(ldexp(l1b, ea) + ldexp(l1a, eb), -bits) +
                                     (h < 1 ? ldexp((double)k, ea + eb - 2 * bits - 2) : 0.0);
                const double tol = fabs(alpha) * trunc * (1 + 0x1p-40) +
                                   0x1p-50 * (fabs(alpha) * l1ab + fabs(beta * cv) + fabs(cr)) +
                                   0x1p-1070;
                if (!isfinite(tol))
                    continue;
                checked++;
                if (!(got == cr || fabs(got - cr) <= tol))
                    ck_abort_msg("crt fast %s %c%c %lldx%lldx%lld moduli %d (%d bits) alpha %a "
                                 "beta %a C(%lld,%lld): %a, correctly rounded %a, allowed %a",
                                 gen_label(g), ta ? 'T' : 'N', tb ? 'T' : 'N', (long long)m,
                                 (long long)n, (long long)k, mods, bits, alpha, beta,
                                 (long long)i, (long long)c, got, cr, tol);
                if (mods <= 11 && k >= 7 && g <= G_PHI1 && alpha == 1 && beta == 0) {
                    outputs_few++;
                    differ_few += !same_bits(got, cr);
                }
            }
        crt_case_free(&t);
    }
    printf("crt fast: %ld outputs, %ld checked against the truncation bound; with <= 11 moduli "
           "%ld of %ld not correctly rounded\n", outputs, checked, differ_few, outputs_few);
    ck_assert_int_gt(checked, outputs / 2);
    ck_assert_int_gt(outputs_few, 50);
    ck_assert_int_gt(differ_few * 2, outputs_few);
}
END_TEST

/* The bits per row are as many as Cauchy-Schwarz allows and no more: A = a row of k equal
 * elements v, B = its transpose, so X = k a~^2 = the bound itself, with every moduli count.
 * The int8 engine's CPU twin must give k v^2 within the truncation error; one bit more per
 * element (dfs_crt_row_bits with L instead of L - 1) puts X above M/2 in about half the cases,
 * and the reconstruction then wraps. */
START_TEST(crt_gemm_fast_tight)
{
    static const int64_t ks[] = {1, 2, 3, 5, 64, 1000, 4097};
    static const double vs[] = {0.5, 0.75, 0.9999999, 1 - 0x1p-53, 3.0, 0x1.6a09e667f3bcdp-1};
    long cases = 0;
    for (int n = 2; n <= DFS_CRT_FAST_MODULI; n++)
        for (int ik = 0; ik < 7; ik++)
            for (int iv = 0; iv < 6; iv++) {
                const int64_t k = ks[ik];
                const double v = vs[iv];
                double *a = malloc((size_t)k * sizeof *a), c = 0;
                ck_assert_ptr_nonnull(a);
                for (int64_t q = 0; q < k; q++)
                    a[q] = v;
                dfs_oz_stats st;
                /* op(A) = a as 1 x k (lda 1), op(B) = a as k x 1 */
                dfs_oz_crt_gemm_host(0, 0, 1, 1, k, 1.0, a, 1, a, k, 0.0, &c, 1, n, 1, &st);
                const long double want = (long double)k * v * v;
                const int bits = dfs_crt_scale_bits(n, k);
                const long double tol = bits > 0 ? 2.0L * k * v * v * ldexpl(1.0L, 1 - bits) +
                                                       want * 0x1p-50L
                                                 : want;
                ck_assert_msg(fabsl((long double)c - want) <= tol,
                              "%d moduli, k %lld, v %a: %a, want %La (allowed %La)", n,
                              (long long)k, v, c, want, tol);
                cases++;
                free(a);
            }
    ck_assert_int_gt(cases, 900);
}
END_TEST

/* The int8 engine's result does not depend on how op(A) and op(B) are stored: a row whose l1
 * norm rounds differently when its 32 partial sums are merged in order rather than in the rows
 * pass's butterfly (so one order per layout would show), and C the same bits for A or A^T, B or
 * B^T stored. */
START_TEST(crt_gemm_fast_layout)
{
    enum { M = 3, N = 4, K = 64 };
    rng r = rng_seed(95);
    double A[M * K], At[K * M], B[K * N], Bt[N * K];
    gen_fill(&r, G_PHI1, A, M * K);
    gen_fill(&r, G_PHI1, B, K * N);
    /* row 0: 1 + 2^-51 (an even last bit) then 31 halves of its ulp, one per partial sum, and
     * zeros: merged in order, every addition ties back to 1 + 2^-51; in the butterfly the small
     * ones meet first and add up */
    for (int q = 0; q < K; q++)
        A[0 + q * M] = q == 0 ? 1.0 + 0x1p-51 : q < 32 ? 0x1p-53 : 0.0;
    dfs_oz_row seq = dfs_oz_row_init(), part[32];
    for (int i = 0; i < 32; i++) {
        part[i] = dfs_oz_row_init();
        for (int q = i; q < K; q += 32)
            dfs_oz_row_add(&part[i], A[0 + q * M]);
    }
    for (int i = 0; i < 32; i++)
        dfs_oz_row_merge(&seq, part[i]);
    for (int i = 0; i < M; i++)
        for (int q = 0; q < K; q++)
            At[q + i * K] = A[i + q * M];
    for (int q = 0; q < K; q++)
        for (int c = 0; c < N; c++)
            Bt[c + q * N] = B[q + c * K];
    const gemm_in gn = {0, 0, M, N, K, A, B, M, K}, gt = {1, 1, M, N, K, At, Bt, K, N};
    const dfs_oz_row rn = row_of_gpu(&gn, 0, 0), rt = row_of_gpu(&gt, 0, 0);
    ck_assert(rn.l1 != seq.l1); /* the orders differ on this row */
    ck_assert(same_bits(rn.l1, rt.l1));
    double C[4][M * N];
    for (int v = 0; v < 4; v++) {
        const int ta = v & 1, tb = v >> 1;
        dfs_oz_stats st;
        memset(C[v], 0, sizeof C[v]);
        dfs_oz_crt_gemm_host(ta, tb, M, N, K, 1.0, ta ? At : A, ta ? K : M, tb ? Bt : B,
                             tb ? N : K, 0.0, C[v], M, 8, 1, &st);
    }
    for (int v = 1; v < 4; v++)
        for (int e = 0; e < M * N; e++)
            if (!same_bits(C[v][e], C[0][e]))
                ck_abort_msg("crt fast: op layout %d: C[%d] = %a, with A and B as stored %a", v,
                             e, C[v][e], C[0][e]);
}
END_TEST

/* Rows of enough bits are rounded to nearest (dfs_crt_rounds), so the errors of products of one
 * sign do not add up: a row and a column of positive values in [1/2, 1), k = 1000 and 4096, with
 * 9 to 12 moduli (24 to 44 bits per element), multiplied by the int8 engine's CPU twin, against
 * the correctly rounded product (dfs_oz_gemm_host).  Each element's error is at most 2^-(b+1)
 * (b bits below 2^0): the error bound is half the truncation's, T/2 with T = 2^-b (sum a + sum
 * b), plus k 2^-2(b+1) for the product of the two errors.  Rounded, the errors are unbiased and
 * their sum stays near sqrt(k) 2^-b / 3; truncated, they all have one sign and add up to about
 * T/2.  The test asserts T/16: it fails if the rows are truncated. */
START_TEST(crt_gemm_fast_rounds)
{
    rng r = rng_seed(97);
    static const int64_t ks[] = {1000, 4096};
    long cases = 0;
    double worst = 0; /* the largest error in units of T */
    for (int mods = 9; mods <= 12; mods++)
        for (int ik = 0; ik < 2; ik++)
            for (int rep = 0; rep < 8; rep++) {
                const int64_t k = ks[ik];
                double *a = malloc((size_t)k * sizeof *a), *b = malloc((size_t)k * sizeof *b);
                ck_assert(a && b);
                double sa = 0, sb = 0;
                for (int64_t q = 0; q < k; q++) {
                    a[q] = 0.5 + 0.5 * unif(&r);
                    b[q] = 0.5 + 0.5 * unif(&r);
                    sa += a[q];
                    sb += b[q];
                }
                const int bits = dfs_crt_scale_bits(mods, k); /* every row gets at least these */
                ck_assert_int_ge(bits, DFS_CRT_ROUND_BITS);
                double c = 0, cr = 0;
                dfs_oz_stats st;
                /* op(A) = a as 1 x k (lda 1), op(B) = b as k x 1 */
                dfs_oz_crt_gemm_host(0, 0, 1, 1, k, 1.0, a, 1, b, k, 0.0, &c, 1, mods, 1, &st);
                const dfs_oz_params p = dfs_oz_default_params();
                dfs_oz_gemm_host(&p, 0, 0, 1, 1, k, 1.0, a, 1, b, k, 0.0, &cr, 1, &st);
                const double T = ldexp(sa + sb, -bits); /* values below 2^0: tau = 0 */
                const double bound = T / 2 + ldexp((double)k, -2 * (bits + 1)) + 0x1p-52 * cr;
                const double err = fabs(c - cr);
                ck_assert_msg(err <= bound, "%d moduli, k %lld: error %a above the bound %a",
                              mods, (long long)k, err, bound);
                ck_assert_msg(err <= T / 16 + 0x1p-52 * cr,
                              "%d moduli, k %lld: error %a = %.3f T: the rows' errors add up "
                              "(truncated, not rounded?)", mods, (long long)k, err, err / T);
                worst = fmax(worst, err / T);
                cases++;
                free(a);
                free(b);
            }
    printf("crt fast rounds: %ld cases, largest error %.4f T (T/2: the bound; truncation gives "
           "about T/2)\n", cases, worst);
    ck_assert_int_eq(cases, 64);
}
END_TEST

void int8_crt_fast_tests(TCase *t)
{
    tcase_add_test(t, crt_gemm_fast);
    tcase_add_test(t, crt_gemm_fast_tight);
    tcase_add_test(t, crt_gemm_fast_layout);
    tcase_add_test(t, crt_gemm_fast_rounds);
}
