/* twin_cases_gemm.c — group 3 of the repro and dd tests (repro.c says what it runs): DGEMM;
 * and the DGEMM problems and layouts group 5 runs again. */
#include "twin_cases.h"

#include "../common/gen.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------- 3. DGEMM ---------- */

static const char *const gk_names[GK_COUNT] = {
    "phi0", "phi1", "phi4", "op(A) rows * 1e300 / * 1e-300, phi1",
    "op(A) columns * 1e300 (every 8th) / * 1e-300, op(B) zero there for even columns, phi1",
    "phi1, Inf and NaN in rows of op(A), -Inf in a column of op(B), Inf * 0"};

void make_problem(problem *P, int64_t m, int64_t n, int64_t k, int kind, int distinct,
                  uint64_t seed)
{
    memset(P, 0, sizeof *P);
    P->m = m;
    P->n = n;
    P->k = k;
    static const int gA[GK_COUNT] = {G_PHI0, G_PHI1, G_PHI4, G_PHI1, G_PHI1, G_PHI1};
    for (int b = 0; b < NB; b++) {
        P->A[b] = df_xmalloc((size_t)max64(m * k, 1));
        P->B[b] = df_xmalloc((size_t)max64(k * n, 1));
        P->C[b] = df_xmalloc((size_t)(m * n));
        P->A0[b] = df_xmalloc((size_t)max64(m * k, 1));
        P->B0[b] = df_xmalloc((size_t)max64(k * n, 1));
        if (b > 0 && !distinct) {
            memcpy(P->A[b], P->A[0], (size_t)(m * k) * sizeof(double));
            memcpy(P->B[b], P->B[0], (size_t)(k * n) * sizeof(double));
            memcpy(P->C[b], P->C[0], (size_t)(m * n) * sizeof(double));
        } else {
            const uint64_t s = seed + 10 * (uint64_t)b;
            double *A = P->A[b], *B = P->B[b];
            fill(A, m * k, gA[kind], s);
            fill(B, k * n, gA[kind], s + 1);
            fill(P->C[b], m * n, G_PHI1, s + 2);
            if (kind == GK_ROWS)
                wide_rows(A, m, k);
            if (kind == GK_COLS)
                wide_cols(A, B, m, n, k);
            if (kind == GK_SPECIAL && k > 0)
                place_specials(A, B, m, n, k);
        }
        poison(P->A0[b], P->A[b], m * k);
        poison(P->B0[b], P->B[b], k * n);
    }
    P->Cnan = df_xmalloc((size_t)(m * n));
    gt_fill_const(P->Cnan, (size_t)(m * n), qnan);
}

int64_t problem_refs(problem *P, const int *abs_, int nab, int distinct, int *slices)
{
    int64_t direct = 0;
    *slices = 0;
    for (int ai = 0; ai < nab; ai++) {
        const int ab = abs_[ai];
        const double alpha = ab_alpha(ab), beta = ab_beta(ab);
        for (int b = 0; b < NB; b++) {
            P->ref[ab][b] = df_xmalloc((size_t)(P->m * P->n));
            if (b > 0 && !distinct) {
                memcpy(P->ref[ab][b], P->ref[ab][0], (size_t)(P->m * P->n) * sizeof(double));
                continue;
            }
            int s;
            direct += gemm_ref(P->m, P->n, P->k, alpha, P->A[b], P->B[b], beta,
                               beta == 0 ? P->Cnan : P->C[b], P->ref[ab][b], &s);
            *slices = s > *slices ? s : *slices;
        }
    }
    return direct;
}

void free_problem(problem *P)
{
    for (int b = 0; b < NB; b++) {
        free(P->A[b]);
        free(P->B[b]);
        free(P->C[b]);
        free(P->A0[b]);
        free(P->B0[b]);
        for (int ab = 0; ab < NAB; ab++)
            free(P->ref[ab][b]);
    }
    free(P->Cnan);
    memset(P, 0, sizeof *P);
}

void gemm_layout(const problem *P, const char *desc, gt_gemm_api api, int ta, int tb,
                 int pad, const int *abs_, int nab, double *gotb)
{
    const int64_t m = P->m, n = P->n, k = P->k;
    const int strided = gt_gemm_api_strided(api), nb = strided ? NB : 1;
    gt_gemm g = gemm_setup(api, ta, tb, m, n, k, pad, nb);
    double *const *Ls[4] = {P->A, P->A0, P->B, P->B0};
    double *dst[4] = {dA, dA0, dB, dB0};
    for (int q = 0; q < 4; q++) {
        const int isB = q >= 2;
        const size_t span = lay_out(isB ? hB : hA, isB ? G_BUF : A_BUF, Ls[q], nb,
                                    isB ? k : m, isB ? n : k, isB ? tb : ta,
                                    isB ? g.ldb : g.lda, isB ? g.sB : g.sA, qnan);
        gt_h2d(dst[q], isB ? hB : hA, span * sizeof(double));
    }
    for (int ai = 0; ai < nab; ai++) {
        const int ab = abs_[ai];
        const double alpha = ab_alpha(ab), beta = ab_beta(ab);
        double *Cl[NB];
        for (int b = 0; b < nb; b++)
            Cl[b] = beta == 0 ? P->Cnan : P->C[b];
        const size_t span = lay_out(hCt, G_BUF, Cl, nb, m, n, 0, g.ldc, g.sC, C_GAP);
        g.A = alpha == 0 ? dA0 : dA;
        g.B = alpha == 0 ? dB0 : dB;
        for (int dev = 0; dev < 2; dev++) {
            gt_case("%s %lldx%lldx%lld op=%c%c ld+%d alpha=%g beta=%g %s ptr=%s",
                    gt_gemm_api_name[api], (long long)m, (long long)n, (long long)k,
                    gt_op_char(g.ta), gt_op_char(g.tb), pad, alpha, beta, desc,
                    dev ? "device" : "host");
            check_status(gt_gemm_api_name[api],
                         call_gemm(&bufs, 0, handle, &g, dev, alpha, beta, span));
            check_outside(hCt, hCo, nb, m, n, g.ldc, g.sC);
            for (int b = 0; b < nb; b++) {
                gather(gotb, hCo + (size_t)b * (size_t)g.sC, m, n, g.ldc);
                char what[48];
                snprintf(what, sizeof what, "C of batch entry %d", b);
                cmp_out(what, P->ref[ab][b], gotb, m * n, m);
            }
        }
    }
}

static const gt_gemm_api gemm_apis[4] = {GT_DGEMM, GT_DGEMM_64, GT_DGEMM_SB, GT_GEMMEX};
static const int gemm_pads[4] = {0, 3, 0, 3};

void gemm_group(void)
{
    static const int64_t shapes[6][3] = {{1, 1, 1},       {13, 17, 29},  {64, 64, 300},
                                         {257, 129, 65}, {512, 512, 512}, {7, 9, 0}};
    static const int big_ab[4] = {0, 4, 8, 11}; /* (1,0), (0.5,1), (-3,-0.75), (0,-0.75) */
    df_group("DGEMM: Dgemm_v2, _64 (T as C), StridedBatched (batch %d), GemmEx x NN, NT, TN, TT "
             "x 6 shapes up to 512^3 and k = 0 x {phi0, 1, 4, rows 1e+-300, columns 1e+-300, "
             "Inf/NaN} x alpha x beta x host/device pointers: bitwise the CPU's", NB);
    double *gotb = df_xmalloc(G_BUF);
    int all_ab[NAB];
    for (int ab = 0; ab < NAB; ab++)
        all_ab[ab] = ab;
    int64_t direct = 0, entries = 0;
    int max_slices = 0;
    for (int si = 0; si < 6; si++) {
        const int64_t m = shapes[si][0], n = shapes[si][1], k = shapes[si][2];
        const int big = m * n * k > 300 * 300 * 300;
        for (int kind = 0; kind < GK_COUNT; kind++) {
            if ((big && kind == GK_PHI1) || (k == 0 && kind != GK_PHI1))
                continue;
            problem P;
            make_problem(&P, m, n, k, kind, !big, 3000 + 100 * (uint64_t)si + 10 * (uint64_t)kind);
            const int *abs_ = big ? big_ab : all_ab;
            const int nab = big ? 4 : NAB;
            int slices;
            direct += problem_refs(&P, abs_, nab, !big, &slices);
            entries += (int64_t)nab * (big ? 1 : NB) * m * n;
            max_slices = slices > max_slices ? slices : max_slices;
            for (int tp = 0; tp < 4; tp++)
                for (int a = 0; a < 4; a++)
                    gemm_layout(&P, gk_names[kind], gemm_apis[a], tp & 1, tp >> 1, gemm_pads[a],
                                abs_, nab, gotb);
            free_problem(&P);
        }
    }
    free(gotb);
    df_group_end();
    printf("     (CPU: %lld of %lld entries computed directly, up to %d slices)\n",
           (long long)direct, (long long)entries, max_slices);
}
