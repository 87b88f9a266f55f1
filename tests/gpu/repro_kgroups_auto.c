/* repro_kgroups_auto — repro's choice of one or two groups of the inner dimension (kgroups=auto,
 * engines/oz/README.md: "The inner dimension in two groups") as calls follow one another on one
 * device: each call learns from the last one's classes, which it seeks only where some row of
 * op(A) or column of op(B) spans more than DFS_OZ_KGATE bits (kgroups.h).
 *   - 'mixed' data (every 8th column of A near 1e300, the rest near 1e-300, B zero there for the
 *     even columns; tests/gpu/layout.h's wide_cols): the first call seeks the classes and finds
 *     the gap, so the second and third split (the trace says "two groups").
 *   - then narrow data (phi 1): the first call still splits (the last call's choice), seeks the
 *     classes and finds none, so the next ones take one group; the one after that again (the
 *     classes not sought then: the gate leaves "no split" behind, not the stale one).
 * Every result bit for bit the CPU twin's (correctly rounded: dfs_oz_gemm_host).  A gate that never
 * opens, or one that leaves the last split standing, fails it.  Needs EXBLAS_MODE=repro with
 * small=products (these sizes are the small kernel's otherwise). */
#include "../../engines/repro/host.h"
#include "../common/gen.h"
#include "common.h"
#include "layout.h"

#include <cublas_v2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define M 256
#define N 192
#define K 320

static char log_path[64];

/* Whether the last DGEMM line of the trace so far says two groups; fails when there is none
 * after `lines` (the lines seen before this call), and moves `lines` on. */
static int last_call_split(int *lines)
{
    FILE *f = fopen(log_path, "r");
    char line[1024];
    int n = 0, found = 0, two = 0;
    while (f && fgets(line, sizeof line, f)) {
        if (!strstr(line, "repro: dgemm") || !strstr(line, "on int8 tensor cores"))
            continue;
        if (++n <= *lines)
            continue;
        found = 1;
        two = strstr(line, "in each of two groups") != NULL;
    }
    if (f)
        fclose(f);
    if (!found)
        gt_fail("no trace line for this call on the int8 path (%d before)", *lines);
    *lines = n;
    return two;
}

static void call(cublasHandle_t h, const char *data, int i, const double *A, const double *B,
                 double *dA, double *dB, double *dC, int *lines, int want_two)
{
    gt_case("%s data, call %d: %s", data, i, want_two ? "two groups" : "one group");
    const double alpha = 1.0, beta = 0.0;
    static double want[M * N], got[M * N];
    dfs_oz_params p = dfs_oz_default_params();
    dfs_oz_stats st;
    memset(&st, 0, sizeof st);
    memset(want, 0, sizeof want);
    dfs_oz_gemm_host(&p, 0, 0, M, N, K, alpha, A, M, B, K, beta, want, M, &st);
    GT_CUBLAS(cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, M, N, K, &alpha, dA, M, dB, K, &beta, dC,
                          M));
    GT_CUDA(cudaDeviceSynchronize()); /* the counters have landed for the next call */
    gt_d2h(got, dC, sizeof got);
    gt_cmp("C", want, got, (size_t)M * N, sizeof(double), M);
    const int two = last_call_split(lines);
    if (two != want_two)
        gt_fail("the call took %s, expected %s", two ? "two groups" : "one group",
                want_two ? "two" : "one");
}

int main(void)
{
    snprintf(log_path, sizeof log_path, "/tmp/dfshim-kgauto-%d.log", (int)getpid());
    unlink(log_path);
    setenv("EXBLAS_LOG", "trace", 1);
    setenv("EXBLAS_LOG_FILE", log_path, 1);
    gt_init("repro_kgroups_auto");
    const char *small = gt_mode_option("small"), *kg = gt_mode_option("kgroups");
    if (!gt_mode_is("repro") || !small || strcmp(small, "products") || (kg && strcmp(kg, "auto")))
        gt_fatal("run with EXBLAS_MODE=repro:small=products (kgroups auto)");
    double *A = gt_hmalloc(sizeof(double) * M * K), *B = gt_hmalloc(sizeof(double) * K * N);
    double *mA = gt_hmalloc(sizeof(double) * M * K), *mB = gt_hmalloc(sizeof(double) * K * N);
    rng r = rng_seed(20261127);
    for (int i = 0; i < M * K; i++)
        A[i] = gen_phi(&r, 1), mA[i] = gen_phi(&r, 1);
    for (int i = 0; i < K * N; i++)
        B[i] = gen_phi(&r, 1), mB[i] = gen_phi(&r, 1);
    wide_cols(mA, mB, M, N, K);
    double *dA = gt_dmalloc(sizeof(double) * M * K), *dB = gt_dmalloc(sizeof(double) * K * N);
    double *dC = gt_dmalloc(sizeof(double) * M * N);
    cublasHandle_t h;
    GT_CUBLAS(cublasCreate(&h));
    int lines = 0;
    gt_group("'mixed' data, then phi 1: the groups each call takes");
    gt_h2d(dA, mA, sizeof(double) * M * K);
    gt_h2d(dB, mB, sizeof(double) * K * N);
    for (int i = 0; i < 3; i++)
        call(h, "mixed", i, mA, mB, dA, dB, dC, &lines, i > 0);
    gt_h2d(dA, A, sizeof(double) * M * K);
    gt_h2d(dB, B, sizeof(double) * K * N);
    for (int i = 0; i < 3; i++)
        call(h, "phi 1", i, A, B, dA, dB, dC, &lines, i == 0);
    gt_end_group();
    cublasDestroy(h);
    cudaFree(dA), cudaFree(dB), cudaFree(dC);
    free(A), free(B), free(mA), free(mB);
    unlink(log_path);
    return gt_finish();
}
