/* dfblas.c — the DGEMM-DF(DF) library interface (include/dfblas.h) on the DF engine's kernels. */
#include "../../include/dfblas.h"

#include "gemm.h"
#include "../../config/env.h"

#include <stdlib.h>
#include <string.h>

#define DFBLAS_EXPORT __attribute__((visibility("default")))

struct dfblas_context {
    dfs_scratch scratch;
};

DFBLAS_EXPORT dfblas_status dfblas_create(dfblas_handle *handle)
{
    dfs_env_configure_core(); /* EXBLAS_LOG, EXBLAS_LOG_FILE */
    if (!handle)
        return DFBLAS_INVALID_VALUE;
    dfblas_handle h = calloc(1, sizeof *h);
    if (!h)
        return DFBLAS_ALLOC_FAILED;
    pthread_mutex_init(&h->scratch.lock, NULL);
    *handle = h;
    return DFBLAS_SUCCESS;
}

DFBLAS_EXPORT dfblas_status dfblas_destroy(dfblas_handle h)
{
    if (!h)
        return DFBLAS_INVALID_VALUE;
    dfs_scratch_release(&h->scratch);
    pthread_mutex_destroy(&h->scratch.lock);
    free(h);
    return DFBLAS_SUCCESS;
}

static int op(char c, int *trans)
{
    if (c == 'N' || c == 'n')
        *trans = 0;
    else if (c == 'T' || c == 't' || c == 'C' || c == 'c')
        *trans = 1;
    else
        return -1;
    return 0;
}

DFBLAS_EXPORT dfblas_status dfblas_gemm(dfblas_handle h, cudaStream_t stream, dfblas_scheme scheme,
                                        char transa, char transb, int64_t m, int64_t n, int64_t k,
                                        dfblas_df alpha, const dfblas_df *A, int64_t lda,
                                        const dfblas_df *B, int64_t ldb, dfblas_df beta,
                                        dfblas_df *C, int64_t ldc, size_t workspace_mb)
{
    int ta, tb;
    if (!h || op(transa, &ta) || op(transb, &tb) || m < 0 || n < 0 || k < 0 ||
        (unsigned)scheme > DFBLAS_LAZY)
        return DFBLAS_INVALID_VALUE;
    const int64_t ra = ta ? k : m, rb = tb ? n : k;
    if (lda < (ra > 1 ? ra : 1) || ldb < (rb > 1 ? rb : 1) || ldc < (m > 1 ? m : 1))
        return DFBLAS_INVALID_VALUE;
    if (m == 0 || n == 0)
        return DFBLAS_SUCCESS;
    static const int schemes[4] = {DFS_DF_MAD15, DFS_DF_MAD16, DFS_DF_MAD29, DFS_DF_MAD12};
    dfs_df_gemm_args g;
    memset(&g, 0, sizeof g);
    g.Cdf = (float *)C;
    g.ldc = ldc;
    g.alpha_hi = alpha.hi;
    g.alpha_lo = alpha.lo;
    g.beta_hi = beta.hi;
    g.beta_lo = beta.lo;
    g.scheme = schemes[scheme];
    const dfs_df_operand a = {A, lda, 0, ta, 1}, b = {B, ldb, 0, tb, 1};
    const dfs_df_tuning *t = dfs_df_tuning_of(-1);
    /* DF operands: the tiled path (the small kernel takes binary64 ones) */
    const dfs_df_path path = {.tile = t->tile,
                              .workspace = workspace_mb ? workspace_mb << 20 : t->workspace,
                              .small = DFS_DF_SMALL_NEVER, .device = -1};
    pthread_mutex_lock(&h->scratch.lock);
    int r = dfs_df_gemm_run(&h->scratch, (CUstream)stream, &path, m, n, k, 1, &a, &b, 0, &g);
    dfs_scratch_unlock(&h->scratch);
    switch (r) {
    case DFS_DF_OK:
        return DFBLAS_SUCCESS;
    case DFS_DF_NO_SCRATCH:
        return DFBLAS_ALLOC_FAILED;
    case DFS_DF_TOO_BIG:
        return DFBLAS_INVALID_VALUE;
    case DFS_DF_NO_MODULE:
        return DFBLAS_NO_GPU;
    default:
        return DFBLAS_EXECUTION_FAILED;
    }
}
