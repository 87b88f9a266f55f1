/* ddblas_args.h — the argument rules of libddblas (engines/dd/ddblas_host.c's header comment) as
 * a list of calls, shared by the CPU unit test (tests/unit/ddblas_args.c: each gives its status
 * and an invalid one writes nothing) and the GPU test (tests/gpu/ddblas.c: the GPU's status is
 * the CPU's).  Every routine starts from a valid call on small operands and changes one thing.
 *
 * Operands: three arrays of DDT_ARG_ELEMS elements, A (DD), B (D+S), C (D+I to nearest), used as
 *   AXPY x = A, y = C;  DOT x = A, y = B, and result;  GEMV A, x = B, y = C;  GEMM A, B, C;
 *   CONVERT src = A, dst = C.
 * Header-only, static inline functions. */
#ifndef DFS_TEST_DDBLAS_ARGS_H
#define DFS_TEST_DDBLAS_ARGS_H

#include "../../include/ddblas.h"

#include <stdint.h>

#define DDT_ARG_ELEMS 64 /* enough for every call below */
#define DDT_ARG_MAX 96   /* calls at most */

typedef enum { DDT_AXPY, DDT_DOT, DDT_GEMV, DDT_GEMM, DDT_CONVERT } ddt_routine;

enum { /* ddt_call.nulls: which pointers are NULL */
    DDT_NULL_AHI = 1, DDT_NULL_ALO = 2, DDT_NULL_BHI = 4, DDT_NULL_BLO = 8, DDT_NULL_CHI = 16,
    DDT_NULL_CLO = 32, DDT_NULL_RESULT = 64,
    DDT_NULL_A = 3, DDT_NULL_B = 12, DDT_NULL_C = 48
};

typedef struct {
    ddt_routine r;
    const char *what;
    ddblas_status want;
    int scheme;
    char ta, tb;
    int64_t m, n, k; /* AXPY, DOT, CONVERT: n */
    int64_t lda, ldb, ldc, incx, incy;
    int alpha_zero, beta_zero;
    int bad_fmt; /* 0 none; 1, 2, 3: A, B or C gets format `fmt` */
    int fmt;
    unsigned nulls;
} ddt_call;

typedef struct {
    ddblas_array A, B, C;
    ddblas_dd *result;
} ddt_operands;

/* The operands of call c: the arrays given with c's format change and NULL pointers. */
static inline ddt_operands ddt_call_operands(const ddt_call *c, ddt_operands o)
{
    ddblas_array *arr[3] = {&o.A, &o.B, &o.C};
    if (c->bad_fmt)
        arr[c->bad_fmt - 1]->fmt = (ddblas_format)c->fmt;
    for (int i = 0; i < 3; i++) {
        if (c->nulls & (1u << (2 * i)))
            arr[i]->hi = NULL;
        if (c->nulls & (2u << (2 * i)))
            arr[i]->lo = NULL;
    }
    if (c->nulls & DDT_NULL_RESULT)
        o.result = NULL;
    return o;
}

static inline ddblas_dd ddt_call_alpha(const ddt_call *c)
{
    ddblas_dd a = {c->alpha_zero ? 0.0 : 1.5, c->alpha_zero ? 0.0 : 0x1p-60};
    return a;
}

static inline ddblas_dd ddt_call_beta(const ddt_call *c)
{
    ddblas_dd b = {c->beta_zero ? 0.0 : -0.5, 0.0};
    return b;
}

/* Fills out[] with the calls; returns how many. */
static inline int ddt_arg_calls(ddt_call *out)
{
    const ddt_call none = {DDT_AXPY, "", DDBLAS_SUCCESS, 0, 'N', 'N', 0, 0, 0, 1, 1, 1, 1, 1,
                           0, 0, 0, 0, 0u};
    ddt_call axpy = none, dot = none, gemv = none, gemm = none, conv = none;
    axpy.n = 4;
    axpy.incx = -2;
    axpy.incy = 3;
    dot = axpy;
    dot.r = DDT_DOT;
    conv = axpy;
    conv.r = DDT_CONVERT;
    gemv.r = DDT_GEMV;
    gemv.m = 3;
    gemv.n = 4;
    gemv.lda = 3;
    gemv.incy = -1;
    gemm.r = DDT_GEMM;
    gemm.m = 3;
    gemm.n = 2;
    gemm.k = 4;
    gemm.lda = 3;
    gemm.ldb = 4;
    gemm.ldc = 3;
    int n = 0;
#define DDT_CALL(base, status, desc, change)                                                       \
    do {                                                                                           \
        ddt_call c_ = (base);                                                                      \
        c_.want = (status);                                                                        \
        c_.what = (desc);                                                                          \
        change;                                                                                    \
        out[n++] = c_;                                                                             \
    } while (0)
#define DDT_BAD(base, desc, change) DDT_CALL(base, DDBLAS_INVALID_VALUE, desc, change)
#define DDT_OK(base, desc, change) DDT_CALL(base, DDBLAS_SUCCESS, desc, change)
    /* AXPY */
    DDT_OK(axpy, "axpy valid", (void)0);
    DDT_BAD(axpy, "axpy n < 0", c_.n = -1);
    DDT_BAD(axpy, "axpy incx 0", c_.incx = 0);
    DDT_BAD(axpy, "axpy incy 0", c_.incy = 0);
    DDT_BAD(axpy, "axpy x format 4", (c_.bad_fmt = 1, c_.fmt = 4));
    DDT_BAD(axpy, "axpy y format -1", (c_.bad_fmt = 3, c_.fmt = -1));
    DDT_BAD(axpy, "axpy y format 4, n 0", (c_.bad_fmt = 3, c_.fmt = 4, c_.n = 0));
    DDT_BAD(axpy, "axpy x.hi NULL", c_.nulls = DDT_NULL_AHI);
    DDT_BAD(axpy, "axpy y.lo NULL", c_.nulls = DDT_NULL_CLO);
    DDT_OK(axpy, "axpy alpha 0, x and y NULL", (c_.alpha_zero = 1, c_.nulls = DDT_NULL_A | DDT_NULL_C));
    DDT_OK(axpy, "axpy n 0, x and y NULL", (c_.n = 0, c_.nulls = DDT_NULL_A | DDT_NULL_C));
    /* DOT */
    DDT_OK(dot, "dot valid", (void)0);
    DDT_BAD(dot, "dot n < 0", c_.n = -2);
    DDT_BAD(dot, "dot incx 0", c_.incx = 0);
    DDT_BAD(dot, "dot incy 0, n 0", (c_.incy = 0, c_.n = 0));
    DDT_BAD(dot, "dot y format 5", (c_.bad_fmt = 2, c_.fmt = 5));
    DDT_BAD(dot, "dot x.lo NULL", c_.nulls = DDT_NULL_ALO);
    DDT_BAD(dot, "dot y.hi NULL", c_.nulls = DDT_NULL_BHI);
    DDT_BAD(dot, "dot result NULL", c_.nulls = DDT_NULL_RESULT);
    DDT_BAD(dot, "dot result NULL, n 0", (c_.nulls = DDT_NULL_RESULT, c_.n = 0));
    DDT_OK(dot, "dot n 0, x and y NULL", (c_.n = 0, c_.nulls = DDT_NULL_A | DDT_NULL_B));
    /* GEMV */
    DDT_OK(gemv, "gemv valid", (void)0);
    DDT_OK(gemv, "gemv op T", c_.ta = 'T');
    DDT_OK(gemv, "gemv op c", c_.ta = 'c');
    DDT_BAD(gemv, "gemv op X", c_.ta = 'X');
    DDT_BAD(gemv, "gemv op 0", c_.ta = '\0');
    DDT_BAD(gemv, "gemv m < 0", c_.m = -1);
    DDT_BAD(gemv, "gemv n < 0", c_.n = -1);
    DDT_BAD(gemv, "gemv lda < m", c_.lda = 2);
    DDT_BAD(gemv, "gemv op T, lda < m", (c_.ta = 'T', c_.lda = 2));
    DDT_BAD(gemv, "gemv m 0, lda 0", (c_.m = 0, c_.lda = 0));
    DDT_BAD(gemv, "gemv incx 0", c_.incx = 0);
    DDT_BAD(gemv, "gemv incy 0", c_.incy = 0);
    DDT_BAD(gemv, "gemv A format 4", (c_.bad_fmt = 1, c_.fmt = 4));
    DDT_BAD(gemv, "gemv y format -3, m 0", (c_.bad_fmt = 3, c_.fmt = -3, c_.m = 0));
    DDT_BAD(gemv, "gemv A.hi NULL", c_.nulls = DDT_NULL_AHI);
    DDT_BAD(gemv, "gemv x.lo NULL", c_.nulls = DDT_NULL_BLO);
    DDT_BAD(gemv, "gemv y.hi NULL", c_.nulls = DDT_NULL_CHI);
    DDT_BAD(gemv, "gemv alpha 0, y.lo NULL", (c_.alpha_zero = 1, c_.nulls = DDT_NULL_CLO));
    DDT_OK(gemv, "gemv alpha 0, A and x NULL", (c_.alpha_zero = 1, c_.nulls = DDT_NULL_A | DDT_NULL_B));
    DDT_OK(gemv, "gemv alpha, beta 0", (c_.alpha_zero = 1, c_.beta_zero = 1));
    DDT_OK(gemv, "gemv m 0, lda 1, all NULL", (c_.m = 0, c_.lda = 1, c_.nulls = 63u));
    DDT_OK(gemv, "gemv n 0, all NULL", (c_.n = 0, c_.nulls = 63u));
    /* GEMM */
    DDT_OK(gemm, "gemm valid", (void)0);
    DDT_OK(gemm, "gemm paper", c_.scheme = 1);
    DDT_OK(gemm, "gemm op T N, lda = k", (c_.ta = 'T', c_.lda = 4));
    DDT_OK(gemm, "gemm op N C, ldb = n", (c_.tb = 'C', c_.ldb = 2));
    DDT_BAD(gemm, "gemm scheme 2", c_.scheme = 2);
    DDT_BAD(gemm, "gemm scheme -1", c_.scheme = -1);
    DDT_BAD(gemm, "gemm op A x", c_.ta = 'x');
    DDT_BAD(gemm, "gemm op B ' '", c_.tb = ' ');
    DDT_BAD(gemm, "gemm m < 0", c_.m = -1);
    DDT_BAD(gemm, "gemm n < 0", c_.n = -1);
    DDT_BAD(gemm, "gemm k < 0", c_.k = -1);
    DDT_BAD(gemm, "gemm op N, lda < m", c_.lda = 2);
    DDT_BAD(gemm, "gemm op T, lda < k", (c_.ta = 't', c_.lda = 3));
    DDT_BAD(gemm, "gemm op N, ldb < k", c_.ldb = 3);
    DDT_BAD(gemm, "gemm op T, ldb < n", (c_.tb = 'T', c_.ldb = 1));
    DDT_BAD(gemm, "gemm ldc < m", c_.ldc = 2);
    DDT_BAD(gemm, "gemm m 0, ldc 0", (c_.m = 0, c_.ldc = 0, c_.lda = 1));
    DDT_BAD(gemm, "gemm k 0, ldb 0", (c_.k = 0, c_.ldb = 0));
    DDT_BAD(gemm, "gemm B format 9", (c_.bad_fmt = 2, c_.fmt = 9));
    DDT_BAD(gemm, "gemm C format 4", (c_.bad_fmt = 3, c_.fmt = 4));
    DDT_BAD(gemm, "gemm A.lo NULL", c_.nulls = DDT_NULL_ALO);
    DDT_BAD(gemm, "gemm B.hi NULL", c_.nulls = DDT_NULL_BHI);
    DDT_BAD(gemm, "gemm C.hi NULL, alpha 0", (c_.nulls = DDT_NULL_CHI, c_.alpha_zero = 1));
    DDT_OK(gemm, "gemm alpha 0, A and B NULL", (c_.alpha_zero = 1, c_.nulls = DDT_NULL_A | DDT_NULL_B));
    DDT_OK(gemm, "gemm k 0, A and B NULL", (c_.k = 0, c_.nulls = DDT_NULL_A | DDT_NULL_B));
    DDT_OK(gemm, "gemm beta 0", c_.beta_zero = 1);
    DDT_OK(gemm, "gemm n 0, all NULL", (c_.n = 0, c_.nulls = 63u));
    /* CONVERT */
    DDT_OK(conv, "convert valid", (void)0);
    DDT_BAD(conv, "convert n < 0", c_.n = -1);
    DDT_BAD(conv, "convert incs 0", c_.incx = 0);
    DDT_BAD(conv, "convert incd 0", c_.incy = 0);
    DDT_BAD(conv, "convert src format 4", (c_.bad_fmt = 1, c_.fmt = 4));
    DDT_BAD(conv, "convert dst.lo NULL", c_.nulls = DDT_NULL_CLO);
    DDT_OK(conv, "convert n 0, all NULL", (c_.n = 0, c_.nulls = 63u));
#undef DDT_OK
#undef DDT_BAD
#undef DDT_CALL
    return n;
}

/* Call c on the CPU. */
static inline ddblas_status ddt_call_host(const ddt_call *c, ddt_operands o)
{
    o = ddt_call_operands(c, o);
    const ddblas_dd al = ddt_call_alpha(c), be = ddt_call_beta(c);
    switch (c->r) {
    case DDT_AXPY:
        return ddblas_axpy_host(c->n, al, o.A, c->incx, o.C, c->incy);
    case DDT_DOT:
        return ddblas_dot_host(c->n, o.A, c->incx, o.B, c->incy, o.result);
    case DDT_GEMV:
        return ddblas_gemv_host(c->ta, c->m, c->n, al, o.A, c->lda, o.B, c->incx, be, o.C,
                                c->incy);
    case DDT_GEMM:
        return ddblas_gemm_host((ddblas_scheme)c->scheme, c->ta, c->tb, c->m, c->n, c->k, al,
                                o.A, c->lda, o.B, c->ldb, be, o.C, c->ldc);
    default:
        return ddblas_convert_host(c->n, o.A, c->incx, o.C, c->incy);
    }
}

#endif
