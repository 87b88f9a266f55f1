/* check.c — argument rules of cuBLAS for GEMM, GEMV and DOT (see check.h); the other Level-3
 * routines' are in check_l3.c. */
#include "check.h"

static int valid_op(cublasOperation_t op)
{
    return op == CUBLAS_OP_N || op == CUBLAS_OP_T || op == CUBLAS_OP_C;
}

static int64_t max1(int64_t v)
{
    return v > 1 ? v : 1;
}

static dfs_args invalid(cublasStatus_t *status, cublasStatus_t s)
{
    if (status)
        *status = s;
    return DFS_ARGS_INVALID;
}

/* The algorithms cublasGemmEx accepts: DEFAULT (-1), ALGO0..23, DEFAULT_TENSOR_OP (99),
 * ALGO0_TENSOR_OP..ALGO15_TENSOR_OP. */
static int valid_algo(cublasGemmAlgo_t a)
{
    int v = (int)a;
    return (v >= -1 && v <= 23) || (v >= 99 && v <= 115);
}

dfs_args dfs_check_gemm(cublasHandle_t h, int ex, cublasOperation_t ta, cublasOperation_t tb,
                        int64_t m, int64_t n, int64_t k, int64_t lda, int64_t ldb, int64_t ldc,
                        int64_t batch, cublasGemmAlgo_t algo, cublasStatus_t *status)
{
    if (status)
        *status = CUBLAS_STATUS_SUCCESS;
    if (!h)
        return invalid(status, CUBLAS_STATUS_NOT_INITIALIZED);
    if (ex && batch < 0)
        return DFS_ARGS_QUICK; /* cuBLAS 13.1 returns SUCCESS without computing */
    if (!valid_op(ta) || !valid_op(tb) || m < 0 || n < 0 || k < 0 || batch < 0)
        return invalid(status, CUBLAS_STATUS_INVALID_VALUE);
    if (lda < max1(ta == CUBLAS_OP_N ? m : k) || ldb < max1(tb == CUBLAS_OP_N ? k : n) ||
        ldc < max1(m))
        return invalid(status, CUBLAS_STATUS_INVALID_VALUE);
    if (ex && !valid_algo(algo))
        return invalid(status, CUBLAS_STATUS_INVALID_VALUE);
    if (m == 0 || n == 0 || batch == 0 || k == 0)
        return DFS_ARGS_QUICK;
    return DFS_ARGS_OK;
}

/* GEMV, in the order cuBLAS 13.1 checks (observed on an H200): m <= 0 or n <= 0 returns SUCCESS
 * even before the handle is checked; then the handle; then lda; an invalid op or a zero increment
 * returns SUCCESS without computing. */
dfs_args dfs_check_gemv(cublasHandle_t h, cublasOperation_t trans, int64_t m, int64_t n, int64_t lda,
                        int64_t incx, int64_t incy, cublasStatus_t *status)
{
    if (status)
        *status = CUBLAS_STATUS_SUCCESS;
    if (m <= 0 || n <= 0)
        return DFS_ARGS_QUICK;
    if (!h)
        return invalid(status, CUBLAS_STATUS_NOT_INITIALIZED);
    if (lda < max1(m))
        return invalid(status, CUBLAS_STATUS_INVALID_VALUE);
    if (!valid_op(trans) || incx == 0 || incy == 0)
        return DFS_ARGS_QUICK;
    return DFS_ARGS_OK;
}

dfs_args dfs_check_dot(cublasHandle_t h, int64_t n, const double *result, cublasStatus_t *status)
{
    if (status)
        *status = CUBLAS_STATUS_SUCCESS;
    if (!h)
        return invalid(status, CUBLAS_STATUS_NOT_INITIALIZED);
    if (!result)
        return invalid(status, CUBLAS_STATUS_INVALID_VALUE);
    if (n <= 0)
        return DFS_ARGS_QUICK;
    return DFS_ARGS_OK;
}

int dfs_check_ex_types(cudaDataType at, cudaDataType bt, cudaDataType ct,
                       cublasComputeType_t ctype)
{
    if (ctype != CUBLAS_COMPUTE_64F || at != bt || at != ct)
        return 0;
    return at == CUDA_R_64F ? 1 : at == CUDA_C_64F ? 2 : 0;
}
