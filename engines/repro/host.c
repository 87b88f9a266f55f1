/* host.c — the reproducible engine on the CPU (see host.h).  Compiled with -ffp-contract=off.
 *
 * DDOT and DGEMV: each output's products are dealt to `lanes` threads by index; each thread adds
 * its products exactly into an expansion of `terms` binary64 values (fpe.h); the threads' terms
 * then go into one exact accumulator (xacc.h), rounded once.  If any thread spilled (an error left
 * after its last term, or a product outside the fast path's range) the output is recomputed from
 * its products straight into the accumulator.  Both paths give the exact sum; the GPU runs the
 * same steps with real threads.
 *
 * DGEMM: the Ozaki scheme with the split of ../oz/steps.h; the slice products (on the GPU: cuBLAS
 * DGEMMs) are exact, and each output adds its partials into an accumulator and rounds once. */
#include "host.h"

#include "../common/fpe.h"
#include "../oz/host_common.h"
#include "../oz/steps.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TERMS 4

dfs_oz_params dfs_oz_default_params(void)
{
    dfs_oz_params p;
    p.splits = 0;
    p.max_splits = 12;
    p.fast = 0;
    p.sum = DFS_OZ_SUM_EXACT;
    p.terms = 4;
    p.lanes = 32;
    return p;
}

/* The first element of a vector of n with increment inc, as BLAS addresses it. */
static const double *vec_base(const double *x, int64_t n, int64_t inc)
{
    return inc < 0 ? x + (n - 1) * -inc : x;
}

/* RN(alpha * sum_q a[q*sa] b[q*sb] + beta c) for q < K (see the file comment). */
static double one_output(const dfs_oz_params *p, int64_t K, const double *a, int64_t sa,
                         const double *b, int64_t sb, double alpha, double beta, double c,
                         dfs_oz_stats *st)
{
    int64_t w[DFS_X_WORDS], scratch[DFS_X_WORDS];
    dfs_xacc acc;
    unsigned flags = 0;
    dfs_x_init(&acc, w, DFS_X_WORDS, DFS_X_LSB);
    if (alpha != 0 && K > 0) {
        int L = p->lanes > 0 ? p->lanes : 1, T = p->terms;
        T = T < 1 ? 1 : T > MAX_TERMS ? MAX_TERMS : T;
        double *t = calloc((size_t)L * MAX_TERMS, sizeof *t);
        unsigned *f = calloc((size_t)L, sizeof *f);
        if (t && f) {
            for (int64_t q = 0; q < K; q++) {
                int64_t l = q % L;
                f[l] |= dfs_fpe_add_product(t + l * MAX_TERMS, T, a[q * sa], b[q * sb]);
            }
            for (int l = 0; l < L; l++)
                flags |= f[l];
        } else {
            flags = DFS_FPE_SPILL;
        }
        if (flags & DFS_FPE_SPILL) {
            flags = 0;
            for (int64_t q = 0; q < K; q++) {
                unsigned g = dfs_x_product_flags(a[q * sa], b[q * sb]);
                flags |= g;
                if (!g)
                    dfs_x_add_product(&acc, a[q * sa], b[q * sb], 0);
            }
            st->slow++;
        } else {
            for (int l = 0; l < L; l++)
                for (int i = 0; i < T; i++)
                    dfs_x_add_double(&acc, t[l * MAX_TERMS + i], 0);
        }
        free(t);
        free(f);
    }
    double r;
    dfs_x_axpby(&acc, flags, alpha, beta, c, scratch, DFS_X_WORDS, &r);
    return r;
}

static void stats_clear(dfs_oz_stats *st)
{
    memset(st, 0, sizeof *st);
}

double dfs_oz_dot_host(const dfs_oz_params *p, int64_t n, const double *x, int64_t incx,
                       const double *y, int64_t incy, dfs_oz_stats *st)
{
    stats_clear(st);
    if (n <= 0)
        return 0.0;
    return one_output(p, n, vec_base(x, n, incx), incx, vec_base(y, n, incy), incy, 1.0, 0.0,
                      0.0, st);
}

void dfs_oz_gemv_host(const dfs_oz_params *p, int trans, int64_t m, int64_t n, double alpha,
                      const double *A, int64_t lda, const double *x, int64_t incx, double beta,
                      double *y, int64_t incy, dfs_oz_stats *st)
{
    stats_clear(st);
    if (m <= 0 || n <= 0)
        return;
    int64_t rows = trans ? n : m, K = trans ? m : n;
    const double *xb = vec_base(x, K, incx);
    double *yb = (double *)vec_base(y, rows, incy);
    for (int64_t i = 0; i < rows; i++) {
        double *yi = yb + i * incy;
        const double *a = trans ? A + i * lda : A + i;
        *yi = one_output(p, K, a, trans ? 1 : lda, xb, incx, alpha, beta, beta != 0 ? *yi : 0.0,
                         st);
    }
}

/* ---- DGEMM ------------------------------------------------------------------------------- */

/* Slices of one operand: S[(i * rows + r) * k + q] = slice i of element (r, q) of its row r.
 * Rows flagged in `direct` (special values, or more slices than allowed) get zero slices. */
static double *make_slices(int s, int64_t rows, int64_t k, const dfs_oz_row *info,
                           const unsigned char *direct, int beta, const gemm_in *g, int is_b)
{
    double *S = calloc((size_t)(s > 0 ? s : 1) * (size_t)rows * (size_t)k, sizeof *S);
    if (!S)
        return NULL;
    for (int64_t r = 0; r < rows; r++) {
        if (direct[r] || info[r].tau == DFS_OZ_NONE_TAU)
            continue;
        for (int64_t q = 0; q < k; q++) {
            double v = is_b ? opB(g->tb, g->B, g->ldb, q, r) : opA(g->ta, g->A, g->lda, r, q);
            for (int i = 0; i < s; i++)
                S[((size_t)i * rows + r) * k + q] = dfs_oz_slice(v, info[r].tau, beta, i);
        }
    }
    return S;
}

/* Per row: the split information and the slices it needs (DFS_OZ_SPECIAL: Inf or NaN); returns
 * the largest need. */
static int plan_rows(const gemm_in *g, int is_b, int64_t rows, int beta, dfs_oz_row *info,
                     int *need)
{
    int s = 0;
    for (int64_t r = 0; r < rows; r++) {
        const dfs_oz_row ri = row_of(g, is_b, r);
        info[r] = ri;
        need[r] = ri.special ? -1 : dfs_oz_row_slices(ri, beta);
        s = need[r] > s ? need[r] : s;
    }
    return s;
}

/* Rows computed directly: special ones, and (correctly rounded mode) those that need more slices
 * than taken. */
static void mark_direct(const dfs_oz_params *p, int64_t rows, const int *need, int s,
                        unsigned char *direct)
{
    for (int64_t r = 0; r < rows; r++)
        direct[r] = need[r] < 0 || (p->splits == 0 && need[r] > s);
}

void dfs_oz_gemm_host(const dfs_oz_params *p, int transa, int transb, int64_t m, int64_t n,
                      int64_t k, double alpha, const double *A, int64_t lda, const double *B,
                      int64_t ldb, double beta, double *C, int64_t ldc, dfs_oz_stats *st)
{
    stats_clear(st);
    if (m <= 0 || n <= 0)
        return;
    gemm_in g = {transa, transb, m, n, k, A, B, lda, ldb};
    int beta_bits = dfs_oz_beta(k > 0 ? k : 1);
    dfs_oz_row *ia = calloc((size_t)m, sizeof *ia), *ib = calloc((size_t)n, sizeof *ib);
    int *na = calloc((size_t)m, sizeof *na), *nb = calloc((size_t)n, sizeof *nb);
    unsigned char *da = calloc((size_t)m, 1), *db = calloc((size_t)n, 1);
    double *SA = NULL, *SB = NULL;
    int sa = 0, sb = 0;
    if (!ia || !ib || !na || !nb || !da || !db)
        goto out;
    if (alpha != 0 && k > 0) {
        /* the GPU takes a guess and sends the rows that need more direct; any choice gives the
         * same bits in this mode, so the CPU takes what the rows need, up to max_splits */
        sa = plan_rows(&g, 0, m, beta_bits, ia, na);
        sb = plan_rows(&g, 1, n, beta_bits, ib, nb);
        if (p->splits > 0) {
            sa = sb = p->splits;
        } else {
            sa = sa < p->max_splits ? sa : p->max_splits;
            sb = sb < p->max_splits ? sb : p->max_splits;
        }
        dfs_oz_fit(k, beta_bits, &sa, &sb);
        mark_direct(p, m, na, sa, da);
        mark_direct(p, n, nb, sb, db);
        SA = make_slices(sa, m, k, ia, da, beta_bits, &g, 0);
        SB = make_slices(sb, n, k, ib, db, beta_bits, &g, 1);
        if (!SA || !SB)
            goto out;
    }
    st->slices_a = sa;
    st->slices_b = sb;
    int64_t w[DFS_X_WORDS], scratch[DFS_X_WORDS];
    int smax = sa > sb ? sa : sb;
    for (int64_t c = 0; c < n; c++)
        for (int64_t r = 0; r < m; r++) {
            double *cp = &C[r + c * ldc];
            double cv = beta != 0 ? *cp : 0.0;
            if (alpha != 0 && k > 0 && (da[r] || db[c])) {
                *cp = dfs_oz_exact_output(&g, r, c, alpha, beta, cv);
                st->slow++;
                continue;
            }
            dfs_xacc acc;
            dfs_x_init(&acc, w, DFS_X_WORDS, DFS_X_LSB);
            const int fixed_sum = p->sum == DFS_OZ_SUM_FIXED && p->splits > 0;
            double fixed = 0.0;
            for (int i = 0; i < sa; i++)
                for (int j = 0; j < sb; j++) {
                    if (p->fast && p->splits > 0 && i + j >= smax)
                        continue;
                    /* P_ij(r, c): exact in binary64 in any order (../oz/steps.h) */
                    const double *x = SA + ((size_t)i * m + r) * k;
                    const double *y = SB + ((size_t)j * n + c) * k;
                    double pij = 0.0;
                    for (int64_t q = 0; q < k; q++)
                        pij = fma(x[q], y[q], pij);
                    int shift = ia[r].tau + ib[c].tau - (i + j) * beta_bits;
                    if (fixed_sum)
                        fixed += ldexp(pij, shift);
                    else
                        dfs_x_add_double(&acc, pij, shift);
                }
            if (fixed_sum) {
                *cp = alpha == 0 ? (beta != 0 ? beta * cv : 0.0)
                                 : fma(alpha, fixed, beta != 0 ? beta * cv : 0.0);
            } else {
                dfs_x_axpby(&acc, 0, alpha, beta, cv, scratch, DFS_X_WORDS, cp);
            }
        }
out:
    free(ia);
    free(ib);
    free(na);
    free(nb);
    free(da);
    free(db);
    free(SA);
    free(SB);
}
