/* copy.c — launches the Level-3 helper kernels (kernels.cu): the copy (args.h) and TRSM's
 * diagonal solve (solve.h), each in a real and a complex form, and the pointer-array batches'
 * gather and scatter (batch.h). */
#include "copy.h"

#include "../../core/gpu.h"

#define L3_KERNELS(X)                                                                              \
    X(K_COPY, dfs_l3_copy_kernel)                                                                  \
    X(K_SOLVE, dfs_l3_solve_kernel)                                                                \
    X(K_ZCOPY, dfs_l3_zcopy_kernel)                                                                \
    X(K_ZSOLVE, dfs_l3_zsolve_kernel)                                                              \
    X(K_GATHER, dfs_l3_gather_kernel)                                                              \
    X(K_SCATTER, dfs_l3_scatter_kernel)
enum { L3_KERNELS(DFS_KERNEL_ID) K_COUNT };
extern const unsigned char dfs_l3_fatbin[];
DFS_MODULE(module, dfs_l3_fatbin, L3_KERNELS);

int dfs_l3_copy_gpu(const dfs_l3_copy *cp, CUstream st)
{
    if (cp->rows <= 0 || cp->cols <= 0)
        return 0;
    const CUfunction *k = dfs_module_kernels(&module);
    if (!k)
        return 1;
    dfs_l3_copy a = *cp;
    const int64_t tiles = ((a.rows + 31) / 32) * ((a.cols + 31) / 32);
    unsigned gx, gy;
    dfs_grid_2d(tiles, &gx, &gy);
    return dfs_launch(k[a.cplx ? K_ZCOPY : K_COPY], gx, gy, 1, 32, 8, st, &a) != 0;
}

int dfs_l3_solve_gpu(const dfs_l3_solve *sv, CUstream st)
{
    if (sv->n <= 0 || sv->nrhs <= 0)
        return 0;
    if (sv->n > DFS_L3_SOLVE_MAX)
        return 1;
    const CUfunction *k = dfs_module_kernels(&module);
    if (!k)
        return 1;
    dfs_l3_solve a = *sv;
    /* 16 right-hand sides a block, complex 8 (kernels.cu) */
    if (a.cplx)
        return dfs_launch(k[K_ZSOLVE], dfs_grid_dim((a.nrhs + 7) / 8, 65535), 1, 1, 8, 32, st,
                          &a) != 0;
    return dfs_launch(k[K_SOLVE], dfs_grid_dim((a.nrhs + 15) / 16, 65535), 1, 1, 16, 16, st,
                      &a) != 0;
}

/* The gather or the scatter: a warp per column of an entry, DFS_L3_BATCH_WARPS a block. */
static int batch_move(int kernel, const dfs_l3_batch *b, CUstream st)
{
    if (b->rows <= 0 || b->cols <= 0 || b->count <= 0)
        return 0;
    const CUfunction *k = dfs_module_kernels(&module);
    if (!k)
        return 1;
    dfs_l3_batch a = *b;
    const int64_t blocks = (a.count * a.cols + DFS_L3_BATCH_WARPS - 1) / DFS_L3_BATCH_WARPS;
    unsigned gx, gy;
    dfs_grid_2d(blocks, &gx, &gy);
    return dfs_launch(k[kernel], gx, gy, 1, 32, DFS_L3_BATCH_WARPS, st, &a) != 0;
}

int dfs_l3_gather_gpu(const dfs_l3_batch *b, CUstream st)
{
    return batch_move(K_GATHER, b, st);
}

int dfs_l3_scatter_gpu(const dfs_l3_batch *b, CUstream st)
{
    return batch_move(K_SCATTER, b, st);
}
