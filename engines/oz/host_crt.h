/* host_crt.h — the DGEMM by the Ozaki scheme II on the CPU (host_crt.c): the twin of
 * crt_gemm.c in both its modes, the int8 engine's (fast) and repro's on integer tensor cores
 * (verify), for the tests and for users who want the GPU's bits on the host. */
#ifndef DFS_OZ_HOST_CRT_H
#define DFS_OZ_HOST_CRT_H

#include <stdint.h>

/* What a call did: outputs computed on the slow exact path (DDOT/DGEMV) or directly (DGEMM),
 * outputs the int8 engine's repair recomputed in FP64, the slices (moduli) used, and (repro on
 * moduli) need[n]: the undecided outputs that n moduli would have decided (n = 37: none;
 * dfs_crt_verify_need). */
#define DFS_OZ_STATS_NEED 38
typedef struct {
    int64_t slow, repaired;
    int slices_a, slices_b;
    int64_t need[DFS_OZ_STATS_NEED];
    int kgap, ksplit;
} dfs_oz_stats;

/* C by the Ozaki scheme II (crt.h, host_crt.c): rows and columns truncated to integers of
 * dfs_crt_scale_bits(moduli, k) bits, their product from int8 residues modulo `moduli` moduli
 * (1..24; k < 2^17).  fast = 0: the correctly rounded C again, each output rounded when the
 * truncation cannot change it and computed directly otherwise (st->slow counts those);
 * fast = 1: the int8 engine's (EXBLAS_MODE=int8) result, bit for bit: where an output would not
 * meet its contract (crt_check.h) it is recomputed in FP64 as the GPU's repair does
 * (st->repaired counts those).  Outputs with Inf or NaN operands are computed directly in both
 * (correctly rounded); with bad moduli or k, every output.  st->slices_a = the moduli. */
void dfs_oz_crt_gemm_host(int transa, int transb, int64_t m, int64_t n, int64_t k, double alpha,
                          const double *A, int64_t lda, const double *B, int64_t ldb, double beta,
                          double *C, int64_t ldc, int moduli, int fast, dfs_oz_stats *st);

/* The same; verifying (fast = 0) with kgroups = 2, the inner dimension in two groups as the GPU
 * takes it (kgroups.h: split where the exponents of op(A)'s columns and op(B)'s rows lie far
 * apart, each group's part of a row scaled on its own, each output from its larger part with
 * the other bounded); st->kgap = the largest gap found, st->ksplit whether it split.
 * kgroups = 1: dfs_oz_crt_gemm_host. */
void dfs_oz_crt_gemm_host_groups(int transa, int transb, int64_t m, int64_t n, int64_t k,
                                 double alpha, const double *A, int64_t lda, const double *B,
                                 int64_t ldb, double beta, double *C, int64_t ldc, int moduli,
                                 int fast, int kgroups, dfs_oz_stats *st);

/* ZGEMM (complex double, interleaved; transa/transb 0 = N, 1 = T, 2 = C; alpha and beta two
 * doubles each) as repro computes it with complex scalars on the GPU: the real representation
 * by row pairs (../zreal/zreal.h's dfs_zr_gemm_pairs, crt_zpair.h) on `moduli` moduli (1..36;
 * k < 2^16; kgroups 2: the inner dimension in two groups as above), each part of every output
 * rounded once where the residues decide it, else exactly (st->slow counts those parts; st->need
 * as above, by parts; st->ksplit whether the groups split).  The bits of
 * ../repro/host.h's dfs_repro_zgemm_host.  Returns 0, or -1 when out of memory (C untouched). */
int dfs_oz_crt_zgemm_host(int transa, int transb, int64_t m, int64_t n, int64_t k,
                          const double alpha[2], const double *A, int64_t lda, const double *B,
                          int64_t ldb, const double beta[2], double *C, int64_t ldc, int moduli,
                          int kgroups, dfs_oz_stats *st);

#endif
