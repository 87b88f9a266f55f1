/* test_intercept.c — interception of every hooked routine, through the preloaded shim, in a
 * program linked directly to the stand-in libcublas.so.13.
 *
 * The program runs itself as children with chosen environments:
 *   calls           every intercepted routine, valid, invalid, quick-return, failing and
 *                   forwarded forms; after each call: the status is the stand-in's, the stand-in
 *                   saw exactly that one call, the result equals a reference and is bitwise the
 *                   unshimmed stand-in's, and the trace log (EXBLAS_LOG=trace, EXBLAS_LOG_FILE)
 *                   got exactly the one expected line.
 *   summary         a known mix of calls, for EXBLAS_SUMMARY=<file> / =1 / =0
 *   summary-threads DDOT and DGEMV from 4 threads started together (counts must not be lost)
 *   summary-none    no intercepted call
 * and the parent checks the exit summaries. */
#include "common.h"
#include "fake_cublas.h"

#include <dlfcn.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---------- the two ways in: through the shim, and straight into the stand-in ---------- */

typedef struct {
    __typeof__(&cublasDgemm_v2) dgemm;
    __typeof__(&cublasDgemm_v2_64) dgemm64;
    __typeof__(&cublasDgemmStridedBatched) sb;
    __typeof__(&cublasDgemmStridedBatched_64) sb64;
    __typeof__(&cublasGemmEx) ex;
    __typeof__(&cublasGemmEx_64) ex64;
    __typeof__(&cublasGemmStridedBatchedEx) sbex;
    __typeof__(&cublasGemmStridedBatchedEx_64) sbex64;
    __typeof__(&cublasDgemv_v2) dgemv;
    __typeof__(&cublasDgemv_v2_64) dgemv64;
    __typeof__(&cublasDdot_v2) ddot;
    __typeof__(&cublasDdot_v2_64) ddot64;
    __typeof__(&cublasDestroy_v2) destroy;
} fns;

static const fns shim = {cublasDgemm_v2, cublasDgemm_v2_64, cublasDgemmStridedBatched,
                         cublasDgemmStridedBatched_64, cublasGemmEx, cublasGemmEx_64,
                         cublasGemmStridedBatchedEx, cublasGemmStridedBatchedEx_64,
                         cublasDgemv_v2, cublasDgemv_v2_64, cublasDdot_v2, cublasDdot_v2_64,
                         cublasDestroy_v2};
static fns raw;

static void *raw_sym(void *lib, const char *name)
{
    void *p = dlsym(lib, name);
    CHECK(p, "dlsym(libcublas.so.13, %s): %s", name, dlerror());
    Dl_info info;
    CHECK(dladdr(p, &info) && strstr(info.dli_fname, "libcublas.so.13"),
          "%s from the libcublas handle is not in the stand-in", name);
    return p;
}

#define RAW(field, name) memcpy(&raw.field, &(void *){raw_sym(lib, name)}, sizeof raw.field)

static void load_raw(void)
{
    void *lib = dlopen("libcublas.so.13", RTLD_NOW | RTLD_NOLOAD);
    CHECK(lib, "libcublas.so.13 is not loaded: %s", dlerror());
    RAW(dgemm, "cublasDgemm_v2");
    RAW(dgemm64, "cublasDgemm_v2_64");
    RAW(sb, "cublasDgemmStridedBatched");
    RAW(sb64, "cublasDgemmStridedBatched_64");
    RAW(ex, "cublasGemmEx");
    RAW(ex64, "cublasGemmEx_64");
    RAW(sbex, "cublasGemmStridedBatchedEx");
    RAW(sbex64, "cublasGemmStridedBatchedEx_64");
    RAW(dgemv, "cublasDgemv_v2");
    RAW(dgemv64, "cublasDgemv_v2_64");
    RAW(ddot, "cublasDdot_v2");
    RAW(ddot64, "cublasDdot_v2_64");
    RAW(destroy, "cublasDestroy_v2");
    /* The program's own references must land in the shim, not here. */
    void *mine[] = {(void *)(uintptr_t)shim.dgemm, (void *)(uintptr_t)shim.ddot64,
                    (void *)(uintptr_t)shim.sbex64, (void *)(uintptr_t)shim.destroy};
    for (size_t i = 0; i < sizeof mine / sizeof mine[0]; i++) {
        Dl_info info;
        CHECK(dladdr(mine[i], &info) && strstr(info.dli_fname, "libdfshim.so"),
              "the program's cuBLAS reference %zu does not resolve into libdfshim.so", i);
    }
}

/* ---------- bookkeeping ---------- */

static log_cursor logc;
static cublasHandle_t H_host, H_dev;
static long expect_count[3]; /* dgemm, dgemv, ddot calls the shim should have counted */

typedef struct {
    long entry, total;
} snap;

static snap snap_of(const char *entry)
{
    return (snap){fake_cublas_calls(entry), fake_cublas_calls(NULL)};
}

static void expect_one_call(const char *what, const char *entry, snap before)
{
    snap now = snap_of(entry);
    CHECK(now.entry == before.entry + 1 && now.total == before.total + 1,
          "%s: the stand-in saw %ld call(s) of %s and %ld call(s) in all; expected exactly 1",
          what, now.entry - before.entry, entry, now.total - before.total);
}

static cublasHandle_t handle_of(int kind)
{
    return kind == 0 ? H_host : kind == 1 ? H_dev : NULL;
}

static char op_char(cublasOperation_t op)
{
    return op == CUBLAS_OP_N ? 'N' : op == CUBLAS_OP_T ? 'T' : op == CUBLAS_OP_C ? 'C' : '?';
}

static int64_t clamp(int64_t v, int64_t lo, int64_t hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

static void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);
    CHECK(p, "out of memory");
    return p;
}

#define OK CUBLAS_STATUS_SUCCESS
#define INV CUBLAS_STATUS_INVALID_VALUE
#define NOINIT CUBLAS_STATUS_NOT_INITIALIZED
#define NOSUP CUBLAS_STATUS_NOT_SUPPORTED
#define INVALID " (invalid arguments)"
#define QUICK " (quick return)"

/* ---------- GEMM family, FP64 ---------- */

typedef enum { G_DGEMM, G_DGEMM64, G_SB, G_SB64, G_EX, G_EX64, G_SBEX, G_SBEX64 } gapi;
static const char *const gapi_name[] = {
    "cublasDgemm_v2", "cublasDgemm_v2_64", "cublasDgemmStridedBatched",
    "cublasDgemmStridedBatched_64", "cublasGemmEx", "cublasGemmEx_64",
    "cublasGemmStridedBatchedEx", "cublasGemmStridedBatchedEx_64"};

typedef struct {
    gapi api;
    cublasOperation_t ta, tb;
    int64_t m, n, k, lda, ldb, ldc;
    long long sA, sB, sC;
    int64_t batch; /* 0 in the table means 1 for the non-batched forms */
    double alpha, beta;
    int handle; /* 0: host pointer mode, 1: device pointer mode, 2: NULL */
    int nan_c;  /* C starts as NaN (beta must be 0) */
    cublasComputeType_t ctype; /* GemmEx forms; 0 = CUBLAS_COMPUTE_64F */
    cublasGemmAlgo_t algo;     /* GemmEx forms */
    cublasStatus_t expect;
    const char *why; /* "", INVALID or QUICK: the trace suffix */
    cublasStatus_t inject; /* the stand-in fails the call with this status */
} gcase;

static int is_ex(gapi a)
{
    return a >= G_EX;
}

static int is_batched(gapi a)
{
    return a == G_SB || a == G_SB64 || a == G_SBEX || a == G_SBEX64;
}

static cublasStatus_t call_gemm(const fns *f, const gcase *c, cublasHandle_t h, const double *al,
                                const double *A, const double *B, const double *be, double *C)
{
    const cudaDataType D = CUDA_R_64F;
    int m = (int)c->m, n = (int)c->n, k = (int)c->k, lda = (int)c->lda, ldb = (int)c->ldb,
        ldc = (int)c->ldc, b = (int)c->batch;
    switch (c->api) {
    case G_DGEMM:
        return f->dgemm(h, c->ta, c->tb, m, n, k, al, A, lda, B, ldb, be, C, ldc);
    case G_DGEMM64:
        return f->dgemm64(h, c->ta, c->tb, c->m, c->n, c->k, al, A, c->lda, B, c->ldb, be, C,
                          c->ldc);
    case G_SB:
        return f->sb(h, c->ta, c->tb, m, n, k, al, A, lda, c->sA, B, ldb, c->sB, be, C, ldc, c->sC,
                     b);
    case G_SB64:
        return f->sb64(h, c->ta, c->tb, c->m, c->n, c->k, al, A, c->lda, c->sA, B, c->ldb, c->sB,
                       be, C, c->ldc, c->sC, c->batch);
    case G_EX:
        return f->ex(h, c->ta, c->tb, m, n, k, al, A, D, lda, B, D, ldb, be, C, D, ldc, c->ctype,
                     c->algo);
    case G_EX64:
        return f->ex64(h, c->ta, c->tb, c->m, c->n, c->k, al, A, D, c->lda, B, D, c->ldb, be, C, D,
                       c->ldc, c->ctype, c->algo);
    case G_SBEX:
        return f->sbex(h, c->ta, c->tb, m, n, k, al, A, D, lda, c->sA, B, D, ldb, c->sB, be, C, D,
                       ldc, c->sC, b, c->ctype, c->algo);
    case G_SBEX64:
        return f->sbex64(h, c->ta, c->tb, c->m, c->n, c->k, al, A, D, c->lda, c->sA, B, D, c->ldb,
                         c->sB, be, C, D, c->ldc, c->sC, c->batch, c->ctype, c->algo);
    }
    FAIL("bad api");
}

static void check_last_ex(const char *what, const char *entry, cublasHandle_t h,
                          cublasOperation_t ta, cublasOperation_t tb, int64_t m, int64_t n,
                          int64_t k, const void *al, const void *A, cudaDataType at, int64_t lda,
                          long long sA, const void *B, cudaDataType bt, int64_t ldb, long long sB,
                          const void *be, const void *C, cudaDataType ct, int64_t ldc,
                          long long sC, int64_t batch, cublasComputeType_t ctype,
                          cublasGemmAlgo_t algo)
{
    const fake_gemmex_args *x = fake_cublas_last_gemmex();
    CHECK(x->entry && !strcmp(x->entry, entry), "%s: the stand-in's last GemmEx call was %s", what,
          x->entry ? x->entry : "none");
    CHECK(x->handle == h && x->transa == ta && x->transb == tb && x->m == m && x->n == n &&
              x->k == k && x->alpha == al && x->A == A && x->Atype == at && x->lda == lda &&
              x->strideA == sA && x->B == B && x->Btype == bt && x->ldb == ldb &&
              x->strideB == sB && x->beta == be && x->C == C && x->Ctype == ct && x->ldc == ldc &&
              x->strideC == sC && x->batch == batch,
          "%s: the stand-in received different arguments than the application passed", what);
    CHECK(x->compute == ctype && x->algo == algo,
          "%s: compute type %d / algo %d reached the stand-in as %d / %d", what, (int)ctype,
          (int)algo, (int)x->compute, (int)x->algo);
}

static void run_gemm(const gcase *c0, int idx)
{
    gcase c = *c0;
    char what[64];
    snprintf(what, sizeof what, "gemm case %d (%s)", idx, gapi_name[c.api]);
    if (!c.batch && !is_batched(c.api))
        c.batch = 1;
    if (is_ex(c.api) && !c.ctype)
        c.ctype = CUBLAS_COMPUTE_64F;
    int forwarded = is_ex(c.api) && c.ctype != CUBLAS_COMPUTE_64F;

    /* Buffers big enough for every valid call; invalid sizes are clamped (nothing is read). */
    int64_t m = clamp(c.m, 0, 64), n = clamp(c.n, 0, 64), k = clamp(c.k, 0, 64);
    int64_t nb = clamp(c.batch, 1, 16);
    int64_t ca = c.ta == CUBLAS_OP_N ? k : m, cb = c.tb == CUBLAS_OP_N ? n : k;
    size_t nA = (size_t)(clamp(c.lda, 1, 128) * ca + llabs(c.sA) * (nb - 1));
    size_t nB = (size_t)(clamp(c.ldb, 1, 128) * cb + llabs(c.sB) * (nb - 1));
    size_t nC = (size_t)(clamp(c.ldc, 1, 128) * n + llabs(c.sC) * (nb - 1));
    double *A = xcalloc(nA, sizeof *A), *B = xcalloc(nB, sizeof *B);
    double *C = xcalloc(nC, sizeof *C), *C0 = xcalloc(nC, sizeof *C);
    double *Craw = xcalloc(nC, sizeof *C), *Cref = xcalloc(nC, sizeof *C);
    double *al = xcalloc(1, sizeof *al), *be = xcalloc(1, sizeof *be);
    fill_ints(A, nA, (unsigned)idx * 3 + 1);
    fill_ints(B, nB, (unsigned)idx * 3 + 2);
    fill_ints(C0, nC, (unsigned)idx * 3 + 3);
    if (c.nan_c)
        for (size_t i = 0; i < nC; i++)
            C0[i] = NAN;
    *al = c.alpha;
    *be = c.beta;
    memcpy(C, C0, nC * sizeof *C);
    cublasHandle_t h = handle_of(c.handle);

    snap before = snap_of(gapi_name[c.api]);
    if (c.inject)
        fake_cublas_fail_next(gapi_name[c.api], c.inject);
    cublasStatus_t st = call_gemm(&shim, &c, h, al, A, B, be, C);
    expect_one_call(what, gapi_name[c.api], before);
    cublasStatus_t want = c.inject ? c.inject : c.expect;
    CHECK(st == want, "%s: status %d, expected %d", what, (int)st, (int)want);

    char line[512];
    if (forwarded)
        snprintf(line, sizeof line,
                 "dfshim: %s m=%lld n=%lld k=%lld -> forwarded (not an FP64 product) status=%d",
                 gapi_name[c.api], (long long)c.m, (long long)c.n, (long long)c.k, (int)want);
    else
        snprintf(line, sizeof line,
                 "dfshim: %s op=%c%c m=%lld n=%lld k=%lld batch=%lld -> native%s status=%d",
                 gapi_name[c.api], op_char(c.ta), op_char(c.tb), (long long)c.m, (long long)c.n,
                 (long long)c.k, (long long)c.batch, c.why, (int)want);
    log_expect_line(&logc, line);
    if (!forwarded)
        expect_count[0]++;
    if (is_ex(c.api) && !c.inject) /* an injected failure returns before recording */
        check_last_ex(what, gapi_name[c.api], h, c.ta, c.tb, c.m, c.n, c.k, al, A, CUDA_R_64F,
                      c.lda, is_batched(c.api) ? c.sA : 0, B, CUDA_R_64F, c.ldb,
                      is_batched(c.api) ? c.sB : 0, be, C, CUDA_R_64F, c.ldc,
                      is_batched(c.api) ? c.sC : 0, c.batch, c.ctype, c.algo);

    /* The reference. */
    memcpy(Cref, C0, nC * sizeof *C);
    if (want == OK)
        for (int64_t b = 0; b < (c.m > 0 && c.n > 0 ? c.batch : 0); b++)
            ref_dgemm(c.ta, c.tb, c.m, c.n, c.k, c.alpha, A + b * c.sA, c.lda, B + b * c.sB, c.ldb,
                      c.beta, Cref + b * c.sC, c.ldc);
    long d = first_diff(C, Cref, nC);
    CHECK(d < 0, "%s: C[%ld] = %g, reference %g", what, d, d < 0 ? 0 : C[d], d < 0 ? 0 : Cref[d]);

    /* The same call straight into the stand-in: same status, same bits. */
    if (!c.inject) {
        memcpy(Craw, C0, nC * sizeof *C);
        cublasStatus_t st2 = call_gemm(&raw, &c, h, al, A, B, be, Craw);
        CHECK(st2 == st, "%s: the stand-in alone returns %d, through the shim %d", what, (int)st2,
              (int)st);
        CHECK(!memcmp(C, Craw, nC * sizeof *C), "%s: result differs from the stand-in's bits",
              what);
    }
    log_expect_nothing(&logc);
    free(A), free(B), free(C), free(C0), free(Craw), free(Cref), free(al), free(be);
}

#define TOOBIG (-(1LL << 32) + 3) /* negative in 64 bits, 3 if truncated to int */
#define N_ CUBLAS_OP_N
#define T_ CUBLAS_OP_T
#define C_ CUBLAS_OP_C

static const gcase gemm_cases[] = {
    /* every op pair, padded leading dimensions */
    {G_DGEMM, N_, N_, 3, 4, 5, 3, 5, 3, 0, 0, 0, 0, 2, -1, 0, 0, 0, 0, OK, "", 0},
    {G_DGEMM, N_, T_, 3, 4, 5, 4, 6, 5, 0, 0, 0, 0, 1, 0.5, 0, 0, 0, 0, OK, "", 0},
    {G_DGEMM, N_, C_, 3, 4, 5, 3, 4, 3, 0, 0, 0, 0, -1, 1, 0, 0, 0, 0, OK, "", 0},
    {G_DGEMM, T_, N_, 3, 4, 5, 5, 5, 4, 0, 0, 0, 0, 3, 2, 0, 0, 0, 0, OK, "", 0},
    {G_DGEMM, T_, T_, 3, 4, 5, 7, 4, 3, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, OK, "", 0},
    {G_DGEMM, T_, C_, 3, 4, 5, 5, 4, 3, 0, 0, 0, 0, 0.25, -2, 0, 0, 0, 0, OK, "", 0},
    {G_DGEMM, C_, N_, 3, 4, 5, 5, 5, 3, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, OK, "", 0},
    {G_DGEMM, C_, T_, 3, 4, 5, 6, 4, 3, 0, 0, 0, 0, 2, 0, 0, 1, 0, 0, OK, "", 0},
    {G_DGEMM, C_, C_, 3, 4, 5, 5, 4, 8, 0, 0, 0, 0, -0.5, 3, 0, 0, 0, 0, OK, "", 0},
    /* device pointer mode */
    {G_DGEMM, T_, N_, 4, 2, 3, 3, 3, 4, 0, 0, 0, 0, 2, -1, 1, 0, 0, 0, OK, "", 0},
    /* beta == 0 never reads C (NaN there) */
    {G_DGEMM, N_, N_, 6, 5, 4, 6, 4, 7, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, OK, "", 0},
    {G_DGEMM64, N_, T_, 2, 3, 4, 2, 3, 2, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, OK, "", 0},
    {G_DGEMM64, C_, T_, 5, 3, 2, 2, 3, 6, 0, 0, 0, 0, -1, 0.5, 1, 0, 0, 0, OK, "", 0},
    {G_SB, T_, N_, 3, 2, 4, 4, 4, 3, 16, 8, 6, 3, 1, -1, 0, 0, 0, 0, OK, "", 0},
    {G_SB64, N_, N_, 2, 3, 2, 2, 2, 2, 0, 6, 6, 2, 2, 1, 0, 0, 0, 0, OK, "", 0}, /* sA = 0 */
    {G_SB64, N_, C_, 3, 3, 3, 3, 3, 3, 9, 9, 9, 4, 1, 0, 1, 1, 0, 0, OK, "", 0},
    {G_EX, N_, N_, 3, 4, 5, 3, 5, 3, 0, 0, 0, 0, 1, 1, 0, 0, 0, CUBLAS_GEMM_DEFAULT, OK, "", 0},
    {G_EX, T_, C_, 2, 2, 2, 2, 2, 2, 0, 0, 0, 0, 1, 0, 1, 0, 0, CUBLAS_GEMM_DEFAULT, OK, "", 0},
    {G_EX64, T_, T_, 4, 3, 2, 2, 3, 4, 0, 0, 0, 0, 2, 1, 0, 0, 0, CUBLAS_GEMM_DEFAULT_TENSOR_OP,
     OK, "", 0},
    {G_SBEX, N_, T_, 3, 3, 2, 3, 3, 3, 6, 6, 9, 2, 1, 2, 0, 0, 0, CUBLAS_GEMM_DEFAULT, OK, "", 0},
    {G_SBEX64, C_, N_, 2, 4, 3, 3, 3, 2, 6, 12, 8, 3, -1, 0, 0, 1, 0, CUBLAS_GEMM_ALGO3, OK, "",
     0},
    /* FP64 data with a non-default FP64 compute type: forwarded untouched */
    {G_EX, N_, N_, 3, 3, 3, 3, 3, 3, 0, 0, 0, 0, 1, 1, 0, 0, CUBLAS_COMPUTE_64F_PEDANTIC,
     CUBLAS_GEMM_DEFAULT, OK, "", 0},
    {G_SBEX64, T_, N_, 2, 2, 2, 2, 2, 2, 4, 4, 4, 2, 1, 0, 0, 0, CUBLAS_COMPUTE_64F_PEDANTIC,
     CUBLAS_GEMM_DEFAULT, OK, "", 0},
    /* invalid arguments: the stand-in's status, untouched C */
    {G_DGEMM, N_, N_, 3, 4, 5, 3, 5, 3, 0, 0, 0, 0, 1, 1, 2, 0, 0, 0, NOINIT, INVALID, 0},
    {G_DGEMM, N_, N_, -1, 4, 5, 3, 5, 3, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, INV, INVALID, 0},
    {G_DGEMM, N_, N_, 3, -4, 5, 3, 5, 3, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, INV, INVALID, 0},
    {G_DGEMM, N_, N_, 3, 4, -5, 3, 5, 3, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, INV, INVALID, 0},
    {G_DGEMM, (cublasOperation_t)7, N_, 3, 4, 5, 5, 5, 3, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, INV,
     INVALID, 0},
    {G_DGEMM, N_, (cublasOperation_t)-1, 3, 4, 5, 3, 5, 3, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, INV,
     INVALID, 0},
    {G_DGEMM, N_, N_, 3, 4, 5, 2, 5, 3, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, INV, INVALID, 0},
    {G_DGEMM, T_, N_, 3, 4, 5, 4, 5, 3, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, INV, INVALID, 0},
    {G_DGEMM, N_, N_, 3, 4, 5, 3, 4, 3, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, INV, INVALID, 0},
    {G_DGEMM, N_, T_, 3, 4, 5, 3, 3, 3, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, INV, INVALID, 0},
    {G_DGEMM, N_, N_, 3, 4, 5, 3, 5, 2, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, INV, INVALID, 0},
    {G_DGEMM, N_, N_, 0, 4, 5, 1, 5, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, INV, INVALID, 0},
    {G_DGEMM64, N_, N_, TOOBIG, 2, 2, 3, 2, 3, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, INV, INVALID, 0},
    {G_DGEMM64, N_, N_, 3, 4, 5, 3, 5, 3, 0, 0, 0, 0, 1, 1, 2, 0, 0, 0, NOINIT, INVALID, 0},
    {G_SB, N_, N_, 2, 2, 2, 2, 2, 2, 4, 4, 4, -1, 1, 1, 0, 0, 0, 0, INV, INVALID, 0},
    {G_SB64, N_, N_, 2, 2, 2, 2, 2, 2, 4, 4, 4, TOOBIG, 1, 1, 0, 0, 0, 0, INV, INVALID, 0},
    {G_EX, N_, N_, 3, 4, 5, 3, 5, 2, 0, 0, 0, 0, 1, 1, 0, 0, 0, CUBLAS_GEMM_DEFAULT, INV, INVALID,
     0},
    {G_EX64, N_, N_, 3, 4, 5, 3, 5, 3, 0, 0, 0, 0, 1, 1, 2, 0, 0, CUBLAS_GEMM_DEFAULT, NOINIT,
     INVALID, 0},
    {G_SBEX, N_, N_, 2, 2, 2, 2, 2, 2, 4, 4, 4, -3, 1, 1, 0, 0, 0, CUBLAS_GEMM_DEFAULT, OK,
     QUICK, 0},
    {G_SBEX64, T_, N_, 2, 2, 3, 2, 3, 2, 6, 6, 4, 2, 1, 1, 0, 0, 0, CUBLAS_GEMM_DEFAULT, INV,
     INVALID, 0},
    /* quick returns: m, n or batch 0 leave C alone; k = 0 scales C by beta */
    {G_DGEMM, N_, N_, 0, 4, 5, 1, 5, 1, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, OK, QUICK, 0},
    {G_DGEMM, N_, N_, 3, 0, 5, 3, 5, 3, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, OK, QUICK, 0},
    {G_DGEMM, N_, N_, 3, 4, 0, 3, 1, 3, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, OK, QUICK, 0},
    {G_DGEMM64, T_, N_, 3, 4, 0, 1, 1, 3, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, OK, QUICK, 0},
    {G_SB, N_, N_, 2, 2, 2, 2, 2, 2, 4, 4, 4, 0, 1, 1, 0, 0, 0, 0, OK, QUICK, 0},
    {G_SBEX64, N_, N_, 2, 2, 0, 2, 1, 2, 0, 0, 4, 2, 1, -1, 0, 0, 0, CUBLAS_GEMM_DEFAULT, OK,
     QUICK, 0},
    /* a failure of the real library comes back as is */
    {G_DGEMM, N_, N_, 3, 4, 5, 3, 5, 3, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, OK, "",
     CUBLAS_STATUS_EXECUTION_FAILED},
    {G_SB64, N_, N_, 2, 2, 2, 2, 2, 2, 4, 4, 4, 2, 1, 1, 0, 0, 0, 0, OK, "",
     CUBLAS_STATUS_ARCH_MISMATCH},
    {G_EX, N_, N_, 3, 4, 5, 3, 5, 3, 0, 0, 0, 0, 1, 1, 0, 0, 0, CUBLAS_GEMM_DEFAULT, OK, "",
     CUBLAS_STATUS_INTERNAL_ERROR},
};

/* ---------- GemmEx with non-FP64 types: forwarded untouched ---------- */

typedef struct {
    gapi api; /* one of the four Ex forms */
    cudaDataType at, bt, ct;
    cublasComputeType_t ctype;
    int64_t m, n, k, batch;
    cublasStatus_t expect;
} fcase;

static const fcase fwd_cases[] = {
    {G_EX, CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F, 3, 4, 5, 1, OK},
    {G_EX64, CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32, 4, 2, 3, 1, OK},
    {G_SBEX, CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F_PEDANTIC, 2, 3, 2, 3, OK},
    {G_SBEX64, CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F, 3, 2, 4, 2, OK},
    /* FP64 A and B but an FP32 C, and FP16 A: not FP64 products; the stand-in refuses them */
    {G_EX, CUDA_R_64F, CUDA_R_64F, CUDA_R_32F, CUBLAS_COMPUTE_64F, 2, 2, 2, 1, NOSUP},
    {G_EX64, CUDA_R_16F, CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F, 2, 2, 2, 1, NOSUP},
    /* FP64 data, FP32 compute: not an FP64 product either */
    {G_SBEX, CUDA_R_64F, CUDA_R_64F, CUDA_R_64F, CUBLAS_COMPUTE_32F, 2, 2, 2, 2, NOSUP},
    /* invalid sizes are the stand-in's business: forwarded as well */
    {G_EX, CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F, -2, 2, 2, 1, INV},
};

static cublasStatus_t call_fwd(const fns *f, const fcase *c, cublasHandle_t h, const void *al,
                               const void *A, const void *B, const void *be, void *C,
                               cublasOperation_t ta, cublasOperation_t tb, int64_t lda,
                               int64_t ldb, int64_t ldc, long long sA, long long sB, long long sC,
                               cublasGemmAlgo_t algo)
{
    switch (c->api) {
    case G_EX:
        return f->ex(h, ta, tb, (int)c->m, (int)c->n, (int)c->k, al, A, c->at, (int)lda, B, c->bt,
                     (int)ldb, be, C, c->ct, (int)ldc, c->ctype, algo);
    case G_EX64:
        return f->ex64(h, ta, tb, c->m, c->n, c->k, al, A, c->at, lda, B, c->bt, ldb, be, C, c->ct,
                       ldc, c->ctype, algo);
    case G_SBEX:
        return f->sbex(h, ta, tb, (int)c->m, (int)c->n, (int)c->k, al, A, c->at, (int)lda, sA, B,
                       c->bt, (int)ldb, sB, be, C, c->ct, (int)ldc, sC, (int)c->batch, c->ctype,
                       algo);
    case G_SBEX64:
        return f->sbex64(h, ta, tb, c->m, c->n, c->k, al, A, c->at, lda, sA, B, c->bt, ldb, sB, be,
                         C, c->ct, ldc, sC, c->batch, c->ctype, algo);
    default:
        FAIL("bad api");
    }
}

static void run_fwd(const fcase *c, int idx)
{
    char what[64];
    snprintf(what, sizeof what, "forwarded case %d (%s)", idx, gapi_name[c->api]);
    const cublasOperation_t ta = CUBLAS_OP_T, tb = CUBLAS_OP_N;
    int64_t m = clamp(c->m, 1, 64), n = c->n, k = c->k;
    int64_t lda = k, ldb = k, ldc = m + 1;
    long long sA = lda * m, sB = ldb * n, sC = ldc * n;
    size_t nA = (size_t)(sA * c->batch), nB = (size_t)(sB * c->batch), nC = (size_t)(sC * c->batch);
    float *A = xcalloc(nA, sizeof *A), *B = xcalloc(nB, sizeof *B);
    float *C = xcalloc(nC, sizeof *C), *C0 = xcalloc(nC, sizeof *C);
    float *Craw = xcalloc(nC, sizeof *C), *Cref = xcalloc(nC, sizeof *C);
    float al = 2, be = -1;
    fill_ints_f(A, nA, (unsigned)idx + 100);
    fill_ints_f(B, nB, (unsigned)idx + 200);
    fill_ints_f(C0, nC, (unsigned)idx + 300);
    memcpy(C, C0, nC * sizeof *C);
    const cublasGemmAlgo_t algo = CUBLAS_GEMM_ALGO5;
    int batched = is_batched(c->api);

    snap before = snap_of(gapi_name[c->api]);
    cublasStatus_t st = call_fwd(&shim, c, H_host, &al, A, B, &be, C, ta, tb, lda, ldb, ldc, sA,
                                 sB, sC, algo);
    expect_one_call(what, gapi_name[c->api], before);
    CHECK(st == c->expect, "%s: status %d, expected %d", what, (int)st, (int)c->expect);
    char line[512];
    snprintf(line, sizeof line,
             "dfshim: %s m=%lld n=%lld k=%lld -> forwarded (not an FP64 product) status=%d",
             gapi_name[c->api], (long long)c->m, (long long)n, (long long)k, (int)c->expect);
    log_expect_line(&logc, line);
    check_last_ex(what, gapi_name[c->api], H_host, ta, tb, c->m, n, k, &al, A, c->at, lda,
                  batched ? sA : 0, B, c->bt, ldb, batched ? sB : 0, &be, C, c->ct, ldc,
                  batched ? sC : 0, batched ? c->batch : 1, c->ctype, algo);

    memcpy(Cref, C0, nC * sizeof *C);
    if (st == OK)
        for (int64_t b = 0; b < c->batch; b++)
            ref_sgemm(ta, tb, m, n, k, al, A + b * sA, lda, B + b * sB, ldb, be, Cref + b * sC,
                      ldc);
    CHECK(!memcmp(C, Cref, nC * sizeof *C), "%s: result differs from the reference", what);
    memcpy(Craw, C0, nC * sizeof *C);
    cublasStatus_t st2 = call_fwd(&raw, c, H_host, &al, A, B, &be, Craw, ta, tb, lda, ldb, ldc, sA,
                                  sB, sC, algo);
    CHECK(st2 == st && !memcmp(C, Craw, nC * sizeof *C),
          "%s: differs from the stand-in called directly", what);
    log_expect_nothing(&logc);
    free(A), free(B), free(C), free(C0), free(Craw), free(Cref);
}

/* ---------- GEMV ---------- */

typedef struct {
    int is64;
    cublasOperation_t t;
    int64_t m, n, lda, incx, incy;
    double alpha, beta;
    int handle, nan_y;
    cublasStatus_t expect;
    const char *why;
    cublasStatus_t inject;
} vcase;

static const vcase gemv_cases[] = {
    {0, N_, 4, 3, 5, 1, 1, 2, -1, 0, 0, OK, "", 0},
    {0, T_, 4, 3, 4, 2, -1, 1, 1, 0, 0, OK, "", 0},
    {0, C_, 5, 2, 6, -2, 3, -1, 0.5, 0, 0, OK, "", 0},
    {0, N_, 3, 5, 3, -1, -2, 1, 0, 0, 1, OK, "", 0},
    {0, T_, 3, 3, 3, 1, 1, 2, 2, 1, 0, OK, "", 0},
    {0, N_, 3, 3, 3, 1, 1, 0, 1, 0, 0, OK, "", 0}, /* alpha 0, beta 1: nothing to do */
    {1, N_, 6, 2, 6, -1, 1, 1, 1, 0, 0, OK, "", 0},
    {1, T_, 2, 6, 3, 3, -3, -2, 0, 1, 1, OK, "", 0},
    {1, C_, 4, 4, 4, 1, 2, 1, -1, 0, 0, OK, "", 0},
    /* invalid (cuBLAS 13.1: only lda and the handle) */
    {0, T_, 4, 3, 3, 1, 1, 1, 1, 0, 0, INV, INVALID, 0},
    {0, N_, 4, 3, 4, 1, 1, 1, 1, 2, 0, NOINIT, INVALID, 0},
    {1, N_, TOOBIG, 3, 4, 1, 1, 1, 1, 0, 0, OK, QUICK, 0}, /* negative as int64 */
    {1, T_, 4, 3, 4, 1, 1, 1, 1, 2, 0, NOINIT, INVALID, 0},
    /* SUCCESS without computing (cuBLAS 13.1): zero increments, bad op, negative sizes */
    {0, N_, 4, 3, 4, 0, 1, 1, 1, 0, 0, OK, QUICK, 0},
    {0, N_, 4, 3, 4, 1, 0, 1, 1, 0, 0, OK, QUICK, 0},
    {0, (cublasOperation_t)3, 4, 3, 4, 1, 1, 1, 1, 0, 0, OK, QUICK, 0},
    {0, N_, -1, 3, 4, 1, 1, 1, 1, 0, 0, OK, QUICK, 0},
    {0, N_, 4, -3, 4, 1, 1, 1, 1, 0, 0, OK, QUICK, 0},
    {1, T_, 4, 3, 4, 1, 0, 1, 1, 0, 0, OK, QUICK, 0},
    /* quick returns */
    {0, N_, 0, 3, 1, 1, 1, 1, 1, 0, 0, OK, QUICK, 0},
    {0, T_, 4, 0, 4, 1, 1, 1, 1, 0, 0, OK, QUICK, 0},
    {1, N_, 4, 0, 4, -1, -1, 1, 0, 0, 0, OK, QUICK, 0},
    /* the real library fails */
    {0, N_, 4, 3, 5, 1, 1, 2, -1, 0, 0, OK, "", CUBLAS_STATUS_MAPPING_ERROR},
    {1, T_, 4, 3, 5, 1, 1, 2, -1, 0, 0, OK, "", CUBLAS_STATUS_EXECUTION_FAILED},
};

static void run_gemv(const vcase *c, int idx)
{
    const char *name = c->is64 ? "cublasDgemv_v2_64" : "cublasDgemv_v2";
    char what[64];
    snprintf(what, sizeof what, "gemv case %d (%s)", idx, name);
    int64_t m = clamp(c->m, 0, 64), n = clamp(c->n, 0, 64);
    int64_t lenx = c->t == CUBLAS_OP_N ? n : m, leny = c->t == CUBLAS_OP_N ? m : n;
    size_t nA = (size_t)(clamp(c->lda, 1, 128) * n) + 1;
    size_t nx = (size_t)(lenx * (llabs(c->incx) + 1)) + 1;
    size_t ny = (size_t)(leny * (llabs(c->incy) + 1)) + 1;
    double *A = xcalloc(nA, sizeof *A), *x = xcalloc(nx, sizeof *x);
    double *y = xcalloc(ny, sizeof *y), *y0 = xcalloc(ny, sizeof *y);
    double *yraw = xcalloc(ny, sizeof *y), *yref = xcalloc(ny, sizeof *y);
    double *al = xcalloc(1, sizeof *al), *be = xcalloc(1, sizeof *be);
    fill_ints(A, nA, (unsigned)idx + 11);
    fill_ints(x, nx, (unsigned)idx + 12);
    fill_ints(y0, ny, (unsigned)idx + 13);
    if (c->nan_y)
        for (size_t i = 0; i < ny; i++)
            y0[i] = NAN;
    *al = c->alpha;
    *be = c->beta;
    memcpy(y, y0, ny * sizeof *y);
    cublasHandle_t h = handle_of(c->handle);

#define GEMV(f, yy)                                                                                \
    (c->is64 ? (f).dgemv64(h, c->t, c->m, c->n, al, A, c->lda, x, c->incx, be, yy, c->incy)       \
             : (f).dgemv(h, c->t, (int)c->m, (int)c->n, al, A, (int)c->lda, x, (int)c->incx, be,  \
                         yy, (int)c->incy))
    snap before = snap_of(name);
    if (c->inject)
        fake_cublas_fail_next(name, c->inject);
    cublasStatus_t st = GEMV(shim, y);
    expect_one_call(what, name, before);
    cublasStatus_t want = c->inject ? c->inject : c->expect;
    CHECK(st == want, "%s: status %d, expected %d", what, (int)st, (int)want);
    char line[512];
    snprintf(line, sizeof line,
             "dfshim: %s op=%c m=%lld n=%lld incx=%lld incy=%lld -> native%s status=%d", name,
             op_char(c->t), (long long)c->m, (long long)c->n, (long long)c->incx,
             (long long)c->incy, c->why, (int)want);
    log_expect_line(&logc, line);
    expect_count[1]++;

    memcpy(yref, y0, ny * sizeof *y);
    if (want == OK && c->why[0] == '\0' && !(c->alpha == 0 && c->beta == 1))
        ref_dgemv(c->t, c->m, c->n, c->alpha, A, c->lda, x, c->incx, c->beta, yref, c->incy);
    long d = first_diff(y, yref, ny);
    CHECK(d < 0, "%s: y[%ld] = %g, reference %g", what, d, d < 0 ? 0 : y[d], d < 0 ? 0 : yref[d]);
    if (!c->inject) {
        memcpy(yraw, y0, ny * sizeof *y);
        cublasStatus_t st2 = GEMV(raw, yraw);
        CHECK(st2 == st, "%s: the stand-in alone returns %d, through the shim %d", what, (int)st2,
              (int)st);
        CHECK(!memcmp(y, yraw, ny * sizeof *y), "%s: result differs from the stand-in's bits",
              what);
    }
#undef GEMV
    log_expect_nothing(&logc);
    free(A), free(x), free(y), free(y0), free(yraw), free(yref), free(al), free(be);
}

/* ---------- DOT ---------- */

typedef struct {
    int is64;
    int64_t n, incx, incy;
    int handle, null_result;
    cublasStatus_t expect;
    const char *why;
    cublasStatus_t inject;
} dcase;

static const dcase dot_cases[] = {
    {0, 7, 1, 1, 0, 0, OK, "", 0},
    {0, 5, 2, -3, 0, 0, OK, "", 0},
    {0, 6, -1, -1, 1, 0, OK, "", 0},
    {0, 4, 0, 1, 0, 0, OK, "", 0}, /* incx 0: x[0] for every element, as BLAS */
    {1, 9, 3, 1, 0, 0, OK, "", 0},
    {1, 3, -2, 2, 1, 0, OK, "", 0},
    {0, 0, 1, 1, 0, 0, OK, QUICK, 0},
    {0, -3, 1, 1, 0, 0, OK, QUICK, 0},
    {1, 0, 1, 1, 1, 0, OK, QUICK, 0},
    {1, TOOBIG, 1, 1, 0, 0, OK, QUICK, 0}, /* 3 if truncated: the result would not be 0 */
    {0, 5, 1, 1, 2, 0, NOINIT, INVALID, 0},
    {1, 5, 1, 1, 2, 0, NOINIT, INVALID, 0},
    {0, 5, 1, 1, 0, 1, INV, INVALID, 0},
    {1, 5, 1, 1, 0, 1, INV, INVALID, 0},
    {0, 5, 1, 1, 0, 0, OK, "", CUBLAS_STATUS_EXECUTION_FAILED},
    {1, 5, 1, 1, 0, 0, OK, "", CUBLAS_STATUS_ALLOC_FAILED},
};

static void run_dot(const dcase *c, int idx)
{
    const char *name = c->is64 ? "cublasDdot_v2_64" : "cublasDdot_v2";
    char what[64];
    snprintf(what, sizeof what, "dot case %d (%s)", idx, name);
    int64_t n = clamp(c->n, 0, 64);
    size_t nx = (size_t)(n * (llabs(c->incx) + 1)) + 1, ny = (size_t)(n * (llabs(c->incy) + 1)) + 1;
    double *x = xcalloc(nx, sizeof *x), *y = xcalloc(ny, sizeof *y);
    double *res = xcalloc(1, sizeof *res), *resraw = xcalloc(1, sizeof *res);
    fill_ints(x, nx, (unsigned)idx + 21);
    fill_ints(y, ny, (unsigned)idx + 22);
    *res = *resraw = 99;
    cublasHandle_t h = handle_of(c->handle);
#define DOT(f, r)                                                                                  \
    (c->is64 ? (f).ddot64(h, c->n, x, c->incx, y, c->incy, c->null_result ? NULL : (r))           \
             : (f).ddot(h, (int)c->n, x, (int)c->incx, y, (int)c->incy,                           \
                        c->null_result ? NULL : (r)))
    snap before = snap_of(name);
    if (c->inject)
        fake_cublas_fail_next(name, c->inject);
    cublasStatus_t st = DOT(shim, res);
    expect_one_call(what, name, before);
    cublasStatus_t want = c->inject ? c->inject : c->expect;
    CHECK(st == want, "%s: status %d, expected %d", what, (int)st, (int)want);
    char line[512];
    snprintf(line, sizeof line, "dfshim: %s n=%lld incx=%lld incy=%lld -> native%s status=%d",
             name, (long long)c->n, (long long)c->incx, (long long)c->incy, c->why, (int)want);
    log_expect_line(&logc, line);
    expect_count[2]++;
    double want_res = want != OK || c->null_result ? 99 : c->n <= 0 ? 0
                                                                    : ref_ddot(c->n, x, c->incx,
                                                                               y, c->incy);
    CHECK(*res == want_res, "%s: result %g, expected %g", what, *res, want_res);
    if (!c->inject) {
        cublasStatus_t st2 = DOT(raw, resraw);
        CHECK(st2 == st && !memcmp(res, resraw, sizeof *res),
              "%s: differs from the stand-in called directly (status %d, result %g)", what,
              (int)st2, *resraw);
    }
#undef DOT
    log_expect_nothing(&logc);
    free(x), free(y), free(res), free(resraw);
}

/* ---------- children ---------- */

static cublasHandle_t create(cublasPointerMode_t pm)
{
    cublasHandle_t h = NULL;
    CHECK(cublasCreate_v2(&h) == OK && h, "cublasCreate_v2 failed");
    CHECK(cublasSetPointerMode_v2(h, pm) == OK, "cublasSetPointerMode_v2 failed");
    return h;
}

static int child_calls(const char *log_path)
{
    require_shim("cublasDgemm_v2");
    load_raw();
    logc.path = log_path;
    H_host = create(CUBLAS_POINTER_MODE_HOST);
    H_dev = create(CUBLAS_POINTER_MODE_DEVICE);
    cudaStream_t stream = (cudaStream_t)(uintptr_t)0x5eed;
    CHECK(cublasSetStream_v2(H_host, stream) == OK, "cublasSetStream_v2 failed");
    log_expect_nothing(&logc); /* handle functions are not intercepted */

    for (size_t i = 0; i < sizeof fwd_cases / sizeof fwd_cases[0]; i++)
        run_fwd(&fwd_cases[i], (int)i);
    for (size_t i = 0; i < sizeof gemm_cases / sizeof gemm_cases[0]; i++)
        run_gemm(&gemm_cases[i], (int)i);
    for (size_t i = 0; i < sizeof gemv_cases / sizeof gemv_cases[0]; i++)
        run_gemv(&gemv_cases[i], (int)i);
    for (size_t i = 0; i < sizeof dot_cases / sizeof dot_cases[0]; i++)
        run_dot(&dot_cases[i], (int)i);

    /* The shim changed neither the stream nor the pointer modes. */
    cudaStream_t s2 = NULL;
    cublasPointerMode_t pm = CUBLAS_POINTER_MODE_HOST;
    CHECK(cublasGetStream_v2(H_host, &s2) == OK && s2 == stream, "the handle's stream changed");
    CHECK(cublasGetPointerMode_v2(H_dev, &pm) == OK && pm == CUBLAS_POINTER_MODE_DEVICE,
          "the handle's pointer mode changed");

    /* cublasDestroy_v2 is hooked: it reaches the stand-in once, and traces nothing. */
    cublasHandle_t handles[2] = {H_host, H_dev};
    for (int i = 0; i < 2; i++) {
        snap before = snap_of("cublasDestroy_v2");
        CHECK(cublasDestroy_v2(handles[i]) == OK, "cublasDestroy_v2 failed");
        expect_one_call("cublasDestroy_v2", "cublasDestroy_v2", before);
    }
    snap before = snap_of("cublasDestroy_v2");
    CHECK(cublasDestroy_v2(NULL) == NOINIT, "cublasDestroy_v2(NULL) is not NOT_INITIALIZED");
    expect_one_call("cublasDestroy_v2(NULL)", "cublasDestroy_v2", before);
    log_expect_nothing(&logc);

    /* A handle created after a destroy (possibly at the same address) works as a new one. */
    H_host = create(CUBLAS_POINTER_MODE_HOST);
    run_gemm(&gemm_cases[0], 0);
    run_dot(&dot_cases[0], 0);
    CHECK(cublasDestroy_v2(H_host) == OK, "cublasDestroy_v2 failed");

    /* For the parent: what the exit summary (into the log, EXBLAS_LOG=trace) must say. */
    printf("%ld %ld %ld\n", expect_count[0], expect_count[1], expect_count[2]);
    return 0;
}

static void small_gemm(cublasHandle_t h, gapi api)
{
    gcase c = {api, N_, T_, 3, 2, 4, 3, 2, 3, 6, 8, 6, 2, 1, 1, 0, 0, 0, CUBLAS_GEMM_DEFAULT, OK,
               "", 0};
    double A[32], B[32], C[32], R[32], al = 2, be = -1;
    fill_ints(A, 32, 1), fill_ints(B, 32, 2), fill_ints(C, 32, 3);
    memcpy(R, C, sizeof R);
    if (is_ex(api))
        c.ctype = CUBLAS_COMPUTE_64F;
    if (!is_batched(api))
        c.batch = 1;
    CHECK(call_gemm(&shim, &c, h, &al, A, B, &be, C) == OK, "%s failed", gapi_name[api]);
    for (int64_t b = 0; b < c.batch; b++)
        ref_dgemm(c.ta, c.tb, 3, 2, 4, al, A + 6 * b, 3, B + 8 * b, 2, be, R + 6 * b, 3);
    CHECK(first_diff(C, R, 32) < 0, "%s: wrong result", gapi_name[api]);
}

static void small_gemv(cublasHandle_t h, int is64)
{
    double A[12], x[4], y[4], r[4], al = 1, be = 2;
    fill_ints(A, 12, 4), fill_ints(x, 4, 5), fill_ints(y, 4, 6);
    memcpy(r, y, sizeof r);
    cublasStatus_t st = is64 ? cublasDgemv_v2_64(h, T_, 4, 3, &al, A, 4, x, 1, &be, y, 1)
                             : cublasDgemv_v2(h, T_, 4, 3, &al, A, 4, x, 1, &be, y, 1);
    CHECK(st == OK, "dgemv failed");
    ref_dgemv(T_, 4, 3, al, A, 4, x, 1, be, r, 1);
    CHECK(first_diff(y, r, 4) < 0, "dgemv: wrong result");
}

static int child_summary(void)
{
    require_shim("cublasDgemm_v2");
    cublasHandle_t h = create(CUBLAS_POINTER_MODE_HOST);
    /* dgemm family: 6 counted calls (one of them invalid); 2 FP32 GemmEx, not counted */
    small_gemm(h, G_DGEMM);
    small_gemm(h, G_DGEMM);
    small_gemm(h, G_DGEMM64);
    small_gemm(h, G_SB);
    small_gemm(h, G_SBEX64);
    double d[16] = {0};
    float f[16] = {0}, fa = 1, fb = 0;
    CHECK(cublasDgemm_v2(h, N_, N_, -1, 2, 2, d, d, 1, d, 2, d, d, 1) == INV, "invalid dgemm");
    CHECK(cublasGemmEx(h, N_, N_, 2, 2, 2, &fa, f, CUDA_R_32F, 2, f, CUDA_R_32F, 2, &fb, f,
                       CUDA_R_32F, 2, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT) == OK,
          "FP32 GemmEx failed");
    CHECK(cublasGemmEx_64(h, N_, N_, 2, 2, 2, &fa, f, CUDA_R_32F, 2, f, CUDA_R_32F, 2, &fb, f,
                          CUDA_R_32F, 2, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT) == OK,
          "FP32 GemmEx_64 failed");
    /* dgemv: 3 calls, one invalid; no ddot at all */
    small_gemv(h, 0);
    small_gemv(h, 1);
    CHECK(cublasDgemv_v2(h, N_, 2, 2, d, d, 1, d, 1, d, d, 1) == INV, "invalid dgemv");
    CHECK(cublasDestroy_v2(h) == OK, "destroy failed");
    return 0;
}

#define THREADS 4
static pthread_barrier_t barrier;

static void *worker(void *arg)
{
    (void)arg;
    cublasHandle_t h = create(CUBLAS_POINTER_MODE_HOST);
    double x[8], y[8], r = 0;
    fill_ints(x, 8, 7), fill_ints(y, 8, 8);
    double want = ref_ddot(8, x, 1, y, 1);
    pthread_barrier_wait(&barrier);
    for (int i = 0; i < 200; i++) {
        CHECK(cublasDdot_v2(h, 8, x, 1, y, 1, &r) == OK && r == want, "ddot in a thread");
        if (i % 4 == 0)
            small_gemv(h, 1);
    }
    CHECK(cublasDestroy_v2(h) == OK, "destroy failed");
    return NULL;
}

static int child_summary_threads(void)
{
    require_shim("cublasDdot_v2");
    pthread_t t[THREADS];
    pthread_barrier_init(&barrier, NULL, THREADS);
    for (int i = 0; i < THREADS; i++)
        CHECK(!pthread_create(&t[i], NULL, worker, NULL), "pthread_create");
    for (int i = 0; i < THREADS; i++)
        pthread_join(t[i], NULL);
    return 0;
}

static int child_summary_none(void)
{
    require_shim("cublasDgemm_v2");
    cublasHandle_t h = create(CUBLAS_POINTER_MODE_HOST);
    CHECK(cublasDestroy_v2(h) == OK, "destroy failed");
    return 0;
}

/* ---------- the parent ---------- */

/* text holds exactly the summary lines for these counts (routines with 0 calls have none). */
static void check_summary(const char *what, const char *text, long dgemm, long dgemv, long ddot)
{
    const char *names[3] = {"dgemm", "dgemv", "ddot"};
    long counts[3] = {dgemm, dgemv, ddot};
    int line = 0;
    for (int r = 0; r < 3; r++) {
        if (!counts[r])
            continue;
        char want[160];
        snprintf(want, sizeof want,
                 "dfshim-summary routine=%s engine=native calls=%ld declined=0 timed=0 gpu_ms=",
                 names[r], counts[r]);
        char *l = nth_line(text, line++);
        CHECK(l && !strncmp(l, want, strlen(want)),
              "%s: summary line %d is\n  %s\nexpected it to start with\n  %s\nwhole text:\n%s",
              what, line, l ? l : "(missing)", want, text);
        free(l);
    }
    if (!line) {
        CHECK(!strcmp(text, "dfshim-summary no intercepted calls\n"),
              "%s: expected 'dfshim-summary no intercepted calls', found:\n%s", what, text);
        line = 1;
    }
    CHECK(count_lines(text) == line, "%s: %d summary lines, expected %d:\n%s", what,
          count_lines(text), line, text);
}

static char *env_kv(const char *k, const char *v)
{
    size_t n = strlen(k) + strlen(v) + 2;
    char *s = malloc(n);
    CHECK(s, "out of memory");
    snprintf(s, n, "%s=%s", k, v);
    return s;
}

static int parent(char *self)
{
    require_shim("cublasDgemm_v2");
    char *dir = make_temp_dir("intercept");
    char *log = path_join(dir, "trace.log"), *out = path_join(dir, "out"),
         *err = path_join(dir, "err"), *sum = path_join(dir, "summary");
    char *lv = env_kv("EXBLAS_LOG", "trace"), *lf = env_kv("EXBLAS_LOG_FILE", log),
         *sv = env_kv("EXBLAS_SUMMARY", sum);
    /* The children run in dir: a file the shim should not write (say, a summary named "0")
     * shows up there. */
    CHECK(!chdir(dir), "chdir %s", dir);

    /* 1. every routine, traced into a file */
    char *a1[] = {self, "calls", log, NULL};
    const char *e1[] = {lv, lf, NULL};
    int rc = run_self(a1, e1, out, NULL, 60);
    CHECK(rc == 0, "the 'calls' child failed (status %d)", rc);
    /* its exit summary (EXBLAS_LOG >= info, no EXBLAS_SUMMARY) went to the log, after the
     * trace lines */
    char *counts = read_file(out, NULL);
    long g, v, d;
    CHECK(sscanf(counts, "%ld %ld %ld", &g, &v, &d) == 3, "bad child output: %s", counts);
    char *text = read_file(log, NULL);
    char *s = strstr(text, "dfshim-summary");
    CHECK(s && (s == text || s[-1] == '\n'), "no exit summary in the trace log");
    for (const char *p = s; *p; p = strchr(p, '\n') + 1) {
        CHECK(!strncmp(p, "dfshim-summary ", 15), "a line after the summary in the log: %s", p);
        if (!strchr(p, '\n'))
            break;
    }
    check_summary("summary in the log", s, g, v, d);

    /* 2. EXBLAS_SUMMARY=<file> */
    char *a2[] = {self, "summary", NULL};
    const char *e2[] = {sv, NULL};
    unlink(sum); /* the shim may append to an existing file */
    rc = run_self(a2, e2, out, err, 30);
    CHECK(rc == 0, "the 'summary' child failed (status %d): %s", rc, read_file(err, NULL));
    check_summary("EXBLAS_SUMMARY=file", read_file(sum, NULL), 6, 3, 0);
    CHECK(!*read_file(err, NULL) && !*read_file(out, NULL),
          "EXBLAS_SUMMARY=file: the child printed something");

    /* 3. the same with threads */
    char *a3[] = {self, "summary-threads", NULL};
    unlink(sum);
    rc = run_self(a3, e2, out, err, 30);
    CHECK(rc == 0, "the 'summary-threads' child failed (status %d): %s", rc, read_file(err, NULL));
    check_summary("EXBLAS_SUMMARY, 4 threads", read_file(sum, NULL), 0, THREADS * 50,
                  THREADS * 200);

    /* 4. nothing intercepted */
    char *a4[] = {self, "summary-none", NULL};
    unlink(sum);
    rc = run_self(a4, e2, out, err, 30);
    CHECK(rc == 0, "the 'summary-none' child failed (status %d)", rc);
    check_summary("EXBLAS_SUMMARY, no calls", read_file(sum, NULL), 0, 0, 0);

    /* 5. EXBLAS_SUMMARY=1: to the log destination (stderr); =0: nothing */
    const char *e5[] = {"EXBLAS_SUMMARY=1", NULL};
    rc = run_self(a2, e5, out, err, 30);
    CHECK(rc == 0, "the 'summary' child failed (status %d)", rc);
    check_summary("EXBLAS_SUMMARY=1 (stderr)", read_file(err, NULL), 6, 3, 0);
    CHECK(!*read_file(out, NULL), "EXBLAS_SUMMARY=1 printed on stdout");
    const char *e6[] = {"EXBLAS_SUMMARY=0", NULL};
    rc = run_self(a2, e6, out, err, 30);
    CHECK(rc == 0, "the 'summary' child failed (status %d)", rc);
    CHECK(!*read_file(err, NULL) && !*read_file(out, NULL), "EXBLAS_SUMMARY=0 printed something");
    expect_only_entries(dir, (const char *const[]){"trace.log", "out", "err", "summary", NULL});

    CHECK(!chdir("/"), "chdir /");
    remove_tree(dir);
    printf("ok: interception, results, statuses, traces and summaries\n");
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 1)
        return parent(argv[0]);
    if (!strcmp(argv[1], "calls") && argc == 3)
        return child_calls(argv[2]);
    if (!strcmp(argv[1], "summary"))
        return child_summary();
    if (!strcmp(argv[1], "summary-threads"))
        return child_summary_threads();
    if (!strcmp(argv[1], "summary-none"))
        return child_summary_none();
    FAIL("unknown mode %s", argv[1]);
}
