/* kernels.cu — the real representation of a complex GEMM (zreal.c): op(A) and op(B) staged as
 * real planes, C gathered back from the real product.  Moves and negations only (exact), and in
 * the scatter's inexact mode alpha S + beta C in binary64 (nvcc -fmad=false: not contracted). */
#include "args.h"

#include "../common/zelem.h"

#define TILE 32

/* A 32 x 32 tile of op(X)(r, q): read along the stored matrix's columns (coalesced), through
 * shared memory, written along r. */
extern "C" __global__ void __launch_bounds__(256) dfs_zr_stage(dfs_zr_stage_args a)
{
    __shared__ double2 sh[TILE][TILE + 1]; /* [r][q] */
    const int first = blockIdx.x == 0 && blockIdx.y == 0 && blockIdx.z == 0 && threadIdx.x == 0 &&
                      threadIdx.y == 0;
    if (a.one && first) {
        a.one[0] = 1.0;
        a.one[1] = 0.0;
    }
    const int read = !a.zalpha || a.zalpha[0] != 0.0 || a.zalpha[1] != 0.0;
    if (a.anz && first)
        *a.anz = read ? 1.0 : 0.0;
    const int64_t rs = a.rs ? a.rs : 1;
    const int64_t rt = (a.R + TILE - 1) / TILE;
    const int64_t tiles = rt * ((a.Q + TILE - 1) / TILE);
    for (int64_t z = blockIdx.z; z < a.batch; z += gridDim.z)
        for (int64_t t = (int64_t)blockIdx.y * gridDim.x + blockIdx.x; t < tiles;
             t += (int64_t)gridDim.x * gridDim.y) {
            const int64_t r0 = (t % rt) * TILE, q0 = (t / rt) * TILE;
            const double *X = a.X + 2 * z * a.sx;
            /* stored element (s, u) with s along the threads: op N: (r, q) = (s, u); else
             * (r, q) = (u, s), X(q, r) */
            for (int u = threadIdx.y; u < TILE; u += blockDim.y) {
                const int s = threadIdx.x;
                const int64_t r = a.op ? r0 + u : r0 + s, q = a.op ? q0 + s : q0 + u;
                double2 v = make_double2(0.0, 0.0);
                if (read && r < a.R && q < a.Q)
                    dfs_z_op_elem(X, a.ld, a.op, r, q, &v.x, &v.y);
                sh[r - r0][q - q0] = v;
            }
            __syncthreads();
            for (int u = threadIdx.y; u < TILE; u += blockDim.y) {
                const int64_t r = r0 + threadIdx.x, q = q0 + u;
                if (r < a.R && q < a.Q) {
                    const double2 v = sh[threadIdx.x][u];
                    const int64_t o = z * a.sp + r * rs + q * a.ldp;
                    a.re[o] = v.x;
                    a.im[o] = v.y;
                    if (a.re2)
                        a.re2[o] = v.x;
                    if (a.im2)
                        a.im2[o] = -v.y;
                }
            }
            __syncthreads();
        }
}

/* One thread per output (grid-stride), along the column (coalesced); the grid's z along the
 * batch (each entry in one z: C is read and written in place). */
extern "C" __global__ void __launch_bounds__(256) dfs_zr_scatter(dfs_zr_scatter_args a)
{
    const double ar = a.alpha ? a.alpha[0] : a.alpha_v[0], ai = a.alpha ? a.alpha[1] : a.alpha_v[1];
    const double br = a.beta ? a.beta[0] : a.beta_v[0], bi = a.beta ? a.beta[1] : a.beta_v[1];
    const int read_c = br != 0.0 || bi != 0.0;
    const int64_t mn = a.m * a.n;
    for (int64_t z = blockIdx.z; z < a.batch; z += gridDim.z)
        for (int64_t e = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; e < mn;
             e += (int64_t)gridDim.x * blockDim.x) {
            const int64_t i = e % a.m, j = e / a.m;
            const double *P = a.P + z * a.sp;
            const double sr = P[i + j * a.ldp], si = P[a.poff + i + j * a.ldp];
            double *c = a.C + 2 * (z * a.sc + i + j * a.ldc);
            if (a.exact) {
                c[0] = sr;
                c[1] = si;
                continue;
            }
            /* a term with a zero scalar is left out (no 0 * Inf), as in the dd engine's plain
             * path (dfs_dd_finish_plain_z) */
            double vr, vi;
            if (ar == 0.0 && ai == 0.0) { /* alpha = 0: S left out (A and B as not read) */
                vr = vi = 0.0;
            } else if (ar != 0.0 || ai == 0.0) {
                vr = ar * sr;
                vi = ar * si;
                if (ai != 0.0) {
                    vr = vr - ai * si;
                    vi = vi + ai * sr;
                }
            } else { /* alpha = i ai */
                vr = -(ai * si);
                vi = ai * sr;
            }
            if (read_c) {
                const double cr = c[0], ci = c[1];
                if (br != 0.0) {
                    vr = vr + br * cr;
                    vi = vi + br * ci;
                }
                if (bi != 0.0) {
                    vr = vr - bi * ci;
                    vi = vi + bi * cr;
                }
            }
            c[0] = vr;
            c[1] = vi;
        }
}
