/* kernels.cu — the Level-3 copy kernel (args.h): moves, zeros and ones only.  Each block takes
 * 32 x 32 tiles of dst; what it reads of src along src's columns (coalesced) goes through shared
 * memory, the tile as it lies (for dst(i, j) = src(i, j)) and transposed (src(j, i)) where the
 * mode needs it. */
#include "args.h"

#define TILE 32

extern "C" __global__ void __launch_bounds__(256) dfs_l3_copy_kernel(dfs_l3_copy a)
{
    __shared__ double d[TILE][TILE + 1]; /* d[u][s] = src(i0 + s, j0 + u) */
    __shared__ double t[TILE][TILE + 1]; /* t[u][s] = src(j0 + s, i0 + u) */
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
                    d[u][s] = a.src[i + j * a.lds];
            }
            if (need_t && i0 + u < a.rows && j0 + s < a.cols) {
                const int64_t i = i0 + u, j = j0 + s;
                const int in = a.lower ? i >= j : i <= j;
                if (a.mode == DFS_L3_COPY_T || !in)
                    t[u][s] = a.src[j + i * a.lds];
            }
        }
        __syncthreads();
        for (int u = threadIdx.y; u < TILE; u += blockDim.y) {
            const int64_t i = i0 + s, j = j0 + u;
            if (i >= a.rows || j >= a.cols)
                continue;
            const int in = a.lower ? i >= j : i <= j;
            double *o = a.dst + i + j * a.ldd;
            switch (a.mode) {
            case DFS_L3_COPY: *o = d[u][s]; break;
            case DFS_L3_COPY_T: *o = t[s][u]; break;
            case DFS_L3_TRI: *o = !in ? 0.0 : i == j && a.unit ? 1.0 : d[u][s]; break;
            case DFS_L3_SYM: *o = in ? d[u][s] : t[s][u]; break;
            default:
                if (in)
                    *o = d[u][s];
                break;
            }
        }
        __syncthreads();
    }
}
