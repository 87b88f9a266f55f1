/* l3_mm.c — the real Level-3 routines as descriptors, and their degradation into GEMMs
 * (l3_mm.h says how; LEVEL3.md §3 and §5).  No arithmetic here: only GEMM calls and copies. */
#include "l3_mm.h"

#include <string.h>

#define PANEL_MIN 32
#define PANELS 8

static cublasOperation_t flip(cublasOperation_t op)
{
    return op == CUBLAS_OP_N ? CUBLAS_OP_T : CUBLAS_OP_N;
}

int dfs_l3_to_mm(const dfs_l3_call *c, int host_scalars, const double *zero, dfs_mm *mm)
{
    if (c->type != DFS_R64)
        return 0;
    memset(mm, 0, sizeof *mm);
    const cublasOperation_t op = c->trans == CUBLAS_OP_N ? CUBLAS_OP_N : CUBLAS_OP_T;
    const int lower = c->uplo == CUBLAS_FILL_MODE_LOWER;
    mm->m = c->m;
    mm->n = c->n;
    mm->k = c->k;
    mm->alpha = c->alpha;
    mm->beta = c->beta;
    mm->C = c->C;
    mm->ldc = c->ldc;
    switch (c->kind) {
    case DFS_L3_SYRK:
    case DFS_L3_SYRKX:
    case DFS_L3_SYR2K: {
        /* op(A) op(A or B)^T: B read with the other op */
        const int x = c->kind != DFS_L3_SYRK;
        mm->A = (dfs_opnd){c->A, c->lda, op, DFS_SHAPE_GEN, 0, 0};
        mm->B = (dfs_opnd){x ? c->B : c->A, x ? c->ldb : c->lda, flip(op), DFS_SHAPE_GEN, 0, 0};
        mm->out = lower ? DFS_OUT_LOWER : DFS_OUT_UPPER;
        mm->fin = c->kind == DFS_L3_SYR2K ? DFS_FIN_SYM2 : DFS_FIN_AXPBY;
        break;
    }
    case DFS_L3_SYMM: {
        const dfs_opnd s = {c->A, c->lda, CUBLAS_OP_N, DFS_SHAPE_SYM, lower, 0},
                       g = {c->B, c->ldb, CUBLAS_OP_N, DFS_SHAPE_GEN, 0, 0};
        mm->A = c->side == CUBLAS_SIDE_LEFT ? s : g;
        mm->B = c->side == CUBLAS_SIDE_LEFT ? g : s;
        break;
    }
    case DFS_L3_TRMM: {
        const dfs_opnd t = {c->A, c->lda, op, DFS_SHAPE_TRI, lower, c->diag == CUBLAS_DIAG_UNIT},
                       g = {c->B, c->ldb, CUBLAS_OP_N, DFS_SHAPE_GEN, 0, 0};
        mm->A = c->side == CUBLAS_SIDE_LEFT ? t : g;
        mm->B = c->side == CUBLAS_SIDE_LEFT ? g : t;
        mm->beta = zero;
        mm->c_aliases_b = c->B == c->C;
        break;
    }
    default:
        return 0;
    }
    mm->beta_zero = c->kind == DFS_L3_TRMM || (host_scalars && c->beta[0] == 0.0);
    return 1;
}

static int64_t min64(int64_t a, int64_t b)
{
    return a < b ? a : b;
}

static int triangular(const dfs_opnd *x)
{
    return x->shape == DFS_SHAPE_TRI;
}

int64_t dfs_mm_panel(const dfs_mm *mm)
{
    const int64_t dim = mm->out != DFS_OUT_ALL ? mm->n : mm->k;
    const int64_t nb = (dim + PANELS - 1) / PANELS;
    return nb <= PANEL_MIN ? PANEL_MIN : (nb + PANEL_MIN - 1) / PANEL_MIN * PANEL_MIN;
}

int64_t dfs_mm_scratch(const dfs_mm *mm, int64_t nb)
{
    int64_t s = 0;
    if (mm->A.shape != DFS_SHAPE_GEN || mm->B.shape != DFS_SHAPE_GEN)
        s += mm->k * mm->k;
    if (mm->fin == DFS_FIN_SYM2)
        s += 3 * mm->n * mm->k;
    if (mm->c_aliases_b)
        s += mm->m * mm->n;
    if (mm->out != DFS_OUT_ALL)
        s += min64(nb, mm->n) * min64(nb, mm->n);
    return s;
}

/* The state of one run: the descriptor as degraded so far. */
typedef struct {
    dfs_mm mm;
    const dfs_mm_ops *ops;
} run;

static cublasStatus_t copy(const run *r, const double *src, int64_t lds, double *dst,
                           int64_t ldd, int64_t rows, int64_t cols, int mode, int lower,
                           int unit)
{
    const dfs_l3_copy cp = {src, lds, dst, ldd, rows, cols, mode, lower, unit};
    if (rows <= 0 || cols <= 0)
        return CUBLAS_STATUS_SUCCESS;
    return r->ops->copy(r->ops->ctx, &cp) ? CUBLAS_STATUS_EXECUTION_FAILED
                                           : CUBLAS_STATUS_SUCCESS;
}

/* op(X)(r0, c0) as a GEMM operand's address (op kept). */
static const double *at(const dfs_opnd *x, int64_t r0, int64_t c0)
{
    return x->op == CUBLAS_OP_N ? x->p + r0 + c0 * x->ld : x->p + c0 + r0 * x->ld;
}

/* C'(rows i0.., cols j0..) = alpha op(A)(i0.., k0..) op(B)(k0.., j0..) + beta C' for an
 * m x n x k block, C' at c (leading dimension ldc). */
static cublasStatus_t gemm(const run *r, int64_t i0, int64_t j0, int64_t k0, int64_t m,
                           int64_t n, int64_t k, double *c, int64_t ldc)
{
    const dfs_mm *mm = &r->mm;
    if (m <= 0 || n <= 0)
        return CUBLAS_STATUS_SUCCESS;
    const dfs_gemm_call g = {.api = DFS_API_DGEMM_64,
                             .transa = mm->A.op,
                             .transb = mm->B.op,
                             .m = m,
                             .n = n,
                             .k = k,
                             .alpha = mm->alpha,
                             .A = at(&mm->A, i0, k0),
                             .lda = mm->A.ld,
                             .B = at(&mm->B, k0, j0),
                             .ldb = mm->B.ld,
                             .beta = mm->beta,
                             .C = c,
                             .ldc = ldc,
                             .batch = 1,
                             .algo = CUBLAS_GEMM_DEFAULT,
                             .type = DFS_R64};
    return r->ops->gemm(r->ops->ctx, &g);
}

/* Materialises a structured operand x (k x k) at s: a dense matrix with x's op. */
static cublasStatus_t densify(run *r, dfs_opnd *x, double *s)
{
    const int64_t k = r->mm.k;
    const cublasStatus_t st = copy(r, x->p, x->ld, s, k, k, k,
                                   x->shape == DFS_SHAPE_TRI ? DFS_L3_TRI : DFS_L3_SYM, x->lower,
                                   x->unit);
    x->p = s;
    x->ld = k > 0 ? k : 1;
    return st;
}

/* SYM2: X = op(A) (n x k), Y = op(B) (k x n) staged as W = [X Y^T X] (n x 3k) at s; then
 * A = W(:, 0:2k), op N, and B = W(:, k:3k)^T: alpha A B + beta C, k' = 2k. */
static cublasStatus_t concatenate(run *r, double *s)
{
    dfs_mm *mm = &r->mm;
    const int64_t n = mm->n, k = mm->k, ld = n > 0 ? n : 1;
    const int xmode = mm->A.op == CUBLAS_OP_N ? DFS_L3_COPY : DFS_L3_COPY_T;
    const int ymode = mm->B.op == CUBLAS_OP_N ? DFS_L3_COPY_T : DFS_L3_COPY;
    cublasStatus_t st = copy(r, mm->A.p, mm->A.ld, s, ld, n, k, xmode, 0, 0);
    if (st == CUBLAS_STATUS_SUCCESS)
        st = copy(r, mm->B.p, mm->B.ld, s + k * n, ld, n, k, ymode, 0, 0);
    if (st == CUBLAS_STATUS_SUCCESS)
        st = copy(r, mm->A.p, mm->A.ld, s + 2 * k * n, ld, n, k, xmode, 0, 0);
    mm->A = (dfs_opnd){s, ld, CUBLAS_OP_N, DFS_SHAPE_GEN, 0, 0};
    mm->B = (dfs_opnd){s + k * n, ld, CUBLAS_OP_T, DFS_SHAPE_GEN, 0, 0};
    mm->k = 2 * k;
    mm->fin = DFS_FIN_AXPBY;
    return st;
}

/* Whether op(X) of a triangular X is lower triangular. */
static int op_lower(const dfs_opnd *x)
{
    return x->lower == (x->op == CUBLAS_OP_N);
}

/* The p-th of the np blocks of nb along a dimension of d: in order, or from the last when
 * last_first (so that the engine first sees the block with the most work: an engine whose
 * cost model chooses native for small products then declines the call as a whole, C
 * untouched, rather than computing part of it). */
static int64_t block(int64_t p, int64_t np, int64_t nb, int last_first)
{
    return (last_first ? np - 1 - p : p) * nb;
}

/* The whole of C' (at c, ldc): one GEMM, or blocks of nb rows (op(A) triangular) or columns
 * (op(B) triangular), each over the inner range where its block of the operand is not zero. */
static cublasStatus_t all(const run *r, int64_t nb, double *c, int64_t ldc)
{
    const dfs_mm *mm = &r->mm;
    cublasStatus_t st = CUBLAS_STATUS_SUCCESS;
    if (triangular(&mm->A)) { /* op(A) is m x m: block rows */
        const int lo = op_lower(&mm->A);
        const int64_t np = (mm->m + nb - 1) / nb;
        for (int64_t p = 0; p < np && st == CUBLAS_STATUS_SUCCESS; p++) {
            const int64_t i = block(p, np, nb, lo), ib = min64(nb, mm->m - i);
            const int64_t k0 = lo ? 0 : i, k1 = lo ? i + ib : mm->m;
            st = gemm(r, i, 0, k0, ib, mm->n, k1 - k0, c + i, ldc);
        }
    } else if (triangular(&mm->B)) { /* op(B) is n x n: block columns */
        const int lo = op_lower(&mm->B);
        const int64_t np = (mm->n + nb - 1) / nb;
        for (int64_t p = 0; p < np && st == CUBLAS_STATUS_SUCCESS; p++) {
            const int64_t j = block(p, np, nb, !lo), jb = min64(nb, mm->n - j);
            const int64_t k0 = lo ? j : 0, k1 = lo ? mm->n : j + jb;
            st = gemm(r, 0, j, k0, mm->m, jb, k1 - k0, c + j * ldc, ldc);
        }
    } else {
        st = gemm(r, 0, 0, 0, mm->m, mm->n, mm->k, c, ldc);
    }
    return st;
}

/* The triangle `out` of C' (n x n at c, ldc) in panels of nb columns, the longest first; sd:
 * nb x nb of scratch. */
static cublasStatus_t triangle(const run *r, int64_t nb, double *c, int64_t ldc, double *sd)
{
    const dfs_mm *mm = &r->mm;
    const int lower = mm->out == DFS_OUT_LOWER;
    const int64_t n = mm->n, lds = min64(nb, n), np = (n + nb - 1) / nb;
    cublasStatus_t st = CUBLAS_STATUS_SUCCESS;
    for (int64_t p = 0; p < np && st == CUBLAS_STATUS_SUCCESS; p++) {
        const int64_t j = block(p, np, nb, !lower), jb = min64(nb, n - j);
        double *cjj = c + j + j * ldc;
        /* the panel below (lower) or above (upper) its diagonal block, straight into C */
        st = lower ? gemm(r, j + jb, j, 0, n - j - jb, jb, mm->k, cjj + jb, ldc)
                   : gemm(r, 0, j, 0, j, jb, mm->k, c + j * ldc, ldc);
        /* the diagonal block: computed whole into scratch, its triangle copied back */
        if (st == CUBLAS_STATUS_SUCCESS && !mm->beta_zero)
            st = copy(r, cjj, ldc, sd, lds, jb, jb, DFS_L3_COPY, 0, 0);
        if (st == CUBLAS_STATUS_SUCCESS)
            st = gemm(r, j, j, 0, jb, jb, mm->k, sd, lds);
        if (st == CUBLAS_STATUS_SUCCESS)
            st = copy(r, sd, lds, cjj, ldc, jb, jb, DFS_L3_MASK, lower, 0);
    }
    return st;
}

cublasStatus_t dfs_mm_run(const dfs_mm *mm, int64_t nb, double *scratch, const dfs_mm_ops *ops)
{
    run r = {*mm, ops};
    double *s = scratch;
    cublasStatus_t st = CUBLAS_STATUS_SUCCESS;
    if (mm->A.shape != DFS_SHAPE_GEN) {
        st = densify(&r, &r.mm.A, s);
        s += mm->k * mm->k;
    } else if (mm->B.shape != DFS_SHAPE_GEN) {
        st = densify(&r, &r.mm.B, s);
        s += mm->k * mm->k;
    }
    if (st == CUBLAS_STATUS_SUCCESS && mm->fin == DFS_FIN_SYM2) {
        st = concatenate(&r, s);
        s += 3 * mm->n * mm->k;
    }
    /* C = B: the output into scratch first */
    double *c = mm->C;
    int64_t ldc = mm->ldc;
    if (mm->c_aliases_b) {
        c = s;
        ldc = mm->m > 0 ? mm->m : 1;
        s += mm->m * mm->n;
    }
    if (st == CUBLAS_STATUS_SUCCESS)
        st = mm->out == DFS_OUT_ALL ? all(&r, nb, c, ldc) : triangle(&r, nb, c, ldc, s);
    if (st == CUBLAS_STATUS_SUCCESS && mm->c_aliases_b)
        st = copy(&r, c, ldc, mm->C, mm->ldc, mm->m, mm->n, DFS_L3_COPY, 0, 0);
    return st;
}
