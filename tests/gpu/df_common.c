/* df_common.c — see df_common.h. */
#include "df_common.h"

#include "../../engines/df/df_gemm.h"
#include "common.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int df_test_scheme(const char *test, const char **name)
{
    const char *m = gt_mode();
    if (!gt_mode_is("df"))
        gt_fatal("%s needs EXBLAS_MODE=df[:scheme=paper|fused|lazy|accurate], not '%s'", test,
                 m ? m : "(unset)");
    int scheme = DFS_DF_MAD15; /* the engine's default */
    *name = "fused";
    const char *s = gt_mode_option("scheme");
    if (s) {
        if (!strcmp(s, "paper"))
            scheme = DFS_DF_MAD16, *name = "paper";
        else if (!strcmp(s, "fused"))
            scheme = DFS_DF_MAD15, *name = "fused";
        else if (!strcmp(s, "accurate"))
            scheme = DFS_DF_MAD29, *name = "accurate";
        else if (!strcmp(s, "lazy"))
            scheme = DFS_DF_MAD12, *name = "lazy";
        else
            gt_fatal("EXBLAS_MODE=%s: scheme is not paper, fused, lazy or accurate", m);
    }
    return scheme;
}

double df_test_bound(int scheme, int64_t k)
{
    const double u2 = 0x1p-48;
    /* lazy: the vector routines sum sloppily, within its bound */
    return dfs_df_scheme_bound(scheme, k) * u2 + 0x1p-52;
}

const char *df_test_bound_text(int scheme)
{
    return scheme == DFS_DF_MAD29   ? "(3k+4)u^2 + 2^-52"
           : scheme == DFS_DF_MAD12 ? "(17k+196)u^2 + 2^-52"
                                    : "4(k+1)u^2 + 2^-52";
}

dd fast_two_sum(double a, double b)
{
    double s = a + b;
    return (dd){s, b - (s - a)};
}

dd two_sum(double a, double b)
{
    double s = a + b, v = s - a;
    return (dd){s, (a - (s - v)) + (b - v)};
}

dd two_prod(double a, double b)
{
    double p = a * b;
    return (dd){p, fma(a, b, -p)};
}

dd dd_add(dd a, dd b)
{
    dd s = two_sum(a.hi, b.hi);
    return fast_two_sum(s.hi, s.lo + (a.lo + b.lo));
}

dd dd_mul_d(dd a, double b)
{
    dd p = two_prod(a.hi, b);
    return fast_two_sum(p.hi, p.lo + a.lo * b);
}

double *df_pinned(size_t n)
{
    void *p = NULL;
    GT_CUDA(cudaMallocHost(&p, n * sizeof(double)));
    memset(p, 0, n * sizeof(double));
    return p;
}

double *df_xmalloc(size_t n)
{
    return gt_hmalloc(n * sizeof(double));
}

uint64_t df_bits(double x)
{
    uint64_t b;
    memcpy(&b, &x, sizeof b);
    return b;
}

static double t_first = -1, t_group;

void df_group(const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    gt_group("%s", buf);
    t_group = gt_now();
    if (t_first < 0)
        t_first = t_group;
}

void df_group_end(void)
{
    gt_end_group();
    printf("     (%.1f s; %.1f s since the first group)\n", gt_now() - t_group, gt_now() - t_first);
}
