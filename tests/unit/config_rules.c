/* config_rules.c — test_config's tests of a rule's routing words: below= (with min_dim),
 * tiny_products= and fallback=; and the engines' own routing that exblas-info shows with them
 * (int8's cost model, gemm_prefers_native). */
#include "config_test.h"

#include "../../engines/engine.h"

#include <stddef.h>
#include <string.h>

/* below=ENGINE: the calls under min_dim go there, with that engine's section options only (the
 * rule's own options are the main engine's); a mode whose rules are native but for below= is
 * not native; an unknown engine is an error naming it. */
START_TEST(policy_below)
{
    char err[256];
    dfs_policy *p = parse("[engine df]\nscheme = paper\n"
                          "[mode m]\ndgemm = repro min_dim=300 below=df max_splits=3\n"
                          "[mode n]\nddot = native min_dim=64 below=dd\n",
                          err);
    ck_assert_msg(p != NULL, "%s", err);
    dfs_rule r;
    dfs_policy_rule(p, "m", NULL, DFS_R_DGEMM, &r);
    ck_assert_int_eq(r.engine, lookup("repro"));
    ck_assert_int_eq(r.min_dim, 300);
    ck_assert_int_eq(r.below_engine, lookup("df"));
    ck_assert_int_eq(r.below_options.nbase, 1);
    ck_assert_str_eq(dfs_option_get(&r.below_options, "scheme"), "paper");
    ck_assert_ptr_null(dfs_option_get(&r.below_options, "max_splits"));
    ck_assert_str_eq(dfs_option_get(&r.options, "max_splits"), "3");
    dfs_policy_rule(p, "m", NULL, DFS_R_DGEMV, &r);
    ck_assert_int_eq(r.below_engine, 0);
    ck_assert(!dfs_policy_mode_is_native(p, "n", DFS_R_DDOT));
    ck_assert(dfs_policy_mode_is_native(p, "n", DFS_R_DGEMM));
    dfs_policy_free(p);
    /* tiny_products: the calls under min_dim with at most that many products stay */
    p = parse("[mode t]\ndgemm = repro min_dim=256 below=dd tiny_products=2097152\n", err);
    ck_assert_msg(p != NULL, "%s", err);
    dfs_policy_rule(p, "t", NULL, DFS_R_DGEMM, &r);
    ck_assert_int_eq(r.tiny_products, 2097152);
    ck_assert(!dfs_rule_below(&r, 128, 128.0 * 128 * 128));     /* 128^3: tiny, repro */
    ck_assert(dfs_rule_below(&r, 129, 129.0 * 129 * 129));      /* over: dd */
    ck_assert(dfs_rule_below(&r, 64, 4096.0 * 4096 * 64));      /* skinny: dd */
    ck_assert(!dfs_rule_below(&r, 256, 256.0 * 256 * 4096));    /* min_dim met: repro */
    dfs_policy_rule(p, "t", NULL, DFS_R_DGEMV, &r);
    ck_assert_int_eq(r.tiny_products, 0);
    dfs_policy_free(p);
    p = parse("[mode u]\ndgemm = repro min_dim=256 below=dd\n", err);
    ck_assert_msg(p != NULL, "%s", err);
    dfs_policy_rule(p, "u", NULL, DFS_R_DGEMM, &r);
    ck_assert(dfs_rule_below(&r, 1, 1.0)); /* no tiny_products: every call under min_dim */
    dfs_policy_free(p);
    expect_error("[mode m]\ndgemm = repro min_dim=9 tiny_products=-3\n", 2,
                 "tiny_products must be a non-negative integer");
    expect_error("[mode m]\ndgemm = repro min_dim=9 below=nosuch\n", 2, "unknown engine 'nosuch'");
    /* fallback=ENGINE: the engine of the calls the rule's engine declines, with its section's
     * options; none: native */
    p = parse("[engine df]\nscheme = paper\n[mode f]\nzgemm = repro fallback=df max_splits=3\n",
              err);
    ck_assert_msg(p != NULL, "%s", err);
    dfs_policy_rule(p, "f", NULL, DFS_R_ZGEMM, &r);
    ck_assert_int_eq(r.engine, lookup("repro"));
    ck_assert_int_eq(r.fallback_engine, lookup("df"));
    ck_assert_str_eq(dfs_option_get(&r.fallback_options, "scheme"), "paper");
    ck_assert_ptr_null(dfs_option_get(&r.fallback_options, "max_splits"));
    dfs_policy_rule(p, "f", NULL, DFS_R_DGEMM, &r);
    ck_assert_int_eq(r.fallback_engine, 0);
    dfs_policy_free(p);
    expect_error("[mode m]\nzgemm = repro fallback=nosuch\n", 2,
                 "unknown engine 'nosuch' in fallback=");
}
END_TEST

/* The engine of this name, which must answer exblas-info's shape question. */
static const dfs_engine *shape_engine(const char *name)
{
    const dfs_engine *e = NULL;
    for (int i = 0; i < dfs_engine_count; i++)
        if (!strcmp(dfs_engines[i]->name, name))
            e = dfs_engines[i];
    ck_assert_ptr_nonnull(e);
    ck_assert(e->gemm_prefers_native != NULL);
    return e;
}

/* A GEMM call of this shape and type (what the shape question reads). */
static dfs_gemm_call shape_call(int64_t m, int64_t n, int64_t k, int64_t batch, dfs_dtype type)
{
    dfs_gemm_call c;
    memset(&c, 0, sizeof c);
    c.m = m;
    c.n = n;
    c.k = k;
    c.batch = batch;
    c.type = type;
    return c;
}

/* int8's answer to exblas-info: native, by its cost model, for shapes measured slower on int8
 * (4096^3, 16384 x 16384 x 2048; a complex 2048^3, a real 2048 x 4096 x 4096); int8 where the
 * model finds it faster (8192^3, 16384 x 2048 x 16384, measured so; a complex 4096^3 as its
 * real 4096 x 8192 x 8192: the model leaves zreal's staging out, and that call measured 6%
 * slower on int8, which is why fast's zgemm rule starts at 6144); never native with a fixed
 * moduli count, with native=never, or on an FP64-starved part. */
START_TEST(int8_shape_model)
{
    const dfs_engine *e = shape_engine("int8");
    const dfs_device h100 = dev(9, 0, "NVIDIA H100 80GB HBM3"),
                     ada = dev(8, 9, "NVIDIA GeForce RTX 4090");
    const dfs_options none = {0, 0, NULL, NULL};
    static const struct {
        int64_t m, n, k;
        dfs_dtype type;
        int native;
    } cases[] = {
        {4096, 4096, 4096, DFS_R64, 1},   {16384, 16384, 2048, DFS_R64, 1},
        {2048, 2048, 2048, DFS_C64, 1},   {8192, 8192, 8192, DFS_R64, 0},
        {16384, 2048, 16384, DFS_R64, 0}, {4096, 4096, 4096, DFS_C64, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const dfs_gemm_call c = shape_call(cases[i].m, cases[i].n, cases[i].k, 1, cases[i].type);
        ck_assert_msg(e->gemm_prefers_native(&h100, &c, &none) == cases[i].native,
                      "case %zu: %lld x %lld x %lld", i, (long long)c.m, (long long)c.n,
                      (long long)c.k);
        ck_assert(!e->gemm_prefers_native(&ada, &c, &none));
    }
    const dfs_gemm_call c = shape_call(4096, 4096, 4096, 1, DFS_R64);
    const dfs_option fixed[] = {{"moduli", "15", "test"}}, never[] = {{"native", "never", "test"}};
    const dfs_options o_fixed = {1, 0, fixed, NULL}, o_never = {1, 0, never, NULL};
    ck_assert(!e->gemm_prefers_native(&h100, &c, &o_fixed));
    ck_assert(!e->gemm_prefers_native(&h100, &c, &o_never));
}
END_TEST

/* ozaki-sgemm runs DGEMMs of at most 256^3 products per entry natively (its cost exceeds
 * native FP64's there), on every device class, unless native=never. */
START_TEST(sgemm_small_native)
{
    const dfs_engine *e = shape_engine("ozaki-sgemm");
    const dfs_device h100 = dev(9, 0, "NVIDIA H100 80GB HBM3"),
                     ada = dev(8, 9, "NVIDIA GeForce RTX 4090");
    const dfs_options none = {0, 0, NULL, NULL};
    const dfs_option never[] = {{"native", "never", "test"}};
    const dfs_options o_never = {1, 0, never, NULL};
    static const struct {
        int64_t m, n, k, batch;
        int native;
    } cases[] = {
        {64, 64, 64, 1, 1},     {256, 256, 256, 1, 1}, {257, 256, 256, 1, 0},
        {4096, 4096, 1, 1, 1},  {4096, 4096, 0, 1, 1}, {256, 256, 256, 1000, 1},
        {1024, 1024, 1024, 1, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const dfs_gemm_call c =
            shape_call(cases[i].m, cases[i].n, cases[i].k, cases[i].batch, DFS_R64);
        ck_assert_msg(e->gemm_prefers_native(&h100, &c, &none) == cases[i].native, "case %zu", i);
        ck_assert_msg(e->gemm_prefers_native(&ada, &c, &none) == cases[i].native, "case %zu", i);
        ck_assert(!e->gemm_prefers_native(&h100, &c, &o_never));
    }
}
END_TEST

void config_rules_tests(TCase *t)
{
    tcase_add_test(t, policy_below);
    tcase_add_test(t, int8_shape_model);
    tcase_add_test(t, sgemm_small_native);
}
