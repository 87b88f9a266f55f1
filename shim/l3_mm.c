/* l3_mm.c — the Level-3 routines (real and complex) as descriptors, and their degradation into
 * GEMMs (l3_mm.h says how; LEVEL3.md §3 and §5).  No arithmetic here: only GEMM calls and
 * copies (complex data: pointers advance two doubles an element). */
#include "l3_mm.h"

#include <string.h>

#define PANEL_MIN 32

/* B's op for the rank-k routines: the transpose of A's (T), or its conjugate transpose (H). */
static cublasOperation_t flip(cublasOperation_t op, int h)
{
    return op != CUBLAS_OP_N ? CUBLAS_OP_N : h ? CUBLAS_OP_C : CUBLAS_OP_T;
}

static int hermitian(dfs_l3_kind k)
{
    return k == DFS_L3_HERK || k == DFS_L3_HERKX || k == DFS_L3_HER2K || k == DFS_L3_HEMM;
}

/* Whether c's element type and op suit this file (l3_mm.h's dfs_l3_to_mm). */
static int covered(const dfs_l3_call *c, int host_scalars)
{
    const int z = c->type == DFS_C64, h = hermitian(c->kind);
    if (!z)
        return !h && c->kind != DFS_L3_TRSM;
    if (c->alpha_real || (c->beta_real && c->kind != DFS_L3_TRMM) || c->kind == DFS_L3_TRSM)
        return 0;
    if (c->kind <= DFS_L3_HER2K && c->trans == (h ? CUBLAS_OP_T : CUBLAS_OP_C))
        return 0;
    /* HER2K by k-concatenation: a real alpha, seen on the host */
    return c->kind != DFS_L3_HER2K || (host_scalars && c->alpha[1] == 0.0);
}

int dfs_l3_to_mm(const dfs_l3_call *c, int host_scalars, const double *zero, dfs_mm *mm)
{
    if (!covered(c, host_scalars))
        return 0;
    memset(mm, 0, sizeof *mm);
    const int z = c->type == DFS_C64, h = hermitian(c->kind);
    /* real: op C is op T; complex: N, T or C as given */
    const cublasOperation_t op = c->trans == CUBLAS_OP_N ? CUBLAS_OP_N
                                 : z                     ? c->trans
                                                         : CUBLAS_OP_T;
    const int lower = c->uplo == CUBLAS_FILL_MODE_LOWER;
    mm->m = c->m;
    mm->n = c->n;
    mm->k = c->k;
    mm->alpha = c->alpha;
    mm->beta = c->beta;
    mm->C = c->C;
    mm->ldc = c->ldc;
    mm->cplx = z;
    switch (c->kind) {
    case DFS_L3_SYRK:
    case DFS_L3_HERK:
    case DFS_L3_SYRKX:
    case DFS_L3_HERKX:
    case DFS_L3_SYR2K:
    case DFS_L3_HER2K: {
        /* op(A) op(A or B)^T (^H): B read with the other op */
        const int x = c->kind != DFS_L3_SYRK && c->kind != DFS_L3_HERK;
        mm->A = (dfs_opnd){c->A, c->lda, op, DFS_SHAPE_GEN, 0, 0};
        mm->B = (dfs_opnd){x ? c->B : c->A, x ? c->ldb : c->lda, flip(op, h), DFS_SHAPE_GEN, 0,
                           0};
        mm->out = lower ? DFS_OUT_LOWER : DFS_OUT_UPPER;
        mm->fin = c->kind == DFS_L3_SYR2K   ? DFS_FIN_SYM2
                  : c->kind == DFS_L3_HER2K ? DFS_FIN_HER2
                                            : DFS_FIN_AXPBY;
        mm->herm_diag = h;
        break;
    }
    case DFS_L3_SYMM:
    case DFS_L3_HEMM: {
        const dfs_opnd s = {c->A, c->lda, CUBLAS_OP_N, h ? DFS_SHAPE_HER : DFS_SHAPE_SYM, lower, 0},
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
    mm->beta_zero = c->kind == DFS_L3_TRMM ||
                    (host_scalars && c->beta[0] == 0.0 && (!z || c->beta[1] == 0.0));
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

int64_t dfs_mm_panel(const dfs_mm *mm, int panels)
{
    const int64_t dim = mm->out != DFS_OUT_ALL ? mm->n : mm->k;
    const int64_t p = panels > 0 ? panels : 1;
    const int64_t nb = (dim + p - 1) / p;
    return nb <= PANEL_MIN ? PANEL_MIN : (nb + PANEL_MIN - 1) / PANEL_MIN * PANEL_MIN;
}

int64_t dfs_mm_scratch(const dfs_mm *mm, int64_t nb)
{
    int64_t s = 0; /* elements */
    if (mm->A.shape != DFS_SHAPE_GEN || mm->B.shape != DFS_SHAPE_GEN)
        s += mm->k * mm->k;
    if (mm->fin != DFS_FIN_AXPBY)
        s += 3 * mm->n * mm->k;
    if (mm->c_aliases_b)
        s += mm->m * mm->n;
    if (mm->out != DFS_OUT_ALL)
        s += min64(nb, mm->n) * min64(nb, mm->n);
    return mm->cplx ? 2 * s : s;
}

/* The state of one run: the descriptor as degraded so far. */
typedef struct {
    dfs_mm mm;
    const dfs_mm_ops *ops;
    int z; /* doubles an element */
} run;

/* A copy of the run's element type; conj, herm: args.h's (complex only). */
static cublasStatus_t copyz(const run *r, const double *src, int64_t lds, double *dst,
                            int64_t ldd, int64_t rows, int64_t cols, int mode, int lower,
                            int unit, int conj, int herm)
{
    const int z = r->mm.cplx;
    const dfs_l3_copy cp = {src,  lds,   dst,  ldd, rows,      cols,
                            mode, lower, unit, z,   conj && z, herm && z};
    if (rows <= 0 || cols <= 0)
        return CUBLAS_STATUS_SUCCESS;
    return r->ops->copy(r->ops->ctx, &cp) ? CUBLAS_STATUS_EXECUTION_FAILED
                                           : CUBLAS_STATUS_SUCCESS;
}

static cublasStatus_t copy(const run *r, const double *src, int64_t lds, double *dst,
                           int64_t ldd, int64_t rows, int64_t cols, int mode, int lower,
                           int unit)
{
    return copyz(r, src, lds, dst, ldd, rows, cols, mode, lower, unit, 0, 0);
}

/* op(X)(r0, c0) as a GEMM operand's address (op kept), z doubles an element. */
static const double *at(const dfs_opnd *x, int64_t r0, int64_t c0, int z)
{
    return x->p + z * (x->op == CUBLAS_OP_N ? r0 + c0 * x->ld : c0 + r0 * x->ld);
}

/* C'(rows i0.., cols j0..) = alpha op(A)(i0.., k0..) op(B)(k0.., j0..) + beta C' for an
 * m x n x k block, C' at c (leading dimension ldc); tri: all of it, or (m = n) a triangle. */
static cublasStatus_t gemm_part(const run *r, int64_t i0, int64_t j0, int64_t k0, int64_t m,
                                int64_t n, int64_t k, double *c, int64_t ldc, dfs_tri tri)
{
    const dfs_mm *mm = &r->mm;
    if (m <= 0 || n <= 0)
        return CUBLAS_STATUS_SUCCESS;
    const dfs_gemm_call g = {.api = mm->cplx ? DFS_API_ZGEMM_64 : DFS_API_DGEMM_64,
                             .transa = mm->A.op,
                             .transb = mm->B.op,
                             .m = m,
                             .n = n,
                             .k = k,
                             .alpha = mm->alpha,
                             .A = at(&mm->A, i0, k0, r->z),
                             .lda = mm->A.ld,
                             .B = at(&mm->B, k0, j0, r->z),
                             .ldb = mm->B.ld,
                             .beta = mm->beta,
                             .C = c,
                             .ldc = ldc,
                             .batch = 1,
                             .algo = CUBLAS_GEMM_DEFAULT,
                             .type = mm->cplx ? DFS_C64 : DFS_R64,
                             .tri = tri};
    return r->ops->gemm(r->ops->ctx, &g);
}

static cublasStatus_t gemm(const run *r, int64_t i0, int64_t j0, int64_t k0, int64_t m,
                           int64_t n, int64_t k, double *c, int64_t ldc)
{
    return gemm_part(r, i0, j0, k0, m, n, k, c, ldc, DFS_TRI_ALL);
}

/* Materialises a structured operand x (k x k) at s: a dense matrix with x's op. */
static cublasStatus_t densify(run *r, dfs_opnd *x, double *s)
{
    const int64_t k = r->mm.k;
    const cublasStatus_t st =
        copyz(r, x->p, x->ld, s, k, k, k, x->shape == DFS_SHAPE_TRI ? DFS_L3_TRI : DFS_L3_SYM,
              x->lower, x->unit, 0, x->shape == DFS_SHAPE_HER);
    x->p = s;
    x->ld = k > 0 ? k : 1;
    return st;
}

/* SYM2: X = op(A) (n x k), Y = op(B) (k x n) staged as W = [X Y^T X] (n x 3k) at s; then
 * A = W(:, 0:2k), op N, and B = W(:, k:3k)^T: alpha A B + beta C, k' = 2k.  HER2: W = [X Y^H X]
 * and B = W(:, k:3k)^H (op(A) is N or C, op(B) the other; the staging applies the conjugates). */
static cublasStatus_t concatenate(run *r, double *s)
{
    dfs_mm *mm = &r->mm;
    const int64_t n = mm->n, k = mm->k, ld = n > 0 ? n : 1;
    const int her = mm->fin == DFS_FIN_HER2;
    const int xmode = mm->A.op == CUBLAS_OP_N ? DFS_L3_COPY : DFS_L3_COPY_T;
    const int ymode = mm->B.op == CUBLAS_OP_N ? DFS_L3_COPY_T : DFS_L3_COPY;
    const int xconj = mm->A.op == CUBLAS_OP_C, yconj = her && mm->B.op == CUBLAS_OP_N;
    cublasStatus_t st = copyz(r, mm->A.p, mm->A.ld, s, ld, n, k, xmode, 0, 0, xconj, 0);
    if (st == CUBLAS_STATUS_SUCCESS)
        st = copyz(r, mm->B.p, mm->B.ld, s + r->z * k * n, ld, n, k, ymode, 0, 0, yconj, 0);
    if (st == CUBLAS_STATUS_SUCCESS)
        st = copyz(r, mm->A.p, mm->A.ld, s + r->z * 2 * k * n, ld, n, k, xmode, 0, 0, xconj, 0);
    mm->A = (dfs_opnd){s, ld, CUBLAS_OP_N, DFS_SHAPE_GEN, 0, 0};
    mm->B = (dfs_opnd){s + r->z * k * n, ld, her ? CUBLAS_OP_C : CUBLAS_OP_T, DFS_SHAPE_GEN, 0, 0};
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
            st = gemm(r, i, 0, k0, ib, mm->n, k1 - k0, c + r->z * i, ldc);
        }
    } else if (triangular(&mm->B)) { /* op(B) is n x n: block columns */
        const int lo = op_lower(&mm->B);
        const int64_t np = (mm->n + nb - 1) / nb;
        for (int64_t p = 0; p < np && st == CUBLAS_STATUS_SUCCESS; p++) {
            const int64_t j = block(p, np, nb, !lo), jb = min64(nb, mm->n - j);
            const int64_t k0 = lo ? j : 0, k1 = lo ? mm->n : j + jb;
            st = gemm(r, 0, j, k0, mm->m, jb, k1 - k0, c + r->z * j * ldc, ldc);
        }
    } else {
        st = gemm(r, 0, 0, 0, mm->m, mm->n, mm->k, c, ldc);
    }
    return st;
}

/* The triangle `out` of C' (n x n at c, ldc) by one GEMM of the triangle where the engine
 * takes it (real data; ops->tri), else in panels of nb columns, the longest first; sd: nb x nb
 * of scratch. */
static cublasStatus_t triangle(const run *r, int64_t nb, double *c, int64_t ldc, double *sd)
{
    const dfs_mm *mm = &r->mm;
    const int lower = mm->out == DFS_OUT_LOWER;
    const int64_t n = mm->n, lds = min64(nb, n), np = (n + nb - 1) / nb;
    cublasStatus_t st = CUBLAS_STATUS_SUCCESS;
    if (r->ops->tri && !mm->cplx) { /* herm_diag: complex only */
        st = gemm_part(r, 0, 0, 0, n, n, mm->k, c, ldc, lower ? DFS_TRI_LOWER : DFS_TRI_UPPER);
        if (st != DFS_STATUS_DECLINED) /* declined: nothing written, the panels then */
            return st;
        st = CUBLAS_STATUS_SUCCESS;
    }
    for (int64_t p = 0; p < np && st == CUBLAS_STATUS_SUCCESS; p++) {
        const int64_t j = block(p, np, nb, !lower), jb = min64(nb, n - j);
        double *cjj = c + r->z * (j + j * ldc);
        const int h = mm->herm_diag;
        /* the panel below (lower) or above (upper) its diagonal block, straight into C */
        st = lower ? gemm(r, j + jb, j, 0, n - j - jb, jb, mm->k, cjj + r->z * jb, ldc)
                   : gemm(r, 0, j, 0, j, jb, mm->k, c + r->z * j * ldc, ldc);
        /* the diagonal block: computed whole into scratch, its triangle copied back (herm_diag:
         * Im(C_ii) read and written as 0) */
        if (st == CUBLAS_STATUS_SUCCESS && !mm->beta_zero)
            st = copyz(r, cjj, ldc, sd, lds, jb, jb, DFS_L3_COPY, 0, 0, 0, h);
        if (st == CUBLAS_STATUS_SUCCESS)
            st = gemm(r, j, j, 0, jb, jb, mm->k, sd, lds);
        if (st == CUBLAS_STATUS_SUCCESS)
            st = copyz(r, sd, lds, cjj, ldc, jb, jb, DFS_L3_MASK, lower, 0, 0, h);
    }
    return st;
}

cublasStatus_t dfs_mm_run(const dfs_mm *mm, int64_t nb, double *scratch, const dfs_mm_ops *ops)
{
    run r = {*mm, ops, mm->cplx ? 2 : 1};
    double *s = scratch;
    cublasStatus_t st = CUBLAS_STATUS_SUCCESS;
    if (mm->A.shape != DFS_SHAPE_GEN) {
        st = densify(&r, &r.mm.A, s);
        s += r.z * mm->k * mm->k;
    } else if (mm->B.shape != DFS_SHAPE_GEN) {
        st = densify(&r, &r.mm.B, s);
        s += r.z * mm->k * mm->k;
    }
    if (st == CUBLAS_STATUS_SUCCESS && mm->fin != DFS_FIN_AXPBY) {
        st = concatenate(&r, s);
        s += r.z * 3 * mm->n * mm->k;
    }
    /* C = B: the output into scratch first */
    double *c = mm->C;
    int64_t ldc = mm->ldc;
    if (mm->c_aliases_b) {
        c = s;
        ldc = mm->m > 0 ? mm->m : 1;
        s += r.z * mm->m * mm->n;
    }
    if (st == CUBLAS_STATUS_SUCCESS)
        st = mm->out == DFS_OUT_ALL ? all(&r, nb, c, ldc) : triangle(&r, nb, c, ldc, s);
    if (st == CUBLAS_STATUS_SUCCESS && mm->c_aliases_b)
        st = copy(&r, c, ldc, mm->C, mm->ldc, mm->m, mm->n, DFS_L3_COPY, 0, 0);
    return st;
}
