/* exblas-bench — times one cuBLAS FP64 routine at one size under the current EXBLAS_MODE, through
 * libdfshim.so (which it preloads into itself when needed) or, with --no-shim, cuBLAS alone.
 * Prints CSV on stdout, one header line and one row.
 *
 * Usage:
 *   exblas-bench dgemm M N K [--op NN|NT|TN|TT] [options]
 *   exblas-bench dgemv M N [--op N|T] [options]
 *   exblas-bench ddot N [options]
 *   exblas-bench sgemm M N K [--op NN|NT|TN|TT] [options]
 *                   cublasSgemm (never intercepted) on the same data rounded to binary32: the
 *                   reference for the ozaki-sgemm engine; --check compares its result with the
 *                   exact product of the binary64 data
 * Options:
 *   --reps R        timed runs (default 10)          --warmup W   untimed runs first (default 3)
 *   --shim PATH     the libdfshim.so to preload (default ../shim/libdfshim.so next to this
 *                   executable, i.e. the build tree; else the installed one)
 *   --no-shim       cuBLAS alone (a libdfshim.so already in LD_PRELOAD is taken out)
 *   --host-overhead (dgemm only) host time per call instead of GPU time: CALLS calls issued back
 *                   to back on one stream, clock_gettime around the issuing loop only; 7 rounds
 *                   after an untimed one; median and min in us per call.  Where a call's GPU work
 *                   outlasts its issue the launch queue fills and the GPU is measured: the
 *                   default 200 calls stay below its depth (README, Tools), or --quick-return.
 *   --calls N       calls per round for --host-overhead (default 200)
 *   --quick-return  the --host-overhead loop calls dgemm with m = 0 (nothing to compute: pure
 *                   call overhead)
 *   --phi X         the Ozaki papers' data: (U - 0.5) exp(X N), U uniform in [0, 1), N standard
 *                   normal, same fixed seed; X >= 0 (0: uniform in [-0.5, 0.5)); X = 4 spreads
 *                   the magnitudes by e^+-4 (about 2^+-5.8) within one standard deviation of N
 *   --data K        the values shaped further (tools/bench-data.h; dgemm and sgemm, under also
 *                   dgemv and ddot): mixed, every 8th column of op(A) about 1e300 and the others
 *                   about 1e-300, op(B) zero on those rows for the even columns of C (half the
 *                   outputs see only tiny products); under, everything about 1e-160 (the products
 *                   underflow); subnormal, op(A) x 2^-1000 and op(B) x 2^-40 (subnormal products)
 *   --alpha A, --beta B  (dgemm, dgemv; default 1 and 0) the scalars, host pointer mode; with
 *                   beta != 0 C (y) starts from random data and each run reads it
 *   --check S       (dgemm, sgemm; not with --host-overhead) after the timed runs, the largest
 *                   relative and normwise errors of C over S entries (i, j) drawn from a fixed
 *                   seed of their own, with replacement (every entry once when S >= m n), against
 *                   the correctly rounded RN(alpha op(A) op(B) + beta C0) of the reproducible
 *                   engine's CPU DGEMM (tools/bench-check.h); with beta != 0 one more run from C's
 *                   first values C0 is the one checked.  Not timed.
 * Output (GPU time, CUDA events on the default stream; median and min of R runs):
 *   routine,mode,m,n,k,op,reps,median_ms,min_ms,gflops,gbps,phi,max_rel_err,data,max_norm_err,
 *   alpha,beta
 *   gflops = 2mnk/t (dgemm, sgemm), 2mn/t (dgemv), 2n/t (ddot), with t the median; gbps = bytes of the
 *   operands read or written once / t (C and y counted once, written).  Fields that do
 *   not apply are empty.  mode is EXBLAS_MODE ("auto" when unset) or "no-shim".  phi is the
 *   --phi value, empty without --phi (uniform data).  max_rel_err is the --check result,
 *   max |c - ref| / |ref| over the sample, with |c - ref| itself for an entry whose ref is 0 (0
 *   when c is 0 too; NaN if some c is NaN); 0 for an empty C (m or n 0); empty without --check.
 *   data is --data's class (empty: none); max_norm_err is max |c - ref| / (|alpha| sum_q
 *   |op(A)(i,q) op(B)(q,j)| + |beta c0|) over the same sample (what native FP64's bound scales
 *   with); alpha and beta are the scalars (empty for ddot and sgemm).
 *   ddot returns its result to device memory (CUBLAS_POINTER_MODE_DEVICE).
 * Output of --host-overhead:
 *   routine,mode,m,n,k,op,calls,rounds,median_us_per_call,min_us_per_call,phi,alpha,beta
 * Examples:
 *   exblas-bench dgemm 4096 4096 4096 --op NT
 *   EXBLAS_MODE=native exblas-bench dgemv 8192 8192 --op T --reps 50
 *   exblas-bench dgemm 64 64 64 --host-overhead; exblas-bench dgemm 64 64 64 --host-overhead --no-shim
 *   EXBLAS_MODE=repro exblas-bench ddot 100000000 --phi 4
 *   EXBLAS_MODE=ozaki:splits=3 exblas-bench dgemm 4096 4096 4096 --phi 1 --check 256
 *   EXBLAS_MODE=repro exblas-bench dgemm 2048 2048 2048 --beta 1 --check 256
 * Data are random in [-1,1) from a fixed seed (with --phi X: the phi generator above, from the
 * same seed).
 *
 * Exit status: 0 done; 1 a CUDA or cuBLAS call failed; 2 usage error, or the shim cannot be found
 * or loaded; 77 no CUDA GPU ("exblas-bench: no CUDA GPU available (<reason>)" on stderr). */
#include "bench-check.h"
#include "bench-data.h"
#include "bench-preload.h"
#include "common.h"

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define ROUNDS 7 /* --host-overhead rounds */

#define CUDA_CHECK(x) cuda_check((x), #x, __LINE__)
#define CUBLAS_CHECK(x) cublas_check((x), #x, __LINE__)

typedef enum { DGEMM, DGEMV, DDOT, SGEMM } routine;

typedef struct {
    routine r;
    int m, n, k;
    cublasOperation_t ta, tb;
    int reps, warmup, calls;
    int host_overhead, quick_return;
    int no_shim;
    const char *shim;
    int has_phi; /* --phi given: data (U - 0.5) exp(phi N) */
    double phi;
    int check; /* --check S: entries of C checked (0: no check) */
    int data;  /* --data: BENCH_* of bench-data.h */
    double alpha, beta; /* --alpha, --beta (dgemm, dgemv) */
} options;

static const char *const data_names[] = {"", "mixed", "under", "subnormal"};

static void cuda_check(cudaError_t e, const char *what, int line)
{
    if (e != cudaSuccess) {
        fprintf(stderr, "exblas-bench: line %d: %s: %s\n", line, what, cudaGetErrorString(e));
        exit(1);
    }
}

static void cublas_check(cublasStatus_t s, const char *what, int line)
{
    if (s != CUBLAS_STATUS_SUCCESS) {
        fprintf(stderr, "exblas-bench: line %d: %s: cuBLAS status %d\n", line, what, (int)s);
        exit(1);
    }
}

static void usage(FILE *f)
{
    fputs("usage: exblas-bench dgemm M N K [--op NN|NT|TN|TT] [options]\n"
          "       exblas-bench dgemv M N [--op N|T] [options]\n"
          "       exblas-bench ddot N [options]\n"
          "       exblas-bench sgemm M N K [--op NN|NT|TN|TT] [options]   (cublasSgemm, binary32)\n"
          "options: --reps R (10)  --warmup W (3)  --shim PATH  --no-shim\n"
          "         --host-overhead [--calls N (200)] [--quick-return]   (dgemm only)\n"
          "         --phi X   data (U - 0.5) exp(X N) instead of uniform in [-1,1) (X >= 0)\n"
          "         --data mixed|under|subnormal   (dgemm) 1e+-300 columns with zero partners,\n"
          "                   products that underflow, subnormal products (on top of --phi)\n"
          "         --alpha A  --beta B   (dgemm, dgemv; 1 and 0) the scalars\n"
          "         --check S   max relative and normwise errors of S sampled entries of C\n"
          "                     against the correctly rounded result (CPU), after the timed\n"
          "                     runs (dgemm, sgemm)\n"
          "CSV on stdout: routine,mode,m,n,k,op,reps,median_ms,min_ms,gflops,gbps,phi,max_rel_err,\n"
          "  data,max_norm_err,alpha,beta\n"
          "  (--host-overhead: routine,mode,m,n,k,op,calls,rounds,median_us_per_call,min_us_per_call,\n"
          "  phi,alpha,beta)\n"
          "Exit 77 without a GPU.\n",
          f);
}

/* ---------- measurement ---------- */

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
        float *hf = malloc((n ? n : 1) * sizeof *hf);
        if (!hf) {
            fprintf(stderr, "exblas-bench: out of host memory\n");
            exit(1);
        }
        for (size_t i = 0; i < n; i++)
            hf[i] = (float)h[i];
        CUDA_CHECK(cudaMalloc((void **)f, (n ? n : 1) * sizeof **f));
        CUDA_CHECK(cudaMemcpy(*f, hf, n * sizeof *hf, cudaMemcpyHostToDevice));
        free(hf);
    }
    free(h);
    return d;
}

typedef struct {
    double *A, *B, *C; /* dgemv: A, x, y; ddot: x, y, result */
    float *fA, *fB, *fC; /* sgemm */
    int lda, ldb;
    const double *alpha, *beta; /* host pointer mode */
    double *C0; /* dgemm with --check and beta != 0: C's first values, for the checked run */
} operands;

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
    }
    return CUBLAS_STATUS_INVALID_VALUE;
}


static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static const char *op_name(const options *o)
{
    static char s[3];
    s[0] = o->ta == CUBLAS_OP_N ? 'N' : 'T';
    s[1] = o->r == DGEMM || o->r == SGEMM ? (o->tb == CUBLAS_OP_N ? 'N' : 'T') : '\0';
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

/* The alpha and beta columns (empty for ddot and sgemm, which take none), ending the line. */
static void print_scalars(const options *o)
{
    if (o->r == DGEMM || o->r == DGEMV)
        printf(",%.17g,%.17g\n", o->alpha, o->beta);
    else
        printf(",,\n");
}

static void print_dims(const options *o, int m)
{
    static const char *const names[] = {"dgemm", "dgemv", "ddot", "sgemm"};
    const char *mode = getenv("EXBLAS_MODE");
    printf("%s,", names[o->r]);
    dfs_csv_field(o->no_shim ? "no-shim" : mode && *mode ? mode : "auto");
    if (o->r == DDOT)
        printf(",,%d,,", o->n);
    else if (o->r == DGEMV)
        printf(",%d,%d,,%s", m, o->n, op_name(o));
    else
        printf(",%d,%d,%d,%s", m, o->n, o->k, op_name(o));
}

/* n doubles of device memory in a new host buffer. */
static double *host_copy(const double *dev, size_t n)
{
    double *h = malloc((n ? n : 1) * sizeof *h);
    if (!h) {
        fprintf(stderr, "exblas-bench: out of host memory for --check\n");
        exit(1);
    }
    CUDA_CHECK(cudaMemcpy(h, dev, n * sizeof *h, cudaMemcpyDeviceToHost));
    return h;
}

/* --check S (dgemm, sgemm): bench-check.h on host copies of op(A), op(B), C (binary32 results
 * widened) and, with beta != 0, C's values before the checked run. */
static double check_gemm(const options *o, const operands *d, double *norm)
{
    *norm = 0.0;
    const size_t m = (size_t)o->m, n = (size_t)o->n, k = (size_t)o->k;
    if (m == 0 || n == 0)
        return 0.0;
    CUDA_CHECK(cudaDeviceSynchronize()); /* the shim may have worked on streams of its own */
    double *A = host_copy(d->A, m * k), *B = host_copy(d->B, k * n), *C, *C0 = NULL;
    if (o->r == SGEMM) { /* binary32 results against the exact product of the binary64 data */
        float *Cf = malloc(m * n * sizeof *Cf);
        C = malloc(m * n * sizeof *C);
        if (!Cf || !C) {
            fprintf(stderr, "exblas-bench: out of host memory for --check\n");
            exit(1);
        }
        CUDA_CHECK(cudaMemcpy(Cf, d->fC, m * n * sizeof *Cf, cudaMemcpyDeviceToHost));
        for (size_t i = 0; i < m * n; i++)
            C[i] = Cf[i];
        free(Cf);
    } else {
        C = host_copy(d->C, m * n);
    }
    if (o->beta != 0)
        C0 = host_copy(d->C0, m * n);
    const dfs_bench_check c = {m, n, k, (size_t)d->lda, (size_t)d->ldb, m > 1 ? m : 1,
                               o->ta != CUBLAS_OP_N, o->tb != CUBLAS_OP_N, o->alpha, o->beta,
                               A, B, C, C0, (size_t)o->check};
    const double worst = dfs_bench_check_gemm(&c, norm);
    free(A);
    free(B);
    free(C);
    free(C0);
    return worst;
}

static void bench_gpu(cublasHandle_t h, const options *o, const operands *d)
{
    double *ms = malloc((size_t)o->reps * sizeof *ms);
    cudaEvent_t start, stop;
    if (!ms)
        exit(1);
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    for (int i = 0; i < o->warmup; i++)
        CUBLAS_CHECK(issue(h, o, d, o->m));
    for (int i = 0; i < o->reps; i++) {
        float t;
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
    if (o->r == DGEMM || o->r == SGEMM) {
        flops = 2 * m * n * k;
        bytes = (o->r == SGEMM ? 4 : 8) * (m * k + k * n + m * n);
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
    if (o->check && o->beta != 0) {
        CUDA_CHECK(cudaMemcpy(d->C, d->C0, (size_t)o->m * (size_t)o->n * sizeof *d->C,
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

static void bench_host(cublasHandle_t h, const options *o, const operands *d)
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

/* ---------- arguments ---------- */

static int parse_int(const char *s, int lo, int *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s || *end || v < lo || v > INT_MAX)
        return -1;
    *out = (int)v;
    return 0;
}

/* A finite number (--alpha, --beta). */
static int parse_scalar(const char *s, double *out)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s || *end || !isfinite(v))
        return -1;
    *out = v;
    return 0;
}

/* A finite number >= 0 (the --phi value). */
static int parse_phi(const char *s, options *o)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s || *end || !(v >= 0) || !isfinite(v))
        return -1;
    o->phi = v;
    o->has_phi = 1;
    return 0;
}

static int parse_op(const char *s, options *o)
{
    size_t want = o->r == DGEMM || o->r == SGEMM ? 2 : 1;
    if (strlen(s) != want || o->r == DDOT)
        return -1;
    for (size_t i = 0; i < want; i++)
        if (s[i] != 'N' && s[i] != 'T' && s[i] != 'n' && s[i] != 't')
            return -1;
    o->ta = (s[0] == 'N' || s[0] == 'n') ? CUBLAS_OP_N : CUBLAS_OP_T;
    if (want == 2)
        o->tb = (s[1] == 'N' || s[1] == 'n') ? CUBLAS_OP_N : CUBLAS_OP_T;
    return 0;
}

static int parse_args(int argc, char **argv, options *o)
{
    if (argc < 2)
        return -1;
    static const char *const names[] = {"dgemm", "dgemv", "ddot", "sgemm"};
    static const int ndims[] = {3, 2, 1, 3};
    int r = -1;
    for (int i = 0; i < 4; i++)
        if (!strcmp(argv[1], names[i]))
            r = i;
    if (r < 0)
        return -1;
    o->r = (routine)r;
    int *dims[3] = {&o->m, &o->n, &o->k};
    if (o->r == DDOT)
        dims[0] = &o->n;
    if (argc < 2 + ndims[r])
        return -1;
    for (int i = 0; i < ndims[r]; i++)
        if (parse_int(argv[2 + i], 0, dims[i]))
            return -1;
    int scalars = 0;
    for (int i = 2 + ndims[r]; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int bad = 0;
        if (!strcmp(a, "--op") && v)
            bad = parse_op(argv[++i], o);
        else if (!strcmp(a, "--reps") && v)
            bad = parse_int(argv[++i], 1, &o->reps);
        else if (!strcmp(a, "--warmup") && v)
            bad = parse_int(argv[++i], 0, &o->warmup);
        else if (!strcmp(a, "--calls") && v)
            bad = parse_int(argv[++i], 1, &o->calls);
        else if (!strcmp(a, "--shim") && v)
            o->shim = argv[++i];
        else if (!strcmp(a, "--phi") && v)
            bad = parse_phi(argv[++i], o);
        else if (!strcmp(a, "--data") && v) {
            const char *w = argv[++i];
            o->data = !strcmp(w, "mixed") ? BENCH_MIXED : !strcmp(w, "under") ? BENCH_UNDER
                      : !strcmp(w, "subnormal") ? BENCH_SUBNORMAL : -1;
            bad = o->data < 0;
        } else if (!strcmp(a, "--alpha") && v) {
            bad = parse_scalar(argv[++i], &o->alpha);
            scalars = 1;
        } else if (!strcmp(a, "--beta") && v) {
            bad = parse_scalar(argv[++i], &o->beta);
            scalars = 1;
        } else if (!strcmp(a, "--check") && v)
            bad = parse_int(argv[++i], 1, &o->check);
        else if (!strcmp(a, "--no-shim"))
            o->no_shim = 1;
        else if (!strcmp(a, "--host-overhead"))
            o->host_overhead = 1;
        else if (!strcmp(a, "--quick-return"))
            o->quick_return = 1;
        else
            bad = 1;
        if (bad) {
            fprintf(stderr, "exblas-bench: bad argument: %s%s%s\n", a, argv[i] != a ? " " : "",
                    argv[i] != a ? argv[i] : "");
            return -1;
        }
    }
    if ((o->host_overhead || o->quick_return) && o->r != DGEMM) {
        fprintf(stderr, "exblas-bench: --host-overhead and --quick-return are for dgemm only\n");
        return -1;
    }
    if (o->data && o->data != BENCH_UNDER && o->r != DGEMM && o->r != SGEMM) {
        fprintf(stderr, "exblas-bench: --data mixed and subnormal are for dgemm and sgemm\n");
        return -1;
    }
    if (o->check && ((o->r != DGEMM && o->r != SGEMM) || o->host_overhead)) {
        fprintf(stderr, "exblas-bench: --check is for dgemm and sgemm, without --host-overhead\n");
        return -1;
    }
    if (scalars && o->r != DGEMM && o->r != DGEMV) {
        fprintf(stderr, "exblas-bench: --alpha and --beta are for dgemm and dgemv\n");
        return -1;
    }
    if (o->quick_return && !o->host_overhead) {
        fprintf(stderr, "exblas-bench: --quick-return goes with --host-overhead\n");
        return -1;
    }
    if (o->no_shim && o->shim) {
        fprintf(stderr, "exblas-bench: --shim and --no-shim exclude each other\n");
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            usage(stdout);
            return 0;
        }
    options o = {.ta = CUBLAS_OP_N, .tb = CUBLAS_OP_N, .reps = 10, .warmup = 3, .calls = 200,
                 .alpha = 1.0, .beta = 0.0};
    if (parse_args(argc, argv, &o)) {
        usage(stderr);
        return 2;
    }
    dfs_bench_ensure_shim(o.no_shim, o.shim, argv);

    int ndev = 0;
    cudaError_t e = cudaGetDeviceCount(&ndev);
    if (e != cudaSuccess || ndev == 0) {
        fprintf(stderr, "exblas-bench: no CUDA GPU available (%s)\n",
                cudaGetErrorString(e != cudaSuccess ? e : cudaErrorNoDevice));
        return 77;
    }
    cublasHandle_t h;
    CUBLAS_CHECK(cublasCreate(&h));

    /* operands, stored as the op asks: op(A) is m x k (dgemv: m x n), op(B) is k x n */
    operands d = {0};
    size_t m = (size_t)o.m, n = (size_t)o.n, k = (size_t)o.k;
    d.alpha = &o.alpha;
    d.beta = &o.beta;
    if (o.r == DGEMM || o.r == SGEMM) {
        const int s = o.r == SGEMM;
        d.lda = o.ta == CUBLAS_OP_N ? o.m : o.k;
        d.ldb = o.tb == CUBLAS_OP_N ? o.k : o.n;
        d.A = device_random(m * k, &o, s ? &d.fA : NULL, 0, m, k, (size_t)d.lda,
                            o.ta != CUBLAS_OP_N);
        d.B = device_random(k * n, &o, s ? &d.fB : NULL, 1, k, n, (size_t)d.ldb,
                            o.tb != CUBLAS_OP_N);
        d.C = device_random(m * n, &o, s ? &d.fC : NULL, -1, 0, 0, 0, 0);
        if (o.check && o.beta != 0) {
            CUDA_CHECK(cudaMalloc((void **)&d.C0, (m * n > 0 ? m * n : 1) * sizeof *d.C0));
            CUDA_CHECK(cudaMemcpy(d.C0, d.C, m * n * sizeof *d.C0, cudaMemcpyDeviceToDevice));
        }
    } else if (o.r == DGEMV) {
        d.lda = o.m;
        /* --data under (the only class for vectors) scales every element alike */
        const size_t nx = o.ta == CUBLAS_OP_N ? n : m;
        d.A = device_random(m * n, &o, NULL, 0, m * n, 1, m * n, 0);
        d.B = device_random(nx, &o, NULL, 1, nx, 1, nx, 0);
        d.C = device_random(o.ta == CUBLAS_OP_N ? m : n, &o, NULL, -1, 0, 0, 0, 0);
    } else {
        d.A = device_random(n, &o, NULL, 0, n, 1, n, 0);
        d.B = device_random(n, &o, NULL, 1, n, 1, n, 0);
        d.C = device_random(1, &o, NULL, -1, 0, 0, 0, 0);
        CUBLAS_CHECK(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE));
    }
    d.lda = d.lda > 1 ? d.lda : 1;
    d.ldb = d.ldb > 1 ? d.ldb : 1;

    if (o.host_overhead)
        bench_host(h, &o, &d);
    else
        bench_gpu(h, &o, &d);

    CUDA_CHECK(cudaFree(d.A));
    CUDA_CHECK(cudaFree(d.B));
    CUDA_CHECK(cudaFree(d.C));
    if (d.C0)
        CUDA_CHECK(cudaFree(d.C0));
    if (o.r == SGEMM) {
        CUDA_CHECK(cudaFree(d.fA));
        CUDA_CHECK(cudaFree(d.fB));
        CUDA_CHECK(cudaFree(d.fC));
    }
    CUBLAS_CHECK(cublasDestroy(h));
    return 0;
}
