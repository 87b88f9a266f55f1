/* ptr_batch.c — a pointer-array GEMM batch through an engine's strided GEMM, group by group
 * (ptr_batch.h). */
#include "ptr_batch.h"

#include "../core/log.h"

#include <stdio.h>

/* The strided form of the call's entry point (what the native engine runs for the group). */
static dfs_api strided_api(const dfs_gemm_call *c)
{
    if (c->api == DFS_API_GEMMEX_BATCHED || c->api == DFS_API_GEMMEX_BATCHED_64)
        return DFS_API_GEMMEX_STRIDED_64;
    return c->type == DFS_C64 ? DFS_API_ZGEMM_STRIDED_64 : DFS_API_DGEMM_STRIDED_64;
}

/* C is read: beta not known to be zero (device scalars: not known). */
static int reads_c(const dfs_gemm_call *c, int host_scalars)
{
    if (!host_scalars)
        return 1;
    return c->beta[0] != 0.0 || (c->type == DFS_C64 && c->beta[1] != 0.0);
}

/* One operand's moves: rows x cols of each entry of ptrs (leading dimension ld) packed at buf,
 * rows x cols apart. */
static dfs_l3_batch operand(const void *const *ptrs, int64_t ld, int64_t rows, int64_t cols,
                            int cplx, double *buf)
{
    const dfs_l3_batch b = {ptrs, ld, rows, cols, cplx, buf, rows * cols, 0, 0};
    return b;
}

/* A group the engine declines after the first: cuBLAS's strided GEMM on the packed operands. */
static cublasStatus_t fallback(const dfs_ptr_batch_ops *ops, const dfs_gemm_call *g,
                               cublasStatus_t st)
{
    char key[64];
    snprintf(key, sizeof key, "ptr-batch-group:%s", ops->engine);
    dfs_log_once(st == DFS_STATUS_PREFER_NATIVE ? DFS_LOG_INFO : DFS_LOG_WARN, key,
                 "engine %s %s a group of %lld GEMMs of %lld x %lld x %lld within a pointer-array "
                 "batch it computes; that group ran on cuBLAS (said once per engine)",
                 ops->engine, st == DFS_STATUS_PREFER_NATIVE ? "left to native" : "declined",
                 (long long)g->batch, (long long)g->m, (long long)g->n, (long long)g->k);
    return ops->native(ops->ctx, g);
}

cublasStatus_t dfs_ptr_batch_run(const dfs_gemm_call *c, int host_scalars, size_t group_bytes,
                                 const dfs_ptr_batch_ops *ops)
{
    if (!c->Carray || !c->Aarray || !c->Barray || c->m <= 0 || c->n <= 0 || c->k <= 0 ||
        c->batch <= 0)
        return DFS_STATUS_DECLINED;
    const int cplx = c->type == DFS_C64;
    const size_t elem = cplx ? 16 : 8;
    const int ta = c->transa != CUBLAS_OP_N, tb = c->transb != CUBLAS_OP_N;
    /* op(A)-shaped as stored: A is m x k (op N) or k x m, B k x n or n x k */
    const int64_t ra = ta ? c->k : c->m, ca = ta ? c->m : c->k;
    const int64_t rb = tb ? c->n : c->k, cb = tb ? c->k : c->n;
    int64_t sa, sb, sc, entry, bytes;
    if (__builtin_mul_overflow(ra, ca, &sa) || __builtin_mul_overflow(rb, cb, &sb) ||
        __builtin_mul_overflow(c->m, c->n, &sc) || __builtin_add_overflow(sa, sb, &entry) ||
        __builtin_add_overflow(entry, sc, &entry) ||
        __builtin_mul_overflow(entry, (int64_t)elem, &bytes) || (uint64_t)bytes > SIZE_MAX)
        return DFS_STATUS_DECLINED;
    /* entries per group: as many as group_bytes holds, at least one, at most the batch */
    int64_t group = (int64_t)(group_bytes / (size_t)bytes);
    group = group < 1 ? 1 : group > c->batch ? c->batch : group;
    int64_t total;
    if (__builtin_mul_overflow(group, bytes, &total) || (uint64_t)total > SIZE_MAX)
        return DFS_STATUS_DECLINED;
    if (dfs_log_on(DFS_LOG_TRACE))
        dfs_log(DFS_LOG_TRACE, "pointer-array batch of %lld through %s's strided GEMM: %lld "
                "groups of at most %lld entries, %lld bytes of scratch", (long long)c->batch,
                ops->engine, (long long)((c->batch + group - 1) / group), (long long)group,
                (long long)total);
    double *const base = ops->alloc(ops->ctx, (size_t)total);
    if (!base)
        return DFS_STATUS_DECLINED;
    /* the group's packed A, B, C (doubles: two an element when complex) */
    const int64_t z = cplx ? 2 : 1;
    double *const pa = base, *const pb = pa + z * group * sa, *const pc = pb + z * group * sb;
    dfs_l3_batch ma = operand((const void *const *)c->Aarray, c->lda, ra, ca, cplx, pa),
                 mb = operand((const void *const *)c->Barray, c->ldb, rb, cb, cplx, pb),
                 mc = operand((const void *const *)c->Carray, c->ldc, c->m, c->n, cplx, pc);
    const int read_c = reads_c(c, host_scalars);
    dfs_gemm_call g = *c;
    g.api = strided_api(c);
    g.A = pa, g.lda = ra, g.strideA = sa;
    g.B = pb, g.ldb = rb, g.strideB = sb;
    g.C = pc, g.ldc = c->m, g.strideC = sc;
    g.Aarray = g.Barray = NULL;
    g.Carray = NULL;
    cublasStatus_t st = CUBLAS_STATUS_SUCCESS;
    int written = 0; /* a scatter was enqueued: C is no longer untouched */
    for (int64_t first = 0; first < c->batch && st == CUBLAS_STATUS_SUCCESS; first += group) {
        const int64_t count = c->batch - first < group ? c->batch - first : group;
        ma.first = mb.first = mc.first = first;
        ma.count = mb.count = mc.count = count;
        if (ops->gather(ops->ctx, &ma) || ops->gather(ops->ctx, &mb) ||
            (read_c && ops->gather(ops->ctx, &mc))) {
            st = CUBLAS_STATUS_EXECUTION_FAILED;
            break;
        }
        g.batch = count;
        st = ops->gemm(ops->ctx, &g);
        if (st == DFS_STATUS_DECLINED || st == DFS_STATUS_PREFER_NATIVE) {
            if (first == 0)
                break; /* C untouched: the whole call goes back to the dispatch */
            st = fallback(ops, &g, st);
        }
        if (st != CUBLAS_STATUS_SUCCESS)
            break;
        if (ops->scatter(ops->ctx, &mc))
            st = CUBLAS_STATUS_EXECUTION_FAILED;
        else
            written = 1;
    }
    ops->free(ops->ctx, base);
    if (st == CUBLAS_STATUS_EXECUTION_FAILED && !written)
        return DFS_STATUS_DECLINED;
    if (st == CUBLAS_STATUS_EXECUTION_FAILED)
        dfs_log_once(DFS_LOG_ERROR, "ptr-batch", "a pointer-array batch's move or GEMM failed "
                     "after part of C was written (%s)", ops->engine);
    return st;
}
