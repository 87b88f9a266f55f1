/* stress_threads — 16 threads x 4 handles x mixed DGEMM / DGEMV / DDOT, 10^4 calls per thread
 * (STRESS_CALLS overrides), in the engine EXBLAS_MODE names, with handles destroyed and
 * recreated while the other threads run.
 *
 * Each thread draws its calls from 64 descriptors of its own (sizes 1..64, ops, alpha/beta,
 * host or device DDOT results, increments), each on one of its 4 handles and their 4
 * non-blocking streams.  Before the threads start, the main thread computes every descriptor
 * once through the shim on a handle of its own and keeps the result's bits; every threaded call
 * must give the same bits (the engines are deterministic: a wrong stream, a shared workspace used
 * twice at once or a handle state mixed up between threads shows here).  Every thread whose
 * number is a multiple of 4 destroys its handle 0 at each 2500th call (through the shim, which
 * frees its state and workspace) and creates a new one.  The whole runs twice; after all threads
 * have joined and all handles are destroyed, the device's free memory (default memory pool
 * trimmed) at the end of round 2 must be within 4 MiB of that at the end of round 1 (round 1's
 * change, which includes the libraries' one-time allocations, is printed). */
#include "common.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define THREADS 16
#define HANDLES 4
#define DESCS 64
#define MAXN 64
#define POOL (1u << 20)
#define DESTROY_EVERY 2500

enum { K_GEMM, K_GEMV, K_DOT };

typedef struct {
    int kind, handle;
    cublasOperation_t ta, tb;
    int m, n, k, incx, incy, dev_result;
    double alpha, beta;
    size_t a_off, b_off;
} desc;

typedef struct {
    int id;
    desc d[DESCS];
    uint64_t want[DESCS]; /* hash of the reference result */
    long calls, bad, first_bad;
} worker;

static double *d_pool; /* read-only inputs */
static worker W[THREADS];
static long calls_per_thread = 10000;

static uint64_t hash(const void *p, size_t bytes)
{
    const unsigned char *c = p;
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < bytes; i++)
        h = (h ^ c[i]) * 1099511628211ull;
    return h;
}

static void make_descs(worker *w)
{
    uint64_t s = 1000 + (uint64_t)w->id;
    static const double sc[4] = {1.0, -0.5, 2.0, 0.0};
    for (int i = 0; i < DESCS; i++) {
        desc *d = &w->d[i];
        d->kind = i % 3;
        d->handle = (int)(gt_rand(&s) % HANDLES);
        d->ta = gt_rand(&s) & 1 ? CUBLAS_OP_T : CUBLAS_OP_N;
        d->tb = gt_rand(&s) & 1 ? CUBLAS_OP_T : CUBLAS_OP_N;
        d->m = 1 + (int)(gt_rand(&s) % MAXN);
        d->n = 1 + (int)(gt_rand(&s) % MAXN);
        d->k = 1 + (int)(gt_rand(&s) % MAXN);
        d->incx = gt_rand(&s) % 4 ? 1 : -2;
        d->incy = gt_rand(&s) % 4 ? 1 : 3;
        d->dev_result = (int)(gt_rand(&s) & 1);
        d->alpha = sc[gt_rand(&s) % 3];
        d->beta = sc[gt_rand(&s) % 4];
        d->a_off = (size_t)(gt_rand(&s) % (POOL - 4 * MAXN * MAXN));
        d->b_off = (size_t)(gt_rand(&s) % (POOL - 4 * MAXN * MAXN));
    }
}

/* Runs d on h/stream; out (device, MAXN * MAXN * 4 doubles) starts as a copy of a fixed pattern;
 * the result's bits go to host (pinned) and their hash is returned. */
static uint64_t run_desc(const desc *d, cublasHandle_t h, cudaStream_t st, double *out,
                         double *host)
{
    const size_t len = MAXN * MAXN * 4;
    GT_CUBLAS(cublasSetStream_v2(h, st));
    /* C / y start from the pool (beta reads them): the same start for every run */
    GT_CUDA(cudaMemcpyAsync(out, d_pool + 7, len * sizeof(double), cudaMemcpyDeviceToDevice, st));
    const double *A = d_pool + d->a_off, *B = d_pool + d->b_off;
    size_t bytes;
    if (d->kind == K_GEMM) {
        const int lda = d->ta == CUBLAS_OP_N ? d->m : d->k, ldb = d->tb == CUBLAS_OP_N ? d->k : d->n;
        GT_CUBLAS(cublasSetPointerMode_v2(h, CUBLAS_POINTER_MODE_HOST));
        GT_CUBLAS(cublasDgemm_v2(h, d->ta, d->tb, d->m, d->n, d->k, &d->alpha, A, lda, B, ldb,
                                 &d->beta, out, d->m));
        bytes = (size_t)d->m * (size_t)d->n * sizeof(double);
    } else if (d->kind == K_GEMV) {
        const int len_y = d->ta == CUBLAS_OP_N ? d->m : d->n;
        GT_CUBLAS(cublasSetPointerMode_v2(h, CUBLAS_POINTER_MODE_HOST));
        GT_CUBLAS(cublasDgemv_v2(h, d->ta, d->m, d->n, &d->alpha, A, d->m, B, d->incx, &d->beta,
                                 out, d->incy));
        bytes = (size_t)(len_y - 1) * (size_t)abs(d->incy) * sizeof(double) + sizeof(double);
    } else {
        const int n = d->m * d->n;
        if (d->dev_result) {
            GT_CUBLAS(cublasSetPointerMode_v2(h, CUBLAS_POINTER_MODE_DEVICE));
            GT_CUBLAS(cublasDdot_v2(h, n, A, d->incx, B, d->incy, out));
            GT_CUBLAS(cublasSetPointerMode_v2(h, CUBLAS_POINTER_MODE_HOST));
        } else {
            GT_CUBLAS(cublasSetPointerMode_v2(h, CUBLAS_POINTER_MODE_HOST));
            GT_CUBLAS(cublasDdot_v2(h, n, A, d->incx, B, d->incy, host + 1));
            GT_CUDA(cudaStreamSynchronize(st));
            return hash(host + 1, sizeof(double));
        }
        bytes = sizeof(double);
    }
    GT_CUDA(cudaMemcpyAsync(host, out, bytes, cudaMemcpyDeviceToHost, st));
    GT_CUDA(cudaStreamSynchronize(st));
    return hash(host, bytes);
}

static void *thread_main(void *arg)
{
    worker *w = arg;
    cublasHandle_t h[HANDLES];
    cudaStream_t st[HANDLES];
    double *out[HANDLES], *host;
    GT_CUDA(cudaHostAlloc((void **)&host, MAXN * MAXN * 4 * sizeof(double), 0));
    for (int i = 0; i < HANDLES; i++) {
        GT_CUBLAS(cublasCreate_v2(&h[i]));
        GT_CUDA(cudaStreamCreateWithFlags(&st[i], cudaStreamNonBlocking));
        GT_CUDA(cudaMalloc((void **)&out[i], MAXN * MAXN * 4 * sizeof(double)));
    }
    uint64_t s = 77 + (uint64_t)w->id;
    for (long c = 0; c < calls_per_thread; c++) {
        if (w->id % 4 == 0 && c > 0 && c % DESTROY_EVERY == 0) {
            GT_CUBLAS(cublasDestroy_v2(h[0]));
            GT_CUBLAS(cublasCreate_v2(&h[0]));
        }
        const int i = (int)(gt_rand(&s) % DESCS);
        const desc *d = &w->d[i];
        uint64_t got = run_desc(d, h[d->handle], st[d->handle], out[d->handle], host);
        if (got != w->want[i] && w->bad++ == 0)
            w->first_bad = c;
        w->calls++;
    }
    for (int i = 0; i < HANDLES; i++) {
        GT_CUDA(cudaStreamSynchronize(st[i]));
        GT_CUBLAS(cublasDestroy_v2(h[i]));
        GT_CUDA(cudaStreamDestroy(st[i]));
        GT_CUDA(cudaFree(out[i]));
    }
    GT_CUDA(cudaFreeHost(host));
    return NULL;
}

static size_t free_memory(void)
{
    GT_CUDA(cudaDeviceSynchronize());
    cudaMemPool_t pool;
    GT_CUDA(cudaDeviceGetDefaultMemPool(&pool, 0));
    GT_CUDA(cudaMemPoolTrimTo(pool, 0));
    size_t fr = 0, total = 0;
    GT_CUDA(cudaMemGetInfo(&fr, &total));
    return fr;
}

int main(void)
{
    gt_init("stress_threads");
    const char *env = getenv("STRESS_CALLS");
    if (env && atol(env) > 0)
        calls_per_thread = atol(env);
    d_pool = gt_dmalloc(POOL * sizeof(double));
    double *hp = gt_hmalloc(POOL * sizeof(double));
    gt_fill(hp, POOL, 5);
    gt_h2d(d_pool, hp, POOL * sizeof(double));
    free(hp);

    /* references, on one handle of the main thread (also the warm-up) */
    cublasHandle_t h;
    double *out, *host;
    GT_CUBLAS(cublasCreate_v2(&h));
    GT_CUDA(cudaMalloc((void **)&out, MAXN * MAXN * 4 * sizeof(double)));
    GT_CUDA(cudaHostAlloc((void **)&host, MAXN * MAXN * 4 * sizeof(double), 0));
    for (int t = 0; t < THREADS; t++) {
        W[t].id = t;
        make_descs(&W[t]);
        for (int i = 0; i < DESCS; i++)
            W[t].want[i] = run_desc(&W[t].d[i], h, 0, out, host);
    }
    GT_CUBLAS(cublasDestroy_v2(h));

    size_t base = free_memory();
    for (int round = 0; round < 2; round++) {
        gt_group("round %d: %d threads x %d handles, %ld calls each", round + 1, THREADS, HANDLES,
                 calls_per_thread);
        const double t0 = gt_now();
        pthread_t th[THREADS];
        for (int t = 0; t < THREADS; t++) {
            W[t].calls = W[t].bad = 0;
            if (pthread_create(&th[t], NULL, thread_main, &W[t]))
                gt_fatal("pthread_create");
        }
        for (int t = 0; t < THREADS; t++)
            pthread_join(th[t], NULL);
        for (int t = 0; t < THREADS; t++) {
            gt_case("thread %d", t);
            if (W[t].calls != calls_per_thread)
                gt_fail("%ld calls made", W[t].calls);
            if (W[t].bad)
                gt_fail("%ld of %ld results differ from the reference (first at call %ld)",
                        W[t].bad, W[t].calls, W[t].first_bad);
        }
        gt_case("device memory after every handle was destroyed");
        const size_t now = free_memory();
        gt_note("%.1f s; free memory %+.1f MiB against %s", gt_now() - t0,
                ((double)now - (double)base) / 1048576.0,
                round ? "the end of round 1" : "before round 1");
        if (round && now + (4u << 20) < base)
            gt_fail("%.1f MiB of device memory not given back", (double)(base - now) / 1048576.0);
        base = now;
    }
    cudaFree(out);
    cudaFreeHost(host);
    return gt_finish();
}
