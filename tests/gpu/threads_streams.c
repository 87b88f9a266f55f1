/* threads_streams — two pthreads, each with its own handle on its own non-blocking stream,
 * drive mixed Dgemm / Dgemv / Ddot calls through the shim at the same time; every result must
 * equal bitwise the same sequence run through the real cuBLAS on a third handle (run first,
 * alone).  Thread A destroys its handle (through the shim) while thread B keeps working, then
 * goes on with a fresh handle; thread B waits at call 250 until that destroy happened. */
#include "common.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NPOOL (1u << 22)  /* read-only input pool, shared by everyone */
#define CALLS_A 250       /* 200 on handle A, destroy, 50 on a new handle */
#define A_DESTROY_AT 200
#define CALLS_B 300       /* thread B waits at B_WAIT_AT until handle A was destroyed */
#define B_WAIT_AT 250
#define WAIT_LIMIT_S 120.0

enum { K_GEMM, K_GEMV, K_DOT };

typedef struct {
    int kind, is64; /* is64: the _64 entry point */
    cublasOperation_t ta, tb;
    int m, n, k, lda, ldb, ldc, incx, incy;
    double alpha, beta;
    int device_result; /* dot */
    size_t a_off, b_off; /* into the pool: A / B, or A / x, or x / y */
    size_t out_off, out_len, out_ptr; /* slot in the arena, and where the output starts in it */
} call_desc;

static double *d_pool;

static int rnd(uint64_t *s, int lo, int hi)
{
    return lo + (int)(gt_rand(s) % (uint64_t)(hi - lo + 1));
}

/* A pool offset for an argument spanning `span` elements, at least `guard` in from both ends. */
static size_t pool_off(uint64_t *s, size_t span, size_t guard)
{
    size_t room = NPOOL - span - 2 * guard;
    return guard + (size_t)(gt_rand(s) % room);
}

static size_t build_calls(call_desc *c, int n, uint64_t seed)
{
    static const double sc[5] = {1, -1, 0.5, 3, 0};
    uint64_t s = seed;
    size_t arena = 0;
    int ndot = 0;
    for (int j = 0; j < n; j++) {
        call_desc *d = &c[j];
        memset(d, 0, sizeof *d);
        d->kind = j % 3;
        d->is64 = rnd(&s, 0, 3) == 0;
        d->alpha = sc[rnd(&s, 0, 3)];
        d->beta = sc[rnd(&s, 0, 4)];
        if (d->kind == K_GEMM) {
            d->ta = rnd(&s, 0, 1) ? CUBLAS_OP_T : CUBLAS_OP_N;
            d->tb = rnd(&s, 0, 1) ? CUBLAS_OP_T : CUBLAS_OP_N;
            d->m = rnd(&s, 1, 96);
            d->n = rnd(&s, 1, 96);
            d->k = rnd(&s, 1, 96);
            int ra = d->ta == CUBLAS_OP_N ? d->m : d->k, ca = d->ta == CUBLAS_OP_N ? d->k : d->m;
            int rb = d->tb == CUBLAS_OP_N ? d->k : d->n, cb = d->tb == CUBLAS_OP_N ? d->n : d->k;
            d->lda = ra + rnd(&s, 0, 2);
            d->ldb = rb + rnd(&s, 0, 2);
            d->ldc = d->m + rnd(&s, 0, 2);
            d->a_off = pool_off(&s, (size_t)d->lda * (size_t)ca, 0);
            d->b_off = pool_off(&s, (size_t)d->ldb * (size_t)cb, 0);
            d->out_len = (size_t)d->ldc * (size_t)d->n;
            d->out_ptr = 0;
        } else if (d->kind == K_GEMV) {
            d->ta = rnd(&s, 0, 1) ? CUBLAS_OP_T : CUBLAS_OP_N;
            d->m = rnd(&s, 1, 400);
            d->n = rnd(&s, 1, 400);
            d->lda = d->m + rnd(&s, 0, 2);
            static const int incx[3] = {1, 2, -1}, incy[2] = {1, -2};
            d->incx = incx[rnd(&s, 0, 2)];
            d->incy = incy[rnd(&s, 0, 1)];
            int xl = d->ta == CUBLAS_OP_N ? d->n : d->m, yl = d->ta == CUBLAS_OP_N ? d->m : d->n;
            size_t xs = gt_span(xl, d->incx), ys = gt_span(yl, d->incy);
            d->a_off = pool_off(&s, (size_t)d->lda * (size_t)d->n, 0);
            d->b_off = pool_off(&s, xs, xs);
            d->out_len = 3 * ys; /* guards either side of y */
            d->out_ptr = ys;
        } else {
            d->n = rnd(&s, 1, 50000);
            static const int inc[3] = {1, 2, -1};
            d->incx = inc[rnd(&s, 0, 2)];
            d->incy = inc[rnd(&s, 0, 2)];
            size_t xs = gt_span(d->n, d->incx), ys = gt_span(d->n, d->incy);
            d->a_off = pool_off(&s, xs, xs);
            d->b_off = pool_off(&s, ys, ys);
            d->device_result = ndot++ % 2;
            d->out_len = 1;
            d->out_ptr = 0;
        }
        d->out_off = arena;
        arena += d->out_len;
    }
    return arena;
}

/* One call, for real or through the shim; a host-mode dot writes host_res[j]. */
static cublasStatus_t run_call(int real, cublasHandle_t h, const call_desc *d, double *arena,
                               double *host_res)
{
    double *out = arena + d->out_off + d->out_ptr;
    const double *a = d_pool + d->a_off, *b = d_pool + d->b_off;
    if (d->kind == K_GEMM) {
        gt_gemm g = {.api = d->is64 ? GT_DGEMM_64 : GT_DGEMM, .ta = d->ta, .tb = d->tb,
                     .m = d->m, .n = d->n, .k = d->k,
                     .lda = d->lda, .ldb = d->ldb, .ldc = d->ldc, .batch = 1,
                     .alpha = &d->alpha, .beta = &d->beta, .A = a, .B = b, .C = out};
        return gt_run_gemm(real, h, &g);
    }
    if (d->kind == K_GEMV) {
        gt_gemv g = {.is64 = d->is64, .trans = d->ta, .m = d->m, .n = d->n, .alpha = &d->alpha,
                     .A = a, .lda = d->lda, .x = b, .incx = d->incx, .beta = &d->beta, .y = out,
                     .incy = d->incy};
        return gt_run_gemv(real, h, &g);
    }
    cublasStatus_t st;
    if (d->device_result &&
        (st = cublasSetPointerMode_v2(h, CUBLAS_POINTER_MODE_DEVICE)) != CUBLAS_STATUS_SUCCESS)
        return st;
    gt_dot dd = {.is64 = d->is64, .n = d->n, .x = a, .incx = d->incx, .y = b, .incy = d->incy,
                 .result = d->device_result ? out : host_res};
    st = gt_run_dot(real, h, &dd);
    if (d->device_result) {
        cublasStatus_t st2 = cublasSetPointerMode_v2(h, CUBLAS_POINTER_MODE_HOST);
        if (st == CUBLAS_STATUS_SUCCESS)
            st = st2;
    }
    return st;
}

typedef struct {
    const char *name;
    cudaStream_t stream;
    cublasHandle_t h;
    call_desc *calls;
    int ncalls;
    double *arena, *host_res;
    cublasStatus_t *st;
    cublasStatus_t destroy_st, create_st;
    int timed_out;
} worker;

static atomic_int progress_b;  /* calls thread B has issued */
static atomic_int a_destroyed; /* handle A destroyed */
static int b_at_destroy;

static int wait_for(atomic_int *v, int at_least)
{
    double t0 = gt_now();
    while (atomic_load(v) < at_least) {
        if (gt_now() - t0 > WAIT_LIMIT_S)
            return 0;
        nanosleep(&(struct timespec){0, 200000}, NULL);
    }
    return 1;
}

static void *thread_a(void *arg)
{
    worker *w = arg;
    for (int j = 0; j < A_DESTROY_AT; j++)
        w->st[j] = run_call(0, w->h, &w->calls[j], w->arena, &w->host_res[j]);
    cudaStreamSynchronize(w->stream);
    if (!wait_for(&progress_b, 20))
        w->timed_out = 1;
    b_at_destroy = atomic_load(&progress_b);
    w->destroy_st = cublasDestroy_v2(w->h);
    atomic_store(&a_destroyed, 1);
    w->h = NULL;
    w->create_st = cublasCreate_v2(&w->h);
    if (w->create_st == CUBLAS_STATUS_SUCCESS)
        w->create_st = cublasSetStream_v2(w->h, w->stream);
    if (w->create_st != CUBLAS_STATUS_SUCCESS)
        return NULL;
    for (int j = A_DESTROY_AT; j < w->ncalls; j++)
        w->st[j] = run_call(0, w->h, &w->calls[j], w->arena, &w->host_res[j]);
    cudaStreamSynchronize(w->stream);
    return NULL;
}

static void *thread_b(void *arg)
{
    worker *w = arg;
    for (int j = 0; j < w->ncalls; j++) {
        if (j == B_WAIT_AT && !wait_for(&a_destroyed, 1))
            w->timed_out = 1;
        w->st[j] = run_call(0, w->h, &w->calls[j], w->arena, &w->host_res[j]);
        atomic_store(&progress_b, j + 1);
    }
    cudaStreamSynchronize(w->stream);
    return NULL;
}

static const char *kind_name(int k)
{
    return k == K_GEMM ? "Dgemm" : k == K_GEMV ? "Dgemv" : "Ddot";
}

static void compare(const worker *w, const double *ref_arena_d, const double *ref_host)
{
    size_t len = w->calls[w->ncalls - 1].out_off + w->calls[w->ncalls - 1].out_len;
    double *hs = gt_hmalloc(len * sizeof *hs), *hr = gt_hmalloc(len * sizeof *hr);
    gt_d2h(hs, w->arena, len * sizeof *hs);
    gt_d2h(hr, ref_arena_d, len * sizeof *hr);
    for (int j = 0; j < w->ncalls; j++) {
        const call_desc *d = &w->calls[j];
        gt_case("%s call %d: %s%s op=%c%c m=%d n=%d k=%d inc=%d,%d alpha=%g beta=%g%s", w->name, j,
                kind_name(d->kind), d->is64 ? "_64" : "",
                d->kind == K_DOT ? '-' : gt_op_char(d->ta),
                d->kind == K_GEMM ? gt_op_char(d->tb) : ' ', d->m, d->n, d->k, d->incx, d->incy,
                d->alpha, d->beta,
                d->kind != K_DOT ? "" : d->device_result ? " result=device" : " result=host");
        if (w->st[j] != CUBLAS_STATUS_SUCCESS) {
            gt_fail("status %s through the shim", gt_status_name(w->st[j]));
            continue;
        }
        if (d->kind == K_DOT && !d->device_result)
            gt_cmp("result", &ref_host[j], &w->host_res[j], 1, 8, 0);
        else
            gt_cmp(d->kind == K_GEMM ? "C" : d->kind == K_GEMV ? "y (with guards)" : "result",
                   hr + d->out_off, hs + d->out_off, d->out_len, 8,
                   d->kind == K_GEMM ? d->ldc : 0);
    }
    free(hs);
    free(hr);
}

int main(void)
{
    gt_init("threads_streams");

    double *hpool = gt_hmalloc(NPOOL * sizeof *hpool);
    gt_fill(hpool, NPOOL, 21);
    d_pool = gt_dmalloc(NPOOL * sizeof *d_pool);
    gt_h2d(d_pool, hpool, NPOOL * sizeof *hpool);
    free(hpool);

    static call_desc calls_a[CALLS_A], calls_b[CALLS_B];
    size_t len_a = build_calls(calls_a, CALLS_A, 101), len_b = build_calls(calls_b, CALLS_B, 202);
    double *init_a = gt_hmalloc(len_a * sizeof *init_a);
    double *init_b = gt_hmalloc(len_b * sizeof *init_b);
    gt_fill(init_a, len_a, 31);
    gt_fill(init_b, len_b, 32);
    double *arena_a = gt_dmalloc(len_a * sizeof *arena_a);
    double *ref_a = gt_dmalloc(len_a * sizeof *ref_a);
    double *arena_b = gt_dmalloc(len_b * sizeof *arena_b);
    double *ref_b = gt_dmalloc(len_b * sizeof *ref_b);
    gt_h2d(arena_a, init_a, len_a * sizeof *init_a);
    gt_h2d(ref_a, init_a, len_a * sizeof *init_a);
    gt_h2d(arena_b, init_b, len_b * sizeof *init_b);
    gt_h2d(ref_b, init_b, len_b * sizeof *init_b);
    static double res_a[CALLS_A], res_b[CALLS_B], ref_res_a[CALLS_A], ref_res_b[CALLS_B];
    static cublasStatus_t st_a[CALLS_A], st_b[CALLS_B];

    /* The reference: the real functions on a third handle, alone on the GPU. */
    cudaStream_t s1, s2, s3;
    GT_CUDA(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
    GT_CUDA(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
    GT_CUDA(cudaStreamCreateWithFlags(&s3, cudaStreamNonBlocking));
    cublasHandle_t h1, h2, h3;
    GT_CUBLAS(cublasCreate_v2(&h1));
    GT_CUBLAS(cublasCreate_v2(&h2));
    GT_CUBLAS(cublasCreate_v2(&h3));
    GT_CUBLAS(cublasSetStream_v2(h1, s1));
    GT_CUBLAS(cublasSetStream_v2(h2, s2));
    GT_CUBLAS(cublasSetStream_v2(h3, s3));
    for (int j = 0; j < CALLS_A; j++)
        GT_CUBLAS(run_call(1, h3, &calls_a[j], ref_a, &ref_res_a[j]));
    for (int j = 0; j < CALLS_B; j++)
        GT_CUBLAS(run_call(1, h3, &calls_b[j], ref_b, &ref_res_b[j]));
    GT_CUDA(cudaStreamSynchronize(s3));

    worker wa = {"thread A", s1, h1, calls_a, CALLS_A, arena_a, res_a, st_a,
                 CUBLAS_STATUS_SUCCESS, CUBLAS_STATUS_SUCCESS, 0};
    worker wb = {"thread B", s2, h2, calls_b, CALLS_B, arena_b, res_b, st_b,
                 CUBLAS_STATUS_SUCCESS, CUBLAS_STATUS_SUCCESS, 0};
    pthread_t ta, tb;
    double t0 = gt_now();
    if (pthread_create(&ta, NULL, thread_a, &wa) || pthread_create(&tb, NULL, thread_b, &wb))
        gt_fatal("pthread_create failed");
    pthread_join(ta, NULL);
    pthread_join(tb, NULL);
    GT_CUDA(cudaDeviceSynchronize());
    printf("threads_streams: both threads done in %.3f s; handle A destroyed while thread B had "
           "issued %d of %d calls\n", gt_now() - t0, b_at_destroy, CALLS_B);

    gt_group("handle lifetime: cublasDestroy_v2 of handle A (thread A) while thread B works");
    gt_case("destroy, re-create, waits");
    if (wa.destroy_st != CUBLAS_STATUS_SUCCESS)
        gt_fail("cublasDestroy_v2 through the shim returned %s", gt_status_name(wa.destroy_st));
    if (wa.create_st != CUBLAS_STATUS_SUCCESS)
        gt_fail("re-creating handle A failed: %s", gt_status_name(wa.create_st));
    if (wa.timed_out || wb.timed_out)
        gt_fail("a thread waited more than %.0f s for the other (thread A %d, thread B %d)",
                WAIT_LIMIT_S, wa.timed_out, wb.timed_out);
    if (b_at_destroy >= B_WAIT_AT)
        gt_note("thread B had already reached its wait point when handle A was destroyed");

    gt_group("thread A: %d calls on handle A / stream 1, destroy, %d calls on a new handle",
             A_DESTROY_AT, CALLS_A - A_DESTROY_AT);
    compare(&wa, ref_a, ref_res_a);
    gt_group("thread B: %d calls on handle B / stream 2 (concurrently with thread A)", CALLS_B);
    compare(&wb, ref_b, ref_res_b);

    if (wa.h)
        GT_CUBLAS(cublasDestroy_v2(wa.h));
    GT_CUBLAS(cublasDestroy_v2(h2));
    GT_CUBLAS(cublasDestroy_v2(h3));
    return gt_finish();
}
