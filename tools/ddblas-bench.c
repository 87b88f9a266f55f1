/* ddblas-bench — times libddblas (include/ddblas.h) against cuBLAS's binary64 and binary32
 * routines and the device's copy bandwidth.  CSV on stdout.
 *
 *   ddblas-bench axpy N | dot N | gemv M N [--op N|T] | gemm N [--scheme paper|accurate]
 *                [--formats ABC] [--reps R] [--clock-mhz C]
 *
 * gemm --formats ABC (three of d, s, i: DD, DS, DI) times one mix of formats for A, B and C
 * instead of the three formats alone; --short-lo puts the ds values into the dd arrays.
 *
 * Memory-bound routines (axpy, dot, gemv): each format (dd: 16 bytes an element, ds and di: 12)
 * and cuBLAS's D and S routine on the same sizes; gbps = the bytes the routine must move / the
 * median time, copy_gbps = cudaMemcpy device to device of 2 x 256 MB (read + write) in the same
 * run.  gemm: each format, GFLOPS = 2 N^3 / t and the fraction of the double-double roofline,
 * SMs x 64 FP64 lanes x clock / (operations per term: paper 20, accurate 29) x 2 (the clock from
 * --clock-mhz, else the device's reported maximum).  Data uniform in [0, 1) with full lo parts
 * (converted on the GPU to ds and di). */
#include "../include/ddblas.h"

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CK(x)                                                                                      \
    do {                                                                                           \
        if ((x) != 0) {                                                                            \
            fprintf(stderr, "ddblas-bench: %s failed (%s:%d)\n", #x, __FILE__, __LINE__);          \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

static int reps = 20;
static cudaStream_t st;
static cudaEvent_t e0, e1;

static int cmp_f(const void *a, const void *b)
{
    const float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

typedef void (*call_fn)(void *ctx);

/* median milliseconds of reps calls after 3 warm-up calls */
static double time_ms(call_fn f, void *ctx)
{
    float t[1000];
    for (int i = 0; i < 3; i++)
        f(ctx);
    for (int i = 0; i < reps; i++) {
        CK(cudaEventRecord(e0, st));
        f(ctx);
        CK(cudaEventRecord(e1, st));
        CK(cudaEventSynchronize(e1));
        CK(cudaEventElapsedTime(&t[i], e0, e1));
    }
    qsort(t, (size_t)reps, sizeof t[0], cmp_f);
    return t[reps / 2];
}

/* device arrays of n elements in each of the three formats, and binary64 / binary32 copies */
typedef struct {
    ddblas_array f[3]; /* DD, DS, DI */
    double *d;
    float *s;
} operand;

static void *dmalloc(size_t bytes)
{
    void *p;
    CK(cudaMalloc(&p, bytes ? bytes : 1));
    return p;
}

static void make_operand(ddblas_handle h, operand *o, size_t n, unsigned seed)
{
    double *hi = malloc(n * 8), *lo = malloc(n * 8);
    float *s = malloc(n * 4);
    if (!hi || !lo || !s) {
        fprintf(stderr, "ddblas-bench: out of host memory\n");
        exit(1);
    }
    unsigned long long x = seed * 0x9e3779b97f4a7c15ull + 1;
    for (size_t i = 0; i < n; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        hi[i] = (double)(x >> 11) * 0x1p-53;
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        lo[i] = hi[i] * ((double)(x >> 11) * 0x1p-53 - 0.5) * 0x1p-53;
        s[i] = (float)hi[i];
    }
    static const size_t lo_size[3] = {8, 4, 4};
    for (int f = 0; f < 3; f++) {
        o->f[f].fmt = f == 0 ? DDBLAS_DD : f == 1 ? DDBLAS_DS : DDBLAS_DI;
        o->f[f].hi = dmalloc(n * 8);
        o->f[f].lo = dmalloc(n * lo_size[f]);
    }
    CK(cudaMemcpy(o->f[0].hi, hi, n * 8, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(o->f[0].lo, lo, n * 8, cudaMemcpyHostToDevice));
    for (int f = 1; f < 3; f++)
        CK(ddblas_convert(h, st, (int64_t)n, o->f[0], 1, o->f[f], 1));
    o->d = dmalloc(n * 8);
    o->s = dmalloc(n * 4);
    CK(cudaMemcpy(o->d, hi, n * 8, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(o->s, s, n * 4, cudaMemcpyHostToDevice));
    CK(cudaStreamSynchronize(st));
    free(hi);
    free(lo);
    free(s);
}

typedef struct {
    const char *routine;
    int kind; /* 0..2: the formats, 3: cuBLAS D, 4: cuBLAS S */
    int64_t m, n;
    int trans, scheme;
    int mix[3]; /* gemm: the formats of A, B, C (indices into operand.f), or -1 */
    ddblas_handle h;
    cublasHandle_t cb;
    operand *a, *x, *y;
    ddblas_dd *res;
    double *dres;
} job;

static void run(void *p)
{
    job *j = p;
    const ddblas_dd one = {1.0, 0.0}, half = {0.5, 0.0};
    const double d1 = 1.0, dh = 0.5;
    const float s1 = 1.0f, sh = 0.5f;
    const int k = j->kind;
    const cublasOperation_t op = j->trans ? CUBLAS_OP_T : CUBLAS_OP_N;
    if (!strcmp(j->routine, "axpy")) {
        if (k < 3)
            CK(ddblas_axpy(j->h, st, j->n, half, j->x->f[k], 1, j->y->f[k], 1));
        else if (k == 3)
            CK(cublasDaxpy(j->cb, (int)j->n, &dh, j->x->d, 1, j->y->d, 1));
        else
            CK(cublasSaxpy(j->cb, (int)j->n, &sh, j->x->s, 1, j->y->s, 1));
    } else if (!strcmp(j->routine, "dot")) {
        if (k < 3)
            CK(ddblas_dot(j->h, st, j->n, j->x->f[k], 1, j->y->f[k], 1, j->res));
        else if (k == 3)
            CK(cublasDdot(j->cb, (int)j->n, j->x->d, 1, j->y->d, 1, j->dres));
        else
            CK(cublasSdot(j->cb, (int)j->n, j->x->s, 1, j->y->s, 1, (float *)j->dres));
    } else if (!strcmp(j->routine, "gemv")) {
        if (k < 3)
            CK(ddblas_gemv(j->h, st, j->trans ? 'T' : 'N', j->m, j->n, one, j->a->f[k], j->m,
                           j->x->f[k], 1, half, j->y->f[k], 1));
        else if (k == 3)
            CK(cublasDgemv(j->cb, op, (int)j->m, (int)j->n, &d1, j->a->d, (int)j->m, j->x->d, 1,
                           &dh, j->y->d, 1));
        else
            CK(cublasSgemv(j->cb, op, (int)j->m, (int)j->n, &s1, j->a->s, (int)j->m, j->x->s, 1,
                           &sh, j->y->s, 1));
    } else {
        const int fa = j->mix[0] < 0 ? k : j->mix[0], fb = j->mix[0] < 0 ? k : j->mix[1],
                  fc = j->mix[0] < 0 ? k : j->mix[2];
        CK(ddblas_gemm(j->h, st, (ddblas_scheme)j->scheme, 'N', 'N', j->n, j->n, j->n, one,
                       j->a->f[fa], j->n, j->x->f[fb], j->n, half, j->y->f[fc], j->n));
    }
}

typedef struct {
    void *a, *b;
    size_t bytes;
} copy_job;

static void run_copy(void *p)
{
    copy_job *c = p;
    CK(cudaMemcpyAsync(c->b, c->a, c->bytes, cudaMemcpyDeviceToDevice, st));
}

static void usage(FILE *f)
{
    fputs("usage: ddblas-bench axpy N | dot N | gemv M N [--op N|T] | gemm N [options]\n"
          "Times libddblas in each format (dd, ds, di) against cuBLAS's D and S routines and the\n"
          "copy bandwidth (axpy, dot, gemv), or GEMM against the double-double roofline; CSV on\n"
          "stdout.  Needs a CUDA GPU.\n"
          "  --op N|T            gemv's operation (default N)\n"
          "  --scheme S          gemm: paper or accurate (default accurate)\n"
          "  --formats ABC       gemm: one mix of formats for A, B, C (three of d, s, i)\n"
          "  --short-lo          gemm: the ds values in the dd arrays\n"
          "  --reps R            timed calls after 3 warm-up calls, 1 to 1000 (default 20; the\n"
          "                      median is reported)\n"
          "  --clock-mhz C       gemm: the clock of the roofline (default: the device's maximum)\n"
          "  -h, --help          this text\n",
          f);
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            usage(stdout);
            return 0;
        }
    if (argc < 3) {
        usage(stderr);
        return 2;
    }
    job j;
    memset(&j, 0, sizeof j);
    j.mix[0] = -1;
    j.routine = argv[1];
    int ai = 2;
    j.m = atoll(argv[ai++]);
    j.n = j.m;
    if (!strcmp(j.routine, "gemv") && ai < argc)
        j.n = atoll(argv[ai++]);
    double clock_mhz = 0;
    int short_lo = 0;
    for (; ai < argc; ai++) {
        if (!strcmp(argv[ai], "--op") && ai + 1 < argc)
            j.trans = argv[++ai][0] == 'T';
        else if (!strcmp(argv[ai], "--scheme") && ai + 1 < argc)
            j.scheme = !strcmp(argv[++ai], "paper") ? DDBLAS_PAPER : DDBLAS_ACCURATE;
        else if (!strcmp(argv[ai], "--formats") && ai + 1 < argc && strlen(argv[ai + 1]) == 3) {
            ai++;
            for (int q = 0; q < 3; q++)
                j.mix[q] = argv[ai][q] == 'd' ? 0 : argv[ai][q] == 's' ? 1 : 2;
        } else if (!strcmp(argv[ai], "--short-lo"))
            short_lo = 1;
        else if (!strcmp(argv[ai], "--reps") && ai + 1 < argc)
            reps = atoi(argv[++ai]);
        else if (!strcmp(argv[ai], "--clock-mhz") && ai + 1 < argc)
            clock_mhz = atof(argv[++ai]);
        else {
            fprintf(stderr, "ddblas-bench: unknown argument %s\n", argv[ai]);
            return 2;
        }
    }
    if (reps < 1 || reps > 1000 || j.m < 1 || j.n < 1) {
        fprintf(stderr, "ddblas-bench: bad sizes or --reps\n");
        return 2;
    }
    CK(cudaSetDevice(0));
    CK(cudaStreamCreate(&st));
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    CK(ddblas_create(&j.h));
    CK(cublasCreate(&j.cb));
    CK(cublasSetStream(j.cb, st));
    CK(cublasSetPointerMode(j.cb, CUBLAS_POINTER_MODE_HOST));
    const int gemm = !strcmp(j.routine, "gemm"), gemv = !strcmp(j.routine, "gemv");
    operand a, x, y;
    const size_t nx = gemm ? (size_t)(j.n * j.n) : (size_t)(gemv ? (j.m > j.n ? j.m : j.n) : j.n);
    if (gemm || gemv)
        make_operand(j.h, &a, (size_t)(j.m * j.n), 1);
    make_operand(j.h, &x, nx, 2);
    make_operand(j.h, &y, nx, 3);
    j.a = &a, j.x = &x, j.y = &y;
    if (short_lo) /* the dd arrays hold the ds values (lo with binary32's 24 bits) */
        for (int q = 0; q < 3; q++) {
            operand *o = q == 0 ? &a : q == 1 ? &x : &y;
            if (q == 0 && !gemm && !gemv)
                continue;
            CK(ddblas_convert(j.h, st, (int64_t)(q == 0 ? (size_t)(j.m * j.n) : nx), o->f[1], 1,
                              o->f[0], 1));
        }
    if (!strcmp(j.routine, "dot")) { /* results on the device, as ddblas_dot's */
        CK(cublasSetPointerMode(j.cb, CUBLAS_POINTER_MODE_DEVICE));
        j.res = dmalloc(sizeof(ddblas_dd));
        j.dres = dmalloc(8);
    }

    printf("routine,format,m,n,op,scheme,reps,median_ms,gbps,copy_gbps,gflops,roofline_frac\n");
    static const char *const kinds[5] = {"dd", "ds", "di", "cublas_d", "cublas_s"};
    static const double elt[5] = {16, 12, 12, 8, 4};
    if (gemm) {
        int dev, sms, khz;
        CK(cudaGetDevice(&dev));
        CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
        if (clock_mhz <= 0 && cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, dev) == 0)
            clock_mhz = khz / 1000.0;
        const double ops = j.scheme == DDBLAS_PAPER ? 20 : 29;
        const double roof = (double)sms * 64 * clock_mhz * 1e6 / ops * 2;
        for (int k = 0; k < (j.mix[0] < 0 ? 3 : 1); k++) {
            j.kind = k;
            const double t = time_ms(run, &j);
            const double gf = 2.0 * (double)j.n * (double)j.n * (double)j.n / (t * 1e-3);
            char mixname[4] = {0};
            for (int q = 0; q < 3 && j.mix[0] >= 0; q++)
                mixname[q] = "dsi"[j.mix[q]];
            printf("gemm,%s,%lld,%lld,NN,%s,%d,%.4f,,,%.1f,%.3f\n",
                   j.mix[0] < 0 ? kinds[k] : mixname, (long long)j.n,
                   (long long)j.n, j.scheme == DDBLAS_PAPER ? "paper" : "accurate", reps, t,
                   gf * 1e-9, gf / roof);
        }
        fprintf(stderr, "ddblas-bench: %d SMs, %.0f MHz: roofline %.1f GFLOPS\n", sms, clock_mhz,
                roof * 1e-9);
        return 0;
    }
    copy_job c = {dmalloc(256u << 20), dmalloc(256u << 20), 256u << 20};
    const double copy_gbps = 2.0 * (double)c.bytes / (time_ms(run_copy, &c) * 1e-3) * 1e-9;
    for (int k = 0; k < 5; k++) {
        j.kind = k;
        const double t = time_ms(run, &j);
        /* elements moved: y read and written (axpy), both vectors (dot), A, x and y read, y
         * written (gemv) */
        const double elems = !strcmp(j.routine, "axpy") ? 3.0 * (double)j.n
                             : !gemv ? 2.0 * (double)j.n
                                     : (double)j.m * (double)j.n +
                                           (j.trans ? (double)j.m + 2.0 * (double)j.n
                                                    : (double)j.n + 2.0 * (double)j.m);
        printf("%s,%s,%lld,%lld,%c,,%d,%.4f,%.1f,%.1f,,\n", j.routine, kinds[k], (long long)j.m,
               (long long)j.n, j.trans ? 'T' : 'N', reps, t, elems * elt[k] / (t * 1e-3) * 1e-9,
               copy_gbps);
    }
    return 0;
}
