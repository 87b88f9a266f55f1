/* intercept_run.c — test_intercept's check of one call of each routine through the shim: the
 * status is the stand-in's, the stand-in saw exactly that one call, the result equals a
 * reference and is bitwise the unshimmed stand-in's, and the trace log got exactly the one
 * expected line. */
#include "intercept.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------- GEMM family, FP64 ---------- */

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

void run_gemm(const gcase *c0, int idx)
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

/* ---------- GemmEx with non-FP64 types: forwarded untouched ---------- */

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

void run_fwd(const fcase *c, int idx)
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

void run_gemv(const vcase *c, int idx)
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

void run_dot(const dcase *c, int idx)
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
