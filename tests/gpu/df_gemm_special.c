/* df_gemm_special.c — the df_gemm test's groups 4, 5 and 7 (see df_gemm.c): Inf, -Inf and NaN in
 * A and B give non-finite results of real cuBLAS's kinds in the same places (the rest bitwise the
 * host's); alpha = 0 in device memory gives C = beta*C exactly despite NaN and Inf in A and B;
 * rows and columns of wide spans, their large entries facing small ones, bitwise the host's
 * (whose entries with all products in binary32's subnormals are computed in binary64). */
#include "df_gemm_common.h"

#include "../../engines/df/host.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------- 4. special values ---------- */

static int fclass(double x)
{
    return isnan(x) ? 1 : isinf(x) ? (x > 0 ? 2 : 3) : 0;
}

static const char *const fclass_name[4] = {"finite", "NaN", "+Inf", "-Inf"};

/* Entry 0 of P as a Dgemm with ops ta, tb (A and B padded by 3, C tight), laid out in the staging
 * buffers, A and B copied to the device: g for call_gemm, and C's span returned. */
static size_t stage_dgemm(const problem *P, cublasOperation_t ta, cublasOperation_t tb,
                          gt_gemm *g)
{
    const int64_t m = P->m, n = P->n, k = P->k;
    const int tA = ta != CUBLAS_OP_N, tB = tb != CUBLAS_OP_N;
    *g = (gt_gemm){.api = GT_DGEMM, .ta = ta, .tb = tb, .m = m, .n = n, .k = k, .batch = 1,
                   .A = dA, .B = dB, .lda = (tA ? k : m) + 3, .ldb = (tB ? n : k) + 3, .ldc = m};
    gt_h2d(dA, hA, lay_out(hA, BUF, P->A, 1, m, k, tA, g->lda, 0, qnan) * sizeof *hA);
    gt_h2d(dB, hB, lay_out(hB, BUF, P->B, 1, k, n, tB, g->ldb, 0, qnan) * sizeof *hB);
    const size_t span = lay_out(hCt, BUF, P->C, 1, m, n, 0, m, 0, C_GAP);
    tmpl_key.valid = 0;
    return span;
}

void special_group(void)
{
    const int64_t m = 200, n = 150, k = 100;
    const double alpha = -1.5, beta = 0.5;
    /* Specials in the logical op(A) (in_b = 0: row r of C affected) or op(B) (column c). */
    static const struct {
        const char *desc;
        struct {
            int in_b;
            int64_t r, c;
            int kind; /* 1 NaN, 2 +Inf, 3 -Inf */
        } s[3];
    } variants[2] = {
        {"op(A)(5,7)=+Inf op(A)(20,30)=-Inf op(B)(11,9)=NaN",
         {{0, 5, 7, 2}, {0, 20, 30, 3}, {1, 11, 9, 1}}},
        {"op(A)(3,0)=NaN op(B)(0,4)=+Inf op(B)(99,70)=-Inf",
         {{0, 3, 0, 1}, {1, 0, 4, 2}, {1, 99, 70, 3}}},
    };
    df_group("special values, %lldx%lldx%lld alpha=%g beta=%g, ops NN,TN,NC,CT x host/device ptr: "
          "kinds of non-finite results (NaN/+Inf/-Inf) where the real cuBLAS has them; other "
          "entries finite; finite entries bitwise dfs_df_gemm_host", (long long)m, (long long)n,
          (long long)k, alpha, beta);
    static const cublasOperation_t pairs[4][2] = {{CUBLAS_OP_N, CUBLAS_OP_N},
                                                  {CUBLAS_OP_T, CUBLAS_OP_N},
                                                  {CUBLAS_OP_N, CUBLAS_OP_C},
                                                  {CUBLAS_OP_C, CUBLAS_OP_T}};
    double *Cr = df_xmalloc((size_t)(m * n));
    for (int v = 0; v < 2; v++) {
        problem P = make_problem(m, n, k, 1, 9000 + (uint64_t)v);
        char *rowhit = calloc((size_t)m, 1), *colhit = calloc((size_t)n, 1);
        if (!rowhit || !colhit)
            gt_fatal("out of host memory");
        for (int q = 0; q < 3; q++) {
            const double val = variants[v].s[q].kind == 1   ? qnan
                               : variants[v].s[q].kind == 2 ? INFINITY
                                                            : -INFINITY;
            int64_t r = variants[v].s[q].r, c = variants[v].s[q].c;
            if (variants[v].s[q].in_b) {
                P.B[0][r + c * k] = val;
                colhit[c] = 1;
            } else {
                P.A[0][r + c * m] = val;
                rowhit[r] = 1;
            }
        }
        double *E = df_xmalloc((size_t)(m * n));
        memcpy(E, P.C[0], (size_t)(m * n) * sizeof *E);
        dfs_df_gemm_host(scheme, 0, 0, m, n, k, alpha, P.A[0], m, P.B[0], k, beta, E, m);
        for (int pi = 0; pi < 4; pi++)
            for (int dev = 0; dev < 2; dev++) {
                const cublasOperation_t ta = pairs[pi][0], tb = pairs[pi][1];
                gt_case("%s op=%c%c ptr=%s", variants[v].desc, gt_op_char(ta), gt_op_char(tb),
                        dev ? "device" : "host");
                gt_gemm g;
                const size_t span = stage_dgemm(&P, ta, tb, &g);
                cublasStatus_t ss = call_gemm(&bufs, 0, handle, &g, dev, alpha, beta, span);
                memcpy(got[0], hCo, span * sizeof *hCo);
                cublasStatus_t sr = call_gemm(&bufs, 1, handle, &g, dev, alpha, beta, span);
                memcpy(Cr, hCo, span * sizeof *hCo);
                gt_cmp_status("cublasDgemm_v2", sr, ss);
                size_t kind_diff = 0, unaffected_bad = 0, host_diff = 0, nonfinite = 0;
                int64_t fk = -1, fu = -1, fh = -1;
                for (int64_t j = 0; j < n; j++)
                    for (int64_t i = 0; i < m; i++) {
                        const int64_t at = i + j * m;
                        const double s = got[0][at];
                        int cs = fclass(s), cr = fclass(Cr[at]), ch = fclass(E[at]);
                        nonfinite += cs != 0;
                        if (cs != cr && !kind_diff++)
                            fk = at;
                        if (!rowhit[i] && !colhit[j] && cs != 0 && !unaffected_bad++)
                            fu = at;
                        if ((ch == 0 ? df_bits(s) != df_bits(E[at]) : cs != ch) && !host_diff++)
                            fh = at;
                    }
                if (kind_diff)
                    gt_fail("%zu entries differ in kind from real cuBLAS; first C(%lld,%lld): "
                            "shim %s (%.17g), real %s (%.17g)", kind_diff, (long long)(fk % m),
                            (long long)(fk / m), fclass_name[fclass(got[0][fk])], got[0][fk],
                            fclass_name[fclass(Cr[fk])], Cr[fk]);
                if (unaffected_bad)
                    gt_fail("%zu entries outside the rows/columns with Inf/NaN are not finite; "
                            "first C(%lld,%lld) = %.17g", unaffected_bad, (long long)(fu % m),
                            (long long)(fu / m), got[0][fu]);
                if (host_diff)
                    gt_fail("%zu entries differ from dfs_df_gemm_host (finite: bitwise; "
                            "otherwise the kind); first C(%lld,%lld): host %.17g, shim %.17g",
                            host_diff, (long long)(fh % m), (long long)(fh / m), E[fh],
                            got[0][fh]);
                if (nonfinite == 0)
                    gt_fail("no non-finite entries at all");
            }
        free(E);
        free(rowhit);
        free(colhit);
        free_problem(&P);
    }
    free(Cr);
    df_group_end();
}

/* ---------- 5. alpha = 0 in device memory ---------- */

void alpha0_group(void)
{
    const int64_t m = 130, n = 140, k = 60;
    static const double bts[4] = {1, -0.75, 0, 3};
    static const gt_gemm_api apis[4] = {GT_DGEMM, GT_DGEMM_64, GT_GEMMEX, GT_DGEMM_SB};
    df_group("alpha = 0 in device memory, %lldx%lldx%lld, NaN and Inf in A and B: C = beta*C "
          "exactly (0 for beta = 0, C full of NaN); Dgemm, Dgemm_64, GemmEx, DgemmSB batch 3; "
          "ops NN, TC; beta {1,-0.75,0,3}", (long long)m, (long long)n, (long long)k);
    problem P = make_problem(m, n, k, NB, 4242);
    for (int b = 0; b < NB; b++) {
        P.A[b][0] = qnan;
        P.A[b][129 + 59 * m] = qnan;
        P.A[b][64 + 30 * m] = qnan;
        P.A[b][10 + 10 * m] = INFINITY;
        P.B[b][5 + 5 * k] = -INFINITY;
        P.B[b][59 + 139 * k] = qnan;
    }
    double *expect = df_xmalloc((size_t)(m * n)), *hostr = df_xmalloc((size_t)(m * n));
    for (int bi = 0; bi < 4; bi++)
        for (int a = 0; a < 4; a++)
            for (int pi = 0; pi < 2; pi++) {
                const double beta = bts[bi];
                const gt_gemm_api api = apis[a];
                const int strided = gt_gemm_api_strided(api), nb = strided ? NB : 1;
                const cublasOperation_t ta = pi ? CUBLAS_OP_T : CUBLAS_OP_N;
                const cublasOperation_t tb = pi ? CUBLAS_OP_C : CUBLAS_OP_N;
                gt_gemm g = {.api = api, .ta = ta, .tb = tb, .m = m, .n = n, .k = k,
                             .batch = nb, .typeA = CUDA_R_64F, .typeB = CUDA_R_64F,
                             .typeC = CUDA_R_64F, .compute = CUBLAS_COMPUTE_64F,
                             .algo = CUBLAS_GEMM_DEFAULT, .A = dA, .B = dB,
                             .lda = pi ? k : m, .ldb = pi ? n : k, .ldc = m + 2};
                if (strided) {
                    g.sA = (long long)(g.lda * (pi ? m : k) + 5);
                    g.sB = (long long)(g.ldb * (pi ? k : n) + 5);
                    g.sC = (long long)(g.ldc * n + 5);
                }
                gt_case("%s op=%c%c alpha=0 (device) beta=%g", gt_gemm_api_name[api],
                        gt_op_char(ta), gt_op_char(tb), beta);
                gt_h2d(dA, hA, lay_out(hA, BUF, P.A, nb, m, k, pi, g.lda, g.sA, qnan) * sizeof *hA);
                gt_h2d(dB, hB, lay_out(hB, BUF, P.B, nb, k, n, pi, g.ldb, g.sB, qnan) * sizeof *hB);
                double *Cl[NB];
                for (int b = 0; b < nb; b++)
                    Cl[b] = beta == 0.0 ? P.Cnan : P.C[b];
                size_t span = lay_out(hCt, BUF, Cl, nb, m, n, 0, g.ldc, g.sC, C_GAP);
                tmpl_key.valid = 0;
                cublasStatus_t st = call_gemm(&bufs, 0, handle, &g, 1, 0.0, beta, span);
                if (st != CUBLAS_STATUS_SUCCESS)
                    gt_fail("status %s", gt_status_name(st));
                check_outside(hCt, hCo, nb, m, n, g.ldc, g.sC);
                for (int b = 0; b < nb; b++)
                    gather(got[b], hCo + (size_t)b * (size_t)g.sC, m, n, g.ldc);
                for (int b = 0; b < nb; b++) {
                    for (int64_t i = 0; i < m * n; i++)
                        expect[i] = beta == 0.0 ? 0.0 : beta * P.C[b][i];
                    char what[64];
                    snprintf(what, sizeof what, "C of batch entry %d vs beta*C", b);
                    cmp_tight(what, "beta*C", expect, got[b], m, n, b);
                    if (a == 0 && pi == 0 && b == 0) { /* the host says the same */
                        memcpy(hostr, Cl[0], (size_t)(m * n) * sizeof *hostr);
                        dfs_df_gemm_host(scheme, 0, 0, m, n, k, 0.0, P.A[0], m, P.B[0], k, beta,
                                         hostr, m);
                        cmp_tight("C vs dfs_df_gemm_host with alpha = 0", "host", hostr, got[0],
                                  m, n, 0);
                    }
                }
                /* What real cuBLAS does, for information. */
                st = call_gemm(&bufs, 1, handle, &g, 1, 0.0, beta, span);
                for (int b = 0; b < nb; b++) {
                    gather(got2, hCo + (size_t)b * (size_t)g.sC, m, n, g.ldc);
                    if (st == CUBLAS_STATUS_SUCCESS &&
                        memcmp(got2, got[b], (size_t)(m * n) * sizeof *got2)) {
                        gt_note("real cuBLAS differs from beta*C here (not checked)");
                        break;
                    }
                }
            }
    free(expect);
    free(hostr);
    free_problem(&P);
    df_group_end();
}


/* ---------- 7. wide spans ---------- */

void wide_group(void)
{
    const int64_t m = 64, n = 48, k = 100;
    const double alpha = 1.5, beta = -0.5;
    static const int64_t rows[3] = {1, 4, 7}, cols[3] = {2, 5, 8};
    df_group("wide spans, %lldx%lldx%lld alpha=%g beta=%g: rows 1, 4, 7 of op(A) scaled by "
             "2^-110 in their second half, columns 2, 5, 8 of op(B) by 2^-120 in their first; "
             "ops NN,TN,NC,CT x host/device ptr: bitwise dfs_df_gemm_host, whose 9 entries of "
             "those rows and columns are binary64 sums in order (dfs_df_needs_binary64)",
             (long long)m, (long long)n, (long long)k, alpha, beta);
    static const cublasOperation_t pairs[4][2] = {{CUBLAS_OP_N, CUBLAS_OP_N},
                                                  {CUBLAS_OP_T, CUBLAS_OP_N},
                                                  {CUBLAS_OP_N, CUBLAS_OP_C},
                                                  {CUBLAS_OP_C, CUBLAS_OP_T}};
    problem P = make_problem(m, n, k, 1, 9100);
    for (int t = 0; t < 3; t++)
        for (int64_t q = 0; q < k; q++) {
            if (q >= k / 2)
                P.A[0][rows[t] + q * m] *= 0x1p-110;
            else
                P.B[0][q + cols[t] * k] *= 0x1p-120;
        }
    double *E = df_xmalloc((size_t)(m * n));
    memcpy(E, P.C[0], (size_t)(m * n) * sizeof *E);
    dfs_df_gemm_host(scheme, 0, 0, m, n, k, alpha, P.A[0], m, P.B[0], k, beta, E, m);
    /* the data reaches the rule: those entries are alpha * (the FMA sum in order) + beta * c */
    gt_case("the host's 9 entries of the wide rows and columns");
    check_binary64_entries(P.A[0], P.B[0], P.C[0], m, k, rows, 3, cols, 3, alpha, beta, E);
    for (int pi = 0; pi < 4; pi++)
        for (int dev = 0; dev < 2; dev++) {
            const cublasOperation_t ta = pairs[pi][0], tb = pairs[pi][1];
            gt_case("wide spans op=%c%c ptr=%s", gt_op_char(ta), gt_op_char(tb),
                    dev ? "device" : "host");
            gt_gemm g;
            const size_t span = stage_dgemm(&P, ta, tb, &g);
            gt_cmp_status("cublasDgemm_v2", CUBLAS_STATUS_SUCCESS,
                          call_gemm(&bufs, 0, handle, &g, dev, alpha, beta, span));
            cmp_tight("C", "dfs_df_gemm_host", E, hCo, m, n, 0);
        }
    free(E);
    free_problem(&P);
    df_group_end();
}
