/* host_crt.c — the DGEMM by the Ozaki scheme II (crt.h) on the CPU: the algorithm of the
 * integer tensor-core path (kernels.cu, crt_gemm.c) step for step, with the int8 GEMMs as
 * plain loops and the same per-output finish (crt_finish.h), so the GPU's bits can be checked.
 * Verifying (fast = 0): every output is RN(alpha op(A) op(B) + beta C), the same bits as
 * dfs_oz_gemm_host; an output the truncated product cannot decide, or one with a special
 * operand, is computed exactly and directly.  fast = 1: the int8 engine's result. */
#include "host_crt.h"

#include "crt_finish.h"
#include "host_common.h"
#include "kgroups.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The residues of row r of op(A) (is_b: column r of op(B)) modulo the n moduli, as the GPU's
 * residue kernel makes them (op(A)'s times y_l: dfs_crt_coefs): R[(l * rows + r) * k + q];
 * bits[r], the row's bits; fast: plane n the magnitudes (crt_check.h).  kcls set: the elements
 * of other groups than `group` taken as zeros (kgroups.h). */
static void residues(const gemm_in *g, int is_b, int64_t rows, const dfs_oz_row *info,
                     const dfs_crt_table *tab, int L, int fast, const signed char *kcls,
                     int group, int *bits, signed char *R)
{
    const int64_t k = g->k;
    uint32_t coef[DFS_CRT_MODULI][DFS_CRT_ALIMBS];
    dfs_crt_coefs(tab, !is_b, coef);
    for (int64_t r = 0; r < rows; r++) {
        const int live = !info[r].special && info[r].tau != DFS_OZ_NONE_TAU;
        const int b = info[r].special ? 0 : dfs_crt_row_bits(L, dfs_oz_row_l2sq(info[r], k), k);
        bits[r] = b;
        for (int64_t q = 0; q < k; q++) {
            const double v = is_b ? opB(g->tb, g->B, g->ldb, q, r) : opA(g->ta, g->A, g->lda, r, q);
            dfs_crt_int x = {{0, 0, 0, 0, 0}};
            if (live && (!kcls || kcls[q] == group))
                dfs_crt_int_of(v, info[r].tau, b, dfs_crt_rounds(fast, b), &x);
            for (int l = 0; l < tab->n; l++)
                R[((size_t)l * rows + r) * k + q] = (signed char)dfs_crt_residue_limbs(
                    &x, dfs_crt_limbs(b), coef[l], (unsigned)dfs_crt_modulus(l));
            if (fast)
                R[((size_t)tab->n * rows + r) * k + q] =
                    (signed char)dfs_crt_mag(v, live ? info[r].tau : DFS_OZ_NONE_TAU);
        }
    }
}

_Static_assert(DFS_OZ_STATS_NEED == DFS_CRT_MODULI + 2, "a need bin per moduli count");

/* The classes of the inner dimension (kgroups.h) into kcls[k]; st->kgap, st->ksplit. */
static void classes(const gemm_in *g, signed char *kcls, int *s, dfs_oz_stats *st)
{
    for (int64_t q = 0; q < g->k; q++) {
        dfs_oz_row ca = dfs_oz_row_init(), rb = dfs_oz_row_init();
        for (int64_t r = 0; r < g->m; r++)
            dfs_oz_row_add(&ca, opA(g->ta, g->A, g->lda, r, q));
        for (int64_t c = 0; c < g->n; c++)
            dfs_oz_row_add(&rb, opB(g->tb, g->B, g->ldb, q, c));
        s[q] = dfs_oz_ks(ca.tau, rb.tau);
    }
    int thr;
    st->ksplit = dfs_oz_ksplit_host(s, g->k, &st->kgap, &thr);
    for (int64_t q = 0; q < g->k; q++)
        kcls[q] = dfs_oz_kclass(s[q], st->ksplit, thr);
}

void dfs_oz_crt_gemm_host(int transa, int transb, int64_t m, int64_t n, int64_t k, double alpha,
                          const double *A, int64_t lda, const double *B, int64_t ldb, double beta,
                          double *C, int64_t ldc, int moduli, int fast, dfs_oz_stats *st)
{
    dfs_oz_crt_gemm_host_groups(transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc,
                                moduli, fast, 1, st);
}

void dfs_oz_crt_gemm_host_groups(int transa, int transb, int64_t m, int64_t n, int64_t k,
                                 double alpha, const double *A, int64_t lda, const double *B,
                                 int64_t ldb, double beta, double *C, int64_t ldc, int moduli,
                                 int fast, int kgroups, dfs_oz_stats *st)
{
    memset(st, 0, sizeof *st);
    if (m <= 0 || n <= 0)
        return;
    const gemm_in g = {transa, transb, m, n, k, A, B, lda, ldb};
    dfs_crt_step step;
    memset(&step, 0, sizeof step);
    const int most = fast ? DFS_CRT_FAST_MODULI : DFS_CRT_MODULI;
    const int nmod = k < DFS_CRT_MAX_K && moduli >= 1 && moduli <= most ? moduli : 0;
    dfs_crt_table_init(&step.tab, nmod);
    step.L = dfs_crt_bits(nmod);
    step.lower_L = !fast && nmod > 1 ? dfs_crt_bits(nmod - 1) : 0;
    step.verify = !fast;
    step.k = k;
    dfs_crt_step_bits(&step);
    const int G = !fast && kgroups == 2 && k >= 2 ? 2 : 1;
    const size_t kk = k > 0 ? (size_t)k : 1;
    /* per group: rows, columns, bits; planes: the moduli of each group (fast: the magnitudes) */
    dfs_oz_row *ia = calloc((size_t)(G * m), sizeof *ia), *ib = calloc((size_t)(G * n), sizeof *ib);
    const int planes = G * nmod + (fast != 0);
    signed char *RA = malloc((size_t)(planes ? planes : 1) * (size_t)m * kk);
    signed char *RB = malloc((size_t)(planes ? planes : 1) * (size_t)n * kk);
    int *bA = calloc((size_t)(G * m), sizeof *bA), *bB = calloc((size_t)(G * n), sizeof *bB);
    signed char *kcls = G == 2 ? malloc(kk) : NULL;
    int *ks = G == 2 ? malloc(kk * sizeof *ks) : NULL;
    /* without moduli (a k too large, or none asked) or memory, every output directly */
    const int usable = ia && ib && RA && RB && bA && bB && (G == 1 || (kcls && ks)) && nmod &&
                       dfs_crt_scale_bits(nmod, k > 0 ? k : 1) > 0;
    if (usable) {
        if (G == 2)
            classes(&g, kcls, ks, st);
        for (int grp = 0; grp < G; grp++) {
            for (int64_t r = 0; r < m; r++)
                ia[grp * m + r] = row_of_gpu_group(&g, 0, r, kcls, grp);
            for (int64_t c = 0; c < n; c++)
                ib[grp * n + c] = row_of_gpu_group(&g, 1, c, kcls, grp);
            residues(&g, 0, m, ia + grp * m, &step.tab, step.L, fast, kcls, grp, bA + grp * m,
                     RA + (size_t)grp * nmod * (size_t)m * kk);
            residues(&g, 1, n, ib + grp * n, &step.tab, step.L, fast, kcls, grp, bB + grp * n,
                     RB + (size_t)grp * nmod * (size_t)n * kk);
        }
    }
    st->slices_a = st->slices_b = nmod;
    int64_t win[DFS_OZ_WIN], res[DFS_OZ_RWIN];
    for (int64_t c = 0; c < n; c++)
        for (int64_t r = 0; r < m; r++) {
            double *out = &C[r + c * ldc];
            int done = 0;
            if (usable) {
                /* the int8 GEMMs, one per plane (int32 accumulation: exact for k < 2^17) */
                int32_t sums[2 * DFS_CRT_MODULI + 1];
                for (int l = 0; l < planes; l++) {
                    const signed char *x = RA + ((size_t)l * m + r) * kk;
                    const signed char *y = RB + ((size_t)l * n + c) * kk;
                    int32_t s = 0;
                    for (int64_t q = 0; q < k; q++)
                        s += (int32_t)x[q] * (int32_t)y[q];
                    sums[l] = s;
                }
                double v;
                int how;
                if (fast) {
                    const dfs_crt_rowinfo ri = {ia[r].tau, bA[r], ia[r].special,
                                                dfs_oz_row_l1(ia[r], k), dfs_oz_row_l2sq(ia[r], k)};
                    const dfs_crt_rowinfo ci = {ib[c].tau, bB[c], ib[c].special,
                                                dfs_oz_row_l1(ib[c], k), dfs_oz_row_l2sq(ib[c], k)};
                    int need;
                    how = dfs_crt_output_fast(&step, 0, sums, 1, &ri, &ci, alpha, beta,
                                              beta != 0 ? *out : 0.0, 0, &v, &need);
                    if (how == DFS_OZ_UNDECIDED) { /* the repair: FP64, in order of q */
                        double acc = 0.0;
                        for (int64_t q = 0; q < k; q++)
                            acc = fma(opA(g.ta, A, lda, r, q), opB(g.tb, B, ldb, q, c), acc);
                        v = dfs_crt_axpby(alpha, acc, beta, beta != 0 ? *out : 0.0);
                        how = DFS_OZ_WRITTEN;
                        st->repaired++;
                    }
                } else {
                    /* the output's larger part (two groups: dfs_crt_group_pick), the other
                     * bounded by 2^eo */
                    int lower, need, eo = DFS_OZ_NO_EXP, d = 0, special = 0;
                    for (int grp = 0; grp < G; grp++)
                        special |= ia[grp * m + r].special || ib[grp * n + c].special;
                    if (G == 2) {
                        const dfs_oz_row a0 = ia[r], a1 = ia[m + r], b0 = ib[c], b1 = ib[n + c];
                        d = dfs_crt_group_pick(
                            dfs_crt_group_exp(a0.tau, b0.tau, dfs_oz_row_l1(a0, k),
                                              dfs_oz_row_l1(b0, k)),
                            dfs_crt_group_exp(a1.tau, b1.tau, dfs_oz_row_l1(a1, k),
                                              dfs_oz_row_l1(b1, k)),
                            &eo);
                    }
                    const dfs_oz_row ra = ia[d * m + r], cb = ib[d * n + c];
                    how = dfs_crt_output(&step, sums + d * nmod, 1, ra.tau, cb.tau, bA[d * m + r],
                                         bB[d * n + c], dfs_oz_row_l1(ra, k), dfs_oz_row_l1(cb, k),
                                         dfs_oz_row_l2sq(ra, k), dfs_oz_row_l2sq(cb, k), eo,
                                         special, alpha, beta, beta != 0 ? *out : 0.0, win, res,
                                         &v, &lower, nmod > DFS_CRT_FAST_MODULI, 0, &need);
                    if (how == DFS_OZ_UNDECIDED && need > 0 && need <= DFS_CRT_MODULI + 1)
                        st->need[need]++;
                }
                if (how == DFS_OZ_WRITTEN) {
                    *out = v;
                    done = 1;
                }
            }
            if (!done) {
                /* directly and exactly (correctly rounded) */
                *out = dfs_oz_exact_output(&g, r, c, alpha, beta, beta != 0 ? *out : 0.0);
                st->slow++;
            }
        }
    free(ia);
    free(ib);
    free(RA);
    free(RB);
    free(bA);
    free(bB);
    free(kcls);
    free(ks);
}
