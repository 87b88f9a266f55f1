/* bench-data.c — exblas-bench's data (bench-data.h): one splitmix64 stream over every matrix a
 * run makes. */
#include "bench-data.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define GOLDEN 0x9e3779b97f4a7c15ULL

uint64_t bench_splitmix64(uint64_t *state)
{
    uint64_t z = (*state += GOLDEN);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* The data's generator: one splitmix64 stream over every matrix the run makes, in order.  Its
 * state only counts (the r-th number comes from state + r GOLDEN), and each element takes a fixed
 * count of numbers, so threads fill slices of a matrix from their own positions in the stream
 * and the data are the same as one thread's, whatever the thread count. */
static uint64_t rng_state = 0x243f6a8885a308d3ULL;

typedef struct {
    double *h;
    size_t i0, i1;
    uint64_t state; /* the stream before element i0 */
    double phi;     /* < 0: uniform */
} fill_job;

/* Elements i0 .. i1-1: uniform in [-1, 1), or with phi >= 0 (U - 0.5) exp(phi N). */
static void *fill_slice(void *arg)
{
    fill_job *j = arg;
    uint64_t st = j->state;
    for (size_t i = j->i0; i < j->i1; i++) {
        if (j->phi < 0) {
            j->h[i] = (double)(bench_splitmix64(&st) >> 11) * 0x1.0p-52 - 1.0;
            continue;
        }
        const double u = (double)(bench_splitmix64(&st) >> 11) * 0x1.0p-53 - 0.5;
        if (j->phi == 0) {
            j->h[i] = u;
            continue;
        }
        /* N(0,1) by Box-Muller (the cosine half), u1 in (0, 1] */
        const double u1 = 1.0 - (double)(bench_splitmix64(&st) >> 11) * 0x1.0p-53;
        const double u2 = (double)(bench_splitmix64(&st) >> 11) * 0x1.0p-53;
        const double g = sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
        j->h[i] = u * exp(j->phi * g);
    }
    return NULL;
}

double *bench_random(size_t n, double phi)
{
    double *h = malloc((n ? n : 1) * sizeof *h);
    if (!h) {
        fprintf(stderr, "exblas-bench: out of host memory\n");
        exit(1);
    }
    const uint64_t per = phi > 0 ? 3 : 1; /* numbers per element */
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    int nt = n < ((size_t)1 << 16) || cpus < 2 ? 1 : cpus > 32 ? 32 : (int)cpus;
    fill_job jobs[32];
    pthread_t tid[32];
    int running[32] = {0};
    for (int t = 0; t < nt; t++) {
        const size_t i0 = n / (size_t)nt * (size_t)t, i1 = t == nt - 1 ? n : i0 + n / (size_t)nt;
        jobs[t] = (fill_job){h, i0, i1, rng_state + (uint64_t)i0 * per * GOLDEN, phi};
        /* slice 0 is filled below; a thread that cannot start, here */
        if (t > 0 && !(running[t] = pthread_create(&tid[t], NULL, fill_slice, &jobs[t]) == 0))
            fill_slice(&jobs[t]);
    }
    fill_slice(&jobs[0]);
    for (int t = 1; t < nt; t++)
        if (running[t])
            pthread_join(tid[t], NULL);
    rng_state += (uint64_t)n * per * GOLDEN;
    return h;
}

void bench_shape(int kind, double *h, size_t rows, size_t cols, size_t ld, int trans, int role)
{
    if (kind == BENCH_RANDOM)
        return;
    for (size_t c = 0; c < cols; c++)
        for (size_t r = 0; r < rows; r++) {
            double *x = trans ? &h[c + r * ld] : &h[r + c * ld];
            const double mag = 1.0 + fabs(*x), sgn = *x < 0 ? -1.0 : 1.0;
            if (kind == BENCH_MIXED)
                *x = role == 0 ? sgn * mag * (c % 8 == 0 ? 1e300 : 1e-300)
                     : r % 8 == 0 && c % 2 == 0 ? 0.0
                                                : sgn * mag;
            else if (kind == BENCH_UNDER)
                *x = sgn * mag * 1e-160;
            else
                *x = ldexp(*x, role == 0 ? -1000 : -40);
        }
}
