/* df_gemm_accuracy.c — the df_gemm test's group 3 (see df_gemm.c): normwise errors against a
 * double-double reference for uniform, phi and row-scaled data, asserted below the scheme's bound
 * and tabled beside native cuBLAS's. */
#include "df_gemm_common.h"

#include "../../engines/df/df_gemm.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------- 3. accuracy ---------- */

static double gauss(uint64_t *s)
{
    double u1 = ((double)(gt_rand(s) >> 11) + 1.0) * 0x1p-53;
    double u2 = (double)(gt_rand(s) >> 11) * 0x1p-53;
    return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

/* gen < 0: uniform in [-1, 1); else x = (U - 0.5) * exp(gen * N(0, 1)). */
static void fill_gen(double *x, size_t n, int gen, uint64_t seed)
{
    if (gen < 0) {
        gt_fill(x, n, seed);
        return;
    }
    uint64_t s = seed;
    for (size_t i = 0; i < n; i++) {
        double U = (double)(gt_rand(&s) >> 11) * 0x1p-53;
        x[i] = (U - 0.5) * exp((double)gen * gauss(&s));
    }
}

typedef struct {
    double norm;  /* max normwise error over entries out of the subnormal range */
    double sub;   /* max |C - ref| / 2^-1074 over entries in it, -1 if none */
    size_t viol;  /* entries above the bound */
    int64_t vi, vj;
    double vexcess;
} acc_err;

#define ACC_M 256
#define ACC_N 256
#define ACC_COLSTEP 8

/* Errors of the m x n result Cg (tight) on all rows x the sampled columns.  Per row i, T[i]
 * scales the reference: S (dd) and D = sum |a b| are of the row scaled by 2^T[i] (exact), so
 * that products of subnormal rows are exact too. */
static void acc_measure(const double *Cg, const double *C0, const int *T, const dd *S,
                        const double *D, const int64_t *cols, int nc, double alpha, double beta,
                        double bound, acc_err *out)
{
    memset(out, 0, sizeof *out);
    out->sub = -1;
    for (int c = 0; c < nc; c++)
        for (int64_t i = 0; i < ACC_M; i++) {
            const int64_t j = cols[c];
            const double x = Cg[i + j * ACC_M], c0 = C0[i + j * ACC_M];
            const dd s = S[i + c * ACC_M];
            const int t = T[i];
            double e, den, real_den, allow, sub_units;
            if (beta == 0.0) {
                dd r = dd_mul_d(s, alpha);
                e = fabs((ldexp(x, t) - r.hi) - r.lo);
                den = fabs(alpha) * D[i + c * ACC_M];
                real_den = ldexp(den, -t);
                allow = bound * den + ldexp(4.0, t - 1074);
                sub_units = ldexp(e, 1074 - t);
            } else {
                dd su = {ldexp(s.hi, -t), ldexp(s.lo, -t)};
                dd r = dd_add(dd_mul_d(su, alpha), two_prod(beta, c0));
                e = fabs((x - r.hi) - r.lo);
                den = fabs(alpha) * ldexp(D[i + c * ACC_M], -t) + fabs(beta * c0);
                real_den = den;
                allow = bound * den + 4.0 * 0x1p-1074;
                sub_units = ldexp(e, 1074);
            }
            if (!(e <= allow)) {
                double excess = den > 0 ? e / den : INFINITY;
                if (!out->viol++ || excess > out->vexcess) {
                    out->vi = i;
                    out->vj = j;
                    out->vexcess = excess;
                }
            }
            /* below 2^-1000, the absolute 2^-1074-sized errors of results in the subnormal
             * range are no longer negligible next to u^2 = 2^-48 relative */
            if (real_den >= 0x1p-1000) {
                if (den > 0 && e / den > out->norm)
                    out->norm = e / den;
                if (!(e == e))
                    out->norm = NAN;
            } else if (sub_units > out->sub) {
                out->sub = sub_units;
            }
        }
}

void accuracy_group(void)
{
    static const int64_t ks[3] = {64, 1000, 4096};
    static const double abs_[2][2] = {{1, 0}, {-3, 0.5}};
    static const char *const gen_names[5] = {"uniform[-1,1)", "phi=0", "phi=1", "phi=2",
                                             "rows*1e300,1e-300,2^-1040"};
    static const int gens[5] = {-1, 0, 1, 2, -1};
    struct {
        acc_err df, nat;
        double bound;
    } tab[5][3][2];
    df_group("accuracy (scheme %s) vs a double-double reference, %dx%dxk ops NN, k in "
          "{64,1000,4096}, every row x every %dth column: max |C - ref| / (|alpha| sum|a b| + "
          "|beta c|) below %s", scheme_name, ACC_M, ACC_N, ACC_COLSTEP,
          df_test_bound_text(scheme));
    int64_t cols[ACC_N / ACC_COLSTEP + 1];
    int nc = 0;
    for (int64_t j = 0; j < ACC_N; j += ACC_COLSTEP)
        cols[nc++] = j;
    cols[nc++] = ACC_N - 1;
    int *T = malloc(ACC_M * sizeof *T);
    dd *S = malloc((size_t)ACC_M * (size_t)nc * sizeof *S);
    double *D = df_xmalloc((size_t)ACC_M * (size_t)nc);
    double *Cdf = df_xmalloc((size_t)ACC_M * ACC_N), *Cnat = df_xmalloc((size_t)ACC_M * ACC_N);
    double *C0 = df_xmalloc((size_t)ACC_M * ACC_N), *Cn = df_xmalloc((size_t)ACC_M * ACC_N);
    gt_fill_const(Cn, (size_t)ACC_M * ACC_N, qnan);
    if (!T || !S)
        gt_fatal("out of host memory");
    for (int gi = 0; gi < 5; gi++)
        for (int ki = 0; ki < 3; ki++) {
            const int64_t k = ks[ki];
            double *A = df_xmalloc((size_t)(ACC_M * k)), *B = df_xmalloc((size_t)(k * ACC_N));
            uint64_t seed = 5000 + 100 * (uint64_t)gi + 10 * (uint64_t)ki;
            fill_gen(A, (size_t)(ACC_M * k), gens[gi], seed + 1);
            fill_gen(B, (size_t)(k * ACC_N), gens[gi], seed + 2);
            gt_fill(C0, (size_t)ACC_M * ACC_N, seed + 3);
            if (gi == 4)
                for (int64_t p = 0; p < k; p++) {
                    A[0 + p * ACC_M] *= 1e300;
                    A[1 + p * ACC_M] *= 1e-300;
                    A[2 + p * ACC_M] *= 0x1p-1040; /* subnormal */
                }
            /* reference: per row, scaled by 2^T so that its largest element is in [0.5, 1) */
            for (int64_t i = 0; i < ACC_M; i++) {
                double mx = 0;
                for (int64_t p = 0; p < k; p++)
                    mx = fmax(mx, fabs(A[i + p * ACC_M]));
                int e = 0;
                if (mx > 0)
                    frexp(mx, &e);
                T[i] = -e;
            }
            for (int c = 0; c < nc; c++)
                for (int64_t i = 0; i < ACC_M; i++) {
                    dd s = {0, 0};
                    double d = 0;
                    const double *b = B + cols[c] * k;
                    for (int64_t p = 0; p < k; p++) {
                        double a = ldexp(A[i + p * ACC_M], T[i]);
                        s = dd_add(s, two_prod(a, b[p]));
                        d += fabs(a * b[p]);
                    }
                    S[i + c * ACC_M] = s;
                    D[i + c * ACC_M] = d;
                }
            gt_gemm g = {.api = GT_DGEMM, .ta = CUBLAS_OP_N, .tb = CUBLAS_OP_N, .m = ACC_M,
                         .n = ACC_N, .k = k, .batch = 1, .A = dA, .B = dB, .lda = ACC_M,
                         .ldb = k, .ldc = ACC_M};
            gt_h2d(dA, A, (size_t)(ACC_M * k) * sizeof *A);
            gt_h2d(dB, B, (size_t)(k * ACC_N) * sizeof *B);
            for (int ci = 0; ci < 2; ci++) {
                const double alpha = abs_[ci][0], beta = abs_[ci][1];
                gt_case("%s k=%lld alpha=%g beta=%g", gen_names[gi], (long long)k, alpha, beta);
                const size_t span = (size_t)ACC_M * ACC_N;
                memcpy(hCt, beta == 0.0 ? Cn : C0, span * sizeof *hCt);
                tmpl_key.valid = 0;
                cublasStatus_t st = call_gemm(&bufs, 0, handle, &g, 0, alpha, beta, span);
                if (st != CUBLAS_STATUS_SUCCESS)
                    gt_fail("shim: status %s", gt_status_name(st));
                memcpy(Cdf, hCo, span * sizeof *hCo);
                st = call_gemm(&bufs, 1, handle, &g, 0, alpha, beta, span);
                if (st != CUBLAS_STATUS_SUCCESS)
                    gt_fail("real cuBLAS: status %s", gt_status_name(st));
                memcpy(Cnat, hCo, span * sizeof *hCo);
                const double bound = df_test_bound(scheme, k);
                tab[gi][ki][ci].bound = bound;
                acc_measure(Cdf, C0, T, S, D, cols, nc, alpha, beta, bound, &tab[gi][ki][ci].df);
                acc_measure(Cnat, C0, T, S, D, cols, nc, alpha, beta, bound,
                            &tab[gi][ki][ci].nat);
                const acc_err *e = &tab[gi][ki][ci].df;
                if (e->viol)
                    gt_fail("%zu entries above the bound %.3g (+4*2^-1074); worst C(%lld,%lld): "
                            "%.3g x sum", e->viol, bound, (long long)e->vi, (long long)e->vj,
                            e->vexcess);
                if (!(e->norm == e->norm))
                    gt_fail("NaN error (non-finite df result)");
            }
            free(A);
            free(B);
        }
    df_group_end();
    printf("     accuracy table (scheme %s, u = 2^-24; normwise errors; 'sub': entries in the "
           "subnormal range, |C - ref| in units of 2^-1074):\n", scheme_name);
    for (int gi = 0; gi < 5; gi++)
        for (int ki = 0; ki < 3; ki++)
            for (int ci = 0; ci < 2; ci++) {
                const acc_err *a = &tab[gi][ki][ci].df, *b = &tab[gi][ki][ci].nat;
                char sub[96] = "";
                if (a->sub >= 0 || b->sub >= 0)
                    snprintf(sub, sizeof sub, "  sub: df %.3g native %.3g", a->sub, b->sub);
                printf("     %-26s k=%-5lld alpha=%-3g beta=%-4g df %9.3e (%6.2f u^2)  native "
                       "%9.3e  df/native %8.3g  bound %9.3e%s\n", gen_names[gi],
                       (long long)ks[ki], abs_[ci][0], abs_[ci][1], a->norm, a->norm / 0x1p-48,
                       b->norm, b->norm > 0 ? a->norm / b->norm : INFINITY,
                       tab[gi][ki][ci].bound, sub);
            }
    free(T);
    free(S);
    free(D);
    free(Cdf);
    free(Cnat);
    free(C0);
    free(Cn);
}
