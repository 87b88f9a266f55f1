/* ptr_batch — pointer-array GEMM batches through the shim (cublasDgemmBatched,
 * cublasZgemmBatched, cublasGemmBatchedEx on CUDA_R_64F and CUDA_C_64F, each also in its _64
 * form), in the engine that EXBLAS_MODE names: an engine without pointer-array GEMMs of its own
 * computes them through its strided GEMM, the entries gathered group by group into packed
 * scratch (shim/ptr_batch.h).
 *
 * Every call's trace line (EXBLAS_LOG=trace into a file) says which engine ran it.  Checked:
 *   - the engine: native in native mode; otherwise the mode's engine (repro's complex GEMM takes
 *     any scalars);
 *   - ran natively: the whole C buffer (padding included) and the status bit for bit those of the
 *     real cuBLAS's batched call (found with dlsym on libcublas's own handle);
 *   - ran on an engine: the whole C buffer bit for bit what the same engine gives entry by entry
 *     through the shim's cublasDgemm_v2_64 / cublasZgemm_v2_64 (each of those traced on that
 *     engine too): every engine here is deterministic per output whatever the batch around it
 *     (repro correctly rounded; dd's order fixed for every tile; df's scaling per row and column
 *     of the entry, "the same bits" on every path; int8 with its moduli fixed, scaled per row and
 *     column, engines/oz/README.md);
 *   - every mode, where the case is small: every output within 2^-36 s of a long double
 *     reference (s = sum |alpha a b| + |beta c|), and C's padding rows hold their sentinel.
 * Cases: every entry point x ops {N,T,C}^2 at 7 x 6 x 5, batch 3, padded leading dimensions,
 * host and device pointer mode, beta 0 (C NaN: not to be read) or not, real and (complex) non-real
 * scalars, A and B with distinct or repeated pointers; sizes 1x1x1 (batch 1), k = 1, batch 1,
 * batch 300, tight and padded; a CUDA graph (the batch captured and replayed: the same bits as
 * the call outside it); and batches whose scratch passes 256 MiB (the trace's group line says
 * 2 groups where an engine ran them). */
#include "common.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SENTINEL (-1234.5)

typedef enum { P_D, P_D64, P_Z, P_Z64, P_EXR, P_EXR64, P_EXC, P_EXC64, P_COUNT } papi;

static const struct {
    const char *sym, *trace; /* the entry point; its trace line's start */
    int cplx;
} apis[P_COUNT] = {
    {"cublasDgemmBatched", "cublasDgemmBatched op=", 0},
    {"cublasDgemmBatched_64", "cublasDgemmBatched_64 op=", 0},
    {"cublasZgemmBatched", "cublasZgemmBatched op=", 1},
    {"cublasZgemmBatched_64", "cublasZgemmBatched_64 op=", 1},
    {"cublasGemmBatchedEx", "cublasGemmBatchedEx op=", 0},
    {"cublasGemmBatchedEx_64", "cublasGemmBatchedEx_64 op=", 0},
    {"cublasGemmBatchedEx", "cublasGemmBatchedEx (CUDA_C_64F) op=", 1},
    {"cublasGemmBatchedEx_64", "cublasGemmBatchedEx_64 (CUDA_C_64F) op=", 1},
};
static void *real_fn[P_COUNT];

typedef struct {
    papi api;
    cublasOperation_t ta, tb;
    int64_t m, n, k, pad, batch;
    int dev;     /* device pointer mode */
    int beta0;   /* beta = 0, C NaN */
    int nonreal; /* complex scalars with imaginary parts */
    int repeat;  /* A's and B's pointers: two of each, repeated */
    int graph;   /* also captured into a CUDA graph and replayed */
    int groups;  /* the groups the trace must name where an engine ran it (0: not checked) */
} bcase;

static cublasHandle_t h;
static int native;
static char log_path[256];
static long log_seen;

/* ---------- the trace ---------- */

/* The log written since the last look (malloc'd, NUL-terminated). */
static char *new_log(void)
{
    FILE *f = fopen(log_path, "r");
    long end = 0;
    if (f && fseek(f, 0, SEEK_END) == 0)
        end = ftell(f);
    char *buf = malloc((size_t)(end > log_seen ? end - log_seen : 0) + 1);
    size_t n = 0;
    if (f && end > log_seen && fseek(f, log_seen, SEEK_SET) == 0)
        n = fread(buf, 1, (size_t)(end - log_seen), f);
    buf[n] = 0;
    log_seen = log_seen + (long)n;
    if (f)
        fclose(f);
    return buf;
}

/* The next line of *log (NUL-terminated in place), or NULL at the end. */
static char *next_line(char **log)
{
    char *l = *log;
    if (!l || !*l)
        return NULL;
    char *eol = strchr(l, '\n');
    if (eol)
        *eol = 0;
    *log = eol ? eol + 1 : NULL;
    return l;
}

/* The engine named ("-> NAME") by the first line of log holding `start`, into name; 0 if none.
 * Splits log into lines. */
static int engine_of(char *log, const char *start, char *name, size_t len)
{
    for (char *l; (l = next_line(&log));) {
        /* a trace line ("... -> ENGINE ..."); not the declined-call warning naming the call */
        const char *at = strstr(l, start), *arrow = at ? strstr(at, "-> ") : NULL;
        if (!arrow)
            continue;
        size_t i = 0;
        for (arrow += 3; arrow[i] && arrow[i] != ' ' && i + 1 < len; i++)
            name[i] = arrow[i];
        name[i] = 0;
        return 1;
    }
    return 0;
}

/* Lines of log holding `start`, and how many of them name engine.  Splits log into lines. */
static int count_lines(char *log, const char *start, const char *engine, int *on_engine)
{
    int total = 0;
    *on_engine = 0;
    char want[64];
    snprintf(want, sizeof want, "-> %s ", engine);
    for (char *l; (l = next_line(&log));) {
        const char *at = strstr(l, start);
        if (!at || !strstr(at, "-> "))
            continue;
        total++;
        *on_engine += strstr(at, want) != NULL;
    }
    return total;
}

/* Whether a line of log holds `what` (log intact). */
static int log_has(const char *log, const char *what)
{
    return strstr(log, what) != NULL;
}

/* ---------- the calls ---------- */

#define REAL_OR(name, p) __typeof__(&name) f = name; if (real) memcpy(&f, &real_fn[p], sizeof f)

static cublasStatus_t call_batched(int real, const bcase *c, const void *alpha, const void *beta,
                                   void **A, void **B, void **C, int64_t lda, int64_t ldb,
                                   int64_t ldc)
{
    const cublasOperation_t ta = c->ta, tb = c->tb;
    const int64_t m = c->m, n = c->n, k = c->k, nb = c->batch;
    typedef const double *const *DA;
    typedef const cuDoubleComplex *const *ZA;
    const cudaDataType t = apis[c->api].cplx ? CUDA_C_64F : CUDA_R_64F;
    switch (c->api) {
    case P_D: {
        REAL_OR(cublasDgemmBatched, P_D);
        return f(h, ta, tb, (int)m, (int)n, (int)k, alpha, (DA)A, (int)lda, (DA)B, (int)ldb, beta,
                 (double *const *)C, (int)ldc, (int)nb);
    }
    case P_D64: {
        REAL_OR(cublasDgemmBatched_64, P_D64);
        return f(h, ta, tb, m, n, k, alpha, (DA)A, lda, (DA)B, ldb, beta, (double *const *)C, ldc,
                 nb);
    }
    case P_Z: {
        REAL_OR(cublasZgemmBatched, P_Z);
        return f(h, ta, tb, (int)m, (int)n, (int)k, alpha, (ZA)A, (int)lda, (ZA)B, (int)ldb, beta,
                 (cuDoubleComplex *const *)C, (int)ldc, (int)nb);
    }
    case P_Z64: {
        REAL_OR(cublasZgemmBatched_64, P_Z64);
        return f(h, ta, tb, m, n, k, alpha, (ZA)A, lda, (ZA)B, ldb, beta,
                 (cuDoubleComplex *const *)C, ldc, nb);
    }
    case P_EXR:
    case P_EXC: {
        REAL_OR(cublasGemmBatchedEx, c->api);
        return f(h, ta, tb, (int)m, (int)n, (int)k, alpha, (const void *const *)A, t, (int)lda,
                 (const void *const *)B, t, (int)ldb, beta, C, t, (int)ldc, (int)nb,
                 CUBLAS_COMPUTE_64F, CUBLAS_GEMM_DEFAULT);
    }
    default: {
        REAL_OR(cublasGemmBatchedEx_64, c->api);
        return f(h, ta, tb, m, n, k, alpha, (const void *const *)A, t, lda,
                 (const void *const *)B, t, ldb, beta, C, t, ldc, nb, CUBLAS_COMPUTE_64F,
                 CUBLAS_GEMM_DEFAULT);
    }
    }
}

/* The engine the call must run on. */
static const char *expected_engine(void)
{
    if (native)
        return "native";
    return gt_mode_engine();
}

/* ---------- a case ---------- */

typedef struct {
    int64_t z, ra, ca, rb, cb, lda, ldb, ldc, eA, eB, eC, nA, nB;
    double *hA, *hB, *hC0, *hS, *hR;
    double *dA, *dB, *dS, *dR, *dG, *dAl, *dBe;
    void **pA, **pB, **pS, **pR, **pG; /* host copies of the arrays */
    void **gA, **gB, **gS, **gR, **gG; /* the arrays in device memory */
    _Alignas(16) double alpha[2], beta[2]; /* cuBLAS reads host complex scalars 16 at a time */
} bdata;

static void **dev_array(void **host, int64_t n)
{
    void **d = gt_dmalloc((size_t)n * sizeof(void *));
    gt_h2d(d, host, (size_t)n * sizeof(void *));
    return d;
}

static void setup(const bcase *c, bdata *d)
{
    memset(d, 0, sizeof *d);
    const int cx = apis[c->api].cplx;
    d->z = cx ? 2 : 1;
    const int ta = c->ta != CUBLAS_OP_N, tb = c->tb != CUBLAS_OP_N;
    d->ra = ta ? c->k : c->m, d->ca = ta ? c->m : c->k;
    d->rb = tb ? c->n : c->k, d->cb = tb ? c->k : c->n;
    d->lda = d->ra + c->pad, d->ldb = d->rb + c->pad, d->ldc = c->m + c->pad;
    d->eA = d->z * d->lda * d->ca, d->eB = d->z * d->ldb * d->cb, d->eC = d->z * d->ldc * c->n;
    d->nA = c->repeat && c->batch > 2 ? 2 : c->batch, d->nB = d->nA;
    const size_t bA = (size_t)(d->nA * d->eA) * 8, bB = (size_t)(d->nB * d->eB) * 8,
                 bC = (size_t)(c->batch * d->eC) * 8;
    d->hA = gt_hmalloc(bA), d->hB = gt_hmalloc(bB), d->hC0 = gt_hmalloc(bC);
    d->hS = gt_hmalloc(bC), d->hR = gt_hmalloc(bC);
    const uint64_t seed = (uint64_t)(c->m * 1000003 + c->n * 1009 + c->k * 17 + c->batch) +
                          (uint64_t)c->api * 7919u + (uint64_t)c->ta * 3u + (uint64_t)c->tb;
    gt_fill(d->hA, bA / 8, seed);
    gt_fill(d->hB, bB / 8, seed + 1);
    gt_fill(d->hC0, bC / 8, seed + 2);
    /* padding: A's and B's NaN (must not be read), C's a sentinel; C NaN where beta = 0 */
    for (int64_t i = 0; i < d->nA * d->eA; i++)
        if (i % (d->z * d->lda) >= d->z * d->ra)
            d->hA[i] = gt_qnan();
    for (int64_t i = 0; i < d->nB * d->eB; i++)
        if (i % (d->z * d->ldb) >= d->z * d->rb)
            d->hB[i] = gt_qnan();
    for (int64_t i = 0; i < c->batch * d->eC; i++)
        d->hC0[i] = i % (d->z * d->ldc) >= d->z * c->m ? SENTINEL
                    : c->beta0                        ? gt_qnan()
                                                      : d->hC0[i];
    d->dA = gt_dmalloc(bA), d->dB = gt_dmalloc(bB);
    d->dS = gt_dmalloc(bC), d->dR = gt_dmalloc(bC);
    gt_h2d(d->dA, d->hA, bA);
    gt_h2d(d->dB, d->hB, bB);
    gt_h2d(d->dS, d->hC0, bC);
    gt_h2d(d->dR, d->hC0, bC);
    const size_t np = (size_t)c->batch * sizeof(void *);
    d->pA = malloc(np), d->pB = malloc(np), d->pS = malloc(np), d->pR = malloc(np);
    for (int64_t i = 0; i < c->batch; i++) {
        d->pA[i] = d->dA + d->eA * (c->repeat ? i % d->nA : i);
        d->pB[i] = d->dB + d->eB * (c->repeat ? (i + 1) % d->nB : i);
        d->pS[i] = d->dS + d->eC * i;
        d->pR[i] = d->dR + d->eC * i;
    }
    d->gA = dev_array(d->pA, c->batch), d->gB = dev_array(d->pB, c->batch);
    d->gS = dev_array(d->pS, c->batch), d->gR = dev_array(d->pR, c->batch);
    d->alpha[0] = cx && c->nonreal ? 0.5 : 1.25, d->alpha[1] = cx && c->nonreal ? -1.5 : 0.0;
    d->beta[0] = c->beta0 ? 0.0 : cx && c->nonreal ? 0.25 : -0.75;
    d->beta[1] = !c->beta0 && cx && c->nonreal ? 2.0 : 0.0;
    d->dAl = gt_dmalloc(16), d->dBe = gt_dmalloc(16);
    gt_h2d(d->dAl, d->alpha, 16);
    gt_h2d(d->dBe, d->beta, 16);
}

static void teardown(bdata *d)
{
    void *dev[] = {d->dA, d->dB, d->dS, d->dR, d->dG, d->dAl, d->dBe,
                   d->gA, d->gB, d->gS, d->gR, d->gG};
    for (size_t i = 0; i < sizeof dev / sizeof dev[0]; i++)
        if (dev[i])
            GT_CUDA(cudaFree(dev[i]));
    free(d->hA), free(d->hB), free(d->hC0), free(d->hS), free(d->hR);
    free(d->pA), free(d->pB), free(d->pS), free(d->pR), free(d->pG);
}

/* The same engine's non-batched GEMM on one entry (through the shim). */
static cublasStatus_t single(const bcase *c, const bdata *d, const void *al, const void *be,
                             int64_t i)
{
    if (apis[c->api].cplx)
        return cublasZgemm_v2_64(h, c->ta, c->tb, c->m, c->n, c->k, al, d->pA[i], d->lda,
                                 d->pB[i], d->ldb, be, d->pR[i], d->ldc);
    return cublasDgemm_v2_64(h, c->ta, c->tb, c->m, c->n, c->k, al, d->pA[i], d->lda, d->pB[i],
                             d->ldb, be, d->pR[i], d->ldc);
}

/* op(X)(i, j) (complex: *im too) of a column-major matrix */
static long double at(const double *x, int64_t ld, cublasOperation_t op, int64_t z, int64_t i,
                      int64_t j, long double *im)
{
    const double *e = op == CUBLAS_OP_N ? &x[z * (i + j * ld)] : &x[z * (j + i * ld)];
    *im = z == 2 ? (op == CUBLAS_OP_C ? -(long double)e[1] : e[1]) : 0.0L;
    return e[0];
}

/* Every output within 2^-36 s of a long double reference; the padding rows untouched. */
static void cpu_check(const bcase *c, const bdata *d)
{
    const int64_t z = d->z;
    const long double ar = d->alpha[0], ai = d->alpha[1], br = d->beta[0], bi = d->beta[1];
    for (int64_t e = 0; e < c->batch; e++) {
        const double *A = d->hA + d->eA * (c->repeat ? e % d->nA : e);
        const double *B = d->hB + d->eB * (c->repeat ? (e + 1) % d->nB : e);
        const double *C0 = d->hC0 + d->eC * e, *got = d->hS + d->eC * e;
        for (int64_t j = 0; j < c->n; j++)
            for (int64_t i = 0; i < d->ldc; i++) {
                const double *g = &got[z * (i + j * d->ldc)];
                if (i >= c->m) {
                    if (g[0] != SENTINEL || (z == 2 && g[1] != SENTINEL)) {
                        gt_fail("entry %lld: C's padding (%lld, %lld) written", (long long)e,
                                (long long)i, (long long)j);
                        return;
                    }
                    continue;
                }
                long double sr = 0, si = 0, s = 0;
                for (int64_t l = 0; l < c->k; l++) {
                    long double xi, yi;
                    const long double xr = at(A, d->lda, c->ta, z, i, l, &xi);
                    const long double yr = at(B, d->ldb, c->tb, z, l, j, &yi);
                    sr += xr * yr - xi * yi;
                    si += xr * yi + xi * yr;
                    s += (fabsl(xr) + fabsl(xi)) * (fabsl(yr) + fabsl(yi));
                }
                long double rr = ar * sr - ai * si, ri = ar * si + ai * sr;
                s *= fabsl(ar) + fabsl(ai);
                if (!c->beta0) {
                    const double *c0 = &C0[z * (i + j * d->ldc)];
                    const long double cr = c0[0], ci = z == 2 ? c0[1] : 0.0L;
                    rr += br * cr - bi * ci;
                    ri += br * ci + bi * cr;
                    s += (fabsl(br) + fabsl(bi)) * (fabsl(cr) + fabsl(ci));
                }
                const long double tol = s * 0x1p-36L + 0x1p-1000L;
                if (!(fabsl(g[0] - rr) <= tol) || (z == 2 && !(fabsl(g[1] - ri) <= tol))) {
                    gt_fail("entry %lld (%lld, %lld) = %.17g%+.17gi, reference %.17Lg%+.17Lgi",
                            (long long)e, (long long)i, (long long)j, g[0], z == 2 ? g[1] : 0.0,
                            rr, ri);
                    return;
                }
            }
    }
}

/* The batch captured into a CUDA graph on a stream of its own, replayed twice: the bits of the
 * call outside the graph. */
static void graph_check(const bcase *c, bdata *d, const void *al, const void *be)
{
    const size_t bC = (size_t)(c->batch * d->eC) * 8;
    d->dG = gt_dmalloc(bC);
    d->pG = malloc((size_t)c->batch * sizeof(void *));
    for (int64_t i = 0; i < c->batch; i++)
        d->pG[i] = d->dG + d->eC * i;
    d->gG = dev_array(d->pG, c->batch);
    cudaStream_t stream;
    GT_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    GT_CUBLAS(cublasSetStream_v2(h, stream));
    cudaGraph_t graph = NULL;
    GT_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
    const cublasStatus_t st = call_batched(0, c, al, be, d->gA, d->gB, d->gG, d->lda, d->ldb,
                                           d->ldc);
    gt_still_capturing(stream, apis[c->api].sym);
    cudaGraphExec_t exec = gt_end_capture(stream, &graph) ? gt_instantiate(graph) : NULL;
    if (st != CUBLAS_STATUS_SUCCESS)
        gt_fail("captured call: %s", gt_status_name(st));
    double *got = gt_hmalloc(bC);
    for (int r = 0; exec && r < 2; r++) {
        gt_h2d(d->dG, d->hC0, bC);
        GT_CUDA(cudaGraphLaunch(exec, stream));
        GT_CUDA(cudaStreamSynchronize(stream));
        gt_d2h(got, d->dG, bC);
        gt_cmp(r ? "C, graph replayed twice" : "C, graph replayed", d->hS, got, bC / 8, 8, 0);
    }
    if (exec)
        GT_CUDA(cudaGraphExecDestroy(exec));
    if (graph)
        GT_CUDA(cudaGraphDestroy(graph));
    GT_CUBLAS(cublasSetStream_v2(h, NULL));
    GT_CUDA(cudaStreamDestroy(stream));
    free(got);
}

static void run_case(const bcase *c)
{
    gt_case("%s%s op %c%c %lldx%lldx%lld batch %lld pad %lld, %s scalars%s%s%s%s",
            apis[c->api].sym, apis[c->api].cplx && c->api >= P_EXR ? " C_64F" : "",
            gt_op_char(c->ta), gt_op_char(c->tb), (long long)c->m, (long long)c->n,
            (long long)c->k, (long long)c->batch, (long long)c->pad, c->dev ? "device" : "host",
            c->nonreal ? " non-real" : "", c->beta0 ? ", beta 0" : "",
            c->repeat ? ", A and B repeated" : "", c->graph ? ", graph" : "");
    bdata d;
    setup(c, &d);
    const size_t bC = (size_t)(c->batch * d.eC) * 8;
    GT_CUBLAS(cublasSetPointerMode_v2(h, c->dev ? CUBLAS_POINTER_MODE_DEVICE
                                                : CUBLAS_POINTER_MODE_HOST));
    const void *al = c->dev ? (const void *)d.dAl : d.alpha,
               *be = c->dev ? (const void *)d.dBe : d.beta;
    free(new_log());
    const cublasStatus_t ss = call_batched(0, c, al, be, d.gA, d.gB, d.gS, d.lda, d.ldb, d.ldc);
    GT_CUDA(cudaDeviceSynchronize());
    char *log = new_log(), ran[32] = "?";
    char groups[64];
    snprintf(groups, sizeof groups, ": %d groups of", c->groups);
    const int grouped = log_has(log, groups);
    if (!engine_of(log, apis[c->api].trace, ran, sizeof ran))
        gt_fail("no trace line holding \"%s\"", apis[c->api].trace);
    const char *want = expected_engine();
    if (strcmp(ran, want))
        gt_fail("ran on %s, expected %s", ran, want);
    if (c->groups && strcmp(ran, "native") && !grouped)
        gt_fail("no trace line of the batch in %d groups", c->groups);
    free(log);
    gt_d2h(d.hS, d.dS, bC);
    if (!strcmp(ran, "native")) {
        const cublasStatus_t sr =
            call_batched(1, c, al, be, d.gA, d.gB, d.gR, d.lda, d.ldb, d.ldc);
        GT_CUDA(cudaDeviceSynchronize());
        gt_cmp_status(apis[c->api].sym, sr, ss);
    } else {
        if (ss != CUBLAS_STATUS_SUCCESS)
            gt_fail("status %s", gt_status_name(ss));
        for (int64_t i = 0; i < c->batch; i++) {
            const cublasStatus_t s1 = single(c, &d, al, be, i);
            if (s1 != CUBLAS_STATUS_SUCCESS)
                gt_fail("entry %lld's own GEMM: status %s", (long long)i, gt_status_name(s1));
        }
        GT_CUDA(cudaDeviceSynchronize());
        log = new_log();
        int on = 0;
        const char *one = apis[c->api].cplx ? "cublasZgemm_v2_64 op=" : "cublasDgemm_v2_64 op=";
        const int total = count_lines(log, one, ran, &on);
        if (total != c->batch || on != c->batch)
            gt_fail("the entries' own GEMMs: %d traced, %d on %s (of %lld)", total, on, ran,
                    (long long)c->batch);
        free(log);
    }
    gt_d2h(d.hR, d.dR, bC);
    gt_cmp("C", d.hR, d.hS, bC / 8, 8, 0);
    if ((double)c->m * (double)c->n * (double)c->k * (double)c->batch <= 4e6)
        cpu_check(c, &d);
    if (c->graph)
        graph_check(c, &d, al, be);
    GT_CUBLAS(cublasSetPointerMode_v2(h, CUBLAS_POINTER_MODE_HOST));
    teardown(&d);
}

static const cublasOperation_t ops[3] = {CUBLAS_OP_N, CUBLAS_OP_T, CUBLAS_OP_C};

int main(void)
{
    snprintf(log_path, sizeof log_path, "/tmp/dfshim-ptr-batch-%d.log", (int)getpid());
    setenv("EXBLAS_LOG", "trace", 1);
    setenv("EXBLAS_LOG_FILE", log_path, 1);
    gt_init("ptr_batch");
    native = gt_mode_is("native");
    for (int p = 0; p < P_COUNT; p++)
        real_fn[p] = gt_real_fn(apis[p].sym);
    GT_CUBLAS(cublasCreate_v2(&h));

    gt_group("every entry point x ops x pointer mode x beta x scalars, 7 x 6 x 5, batch 3");
    for (int p = 0; p < P_COUNT; p++)
        for (int ta = 0; ta < 3; ta++)
            for (int tb = 0; tb < 3; tb++)
                for (int v = 0; v < (apis[p].cplx ? 8 : 4); v++) {
                    const bcase c = {(papi)p, ops[ta], ops[tb], 7, 6, 5, 3, 3, v & 1, v >> 1 & 1,
                                     v >> 2, (ta + tb + v) & 1, 0, 0};
                    run_case(&c);
                }

    gt_group("sizes: 1x1x1, k = 1, batch 1, batch 300, tight and padded");
    static const int64_t sizes[][5] = {{1, 1, 1, 0, 1}, {17, 9, 1, 0, 4}, {33, 21, 45, 2, 1},
                                       {6, 5, 4, 0, 300}, {40, 3, 70, 5, 7}};
    static const int pairs[3][2] = {{0, 0}, {1, 2}, {2, 1}};
    for (int p = 0; p < P_COUNT; p++)
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
            for (int o = 0; o < 3; o++) {
                const int v = (int)s + o + p;
                const bcase c = {(papi)p, ops[pairs[o][0]], ops[pairs[o][1]], sizes[s][0],
                                 sizes[s][1], sizes[s][2], sizes[s][3], sizes[s][4], v & 1,
                                 (v >> 1) & 1, apis[p].cplx && o == 1, o == 2, 0, 0};
                run_case(&c);
            }

    gt_group("a CUDA graph: the batch captured and replayed twice");
    static const papi graphed[4] = {P_D, P_Z64, P_EXR64, P_EXC};
    for (int i = 0; i < 4; i++) {
        const bcase c = {graphed[i], ops[i % 3], ops[(i + 1) % 3], 12, 10, 8, 1, 5, i & 1, 0, 0,
                         i >> 1, 1, 0};
        run_case(&c);
    }

    gt_group("scratch beyond 256 MiB: two groups");
    const bcase big[2] = {
        {P_D, CUBLAS_OP_N, CUBLAS_OP_N, 1024, 1024, 1024, 0, 12, 0, 0, 0, 0, 0, 2},
        {P_Z64, CUBLAS_OP_T, CUBLAS_OP_N, 768, 768, 768, 0, 10, 0, 0, 0, 1, 0, 2}};
    for (int i = 0; i < 2; i++)
        run_case(&big[i]);

    cublasDestroy_v2(h);
    unlink(log_path);
    return gt_finish();
}
