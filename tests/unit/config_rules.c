/* config_rules.c — test_config's tests of a rule's routing words: below= (with min_dim),
 * tiny_products= and fallback=. */
#include "config_test.h"

#include <stddef.h>

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

void config_rules_tests(TCase *t)
{
    tcase_add_test(t, policy_below);
}
