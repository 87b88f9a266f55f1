/* test_l3zmm.c — unit tests (Check) of shim/l3_mm.c on complex data: Z SYRK, SYRKX, SYR2K, SYMM,
 * TRMM and HERK, HERKX, HER2K, HEMM turned into descriptors and degraded into complex GEMMs, run
 * with a stand-in complex GEMM and the copy's CPU form (engines/l3/args.h) that check every
 * operand lies inside A, B, C or the scratch, and record for each element of C and the scratch
 * how often it is written and the inner dimension of the GEMM that finished it (carried along by
 * copies).  Data are small Gaussian integers, so every sum is exact and the outputs must equal
 * the routines' definitions bit for bit: the conjugates of op C and of the Hermitian kinds, the
 * Hermitian operand mirrored conjugated with its diagonal's imaginary part not read (HEMM: NaN
 * is stored there), C's diagonal read and written with imaginary part 0 (HERK, HERKX, HER2K: NaN
 * is stored there, which Re(beta c) would show), the unit diagonal 1 + 0i.  For every case:
 * each output of the triangle (or matrix) written once, by one GEMM of the whole inner dimension
 * (2k for the k-concatenated SYR2K, HER2K); the other triangle and C's padding keep their
 * sentinels; NaN in what is not read (A's other triangle, a unit diagonal, C when beta = 0).
 * Besides: what the descriptor does not cover (real scalars in a complex record, Zsyrk op C,
 * Zherk op T, HER2K with a non-real or a device alpha), and the first GEMM declining leaving C
 * untouched. */
#include "l3_stub.h"

#include "check_main.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------- complex arithmetic on exact data ---------- */

typedef struct {
    double re, im;
} cx;

static cx cmul(cx a, cx b)
{
    return (cx){a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}

static cx cadd(cx a, cx b)
{
    return (cx){a.re + b.re, a.im + b.im};
}

static cx cconj(cx a)
{
    return (cx){a.re, -a.im};
}

static cx get(const double *p, int64_t ld, int64_t i, int64_t j)
{
    return (cx){p[2 * (i + j * ld)], p[2 * (i + j * ld) + 1]};
}

/* op(X)(i, j) of a complex X */
static cx opel(const double *p, int64_t ld, cublasOperation_t op, int64_t i, int64_t j)
{
    if (op == CUBLAS_OP_N)
        return get(p, ld, i, j);
    const cx v = get(p, ld, j, i);
    return op == CUBLAS_OP_C ? cconj(v) : v;
}

/* ---------- the stand-ins ---------- */

static cublasStatus_t stand_gemm(void *ctx, const dfs_gemm_call *g)
{
    (void)ctx;
    if (g->tri != DFS_TRI_ALL) { /* the engine offers it (ops.tri), for real data only */
        misuse("a triangle GEMM on complex data");
        return CUBLAS_STATUS_INVALID_VALUE;
    }
    if (l3s_declines())
        return DFS_STATUS_DECLINED;
    const int okop = (g->transa == CUBLAS_OP_N || g->transa == CUBLAS_OP_T ||
                      g->transa == CUBLAS_OP_C) &&
                     (g->transb == CUBLAS_OP_N || g->transb == CUBLAS_OP_T ||
                      g->transb == CUBLAS_OP_C);
    if (g->type != DFS_C64 || g->api != DFS_API_ZGEMM_64 || g->batch != 1 || g->m <= 0 ||
        g->n <= 0 || g->k < 0 || !okop) {
        misuse("a GEMM record that is not one complex GEMM cuBLAS would take");
        return CUBLAS_STATUS_INVALID_VALUE;
    }
    int64_t oc = 0;
    const int rc = l3s_gemm_regions(g, &oc, "a GEMM operand out of place");
    if (rc < 0)
        return CUBLAS_STATUS_INVALID_VALUE;
    const cx alpha = {g->alpha[0], g->alpha[1]}, beta = {g->beta[0], g->beta[1]};
    const int bz = beta.re == 0.0 && beta.im == 0.0;
    region *o = &reg[rc];
    for (int64_t j = 0; j < g->n; j++)
        for (int64_t i = 0; i < g->m; i++) {
            cx s = {0, 0};
            for (int64_t l = 0; l < g->k; l++)
                s = cadd(s, cmul(opel(g->A, g->lda, g->transa, i, l),
                                 opel(g->B, g->ldb, g->transb, l, j)));
            const int64_t e = oc + i + j * g->ldc;
            cx r = cmul(alpha, s);
            if (!bz)
                r = cadd(r, cmul(beta, (cx){o->p[2 * e], o->p[2 * e + 1]}));
            o->p[2 * e] = r.re;
            o->p[2 * e + 1] = r.im;
            o->writes[e]++;
            o->k[e] = g->k;
        }
    return CUBLAS_STATUS_SUCCESS;
}

static int stand_copy(void *ctx, const dfs_l3_copy *cp)
{
    (void)ctx;
    if (!cp->cplx) {
        misuse("a real copy of complex data");
        return 1;
    }
    int rs;
    int64_t os = 0, od = 0;
    const int rd = l3s_copy_regions(cp, &rs, &os, &od, "a copy out of place");
    if (rd < 0)
        return 1;
    for (int64_t j = 0; j < cp->cols; j++)
        for (int64_t i = 0; i < cp->rows; i++) {
            int64_t r, c;
            int one;
            const int from = dfs_l3_copy_from(cp, i, j, &r, &c, &one);
            if (from < 0)
                continue;
            const int64_t e = od + i + j * cp->ldd;
            reg[rd].writes[e]++;
            reg[rd].k[e] = from ? reg[rs].k[os + r + c * cp->lds] : -1;
        }
    dfs_l3_copy_host(cp);
    return 0;
}

/* ---------- the routines' definitions ---------- */

static int hermitian(dfs_l3_kind k)
{
    return k == DFS_L3_HERK || k == DFS_L3_HERKX || k == DFS_L3_HER2K || k == DFS_L3_HEMM;
}

/* A(i, j) as SYMM/HEMM (sym) or TRMM reads it. */
static cx struct_el(const dfs_l3_call *c, int sym, int64_t i, int64_t j)
{
    const int lower = c->uplo == CUBLAS_FILL_MODE_LOWER;
    if (sym) {
        if (hermitian(c->kind) && i == j)
            return (cx){get(c->A, c->lda, i, i).re, 0.0};
        if (in_tri(lower, i, j))
            return get(c->A, c->lda, i, j);
        const cx v = get(c->A, c->lda, j, i);
        return hermitian(c->kind) ? cconj(v) : v;
    }
    if (!in_tri(lower, i, j))
        return (cx){0, 0};
    return i == j && c->diag == CUBLAS_DIAG_UNIT ? (cx){1, 0} : get(c->A, c->lda, i, j);
}

/* op(A)(r, q) of TRMM */
static cx tri_op(const dfs_l3_call *c, int64_t r, int64_t q)
{
    if (c->trans == CUBLAS_OP_N)
        return struct_el(c, 0, r, q);
    const cx v = struct_el(c, 0, q, r);
    return c->trans == CUBLAS_OP_C ? cconj(v) : v;
}

/* Output (i, j) of c (complex scalars) by its definition, from C's value before (cij). */
static cx definition(const dfs_l3_call *c, int64_t i, int64_t j, cx cij)
{
    const int h = hermitian(c->kind);
    const cublasOperation_t op = c->trans;
    cx s = {0, 0}, s2 = {0, 0};
    for (int64_t l = 0; l < c->k; l++) {
        /* op(X)(i, l) times op(Y)(j, l), conjugated for the H kinds: op(X) op(Y)^T (^H) */
        cx ai = {0, 0}, aj = {0, 0}, bi = {0, 0}, bj = {0, 0};
        if (c->kind <= DFS_L3_HER2K) {
            ai = opel(c->A, c->lda, op, i, l);
            aj = opel(c->A, c->lda, op, j, l);
            if (c->kind != DFS_L3_SYRK && c->kind != DFS_L3_HERK) {
                bi = opel(c->B, c->ldb, op, i, l);
                bj = opel(c->B, c->ldb, op, j, l);
            }
            if (h) {
                aj = cconj(aj);
                bj = cconj(bj);
            }
        }
        switch (c->kind) {
        case DFS_L3_SYRK:
        case DFS_L3_HERK: s = cadd(s, cmul(ai, aj)); break;
        case DFS_L3_SYRKX:
        case DFS_L3_HERKX: s = cadd(s, cmul(ai, bj)); break;
        case DFS_L3_SYR2K:
        case DFS_L3_HER2K:
            s = cadd(s, cmul(ai, bj));
            s2 = cadd(s2, cmul(bi, aj));
            break;
        case DFS_L3_SYMM:
        case DFS_L3_HEMM:
            s = cadd(s, c->side == CUBLAS_SIDE_LEFT
                            ? cmul(struct_el(c, 1, i, l), get(c->B, c->ldb, l, j))
                            : cmul(get(c->B, c->ldb, i, l), struct_el(c, 1, l, j)));
            break;
        default:
            s = cadd(s, c->side == CUBLAS_SIDE_LEFT
                            ? cmul(tri_op(c, i, l), get(c->B, c->ldb, l, j))
                            : cmul(get(c->B, c->ldb, i, l), tri_op(c, l, j)));
        }
    }
    const cx alpha = {c->alpha[0], c->alpha[1]};
    if (c->kind == DFS_L3_SYR2K || c->kind == DFS_L3_HER2K)
        s = cadd(s, s2); /* alpha real for HER2K: alpha s + conj(alpha) s2 = alpha (s + s2) */
    cx r = cmul(alpha, s);
    if (c->kind == DFS_L3_TRMM)
        return r;
    const cx beta = {c->beta[0], c->beta[1]};
    if (h && c->kind != DFS_L3_HEMM && i == j)
        cij.im = 0.0; /* C's Hermitian diagonal read as real */
    if (beta.re != 0.0 || beta.im != 0.0)
        r = cadd(r, cmul(beta, cij));
    if (h && c->kind != DFS_L3_HEMM && i == j)
        r.im = 0.0;
    return r;
}

/* ---------- one case ---------- */

/* Runs c (A, B, C filled here) in panels of nb; alias: TRMM with C = B. */
static void run_case(dfs_l3_call c, int64_t nb, int alias, int line)
{
    const int rk = c.kind <= DFS_L3_HER2K, tri = c.kind == DFS_L3_TRMM, h = hermitian(c.kind);
    const int hc = h && rk; /* C's diagonal Hermitian */
    const int has_b = c.kind != DFS_L3_SYRK && c.kind != DFS_L3_HERK;
    const int lower = c.uplo == CUBLAS_FILL_MODE_LOWER;
    const int64_t ar = rk ? (c.trans == CUBLAS_OP_N ? c.n : c.k) : c.k,
                  ac = rk ? (c.trans == CUBLAS_OP_N ? c.k : c.n) : c.k;
    const int64_t br = rk ? ar : c.m, bc = rk ? ac : c.n;
    c.lda = (ar > 0 ? ar : 1) + 2;
    c.ldb = (br > 0 ? br : 1) + 1;
    c.ldc = alias ? c.ldb : c.m + 3;
    out_region = alias ? R_B : R_C;
    region_init(R_A, c.lda * (ac > 0 ? ac : 1));
    region_init(R_B, c.ldb * (bc > 0 ? bc : 1));
    region_init(R_C, alias ? 0 : c.ldc * c.n);
    uint64_t seed = 0x9e3779b97f4a7c15ull ^ (uint64_t)line;
    for (int64_t e = 0; e < reg[R_A].n; e++) {
        const int64_t i = e % c.lda, j = e / c.lda;
        double *v = &reg[R_A].p[2 * e];
        v[0] = small_int(&seed);
        v[1] = small_int(&seed);
        const int unit_diag = tri && i == j && c.diag == CUBLAS_DIAG_UNIT;
        if (i >= ar || (!rk && !in_tri(lower, i, j)) || unit_diag)
            v[0] = v[1] = NAN; /* padding, the other triangle, a unit diagonal: not read */
        else if (!rk && h && i == j)
            v[1] = NAN; /* HEMM: Im(A_ii) not read */
    }
    for (int64_t e = 0; e < reg[R_B].n; e++) {
        double *v = &reg[R_B].p[2 * e];
        v[0] = has_b && e % c.ldb < br ? small_int(&seed) : SENTINEL;
        v[1] = has_b && e % c.ldb < br ? small_int(&seed) : -SENTINEL;
    }
    const int beta_zero = tri || (c.beta[0] == 0.0 && c.beta[1] == 0.0);
    region *cr = &reg[out_region];
    for (int64_t j = 0; j < c.n && !alias; j++)
        for (int64_t i = 0; i < c.ldc; i++) {
            double *v = &cr->p[2 * (i + j * c.ldc)];
            const int out = i < c.m && (!rk || in_tri(lower, i, j));
            v[0] = !out ? SENTINEL : beta_zero ? NAN : small_int(&seed);
            /* the H kinds' Im(C_ii) is taken as 0: NaN there would show in Re(beta c) */
            v[1] = !out ? -SENTINEL : beta_zero || (i == j && hc) ? NAN : small_int(&seed);
        }
    if (!has_b)
        c.B = NULL;
    else
        c.B = reg[R_B].p;
    c.A = reg[R_A].p;
    c.C = cr->p;
    double *c0 = malloc((size_t)(2 * cr->n + 2) * sizeof(double));
    memcpy(c0, cr->p, (size_t)(2 * cr->n) * sizeof(double));
    /* the definition reads B as it was (TRMM in place overwrites it) */
    double *b0 = malloc((size_t)(2 * reg[R_B].n + 2) * sizeof(double));
    memcpy(b0, reg[R_B].p, (size_t)(2 * reg[R_B].n) * sizeof(double));
    dfs_l3_call def = c;
    def.B = has_b ? b0 : NULL;
    static const double zero[2] = {0, 0};
    dfs_mm mm;
    ck_assert_msg(dfs_l3_to_mm(&c, 1, zero, &mm), "line %d: not covered", line);
    ck_assert_int_eq(mm.c_aliases_b, alias);
    const dfs_mm_ops ops = {stand_copy, stand_gemm, NULL, 1}; /* a triangle GEMM offered */
    const cublasStatus_t st = l3s_run(&mm, nb, &ops, 0);
    ck_assert_msg(!problem[0], "line %d: %s", line, problem);
    ck_assert_int_eq(st, CUBLAS_STATUS_SUCCESS);
    /* the whole sum per output: k, 2k for the k-concatenated kinds */
    const int64_t kk = c.kind == DFS_L3_SYR2K || c.kind == DFS_L3_HER2K ? 2 * c.k : c.k;
    for (int64_t j = 0; j < c.n; j++)
        for (int64_t i = 0; i < c.ldc; i++) {
            const int64_t e = i + j * c.ldc;
            const int out = i < c.m && (!rk || in_tri(lower, i, j));
            const double *v = &cr->p[2 * e];
            if (!out) {
                ck_assert_msg(cr->writes[e] == 0 && !memcmp(v, &c0[2 * e], 2 * sizeof(double)),
                              "line %d: (%lld, %lld) outside the output written", line,
                              (long long)i, (long long)j);
                continue;
            }
            const cx want = definition(&def, i, j, (cx){c0[2 * e], c0[2 * e + 1]});
            ck_assert_msg(v[0] == want.re && v[1] == want.im,
                          "line %d: (%lld, %lld) is %g%+gi, not %g%+gi", line, (long long)i,
                          (long long)j, v[0], v[1], want.re, want.im);
            ck_assert_msg(cr->writes[e] == 1, "line %d: (%lld, %lld) written %d times", line,
                          (long long)i, (long long)j, cr->writes[e]);
            if (!tri)
                ck_assert_msg(cr->k[e] == kk, "line %d: (%lld, %lld) finished by a GEMM of k %lld",
                              line, (long long)i, (long long)j, (long long)cr->k[e]);
        }
    /* inputs untouched (B only when it is not the output) */
    for (int64_t e = 0; e < reg[R_A].n; e++)
        ck_assert(reg[R_A].writes[e] == 0);
    for (int64_t e = 0; e < reg[R_B].n && !alias; e++)
        ck_assert(reg[R_B].writes[e] == 0);
    free(c0);
    free(b0);
    region_free();
}

static const double alpha_z[2] = {2, -1}, beta_z[2] = {1, 3}, beta_0[2] = {0, 0},
                    alpha_r[2] = {-3, 0}, beta_r[2] = {2, 0};

static dfs_l3_call record(dfs_l3_kind kind, int64_t m, int64_t n, int64_t k)
{
    dfs_l3_call c;
    memset(&c, 0, sizeof c);
    c.kind = kind;
    c.type = DFS_C64;
    c.m = m;
    c.n = n;
    c.k = k;
    c.alpha = kind == DFS_L3_HERK || kind == DFS_L3_HER2K ? alpha_r : alpha_z; /* HERKX: any */
    c.beta = hermitian(kind) ? beta_r : beta_z;
    c.uplo = CUBLAS_FILL_MODE_LOWER;
    c.trans = CUBLAS_OP_N;
    c.side = CUBLAS_SIDE_LEFT;
    c.diag = CUBLAS_DIAG_NON_UNIT;
    return c;
}

START_TEST(rank_k)
{
    static const dfs_l3_kind kinds[] = {DFS_L3_SYRK,  DFS_L3_HERK,  DFS_L3_SYRKX,
                                        DFS_L3_HERKX, DFS_L3_SYR2K, DFS_L3_HER2K};
    static const int64_t dims[][3] = {{7, 5, 3}, {9, 4, 4}, {3, 6, 8}, {10, 1, 3}};
    for (size_t q = 0; q < sizeof kinds / sizeof kinds[0]; q++)
        for (int u = 0; u < 2; u++)
            for (int t = 0; t < 2; t++)
                for (int z = 0; z < 2; z++)
                    for (size_t d = 0; d < sizeof dims / sizeof dims[0]; d++) {
                        dfs_l3_call c = record(kinds[q], dims[d][0], dims[d][0], dims[d][1]);
                        c.uplo = u ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
                        c.trans = !t ? CUBLAS_OP_N
                                  : hermitian(kinds[q]) ? CUBLAS_OP_C : CUBLAS_OP_T;
                        if (z)
                            c.beta = beta_0;
                        run_case(c, dims[d][2], 0, __LINE__ + (int)(q * 64 + u * 16 + t * 4 + z));
                    }
}
END_TEST

START_TEST(symm_hemm)
{
    static const int64_t dims[][3] = {{5, 7, 3}, {8, 4, 4}, {6, 6, 32}};
    for (int h = 0; h < 2; h++)
        for (int s = 0; s < 2; s++)
            for (int u = 0; u < 2; u++)
                for (int z = 0; z < 2; z++)
                    for (size_t d = 0; d < sizeof dims / sizeof dims[0]; d++) {
                        const int64_t m = dims[d][0], n = dims[d][1];
                        dfs_l3_call c = record(h ? DFS_L3_HEMM : DFS_L3_SYMM, m, n, s ? n : m);
                        c.side = s ? CUBLAS_SIDE_RIGHT : CUBLAS_SIDE_LEFT;
                        c.uplo = u ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
                        if (z)
                            c.beta = beta_0;
                        run_case(c, dims[d][2], 0, __LINE__ + h * 64 + s * 16 + u * 4 + z);
                    }
}
END_TEST

START_TEST(trmm)
{
    static const cublasOperation_t ops[] = {CUBLAS_OP_N, CUBLAS_OP_T, CUBLAS_OP_C};
    static const int64_t dims[][3] = {{6, 5, 2}, {9, 3, 4}, {4, 7, 32}};
    for (int s = 0; s < 2; s++)
        for (int u = 0; u < 2; u++)
            for (int o = 0; o < 3; o++)
                for (int g = 0; g < 2; g++)
                    for (int alias = 0; alias < 2; alias++)
                        for (size_t d = 0; d < sizeof dims / sizeof dims[0]; d++) {
                            const int64_t m = dims[d][0], n = dims[d][1];
                            dfs_l3_call c = record(DFS_L3_TRMM, m, n, s ? n : m);
                            c.side = s ? CUBLAS_SIDE_RIGHT : CUBLAS_SIDE_LEFT;
                            c.uplo = u ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
                            c.trans = ops[o];
                            c.diag = g ? CUBLAS_DIAG_UNIT : CUBLAS_DIAG_NON_UNIT;
                            c.beta = NULL;
                            run_case(c, dims[d][2], alias,
                                     __LINE__ + s * 128 + u * 64 + o * 16 + g * 4 + alias);
                        }
}
END_TEST

START_TEST(coverage)
{
    static const double zero[2] = {0, 0}, real1 = 1.0, az[2] = {1, 2};
    dfs_mm mm;
    /* a complex record with a real alpha or beta: the caller gives complex copies */
    dfs_l3_call c = record(DFS_L3_HERK, 4, 4, 3);
    c.alpha_real = 1;
    c.alpha = &real1;
    ck_assert(!dfs_l3_to_mm(&c, 1, zero, &mm));
    c = record(DFS_L3_HERKX, 4, 4, 3);
    c.beta_real = 1;
    ck_assert(!dfs_l3_to_mm(&c, 1, zero, &mm));
    /* what cuBLAS computes its own way: Zsyrk op C, Zherk op T */
    c = record(DFS_L3_SYRK, 4, 4, 3);
    c.trans = CUBLAS_OP_C;
    ck_assert(!dfs_l3_to_mm(&c, 1, zero, &mm));
    c = record(DFS_L3_HERK, 4, 4, 3);
    c.trans = CUBLAS_OP_T;
    ck_assert(!dfs_l3_to_mm(&c, 1, zero, &mm));
    /* HER2K: a real alpha seen on the host only */
    c = record(DFS_L3_HER2K, 4, 4, 3);
    ck_assert(dfs_l3_to_mm(&c, 1, zero, &mm));
    ck_assert(mm.herm_diag && mm.fin == DFS_FIN_HER2);
    ck_assert(!dfs_l3_to_mm(&c, 0, zero, &mm));
    c.alpha = az;
    ck_assert(!dfs_l3_to_mm(&c, 1, zero, &mm));
    /* complex SYR2K: any alpha */
    c = record(DFS_L3_SYR2K, 4, 4, 3);
    ck_assert(dfs_l3_to_mm(&c, 0, zero, &mm));
    ck_assert(!mm.herm_diag && mm.cplx);
    c = record(DFS_L3_TRSM, 4, 4, 4);
    ck_assert(!dfs_l3_to_mm(&c, 1, zero, &mm));
}
END_TEST

START_TEST(first_declined)
{
    static const dfs_l3_kind kinds[] = {DFS_L3_HERK, DFS_L3_HER2K, DFS_L3_HEMM, DFS_L3_TRMM};
    for (size_t q = 0; q < sizeof kinds / sizeof kinds[0]; q++) {
        dfs_l3_call c = record(kinds[q], 9, 9, 9);
        if (kinds[q] == DFS_L3_TRMM)
            c.beta = NULL;
        c.lda = c.ldb = c.ldc = 9;
        region_init(R_A, 81);
        region_init(R_B, 81);
        region_init(R_C, 81);
        for (int64_t e = 0; e < 162; e++)
            reg[R_A].p[e] = reg[R_B].p[e] = reg[R_C].p[e] = (double)(e % 5);
        c.A = reg[R_A].p;
        c.B = reg[R_B].p;
        c.C = reg[R_C].p;
        decline_at = 1;
        out_region = R_C;
        static const double zero[2] = {0, 0};
        dfs_mm mm;
        ck_assert(dfs_l3_to_mm(&c, 1, zero, &mm));
        const dfs_mm_ops ops = {stand_copy, stand_gemm, NULL, 0};
        ck_assert_int_eq(l3s_run(&mm, 4, &ops, 0), DFS_STATUS_DECLINED);
        for (int64_t e = 0; e < 81; e++)
            ck_assert_msg(reg[R_C].writes[e] == 0, "the first GEMM declined, yet C was written");
        decline_at = 0;
        region_free();
    }
}
END_TEST

static Suite *suite(void)
{
    l3s_width = 2; /* complex elements */
    Suite *s = suite_create("l3zmm");
    TCase *t = tcase_create("complex decomposition");
    tcase_set_timeout(t, 120);
    tcase_add_test(t, rank_k);
    tcase_add_test(t, symm_hemm);
    tcase_add_test(t, trmm);
    tcase_add_test(t, coverage);
    tcase_add_test(t, first_declined);
    suite_add_tcase(s, t);
    return s;
}
