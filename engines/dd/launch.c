/* launch.c — the double-double DOT and GEMV launches and the GPU they are sized for
 * (launch.h). */
#include "launch.h"

#include "../../core/resolve.h"
#include "dd_steps.h"

static int64_t min64(int64_t a, int64_t b)
{
    return a < b ? a : b;
}

/* Scratch for `count` partials (DD sum and plain sum) and one double after them. */
static int get_parts(dfs_scratch *s, CUstream st, int64_t count, dfs_dd_parts *p, double **extra)
{
    const size_t n = (size_t)(count + 1) / 2 * 2;
    CUdeviceptr base = dfs_scratch_get(s, n * 24 + 64, st);
    if (!base)
        return 0;
    char *b = (char *)(uintptr_t)base;
    p->s = (dfs_dd *)b;
    p->p = (double *)(b + n * 16);
    if (extra)
        *extra = (double *)(b + n * 24);
    return 1;
}

dfs_dd_gpu dfs_dd_gpu_of(int device)
{
    int major, minor;
    dfs_device_cc(device, &major, &minor);
    const dfs_dd_gpu g = {dfs_sm_count(device), dfs_dd_tuning_for(major, minor)};
    return g;
}

unsigned dfs_dd_wave(CUfunction f, const dfs_dd_gpu *g, int64_t items)
{
    const int64_t n =
        min64(items, (int64_t)g->sms * dfs_blocks_per_sm(f, 256) * g->tuning->waves);
    return (unsigned)(n < 1 ? 1 : n);
}

int dfs_dd_launch_dot(CUfunction dot, CUfunction final, const dfs_dd_gpu *g, dfs_scratch *s,
                      CUstream st, dfs_dd_dot_args *a, double **host_result)
{
    const dfs_dd_plan plan = dfs_dd_dot_plan(a->n);
    a->chunk = plan.chunk;
    a->nchunks = plan.nchunks;
    if (!get_parts(s, st, plan.nchunks, &a->part, host_result))
        return DFS_DD_NO_SCRATCH;
    if (host_result)
        a->result = *host_result;
    int err = dfs_launch(dot, dfs_dd_wave(dot, g, plan.nchunks), 1, 1, 256, 1, st, a);
    err |= dfs_launch(final, 1, 1, 1, 256, 1, st, a);
    return err ? DFS_DD_LAUNCH_FAILED : DFS_DD_LAUNCHED;
}

int dfs_dd_launch_gemv(CUfunction gemv, CUfunction final, const dfs_dd_gpu *g, dfs_scratch *s,
                       CUstream st, dfs_dd_gemv_args *a)
{
    const dfs_dd_plan plan = dfs_dd_gemv_plan(a->trans, a->trans ? a->K : a->len,
                                              a->trans ? a->len : a->K);
    a->lanes = plan.lanes;
    a->chunk = plan.chunk;
    a->nchunks = plan.nchunks;
    const int64_t per_block = 256 / plan.lanes;
    a->items = (a->len + per_block - 1) / per_block * plan.nchunks;
    if (plan.nchunks > 1 && !get_parts(s, st, plan.nchunks * a->len, &a->part, NULL))
        return DFS_DD_NO_SCRATCH;
    int err = dfs_launch(gemv, dfs_dd_wave(gemv, g, a->items), 1, 1, 256, 1, st, a);
    if (plan.nchunks > 1) /* a warp per output */
        err |= dfs_launch(final, (unsigned)((a->len + 7) / 8), 1, 1, 256, 1, st, a);
    return err ? DFS_DD_LAUNCH_FAILED : DFS_DD_LAUNCHED;
}

int dfs_dd_gemm_tile(const dfs_dd_gpu *g, const dfs_dd_gemm_args *a)
{
    int best = 0;
    double best_work = 0;
    for (int t = 0; t < DFS_DD_GEMM_TILES; t++) {
        const int64_t e = DFS_DD_GEMM_EDGE(t);
        const int64_t blocks = (a->m + e - 1) / e * ((a->n + e - 1) / e) * a->batch;
        const double work = (double)((blocks + g->sms - 1) / g->sms) * (double)(e * e);
        if (t == 0 || work < best_work * g->tuning->gemm_smaller) {
            best = t;
            best_work = work;
        }
    }
    return best;
}

int dfs_dd_launch_gemm(CUfunction gemm, int64_t edge, CUstream st, dfs_dd_gemm_args *a)
{
    const int64_t mt = (a->m + edge - 1) / edge, nt = (a->n + edge - 1) / edge;
    /* the kernel strides over what does not fit the grid's limits */
    const unsigned gx = (unsigned)min64(mt, 0x7fffffff), gy = (unsigned)min64(nt, 65535),
                   gz = (unsigned)min64(a->batch, 65535);
    return dfs_launch(gemm, gx, gy, gz, 256, 1, st, a) ? DFS_DD_LAUNCH_FAILED : DFS_DD_LAUNCHED;
}
