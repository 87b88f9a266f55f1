/* zhost.c — the dd mode's ZGEMM on the CPU (host.h): the order a GPU kernel of the dd engine
 * will follow, so that it can be compared bit for bit.  Per output, four real products per term
 * (no Karatsuba: that can lose a small imaginary part entirely, LEVEL3.md) accumulated in
 * double-double in the order of q,
 *     sr += ar br, sr += (-ai) bi;   si += ar bi, si += ai br     (ai, bi negated under op C),
 * then each part rounded once from the DD sums and C (dfs_dd_finish_z): correctly rounded but
 * for near ties, like the real dd GEMM.  A part that is not finite there takes the plain binary64
 * sums of the same order (Inf and NaN kinds as native).  alpha = 0 or k = 0: A and B are not
 * read; beta = 0: C is not read. */
#include "host.h"

#include "../common/zelem.h"
#include "dd_steps.h"

void dfs_dd_zgemm_host(int transa, int transb, int64_t m, int64_t n, int64_t k,
                       const double alpha[2], const double *A, int64_t lda, const double *B,
                       int64_t ldb, const double beta[2], double *C, int64_t ldc)
{
    const int read_ab = (alpha[0] != 0.0 || alpha[1] != 0.0) && k > 0;
    const int read_c = beta[0] != 0.0 || beta[1] != 0.0;
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < m; i++) {
            dfs_dd sr = dfs_dd_make(0.0, 0.0), si = sr;
            double pr = 0.0, pi = 0.0; /* the plain sums, for a part that is not finite */
            for (int64_t q = 0; read_ab && q < k; q++) {
                double ar, ai, br, bi;
                dfs_z_op_elem(A, lda, transa, i, q, &ar, &ai);
                dfs_z_op_elem(B, ldb, transb, q, j, &br, &bi);
                sr = dfs_dd_mad_d(dfs_dd_mad_d(sr, ar, br), -ai, bi);
                si = dfs_dd_mad_d(dfs_dd_mad_d(si, ar, bi), ai, br);
                pr = dfs_d_fma(-ai, bi, dfs_d_fma(ar, br, pr));
                pi = dfs_d_fma(ai, br, dfs_d_fma(ar, bi, pi));
            }
            double *c = C + 2 * (i + j * ldc);
            const double cr = read_c ? c[0] : 0.0, ci = read_c ? c[1] : 0.0;
            const double ar = read_ab ? alpha[0] : 0.0, ai = read_ab ? alpha[1] : 0.0;
            double vr, vi;
            if (!dfs_dd_finish_z(sr, si, ar, -ai, beta[0], cr, -beta[1], ci, &vr))
                vr = dfs_dd_finish_plain_z(pr, pi, ar, -ai, beta[0], cr, -beta[1], ci);
            if (!dfs_dd_finish_z(si, sr, ar, ai, beta[0], ci, beta[1], cr, &vi))
                vi = dfs_dd_finish_plain_z(pi, pr, ar, ai, beta[0], ci, beta[1], cr);
            c[0] = vr;
            c[1] = vi;
        }
}
