/* ltplan.c — which cublasLtMatmul calls the shim computes, and as what GEMM (see ltplan.h). */
#include "ltplan.h"

#include <cublasLt.h>

/* The op on the transposed storage: N <-> T; C is T on real data, and on complex data would be
 * a conjugation without transposition (then 0: not expressible). */
static int flip(cublasOperation_t op, int complex, cublasOperation_t *out)
{
    if (op == CUBLAS_OP_C && complex)
        return 0;
    *out = op == CUBLAS_OP_N ? CUBLAS_OP_T : CUBLAS_OP_N;
    return 1;
}

static int is_op(int32_t op)
{
    return op == CUBLAS_OP_N || op == CUBLAS_OP_T || op == CUBLAS_OP_C;
}

/* The layout's storage seen column-major: rows and columns. */
static void storage(const dfs_lt_layout *l, int64_t *r, int64_t *c)
{
    *r = (int64_t)(l->order == CUBLASLT_ORDER_COL ? l->rows : l->cols);
    *c = (int64_t)(l->order == CUBLASLT_ORDER_COL ? l->cols : l->rows);
}

static const char *check_desc(const dfs_lt_desc *d)
{
    if (d->compute != CUBLAS_COMPUTE_64F)
        return "compute type is not CUBLAS_COMPUTE_64F";
    if (d->scale_type != CUDA_R_64F && d->scale_type != CUDA_C_64F)
        return "scale type is neither CUDA_R_64F nor CUDA_C_64F";
    if (d->pointer_mode != CUBLASLT_POINTER_MODE_HOST &&
        d->pointer_mode != CUBLASLT_POINTER_MODE_DEVICE)
        return "alpha and beta are vectors";
    if (!is_op(d->transa) || !is_op(d->transb) || d->transc != CUBLAS_OP_N)
        return "operations other than N, T, C on A and B and N on C";
    if (d->fill != CUBLAS_FILL_MODE_FULL)
        return "a triangular fill mode";
    if (d->epilogue != CUBLASLT_EPILOGUE_DEFAULT)
        return "an epilogue";
    if (d->extras)
        return "scaling, amax, fast-accumulation or emulation attributes";
    return NULL;
}

static const char *check_layout(const dfs_lt_layout *l)
{
    if (l->type != CUDA_R_64F && l->type != CUDA_C_64F)
        return "a matrix is neither CUDA_R_64F nor CUDA_C_64F";
    if (l->order != CUBLASLT_ORDER_COL && l->order != CUBLASLT_ORDER_ROW)
        return "a matrix order other than column- or row-major";
    if (l->plane_offset != 0 || l->batch_mode != CUBLASLT_BATCH_MODE_STRIDED)
        return "planar or pointer-array layouts";
    if (l->rows == 0 || l->cols == 0 || l->rows > INT32_MAX || l->cols > INT32_MAX)
        return "an empty matrix or one over 2^31 - 1 rows or columns";
    int64_t r, c;
    storage(l, &r, &c);
    if (l->ld < r)
        return "a leading dimension below the rows stored";
    if (l->batch < 1 || l->stride < 0)
        return "a batch count below 1 or a negative batch stride";
    return NULL;
}

const char *dfs_lt_plan_make(const dfs_lt_desc *d, const dfs_lt_layout l[4], int C_is_D,
                             int host_beta_zero, dfs_lt_plan *p)
{
    const char *why = check_desc(d);
    for (int i = 0; i < 4 && !why; i++)
        why = check_layout(&l[i]);
    if (why)
        return why;
    const dfs_lt_layout *A = &l[DFS_LT_A], *B = &l[DFS_LT_B], *C = &l[DFS_LT_C], *D = &l[DFS_LT_D];
    for (int i = 0; i < 4; i++)
        if (l[i].type != (uint32_t)d->scale_type)
            return "matrices of another type than the scale type";
    const int complex = d->scale_type == CUDA_C_64F;
    const cublasOperation_t opa = (cublasOperation_t)d->transa, opb = (cublasOperation_t)d->transb;
    const int64_t m = (int64_t)D->rows, n = (int64_t)D->cols;
    const int64_t k = (int64_t)(opa == CUBLAS_OP_N ? A->cols : A->rows);
    const int64_t am = (int64_t)(opa == CUBLAS_OP_N ? A->rows : A->cols);
    const int64_t bk = (int64_t)(opb == CUBLAS_OP_N ? B->rows : B->cols);
    const int64_t bn = (int64_t)(opb == CUBLAS_OP_N ? B->cols : B->rows);
    if (am != m || bk != k || bn != n || C->rows != D->rows || C->cols != D->cols)
        return "dimensions that do not agree";
    if (C->order != D->order)
        return "C and D in different orders";
    if (A->batch != D->batch || B->batch != D->batch || C->batch != D->batch)
        return "different batch counts";
    if (C_is_D && (C->ld != D->ld || (D->batch > 1 && C->stride != D->stride)))
        return "C and D at one address with different layouts";
    int64_t dr, dc;
    storage(D, &dr, &dc);
    if (D->batch > 1 && D->stride < D->ld * dc)
        return "overlapping batches of D";

    cublasOperation_t ea = opa, eb = opb;
    if ((A->order != CUBLASLT_ORDER_COL && !flip(opa, complex, &ea)) ||
        (B->order != CUBLASLT_ORDER_COL && !flip(opb, complex, &eb)))
        return "a conjugated complex operand stored row-major";
    const int batched = D->batch > 1;
    p->swap = D->order == CUBLASLT_ORDER_ROW;
    const dfs_lt_layout *first = p->swap ? B : A, *second = p->swap ? A : B;
    p->transa = ea;
    p->transb = eb;
    if (p->swap && (!flip(eb, complex, &p->transa) || !flip(ea, complex, &p->transb)))
        return "a conjugated complex operand with a row-major D";
    p->m = p->swap ? n : m;
    p->n = p->swap ? m : n;
    p->k = k;
    p->lda = first->ld;
    p->ldb = second->ld;
    p->ldd = D->ld;
    p->ldc = C->ld;
    p->sA = batched ? first->stride : 0;
    p->sB = batched ? second->stride : 0;
    p->sD = batched ? D->stride : 0;
    p->sC = batched ? C->stride : 0;
    p->batch = D->batch;
    p->c_rows = dr;
    p->c_cols = dc;
    p->copy_c = !C_is_D && !host_beta_zero;
    p->complex = complex;
    return NULL;
}
