/* dd — the double-double engine (EXBLAS_MODE=dd, or the mode accurate) through the shim.
 *
 * The engine's promise (engines/dd/dd_steps.h): every output of DDOT, DGEMV, DGEMM is summed in
 * double-double in an order that depends on the shape alone and rounded once, so its bits are
 * those of the CPU twin dfs_dd_*_host on every run, stream, pointer mode, layout and GPU; and it
 * is the correctly rounded value but for near ties and heavy cancellation.
 *
 * Groups 0-4 are the repro test's (twin_cases*.c; repro.c says what each runs: DDOT of every
 * length, increment and data kind including Inf / NaN / overflow, DGEMV ops N, T, C over shapes,
 * leading dimensions, increments, alpha / beta and pointer modes, DGEMM through every API and
 * op pair with poisoned operands that must not be read, streams, handles and graph replay) with
 * the dd engine's CPU twin as the reference: every output bit for bit.  The CPU result of one logical
 * problem stands for all its layouts: the dd order depends on m, n, k and the op of DGEMV only.
 *
 *  5. accuracy: data of the phi generator (phi = 0, 1, 2, 4), DDOT (200 x n = 10^4), DGEMV
 *     (2000 x 1000, N and T) and DGEMM (256^3), against the correctly rounded value (the
 *     reproducible engine's CPU implementation, proven against MPFR by tests/unit/test_repro.c):
 *     at least 99.9% of the outputs of each routine and phi are RN(exact), and the largest error
 *     in units of the last place is never above native cuBLAS's on the same data.
 *
 * Under the mode accurate a DGEMM whose dimensions are all 256 or more goes to the reproducible
 * engine on parts with integer tensor cores (config/default.policy): those are compared with
 * RN(exact), the reproducible engine's twin (twin_cases.c, gemm_ref).
 *
 * Needs EXBLAS_MODE=dd or accurate. */
#include "twin_cases.h"

#include "../common/gen.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* |got - want| in units of want's last place (binary64; subnormals by their fixed ulp); NaN
 * when either is not finite and they differ. */
static double ulps(double got, double want)
{
    if (same(got, want))
        return 0.0;
    if (!isfinite(got) || !isfinite(want))
        return NAN;
    int e;
    frexp(want, &e);
    const double ulp = want == 0.0 ? 0x1p-1074 : ldexp(1.0, (e - 53 < -1074 ? -1074 + 53 : e) - 53);
    return fabs(got - want) / ulp;
}

typedef struct {
    int64_t outputs, not_rn, native_rn;
    double max_ulps, native_max_ulps;
} acc_stats;

static void tally(acc_stats *s, const double *want, const double *got, const double *native,
                  int64_t len)
{
    for (int64_t i = 0; i < len; i++) {
        const double u = ulps(got[i], want[i]), un = ulps(native[i], want[i]);
        s->outputs++;
        s->not_rn += u != 0.0;
        s->native_rn += un == 0.0;
        if (!(u <= s->max_ulps))
            s->max_ulps = u;
        if (!(un <= s->native_max_ulps))
            s->native_max_ulps = un;
    }
}

static void judge(const char *routine, int phi, const acc_stats *s)
{
    gt_case("%s phi %d: >= 99.9%% of %lld outputs RN(exact), max error <= native's", routine,
            phi, (long long)s->outputs);
    printf("     %s phi %d: %lld of %lld not RN (max %.3g ulp); native RN on %.1f%% (max %.3g "
           "ulp)\n", routine, phi, (long long)s->not_rn, (long long)s->outputs, s->max_ulps,
           100.0 * (double)s->native_rn / (double)s->outputs, s->native_max_ulps);
    if (s->not_rn * 1000 > s->outputs)
        gt_fail("%lld of %lld outputs are not RN(exact)", (long long)s->not_rn,
                (long long)s->outputs);
    if (!(s->max_ulps <= s->native_max_ulps))
        gt_fail("max error %.3g ulp, native %.3g ulp", s->max_ulps, s->native_max_ulps);
}

/* y = op(A) x through the shim (real = 0) or real cuBLAS into y (host), A m x n tight at dA,
 * x at dX. */
static void gemv_dev(int real, int trans, int64_t m, int64_t n, double *y)
{
    const double one = 1.0, zero = 0.0;
    const int64_t len = trans ? n : m;
    gt_gemv g = {0, trans ? CUBLAS_OP_T : CUBLAS_OP_N, m, n, &one, dA, m, dX, 1, &zero, dY, 1};
    check_status(real ? "real cublasDgemv_v2" : "cublasDgemv_v2", gt_run_gemv(real, handle, &g));
    gt_d2h(y, dY, (size_t)len * sizeof *y);
}

static void gemm_dev(int real, int64_t nn, double *C)
{
    const double one = 1.0, zero = 0.0;
    gt_gemm g = {.api = GT_DGEMM, .ta = CUBLAS_OP_N, .tb = CUBLAS_OP_N, .m = nn, .n = nn, .k = nn,
                 .lda = nn, .ldb = nn, .ldc = nn, .batch = 1, .alpha = &one, .beta = &zero,
                 .A = dA, .B = dB, .C = dC};
    check_status(real ? "real cublasDgemm_v2" : "cublasDgemm_v2", gt_run_gemm(real, handle, &g));
    gt_d2h(C, dC, (size_t)(nn * nn) * sizeof *C);
}

static void accuracy_group(void)
{
    enum { NDOT = 200, DOTN = 10000, GM = 2000, GN = 1000, MN = 256, NPHI = 4 };
    static const int phis[NPHI] = {0, 1, 2, 4}, gens[NPHI] = {G_PHI0, G_PHI1, G_PHI2, G_PHI4};
    df_group("accuracy: phi 0, 1, 2, 4; DDOT %d x n = %d, DGEMV %dx%d N and T, DGEMM %d^3: "
             ">= 99.9%% RN(exact) (the reproducible engine's CPU result), max ulp error <= native",
             NDOT, DOTN, GM, GN, MN);
    const size_t big = (size_t)GM * GN;
    double *A = df_xmalloc(big), *x = df_xmalloc(GM), *rn = df_xmalloc(big),
           *got = df_xmalloc(big), *nat = df_xmalloc(big);
    double *B = df_xmalloc((size_t)MN * MN);
    for (int ph = 0; ph < NPHI; ph++) {
        /* DDOT: 200 pairs of one long fill */
        acc_stats s = {0};
        double *xs = df_xmalloc((size_t)NDOT * DOTN), *ys = df_xmalloc((size_t)NDOT * DOTN);
        fill(xs, (int64_t)NDOT * DOTN, gens[ph], 9100 + (uint64_t)ph);
        fill(ys, (int64_t)NDOT * DOTN, gens[ph], 9200 + (uint64_t)ph);
        gt_h2d(dX, xs, (size_t)NDOT * DOTN * sizeof *xs);
        gt_h2d(dY, ys, (size_t)NDOT * DOTN * sizeof *ys);
        ref_dd = 0;
        for (int i = 0; i < NDOT; i++)
            rn[i] = dot_ref(DOTN, xs + (size_t)i * DOTN, ys + (size_t)i * DOTN, NULL);
        ref_dd = 1;
        for (int i = 0; i < NDOT; i++) {
            got[i] = run_dot(0, handle, 0, DOTN, dX + (size_t)i * DOTN, 1, dY + (size_t)i * DOTN,
                             1, 0);
            nat[i] = run_dot(1, handle, 0, DOTN, dX + (size_t)i * DOTN, 1, dY + (size_t)i * DOTN,
                             1, 0);
        }
        tally(&s, rn, got, nat, NDOT);
        judge("DDOT", phis[ph], &s);
        free(xs);
        free(ys);

        /* DGEMV */
        fill(A, (int64_t)big, gens[ph], 9300 + (uint64_t)ph);
        fill(x, GM, gens[ph], 9400 + (uint64_t)ph);
        gt_h2d(dA, A, big * sizeof *A);
        gt_h2d(dX, x, GM * sizeof *x);
        for (int t = 0; t < 2; t++) {
            memset(&s, 0, sizeof s);
            const int64_t len = t ? GN : GM;
            ref_dd = 0;
            gemv_ref(t, GM, GN, 1.0, A, x, 0.0, nat, rn); /* y0 not read: beta 0 */
            ref_dd = 1;
            gemv_dev(0, t, GM, GN, got);
            gemv_dev(1, t, GM, GN, nat);
            tally(&s, rn, got, nat, len);
            judge(t ? "DGEMV T" : "DGEMV N", phis[ph], &s);
        }

        /* DGEMM */
        memset(&s, 0, sizeof s);
        fill(A, MN * MN, gens[ph], 9500 + (uint64_t)ph);
        fill(B, MN * MN, gens[ph], 9600 + (uint64_t)ph);
        gt_h2d(dA, A, (size_t)MN * MN * sizeof *A);
        gt_h2d(dB, B, (size_t)MN * MN * sizeof *B);
        ref_dd = 0;
        gemm_ref(MN, MN, MN, 1.0, A, B, 0.0, nat, rn, NULL); /* C0 not read */
        ref_dd = 1;
        gemm_dev(0, MN, got);
        gemm_dev(1, MN, nat);
        tally(&s, rn, got, nat, (int64_t)MN * MN);
        judge("DGEMM", phis[ph], &s);
    }
    free(A);
    free(x);
    free(B);
    free(rn);
    free(got);
    free(nat);
    df_group_end();
}

int main(void)
{
    gt_init("dd");
    const double t0 = gt_now();
    const char *mode = gt_mode();
    if (!gt_mode_is("dd") && !gt_mode_is("accurate"))
        gt_fatal("dd needs EXBLAS_MODE=dd or accurate, not '%s'", mode ? mode : "(unset)");
    shared_setup();
    ref_dd = 1;
    printf("dd: EXBLAS_MODE=%s against dfs_dd_*_host; %d CPU threads for the references\n", mode,
           n_threads);

    engaged_group();
    dot_group();
    gemv_group();
    gemm_group();
    reproducibility_group();
    accuracy_group();

    shared_teardown();
    printf("dd: %.1f s in all\n", gt_now() - t0);
    return gt_finish();
}
