/* l3_trsm.c — TRSM (real and complex) as a recursive sweep of diagonal solves and GEMM updates
 * (l3_trsm.h says how; LEVEL3.md §3.5, §5.3).  No arithmetic here: only solves, GEMMs and
 * copies. */
#include "l3_trsm.h"

#include <string.h>

int dfs_l3_to_trsm(const dfs_l3_call *c, int alpha_dev, const double *minus_one,
                   const double *one, dfs_trsm *t)
{
    if (c->kind != DFS_L3_TRSM || (c->type == DFS_C64 && c->alpha_real))
        return 0;
    memset(t, 0, sizeof *t);
    t->m = c->m;
    t->n = c->n;
    t->A = c->A;
    t->lda = c->lda;
    t->left = c->side == CUBLAS_SIDE_LEFT;
    t->lower = c->uplo == CUBLAS_FILL_MODE_LOWER;
    t->trans = c->trans != CUBLAS_OP_N;
    t->unit = c->diag == CUBLAS_DIAG_UNIT;
    t->B = c->C; /* B is the output */
    t->ldb = c->ldb;
    t->alpha = c->alpha;
    t->alpha_dev = alpha_dev;
    t->minus_one = minus_one;
    t->one = one;
    t->cplx = c->type == DFS_C64;
    t->conj = t->cplx && c->trans == CUBLAS_OP_C;
    return 1;
}

/* T = op(A) on the left, op(A)^T on the right: T(r, c) is A[c + r lda] when this is 1. */
static int t_trans(const dfs_trsm *t)
{
    return t->left ? t->trans : !t->trans;
}

int dfs_trsm_forward(const dfs_trsm *t)
{
    return t->lower == !t_trans(t); /* T lower triangular */
}

int64_t dfs_trsm_order(const dfs_trsm *t)
{
    return t->left ? t->m : t->n;
}

/* Right-hand sides: columns of B on the left, rows on the right. */
static int64_t rhs(const dfs_trsm *t)
{
    return t->left ? t->n : t->m;
}

int64_t dfs_trsm_scratch(const dfs_trsm *t, int64_t nb)
{
    const int64_t order = dfs_trsm_order(t);
    return order > nb ? (t->cplx ? 2 : 1) * nb * rhs(t) : 0;
}

/* Rows j..j+jb of B' stored at v (leading dimension ld, B's layout): their address. */
static double *rows(const dfs_trsm *t, double *v, int64_t ld, int64_t j)
{
    return v + (t->cplx ? 2 : 1) * (t->left ? j : j * ld);
}

/* op(A)(r0, c0)'s address (a GEMM operand with op(A)'s op). */
static const double *opa(const dfs_trsm *t, int64_t r0, int64_t c0)
{
    return t->A + (t->cplx ? 2 : 1) * (t->trans ? c0 + r0 * t->lda : r0 + c0 * t->lda);
}

/* X_J := solve(T_JJ, s B'_J) for the rows j..j+jb of B' stored at bj (leading dimension ld,
 * B's layout); s: alpha at the first step, else 1. */
static cublasStatus_t solve(const dfs_trsm *t, const dfs_trsm_ops *ops, int64_t j, int64_t jb,
                            double *bj, int64_t ld, int first)
{
    dfs_l3_solve s = {.A = t->A + (t->cplx ? 2 : 1) * (j + j * t->lda),
                      .lda = t->lda,
                      .trans_a = t_trans(t),
                      .lower = dfs_trsm_forward(t),
                      .unit = t->unit,
                      .n = jb,
                      .nrhs = rhs(t),
                      .B = bj,
                      .rs = t->left ? 1 : ld,
                      .cs = t->left ? ld : 1,
                      .scale = first && t->alpha_dev ? t->alpha : NULL,
                      .scale_h = !first ? 1.0 : t->alpha_dev ? 0.0 : t->alpha[0],
                      .cplx = t->cplx,
                      .conj = t->conj,
                      .scale_hi = first && !t->alpha_dev && t->cplx ? t->alpha[1] : 0.0};
    return ops->solve(ops->ctx, &s) ? CUBLAS_STATUS_EXECUTION_FAILED : CUBLAS_STATUS_SUCCESS;
}

/* B'_R := s B'_R - T_RJ X_J for R = rows r0..r0+rn of B', X_J at x (leading dimension ldx, B's
 * layout), beta = s at beta. */
static cublasStatus_t update(const dfs_trsm *t, const dfs_trsm_ops *ops, int64_t j, int64_t jb,
                             int64_t r0, int64_t rn, const double *x, int64_t ldx,
                             const double *beta)
{
    const cublasOperation_t op = !t->trans ? CUBLAS_OP_N : t->conj ? CUBLAS_OP_C : CUBLAS_OP_T;
    const int z = t->cplx ? 2 : 1;
    dfs_gemm_call g = {.api = t->cplx ? DFS_API_ZGEMM_64 : DFS_API_DGEMM_64,
                       .k = jb,
                       .alpha = t->minus_one,
                       .beta = beta,
                       .ldc = t->ldb,
                       .batch = 1,
                       .algo = CUBLAS_GEMM_DEFAULT,
                       .type = t->cplx ? DFS_C64 : DFS_R64};
    if (t->left) { /* B(R, :) = -op(A)(R, J) X_J + s B(R, :) */
        g.transa = op;
        g.transb = CUBLAS_OP_N;
        g.m = rn;
        g.n = t->n;
        g.A = opa(t, r0, j);
        g.lda = t->lda;
        g.B = x;
        g.ldb = ldx;
        g.C = t->B + z * r0;
    } else { /* B(:, R) = -X_J op(A)(J, R) + s B(:, R) */
        g.transa = CUBLAS_OP_N;
        g.transb = op;
        g.m = t->m;
        g.n = rn;
        g.A = x;
        g.lda = ldx;
        g.B = opa(t, j, r0);
        g.ldb = t->lda;
        g.C = t->B + z * r0 * t->ldb;
    }
    return ops->gemm(ops->ctx, &g);
}

/* Copies jb rows of B' (B's layout) from src to dst. */
static cublasStatus_t copy(const dfs_trsm *t, const dfs_trsm_ops *ops, const double *src,
                           int64_t lds, double *dst, int64_t ldd, int64_t jb)
{
    const dfs_l3_copy cp = {src, lds, dst, ldd, t->left ? jb : t->m, t->left ? t->n : jb,
                            DFS_L3_COPY, 0, 0, t->cplx, 0, 0};
    return ops->copy(ops->ctx, &cp) ? CUBLAS_STATUS_EXECUTION_FAILED : CUBLAS_STATUS_SUCCESS;
}

/* The update GEMM of a part of len > nb rows of B' (J's X applied to R): its shape and ops in g
 * (no pointers). */
static void part_gemm(const dfs_trsm *t, int64_t len, int64_t nb, dfs_gemm_call *g)
{
    const int64_t leaves = (len + nb - 1) / nb, h = (leaves + 1) / 2 * nb;
    memset(g, 0, sizeof *g);
    g->api = t->cplx ? DFS_API_ZGEMM_64 : DFS_API_DGEMM_64;
    g->type = t->cplx ? DFS_C64 : DFS_R64;
    g->transa = t->left && t->trans ? CUBLAS_OP_T : CUBLAS_OP_N;
    g->transb = !t->left && t->trans ? CUBLAS_OP_T : CUBLAS_OP_N;
    g->m = t->left ? len - h : t->m;
    g->n = t->left ? t->n : len - h;
    g->k = h;
    g->batch = 1;
}

int dfs_trsm_largest_gemm(const dfs_trsm *t, int64_t nb, dfs_gemm_call *g)
{
    const int64_t order = dfs_trsm_order(t);
    if (order <= nb)
        return 0;
    part_gemm(t, order, nb, g);
    return 1;
}

/* The part of rows j..j+len of B' as a TRSM of its own: T's diagonal block, those rows of B',
 * alpha while they are untouched (first), else 1. */
static dfs_trsm sub_trsm(const dfs_trsm *t, int64_t j, int64_t len, int first)
{
    const int z = t->cplx ? 2 : 1;
    dfs_trsm s = *t;
    s.A = t->A + z * (j + j * t->lda);
    if (t->left)
        s.m = len;
    else
        s.n = len;
    s.B = rows(t, t->B, t->ldb, j);
    s.alpha = first ? t->alpha : t->one;
    return s;
}

/* The recursion's state: the first leaf is solved in scratch (leading dimension lds) and copied
 * into B after the first GEMM, which reads it there (pending until then). */
typedef struct {
    const dfs_trsm *t;
    const dfs_trsm_ops *ops;
    int64_t nb, lds;
    double *scratch;
    int pending;
    int64_t first_j, first_jb;
} sweep;

/* Rows j..j+len of B' solved; first: none of them touched yet (alpha still to apply).  Leaves of
 * at most nb rows are solved; a longer part is split into J, the first ceil(leaves / 2) leaves
 * in the sweep's order (from the top forward, from the bottom backward), and R, the rest: J
 * solved, R updated by one GEMM with J's X, R solved. */
static cublasStatus_t part(sweep *w, int64_t j, int64_t len, int first)
{
    const dfs_trsm *t = w->t;
    const dfs_trsm_ops *ops = w->ops;
    if (ops->trsm) { /* a leaf, or a part whose update the engine leaves to native: cuBLAS's */
        dfs_gemm_call g;
        if (len > w->nb)
            part_gemm(t, len, w->nb, &g);
        if (len <= w->nb || (ops->gemm_native && ops->gemm_native(ops->ctx, &g))) {
            const dfs_trsm s = sub_trsm(t, j, len, first);
            return ops->trsm(ops->ctx, &s);
        }
    }
    if (len <= w->nb) {
        if (!first || !w->scratch) /* a leaf in B (the only one: no scratch, no GEMM) */
            return solve(t, w->ops, j, len, rows(t, t->B, t->ldb, j), t->ldb, first);
        /* the first of several: in scratch until the first GEMM */
        cublasStatus_t st = copy(t, w->ops, rows(t, t->B, t->ldb, j), t->ldb, w->scratch, w->lds,
                                 len);
        if (st == CUBLAS_STATUS_SUCCESS)
            st = solve(t, w->ops, j, len, w->scratch, w->lds, 1);
        w->pending = st == CUBLAS_STATUS_SUCCESS;
        w->first_j = j;
        w->first_jb = len;
        return st;
    }
    const int fwd = dfs_trsm_forward(t);
    const int64_t leaves = (len + w->nb - 1) / w->nb, h = (leaves + 1) / 2 * w->nb;
    const int64_t jj = fwd ? j : j + len - h, r0 = fwd ? j + h : j;
    cublasStatus_t st = part(w, jj, h, first);
    if (st != CUBLAS_STATUS_SUCCESS)
        return st;
    /* R := s R - T_RJ X_J (s: alpha while R is untouched) */
    const int from_scratch = w->pending;
    st = update(t, w->ops, jj, h, r0, len - h,
                from_scratch ? w->scratch : rows(t, t->B, t->ldb, jj),
                from_scratch ? w->lds : t->ldb, first ? t->alpha : t->one);
    if (st == CUBLAS_STATUS_SUCCESS && from_scratch) {
        w->pending = 0;
        st = copy(t, w->ops, w->scratch, w->lds, rows(t, t->B, t->ldb, w->first_j), t->ldb,
                  w->first_jb);
    }
    return st == CUBLAS_STATUS_SUCCESS ? part(w, r0, len - h, 0) : st;
}

cublasStatus_t dfs_trsm_run(const dfs_trsm *t, int64_t nb, double *scratch,
                            const dfs_trsm_ops *ops)
{
    const int64_t order = dfs_trsm_order(t);
    sweep w = {t, ops, nb, t->left ? nb : (t->m > 0 ? t->m : 1),
               order > nb && !ops->trsm ? scratch : NULL, 0, 0, 0};
    return part(&w, 0, order, 1);
}
