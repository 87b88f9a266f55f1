/* kernels.cu — the kernels the Ozaki-family DGEMMs share (args.h has their argument blocks and
 * the list; call.c and crt_gemm.c launch them):
 *   dfs_oz_rows and       the rows passes and the inner dimension's groups (kernels_rows.cuh);
 *   dfs_oz_kgroups
 *   dfs_oz_direct         one warp per listed output: its products summed in double-double and
 *                         rounded where the bound decides (ddsum.h), else into the lanes'
 *                         expansions, merged and rounded, or where they cannot carry the sum,
 *                         every product into a full accumulator;
 *   dfs_oz_small          repro's small DGEMMs, every output of a batch in one launch
 *                         (kernels_small.cuh);
 *   dfs_crt_residues(62)  the Ozaki scheme II: rows scaled to integers, their int8 residues
 *                         modulo each modulus (then cuBLAS: one int8 GEMM per modulus, exact);
 *   dfs_crt_finish_*      per output: the product reconstructed, rounded, alpha and beta (fast:
 *                         the int8 engine), or correctly rounded or listed (verify: repro);
 *                         crt_finish.h;
 *   dfs_crt_finish_pairs  and dfs_oz_direct_pairs: the same for repro's complex outputs with
 *                         complex scalars, a row pair each (kernels_zpairs.cuh). */
#include "args.h"
#include "crt_finish.h"
#include "crt_zpair.h"
#include "device.cuh"
#include "kernels_rows.cuh"
#include "kernels_small.cuh"
#include "kernels_small_tiled.cuh"
#include "steps.h"

/* ---------- direct ---------- */

extern "C" __global__ void __launch_bounds__(32 * DFS_OZ_DIRECT_WARPS)
    dfs_oz_direct(dfs_oz_finish_args a)
{
    constexpr int T = DFS_OZ_DIRECT_TERMS;
    __shared__ long long wa[DFS_OZ_DIRECT_WARPS][DFS_X_WORDS];
    __shared__ long long ws[DFS_OZ_DIRECT_WARPS][DFS_X_WORDS];
    const int lane = threadIdx.x & 31, wp = threadIdx.x / 32;
    /* the listed outputs (the path without workspace is the small kernel's) */
    const int64_t count = (int64_t)*(volatile unsigned *)a.count;
    const double alpha = blk_alpha(a), beta = blk_beta(a);
    for (int64_t it = (int64_t)blockIdx.x * DFS_OZ_DIRECT_WARPS + wp; it < count;
         it += (int64_t)gridDim.x * DFS_OZ_DIRECT_WARPS) {
        const uint32_t rc = a.list[it];
        const int64_t gr = a.r0 + (rc & 0xffffu), gc = a.c0 + (rc >> 16);
        /* op(B)(q, c) as a BLAS vector: stride bqs from B + c * bcs */
        const double *x = a.A + gr * a.ars, *y = a.B + gc * a.bcs;
        double *out = a.C + gr + gc * a.ldc;
        /* first the warp's double-double sums with their bound (ddsum.h), then its 32
         * expansions, merged: most listed outputs are sums the slices could not decide, not
         * sums these cannot carry, and neither way takes the exact accumulator's serial steps;
         * a spill stops the expansions at once */
        int done = 0;
        if (alpha != 0) { /* alpha = 0 (C = beta C): the accumulator's way below */
            const dfs_oz_ddsum d = group_dd_sum<32>(a.k, x, a.aqs, y, a.bqs, lane, true);
            double v;
            if (lane == 0)
                done = dfs_oz_ddsum_round(&d, a.k, 0, alpha, beta, beta != 0 ? *out : 0.0, &v);
            if (done)
                *out = v;
            done = __shfl_sync(0xffffffffu, done, 0);
        }
        if (alpha != 0 && !done) {
            double t[T];
            const unsigned f = group_exact_sum<32, T, true>(t, a.k, x, a.aqs, y, a.bqs, lane, true);
            if (lane == 0 && f == 0) {
                double v;
                done = dfs_oz_w_terms_axpby(t, T, alpha, beta, beta != 0 ? *out : 0.0, &v);
                if (done)
                    *out = v;
            }
            done = __shfl_sync(0xffffffffu, done, 0);
        }
        if (done)
            continue;
        warp_exact_output(wa[wp], ws[wp], a.k, x, a.aqs, y, a.bqs, a.k, alpha, beta, out);
    }
}

/* ---------- the scheme II: residues ---------- */

#define RES_ROWS 32 /* a tile of 32 rows x 64 columns q per block of 256 threads */
#define RES_Q 64

/* The tile is read with the source's contiguous dimension fastest, then each thread turns 8
 * consecutive q of one row into 8 residues per modulus (8 bytes written per modulus), by byte
 * dot products (dfs_crt_residue_bytes) of NW words per integer: NW = 2 when no row has more
 * than 62 bits (dfs_crt_max_bits; the integers made in 64 bits, dfs_crt_int62), else 4 (made in
 * 128 bits, dfs_crt_scale).  The same residues either way. */

/* Four values below 256 packed as bytes, the first lowest. */
__device__ __forceinline__ uint32_t pack4(const uint32_t *u)
{
    return __byte_perm(__byte_perm(u[0], u[1], 0x0040), __byte_perm(u[2], u[3], 0x0040), 0x5410);
}

/* The residues of 8 elements x of a row (top exponent tau, b bits) modulo each modulus, 8
 * bytes per modulus at out + l * ps (ps: dfs_crt_residue_args's plane stride). */
template <int NW>
__device__ __forceinline__ void residues_bytes(const dfs_crt_residue_args &a, const double *x,
                                               int tau, int b, signed char *out)
{
    const int rnd = dfs_crt_rounds(a.fast, b);
    const int64_t ps = a.ps ? a.ps : a.rows * a.kp;
    uint32_t w[8][NW];
#pragma unroll
    for (int j = 0; j < 8; j++) { /* a zero row (NONE_TAU) has zeros in its tile: b = 0 */
        if (NW == 2) {
            dfs_crt_words(tau == DFS_OZ_NONE_TAU ? 0 : dfs_crt_int62(x[j], tau, b, rnd), w[j]);
        } else {
            int neg = 0;
            dfs_u128 mag = 0;
            if (tau != DFS_OZ_NONE_TAU)
                dfs_crt_scale(x[j], tau, b, rnd, &neg, &mag);
            dfs_crt_words128(neg, mag, w[j]);
        }
    }
#pragma unroll
    for (int l = 0; l < DFS_CRT_MODULI; l++) {
        if (l >= a.n)
            break;
        const uint32_t p = (uint32_t)dfs_crt_modulus(l);
        uint32_t u[8];
#pragma unroll
        for (int j = 0; j < 8; j++)
            u[j] = dfs_crt_residue_bytes(w[j], NW, &a.bcoef[l], p);
        *(uint2 *)(out + l * ps) = make_uint2(dfs_crt_sub_bytes(pack4(u), p / 2),
                                                         dfs_crt_sub_bytes(pack4(u + 4), p / 2));
    }
    if (a.fast) { /* the magnitude plane (crt_check.h) after the moduli */
        uint32_t u[8];
#pragma unroll
        for (int j = 0; j < 8; j++)
            u[j] = (uint32_t)dfs_crt_mag(x[j], tau) >> a.mag_half;
        *(uint2 *)(out + a.n * ps) = make_uint2(pack4(u), pack4(u + 4));
    }
}

/* The block of rows by (RES_ROWS each) and columns q blockIdx.x (RES_Q each). */
template <int NW>
__device__ __forceinline__ void crt_residues(const dfs_crt_residue_args &a, int64_t by)
{
    __shared__ double tile[RES_ROWS][RES_Q + 1];
    __shared__ int taus[RES_ROWS], bits[RES_ROWS];
    const int64_t q0 = (int64_t)blockIdx.x * RES_Q, rb = by * RES_ROWS;
    const int t = threadIdx.x;
    if (t < RES_ROWS) {
        const int64_t r = rb + t;
        const int live = r < a.rows && a.need[a.r0 + r] != DFS_OZ_SPECIAL;
        const int b = live ? dfs_crt_row_bits(a.L, a.ss[a.r0 + r], a.kb ? a.kb : a.k) : 0;
        taus[t] = live ? a.tau[a.r0 + r] : DFS_OZ_NONE_TAU;
        bits[t] = b;
        if (blockIdx.x == 0 && r < a.rows)
            a.bits[a.r0 + r] = b;
    }
    __syncthreads();
    /* rows of zeros, with Inf or NaN, or (alpha = 0) not read by the rows pass: not loaded */
    for (int i = t; i < RES_ROWS * RES_Q; i += 256) {
        const int rr = a.rs == 1 ? i % RES_ROWS : i / RES_Q;
        const int qq = a.rs == 1 ? i / RES_ROWS : i % RES_Q;
        const int64_t r = rb + rr, q = q0 + qq;
        tile[rr][qq] = r < a.rows && q < a.k && taus[rr] != DFS_OZ_NONE_TAU &&
                               (!a.kcls || a.kcls[q] == a.group)
                           ? a.X[(a.r0 + r) * a.rs + q * a.qs]
                           : 0.0;
    }
    __syncthreads();
    const int rr = t / 8, g = t % 8;
    const int64_t r = rb + rr, qb = q0 + g * 8;
    if (r >= a.rows || qb >= a.kp) /* kp is a multiple of 16: qb < kp covers all 8 */
        return;
    const int tau = taus[rr], b = bits[rr];
    signed char *out = a.R + r * a.kp + qb;
    residues_bytes<NW>(a, tile[rr] + g * 8, tau, b, out);
}

/* One operand's residues, or both operands' (dfs_crt_residue_pair): a's blocks first. */
template <int NW> __device__ __forceinline__ void crt_residues_ab(const dfs_crt_residue_pair &p)
{
    const int64_t ya = (p.a.rows + RES_ROWS - 1) / RES_ROWS;
    if ((int64_t)blockIdx.y < ya)
        crt_residues<NW>(p.a, blockIdx.y);
    else
        crt_residues<NW>(p.b, blockIdx.y - ya);
}

extern "C" __global__ void __launch_bounds__(256)
    dfs_crt_residues(const __grid_constant__ dfs_crt_residue_pair p)
{
    crt_residues_ab<4>(p);
}

extern "C" __global__ void __launch_bounds__(256)
    dfs_crt_residues62(const __grid_constant__ dfs_crt_residue_pair p)
{
    crt_residues_ab<2>(p);
}

/* ---------- the scheme II: finish ---------- */

/* NV values stride apart (an output's residue sums, and in the fast finish its magnitude
 * product), into registers. */
template <int NV>
__device__ __forceinline__ void load_sums(int32_t *v, const int32_t *p, uint32_t stride)
{
    uint32_t off = 0;
#pragma unroll
    for (int l = 0; l < NV; l++) {
        v[l] = p[off];
        off += stride;
    }
}

/* Whether output (gr, c0 + c) of a finish block is one the call computes
 * (dfs_oz_finish_args.tri).  The finishes compute the others of their block too and drop them
 * (a branch around the arithmetic, or the test's bounds kept in registers, made ptxas spill). */
#define DFS_OZ_DROPPED(b, gr, c)                                                                  \
    ((b).tri != 0 && ((b).tri == 1 ? (b).c0 + (c) > (gr) : (b).c0 + (c) < (gr)))

/* A verifying finish block's counters (tally_flush) and its histogram of the moduli undecided
 * outputs would need into a.vneed; every thread of the block calls it (first: the thread of
 * the call's first output). */
__device__ __forceinline__ void flush_verify_counts(const dfs_crt_finish_args &a, unsigned *hist,
                                                    out_tally t, int first)
{
    tally_flush(a.blk.stats, a.blk.seq, first, t);
    __syncthreads();
    for (int i = threadIdx.x; i < DFS_CRT_VNEED_BINS; i += blockDim.x)
        if (hist[i] && a.vneed)
            atomicAdd(&a.vneed[i], (unsigned long long)hist[i]);
}

/* The verifying finish (dfs_crt_output; WIDE: more than DFS_CRT_FAST_MODULI moduli, X in five
 * words).  Threads along the rows of the block (coalesced), the grid's y along its columns,
 * several per block when there are many.  NFIX: 0, or the count of moduli as a constant (not
 * wide, one group of the inner dimension only): the next column's sums are then loaded into
 * registers while this one's are reconstructed, as in the fast finish. */
template <int WIDE, int NFIX>
__device__ __forceinline__ void crt_finish_verify(const dfs_crt_finish_args &a, int64_t *win,
                                                  int64_t *res)
{
    __shared__ unsigned hist[DFS_CRT_VNEED_BINS];
    const dfs_oz_finish_args &b = a.blk;
    const int64_t r = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    const int64_t gr = b.r0 + r;
    const double alpha = blk_alpha(b), beta = blk_beta(b);
    const uint32_t stride = (uint32_t)(b.bm * b.bn);
    for (int i = threadIdx.x; i < DFS_CRT_VNEED_BINS; i += blockDim.x)
        hist[i] = 0;
    __syncthreads();
    out_tally t = {0, 0, 0};
    int ta = 0, bA = 0, specA = 0, ta1 = DFS_OZ_NONE_TAU, bA1 = 0;
    double nA = 0, sA = 0, nA1 = 0, sA1 = 0;
    if (r < b.bm) {
        ta = b.tauA[gr];
        bA = a.bitsA[gr];
        specA = b.needA[gr] == DFS_OZ_SPECIAL;
        nA = b.nrmA[gr];
        sA = a.ssA[gr];
        if (!NFIX && a.kgroups == 2) {
            ta1 = a.tauA1[gr];
            bA1 = a.bitsA1[gr];
            specA |= a.needA1[gr] == DFS_OZ_SPECIAL;
            nA1 = a.nrmA1[gr];
            sA1 = a.ssA1[gr];
        }
    }
    /* NFIX (one group only): the sums in registers, the next column's in flight (with two
     * groups, which group's sums an output reads is known only once its row and column are) */
    constexpr int NV = NFIX ? NFIX : 1;
    constexpr int ahead = NFIX > 0;
    int32_t cur[NV], nxt[NV];
    if (ahead && r < b.bm && blockIdx.y < b.bn)
        load_sums<NV>(cur, a.Cl + (int64_t)blockIdx.y * b.bm + r, stride);
    /* the whole block on one column at a time: op(B)'s column data is the same for all */
    for (int64_t c = blockIdx.y; c < b.bn; c += gridDim.y) {
        int how = DFS_OZ_WRITTEN, lower = 0;
        if (r < b.bm) {
            const int64_t gc = b.c0 + c, cn = c + gridDim.y;
            if (ahead && cn < b.bn)
                load_sums<NV>(nxt, a.Cl + cn * b.bm + r, stride);
            double *out = b.C + gr + gc * b.ldc;
            const double cv = beta != 0 ? *out : 0.0;
            const int32_t *cl = ahead ? cur : a.Cl + c * b.bm + r;
            const uint32_t cs = ahead ? 1u : stride;
            int special = specA || b.needB[gc] == DFS_OZ_SPECIAL;
            double v = 0.0;
            int need = 0, eo = DFS_OZ_NO_EXP;
            /* the output's larger part: group 0's, or with two groups maybe group 1's */
            int tb = b.tauB[gc], bB = a.bitsB[gc], rta = ta, rbA = bA;
            double nB = b.nrmB[gc], sB = a.ssB[gc], rnA = nA, rsA = sA;
            if (!NFIX && a.kgroups == 2) {
                special |= a.needB1[gc] == DFS_OZ_SPECIAL;
                const int tb1 = a.tauB1[gc];
                const double nB1 = a.nrmB1[gc];
                if (dfs_crt_group_pick(dfs_crt_group_exp(ta, tb, nA, nB),
                                       dfs_crt_group_exp(ta1, tb1, nA1, nB1), &eo)) {
                    cl += a.step.tab.n * stride;
                    rta = ta1, rbA = bA1, rnA = nA1, rsA = sA1;
                    tb = tb1, bB = a.bitsB1[gc], nB = nB1, sB = a.ssB1[gc];
                }
            }
            how = dfs_crt_output(&a.step, cl, cs, rta, tb, rbA, bB, rnA, nB, rsA, sB, eo,
                                 special, alpha, beta, cv, win, res, &v, &lower, WIDE, NFIX,
                                 &need);
            if (DFS_OZ_DROPPED(b, gr, c)) /* not the call's: dropped */
                how = DFS_OZ_WRITTEN, lower = 0, need = 0;
            else if (how == DFS_OZ_WRITTEN)
                *out = v;
            else /* C kept as it was: the direct kernel reads it for beta * C */
                b.list[atomicAdd(b.count, 1u)] = pack_rc(r, c);
            if (need > 0 && need < DFS_CRT_VNEED_BINS)
                atomicAdd(&hist[need], 1u);
            if (ahead) {
#pragma unroll
                for (int l = 0; l < NV; l++)
                    cur[l] = nxt[l];
            }
        }
        tally_output(&t, how, lower);
    }
    flush_verify_counts(a, hist, t, r == 0 && blockIdx.y == 0);
}

/* The fast finishes' (crt_finish_fast, kernels_zkara.cuh's crt_finish_zk) shared steps: op(A)'s
 * row r of the block (zeros past it), the warp's failing outputs of column c as one word of
 * a.fail (every word written; the count returned on lane 0), and the block's counters flushed
 * into a.fstats at the end (every thread of the block calls it). */
__device__ __forceinline__ dfs_crt_rowinfo fast_row(const dfs_crt_finish_args &a, int64_t r)
{
    const dfs_oz_finish_args &b = a.blk;
    dfs_crt_rowinfo ra = {0, 0, 0, 0.0, 0.0};
    if (r < b.bm) {
        const int64_t gr = b.r0 + r;
        ra.tau = b.tauA[gr];
        ra.bits = a.bitsA[gr];
        ra.special = b.needA[gr] == DFS_OZ_SPECIAL;
        ra.nrm = b.nrmA[gr];
        ra.ss = a.ssA[gr];
    }
    return ra;
}

__device__ __forceinline__ unsigned fast_fail_word(const dfs_crt_finish_args &a, int64_t r,
                                                   int64_t c, int how)
{
    /* the warp's 32 rows (aligned: blockDim is a multiple of 32) of column c: one word */
    const unsigned bad = __ballot_sync(0xffffffffu, how == DFS_OZ_UNDECIDED);
    if ((threadIdx.x & 31) == 0 && r < a.blk.bm)
        a.fail[c * ((a.blk.bm + 31) / 32) + r / 32] = bad;
    return (threadIdx.x & 31) == 0 ? (unsigned)__popc(bad) : 0u;
}

__device__ __forceinline__ void fast_flush(const dfs_crt_finish_args &a, const unsigned *hist,
                                           unsigned failed)
{
    if (failed)
        atomicAdd(&a.fstats->failed, (unsigned long long)failed);
    __syncthreads();
    if (threadIdx.x < DFS_CRT_NEED_BINS && hist[threadIdx.x])
        atomicAdd(&a.fstats->need[threadIdx.x], (unsigned long long)hist[threadIdx.x]);
}

/* The fast finish (dfs_crt_output_fast) with NFIX moduli, or any number when NFIX = 0: outputs
 * that meet the contract written, those that do not marked in a.fail for dfs_crt_repair, those
 * with Inf or NaN operands listed for the direct kernel; the moduli outputs would need counted
 * in a block histogram, then in a.fstats.  With NFIX, the next column's sums (and C) are loaded
 * while this one's are reconstructed: all of them in flight at once (the compiler otherwise
 * waits on each load in turn). */
template <int NFIX> __device__ __forceinline__ void crt_finish_fast(const dfs_crt_finish_args &a)
{
    constexpr int NV = NFIX ? NFIX + 1 : 1;
    __shared__ unsigned hist[DFS_CRT_NEED_BINS];
    const dfs_oz_finish_args &b = a.blk;
    const int64_t r = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    const int64_t gr = b.r0 + r;
    const double alpha = blk_alpha(b), beta = blk_beta(b);
    const uint32_t stride = (uint32_t)(b.bm * b.bn);
    const int warp = (int)(threadIdx.x >> 5);
    /* the sample of passing outputs (1 in 16: args.h): whole warps, in one block of four, each
     * warp on one column in four, so that every warp of a block does the same work (no lane
     * waits for another's dfs_crt_fast_need, no warp for another at the barrier) */
    const int sampled = ((blockIdx.x + blockIdx.y) & 3) == 0;
    if (threadIdx.x < DFS_CRT_NEED_BINS)
        hist[threadIdx.x] = 0;
    __syncthreads();
    const dfs_crt_rowinfo ra = fast_row(a, r);
    int32_t cur[NV], nxt[NV];
    double cv = 0.0, cvn = 0.0;
    if (NV > 1 && r < b.bm && blockIdx.y < b.bn) {
        load_sums<NV>(cur, a.Cl + (int64_t)blockIdx.y * b.bm + r, stride);
        if (beta != 0)
            cv = b.C[gr + (b.c0 + blockIdx.y) * b.ldc];
    }
    unsigned failed = 0;
    int j = 0;
    for (int64_t c = blockIdx.y; c < b.bn; c += gridDim.y, j++) {
        int how = DFS_OZ_WRITTEN;
        if (r < b.bm) {
            const int64_t gc = b.c0 + c, cn = c + gridDim.y;
            if (NV > 1 && cn < b.bn) {
                load_sums<NV>(nxt, a.Cl + cn * b.bm + r, stride);
                if (beta != 0)
                    cvn = b.C[gr + (b.c0 + cn) * b.ldc];
            }
            const dfs_crt_rowinfo rb = {b.tauB[gc], a.bitsB[gc], b.needB[gc] == DFS_OZ_SPECIAL,
                                        b.nrmB[gc], a.ssB[gc]};
            double *out = b.C + gr + gc * b.ldc;
            if (NV == 1)
                cv = beta != 0 ? *out : 0.0;
            double v = 0.0;
            int need = 0;
            how = dfs_crt_output_fast(&a.step, NFIX, NV > 1 ? cur : a.Cl + c * b.bm + r,
                                      NV > 1 ? 1u : stride, &ra, &rb, alpha, beta, cv,
                                      sampled && (j & 3) == (warp & 3), &v, &need);
            if (DFS_OZ_DROPPED(b, gr, c)) /* not the call's: dropped */
                how = DFS_OZ_WRITTEN, need = 0;
            else if (how == DFS_OZ_WRITTEN)
                *out = v;
            else if (how == DFS_OZ_LISTED) /* C kept: the direct kernel reads it for beta * C */
                b.list[atomicAdd(b.count, 1u)] = pack_rc(r, c);
            if (need > 0)
                atomicAdd(&hist[need < DFS_CRT_NEED_BINS ? need : DFS_CRT_NEED_BINS - 1],
                          how == DFS_OZ_UNDECIDED ? 1u : 16u);
            if (NV > 1) {
#pragma unroll
                for (int l = 0; l < NV; l++)
                    cur[l] = nxt[l];
                cv = cvn;
            }
        }
        failed += fast_fail_word(a, r, c, how);
    }
    fast_flush(a, hist, failed);
}

/* A fast finish kernel: body<nfix> (crt_finish_fast here, crt_finish_zk in kernels_zkara.cuh). */
#define CRT_FAST_KERNEL(name, body, nfix)                                                         \
    extern "C" __global__ void __launch_bounds__(DFS_OZ_FINISH_THREADS)                           \
        name(const __grid_constant__ dfs_crt_finish_args a)                                       \
    {                                                                                             \
        body<nfix>(a);                                                                            \
    }
#define CRT_FAST(name, nfix) CRT_FAST_KERNEL(name, crt_finish_fast, nfix)
CRT_FAST(dfs_crt_finish_fast, 0)
CRT_FAST(dfs_crt_finish_fast13, 13)
CRT_FAST(dfs_crt_finish_fast14, 14)
CRT_FAST(dfs_crt_finish_fast15, 15)
CRT_FAST(dfs_crt_finish_fast16, 16)
CRT_FAST(dfs_crt_finish_fast17, 17)
CRT_FAST(dfs_crt_finish_fast18, 18)
CRT_FAST(dfs_crt_finish_fast19, 19)
CRT_FAST(dfs_crt_finish_fast20, 20)

#define CRT_VERIFY(name, wide, nfix)                                                              \
    extern "C" __global__ void __launch_bounds__(DFS_OZ_FINISH_THREADS)                           \
        name(const __grid_constant__ dfs_crt_finish_args a)                                       \
    {                                                                                             \
        int64_t win[DFS_OZ_WIN], res[DFS_OZ_RWIN];                                                \
        crt_finish_verify<wide, nfix>(a, win, res);                                               \
    }
CRT_VERIFY(dfs_crt_finish_verify, 0, 0)
CRT_VERIFY(dfs_crt_finish_verify_wide, 1, 0)
CRT_VERIFY(dfs_crt_finish_verify21, 0, 21)
CRT_VERIFY(dfs_crt_finish_verify22, 0, 22)
CRT_VERIFY(dfs_crt_finish_verify23, 0, 23)
CRT_VERIFY(dfs_crt_finish_verify24, 0, 24)

/* ---------- the scheme II, fast: the repair ---------- */

/* The output (r, c) of a fast finish's block in FP64: op(A)'s row times op(B)'s column summed
 * in order of q with fused multiply-adds, then dfs_crt_axpby (the CPU twin's arithmetic). */
__device__ void repair_one(const dfs_oz_finish_args &b, int64_t r, int64_t c, double alpha,
                           double beta)
{
    const double *x = b.A + (b.r0 + r) * b.ars, *y = b.B + (b.c0 + c) * b.bcs;
    double acc = 0.0;
    for (int64_t q = 0; q < b.k; q++)
        acc = __fma_rn(x[q * b.aqs], y[q * b.bqs], acc);
    double *out = b.C + (b.r0 + r) + (b.c0 + c) * b.ldc;
    *out = dfs_crt_axpby(alpha, acc, beta, beta != 0 ? *out : 0.0);
}

/* The tiles of DFS_CRT_TILE x DFS_CRT_TILE outputs of a fast finish's block that hold outputs
 * failing the contract's check (a.fail), recomputed in FP64 where the check failed: each
 * output summed in order of q with fused multiply-adds (so within native's gamma_k, and the CPU
 * twin's bits), then dfs_crt_axpby.  A few failures in a tile (at most DFS_CRT_TILE / 2): a
 * thread per output; more: the whole tile as a small GEMM, 256 threads of 4 x 4 outputs (rows
 * t % 16 + 16 i, columns t / 16 + 16 j), the same sums.  A grid of ceil(bm / TILE) x
 * ceil(bn / TILE) blocks of 256 threads. */
extern "C" __global__ void __launch_bounds__(256)
    dfs_crt_repair(const __grid_constant__ dfs_crt_finish_args a)
{
    __shared__ double As[DFS_CRT_TILE_K][DFS_CRT_TILE + 1], Bs[DFS_CRT_TILE_K][DFS_CRT_TILE + 1];
    __shared__ int count;
    const dfs_oz_finish_args &b = a.blk;
    const int t = threadIdx.x;
    const int64_t tr = (int64_t)blockIdx.x * DFS_CRT_TILE, tc = (int64_t)blockIdx.y * DFS_CRT_TILE;
    const int64_t words = (b.bm + 31) / 32;
    if (t == 0)
        count = 0;
    __syncthreads();
    /* the tile's words: 64 columns x 2 */
    uint32_t word = 0;
    const int64_t wc = tc + t / 2, ww = tr / 32 + (t & 1);
    if (t < 2 * DFS_CRT_TILE && wc < b.bn && ww < words) {
        word = a.fail[wc * words + ww];
        if (word)
            atomicAdd(&count, __popc(word));
    }
    __syncthreads();
    if (count == 0)
        return;
    if (t == 0)
        atomicAdd(&a.fstats->tiles, 1ull);
    const double alpha = blk_alpha(b), beta = blk_beta(b);
    if (count <= DFS_CRT_TILE / 2) {
        for (; word; word &= word - 1)
            repair_one(b, ww * 32 + __ffs(word) - 1, wc, alpha, beta);
        return;
    }
    double acc[4][4];
#pragma unroll
    for (int i = 0; i < 4; i++)
#pragma unroll
        for (int j = 0; j < 4; j++)
            acc[i][j] = 0.0;
    const int a_rfast = b.ars == 1, b_cfast = b.bcs == 1;
    for (int64_t q0 = 0; q0 < b.k; q0 += DFS_CRT_TILE_K) {
        for (int i = t; i < DFS_CRT_TILE * DFS_CRT_TILE_K; i += 256) {
            /* the source's contiguous dimension fastest */
            const int rr = a_rfast ? i % DFS_CRT_TILE : i / DFS_CRT_TILE_K;
            const int qa = a_rfast ? i / DFS_CRT_TILE : i % DFS_CRT_TILE_K;
            const int64_t gr = b.r0 + tr + rr, q = q0 + qa;
            As[qa][rr] = tr + rr < b.bm && q < b.k ? b.A[gr * b.ars + q * b.aqs] : 0.0;
            const int cc = b_cfast ? i % DFS_CRT_TILE : i / DFS_CRT_TILE_K;
            const int qb = b_cfast ? i / DFS_CRT_TILE : i % DFS_CRT_TILE_K;
            const int64_t gc = b.c0 + tc + cc, qq = q0 + qb;
            Bs[qb][cc] = tc + cc < b.bn && qq < b.k ? b.B[qq * b.bqs + gc * b.bcs] : 0.0;
        }
        __syncthreads();
        const int kk = b.k - q0 < DFS_CRT_TILE_K ? (int)(b.k - q0) : DFS_CRT_TILE_K;
        for (int q = 0; q < kk; q++) {
            double x[4], y[4];
#pragma unroll
            for (int i = 0; i < 4; i++) {
                x[i] = As[q][(t & 15) + 16 * i];
                y[i] = Bs[q][(t >> 4) + 16 * i];
            }
#pragma unroll
            for (int i = 0; i < 4; i++)
#pragma unroll
                for (int j = 0; j < 4; j++)
                    acc[i][j] = __fma_rn(x[i], y[j], acc[i][j]);
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < 4; i++)
#pragma unroll
        for (int j = 0; j < 4; j++) {
            const int64_t r = tr + (t & 15) + 16 * i, c = tc + (t >> 4) + 16 * j;
            if (r >= b.bm || c >= b.bn || !((a.fail[c * words + r / 32] >> (r & 31)) & 1u))
                continue;
            double *out = b.C + (b.r0 + r) + (b.c0 + c) * b.ldc;
            *out = dfs_crt_axpby(alpha, acc[i][j], beta, beta != 0 ? *out : 0.0);
        }
}

#include "kernels_zpairs.cuh"
#include "kernels_zkara.cuh"
