/* ddblas_ref.c — the libddblas unit test's exact references (ddblas_test.h). */
#include "ddblas_test.h"

#include <math.h>
#include <string.h>

void ref_init(mpfr_t x)
{
    mpfr_init2(x, DDT_PREC);
    mpfr_set_zero(x, 1);
}

void ref_add_dd(mpfr_t acc, ddblas_dd a)
{
    DDT_TRUE(mpfr_add_d(acc, acc, a.hi, MPFR_RNDN) == 0);
    DDT_TRUE(mpfr_add_d(acc, acc, a.lo, MPFR_RNDN) == 0);
}

/* acc += x y for binary64 x, y: the product has at most 106 bits (p: a scratch kept for the
 * process, the test being single-threaded). */
static void add_word_prod(mpfr_t acc, double x, double y)
{
    static mpfr_t p;
    static int ready;
    if (x == 0.0 || y == 0.0)
        return;
    if (!ready) {
        mpfr_init2(p, 128);
        ready = 1;
    }
    mpfr_set_d(p, x, MPFR_RNDN);
    DDT_TRUE(mpfr_mul_d(p, p, y, MPFR_RNDN) == 0);
    DDT_TRUE(mpfr_add(acc, acc, p, MPFR_RNDN) == 0);
}

void ref_add_prod(mpfr_t acc, ddblas_dd a, ddblas_dd b)
{
    add_word_prod(acc, a.hi, b.hi);
    add_word_prod(acc, a.hi, b.lo);
    add_word_prod(acc, a.lo, b.hi);
    add_word_prod(acc, a.lo, b.lo);
}

void ref_finish(mpfr_t out, mpfr_srcptr s, ddblas_dd alpha, ddblas_dd beta, ddblas_dd c)
{
    mpfr_t t;
    mpfr_init2(t, DDT_PREC);
    mpfr_set_zero(out, 1);
    DDT_TRUE(mpfr_mul_d(t, s, alpha.hi, MPFR_RNDN) == 0);
    DDT_TRUE(mpfr_add(out, out, t, MPFR_RNDN) == 0);
    DDT_TRUE(mpfr_mul_d(t, s, alpha.lo, MPFR_RNDN) == 0);
    DDT_TRUE(mpfr_add(out, out, t, MPFR_RNDN) == 0);
    if (beta.hi != 0.0 || beta.lo != 0.0)
        ref_add_prod(out, beta, c);
    mpfr_clear(t);
}

double ref_abs_err(mpfr_srcptr exact, ddblas_dd got)
{
    mpfr_t d;
    ref_init(d);
    ref_add_dd(d, got);
    DDT_TRUE(mpfr_sub(d, d, exact, MPFR_RNDN) == 0);
    const double e = fabs(mpfr_get_d(d, MPFR_RNDU));
    mpfr_clear(d);
    return e;
}

double ref_rel_err(mpfr_srcptr exact, ddblas_dd got)
{
    const double e = ref_abs_err(exact, got);
    if (mpfr_zero_p(exact))
        return e == 0.0 ? 0.0 : INFINITY;
    return e / fabs(mpfr_get_d(exact, MPFR_RNDZ));
}

double abs_sum(int64_t K, ddblas_array a, int64_t a0, int64_t sa, ddblas_array b, int64_t b0,
               int64_t sb)
{
    double s = 0.0;
    for (int64_t q = 0; q < K; q++) {
        const ddblas_dd x = ddblas_get(a, a0 + q * sa), y = ddblas_get(b, b0 + q * sb);
        s += fabs(x.hi + x.lo) * fabs(y.hi + y.lo);
    }
    return s * (1.0 + 0x1p-20); /* K <= 2^22 roundings of at most u each: far below 2^-20 */
}

void ref_dot(mpfr_t acc, int64_t K, ddblas_array a, int64_t a0, int64_t sa, ddblas_array b,
             int64_t b0, int64_t sb)
{
    for (int64_t q = 0; q < K; q++)
        ref_add_prod(acc, ddblas_get(a, a0 + q * sa), ddblas_get(b, b0 + q * sb));
}

int dd_same(ddblas_dd a, ddblas_dd b)
{
    if (isnan(a.hi) && isnan(b.hi))
        return isnan(a.lo) == isnan(b.lo) && (isnan(a.lo) || !memcmp(&a.lo, &b.lo, sizeof a.lo));
    return !memcmp(&a, &b, sizeof a);
}
