/* dfblas_gemm.c — DGEMM-DF(DF) through libdfblas.so (include/dfblas.h): bit for bit the CPU
 * implementation (engines/df/host.c) for every scheme, op pair, several sizes, alpha/beta (0
 * included: beta = 0 must not read C) and with panel blocking; the error of the DF result against
 * a double-double reference stays within the scheme's bound.  Exits 77 without a GPU. */
#include "../../engines/df/df_gemm.h"
#include "../../engines/df/host.h"
#include "../../include/dfblas.h"

#include <cuda_runtime_api.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failed, passed;

static uint64_t rng = 0x9e3779b97f4a7c15ULL;
static double uniform(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) * 0x1.0p-53 * 2.0 - 1.0;
}

static void fill(dfblas_df *x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        x[i] = dfblas_from_double(uniform());
}

#define CUDA(call)                                                                                 \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess) {                                                                   \
            fprintf(stderr, "FATAL %s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));     \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

static void *dev_copy(const void *h, size_t bytes)
{
    void *d;
    CUDA(cudaMalloc(&d, bytes ? bytes : 8));
    if (bytes)
        CUDA(cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice));
    return d;
}

/* One product on the GPU and on the CPU; compares C bit for bit. */
/* dfblas_scheme -> the engine's scheme (df_gemm.h) */
static const int host_scheme[4] = {DFS_DF_MAD15, DFS_DF_MAD16, DFS_DF_MAD29, DFS_DF_MAD12};

static void one(dfblas_handle h, int scheme, char ta, char tb, int64_t m, int64_t n, int64_t k,
                int pad, double alpha, double beta, size_t ws)
{
    const int64_t ra = ta == 'N' ? m : k, ca = ta == 'N' ? k : m;
    const int64_t rb = tb == 'N' ? k : n, cb = tb == 'N' ? n : k;
    const int64_t lda = (ra > 1 ? ra : 1) + pad, ldb = (rb > 1 ? rb : 1) + pad,
                  ldc = (m > 1 ? m : 1) + pad;
    const size_t na = (size_t)(lda * ca), nb = (size_t)(ldb * cb), nc = (size_t)(ldc * n);
    dfblas_df *A = malloc(na * 8 + 8), *B = malloc(nb * 8 + 8), *C = malloc(nc * 8 + 8),
              *G = malloc(nc * 8 + 8);
    fill(A, na);
    fill(B, nb);
    fill(C, nc);
    if (beta == 0.0)
        for (size_t i = 0; i < nc; i++)
            C[i].hi = C[i].lo = NAN; /* must not be read */
    void *dA = dev_copy(A, na * 8), *dB = dev_copy(B, nb * 8), *dC = dev_copy(C, nc * 8);
    const dfblas_df al = dfblas_from_double(alpha), be = dfblas_from_double(beta);
    dfblas_status st = dfblas_gemm(h, 0, (dfblas_scheme)scheme, ta, tb, m, n, k, al, dA, lda,
                                   dB, ldb, be, dC, ldc, ws);
    CUDA(cudaDeviceSynchronize());
    CUDA(cudaMemcpy(G, dC, nc * 8, cudaMemcpyDeviceToHost));
    const float fa[2] = {al.hi, al.lo}, fb[2] = {be.hi, be.lo};
    dfs_df_gemm_df_host(host_scheme[scheme], ta != 'N', tb != 'N', m, n, k, fa, (const float *)A,
                        lda, (const float *)B, ldb, fb, (float *)C, ldc);
    int bad = st != DFBLAS_SUCCESS;
    size_t first = 0;
    for (size_t i = 0; i < nc && !bad; i++)
        if (memcmp(&G[i], &C[i], 8)) {
            bad = 1;
            first = i;
        }
    if (bad) {
        failed++;
        printf("  FAIL scheme %d %c%c %lldx%lldx%lld pad %d alpha %g beta %g ws %zu: status %d, "
               "entry %zu GPU (%a, %a) CPU (%a, %a)\n", scheme, ta, tb, (long long)m, (long long)n,
               (long long)k, pad, alpha, beta, ws, (int)st, first, (double)G[first].hi,
               (double)G[first].lo, (double)C[first].hi, (double)C[first].lo);
    } else {
        passed++;
    }
    CUDA(cudaFree(dA));
    CUDA(cudaFree(dB));
    CUDA(cudaFree(dC));
    free(A);
    free(B);
    free(C);
    free(G);
}

/* Normwise error against a double-double reference for k = 1024. */
static void accuracy(dfblas_handle h, int scheme)
{
    const int64_t m = 64, n = 64, k = 1024;
    dfblas_df *A = malloc(m * k * 8), *B = malloc(k * n * 8), *G = malloc(m * n * 8);
    fill(A, (size_t)(m * k));
    fill(B, (size_t)(k * n));
    void *dA = dev_copy(A, m * k * 8), *dB = dev_copy(B, k * n * 8), *dC = dev_copy(G, m * n * 8);
    dfblas_status st = dfblas_gemm(h, 0, (dfblas_scheme)scheme, 'N', 'N', m, n, k,
                                   dfblas_from_double(1.0), dA, m, dB, k, dfblas_from_double(0.0),
                                   dC, m, 0);
    CUDA(cudaMemcpy(G, dC, m * n * 8, cudaMemcpyDeviceToHost));
    double worst = 0;
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < m; i++) {
            double s = 0, e = 0, abs = 0; /* double-double sum of exact products */
            for (int64_t p = 0; p < k; p++) {
                const double a = dfblas_to_double(A[i + p * m]), b = dfblas_to_double(B[p + j * k]);
                const double pr = a * b, pe = fma(a, b, -pr);
                const double t = s + pr, v = t - s, te = (s - (t - v)) + (pr - v);
                s = t;
                e += te + pe;
                abs += fabs(pr);
            }
            const double err = fabs((double)G[i + j * m].hi - s + (double)G[i + j * m].lo - e) / abs;
            worst = err > worst ? err : worst;
        }
    const double u2 = 0x1.0p-48, bound = dfs_df_scheme_bound(host_scheme[scheme], k) * u2;
    printf("     scheme %d: k = %lld, max error %.3e = %.2f u^2 * sum|ab| (bound %.3e)\n", scheme,
           (long long)k, worst, worst / u2, bound);
    if (st != DFBLAS_SUCCESS || !(worst <= bound)) {
        failed++;
        printf("  FAIL accuracy scheme %d: status %d, error %.3e above %.3e\n", scheme, (int)st,
               worst, bound);
    } else {
        passed++;
    }
    CUDA(cudaFree(dA));
    CUDA(cudaFree(dB));
    CUDA(cudaFree(dC));
    free(A);
    free(B);
    free(G);
}

/* DFBLAS_BENCH=N: times N x N x N products per scheme (CUDA events, median of 3 after one). */
static void bench(dfblas_handle h, int64_t n)
{
    const size_t bytes = (size_t)(n * n) * 8;
    void *dA, *dB, *dC;
    CUDA(cudaMalloc(&dA, bytes));
    CUDA(cudaMalloc(&dB, bytes));
    CUDA(cudaMalloc(&dC, bytes));
    CUDA(cudaMemset(dA, 0x3c, bytes)); /* about 0.01 in every hi and lo */
    CUDA(cudaMemset(dB, 0x3c, bytes));
    cudaEvent_t e0, e1;
    CUDA(cudaEventCreate(&e0));
    CUDA(cudaEventCreate(&e1));
    static const char *const names[4] = {"fused", "paper", "accurate", "lazy"};
    for (int s = 0; s < 4; s++) {
        float t[4];
        for (int r = 0; r < 4; r++) {
            CUDA(cudaEventRecord(e0, 0));
            dfblas_gemm(h, 0, (dfblas_scheme)s, 'N', 'N', n, n, n, dfblas_from_double(1.0), dA, n,
                        dB, n, dfblas_from_double(0.0), dC, n, 0);
            CUDA(cudaEventRecord(e1, 0));
            CUDA(cudaEventSynchronize(e1));
            CUDA(cudaEventElapsedTime(&t[r], e0, e1));
        }
        float a = t[1], b = t[2], c = t[3], med = a > b ? (b > c ? b : (a > c ? c : a))
                                                       : (a > c ? a : (b > c ? c : b));
        printf("dgemm-df(df),%s,%lld,%.3f ms,%.1f GFLOPS\n", names[s], (long long)n, (double)med,
               2.0 * (double)n * (double)n * (double)n / (double)med * 1e-6);
    }
    CUDA(cudaFree(dA));
    CUDA(cudaFree(dB));
    CUDA(cudaFree(dC));
}

int main(void)
{
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
        printf("SKIP: no GPU\n");
        return 77;
    }
    dfblas_handle h;
    if (dfblas_create(&h) != DFBLAS_SUCCESS)
        return 1;
    const char *bench_sizes = getenv("DFBLAS_BENCH");
    if (bench_sizes && *bench_sizes) {
        for (char *p = (char *)bench_sizes; *p;) {
            bench(h, strtoll(p, &p, 10));
            while (*p == ',')
                p++;
        }
        dfblas_destroy(h);
        return 0;
    }
    /* argument checks */
    dfblas_df one_df = dfblas_from_double(1.0);
    int arg_bad = dfblas_gemm(h, 0, DFBLAS_FUSED, 'X', 'N', 2, 2, 2, one_df, NULL, 2, NULL, 2,
                              one_df, NULL, 2, 0) != DFBLAS_INVALID_VALUE ||
                  dfblas_gemm(h, 0, DFBLAS_FUSED, 'N', 'N', 4, 2, 2, one_df, NULL, 3, NULL, 2,
                              one_df, NULL, 4, 0) != DFBLAS_INVALID_VALUE ||
                  dfblas_gemm(h, 0, DFBLAS_FUSED, 'N', 'N', 0, 2, 2, one_df, NULL, 1, NULL, 2,
                              one_df, NULL, 1, 0) != DFBLAS_SUCCESS;
    if (arg_bad) {
        failed++;
        printf("  FAIL argument checks\n");
    } else {
        passed++;
    }
    static const char ops[3] = {'N', 'T', 'C'};
    static const int64_t sizes[][3] = {{1, 1, 1}, {7, 5, 3}, {129, 130, 131}, {64, 200, 0}};
    for (int s = 0; s <= DFBLAS_LAZY; s++)
        for (int a = 0; a < 3; a++)
            for (int b = 0; b < 3; b++)
                for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
                    one(h, s, ops[a], ops[b], sizes[z][0], sizes[z][1], sizes[z][2], (a + b) % 2 * 3,
                        1.5, z % 2 ? 0.0 : -0.75, 0);
                }
    for (int s = 0; s <= DFBLAS_LAZY; s++) {
        one(h, s, 'N', 'T', 300, 200, 100, 1, 0.0, 2.0, 0); /* alpha 0 */
        /* 600 x 500 x 3000 with 16 MiB of workspace: several panels, same bits as the CPU */
        one(h, s, 'T', 'N', 600, 500, 3000, 0, -1.0, 0.5, 16);
    }
    printf("%s bitwise vs dfs_df_gemm_df_host: %d passed, %d failed\n", failed ? "FAIL" : "ok  ",
           passed, failed);
    for (int s = 0; s <= DFBLAS_LAZY; s++)
        accuracy(h, s);
    dfblas_destroy(h);
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
