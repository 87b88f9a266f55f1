/* twin_cases.c — the repro and dd GPU tests' buffers and state, helpers, CPU work on threads,
 * data, the CPU twins (dfs_oz_*_host, or dfs_dd_*_host when ref_dd) and the DDOT call; see
 * twin_cases.h. */
#include "twin_cases.h"

#include "../../engines/common/xacc.h"
#include "../../engines/dd/host.h"
#include "../common/gen.h"

#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---------- buffers and state ---------- */

cublasHandle_t handle;
double *dX, *dY, *dA, *dA0, *dB, *dB0, *dC, *d_ab, *d_res;
double *hX, *hY, *hA, *hB, *hCt, *hCo, *hYt[4], *hYo;
call_bufs bufs;
double qnan;
dfs_oz_params oz;
int ref_dd;
int n_threads = 1;
int call_counter;

void shared_setup(void)
{
    oz = dfs_oz_default_params();
    qnan = gt_qnan();
    long np = sysconf(_SC_NPROCESSORS_ONLN);
    n_threads = np < 1 ? 1 : np > MAX_THREADS ? MAX_THREADS : (int)np;
    GT_CUBLAS(cublasCreate_v2(&handle));
    dX = gt_dmalloc(X_BUF * sizeof(double));
    dY = gt_dmalloc(VEC_BUF * sizeof(double));
    dA = gt_dmalloc(A_BUF * sizeof(double));
    dA0 = gt_dmalloc(A_BUF * sizeof(double));
    dB = gt_dmalloc(G_BUF * sizeof(double));
    dB0 = gt_dmalloc(G_BUF * sizeof(double));
    dC = gt_dmalloc(G_BUF * sizeof(double));
    d_ab = gt_dmalloc(2 * sizeof(double));
    d_res = gt_dmalloc(sizeof(double));
    hX = df_pinned(VEC_BUF);
    hY = df_pinned(VEC_BUF);
    hA = df_pinned(A_BUF);
    hB = df_pinned(G_BUF);
    hCt = df_pinned(G_BUF);
    hCo = df_pinned(G_BUF);
    for (int i = 0; i < 4; i++)
        hYt[i] = df_pinned(Y_BUF);
    hYo = df_pinned(Y_BUF);
    bufs = (call_bufs){.d_ab = d_ab, .d_res = d_res, .dY = dY, .hYo = hYo, .y_cap = Y_BUF,
                       .dC = dC, .hCt = hCt, .hCo = hCo};
}

void shared_teardown(void)
{
    GT_CUBLAS(cublasDestroy_v2(handle));
    double *dev_bufs[] = {dX, dY, dA, dA0, dB, dB0, dC, d_ab, d_res};
    for (size_t i = 0; i < sizeof dev_bufs / sizeof dev_bufs[0]; i++)
        GT_CUDA(cudaFree(dev_bufs[i]));
    double *host_bufs[] = {hX, hY, hA, hB, hCt, hCo, hYt[0], hYt[1], hYt[2], hYt[3], hYo};
    for (size_t i = 0; i < sizeof host_bufs / sizeof host_bufs[0]; i++)
        GT_CUDA(cudaFreeHost(host_bufs[i]));
}


/* ---------- small helpers ---------- */

int cmp_out(const char *what, const double *want, const double *got, int64_t len,
            int64_t ld)
{
    return cmp_named(what, "CPU", want, got, len, ld);
}

int cmp_one(const char *what, double want, double got)
{
    return cmp_out(what, &want, &got, 1, 0);
}

void check_status(const char *routine, cublasStatus_t st)
{
    if (st != CUBLAS_STATUS_SUCCESS)
        gt_fail("%s: status %s", routine, gt_status_name(st));
}

/* ---------- CPU work on threads ---------- */

typedef void (*par_fn)(void *ctx, int64_t lo, int64_t hi, int t);

typedef struct {
    par_fn fn;
    void *ctx;
    int64_t lo, hi;
    int t;
} par_job;

static void *par_run(void *p)
{
    par_job *j = p;
    j->fn(j->ctx, j->lo, j->hi, j->t);
    return NULL;
}

/* fn(ctx, lo, hi, t) over [0, count) cut into at most n_threads parts of at least `grain`
 * (part t on thread t); returns the number of parts. */
static int par_for(int64_t count, int64_t grain, par_fn fn, void *ctx)
{
    if (count <= 0)
        return 0;
    int64_t parts = count / (grain > 0 ? grain : 1);
    parts = parts < 1 ? 1 : parts > n_threads ? n_threads : parts;
    const int T = (int)parts;
    pthread_t th[MAX_THREADS];
    par_job jobs[MAX_THREADS];
    int started[MAX_THREADS] = {0};
    for (int t = 0; t < T; t++)
        jobs[t] = (par_job){fn, ctx, count * t / T, count * (t + 1) / T, t};
    for (int t = 1; t < T; t++)
        started[t] = !pthread_create(&th[t], NULL, par_run, &jobs[t]);
    par_run(&jobs[0]);
    for (int t = 1; t < T; t++) {
        if (started[t])
            pthread_join(th[t], NULL);
        else
            par_run(&jobs[t]);
    }
    return T;
}

/* ---------- data ---------- */

#define FILL_CHUNK ((int64_t)1 << 16)

typedef struct {
    double *x;
    int64_t n;
    int g;
    uint64_t seed;
} fill_job;

static void fill_part(void *c, int64_t lo, int64_t hi, int t)
{
    (void)t;
    const fill_job *f = c;
    for (int64_t ch = lo; ch < hi; ch++) {
        rng r = rng_seed(f->seed * 0x100000001b3ULL + (uint64_t)ch);
        const int64_t a = ch * FILL_CHUNK, b = a + FILL_CHUNK < f->n ? a + FILL_CHUNK : f->n;
        gen_fill(&r, f->g, f->x + a, b - a);
    }
}

void fill(double *x, int64_t n, int g, uint64_t seed)
{
    fill_job f = {x, n, g, seed};
    par_for((n + FILL_CHUNK - 1) / FILL_CHUNK, 1, fill_part, &f);
}

/* gen_dot's running sum: a full xacc.h accumulator (exact). */
typedef struct {
    int64_t w[DFS_X_WORDS];
    dfs_xacc a;
} xsum;

static void xsum_add(void *c, double x, double y)
{
    xsum *s = c;
    dfs_x_add_product(&s->a, x, y, 0);
}

static double xsum_rounded(void *c)
{
    xsum *s = c;
    int64_t w[DFS_X_WORDS];
    memcpy(w, s->w, sizeof w);
    dfs_xacc t = s->a;
    t.w = w;
    return dfs_x_round(&t, 0);
}

void gendot(int64_t n, double cond, double *x, double *y, uint64_t seed)
{
    xsum *s = malloc(sizeof *s);
    if (!s)
        gt_fatal("out of host memory");
    dfs_x_init(&s->a, s->w, DFS_X_WORDS, DFS_X_LSB);
    const gen_exact_sum es = {xsum_add, xsum_rounded, s};
    rng r = rng_seed(seed);
    gen_dot(&r, (int)n, cond, x, y, &es);
    free(s);
}

/* ---------- the CPU implementation, spread over threads ---------- */

typedef struct {
    int trans;
    int64_t m, n;
    double alpha, beta;
    const double *A, *x;
    double *y;
    int64_t slow[MAX_THREADS];
} gemv_job;

static void gemv_part(void *c, int64_t lo, int64_t hi, int t)
{
    gemv_job *g = c;
    dfs_oz_stats st;
    if (!g->trans)
        dfs_oz_gemv_host(&oz, 0, hi - lo, g->n, g->alpha, g->A + lo, g->m, g->x, 1, g->beta,
                         g->y + lo, 1, &st);
    else
        dfs_oz_gemv_host(&oz, 1, g->m, hi - lo, g->alpha, g->A + lo * g->m, g->m, g->x, 1,
                         g->beta, g->y + lo, 1, &st);
    g->slow[t] = st.slow;
}

int64_t gemv_ref(int trans, int64_t m, int64_t n, double alpha, const double *A,
                 const double *x, double beta, const double *y0, double *y)
{
    const int64_t len = trans ? n : m;
    memcpy(y, y0, (size_t)len * sizeof *y);
    if (ref_dd) { /* its order depends on the whole shape: one call */
        dfs_dd_gemv_host(trans, m, n, alpha, A, m, x, 1, beta, y, 1);
        return 0;
    }
    gemv_job g = {trans, m, n, alpha, beta, A, x, y, {0}};
    const int T = par_for(len, 16, gemv_part, &g);
    int64_t slow = 0;
    for (int t = 0; t < T; t++)
        slow += g.slow[t];
    return slow;
}

typedef struct {
    int64_t m, n, k;
    double alpha, beta;
    const double *A, *B;
    double *C;
    int64_t slow[MAX_THREADS];
    int slices[MAX_THREADS];
    int dd; /* the dd engine's twin, else the reproducible engine's (RN(exact)) */
} gemm_job;

/* Whether the mode accurate sends this DGEMM to the reproducible engine (config/default.policy:
 * every dimension 256 or more, or at most 128^3 products, on parts with integer tensor cores,
 * cc 7.5 and later): its reference is then RN(exact), not the dd engine's twin. */
static int accurate_to_repro(int64_t m, int64_t n, int64_t k)
{
    const int tiny = (double)m * (double)n * (double)k <= 2097152.0;
    if (!gt_mode_is("accurate") || ((m < 256 || n < 256 || k < 256) && !tiny))
        return 0;
    int dev = 0, major = 0, minor = 0;
    if (cudaGetDevice(&dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev) != cudaSuccess)
        gt_fatal("cannot read the device's compute capability");
    return major * 10 + minor >= 75;
}

static void gemm_part(void *c, int64_t lo, int64_t hi, int t)
{
    gemm_job *g = c;
    dfs_oz_stats st;
    const int64_t ldb = max64(g->k, 1);
    if (g->dd) {
        dfs_dd_gemm_host(0, 0, g->m, hi - lo, g->k, g->alpha, g->A, max64(g->m, 1),
                         g->k > 0 ? g->B + lo * ldb : g->B, ldb, g->beta, g->C + lo * g->m,
                         max64(g->m, 1));
        g->slow[t] = 0;
        g->slices[t] = 0;
        return;
    }
    dfs_oz_gemm_host(&oz, 0, 0, g->m, hi - lo, g->k, g->alpha, g->A, max64(g->m, 1),
                     g->k > 0 ? g->B + lo * ldb : g->B, ldb, g->beta, g->C + lo * g->m, max64(g->m, 1), &st);
    g->slow[t] = st.slow;
    g->slices[t] = st.slices_a > st.slices_b ? st.slices_a : st.slices_b;
}

int64_t gemm_ref(int64_t m, int64_t n, int64_t k, double alpha, const double *A,
                 const double *B, double beta, const double *C0, double *C, int *slices)
{
    memcpy(C, C0, (size_t)(m * n) * sizeof *C);
    gemm_job g = {m, n, k, alpha, beta, A, B, C, {0}, {0}, ref_dd && !accurate_to_repro(m, n, k)};
    const int T = par_for(n, 4, gemm_part, &g);
    int64_t slow = 0;
    int s = 0;
    for (int t = 0; t < T; t++) {
        slow += g.slow[t];
        s = g.slices[t] > s ? g.slices[t] : s;
    }
    if (slices)
        *slices = s;
    return slow;
}

double dot_ref(int64_t n, const double *x, const double *y, int64_t *slow)
{
    if (ref_dd) {
        if (slow)
            *slow = 0;
        return dfs_dd_dot_host(n, x, 1, y, 1);
    }
    dfs_oz_stats st;
    const double r = dfs_oz_dot_host(&oz, n, x, 1, y, 1, &st);
    if (slow)
        *slow = st.slow;
    return r;
}

/* ---------- the DDOT call ---------- */

double run_dot(int real, cublasHandle_t hh, int is64, int64_t n, const double *px, int64_t incx,
               const double *py, int64_t incy, int dev)
{
    cublasStatus_t st;
    int late;
    const double v = call_dot(&bufs, real, hh, is64, n, px, incx, py, incy, dev, &st, &late);
    if (st != CUBLAS_STATUS_SUCCESS)
        gt_fail("%s%s: status %s", real ? "real " : "", gt_dot_name(is64), gt_status_name(st));
    else if (late && !real)
        gt_fail("host pointer mode: the result was not in the host variable when %s "
                "returned (after a synchronisation: %.17g)", gt_dot_name(is64), v);
    return v;
}
