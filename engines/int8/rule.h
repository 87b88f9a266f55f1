/* rule.h — the int8 engine's choice rule (rule.c), apart from the GPU so the unit tests can hold
 * it: what the next call of a shape takes, from the counts the last one copied back. */
#ifndef DFS_INT8_RULE_H
#define DFS_INT8_RULE_H

#include "../oz/args.h"
#include "../oz/tuning.h"

/* From a landed record of a call of `outputs` outputs that took `taken` moduli, the moduli for
 * the next one: the fewest that leave at most 1 in 2^DFS_INT8_REPAIR_SHIFT outputs to the repair
 * (DFS_CRT_FAST_MODULI if none does), at most two fewer than `taken`; *native = 1 when native is
 * faster by the cost model, bmod being the shape's break-even moduli (dfs_int8_breakeven). */
int dfs_int8_next_moduli(const dfs_crt_fast_stats *rec, unsigned long long outputs, int taken,
                         double bmod, int *native);

/* bmod when native is never faster (FP64-starved parts). */
#define DFS_INT8_NEVER_NATIVE 1e9

/* The moduli (a magnitude plane counting as one more) at which an m x n x k int8 DGEMM takes as
 * long as native FP64 by the tuning's cost model (../oz/tuning.h); 0 where native is faster
 * whatever the moduli, DFS_INT8_NEVER_NATIVE on FP64-starved parts. */
double dfs_int8_breakeven(const dfs_oz_tuning *t, int fp64_starved, int64_t m, int64_t n,
                          int64_t k);

/* The same for a complex m x n x k product by three products a modulus (../oz/crt_gemm.h's
 * zk) against native ZGEMM. */
double dfs_int8_breakeven_z(const dfs_oz_tuning *t, int fp64_starved, int64_t m, int64_t n,
                            int64_t k);

/* Whether a shape's first call should try int8 at all: the fewest moduli the data could let it
 * take (two fewer than dflt, its default) beat native by the model. */
int dfs_int8_worth_trying(double bmod, int dflt);

/* dfs_int8_breakeven with the numbers of device d (NULL: sm_90's), FP64-starved parts never
 * native. */
double dfs_int8_device_breakeven(const dfs_device *d, int64_t m, int64_t n, int64_t k);
double dfs_int8_device_breakeven_z(const dfs_device *d, int64_t m, int64_t n, int64_t k);

/* Whether a DGEMM with k terms (k >= 1) and break-even moduli bmod (dfs_int8_device_breakeven)
 * runs natively whatever its data: not worth trying with the default moduli
 * (dfs_crt_int8_moduli). */
int dfs_int8_shape_native(double bmod, int64_t k);

#endif
