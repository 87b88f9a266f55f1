/* test_ptrbatch.c — unit tests (Check) of shim/ptr_batch.c: a pointer-array GEMM batch computed
 * group by group through an engine's strided GEMM, driven through its ops table by CPU
 * stand-ins: the moves are engines/l3/batch.h's CPU twin on host pointers, the "engine" and
 * "native" GEMMs a naive strided GEMM (op N, T, C; beta = 0: C not read), the scratch malloc'd
 * and filled with NaN.  Every stand-in checks that what it is given lies inside the scratch or
 * the call's matrices and records what it did.  Data are small integers and the scalars small
 * binary fractions, so every sum is exact and each result must equal a naive reference GEMM on
 * the original operands bit for bit.  Checked besides: the padding of C (rows m ... ldc - 1) and
 * A and B never written; C gathered only when read (not for beta = 0 on the host, both parts when
 * complex; always in device pointer mode); the strided record (api of the call's family, type,
 * algo, pointer mode, lda = stored rows); groups split by the byte limit (one entry at least);
 * the first group declined (or left to native) returns that status with C untouched; a later
 * group declined runs on the native stand-in, that group only; allocation failure declines; a
 * move that fails before anything was written declines, after it fails the call; a repeated A
 * or B pointer; C in place of A (old values read). */
#include "../../shim/ptr_batch.h"

#include "check_main.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXB 8        /* entries at most */
#define SENT (-77.25) /* the padding's and A's/B's untouched value */

/* ---------- the stand-ins ---------- */

typedef struct {
    double *scratch;
    size_t bytes;
    int allocs, frees, fail_alloc;
    int gathers_c, gathers, scatters, scatter_tries, fail_gather_at, fail_scatter_at;
    int gemms, natives, computed, decline_at; /* computed: the GEMMs not declined */
    cublasStatus_t decline_status;
    int64_t group_batch[64]; /* each computed GEMM's batch, engine's and native's in order */
    int group_native[64];
    const dfs_gemm_call *call;
    dfs_gemm_call seen; /* the last GEMM record */
    char problem[256];
} rec;

static void misuse(rec *r, const char *what)
{
    if (!r->problem[0])
        snprintf(r->problem, sizeof r->problem, "%s", what);
}

/* [p, p + doubles) inside the scratch */
static int in_scratch(const rec *r, const double *p, int64_t doubles)
{
    return r->scratch && p >= r->scratch && doubles >= 0 &&
           (size_t)(p - r->scratch + doubles) * sizeof(double) <= r->bytes;
}

static void check_move(rec *r, const dfs_l3_batch *b)
{
    const int64_t z = b->cplx ? 2 : 1;
    if (b->first < 0 || b->count < 1 || b->first + b->count > r->call->batch)
        misuse(r, "a move outside the batch");
    if (b->ld < b->rows || b->stride < b->rows * b->cols)
        misuse(r, "a move's ld or stride too small");
    if (!in_scratch(r, b->packed, z * ((b->count - 1) * b->stride + b->rows * b->cols)))
        misuse(r, "a move's packed buffer outside the scratch");
}

static int gather(void *p, const dfs_l3_batch *b)
{
    rec *r = p;
    check_move(r, b);
    if (r->gathers++ == r->fail_gather_at)
        return 1;
    r->gathers_c += (const void *)b->ptrs == (const void *)r->call->Carray;
    dfs_l3_gather_host(b);
    return 0;
}

static int scatter(void *p, const dfs_l3_batch *b)
{
    rec *r = p;
    check_move(r, b);
    if ((const void *)b->ptrs != (const void *)r->call->Carray)
        misuse(r, "a scatter to something else than C");
    if (r->scatter_tries++ == r->fail_scatter_at)
        return 1;
    r->scatters++;
    dfs_l3_scatter_host(b);
    return 0;
}

/* op(X)(i, j) of a column-major matrix (complex: *im too) */
static double at(const double *x, int64_t ld, cublasOperation_t op, int cplx, int64_t i,
                 int64_t j, double *im)
{
    const int64_t z = cplx ? 2 : 1;
    const double *e = op == CUBLAS_OP_N ? &x[z * (i + j * ld)] : &x[z * (j + i * ld)];
    *im = cplx ? (op == CUBLAS_OP_C ? -e[1] : e[1]) : 0.0;
    return e[0];
}

/* C = alpha op(A) op(B) + beta C for one entry, C not read when beta = 0 */
static void gemm1(const dfs_gemm_call *g, const double *A, const double *B, double *C)
{
    const int cx = g->type == DFS_C64;
    const int64_t z = cx ? 2 : 1;
    const double ar = g->alpha[0], ai = cx ? g->alpha[1] : 0, br = g->beta[0],
                 bi = cx ? g->beta[1] : 0;
    for (int64_t j = 0; j < g->n; j++)
        for (int64_t i = 0; i < g->m; i++) {
            double sr = 0, si = 0;
            for (int64_t l = 0; l < g->k; l++) {
                double xi, yi;
                const double xr = at(A, g->lda, g->transa, cx, i, l, &xi);
                const double yr = at(B, g->ldb, g->transb, cx, l, j, &yi);
                sr += xr * yr - xi * yi;
                si += xr * yi + xi * yr;
            }
            double *c = &C[z * (i + j * g->ldc)];
            const int zero = br == 0 && bi == 0;
            const double cr = zero ? 0 : c[0], ci = zero || !cx ? 0 : c[1];
            c[0] = ar * sr - ai * si + (zero ? 0 : br * cr - bi * ci);
            if (cx)
                c[1] = ar * si + ai * sr + (zero ? 0 : br * ci + bi * cr);
        }
}

static cublasStatus_t strided(rec *r, const dfs_gemm_call *g, int native)
{
    const int64_t z = g->type == DFS_C64 ? 2 : 1;
    const int ta = g->transa != CUBLAS_OP_N, tb = g->transb != CUBLAS_OP_N;
    const int64_t ra = ta ? g->k : g->m, ca = ta ? g->m : g->k;
    const int64_t rb = tb ? g->n : g->k, cb = tb ? g->k : g->n;
    if (g->Aarray || g->Barray || g->Carray || g->lda != ra || g->ldb != rb || g->ldc != g->m)
        misuse(r, "a GEMM record not packed");
    if (!in_scratch(r, g->A, z * ((g->batch - 1) * g->strideA + ra * ca)) ||
        !in_scratch(r, g->B, z * ((g->batch - 1) * g->strideB + rb * cb)) ||
        !in_scratch(r, g->C, z * ((g->batch - 1) * g->strideC + g->m * g->n)))
        misuse(r, "a GEMM operand outside the scratch");
    const int n = r->computed++;
    if (n < 64) {
        r->group_batch[n] = g->batch;
        r->group_native[n] = native;
    }
    r->seen = *g;
    for (int64_t e = 0; e < g->batch; e++)
        gemm1(g, g->A + z * e * g->strideA, g->B + z * e * g->strideB, g->C + z * e * g->strideC);
    return CUBLAS_STATUS_SUCCESS;
}

static cublasStatus_t engine_gemm(void *p, const dfs_gemm_call *g)
{
    rec *r = p;
    if (r->gemms == r->decline_at) {
        r->gemms++;
        return r->decline_status;
    }
    cublasStatus_t s = strided(r, g, 0);
    r->gemms++;
    return s;
}

static cublasStatus_t native_gemm(void *p, const dfs_gemm_call *g)
{
    rec *r = p;
    cublasStatus_t s = strided(r, g, 1);
    r->natives++;
    return s;
}

static double *alloc(void *p, size_t bytes)
{
    rec *r = p;
    r->allocs++;
    if (r->fail_alloc || r->scratch)
        return NULL;
    r->scratch = malloc(bytes);
    r->bytes = bytes;
    for (size_t i = 0; i < bytes / sizeof(double); i++)
        r->scratch[i] = NAN;
    return r->scratch;
}

static void release(void *p, double *d)
{
    rec *r = p;
    if (d != r->scratch)
        misuse(r, "freed something not allocated");
    r->frees++;
    free(r->scratch);
    r->scratch = NULL;
}

/* ---------- a case: the call, its data, the run, the checks ---------- */

typedef struct {
    dfs_api api;
    int cplx;
    cublasOperation_t ta, tb;
    int64_t m, n, k, pad; /* leading dimensions: the stored rows + pad */
    int64_t batch;
    double alpha[2], beta[2];
    int host;         /* host scalars */
    size_t limit;     /* group bytes; 0: the shim's */
    int repeat;       /* A's and B's pointers: entries 0 and 1 alternately */
    int c_is_a;       /* C entry i is A entry i (m = n = k, op N, the same ld) */
    int nan_c;        /* C's values NaN (beta = 0: never read) */
    int decline_at;   /* the engine GEMM that declines (-1: none) */
    cublasStatus_t decline_status;
    int fail_alloc, fail_gather_at, fail_scatter_at; /* -1: none */
} pcase;

typedef struct {
    double *a[MAXB], *b[MAXB], *c[MAXB], *ref[MAXB], *c0[MAXB], *a0[MAXB], *b0[MAXB];
    int64_t lda, ldb, ldc, na, nb, nc; /* nX: doubles of an entry's buffer */
    rec r;
    cublasStatus_t st;
    dfs_gemm_call call;
} prun;

static double small_int(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (double)((int)((*s >> 33) % 9) - 4);
}

static int64_t entry_bytes(const pcase *pc)
{
    const int64_t z = pc->cplx ? 2 : 1;
    return z * 8 * (pc->m * pc->k + pc->k * pc->n + pc->m * pc->n);
}

static void run_case(const pcase *pc, prun *u)
{
    memset(u, 0, sizeof *u);
    const int64_t z = pc->cplx ? 2 : 1;
    const int ta = pc->ta != CUBLAS_OP_N, tb = pc->tb != CUBLAS_OP_N;
    const int64_t ra = ta ? pc->k : pc->m, ca = ta ? pc->m : pc->k;
    const int64_t rb = tb ? pc->n : pc->k, cb = tb ? pc->k : pc->n;
    u->lda = ra + pc->pad, u->ldb = rb + pc->pad, u->ldc = pc->m + pc->pad;
    u->na = z * u->lda * ca, u->nb = z * u->ldb * cb, u->nc = z * u->ldc * pc->n;
    uint64_t seed = 12345u + (uint64_t)pc->m * 31u + (uint64_t)pc->batch;
    for (int e = 0; e < pc->batch; e++) {
        u->a[e] = malloc((size_t)u->na * 8), u->b[e] = malloc((size_t)u->nb * 8);
        u->c[e] = malloc((size_t)u->nc * 8), u->ref[e] = malloc((size_t)u->nc * 8);
        u->c0[e] = malloc((size_t)u->nc * 8);
        for (int64_t i = 0; i < u->na; i++)
            u->a[e][i] = i % (z * u->lda) < z * ra ? small_int(&seed) : SENT;
        for (int64_t i = 0; i < u->nb; i++)
            u->b[e][i] = i % (z * u->ldb) < z * rb ? small_int(&seed) : SENT;
        for (int64_t i = 0; i < u->nc; i++)
            u->c[e][i] = i % (z * u->ldc) >= z * pc->m ? SENT
                         : pc->nan_c                   ? NAN
                                                       : small_int(&seed);
        memcpy(u->c0[e], u->c[e], (size_t)u->nc * 8);
        u->a0[e] = malloc((size_t)u->na * 8), u->b0[e] = malloc((size_t)u->nb * 8);
        memcpy(u->a0[e], u->a[e], (size_t)u->na * 8);
        memcpy(u->b0[e], u->b[e], (size_t)u->nb * 8);
    }
    const double *aa[MAXB], *bb[MAXB];
    double *cc[MAXB];
    for (int e = 0; e < pc->batch; e++) {
        aa[e] = u->a[pc->repeat ? e % 2 : e];
        bb[e] = u->b[pc->repeat ? (e + 1) % 2 : e];
        cc[e] = pc->c_is_a ? u->a[e] : u->c[e];
    }
    /* the reference: each entry on the original operands (in place: on copies of them) */
    dfs_gemm_call g = {.api = pc->api, .transa = pc->ta, .transb = pc->tb, .m = pc->m,
                       .n = pc->n, .k = pc->k, .alpha = pc->alpha, .lda = u->lda, .ldb = u->ldb,
                       .beta = pc->beta, .ldc = u->ldc, .batch = pc->batch,
                       .algo = CUBLAS_GEMM_DEFAULT_TENSOR_OP,
                       .type = pc->cplx ? DFS_C64 : DFS_R64};
    for (int e = 0; e < pc->batch; e++) {
        const double *src = pc->c_is_a ? u->a[e] : u->c[e];
        double *ain = malloc((size_t)u->na * 8);
        memcpy(ain, aa[e], (size_t)u->na * 8);
        memcpy(u->ref[e], src, (size_t)u->nc * 8);
        gemm1(&g, ain, bb[e], u->ref[e]);
        free(ain);
    }
    g.Aarray = aa, g.Barray = bb, g.Carray = cc;
    u->call = g;
    u->r.call = &u->call;
    u->r.decline_at = pc->decline_at;
    u->r.decline_status = pc->decline_status ? pc->decline_status : DFS_STATUS_DECLINED;
    u->r.fail_alloc = pc->fail_alloc;
    u->r.fail_gather_at = pc->fail_gather_at;
    u->r.fail_scatter_at = pc->fail_scatter_at;
    const dfs_ptr_batch_ops ops = {gather, scatter, engine_gemm, native_gemm,
                                   alloc,  release, "stand-in", &u->r};
    u->st = dfs_ptr_batch_run(&u->call, pc->host, pc->limit ? pc->limit
                                                            : DFS_PTR_BATCH_GROUP_BYTES, &ops);
    u->call.Aarray = u->call.Barray = NULL, u->call.Carray = NULL; /* the arrays go out of scope */
}

static void free_run(const pcase *pc, prun *u)
{
    for (int e = 0; e < pc->batch; e++) {
        free(u->a[e]), free(u->b[e]), free(u->c[e]), free(u->ref[e]), free(u->c0[e]);
        free(u->a0[e]), free(u->b0[e]);
    }
}

/* C (A's buffer when in place) bit for bit the reference, its padding and A, B untouched. */
static void expect_result(const pcase *pc, const prun *u, const char *what)
{
    ck_assert_msg(u->st == CUBLAS_STATUS_SUCCESS, "%s: status %d", what, (int)u->st);
    ck_assert_msg(!u->r.problem[0], "%s: %s", what, u->r.problem);
    for (int e = 0; e < pc->batch; e++) {
        const double *out = pc->c_is_a ? u->a[e] : u->c[e];
        for (int64_t i = 0; i < u->nc; i++)
            ck_assert_msg(!memcmp(&out[i], &u->ref[e][i], 8),
                          "%s: entry %d element %lld = %g, expected %g", what, e, (long long)i,
                          out[i], u->ref[e][i]);
        ck_assert_msg(pc->c_is_a || !memcmp(u->a[e], u->a0[e], (size_t)u->na * 8),
                      "%s: A entry %d written", what, e);
        ck_assert_msg(!memcmp(u->b[e], u->b0[e], (size_t)u->nb * 8), "%s: B entry %d written",
                      what, e);
    }
    ck_assert_msg(u->r.allocs == 1 && u->r.frees == 1, "%s: %d allocations, %d frees", what,
                  u->r.allocs, u->r.frees);
}

static void expect_untouched(const pcase *pc, const prun *u, const char *what)
{
    for (int e = 0; e < pc->batch; e++)
        ck_assert_msg(!memcmp(u->c[e], u->c0[e], (size_t)u->nc * 8), "%s: C entry %d written",
                      what, e);
    ck_assert_msg(u->r.scatters == 0, "%s: %d scatters", what, u->r.scatters);
    ck_assert_msg(u->r.frees == (u->r.allocs && !u->r.fail_alloc), "%s: the scratch not freed",
                  what);
}

static pcase base(int cplx, cublasOperation_t ta, cublasOperation_t tb)
{
    const pcase pc = {cplx ? DFS_API_ZGEMM_BATCHED : DFS_API_DGEMM_BATCHED,
                      cplx, ta, tb, 5, 4, 3, 2, 5, {0.5, cplx ? -1.5 : 0}, {-0.25, cplx ? 2 : 0},
                      1, 0, 0, 0, 0, -1, 0, 0, -1, -1};
    return pc;
}

static const cublasOperation_t ops3[3] = {CUBLAS_OP_N, CUBLAS_OP_T, CUBLAS_OP_C};

/* ---------- the tests ---------- */

/* Real and complex, every op pair, padded or not, host and device scalars, beta 0 or not. */
START_TEST(ops_and_scalars)
{
    for (int cx = 0; cx < 2; cx++)
        for (int ta = 0; ta < 3; ta++)
            for (int tb = 0; tb < 3; tb++)
                for (int v = 0; v < 8; v++) {
                    pcase pc = base(cx, ops3[ta], ops3[tb]);
                    pc.pad = v & 1 ? 3 : 0;
                    pc.host = !(v & 2);
                    if (v & 4) { /* beta = 0, C NaN: never read */
                        pc.beta[0] = pc.beta[1] = 0.0;
                        pc.nan_c = 1;
                    }
                    char what[96];
                    snprintf(what, sizeof what, "%s op %c%c pad %d %s beta %g", cx ? "Z" : "D",
                             "NTC"[ta], "NTC"[tb], (int)pc.pad, pc.host ? "host" : "device",
                             pc.beta[0]);
                    prun u;
                    run_case(&pc, &u);
                    expect_result(&pc, &u, what);
                    /* C gathered when read: not for beta = 0 given on the host */
                    const int read = !pc.host || !(v & 4);
                    ck_assert_msg(u.r.gathers_c == (read ? 1 : 0), "%s: C gathered %d times",
                                  what, u.r.gathers_c);
                    ck_assert_msg(u.r.gemms == 1 && u.r.natives == 0 && u.r.scatters == 1,
                                  "%s: %d GEMMs, %d native, %d scatters", what, u.r.gemms,
                                  u.r.natives, u.r.scatters);
                    free_run(&pc, &u);
                }
}
END_TEST

/* Complex beta with a zero real part is read; a zero complex beta on the host is not. */
START_TEST(complex_beta_parts)
{
    static const double betas[3][2] = {{0, 1}, {0, 0}, {1, 0}};
    for (int b = 0; b < 3; b++) {
        pcase pc = base(1, CUBLAS_OP_C, CUBLAS_OP_N);
        memcpy(pc.beta, betas[b], sizeof pc.beta);
        prun u;
        run_case(&pc, &u);
        expect_result(&pc, &u, "complex beta");
        ck_assert_int_eq(u.r.gathers_c, b == 1 ? 0 : 1);
        free_run(&pc, &u);
    }
}
END_TEST

/* The record: the strided form of the family, the type, algo and pointers packed. */
START_TEST(record)
{
    static const struct {
        dfs_api api;
        int cplx;
        dfs_api strided;
    } apis[] = {{DFS_API_DGEMM_BATCHED, 0, DFS_API_DGEMM_STRIDED_64},
                {DFS_API_DGEMM_BATCHED_64, 0, DFS_API_DGEMM_STRIDED_64},
                {DFS_API_ZGEMM_BATCHED, 1, DFS_API_ZGEMM_STRIDED_64},
                {DFS_API_ZGEMM_BATCHED_64, 1, DFS_API_ZGEMM_STRIDED_64},
                {DFS_API_GEMMEX_BATCHED, 0, DFS_API_GEMMEX_STRIDED_64},
                {DFS_API_GEMMEX_BATCHED_64, 1, DFS_API_GEMMEX_STRIDED_64}};
    for (size_t i = 0; i < sizeof apis / sizeof apis[0]; i++) {
        pcase pc = base(apis[i].cplx, CUBLAS_OP_T, CUBLAS_OP_N);
        pc.api = apis[i].api;
        prun u;
        run_case(&pc, &u);
        expect_result(&pc, &u, "record");
        const dfs_gemm_call *g = &u.r.seen;
        ck_assert_int_eq(g->api, apis[i].strided);
        ck_assert_int_eq(g->type, apis[i].cplx ? DFS_C64 : DFS_R64);
        ck_assert_int_eq(g->algo, CUBLAS_GEMM_DEFAULT_TENSOR_OP);
        ck_assert(g->alpha == pc.alpha && g->beta == pc.beta);
        ck_assert_int_eq(g->lda, pc.k);
        ck_assert_int_eq(g->ldb, pc.k);
        ck_assert_int_eq(g->ldc, pc.m);
        ck_assert_int_eq(g->strideA, pc.k * pc.m);
        ck_assert_int_eq(g->strideB, pc.k * pc.n);
        ck_assert_int_eq(g->strideC, pc.m * pc.n);
        ck_assert_int_eq(g->batch, pc.batch);
        free_run(&pc, &u);
    }
}
END_TEST

/* Groups: the byte limit for 1, 2, 3 entries and below one entry; every group its own GEMM and
 * moves, the results whole. */
START_TEST(group_split)
{
    for (int cx = 0; cx < 2; cx++)
        for (int per = 0; per <= 4; per++) {
            pcase pc = base(cx, ops3[per % 3], ops3[(per + 1) % 3]);
            pc.batch = 7;
            pc.pad = 1;
            /* per = 0: less than one entry; 4: the whole batch and more */
            pc.limit = per == 0   ? (size_t)entry_bytes(&pc) - 8
                       : per == 4 ? (size_t)entry_bytes(&pc) * 7 + 100
                                  : (size_t)entry_bytes(&pc) * (size_t)per + 8;
            const int size = per == 0 ? 1 : per == 4 ? 7 : per;
            const int groups = (7 + size - 1) / size;
            char what[64];
            snprintf(what, sizeof what, "%s groups of %d", cx ? "Z" : "D", size);
            prun u;
            run_case(&pc, &u);
            expect_result(&pc, &u, what);
            ck_assert_msg(u.r.gemms == groups, "%s: %d GEMMs", what, u.r.gemms);
            ck_assert_int_eq(u.r.scatters, groups);
            ck_assert_int_eq(u.r.gathers, 3 * groups);
            ck_assert_msg(u.r.bytes == (size_t)entry_bytes(&pc) * (size_t)size,
                          "%s: scratch of %zu bytes", what, u.r.bytes);
            for (int i = 0; i < groups; i++)
                ck_assert_int_eq(u.r.group_batch[i], i < groups - 1 ? size : 7 - size * i);
            free_run(&pc, &u);
        }
}
END_TEST

/* The first group declined or left to native: that status, C untouched; a later group
 * declined: that group on the native stand-in, the others on the engine. */
START_TEST(declines)
{
    static const cublasStatus_t sts[2] = {DFS_STATUS_DECLINED, DFS_STATUS_PREFER_NATIVE};
    for (int cx = 0; cx < 2; cx++)
        for (int s = 0; s < 2; s++) {
            pcase pc = base(cx, CUBLAS_OP_N, CUBLAS_OP_T);
            pc.batch = 5;
            pc.limit = (size_t)entry_bytes(&pc) * 2;
            pc.decline_status = sts[s];
            pc.decline_at = 0;
            prun u;
            run_case(&pc, &u);
            ck_assert_msg(u.st == sts[s], "first group: status %d", (int)u.st);
            ck_assert_int_eq(u.r.natives, 0);
            expect_untouched(&pc, &u, "first group declined");
            free_run(&pc, &u);
            for (int later = 1; later < 3; later++) {
                pc.decline_at = later;
                run_case(&pc, &u);
                expect_result(&pc, &u, "a later group declined");
                ck_assert_int_eq(u.r.gemms, 3);
                ck_assert_int_eq(u.r.natives, 1);
                ck_assert_int_eq(u.r.scatters, 3);
                for (int i = 0; i < 3; i++)
                    ck_assert_int_eq(u.r.group_native[i], i == later);
                free_run(&pc, &u);
            }
        }
}
END_TEST

/* No scratch: declined before anything; a failed move before anything was written: declined,
 * after: the call failed (and nothing further done). */
START_TEST(failures)
{
    pcase pc = base(0, CUBLAS_OP_N, CUBLAS_OP_N);
    pc.batch = 6;
    pc.limit = (size_t)entry_bytes(&pc) * 2;
    prun u;
    pc.fail_alloc = 1;
    run_case(&pc, &u);
    ck_assert_int_eq(u.st, DFS_STATUS_DECLINED);
    ck_assert_int_eq(u.r.gathers + u.r.gemms + u.r.natives, 0);
    expect_untouched(&pc, &u, "no scratch");
    free_run(&pc, &u);
    pc.fail_alloc = 0;
    for (int at = 0; at < 3; at++) { /* A, B or C of the first group */
        pc.fail_gather_at = at;
        run_case(&pc, &u);
        ck_assert_int_eq(u.st, DFS_STATUS_DECLINED);
        ck_assert_int_eq(u.r.gemms, 0);
        expect_untouched(&pc, &u, "a gather failed");
        free_run(&pc, &u);
    }
    pc.fail_gather_at = -1;
    pc.fail_scatter_at = 0;
    run_case(&pc, &u);
    ck_assert_int_eq(u.st, DFS_STATUS_DECLINED);
    expect_untouched(&pc, &u, "the first scatter failed");
    free_run(&pc, &u);
    pc.fail_scatter_at = 1;
    run_case(&pc, &u);
    ck_assert_int_eq(u.st, CUBLAS_STATUS_EXECUTION_FAILED);
    ck_assert_int_eq(u.r.gemms, 2);
    ck_assert_int_eq(u.r.frees, 1);
    free_run(&pc, &u);
    /* no such batch */
    pc.fail_scatter_at = -1;
    pc.k = 0;
    run_case(&pc, &u);
    ck_assert_int_eq(u.st, DFS_STATUS_DECLINED);
    ck_assert_int_eq(u.r.allocs, 0);
    free_run(&pc, &u);
}
END_TEST

/* A and B pointers repeated; C in place of A (the old A read); one entry, 1 x 1 x 1. */
START_TEST(aliases)
{
    for (int cx = 0; cx < 2; cx++) {
        pcase pc = base(cx, CUBLAS_OP_T, CUBLAS_OP_C);
        pc.repeat = 1;
        pc.limit = (size_t)entry_bytes(&pc) * 2;
        prun u;
        run_case(&pc, &u);
        expect_result(&pc, &u, "repeated A and B");
        free_run(&pc, &u);
        pc = base(cx, CUBLAS_OP_N, CUBLAS_OP_T);
        pc.m = pc.n = pc.k = 4;
        pc.pad = 2;
        pc.c_is_a = 1;
        pc.limit = (size_t)entry_bytes(&pc) * 2;
        run_case(&pc, &u);
        expect_result(&pc, &u, "C in place of A");
        free_run(&pc, &u);
        pc = base(cx, CUBLAS_OP_C, CUBLAS_OP_C);
        pc.m = pc.n = pc.k = 1;
        pc.batch = 1;
        run_case(&pc, &u);
        expect_result(&pc, &u, "1 x 1 x 1");
        free_run(&pc, &u);
    }
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("ptrbatch");
    TCase *t = tcase_create("driver");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, ops_and_scalars);
    tcase_add_test(t, complex_beta_parts);
    tcase_add_test(t, record);
    tcase_add_test(t, group_split);
    tcase_add_test(t, declines);
    tcase_add_test(t, failures);
    tcase_add_test(t, aliases);
    suite_add_tcase(s, t);
    return s;
}
