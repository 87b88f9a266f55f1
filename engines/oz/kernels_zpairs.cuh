/* kernels_zpairs.cuh — repro's ZGEMM with complex (or device) scalars on the Ozaki scheme II,
 * part of kernels.cu: the real product of the row-pair representation (crt_zpair.h) finished a
 * pair of rows at a time, each part of each output rounded once; the pairs it cannot decide
 * computed exactly, a warp per pair. */

/* The complex scalars of a pairs call (device pointers or values). */
__device__ __forceinline__ void pair_scalars(const dfs_crt_finish_args &a, double *alpha,
                                             double *beta)
{
    for (int p = 0; p < 2; p++) {
        alpha[p] = a.zalpha_d ? a.zalpha_d[p] : a.zalpha[p];
        beta[p] = a.zbeta_d ? a.zbeta_d[p] : a.zbeta[p];
    }
}

/* The finish of one block of C in pairs (dfs_crt_output_pair): a thread per pair of the block's
 * rows 2p and 2p + 1 (r0 and bm even), the grid's y along the columns as in the verifying
 * finish; with the inner dimension in two groups each part from its larger group (its sums in
 * the planes after group 0's), as crt_finish_verify.  Listed and undecided pairs go to the list
 * by their first row.  Each pair counts as two outputs in the counters. */
template <int WIDE> __device__ __forceinline__ void crt_finish_pairs(const dfs_crt_finish_args &a)
{
    __shared__ unsigned hist[DFS_CRT_VNEED_BINS];
    const dfs_oz_finish_args &b = a.blk;
    const int64_t r = 2 * ((int64_t)blockIdx.x * blockDim.x + threadIdx.x);
    const int64_t gr = b.r0 + r;
    const int G = a.kgroups == 2 ? 2 : 1;
    double alpha[2], beta[2];
    pair_scalars(a, alpha, beta);
    const int with_c = beta[0] != 0 || beta[1] != 0;
    const uint32_t stride = (uint32_t)(b.bm * b.bn);
    for (int i = threadIdx.x; i < DFS_CRT_VNEED_BINS; i += blockDim.x)
        hist[i] = 0;
    __syncthreads();
    out_tally t = {0, 0, 0};
    dfs_crt_vrow ra[2][2]; /* [group][part] */
    int specA = 0;
    for (int g = 0; g < 2; g++)
        for (int p = 0; p < 2; p++)
            ra[g][p] = {DFS_OZ_NONE_TAU, 0, 0.0, 0.0};
    if (r < b.bm)
        for (int p = 0; p < 2; p++) {
            ra[0][p] = {b.tauA[gr + p], a.bitsA[gr + p], b.nrmA[gr + p], a.ssA[gr + p]};
            specA |= b.needA[gr + p] == DFS_OZ_SPECIAL;
            if (G == 2) {
                ra[1][p] = {a.tauA1[gr + p], a.bitsA1[gr + p], a.nrmA1[gr + p], a.ssA1[gr + p]};
                specA |= a.needA1[gr + p] == DFS_OZ_SPECIAL;
            }
        }
    for (int64_t c = blockIdx.y; c < b.bn; c += gridDim.y) {
        int how = DFS_OZ_WRITTEN, lower = 0;
        if (r < b.bm) {
            const int64_t gc = b.c0 + c;
            double *out = b.C + gr + gc * b.ldc;
            const double cv[2] = {with_c ? out[0] : 0.0, with_c ? out[1] : 0.0};
            dfs_crt_vrow rb[2] = {{b.tauB[gc], a.bitsB[gc], b.nrmB[gc], a.ssB[gc]},
                                  {DFS_OZ_NONE_TAU, 0, 0.0, 0.0}};
            int special = specA || b.needB[gc] == DFS_OZ_SPECIAL;
            if (G == 2) {
                rb[1] = {a.tauB1[gc], a.bitsB1[gc], a.nrmB1[gc], a.ssB1[gc]};
                special |= a.needB1[gc] == DFS_OZ_SPECIAL;
            }
            const int32_t *cp[2];
            const dfs_crt_vrow *rap[2], *rbp[2];
            int eo[2];
            for (int p = 0; p < 2; p++) {
                int g = 0;
                eo[p] = DFS_OZ_NO_EXP;
                if (G == 2)
                    g = dfs_crt_group_pick(
                        dfs_crt_group_exp(ra[0][p].tau, rb[0].tau, ra[0][p].nrm, rb[0].nrm),
                        dfs_crt_group_exp(ra[1][p].tau, rb[1].tau, ra[1][p].nrm, rb[1].nrm),
                        &eo[p]);
                cp[p] = a.Cl + c * b.bm + r + p + (int64_t)g * a.step.tab.n * stride;
                rap[p] = &ra[g][p];
                rbp[p] = &rb[g];
            }
            double v[2];
            int need = 0;
            how = dfs_crt_output_pair(&a.step, cp, stride, rap, rbp, eo, special, alpha, beta, cv,
                                      WIDE, v, &lower, &need);
            if (need > 0 && need < DFS_CRT_VNEED_BINS)
                atomicAdd(&hist[need], 2u);
            if (how == DFS_OZ_WRITTEN) {
                out[0] = v[0];
                out[1] = v[1];
            } else { /* C kept as it was: the direct kernel reads it for beta C */
                b.list[atomicAdd(b.count, 1u)] = pack_rc(r, c);
            }
        }
        tally_output(&t, how, lower);
        tally_output(&t, how, lower);
    }
    flush_verify_counts(a, hist, t, r == 0 && blockIdx.y == 0);
}

extern "C" __global__ void __launch_bounds__(DFS_OZ_FINISH_THREADS)
    dfs_crt_finish_pairs(const __grid_constant__ dfs_crt_finish_args a)
{
    crt_finish_pairs<0>(a);
}

extern "C" __global__ void __launch_bounds__(DFS_OZ_FINISH_THREADS)
    dfs_crt_finish_pairs_wide(const __grid_constant__ dfs_crt_finish_args a)
{
    crt_finish_pairs<1>(a);
}

/* dfs_oz_ddsum2_zround out of line: one lane per pair takes it, and inlined its registers
 * spilled in the kernel below on sm_90. */
static __device__ __noinline__ int pair_zround(const dfs_oz_ddsum2 *d, int64_t k,
                                               const double *alpha, const double *beta,
                                               const double *cv, double *v)
{
    return dfs_oz_ddsum2_zround(&d[0], &d[1], k, alpha, beta, cv, v);
}

/* One warp per listed pair (r even): first both parts' sums in double-double, both classes
 * (ddsum.h's dfs_oz_ddsum2, the lanes' shares merged), rounded where their bounds decide both
 * parts (dfs_oz_ddsum2_zround, as the complex GEMV's finish); else the products of rows r and
 * r + 1 of op(A)' with the column into an exact accumulator each (warp_exact_sums), both parts
 * of alpha S + beta C rounded once (zfinish_output: the CPU twin's dfs_x_zaxpby).  alpha = 0: A
 * and B not read (S = +0). */
extern "C" __global__ void __launch_bounds__(32 * DFS_OZ_ZPAIR_WARPS)
    dfs_oz_direct_pairs(const __grid_constant__ dfs_crt_finish_args f)
{
    __shared__ long long wa[DFS_OZ_ZPAIR_WARPS][2][DFS_X_WORDS];
    __shared__ long long ws[DFS_OZ_ZPAIR_WARPS][DFS_X_ZSCRATCH];
    const dfs_oz_finish_args &a = f.blk;
    const int lane = threadIdx.x & 31, wp = threadIdx.x / 32;
    const int64_t count = (int64_t)*(volatile unsigned *)a.count;
    double alpha[2], beta[2];
    pair_scalars(f, alpha, beta);
    const int64_t K = alpha[0] != 0 || alpha[1] != 0 ? a.k : 0;
    for (int64_t it = (int64_t)blockIdx.x * DFS_OZ_ZPAIR_WARPS + wp; it < count;
         it += (int64_t)gridDim.x * DFS_OZ_ZPAIR_WARPS) {
        const uint32_t rc = a.list[it];
        const int64_t gr = a.r0 + (rc & 0xffffu), gc = a.c0 + (rc >> 16);
        const double *x0 = a.A + gr * a.ars, *x1 = x0 + a.ars, *y = a.B + gc * a.bcs;
        double *out = a.C + gr + gc * a.ldc;
        if (K > 0) {
            dfs_oz_ddsum2 d[2] = {dfs_oz_ddsum2_zero(), dfs_oz_ddsum2_zero()};
            for (int64_t q = lane; q < K; q += 32) {
                const double b = y[q * a.bqs];
                dfs_oz_ddsum2_add(&d[0], x0[q * a.aqs], b);
                dfs_oz_ddsum2_add(&d[1], x1[q * a.aqs], b);
            }
            group_merge_sum2<32>(&d[0]);
            group_merge_sum2<32>(&d[1]);
            int done = 0;
            if (lane == 0) {
                const int c = beta[0] != 0 || beta[1] != 0;
                const double cv[2] = {c ? out[0] : 0.0, c ? out[1] : 0.0};
                double v[2];
                /* the bound's count: every product, and five levels of merges */
                if (pair_zround(d, K + 5, alpha, beta, cv, v)) {
                    out[0] = v[0];
                    out[1] = v[1];
                    done = 1;
                }
            }
            if (__shfl_sync(0xffffffffu, done, 0))
                continue;
        }
        long long *const w[2] = {wa[wp][0], wa[wp][1]};
        zero_words(wa[wp][0], 2 * DFS_X_WORDS, lane, 32);
        __syncwarp();
        unsigned g[2];
        warp_exact_sums<2>(
            w, K,
            [&](int64_t q, double *u, double *v) {
                u[0] = x0[q * a.aqs];
                u[1] = x1[q * a.aqs];
                v[0] = v[1] = y[q * a.bqs];
            },
            g);
        __syncwarp();
        zfinish_output(w[0], w[1], ws[wp], g[0], g[1], alpha, beta, out);
        __syncwarp();
    }
}
