/* exact_ref.c — the unit tests' independent reference for BLAS outputs: RN(alpha * S + beta * c)
 * with S = sum a_k b_k, computed exactly with MPFR and rounded once to binary64 (subnormals
 * included), with IEEE special values and BLAS's conventions (engines/oz/README.md).  Used by
 * test_repro (which must equal it), test_sgemm (within its bound) and test_dd (which must
 * nearly always equal it). */
#include "exact_ref.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <mpfr.h>

static uint64_t bits_of(double d)
{
    uint64_t b;
    memcpy(&b, &d, sizeof b);
    return b;
}

/* Same value and, for zeros, same sign; any NaN equals any NaN. */
int same(double a, double b)
{
    if (isnan(a) || isnan(b))
        return isnan(a) && isnan(b);
    return bits_of(a) == bits_of(b);
}

double round_binary64(mpfr_srcptr x)
{
    mpfr_t y;
    mpfr_init2(y, 53);
    int inex = mpfr_set(y, x, MPFR_RNDN);
    mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
    mpfr_set_emin(-1073);
    mpfr_set_emax(1024);
    inex = mpfr_check_range(y, inex, MPFR_RNDN);
    mpfr_subnormalize(y, inex, MPFR_RNDN);
    double d = mpfr_get_d(y, MPFR_RNDN);
    mpfr_set_emin(emin);
    mpfr_set_emax(emax);
    mpfr_clear(y);
    return d;
}

/* The promise (engines/oz/README.md), computed independently: RN(alpha * S + beta * c) with
 * S = sum_{q<K} a[q*sa] * b[q*sb]; beta == 0: c not read; alpha == 0: a, b not read. */
double reference(int64_t K, const double *a, int64_t sa, const double *b, int64_t sb,
                 double alpha, double beta, double c)
{
    int nan = 0, pinf = 0, ninf = 0;
    mpfr_t S, T1, T2, R;
    mpfr_ptr *tab = malloc((size_t)(K > 0 ? K : 1) * sizeof *tab);
    mpfr_t *p = malloc((size_t)(K > 0 ? K : 1) * sizeof *p);
    ck_assert(tab && p);
    mpfr_inits2(PREC_S, S, (mpfr_ptr)0);
    mpfr_inits2(PREC_R, T1, T2, R, (mpfr_ptr)0);
    int64_t n = 0;
    if (alpha != 0)
        for (int64_t q = 0; q < K; q++) {
            double x = a[q * sa], y = b[q * sb];
            if (isnan(x) || isnan(y)) {
                nan = 1;
            } else if (isinf(x) || isinf(y)) {
                if (x == 0 || y == 0)
                    nan = 1;
                else if (signbit(x) != signbit(y))
                    ninf = 1;
                else
                    pinf = 1;
            } else {
                mpfr_init2(p[n], 106);
                mpfr_set_d(p[n], x, MPFR_RNDN);
                mpfr_mul_d(p[n], p[n], y, MPFR_RNDN); /* exact: 53 + 53 bits */
                tab[n] = p[n];
                n++;
            }
        }
    mpfr_sum(S, tab, (unsigned long)n, MPFR_RNDN); /* exact at PREC_S; +0 when zero */
    if (mpfr_zero_p(S))
        mpfr_set_zero(S, +1); /* an exact zero sum is +0 */
    /* the special sum */
    int s_nan = nan || (pinf && ninf), s_inf = !s_nan && (pinf || ninf), s_neg_inf = ninf;
    /* T1 = alpha * S */
    int t1_nan = 0, t1_inf = 0, t1_neg = 0, t1_zero = 0, t1_zero_neg = 0;
    if (s_nan || isnan(alpha)) {
        t1_nan = 1;
    } else if (s_inf) {
        if (alpha == 0)
            t1_nan = 1;
        else
            t1_inf = 1, t1_neg = s_neg_inf ^ (alpha < 0);
    } else if (isinf(alpha)) {
        if (mpfr_zero_p(S))
            t1_nan = 1;
        else
            t1_inf = 1, t1_neg = (mpfr_sgn(S) < 0) ^ (alpha < 0);
    } else {
        mpfr_mul_d(T1, S, alpha, MPFR_RNDN); /* exact at PREC_R */
        if (mpfr_zero_p(T1))
            t1_zero = 1, t1_zero_neg = (mpfr_sgn(S) < 0) ^ (signbit(alpha) != 0);
    }
    /* T2 = beta * c (absent when beta == 0) */
    /* beta == 0: no term, the sum starts from +0 (as BLAS starts C from 0) */
    int t2_nan = 0, t2_inf = 0, t2_neg = 0, t2_zero = 1, t2_zero_neg = 0;
    mpfr_set_zero(T2, +1);
    if (beta != 0) {
        if (isnan(beta) || isnan(c) || ((isinf(beta) || isinf(c)) && (beta == 0 || c == 0))) {
            t2_nan = 1;
        } else if (isinf(beta) || isinf(c)) {
            t2_inf = 1;
            t2_neg = signbit(beta) != signbit(c);
        } else {
            mpfr_set_d(T2, beta, MPFR_RNDN);
            mpfr_mul_d(T2, T2, c, MPFR_RNDN); /* exact */
            t2_zero = c == 0;
            t2_zero_neg = t2_zero && (signbit(beta) != signbit(c));
        }
    }
    double r;
    if (t1_nan || t2_nan || (t1_inf && t2_inf && t1_neg != t2_neg))
        r = NAN;
    else if (t1_inf)
        r = t1_neg ? -INFINITY : INFINITY;
    else if (t2_inf)
        r = t2_neg ? -INFINITY : INFINITY;
    else {
        mpfr_add(R, T1, T2, MPFR_RNDN); /* exact at PREC_R */
        if (mpfr_zero_p(R))
            r = (t1_zero && t2_zero && t1_zero_neg && t2_zero_neg) ? -0.0 : 0.0;
        else
            r = round_binary64(R);
    }
    for (int64_t q = 0; q < n; q++)
        mpfr_clear(p[q]);
    mpfr_clears(S, T1, T2, R, (mpfr_ptr)0);
    free(tab);
    free(p);
    return r;
}

