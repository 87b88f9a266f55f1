/* host_crt.c — the correctly rounded DGEMM by the Ozaki scheme II (crt.h) on the CPU: the
 * algorithm of the coming integer tensor-core engine (issue 6), step for step, with the int8
 * GEMMs as plain loops.  Every output is RN(alpha op(A) op(B) + beta C), the same bits as
 * dfs_oz_gemm_host: an output the truncated product cannot decide (crt.h's bound against the
 * rounding margin), or one with a special or out-of-range operand, is computed exactly and
 * directly. */
#include "host.h"

#include "crt.h"
#include "host_gemm.h"

#include <stdlib.h>
#include <string.h>

/* The residues of row r of op(A) (is_b: column r of op(B)) modulo the n moduli:
 * R[(l * rows + r) * k + q]. */
static void residues(const gemm_in *g, int is_b, int64_t rows, const dfs_oz_row *info, int bits,
                     int n, signed char *R)
{
    const int64_t k = g->k;
    for (int64_t r = 0; r < rows; r++)
        for (int64_t q = 0; q < k; q++) {
            const double v = is_b ? opB(g->tb, g->B, g->ldb, q, r) : opA(g->ta, g->A, g->lda, r, q);
            int neg = 0;
            dfs_u128 mag = 0;
            if (!info[r].special && info[r].tau != DFS_OZ_NONE_TAU)
                dfs_crt_scale(v, info[r].tau, bits, &neg, &mag);
            for (int l = 0; l < n; l++)
                R[((size_t)l * rows + r) * k + q] =
                    (signed char)dfs_crt_residue(neg, mag, dfs_crt_modulus(l));
        }
}

void dfs_oz_crt_gemm_host(int transa, int transb, int64_t m, int64_t n, int64_t k, double alpha,
                          const double *A, int64_t lda, const double *B, int64_t ldb, double beta,
                          double *C, int64_t ldc, int bits, dfs_oz_stats *st)
{
    memset(st, 0, sizeof *st);
    if (m <= 0 || n <= 0)
        return;
    const gemm_in g = {transa, transb, m, n, k, A, B, lda, ldb};
    const int nmod = k > 0 && k < (1 << 17) && bits >= 1 && bits <= 100 ? dfs_crt_count(bits, k) : 0;
    dfs_oz_row *ia = calloc((size_t)m, sizeof *ia), *ib = calloc((size_t)n, sizeof *ib);
    signed char *RA = nmod ? malloc((size_t)nmod * (size_t)m * (size_t)k) : NULL;
    signed char *RB = nmod ? malloc((size_t)nmod * (size_t)n * (size_t)k) : NULL;
    const dfs_oz_params p = dfs_oz_default_params();
    const int usable = ia && ib && nmod && RA && RB && alpha != 0;
    if (usable) {
        for (int64_t r = 0; r < m; r++)
            ia[r] = row_of(&g, 0, r);
        for (int64_t c = 0; c < n; c++)
            ib[c] = row_of(&g, 1, c);
        residues(&g, 0, m, ia, bits, nmod, RA);
        residues(&g, 1, n, ib, bits, nmod, RB);
    }
    st->slices_a = st->slices_b = nmod;
    dfs_crt_table tab;
    dfs_crt_table_init(&tab, nmod);
    int64_t w[DFS_X_WORDS], scratch[DFS_X_WORDS];
    for (int64_t c = 0; c < n; c++)
        for (int64_t r = 0; r < m; r++) {
            double *out = &C[r + c * ldc];
            const int ta = usable ? ia[r].tau : 0, tb = usable ? ib[c].tau : 0;
            int done = 0;
            if (usable && !ia[r].special && !ib[c].special && ta != DFS_OZ_NONE_TAU &&
                tb != DFS_OZ_NONE_TAU) {
                /* the int8 GEMMs, one per modulus (int32 accumulation: exact for k < 2^17) */
                int64_t res[DFS_CRT_MODULI];
                for (int l = 0; l < nmod; l++) {
                    const signed char *x = RA + ((size_t)l * m + r) * k;
                    const signed char *y = RB + ((size_t)l * n + c) * k;
                    int32_t s = 0;
                    for (int64_t q = 0; q < k; q++)
                        s += (int32_t)x[q] * (int32_t)y[q];
                    res[l] = s;
                }
                dfs_oz_i192 X;
                dfs_crt_reconstruct(&tab, res, &X);
                /* S = X 2^e0 exactly; round alpha S + beta c with its margin; the truncation
                 * moves S by less than E 2^(ta + tb) */
                const int e0 = ta + tb - 2 * bits;
                double v;
                int margin;
                const int ok = dfs_oz_i192_axpby(&X, e0, alpha, beta, beta != 0 ? *out : 0.0, w,
                                                 DFS_X_WORDS, DFS_X_LSB, scratch, DFS_X_WORDS,
                                                 &v, &margin);
                const double E = dfs_crt_bound(k, bits, dfs_oz_row_l1(ia[r], k),
                                               dfs_oz_row_l1(ib[c], k));
                if (ok && dfs_oz_decided(E, ta, tb, alpha, margin)) {
                    *out = v;
                    done = 1;
                }
            }
            if (!done) {
                /* directly and exactly: the CPU implementation of the scheme-I engine on this
                 * one output (correctly rounded whatever path it takes) */
                const double *a = transa ? A + r * lda : A + r;
                const double *b = transb ? B + c : B + c * ldb;
                dfs_oz_stats s1;
                dfs_oz_gemm_host(&p, transa, transb, 1, 1, k, alpha, a, lda, b, ldb, beta, out,
                                 ldc, &s1);
                st->slow++;
            }
        }
    free(ia);
    free(ib);
    free(RA);
    free(RB);
}
