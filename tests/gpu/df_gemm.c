/* df_gemm — the df engine (EXBLAS_MODE=df[:scheme=paper|fused|lazy|accurate][,small=...]) through
 * the shim.
 * The scheme to reproduce is read from EXBLAS_MODE: paper -> DFS_DF_MAD16, fused -> DFS_DF_MAD15,
 * lazy -> DFS_DF_MAD12, accurate -> DFS_DF_MAD29 (no scheme: fused, the engine's default).  Needs
 * EXBLAS_REREAD=1.
 *
 *  1. bitwise, one group per shape (1x1x1, 1x1x9, 7x5x3, 129x130x131, 256^3, 300x17x1000,
 *     1000x1000x64): results equal dfs_df_gemm_host's (engines/df/host.c) bit for bit.
 *     cublasDgemm_v2: ops {N,T,C}^2 x ld tight/+7 x alpha {1,-1,0.5,3} x beta {0,1,-0.75} x
 *     host/device pointers; Dgemm_v2_64, GemmEx (R_64F, COMPUTE_64F) and DgemmStridedBatched
 *     (batch 3, every entry compared): ops {N,T,C}^2, ld +7; GemmEx_64, DgemmStridedBatched_64
 *     and GemmStridedBatchedEx(_64): four op pairs and four (alpha, beta).  beta = 0 runs with C
 *     full of NaN; the padding of A and B holds NaN (a stray read shows); C outside the matrices
 *     must stay untouched.  The host result is computed whole up to 256^3 (129x130x131 for
 *     batch entries 1 and 2) and on sampled rows and columns above (full rows of op(A) and
 *     columns of op(B), so the scale factors are the same); there every result must also be
 *     bitwise the first one computed from the same inputs (they do not depend on the layout).
 *  2. blocking: a product computed with the workspace default and again after
 *     setenv("EXBLAS_MODE", "df:...,workspace_mb=16") (several panels), and with either C tile
 *     (tile=128x64, 128x128, 64x64, alone and with workspace_mb=16) is bitwise the same and equals
 *     the host on sampled rows / columns; EXBLAS_MODE=native after a setenv gives the real cuBLAS
 *     result (shows that the shim re-reads), and the original mode comes back.
 *  3. accuracy against a double-double reference (TwoProd + TwoSum on the CPU): normwise error
 *     |C - ref| / (|alpha| sum|a b| + |beta c|) for uniform inputs, the phi generator with
 *     phi = 0, 1, 2 and rows scaled by 1e300 / 1e-300 / into the subnormals; asserted below
 *     (3k+4)u^2 + 2^-52 (accurate) or 4(k+1)u^2 + 2^-52 (paper, fused), u = 2^-24 (plus
 *     4 * 2^-1074 absolute for results in the subnormal range); printed beside native cuBLAS's.
 *  4. special values: Inf / -Inf / NaN in A and B give the same kinds of non-finite results in
 *     the same places as the real cuBLAS; other entries are finite and equal to the host's.
 *  5. alpha = 0 in device memory: C = beta*C exactly even with NaN and Inf in A and B.
 *  6. graph capture: a captured call of a shape run eagerly before (workspace present) replays
 *     bitwise the eager result (also with device alpha changed between replays); a captured call
 *     that needs more workspace runs natively (bitwise the real cuBLAS) and capture succeeds.
 *  7. wide spans: rows and columns whose large entries face small ones (every product of 9
 *     entries in binary32's subnormals once scaled): bitwise the host, which computes those 9 in
 *     binary64 (checked against an FMA loop).
 *  8. the small kernel (setenv "EXBLAS_MODE" with small=always) and the tiled path
 *     (small=never), each bitwise the host: every shape of {1,2,7,31,33,64,65}^3 (ops, alpha in
 *     {1,-1,0.5,0}, beta in {0,1,-0.75}, pointer mode, padding and entry point rotating), all of
 *     those on 33x31x65, strided batches with strides 0 for A or B among them, 70000 entries
 *     (beyond a grid's y), Inf/NaN and rows and columns spanning 1e+-300 (the binary64 path of
 *     the spans), 256^3 and a batch of 300 17x40x40 (the two paths bitwise each other); k = 0
 *     goes to cuBLAS before the engine (bitwise real cuBLAS).
 * Groups 1 to 7 run in the mode as given: under small=auto, the shapes the tiled path would
 * leave the GPU idle on go to the small kernel (most of groups 1, 4, 5 and 7; groups 2 and 6
 * name the path); the run with small=never (meson's df_gemm_tiled) keeps them on the tiled
 * path.
 *
 * Here: the buffers and state every group shares, and main.  df_gemm_common.c: the panel plan,
 * the modes, the problems, the bitwise comparisons and the host results; df_gemm_bitwise.c:
 * groups 1 and 2; df_gemm_accuracy.c: group 3; df_gemm_special.c: groups 4, 5 and 7;
 * df_gemm_graph.c: group 6; df_gemm_small.c: group 8; layout.c (shared with the other engines'
 * tests): the layouts and the calls. */
#include "df_gemm_common.h"

#include "../../engines/df/df_gemm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------- buffers and state (see df_gemm_common.h) ---------- */

int scheme;
const char *scheme_name;
char *mode_orig; /* EXBLAS_MODE as the test started */
int reread;
cublasHandle_t handle;
double *dA, *dB, *dC, *d_ab;  /* device: BUF elements each; alpha, beta */
double *hA, *hB, *hCt, *hCo;  /* pinned staging: A, B, C template, C out */
call_bufs bufs;               /* d_ab, dC, hCt, hCo */
double *got[NB], *got2;       /* tight results, BUF elements each */
double qnan;

/* EXBLAS_MODE=df[:key=value,...] -> the scheme; fatal for anything else. */
static void parse_mode(void)
{
    scheme = df_test_scheme("df_gemm", &scheme_name);
    mode_orig = strdup(gt_mode()); /* df_test_scheme: not NULL */
    const char *r = getenv("EXBLAS_REREAD");
    reread = r && *r && strcmp(r, "0");
}

int main(void)
{
    gt_init("df_gemm");
    const double t0 = gt_now();
    parse_mode();
    qnan = gt_qnan();
    printf("df_gemm: reproducing scheme %s (%s) with dfs_df_gemm_host; EXBLAS_REREAD=%s\n",
           scheme_name,
           scheme == DFS_DF_MAD16   ? "DFS_DF_MAD16"
           : scheme == DFS_DF_MAD15 ? "DFS_DF_MAD15"
           : scheme == DFS_DF_MAD12 ? "DFS_DF_MAD12"
                                    : "DFS_DF_MAD29",
           reread ? "on" : "off");
    GT_CUBLAS(cublasCreate_v2(&handle));

    dA = gt_dmalloc(BUF * sizeof(double));
    dB = gt_dmalloc(BUF * sizeof(double));
    dC = gt_dmalloc(BUF * sizeof(double));
    d_ab = gt_dmalloc(2 * sizeof(double));
    hA = df_pinned(BUF);
    hB = df_pinned(BUF);
    hCt = df_pinned(BUF);
    hCo = df_pinned(BUF);
    bufs = (call_bufs){.d_ab = d_ab, .dC = dC, .hCt = hCt, .hCo = hCo};
    for (int b = 0; b < NB; b++)
        got[b] = df_xmalloc(BUF);
    got2 = df_xmalloc(BUF);

    for (int si = 0; si < 7; si++)
        bitwise_shape(si);
    blocking_group();
    accuracy_group();
    special_group();
    alpha0_group();
    graph_group();
    wide_group();
    small_group();

    GT_CUBLAS(cublasDestroy_v2(handle));
    GT_CUDA(cudaFree(dA));
    GT_CUDA(cudaFree(dB));
    GT_CUDA(cudaFree(dC));
    GT_CUDA(cudaFree(d_ab));
    GT_CUDA(cudaFreeHost(hA));
    GT_CUDA(cudaFreeHost(hB));
    GT_CUDA(cudaFreeHost(hCt));
    GT_CUDA(cudaFreeHost(hCo));
    for (int b = 0; b < NB; b++)
        free(got[b]);
    free(got2);
    free(mode_orig);
    printf("df_gemm: %.1f s in all\n", gt_now() - t0);
    return gt_finish();
}
