/* ddblas.c — libddblas (include/ddblas.h) on the GPU: every routine bit for bit its CPU
 * implementation (ddblas_*_host, engines/dd/ddblas_host.c), hi and lo arrays compared whole
 * (NaN equal to NaN), so that the gaps between strided elements and the padding rows of the
 * matrices, filled with random values, must stay as they were:
 *   - AXPY, DOT, CONVERT: n in {0, 1, 255, 256, 1025, 5000, 65537, 2^20 + 3}, increments 1, -2,
 *     3; every pair of formats for CONVERT;
 *   - GEMV: N, T and C on 1x1 .. 4097x513, 64x100000 and 100000x64, lda padded;
 *   - GEMM: every op pair, both schemes, 1x1x1 .. 257x129x65, 300x200x1, 128x128x0, lda, ldb and
 *     ldc padded;
 *   - operands in one format each or mixed (A DD, x D+S, y D+I to nearest, ...); alpha and beta
 *     non-trivial DDs, zero (the arrays not to be read hold NaN) or both zero; data uniform in
 *     [-1, 1), spread over 2^+-30, or with Inf, NaN and 2^1000 (overflowing) values;
 *   - the argument rules (tests/common/ddblas_args.h): the GPU's status is the CPU's and an
 *     invalid call writes nothing; a NULL handle is invalid;
 *   - a non-blocking stream: dependent calls queued back to back, one synchronisation.
 * No shim involved (gt_init is not used: it requires the shim preloaded).  Exits 77 without a
 * GPU. */
#include "../common/ddblas_args.h"
#include "../common/ddblas_data.h"
#include "common.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static ddblas_handle H;
static cudaStream_t S; /* the calls' stream: 0, or the non-blocking one of the stream group */
static uint64_t seed = 1;

enum { D_UNIFORM, D_SPREAD, D_SPECIAL };
static const char *const data_name[3] = {"uniform", "spread", "special"};

static const ddblas_dd AL = {-1.3125, 0x1.5p-55}, BE = {0.625, -0x1.9p-57}, ZERO = {0.0, 0.0};

typedef struct {
    ddblas_dd alpha, beta;
    const char *name;
} scalars;
static const scalars AB[4] = {
    {{-1.3125, 0x1.5p-55}, {0.625, -0x1.9p-57}, "alpha beta"},
    {{0.0, 0.0}, {0.625, -0x1.9p-57}, "alpha 0"},
    {{-1.3125, 0x1.5p-55}, {0.0, 0.0}, "beta 0"},
    {{0.0, 0.0}, {0.0, 0.0}, "alpha beta 0"},
};

/* Format sets: {A or x, B or x, C or y}. */
static const ddblas_format FMT[6][3] = {
    {DDBLAS_DD, DDBLAS_DD, DDBLAS_DD},
    {DDBLAS_DD, DDBLAS_DS, DDBLAS_DI_NEAREST},
    {DDBLAS_DS, DDBLAS_DS, DDBLAS_DS},
    {DDBLAS_DI, DDBLAS_DI_NEAREST, DDBLAS_DD},
    {DDBLAS_DI, DDBLAS_DI, DDBLAS_DI},
    {DDBLAS_DI_NEAREST, DDBLAS_DD, DDBLAS_DS},
};

static int is_zero(ddblas_dd a)
{
    return a.hi == 0.0 && a.lo == 0.0;
}

/* ---------- operands: the same array in host and device memory ---------- */

typedef struct {
    ddblas_array h, d;
    size_t n;
} opnd;

static ddblas_dd gen(rng *r, int data)
{
    if (data == D_SPREAD)
        return ddt_rand(r, 1, below(r, 61) - 30);
    if (data == D_SPECIAL)
        switch (below(r, 64)) {
        case 0: return ddt_make(INFINITY, 0.0);
        case 1: return ddt_make(-INFINITY, 0.0);
        case 2: return ddt_make(NAN, 0.0);
        case 3: return ddt_rand(r, 1, 1000);
        default: break;
        }
    return ddt_rand(r, 1, 0);
}

/* n elements of format f, random (poison: NaN in both words), copied to the device. */
static opnd opnd_new(ddblas_format f, size_t n, int data, int poison)
{
    rng r = rng_seed(seed++);
    opnd o = {ddt_alloc(f, n), {f, NULL, NULL}, n ? n : 1};
    for (size_t i = 0; i < o.n; i++)
        ddblas_set(o.h, (int64_t)i, poison ? ddt_make(NAN, NAN) : gen(&r, data));
    o.d.hi = gt_dmalloc(o.n * sizeof(double));
    o.d.lo = gt_dmalloc(o.n * ddt_lo_size(f));
    gt_h2d(o.d.hi, o.h.hi, o.n * sizeof(double));
    gt_h2d(o.d.lo, o.h.lo, o.n * ddt_lo_size(f));
    return o;
}

static void opnd_free(opnd *o)
{
    ddt_free(o->h);
    GT_CUDA(cudaFree(o->d.hi));
    GT_CUDA(cudaFree(o->d.lo));
}

/* Equal words: binary64 and binary32 ones NaN-equal (any payload), int32 ones by bits. */
static int same_d(double x, double y)
{
    return (isnan(x) && isnan(y)) || !memcmp(&x, &y, sizeof x);
}

static int same_lo(ddblas_format f, const void *a, const void *b, size_t i)
{
    if (f == DDBLAS_DD)
        return same_d(((const double *)a)[i], ((const double *)b)[i]);
    if (f == DDBLAS_DS) {
        const float x = ((const float *)a)[i], y = ((const float *)b)[i];
        return (isnan(x) && isnan(y)) || !memcmp(&x, &y, sizeof x);
    }
    return ((const int32_t *)a)[i] == ((const int32_t *)b)[i];
}

static int same_dd(ddblas_dd a, ddblas_dd b)
{
    return same_d(a.hi, b.hi) && same_d(a.lo, b.lo);
}

/* The device array equals the host one (every element, gaps and padding included). */
static int opnd_check(const char *what, const opnd *o)
{
    const size_t ls = ddt_lo_size(o->h.fmt);
    const ddblas_array g = {o->h.fmt, gt_hmalloc(o->n * sizeof(double)), gt_hmalloc(o->n * ls)};
    gt_d2h(g.hi, o->d.hi, o->n * sizeof(double));
    gt_d2h(g.lo, o->d.lo, o->n * ls);
    size_t bad = 0, first = 0;
    for (size_t i = 0; i < o->n; i++)
        if ((!same_d(g.hi[i], o->h.hi[i]) || !same_lo(g.fmt, g.lo, o->h.lo, i)) && !bad++)
            first = i;
    if (bad) {
        const ddblas_dd gv = ddblas_get(g, (int64_t)first), cv = ddblas_get(o->h, (int64_t)first);
        gt_fail("%s: %zu of %zu elements differ; first %zu: GPU %a + %a, CPU %a + %a", what, bad,
                o->n, first, gv.hi, gv.lo, cv.hi, cv.lo);
    }
    ddt_free(g);
    return !bad;
}

/* The GPU status equals the CPU's and DDBLAS_SUCCESS; waits for the stream. */
static void statuses(const char *what, ddblas_status g, ddblas_status h)
{
    GT_CUDA(cudaStreamSynchronize(S));
    GT_CUDA(cudaGetLastError());
    if (g != h || g != DDBLAS_SUCCESS)
        gt_fail("%s: status GPU %d, CPU %d", what, (int)g, (int)h);
}

/* ---------- the routines ---------- */

static void run_axpy(int64_t n, int64_t incx, int64_t incy, ddblas_dd alpha, int fs, int data)
{
    gt_case("axpy n=%lld incx=%lld incy=%lld alpha %s formats %d %s", (long long)n,
            (long long)incx, (long long)incy, is_zero(alpha) ? "0" : "DD", fs, data_name[data]);
    opnd x = opnd_new(FMT[fs][1], gt_span(n, incx), data, is_zero(alpha)),
         y = opnd_new(FMT[fs][2], gt_span(n, incy), data, 0);
    statuses("axpy", ddblas_axpy(H, S, n, alpha, x.d, incx, y.d, incy),
             ddblas_axpy_host(n, alpha, x.h, incx, y.h, incy));
    opnd_check("y", &y);
    opnd_free(&x);
    opnd_free(&y);
}

static void run_dot(int64_t n, int64_t incx, int64_t incy, int fs, int data)
{
    gt_case("dot n=%lld incx=%lld incy=%lld formats %d %s", (long long)n, (long long)incx,
            (long long)incy, fs, data_name[data]);
    opnd x = opnd_new(FMT[fs][0], gt_span(n, incx), data, 0),
         y = opnd_new(FMT[fs][1], gt_span(n, incy), data, 0);
    ddblas_dd *dr = gt_dmalloc(sizeof *dr);
    ddblas_dd g, c = {NAN, -1.0};
    statuses("dot", ddblas_dot(H, S, n, x.d, incx, y.d, incy, dr),
             ddblas_dot_host(n, x.h, incx, y.h, incy, &c));
    gt_d2h(&g, dr, sizeof g);
    if (!same_dd(g, c))
        gt_fail("result GPU %a + %a, CPU %a + %a", g.hi, g.lo, c.hi, c.lo);
    GT_CUDA(cudaFree(dr));
    opnd_free(&x);
    opnd_free(&y);
}

static void run_gemv(char trans, int64_t m, int64_t n, int64_t pad, int64_t incx, int64_t incy,
                     int ab, int fs, int data)
{
    gt_case("gemv %c %lldx%lld lda+%lld incx=%lld incy=%lld %s formats %d %s", trans,
            (long long)m, (long long)n, (long long)pad, (long long)incx, (long long)incy,
            AB[ab].name, fs, data_name[data]);
    const int t = trans != 'N';
    const int64_t lda = (m > 1 ? m : 1) + pad, K = t ? m : n, len = t ? n : m;
    opnd A = opnd_new(FMT[fs][0], (size_t)(lda * n), data, is_zero(AB[ab].alpha)),
         x = opnd_new(FMT[fs][1], gt_span(K, incx), data, is_zero(AB[ab].alpha)),
         y = opnd_new(FMT[fs][2], gt_span(len, incy), data, is_zero(AB[ab].beta));
    statuses("gemv", ddblas_gemv(H, S, trans, m, n, AB[ab].alpha, A.d, lda, x.d, incx,
                                 AB[ab].beta, y.d, incy),
             ddblas_gemv_host(trans, m, n, AB[ab].alpha, A.h, lda, x.h, incx, AB[ab].beta, y.h,
                              incy));
    opnd_check("y", &y);
    opnd_free(&A);
    opnd_free(&x);
    opnd_free(&y);
}

static void run_gemm(ddblas_scheme sch, char ta, char tb, int64_t m, int64_t n, int64_t k,
                     int64_t pad, int ab, int fs, int data)
{
    gt_case("gemm %s %c%c %lldx%lldx%lld ld+%lld %s formats %d %s",
            sch == DDBLAS_PAPER ? "paper" : "accurate", ta, tb, (long long)m, (long long)n,
            (long long)k, (long long)pad, AB[ab].name, fs, data_name[data]);
    const int64_t ra = ta == 'N' ? m : k, rb = tb == 'N' ? k : n;
    const int64_t lda = (ra > 1 ? ra : 1) + pad, ldb = (rb > 1 ? rb : 1) + pad,
                  ldc = (m > 1 ? m : 1) + pad;
    opnd A = opnd_new(FMT[fs][0], (size_t)(lda * (ta == 'N' ? k : m)), data, is_zero(AB[ab].alpha)),
         B = opnd_new(FMT[fs][1], (size_t)(ldb * (tb == 'N' ? n : k)), data, is_zero(AB[ab].alpha)),
         C = opnd_new(FMT[fs][2], (size_t)(ldc * n), data, is_zero(AB[ab].beta));
    statuses("gemm", ddblas_gemm(H, S, sch, ta, tb, m, n, k, AB[ab].alpha, A.d, lda, B.d, ldb,
                                 AB[ab].beta, C.d, ldc),
             ddblas_gemm_host(sch, ta, tb, m, n, k, AB[ab].alpha, A.h, lda, B.h, ldb,
                              AB[ab].beta, C.h, ldc));
    opnd_check("C", &C);
    opnd_free(&A);
    opnd_free(&B);
    opnd_free(&C);
}

static void run_convert(int64_t n, int64_t incs, int64_t incd, ddblas_format fs, ddblas_format fd,
                        int data)
{
    gt_case("convert n=%lld %s -> %s incs=%lld incd=%lld %s", (long long)n, ddt_fmt_name[fs],
            ddt_fmt_name[fd], (long long)incs, (long long)incd, data_name[data]);
    opnd s = opnd_new(fs, gt_span(n, incs), data, 0), d = opnd_new(fd, gt_span(n, incd), data, 0);
    statuses("convert", ddblas_convert(H, S, n, s.d, incs, d.d, incd),
             ddblas_convert_host(n, s.h, incs, d.h, incd));
    opnd_check("dst", &d);
    opnd_free(&s);
    opnd_free(&d);
}

/* ---------- groups ---------- */

static const int64_t VEC_N[8] = {0, 1, 255, 256, 1025, 5000, 65537, (1 << 20) + 3};
static const int64_t INCS[3][2] = {{1, 1}, {-2, 3}, {3, -2}};

static void vectors(void)
{
    gt_group("ddblas axpy, dot (sizes x increments x formats)");
    for (int s = 0; s < 8; s++)
        for (int i = 0; i < 3; i++) {
            const int fs = (s + i) % 6, data = s % 3 == 2 ? D_SPREAD : D_UNIFORM;
            run_dot(VEC_N[s], INCS[i][0], INCS[i][1], fs, data);
            run_axpy(VEC_N[s], INCS[i][0], INCS[i][1], AL, fs, data);
            if (s < 6) /* the other format sets on the smaller sizes */
                for (int f = 0; f < 6; f++)
                    if (f != fs)
                        run_dot(VEC_N[s], INCS[i][0], INCS[i][1], f, D_UNIFORM);
        }
    for (int s = 0; s < 8; s++) {
        run_axpy(VEC_N[s], -2, 3, ZERO, s % 6, D_UNIFORM); /* x poisoned, y untouched */
        run_dot(VEC_N[s], 1, -2, s % 6, D_SPECIAL);
        run_axpy(VEC_N[s], 3, 1, AL, s % 6, D_SPECIAL);
    }
    gt_group("ddblas convert (format pairs x sizes x increments)");
    for (int a = 0; a < 4; a++)
        for (int b = 0; b < 4; b++)
            for (int s = 0; s < 8; s++)
                run_convert(VEC_N[s], INCS[s % 3][0], INCS[s % 3][1], (ddblas_format)a,
                            (ddblas_format)b, s % 4 == 3 ? D_SPECIAL : D_SPREAD);
}

static void matrices(void)
{
    static const int64_t gv[9][2] = {{1, 1},     {1, 5000},   {5000, 1},   {30, 300},  {300, 30},
                                     {1000, 1000}, {64, 100000}, {100000, 64}, {4097, 513}};
    static const char ops[3] = {'N', 'T', 'C'};
    gt_group("ddblas gemv (shapes x ops x alpha/beta x formats x increments)");
    for (int s = 0; s < 9; s++)
        for (int o = 0; o < 3; o++) {
            const int big = gv[s][0] * gv[s][1] > 1000000;
            for (int ab = 0; ab < 4; ab++)
                for (int f = 0; f < 6; f += big ? 5 : 1)
                    run_gemv(ops[o], gv[s][0], gv[s][1], (s + f) % 3 == 0 ? 0 : 3,
                             INCS[(s + f + ab) % 3][0], INCS[(s + f + ab) % 3][1], ab, f,
                             ab == 0 && f == 1 ? D_SPREAD : D_UNIFORM);
            run_gemv(ops[o], gv[s][0], gv[s][1], 1, 1, 1, 0, s % 6, D_SPECIAL);
        }
    static const int64_t gm[6][3] = {{1, 1, 1},     {17, 13, 5},   {65, 63, 17},
                                     {257, 129, 65}, {300, 200, 1}, {128, 128, 0}};
    gt_group("ddblas gemm (shapes x op pairs x schemes x alpha/beta x formats)");
    for (int s = 0; s < 6; s++)
        for (int p = 0; p < 9; p++)
            for (int sch = 0; sch < 2; sch++) {
                const int small = gm[s][0] * gm[s][1] * gm[s][2] < 100000;
                for (int ab = 0; ab < 4; ab += small ? 1 : 3)
                    for (int f = 0; f < 6; f += small ? 1 : 4)
                        run_gemm((ddblas_scheme)sch, ops[p / 3], ops[p % 3], gm[s][0], gm[s][1],
                                 gm[s][2], (s + p + f) % 2 ? 2 : 0, ab, f,
                                 f == 2 ? D_SPREAD : D_UNIFORM);
                run_gemm((ddblas_scheme)sch, ops[p / 3], ops[p % 3], gm[s][0], gm[s][1], gm[s][2],
                         1, 0, (s + p) % 6, D_SPECIAL);
            }
}

/* ---------- argument rules ---------- */

static ddblas_status call_gpu(ddblas_handle h, const ddt_call *c, ddt_operands o)
{
    o = ddt_call_operands(c, o);
    const ddblas_dd al = ddt_call_alpha(c), be = ddt_call_beta(c);
    switch (c->r) {
    case DDT_AXPY:
        return ddblas_axpy(h, S, c->n, al, o.A, c->incx, o.C, c->incy);
    case DDT_DOT:
        return ddblas_dot(h, S, c->n, o.A, c->incx, o.B, c->incy, o.result);
    case DDT_GEMV:
        return ddblas_gemv(h, S, c->ta, c->m, c->n, al, o.A, c->lda, o.B, c->incx, be, o.C,
                           c->incy);
    case DDT_GEMM:
        return ddblas_gemm(h, S, (ddblas_scheme)c->scheme, c->ta, c->tb, c->m, c->n, c->k, al,
                           o.A, c->lda, o.B, c->ldb, be, o.C, c->ldc);
    default:
        return ddblas_convert(h, S, c->n, o.A, c->incx, o.C, c->incy);
    }
}

static void arguments(void)
{
    gt_group("ddblas argument rules (status as the CPU's, nothing written)");
    static ddt_call calls[DDT_ARG_MAX];
    const int n = ddt_arg_calls(calls);
    for (int i = 0; i < n; i++) {
        gt_case("%s", calls[i].what);
        opnd A = opnd_new(DDBLAS_DD, DDT_ARG_ELEMS, D_UNIFORM, 0),
             B = opnd_new(DDBLAS_DS, DDT_ARG_ELEMS, D_UNIFORM, 0),
             C = opnd_new(DDBLAS_DI_NEAREST, DDT_ARG_ELEMS, D_UNIFORM, 0);
        ddblas_dd *dr = gt_dmalloc(sizeof *dr);
        ddblas_dd g, c = {NAN, -1.0};
        gt_h2d(dr, &c, sizeof c);
        const ddt_operands od = {A.d, B.d, C.d, dr}, oh = {A.h, B.h, C.h, &c};
        const ddblas_status sg = call_gpu(H, &calls[i], od), sh = ddt_call_host(&calls[i], oh);
        GT_CUDA(cudaStreamSynchronize(S));
        if (sg != sh || sg != calls[i].want)
            gt_fail("status GPU %d, CPU %d, want %d", (int)sg, (int)sh, (int)calls[i].want);
        opnd_check("A", &A);
        opnd_check("B", &B);
        opnd_check("C", &C);
        gt_d2h(&g, dr, sizeof g);
        if (!same_dd(g, c))
            gt_fail("result GPU %a + %a, CPU %a + %a", g.hi, g.lo, c.hi, c.lo);
        /* a NULL handle: invalid whatever the rest */
        if (call_gpu(NULL, &calls[i], od) != DDBLAS_INVALID_VALUE)
            gt_fail("NULL handle accepted");
        GT_CUDA(cudaFree(dr));
        opnd_free(&A);
        opnd_free(&B);
        opnd_free(&C);
    }
}

/* ---------- a non-blocking stream: dependent calls queued back to back ---------- */

static void streams(void)
{
    gt_group("ddblas on a non-blocking stream");
    GT_CUDA(cudaStreamCreateWithFlags(&S, cudaStreamNonBlocking));
    for (int rep = 0; rep < 3; rep++) {
        gt_case("axpy -> gemv -> gemm -> dot -> convert, n=%d", 3000 + rep * 1000);
        const int64_t n = 3000 + rep * 1000, m = 70;
        opnd x = opnd_new(DDBLAS_DS, (size_t)n, D_UNIFORM, 0),
             y = opnd_new(DDBLAS_DD, (size_t)n, D_UNIFORM, 0),
             A = opnd_new(DDBLAS_DI_NEAREST, (size_t)(m * n), D_UNIFORM, 0),
             z = opnd_new(DDBLAS_DI, (size_t)m, D_UNIFORM, 0),
             C = opnd_new(DDBLAS_DD, (size_t)(m * m), D_UNIFORM, 0),
             w = opnd_new(DDBLAS_DS, (size_t)n, D_UNIFORM, 0);
        ddblas_dd *dr = gt_dmalloc(sizeof *dr);
        ddblas_dd g, c;
        ddblas_status sg[5], sh[5];
        sg[0] = ddblas_axpy(H, S, n, AL, x.d, 1, y.d, 1);
        sg[1] = ddblas_gemv(H, S, 'N', m, n, AL, A.d, m, y.d, 1, BE, z.d, 1);
        sg[2] = ddblas_gemm(H, S, DDBLAS_ACCURATE, 'N', 'T', m, m, n, BE, A.d, m, A.d, m, AL,
                            C.d, m);
        sg[3] = ddblas_dot(H, S, m, z.d, 1, C.d, m + 1, dr); /* z . diagonal of C */
        sg[4] = ddblas_convert(H, S, n, y.d, -1, w.d, 1);
        sh[0] = ddblas_axpy_host(n, AL, x.h, 1, y.h, 1);
        sh[1] = ddblas_gemv_host('N', m, n, AL, A.h, m, y.h, 1, BE, z.h, 1);
        sh[2] = ddblas_gemm_host(DDBLAS_ACCURATE, 'N', 'T', m, m, n, BE, A.h, m, A.h, m, AL, C.h,
                                 m);
        sh[3] = ddblas_dot_host(m, z.h, 1, C.h, m + 1, &c);
        sh[4] = ddblas_convert_host(n, y.h, -1, w.h, 1);
        for (int i = 0; i < 5; i++)
            statuses("call", sg[i], sh[i]);
        gt_d2h(&g, dr, sizeof g);
        if (!same_dd(g, c))
            gt_fail("dot GPU %a + %a, CPU %a + %a", g.hi, g.lo, c.hi, c.lo);
        opnd_check("y", &y);
        opnd_check("z", &z);
        opnd_check("C", &C);
        opnd_check("w", &w);
        GT_CUDA(cudaFree(dr));
        opnd_free(&x);
        opnd_free(&y);
        opnd_free(&A);
        opnd_free(&z);
        opnd_free(&C);
        opnd_free(&w);
    }
    /* a few of the general cases on this stream */
    run_gemm(DDBLAS_PAPER, 'T', 'N', 65, 63, 17, 2, 0, 1, D_UNIFORM);
    run_gemv('T', 4097, 513, 3, -2, 3, 0, 3, D_UNIFORM);
    run_dot(65537, 3, -2, 5, D_SPREAD);
    GT_CUDA(cudaStreamDestroy(S));
    S = 0;
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    int count = 0;
    const cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count == 0) {
        printf("ddblas: SKIP: no GPU (%s, %d devices)\n",
               e == cudaSuccess ? "success" : cudaGetErrorString(e), count);
        return 77;
    }
    struct cudaDeviceProp prop;
    GT_CUDA(cudaGetDeviceProperties(&prop, 0));
    printf("ddblas: %s (cc %d.%d, %d SMs)\n", prop.name, prop.major, prop.minor,
           prop.multiProcessorCount);
    const double t0 = gt_now();
    if (ddblas_create(&H) != DDBLAS_SUCCESS) {
        printf("ddblas: FAIL: ddblas_create\n");
        return 1;
    }
    vectors();
    matrices();
    arguments();
    streams();
    gt_group("ddblas destroy");
    gt_case("destroy");
    if (ddblas_destroy(H) != DDBLAS_SUCCESS)
        gt_fail("ddblas_destroy");
    printf("ddblas: %.1f s\n", gt_now() - t0);
    return gt_finish();
}
