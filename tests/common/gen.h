/* gen.h — test data for the Ozaki-family and dd engines, shared by the CPU unit tests
 * (tests/unit/: test_repro, test_oz, test_int8, test_sgemm, test_dd) and the GPU tests
 * (tests/gpu/: twin_cases.c for repro and dd, int8, ozaki_sgemm): the Ozaki papers' phi
 * generator, OzBLAS's erange generator, magnitudes 1e-300 and 1e300 mixed, subnormals, signed
 * zeros, and GenDot's ill-conditioned dot products.
 * Deterministic (tests/unit/rng.h's splitmix64).  Header-only, static inline functions: include
 * it from any test; compile the test with -ffp-contract=off (GenDot's y[i] = (v - s) / x[i] must
 * not be contracted for the data to be the same everywhere). */
#ifndef DFS_TEST_GEN_H
#define DFS_TEST_GEN_H

#include "../unit/rng.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

static inline double gen_sign_rand(rng *r, double v)
{
    return (next64(r) & 1) ? -v : v;
}

/* The Ozaki papers' phi generator: (U - 0.5) exp(phi N), U uniform in [0, 1), N normal. */
static inline double gen_phi(rng *r, double phi)
{
    return (unif(r) - 0.5) * exp(phi * randn(r));
}

/* OzBLAS's erange generator: U[1, 10) 10^(rand % R), random sign. */
static inline double gen_erange(rng *r, int R)
{
    return gen_sign_rand(r, (1.0 + 9.0 * unif(r)) * pow(10.0, below(r, R)));
}

/* Magnitudes 1e300, 1e-300, 1 and 1e-10 mixed in one vector, random signs. */
static inline double gen_mixed(rng *r)
{
    static const double mag[4] = {1e300, 1e-300, 1.0, 1e-10};
    return gen_sign_rand(r, (1.0 + unif(r)) * mag[below(r, 4)]);
}

/* A random subnormal (all exponent bits zero; zero included). */
static inline double gen_subnormal(rng *r)
{
    uint64_t b = next64(r) & 0x800fffffffffffffull;
    double d;
    memcpy(&d, &b, sizeof d);
    return d;
}

/* Signed zeros among small integers. */
static inline double gen_zeros(rng *r)
{
    int k = below(r, 4);
    return k == 0 ? 0.0 : k == 1 ? -0.0 : gen_sign_rand(r, (double)below(r, 4));
}

/* The generators by number.  G_SUBNORMAL: three quarters subnormals, the rest phi = 1 values
 * times 2^900 (so that products of two of them overflow and the others underflow). */
enum { G_PHI0, G_PHI1, G_PHI2, G_PHI4, G_PHI8, G_ERANGE, G_MIXED, G_SUBNORMAL, G_ZEROS, G_COUNT };

static inline const char *gen_label(int g)
{
    static const char *const names[G_COUNT] = {"phi0",   "phi1",    "phi2",      "phi4", "phi8",
                                               "erange", "1e+-300", "subnormal", "zeros"};
    return g >= 0 && g < G_COUNT ? names[g] : "?";
}

static inline double gen_value(rng *r, int g)
{
    switch (g) {
    case G_PHI0: return gen_phi(r, 0);
    case G_PHI1: return gen_phi(r, 1);
    case G_PHI2: return gen_phi(r, 2);
    case G_PHI4: return gen_phi(r, 4);
    case G_PHI8: return gen_phi(r, 8);
    case G_ERANGE: return gen_erange(r, 16);
    case G_MIXED: return gen_mixed(r);
    case G_SUBNORMAL: return (next64(r) & 3) ? gen_subnormal(r) : gen_phi(r, 1) * 0x1p900;
    default: return gen_zeros(r);
    }
}

static inline void gen_fill(rng *r, int g, double *x, int64_t n)
{
    for (int64_t i = 0; i < n; i++)
        x[i] = gen_value(r, g);
}

/* An exact running sum of products for gen_dot, supplied by the test (MPFR, or an exact
 * accumulator): starts at zero; add() adds x*y exactly; rounded() is the sum rounded to the
 * nearest binary64. */
typedef struct {
    void (*add)(void *ctx, double x, double y);
    double (*rounded)(void *ctx);
    void *ctx;
} gen_exact_sum;

/* GenDot (Ogita, Rump, Oishi 2005, Alg. 6.1): x, y of length n with condition number about
 * cond; the running exact dot product of the second half is driven down to 2^e, e falling from
 * b/2 to 0 (b = log2 cond), then the pairs are permuted.  s: a fresh running sum (left holding
 * the sum of the products). */
static inline void gen_dot(rng *r, int n, double cond, double *x, double *y,
                           const gen_exact_sum *s)
{
    const double b = log2(cond);
    const int n2 = n / 2;
    for (int i = 0; i < n2; i++) {
        int e = (int)lround(unif(r) * b / 2);
        if (i == 0)
            e = (int)lround(b / 2) + 1;
        if (i == n2 - 1)
            e = 0;
        x[i] = ldexp(unif_pm1(r), e);
        y[i] = ldexp(unif_pm1(r), e);
        s->add(s->ctx, x[i], y[i]);
    }
    for (int i = n2; i < n; i++) {
        const int m = n - n2;
        int e = m > 1 ? (int)lround(b / 2 - (b / 2) * (i - n2) / (m - 1)) : 0;
        x[i] = ldexp(unif_pm1(r), e);
        if (x[i] == 0)
            x[i] = ldexp(1.0, e);
        double sum = s->rounded(s->ctx);
        y[i] = (ldexp(unif_pm1(r), e) - sum) / x[i];
        s->add(s->ctx, x[i], y[i]);
    }
    for (int i = n - 1; i > 0; i--) {
        int j = below(r, i + 1);
        double tx = x[i], ty = y[i];
        x[i] = x[j], y[i] = y[j];
        x[j] = tx, y[j] = ty;
    }
}

#endif
