/* plan.c — dfs_oz_plan_blocks (plan.h). */
#include "plan.h"

size_t dfs_oz_plan_blocks(int64_t m, int64_t n, int step, size_t budget, dfs_oz_block_eval eval,
                          const void *ctx, int64_t *pbm, int64_t *pbn)
{
    const int64_t mu = m / step; /* rows in units of step */
    double best = -1;
    size_t best_need = 0;
    for (int i = 0; i < 24; i++) {
        const int64_t bmu = (mu + ((int64_t)1 << i) - 1) >> i, bm = step * bmu;
        for (int j = 0; j < 24 && bm <= 65536; j++) {
            const int64_t bn = (n + ((int64_t)1 << j) - 1) >> j;
            size_t need;
            double cost;
            if (bn <= 65536 && eval(ctx, bm, bn, &need, &cost) && need <= budget &&
                (best < 0 || cost < best)) {
                best = cost;
                best_need = need;
                *pbm = bm;
                *pbn = bn;
            }
            if (bn == 1)
                break;
        }
        if (bmu == 1)
            break;
    }
    return best < 0 ? 0 : best_need;
}
