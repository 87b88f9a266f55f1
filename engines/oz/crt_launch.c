/* crt_launch.c — the Ozaki scheme II's per-block launches (crt_launch.h). */
#include "crt_launch.h"

#include "../../core/resolve.h"
#include "call.h"
#include "crt.h"

#include <string.h>

int dfs_crt_residue_words(int L)
{
    return dfs_crt_max_bits(L) <= 62 ? 2 : 4;
}

/* The residue kernel over a's rows and then b's (b NULL: a's alone), 32 rows and 64 columns q
 * a block. */
static int launch_pair(const dfs_crt_run *R, const dfs_crt_residue_args *a,
                       const dfs_crt_residue_args *b)
{
    dfs_crt_residue_pair p;
    memset(&p, 0, sizeof p); /* b: no rows unless given */
    p.a = *a;
    if (b)
        p.b = *b;
    const int64_t y = (a->rows + 31) / 32 + (p.b.rows + 31) / 32;
    return dfs_launch(
        R->k[dfs_crt_residue_words(a->L) == 2 ? DFS_OZ_K_RESIDUES62 : DFS_OZ_K_RESIDUES],
        (unsigned)((a->kp + 63) / 64), (unsigned)y, 1, 256, 1, R->st, &p);
}

int dfs_crt_launch_residues(const dfs_crt_run *R, dfs_crt_residue_args *a, int64_t r0, int64_t rows,
                            signed char *base, int plane0)
{
    if (rows <= 0 || a->kp <= 0)
        return 0;
    a->r0 = r0;
    a->rows = rows;
    a->R = base + (size_t)plane0 * (size_t)rows * (size_t)a->kp;
    return launch_pair(R, a, NULL);
}

int dfs_crt_launch_residues_ab(const dfs_crt_run *R, dfs_crt_residue_args *a, int64_t rows,
                               signed char *RA, dfs_crt_residue_args *b, int64_t c0, int64_t cols,
                               signed char *RB)
{
    if (rows <= 0 || cols <= 0 || a->kp <= 0)
        return dfs_crt_launch_residues(R, a, 0, rows, RA, 0) |
               dfs_crt_launch_residues(R, b, c0, cols, RB, 0);
    a->r0 = 0, a->rows = rows, a->R = RA;
    b->r0 = c0, b->rows = cols, b->R = RB;
    return launch_pair(R, a, b);
}

int dfs_crt_launch_zk_residues(const dfs_crt_run *R, dfs_crt_residue_args *re,
                               dfs_crt_residue_args *im, int64_t r0, int64_t rows,
                               signed char *base, int planes, int sub)
{
    if (rows <= 0 || re->kp <= 0)
        return 0;
    re->ps = im->ps = 3 * rows * re->kp;
    int err = dfs_crt_launch_residues(R, re, r0, rows, base, 0);
    err |= dfs_crt_launch_residues(R, im, r0, rows, base + rows * re->kp, 0);
    dfs_crt_zk_sums_args z = {base, rows, re->kp, re->n, sub, {0}};
    for (int l = 0; l < re->n; l++)
        z.mod[l] = dfs_crt_modulus(l);
    const int64_t blocks = (rows * re->kp / 4 + 255) / 256, cap = (int64_t)R->sms * 4;
    err |= dfs_launch(R->k[DFS_OZ_K_ZK_SUMS], (unsigned)(blocks < cap ? blocks : cap),
                      (unsigned)planes, 1, 256, 1, R->st, &z);
    return err;
}

static cublasStatus_t gemm_strip(const dfs_crt_run *R, const dfs_crt_block_gemm *g, int64_t r,
                                 int64_t rows, int64_t c, int64_t cols, int64_t k0, int64_t k1,
                                 int32_t *Cl, const void *one_p, const void *zero_p)
{
    const dfs_oz_tuning *t = dfs_oz_tuning_ctx(R->x);
    const signed char *a = g->ra + r * g->kp + k0, *b = g->rb + c * g->kp + k0;
    int32_t *cl = Cl + r + c * g->mt;
    const int64_t kk = k1 - k0, plane = g->mt * g->nb;
    if (rows <= 0 || cols <= 0 || kk <= 0)
        return CUBLAS_STATUS_SUCCESS;
    /* one call per modulus on large blocks: cuBLAS picks faster tiles for it than for one
     * strided batched call; small blocks in one batched call, whose GEMMs fill the GPU
     * together (tuning.h, README.md: Measurements) */
    if (rows * cols <= t->crt_batched_outputs)
        return DFS_REAL(cublasGemmStridedBatchedEx_64)(
            R->x->handle, CUBLAS_OP_T, CUBLAS_OP_N, rows, cols, kk, one_p, a, CUDA_R_8I, g->kp,
            g->sa, b, CUDA_R_8I, g->kp, g->sb, zero_p, cl, CUDA_R_32I, g->mt, plane, g->P,
            CUBLAS_COMPUTE_32I, CUBLAS_GEMM_DEFAULT);
    cublasStatus_t s = CUBLAS_STATUS_SUCCESS;
    for (int q = 0; q < g->P && s == CUBLAS_STATUS_SUCCESS; q++)
        s = DFS_REAL(cublasGemmEx_64)(R->x->handle, CUBLAS_OP_T, CUBLAS_OP_N, rows, cols, kk, one_p,
                                      a + q * g->sa, CUDA_R_8I, g->kp, b + q * g->sb, CUDA_R_8I,
                                      g->kp, zero_p, cl + q * plane, CUDA_R_32I, g->mt,
                                      CUBLAS_COMPUTE_32I, CUBLAS_GEMM_DEFAULT);
    return s;
}

/* The strips of a triangular operand: about 8 a block, whole multiples of 16. */
static int64_t strip_width(int64_t n)
{
    const int64_t w = (n + 7) / 8;
    return w < 256 ? 256 : (w + 15) / 16 * 16;
}

cublasStatus_t dfs_crt_block_gemms(const dfs_crt_run *R, const dfs_crt_block_gemm *g, int32_t *Cl,
                                   const void *one_p, const void *zero_p)
{
    cublasStatus_t s = CUBLAS_STATUS_SUCCESS;
    if (g->ta == DFS_TRI_ALL && g->tb == DFS_TRI_ALL)
        return gemm_strip(R, g, 0, g->mt, 0, g->nb, 0, g->kp, Cl, one_p, zero_p);
    const int on_a = g->ta != DFS_TRI_ALL, lower = (on_a ? g->ta : g->tb) == DFS_TRI_LOWER;
    const int64_t len = on_a ? g->mt : g->nb, w = strip_width(len);
    for (int64_t i = 0; i < len && s == CUBLAS_STATUS_SUCCESS; i += w) {
        const int64_t h = len - i < w ? len - i : w;
        /* the strip's rows (columns) in op(A) (op(B)): x0 .. x1-1; op(A) lower: q <= row, so
         * q < x1; upper: q >= x0; op(B) lower: q >= column; upper: q < x1 */
        const int64_t x0 = (on_a ? g->lo : g->c0) + i, x1 = x0 + h;
        const int up_to = on_a ? lower : !lower;
        const int64_t k0 = up_to ? 0 : x0 / 16 * 16;
        const int64_t k1 =
            up_to ? ((x1 + 15) / 16 * 16 < g->kp ? (x1 + 15) / 16 * 16 : g->kp) : g->kp;
        s = on_a ? gemm_strip(R, g, i, h, 0, g->nb, k0, k1, Cl, one_p, zero_p)
                 : gemm_strip(R, g, 0, g->mt, i, h, k0, k1, Cl, one_p, zero_p);
    }
    return s;
}
