/* df_gemm_bitwise.c — the df_gemm test's groups 1 and 2 (see df_gemm.c): every API, op pair,
 * layout, alpha, beta and pointer mode bitwise dfs_df_gemm_host, one group per shape; and the
 * blocking options (workspace, tiles, the small kernel or not) set through
 * setenv("EXBLAS_MODE"), which must not change a bit, with EXBLAS_MODE=native after a setenv
 * giving real cuBLAS's result. */
#include "df_gemm_common.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------- 1. bitwise ---------- */

static const cublasOperation_t ops3[3] = {CUBLAS_OP_N, CUBLAS_OP_T, CUBLAS_OP_C};
static const double alphas[4] = {1, -1, 0.5, 3};
static const double betas[3] = {0, 1, -0.75};
static const int64_t shapes[7][3] = {{1, 1, 1},       {1, 1, 9},      {7, 5, 3},
                                     {129, 130, 131}, {256, 256, 256}, {300, 17, 1000},
                                     {1000, 1000, 64}};
/* Op pairs for the APIs that do not get all nine. */
static const cublasOperation_t ops4[4][2] = {{CUBLAS_OP_N, CUBLAS_OP_N}, {CUBLAS_OP_T, CUBLAS_OP_C},
                                             {CUBLAS_OP_C, CUBLAS_OP_N}, {CUBLAS_OP_N, CUBLAS_OP_T}};

tmpl_cache tmpl_key;

static void bitwise_case(const problem *P, ref *refs, double alpha, double beta, gt_gemm_api api,
                         cublasOperation_t ta, cublasOperation_t tb, int pad, int dev)
{
    const int64_t m = P->m, n = P->n, k = P->k;
    const int strided = gt_gemm_api_strided(api), nb = strided ? NB : 1;
    const int tA = ta != CUBLAS_OP_N, tB = tb != CUBLAS_OP_N;
    gt_gemm g = {.api = api, .ta = ta, .tb = tb, .m = m, .n = n, .k = k, .batch = nb,
                 .typeA = CUDA_R_64F, .typeB = CUDA_R_64F, .typeC = CUDA_R_64F,
                 .compute = CUBLAS_COMPUTE_64F, .algo = CUBLAS_GEMM_DEFAULT, .A = dA, .B = dB};
    g.lda = (tA ? k : m) + pad;
    g.ldb = (tB ? n : k) + pad;
    g.ldc = m + pad;
    if (strided) {
        g.sA = (long long)(g.lda * (tA ? m : k) + 11);
        g.sB = (long long)(g.ldb * (tB ? k : n) + 7);
        g.sC = (long long)(g.ldc * n + 13);
    }
    gt_case("%s%s op=%c%c ld %s alpha=%g beta=%g ptr=%s%s", gt_gemm_api_name[api],
            gt_gemm_api_ex(api) ? "[R_64F,COMPUTE_64F]" : "", gt_op_char(ta), gt_op_char(tb),
            pad ? "+7" : "tight", alpha, beta, dev ? "device" : "host",
            strided ? " batch=3" : "");
    size_t sa = lay_out(hA, BUF, P->A, nb, m, k, tA, g.lda, g.sA, qnan);
    gt_h2d(dA, hA, sa * sizeof *hA);
    size_t sb = lay_out(hB, BUF, P->B, nb, k, n, tB, g.ldb, g.sB, qnan);
    gt_h2d(dB, hB, sb * sizeof *hB);
    const int beta0 = beta == 0.0;
    if (!tmpl_key.valid || tmpl_key.nb != nb || tmpl_key.beta0 != beta0 ||
        tmpl_key.ldc != g.ldc || tmpl_key.sC != g.sC || tmpl_key.P != P) {
        double *Cl[NB];
        for (int b = 0; b < nb; b++)
            Cl[b] = beta0 ? P->Cnan : P->C[b];
        tmpl_key.span = lay_out(hCt, BUF, Cl, nb, m, n, 0, g.ldc, g.sC, C_GAP);
        tmpl_key.valid = 1;
        tmpl_key.nb = nb;
        tmpl_key.beta0 = beta0;
        tmpl_key.ldc = g.ldc;
        tmpl_key.sC = g.sC;
        tmpl_key.P = P;
    }
    cublasStatus_t st = call_gemm(&bufs, 0, handle, &g, dev, alpha, beta, tmpl_key.span);
    if (st != CUBLAS_STATUS_SUCCESS) {
        gt_fail("status %s", gt_status_name(st));
        return;
    }
    check_outside(hCt, hCo, nb, m, n, g.ldc, g.sC);
    for (int b = 0; b < nb; b++) {
        gather(got[b], hCo + (size_t)b * (size_t)g.sC, m, n, g.ldc);
        if (beta0)
            for (int64_t i = 0; i < m * n; i++)
                if (isnan(got[b][i])) {
                    gt_fail("C(%lld,%lld) of batch entry %d is NaN with beta = 0 (the NaN in C "
                            "propagated)", (long long)(i % m), (long long)(i / m), b);
                    break;
                }
        if (!refs[b].ready) {
            double mnk = (double)m * (double)n * (double)k;
            ref_compute(&refs[b], P, b, alpha, beta, mnk <= (b ? FULL1 : FULL0));
        }
        ref_check(&refs[b], got[b], m, n, b);
    }
}

void bitwise_shape(int si)
{
    const int64_t m = shapes[si][0], n = shapes[si][1], k = shapes[si][2];
    const double mnk = (double)m * (double)n * (double)k;
    const int big = m * n > 256 * 256;
    df_group("bitwise %lldx%lldx%lld vs dfs_df_gemm_host (%s): Dgemm {N,T,C}^2 x ld tight/+7 x "
          "alpha{1,-1,0.5,3} x beta{0,1,-0.75} x host/device ptr; Dgemm_64, GemmEx, "
          "DgemmSB(batch 3) {N,T,C}^2 ld+7%s; GemmEx_64, DgemmSB_64, GemmSBEx(_64) 4 op pairs, "
          "4 alpha,beta", (long long)m, (long long)n, (long long)k,
          mnk <= FULL1 ? "every entry" : mnk <= FULL0 ? "every entry; batch 1,2 sampled"
                                                      : "sampled rows/columns",
          big ? " 4 alpha,beta" : "");
    problem P = make_problem(m, n, k, NB, 1000 + 100 * (uint64_t)si);
    tmpl_key.valid = 0;
    static const struct {
        gt_gemm_api api;
        int all_ops, pads, few; /* pads: bit 0 tight, bit 1 +7; few: only 4 alpha,beta */
    } apis[] = {
        {GT_DGEMM, 1, 3, 0},       {GT_DGEMM_64, 1, 2, -1},     {GT_GEMMEX, 1, 2, -1},
        {GT_DGEMM_SB, 1, 2, -1},   {GT_GEMMEX_64, 0, 2, 1},     {GT_DGEMM_SB_64, 0, 2, 1},
        {GT_GEMM_SBEX, 0, 2, 1},   {GT_GEMM_SBEX_64, 0, 1, 1},
    };
    for (int ia = 0; ia < 4; ia++)
        for (int ib = 0; ib < 3; ib++) {
            ref refs[NB];
            memset(refs, 0, sizeof refs);
            const int in_few = (ia + ib) % 3 == 0;
            for (size_t a = 0; a < sizeof apis / sizeof apis[0]; a++) {
                int few = apis[a].few < 0 ? big : apis[a].few;
                if (few && !in_few)
                    continue;
                int nops = apis[a].all_ops ? 9 : 4;
                for (int o = 0; o < nops; o++) {
                    cublasOperation_t ta = apis[a].all_ops ? ops3[o / 3] : ops4[o][0];
                    cublasOperation_t tb = apis[a].all_ops ? ops3[o % 3] : ops4[o][1];
                    for (int pad = 0; pad <= 7; pad += 7) {
                        if (!(apis[a].pads & (pad ? 2 : 1)))
                            continue;
                        for (int dev = 0; dev < 2; dev++)
                            bitwise_case(&P, refs, alphas[ia], betas[ib], apis[a].api, ta, tb,
                                         pad, dev);
                    }
                }
            }
            for (int b = 0; b < NB; b++)
                ref_free(&refs[b]);
        }
    free_problem(&P);
    df_group_end();
}

/* ---------- 2. blocking ---------- */

/* Options that change how the product is blocked, never its result: the tiled path (small=never:
 * the small kernel may take this shape under small=auto) with its tiles and panels, and the small
 * kernel. */
static const char *const block_variants[] = {
    "small=never", "small=never,workspace_mb=16", "small=never,tile=128x64",
    "small=never,tile=128x128", "small=never,tile=64x64",
    "small=never,workspace_mb=16,tile=128x64", "small=never,workspace_mb=16,tile=128x128",
    "small=never,workspace_mb=16,tile=64x64", "small=always"};
#define N_BLOCK_VARIANTS (int)(sizeof block_variants / sizeof block_variants[0])

void blocking_group(void)
{
    const int64_t m = 1500, n = 1300, k = 1500;
    const double alpha = 1.5, beta = -0.75;
    int64_t Mb0, Nb0, Mb, Nb;
    size_t by0, by;
    df_plan(m, n, k, (size_t)1024 << 20, &Mb0, &Nb0, &by0);
    df_plan(m, n, k, (size_t)16 << 20, &Mb, &Nb, &by);
    df_group("blocking %lldx%lldx%lld, ops NN and TC, alpha=%g beta=%g: EXBLAS_MODE=%s vs the "
          "same + small=never (%lldx%lld panels by engine.c's plan), with workspace_mb=16 "
          "(%lldx%lld panels), tile=128x64, 128x128, 64x64 and with it, and small=always: "
          "bitwise, and vs dfs_df_gemm_host on %d rows + %d columns; EXBLAS_MODE=native after "
          "setenv = real cuBLAS", (long long)m, (long long)n,
          (long long)k, alpha, beta, mode_orig, (long long)((m + Mb0 - 1) / Mb0),
          (long long)((n + Nb0 - 1) / Nb0), (long long)((m + Mb - 1) / Mb),
          (long long)((n + Nb - 1) / Nb), NS, NS);
    if (!reread) {
        gt_case("setup");
        gt_fail("EXBLAS_REREAD is not set: the shim would not see setenv(\"EXBLAS_MODE\")");
        df_group_end();
        return;
    }
    problem P = make_problem(m, n, k, 1, 77);
    ref r = {0};
    ref_compute(&r, &P, 0, alpha, beta, 0);
    double *first_nn = df_xmalloc((size_t)(m * n));
    static const cublasOperation_t pairs[2][2] = {{CUBLAS_OP_N, CUBLAS_OP_N},
                                                  {CUBLAS_OP_T, CUBLAS_OP_C}};
    for (int pi = 0; pi < 2; pi++) {
        const cublasOperation_t ta = pairs[pi][0], tb = pairs[pi][1];
        const int tA = ta != CUBLAS_OP_N, tB = tb != CUBLAS_OP_N;
        gt_gemm g = {.api = GT_DGEMM, .ta = ta, .tb = tb, .m = m, .n = n, .k = k, .batch = 1,
                     .A = dA, .B = dB, .lda = tA ? k : m, .ldb = tB ? n : k, .ldc = m};
        gt_h2d(dA, hA, lay_out(hA, BUF, P.A, 1, m, k, tA, g.lda, 0, qnan) * sizeof *hA);
        gt_h2d(dB, hB, lay_out(hB, BUF, P.B, 1, k, n, tB, g.ldb, 0, qnan) * sizeof *hB);
        size_t span = lay_out(hCt, BUF, P.C, 1, m, n, 0, m, 0, C_GAP);
        tmpl_key.valid = 0;

        gt_case("op=%c%c EXBLAS_MODE=%s", gt_op_char(ta), gt_op_char(tb), mode_orig);
        set_mode(mode_orig);
        cublasStatus_t st = call_gemm(&bufs, 0, handle, &g, 0, alpha, beta, span);
        if (st != CUBLAS_STATUS_SUCCESS)
            gt_fail("status %s", gt_status_name(st));
        memcpy(got[0], hCo, span * sizeof *hCo);
        /* ref_check keeps the first result it sees in r.first: dropped after each check here,
         * the comparisons between results are explicit */
        ref_check(&r, got[0], m, n, 0);
        free(r.first);
        r.first = NULL;
        if (pi == 0)
            memcpy(first_nn, got[0], span * sizeof *hCo);
        else
            cmp_tight("C (op TC) vs C (op NN)", "NN", first_nn, got[0], m, n, 0);

        for (int v = 0; v < N_BLOCK_VARIANTS; v++) {
            char *mode = mode_with(block_variants[v]);
            gt_case("op=%c%c EXBLAS_MODE=%s", gt_op_char(ta), gt_op_char(tb), mode);
            set_mode(mode);
            st = call_gemm(&bufs, 0, handle, &g, 0, alpha, beta, span);
            if (st != CUBLAS_STATUS_SUCCESS)
                gt_fail("status %s", gt_status_name(st));
            memcpy(got[1], hCo, span * sizeof *hCo);
            char what[160];
            snprintf(what, sizeof what, "C with %s vs C with EXBLAS_MODE=%s", block_variants[v],
                     mode_orig);
            cmp_tight(what, "first", got[0], got[1], m, n, 0);
            ref_check(&r, got[1], m, n, 0);
            free(r.first);
            r.first = NULL;
            free(mode);
        }

        gt_case("op=%c%c EXBLAS_MODE=native after setenv: real cuBLAS bitwise", gt_op_char(ta),
                gt_op_char(tb));
        set_mode("native");
        st = call_gemm(&bufs, 0, handle, &g, 0, alpha, beta, span);
        memcpy(got[2], hCo, span * sizeof *hCo);
        cublasStatus_t sr = call_gemm(&bufs, 1, handle, &g, 0, alpha, beta, span);
        gt_cmp_status("cublasDgemm_v2", sr, st);
        if (!cmp_tight("C with EXBLAS_MODE=native vs real cuBLAS (the shim did not re-read "
                       "EXBLAS_MODE?)", "real", hCo, got[2], m, n, 0))
            if (!memcmp(got[2], got[0], span * sizeof *hCo))
                gt_fail("EXBLAS_MODE=native after setenv still gave the df result");
        set_mode(mode_orig);
    }
    gt_case("back to EXBLAS_MODE=%s: op NN gives the first result again", mode_orig);
    {
        gt_gemm g = {.api = GT_DGEMM, .ta = CUBLAS_OP_N, .tb = CUBLAS_OP_N, .m = m, .n = n,
                     .k = k, .batch = 1, .A = dA, .B = dB, .lda = m, .ldb = k, .ldc = m};
        gt_h2d(dA, hA, lay_out(hA, BUF, P.A, 1, m, k, 0, m, 0, qnan) * sizeof *hA);
        gt_h2d(dB, hB, lay_out(hB, BUF, P.B, 1, k, n, 0, k, 0, qnan) * sizeof *hB);
        size_t span = lay_out(hCt, BUF, P.C, 1, m, n, 0, m, 0, C_GAP);
        cublasStatus_t st = call_gemm(&bufs, 0, handle, &g, 0, alpha, beta, span);
        if (st != CUBLAS_STATUS_SUCCESS)
            gt_fail("status %s", gt_status_name(st));
        cmp_tight("C after restoring EXBLAS_MODE vs the first result", "first", first_nn, hCo, m,
                  n, 0);
    }
    tmpl_key.valid = 0;
    free(first_nn);
    ref_free(&r);
    free_problem(&P);
    df_group_end();
}
