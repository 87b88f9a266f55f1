/* bench-data.h — the data exblas-bench measures on (bench-data.c). */
#ifndef DFS_BENCH_DATA_H
#define DFS_BENCH_DATA_H

#include <stddef.h>
#include <stdint.h>

/* n values in host memory (malloc; exits on failure), the next ones of the run's stream: uniform
 * in [-1, 1) (phi < 0), or (U - 0.5) exp(phi N) with U uniform in [0, 1) and N standard normal
 * (Box-Muller), made by up to 32 threads with the same values as one. */
double *bench_random(size_t n, double phi);

/* Data classes beyond the generator's values (exblas-bench --data), applied in place to an
 * operand: element (r, c) of op(X), R x C, stored at h[r + c ld] (trans = 0) or h[c + r ld]
 * (trans = 1); role 0: op(A) (r = i, c = q), 1: op(B) (r = q, c = j).
 *   BENCH_MIXED     op(A) every 8th column (q) about 1e300, the others about 1e-300; op(B) zero
 *                   on those rows for the even output columns (half the outputs see only tiny
 *                   products), about 1 elsewhere; signs kept, magnitudes 1 + |x|
 *   BENCH_UNDER     both about 1e-160 (1 + |x| times it): the products underflow
 *   BENCH_SUBNORMAL op(A) x 2^-1000, op(B) x 2^-40: products in the subnormal range */
enum { BENCH_RANDOM, BENCH_MIXED, BENCH_UNDER, BENCH_SUBNORMAL };
void bench_shape(int kind, double *h, size_t rows, size_t cols, size_t ld, int trans, int role);

/* The next number of a splitmix64 stream (what the data and --check's sample are made from). */
uint64_t bench_splitmix64(uint64_t *state);

#endif
