/* zgemm.cuh — the dd engine's ZGEMM kernel (included by kernels.cu): each part of every output
 * from double-double sums of the four real products of each term, in the order of q and in the
 * order of the CPU twin (zhost.c, dfs_dd_zgemm_host), so that the bits are the twin's:
 *     sr += ar br, sr += (-ai) bi;   si += ar bi, si += ai br     (ai, bi negated under op C),
 * then each part rounded once by dfs_dd_finish_z; a part that is not finite there takes the
 * plain binary64 sums of the same order (recomputed in the epilogue, as the real kernel does).
 * alpha = 0: A and B are not read; beta = 0: C is not read.  Tiles of ZBK terms staged in
 * shared memory (the next tile's loads in registers meanwhile); thread (tx, ty) owns rows
 * ty + 16 i and columns tx + 16 j of the block's ZBM x ZBN tile. */

#include "../common/zelem.h"

#define ZBM DFS_DD_ZGEMM_BM
#define ZBN DFS_DD_ZGEMM_BN
#define ZBK DFS_DD_ZGEMM_BK
#define ZTM (ZBM / 16)
#define ZTN (ZBN / 16)
#define ZLOADS (ZBM * ZBK / 256) /* elements of each operand a thread stages per tile */

/* Element (r, q) of op(X), X interleaved complex from element base (the twin's own reader). */
__device__ __forceinline__ double2 z_op_elem(const double *X, int64_t base, int64_t ld, int op,
                                             int64_t r, int64_t q)
{
    double2 v;
    dfs_z_op_elem(X + 2 * base, ld, op, r, q, &v.x, &v.y);
    return v;
}

extern "C" __global__ void __launch_bounds__(256, 1) dfs_dd_zgemm(dfs_dd_gemm_args a)
{
    __shared__ double2 As[ZBK][ZBM + 1], Bs[ZBK][ZBN + 1];
    const int t = threadIdx.x, tx = t % 16, ty = t / 16;
    const double alr = a.alpha ? a.alpha[0] : a.alpha_v, ali = a.alpha ? a.alpha[1] : a.alpha_vi;
    const double ber = a.beta ? a.beta[0] : a.beta_v, bei = a.beta ? a.beta[1] : a.beta_vi;
    const int read_ab = (alr != 0.0 || ali != 0.0) && a.k > 0;
    const int read_c = ber != 0.0 || bei != 0.0;
    /* the twin's alpha: zero when A and B are not read */
    const double ar = read_ab ? alr : 0.0, ai = read_ab ? ali : 0.0;
    const int64_t mtiles = (a.m + ZBM - 1) / ZBM, ntiles = (a.n + ZBN - 1) / ZBN;
    for (int64_t z = blockIdx.z; z < a.batch; z += gridDim.z)
        for (int64_t nt = blockIdx.y; nt < ntiles; nt += gridDim.y)
            for (int64_t mt = blockIdx.x; mt < mtiles; mt += gridDim.x) {
                const int64_t zA = z * a.sA, zB = z * a.sB, zC = z * a.sC;
                const int64_t i0 = mt * ZBM, j0 = nt * ZBN;
                dfs_dd sr[ZTM][ZTN], si[ZTM][ZTN];
#pragma unroll
                for (int i = 0; i < ZTM; i++)
#pragma unroll
                    for (int j = 0; j < ZTN; j++)
                        sr[i][j] = si[i][j] = dfs_dd_make(0.0, 0.0);
                /* staging element r of this thread: A tile row ar_, term ak_; B tile term bk_,
                 * column bc_ (coalesced along the stored matrix's columns) */
#define ZAR(r) (a.ta ? (t + 256 * (r)) / ZBK : (t + 256 * (r)) % ZBM)
#define ZAK(r) (a.ta ? (t + 256 * (r)) % ZBK : (t + 256 * (r)) / ZBM)
#define ZBKK(r) (a.tb ? (t + 256 * (r)) / ZBN : (t + 256 * (r)) % ZBK)
#define ZBC(r) (a.tb ? (t + 256 * (r)) % ZBN : (t + 256 * (r)) / ZBK)
                double2 pa[ZLOADS], pb[ZLOADS];
                const double2 zero = make_double2(0.0, 0.0);
                auto load = [&](int64_t k0) {
#pragma unroll
                    for (int r = 0; r < ZLOADS; r++) {
                        const int64_t i = i0 + ZAR(r), q = k0 + ZAK(r);
                        pa[r] = i < a.m && q < a.k ? z_op_elem(a.A.hi, zA, a.lda, a.ta, i, q) : zero;
                        const int64_t j = j0 + ZBC(r), qb = k0 + ZBKK(r);
                        pb[r] = j < a.n && qb < a.k ? z_op_elem(a.B.hi, zB, a.ldb, a.tb, qb, j) : zero;
                    }
                };
                auto tile = [&](int kn) {
#pragma unroll 2
                    for (int kk = 0; kk < kn; kk++) {
                        double2 fa[ZTM], fb[ZTN];
#pragma unroll
                        for (int i = 0; i < ZTM; i++)
                            fa[i] = As[kk][ty + 16 * i];
#pragma unroll
                        for (int j = 0; j < ZTN; j++)
                            fb[j] = Bs[kk][tx + 16 * j];
#pragma unroll
                        for (int i = 0; i < ZTM; i++)
#pragma unroll
                            for (int j = 0; j < ZTN; j++) {
                                sr[i][j] = dfs_dd_mad_d(dfs_dd_mad_d(sr[i][j], fa[i].x, fb[j].x),
                                                        -fa[i].y, fb[j].y);
                                si[i][j] = dfs_dd_mad_d(dfs_dd_mad_d(si[i][j], fa[i].x, fb[j].y),
                                                        fa[i].y, fb[j].x);
                            }
                    }
                };
                if (read_ab) {
                    load(0);
                    for (int64_t k0 = 0; k0 < a.k; k0 += ZBK) {
                        __syncthreads(); /* the previous tile is used up */
#pragma unroll
                        for (int r = 0; r < ZLOADS; r++) {
                            As[ZAK(r)][ZAR(r)] = pa[r];
                            Bs[ZBKK(r)][ZBC(r)] = pb[r];
                        }
                        __syncthreads();
                        if (k0 + ZBK < a.k)
                            load(k0 + ZBK);
                        if (a.k - k0 >= ZBK)
                            tile(ZBK);
                        else
                            tile((int)(a.k - k0));
                    }
                }
#pragma unroll
                for (int i = 0; i < ZTM; i++)
#pragma unroll
                    for (int j = 0; j < ZTN; j++) {
                        const int64_t ii = i0 + ty + 16 * i, jj = j0 + tx + 16 * j;
                        if (ii >= a.m || jj >= a.n)
                            continue;
                        double *c = a.C.hi + 2 * (zC + ii + jj * a.ldc);
                        const double cr = read_c ? c[0] : 0.0, ci = read_c ? c[1] : 0.0;
                        /* Inf, NaN or overflow in a part: the plain sums of the twin's order */
                        auto plain = [&](double *pr, double *pi) {
                            double r = 0.0, m = 0.0;
                            if (read_ab)
                                DFS_ROLLED for (int64_t q = 0; q < a.k; q++) {
                                    const double2 x = z_op_elem(a.A.hi, zA, a.lda, a.ta, ii, q),
                                                  y = z_op_elem(a.B.hi, zB, a.ldb, a.tb, q, jj);
                                    r = dfs_d_fma(-x.y, y.y, dfs_d_fma(x.x, y.x, r));
                                    m = dfs_d_fma(x.y, y.x, dfs_d_fma(x.x, y.y, m));
                                }
                            *pr = r;
                            *pi = m;
                        };
                        double vr, vi;
                        const int ok_r = dfs_dd_finish_z(sr[i][j], si[i][j], ar, -ai, ber, cr,
                                                         -bei, ci, &vr),
                                  ok_i = dfs_dd_finish_z(si[i][j], sr[i][j], ar, ai, ber, ci, bei,
                                                         cr, &vi);
                        if (!ok_r || !ok_i) {
                            double pr, pi;
                            plain(&pr, &pi);
                            if (!ok_r)
                                vr = dfs_dd_finish_plain_z(pr, pi, ar, -ai, ber, cr, -bei, ci);
                            if (!ok_i)
                                vi = dfs_dd_finish_plain_z(pi, pr, ar, ai, ber, ci, bei, cr);
                        }
                        c[0] = vr;
                        c[1] = vi;
                    }
                __syncthreads(); /* shared tiles free for the next output tile */
            }
}
