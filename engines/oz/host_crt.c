/* host_crt.c — the DGEMM by the Ozaki scheme II (crt.h) on the CPU: the algorithm of the
 * integer tensor-core path (kernels.cu, crt_gemm.c) step for step, with the int8 GEMMs as
 * plain loops and the same per-output finish (crt_finish.h), so the GPU's bits can be checked.
 * Verifying (fast = 0): every output is RN(alpha op(A) op(B) + beta C), the same bits as
 * dfs_oz_gemm_host; an output the truncated product cannot decide, or one with a special
 * operand, is computed exactly and directly.  fast = 1: the int8 engine's result.  Complex with
 * complex scalars: the row pairs (crt_zpair.h), each part rounded once. */
#include "host_crt.h"

#include "crt_finish.h"
#include "crt_zpair.h"
#include "host_common.h"
#include "kgroups.h"

#include "../common/xcombine.h"

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

/* The complex scalars of a call on row pairs (crt_zpair.h). */
typedef struct {
    double alpha[2], beta[2];
} zscal;

/* Both parts of C's output (r / 2, c) from rows r and r + 1 of the row pairs' op(A) (g), each
 * rounded once, exactly: the CPU's counterpart of dfs_oz_direct_pairs.  out: C's element. */
static void exact_zoutput(const gemm_in *g, int64_t r, int64_t c, const zscal *z, double *out)
{
    int64_t w[2 * DFS_X_WORDS + DFS_X_ZSCRATCH];
    dfs_xacc s[2];
    unsigned f[2] = {0, 0};
    for (int p = 0; p < 2; p++) {
        dfs_x_init(&s[p], w + p * DFS_X_WORDS, DFS_X_WORDS, DFS_X_LSB);
        for (int64_t q = 0; (z->alpha[0] != 0 || z->alpha[1] != 0) && q < g->k; q++) {
            const double a = opA(g->ta, g->A, g->lda, r + p, q), b = opB(g->tb, g->B, g->ldb, q, c);
            dfs_x_add_product_or_flag(&s[p], &f[p], a, b);
        }
    }
    dfs_x_zfinish(&s[0], f[0], &s[1], f[1], z->alpha, z->beta, w + 2 * DFS_X_WORDS, out);
}

static void crt_host(const gemm_in *g, double alpha, double beta, double *C, int64_t ldc,
                     int moduli, int fast, int kgroups, const zscal *z, dfs_oz_stats *st);

void dfs_oz_crt_gemm_host_groups(int transa, int transb, int64_t m, int64_t n, int64_t k,
                                 double alpha, const double *A, int64_t lda, const double *B,
                                 int64_t ldb, double beta, double *C, int64_t ldc, int moduli,
                                 int fast, int kgroups, dfs_oz_stats *st)
{
    const gemm_in g = {transa, transb, m, n, k, A, B, lda, ldb};
    crt_host(&g, alpha, beta, C, ldc, moduli, fast, kgroups, NULL, st);
}

int dfs_oz_crt_zgemm_host(int transa, int transb, int64_t m, int64_t n, int64_t k,
                          const double alpha[2], const double *A, int64_t lda, const double *B,
                          int64_t ldb, const double beta[2], double *C, int64_t ldc, int moduli,
                          int kgroups, dfs_oz_stats *st)
{
    memset(st, 0, sizeof *st);
    if (m <= 0 || n <= 0)
        return 0;
    const size_t kk = k > 0 ? (size_t)k : 1;
    double *Ap = malloc(4 * (size_t)m * kk * sizeof *Ap);
    double *Bp = malloc(2 * kk * (size_t)n * sizeof *Bp);
    if (!Ap || !Bp) {
        free(Ap);
        free(Bp);
        return -1;
    }
    /* op(X)(r, q) of the complex X (op 0 N, 1 T, 2 C), its parts */
    for (int64_t q = 0; q < k; q++) {
        for (int64_t i = 0; i < m; i++) {
            const double *e = transa ? A + 2 * (q + i * lda) : A + 2 * (i + q * lda);
            const double ar = e[0], ai = transa == 2 ? -e[1] : e[1];
            double *col0 = Ap + 2 * q * 2 * m, *col1 = col0 + 2 * m;
            col0[2 * i] = ar, col1[2 * i] = -ai, col0[2 * i + 1] = ai, col1[2 * i + 1] = ar;
        }
        for (int64_t j = 0; j < n; j++) {
            const double *e = transb ? B + 2 * (j + q * ldb) : B + 2 * (q + j * ldb);
            Bp[2 * q + j * 2 * k] = e[0];
            Bp[2 * q + 1 + j * 2 * k] = transb == 2 ? -e[1] : e[1];
        }
    }
    const gemm_in g = {0, 0, 2 * m, n, 2 * k, Ap, Bp, 2 * m, 2 * k > 0 ? 2 * k : 1};
    zscal z;
    memcpy(z.alpha, alpha, sizeof z.alpha);
    memcpy(z.beta, beta, sizeof z.beta);
    crt_host(&g, 1.0, 0.0, C, 2 * ldc, moduli, 0, kgroups, &z, st);
    free(Ap);
    free(Bp);
    return 0;
}

/* Row pairs (crt_zpair.h): both parts of every output of the complex C (ldc: its real view),
 * by dfs_crt_output_pair where the residues decide them, else exact_zoutput. */
static dfs_crt_vrow vrow(dfs_oz_row ri, int bits, int64_t k)
{
    return (dfs_crt_vrow){ri.tau, bits, dfs_oz_row_l1(ri, k), dfs_oz_row_l2sq(ri, k)};
}

/* G groups: rows ia[grp * m + r], columns ib[grp * n + c], group grp's planes from grp * nmod. */
static void pair_outputs(const gemm_in *g, const dfs_crt_step *step, int usable, int G,
                         const dfs_oz_row *ia, const dfs_oz_row *ib, const int *bA, const int *bB,
                         const signed char *RA, const signed char *RB, const zscal *z, double *C,
                         int64_t ldc, dfs_oz_stats *st)
{
    const int64_t m = g->m, n = g->n, k = g->k, kk = k > 0 ? k : 1;
    const int nmod = step->tab.n;
    const int with_c = z->beta[0] != 0 || z->beta[1] != 0;
    for (int64_t c = 0; c < n; c++)
        for (int64_t r = 0; r < m; r += 2) {
            double *out = &C[r + c * ldc];
            int how = DFS_OZ_LISTED;
            double v[2];
            if (usable) {
                int32_t sums[2][DFS_CRT_MODULI];
                dfs_crt_vrow ra[2], rb[2];
                int eo[2], special = 0;
                for (int grp = 0; grp < G; grp++)
                    special |= ia[grp * m + r].special || ia[grp * m + r + 1].special ||
                               ib[grp * n + c].special;
                for (int p = 0; p < 2; p++) {
                    int d = 0; /* the part's larger group (dfs_crt_group_pick) */
                    eo[p] = DFS_OZ_NO_EXP;
                    if (G == 2) {
                        const dfs_oz_row a0 = ia[r + p], a1 = ia[m + r + p], b0 = ib[c],
                                         b1 = ib[n + c];
                        d = dfs_crt_group_pick(
                            dfs_crt_group_exp(a0.tau, b0.tau, dfs_oz_row_l1(a0, k),
                                              dfs_oz_row_l1(b0, k)),
                            dfs_crt_group_exp(a1.tau, b1.tau, dfs_oz_row_l1(a1, k),
                                              dfs_oz_row_l1(b1, k)),
                            &eo[p]);
                    }
                    for (int l = 0; l < nmod; l++) {
                        const size_t pl = (size_t)d * nmod + l;
                        const signed char *x = RA + (pl * m + r + p) * kk;
                        const signed char *y = RB + (pl * n + c) * kk;
                        int32_t s = 0;
                        for (int64_t q = 0; q < k; q++)
                            s += (int32_t)x[q] * (int32_t)y[q];
                        sums[p][l] = s;
                    }
                    ra[p] = vrow(ia[d * m + r + p], bA[d * m + r + p], k);
                    rb[p] = vrow(ib[d * n + c], bB[d * n + c], k);
                }
                const double cv[2] = {with_c ? out[0] : 0.0, with_c ? out[1] : 0.0};
                const int32_t *const cs[2] = {sums[0], sums[1]};
                const dfs_crt_vrow *const rap[2] = {&ra[0], &ra[1]}, *const rbp[2] = {&rb[0],
                                                                                      &rb[1]};
                int lower, need;
                how = dfs_crt_output_pair(step, cs, 1, rap, rbp, eo, special, z->alpha, z->beta,
                                          cv, nmod > DFS_CRT_FAST_MODULI, v, &lower, &need);
                if (how == DFS_OZ_UNDECIDED && need > 0 && need <= DFS_CRT_MODULI + 1)
                    st->need[need] += 2;
            }
            if (how == DFS_OZ_WRITTEN) {
                out[0] = v[0];
                out[1] = v[1];
            } else {
                exact_zoutput(g, r, c, z, out);
                st->slow += 2;
            }
        }
}

static void crt_host(const gemm_in *gp, double alpha, double beta, double *C, int64_t ldc,
                     int moduli, int fast, int kgroups, const zscal *z, dfs_oz_stats *st)
{
    memset(st, 0, sizeof *st);
    const gemm_in g = *gp;
    const int64_t m = g.m, n = g.n, k = g.k;
    const double *A = g.A, *B = g.B;
    const int64_t lda = g.lda, ldb = g.ldb;
    if (m <= 0 || n <= 0)
        return;
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
    int64_t n_out = n; /* the real outputs' loop (row pairs: none) */
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
    if (z) {
        pair_outputs(&g, &step, usable, G, ia, ib, bA, bB, RA, RB, z, C, ldc, st);
        n_out = 0;
    }
    for (int64_t c = 0; c < n_out; c++)
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
