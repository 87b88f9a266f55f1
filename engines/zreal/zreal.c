/* zreal.c — complex GEMM through an engine's real GEMM (zreal.h): stage, one real call, gather. */
#include "zreal.h"

#include "../../core/gpu.h"
#include "args.h"

#include <string.h>

#define ZR_KERNELS(X) X(K_STAGE, dfs_zr_stage) X(K_SCATTER, dfs_zr_scatter)
enum { ZR_KERNELS(DFS_KERNEL_ID) K_COUNT };
extern const unsigned char dfs_zreal_fatbin[];
DFS_MODULE(module, dfs_zreal_fatbin, ZR_KERNELS);

/* Stages R x Q of op(X) into the planes of a (a.X, ld, sx, op, R, Q, batch set by the caller). */
static int stage(CUfunction f, CUstream st, dfs_zr_stage_args *a)
{
    const int64_t tiles = ((a->R + 31) / 32) * ((a->Q + 31) / 32);
    unsigned gx, gy;
    dfs_grid_2d(tiles, &gx, &gy);
    return dfs_launch(f, gx, gy, dfs_grid_dim(a->batch, 65535), 32, 8, st, a);
}

/* The real call of a representation: c's sizes and batch, ops N, the default algorithm (the
 * caller sets the operands, sizes and scalars that differ). */
static dfs_gemm_call real_call(const dfs_gemm_call *c)
{
    dfs_gemm_call g = *c;
    g.type = DFS_R64;
    g.api = c->batch > 1 || c->strideA || c->strideB || c->strideC ? DFS_API_DGEMM_STRIDED_64
                                                                   : DFS_API_DGEMM_64;
    g.transa = g.transb = CUBLAS_OP_N;
    g.algo = CUBLAS_GEMM_DEFAULT;
    return g;
}

cublasStatus_t dfs_zr_gemm(const dfs_ctx *x, const dfs_gemm_call *c, dfs_zr_real_gemm real,
                           int exact)
{
    const int dev = x->pointer_mode == CUBLAS_POINTER_MODE_DEVICE;
    /* exact: real scalars on the host only (their imaginary parts decide the path; the others
     * go by row pairs, dfs_zr_gemm_pairs) */
    if (exact && (dev || c->alpha[1] != 0.0 || c->beta[1] != 0.0))
        return DFS_STATUS_DECLINED;
    const CUfunction *k = dfs_module_kernels(&module);
    if (!k)
        return DFS_STATUS_DECLINED;
    CUstream st = (CUstream)x->stream;
    const int64_t m = c->m, n = c->n, kk = c->k, nb = c->batch;
    /* exact: beta on the host, its C staged for the real call when it is not zero */
    const int read_c = exact && (c->beta[0] != 0.0 || c->beta[1] != 0.0);
    /* planes: A' m x 2k, B' 2k x 2n, P m x 2n per batch entry, and two device scalars */
    const int64_t sa = m * 2 * kk, sb = 2 * kk * 2 * n, sp = m * 2 * n;
    const size_t bytes = (size_t)(nb * (sa + sb + sp) + 2) * sizeof(double);
    const CUdeviceptr base = dfs_temp_alloc(bytes, st);
    if (!base)
        return DFS_STATUS_DECLINED;
    double *Ap = (double *)(uintptr_t)base, *Bp = Ap + nb * sa, *P = Bp + nb * sb,
           *one = P + nb * sp;
    int err = 0;
    dfs_zr_stage_args s;
    memset(&s, 0, sizeof s);
    s.batch = nb;
    /* A' = [Ar Ai] */
    s.X = c->A, s.ld = c->lda, s.sx = c->strideA, s.op = (int)c->transa, s.R = m, s.Q = kk;
    s.re = Ap, s.im = Ap + m * kk, s.ldp = m, s.sp = sa, s.one = dev ? one : NULL;
    err |= stage(k[K_STAGE], st, &s);
    /* B' (2k x 2n, leading dimension 2k): column 2j = (Br; -Bi), column 2j+1 = (Bi; Br) */
    s.X = c->B, s.ld = c->ldb, s.sx = c->strideB, s.op = (int)c->transb, s.R = kk, s.Q = n;
    s.re = Bp, s.im2 = Bp + kk, s.im = Bp + 2 * kk, s.re2 = Bp + 3 * kk;
    s.ldp = 4 * kk, s.sp = sb, s.one = NULL;
    err |= stage(k[K_STAGE], st, &s);
    /* exact, beta != 0: C's parts into P, for the real call's beta C */
    if (read_c) {
        s.X = c->C, s.ld = c->ldc, s.sx = c->strideC, s.op = 0, s.R = m, s.Q = n;
        s.re = P, s.re2 = NULL, s.im = P + m, s.im2 = NULL, s.ldp = 2 * m, s.sp = sp;
        err |= stage(k[K_STAGE], st, &s);
    }
    cublasStatus_t r = CUBLAS_STATUS_EXECUTION_FAILED;
    if (!err) {
        static const double h_one = 1.0, h_zero = 0.0;
        dfs_gemm_call g = real_call(c);
        g.n = 2 * n;
        g.k = 2 * kk;
        g.A = Ap, g.lda = m, g.strideA = sa;
        g.B = Bp, g.ldb = 2 * kk, g.strideB = sb;
        g.C = P, g.ldc = m, g.strideC = sp;
        if (exact) { /* host mode: the real parts of the scalars (their imaginary parts are 0) */
            g.alpha = c->alpha;
            g.beta = read_c ? c->beta : &h_zero;
        } else {
            g.alpha = dev ? one : &h_one;
            g.beta = dev ? one + 1 : &h_zero;
        }
        r = real(x, &g);
    }
    if (r == CUBLAS_STATUS_SUCCESS) {
        dfs_zr_scatter_args a;
        memset(&a, 0, sizeof a);
        a.P = P, a.sp = sp, a.ldp = 2 * m, a.poff = m; /* columns interleaved */
        a.C = c->C, a.ldc = c->ldc, a.sc = c->strideC;
        a.m = m, a.n = n, a.batch = nb, a.exact = exact;
        a.alpha = dev ? c->alpha : NULL;
        a.beta = dev ? c->beta : NULL;
        if (!dev) {
            memcpy(a.alpha_v, c->alpha, sizeof a.alpha_v);
            memcpy(a.beta_v, c->beta, sizeof a.beta_v);
        }
        const int64_t blocks = (m * n + 255) / 256;
        if (dfs_launch(k[K_SCATTER], dfs_grid_dim(blocks, 4096), 1, dfs_grid_dim(nb, 65535), 256,
                       1, st, &a))
            r = CUBLAS_STATUS_EXECUTION_FAILED;
    } /* else the real engine's status: declined or prefers native (then so does this call,
       * C untouched), or its failure */
    dfs_temp_free(base, st);
    return r;
}

cublasStatus_t dfs_zr_gemm_pairs(const dfs_ctx *x, const dfs_gemm_call *c,
                                 dfs_zr_pairs_gemm real)
{
    const CUfunction *k = dfs_module_kernels(&module);
    if (!k)
        return DFS_STATUS_DECLINED;
    CUstream st = (CUstream)x->stream;
    const int dev = x->pointer_mode == CUBLAS_POINTER_MODE_DEVICE;
    const int64_t m = c->m, n = c->n, kk = c->k, nb = c->batch;
    const int stage_b = c->transb != CUBLAS_OP_N;
    /* planes: A' 2m x 2k and (op(B) not N) B' 2k x n per batch entry, one device double */
    const int64_t sa = 2 * m * 2 * kk, sb = stage_b ? 2 * kk * n : 0;
    const size_t bytes = (size_t)(nb * (sa + sb) + 1) * sizeof(double);
    const CUdeviceptr base = dfs_temp_alloc(bytes, st);
    if (!base)
        return DFS_STATUS_DECLINED;
    double *Ap = (double *)(uintptr_t)base, *Bp = Ap + nb * sa, *anz = Bp + nb * sb;
    int err = 0;
    dfs_zr_stage_args s;
    memset(&s, 0, sizeof s);
    s.batch = nb;
    s.zalpha = dev ? c->alpha : NULL;
    s.rs = 2;
    /* A': row 2i (Ar, -Ai) and row 2i+1 (Ai, Ar), q by q */
    s.X = c->A, s.ld = c->lda, s.sx = c->strideA, s.op = (int)c->transa, s.R = m, s.Q = kk;
    s.re = Ap, s.im = Ap + 1, s.re2 = Ap + 1 + 2 * m, s.im2 = Ap + 2 * m;
    s.ldp = 4 * m, s.sp = sa, s.anz = dev ? anz : NULL;
    err |= stage(k[K_STAGE], st, &s);
    if (stage_b) { /* B': the parts of op(B)(q, j) in rows 2q and 2q+1 */
        s.X = c->B, s.ld = c->ldb, s.sx = c->strideB, s.op = (int)c->transb, s.R = kk, s.Q = n;
        s.re = Bp, s.im = Bp + 1, s.re2 = s.im2 = NULL, s.ldp = 2 * kk, s.sp = sb, s.anz = NULL;
        err |= stage(k[K_STAGE], st, &s);
    }
    cublasStatus_t r = CUBLAS_STATUS_EXECUTION_FAILED;
    if (!err) {
        static const double h_one = 1.0, h_zero = 0.0;
        dfs_gemm_call g = real_call(c);
        g.m = 2 * m;
        g.k = 2 * kk;
        g.A = Ap, g.lda = 2 * m, g.strideA = sa;
        if (stage_b)
            g.B = Bp, g.ldb = 2 * kk, g.strideB = sb;
        else
            g.B = c->B, g.ldb = 2 * c->ldb, g.strideB = 2 * c->strideB;
        g.C = c->C, g.ldc = 2 * c->ldc, g.strideC = 2 * c->strideC;
        g.alpha = dev ? anz : &h_one;
        g.beta = dev ? anz : &h_zero; /* unused */
        r = real(x, &g, c->alpha, c->beta);
    }
    dfs_temp_free(base, st);
    return r;
}
