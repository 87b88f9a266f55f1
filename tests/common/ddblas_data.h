/* ddblas_data.h — test data for libddblas (include/ddblas.h), shared by the CPU unit test
 * (tests/unit/test_ddblas.c, against MPFR) and the GPU test (tests/gpu/ddblas.c, against the CPU
 * implementation): arrays of each format in host memory, filled with double-double values (a
 * random hi and a full 53-bit random lo) stored through ddblas_set, i.e. rounded as the format
 * says.  Deterministic (tests/unit/rng.h's splitmix64).  Header-only, static inline functions;
 * compile with -ffp-contract=off (the renormalisation below must stay exact). */
#ifndef DFS_TEST_DDBLAS_DATA_H
#define DFS_TEST_DDBLAS_DATA_H

#include "../../include/ddblas.h"
#include "../unit/rng.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static const char *const ddt_fmt_name[4] = {"DD", "D+S", "D+I", "D+I nearest"};

/* Bytes of one lo element. */
static inline size_t ddt_lo_size(ddblas_format f)
{
    return f == DDBLAS_DD ? sizeof(double) : 4;
}

/* n zeroed elements of format f (at least one, so that hi and lo are never NULL). */
static inline ddblas_array ddt_alloc(ddblas_format f, size_t n)
{
    ddblas_array a;
    a.fmt = f;
    a.hi = calloc(n ? n : 1, sizeof(double));
    a.lo = calloc(n ? n : 1, ddt_lo_size(f));
    if (!a.hi || !a.lo) {
        fprintf(stderr, "ddblas_data: out of memory (%zu elements)\n", n);
        exit(1);
    }
    return a;
}

static inline void ddt_free(ddblas_array a)
{
    free(a.hi);
    free(a.lo);
}

static inline ddblas_dd ddt_make(double hi, double lo)
{
    ddblas_dd v;
    v.hi = hi;
    v.lo = lo;
    return v;
}

/* hi plus a lo with 53 random bits, uniform in [-ulp(hi)/2, ulp(hi)/2), renormalised (Fast2Sum:
 * exact, |hi| >= |lo|) so that the pair is a canonical DD; hi == 0 (or not finite) keeps lo 0. */
static inline ddblas_dd ddt_with_lo(rng *r, double hi)
{
    if (hi == 0.0 || !isfinite(hi))
        return ddt_make(hi, 0.0);
    int e;
    frexp(hi, &e);
    const double lo = (unif(r) - 0.5) * ldexp(1.0, e - 53), s = hi + lo;
    return ddt_make(s, lo - (s - hi));
}

/* Uniform in [0, 1) (the paper's Table 5 data) or, signed, in [-1, 1); times 2^scale. */
static inline ddblas_dd ddt_rand(rng *r, int is_signed, int scale)
{
    return ddt_with_lo(r, ldexp(is_signed ? unif_pm1(r) : unif(r), scale));
}

/* Elements base, base + inc, ... (n of them) of a set from v[0 .. n) (ddblas_set: rounded as
 * a's format says). */
static inline void ddt_store(ddblas_array a, const ddblas_dd *v, size_t n, int64_t base,
                             int64_t inc)
{
    for (size_t i = 0; i < n; i++)
        ddblas_set(a, base + (int64_t)i * inc, v[i]);
}

/* n random values (ddt_rand) into v. */
static inline void ddt_gen(rng *r, ddblas_dd *v, size_t n, int is_signed, int scale)
{
    for (size_t i = 0; i < n; i++)
        v[i] = ddt_rand(r, is_signed, scale);
}

#endif
