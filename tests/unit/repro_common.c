/* repro_common.c — what test_repro's tests share besides the MPFR reference (exact_ref.c): the
 * comparison that fails a test, engine parameters, and the exact-accumulator helpers of the
 * bound tests. */
#include "repro_test.h"

/* ---------------- comparison and parameters ---------------- */

void expect(double got, double want, const char *what)
{
    if (!same(got, want))
        ck_abort_msg("%s: got %a, want %a", what, got, want);
}

dfs_oz_params params(int terms, int lanes)
{
    dfs_oz_params p = dfs_oz_default_params();
    p.terms = terms;
    p.lanes = lanes;
    return p;
}

/* ---------------- exact accumulators (repro_bound.c, repro_tail.c, repro_i192.c) ---------------- */

uint64_t bits_of_d(double d)
{
    uint64_t b;
    memcpy(&b, &d, sizeof b);
    return b;
}

/* A fresh full accumulator in w. */
void full_init(dfs_xacc *a, int64_t *w)
{
    dfs_x_init(a, w, DFS_X_WORDS, DFS_X_LSB);
}

/* dst (words dw, as many as src's) := src. */
void acc_copy(dfs_xacc *dst, int64_t *dw, const dfs_xacc *src)
{
    *dst = *src;
    dst->w = dw;
    memcpy(dw, src->w, (size_t)src->nw * sizeof *dw);
}

/* dst += (-1)^neg src, both with the same words (nw, lsb); normalises both. */
void acc_add_acc(dfs_xacc *dst, dfs_xacc *src, int neg)
{
    REQUIRE(dst->nw == src->nw && dst->lsb == src->lsb);
    dfs_x_normalize(src);
    dfs_x_normalize(dst);
    for (int i = 0; i < dst->nw; i++)
        dst->w[i] += neg ? -src->w[i] : src->w[i];
    dfs_x_normalize(dst);
}

/* Add (-1)^neg 2^e. */
void add_pow2(dfs_xacc *a, int neg, int e)
{
    REQUIRE(dfs_x_add(a, neg, 1, e));
}
