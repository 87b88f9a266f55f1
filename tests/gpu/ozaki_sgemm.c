/* ozaki_sgemm — the ozaki-sgemm engine (EXBLAS_MODE=ozaki-sgemm[:splits=S][,workspace_mb=M])
 * through the shim, against its CPU model and an exact reference.
 *
 * The engine (engines/ozaki-sgemm/f32_gemm.c, kernels_f32.cu) computes DGEMM from binary32 slices on
 * cuBLAS SGEMM; its CPU model dfs_oz_f32_gemm_host (host_f32.c, checked against MPFR by the unit
 * tests) gives every output's error bound, valid whatever order SGEMM sums in, or +Inf for the
 * outputs of rows and columns with Inf or NaN.  The model scales and splits each row of op(A)
 * and column of op(B) on its own, so output (i, j) is the model's 1 x 1 product of that row and
 * that column: each checked output gets that call, and the correctly rounded value from
 * dfs_oz_gemm_host (the reproducible engine's CPU implementation, default parameters).
 *
 *  0. engaged: 64 x 64 x 300 phi 1: outputs differ from real cuBLAS DGEMM (else the engine was
 *     not reached), and the trace (EXBLAS_LOG=trace) says "-> ozaki-sgemm".
 *  1. calls: cublasDgemm_v2, _64, cublasDgemmStridedBatched (batch 2, the same data in each
 *     entry) and cublasGemmEx (CUDA_R_64F) in turn, x ops NN, NT, TN, TC x
 *     shapes 1x1x1, 13x17x29, 64x64x300, 257x129x65, 33x40x1 x data {uniform [-5, 5], phi 0,
 *     1, 2, 4; rows of op(A) x 2^900 / 1 / 2^-900 and columns x 2^-900 / 1; rows and columns
 *     whose elements fall over up to 150 binades (wider than binary32 carries: direct); Inf and
 *     NaN in rows of op(A), -Inf in a column of op(B), Inf * 0; rows x 2^-1000 and columns x
 *     2^-40 (subnormal outputs)} x (alpha, beta) in {(1, 0), (-3, 0.5), (0.5, 1), (0, -0.75)} x
 *     host / device pointers: every output within its bound of the exact value (plus half an
 *     ulp); outputs of Inf/NaN operands NaN where real cuBLAS gives NaN, the same infinity where
 *     it gives one, finite and close where it is finite; padding of C untouched; beta = 0 with C
 *     full of NaN (not read), alpha = 0 with NaN in A and B (not read).
 *  2. large: 1000 x 900 x 2000 NN and TT (in blocks under workspace_mb=16), phi 1, wide and
 *     special data, (alpha, beta) = (-3, 0.5): 3000 sampled outputs within their bounds.
 *  3. TF32: the handle in CUBLAS_TF32_TENSOR_OP_MATH: 256 x 256 x 4096 uniform [-5, 5], 500
 *     sampled outputs still within the bound (the SGEMMs are true binary32), the math mode left.
 *  4. gain: 4096 x 4096 x 4096, uniform in [-5, 5] (the paper's data) and phi 0, 1, 2, 4: on
 *     256 sampled outputs the largest error relative to sum |a b| (the measure that cancellation
 *     in an output does not blow up), the engine's and real cublasSgemm's (on the operands
 *     rounded to binary32); the engine's at least 15 / 500 times smaller (the paper's gains)
 *     with the splits each data needs for them (tests/common/sgemm_gain.h: 2 / 3 on the
 *     paper's data and phi 0, 6 for 15 at phi 4).  Printed for all, with the largest
 *     relative errors and the largest difference from the CPU model.
 *
 * Exit 0: all passed; 1: a failure (named with API, shape, ops, data, alpha, beta and pointer
 * mode, and the first bad output); 77: no GPU. */
#include "common.h"
#include "layout.h"

#include "../common/gen.h"
#include "../common/sgemm_gain.h"
#include "../../engines/ozaki-sgemm/host.h"
#include "../../include/reprohost.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { D_U5, D_PHI0, D_PHI1, D_PHI2, D_PHI4, D_RANGE, D_WIDE, D_SPECIAL, D_TINY, D_COUNT };
static const char *const data_names[D_COUNT] = {"U[-5,5]", "phi0", "phi1", "phi2", "phi4",
                                                "range", "wide", "Inf/NaN", "subnormal"};

static cublasHandle_t handle;
static int splits = 2;
static char log_path[64];
static double *d_ab; /* alpha, beta on the device */

/* ---------- data: op(A) m x k and op(B) k x n, column-major and tight ---------- */

static double value(rng *r, int d)
{
    switch (d) {
    case D_U5: return 10 * unif(r) - 5;
    case D_PHI0: return gen_phi(r, 0);
    case D_PHI2: return gen_phi(r, 2);
    case D_PHI4: return gen_phi(r, 4);
    default: return gen_phi(r, 1);
    }
}

static void make(int d, int64_t m, int64_t n, int64_t k, double *A, double *B, uint64_t seed)
{
    rng r = rng_seed(seed);
    for (int64_t q = 0; q < k; q++)
        for (int64_t i = 0; i < m; i++) {
            double v = value(&r, d);
            if (d == D_RANGE)
                v *= ldexp(1, (int)(i % 3 - 1) * 900);
            else if (d == D_WIDE) /* odd rows up to 2^-150, even ones up to 2^-50 */
                v = ldexp(v, -(int)below(&r, (i & 1) ? 150 : 50));
            else if (d == D_TINY)
                v = ldexp(v, -1000);
            A[i + q * m] = v;
        }
    for (int64_t j = 0; j < n; j++)
        for (int64_t q = 0; q < k; q++) {
            double v = value(&r, d);
            if (d == D_RANGE)
                v *= ldexp(1, (int)(j % 2) * -900);
            else if (d == D_WIDE)
                v = ldexp(v, -(int)below(&r, (j & 1) ? 150 : 50));
            else if (d == D_TINY)
                v = ldexp(v, -40);
            B[q + j * k] = v;
        }
    if (d == D_SPECIAL && k > 0) {
        if (m > 1)
            A[1 + (k / 2) * m] = INFINITY;
        if (m > 3)
            A[3] = NAN;
        if (n > 2)
            B[(k - 1) + 2 * k] = -INFINITY;
        if (m > 5 && n > 0) { /* Inf * 0 */
            A[5 + 0 * m] = INFINITY;
            B[0] = 0.0;
        }
    }
}

/* ---------- checking one output ---------- */

typedef struct {
    const char *what;
    int64_t m, n, k;
    const double *A, *B; /* logical, tight */
    double alpha, beta;
    const double *C0; /* C before the call (m x n tight), NULL: beta = 0 */
    long bad, checked;
} checker;

static double worst_all; /* the largest error / bound seen */
static long checked_all;

/* Output (i, j) of the engine `got` (and real cuBLAS's `nat`) against the model's bound and the
 * exact value. */
static void check_one(checker *ck, int64_t i, int64_t j, double got, double nat)
{
    const int64_t m = ck->m, k = ck->k;
    double *row = malloc((size_t)(k > 0 ? k : 1) * sizeof *row);
    for (int64_t q = 0; q < k; q++)
        row[q] = ck->A[i + q * m];
    const double *col = ck->B + j * k;
    const double c0 = ck->C0 ? ck->C0[i + j * m] : 0.0;
    double model = c0, bound = 0, exact = c0;
    dfs_oz_f32_gemm_host(0, 0, 1, 1, k, ck->alpha, row, 1, col, k, ck->beta, &model, 1, splits,
                         &bound);
    repro_dgemm_host('N', 'N', 1, 1, k, ck->alpha, row, 1, col, k, ck->beta, &exact, 1);
    free(row);
    ck->checked++;
    checked_all++;
    int ok;
    double allowed = 0, err = 0;
    if (ck->alpha == 0) { /* A and B not read: RN(beta c) (native GemmEx reads them then) */
        ok = same(got, exact);
    } else if (isinf(bound)) { /* Inf or NaN operands: like native */
        ok = (!isfinite(nat) || !isfinite(got))
                 ? same(got, nat)
                 : fabs(got - nat) <= 0x1p-30 * fabs(nat) + 0x1p-1000;
    } else {
        err = fabs(got - exact);
        allowed = bound + 0x1p-53 * fabs(exact);
        ok = isfinite(exact) ? !isnan(got) && err <= allowed : same(got, exact);
            if (ok && allowed > 0 && isfinite(exact) && err / allowed > worst_all)
            worst_all = err / allowed;
    }
    if (!ok && ck->bad++ < 3)
        gt_fail("%s: C(%lld,%lld) = %a, exact %a, native %a: error %.3g, bound %.3g", ck->what,
                (long long)i, (long long)j, got, exact, nat, err, allowed);
}

/* ---------- one call through the shim and through real cuBLAS ---------- */

typedef struct {
    gt_gemm_api api;
    int ta, tb; /* 0 N, 1 T, 2 C */
    int64_t m, n, k;
    int d;
    double alpha, beta;
    int dev;
    long samples; /* 0: every output */
} case_t;

static cublasOperation_t op_of(int t)
{
    return t == 0 ? CUBLAS_OP_N : t == 1 ? CUBLAS_OP_T : CUBLAS_OP_C;
}

/* A stored for op t: rows x cols logical L, ld + 1 padding filled with NaN. */
static double *store(const double *L, int64_t rows, int64_t cols, int t, int64_t *ld)
{
    const int64_t sr = t ? cols : rows, sc = t ? rows : cols;
    *ld = sr + 1;
    double *S = malloc((size_t)(*ld * (sc > 0 ? sc : 1)) * sizeof *S);
    for (int64_t x = 0; x < *ld * sc; x++)
        S[x] = gt_qnan();
    for (int64_t c = 0; c < cols; c++)
        for (int64_t r = 0; r < rows; r++)
            S[t ? c + r * *ld : r + c * *ld] = L[r + c * rows];
    return S;
}

static void run_case(const case_t *cs)
{
    const int64_t m = cs->m, n = cs->n, k = cs->k;
    char what[200];
    snprintf(what, sizeof what, "%s %c%c %lldx%lldx%lld %s alpha %g beta %g %s",
             gt_gemm_api_name[cs->api], "NTC"[cs->ta], "NTC"[cs->tb], (long long)m,
             (long long)n, (long long)k, data_names[cs->d], cs->alpha, cs->beta,
             cs->dev ? "device" : "host");
    gt_case("%s", what);
    double *A = malloc((size_t)(m * k + 1) * 8), *B = malloc((size_t)(k * n + 1) * 8);
    make(cs->d, m, n, k, A, B, (uint64_t)(m * 7 + n * 131 + k * 31 + cs->d));
    int64_t lda, ldb;
    double *SA = store(A, m, k, cs->ta, &lda), *SB = store(B, k, n, cs->tb, &ldb);
    if (cs->alpha == 0) { /* not to be read */
        for (int64_t x = 0; x < lda * (cs->ta ? m : k); x += 3)
            SA[x] = x % 2 ? gt_qnan() : INFINITY;
        for (int64_t x = 1; x < ldb * (cs->tb ? k : n); x += 3)
            SB[x] = x % 2 ? gt_qnan() : -INFINITY;
    }
    const int64_t ldc = m + 2, batch = gt_gemm_api_strided(cs->api) ? 2 : 1;
    const long long sC = ldc * n + 5;
    const size_t cspan = (size_t)(sC * batch);
    double *C0 = malloc((size_t)(m * n + 1) * 8), *Ct = malloc(cspan * 8);
    rng r = rng_seed(7);
    for (int64_t x = 0; x < m * n; x++)
        C0[x] = unif_pm1(&r);
    const double sentinel = -12345.25;
    for (size_t x = 0; x < cspan; x++)
        Ct[x] = sentinel;
    for (int64_t b = 0; b < batch; b++)
        for (int64_t j = 0; j < n; j++)
            for (int64_t i = 0; i < m; i++)
                Ct[b * sC + i + j * ldc] = cs->beta == 0 ? gt_qnan() : C0[i + j * m];
    const size_t aspan = (size_t)(lda * (cs->ta ? m : k)), bspan = (size_t)(ldb * (cs->tb ? k : n));
    /* every batch entry its own copy of A and B */
    double *dA = gt_dmalloc(aspan * 8 * batch + 8), *dB = gt_dmalloc(bspan * 8 * batch + 8);
    double *dC = gt_dmalloc(cspan * 8), *dN = gt_dmalloc(cspan * 8);
    for (int64_t b = 0; b < batch; b++) {
        gt_h2d(dA + b * aspan, SA, aspan * 8);
        gt_h2d(dB + b * bspan, SB, bspan * 8);
    }
    gt_h2d(dC, Ct, cspan * 8);
    gt_h2d(dN, Ct, cspan * 8);
    const double ab[2] = {cs->alpha, cs->beta};
    gt_h2d(d_ab, ab, sizeof ab);

    gt_gemm g;
    memset(&g, 0, sizeof g);
    g.api = cs->api;
    g.ta = op_of(cs->ta);
    g.tb = op_of(cs->tb);
    g.m = m, g.n = n, g.k = k, g.lda = lda, g.ldb = ldb, g.ldc = ldc;
    g.sA = (long long)aspan, g.sB = (long long)bspan, g.sC = sC, g.batch = batch;
    g.typeA = g.typeB = g.typeC = CUDA_R_64F;
    g.compute = CUBLAS_COMPUTE_64F;
    g.algo = CUBLAS_GEMM_DEFAULT;
    g.A = dA, g.B = dB, g.C = dC;
    g.alpha = cs->dev ? (const void *)d_ab : (const void *)&ab[0];
    g.beta = cs->dev ? (const void *)(d_ab + 1) : (const void *)&ab[1];
    GT_CUBLAS(cublasSetPointerMode_v2(handle, cs->dev ? CUBLAS_POINTER_MODE_DEVICE
                                                      : CUBLAS_POINTER_MODE_HOST));
    cublasStatus_t s = gt_run_gemm(0, handle, &g);
    g.C = dN; /* real cuBLAS, for the outputs of Inf and NaN */
    cublasStatus_t sn = gt_run_gemm(1, handle, &g);
    GT_CUBLAS(cublasSetPointerMode_v2(handle, CUBLAS_POINTER_MODE_HOST));
    GT_CUDA(cudaDeviceSynchronize());
    double *got = malloc(cspan * 8), *nat = malloc(cspan * 8);
    gt_d2h(got, dC, cspan * 8);
    gt_d2h(nat, dN, cspan * 8);
    if (!gt_cmp_status(gt_gemm_api_name[cs->api], sn, s))
        goto out;
    checker ck = {what, m, n, k, A, B, cs->alpha, cs->beta, cs->beta == 0 ? NULL : C0, 0, 0};
    for (int64_t b = 0; b < batch; b++) {
        if (cs->samples) {
            rng rs = rng_seed(11 + (uint64_t)b);
            for (long t = 0; t < cs->samples; t++) {
                const int64_t i = below(&rs, (int)m), j = below(&rs, (int)n);
                check_one(&ck, i, j, got[b * sC + i + j * ldc], nat[b * sC + i + j * ldc]);
            }
        } else {
            for (int64_t j = 0; j < n; j++)
                for (int64_t i = 0; i < m; i++)
                    check_one(&ck, i, j, got[b * sC + i + j * ldc], nat[b * sC + i + j * ldc]);
        }
    }
    /* nothing outside the outputs written */
    for (size_t x = 0; x < cspan; x++) {
        const int64_t off = (int64_t)(x % (size_t)sC);
        const int inside = off < ldc * n && off % ldc < m;
        if (!inside && got[x] != sentinel) {
            gt_fail("%s: C's padding at %zu written (%a)", what, x, got[x]);
            break;
        }
    }
out:
    cudaFree(dA), cudaFree(dB), cudaFree(dC), cudaFree(dN);
    free(A), free(B), free(SA), free(SB), free(C0), free(Ct), free(got), free(nat);
}

/* ---------- 0. engaged ---------- */

static void engaged(void)
{
    gt_group("engaged: 64x64x300 phi 1 differs from native DGEMM; the trace names the engine");
    const int64_t m = 64, n = 64, k = 300;
    double *A = malloc(m * k * 8), *B = malloc(k * n * 8), *C = calloc(m * n, 8),
           *N = calloc(m * n, 8);
    make(D_PHI1, m, n, k, A, B, 5);
    double *dA = gt_dmalloc(m * k * 8), *dB = gt_dmalloc(k * n * 8), *dC = gt_dmalloc(m * n * 8);
    gt_h2d(dA, A, m * k * 8);
    gt_h2d(dB, B, k * n * 8);
    const double one = 1, zero = 0;
    GT_CUBLAS(cublasDgemm_v2(handle, CUBLAS_OP_N, CUBLAS_OP_N, (int)m, (int)n, (int)k, &one, dA,
                             (int)m, dB, (int)k, &zero, dC, (int)m));
    gt_d2h(C, dC, m * n * 8);
    GT_CUBLAS(gt_real.Dgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, (int)m, (int)n, (int)k, &one, dA,
                            (int)m, dB, (int)k, &zero, dC, (int)m));
    gt_d2h(N, dC, m * n * 8);
    int differ = 0;
    for (int64_t x = 0; x < m * n; x++)
        differ += C[x] != N[x];
    gt_case("outputs differing from native");
    gt_note("%d of %lld outputs differ from native DGEMM", differ, (long long)(m * n));
    if (!differ)
        gt_fail("every output equals native DGEMM's: the engine was not reached");
    gt_case("trace");
    static char buf[1 << 16];
    FILE *f = fopen(log_path, "r");
    size_t len = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    buf[len] = 0;
    if (f)
        fclose(f);
    const char *line = strstr(buf, "cublasDgemm_v2 op=NN m=64 n=64 k=300");
    if (!line || !strstr(line, "-> ozaki-sgemm"))
        gt_fail("no trace line of the call computed by ozaki-sgemm in %s", log_path);
    cudaFree(dA), cudaFree(dB), cudaFree(dC);
    free(A), free(B), free(C), free(N);
}

/* ---------- 4. gain ---------- */

static void gain(void)
{
    gt_group("gain over cublasSgemm: 4096^3, 256 sampled outputs");
    const int64_t n = 4096;
    const size_t el = (size_t)(n * n);
    double *A = malloc(el * 8), *B = malloc(el * 8), *C = malloc(el * 8);
    float *Af = malloc(el * 4), *Bf = malloc(el * 4), *Cf = malloc(el * 4);
    double *dA = gt_dmalloc(el * 8), *dB = gt_dmalloc(el * 8), *dC = gt_dmalloc(el * 8);
    float *fA = gt_dmalloc(el * 4), *fB = gt_dmalloc(el * 4), *fC = gt_dmalloc(el * 4);
    static const int datas[SG_COUNT] = {D_U5, D_PHI0, D_PHI1, D_PHI2, D_PHI4};
    double *row = malloc((size_t)n * 8);
    for (int di = 0; di < SG_COUNT; di++) {
        const int d = datas[di];
        gt_case("%s", data_names[d]);
        make(d, n, n, n, A, B, 1000 + (uint64_t)d);
        for (size_t x = 0; x < el; x++) {
            Af[x] = (float)A[x];
            Bf[x] = (float)B[x];
        }
        gt_h2d(dA, A, el * 8);
        gt_h2d(dB, B, el * 8);
        gt_h2d(fA, Af, el * 4);
        gt_h2d(fB, Bf, el * 4);
        const double one = 1, zero = 0;
        const float onef = 1, zerof = 0;
        GT_CUBLAS(cublasDgemm_v2(handle, CUBLAS_OP_N, CUBLAS_OP_N, (int)n, (int)n, (int)n, &one,
                                 dA, (int)n, dB, (int)n, &zero, dC, (int)n));
        GT_CUBLAS(cublasSgemm_v2(handle, CUBLAS_OP_N, CUBLAS_OP_N, (int)n, (int)n, (int)n, &onef,
                                 fA, (int)n, fB, (int)n, &zerof, fC, (int)n));
        gt_d2h(C, dC, el * 8);
        gt_d2h(Cf, fC, el * 4);
        /* errors relative to the exact value, and to sum |a||b| (which cancellation in the
         * exact value does not blow up: the measure of the gain) */
        double e_eng = 0, e_sg = 0, n_eng = 0, n_sg = 0, gm = 0;
        rng r = rng_seed(77);
        for (int t = 0; t < 256; t++) {
            const int64_t i = below(&r, (int)n), j = below(&r, (int)n);
            double nrm = 0;
            for (int64_t q = 0; q < n; q++) {
                row[q] = A[i + q * n];
                nrm += fabs(row[q] * B[q + j * n]);
            }
            double exact = 0, model = 0;
            repro_dgemm_host('N', 'N', 1, 1, n, 1.0, row, 1, B + j * n, n, 0.0, &exact, 1);
            dfs_oz_f32_gemm_host(0, 0, 1, 1, n, 1.0, row, 1, B + j * n, n, 0.0, &model, 1, splits,
                                 NULL);
            const double ee = fabs(C[i + j * n] - exact), es = fabs((double)Cf[i + j * n] - exact);
            gm = fmax(gm, fabs(C[i + j * n] - model) / nrm);
            n_eng = fmax(n_eng, ee / nrm);
            n_sg = fmax(n_sg, es / nrm);
            if (exact != 0) {
                e_eng = fmax(e_eng, ee / fabs(exact));
                e_sg = fmax(e_sg, es / fabs(exact));
            }
        }
        const double g = n_eng > 0 ? n_sg / n_eng : INFINITY;
        gt_note("%s: largest |error| / sum|a b|: cublasSgemm %.3g, ozaki-sgemm (%d splits) %.3g: "
                "%.1fx smaller; largest relative error %.3g and %.3g (%.1fx); engine - CPU "
                "model %.3g", data_names[d], n_sg, splits, n_eng, g, e_sg, e_eng, e_sg / e_eng,
                gm);
        const double want = sgemm_gain_wanted(di, splits); /* datas[] in sgemm_gain's order */
        if (!(g >= want))
            gt_fail("%s: the error is only %.1fx below SGEMM's (want %g with %d splits)",
                    data_names[d], g, want, splits);
    }
    cudaFree(dA), cudaFree(dB), cudaFree(dC), cudaFree(fA), cudaFree(fB), cudaFree(fC);
    free(A), free(B), free(C), free(Af), free(Bf), free(Cf), free(row);
}

int main(void)
{
    snprintf(log_path, sizeof log_path, "/tmp/dfshim-sgemm-%d.log", (int)getpid());
    setenv("EXBLAS_LOG", "trace", 1);
    setenv("EXBLAS_LOG_FILE", log_path, 1);
    gt_init("ozaki_sgemm");
    const char *sp = gt_mode_option("splits");
    if (sp)
        splits = atoi(sp);
    GT_CUBLAS(cublasCreate_v2(&handle));
    d_ab = gt_dmalloc(2 * sizeof(double));

    engaged();

    gt_group("calls x ops x shapes x data x alpha, beta x pointer mode (%d splits)", splits);
    static const gt_gemm_api apis[4] = {GT_DGEMM, GT_DGEMM_64, GT_DGEMM_SB, GT_GEMMEX};
    static const int shapes[5][3] = {{1, 1, 1}, {13, 17, 29}, {64, 64, 300}, {257, 129, 65},
                                     {33, 40, 1}};
    static const double abs_[4][2] = {{1, 0}, {-3, 0.5}, {0.5, 1}, {0, -0.75}};
    int count = 0;
    for (int sh = 0; sh < 5; sh++)
        for (int op = 0; op < 4; op++)
            for (int d = 0; d < D_COUNT; d++)
                for (int ab = 0; ab < 4; ab++)
                    for (int dev = 0; dev < 2; dev++) {
                        /* the largest shape: every data on one op pair and two (alpha, beta) */
                        if (sh == 3 && (op != (d & 3) || (ab & 1) != dev))
                            continue;
                        static const int tas[4] = {0, 0, 1, 1}, tbs[4] = {0, 1, 0, 2};
                        case_t c = {apis[count++ % 4], tas[op], tbs[op], shapes[sh][0],
                                    shapes[sh][1], shapes[sh][2], d, abs_[ab][0], abs_[ab][1],
                                    dev, 0};
                        run_case(&c);
                    }

    gt_group("large: 1000 x 900 x 2000, 3000 sampled outputs");
    static const int large_data[3] = {D_PHI1, D_WIDE, D_SPECIAL};
    for (int op = 0; op < 2; op++)
        for (int di = 0; di < 3; di++) {
            case_t c = {GT_DGEMM, op, op, 1000, 900, 2000, large_data[di], -3, 0.5, op, 3000};
            run_case(&c);
        }

    gt_group("TF32 math mode on the handle: true binary32 products all the same");
    GT_CUBLAS(cublasSetMathMode(handle, CUBLAS_TF32_TENSOR_OP_MATH));
    {
        case_t c = {GT_DGEMM, 0, 0, 256, 256, 4096, D_U5, 1, 0, 0, 500};
        run_case(&c);
    }
    cublasMath_t mm;
    GT_CUBLAS(cublasGetMathMode(handle, &mm));
    if (mm != CUBLAS_TF32_TENSOR_OP_MATH)
        gt_fail("the handle's math mode changed to %d", (int)mm);
    GT_CUBLAS(cublasSetMathMode(handle, CUBLAS_DEFAULT_MATH));

    gt_end_group();
    printf("%ld outputs checked; the largest error was %.3g of its bound\n", checked_all,
           worst_all);
    gain();

    cudaFree(d_ab);
    cublasDestroy_v2(handle);
    unlink(log_path);
    return gt_finish();
}
