/* dgemm-demo — an ordinary cuBLAS FP64 program: DGEMM, DGEMV (N and T) and DDOT on reproducible
 * data, with a bitwise checksum, the GPU time, GFLOPS and the error against an accurate CPU
 * reference for each.  It links libcublas and libcudart only and knows nothing of any library
 * that might stand in front of them; its first line says which library actually served the
 * cuBLAS calls.  Run it as is and under LD_PRELOAD to compare results and speed.
 *
 * Usage:
 *   dgemm-demo [--n N]
 *     --n N   DGEMM m = n = k = N, DGEMV 4N x 4N, DDOT length 4N^2 (default N = 1024:
 *             DGEMM 1024^3, DGEMV 4096 x 4096, DDOT 2^22)
 *   Per routine it prints: the sum of the result's bit patterns as a uint64 (any bitwise change
 *   shows), the plain sum, the GPU time (CUDA events, median of 5 runs after a warm-up),
 *   GFLOPS, and the largest relative error against a compensated (double-double) CPU dot
 *   product: 256 entries of C spread over the matrix for DGEMM, every entry for DGEMV and DDOT.
 *   The data come from a fixed-seed generator (values in [-1,1)): every run sees the same data.
 *
 * Exit status: 0 done; 1 a CUDA or cuBLAS call failed; 2 usage error; 77 no CUDA GPU (the message
 * "dgemm-demo: no CUDA GPU available (<reason>)" goes to stderr). */
#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REPS 5 /* timed runs per routine, after one warm-up */

#define CUDA_CHECK(x) cuda_check((x), #x, __LINE__)
#define CUBLAS_CHECK(x) cublas_check((x), #x, __LINE__)

static void cuda_check(cudaError_t e, const char *what, int line)
{
    if (e != cudaSuccess) {
        fprintf(stderr, "dgemm-demo: line %d: %s: %s\n", line, what, cudaGetErrorString(e));
        exit(1);
    }
}

static void cublas_check(cublasStatus_t s, const char *what, int line)
{
    if (s != CUBLAS_STATUS_SUCCESS) {
        fprintf(stderr, "dgemm-demo: line %d: %s: cuBLAS status %d\n", line, what, (int)s);
        exit(1);
    }
}

/* ---------- data and reference ---------- */

/* splitmix64: a small fixed-seed generator, the same sequence everywhere. */
static uint64_t rng_state = 0x2545f4914f6cdd1dULL;

static double next_uniform(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return (double)(z >> 11) * 0x1.0p-52 - 1.0; /* 53 random bits, in [-1, 1) */
}

static double *random_array(size_t n)
{
    double *p = malloc(n * sizeof *p);
    if (!p) {
        fprintf(stderr, "dgemm-demo: out of host memory\n");
        exit(1);
    }
    for (size_t i = 0; i < n; i++)
        p[i] = next_uniform();
    return p;
}

/* sum x[i*incx] * y[i*incy] in double-double (Ogita, Rump and Oishi's Dot2): the result is as
 * accurate as if computed in twice the working precision, then rounded. */
static double dot2(const double *x, size_t incx, const double *y, size_t incy, size_t n)
{
    double s = 0, c = 0;
    for (size_t i = 0; i < n; i++) {
        double a = x[i * incx], b = y[i * incy];
        double p = a * b, pe = fma(a, b, -p); /* a*b = p + pe exactly */
        double t = s + p, z = t - s;
        double se = (s - (t - z)) + (p - z);  /* s + p = t + se exactly */
        s = t;
        c += pe + se;
    }
    return s + c;
}

static double rel_err(double got, double ref)
{
    double d = fabs(got - ref);
    return ref != 0 ? d / fabs(ref) : d;
}

/* ---------- one test: a routine, its operands and its result ---------- */

typedef enum { GEMM, GEMV_N, GEMV_T, DOT } kind;

typedef struct {
    kind what;
    int m, n, k;          /* DOT: length n */
    const double *A, *B;  /* host operands (GEMV: B is x; DOT: A is x, B is y) */
    double *dA, *dB, *dC; /* device operands and result */
    size_t len_c;         /* result length */
} test;

static void issue(cublasHandle_t h, const test *t)
{
    const double one = 1.0, zero = 0.0;
    switch (t->what) {
    case GEMM:
        CUBLAS_CHECK(cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, t->m, t->n, t->k, &one, t->dA, t->m,
                                 t->dB, t->k, &zero, t->dC, t->m));
        break;
    case GEMV_N:
    case GEMV_T:
        CUBLAS_CHECK(cublasDgemv(h, t->what == GEMV_N ? CUBLAS_OP_N : CUBLAS_OP_T, t->m, t->n, &one,
                                 t->dA, t->m, t->dB, 1, &zero, t->dC, 1));
        break;
    case DOT: /* result in device memory, so that the events time the GPU work only */
        CUBLAS_CHECK(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE));
        CUBLAS_CHECK(cublasDdot(h, t->n, t->dA, 1, t->dB, 1, t->dC));
        CUBLAS_CHECK(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST));
        break;
    }
}

static int cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* Median GPU time of REPS runs after one warm-up, in ms. */
static double time_ms(cublasHandle_t h, const test *t)
{
    cudaEvent_t start, stop;
    float ms[REPS];
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    issue(h, t);
    for (int r = 0; r < REPS; r++) {
        CUDA_CHECK(cudaEventRecord(start, 0));
        issue(h, t);
        CUDA_CHECK(cudaEventRecord(stop, 0));
        CUDA_CHECK(cudaEventSynchronize(stop));
        CUDA_CHECK(cudaEventElapsedTime(&ms[r], start, stop));
    }
    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
    qsort(ms, REPS, sizeof ms[0], cmp_float);
    return ms[REPS / 2];
}

/* Largest relative error of the GPU result C against the double-double reference. */
static double max_error(const test *t, const double *C)
{
    double worst = 0;
    switch (t->what) {
    case GEMM: /* a 16 x 16 grid of entries spread over C */
        for (int s = 0; s < 256; s++) {
            size_t i = (size_t)(s / 16) * (size_t)(t->m - 1) / 15;
            size_t j = (size_t)(s % 16) * (size_t)(t->n - 1) / 15;
            double ref = dot2(t->A + i, (size_t)t->m, t->B + j * (size_t)t->k, 1, (size_t)t->k);
            worst = fmax(worst, rel_err(C[i + j * (size_t)t->m], ref));
        }
        break;
    case GEMV_N:
        for (size_t i = 0; i < (size_t)t->m; i++)
            worst = fmax(worst, rel_err(C[i], dot2(t->A + i, (size_t)t->m, t->B, 1, (size_t)t->n)));
        break;
    case GEMV_T:
        for (size_t j = 0; j < (size_t)t->n; j++)
            worst = fmax(worst, rel_err(C[j], dot2(t->A + j * (size_t)t->m, 1, t->B, 1, (size_t)t->m)));
        break;
    case DOT:
        worst = rel_err(C[0], dot2(t->A, 1, t->B, 1, (size_t)t->n));
        break;
    }
    return worst;
}

static void run(cublasHandle_t h, const char *name, test *t)
{
    double flops;
    char size[64];
    switch (t->what) {
    case GEMM:
        flops = 2.0 * t->m * t->n * t->k;
        snprintf(size, sizeof size, "%dx%dx%d", t->m, t->n, t->k);
        break;
    case DOT:
        flops = 2.0 * t->n;
        snprintf(size, sizeof size, "n=%d", t->n);
        break;
    default:
        flops = 2.0 * t->m * t->n;
        snprintf(size, sizeof size, "%dx%d", t->m, t->n);
    }
    double ms = time_ms(h, t);

    double *C = malloc(t->len_c * sizeof *C);
    if (!C) {
        fprintf(stderr, "dgemm-demo: out of host memory\n");
        exit(1);
    }
    CUDA_CHECK(cudaMemcpy(C, t->dC, t->len_c * sizeof *C, cudaMemcpyDeviceToHost));
    uint64_t bits = 0;
    double sum = 0;
    for (size_t i = 0; i < t->len_c; i++) {
        uint64_t u;
        memcpy(&u, &C[i], sizeof u);
        bits += u;
        sum += C[i];
    }
    printf("%-8s %-16s 0x%016llx %+.15e %10.4f %10.1f   %.2e%s\n", name, size,
           (unsigned long long)bits, sum, ms, ms > 0 ? flops / (ms * 1e6) : 0.0, max_error(t, C),
           t->what == GEMM ? " (256 sampled)" : "");
    free(C);
}

static double *to_device(const double *host, size_t n)
{
    double *d;
    CUDA_CHECK(cudaMalloc((void **)&d, n * sizeof *d));
    if (host)
        CUDA_CHECK(cudaMemcpy(d, host, n * sizeof *d, cudaMemcpyHostToDevice));
    return d;
}

/* Which library's cublasDgemm_v2 this process calls: libcublas itself, or one in front of it. */
static void print_library(void)
{
    void *f = dlsym(RTLD_DEFAULT, "cublasDgemm_v2");
    Dl_info info;
    if (!f || !dladdr(f, &info) || !info.dli_fname) {
        printf("cuBLAS calls go to: (cannot tell which library)\n");
        return;
    }
    const char *base = strrchr(info.dli_fname, '/');
    base = base ? base + 1 : info.dli_fname;
    if (!strncmp(base, "libcublas.", 10)) {
        printf("cuBLAS calls go directly to %s\n", info.dli_fname);
    } else {
        const char *mode = getenv("EXBLAS_MODE");
        printf("cuBLAS calls go through: %s (EXBLAS_MODE=%s)\n", info.dli_fname,
               mode && *mode ? mode : "auto");
    }
}

static void usage(FILE *f)
{
    fputs("usage: dgemm-demo [--n N]\n"
          "  --n N   DGEMM N x N x N, DGEMV 4N x 4N (N and T), DDOT length 4N^2 (default N = 1024)\n"
          "Prints per routine: bitwise checksum, sum, GPU ms (median of 5), GFLOPS and the max\n"
          "relative error against a double-double CPU reference.  Exit 77 without a GPU.\n",
          f);
}

int main(int argc, char **argv)
{
    long N = 1024;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--n") && i + 1 < argc) {
            char *end;
            N = strtol(argv[++i], &end, 10);
            if (*end || N < 1 || N > 16384) {
                fprintf(stderr, "dgemm-demo: --n wants an integer in 1..16384\n");
                return 2;
            }
        } else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            usage(stdout);
            return 0;
        } else {
            usage(stderr);
            return 2;
        }
    }

    print_library();
    int ndev = 0;
    cudaError_t e = cudaGetDeviceCount(&ndev);
    if (e != cudaSuccess || ndev == 0) {
        fprintf(stderr, "dgemm-demo: no CUDA GPU available (%s)\n",
                cudaGetErrorString(e != cudaSuccess ? e : cudaErrorNoDevice));
        return 77;
    }
    struct cudaDeviceProp prop;
    CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
    printf("GPU 0: %s (cc %d.%d)\n\n", prop.name, prop.major, prop.minor);

    cublasHandle_t h;
    CUBLAS_CHECK(cublasCreate(&h));
    int n = (int)N, nv = 4 * n, nd = 4 * n * n;

    /* the generator runs in this order, so the data depend on --n only */
    double *A = random_array((size_t)n * n), *B = random_array((size_t)n * n);
    double *M = random_array((size_t)nv * nv), *x = random_array((size_t)nv);
    double *u = random_array((size_t)nd), *v = random_array((size_t)nd);

    test gemm = {GEMM, n, n, n, A, B, to_device(A, (size_t)n * n), to_device(B, (size_t)n * n),
                 to_device(NULL, (size_t)n * n), (size_t)n * n};
    double *dM = to_device(M, (size_t)nv * nv), *dx = to_device(x, (size_t)nv);
    test gemv_n = {GEMV_N, nv, nv, 0, M, x, dM, dx, to_device(NULL, (size_t)nv), (size_t)nv};
    test gemv_t = {GEMV_T, nv, nv, 0, M, x, dM, dx, to_device(NULL, (size_t)nv), (size_t)nv};
    test dot = {DOT, 0, nd, 0, u, v, to_device(u, (size_t)nd), to_device(v, (size_t)nd),
                to_device(NULL, 1), 1};

    printf("%-8s %-16s %-18s %-22s %10s %10s   %s\n", "routine", "size", "checksum (bits)",
           "sum", "GPU ms", "GFLOPS", "max rel err");
    run(h, "dgemm", &gemm);
    run(h, "dgemv N", &gemv_n);
    run(h, "dgemv T", &gemv_t);
    run(h, "ddot", &dot);
    printf("\nSame data on every run: equal checksums mean bitwise equal results.\n");

    double *dev[] = {gemm.dA, gemm.dB, gemm.dC, dM, dx, gemv_n.dC, gemv_t.dC, dot.dA, dot.dB, dot.dC};
    for (size_t i = 0; i < sizeof dev / sizeof dev[0]; i++)
        CUDA_CHECK(cudaFree(dev[i]));
    double *host[] = {A, B, M, x, u, v};
    for (size_t i = 0; i < sizeof host / sizeof host[0]; i++)
        free(host[i]);
    CUBLAS_CHECK(cublasDestroy(h));
    return 0;
}
