/* bench-data.h — the data exblas-bench measures on (bench-data.c). */
#ifndef DFS_BENCH_DATA_H
#define DFS_BENCH_DATA_H

#include <stddef.h>
#include <stdint.h>

/* n values in host memory (malloc; exits on failure), the next ones of the run's stream: uniform
 * in [-1, 1) (phi < 0), or (U - 0.5) exp(phi N) with U uniform in [0, 1) and N standard normal
 * (Box-Muller), made by up to 32 threads with the same values as one. */
double *bench_random(size_t n, double phi);

/* The next number of a splitmix64 stream (what the data and --check's sample are made from). */
uint64_t bench_splitmix64(uint64_t *state);

#endif
