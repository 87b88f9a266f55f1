/* test_l3mm.c — unit tests (Check) of shim/l3_mm.c: the real Level-3 routines (SYRK, SYRKX,
 * SYR2K, SYMM, TRMM) turned into descriptors and degraded into plain GEMMs, run with a stand-in
 * GEMM and copy on the CPU that check every call's operands lie inside the call's matrices or
 * the scratch, and record for every element of C and of the scratch how often it is written and
 * by which GEMM it was finished (the provenance a copy carries along).  Data are small integers,
 * so the stand-in's sums are exact and the result must equal the routine's definition bit for
 * bit.  For every case: each output of the requested triangle or matrix written exactly once,
 * by one GEMM (never two chained through beta) with the full inner dimension (rank-k routines,
 * SYMM; TRMM's blocks leave out zeros only, which the exact values check); the other triangle,
 * the padding of C and the inputs never written; the scratch within dfs_mm_scratch.  Cases:
 * uplo L/U, op N/T/C, side L/R, diag N/U, TRMM with C = B, n a multiple of the panel or not,
 * n below it, panels of 1, k = 0 (C = beta C on the triangle), beta = 0 with NaN in C (not
 * read), beta known and unknown to be 0, padded leading dimensions, NaN in what A's structure
 * leaves unread.  The rank-k routines three times: without a triangle GEMM, with one the
 * stand-in takes (one GEMM, which writes only the triangle), and with one it declines (the
 * panels then).  Besides: the first GEMM declining leaves C untouched, a later one stops the
 * run; the routines the descriptor does not cover; the panel widths. */
#include "l3_stub.h"

#include "check_main.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------- the stand-ins ---------- */

/* The triangle GEMM (dfs_gemm_call.tri, dfs_mm_ops.tri): 0, none; 1, the stand-in computes the
 * triangle; 2, it declines every triangle (the panels then).  tri_calls: triangles asked for. */
static int tri_mode, tri_calls;

static double opel(const double *p, int64_t ld, cublasOperation_t op, int64_t i, int64_t j)
{
    return op == CUBLAS_OP_N ? p[i + j * ld] : p[j + i * ld];
}

static cublasStatus_t stand_gemm(void *ctx, const dfs_gemm_call *g)
{
    (void)ctx;
    if (g->tri != DFS_TRI_ALL) {
        tri_calls++;
        if (!tri_mode || g->m != g->n || (g->tri != DFS_TRI_LOWER && g->tri != DFS_TRI_UPPER)) {
            misuse("a triangle GEMM the engine does not take, or not square");
            return CUBLAS_STATUS_INVALID_VALUE;
        }
        if (tri_mode == 2)
            return DFS_STATUS_DECLINED;
    }
    if (l3s_declines())
        return DFS_STATUS_DECLINED;
    if (g->type != DFS_R64 || g->batch != 1 || g->Carray || g->m <= 0 || g->n <= 0 || g->k < 0 ||
        (g->transa != CUBLAS_OP_N && g->transa != CUBLAS_OP_T) ||
        (g->transb != CUBLAS_OP_N && g->transb != CUBLAS_OP_T)) {
        misuse("a GEMM record cuBLAS would not take");
        return CUBLAS_STATUS_INVALID_VALUE;
    }
    int64_t oc = 0;
    const int rc = l3s_gemm_regions(g, &oc, "a GEMM operand out of place (C must be C or the "
                                            "scratch)");
    if (rc < 0)
        return CUBLAS_STATUS_INVALID_VALUE;
    const double alpha = *g->alpha, beta = *g->beta;
    region *o = &reg[rc];
    for (int64_t j = 0; j < g->n; j++)
        for (int64_t i = 0; i < g->m; i++) {
            if (g->tri != DFS_TRI_ALL && !in_tri(g->tri == DFS_TRI_LOWER, i, j))
                continue;
            double s = 0;
            for (int64_t l = 0; l < g->k; l++)
                s += opel(g->A, g->lda, g->transa, i, l) * opel(g->B, g->ldb, g->transb, l, j);
            const int64_t e = oc + i + j * g->ldc;
            const int before = beta != 0.0 ? o->gemms[e] : 0;
            o->p[e] = beta != 0.0 ? alpha * s + beta * o->p[e] : alpha * s;
            o->writes[e]++;
            o->gemms[e] = before + 1;
            o->k[e] = g->k;
        }
    return CUBLAS_STATUS_SUCCESS;
}

static int stand_copy(void *ctx, const dfs_l3_copy *cp)
{
    (void)ctx;
    int rs;
    int64_t os = 0, od = 0;
    const int rd = l3s_copy_regions(cp, &rs, &os, &od, "a copy out of place (into C or the "
                                                       "scratch, from another buffer)");
    if (rd < 0)
        return 1;
    if ((cp->mode == DFS_L3_TRI || cp->mode == DFS_L3_SYM) && cp->rows != cp->cols) {
        misuse("a structured copy of a matrix that is not square");
        return 1;
    }
    /* provenance: where each element written comes from (-1: a constant) */
    for (int64_t j = 0; j < cp->cols; j++)
        for (int64_t i = 0; i < cp->rows; i++) {
            const int in = cp->lower ? i >= j : i <= j;
            int64_t from = os + i + j * cp->lds;
            if (cp->mode == DFS_L3_COPY_T || (cp->mode == DFS_L3_SYM && !in))
                from = os + j + i * cp->lds;
            if (cp->mode == DFS_L3_TRI && (!in || (i == j && cp->unit)))
                from = -1;
            if (cp->mode == DFS_L3_MASK && !in)
                continue;
            const int64_t e = od + i + j * cp->ldd;
            reg[rd].writes[e]++;
            reg[rd].gemms[e] = from < 0 ? 0 : reg[rs].gemms[from];
            reg[rd].k[e] = from < 0 ? -1 : reg[rs].k[from];
        }
    dfs_l3_copy_host(cp);
    return 0;
}

/* ---------- the routines' definitions ---------- */

/* A(i, j) as SYMM (sym) or TRMM reads it: the stored triangle, mirrored or zero. */
static double struct_el(const dfs_l3_call *c, int sym, int64_t i, int64_t j)
{
    const int lower = c->uplo == CUBLAS_FILL_MODE_LOWER;
    if (sym)
        return in_tri(lower, i, j) ? c->A[i + j * c->lda] : c->A[j + i * c->lda];
    if (!in_tri(lower, i, j))
        return 0.0;
    return i == j && c->diag == CUBLAS_DIAG_UNIT ? 1.0 : c->A[i + j * c->lda];
}

/* Output (i, j) of c by its definition, from C's value before (cij). */
static double definition(const dfs_l3_call *c, int64_t i, int64_t j, double cij)
{
    const cublasOperation_t op = c->trans == CUBLAS_OP_N ? CUBLAS_OP_N : CUBLAS_OP_T;
    double s = 0;
    const int rk = c->kind <= DFS_L3_SYR2K;
    for (int64_t l = 0; l < c->k; l++) {
        /* op(A)(i, l), op(A)(j, l) of the rank-k routines */
        const double ai = rk ? opel(c->A, c->lda, op, i, l) : 0,
                     aj = rk ? opel(c->A, c->lda, op, j, l) : 0;
        switch (c->kind) {
        case DFS_L3_SYRK: s += ai * aj; break;
        case DFS_L3_SYRKX: s += ai * opel(c->B, c->ldb, op, j, l); break;
        case DFS_L3_SYR2K:
            s += ai * opel(c->B, c->ldb, op, j, l) + opel(c->B, c->ldb, op, i, l) * aj;
            break;
        case DFS_L3_SYMM:
            s += c->side == CUBLAS_SIDE_LEFT ? struct_el(c, 1, i, l) * c->B[l + j * c->ldb]
                                             : c->B[i + l * c->ldb] * struct_el(c, 1, l, j);
            break;
        default: { /* TRMM: op(A)(r, q) = A(r, q) or A(q, r) */
            const int n = c->trans == CUBLAS_OP_N;
            s += c->side == CUBLAS_SIDE_LEFT
                     ? (n ? struct_el(c, 0, i, l) : struct_el(c, 0, l, i)) * c->B[l + j * c->ldb]
                     : c->B[i + l * c->ldb] * (n ? struct_el(c, 0, l, j) : struct_el(c, 0, j, l));
        }
        }
    }
    if (c->kind == DFS_L3_TRMM)
        return *c->alpha * s;
    return *c->beta != 0.0 ? *c->alpha * s + *c->beta * cij : *c->alpha * s;
}

/* ---------- one case ---------- */

/* Runs c (its A, B, C pointers filled here) in panels of nb; host_scalars as the shim's
 * pointer mode.  alias: TRMM with C = B. */
static void run_case(dfs_l3_call c, int64_t nb, int host_scalars, int alias, int line)
{
    const int rk = c.kind <= DFS_L3_SYR2K, tri = c.kind == DFS_L3_TRMM;
    const int64_t ar = rk ? (c.trans == CUBLAS_OP_N ? c.n : c.k) : c.k,
                  ac = rk ? (c.trans == CUBLAS_OP_N ? c.k : c.n) : c.k;
    c.lda = (ar > 0 ? ar : 1) + 2;
    c.ldb = rk ? c.lda + 1 : c.m + 1;
    c.ldc = alias ? c.ldb : c.m + 3;
    region_init(R_A, c.lda * (ac > 0 ? ac : 1));
    region_init(R_B, c.ldb * (rk ? (ac > 0 ? ac : 1) : c.n));
    region_init(R_C, alias ? 0 : c.ldc * c.n);
    uint64_t seed = (uint64_t)line * 7919u + (uint64_t)nb;
    for (int64_t e = 0; e < reg[R_A].n; e++) {
        const int64_t i = e % c.lda, j = e / c.lda;
        const int unread = i >= ar || (!rk && !in_tri(c.uplo == CUBLAS_FILL_MODE_LOWER, i, j)) ||
                           (tri && i == j && c.diag == CUBLAS_DIAG_UNIT);
        reg[R_A].p[e] = unread ? NAN : small_int(&seed);
    }
    for (int64_t e = 0; e < reg[R_B].n; e++)
        reg[R_B].p[e] = e % c.ldb >= (rk ? ar : c.m) && !alias ? NAN : small_int(&seed);
    out_region = alias ? R_B : R_C;
    const region *out = &reg[out_region];
    const int lower = c.uplo == CUBLAS_FILL_MODE_LOWER;
    for (int64_t e = 0; !alias && e < out->n; e++) {
        const int64_t i = e % c.ldc, j = e / c.ldc;
        const int target = i < c.m && (!rk || in_tri(lower, i, j));
        out->p[e] = !target ? SENTINEL : !tri && *c.beta == 0.0 ? NAN : small_int(&seed);
    }
    if (alias) /* B's padding is C's: a sentinel, never read or written */
        for (int64_t e = 0; e < out->n; e++)
            if (e % c.ldc >= c.m)
                out->p[e] = SENTINEL;
    c.A = reg[R_A].p;
    c.B = rk && c.kind == DFS_L3_SYRK ? NULL : reg[R_B].p;
    c.C = out->p;
    double *a0 = malloc((size_t)reg[R_A].n * sizeof(double)),
           *c0 = malloc((size_t)out->n * sizeof(double)),
           *b0 = malloc((size_t)reg[R_B].n * sizeof(double));
    memcpy(a0, reg[R_A].p, (size_t)reg[R_A].n * sizeof(double));
    memcpy(b0, reg[R_B].p, (size_t)reg[R_B].n * sizeof(double));
    memcpy(c0, out->p, (size_t)out->n * sizeof(double));
    static const double zero = 0.0;
    dfs_mm mm;
    ck_assert_msg(dfs_l3_to_mm(&c, host_scalars, &zero, &mm), "line %d: not covered", line);
    const dfs_mm_ops ops = {stand_copy, stand_gemm, NULL, tri_mode != 0};
    tri_calls = 0;
    const cublasStatus_t st = l3s_run(&mm, nb, &ops, 1);
    ck_assert_msg(!problem[0], "line %d (nb %lld): %s", line, (long long)nb, problem);
    ck_assert_msg(st == CUBLAS_STATUS_SUCCESS, "line %d: status %d", line, (int)st);
    /* a triangle of output: one GEMM of it where the engine takes it, else the panels after
     * one triangle declined; never a triangle otherwise */
    ck_assert_msg(tri_calls == (rk && tri_mode), "line %d: %d triangle GEMMs (mode %d)", line,
                  tri_calls, tri_mode);
    if (rk && tri_mode == 1)
        ck_assert_msg(calls == 1, "line %d: %d GEMMs for a triangle taken whole", line, calls);
    /* the expected results, from the inputs as they were */
    dfs_l3_call d = c;
    d.A = a0;
    d.B = c.B ? b0 : NULL;
    const int64_t kfull = c.kind == DFS_L3_SYR2K ? 2 * c.k : c.k;
    for (int64_t e = 0; e < out->n; e++) {
        const int64_t i = e % c.ldc, j = e / c.ldc;
        const int target = i < c.m && (!rk || in_tri(lower, i, j));
        const double want = target ? definition(&d, i, j, c0[e]) : c0[e];
        ck_assert_msg(!memcmp(&want, &out->p[e], sizeof want),
                      "line %d (nb %lld): C(%lld, %lld) = %g, expected %g", line, (long long)nb,
                      (long long)i, (long long)j, out->p[e], want);
        ck_assert_msg(out->writes[e] == target,
                      "line %d (nb %lld): C(%lld, %lld) written %d times, expected %d", line,
                      (long long)nb, (long long)i, (long long)j, out->writes[e], target);
        ck_assert_msg(!target || out->gemms[e] == 1,
                      "line %d (nb %lld): C(%lld, %lld) went through %d GEMMs", line,
                      (long long)nb, (long long)i, (long long)j, out->gemms[e]);
        ck_assert_msg(!target || tri || out->k[e] == kfull,
                      "line %d (nb %lld): C(%lld, %lld) finished by a GEMM of k = %lld, not %lld",
                      line, (long long)nb, (long long)i, (long long)j, (long long)out->k[e],
                      (long long)kfull);
    }
    ck_assert_msg(!memcmp(a0, reg[R_A].p, (size_t)reg[R_A].n * sizeof(double)) ||
                      reg[R_A].n == 0,
                  "line %d: A changed", line);
    for (int64_t e = 0; e < reg[R_A].n; e++)
        ck_assert_msg(reg[R_A].writes[e] == 0, "line %d: A written", line);
    for (int64_t e = 0; !alias && e < reg[R_B].n; e++)
        ck_assert_msg(reg[R_B].writes[e] == 0, "line %d: B written", line);
    free(a0);
    free(b0);
    free(c0);
    region_free();
    out_region = R_C;
}

/* ---------- the cases ---------- */

static const double scal[][2] = {{2.0, 1.5}, {-0.5, 0.0}, {1.0, -1.0}};
#define NSCAL 3
#define NOPS 3
static const cublasOperation_t ops3[NOPS] = {CUBLAS_OP_N, CUBLAS_OP_T, CUBLAS_OP_C};
static const cublasFillMode_t uplos[2] = {CUBLAS_FILL_MODE_LOWER, CUBLAS_FILL_MODE_UPPER};

static dfs_l3_call record(dfs_l3_kind kind, int64_t m, int64_t n, int64_t k, const double *s)
{
    dfs_l3_call c;
    memset(&c, 0, sizeof c);
    c.kind = kind;
    c.type = DFS_R64;
    c.m = m;
    c.n = n;
    c.k = k;
    c.alpha = &s[0];
    c.beta = &s[1];
    c.alpha_real = c.beta_real = 1;
    return c;
}

/* n, k, nb: n a multiple of nb or not, n below nb, nb 1, one panel exactly, k = 0 */
static const int64_t rk_shapes[][3] = {{13, 5, 4}, {12, 3, 4}, {5, 7, 8},  {1, 1, 1},
                                       {7, 3, 1},  {16, 4, 16}, {9, 0, 4}, {10, 2, 3}};

START_TEST(rank_k)
{
    static const dfs_l3_kind kinds[3] = {DFS_L3_SYRK, DFS_L3_SYRKX, DFS_L3_SYR2K};
    tri_mode = _i; /* no triangle GEMM; one taken; one declined */
    for (int kd = 0; kd < 3; kd++)
        for (size_t s = 0; s < sizeof rk_shapes / sizeof rk_shapes[0]; s++)
            for (int u = 0; u < 2; u++)
                for (int o = 0; o < NOPS; o++)
                    for (int sc = 0; sc < NSCAL; sc++)
                        for (int host = 0; host < 2; host++) {
                            const int64_t n = rk_shapes[s][0], k = rk_shapes[s][1];
                            dfs_l3_call c = record(kinds[kd], n, n, k, scal[sc]);
                            c.uplo = uplos[u];
                            c.trans = ops3[o];
                            run_case(c, rk_shapes[s][2], host, 0,
                                     (int)(1000 * kd + 100 * s + 10 * u + o));
                        }
    tri_mode = 0;
}
END_TEST

/* m, n, nb */
static const int64_t mm_shapes[][3] = {{13, 6, 4}, {5, 9, 8}, {12, 12, 4}, {1, 3, 2},
                                       {6, 11, 5}, {4, 4, 1}, {9, 2, 9}};

START_TEST(symm)
{
    for (size_t s = 0; s < sizeof mm_shapes / sizeof mm_shapes[0]; s++)
        for (int side = 0; side < 2; side++)
            for (int u = 0; u < 2; u++)
                for (int sc = 0; sc < NSCAL; sc++)
                    for (int host = 0; host < 2; host++) {
                        const int64_t m = mm_shapes[s][0], n = mm_shapes[s][1];
                        dfs_l3_call c = record(DFS_L3_SYMM, m, n, side ? n : m, scal[sc]);
                        c.side = side ? CUBLAS_SIDE_RIGHT : CUBLAS_SIDE_LEFT;
                        c.uplo = uplos[u];
                        run_case(c, mm_shapes[s][2], host, 0,
                                 (int)(5000 + 100 * s + 10 * side + u));
                    }
}
END_TEST

START_TEST(trmm)
{
    for (size_t s = 0; s < sizeof mm_shapes / sizeof mm_shapes[0]; s++)
        for (int side = 0; side < 2; side++)
            for (int u = 0; u < 2; u++)
                for (int o = 0; o < NOPS; o++)
                    for (int diag = 0; diag < 2; diag++)
                        for (int alias = 0; alias < 2; alias++) {
                            const int64_t m = mm_shapes[s][0], n = mm_shapes[s][1];
                            dfs_l3_call c = record(DFS_L3_TRMM, m, n, side ? n : m, scal[0]);
                            c.beta = NULL;
                            c.side = side ? CUBLAS_SIDE_RIGHT : CUBLAS_SIDE_LEFT;
                            c.uplo = uplos[u];
                            c.trans = ops3[o];
                            c.diag = diag ? CUBLAS_DIAG_UNIT : CUBLAS_DIAG_NON_UNIT;
                            run_case(c, mm_shapes[s][2], alias, alias,
                                     (int)(7000 + 100 * s + 20 * side + 6 * u + 2 * o + diag));
                        }
}
END_TEST

/* A GEMM that declines: the first leaves C untouched and nothing else runs; a later one ends
 * the run with its status. */
START_TEST(declines)
{
    for (int at = 1; at <= 3; at++) {
        static const double s[2] = {1.0, 1.0}, zero = 0.0;
        dfs_l3_call c = record(DFS_L3_SYRK, 10, 10, 3, s);
        c.uplo = CUBLAS_FILL_MODE_LOWER;
        c.trans = CUBLAS_OP_N;
        c.lda = c.ldc = 10;
        region_init(R_A, 30);
        region_init(R_C, 100);
        c.A = reg[R_A].p;
        c.C = reg[R_C].p;
        dfs_mm mm;
        ck_assert(dfs_l3_to_mm(&c, 1, &zero, &mm));
        decline_at = at;
        const dfs_mm_ops ops = {stand_copy, stand_gemm, NULL, 0};
        ck_assert_int_eq(l3s_run(&mm, 4, &ops, 0), DFS_STATUS_DECLINED);
        ck_assert_int_eq(calls, at);
        int written = 0;
        for (int e = 0; e < 100; e++)
            written += reg[R_C].writes[e];
        if (at == 1)
            ck_assert_msg(written == 0, "the first GEMM declined, yet C was written");
        decline_at = 0;
        region_free();
    }
}
END_TEST

START_TEST(coverage_and_panels)
{
    static const double s[4] = {1, 0, 1, 0}, zero = 0.0;
    dfs_l3_call c = record(DFS_L3_SYRK, 4, 4, 4, s);
    dfs_mm mm;
    c.type = DFS_C64;
    ck_assert(!dfs_l3_to_mm(&c, 1, &zero, &mm));
    c.type = DFS_R64;
    static const dfs_l3_kind no[] = {DFS_L3_HERK, DFS_L3_HERKX, DFS_L3_HER2K, DFS_L3_HEMM,
                                     DFS_L3_TRSM};
    for (size_t i = 0; i < sizeof no / sizeof no[0]; i++) {
        c.kind = no[i];
        ck_assert(!dfs_l3_to_mm(&c, 1, &zero, &mm));
    }
    /* the panel: an eighth of the blocked dimension, a multiple of 32, at least 32 */
    static const int64_t dims[][2] = {{1, 32}, {100, 32}, {256, 32}, {300, 64}, {1000, 128},
                                      {16384, 2048}, {16385, 2080}};
    for (size_t i = 0; i < sizeof dims / sizeof dims[0]; i++) {
        c = record(DFS_L3_SYRK, dims[i][0], dims[i][0], 7, s);
        c.uplo = CUBLAS_FILL_MODE_UPPER;
        ck_assert(dfs_l3_to_mm(&c, 1, &zero, &mm));
        ck_assert_int_eq(dfs_mm_panel(&mm, DFS_L3_PANELS), dims[i][1]);
        c = record(DFS_L3_TRMM, 3, dims[i][0], dims[i][0], s);
        c.side = CUBLAS_SIDE_RIGHT;
        ck_assert(dfs_l3_to_mm(&c, 1, &zero, &mm));
        ck_assert_int_eq(dfs_mm_panel(&mm, DFS_L3_PANELS), dims[i][1]);
    }
    /* other counts (an engine's l3_panels): 1000 in 2, 3 and 1 panels; 0 taken as 1 */
    c = record(DFS_L3_SYRK, 1000, 1000, 7, s);
    ck_assert(dfs_l3_to_mm(&c, 1, &zero, &mm));
    ck_assert_int_eq(dfs_mm_panel(&mm, 2), 512);
    ck_assert_int_eq(dfs_mm_panel(&mm, 3), 352);
    ck_assert_int_eq(dfs_mm_panel(&mm, 1), 1024);
    ck_assert_int_eq(dfs_mm_panel(&mm, 0), 1024);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("l3mm");
    TCase *t = tcase_create("decomposition");
    tcase_set_timeout(t, 120);
    tcase_add_loop_test(t, rank_k, 0, 3);
    tcase_add_test(t, symm);
    tcase_add_test(t, trmm);
    tcase_add_test(t, declines);
    tcase_add_test(t, coverage_and_panels);
    suite_add_tcase(s, t);
    return s;
}
