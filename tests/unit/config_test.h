/* config_test.h — what the files of the config unit test (test_config.c, config_options.c,
 * config_rules.c)
 * share: the stand-in engine lookup, policy parsing, a device, the diagnostics collected from a
 * configuration, and the function that adds config_options.c's tests to the suite. */
#ifndef DFS_CONFIG_TEST_H
#define DFS_CONFIG_TEST_H

#include "../../config/config.h"

#include <check.h>

/* The stand-in engine table: native, df, ozaki, int8, dd, repro (indices 0-5), and its lookup. */
#define ENGINE_COUNT 6
extern const char *const engine_names[ENGINE_COUNT];
int lookup(const char *name);
/* dfs_policy_parse of text as "p.policy"; err has room for 256 characters. */
dfs_policy *parse(const char *text, char *err);
dfs_device dev(int major, int minor, const char *name);
/* Asserts that text is rejected with an error that starts with "p.policy:LINE:" and contains
 * what. */
void expect_error(const char *text, int line, const char *what);

/* The lines a configuration said (diag), each ending in '\n', and their number. */
extern char diag_log[4096];
extern int diag_count;
void diag(const char *line);
void diag_reset(void);

/* config_options.c: engine options checked against the engines' tables. */
void config_options_tests(TCase *t);
/* config_rules.c: a rule's below=, tiny_products= and fallback=. */
void config_rules_tests(TCase *t);

#endif
