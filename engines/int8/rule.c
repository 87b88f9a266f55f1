/* rule.c — the int8 engine's choice rule (rule.h): from counts to the next call's moduli, and
 * the break-even moduli of a shape; pure functions, no GPU. */
#include "rule.h"

#include "../oz/crt.h"

/* v^(1/3) for v >= 1 by bisection (no libm in the shim). */
static double cube_root(double v)
{
    double lo = 1.0, hi = 1.0;
    while (hi * hi * hi < v)
        hi *= 2.0;
    for (int i = 0; i < 48; i++) {
        const double mid = 0.5 * (lo + hi);
        if (mid * mid * mid < v)
            lo = mid;
        else
            hi = mid;
    }
    return hi;
}

double dfs_int8_breakeven(const dfs_oz_tuning *t, int fp64_starved, int64_t m, int64_t n,
                          int64_t k)
{
    if (fp64_starved)
        return 0.0;
    const double g = cube_root((double)m * (double)n * (double)k);
    int i = 0;
    while (i + 1 < 8 && t->breakeven_size[i + 1] > 0 && t->breakeven_size[i + 1] < g)
        i++;
    if (i + 1 >= 8 || t->breakeven_size[i + 1] <= 0 || g <= t->breakeven_size[i])
        return t->breakeven_moduli[i];
    const double f = (g - t->breakeven_size[i]) / (t->breakeven_size[i + 1] - t->breakeven_size[i]);
    return t->breakeven_moduli[i] + f * (t->breakeven_moduli[i + 1] - t->breakeven_moduli[i]);
}

int dfs_int8_next_moduli(const dfs_crt_fast_stats *rec, unsigned long long outputs, int taken,
                         int dflt, double bmod, int *native)
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
    if (bmod > 0) {
        const double f = outputs ? (double)fails[pick] / (double)outputs : 0.0;
        const double repair = f * DFS_INT8_REPAIR_COST < 4.0 ? f * DFS_INT8_REPAIR_COST : 4.0;
        /* time over native's: n moduli and the magnitude plane, n + 1 int8 GEMMs, against the
         * bmod + 1 that take as long as native */
        const double cost = (pick + 1) / (bmod + 1) + repair;
        /* native when slower than native and than the default configuration */
        if (cost >= 1.0 && cost > (dflt + 1) / (bmod + 1))
            *native = 1;
    }
    return pick;
}
