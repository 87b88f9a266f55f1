/* repro_finish.c — test_repro's test of the GPU DGEMM's per-output step, run on the CPU:
 * dfs_oz_finish_output (engines/repro/finish.h, the body of the finish kernel) on slice
 * products computed here.  Every output it writes must be the correctly rounded result of the
 * CPU implementation (dfs_oz_gemm_host, itself tested against MPFR), whatever the slices and
 * pairs taken (d), alpha and beta; an output it does not write must be left as it was; with
 * every pair of enough slices it must decide every output; and it must decide most outputs of
 * ordinary data with the pairs the GPU would take. */
#include "ozfamily_test.h"

#include "../../engines/repro/finish.h"
#include "../common/gen.h"

typedef struct {
    int64_t m, n, k;
    double *A, *B; /* op(A) = A (m x k, lda = m), op(B) = B (k x n, ldb = k) */
    int *tauA, *needA, *tauB, *needB;
    double *nrmA, *nrmB;
} fin_case;

/* The rows pass of the GPU, on the CPU. */
static void rows_info(const double *X, int64_t rows, int64_t k, int64_t rs, int64_t qs, int beta,
                      int *tau, int *need, double *nrm)
{
    for (int64_t r = 0; r < rows; r++) {
        dfs_oz_row ri = dfs_oz_row_init();
        for (int64_t q = 0; q < k; q++)
            dfs_oz_row_add(&ri, X[r * rs + q * qs]);
        tau[r] = ri.tau;
        need[r] = ri.special ? DFS_OZ_SPECIAL : dfs_oz_row_slices(ri, beta);
        nrm[r] = dfs_oz_row_l1(ri, k);
    }
}

static double slice_of(double v, int tau, int beta, int i)
{
    return tau == DFS_OZ_NONE_TAU || !dfs_d_is_finite(v) ? 0.0 : dfs_oz_slice(v, tau, beta, i);
}

/* Runs the finish on every output with sa, sb slices and the pairs i + j <= d; counts what it
 * did into cnt[3] (written, listed, undecided) and fails on a wrong or touched output. */
static void run_finish(const fin_case *f, int sa, int sb, int d, double alpha, double beta,
                       const double *C0, const double *Cref, long cnt[3])
{
    const int64_t m = f->m, n = f->n, k = f->k;
    const int bb = dfs_oz_beta(k);
    dfs_oz_finish_args a;
    memset(&a, 0, sizeof a);
    int pairs = 0;
    for (int i = 0; i < sa; i++) {
        a.poff[i] = (int64_t)pairs * m * n;
        pairs += dfs_oz_cols(sb, d, i);
    }
    double *P = calloc((size_t)(pairs > 0 ? pairs : 1) * (size_t)(m * n), sizeof *P);
    double *C = malloc((size_t)(m * n) * sizeof *C);
    ck_assert(P && C);
    for (int i = 0; i < sa; i++)
        for (int j = 0; j < dfs_oz_cols(sb, d, i); j++)
            for (int64_t c = 0; c < n; c++)
                for (int64_t r = 0; r < m; r++) {
                    double s = 0.0; /* exact in any order (engines/oz/steps.h) */
                    for (int64_t q = 0; q < k; q++)
                        s = fma(slice_of(f->A[r + q * m], f->tauA[r], bb, i),
                                slice_of(f->B[q + c * k], f->tauB[c], bb, j), s);
                    P[a.poff[i] + (int64_t)j * m * n + c * m + r] = s;
                }
    memcpy(C, C0, (size_t)(m * n) * sizeof *C);
    a.P = P;
    a.bm = m;
    a.bn = n;
    a.k = k;
    a.sa = sa;
    a.sb = sb;
    a.d = d;
    a.beta = bb;
    a.verify = 1;
    a.tauA = f->tauA;
    a.tauB = f->tauB;
    a.needA = f->needA;
    a.needB = f->needB;
    a.nrmA = f->nrmA;
    a.nrmB = f->nrmB;
    a.alpha_v = alpha;
    a.beta_v = beta;
    a.C = C;
    a.ldc = m;
    int64_t win[DFS_OZ_WIN], res[DFS_OZ_RWIN];
    for (int64_t c = 0; c < n; c++)
        for (int64_t r = 0; r < m; r++) {
            int lower = 0;
            const int how = dfs_oz_finish_output(&a, r, c, win, res, &lower);
            const double got = C[r + c * m];
            cnt[how]++;
            if (how == DFS_OZ_WRITTEN && !same_bits(got, Cref[r + c * m]))
                ck_abort_msg("finish: %lldx%lldx%lld sa %d sb %d d %d alpha %a beta %a output "
                             "(%lld,%lld): wrote %a, correctly rounded %a", (long long)m,
                             (long long)n, (long long)k, sa, sb, d, alpha, beta, (long long)r,
                             (long long)c, got, Cref[r + c * m]);
            if (how != DFS_OZ_WRITTEN && !same_bits(got, C0[r + c * m]))
                ck_abort_msg("finish: an output sent direct was written (%a)", got);
        }
    free(P);
    free(C);
}

START_TEST(finish_is_correctly_rounded)
{
    rng r = rng_seed(77);
    static const int gens[] = {G_PHI0, G_PHI1, G_PHI4, G_PHI8, G_ERANGE, G_MIXED, G_SUBNORMAL};
    static const int64_t ks[] = {1, 3, 17, 100, 700};
    static const double scal[] = {1.0, 1.0, -1.0, 3.0, 0.1, 0x1p-1074, 1e300, 0.0};
    long all[3] = {0, 0, 0}, full[3] = {0, 0, 0}, gpu[3] = {0, 0, 0};
    for (int it = 0; it < 70; it++) {
        fin_case f;
        const int g = gens[it % 7];
        f.m = 1 + below(&r, 6);
        f.n = 1 + below(&r, 6);
        f.k = ks[below(&r, 5)];
        const int64_t m = f.m, n = f.n, k = f.k;
        f.A = malloc((size_t)(m * k) * sizeof *f.A);
        f.B = malloc((size_t)(k * n) * sizeof *f.B);
        double *C0 = malloc((size_t)(m * n) * sizeof *C0), *Cref = malloc((size_t)(m * n) * sizeof *Cref);
        f.tauA = malloc((size_t)m * sizeof(int));
        f.needA = malloc((size_t)m * sizeof(int));
        f.tauB = malloc((size_t)n * sizeof(int));
        f.needB = malloc((size_t)n * sizeof(int));
        f.nrmA = malloc((size_t)m * sizeof(double));
        f.nrmB = malloc((size_t)n * sizeof(double));
        gen_fill(&r, g, f.A, m * k);
        gen_fill(&r, below(&r, 2) ? g : G_PHI1, f.B, k * n);
        gen_fill(&r, G_PHI2, C0, m * n);
        if (it % 10 == 9)
            f.A[below(&r, (int)(m * k))] = it % 20 == 9 ? NAN : INFINITY; /* a special row */
        const double alpha = it % 3 ? 1.0 : scal[below(&r, 8)];
        const double beta = it % 3 ? 0.0 : scal[below(&r, 8)];
        memcpy(Cref, C0, (size_t)(m * n) * sizeof *C0);
        dfs_oz_params p = dfs_oz_default_params();
        dfs_oz_stats st;
        dfs_oz_gemm_host(&p, 0, 0, m, n, k, alpha, f.A, m, f.B, k, beta, Cref, m, &st);
        const int bb = dfs_oz_beta(k);
        rows_info(f.A, m, k, 1, m, bb, f.tauA, f.needA, f.nrmA);
        rows_info(f.B, n, k, k, 1, bb, f.tauB, f.needB, f.nrmB);
        int maxa = 1, maxb = 1;
        for (int64_t i = 0; i < m; i++)
            maxa = f.needA[i] > maxa ? f.needA[i] : maxa;
        for (int64_t i = 0; i < n; i++)
            maxb = f.needB[i] > maxb ? f.needB[i] : maxb;
        /* every pair of enough slices: nothing left out, every finite output decided */
        int sa = maxa < DFS_OZ_MAX_SLICES ? maxa : DFS_OZ_MAX_SLICES;
        int sb = maxb < DFS_OZ_MAX_SLICES ? maxb : DFS_OZ_MAX_SLICES;
        dfs_oz_fit(k, bb, &sa, &sb);
        long c1[3] = {0, 0, 0};
        run_finish(&f, sa, sb, sa + sb - 2, alpha, beta, C0, Cref, c1);
        if (sa >= maxa && sb >= maxb)
            for (int h = 0; h < 3; h++)
                full[h] += c1[h];
        /* what the GPU takes first: (d + 1) beta >= 53 + log2 k + 16 bits */
        int d = (53 + dfs_oz_ceil_log2(k) + 16 + bb - 1) / bb - 1;
        int ga = sa < d + 1 ? sa : d + 1, gb = sb < d + 1 ? sb : d + 1;
        d = d < ga + gb - 2 ? d : ga + gb - 2;
        if (alpha == 1.0 && beta == 0.0 && it % 10 != 9 && (g == G_PHI0 || g == G_PHI1 || g == G_PHI4)) {
            long c2[3] = {0, 0, 0};
            run_finish(&f, ga, gb, d, alpha, beta, C0, Cref, c2);
            for (int h = 0; h < 3; h++)
                gpu[h] += c2[h];
        }
        /* random slices and pairs, too few included */
        for (int t = 0; t < 4; t++) {
            int ra = 1 + below(&r, 7), rb = 1 + below(&r, 7);
            dfs_oz_fit(k, bb, &ra, &rb);
            run_finish(&f, ra, rb, below(&r, ra + rb - 1), alpha, beta, C0, Cref, all);
        }
        free(f.A);
        free(f.B);
        free(C0);
        free(Cref);
        free(f.tauA);
        free(f.needA);
        free(f.tauB);
        free(f.needB);
        free(f.nrmA);
        free(f.nrmB);
    }
    printf("finish (repro/finish.h) on the CPU: all pairs of enough slices %ld written, %ld listed, "
           "%ld undecided; the GPU's first choice of pairs (alpha 1, beta 0, phi 0-4 data) %ld / "
           "%ld / %ld; random slices and pairs %ld / %ld / %ld; every written output correctly "
           "rounded\n",
           full[0], full[1], full[2], gpu[0], gpu[1], gpu[2], all[0], all[1], all[2]);
    ck_assert_int_eq(full[2], 0);            /* nothing left out: nothing undecided */
    ck_assert_int_gt(full[0], 300);
    ck_assert_int_gt(gpu[0], 20 * (gpu[1] + gpu[2] + 1)); /* the first choice decides most */
    ck_assert_int_gt(all[0], 0);
    ck_assert_int_gt(all[2], 0);             /* too few pairs: some undecided (not vacuous) */
}
END_TEST

void repro_finish_tests(TCase *t)
{
    tcase_add_test(t, finish_is_correctly_rounded);
}
