/* df_common.h — what the df engine's GPU tests (df_gemm.c, df_vec.c) share: the scheme named by
 * EXBLAS_MODE and its error bound, a double-double reference arithmetic, host buffers and timed
 * test groups (the last two used by the repro and dd tests too; the layouts and calls all of them share
 * are in layout.h).  Built on common.h. */
#ifndef DFS_GPU_DF_COMMON_H
#define DFS_GPU_DF_COMMON_H

#include <stddef.h>
#include <stdint.h>

/* The DF scheme (DFS_DF_MAD16/15/29) of EXBLAS_MODE=df[:scheme=...,...]; *name gets its option
 * name.  Fatal (naming `test`) for any other mode. */
int df_test_scheme(const char *test, const char **name);
/* The error bound tested for a sum of k products, normwise (u = 2^-24): (3k+4)u^2 + 2^-52 for
 * the accurate scheme, 4(k+1)u^2 + 2^-52 for the others; and the same as text. */
double df_test_bound(int scheme, int64_t k);
const char *df_test_bound_text(int scheme);

/* Double-double arithmetic for the references (compiled without contraction). */
typedef struct {
    double hi, lo;
} dd;
dd fast_two_sum(double a, double b);
dd two_sum(double a, double b);
dd two_prod(double a, double b);
dd dd_add(dd a, dd b);
dd dd_mul_d(dd a, double b);

/* Zeroed pinned host memory / plain host memory for n doubles (fatal on failure). */
double *df_pinned(size_t n);
double *df_xmalloc(size_t n);
uint64_t df_bits(double x);

/* gt_group / gt_end_group that also print the group's time and the time since the first group. */
void df_group(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void df_group_end(void);

#endif
