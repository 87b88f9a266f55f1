/* kernels_zkara.cuh — a complex product by Karatsuba's three products on the int8 engine's
 * residues (crt_gemm.h's zk; README.md, "ZGEMM by three products"), included by kernels.cu:
 *   dfs_crt_zk_sums      the third residue matrix of each plane from the first two;
 *   dfs_crt_finish_zk*   per complex output, both parts' sums from the three products, then the
 *                        fast finish's output (dfs_crt_output_fast) for each part.
 * With Ar, Ai the integers of op(A)'s parts and Br, Bn those of op(B)'s real part and of minus
 * its imaginary part (the real representation's column 2j, zreal.h), per modulus
 *     P1 = Ar Br,  P2 = Ai Bn,  P3 = (Ar - Ai)(Br + Bn)   (exact int32 sums of residues),
 *     Re = Ar Br - Ai Bi = P1 + P2,  Im = Ar Bi + Ai Br = P1 - P2 - P3   (modulo the modulus),
 * which are the residues of the real representation's two outputs: the same integers, so the
 * same X, bound and result as its four products would give, from three. */

/* The third matrix of every plane (dfs_crt_zk_sums_args). */
extern "C" __global__ void __launch_bounds__(256)
    dfs_crt_zk_sums(const __grid_constant__ dfs_crt_zk_sums_args a)
{
    const int64_t words = a.rows * a.kp / 4; /* kp is a multiple of 16 */
    const int l = blockIdx.y;
    uint32_t *base = (uint32_t *)(a.R + 3 * (int64_t)l * a.rows * a.kp);
    const int p = l < a.n ? a.mod[l] : 0, lo = -(p / 2), hi = lo + p - 1;
    for (int64_t w = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; w < words;
         w += (int64_t)gridDim.x * blockDim.x) {
        const uint32_t x = base[w], y = base[words + w];
        uint32_t out = 0;
        if (l < a.n) {
#pragma unroll
            for (int i = 0; i < 4; i++) {
                const int u = (signed char)(x >> (8 * i)), v = (signed char)(y >> (8 * i));
                int s = a.sub ? u - v : u + v; /* |s| <= 256: within a few moduli of the range */
                while (s > hi)
                    s -= p;
                while (s < lo)
                    s += p;
                out |= (uint32_t)(s & 0xff) << (8 * i);
            }
        } else { /* magnitudes of 6 bits: their sum, below 127, no carry between the bytes */
            out = x + y;
        }
        base[2 * words + w] = out;
    }
}

/* Both parts' sums of a complex output from its three products: plane l's P1, P2, P3 at
 * p[3 l s], p[(3 l + 1) s], p[(3 l + 2) s]; nv <= NV planes, the last the magnitudes (fast), of
 * 6 bits: Re's M1 + M2 and Im's M3 - M1 - M2 (exactly sum_q |ar| |bi| + |ai| |br| in those
 * magnitudes), each times 4, in the units of the 7-bit plane (crt_check.h) and still a lower
 * bound of the part's S. */
template <int NV>
__device__ __forceinline__ void zk_sums(int32_t *re, int32_t *im, const int32_t *p, uint32_t s,
                                        const int nv)
{
    int32_t v[3 * NV];
    uint32_t off = 0;
#pragma unroll
    for (int l = 0; l < 3 * NV; l++) { /* every load in flight before the arithmetic */
        v[l] = l < 3 * nv ? p[off] : 0;
        off += s;
    }
#pragma unroll
    for (int l = 0; l < NV; l++) { /* |P| <= 2^14 kp: the sums fit (crt_gemm.c) */
        if (l < nv - 1) {
            re[l] = v[3 * l] + v[3 * l + 1];
            im[l] = v[3 * l] - v[3 * l + 1] - v[3 * l + 2];
        } else if (l == nv - 1) { /* at most 4 (2 63^2 kp) < 2^31 (DFS_CRT_ZK_MAX_KP) */
            re[l] = 4 * (v[3 * l] + v[3 * l + 1]);
            im[l] = 4 * (v[3 * l + 2] - v[3 * l] - v[3 * l + 1]);
        }
    }
}

/* The fast finish of a block of a complex product by three products: the block's real outputs
 * are columns 2 cc (Re) and 2 cc + 1 (Im) of the real representation (blk.bn = 2 bnc), its sums
 * Cl[(3 l + t) bm bnc + cc bm + r], op(B)'s column data per complex column (blk.c0 / 2 + cc).
 * Otherwise as crt_finish_fast: outputs that meet the contract written, the others marked in
 * a.fail for dfs_crt_repair (which takes the real block as it is), Inf and NaN listed for the
 * direct kernel, the moduli counted.  NFIX moduli as a constant, or (0) any count. */
template <int NFIX> __device__ __forceinline__ void crt_finish_zk(const dfs_crt_finish_args &a)
{
    constexpr int NV = (NFIX ? NFIX : DFS_CRT_FAST_MODULI) + 1;
    const int nv = (NFIX ? NFIX : a.step.tab.n) + 1;
    __shared__ unsigned hist[DFS_CRT_NEED_BINS];
    const dfs_oz_finish_args &b = a.blk;
    const int64_t r = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    const int64_t gr = b.r0 + r, bnc = b.bn / 2;
    const double alpha = blk_alpha(b), beta = blk_beta(b);
    const uint32_t s = (uint32_t)(b.bm * bnc);
    const int warp = (int)(threadIdx.x >> 5);
    /* the sample of passing outputs as crt_finish_fast's (both parts of a sampled column) */
    const int sampled = ((blockIdx.x + blockIdx.y) & 3) == 0;
    if (threadIdx.x < DFS_CRT_NEED_BINS)
        hist[threadIdx.x] = 0;
    __syncthreads();
    const dfs_crt_rowinfo ra = fast_row(a, r);
    unsigned failed = 0;
    int j = 0;
    for (int64_t cc = blockIdx.y; cc < bnc; cc += gridDim.y, j++) {
        int how[2] = {DFS_OZ_WRITTEN, DFS_OZ_WRITTEN};
        if (r < b.bm) {
            const int64_t gcc = b.c0 / 2 + cc;
            int32_t v[2][NV];
            zk_sums<NV>(v[0], v[1], a.Cl + cc * b.bm + r, s, nv);
            const dfs_crt_rowinfo rb = {b.tauB[gcc], a.bitsB[gcc],
                                        b.needB[gcc] == DFS_OZ_SPECIAL, b.nrmB[gcc], a.ssB[gcc]};
#pragma unroll
            for (int part = 0; part < 2; part++) {
                const int64_t c = 2 * cc + part;
                double *out = b.C + gr + (b.c0 + c) * b.ldc;
                const double cv = beta != 0 ? *out : 0.0;
                double val = 0.0;
                int need = 0;
                how[part] = dfs_crt_output_fast(&a.step, NFIX, v[part], 1u, &ra, &rb, alpha, beta,
                                                cv, sampled && (j & 3) == (warp & 3), &val,
                                                &need);
                if (how[part] == DFS_OZ_WRITTEN)
                    *out = val;
                else if (how[part] == DFS_OZ_LISTED)
                    b.list[atomicAdd(b.count, 1u)] = pack_rc(r, c);
                if (need > 0)
                    atomicAdd(&hist[need < DFS_CRT_NEED_BINS ? need : DFS_CRT_NEED_BINS - 1],
                              how[part] == DFS_OZ_UNDECIDED ? 1u : 16u);
            }
        }
        failed += fast_fail_word(a, r, 2 * cc, how[0]);
        failed += fast_fail_word(a, r, 2 * cc + 1, how[1]);
    }
    fast_flush(a, hist, failed);
}

#define CRT_ZK(name, nfix) CRT_FAST_KERNEL(name, crt_finish_zk, nfix)
CRT_ZK(dfs_crt_finish_zk, 0)
CRT_ZK(dfs_crt_finish_zk14, 14)
CRT_ZK(dfs_crt_finish_zk15, 15)
CRT_ZK(dfs_crt_finish_zk16, 16)
#undef CRT_ZK
