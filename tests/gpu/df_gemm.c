/* df_gemm — the df engine (EXBLAS_MODE=df[:scheme=paper|fused|accurate]) through the shim.
 * The scheme to reproduce is read from EXBLAS_MODE: paper -> DFS_DF_MAD16, fused -> DFS_DF_MAD15,
 * accurate -> DFS_DF_MAD29 (no scheme: fused, the engine's default).  Needs EXBLAS_REREAD=1.
 *
 *  1. bitwise, one group per shape (1x1x1, 1x1x9, 7x5x3, 129x130x131, 256^3, 300x17x1000,
 *     1000x1000x64): results equal dfs_df_gemm_host's (engines/df/host.c) bit for bit.
 *     cublasDgemm_v2: ops {N,T,C}^2 x ld tight/+7 x alpha {1,-1,0.5,3} x beta {0,1,-0.75} x
 *     host/device pointers; Dgemm_v2_64, GemmEx (R_64F, COMPUTE_64F) and DgemmStridedBatched
 *     (batch 3, every entry compared): ops {N,T,C}^2, ld +7; GemmEx_64, DgemmStridedBatched_64
 *     and GemmStridedBatchedEx(_64): four op pairs and four (alpha, beta).  beta = 0 runs with C
 *     full of NaN; the padding of A and B holds NaN (a stray read shows); C outside the matrices
 *     must stay untouched.  The host result is computed whole up to 256^3 (129x130x131 for
 *     batch entries 1 and 2) and on sampled rows and columns above (full rows of op(A) and
 *     columns of op(B), so the scale factors are the same); there every result must also be
 *     bitwise the first one computed from the same inputs (they do not depend on the layout).
 *  2. blocking: a product computed with the workspace default and again after
 *     setenv("EXBLAS_MODE", "df:...,workspace_mb=16") (several panels), and with either C tile
 *     (tile=128x64, 128x128, 64x64, alone and with workspace_mb=16) is bitwise the same and equals
 *     the host on sampled rows / columns; EXBLAS_MODE=native after a setenv gives the real cuBLAS
 *     result (shows that the shim re-reads), and the original mode comes back.
 *  3. accuracy against a double-double reference (TwoProd + TwoSum on the CPU): normwise error
 *     |C - ref| / (|alpha| sum|a b| + |beta c|) for uniform inputs, the phi generator with
 *     phi = 0, 1, 2 and rows scaled by 1e300 / 1e-300 / into the subnormals; asserted below
 *     (3k+4)u^2 + 2^-52 (accurate) or 4(k+1)u^2 + 2^-52 (paper, fused), u = 2^-24 (plus
 *     4 * 2^-1074 absolute for results in the subnormal range); printed beside native cuBLAS's.
 *  4. special values: Inf / -Inf / NaN in A and B give the same kinds of non-finite results in
 *     the same places as the real cuBLAS; other entries are finite and equal to the host's.
 *  5. alpha = 0 in device memory: C = beta*C exactly even with NaN and Inf in A and B.
 *  6. graph capture: a captured call of a shape run eagerly before (workspace present) replays
 *     bitwise the eager result (also with device alpha changed between replays); a captured call
 *     that needs more workspace runs natively (bitwise the real cuBLAS) and capture succeeds. */
#include "common.h"
#include "df_common.h"
#include "layout.h"

#include "../../engines/df/df_gemm.h"
#include "../../engines/df/host.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NB 3                   /* batch entries of the strided-batched calls */
#define NS 8                   /* sampled rows and columns where the host result is not whole */
#define BUF ((size_t)4 << 20)  /* elements of each device buffer and staging buffer */
#define C_GAP (-777.25)        /* C outside the matrices */
#define FULL0 (256.0 * 256 * 256) /* host result whole up to this m*n*k (batch entry 0) */
#define FULL1 (2.3e6)             /* ... and this for batch entries 1, 2 */

static int scheme;
static const char *scheme_name;
static char *mode_orig; /* EXBLAS_MODE as the test started */
static int reread;
static cublasHandle_t handle;
static double *dA, *dB, *dC, *d_ab;  /* device: BUF elements each; alpha, beta */
static double *hA, *hB, *hCt, *hCo;  /* pinned staging: A, B, C template, C out */
static call_bufs bufs;               /* d_ab, dC, hCt, hCo */
static double *got[NB], *got2;       /* tight results, BUF elements each */
static double qnan;
static const cublasOperation_t ops3[3] = {CUBLAS_OP_N, CUBLAS_OP_T, CUBLAS_OP_C};

/* ---------- small helpers ---------- */

static int64_t rup(int64_t x, int64_t to)
{
    return (x + to - 1) / to * to;
}

/* The panel plan of engines/df/engine.c (plan_panels), replicated for the messages only. */
static void df_plan(int64_t m, int64_t n, int64_t k, size_t budget, int64_t *Mb, int64_t *Nb,
                    size_t *bytes)
{
    const int64_t Kp = rup(k, DFS_DF_BK);
    *Mb = rup(m, DFS_DF_BM);
    *Nb = rup(n, DFS_DF_BN);
    while ((size_t)(*Mb + *Nb) * (size_t)Kp * 8 > budget && (*Mb > DFS_DF_BM || *Nb > DFS_DF_BN)) {
        if (*Mb >= *Nb)
            *Mb = rup(*Mb / 2, DFS_DF_BM);
        else
            *Nb = rup(*Nb / 2, DFS_DF_BN);
    }
    *bytes = (size_t)rup(m + n, 64) * sizeof(int) + (size_t)(*Mb + *Nb) * (size_t)Kp * 8;
}

/* EXBLAS_MODE=df[:key=value,...] -> the scheme; fatal for anything else. */
static void parse_mode(void)
{
    scheme = df_test_scheme("df_gemm", &scheme_name);
    mode_orig = strdup(getenv("EXBLAS_MODE"));
    const char *r = getenv("EXBLAS_REREAD");
    reread = r && *r && strcmp(r, "0");
}

/* The original mode with the options `extra` (key=value,...) added, replacing the same keys. */
static char *mode_with(const char *extra)
{
    size_t cap = strlen(mode_orig) + strlen(extra) + 8;
    char *out = malloc(cap), *opts = strdup(mode_orig + 2 + (mode_orig[2] == ':'));
    if (!out || !opts)
        gt_fatal("out of memory");
    snprintf(out, cap, "df:");
    char *save = NULL;
    for (char *t = strtok_r(opts, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        const char *eq = strchr(t, '=');
        size_t klen = eq ? (size_t)(eq - t) + 1 : strlen(t);
        int replaced = 0;
        for (const char *e = extra; *e && !replaced; e += strcspn(e, ",") + (e[strcspn(e, ",")] != 0))
            replaced = !strncmp(e, t, klen);
        if (!replaced) {
            strncat(out, t, cap - strlen(out) - 1);
            strncat(out, ",", cap - strlen(out) - 1);
        }
    }
    strncat(out, extra, cap - strlen(out) - 1);
    free(opts);
    return out;
}

static void set_mode(const char *v)
{
    if (setenv("EXBLAS_MODE", v, 1))
        gt_fatal("setenv EXBLAS_MODE failed");
}

/* ---------- problems, layouts, runs ---------- */

/* Logical operands: op(A) m x k, op(B) k x n and C m x n, column-major, tight. */
typedef struct {
    int64_t m, n, k;
    int nb;
    double *A[NB], *B[NB], *C[NB];
    double *Cnan; /* m x n quiet NaNs: C for beta = 0 */
} problem;

static problem make_problem(int64_t m, int64_t n, int64_t k, int nb, uint64_t seed)
{
    problem P = {.m = m, .n = n, .k = k, .nb = nb};
    for (int b = 0; b < nb; b++) {
        P.A[b] = df_xmalloc((size_t)(m * k));
        P.B[b] = df_xmalloc((size_t)(k * n));
        P.C[b] = df_xmalloc((size_t)(m * n));
        gt_fill(P.A[b], (size_t)(m * k), seed + 10 * (uint64_t)b + 1);
        gt_fill(P.B[b], (size_t)(k * n), seed + 10 * (uint64_t)b + 2);
        gt_fill(P.C[b], (size_t)(m * n), seed + 10 * (uint64_t)b + 3);
    }
    P.Cnan = df_xmalloc((size_t)(m * n));
    gt_fill_const(P.Cnan, (size_t)(m * n), qnan);
    return P;
}

static void free_problem(problem *P)
{
    for (int b = 0; b < P->nb; b++) {
        free(P->A[b]);
        free(P->B[b]);
        free(P->C[b]);
    }
    free(P->Cnan);
}

/* ---------- bitwise comparisons ---------- */

typedef struct {
    size_t n, total;
    int64_t b, i, j;
    double want, got;
} diffs;

static void diff_add(diffs *d, int64_t b, int64_t i, int64_t j, double want, double have)
{
    d->total++;
    if (df_bits(want) == df_bits(have))
        return;
    if (!d->n++) {
        d->b = b;
        d->i = i;
        d->j = j;
        d->want = want;
        d->got = have;
    }
}

static int diff_report(const diffs *d, const char *what, const char *want_name)
{
    if (!d->n)
        return 1;
    gt_fail("%s: %zu of %zu entries differ; first: batch %lld C(%lld,%lld): %s %.17g "
            "[%016" PRIx64 "], shim %.17g [%016" PRIx64 "]", what, d->n, d->total,
            (long long)d->b, (long long)d->i, (long long)d->j, want_name, d->want, df_bits(d->want),
            d->got, df_bits(d->got));
    return 0;
}

/* Tight m x n `have` against tight `want`, bitwise (fast path: memcmp per column). */
static int cmp_tight(const char *what, const char *want_name, const double *want,
                     const double *have, int64_t m, int64_t n, int64_t b)
{
    diffs d = {0};
    for (int64_t j = 0; j < n; j++) {
        if (!memcmp(want + j * m, have + j * m, (size_t)m * sizeof *want)) {
            d.total += (size_t)m;
            continue;
        }
        for (int64_t i = 0; i < m; i++)
            diff_add(&d, b, i, j, want[i + j * m], have[i + j * m]);
    }
    return diff_report(&d, what, want_name);
}

/* Up to NS indices below n: the ends, both sides of the first block edge, the middle, random. */
static int pick(int64_t n, int64_t *out, uint64_t seed)
{
    int cnt = 0;
    if (n <= NS) {
        for (int64_t i = 0; i < n; i++)
            out[cnt++] = i;
        return cnt;
    }
    const int64_t fixed[6] = {0, n - 1, 127, 128, n / 2, 255};
    uint64_t s = seed;
    for (int f = 0; cnt < NS; f++) {
        int64_t v = f < 6 ? fixed[f] : (int64_t)(gt_rand(&s) % (uint64_t)n);
        int dup = v >= n;
        for (int c = 0; c < cnt && !dup; c++)
            dup = out[c] == v;
        if (!dup)
            out[cnt++] = v;
    }
    return cnt;
}

/* dfs_df_gemm_host's result for one batch entry of a problem: whole, or on sampled rows and
 * columns (op(A) rows x all of op(B), all of op(A) x op(B) columns: entry (i, j) depends only on
 * row i of op(A), column j of op(B), alpha, beta and C(i, j)). */
typedef struct {
    int ready, full;
    double *E; /* full: m x n */
    int nr, nc;
    int64_t rows[NS], cols[NS];
    double *R;     /* sampled: C(rows[r], j) at R[r + j*nr] */
    double *Cc;    /* sampled: C(i, cols[c]) at Cc[i + c*m] */
    double *first; /* sampled: the first GPU result checked against this, m x n */
} ref;

static void ref_free(ref *r)
{
    free(r->E);
    free(r->R);
    free(r->Cc);
    free(r->first);
    memset(r, 0, sizeof *r);
}

static void ref_compute(ref *r, const problem *P, int b, double alpha, double beta, int full)
{
    const int64_t m = P->m, n = P->n, k = P->k;
    const double *Cin = beta == 0.0 ? P->Cnan : P->C[b];
    ref_free(r);
    r->ready = 1;
    r->full = full;
    if (full) {
        r->E = df_xmalloc((size_t)(m * n));
        memcpy(r->E, Cin, (size_t)(m * n) * sizeof *Cin);
        dfs_df_gemm_host(scheme, 0, 0, m, n, k, alpha, P->A[b], m, P->B[b], k, beta, r->E, m);
        return;
    }
    r->nr = pick(m, r->rows, 0x1234 + (uint64_t)b);
    r->nc = pick(n, r->cols, 0x5678 + (uint64_t)b);
    const int nr = r->nr, nc = r->nc;
    double *sa = df_xmalloc((size_t)(nr * k)), *sb = df_xmalloc((size_t)(k * nc));
    for (int64_t p = 0; p < k; p++)
        for (int q = 0; q < nr; q++)
            sa[q + p * nr] = P->A[b][r->rows[q] + p * m];
    r->R = df_xmalloc((size_t)(nr * n));
    for (int64_t j = 0; j < n; j++)
        for (int q = 0; q < nr; q++)
            r->R[q + j * nr] = Cin[r->rows[q] + j * m];
    dfs_df_gemm_host(scheme, 0, 0, nr, n, k, alpha, sa, nr, P->B[b], k, beta, r->R, nr);
    for (int c = 0; c < nc; c++)
        memcpy(sb + c * k, P->B[b] + r->cols[c] * k, (size_t)k * sizeof *sb);
    r->Cc = df_xmalloc((size_t)(m * nc));
    for (int c = 0; c < nc; c++)
        memcpy(r->Cc + c * m, Cin + r->cols[c] * m, (size_t)m * sizeof *Cin);
    dfs_df_gemm_host(scheme, 0, 0, m, nc, k, alpha, P->A[b], m, sb, k, beta, r->Cc, m);
    free(sa);
    free(sb);
}

/* The tight GPU result of batch entry b against the host result. */
static void ref_check(ref *r, const double *have, int64_t m, int64_t n, int64_t b)
{
    char what[96];
    snprintf(what, sizeof what, "C of batch entry %lld vs dfs_df_gemm_host", (long long)b);
    if (r->full) {
        cmp_tight(what, "host", r->E, have, m, n, b);
        return;
    }
    diffs d = {0};
    for (int q = 0; q < r->nr; q++)
        for (int64_t j = 0; j < n; j++)
            diff_add(&d, b, r->rows[q], j, r->R[q + j * r->nr], have[r->rows[q] + j * m]);
    for (int c = 0; c < r->nc; c++)
        for (int64_t i = 0; i < m; i++)
            diff_add(&d, b, i, r->cols[c], r->Cc[i + c * m], have[i + r->cols[c] * m]);
    strncat(what, " (sampled rows/columns)", sizeof what - strlen(what) - 1);
    diff_report(&d, what, "host");
    if (!r->first) {
        r->first = df_xmalloc((size_t)(m * n));
        memcpy(r->first, have, (size_t)(m * n) * sizeof *have);
    } else {
        cmp_tight("C vs the first result of the same inputs (another layout/API/pointer mode)",
                  "first", r->first, have, m, n, b);
    }
}

/* ---------- 1. bitwise ---------- */

static const double alphas[4] = {1, -1, 0.5, 3};
static const double betas[3] = {0, 1, -0.75};
static const int64_t shapes[7][3] = {{1, 1, 1},       {1, 1, 9},      {7, 5, 3},
                                     {129, 130, 131}, {256, 256, 256}, {300, 17, 1000},
                                     {1000, 1000, 64}};
/* Op pairs for the APIs that do not get all nine. */
static const cublasOperation_t ops4[4][2] = {{CUBLAS_OP_N, CUBLAS_OP_N}, {CUBLAS_OP_T, CUBLAS_OP_C},
                                             {CUBLAS_OP_C, CUBLAS_OP_N}, {CUBLAS_OP_N, CUBLAS_OP_T}};

static struct {
    int valid, nb, beta0;
    int64_t ldc, sC;
    const problem *P;
    size_t span;
} tmpl_key;

static void bitwise_case(const problem *P, ref *refs, double alpha, double beta, gt_gemm_api api,
                         cublasOperation_t ta, cublasOperation_t tb, int pad, int dev)
{
    const int64_t m = P->m, n = P->n, k = P->k;
    const int strided = gt_gemm_api_strided(api), nb = strided ? NB : 1;
    const int tA = ta != CUBLAS_OP_N, tB = tb != CUBLAS_OP_N;
    gt_gemm g = {.api = api, .ta = ta, .tb = tb, .m = m, .n = n, .k = k, .batch = nb,
                 .typeA = CUDA_R_64F, .typeB = CUDA_R_64F, .typeC = CUDA_R_64F,
                 .compute = CUBLAS_COMPUTE_64F, .algo = CUBLAS_GEMM_DEFAULT, .A = dA, .B = dB};
    g.lda = (tA ? k : m) + pad;
    g.ldb = (tB ? n : k) + pad;
    g.ldc = m + pad;
    if (strided) {
        g.sA = (long long)(g.lda * (tA ? m : k) + 11);
        g.sB = (long long)(g.ldb * (tB ? k : n) + 7);
        g.sC = (long long)(g.ldc * n + 13);
    }
    gt_case("%s%s op=%c%c ld %s alpha=%g beta=%g ptr=%s%s", gt_gemm_api_name[api],
            gt_gemm_api_ex(api) ? "[R_64F,COMPUTE_64F]" : "", gt_op_char(ta), gt_op_char(tb),
            pad ? "+7" : "tight", alpha, beta, dev ? "device" : "host",
            strided ? " batch=3" : "");
    size_t sa = lay_out(hA, BUF, P->A, nb, m, k, tA, g.lda, g.sA, qnan);
    gt_h2d(dA, hA, sa * sizeof *hA);
    size_t sb = lay_out(hB, BUF, P->B, nb, k, n, tB, g.ldb, g.sB, qnan);
    gt_h2d(dB, hB, sb * sizeof *hB);
    const int beta0 = beta == 0.0;
    if (!tmpl_key.valid || tmpl_key.nb != nb || tmpl_key.beta0 != beta0 ||
        tmpl_key.ldc != g.ldc || tmpl_key.sC != g.sC || tmpl_key.P != P) {
        double *Cl[NB];
        for (int b = 0; b < nb; b++)
            Cl[b] = beta0 ? P->Cnan : P->C[b];
        tmpl_key.span = lay_out(hCt, BUF, Cl, nb, m, n, 0, g.ldc, g.sC, C_GAP);
        tmpl_key.valid = 1;
        tmpl_key.nb = nb;
        tmpl_key.beta0 = beta0;
        tmpl_key.ldc = g.ldc;
        tmpl_key.sC = g.sC;
        tmpl_key.P = P;
    }
    cublasStatus_t st = call_gemm(&bufs, 0, handle, &g, dev, alpha, beta, tmpl_key.span);
    if (st != CUBLAS_STATUS_SUCCESS) {
        gt_fail("status %s", gt_status_name(st));
        return;
    }
    check_outside(hCt, hCo, nb, m, n, g.ldc, g.sC);
    for (int b = 0; b < nb; b++) {
        gather(got[b], hCo + (size_t)b * (size_t)g.sC, m, n, g.ldc);
        if (beta0)
            for (int64_t i = 0; i < m * n; i++)
                if (isnan(got[b][i])) {
                    gt_fail("C(%lld,%lld) of batch entry %d is NaN with beta = 0 (the NaN in C "
                            "propagated)", (long long)(i % m), (long long)(i / m), b);
                    break;
                }
        if (!refs[b].ready) {
            double mnk = (double)m * (double)n * (double)k;
            ref_compute(&refs[b], P, b, alpha, beta, mnk <= (b ? FULL1 : FULL0));
        }
        ref_check(&refs[b], got[b], m, n, b);
    }
}

static void bitwise_shape(int si)
{
    const int64_t m = shapes[si][0], n = shapes[si][1], k = shapes[si][2];
    const double mnk = (double)m * (double)n * (double)k;
    const int big = m * n > 256 * 256;
    df_group("bitwise %lldx%lldx%lld vs dfs_df_gemm_host (%s): Dgemm {N,T,C}^2 x ld tight/+7 x "
          "alpha{1,-1,0.5,3} x beta{0,1,-0.75} x host/device ptr; Dgemm_64, GemmEx, "
          "DgemmSB(batch 3) {N,T,C}^2 ld+7%s; GemmEx_64, DgemmSB_64, GemmSBEx(_64) 4 op pairs, "
          "4 alpha,beta", (long long)m, (long long)n, (long long)k,
          mnk <= FULL1 ? "every entry" : mnk <= FULL0 ? "every entry; batch 1,2 sampled"
                                                      : "sampled rows/columns",
          big ? " 4 alpha,beta" : "");
    problem P = make_problem(m, n, k, NB, 1000 + 100 * (uint64_t)si);
    tmpl_key.valid = 0;
    static const struct {
        gt_gemm_api api;
        int all_ops, pads, few; /* pads: bit 0 tight, bit 1 +7; few: only 4 alpha,beta */
    } apis[] = {
        {GT_DGEMM, 1, 3, 0},       {GT_DGEMM_64, 1, 2, -1},     {GT_GEMMEX, 1, 2, -1},
        {GT_DGEMM_SB, 1, 2, -1},   {GT_GEMMEX_64, 0, 2, 1},     {GT_DGEMM_SB_64, 0, 2, 1},
        {GT_GEMM_SBEX, 0, 2, 1},   {GT_GEMM_SBEX_64, 0, 1, 1},
    };
    for (int ia = 0; ia < 4; ia++)
        for (int ib = 0; ib < 3; ib++) {
            ref refs[NB];
            memset(refs, 0, sizeof refs);
            const int in_few = (ia + ib) % 3 == 0;
            for (size_t a = 0; a < sizeof apis / sizeof apis[0]; a++) {
                int few = apis[a].few < 0 ? big : apis[a].few;
                if (few && !in_few)
                    continue;
                int nops = apis[a].all_ops ? 9 : 4;
                for (int o = 0; o < nops; o++) {
                    cublasOperation_t ta = apis[a].all_ops ? ops3[o / 3] : ops4[o][0];
                    cublasOperation_t tb = apis[a].all_ops ? ops3[o % 3] : ops4[o][1];
                    for (int pad = 0; pad <= 7; pad += 7) {
                        if (!(apis[a].pads & (pad ? 2 : 1)))
                            continue;
                        for (int dev = 0; dev < 2; dev++)
                            bitwise_case(&P, refs, alphas[ia], betas[ib], apis[a].api, ta, tb,
                                         pad, dev);
                    }
                }
            }
            for (int b = 0; b < NB; b++)
                ref_free(&refs[b]);
        }
    free_problem(&P);
    df_group_end();
}

/* ---------- 2. blocking ---------- */

/* Options that change how the product is blocked, never its result. */
static const char *const block_variants[] = {"workspace_mb=16", "tile=128x64", "tile=128x128",
                                             "tile=64x64", "workspace_mb=16,tile=128x64",
                                             "workspace_mb=16,tile=128x128",
                                             "workspace_mb=16,tile=64x64"};
#define N_BLOCK_VARIANTS (int)(sizeof block_variants / sizeof block_variants[0])

static void blocking_group(void)
{
    const int64_t m = 1500, n = 1300, k = 1500;
    const double alpha = 1.5, beta = -0.75;
    int64_t Mb0, Nb0, Mb, Nb;
    size_t by0, by;
    df_plan(m, n, k, (size_t)1024 << 20, &Mb0, &Nb0, &by0);
    df_plan(m, n, k, (size_t)16 << 20, &Mb, &Nb, &by);
    df_group("blocking %lldx%lldx%lld, ops NN and TC, alpha=%g beta=%g: EXBLAS_MODE=%s (%lldx%lld "
          "panels by engine.c's plan) vs the same + workspace_mb=16 (%lldx%lld panels), "
          "tile=128x64, 128x128, 64x64 and with it: bitwise, and vs dfs_df_gemm_host on %d rows + %d "
          "columns; EXBLAS_MODE=native after setenv = real cuBLAS", (long long)m, (long long)n,
          (long long)k, alpha, beta, mode_orig, (long long)((m + Mb0 - 1) / Mb0),
          (long long)((n + Nb0 - 1) / Nb0), (long long)((m + Mb - 1) / Mb),
          (long long)((n + Nb - 1) / Nb), NS, NS);
    if (!reread) {
        gt_case("setup");
        gt_fail("EXBLAS_REREAD is not set: the shim would not see setenv(\"EXBLAS_MODE\")");
        df_group_end();
        return;
    }
    problem P = make_problem(m, n, k, 1, 77);
    ref r = {0};
    ref_compute(&r, &P, 0, alpha, beta, 0);
    double *first_nn = df_xmalloc((size_t)(m * n));
    static const cublasOperation_t pairs[2][2] = {{CUBLAS_OP_N, CUBLAS_OP_N},
                                                  {CUBLAS_OP_T, CUBLAS_OP_C}};
    for (int pi = 0; pi < 2; pi++) {
        const cublasOperation_t ta = pairs[pi][0], tb = pairs[pi][1];
        const int tA = ta != CUBLAS_OP_N, tB = tb != CUBLAS_OP_N;
        gt_gemm g = {.api = GT_DGEMM, .ta = ta, .tb = tb, .m = m, .n = n, .k = k, .batch = 1,
                     .A = dA, .B = dB, .lda = tA ? k : m, .ldb = tB ? n : k, .ldc = m};
        gt_h2d(dA, hA, lay_out(hA, BUF, P.A, 1, m, k, tA, g.lda, 0, qnan) * sizeof *hA);
        gt_h2d(dB, hB, lay_out(hB, BUF, P.B, 1, k, n, tB, g.ldb, 0, qnan) * sizeof *hB);
        size_t span = lay_out(hCt, BUF, P.C, 1, m, n, 0, m, 0, C_GAP);
        tmpl_key.valid = 0;

        gt_case("op=%c%c EXBLAS_MODE=%s", gt_op_char(ta), gt_op_char(tb), mode_orig);
        set_mode(mode_orig);
        cublasStatus_t st = call_gemm(&bufs, 0, handle, &g, 0, alpha, beta, span);
        if (st != CUBLAS_STATUS_SUCCESS)
            gt_fail("status %s", gt_status_name(st));
        memcpy(got[0], hCo, span * sizeof *hCo);
        /* ref_check keeps the first result it sees in r.first: dropped after each check here,
         * the comparisons between results are explicit */
        ref_check(&r, got[0], m, n, 0);
        free(r.first);
        r.first = NULL;
        if (pi == 0)
            memcpy(first_nn, got[0], span * sizeof *hCo);
        else
            cmp_tight("C (op TC) vs C (op NN)", "NN", first_nn, got[0], m, n, 0);

        for (int v = 0; v < N_BLOCK_VARIANTS; v++) {
            char *mode = mode_with(block_variants[v]);
            gt_case("op=%c%c EXBLAS_MODE=%s", gt_op_char(ta), gt_op_char(tb), mode);
            set_mode(mode);
            st = call_gemm(&bufs, 0, handle, &g, 0, alpha, beta, span);
            if (st != CUBLAS_STATUS_SUCCESS)
                gt_fail("status %s", gt_status_name(st));
            memcpy(got[1], hCo, span * sizeof *hCo);
            char what[160];
            snprintf(what, sizeof what, "C with %s vs C with EXBLAS_MODE=%s", block_variants[v],
                     mode_orig);
            cmp_tight(what, "first", got[0], got[1], m, n, 0);
            ref_check(&r, got[1], m, n, 0);
            free(r.first);
            r.first = NULL;
            free(mode);
        }

        gt_case("op=%c%c EXBLAS_MODE=native after setenv: real cuBLAS bitwise", gt_op_char(ta),
                gt_op_char(tb));
        set_mode("native");
        st = call_gemm(&bufs, 0, handle, &g, 0, alpha, beta, span);
        memcpy(got[2], hCo, span * sizeof *hCo);
        cublasStatus_t sr = call_gemm(&bufs, 1, handle, &g, 0, alpha, beta, span);
        gt_cmp_status("cublasDgemm_v2", sr, st);
        if (!cmp_tight("C with EXBLAS_MODE=native vs real cuBLAS (the shim did not re-read "
                       "EXBLAS_MODE?)", "real", hCo, got[2], m, n, 0))
            if (!memcmp(got[2], got[0], span * sizeof *hCo))
                gt_fail("EXBLAS_MODE=native after setenv still gave the df result");
        set_mode(mode_orig);
    }
    gt_case("back to EXBLAS_MODE=%s: op NN gives the first result again", mode_orig);
    {
        gt_gemm g = {.api = GT_DGEMM, .ta = CUBLAS_OP_N, .tb = CUBLAS_OP_N, .m = m, .n = n,
                     .k = k, .batch = 1, .A = dA, .B = dB, .lda = m, .ldb = k, .ldc = m};
        gt_h2d(dA, hA, lay_out(hA, BUF, P.A, 1, m, k, 0, m, 0, qnan) * sizeof *hA);
        gt_h2d(dB, hB, lay_out(hB, BUF, P.B, 1, k, n, 0, k, 0, qnan) * sizeof *hB);
        size_t span = lay_out(hCt, BUF, P.C, 1, m, n, 0, m, 0, C_GAP);
        cublasStatus_t st = call_gemm(&bufs, 0, handle, &g, 0, alpha, beta, span);
        if (st != CUBLAS_STATUS_SUCCESS)
            gt_fail("status %s", gt_status_name(st));
        cmp_tight("C after restoring EXBLAS_MODE vs the first result", "first", first_nn, hCo, m,
                  n, 0);
    }
    tmpl_key.valid = 0;
    free(first_nn);
    ref_free(&r);
    free_problem(&P);
    df_group_end();
}

/* ---------- 3. accuracy ---------- */

static double gauss(uint64_t *s)
{
    double u1 = ((double)(gt_rand(s) >> 11) + 1.0) * 0x1p-53;
    double u2 = (double)(gt_rand(s) >> 11) * 0x1p-53;
    return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

/* gen < 0: uniform in [-1, 1); else x = (U - 0.5) * exp(gen * N(0, 1)). */
static void fill_gen(double *x, size_t n, int gen, uint64_t seed)
{
    if (gen < 0) {
        gt_fill(x, n, seed);
        return;
    }
    uint64_t s = seed;
    for (size_t i = 0; i < n; i++) {
        double U = (double)(gt_rand(&s) >> 11) * 0x1p-53;
        x[i] = (U - 0.5) * exp((double)gen * gauss(&s));
    }
}

typedef struct {
    double norm;  /* max normwise error over entries out of the subnormal range */
    double sub;   /* max |C - ref| / 2^-1074 over entries in it, -1 if none */
    size_t viol;  /* entries above the bound */
    int64_t vi, vj;
    double vexcess;
} acc_err;

#define ACC_M 256
#define ACC_N 256
#define ACC_COLSTEP 8

/* Errors of the m x n result Cg (tight) on all rows x the sampled columns.  Per row i, T[i]
 * scales the reference: S (dd) and D = sum |a b| are of the row scaled by 2^T[i] (exact), so
 * that products of subnormal rows are exact too. */
static void acc_measure(const double *Cg, const double *C0, const int *T, const dd *S,
                        const double *D, const int64_t *cols, int nc, double alpha, double beta,
                        double bound, acc_err *out)
{
    memset(out, 0, sizeof *out);
    out->sub = -1;
    for (int c = 0; c < nc; c++)
        for (int64_t i = 0; i < ACC_M; i++) {
            const int64_t j = cols[c];
            const double x = Cg[i + j * ACC_M], c0 = C0[i + j * ACC_M];
            const dd s = S[i + c * ACC_M];
            const int t = T[i];
            double e, den, real_den, allow, sub_units;
            if (beta == 0.0) {
                dd r = dd_mul_d(s, alpha);
                e = fabs((ldexp(x, t) - r.hi) - r.lo);
                den = fabs(alpha) * D[i + c * ACC_M];
                real_den = ldexp(den, -t);
                allow = bound * den + ldexp(4.0, t - 1074);
                sub_units = ldexp(e, 1074 - t);
            } else {
                dd su = {ldexp(s.hi, -t), ldexp(s.lo, -t)};
                dd r = dd_add(dd_mul_d(su, alpha), two_prod(beta, c0));
                e = fabs((x - r.hi) - r.lo);
                den = fabs(alpha) * ldexp(D[i + c * ACC_M], -t) + fabs(beta * c0);
                real_den = den;
                allow = bound * den + 4.0 * 0x1p-1074;
                sub_units = ldexp(e, 1074);
            }
            if (!(e <= allow)) {
                double excess = den > 0 ? e / den : INFINITY;
                if (!out->viol++ || excess > out->vexcess) {
                    out->vi = i;
                    out->vj = j;
                    out->vexcess = excess;
                }
            }
            /* below 2^-1000, the absolute 2^-1074-sized errors of results in the subnormal
             * range are no longer negligible next to u^2 = 2^-48 relative */
            if (real_den >= 0x1p-1000) {
                if (den > 0 && e / den > out->norm)
                    out->norm = e / den;
                if (!(e == e))
                    out->norm = NAN;
            } else if (sub_units > out->sub) {
                out->sub = sub_units;
            }
        }
}

static void accuracy_group(void)
{
    static const int64_t ks[3] = {64, 1000, 4096};
    static const double abs_[2][2] = {{1, 0}, {-3, 0.5}};
    static const char *const gen_names[5] = {"uniform[-1,1)", "phi=0", "phi=1", "phi=2",
                                             "rows*1e300,1e-300,2^-1040"};
    static const int gens[5] = {-1, 0, 1, 2, -1};
    struct {
        acc_err df, nat;
        double bound;
    } tab[5][3][2];
    df_group("accuracy (scheme %s) vs a double-double reference, %dx%dxk ops NN, k in "
          "{64,1000,4096}, every row x every %dth column: max |C - ref| / (|alpha| sum|a b| + "
          "|beta c|) below %s", scheme_name, ACC_M, ACC_N, ACC_COLSTEP,
          scheme == DFS_DF_MAD29 ? "(3k+4)u^2 + 2^-52" : "4(k+1)u^2 + 2^-52");
    int64_t cols[ACC_N / ACC_COLSTEP + 1];
    int nc = 0;
    for (int64_t j = 0; j < ACC_N; j += ACC_COLSTEP)
        cols[nc++] = j;
    cols[nc++] = ACC_N - 1;
    int *T = malloc(ACC_M * sizeof *T);
    dd *S = malloc((size_t)ACC_M * (size_t)nc * sizeof *S);
    double *D = df_xmalloc((size_t)ACC_M * (size_t)nc);
    double *Cdf = df_xmalloc((size_t)ACC_M * ACC_N), *Cnat = df_xmalloc((size_t)ACC_M * ACC_N);
    double *C0 = df_xmalloc((size_t)ACC_M * ACC_N), *Cn = df_xmalloc((size_t)ACC_M * ACC_N);
    gt_fill_const(Cn, (size_t)ACC_M * ACC_N, qnan);
    if (!T || !S)
        gt_fatal("out of host memory");
    for (int gi = 0; gi < 5; gi++)
        for (int ki = 0; ki < 3; ki++) {
            const int64_t k = ks[ki];
            double *A = df_xmalloc((size_t)(ACC_M * k)), *B = df_xmalloc((size_t)(k * ACC_N));
            uint64_t seed = 5000 + 100 * (uint64_t)gi + 10 * (uint64_t)ki;
            fill_gen(A, (size_t)(ACC_M * k), gens[gi], seed + 1);
            fill_gen(B, (size_t)(k * ACC_N), gens[gi], seed + 2);
            gt_fill(C0, (size_t)ACC_M * ACC_N, seed + 3);
            if (gi == 4)
                for (int64_t p = 0; p < k; p++) {
                    A[0 + p * ACC_M] *= 1e300;
                    A[1 + p * ACC_M] *= 1e-300;
                    A[2 + p * ACC_M] *= 0x1p-1040; /* subnormal */
                }
            /* reference: per row, scaled by 2^T so that its largest element is in [0.5, 1) */
            for (int64_t i = 0; i < ACC_M; i++) {
                double mx = 0;
                for (int64_t p = 0; p < k; p++)
                    mx = fmax(mx, fabs(A[i + p * ACC_M]));
                int e = 0;
                if (mx > 0)
                    frexp(mx, &e);
                T[i] = -e;
            }
            for (int c = 0; c < nc; c++)
                for (int64_t i = 0; i < ACC_M; i++) {
                    dd s = {0, 0};
                    double d = 0;
                    const double *b = B + cols[c] * k;
                    for (int64_t p = 0; p < k; p++) {
                        double a = ldexp(A[i + p * ACC_M], T[i]);
                        s = dd_add(s, two_prod(a, b[p]));
                        d += fabs(a * b[p]);
                    }
                    S[i + c * ACC_M] = s;
                    D[i + c * ACC_M] = d;
                }
            gt_gemm g = {.api = GT_DGEMM, .ta = CUBLAS_OP_N, .tb = CUBLAS_OP_N, .m = ACC_M,
                         .n = ACC_N, .k = k, .batch = 1, .A = dA, .B = dB, .lda = ACC_M,
                         .ldb = k, .ldc = ACC_M};
            gt_h2d(dA, A, (size_t)(ACC_M * k) * sizeof *A);
            gt_h2d(dB, B, (size_t)(k * ACC_N) * sizeof *B);
            for (int ci = 0; ci < 2; ci++) {
                const double alpha = abs_[ci][0], beta = abs_[ci][1];
                gt_case("%s k=%lld alpha=%g beta=%g", gen_names[gi], (long long)k, alpha, beta);
                const size_t span = (size_t)ACC_M * ACC_N;
                memcpy(hCt, beta == 0.0 ? Cn : C0, span * sizeof *hCt);
                tmpl_key.valid = 0;
                cublasStatus_t st = call_gemm(&bufs, 0, handle, &g, 0, alpha, beta, span);
                if (st != CUBLAS_STATUS_SUCCESS)
                    gt_fail("shim: status %s", gt_status_name(st));
                memcpy(Cdf, hCo, span * sizeof *hCo);
                st = call_gemm(&bufs, 1, handle, &g, 0, alpha, beta, span);
                if (st != CUBLAS_STATUS_SUCCESS)
                    gt_fail("real cuBLAS: status %s", gt_status_name(st));
                memcpy(Cnat, hCo, span * sizeof *hCo);
                const double bound = df_test_bound(scheme, k);
                tab[gi][ki][ci].bound = bound;
                acc_measure(Cdf, C0, T, S, D, cols, nc, alpha, beta, bound, &tab[gi][ki][ci].df);
                acc_measure(Cnat, C0, T, S, D, cols, nc, alpha, beta, bound,
                            &tab[gi][ki][ci].nat);
                const acc_err *e = &tab[gi][ki][ci].df;
                if (e->viol)
                    gt_fail("%zu entries above the bound %.3g (+4*2^-1074); worst C(%lld,%lld): "
                            "%.3g x sum", e->viol, bound, (long long)e->vi, (long long)e->vj,
                            e->vexcess);
                if (!(e->norm == e->norm))
                    gt_fail("NaN error (non-finite df result)");
            }
            free(A);
            free(B);
        }
    df_group_end();
    printf("     accuracy table (scheme %s, u = 2^-24; normwise errors; 'sub': entries in the "
           "subnormal range, |C - ref| in units of 2^-1074):\n", scheme_name);
    for (int gi = 0; gi < 5; gi++)
        for (int ki = 0; ki < 3; ki++)
            for (int ci = 0; ci < 2; ci++) {
                const acc_err *a = &tab[gi][ki][ci].df, *b = &tab[gi][ki][ci].nat;
                char sub[96] = "";
                if (a->sub >= 0 || b->sub >= 0)
                    snprintf(sub, sizeof sub, "  sub: df %.3g native %.3g", a->sub, b->sub);
                printf("     %-26s k=%-5lld alpha=%-3g beta=%-4g df %9.3e (%6.2f u^2)  native "
                       "%9.3e  df/native %8.3g  bound %9.3e%s\n", gen_names[gi],
                       (long long)ks[ki], abs_[ci][0], abs_[ci][1], a->norm, a->norm / 0x1p-48,
                       b->norm, b->norm > 0 ? a->norm / b->norm : INFINITY,
                       tab[gi][ki][ci].bound, sub);
            }
    free(T);
    free(S);
    free(D);
    free(Cdf);
    free(Cnat);
    free(C0);
    free(Cn);
}

/* ---------- 4. special values ---------- */

static int fclass(double x)
{
    return isnan(x) ? 1 : isinf(x) ? (x > 0 ? 2 : 3) : 0;
}

static const char *const fclass_name[4] = {"finite", "NaN", "+Inf", "-Inf"};

static void special_group(void)
{
    const int64_t m = 200, n = 150, k = 100;
    const double alpha = -1.5, beta = 0.5;
    /* Specials in the logical op(A) (in_b = 0: row r of C affected) or op(B) (column c). */
    static const struct {
        const char *desc;
        struct {
            int in_b;
            int64_t r, c;
            int kind; /* 1 NaN, 2 +Inf, 3 -Inf */
        } s[3];
    } variants[2] = {
        {"op(A)(5,7)=+Inf op(A)(20,30)=-Inf op(B)(11,9)=NaN",
         {{0, 5, 7, 2}, {0, 20, 30, 3}, {1, 11, 9, 1}}},
        {"op(A)(3,0)=NaN op(B)(0,4)=+Inf op(B)(99,70)=-Inf",
         {{0, 3, 0, 1}, {1, 0, 4, 2}, {1, 99, 70, 3}}},
    };
    df_group("special values, %lldx%lldx%lld alpha=%g beta=%g, ops NN,TN,NC,CT x host/device ptr: "
          "kinds of non-finite results (NaN/+Inf/-Inf) where the real cuBLAS has them; other "
          "entries finite; finite entries bitwise dfs_df_gemm_host", (long long)m, (long long)n,
          (long long)k, alpha, beta);
    static const cublasOperation_t pairs[4][2] = {{CUBLAS_OP_N, CUBLAS_OP_N},
                                                  {CUBLAS_OP_T, CUBLAS_OP_N},
                                                  {CUBLAS_OP_N, CUBLAS_OP_C},
                                                  {CUBLAS_OP_C, CUBLAS_OP_T}};
    double *Cr = df_xmalloc((size_t)(m * n));
    for (int v = 0; v < 2; v++) {
        problem P = make_problem(m, n, k, 1, 9000 + (uint64_t)v);
        char *rowhit = calloc((size_t)m, 1), *colhit = calloc((size_t)n, 1);
        if (!rowhit || !colhit)
            gt_fatal("out of host memory");
        for (int q = 0; q < 3; q++) {
            const double val = variants[v].s[q].kind == 1   ? qnan
                               : variants[v].s[q].kind == 2 ? INFINITY
                                                            : -INFINITY;
            int64_t r = variants[v].s[q].r, c = variants[v].s[q].c;
            if (variants[v].s[q].in_b) {
                P.B[0][r + c * k] = val;
                colhit[c] = 1;
            } else {
                P.A[0][r + c * m] = val;
                rowhit[r] = 1;
            }
        }
        double *E = df_xmalloc((size_t)(m * n));
        memcpy(E, P.C[0], (size_t)(m * n) * sizeof *E);
        dfs_df_gemm_host(scheme, 0, 0, m, n, k, alpha, P.A[0], m, P.B[0], k, beta, E, m);
        for (int pi = 0; pi < 4; pi++)
            for (int dev = 0; dev < 2; dev++) {
                const cublasOperation_t ta = pairs[pi][0], tb = pairs[pi][1];
                const int tA = ta != CUBLAS_OP_N, tB = tb != CUBLAS_OP_N;
                gt_case("%s op=%c%c ptr=%s", variants[v].desc, gt_op_char(ta), gt_op_char(tb),
                        dev ? "device" : "host");
                gt_gemm g = {.api = GT_DGEMM, .ta = ta, .tb = tb, .m = m, .n = n, .k = k,
                             .batch = 1, .A = dA, .B = dB, .lda = (tA ? k : m) + 3,
                             .ldb = (tB ? n : k) + 3, .ldc = m};
                gt_h2d(dA, hA, lay_out(hA, BUF, P.A, 1, m, k, tA, g.lda, 0, qnan) * sizeof *hA);
                gt_h2d(dB, hB, lay_out(hB, BUF, P.B, 1, k, n, tB, g.ldb, 0, qnan) * sizeof *hB);
                size_t span = lay_out(hCt, BUF, P.C, 1, m, n, 0, m, 0, C_GAP);
                tmpl_key.valid = 0;
                cublasStatus_t ss = call_gemm(&bufs, 0, handle, &g, dev, alpha, beta, span);
                memcpy(got[0], hCo, span * sizeof *hCo);
                cublasStatus_t sr = call_gemm(&bufs, 1, handle, &g, dev, alpha, beta, span);
                memcpy(Cr, hCo, span * sizeof *hCo);
                gt_cmp_status("cublasDgemm_v2", sr, ss);
                size_t kind_diff = 0, unaffected_bad = 0, host_diff = 0, nonfinite = 0;
                int64_t fk = -1, fu = -1, fh = -1;
                for (int64_t j = 0; j < n; j++)
                    for (int64_t i = 0; i < m; i++) {
                        const int64_t at = i + j * m;
                        const double s = got[0][at];
                        int cs = fclass(s), cr = fclass(Cr[at]), ch = fclass(E[at]);
                        nonfinite += cs != 0;
                        if (cs != cr && !kind_diff++)
                            fk = at;
                        if (!rowhit[i] && !colhit[j] && cs != 0 && !unaffected_bad++)
                            fu = at;
                        if ((ch == 0 ? df_bits(s) != df_bits(E[at]) : cs != ch) && !host_diff++)
                            fh = at;
                    }
                if (kind_diff)
                    gt_fail("%zu entries differ in kind from real cuBLAS; first C(%lld,%lld): "
                            "shim %s (%.17g), real %s (%.17g)", kind_diff, (long long)(fk % m),
                            (long long)(fk / m), fclass_name[fclass(got[0][fk])], got[0][fk],
                            fclass_name[fclass(Cr[fk])], Cr[fk]);
                if (unaffected_bad)
                    gt_fail("%zu entries outside the rows/columns with Inf/NaN are not finite; "
                            "first C(%lld,%lld) = %.17g", unaffected_bad, (long long)(fu % m),
                            (long long)(fu / m), got[0][fu]);
                if (host_diff)
                    gt_fail("%zu entries differ from dfs_df_gemm_host (finite: bitwise; "
                            "otherwise the kind); first C(%lld,%lld): host %.17g, shim %.17g",
                            host_diff, (long long)(fh % m), (long long)(fh / m), E[fh],
                            got[0][fh]);
                if (nonfinite == 0)
                    gt_fail("no non-finite entries at all");
            }
        free(E);
        free(rowhit);
        free(colhit);
        free_problem(&P);
    }
    free(Cr);
    df_group_end();
}

/* ---------- 5. alpha = 0 in device memory ---------- */

static void alpha0_group(void)
{
    const int64_t m = 130, n = 140, k = 60;
    static const double bts[4] = {1, -0.75, 0, 3};
    static const gt_gemm_api apis[4] = {GT_DGEMM, GT_DGEMM_64, GT_GEMMEX, GT_DGEMM_SB};
    df_group("alpha = 0 in device memory, %lldx%lldx%lld, NaN and Inf in A and B: C = beta*C "
          "exactly (0 for beta = 0, C full of NaN); Dgemm, Dgemm_64, GemmEx, DgemmSB batch 3; "
          "ops NN, TC; beta {1,-0.75,0,3}", (long long)m, (long long)n, (long long)k);
    problem P = make_problem(m, n, k, NB, 4242);
    for (int b = 0; b < NB; b++) {
        P.A[b][0] = qnan;
        P.A[b][129 + 59 * m] = qnan;
        P.A[b][64 + 30 * m] = qnan;
        P.A[b][10 + 10 * m] = INFINITY;
        P.B[b][5 + 5 * k] = -INFINITY;
        P.B[b][59 + 139 * k] = qnan;
    }
    double *expect = df_xmalloc((size_t)(m * n)), *hostr = df_xmalloc((size_t)(m * n));
    for (int bi = 0; bi < 4; bi++)
        for (int a = 0; a < 4; a++)
            for (int pi = 0; pi < 2; pi++) {
                const double beta = bts[bi];
                const gt_gemm_api api = apis[a];
                const int strided = gt_gemm_api_strided(api), nb = strided ? NB : 1;
                const cublasOperation_t ta = pi ? CUBLAS_OP_T : CUBLAS_OP_N;
                const cublasOperation_t tb = pi ? CUBLAS_OP_C : CUBLAS_OP_N;
                gt_gemm g = {.api = api, .ta = ta, .tb = tb, .m = m, .n = n, .k = k,
                             .batch = nb, .typeA = CUDA_R_64F, .typeB = CUDA_R_64F,
                             .typeC = CUDA_R_64F, .compute = CUBLAS_COMPUTE_64F,
                             .algo = CUBLAS_GEMM_DEFAULT, .A = dA, .B = dB,
                             .lda = pi ? k : m, .ldb = pi ? n : k, .ldc = m + 2};
                if (strided) {
                    g.sA = (long long)(g.lda * (pi ? m : k) + 5);
                    g.sB = (long long)(g.ldb * (pi ? k : n) + 5);
                    g.sC = (long long)(g.ldc * n + 5);
                }
                gt_case("%s op=%c%c alpha=0 (device) beta=%g", gt_gemm_api_name[api],
                        gt_op_char(ta), gt_op_char(tb), beta);
                gt_h2d(dA, hA, lay_out(hA, BUF, P.A, nb, m, k, pi, g.lda, g.sA, qnan) * sizeof *hA);
                gt_h2d(dB, hB, lay_out(hB, BUF, P.B, nb, k, n, pi, g.ldb, g.sB, qnan) * sizeof *hB);
                double *Cl[NB];
                for (int b = 0; b < nb; b++)
                    Cl[b] = beta == 0.0 ? P.Cnan : P.C[b];
                size_t span = lay_out(hCt, BUF, Cl, nb, m, n, 0, g.ldc, g.sC, C_GAP);
                tmpl_key.valid = 0;
                cublasStatus_t st = call_gemm(&bufs, 0, handle, &g, 1, 0.0, beta, span);
                if (st != CUBLAS_STATUS_SUCCESS)
                    gt_fail("status %s", gt_status_name(st));
                check_outside(hCt, hCo, nb, m, n, g.ldc, g.sC);
                for (int b = 0; b < nb; b++)
                    gather(got[b], hCo + (size_t)b * (size_t)g.sC, m, n, g.ldc);
                for (int b = 0; b < nb; b++) {
                    for (int64_t i = 0; i < m * n; i++)
                        expect[i] = beta == 0.0 ? 0.0 : beta * P.C[b][i];
                    char what[64];
                    snprintf(what, sizeof what, "C of batch entry %d vs beta*C", b);
                    cmp_tight(what, "beta*C", expect, got[b], m, n, b);
                    if (a == 0 && pi == 0 && b == 0) { /* the host says the same */
                        memcpy(hostr, Cl[0], (size_t)(m * n) * sizeof *hostr);
                        dfs_df_gemm_host(scheme, 0, 0, m, n, k, 0.0, P.A[0], m, P.B[0], k, beta,
                                         hostr, m);
                        cmp_tight("C vs dfs_df_gemm_host with alpha = 0", "host", hostr, got[0],
                                  m, n, 0);
                    }
                }
                /* What real cuBLAS does, for information. */
                st = call_gemm(&bufs, 1, handle, &g, 1, 0.0, beta, span);
                for (int b = 0; b < nb; b++) {
                    gather(got2, hCo + (size_t)b * (size_t)g.sC, m, n, g.ldc);
                    if (st == CUBLAS_STATUS_SUCCESS &&
                        memcmp(got2, got[b], (size_t)(m * n) * sizeof *got2)) {
                        gt_note("real cuBLAS differs from beta*C here (not checked)");
                        break;
                    }
                }
            }
    free(expect);
    free(hostr);
    free_problem(&P);
    df_group_end();
}

/* ---------- 6. graph capture ---------- */

/* Captures one call of g on s; returns the executable graph or NULL (case failed). */
static cudaGraphExec_t capture(cudaStream_t s, cublasHandle_t hg, gt_gemm *g, cudaGraph_t *graph)
{
    *graph = NULL;
    GT_CUDA(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    cublasStatus_t st = gt_run_gemm(0, hg, g);
    if (st != CUBLAS_STATUS_SUCCESS)
        gt_fail("shimmed call during capture: %s", gt_status_name(st));
    still_capturing(s, "the shimmed call");
    cudaError_t e = cudaStreamEndCapture(s, graph);
    if (e != cudaSuccess || !*graph) {
        gt_fail("cudaStreamEndCapture: %s (%s)", cudaGetErrorName(e), cudaGetErrorString(e));
        cudaGetLastError();
        return NULL;
    }
    cudaGraphExec_t exec = NULL;
    e = cudaGraphInstantiate(&exec, *graph, 0);
    if (e != cudaSuccess) {
        gt_fail("cudaGraphInstantiate: %s", cudaGetErrorName(e));
        cudaGetLastError();
        return NULL;
    }
    return exec;
}

/* Resets C (span elements from the pinned template), replays, downloads into out. */
static void replay(cudaStream_t s, cudaGraphExec_t exec, double *dCg, const double *tmpl,
                   size_t span, double *out)
{
    GT_CUDA(cudaMemcpyAsync(dCg, tmpl, span * sizeof *tmpl, cudaMemcpyHostToDevice, s));
    GT_CUDA(cudaGraphLaunch(exec, s));
    GT_CUDA(cudaStreamSynchronize(s));
    gt_d2h(out, dCg, span * sizeof *out);
}

static void graph_group(void)
{
    const int64_t m1 = 384, n1 = 320, k1 = 256, m2 = 1024, n2 = 1024, k2 = 1024;
    const double alpha = 1.5, beta = -0.75, alpha_b = -0.5;
    int64_t Mb, Nb;
    size_t need1, need2;
    df_plan(m1, n1, k1, (size_t)1024 << 20, &Mb, &Nb, &need1);
    df_plan(m2, n2, k2, (size_t)1024 << 20, &Mb, &Nb, &need2);
    df_group("graph capture (own handle, non-blocking stream, 64 MiB cuBLAS workspace): "
          "%lldx%lldx%lld NT captured after an eager call (workspace ~%.1f MiB present), 2 "
          "replays bitwise the eager result, device alpha changed between replays; "
          "%lldx%lldx%lld TN (needs ~%.1f MiB) captured: native, bitwise real cuBLAS",
          (long long)m1, (long long)n1, (long long)k1, (double)need1 / 1048576.0, (long long)m2,
          (long long)n2, (long long)k2, (double)need2 / 1048576.0);
    cudaStream_t s;
    cublasHandle_t hg;
    void *ws = NULL;
    const size_t ws_size = (size_t)64 << 20;
    GT_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    GT_CUBLAS(cublasCreate_v2(&hg));
    GT_CUBLAS(cublasSetStream_v2(hg, s));
    GT_CUDA(cudaMalloc(&ws, ws_size));
    GT_CUBLAS(cublasSetWorkspace_v2(hg, ws, ws_size));

    problem P1 = make_problem(m1, n1, k1, 1, 31), P2 = make_problem(m2, n2, k2, 1, 32);
    double *dA1 = gt_dmalloc((size_t)(m1 * k1) * 8), *dB1 = gt_dmalloc((size_t)(k1 * n1) * 8);
    double *dC1 = gt_dmalloc((size_t)(m1 * n1) * 8);
    double *dA2 = gt_dmalloc((size_t)(m2 * k2) * 8), *dB2 = gt_dmalloc((size_t)(k2 * n2) * 8);
    double *dC2 = gt_dmalloc((size_t)(m2 * n2) * 8);
    double *t1 = df_pinned((size_t)(m1 * n1)), *t2 = df_pinned((size_t)(m2 * n2));
    memcpy(t1, P1.C[0], (size_t)(m1 * n1) * 8);
    memcpy(t2, P2.C[0], (size_t)(m2 * n2) * 8);
    gt_h2d(dA1, hA, lay_out(hA, BUF, P1.A, 1, m1, k1, 0, m1, 0, qnan) * 8); /* N: m1 x k1 */
    gt_h2d(dB1, hB, lay_out(hB, BUF, P1.B, 1, k1, n1, 1, n1, 0, qnan) * 8); /* T: n1 x k1 */
    gt_h2d(dA2, hA, lay_out(hA, BUF, P2.A, 1, m2, k2, 1, k2, 0, qnan) * 8); /* T: k2 x m2 */
    gt_h2d(dB2, hB, lay_out(hB, BUF, P2.B, 1, k2, n2, 0, k2, 0, qnan) * 8); /* N: k2 x n2 */
    const size_t span1 = (size_t)(m1 * n1), span2 = (size_t)(m2 * n2);
    gt_gemm g1 = {.api = GT_DGEMM, .ta = CUBLAS_OP_N, .tb = CUBLAS_OP_T, .m = m1, .n = n1,
                  .k = k1, .batch = 1, .A = dA1, .B = dB1, .C = dC1, .lda = m1, .ldb = n1,
                  .ldc = m1, .alpha = &alpha, .beta = &beta};
    gt_gemm g2 = {.api = GT_DGEMM, .ta = CUBLAS_OP_T, .tb = CUBLAS_OP_N, .m = m2, .n = n2,
                  .k = k2, .batch = 1, .A = dA2, .B = dB2, .C = dC2, .lda = k2, .ldb = k2,
                  .ldc = m2, .alpha = &alpha, .beta = &beta};
    double *E1 = df_xmalloc(span1), *E1b = df_xmalloc(span1), *R2 = df_xmalloc(span2);
    double *out1 = df_xmalloc(span1), *out2 = df_xmalloc(span2);
    ref r1 = {0}, r2 = {0};
    cudaGraph_t graph = NULL;
    cudaGraphExec_t exec = NULL;

    gt_case("%lldx%lldx%lld NT eager through the shim (allocates the workspace) vs "
            "dfs_df_gemm_host (sampled)", (long long)m1, (long long)n1, (long long)k1);
    GT_CUBLAS(cublasSetPointerMode_v2(hg, CUBLAS_POINTER_MODE_HOST));
    gt_h2d(dC1, t1, span1 * 8);
    cublasStatus_t st = gt_run_gemm(0, hg, &g1);
    if (st != CUBLAS_STATUS_SUCCESS)
        gt_fail("status %s", gt_status_name(st));
    GT_CUDA(cudaStreamSynchronize(s));
    gt_d2h(E1, dC1, span1 * 8);
    ref_compute(&r1, &P1, 0, alpha, beta, 0);
    ref_check(&r1, E1, m1, n1, 0);
    /* and with alpha_b, for the device-pointer replays */
    g1.alpha = &alpha_b;
    gt_h2d(dC1, t1, span1 * 8);
    st = gt_run_gemm(0, hg, &g1);
    if (st != CUBLAS_STATUS_SUCCESS)
        gt_fail("status %s", gt_status_name(st));
    GT_CUDA(cudaStreamSynchronize(s));
    gt_d2h(E1b, dC1, span1 * 8);
    g1.alpha = &alpha;

    gt_case("%lldx%lldx%lld NT captured (host pointers), replayed twice: bitwise the eager "
            "result", (long long)m1, (long long)n1, (long long)k1);
    exec = capture(s, hg, &g1, &graph);
    for (int rep = 0; exec && rep < 2; rep++) {
        replay(s, exec, dC1, t1, span1, out1);
        cmp_tight(rep ? "replay 2 vs eager" : "replay 1 vs eager", "eager", E1, out1, m1, n1, 0);
    }
    if (exec)
        GT_CUDA(cudaGraphExecDestroy(exec));
    if (graph)
        GT_CUDA(cudaGraphDestroy(graph));

    gt_case("%lldx%lldx%lld NT captured with alpha/beta in device memory; alpha %g then %g "
            "between replays: bitwise the eager results", (long long)m1, (long long)n1,
            (long long)k1, alpha, alpha_b);
    {
        double ab[2] = {alpha, beta};
        gt_h2d(d_ab, ab, sizeof ab);
        GT_CUBLAS(cublasSetPointerMode_v2(hg, CUBLAS_POINTER_MODE_DEVICE));
        g1.alpha = &d_ab[0];
        g1.beta = &d_ab[1];
        exec = capture(s, hg, &g1, &graph);
        GT_CUBLAS(cublasSetPointerMode_v2(hg, CUBLAS_POINTER_MODE_HOST));
        g1.alpha = &alpha;
        g1.beta = &beta;
        if (exec) {
            replay(s, exec, dC1, t1, span1, out1);
            cmp_tight("replay with alpha 1.5 vs eager", "eager", E1, out1, m1, n1, 0);
            ab[0] = alpha_b;
            gt_h2d(d_ab, ab, sizeof ab);
            replay(s, exec, dC1, t1, span1, out1);
            cmp_tight("replay with alpha -0.5 vs eager", "eager", E1b, out1, m1, n1, 0);
            GT_CUDA(cudaGraphExecDestroy(exec));
        }
        if (graph)
            GT_CUDA(cudaGraphDestroy(graph));
    }

    gt_case("%lldx%lldx%lld TN captured, needing more workspace than allocated: capture "
            "succeeds, the call runs natively: 2 replays bitwise real cuBLAS (eager, same "
            "workspace)", (long long)m2, (long long)n2, (long long)k2);
    gt_h2d(dC2, t2, span2 * 8);
    st = gt_run_gemm(1, hg, &g2);
    if (st != CUBLAS_STATUS_SUCCESS)
        gt_fail("real cuBLAS: status %s", gt_status_name(st));
    GT_CUDA(cudaStreamSynchronize(s));
    gt_d2h(R2, dC2, span2 * 8);
    exec = capture(s, hg, &g2, &graph);
    for (int rep = 0; exec && rep < 2; rep++) {
        replay(s, exec, dC2, t2, span2, out2);
        cmp_tight(rep ? "replay 2 vs real cuBLAS" : "replay 1 vs real cuBLAS", "real", R2, out2,
                  m2, n2, 0);
    }
    if (exec)
        GT_CUDA(cudaGraphExecDestroy(exec));
    if (graph)
        GT_CUDA(cudaGraphDestroy(graph));

    gt_case("%lldx%lldx%lld TN eager after that capture: the engine grows its workspace: "
            "dfs_df_gemm_host (sampled)", (long long)m2, (long long)n2, (long long)k2);
    gt_h2d(dC2, t2, span2 * 8);
    st = gt_run_gemm(0, hg, &g2);
    if (st != CUBLAS_STATUS_SUCCESS)
        gt_fail("status %s", gt_status_name(st));
    GT_CUDA(cudaStreamSynchronize(s));
    gt_d2h(out2, dC2, span2 * 8);
    ref_compute(&r2, &P2, 0, alpha, beta, 0);
    ref_check(&r2, out2, m2, n2, 0);

    GT_CUBLAS(cublasDestroy_v2(hg));
    GT_CUDA(cudaStreamDestroy(s));
    GT_CUDA(cudaFree(ws));
    GT_CUDA(cudaFree(dA1));
    GT_CUDA(cudaFree(dB1));
    GT_CUDA(cudaFree(dC1));
    GT_CUDA(cudaFree(dA2));
    GT_CUDA(cudaFree(dB2));
    GT_CUDA(cudaFree(dC2));
    GT_CUDA(cudaFreeHost(t1));
    GT_CUDA(cudaFreeHost(t2));
    ref_free(&r1);
    ref_free(&r2);
    free(E1);
    free(E1b);
    free(R2);
    free(out1);
    free(out2);
    free_problem(&P1);
    free_problem(&P2);
    df_group_end();
}

int main(void)
{
    gt_init("df_gemm");
    const double t0 = gt_now();
    parse_mode();
    qnan = gt_qnan();
    printf("df_gemm: reproducing scheme %s (%s) with dfs_df_gemm_host; EXBLAS_REREAD=%s\n",
           scheme_name,
           scheme == DFS_DF_MAD16 ? "DFS_DF_MAD16" : scheme == DFS_DF_MAD15 ? "DFS_DF_MAD15"
                                                                            : "DFS_DF_MAD29",
           reread ? "on" : "off");
    GT_CUBLAS(cublasCreate_v2(&handle));

    dA = gt_dmalloc(BUF * sizeof(double));
    dB = gt_dmalloc(BUF * sizeof(double));
    dC = gt_dmalloc(BUF * sizeof(double));
    d_ab = gt_dmalloc(2 * sizeof(double));
    hA = df_pinned(BUF);
    hB = df_pinned(BUF);
    hCt = df_pinned(BUF);
    hCo = df_pinned(BUF);
    bufs = (call_bufs){.d_ab = d_ab, .dC = dC, .hCt = hCt, .hCo = hCo};
    for (int b = 0; b < NB; b++)
        got[b] = df_xmalloc(BUF);
    got2 = df_xmalloc(BUF);

    for (int si = 0; si < 7; si++)
        bitwise_shape(si);
    blocking_group();
    accuracy_group();
    special_group();
    alpha0_group();
    graph_group();

    GT_CUBLAS(cublasDestroy_v2(handle));
    GT_CUDA(cudaFree(dA));
    GT_CUDA(cudaFree(dB));
    GT_CUDA(cudaFree(dC));
    GT_CUDA(cudaFree(d_ab));
    GT_CUDA(cudaFreeHost(hA));
    GT_CUDA(cudaFreeHost(hB));
    GT_CUDA(cudaFreeHost(hCt));
    GT_CUDA(cudaFreeHost(hCo));
    for (int b = 0; b < NB; b++)
        free(got[b]);
    free(got2);
    free(mode_orig);
    printf("df_gemm: %.1f s in all\n", gt_now() - t0);
    return gt_finish();
}
