/* df_gemm_small.c — the df_gemm test's group 8 (see df_gemm.c): the small kernel (one launch for
 * a whole DGEMM or strided batch, EXBLAS_MODE with small=always) and the tiled path (small=never)
 * each bit for bit dfs_df_gemm_host, so bit for bit each other: every shape of {1, 2, 7, 31, 33,
 * 64, 65}^3, all of ops x alpha x beta x pointer mode x ld padding on one shape, strided batches
 * (strides 0 for A or B among them), more batch entries than a grid's y holds, Inf and NaN in
 * rows and columns, rows and columns spanning 1e+-300 (the binary64 path of the spans), 256^3 and
 * a batch of 300; and k = 0, which the shim returns to cuBLAS before any engine sees it. */
#include "df_gemm_common.h"

#include "../../engines/df/host.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const cublasOperation_t ops3[3] = {CUBLAS_OP_N, CUBLAS_OP_T, CUBLAS_OP_C};
static const double alphas[4] = {1, -1, 0.5, 0};
static const double betas[3] = {0, 1, -0.75};

/* ---------- a batch of problems and one call of it ---------- */

/* nb logical problems: tight op(A) m x k, op(B) k x n, C m x n per entry; Cnan is C for beta = 0
 * (quiet NaNs: C must not be read). */
typedef struct {
    int64_t m, n, k;
    int nb;
    double **A, **B, **C, *Cnan;
} sproblem;

static sproblem sp_make(int64_t m, int64_t n, int64_t k, int nb, uint64_t seed)
{
    sproblem P = {.m = m, .n = n, .k = k, .nb = nb};
    P.A = malloc((size_t)nb * sizeof *P.A);
    P.B = malloc((size_t)nb * sizeof *P.B);
    P.C = malloc((size_t)nb * sizeof *P.C);
    if (!P.A || !P.B || !P.C)
        gt_fatal("out of host memory");
    for (int b = 0; b < nb; b++) {
        /* one element at least, for k = 0 */
        P.A[b] = df_xmalloc((size_t)(m * k + 1));
        P.B[b] = df_xmalloc((size_t)(k * n + 1));
        P.C[b] = df_xmalloc((size_t)(m * n));
        gt_fill(P.A[b], (size_t)(m * k), seed + 10 * (uint64_t)b + 1);
        gt_fill(P.B[b], (size_t)(k * n), seed + 10 * (uint64_t)b + 2);
        gt_fill(P.C[b], (size_t)(m * n), seed + 10 * (uint64_t)b + 3);
    }
    P.Cnan = df_xmalloc((size_t)(m * n));
    gt_fill_const(P.Cnan, (size_t)(m * n), qnan);
    return P;
}

static void sp_free(sproblem *P)
{
    for (int b = 0; b < P->nb; b++) {
        free(P->A[b]);
        free(P->B[b]);
        free(P->C[b]);
    }
    free(P->A);
    free(P->B);
    free(P->C);
    free(P->Cnan);
}

/* One call: the entry point, ops, padding of every leading dimension, batch strides 0 for A or
 * B (every entry takes entry 0's), alpha and beta on the host or in device memory. */
typedef struct {
    gt_gemm_api api;
    cublasOperation_t ta, tb;
    int pad, zA, zB;
    double alpha, beta;
    int dev;
} scall;

static const char *sc_desc(const scall *c)
{
    static char d[160];
    snprintf(d, sizeof d, "%s op=%c%c ld%s%s%s alpha=%g beta=%g ptr=%s", gt_gemm_api_name[c->api],
             gt_op_char(c->ta), gt_op_char(c->tb), c->pad ? "+3" : " tight",
             c->zA ? " strideA=0" : "", c->zB ? " strideB=0" : "", c->alpha, c->beta,
             c->dev ? "device" : "host");
    return d;
}

/* Runs c on P through the shim in the current EXBLAS_MODE (padding and gaps NaN in A and B,
 * C_GAP in C, which must stay); the entries' results into out, tight m x n one after another.
 * 0 when the call failed. */
static int sp_run(const sproblem *P, const scall *c, double *out)
{
    const int64_t m = P->m, n = P->n, k = P->k;
    const int strided = gt_gemm_api_strided(c->api), nb = P->nb;
    if (!strided && nb != 1)
        gt_fatal("test bug: a batch of %d for %s", nb, gt_gemm_api_name[c->api]);
    const int tA = c->ta != CUBLAS_OP_N, tB = c->tb != CUBLAS_OP_N;
    gt_gemm g = {.api = c->api, .ta = c->ta, .tb = c->tb, .m = m, .n = n, .k = k, .batch = nb,
                 .typeA = CUDA_R_64F, .typeB = CUDA_R_64F, .typeC = CUDA_R_64F,
                 .compute = CUBLAS_COMPUTE_64F, .algo = CUBLAS_GEMM_DEFAULT, .A = dA, .B = dB};
    g.lda = max64(tA ? k : m, 1) + c->pad;
    g.ldb = max64(tB ? n : k, 1) + c->pad;
    g.ldc = m + c->pad;
    if (strided) {
        g.sA = c->zA ? 0 : (long long)(g.lda * (tA ? m : k) + 5);
        g.sB = c->zB ? 0 : (long long)(g.ldb * (tB ? k : n) + 3);
        g.sC = (long long)(g.ldc * n + 7);
    }
    gt_h2d(dA, hA, lay_out(hA, BUF, P->A, c->zA ? 1 : nb, m, k, tA, g.lda, g.sA, qnan) * 8);
    gt_h2d(dB, hB, lay_out(hB, BUF, P->B, c->zB ? 1 : nb, k, n, tB, g.ldb, g.sB, qnan) * 8);
    double **Cl = malloc((size_t)nb * sizeof *Cl);
    if (!Cl)
        gt_fatal("out of host memory");
    for (int b = 0; b < nb; b++)
        Cl[b] = c->beta == 0.0 ? P->Cnan : P->C[b];
    const size_t span = lay_out(hCt, BUF, Cl, nb, m, n, 0, g.ldc, g.sC, C_GAP);
    free(Cl);
    tmpl_key.valid = 0;
    const cublasStatus_t st = call_gemm(&bufs, 0, handle, &g, c->dev, c->alpha, c->beta, span);
    if (st != CUBLAS_STATUS_SUCCESS) {
        gt_fail("%s: status %s", gt_mode(), gt_status_name(st));
        return 0;
    }
    check_outside(hCt, hCo, nb, m, n, g.ldc, g.sC);
    for (int b = 0; b < nb; b++)
        gather(out + (size_t)b * (size_t)(m * n), hCo + (size_t)b * (size_t)g.sC, m, n, g.ldc);
    return 1;
}

/* dfs_df_gemm_host's results of c on P, as sp_run lays them out. */
static void sp_host(const sproblem *P, const scall *c, double *E)
{
    const int64_t m = P->m, n = P->n, k = P->k;
    for (int b = 0; b < P->nb; b++) {
        double *e = E + (size_t)b * (size_t)(m * n);
        memcpy(e, c->beta == 0.0 ? P->Cnan : P->C[b], (size_t)(m * n) * sizeof *e);
        dfs_df_gemm_host(scheme, 0, 0, m, n, k, c->alpha, P->A[c->zA ? 0 : b], m,
                         P->B[c->zB ? 0 : b], max64(k, 1), c->beta, e, m);
    }
}

/* Every entry of `res` bitwise `want` (named want_name); 1 when equal. */
static int sp_cmp(const char *what, const char *want_name, const sproblem *P, const double *want,
                  const double *res)
{
    const size_t mn = (size_t)(P->m * P->n);
    int ok = 1;
    for (int b = 0; b < P->nb && ok; b++)
        ok = cmp_tight(what, want_name, want + b * mn, res + b * mn, P->m, P->n, b);
    return ok;
}

/* The small kernel (small=always) and the tiled path (small=never) on c, each against the host
 * result E; paths: 1 the small kernel only, 2 both. */
static void both_paths(const sproblem *P, const scall *c, const double *E, double *res,
                       const char *always, const char *never, int paths)
{
    for (int path = 0; path < paths; path++) {
        set_mode(path ? never : always);
        if (sp_run(P, c, res))
            sp_cmp(path ? "C (small=never) vs dfs_df_gemm_host"
                        : "C (small=always) vs dfs_df_gemm_host",
                   "host", P, E, res);
    }
}

/* small=always, then small=never: each other bitwise, and the latter the host's E. */
static void paths_agree(const sproblem *P, const scall *c, const double *E, double *res,
                        double *res2, const char *always, const char *never)
{
    set_mode(always);
    const int ok1 = sp_run(P, c, res);
    set_mode(never);
    if (ok1 && sp_run(P, c, res2)) {
        sp_cmp("C (small=always) vs C (small=never)", "small=never", P, res2, res);
        sp_cmp("C (small=never) vs dfs_df_gemm_host", "host", P, E, res2);
    }
}

/* ---------- the cases ---------- */

static const int64_t sizes[7] = {1, 2, 7, 31, 33, 64, 65};
static const gt_gemm_api plain_apis[4] = {GT_DGEMM, GT_DGEMM_64, GT_GEMMEX, GT_GEMMEX_64};

/* Every shape of sizes^3 on both paths, the call's other parameters rotating over the shapes
 * (every op pair, (alpha, beta), pointer mode, padding and entry point many times). */
static void shapes_cases(const char *always, const char *never)
{
    double *E = df_xmalloc(65 * 65), *res = df_xmalloc(65 * 65);
    int idx = 0;
    for (int a = 0; a < 7; a++)
        for (int b = 0; b < 7; b++)
            for (int q = 0; q < 7; q++, idx++) {
                const int ab = idx * 5 % 12;
                const scall c = {.api = plain_apis[idx / 3 % 4], .ta = ops3[idx % 9 / 3],
                                 .tb = ops3[idx % 3], .pad = idx / 2 % 2 ? 3 : 0,
                                 .alpha = alphas[ab / 3], .beta = betas[ab % 3],
                                 .dev = idx / 9 % 2};
                sproblem P = sp_make(sizes[a], sizes[b], sizes[q], 1, 5000 + (uint64_t)idx);
                gt_case("%lldx%lldx%lld %s", (long long)P.m, (long long)P.n, (long long)P.k,
                        sc_desc(&c));
                sp_host(&P, &c, E);
                both_paths(&P, &c, E, res, always, never, 2);
                sp_free(&P);
            }
    free(E);
    free(res);
}

/* One shape (tiles and k stages both partial) on the small kernel: all of {N,T,C}^2 x alpha x
 * beta x pointer mode x padding. */
static void cross_cases(const char *always)
{
    sproblem P = sp_make(33, 31, 65, 1, 6100);
    double *E = df_xmalloc(33 * 31), *res = df_xmalloc(33 * 31);
    for (int ab = 0; ab < 12; ab++) {
        scall c = {.api = GT_DGEMM, .alpha = alphas[ab / 3], .beta = betas[ab % 3]};
        sp_host(&P, &c, E);
        for (int o = 0; o < 9; o++)
            for (int pad = 0; pad < 2; pad++)
                for (int dev = 0; dev < 2; dev++) {
                    c.ta = ops3[o / 3];
                    c.tb = ops3[o % 3];
                    c.pad = 3 * pad;
                    c.dev = dev;
                    gt_case("33x31x65 %s", sc_desc(&c));
                    both_paths(&P, &c, E, res, always, NULL, 1);
                }
    }
    free(E);
    free(res);
    sp_free(&P);
}

/* Strided batches on both paths: three shapes x strides (gaps; 0 for A; 0 for B) x three op
 * pairs, the scalars rotating; the entry points DgemmStridedBatched and GemmStridedBatchedEx_64. */
static void batch_cases(const char *always, const char *never)
{
    static const int64_t shp[3][4] = {{7, 5, 3, 5}, {33, 31, 65, 4}, {64, 65, 33, 3}};
    static const cublasOperation_t pairs[3][2] = {
        {CUBLAS_OP_N, CUBLAS_OP_N}, {CUBLAS_OP_T, CUBLAS_OP_C}, {CUBLAS_OP_C, CUBLAS_OP_T}};
    int idx = 0;
    for (int si = 0; si < 3; si++) {
        sproblem P = sp_make(shp[si][0], shp[si][1], shp[si][2], (int)shp[si][3],
                             6200 + 100 * (uint64_t)si);
        const size_t all = (size_t)(P.m * P.n * P.nb);
        double *E = df_xmalloc(all), *res = df_xmalloc(all);
        for (int z = 0; z < 3; z++)
            for (int pi = 0; pi < 3; pi++, idx++) {
                const int ab = idx * 7 % 12;
                const scall c = {.api = idx % 2 ? GT_GEMM_SBEX_64 : GT_DGEMM_SB,
                                 .ta = pairs[pi][0], .tb = pairs[pi][1], .pad = idx % 2 ? 0 : 3,
                                 .zA = z == 1, .zB = z == 2, .alpha = alphas[ab / 3],
                                 .beta = betas[ab % 3], .dev = idx / 2 % 2};
                gt_case("%lldx%lldx%lld batch %d %s", (long long)P.m, (long long)P.n,
                        (long long)P.k, P.nb, sc_desc(&c));
                sp_host(&P, &c, E);
                both_paths(&P, &c, E, res, always, never, 2);
            }
        free(E);
        free(res);
        sp_free(&P);
    }
}

/* More batch entries than a grid's y holds (65535): the small kernel steps through them. */
static void many_entries_case(const char *always)
{
    sproblem P = sp_make(2, 2, 3, 70000, 6500);
    const scall c = {.api = GT_DGEMM_SB, .ta = CUBLAS_OP_N, .tb = CUBLAS_OP_T, .alpha = 1.5,
                     .beta = -0.75};
    double *E = df_xmalloc(4 * 70000), *res = df_xmalloc(4 * 70000);
    gt_case("2x2x3 batch 70000 %s (small=always): every entry", sc_desc(&c));
    sp_host(&P, &c, E);
    both_paths(&P, &c, E, res, always, NULL, 1);
    free(E);
    free(res);
    sp_free(&P);
}

/* Both paths on 256^3 (ops NN and TC) and on a batch of 300 17 x 40 x 40 entries: bitwise each
 * other and the host. */
static void large_cases(const char *always, const char *never)
{
    sproblem P = sp_make(256, 256, 256, 1, 6600);
    double *E = df_xmalloc(256 * 256), *res = df_xmalloc(256 * 256), *res2 = df_xmalloc(256 * 256);
    for (int pi = 0; pi < 2; pi++) {
        const scall c = {.api = GT_DGEMM, .ta = pi ? CUBLAS_OP_T : CUBLAS_OP_N,
                         .tb = pi ? CUBLAS_OP_C : CUBLAS_OP_N, .alpha = 1.5, .beta = -0.75,
                         .dev = pi};
        gt_case("256x256x256 %s: small=always vs small=never, both vs dfs_df_gemm_host",
                sc_desc(&c));
        if (!pi)
            sp_host(&P, &c, E);
        paths_agree(&P, &c, E, res, res2, always, never);
    }
    free(E);
    free(res);
    free(res2);
    sp_free(&P);

    P = sp_make(17, 40, 40, 300, 6700);
    const size_t all = (size_t)(17 * 40 * 300);
    E = df_xmalloc(all), res = df_xmalloc(all), res2 = df_xmalloc(all);
    const scall c = {.api = GT_DGEMM_SB, .ta = CUBLAS_OP_T, .tb = CUBLAS_OP_N, .alpha = -0.5,
                     .beta = 1, .dev = 1};
    gt_case("17x40x40 batch 300 %s: small=always vs small=never, both vs dfs_df_gemm_host",
            sc_desc(&c));
    sp_host(&P, &c, E);
    paths_agree(&P, &c, E, res, res2, always, never);
    free(E);
    free(res);
    free(res2);
    sp_free(&P);
}

static int kind(double x)
{
    return isnan(x) ? 1 : isinf(x) ? (x > 0 ? 2 : 3) : 0;
}

/* Inf and NaN in rows of op(A) and a column of op(B); rows 1, 9 of op(A) 1e300 times larger in
 * the first half of k, columns 2, 11 of op(B) 1e-300 times smaller there and 1e300 times larger
 * in the second half: their four entries have every scaled product below binary32's range (the
 * spans path: binary64 sums), the other entries of those rows and columns do not.  Both paths:
 * each other bitwise (NaN any NaN), and the host (finite entries bitwise, the others in kind). */
static void special_cases(const char *always, const char *never)
{
    const int64_t m = 40, n = 36, k = 50, rows[2] = {1, 9}, cols[2] = {2, 11};
    sproblem P = sp_make(m, n, k, 1, 6800);
    for (int t = 0; t < 2; t++)
        for (int64_t q = 0; q < k; q++) {
            P.A[0][rows[t] + q * m] *= q < k / 2 ? 1e300 : 1.0;
            P.B[0][q + cols[t] * k] *= q < k / 2 ? 1e-300 : 1e300;
        }
    P.A[0][3 + 7 * m] = INFINITY;
    P.A[0][20 + 30 * m] = qnan;
    P.B[0][11 + 5 * k] = -INFINITY;
    const double alpha = 1.5, beta = -0.5;
    double *E = df_xmalloc((size_t)(m * n)), *res = df_xmalloc((size_t)(m * n));
    double *res2 = df_xmalloc((size_t)(m * n));
    const scall c0 = {.api = GT_DGEMM, .alpha = alpha, .beta = beta};
    sp_host(&P, &c0, E);
    gt_case("Inf/NaN and 1e+-300 spans %lldx%lldx%lld: the host's 4 entries of the wide rows and "
            "columns are the binary64 sums in order", (long long)m, (long long)n, (long long)k);
    check_binary64_entries(P.A[0], P.B[0], P.C[0], m, k, rows, 2, cols, 2, alpha, beta, E);
    static const cublasOperation_t pairs[4][2] = {{CUBLAS_OP_N, CUBLAS_OP_N},
                                                  {CUBLAS_OP_T, CUBLAS_OP_C},
                                                  {CUBLAS_OP_C, CUBLAS_OP_T},
                                                  {CUBLAS_OP_N, CUBLAS_OP_T}};
    for (int pi = 0; pi < 4; pi++)
        for (int dev = 0; dev < 2; dev++) {
            scall c = c0;
            c.ta = pairs[pi][0];
            c.tb = pairs[pi][1];
            c.dev = dev;
            c.pad = 3 * dev;
            gt_case("Inf/NaN and 1e+-300 spans %lldx%lldx%lld %s: small=always vs small=never "
                    "and vs dfs_df_gemm_host", (long long)m, (long long)n, (long long)k,
                    sc_desc(&c));
            set_mode(always);
            const int ok1 = sp_run(&P, &c, res);
            set_mode(never);
            if (!ok1 || !sp_run(&P, &c, res2))
                continue;
            cmp_named("C (small=always) vs C (small=never)", "small=never", res2, res, m * n,
                      m);
            int64_t bad = 0, first = 0;
            for (int64_t e = 0; e < m * n; e++)
                if ((kind(E[e]) ? kind(res[e]) != kind(E[e]) : df_bits(res[e]) != df_bits(E[e]))
                    && !bad++)
                    first = e;
            if (bad)
                gt_fail("%lld entries differ from dfs_df_gemm_host (finite: bitwise, else the "
                        "kind); first C(%lld,%lld): host %.17g, small=always %.17g",
                        (long long)bad, (long long)(first % m), (long long)(first / m), E[first],
                        res[first]);
        }
    free(E);
    free(res);
    free(res2);
    sp_free(&P);
}

/* k = 0: C = beta C.  The shim's checks return such a call to cuBLAS (a quick return) before any
 * engine sees it: bitwise real cuBLAS in either mode. */
static void k0_case(const char *always)
{
    sproblem P = sp_make(7, 5, 0, 1, 6900);
    const scall c = {.api = GT_DGEMM, .ta = CUBLAS_OP_T, .tb = CUBLAS_OP_N, .alpha = 1.5,
                     .beta = -0.75};
    double *res = df_xmalloc(35), *want = df_xmalloc(35);
    gt_case("7x5x0 %s (small=always): bitwise real cuBLAS (the shim's quick return)",
            sc_desc(&c));
    set_mode(always);
    if (sp_run(&P, &c, res)) {
        gt_gemm g = {.api = GT_DGEMM, .ta = c.ta, .tb = c.tb, .m = 7, .n = 5, .k = 0, .batch = 1,
                     .A = dA, .B = dB, .lda = 1, .ldb = 1, .ldc = 7};
        const size_t span = lay_out(hCt, BUF, P.C, 1, 7, 5, 0, 7, 0, C_GAP);
        tmpl_key.valid = 0;
        gt_cmp_status("cublasDgemm_v2", CUBLAS_STATUS_SUCCESS,
                      call_gemm(&bufs, 1, handle, &g, 0, c.alpha, c.beta, span));
        gather(want, hCo, 7, 5, 7);
        cmp_tight("C vs real cuBLAS", "real", want, res, 7, 5, 0);
    }
    free(res);
    free(want);
    sp_free(&P);
}

void small_group(void)
{
    df_group("small kernel (EXBLAS_MODE=%s + small=always) and tiled path (+ small=never) bitwise "
             "dfs_df_gemm_host: {1,2,7,31,33,64,65}^3 both; 33x31x65 {N,T,C}^2 x alpha{1,-1,0.5,"
             "0} x beta{0,1,-0.75} x host/device ptr x ld tight/+3; strided batches (strides 0 "
             "for A or B too) both; batch 70000; Inf/NaN and 1e+-300 spans both; 256^3 and 300 x "
             "17x40x40 both, and each other; k = 0 (real cuBLAS)", mode_orig);
    if (!reread) {
        gt_case("setup");
        gt_fail("EXBLAS_REREAD is not set: the shim would not see setenv(\"EXBLAS_MODE\")");
        df_group_end();
        return;
    }
    char *always = mode_with("small=always"), *never = mode_with("small=never");
    shapes_cases(always, never);
    cross_cases(always);
    batch_cases(always, never);
    many_entries_case(always);
    special_cases(always, never);
    large_cases(always, never);
    k0_case(always);
    set_mode(mode_orig);
    tmpl_key.valid = 0;
    free(always);
    free(never);
    df_group_end();
}
