/* bench-run.c — bench-run.h: exblas-bench's operands, timed runs, --host-overhead loop, --check
 * and CSV rows (what they measure and print: exblas-bench.c's header comment). */
#include "bench-run.h"

#include "bench-check.h"
#include "bench-data.h"
#include "common.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define ROUNDS 7 /* --host-overhead rounds */

const char *const dfs_bench_routine_names[BENCH_ROUTINES] = {"dgemm", "dgemv", "ddot", "sgemm",
                                                             "zgemm", "dsyrk", "dtrsm", "dtrmm"};

static const char *const data_names[] = {"", "mixed", "under", "subnormal"};

void dfs_bench_cuda_check(cudaError_t e, const char *what, int line)
{
    if (e != cudaSuccess) {
        fprintf(stderr, "exblas-bench: line %d: %s: %s\n", line, what, cudaGetErrorString(e));
        exit(1);
    }
}

void dfs_bench_cublas_check(cublasStatus_t s, const char *what, int line)
{
    if (s != CUBLAS_STATUS_SUCCESS) {
        fprintf(stderr, "exblas-bench: line %d: %s: cuBLAS status %d\n", line, what, (int)s);
        exit(1);
    }
}

static void *host_alloc(size_t bytes, const char *what)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p) {
        fprintf(stderr, "exblas-bench: out of host memory%s\n", what);
        exit(1);
    }
    return p;
}

/* ---------- operands ---------- */

/* The same in device memory; f (when not NULL) gets them rounded to binary32 there too.  role
 * 0 / 1: op(A) / op(B) of a dgemm (rows x cols, ld, trans: bench_shape), shaped by --data. */
static double *device_random(size_t n, const options *o, float **f, int role, size_t rows,
                             size_t cols, size_t ld, int trans)
{
    double *h = bench_random(n, o->has_phi ? o->phi : -1.0), *d;
    if (role >= 0)
        bench_shape(o->data, h, rows, cols, ld, trans, role);
    CUDA_CHECK(cudaMalloc((void **)&d, (n ? n : 1) * sizeof *d));
    CUDA_CHECK(cudaMemcpy(d, h, n * sizeof *d, cudaMemcpyHostToDevice));
    if (f) {
        float *hf = host_alloc(n * sizeof *hf, "");
        for (size_t i = 0; i < n; i++)
            hf[i] = (float)h[i];
        CUDA_CHECK(cudaMalloc((void **)f, (n ? n : 1) * sizeof **f));
        CUDA_CHECK(cudaMemcpy(*f, hf, n * sizeof *hf, cudaMemcpyHostToDevice));
        free(hf);
    }
    free(h);
    return d;
}

/* n complex values (zgemm), interleaved (re, im) in device memory: n real parts from the
 * generator, then n imaginary parts, each part shaped by --data as device_random shapes a real
 * operand (role, rows, cols, ld, trans in complex elements). */
static double *device_random_z(size_t n, const options *o, int role, size_t rows, size_t cols,
                               size_t ld, int trans)
{
    const double phi = o->has_phi ? o->phi : -1.0;
    double *re = bench_random(n, phi), *im = bench_random(n, phi), *d;
    if (role >= 0) {
        bench_shape(o->data, re, rows, cols, ld, trans, role);
        bench_shape(o->data, im, rows, cols, ld, trans, role);
    }
    double *h = host_alloc(2 * n * sizeof *h, "");
    for (size_t i = 0; i < n; i++) {
        h[2 * i] = re[i];
        h[2 * i + 1] = im[i];
    }
    free(re);
    free(im);
    CUDA_CHECK(cudaMalloc((void **)&d, (n ? 2 * n : 1) * sizeof *d));
    CUDA_CHECK(cudaMemcpy(d, h, 2 * n * sizeof *d, cudaMemcpyHostToDevice));
    free(h);
    return d;
}

/* dtrsm's A (m x m, ld m): lower triangle from the generator, the part below the diagonal
 * scaled by 1/m and the diagonal made 1 + |a_ii|, so that op(A) is well conditioned and the
 * solution stays of B's size; the upper triangle (not referenced) as generated. */
static double *device_triangular(size_t m, const options *o)
{
    double *h = bench_random(m * m, o->has_phi ? o->phi : -1.0), *d;
    for (size_t j = 0; j < m; j++)
        for (size_t i = j; i < m; i++)
            h[i + j * m] = i == j ? 1.0 + fabs(h[i + j * m]) : h[i + j * m] / (double)m;
    CUDA_CHECK(cudaMalloc((void **)&d, (m > 0 ? m * m : 1) * sizeof *d));
    CUDA_CHECK(cudaMemcpy(d, h, m * m * sizeof *d, cudaMemcpyHostToDevice));
    free(h);
    return d;
}

static int beta_nonzero(const options *o)
{
    return o->beta != 0 || o->beta_im != 0; /* beta_im is 0 but for zgemm */
}

/* Doubles in C (zgemm: two an element). */
static size_t c_doubles(const options *o)
{
    return (size_t)o->m * (size_t)o->n * (o->r == ZGEMM ? 2 : 1);
}

void dfs_bench_operands(cublasHandle_t h, const options *o, operands *d)
{
    /* operands, stored as the op asks: op(A) is m x k (dgemv: m x n), op(B) is k x n */
    memset(d, 0, sizeof *d);
    size_t m = (size_t)o->m, n = (size_t)o->n, k = (size_t)o->k;
    d->alpha = &o->alpha;
    d->beta = &o->beta;
    d->zalpha.x = o->alpha;
    d->zalpha.y = o->alpha_im;
    d->zbeta.x = o->beta;
    d->zbeta.y = o->beta_im;
    if (o->r == DGEMM || o->r == SGEMM || o->r == ZGEMM) {
        const int s = o->r == SGEMM;
        d->lda = o->ta == CUBLAS_OP_N ? o->m : o->k;
        d->ldb = o->tb == CUBLAS_OP_N ? o->k : o->n;
        const int tra = o->ta != CUBLAS_OP_N, trb = o->tb != CUBLAS_OP_N;
        if (o->r == ZGEMM) {
            d->A = device_random_z(m * k, o, 0, m, k, (size_t)d->lda, tra);
            d->B = device_random_z(k * n, o, 1, k, n, (size_t)d->ldb, trb);
            d->C = device_random_z(m * n, o, -1, 0, 0, 0, 0);
        } else {
            d->A = device_random(m * k, o, s ? &d->fA : NULL, 0, m, k, (size_t)d->lda, tra);
            d->B = device_random(k * n, o, s ? &d->fB : NULL, 1, k, n, (size_t)d->ldb, trb);
            d->C = device_random(m * n, o, s ? &d->fC : NULL, -1, 0, 0, 0, 0);
        }
        if (o->check && beta_nonzero(o)) {
            const size_t nc = c_doubles(o);
            CUDA_CHECK(cudaMalloc((void **)&d->C0, (nc > 0 ? nc : 1) * sizeof *d->C0));
            CUDA_CHECK(cudaMemcpy(d->C0, d->C, nc * sizeof *d->C0, cudaMemcpyDeviceToDevice));
        }
    } else if (o->r == DSYRK) { /* C = alpha op(A) op(A)^T + beta C, lower: op(A) n x k */
        d->lda = o->ta == CUBLAS_OP_N ? o->n : o->k;
        d->A = device_random(n * k, o, NULL, 0, n, k, (size_t)d->lda, o->ta != CUBLAS_OP_N);
        d->C = device_random(n * n, o, NULL, -1, 0, 0, 0, 0);
    } else if (o->r == DTRSM) {
        d->lda = o->m;
        d->A = device_triangular(m, o);
        d->C = device_random(m * n, o, NULL, -1, 0, 0, 0, 0);
        CUDA_CHECK(cudaMalloc((void **)&d->C0, (m * n > 0 ? m * n : 1) * sizeof *d->C0));
        CUDA_CHECK(cudaMemcpy(d->C0, d->C, m * n * sizeof *d->C0, cudaMemcpyDeviceToDevice));
    } else if (o->r == DTRMM) { /* C = alpha op(A) B: A m x m (lower read), B and C m x n */
        d->lda = o->m;
        d->ldb = o->m;
        d->A = device_random(m * m, o, NULL, 0, m, m, m, o->ta != CUBLAS_OP_N);
        d->B = device_random(m * n, o, NULL, 1, m, n, m, 0);
        d->C = device_random(m * n, o, NULL, -1, 0, 0, 0, 0);
    } else if (o->r == DGEMV) {
        d->lda = o->m;
        /* --data under (the only class for vectors) scales every element alike */
        const size_t nx = o->ta == CUBLAS_OP_N ? n : m;
        d->A = device_random(m * n, o, NULL, 0, m * n, 1, m * n, 0);
        d->B = device_random(nx, o, NULL, 1, nx, 1, nx, 0);
        d->C = device_random(o->ta == CUBLAS_OP_N ? m : n, o, NULL, -1, 0, 0, 0, 0);
    } else {
        d->A = device_random(n, o, NULL, 0, n, 1, n, 0);
        d->B = device_random(n, o, NULL, 1, n, 1, n, 0);
        d->C = device_random(1, o, NULL, -1, 0, 0, 0, 0);
        CUBLAS_CHECK(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE));
    }
    d->lda = d->lda > 1 ? d->lda : 1;
    d->ldb = d->ldb > 1 ? d->ldb : 1;
}

void dfs_bench_operands_free(const options *o, operands *d)
{
    CUDA_CHECK(cudaFree(d->A));
    CUDA_CHECK(cudaFree(d->B));
    CUDA_CHECK(cudaFree(d->C));
    if (d->C0)
        CUDA_CHECK(cudaFree(d->C0));
    if (o->r == SGEMM) {
        CUDA_CHECK(cudaFree(d->fA));
        CUDA_CHECK(cudaFree(d->fB));
        CUDA_CHECK(cudaFree(d->fC));
    }
}

/* ---------- measurement ---------- */

static cublasStatus_t issue(cublasHandle_t h, const options *o, const operands *d, int m)
{
    switch (o->r) {
    case DGEMM:
        return cublasDgemm(h, o->ta, o->tb, m, o->n, o->k, d->alpha, d->A, d->lda, d->B, d->ldb,
                           d->beta, d->C, o->m > 1 ? o->m : 1);
    case DGEMV:
        return cublasDgemv(h, o->ta, m, o->n, d->alpha, d->A, d->lda, d->B, 1, d->beta, d->C, 1);
    case DDOT:
        return cublasDdot(h, o->n, d->A, 1, d->B, 1, d->C);
    case SGEMM: {
        static const float onef = 1.0f, zerof = 0.0f;
        return cublasSgemm(h, o->ta, o->tb, m, o->n, o->k, &onef, d->fA, d->lda, d->fB, d->ldb,
                           &zerof, d->fC, o->m > 1 ? o->m : 1);
    }
    case DSYRK: /* cublasDsyrk_v2, lower */
        return cublasDsyrk(h, CUBLAS_FILL_MODE_LOWER, o->ta, o->n, o->k, d->alpha, d->A, d->lda,
                           d->beta, d->C, o->n > 1 ? o->n : 1);
    case DTRSM: /* cublasDtrsm_v2, left, lower, non-unit: op(A) X = alpha B */
        return cublasDtrsm(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, o->ta,
                           CUBLAS_DIAG_NON_UNIT, m, o->n, d->alpha, d->A, d->lda, d->C,
                           o->m > 1 ? o->m : 1);
    case DTRMM: /* cublasDtrmm_v2 (out of place), left, lower, non-unit: C = alpha op(A) B */
        return cublasDtrmm(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, o->ta,
                           CUBLAS_DIAG_NON_UNIT, m, o->n, d->alpha, d->A, d->lda, d->B, d->ldb,
                           d->C, o->m > 1 ? o->m : 1);
    case ZGEMM: /* cublasZgemm_v2 */
        return cublasZgemm(h, o->ta, o->tb, m, o->n, o->k, &d->zalpha,
                           (const cuDoubleComplex *)d->A, d->lda, (const cuDoubleComplex *)d->B,
                           d->ldb, &d->zbeta, (cuDoubleComplex *)d->C, o->m > 1 ? o->m : 1);
    }
    return CUBLAS_STATUS_INVALID_VALUE;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int is_gemm(routine r)
{
    return r == DGEMM || r == SGEMM || r == ZGEMM;
}

static char op_letter(cublasOperation_t t)
{
    return t == CUBLAS_OP_N ? 'N' : t == CUBLAS_OP_C ? 'C' : 'T';
}

static const char *op_name(const options *o)
{
    static char s[3];
    s[0] = op_letter(o->ta);
    s[1] = is_gemm(o->r) ? op_letter(o->tb) : '\0';
    return o->r == DDOT ? "" : s;
}

/* The phi column: the --phi value, empty without it (the caller ends the line). */
static void print_phi(const options *o)
{
    if (o->has_phi)
        printf(",%.15g", o->phi);
    else
        printf(",");
}

/* A complex scalar's column: its real part alone when the imaginary part is 0 (as dgemm's), else
 * re+imi or re-imi. */
static void print_complex(double re, double im)
{
    if (im == 0)
        printf(",%.17g", re);
    else
        printf(",%.17g%+.17gi", re, im);
}

/* The alpha and beta columns (empty for ddot and sgemm, which take none), ending the line. */
static void print_scalars(const options *o)
{
    if (o->r == DGEMM || o->r == DGEMV || o->r == DSYRK) {
        printf(",%.17g,%.17g\n", o->alpha, o->beta);
    } else if (o->r == DTRSM || o->r == DTRMM) {
        printf(",%.17g,\n", o->alpha);
    } else if (o->r == ZGEMM) {
        print_complex(o->alpha, o->alpha_im);
        print_complex(o->beta, o->beta_im);
        printf("\n");
    } else {
        printf(",,\n");
    }
}

static void print_dims(const options *o, int m)
{
    const char *mode = getenv("EXBLAS_MODE");
    printf("%s,", dfs_bench_routine_names[o->r]);
    dfs_csv_field(o->no_shim ? "no-shim" : mode && *mode ? mode : "auto");
    if (o->r == DDOT)
        printf(",,%d,,", o->n);
    else if (o->r == DGEMV || o->r == DTRSM || o->r == DTRMM)
        printf(",%d,%d,,%s", m, o->n, op_name(o));
    else if (o->r == DSYRK)
        printf(",%d,%d,%d,%s", o->n, o->n, o->k, op_name(o));
    else
        printf(",%d,%d,%d,%s", m, o->n, o->k, op_name(o));
}

/* n doubles of device memory in a new host buffer. */
static double *host_copy(const double *dev, size_t n)
{
    double *h = host_alloc(n * sizeof *h, " for --check");
    CUDA_CHECK(cudaMemcpy(h, dev, n * sizeof *h, cudaMemcpyDeviceToHost));
    return h;
}

/* bench-check.h's op code of a cuBLAS op. */
static int check_op(cublasOperation_t t)
{
    return t == CUBLAS_OP_N ? 0 : t == CUBLAS_OP_C ? 2 : 1;
}

/* --check S (dgemm, sgemm, zgemm): bench-check.h on host copies of op(A), op(B), C (binary32
 * results widened) and, with beta != 0, C's values before the checked run. */
static double check_gemm(const options *o, const operands *d, double *norm)
{
    *norm = 0.0;
    const size_t m = (size_t)o->m, n = (size_t)o->n, k = (size_t)o->k;
    if (m == 0 || n == 0)
        return 0.0;
    CUDA_CHECK(cudaDeviceSynchronize()); /* the shim may have worked on streams of its own */
    const size_t z = o->r == ZGEMM ? 2 : 1; /* doubles an element */
    double *A = host_copy(d->A, z * m * k), *B = host_copy(d->B, z * k * n), *C, *C0 = NULL;
    if (o->r == SGEMM) { /* binary32 results against the exact product of the binary64 data */
        float *Cf = host_alloc(m * n * sizeof *Cf, " for --check");
        C = host_alloc(m * n * sizeof *C, " for --check");
        CUDA_CHECK(cudaMemcpy(Cf, d->fC, m * n * sizeof *Cf, cudaMemcpyDeviceToHost));
        for (size_t i = 0; i < m * n; i++)
            C[i] = Cf[i];
        free(Cf);
    } else {
        C = host_copy(d->C, z * m * n);
    }
    if (beta_nonzero(o))
        C0 = host_copy(d->C0, z * m * n);
    const dfs_bench_check c = {.m = m, .n = n, .k = k, .lda = (size_t)d->lda,
                               .ldb = (size_t)d->ldb, .ldc = m > 1 ? m : 1,
                               .ta = check_op(o->ta), .tb = check_op(o->tb), .alpha = o->alpha,
                               .beta = o->beta, .alpha_im = o->alpha_im, .beta_im = o->beta_im,
                               .A = A, .B = B, .C = C, .C0 = C0, .samples = (size_t)o->check};
    const double worst = o->r == ZGEMM ? dfs_bench_check_zgemm(&c, norm)
                                       : dfs_bench_check_gemm(&c, norm);
    free(A);
    free(B);
    free(C);
    free(C0);
    return worst;
}

/* dtrsm: B back to its first values (each solve overwrites it: every run solves the same
 * system, on data of the same range). */
static void restore_b(const options *o, const operands *d)
{
    if (o->r == DTRSM)
        CUDA_CHECK(cudaMemcpy(d->C, d->C0, (size_t)o->m * (size_t)o->n * sizeof *d->C,
                              cudaMemcpyDeviceToDevice));
}

void dfs_bench_gpu(cublasHandle_t h, const options *o, const operands *d)
{
    double *ms = malloc((size_t)o->reps * sizeof *ms);
    cudaEvent_t start, stop;
    if (!ms)
        exit(1);
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    for (int i = 0; i < o->warmup; i++) {
        restore_b(o, d);
        CUBLAS_CHECK(issue(h, o, d, o->m));
    }
    for (int i = 0; i < o->reps; i++) {
        float t;
        restore_b(o, d); /* before the start event: not timed */
        CUDA_CHECK(cudaEventRecord(start, 0));
        CUBLAS_CHECK(issue(h, o, d, o->m));
        CUDA_CHECK(cudaEventRecord(stop, 0));
        CUDA_CHECK(cudaEventSynchronize(stop));
        CUDA_CHECK(cudaEventElapsedTime(&t, start, stop));
        ms[i] = t;
    }
    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));

    double med = dfs_median(ms, o->reps); /* sorts ms: ms[0] is the min */
    double m = o->m, n = o->n, k = o->k, flops, bytes;
    if (o->r == ZGEMM) { /* a complex multiply-add: 8 real flops */
        flops = 8 * m * n * k;
        bytes = 16 * (m * k + k * n + m * n);
    } else if (o->r == DGEMM || o->r == SGEMM) {
        flops = 2 * m * n * k;
        bytes = (o->r == SGEMM ? 4 : 8) * (m * k + k * n + m * n);
    } else if (o->r == DSYRK) { /* the triangle's n (n + 1) / 2 outputs, k products each */
        flops = n * (n + 1) * k;
        bytes = 8 * (n * k + n * (n + 1) / 2);
    } else if (o->r == DTRSM || o->r == DTRMM) { /* m^2 n multiply-adds; A's triangle, B
                                                   * read, B or C written */
        flops = m * m * n;
        bytes = 8 * (m * (m + 1) / 2 + 2 * m * n);
    } else if (o->r == DGEMV) {
        flops = 2 * m * n;
        bytes = 8 * (m * n + m + n); /* A, x and y */
    } else {
        flops = 2 * n;
        bytes = 8 * (2 * n + 1);
    }
    double t = med * 1e-3;
    /* after the timed runs, before any output; with beta != 0 one more run from C's first
     * values, whose result is checked */
    double max_norm = 0.0;
    if (o->check && beta_nonzero(o)) {
        CUDA_CHECK(cudaMemcpy(d->C, d->C0, c_doubles(o) * sizeof *d->C,
                              cudaMemcpyDeviceToDevice));
        CUBLAS_CHECK(issue(h, o, d, o->m));
    }
    const double max_rel = o->check ? check_gemm(o, d, &max_norm) : 0.0;
    printf("routine,mode,m,n,k,op,reps,median_ms,min_ms,gflops,gbps,phi,max_rel_err,data,"
           "max_norm_err,alpha,beta\n");
    print_dims(o, o->m);
    printf(",%d,%.6f,%.6f,%.3f,%.3f", o->reps, med, ms[0], t > 0 ? flops / t * 1e-9 : 0.0,
           t > 0 ? bytes / t * 1e-9 : 0.0);
    print_phi(o);
    if (o->check)
        printf(",%.3e,%s,%.3e", max_rel, data_names[o->data], max_norm);
    else
        printf(",,%s,", data_names[o->data]);
    print_scalars(o);
    free(ms);
}

void dfs_bench_host(cublasHandle_t h, const options *o, const operands *d)
{
    int m = o->quick_return ? 0 : o->m;
    double us[ROUNDS];
    for (int round = -1; round < ROUNDS; round++) { /* round -1: untimed warm-up */
        cublasStatus_t st = CUBLAS_STATUS_SUCCESS;
        double t0 = now_s();
        for (int i = 0; i < o->calls; i++) {
            cublasStatus_t s = issue(h, o, d, m);
            if (s != CUBLAS_STATUS_SUCCESS)
                st = s;
        }
        double t1 = now_s();
        CUBLAS_CHECK(st);
        CUDA_CHECK(cudaDeviceSynchronize());
        if (round >= 0)
            us[round] = (t1 - t0) * 1e6 / o->calls;
    }
    double med = dfs_median(us, ROUNDS);
    printf("routine,mode,m,n,k,op,calls,rounds,median_us_per_call,min_us_per_call,phi,alpha,"
           "beta\n");
    print_dims(o, m);
    printf(",%d,%d,%.4f,%.4f", o->calls, ROUNDS, med, us[0]);
    print_phi(o);
    print_scalars(o);
}
