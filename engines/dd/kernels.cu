/* kernels.cu — the double-double kernels: DOT and GEMV (memory-bound: every element read once)
 * and GEMM (compute-bound), each output accumulated in double-double in the order dd_steps.h
 * defines, so that the bits are the CPU twin's on every GPU.  Each kernel body is a template on
 * X: X = false, the dd engine's (binary64 operands, 22 operations per term; host.c), X = true,
 * libddblas's (operands in its formats, read at every load; ddx_steps.h, ddblas_host.c), with
 * AXPY and the conversion for libddblas alone. */
#include "dd_kernels.h"
#include "ddx_steps.h"
#include "tuning.h"

#define UNROLL DFS_DD_UNROLL /* terms per lane whose loads are in flight together */
#define FULL 0xffffffffu

/* BLAS vectors: element i of a length-n vector with increment inc is at base(inc, n) + i*inc. */
__device__ __forceinline__ int64_t vbase(int64_t inc, int64_t n)
{
    return inc > 0 ? 0 : (n - 1) * -inc;
}

/* The extern "C" entry points of a kernel body's two instances: dfs_dd_NAME (X = false, the dd
 * engine's) and dfs_ddx_NAME (X = true, libddblas's). */
#define DD_KERNELS(name, body, args_t)                                                             \
    extern "C" __global__ void __launch_bounds__(256) dfs_dd_##name(args_t a) { body<false>(a); } \
    extern "C" __global__ void __launch_bounds__(256) dfs_ddx_##name(args_t a) { body<true>(a); }

/* Loads of ddblas's formats: F known at compile time (the DOT and GEMV sums), or the operand's
 * own (elsewhere). */
template <int F> __device__ __forceinline__ dfs_dd load_f(const dfs_ddx_in &o, int64_t i)
{
    const double hi = __ldg(o.hi + i);
    if (F == DFS_DDX_DD)
        return dfs_dd_make(hi, __ldg((const double *)o.lo + i));
    if (F == DFS_DDX_DS)
        return dfs_dd_from_ds(hi, __ldg((const float *)o.lo + i));
    return dfs_dd_from_di(hi, __ldg((const int32_t *)o.lo + i));
}

/* An element as loaded, before its conversion (the GEMM's prefetch keeps it so: converting at
 * the load would wait for it): hi, and lo's bits (DD: the double's; DS, DI: the 32-bit word). */
typedef struct {
    double hi;
    unsigned long long lo;
} ddx_raw;

/* An operand's element type and its loads: binary64 (X = false) or a DD from ddblas's format. */
template <bool X> struct elem;
template <> struct elem<false> {
    typedef double t;
    typedef double raw;
    static __device__ __forceinline__ double zero() { return 0.0; }
    static __device__ __forceinline__ double at(const dfs_ddx_in &o, int64_t i)
    {
        return __ldg(o.hi + i);
    }
    static __device__ __forceinline__ double load_raw(const dfs_ddx_in &o, int64_t i)
    {
        return __ldg(o.hi + i);
    }
    static __device__ __forceinline__ double cook(int, double r) { return r; }
};
template <> struct elem<true> {
    typedef dfs_dd t;
    typedef ddx_raw raw;
    static __device__ __forceinline__ ddx_raw zero() { return ddx_raw{0.0, 0ull}; }
    static __device__ __forceinline__ dfs_dd at(const dfs_ddx_in &o, int64_t i)
    {
        return dfs_ddx_load(o.fmt, o.hi, o.lo, i);
    }
    static __device__ __forceinline__ ddx_raw load_raw(const dfs_ddx_in &o, int64_t i)
    {
        ddx_raw r;
        r.hi = __ldg(o.hi + i);
        r.lo = o.fmt == DFS_DDX_DD
                   ? (unsigned long long)__double_as_longlong(__ldg((const double *)o.lo + i))
                   : (unsigned long long)(unsigned)__ldg((const int *)o.lo + i);
        return r;
    }
    static __device__ __forceinline__ dfs_dd cook(int fmt, ddx_raw r)
    {
        if (fmt == DFS_DDX_DD)
            return dfs_dd_make(r.hi, __longlong_as_double((long long)r.lo));
        if (fmt == DFS_DDX_DS)
            return dfs_dd_from_ds(r.hi, __int_as_float((int)(unsigned)r.lo));
        return dfs_dd_from_di(r.hi, (int32_t)(unsigned)r.lo);
    }
};

/* acc + x*y in a DOT or GEMV sum, with the plain twin */
__device__ __forceinline__ dfs_dda term(dfs_dda acc, double x, double y)
{
    return dfs_dda_mad(acc, x, y);
}
__device__ __forceinline__ dfs_dda term(dfs_dda acc, dfs_dd x, dfs_dd y)
{
    return dfs_ddx_mad(acc, x, y);
}

__device__ __forceinline__ double hi_of(double x)
{
    return x;
}
__device__ __forceinline__ double hi_of(dfs_dd x)
{
    return x.hi;
}

__device__ __forceinline__ dfs_dda shfl_down(dfs_dda a, int s, int width)
{
    dfs_dda b;
    b.s.hi = __shfl_down_sync(FULL, a.s.hi, s, width);
    b.s.lo = __shfl_down_sync(FULL, a.s.lo, s, width);
    b.p = __shfl_down_sync(FULL, a.p, s, width);
    return b;
}

/* The tree of dd_steps.h over the lanes of groups of `lanes` threads (a power of two <= 32;
 * every lane of the warp takes part): lane 0 of each group ends with the group's sum. */
__device__ __forceinline__ dfs_dda group_tree(dfs_dda v, int lanes)
{
    const int l = threadIdx.x & (lanes - 1);
    for (int s = lanes / 2; s >= 1; s >>= 1) {
        const dfs_dda o = shfl_down(v, s, lanes);
        if (l < s)
            v = dfs_dda_merge(v, o);
    }
    return v;
}

/* The tree over the 256 threads of the block: thread 0 ends with the sum.  Every thread calls it;
 * it may be called again after it returns. */
__device__ dfs_dda block_tree(dfs_dda v)
{
    __shared__ dfs_dda sh[256];
    const int t = threadIdx.x;
    sh[t] = v;
    __syncthreads();
    for (int s = 128; s >= 32; s >>= 1) {
        if (t < s) {
            v = dfs_dda_merge(v, sh[t + s]);
            sh[t] = v;
        }
        __syncthreads();
    }
    if (t < 32)
        v = group_tree(v, 32);
    return v;
}

/* Loaders for the sums: binary64, or a format fixed at compile time.  shift() moves an
 * operand's pointers to its element `off` (so that the loop's offsets are uniform across the
 * warp: the compiler keeps them in uniform registers). */
struct ld_d {
    __device__ __forceinline__ double operator()(const dfs_ddx_in &o, int64_t i) const
    {
        return elem<false>::at(o, i);
    }
    __device__ __forceinline__ dfs_ddx_in shift(dfs_ddx_in o, int64_t off) const
    {
        o.hi += off;
        return o;
    }
};
template <int F> struct ld_f {
    __device__ __forceinline__ dfs_dd operator()(const dfs_ddx_in &o, int64_t i) const
    {
        return load_f<F>(o, i);
    }
    __device__ __forceinline__ dfs_ddx_in shift(dfs_ddx_in o, int64_t off) const
    {
        o.hi += off;
        o.lo = (const char *)o.lo + off * (F == DFS_DDX_DD ? 8 : 4);
        return o;
    }
};

/* lane sum over terms q0 + lane, q0 + lane + step, ... < q1 of x[ox + q*sx] y[oy + q*sy],
 * loads first */
template <class LX, class LY>
__device__ __forceinline__ dfs_dda lane_sum_l(LX lx, LY ly, const dfs_ddx_in &x0, int64_t ox,
                                              int64_t sx, const dfs_ddx_in &y0, int64_t oy,
                                              int64_t sy, int64_t q, int64_t q1, int64_t step)
{
    const dfs_ddx_in x = lx.shift(x0, ox), y = ly.shift(y0, oy);
    dfs_dda acc = dfs_dda_zero();
    for (; q + (UNROLL - 1) * step < q1; q += UNROLL * step) {
        decltype(lx(x, 0)) a[UNROLL];
        decltype(ly(y, 0)) b[UNROLL];
#pragma unroll
        for (int u = 0; u < UNROLL; u++) {
            a[u] = lx(x, (q + u * step) * sx);
            b[u] = ly(y, (q + u * step) * sy);
        }
#pragma unroll
        for (int u = 0; u < UNROLL; u++)
            acc = term(acc, a[u], b[u]);
    }
    for (; q < q1; q += step)
        acc = term(acc, lx(x, q * sx), ly(y, q * sy));
    return acc;
}

template <int FX>
__device__ __forceinline__ dfs_dda lane_sum_fx(const dfs_ddx_in &x, int64_t ox, int64_t sx,
                                               const dfs_ddx_in &y, int64_t oy, int64_t sy,
                                               int64_t q, int64_t q1, int64_t step)
{
    switch (y.fmt) {
    case DFS_DDX_DD:
        return lane_sum_l(ld_f<FX>(), ld_f<DFS_DDX_DD>(), x, ox, sx, y, oy, sy, q, q1, step);
    case DFS_DDX_DS:
        return lane_sum_l(ld_f<FX>(), ld_f<DFS_DDX_DS>(), x, ox, sx, y, oy, sy, q, q1, step);
    default:
        return lane_sum_l(ld_f<FX>(), ld_f<DFS_DDX_DI>(), x, ox, sx, y, oy, sy, q, q1, step);
    }
}

/* The sum with binary64 operands (X = false) or the operands' formats, one loop per pair of
 * formats so that each loop's loads are issued together. */
template <bool X>
__device__ __forceinline__ dfs_dda lane_sum(const dfs_ddx_in &x, int64_t ox, int64_t sx,
                                            const dfs_ddx_in &y, int64_t oy, int64_t sy, int64_t q,
                                            int64_t q1, int64_t step)
{
    if (!X)
        return lane_sum_l(ld_d(), ld_d(), x, ox, sx, y, oy, sy, q, q1, step);
    switch (x.fmt) {
    case DFS_DDX_DD:
        return lane_sum_fx<DFS_DDX_DD>(x, ox, sx, y, oy, sy, q, q1, step);
    case DFS_DDX_DS:
        return lane_sum_fx<DFS_DDX_DS>(x, ox, sx, y, oy, sy, q, q1, step);
    default:
        return lane_sum_fx<DFS_DDX_DI>(x, ox, sx, y, oy, sy, q, q1, step);
    }
}

__device__ __forceinline__ double finish(dfs_dda t, double alpha, double beta, double c)
{
    double r;
    if (!dfs_dd_finish(t.s, alpha, beta, c, &r))
        r = dfs_dd_finish_plain(t.p, alpha, beta, c);
    return r;
}

/* A chunk's partial sums (DD and plain) in the scratch */
__device__ __forceinline__ dfs_dda part_at(const dfs_dd_parts &p, int64_t i)
{
    dfs_dda b;
    b.s = p.s[i];
    b.p = p.p[i];
    return b;
}

__device__ __forceinline__ void set_part(const dfs_dd_parts &p, int64_t i, dfs_dda v)
{
    p.s[i] = v.s;
    p.p[i] = v.p;
}

__device__ __forceinline__ dfs_dd load_out(const dfs_ddx_out &o, int64_t i)
{
    return dfs_ddx_load(o.fmt, o.hi, o.lo, i);
}

/* ---------- DOT ---------- */

/* One chunk per block at a time (grid-stride over the chunks): 256 lanes, then the block tree. */
template <bool X> __device__ void dot_body(const dfs_dd_dot_args &a)
{
    const int64_t ox = vbase(a.incx, a.n), oy = vbase(a.incy, a.n);
    for (int64_t c = blockIdx.x; c < a.nchunks; c += gridDim.x) {
        const int64_t q0 = c * a.chunk, q1 = q0 + a.chunk < a.n ? q0 + a.chunk : a.n;
        dfs_dda v = lane_sum<X>(a.x, ox, a.incx, a.y, oy, a.incy, q0 + threadIdx.x, q1,
                                DFS_DD_DOT_LANES);
        v = block_tree(v);
        if (threadIdx.x == 0)
            set_part(a.part, c, v);
    }
}

/* The chunks' sums: lane t takes chunks t, t + 256, ..., then the tree; the result rounded
 * (X: the DD result). */
template <bool X> __device__ void dot_final_body(const dfs_dd_dot_args &a)
{
    dfs_dda v = dfs_dda_zero();
    for (int64_t c = threadIdx.x; c < a.nchunks; c += DFS_DD_DOT_LANES)
        v = dfs_dda_merge(v, part_at(a.part, c));
    v = block_tree(v);
    if (threadIdx.x == 0) {
        if (X)
            *a.xresult = dfs_ddx_sum(v);
        else
            *a.result = finish(v, 1.0, 0.0, 0.0);
    }
}

DD_KERNELS(dot, dot_body, dfs_dd_dot_args)
DD_KERNELS(dot_final, dot_final_body, dfs_dd_dot_args)

/* ---------- GEMV ---------- */

template <bool X> __device__ __forceinline__ int alpha_zero(const dfs_dd_gemv_args &a)
{
    if (X)
        return dfs_ddx_is_zero(a.xalpha);
    return (a.alpha ? *a.alpha : a.alpha_v) == 0.0;
}

/* y[o] = alpha t + beta y[o] (beta = 0: y not read), rounded once to y's format. */
template <bool X> __device__ __forceinline__ void store_y(const dfs_dd_gemv_args &a, int64_t o,
                                                          dfs_dda t)
{
    const int64_t i = vbase(a.incy, a.len) + o * a.incy;
    if (X) {
        const dfs_dd c = dfs_ddx_is_zero(a.xbeta) ? dfs_dd_make(0.0, 0.0) : load_out(a.y, i);
        dfs_ddx_store(a.y.fmt, a.y.hi, a.y.lo, i, dfs_ddx_result(t, a.xalpha, a.xbeta, c));
    } else {
        const double alpha = a.alpha ? *a.alpha : a.alpha_v, beta = a.beta ? *a.beta : a.beta_v;
        double *yo = a.y.hi + i;
        *yo = finish(t, alpha, beta, beta != 0.0 ? *yo : 0.0);
    }
}

/* Grid-stride over items (block of outputs, chunk): op N one thread per row, op T groups of
 * `lanes` threads per column.  With one chunk the outputs are finished here; else the chunk's
 * partials go to a.part. */
template <bool X> __device__ void gemv_body(const dfs_dd_gemv_args &a)
{
    const int azero = alpha_zero<X>(a);
    if (azero && a.nchunks > 1)
        return; /* the final kernel writes beta y; A and x not read */
    const int per_block = 256 / a.lanes;
    const int64_t oblocks = (a.len + per_block - 1) / per_block;
    const int64_t ox = vbase(a.incx, a.K);
    for (int64_t it = blockIdx.x; it < a.items; it += gridDim.x) {
        const int64_t ob = it % oblocks, c = it / oblocks;
        const int64_t o = ob * per_block + threadIdx.x / a.lanes;
        const int64_t q0 = c * a.chunk, q1 = q0 + a.chunk < a.K ? q0 + a.chunk : a.K;
        dfs_dda v = dfs_dda_zero();
        if (o < a.len && !azero) {
            if (a.trans)
                v = lane_sum<X>(a.A, o * a.lda, 1, a.x, ox, a.incx,
                                q0 + (threadIdx.x & (a.lanes - 1)), q1, a.lanes);
            else
                v = lane_sum<X>(a.A, o, a.lda, a.x, ox, a.incx, q0, q1, 1);
        }
        if (a.lanes > 1)
            v = group_tree(v, a.lanes);
        if (o >= a.len || (threadIdx.x & (a.lanes - 1)))
            continue;
        if (a.nchunks == 1) {
            store_y<X>(a, o, !azero ? dfs_dda_merge(dfs_dda_zero(), v) : v);
        } else {
            set_part(a.part, c * a.len + o, v);
        }
    }
}

/* Warp per output: the chunks' partials merged by the 32 lanes and their tree, then alpha and
 * beta. */
template <bool X> __device__ void gemv_final_body(const dfs_dd_gemv_args &a)
{
    const int64_t o = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32;
    if (o >= a.len) /* whole warps */
        return;
    dfs_dda t = dfs_dda_zero();
    if (!alpha_zero<X>(a)) {
        for (int64_t c = threadIdx.x % 32; c < a.nchunks; c += DFS_DD_GEMV_MERGE_LANES)
            t = dfs_dda_merge(t, part_at(a.part, c * a.len + o));
        t = group_tree(t, DFS_DD_GEMV_MERGE_LANES);
    }
    if (threadIdx.x % 32 == 0)
        store_y<X>(a, o, t);
}

DD_KERNELS(gemv, gemv_body, dfs_dd_gemv_args)
DD_KERNELS(gemv_final, gemv_final_body, dfs_dd_gemv_args)

/* ---------- DGEMM ---------- */

#define BK DFS_DD_GEMM_BK
#ifndef DD_GEMM_MIN_BLOCKS
#define DD_GEMM_MIN_BLOCKS DFS_DD_GEMM_MIN_BLOCKS /* tuning.h; -D for a trial */
#endif

/* acc + x*y in a GEMM sum: the dd engine's (TwoProd + accurate add, 22 operations), ddblas's
 * DDBLAS_ACCURATE (S = 0: DWTimesDW3 + accurate add, 29) and DDBLAS_PAPER (S = 1: DDMul + sloppy
 * add, 20). */
template <int S> __device__ __forceinline__ dfs_dd gemm_mad(dfs_dd acc, double x, double y)
{
    return dfs_dd_mad_d(acc, x, y);
}
template <int S> __device__ __forceinline__ dfs_dd gemm_mad(dfs_dd acc, dfs_dd x, dfs_dd y)
{
    return S ? dfs_dd_mad(acc, x, y) : dfs_dd_add_accurate(acc, dfs_dd_mul_accurate(x, y));
}

/* Tiles of BK terms staged in shared memory (the next tile's loads in registers meanwhile);
 * thread (tx, ty) owns rows ty + 16 i (i < TM) and columns tx + 16 j (j < TN) of the block's
 * 16 TM x 16 TN tile of C.  Each output is summed over k in order from zero, whatever the tile
 * (so every tile gives the same bits); outputs whose DD result is not finite recompute their
 * plain binary64 sum (of the hi parts) in the epilogue. */
template <bool X, int S, int TM, int TN> __device__ void gemm_body(const dfs_dd_gemm_args &a)
{
    constexpr int BM = 16 * TM, BN = 16 * TN; /* a thread stages TM elements of A, TN of B */
    typedef elem<X> E;
    typedef typename E::t V;
    __shared__ V As[BK][BM + 1], Bs[BK][BN + 1];
    const int t = threadIdx.x, tx = t % 16, ty = t / 16;
    const double alpha = a.alpha ? *a.alpha : a.alpha_v;
    const double beta = a.beta ? *a.beta : a.beta_v;
    const int azero = X ? dfs_ddx_is_zero(a.xalpha) : alpha == 0.0;
    const int bzero = X ? dfs_ddx_is_zero(a.xbeta) : beta == 0.0;
    const int64_t mtiles = (a.m + BM - 1) / BM, ntiles = (a.n + BN - 1) / BN;
    for (int64_t z = blockIdx.z; z < a.batch; z += gridDim.z)
        for (int64_t nt = blockIdx.y; nt < ntiles; nt += gridDim.y)
            for (int64_t mt = blockIdx.x; mt < mtiles; mt += gridDim.x) {
                const int64_t zA = z * a.sA, zB = z * a.sB, zC = z * a.sC;
                const int64_t i0 = mt * BM, j0 = nt * BN;
                dfs_dd acc[TM][TN];
#pragma unroll
                for (int i = 0; i < TM; i++)
#pragma unroll
                    for (int j = 0; j < TN; j++)
                        acc[i][j] = dfs_dd_make(0.0, 0.0);
                /* this thread's staging elements, r-th of 4: A tile row ar, term ak; B tile term
                 * bk, column bc (the mapping coalesced for the operand's layout; recomputed
                 * where used, cheaper than registers) */
#define AR(r) (a.ta ? (t + 256 * (r)) / BK : (t + 256 * (r)) % BM)
#define AK(r) (a.ta ? (t + 256 * (r)) % BK : (t + 256 * (r)) / BM)
#define BKK(r) (a.tb ? (t + 256 * (r)) / BN : (t + 256 * (r)) % BK)
#define BC(r) (a.tb ? (t + 256 * (r)) % BN : (t + 256 * (r)) / BK)
                typename E::raw pa[TM], pb[TN];
                /* loads the tile at k0 into pa, pb (zeros outside) */
                auto load = [&](int64_t k0) {
#pragma unroll
                    for (int r = 0; r < TM; r++) {
                        const int64_t i = i0 + AR(r), q = k0 + AK(r);
                        pa[r] = i < a.m && q < a.k
                                    ? E::load_raw(a.A, zA + (a.ta ? q + i * a.lda : i + q * a.lda))
                                    : E::zero();
                    }
#pragma unroll
                    for (int r = 0; r < TN; r++) {
                        const int64_t j = j0 + BC(r), qb = k0 + BKK(r);
                        pb[r] = j < a.n && qb < a.k
                                    ? E::load_raw(a.B, zB + (a.tb ? j + qb * a.ldb : qb + j * a.ldb))
                                    : E::zero();
                    }
                };
                /* the terms kk < kn of the staged tile */
                auto tile = [&](int kn) {
#pragma unroll 4
                    for (int kk = 0; kk < kn; kk++) {
                        V fa[TM], fb[TN];
#pragma unroll
                        for (int i = 0; i < TM; i++)
                            fa[i] = As[kk][ty + 16 * i];
#pragma unroll
                        for (int j = 0; j < TN; j++)
                            fb[j] = Bs[kk][tx + 16 * j];
#pragma unroll
                        for (int i = 0; i < TM; i++)
#pragma unroll
                            for (int j = 0; j < TN; j++)
                                acc[i][j] = gemm_mad<S>(acc[i][j], fa[i], fb[j]);
                    }
                };
                if (!azero && a.k > 0) {
                    load(0);
                    for (int64_t k0 = 0; k0 < a.k; k0 += BK) {
                        __syncthreads(); /* the previous tile is used up */
#pragma unroll
                        for (int r = 0; r < TM; r++)
                            As[AK(r)][AR(r)] = E::cook(a.A.fmt, pa[r]);
#pragma unroll
                        for (int r = 0; r < TN; r++)
                            Bs[BKK(r)][BC(r)] = E::cook(a.B.fmt, pb[r]);
                        __syncthreads();
                        if (k0 + BK < a.k)
                            load(k0 + BK);
                        if (a.k - k0 >= BK)
                            tile(BK); /* a constant trip count: unrolled */
                        else
                            tile((int)(a.k - k0));
                    }
                }
#pragma unroll
                for (int i = 0; i < TM; i++)
#pragma unroll
                    for (int j = 0; j < TN; j++) {
                        const int64_t ii = i0 + ty + 16 * i, jj = j0 + tx + 16 * j;
                        if (ii >= a.m || jj >= a.n)
                            continue;
                        const int64_t ci = zC + ii + jj * a.ldc;
                        /* Inf, NaN or overflow: the plain binary64 sum of the hi parts, in order */
                        auto plain = [&]() {
                            double p = 0.0;
                            if (!azero)
                                DFS_ROLLED for (int64_t q = 0; q < a.k; q++)
                                    p = dfs_d_fma(
                                        hi_of(E::at(a.A, zA + (a.ta ? q + ii * a.lda : ii + q * a.lda))),
                                        hi_of(E::at(a.B, zB + (a.tb ? jj + q * a.ldb : q + jj * a.ldb))), p);
                            return p;
                        };
                        if (X) {
                            const dfs_dd cv = bzero ? dfs_dd_make(0.0, 0.0) : load_out(a.C, ci);
                            dfs_dd r;
                            if (!dfs_ddx_finish(acc[i][j], a.xalpha, a.xbeta, cv, &r))
                                r = dfs_ddx_finish_plain(plain(), a.xalpha, a.xbeta, cv);
                            dfs_ddx_store(a.C.fmt, a.C.hi, a.C.lo, ci, r);
                        } else {
                            double *c = a.C.hi + ci;
                            const double cv = bzero ? 0.0 : *c;
                            double r;
                            if (!dfs_dd_finish(acc[i][j], alpha, beta, cv, &r))
                                r = dfs_dd_finish_plain(plain(), alpha, beta, cv);
                            *c = r;
                        }
                    }
                __syncthreads(); /* shared tiles free for the next output tile */
            }
}

/* The dd engine's DGEMM in each tile of dd_kernels.h's DFS_DD_GEMM_TILES (64, 32 and 16 square:
 * the smaller ones for products and batches too small to fill the GPU with the larger), and
 * ddblas's in 64 x 64. */
extern "C" __global__ void __launch_bounds__(256, DD_GEMM_MIN_BLOCKS) dfs_dd_gemm(dfs_dd_gemm_args a)
{
    gemm_body<false, 0, 4, 4>(a);
}
extern "C" __global__ void __launch_bounds__(256) dfs_dd_gemm32(dfs_dd_gemm_args a)
{
    gemm_body<false, 0, 2, 2>(a);
}
extern "C" __global__ void __launch_bounds__(256) dfs_dd_gemm16(dfs_dd_gemm_args a)
{
    gemm_body<false, 0, 1, 1>(a);
}
extern "C" __global__ void __launch_bounds__(256, DD_GEMM_MIN_BLOCKS)
    dfs_ddx_gemm_accurate(dfs_dd_gemm_args a)
{
    gemm_body<true, 0, 4, 4>(a);
}
extern "C" __global__ void __launch_bounds__(256, DD_GEMM_MIN_BLOCKS)
    dfs_ddx_gemm_paper(dfs_dd_gemm_args a)
{
    gemm_body<true, 1, 4, 4>(a);
}

/* ---------- ZGEMM ---------- */

#include "zgemm.cuh"

/* ---------- ddblas: AXPY and the conversion (grid-stride, one element per thread) ---------- */

extern "C" __global__ void __launch_bounds__(256) dfs_ddx_axpy(dfs_ddx_axpy_args a)
{
    const int64_t ox = vbase(a.incx, a.n), oy = vbase(a.incy, a.n);
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < a.n;
         i += (int64_t)gridDim.x * blockDim.x) {
        const int64_t iy = oy + i * a.incy;
        const dfs_dd r = dfs_ddx_axpy(a.alpha, elem<true>::at(a.x, ox + i * a.incx), load_out(a.y, iy));
        dfs_ddx_store(a.y.fmt, a.y.hi, a.y.lo, iy, r);
    }
}

extern "C" __global__ void __launch_bounds__(256) dfs_ddx_convert(dfs_ddx_convert_args a)
{
    const int64_t os = vbase(a.incs, a.n), od = vbase(a.incd, a.n);
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < a.n;
         i += (int64_t)gridDim.x * blockDim.x)
        dfs_ddx_store(a.dst.fmt, a.dst.hi, a.dst.lo, od + i * a.incd,
                      elem<true>::at(a.src, os + i * a.incs));
}
