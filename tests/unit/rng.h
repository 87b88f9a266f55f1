/* rng.h — the unit tests' deterministic random numbers (splitmix64) and basic distributions.
 * Header-only, static inline functions: include it from any test file. */
#ifndef DFS_TEST_RNG_H
#define DFS_TEST_RNG_H

#include <math.h>
#include <stdint.h>

typedef struct {
    uint64_t s;
} rng;

static inline rng rng_seed(uint64_t seed)
{
    rng r;
    r.s = seed * 0x9e3779b97f4a7c15ULL + 0x632be59bd9b4e019ULL;
    return r;
}

static inline uint64_t next64(rng *r)
{
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static inline int below(rng *r, int n) { return (int)(next64(r) % (uint64_t)n); }

/* [0, 1) */
static inline double unif(rng *r) { return (double)(next64(r) >> 11) * 0x1p-53; }

/* [-1, 1) */
static inline double unif_pm1(rng *r) { return 2.0 * unif(r) - 1.0; }

static inline double randn(rng *r)
{
    double u1 = 1.0 - unif(r), u2 = unif(r);
    return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

#endif
