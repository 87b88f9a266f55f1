/* exact_ref.h — the unit tests' exact reference for BLAS outputs (exact_ref.c). */
#ifndef DFS_EXACT_REF_H
#define DFS_EXACT_REF_H

#include <stdint.h>

#include <mpfr.h>

/* Bits enough to hold exactly: a sum of products of doubles (2^-2148 .. 2^2112: 4260 bits), alpha
 * times it (2^-3222 .. 2^3136), plus beta * c. */
#define PREC_S 4400
#define PREC_R 6600

/* x rounded once to binary64, subnormals included (no double rounding), overflow to the
 * infinity. */
double round_binary64(mpfr_srcptr x);
/* Same value and, for zeros, same sign; any NaN equals any NaN. */
int same(double a, double b);
/* RN(alpha * sum_{q<K} a[q*sa] * b[q*sb] + beta * c); beta == 0: c not read; alpha == 0: a, b
 * not read; an exact zero sum is +0; Inf and NaN by IEEE's rules, independent of the order. */
double reference(int64_t K, const double *a, int64_t sa, const double *b, int64_t sb,
                 double alpha, double beta, double c);

#endif
