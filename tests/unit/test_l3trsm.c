/* test_l3trsm.c — unit tests (Check) of shim/l3_trsm.c, the real TRSM as a recursive sweep of
 * diagonal solves and GEMM updates, run on the CPU with stand-ins that check and record every
 * call and compute it with the CPU twins: the solve of engines/l3/solve.h, the copy of args.h,
 * and repro_dgemm_host (each GEMM output correctly rounded) — together the CPU twin of what
 * EXBLAS_MODE=repro computes on a GPU.  For every side, uplo, op N/T/C, diag, orders a multiple
 * of nb or not, below it, nb = 1, host and "device" alpha (the scale read through a pointer):
 *   - the calls as any correct sweep makes them, whatever its order and nesting (check_order):
 *     each row of B' (B, or B^T on the right) solved once in a block of at most nb rows after
 *     every row before it (forward: above; backward: below) was solved and its term applied;
 *     each GEMM with alpha = -1 applying solved rows' terms to unsolved rows after them, each
 *     term once; alpha applied once per row, where it is first touched (a solve's scale or a
 *     GEMM's beta), 1 after; a GEMM fewer than blocks; each GEMM's A operand op(A)'s block
 *     beside its rows; the blocked sweep before the recursion passes these checks too;
 *   - every operand inside A, B or the scratch; A unchanged, B's padding rows unchanged;
 *   - the result X a solution with a small backward error: max |op(A) X - alpha B| (left;
 *     X op(A) on the right), in long double, within 8 order 2^-53 (|A| |X| + |alpha B|) per
 *     element, on well-conditioned systems, with NaN in A's other triangle, padding and unit
 *     diagonal (never read: a NaN read shows in X).
 * Each case also runs with parts left to a stand-in cuBLAS TRSM (ops->trsm: every leaf; with
 * ops->gemm_native, every part whose update GEMM has k <= 2 nb), which records the part and
 * solves it by a sweep of its own: the same checks over all the calls, every solve inside a
 * part, and no GEMM outside them that the engine would leave to native.
 * Besides: a first GEMM declined leaves B untouched, a later one stops the sweep; one block
 * needs no scratch and no GEMM. */
#include "../../include/reprohost.h"
#include "../../shim/l3_trsm.h"

#include "check_main.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------- the buffers and the calls' records ---------- */

static double *bufA, *bufB, *bufS;
static int64_t nA, nB, nS;
static dfs_trsm T; /* the case being run */
static char problem[256];
static int gemm_calls, decline_at;
static int depth;         /* inside stand_trsm */
static int64_t native_k;  /* stand_gemm_native: GEMMs of k <= native_k left to native */
static int64_t case_nb;   /* the case's blocks (a part's own sweep too) */

enum { MAXREC = 512 };
typedef struct {
    char what;     /* 'S' solve, 'G' GEMM, 'P' a part left to the stand-in cuBLAS TRSM */
    char in_part;  /* made inside such a part (its stand-in's own sweep) */
    int64_t j, jb; /* the block of B' (its X, for a GEMM) */
    int64_t r0, rn; /* a GEMM's rows of B' */
    double scale, beta, alpha;
} rec;
static rec recs[MAXREC];
static int nrec;

static void misuse(const char *what)
{
    if (!problem[0])
        snprintf(problem, sizeof problem, "%s", what);
}

/* Whether rows x cols at p (leading dimension ld) lie inside buf[0..n). */
static int inside(const double *p, int64_t rows, int64_t cols, int64_t ld, const double *buf,
                  int64_t n)
{
    if (!buf || p < buf || p >= buf + n)
        return 0;
    return ld >= rows && (p - buf) + (cols - 1) * ld + rows <= n;
}

/* The row of B' where p (inside B) starts. */
static int64_t bprow(const double *p)
{
    const int64_t off = p - bufB;
    if (T.left ? off >= T.ldb : off % T.ldb != 0)
        misuse("a block of B that does not start at its first row (left) or column (right)");
    return T.left ? off : off / T.ldb;
}

static int64_t order(void)
{
    return T.left ? T.m : T.n;
}

static int stand_solve(void *ctx, const dfs_l3_solve *s)
{
    (void)ctx;
    const int64_t off = s->A - bufA;
    if (s->A < bufA || off % (T.lda + 1) != 0) {
        misuse("a solve whose triangle is not a diagonal block of A");
        return 1;
    }
    const int64_t j = off / (T.lda + 1), rhs = T.left ? T.n : T.m;
    const int in_s = s->B == bufS && bufS;
    const int64_t rows = T.left ? s->n : rhs, cols = T.left ? rhs : s->n;
    const int64_t ld = T.left ? s->cs : s->rs;
    if (s->n < 1 || s->n > DFS_L3_SOLVE_MAX || j + s->n > order() || s->nrhs != rhs ||
        (T.left ? s->rs != 1 : s->cs != 1) || !inside(s->A, s->n, s->n, T.lda, bufA, nA) ||
        !(in_s ? inside(s->B, rows, cols, ld, bufS, nS) : inside(s->B, rows, cols, ld, bufB, nB))) {
        misuse("a solve out of place");
        return 1;
    }
    if (!in_s && bprow(s->B) != j)
        misuse("a solve of rows of B' other than its triangle's");
    if (nrec < MAXREC)
        recs[nrec++] = (rec){'S', depth > 0, j, s->n, 0, 0, s->scale ? *s->scale : s->scale_h,
                             0, 0};
    dfs_l3_solve_host(s);
    return 0;
}

static int stand_copy(void *ctx, const dfs_l3_copy *cp)
{
    (void)ctx;
    const int to_s = cp->dst == bufS;
    if (cp->mode != DFS_L3_COPY || !bufS ||
        !(to_s ? inside(cp->dst, cp->rows, cp->cols, cp->ldd, bufS, nS) &&
                     inside(cp->src, cp->rows, cp->cols, cp->lds, bufB, nB)
               : inside(cp->src, cp->rows, cp->cols, cp->lds, bufS, nS) &&
                     inside(cp->dst, cp->rows, cp->cols, cp->ldd, bufB, nB))) {
        misuse("a copy other than between B and the scratch");
        return 1;
    }
    dfs_l3_copy_host(cp);
    return 0;
}

static char opc(cublasOperation_t op)
{
    return op == CUBLAS_OP_N ? 'N' : 'T';
}

static cublasStatus_t stand_gemm(void *ctx, const dfs_gemm_call *g)
{
    (void)ctx;
    if (++gemm_calls == decline_at)
        return DFS_STATUS_DECLINED;
    const cublasOperation_t op = T.trans ? CUBLAS_OP_T : CUBLAS_OP_N;
    const int64_t rhs = T.left ? T.n : T.m, rn = T.left ? g->m : g->n;
    const double *x = T.left ? g->B : g->A;
    const int64_t ldx = T.left ? g->ldb : g->lda;
    const int64_t xr = T.left ? g->k : rhs, xc = T.left ? rhs : g->k;
    const int x_s = x == bufS && bufS;
    if (g->type != DFS_R64 || g->batch != 1 || g->k < 1 || rn < 1 ||
        (T.left ? g->n != rhs || g->transa != op || g->transb != CUBLAS_OP_N
                : g->m != rhs || g->transa != CUBLAS_OP_N || g->transb != op) ||
        !inside(g->C, g->m, g->n, g->ldc, bufB, nB) || g->ldc != T.ldb ||
        !(x_s ? inside(x, xr, xc, ldx, bufS, nS) : inside(x, xr, xc, ldx, bufB, nB))) {
        misuse("a GEMM out of place");
        return CUBLAS_STATUS_INVALID_VALUE;
    }
    const int64_t r0 = bprow(g->C);
    /* X's rows of B': in B, or the scratch's (the first block solved, its first record) */
    const int64_t jx = x_s ? (nrec > 0 && recs[0].what == 'S' ? recs[0].j : -1) : bprow(x),
                  jb = g->k;
    if (jx < 0 || (x_s && jb != recs[0].jb))
        misuse("a GEMM whose X is in the scratch but not the first block solved");
    /* op(A)(R, J) on the left, op(A)(J, R) on the right */
    const int64_t ar = T.left ? r0 : jx, ac = T.left ? jx : r0;
    const double *want = T.trans ? T.A + ac + ar * T.lda : T.A + ar + ac * T.lda;
    const double *a = T.left ? g->A : g->B;
    if (a != want || (T.left ? g->lda : g->ldb) != T.lda)
        misuse("a GEMM whose A operand is not op(A)'s block beside the diagonal block");
    if (nrec < MAXREC)
        recs[nrec++] = (rec){'G', depth > 0, jx, jb, r0, rn, 0, *g->beta, *g->alpha};
    repro_dgemm_host(opc(g->transa), opc(g->transb), g->m, g->n, g->k, *g->alpha, g->A, g->lda,
                     g->B, g->ldb, *g->beta, g->C, g->ldc);
    return CUBLAS_STATUS_SUCCESS;
}

/* cuBLAS's TRSM on a part: recorded, then solved by a sweep of its own through the plain
 * stand-ins (no scratch: its first block solved in B), whose solves and GEMMs check_order sees
 * with the rest (the part's A is T's diagonal block, its B the rows of B' beside it). */
static cublasStatus_t stand_trsm(void *ctx, const dfs_trsm *sub)
{
    (void)ctx;
    const int64_t len = T.left ? sub->m : sub->n;
    if (sub->left != T.left || sub->lower != T.lower || sub->trans != T.trans ||
        sub->unit != T.unit || (T.left ? sub->n != T.n : sub->m != T.m) || sub->lda != T.lda ||
        sub->ldb != T.ldb || len < 1 || sub->A < bufA || (sub->A - bufA) % (T.lda + 1) != 0 ||
        bprow(sub->B) != (sub->A - bufA) / (T.lda + 1) ||
        (sub->alpha != T.alpha && sub->alpha != T.one)) {
        misuse("a part that is not a diagonal block of T with its rows of B'");
        return CUBLAS_STATUS_INVALID_VALUE;
    }
    if (nrec < MAXREC)
        recs[nrec++] = (rec){'P', 0, bprow(sub->B), len, 0, 0, *sub->alpha, 0, 0};
    const dfs_trsm_ops plain = {stand_solve, stand_copy, stand_gemm, NULL, NULL, NULL};
    depth++;
    const cublasStatus_t st = dfs_trsm_run(sub, case_nb, NULL, &plain);
    depth--;
    return st;
}

static int stand_gemm_native(void *ctx, const dfs_gemm_call *g)
{
    (void)ctx;
    return g->k <= native_k;
}

/* ---------- data ---------- */

static uint64_t rng;

static double uniform(void) /* in [-1, 1), full mantissas */
{
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(int64_t)(rng >> 11) / 4503599627370496.0 - 1.0;
}

static int in_tri(int lower, int64_t i, int64_t j)
{
    return lower ? i >= j : i <= j;
}

/* ---------- one case ---------- */

typedef struct {
    int left, lower, trans, unit, dev;
    int64_t m, n, nb;
    double alpha;
    int parts; /* 1: leaves to the stand-in cuBLAS TRSM; 2: and parts whose GEMM has k <= 2 nb */
} cfg;

/* op(A)(i, j) as TRSM reads it */
static long double opa(const cfg *c, const double *A, int64_t lda, int64_t i, int64_t j)
{
    const int64_t r = c->trans ? j : i, q = c->trans ? i : j;
    if (!in_tri(c->lower, r, q))
        return 0.0L;
    return r == q && c->unit ? 1.0L : (long double)A[r + q * lda];
}

/* The calls against what every correct sweep of blocks of at most nb rows of B' makes, in
 * whatever order and nesting (B' row q is "before" r when q < r forward, q > r backward):
 *   - each row solved exactly once, in a block of at most nb rows, after every row before it
 *     was solved and its contribution to the block's rows applied;
 *   - each GEMM: alpha -1, X the rows J all solved, R rows not yet solved and all after J, each
 *     pair (r in R, q in J) covered by no earlier GEMM;
 *   - alpha applied once per row, where it is first touched: a solve's scale, a GEMM's beta (the
 *     same for all its rows), alpha there and 1 everywhere after;
 *   - as many GEMMs as blocks less one. */
static void check_order(const cfg *c, int64_t k, int fwd, int line)
{
    char *solved = calloc((size_t)k, 1), *touched = calloc((size_t)k, 1);
    char *cov = calloc((size_t)(k * k), 1); /* cov[r k + q]: q's term applied to r */
    int solves = 0, gemms = 0;
#define BEFORE(q, r) (fwd ? (q) < (r) : (q) > (r))
    for (int i = 0; i < nrec; i++) {
        const rec *x = &recs[i];
        if (x->what == 'P')
            continue; /* its solves and GEMMs follow it */
        if (x->what == 'S') {
            solves++;
            ck_assert_msg(x->jb >= 1 && x->jb <= c->nb && x->j >= 0 && x->j + x->jb <= k,
                          "line %d: call %d solves rows %lld+%lld", line, i, (long long)x->j,
                          (long long)x->jb);
            for (int64_t r = x->j; r < x->j + x->jb; r++) {
                ck_assert_msg(!solved[r], "line %d: row %lld solved twice", line, (long long)r);
                for (int64_t q = 0; q < k; q++)
                    if (BEFORE(q, r) && !(q >= x->j && q < x->j + x->jb))
                        ck_assert_msg(solved[q] && cov[r * k + q],
                                      "line %d: row %lld solved before row %lld's term", line,
                                      (long long)r, (long long)q);
                const double want = touched[r] ? 1.0 : c->alpha;
                ck_assert_msg(x->scale == want, "line %d: row %lld's solve scaled by %g, not %g",
                              line, (long long)r, x->scale, want);
            }
            for (int64_t r = x->j; r < x->j + x->jb; r++)
                solved[r] = touched[r] = 1;
        } else {
            gemms++;
            ck_assert_msg(x->alpha == -1.0 && x->rn >= 1 && x->r0 >= 0 && x->r0 + x->rn <= k &&
                              x->j >= 0 && x->j + x->jb <= k,
                          "line %d: call %d, a GEMM of rows %lld+%lld, X %lld+%lld, alpha %g",
                          line, i, (long long)x->r0, (long long)x->rn, (long long)x->j,
                          (long long)x->jb, x->alpha);
            const char t0 = touched[x->r0];
            const double want = t0 ? 1.0 : c->alpha;
            ck_assert_msg(x->beta == want, "line %d: call %d's beta %g, not %g", line, i,
                          x->beta, want);
            for (int64_t r = x->r0; r < x->r0 + x->rn; r++) {
                ck_assert_msg(!solved[r] && touched[r] == t0,
                              "line %d: call %d updates row %lld, solved or scaled apart", line,
                              i, (long long)r);
                for (int64_t q = x->j; q < x->j + x->jb; q++) {
                    ck_assert_msg(solved[q] && BEFORE(q, r) && !cov[r * k + q],
                                  "line %d: call %d applies row %lld's term to row %lld out of "
                                  "turn or again", line, i, (long long)q, (long long)r);
                    cov[r * k + q] = 1;
                }
                touched[r] = 1;
            }
        }
    }
#undef BEFORE
    for (int64_t r = 0; r < k; r++)
        ck_assert_msg(solved[r], "line %d: row %lld never solved", line, (long long)r);
    ck_assert_msg(nrec < MAXREC && gemms == solves - 1, "line %d: %d GEMMs for %d blocks", line,
                  gemms, solves);
    free(solved);
    free(touched);
    free(cov);
}

static void run_case(const cfg *c, int line)
{
    const int64_t k = c->left ? c->m : c->n, lda = k + 2, ldb = c->m + 3;
    nA = lda * k;
    nB = ldb * c->n;
    bufA = malloc((size_t)nA * sizeof(double));
    bufB = malloc((size_t)nB * sizeof(double));
    double *A0 = malloc((size_t)nA * sizeof(double)), *B0 = malloc((size_t)nB * sizeof(double));
    rng = (uint64_t)line * 7919u + 17u;
    for (int64_t e = 0; e < nA; e++) {
        const int64_t i = e % lda, j = e / lda;
        const int used = i < k && in_tri(c->lower, i, j) && !(i == j && c->unit);
        /* a well-conditioned triangle: |diagonal| in [1, 2), the rest small */
        const double sign = i == j && uniform() < 0 ? -1.0 : 1.0; /* drawn before the size */
        const double v = i == j ? sign * (1.5 + 0.5 * uniform()) : uniform() / (double)k;
        bufA[e] = used ? v : NAN;
    }
    for (int64_t e = 0; e < nB; e++)
        bufB[e] = e % ldb < c->m ? uniform() : NAN;
    memcpy(A0, bufA, (size_t)nA * sizeof(double));
    memcpy(B0, bufB, (size_t)nB * sizeof(double));
    static const double pm[2] = {-1.0, 1.0};
    const dfs_l3_call call = {.kind = DFS_L3_TRSM,
                              .type = DFS_R64,
                              .side = c->left ? CUBLAS_SIDE_LEFT : CUBLAS_SIDE_RIGHT,
                              .uplo = c->lower ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER,
                              .trans = c->trans == 0   ? CUBLAS_OP_N
                                       : c->trans == 1 ? CUBLAS_OP_T
                                                       : CUBLAS_OP_C,
                              .diag = c->unit ? CUBLAS_DIAG_UNIT : CUBLAS_DIAG_NON_UNIT,
                              .m = c->m,
                              .n = c->n,
                              .k = k,
                              .alpha = &c->alpha,
                              .alpha_real = 1,
                              .A = bufA,
                              .lda = lda,
                              .B = bufB,
                              .ldb = ldb,
                              .C = bufB,
                              .ldc = ldb};
    ck_assert(dfs_l3_to_trsm(&call, c->dev, &pm[0], &pm[1], &T));
    nS = dfs_trsm_scratch(&T, c->nb);
    bufS = nS ? malloc((size_t)nS * sizeof(double)) : NULL;
    for (int64_t e = 0; e < nS; e++)
        bufS[e] = NAN;
    problem[0] = 0;
    nrec = 0;
    gemm_calls = 0;
    case_nb = c->nb;
    native_k = c->parts == 2 ? 2 * c->nb : 0;
    const dfs_trsm_ops ops = {stand_solve, stand_copy, stand_gemm, NULL,
                              c->parts ? stand_trsm : NULL,
                              c->parts == 2 ? stand_gemm_native : NULL};
    const cublasStatus_t st = dfs_trsm_run(&T, c->nb, bufS, &ops);
    ck_assert_msg(!problem[0], "line %d: %s", line, problem);
    ck_assert_msg(st == CUBLAS_STATUS_SUCCESS, "line %d: status %d", line, (int)st);
    /* the calls, as any sweep must make them (check_order) */
    const int fwd = (c->lower != 0) == (c->left ? c->trans == 0 : c->trans != 0);
    ck_assert_int_eq(dfs_trsm_forward(&T), fwd);
    check_order(c, k, fwd, line);
    /* with parts: every solve inside one; a part is a leaf or one whose own update GEMM (k: the
     * first half of its blocks) goes native; no GEMM outside the parts that would */
    for (int i = 0; c->parts && i < nrec; i++) {
        const rec *x = &recs[i];
        const int64_t blocks = (x->jb + c->nb - 1) / c->nb, h = (blocks + 1) / 2 * c->nb;
        ck_assert_msg(x->what != 'S' || x->in_part, "line %d: a solve outside the parts", line);
        ck_assert_msg(x->what != 'P' || x->jb <= c->nb || h <= native_k,
                      "line %d: a part of %lld rows (its GEMM's k %lld) left to cuBLAS", line,
                      (long long)x->jb, (long long)h);
        ck_assert_msg(x->what != 'G' || x->in_part || x->jb > native_k,
                      "line %d: a GEMM of k %lld outside the parts", line, (long long)x->jb);
    }
    /* dfs_trsm_largest_gemm: the largest GEMM made, its shape and ops */
    dfs_gemm_call top;
    const int has_top = dfs_trsm_largest_gemm(&T, c->nb, &top);
    ck_assert_int_eq(has_top, k > c->nb);
    int64_t most = 0, hit = 0;
    for (int i = 0; i < nrec; i++)
        if (recs[i].what == 'G') {
            most = recs[i].rn * recs[i].jb > most ? recs[i].rn * recs[i].jb : most;
            hit |= has_top && recs[i].rn == (c->left ? top.m : top.n) && recs[i].jb == top.k;
        }
    ck_assert_msg(!has_top || (hit && top.k * (c->left ? top.m : top.n) == most &&
                               (c->left ? top.n : top.m) == (c->left ? c->n : c->m) &&
                               (c->left ? top.transa : top.transb) ==
                                   (c->trans ? CUBLAS_OP_T : CUBLAS_OP_N)),
                  "line %d: dfs_trsm_largest_gemm's %lld x %lld x %lld is not the largest made",
                  line, (long long)top.m, (long long)top.n, (long long)top.k);
    /* A unchanged, B's padding unchanged */
    ck_assert_msg(!memcmp(A0, bufA, (size_t)nA * sizeof(double)), "line %d: A changed", line);
    for (int64_t e = 0; e < nB; e++)
        if (e % ldb >= c->m)
            ck_assert_msg(!memcmp(&bufB[e], &B0[e], sizeof(double)),
                          "line %d: B's padding written", line);
    /* the backward error, element by element */
    for (int64_t j = 0; j < c->n; j++)
        for (int64_t i = 0; i < c->m; i++) {
            long double r = 0, s = 0;
            for (int64_t l = 0; l < k; l++) {
                const long double a = c->left ? opa(c, A0, lda, i, l) : opa(c, A0, lda, l, j);
                const long double x = c->left ? bufB[l + j * ldb] : bufB[i + l * ldb];
                r += a * x;
                s += fabsl(a * x);
            }
            const long double ab = (long double)c->alpha * B0[i + j * ldb];
            r -= ab;
            s += fabsl(ab);
            const long double bound = 8.0L * (long double)k * ldexpl(1.0L, -53) * s;
            ck_assert_msg(fabsl(r) <= bound,
                          "line %d: residual %Lg at (%lld, %lld) above %Lg (X = %g)", line, r,
                          (long long)i, (long long)j, bound, bufB[i + j * ldb]);
        }
    free(bufA);
    free(bufB);
    free(bufS);
    free(A0);
    free(B0);
    bufA = bufB = bufS = NULL;
}

/* ---------- the cases ---------- */

/* order, right-hand sides, nb: a multiple of nb, not, below it, nb = 1, one block exactly */
static const int64_t shapes[][3] = {{17, 3, 4}, {16, 5, 4}, {5, 2, 8},  {7, 3, 1},
                                    {8, 1, 8},  {9, 4, 8},  {23, 6, 5}, {1, 1, 1}};
static const double alphas[3] = {1.0, -2.5, 0.75};

START_TEST(sweep)
{
    int line = 0;
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
        for (int left = 0; left < 2; left++)
            for (int lower = 0; lower < 2; lower++)
                for (int trans = 0; trans < 3; trans++)
                    for (int unit = 0; unit < 2; unit++)
                        for (int dev = 0; dev < 2; dev++)
                            for (int parts = 0; parts < 3; parts++) {
                                const int64_t o = shapes[s][0], r = shapes[s][1];
                                const cfg c = {left,         lower,        trans,
                                               unit,         dev,          left ? o : r,
                                               left ? r : o, shapes[s][2], alphas[line % 3],
                                               parts};
                                run_case(&c, ++line);
                            }
}
END_TEST

/* The first GEMM declined: B untouched (its first block was solved in scratch); the second:
 * the sweep stops with that status. */
START_TEST(declines)
{
    for (int at = 1; at <= 2; at++)
        for (int left = 0; left < 2; left++) {
            static const double alpha = 3.0, pm[2] = {-1.0, 1.0};
            const int64_t m = left ? 10 : 3, n = left ? 3 : 10, k = 10;
            double *A = calloc((size_t)(k * k), sizeof(double)), B[30], B0[30];
            for (int64_t i = 0; i < k; i++)
                A[i + i * k] = 2.0;
            for (int e = 0; e < 30; e++)
                B[e] = B0[e] = e + 1;
            const dfs_l3_call call = {.kind = DFS_L3_TRSM, .type = DFS_R64,
                                      .side = left ? CUBLAS_SIDE_LEFT : CUBLAS_SIDE_RIGHT,
                                      .uplo = CUBLAS_FILL_MODE_LOWER, .trans = CUBLAS_OP_N,
                                      .diag = CUBLAS_DIAG_NON_UNIT, .m = m, .n = n, .k = k,
                                      .alpha = &alpha, .alpha_real = 1, .A = A, .lda = k,
                                      .B = B, .ldb = m, .C = B, .ldc = m};
            ck_assert(dfs_l3_to_trsm(&call, 0, &pm[0], &pm[1], &T));
            bufA = A;
            nA = k * k;
            bufB = B;
            nB = 30;
            nS = dfs_trsm_scratch(&T, 4);
            ck_assert_int_eq(nS, 12);
            double S[12];
            bufS = S;
            problem[0] = 0;
            nrec = 0;
            gemm_calls = 0;
            decline_at = at;
            const dfs_trsm_ops ops = {stand_solve, stand_copy, stand_gemm, NULL, NULL, NULL};
            ck_assert_int_eq(dfs_trsm_run(&T, 4, S, &ops), DFS_STATUS_DECLINED);
            ck_assert_msg(!problem[0], "%s", problem);
            ck_assert_int_eq(gemm_calls, at);
            if (at == 1)
                ck_assert_msg(!memcmp(B, B0, sizeof B), "the first GEMM declined, B written");
            else
                ck_assert_msg(memcmp(B, B0, sizeof B), "the second GEMM declined, B unwritten");
            decline_at = 0;
            free(A);
            bufA = bufB = bufS = NULL;
        }
}
END_TEST

START_TEST(records)
{
    static const double alpha = 1.0, pm[2] = {-1.0, 1.0};
    double A[4] = {1, 0, 0, 1}, B[4] = {1, 2, 3, 4};
    dfs_l3_call c = {.kind = DFS_L3_TRSM, .type = DFS_R64, .side = CUBLAS_SIDE_LEFT,
                     .uplo = CUBLAS_FILL_MODE_UPPER, .trans = CUBLAS_OP_N,
                     .diag = CUBLAS_DIAG_UNIT, .m = 2, .n = 2, .k = 2, .alpha = &alpha,
                     .alpha_real = 1, .A = A, .lda = 2, .B = B, .ldb = 2, .C = B, .ldc = 2};
    dfs_trsm t;
    ck_assert(dfs_l3_to_trsm(&c, 0, &pm[0], &pm[1], &t));
    ck_assert_int_eq(dfs_trsm_scratch(&t, 2), 0); /* one block: no scratch, no GEMM */
    dfs_gemm_call g;
    ck_assert(!dfs_trsm_largest_gemm(&t, 2, &g));
    ck_assert_int_eq(dfs_trsm_scratch(&t, 1), 2);
    ck_assert(!dfs_trsm_forward(&t));
    c.type = DFS_C64;
    ck_assert(!dfs_l3_to_trsm(&c, 0, &pm[0], &pm[1], &t));
    c.type = DFS_R64;
    c.kind = DFS_L3_TRMM;
    ck_assert(!dfs_l3_to_trsm(&c, 0, &pm[0], &pm[1], &t));
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("l3trsm");
    TCase *t = tcase_create("sweep");
    tcase_set_timeout(t, 120);
    tcase_add_test(t, sweep);
    tcase_add_test(t, declines);
    tcase_add_test(t, records);
    suite_add_tcase(s, t);
    return s;
}
