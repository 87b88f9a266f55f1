/* int8_common.c — see int8_common.h. */
#include "int8_common.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <unistd.h>

/* ---------- state ---------- */

cublasHandle_t handle;
double *dA, *dA0, *dB, *dB0, *dC, *d_ab; /* device; dC: BUF + 2 GUARD */
double *hS, *hCt, *hCo;                 /* pinned: operand staging, C template, C back */
double *gotb;                           /* one gathered batch entry */
double qnan, gap_c;                     /* gap_c: C's sentinel (a NaN with a payload) */
int n_threads = 1;
int opt_moduli; /* the moduli= option (0: by k) */
double ref_seconds;
long long ref_calls;

/* ---------- small helpers (memory, bits, layouts, timed groups) ---------- */

double of_bits(uint64_t b)
{
    double x;
    memcpy(&x, &b, sizeof x);
    return x;
}


/* ---------- the engine's moduli ---------- */

/* 1 when the mode is int8 (EXBLAS_MODE=int8[:options]); opt_moduli from its moduli= option (the
 * engine's rules, int8/engine.c: an integer 0..24, anything else or 1 is the default, 0). */
int parse_mode(void)
{
    if (!gt_mode_is("int8"))
        return 0;
    const char *v = gt_mode_option("moduli");
    char *end = NULL;
    const long x = v ? strtol(v, &end, 10) : 0;
    opt_moduli = v && *v && !*end && x >= 2 && x <= DFS_CRT_MODULI ? (int)x : 0;
    return 1;
}

/* The moduli the engine takes for k terms (crt.h's rule, as crt_gemm.c applies it). */
int moduli_for(int64_t k)
{
    return dfs_crt_int8_moduli(opt_moduli, k > 0 ? k : 1);
}

/* ---------- the CPU twin on threads ---------- */


typedef struct {
    int task;
    int64_t c0, c1;
} ref_chunk;

static struct {
    const ref_task *tasks;
    ref_chunk *chunks;
    long long count;
    atomic_llong next;
} pool;

/* Columns c0 .. c1-1 of a task: the twin on that slice of op(B) and C (each column's outputs
 * depend on its own column and the rows of op(A) only). */
static void run_chunk(const ref_task *t, int64_t c0, int64_t c1)
{
    const int64_t m = t->m, ldc = max64(m, 1);
    double *C = t->C + c0 * ldc;
    memcpy(C, t->C0 + c0 * ldc, (size_t)((c1 - c0) * ldc) * sizeof *C);
    const double *B = t->k > 0 ? (t->tb ? t->B + c0 : t->B + c0 * t->ldb) : t->B;
    dfs_oz_stats st;
    dfs_oz_crt_gemm_host(t->ta, t->tb, m, c1 - c0, t->k, t->alpha, t->A, t->lda, B,
                         t->ldb, t->beta, C, ldc, t->moduli, 1, &st);
}

static void *pool_worker(void *arg)
{
    (void)arg;
    for (;;) {
        const long long i = atomic_fetch_add(&pool.next, 1);
        if (i >= pool.count)
            return NULL;
        const ref_chunk *c = &pool.chunks[i];
        run_chunk(&pool.tasks[c->task], c->c0, c->c1);
    }
}

/* Every task, cut into column ranges so that all threads have work. */
void run_refs(const ref_task *tasks, int nt)
{
    if (nt <= 0)
        return;
    const double t0 = gt_now();
    const int64_t per = (2 * n_threads + nt - 1) / nt;
    long long count = 0;
    for (int i = 0; i < nt; i++)
        count += tasks[i].n < per ? tasks[i].n : per;
    pool.chunks = gt_hmalloc((size_t)(count > 0 ? count : 1) * sizeof *pool.chunks);
    count = 0;
    for (int i = 0; i < nt; i++) {
        const int64_t n = tasks[i].n, parts = n < per ? n : per;
        for (int64_t p = 0; p < parts; p++)
            pool.chunks[count++] = (ref_chunk){i, n * p / parts, n * (p + 1) / parts};
    }
    pool.tasks = tasks;
    pool.count = count;
    atomic_store(&pool.next, 0);
    pthread_t th[MAX_THREADS];
    int started[MAX_THREADS] = {0};
    const int T = count < n_threads ? (int)count : n_threads;
    for (int t = 1; t < T; t++)
        started[t] = !pthread_create(&th[t], NULL, pool_worker, NULL);
    pool_worker(NULL);
    for (int t = 1; t < T; t++)
        if (started[t])
            pthread_join(th[t], NULL);
    free(pool.chunks);
    pool.chunks = NULL;
    ref_seconds += gt_now() - t0;
    ref_calls += nt;
}

/* One output range through the twin, on this thread (small problems). */
void twin(int ta, int tb, int64_t m, int64_t n, int64_t k, double alpha, const double *A,
                 int64_t lda, const double *B, int64_t ldb, double beta, double *C, int64_t ldc)
{
    dfs_oz_stats st;
    dfs_oz_crt_gemm_host(ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc, moduli_for(k), 1,
                         &st);
}

/* ---------- data ---------- */


const char *const kind_names[K_COUNT] = {
    "phi0",
    "phi1",
    "phi4",
    "phi8",
    "phi1, rows of op(A) x 1e300 / x 1e-300",
    "phi1, Inf and NaN in rows of op(A), -Inf in a column of op(B), Inf * 0",
    "phi1, rows of op(A) x 2^-1000, columns of op(B) x 2^-40 (subnormal outputs)"};

void fill(double *x, int64_t n, int g, uint64_t seed)
{
    rng r = rng_seed(seed);
    gen_fill(&r, g, x, n);
}


void make_problem(problem *P, int64_t m, int64_t n, int64_t k, int kind, int nb,
                         int distinct, uint64_t seed)
{
    static const int gen[K_COUNT] = {G_PHI0, G_PHI1, G_PHI4, G_PHI8, G_PHI1, G_PHI1, G_PHI1};
    memset(P, 0, sizeof *P);
    P->m = m;
    P->n = n;
    P->k = k;
    P->nb = nb;
    P->distinct = distinct;
    const size_t ak = (size_t)max64(m * k, 1), bk = (size_t)max64(k * n, 1);
    for (int b = 0; b < nb; b++) {
        if (b > 0 && !distinct) {
            P->A[b] = P->A[0];
            P->B[b] = P->B[0];
            P->C[b] = P->C[0];
            P->A0[b] = P->A0[0];
            P->B0[b] = P->B0[0];
            continue;
        }
        double *A = P->A[b] = df_xmalloc(ak), *B = P->B[b] = df_xmalloc(bk);
        P->C[b] = df_xmalloc((size_t)(m * n));
        P->A0[b] = df_xmalloc(ak);
        P->B0[b] = df_xmalloc(bk);
        const uint64_t s = seed + 10 * (uint64_t)b;
        fill(A, m * k, gen[kind], s);
        fill(B, k * n, gen[kind], s + 1);
        fill(P->C[b], m * n, G_PHI1, s + 2);
        if (kind == K_ROWS)
            wide_rows(A, m, k);
        if (kind == K_TINY) {
            for (int64_t q = 0; q < k; q++)
                for (int64_t i = 0; i < m; i += 2)
                    A[i + q * m] = ldexp(A[i + q * m], -1000);
            for (int64_t j = 0; j < n; j += 2)
                for (int64_t q = 0; q < k; q++)
                    B[q + j * k] = ldexp(B[q + j * k], -40);
        }
        if (kind == K_SPECIAL && k > 0)
            place_specials(A, B, m, n, k);
        poison(P->A0[b], A, m * k);
        poison(P->B0[b], B, k * n);
    }
    P->Cnan = df_xmalloc((size_t)max64(m * n, 1));
    gt_fill_const(P->Cnan, (size_t)(m * n), qnan);
}

void free_problem(problem *P)
{
    for (int b = 0; b < P->nb; b++)
        if (b == 0 || P->distinct) {
            free(P->A[b]);
            free(P->B[b]);
            free(P->C[b]);
            free(P->A0[b]);
            free(P->B0[b]);
        }
    free(P->Cnan);
    memset(P, 0, sizeof *P);
}

/* A tight copy of the logical rows x cols matrix L as the operand of a call stores it: trans =
 * 0: L itself (not copied); 1: its transpose, cols x rows. */
double *stored(double *L, int64_t rows, int64_t cols, int trans)
{
    if (!trans)
        return L;
    double *S = df_xmalloc((size_t)max64(rows * cols, 1));
    for (int64_t c = 0; c < cols; c++)
        for (int64_t r = 0; r < rows; r++)
            S[c + r * cols] = L[r + c * rows];
    return S;
}

/* ---------- the calls ---------- */

/* nb logical matrices into device memory d as the operand of a call (lay_out: padding and batch
 * gaps NaN). */
void upload(double *d, double *const *L, int nb, int64_t rows, int64_t cols, int trans,
                   int64_t ld, int64_t stride)
{
    const size_t span = lay_out(hS, BUF, L, nb, rows, cols, trans, ld, stride, qnan);
    gt_h2d(d, hS, span * sizeof *hS);
}

/* hCt: GUARD sentinels, the nb matrices Cl with C's layout (gaps: the sentinel), GUARD
 * sentinels.  Returns the span of the matrices. */
size_t c_template(const gt_gemm *g, int nb, double *const *Cl)
{
    for (size_t i = 0; i < GUARD; i++)
        hCt[i] = gap_c;
    const size_t span = lay_out(hCt + GUARD, BUF, Cl, nb, g->m, g->n, 0, g->ldc, g->sC, gap_c);
    for (size_t i = 0; i < GUARD; i++)
        hCt[GUARD + span + i] = gap_c;
    return span;
}

/* g with C at dC + GUARD from the template (span matrices + guards), alpha and beta on the host
 * or in device memory, through the shim (real = 0) or real cuBLAS; C's span and guards back in
 * hCo.  Host pointer mode afterwards. */
cublasStatus_t call(int real, gt_gemm *g, int dev, double alpha, double beta, size_t span)
{
    static double h_ab[2];
    const size_t total = span + 2 * GUARD;
    gt_h2d(dC, hCt, total * sizeof *hCt);
    h_ab[0] = alpha;
    h_ab[1] = beta;
    if (dev)
        gt_h2d(d_ab, h_ab, sizeof h_ab);
    const cublasPointerMode_t pm = dev ? CUBLAS_POINTER_MODE_DEVICE : CUBLAS_POINTER_MODE_HOST;
    GT_CUBLAS(cublasSetPointerMode_v2(handle, pm));
    g->alpha = dev ? (const void *)&d_ab[0] : (const void *)&h_ab[0];
    g->beta = dev ? (const void *)&d_ab[1] : (const void *)&h_ab[1];
    g->C = dC + GUARD;
    const cublasStatus_t st = gt_run_gemm(real, handle, g);
    gt_check_modes(handle, pm, CUBLAS_DEFAULT_MATH);
    GT_CUDA(cudaDeviceSynchronize());
    gt_d2h(hCo, dC, total * sizeof *hCo);
    GT_CUBLAS(cublasSetPointerMode_v2(handle, CUBLAS_POINTER_MODE_HOST));
    return st;
}

/* Fails unless the guards and everything in C's span outside the matrices are untouched. */
void check_around(const gt_gemm *g, int nb, size_t span)
{
    size_t bad = 0, first = 0;
    for (size_t i = 0; i < GUARD; i++) {
        if (df_bits(hCo[i]) != df_bits(gap_c) && !bad++)
            first = i;
        if (df_bits(hCo[GUARD + span + i]) != df_bits(gap_c) && !bad++)
            first = GUARD + span + i;
    }
    if (bad)
        gt_fail("%zu of the %d sentinel elements before and after C's span were written; first "
                "%s: %.17g", bad, 2 * GUARD, first < GUARD ? "before" : "after", hCo[first]);
    check_outside(hCt + GUARD, hCo + GUARD, nb, g->m, g->n, g->ldc, g->sC);
}

/* The m x n outputs got against want; fails naming the first difference. */
int cmp_c(const char *what, const char *want_name, const double *want, const double *got,
                 int64_t m, int64_t n)
{
    return cmp_named(what, want_name, want, got, m * n, m);
}

const char *ptr_name(int dev)
{
    return dev ? "device" : "host";
}
