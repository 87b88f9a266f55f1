/* rule.c — the int8 engine's choice rule (rule.h): from counts to the next call's moduli, and
 * the break-even moduli of a shape; pure functions, no GPU. */
#include "rule.h"

#include "../oz/crt.h"

/* The break-even moduli of a product that native FP64 computes in `flops` (plus a call) and
 * int8 in per modulus `ops` int8 operations, `sums` int32 sums and `operand` residue bytes, and
 * once a finish of `outputs` outputs (plus a call). */
static double breakeven(const dfs_oz_tuning *t, int fp64_starved, double flops, double ops,
                        double sums, double operand, double outputs)
{
    if (fp64_starved)
        return DFS_INT8_NEVER_NATIVE;
    const double native = flops * t->fp64_flop_fs * 1e-15 + t->fp64_call_us * 1e-6;
    const double per_gemm = ops * t->int8_op_fs * 1e-15 + sums * t->int8_output_ps * 1e-12 +
                            operand * t->int8_operand_ps * 1e-12;
    const double once = outputs * t->int8_finish_ps * 1e-12 + t->int8_call_us * 1e-6;
    if (per_gemm <= 0)
        return DFS_INT8_NEVER_NATIVE;
    /* (bmod + 1) per_gemm + once = native */
    const double b = (native - once) / per_gemm - 1.0;
    return b > 0 ? b : 0.0;
}

double dfs_int8_breakeven(const dfs_oz_tuning *t, int fp64_starved, int64_t m, int64_t n,
                          int64_t k)
{
    const double dm = (double)m, dn = (double)n, dk = (double)k, mnk2 = 2.0 * dm * dn * dk;
    return breakeven(t, fp64_starved, mnk2, mnk2, dm * dn, (dm + dn) * dk, dm * dn);
}

double dfs_int8_breakeven_z(const dfs_oz_tuning *t, int fp64_starved, int64_t m, int64_t n,
                            int64_t k)
{
    /* native: ZGEMM's 8 m n k flops; int8: three products of m x n x k a modulus, three
     * residue matrices per operand, both parts of each output finished */
    const double dm = (double)m, dn = (double)n, dk = (double)k, mnk2 = 2.0 * dm * dn * dk;
    return breakeven(t, fp64_starved, 4.0 * mnk2, 3.0 * mnk2, 3.0 * dm * dn,
                     3.0 * (dm + dn) * dk, 2.0 * dm * dn);
}

double dfs_int8_device_breakeven(const dfs_device *d, int64_t m, int64_t n, int64_t k)
{
    return dfs_int8_breakeven(dfs_oz_tuning_of(d ? d->cc_major : 0, d ? d->cc_minor : 0),
                              d && d->fp64_ratio >= 32, m, n, k);
}

double dfs_int8_device_breakeven_z(const dfs_device *d, int64_t m, int64_t n, int64_t k)
{
    return dfs_int8_breakeven_z(dfs_oz_tuning_of(d ? d->cc_major : 0, d ? d->cc_minor : 0),
                                d && d->fp64_ratio >= 32, m, n, k);
}

int dfs_int8_worth_trying(double bmod, int dflt)
{
    const int fewest = dflt - 2 > 2 ? dflt - 2 : 2;
    return fewest < bmod;
}

int dfs_int8_shape_native(double bmod, int64_t k)
{
    return !dfs_int8_worth_trying(bmod, dfs_crt_int8_moduli(0, k));
}

int dfs_int8_next_moduli(const dfs_crt_fast_stats *rec, unsigned long long outputs, int taken,
                         double bmod, int *native)
{
    *native = 0;
    /* fails[n]: the outputs (as counted) that would fail with n moduli */
    unsigned long long fails[DFS_CRT_FAST_MODULI + 1];
    for (int n = 1; n <= DFS_CRT_FAST_MODULI; n++) {
        fails[n] = 0;
        for (int b = n + 1; b < DFS_CRT_NEED_BINS; b++)
            fails[n] += rec->need[b];
    }
    const unsigned long long allowed = outputs >> DFS_INT8_REPAIR_SHIFT;
    int pick = DFS_CRT_FAST_MODULI;
    for (int n = 2; n < DFS_CRT_FAST_MODULI; n++)
        if (fails[n] <= allowed) {
            pick = n;
            break;
        }
    /* at most two fewer than the last call: the passing outputs are only sampled */
    if (pick < taken - 2)
        pick = taken - 2;
    if (bmod < DFS_INT8_NEVER_NATIVE) {
        const double f = outputs ? (double)fails[pick] / (double)outputs : 0.0;
        const double repair = f * DFS_INT8_REPAIR_COST < 4.0 ? f * DFS_INT8_REPAIR_COST : 4.0;
        /* time over native's, roughly: n moduli and the magnitude plane, n + 1 int8 GEMMs,
         * against the bmod + 1 that take as long as native; plus the repair */
        if ((pick + 1) / (bmod + 1) + repair >= 1.0)
            *native = 1;
    }
    return pick;
}
