/* digest.c — one line per call of a fixed set of FP64 cuBLAS calls: the call and a 64-bit digest
 * (FNV-1a) of every byte of its result.  Run it under two builds of libdfshim.so in the same mode
 * and compare the outputs (compare-builds.sh): a refactoring that claims no behaviour change must
 * give the same lines in every mode.  The data cover the hostile classes (phi 0-8, 1e+-300
 * mixed, underflowing products, subnormals, Inf/NaN, zero rows), every op, alpha/beta, both
 * pointer modes, a strided batch, GemmEx, DGEMV N/T with negative increments, DDOT; the sizes
 * are odd so that engines block and pad.  Not a test: it asserts nothing (exit 77 without a GPU).
 *
 * Usage: digest [--quick]   (--quick: the small sizes only) */
#include "../common/gen.h"

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CK(x)                                                                                      \
    do {                                                                                           \
        if ((x) != 0) {                                                                            \
            fprintf(stderr, "digest: %s failed at line %d\n", #x, __LINE__);                      \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

static uint64_t fnv(const void *p, size_t n)
{
    const unsigned char *b = p;
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 1099511628211ULL;
    return h;
}

enum { D_PHI0, D_PHI1, D_PHI4, D_PHI6, D_PHI8, D_MIXED, D_UNDER, D_SUBN, D_SPECIAL, D_ZROWS, D_N };
static const char *const dname[D_N] = {"phi0",  "phi1",  "phi4",    "phi6",    "phi8",
                                       "mixed", "under", "subnorm", "special", "zerorows"};

/* Element i of a column-major rows x cols operand of data class d; is_b: the right operand
 * (for 'mixed': zero on the big rows of A's big columns for the even output columns). */
static double value(int d, rng *r, int64_t i, int64_t rows, int is_b)
{
    const int64_t row = i % rows, col = i / rows;
    switch (d) {
    case D_PHI0: return gen_phi(r, 0);
    case D_PHI1: return gen_phi(r, 1);
    case D_PHI4: return gen_phi(r, 4);
    case D_PHI6: return gen_phi(r, 6);
    case D_PHI8: return gen_phi(r, 8);
    case D_MIXED:
        if (!is_b) /* every 8th column of A ~1e300, the rest ~1e-300 */
            return gen_sign_rand(r, (1.0 + unif(r)) * (col % 8 == 0 ? 1e300 : 1e-300));
        /* B: zero on A's big columns (rows of B) for the even output columns */
        return row % 8 == 0 && col % 2 == 0 ? 0.0 : gen_sign_rand(r, 1.0 + unif(r));
    case D_UNDER: return gen_sign_rand(r, (1.0 + unif(r)) * 1e-165);
    case D_SUBN: return below(r, 4) ? gen_sign_rand(r, (1.0 + unif(r)) * 0x1p-540) : gen_phi(r, 1);
    case D_SPECIAL: {
        const double v = gen_phi(r, 1);
        const int64_t s = below(r, 4000);
        return s == 0 ? 1.0 / 0.0 : s == 1 ? -1.0 / 0.0 : s == 2 ? 0.0 / 0.0 : v;
    }
    default: return row % 5 == 0 || col % 7 == 0 ? 0.0 : gen_phi(r, 2); /* zero rows, cols */
    }
}

static double *make(int d, int64_t rows, int64_t cols, uint64_t seed, int is_b)
{
    double *h = malloc((size_t)(rows * cols) * sizeof *h);
    rng r = rng_seed(seed);
    for (int64_t i = 0; i < rows * cols; i++)
        h[i] = value(d, &r, i, rows, is_b);
    return h;
}

static double *to_dev(const double *h, size_t n)
{
    double *d;
    CK(cudaMalloc((void **)&d, n * sizeof *d + 1));
    CK(cudaMemcpy(d, h, n * sizeof *d, cudaMemcpyHostToDevice));
    return d;
}

static void report(const char *what, const double *dev, size_t n, cublasStatus_t st)
{
    double *h = malloc(n * sizeof *h + 1);
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(h, dev, n * sizeof *h, cudaMemcpyDeviceToHost));
    printf("%-60s status %d digest %016llx\n", what, (int)st, (unsigned long long)fnv(h, n * 8));
    free(h);
}

static void gemms(cublasHandle_t h, int quick)
{
    static const int64_t shapes[][3] = {{64, 48, 33}, {257, 190, 301}, {1000, 777, 1500},
                                        {2048, 2048, 2048}, {96, 3000, 4100}};
    static const cublasOperation_t ops[] = {CUBLAS_OP_N, CUBLAS_OP_T};
    const int nshapes = quick ? 2 : 5;
    for (int s = 0; s < nshapes; s++)
        for (int d = 0; d < D_N; d++) {
            const int64_t m = shapes[s][0], n = shapes[s][1], k = shapes[s][2];
            if (s >= 3 && d != D_PHI1 && d != D_PHI8 && d != D_MIXED)
                continue; /* the large shapes on three classes */
            for (int o = 0; o < 4; o++) {
                if (s >= 3 && o != 0 && o != 3)
                    continue;
                const cublasOperation_t ta = ops[o & 1], tb = ops[o >> 1];
                const int64_t ar = ta == CUBLAS_OP_N ? m : k, ac = ta == CUBLAS_OP_N ? k : m;
                const int64_t br = tb == CUBLAS_OP_N ? k : n, bc = tb == CUBLAS_OP_N ? n : k;
                double *A = make(d, ar, ac, 11 + (uint64_t)s, 0), *B = make(d, br, bc, 23, 1);
                double *C = make(D_PHI1, m, n, 37, 0);
                double *dA = to_dev(A, (size_t)(ar * ac)), *dB = to_dev(B, (size_t)(br * bc));
                double *dC = to_dev(C, (size_t)(m * n));
                const double alpha = o == 1 ? -1.5 : 1.0, beta = o == 2 ? 0.25 : 0.0;
                char what[128];
                snprintf(what, sizeof what, "dgemm %lldx%lldx%lld %c%c a=%g b=%g %s",
                         (long long)m, (long long)n, (long long)k, ta == CUBLAS_OP_N ? 'N' : 'T',
                         tb == CUBLAS_OP_N ? 'N' : 'T', alpha, beta, dname[d]);
                cublasStatus_t st = cublasDgemm(h, ta, tb, (int)m, (int)n, (int)k, &alpha, dA,
                                                (int)ar, dB, (int)br, &beta, dC, (int)m);
                report(what, dC, (size_t)(m * n), st);
                if (s == 1 && o == 3) { /* device pointer mode, GemmEx, a strided batch */
                    double *dab;
                    const double ab[2] = {0.5, -2.0};
                    CK(cudaMalloc((void **)&dab, sizeof ab));
                    CK(cudaMemcpy(dab, ab, sizeof ab, cudaMemcpyHostToDevice));
                    CK(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE));
                    st = cublasDgemm(h, ta, tb, (int)m, (int)n, (int)k, dab, dA, (int)ar, dB,
                                     (int)br, dab + 1, dC, (int)m);
                    CK(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST));
                    snprintf(what, sizeof what, "dgemm dev-ptr %s", dname[d]);
                    report(what, dC, (size_t)(m * n), st);
                    st = cublasGemmEx(h, ta, tb, (int)m, (int)n, (int)k, &alpha, dA, CUDA_R_64F,
                                      (int)ar, dB, CUDA_R_64F, (int)br, &beta, dC, CUDA_R_64F,
                                      (int)m, CUBLAS_COMPUTE_64F, CUBLAS_GEMM_DEFAULT);
                    snprintf(what, sizeof what, "gemmex %s", dname[d]);
                    report(what, dC, (size_t)(m * n), st);
                    /* three entries of shape (m/3, n/2, k) at strides inside the operands */
                    const int bm = (int)m / 3, bn = (int)n / 2;
                    st = cublasDgemmStridedBatched(h, ta, tb, bm, bn, (int)k, &alpha, dA, (int)ar,
                                                   ta == CUBLAS_OP_N ? bm : bm * ar, dB, (int)br,
                                                   0, &beta, dC, (int)m, bm, 3);
                    snprintf(what, sizeof what, "dgemm strided batch 3 %s", dname[d]);
                    report(what, dC, (size_t)(m * n), st);
                    cudaFree(dab);
                }
                cudaFree(dA), cudaFree(dB), cudaFree(dC);
                free(A), free(B), free(C);
            }
        }
}

static void vectors(cublasHandle_t h, int quick)
{
    const int64_t m = quick ? 301 : 3001, n = quick ? 257 : 2049, len = quick ? 10007 : 1000003;
    for (int d = 0; d < D_N; d++) {
        double *A = make(d, m, n, 5, 0), *x = make(d, len, 1, 6, 1), *y = make(d, len, 1, 7, 0);
        double *dA = to_dev(A, (size_t)(m * n)), *dx = to_dev(x, (size_t)len);
        double *dy = to_dev(y, (size_t)len), *dr;
        CK(cudaMalloc((void **)&dr, sizeof(double)));
        for (int t = 0; t < 2; t++) {
            const cublasOperation_t op = t ? CUBLAS_OP_T : CUBLAS_OP_N;
            const double alpha = 1.25, beta = t ? 0.0 : -0.5;
            const int64_t ylen = t ? n : m;
            cublasStatus_t st = cublasDgemv(h, op, (int)m, (int)n, &alpha, dA, (int)m, dx,
                                            t ? -1 : 1, &beta, dy, t ? 2 : 1);
            char what[128];
            snprintf(what, sizeof what, "dgemv %lldx%lld %c %s", (long long)m, (long long)n,
                     t ? 'T' : 'N', dname[d]);
            report(what, dy, (size_t)(2 * ylen), st);
        }
        double res = 0;
        cublasStatus_t st = cublasDdot(h, (int)len, dx, 1, dy, 1, &res);
        printf("%-60s status %d digest %016llx\n", "ddot host", (int)st,
               (unsigned long long)fnv(&res, sizeof res));
        CK(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE));
        st = cublasDdot(h, (int)len / 2, dx, 2, dy, -1, dr);
        CK(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST));
        char what[64];
        snprintf(what, sizeof what, "ddot dev inc 2/-1 %s", dname[d]);
        report(what, dr, 1, st);
        cudaFree(dA), cudaFree(dx), cudaFree(dy), cudaFree(dr);
        free(A), free(x), free(y);
    }
}

int main(int argc, char **argv)
{
    int ndev = 0;
    if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
        fprintf(stderr, "digest: no CUDA GPU available\n");
        return 77;
    }
    const int quick = argc > 1 && !strcmp(argv[1], "--quick");
    cublasHandle_t h;
    CK(cublasCreate(&h));
    gemms(h, quick);
    vectors(h, quick);
    cublasDestroy(h);
    return 0;
}
