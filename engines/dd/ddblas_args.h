/* ddblas_args.h — libddblas's argument checks, shared by the GPU entry points (ddblas.c) and the
 * CPU ones (ddblas_host.c) so that both answer the same arguments the same way.  Each returns 1
 * when the arguments are valid.  The rules:
 *   - sizes (n, m, k) >= 0; increments != 0; formats DDBLAS_DD .. DDBLAS_DI_NEAREST, always
 *     checked; op 'N', 'T', 'C' (either case); scheme DDBLAS_ACCURATE or DDBLAS_PAPER;
 *   - lda >= max(1, rows of A as stored): GEMV m, GEMM m (op N) or k; ldb >= max(1, k (op N) or
 *     n); ldc >= max(1, m);
 *   - an array's hi and lo are not NULL when the call reads or writes it: x and y of AXPY and DOT
 *     when n > 0 (AXPY's x, y only if alpha is not zero); GEMV's A and x when m, n > 0 and alpha is
 *     not zero, y when m, n > 0; GEMM's A and B when m, n, k > 0 and alpha is not zero, C when
 *     m, n > 0; DOT's result always. */
#ifndef DFS_DDBLAS_ARGS_H
#define DFS_DDBLAS_ARGS_H

#include "../../include/ddblas.h"

static inline int ddblas_op_ok(char c, int *trans)
{
    *trans = 0;
    if (c == 'N' || c == 'n')
        *trans = 0;
    else if (c == 'T' || c == 't' || c == 'C' || c == 'c')
        *trans = 1;
    else
        return 0;
    return 1;
}

static inline int ddblas_is_zero(ddblas_dd a)
{
    return a.hi == 0.0 && a.lo == 0.0;
}

/* fmt valid, and hi, lo present when used */
static inline int ddblas_array_ok(ddblas_array a, int used)
{
    return (unsigned)a.fmt <= DDBLAS_DI_NEAREST && (!used || (a.hi && a.lo));
}

static inline int64_t ddblas_max1(int64_t v)
{
    return v > 1 ? v : 1;
}

static inline int ddblas_axpy_ok(int64_t n, ddblas_dd alpha, ddblas_array x, int64_t incx,
                                 ddblas_array y, int64_t incy)
{
    const int used = n > 0 && !ddblas_is_zero(alpha);
    return n >= 0 && incx != 0 && incy != 0 && ddblas_array_ok(x, used) &&
           ddblas_array_ok(y, used);
}

static inline int ddblas_dot_ok(int64_t n, ddblas_array x, int64_t incx, ddblas_array y,
                                int64_t incy, const ddblas_dd *result)
{
    return n >= 0 && incx != 0 && incy != 0 && result && ddblas_array_ok(x, n > 0) &&
           ddblas_array_ok(y, n > 0);
}

static inline int ddblas_gemv_ok(char trans, int *t, int64_t m, int64_t n, ddblas_dd alpha,
                                 ddblas_array A, int64_t lda, ddblas_array x, int64_t incx,
                                 ddblas_array y, int64_t incy)
{
    const int some = m > 0 && n > 0, reads = some && !ddblas_is_zero(alpha);
    return ddblas_op_ok(trans, t) && m >= 0 && n >= 0 && lda >= ddblas_max1(m) && incx != 0 &&
           incy != 0 && ddblas_array_ok(A, reads) && ddblas_array_ok(x, reads) &&
           ddblas_array_ok(y, some);
}

static inline int ddblas_gemm_ok(ddblas_scheme scheme, char transa, char transb, int *ta, int *tb,
                                 int64_t m, int64_t n, int64_t k, ddblas_dd alpha, ddblas_array A,
                                 int64_t lda, ddblas_array B, int64_t ldb, ddblas_array C,
                                 int64_t ldc)
{
    if (!ddblas_op_ok(transa, ta) || !ddblas_op_ok(transb, tb) ||
        (unsigned)scheme > DDBLAS_PAPER || m < 0 || n < 0 || k < 0)
        return 0;
    const int some = m > 0 && n > 0, reads = some && k > 0 && !ddblas_is_zero(alpha);
    return lda >= ddblas_max1(*ta ? k : m) && ldb >= ddblas_max1(*tb ? n : k) &&
           ldc >= ddblas_max1(m) && ddblas_array_ok(A, reads) && ddblas_array_ok(B, reads) &&
           ddblas_array_ok(C, some);
}

static inline int ddblas_convert_ok(int64_t n, ddblas_array src, int64_t incs, ddblas_array dst,
                                    int64_t incd)
{
    return n >= 0 && incs != 0 && incd != 0 && ddblas_array_ok(src, n > 0) &&
           ddblas_array_ok(dst, n > 0);
}

#endif
