/* oz_plan.c — test_oz's test of dfs_oz_plan_blocks (engines/oz/plan.c), the block shapes of
 * the int8 and binary32 GEMM paths, against a brute-force search over every candidate: the
 * shape it returns is a candidate (bm = step ceil(m / (step 2^i)) with step 1, or 2 for row
 * pairs, bn = ceil(n / 2^j), at most 65536 each: rows of pairs past 65536 were once
 * planned), the eval allows it, it fits the budget, its cost is the least of all that fit, and the
 * bytes returned are its need; 0 exactly when nothing fits. */
#include "ozfamily_test.h"

#include "../../engines/oz/plan.h"
#include "../common/gen.h"

typedef struct {
    int64_t m, n;
    int forbid; /* 1: shapes with bm * bn odd are not allowed */
} toy;

/* workspace: operands' parts and the block's partials; cost: GEMM work on thin blocks and the
 * passes over op(A) redone per column block, as the real cost models do */
static int toy_eval(const void *ctx, int64_t bm, int64_t bn, size_t *need, double *cost)
{
    const toy *t = ctx;
    *need = (size_t)(24 * bm * bn + 40 * (bm + bn) + 4096);
    const double passes = bm == t->m ? 1.0 : (double)((t->n + bn - 1) / bn);
    *cost = (double)t->m * (double)t->n * dfs_oz_thin_factor(64.0, bm, bn) +
            300.0 * ((double)t->m * passes + (double)t->n);
    return !(t->forbid && ((bm * bn) & 1));
}

START_TEST(plan_blocks)
{
    rng r = rng_seed(71);
    int fitted = 0, none = 0;
    for (int it = 0; it < 3000; it++) {
        const int step = 1 + (it % 7 == 3); /* 2: row pairs, m even */
        toy t = {step * (1 + below(&r, it % 3 ? 5000 : 300000)),
                 1 + below(&r, it % 5 ? 5000 : 300000), it % 4 == 0};
        const size_t budget = (size_t)ldexp(1, 8 + below(&r, 30)) + (size_t)below(&r, 1000);
        double best = -1;
        for (int i = 0; i < 24; i++)
            for (int j = 0; j < 24; j++) {
                const int64_t bm = step * ((t.m / step + ((int64_t)1 << i) - 1) >> i);
                const int64_t bn = (t.n + ((int64_t)1 << j) - 1) >> j;
                size_t need;
                double cost;
                if (bm <= 65536 && bn <= 65536 && toy_eval(&t, bm, bn, &need, &cost) &&
                    need <= budget && (best < 0 || cost < best))
                    best = cost;
            }
        int64_t bm = -1, bn = -1;
        const size_t got = dfs_oz_plan_blocks(t.m, t.n, step, budget, toy_eval, &t, &bm, &bn);
        if (best < 0) {
            ck_assert_msg(got == 0, "m %lld n %lld budget %zu: nothing fits, got %zu bytes",
                          (long long)t.m, (long long)t.n, budget, got);
            none++;
            continue;
        }
        int i = 0, j = 0;
        while (i < 24 && step * ((t.m / step + ((int64_t)1 << i) - 1) >> i) != bm)
            i++;
        while (j < 24 && ((t.n + ((int64_t)1 << j) - 1) >> j) != bn)
            j++;
        ck_assert_msg(i < 24 && j < 24 && bm <= 65536 && bn <= 65536 && bm % step == 0,
                      "m %lld n %lld: %lld x %lld is not a candidate", (long long)t.m,
                      (long long)t.n, (long long)bm, (long long)bn);
        size_t need;
        double cost;
        ck_assert(toy_eval(&t, bm, bn, &need, &cost));
        ck_assert_msg(got == need && need <= budget && cost == best,
                      "m %lld n %lld budget %zu: %lld x %lld needs %zu (returned %zu), cost %g, "
                      "the least %g", (long long)t.m, (long long)t.n, budget, (long long)bm,
                      (long long)bn, need, got, cost, best);
        fitted++;
    }
    ck_assert_msg(fitted > 1000 && none > 100, "fitted %d, none %d", fitted, none); /* both */
    printf("oz: block plans: %d cheapest fitting shapes, %d budgets nothing fits\n", fitted,
           none);
}
END_TEST

void oz_plan_tests(TCase *t)
{
    tcase_add_test(t, plan_blocks);
}
