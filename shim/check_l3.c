/* check_l3.c — cuBLAS's argument rules for the Level-3 routines beside GEMM (SYRK, HERK, SYRKX,
 * HERKX, SYR2K, HER2K, SYMM, HEMM, TRMM, TRSM), as documented (cuBLAS docs, Level-3 reference)
 * and as cuBLAS 13 was measured to behave (../shared/design/LEVEL3.md §2.1, H200).  In order:
 *
 *   1. a NULL handle: NOT_INITIALIZED (before anything else, as for GEMM; measured for TRSM);
 *   2. INVALID_VALUE for an enum cuBLAS does not know: uplo not LOWER or UPPER (FILL_MODE_FULL
 *      included), side not LEFT or RIGHT (SYMM...TRSM), op not N, T or C (the rank-k routines,
 *      TRMM, TRSM), diag not UNIT or NON_UNIT (TRMM and TRSM: measured for TRMM, where the docs
 *      omit it); a negative dimension; a leading dimension below its minimum: lda (and ldb) <
 *      max(1, op N ? n : k) and ldc < max(1, n) for the rank-k routines; lda < max(1, m on the
 *      left, n on the right), ldb < max(1, m) and ldc < max(1, m) (not TRSM, which has no C)
 *      for the others.  These hold at zero sizes too: they are not quick returns (measured:
 *      TRSM m = 0 with lda = 0, n = 0 with side = 9; SYRK n = 0 with ldc = 0; SYMM side = 9
 *      with m = 0; TRMM m = 0 with ldc = 0);
 *   3. a quick return (SUCCESS, nothing computed but perhaps C = beta C): m or n = 0, or k = 0
 *      for the rank-k routines;
 *   4. INVALID_VALUE for a NULL alpha, or a NULL beta where the routine has one: checked only
 *      after the zero-size return (measured: TRSM n = 0 with alpha NULL is SUCCESS), and checked,
 *      never read, in device pointer mode as in host mode (TRSM, measured);
 *   5. valid calls that only cuBLAS computes (DFS_ARGS_NATIVE): complex SYRK, SYRKX, SYR2K with
 *      op C, and HERK, HERKX, HER2K with op T, which cuBLAS accepts (measured: Zsyrk C, Zherk,
 *      Zher2k, Zherkx T; assumed alike for Zsyrkx and Zsyr2k) although the reference BLAS rejects
 *      them and what they compute was not probed; and an output C that shares an element with an
 *      input (overlap(): exact for blocks of one matrix, as cuSOLVER passes its panel and
 *      trailing matrix) other than as the in-place TRMM (C = B with ldc = ldb) and TRSM (B is
 *      the output) do: TRMM with C = B and ldc != ldb is accepted (measured), the others are
 *      undefined in the docs.
 *
 * On real data op C is op T (measured accepted for Dsyrk, Dsyrkx, Dsyr2k), as for GEMM.  The
 * scalars' values are not looked at here (they may be in device memory): the shim's dispatch
 * leaves alpha = 0 given on the host to cuBLAS (a true quick return for HERK with beta = 1,
 * measured, and for TRSM the one way to keep cuBLAS 13's result: it leaves NaN in B where the
 * docs promise zeros, measured).  Where a rule was not measured the call goes to cuBLAS either
 * way, so the status is cuBLAS's own; only the class DFS_ARGS_OK ever reaches an engine. */
#include "check.h"

#include <stdint.h>

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

/* A column-major rows x cols matrix with leading dimension ld at p (elements of es bytes). */
typedef struct {
    uintptr_t p;
    int64_t rows, cols, ld;
} mat;

static mat matrix(const void *p, int64_t rows, int64_t cols, int64_t ld)
{
    return (mat){(uintptr_t)p, rows, cols, ld};
}

/* The bytes [lo, hi) that x spans (lo = hi when it is empty or NULL). */
static void extent(mat x, size_t es, uintptr_t *lo, uintptr_t *hi)
{
    *lo = *hi = x.p;
    if (x.p && x.rows > 0 && x.cols > 0)
        *hi = x.p + (uintptr_t)(((x.cols - 1) * x.ld + x.rows) * (int64_t)es);
}

/* Whether [a, a + n) meets [0, len) (n > 0). */
static int meets(int64_t a, int64_t n, int64_t len)
{
    return a < len && a + n > 0;
}

/* Whether x and y share an element.  Their spans must meet; when they do and both have the same
 * leading dimension ld with whole elements between them (LAPACK's blocks of one matrix, as
 * cuSOLVER passes them: the panel, the trailing matrix, the diagonal block), exactly: y's
 * column j starts at row r = d mod ld of x's column c + j (d = y - x in elements, c = d div ld)
 * and, where r + rows(y) > ld, runs on into the top of column c + j + 1; it meets x where
 * those rows and columns do.  Otherwise (other leading dimensions, or an offset of part of an
 * element) the spans decide. */
static int overlap(mat x, mat y, size_t es)
{
    uintptr_t xl, xh, yl, yh;
    extent(x, es, &xl, &xh);
    extent(y, es, &yl, &yh);
    if (!(xl < yh && yl < xh))
        return 0;
    const intptr_t bytes = (intptr_t)(y.p - x.p);
    if (x.ld != y.ld || x.ld <= 0 || bytes % (intptr_t)es != 0)
        return 1;
    const int64_t d = (int64_t)(bytes / (intptr_t)es), ld = x.ld;
    const int64_t c = d >= 0 ? d / ld : -((-d + ld - 1) / ld), r = d - c * ld; /* 0 <= r < ld */
    return (r < x.rows && meets(c, y.cols, x.cols)) ||
           (r + y.rows > ld && meets(c + 1, y.cols, x.cols));
}

static int rank_k(dfs_l3_kind k)
{
    return k <= DFS_L3_HER2K;
}

static int hermitian(dfs_l3_kind k)
{
    return k == DFS_L3_HERK || k == DFS_L3_HERKX || k == DFS_L3_HER2K || k == DFS_L3_HEMM;
}

/* Whether C, the output, overlaps an input in a way cuBLAS does not define (step 5): shares an
 * element with it (overlap). */
static int aliased(const dfs_l3_call *c, int64_t ka)
{
    const size_t es = c->type == DFS_C64 ? 16 : 8;
    const mat C = matrix(c->C, c->m, c->n, c->ldc), A = matrix(c->A, ka, ka, c->lda);
    if (c->kind == DFS_L3_TRSM) /* B is C */
        return overlap(C, A, es);
    if (c->kind == DFS_L3_TRMM && c->B == c->C)
        return c->ldb != c->ldc || overlap(C, A, es);
    if (rank_k(c->kind)) {
        const int64_t rows = c->trans == CUBLAS_OP_N ? c->n : c->k,
                      cols = c->trans == CUBLAS_OP_N ? c->k : c->n;
        return overlap(C, matrix(c->A, rows, cols, c->lda), es) ||
               overlap(C, matrix(c->B, rows, cols, c->ldb), es);
    }
    return overlap(C, A, es) || overlap(C, matrix(c->B, c->m, c->n, c->ldb), es);
}

dfs_args dfs_check_l3(cublasHandle_t h, const dfs_l3_call *c, cublasStatus_t *status)
{
    if (status)
        *status = CUBLAS_STATUS_SUCCESS;
    if (!h)
        return invalid(status, CUBLAS_STATUS_NOT_INITIALIZED);
    const dfs_l3_kind kind = c->kind;
    const int rk = rank_k(kind), tri = kind == DFS_L3_TRMM || kind == DFS_L3_TRSM;
    const int has_b = kind != DFS_L3_SYRK && kind != DFS_L3_HERK, has_beta = !tri;
    if (c->uplo != CUBLAS_FILL_MODE_LOWER && c->uplo != CUBLAS_FILL_MODE_UPPER)
        return invalid(status, CUBLAS_STATUS_INVALID_VALUE);
    if (!rk && c->side != CUBLAS_SIDE_LEFT && c->side != CUBLAS_SIDE_RIGHT)
        return invalid(status, CUBLAS_STATUS_INVALID_VALUE);
    if ((rk || tri) && c->trans != CUBLAS_OP_N && c->trans != CUBLAS_OP_T &&
        c->trans != CUBLAS_OP_C)
        return invalid(status, CUBLAS_STATUS_INVALID_VALUE);
    if (tri && c->diag != CUBLAS_DIAG_NON_UNIT && c->diag != CUBLAS_DIAG_UNIT)
        return invalid(status, CUBLAS_STATUS_INVALID_VALUE);
    if (c->m < 0 || c->n < 0 || (rk && c->k < 0))
        return invalid(status, CUBLAS_STATUS_INVALID_VALUE);
    /* A's order for SYMM...TRSM; the rows of the stored A (and B) for the rank-k routines */
    const int64_t ka = rk ? (c->trans == CUBLAS_OP_N ? c->n : c->k)
                          : (c->side == CUBLAS_SIDE_LEFT ? c->m : c->n);
    if (c->lda < max1(ka) || (has_b && c->ldb < max1(rk ? ka : c->m)) ||
        (kind != DFS_L3_TRSM && c->ldc < max1(c->m)))
        return invalid(status, CUBLAS_STATUS_INVALID_VALUE);
    if (c->m == 0 || c->n == 0 || (rk && c->k == 0))
        return DFS_ARGS_QUICK;
    if (!c->alpha || (has_beta && !c->beta))
        return invalid(status, CUBLAS_STATUS_INVALID_VALUE);
    if (rk && c->type == DFS_C64 && c->trans == (hermitian(kind) ? CUBLAS_OP_T : CUBLAS_OP_C))
        return DFS_ARGS_NATIVE;
    if (aliased(c, ka))
        return DFS_ARGS_NATIVE;
    return DFS_ARGS_OK;
}
