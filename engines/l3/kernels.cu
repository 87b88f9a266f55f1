/* kernels.cu — the Level-3 helper kernels: the copy kernel (args.h: moves, zeros and ones
 * only), TRSM's diagonal solve (solve.h) and the pointer-array batches' gather and scatter
 * (batch.h).  Each block of the copy takes 32 x 32 tiles of dst;
 * what it reads of src along src's columns (coalesced) goes through shared memory, the tile as
 * it lies (for dst(i, j) = src(i, j)) and transposed (src(j, i)) where the mode needs it. */
#include "args.h"
#include "batch.h"
#include "solve.h"

#define TILE 32

/* A written element's sign changes and zeros (args.h's conj, herm): none on real data. */
static __device__ __forceinline__ double adjust(double v, const dfs_l3_copy &, int, int, int)
{
    return v;
}

/* Complex: Im negated when conj, or when herm mirrors (not for the constants 0 and 1, which
 * were not read); Im 0 on a Hermitian diagonal. */
static __device__ __forceinline__ double2 adjust(double2 v, const dfs_l3_copy &a, int constant,
                                                 int mirrored, int diagonal)
{
    if (!constant && a.conj != (a.herm && mirrored))
        v.y = -v.y;
    if (a.herm && diagonal)
        v.y = 0.0;
    return v;
}

static __device__ __forceinline__ void set(double *v, double x) { *v = x; }
static __device__ __forceinline__ void set(double2 *v, double x) { *v = make_double2(x, 0.0); }

/* The copy on elements of type T (double, or double2: real part, imaginary part). */
template <typename T> static __device__ __forceinline__ void copy_tiles(const dfs_l3_copy &a)
{
    __shared__ T d[TILE][TILE + 1]; /* d[u][s] = src(i0 + s, j0 + u) */
    __shared__ T t[TILE][TILE + 1]; /* t[u][s] = src(j0 + s, i0 + u) */
    const T *src = (const T *)a.src;
    T *dst = (T *)a.dst;
    const int64_t rt = (a.rows + TILE - 1) / TILE;
    const int64_t tiles = rt * ((a.cols + TILE - 1) / TILE);
    const int s = threadIdx.x;
    for (int64_t tile = (int64_t)blockIdx.y * gridDim.x + blockIdx.x; tile < tiles;
         tile += (int64_t)gridDim.x * gridDim.y) {
        const int64_t i0 = (tile % rt) * TILE, j0 = (tile / rt) * TILE;
        /* the whole tile inside the triangle "in" (then SYM reads nothing transposed) */
        const int inside = a.lower ? i0 >= j0 + TILE - 1 : i0 + TILE - 1 <= j0;
        const int need_t = a.mode == DFS_L3_COPY_T || (a.mode == DFS_L3_SYM && !inside);
        const int need_d = a.mode != DFS_L3_COPY_T;
        for (int u = threadIdx.y; u < TILE; u += blockDim.y) {
            if (need_d && i0 + s < a.rows && j0 + u < a.cols) {
                const int64_t i = i0 + s, j = j0 + u;
                const int in = a.lower ? i >= j : i <= j;
                /* read only where the value is used */
                if (a.mode == DFS_L3_COPY || (in && !(a.mode == DFS_L3_TRI && i == j && a.unit)))
                    d[u][s] = src[i + j * a.lds];
            }
            if (need_t && i0 + u < a.rows && j0 + s < a.cols) {
                const int64_t i = i0 + u, j = j0 + s;
                const int in = a.lower ? i >= j : i <= j;
                if (a.mode == DFS_L3_COPY_T || !in)
                    t[u][s] = src[j + i * a.lds];
            }
        }
        __syncthreads();
        for (int u = threadIdx.y; u < TILE; u += blockDim.y) {
            const int64_t i = i0 + s, j = j0 + u;
            if (i >= a.rows || j >= a.cols)
                continue;
            const int in = a.lower ? i >= j : i <= j;
            T v;
            int mirrored = 0, constant = 0;
            switch (a.mode) {
            case DFS_L3_COPY: v = d[u][s]; break;
            case DFS_L3_COPY_T: v = t[s][u]; break;
            case DFS_L3_TRI:
                constant = !in || (i == j && a.unit);
                if (constant)
                    set(&v, in ? 1.0 : 0.0);
                else
                    v = d[u][s];
                break;
            case DFS_L3_SYM:
                mirrored = !in;
                v = in ? d[u][s] : t[s][u];
                break;
            default:
                if (!in)
                    continue;
                v = d[u][s];
                break;
            }
            dst[i + j * a.ldd] = adjust(v, a, constant, mirrored, i == j);
        }
        __syncthreads();
    }
}

extern "C" __global__ void __launch_bounds__(256) dfs_l3_copy_kernel(dfs_l3_copy a)
{
    copy_tiles<double>(a);
}

/* The copy on complex data (args.h's cplx, conj, herm): whole elements. */
extern "C" __global__ void __launch_bounds__(256) dfs_l3_zcopy_kernel(dfs_l3_copy a)
{
    copy_tiles<double2>(a);
}

/* The diagonal block's solve (solve.h): each block takes SOLVE_RHS right-hand sides (x) with
 * SOLVE_ROWS threads (y) sharing the rows of each; the block's right-hand sides live in shared
 * memory (s B loaded, X stored back).  Step i: the thread of row group 0 divides x_i, then
 * every thread subtracts T(r, i) x_i from its rows r after i.  Each b_r thus gets its operations
 * in solve.h's order whatever the launch shape; no atomics. */
#define SOLVE_RHS 16
#define SOLVE_ROWS 16

extern "C" __global__ void __launch_bounds__(SOLVE_RHS * SOLVE_ROWS)
    dfs_l3_solve_kernel(dfs_l3_solve a)
{
    __shared__ double b[DFS_L3_SOLVE_MAX][SOLVE_RHS];
    const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * SOLVE_RHS + tx;
    const int n = (int)a.n;
    const double s = a.scale ? *a.scale : a.scale_h;
    for (int64_t q0 = (int64_t)blockIdx.x * SOLVE_RHS; q0 < a.nrhs;
         q0 += (int64_t)gridDim.x * SOLVE_RHS) {
        const int cols = a.nrhs - q0 < SOLVE_RHS ? (int)(a.nrhs - q0) : SOLVE_RHS;
        /* load, consecutive threads along a right-hand side (rs = 1 on the left) */
        for (int e = tid; e < n * cols; e += SOLVE_RHS * SOLVE_ROWS) {
            const int r = e % n, q = e / n;
            b[r][q] = __dmul_rn(s, a.B[r * a.rs + (q0 + q) * a.cs]);
        }
        __syncthreads();
        for (int p = 0; p < n; p++) {
            const int i = a.lower ? p : n - 1 - p;
            if (ty == 0 && tx < cols && !a.unit)
                b[i][tx] = __ddiv_rn(b[i][tx], a.A[i + i * a.lda]);
            __syncthreads();
            const int r0 = a.lower ? i + 1 : 0, r1 = a.lower ? n : i;
            if (tx < cols) {
                const double x = b[i][tx];
                for (int r = r0 + ty; r < r1; r += SOLVE_ROWS) {
                    const double t = a.trans_a ? a.A[i + (int64_t)r * a.lda]
                                               : a.A[r + (int64_t)i * a.lda];
                    b[r][tx] = __dsub_rn(b[r][tx], __dmul_rn(t, x));
                }
            }
            __syncthreads();
        }
        for (int e = tid; e < n * cols; e += SOLVE_RHS * SOLVE_ROWS) {
            const int r = e % n, q = e / n;
            a.B[r * a.rs + (q0 + q) * a.cs] = b[r][q];
        }
        __syncthreads();
    }
}

/* The complex solve (solve.h, cplx): as dfs_l3_solve_kernel with ZSOLVE_RHS right-hand sides a
 * block (the shared memory holds DFS_L3_SOLVE_MAX x ZSOLVE_RHS complex elements) and
 * ZSOLVE_ROWS row groups; solve.h's complex operations with the _rn intrinsics. */
#define ZSOLVE_RHS 8
#define ZSOLVE_ROWS 32

DFS_L3_Z(static __device__ __forceinline__, __dmul_rn, __dadd_rn, __dsub_rn, __ddiv_rn, fabs)

extern "C" __global__ void __launch_bounds__(ZSOLVE_RHS * ZSOLVE_ROWS)
    dfs_l3_zsolve_kernel(dfs_l3_solve a)
{
    __shared__ double2 b[DFS_L3_SOLVE_MAX][ZSOLVE_RHS];
    const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * ZSOLVE_RHS + tx;
    const int n = (int)a.n;
    const double2 *A = (const double2 *)a.A;
    double2 *B = (double2 *)a.B;
    const double sr = a.scale ? a.scale[0] : a.scale_h, si = a.scale ? a.scale[1] : a.scale_hi;
    for (int64_t q0 = (int64_t)blockIdx.x * ZSOLVE_RHS; q0 < a.nrhs;
         q0 += (int64_t)gridDim.x * ZSOLVE_RHS) {
        const int cols = a.nrhs - q0 < ZSOLVE_RHS ? (int)(a.nrhs - q0) : ZSOLVE_RHS;
        for (int e = tid; e < n * cols; e += ZSOLVE_RHS * ZSOLVE_ROWS) {
            const int r = e % n, q = e / n;
            const double2 v = B[r * a.rs + (q0 + q) * a.cs];
            double2 w;
            dfs_l3_zmul(sr, si, v.x, v.y, &w.x, &w.y);
            b[r][q] = w;
        }
        __syncthreads();
        for (int p = 0; p < n; p++) {
            const int i = a.lower ? p : n - 1 - p;
            if (ty == 0 && tx < cols && !a.unit) {
                const double2 d = A[i + (int64_t)i * a.lda];
                double2 x = b[i][tx];
                dfs_l3_zdiv(x.x, x.y, d.x, a.conj ? -d.y : d.y, &x.x, &x.y);
                b[i][tx] = x;
            }
            __syncthreads();
            const int r0 = a.lower ? i + 1 : 0, r1 = a.lower ? n : i;
            if (tx < cols) {
                const double2 x = b[i][tx];
                for (int r = r0 + ty; r < r1; r += ZSOLVE_ROWS) {
                    const double2 t = a.trans_a ? A[i + (int64_t)r * a.lda]
                                                : A[r + (int64_t)i * a.lda];
                    double pr, pi;
                    dfs_l3_zmul(t.x, a.conj ? -t.y : t.y, x.x, x.y, &pr, &pi);
                    b[r][tx] = make_double2(__dsub_rn(b[r][tx].x, pr), __dsub_rn(b[r][tx].y, pi));
                }
            }
            __syncthreads();
        }
        for (int e = tid; e < n * cols; e += ZSOLVE_RHS * ZSOLVE_ROWS) {
            const int r = e % n, q = e / n;
            B[r * a.rs + (q0 + q) * a.cs] = b[r][q];
        }
        __syncthreads();
    }
}

/* The pointer-array batch moves (batch.h): a warp per column of one entry (lanes along the
 * column, coalesced on both sides), DFS_L3_BATCH_WARPS warps a block, a grid-stride loop over
 * the count x cols columns; complex elements moved as their two doubles (a column of rows
 * complex elements is 2 rows doubles, contiguous on both sides).  Moves only. */

template <bool to_packed>
static __device__ __forceinline__ void dfs_l3_batch_move(const dfs_l3_batch &a)
{
    const int64_t z = a.cplx ? 2 : 1, len = z * a.rows;
    const int64_t columns = a.count * a.cols;
    const int lane = threadIdx.x;
    const int64_t step = (int64_t)gridDim.x * gridDim.y * DFS_L3_BATCH_WARPS;
    for (int64_t w = ((int64_t)blockIdx.y * gridDim.x + blockIdx.x) * DFS_L3_BATCH_WARPS +
                     threadIdx.y;
         w < columns; w += step) {
        /* (a 32-bit division where it fits: the 64-bit one is a call) */
        const int64_t e = columns <= 0xffffffff ? (int64_t)((uint32_t)w / (uint32_t)a.cols)
                                                : w / a.cols;
        const int64_t j = w - e * a.cols;
        double *x = (double *)a.ptrs[a.first + e] + z * j * a.ld;
        double *p = a.packed + z * (e * a.stride + j * a.rows);
        for (int64_t i = lane; i < len; i += 32) {
            if (to_packed)
                p[i] = x[i];
            else
                x[i] = p[i];
        }
    }
}

extern "C" __global__ void __launch_bounds__(32 * DFS_L3_BATCH_WARPS)
    dfs_l3_gather_kernel(dfs_l3_batch a)
{
    dfs_l3_batch_move<true>(a);
}

extern "C" __global__ void __launch_bounds__(32 * DFS_L3_BATCH_WARPS)
    dfs_l3_scatter_kernel(dfs_l3_batch a)
{
    dfs_l3_batch_move<false>(a);
}
