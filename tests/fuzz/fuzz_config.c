/* fuzz_config.c — a fuzz target for the configuration parsers: policy files
 * (dfs_policy_parse and the queries the shim makes of a parsed policy) and mode strings
 * (dfs_mode_parse).  The first input byte picks the parser (bit 0) and whether engine options
 * are checked against tables (bit 1); the rest is the text.
 *
 * Built two ways (tests/fuzz/meson.build): with clang's -fsanitize=fuzzer for fuzzing
 * (tests/fuzz/README.md), and as a plain program (replay.c supplies main) that runs every file of
 * the corpus once: a regression test in the unit suite.  Either way a crash, a sanitizer report
 * or a broken invariant (abort below) is a failure. */
#include "../../config/config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const engines[] = {"native", "df", "repro", "ozaki"};

static int lookup(const char *name)
{
    for (int i = 0; i < (int)(sizeof engines / sizeof engines[0]); i++)
        if (!strcmp(engines[i], name))
            return i;
    return -1;
}

/* The stand-in engines' option tables (df takes two options, ozaki one, the others none). */
static const dfs_option_spec df_spec[] = {
    {.key = "scheme", .kind = DFS_OPT_WORD, .words = (const char *const[]){"fused", "paper|16", NULL}},
    {.key = "workspace_mb", .kind = DFS_OPT_INT, .lo = 16, .hi = 1 << 24, .zero = "auto"},
    {.key = NULL},
};
static const dfs_option_spec ozaki_spec[] = {
    {.key = "splits", .kind = DFS_OPT_INT, .lo = 0, .hi = 16},
    {.key = NULL},
};
static const dfs_option_spec none_spec[] = {{.key = NULL}};

static int ozaki_conflicts(const dfs_options *o, const char *msg[], int max)
{
    (void)o;
    if (max < 1)
        return 0;
    msg[0] = "ozaki: always a conflict";
    return 1;
}

static const dfs_option_table *option_table(int engine)
{
    static const dfs_option_table t[] = {{"native", none_spec, NULL},
                                         {"df", df_spec, NULL},
                                         {"repro", none_spec, NULL},
                                         {"ozaki", ozaki_spec, ozaki_conflicts}};
    return engine >= 0 && engine < 4 ? &t[engine] : NULL;
}

static void check(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "fuzz_config: invariant broken: %s\n", what);
        abort();
    }
}

/* Every query the shim and exblas-info make, over a few modes and devices. */
static void query(const dfs_policy *p)
{
    static const char *const modes[] = {"auto", "native", "df", "repro", "fast", "x"};
    dfs_device devs[3];
    dfs_device_describe(&devs[0], 0, 9, 0, "NVIDIA H200");
    dfs_device_describe(&devs[1], 1, 8, 9, "NVIDIA GeForce RTX 4090");
    dfs_device_describe(&devs[2], 2, 12, 0, "unknown");
    for (size_t m = 0; m < sizeof modes / sizeof modes[0]; m++) {
        (void)dfs_policy_has_mode(p, modes[m]);
        dfs_rule nth;
        for (int i = 0; dfs_policy_nth_rule(p, modes[m], i, &nth); i++)
            check(nth.engine >= 0 && nth.engine < 4 && nth.source, "a mode's rules");
        for (int r = 0; r < DFS_R_COUNT; r++) {
            (void)dfs_policy_mode_is_native(p, modes[m], (dfs_routine)r);
            for (int d = 0; d < 3; d++) {
                dfs_rule rule;
                dfs_policy_rule(p, modes[m], &devs[d], (dfs_routine)r, &rule);
                check(rule.engine >= 0 && rule.engine < 4, "rule names a known engine");
                check(rule.min_dim >= 0, "min_dim is not negative");
                for (int i = 0; i < rule.options.nbase; i++)
                    check(rule.options.base[i].key && rule.options.base[i].value,
                          "options have keys and values");
            }
        }
    }
    for (int e = 0; e < 4; e++) {
        dfs_options o;
        dfs_policy_engine_options(p, e, &o);
        check(o.nbase >= 0, "option count");
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    const int which = data[0] & 1;
    dfs_config_set_option_tables((data[0] & 2) ? option_table : NULL);
    const char *text = (const char *)data + 1;
    const size_t len = size - 1;
    char err[256];
    if (which == 0) {
        err[0] = 0;
        dfs_policy *p = dfs_policy_parse(text, len, "fuzz.policy", lookup, err, sizeof err);
        if (p) {
            for (int i = 0; dfs_policy_warning(p, i); i++) {
                const char *w = dfs_policy_warning(p, i);
                check(strncmp(w, "fuzz.policy:", 12) == 0, "a warning names file:line");
                check(strchr(w, '\n') == NULL, "a warning is one line");
            }
            query(p);
            dfs_policy_free(p);
        } else {
            check(strncmp(err, "fuzz.policy:", 12) == 0, "a parse error names file:line");
            check(memchr(err, '\n', strlen(err)) == NULL, "a parse error is one line");
        }
    } else {
        char *s = malloc(len + 1);
        if (!s)
            return 0;
        memcpy(s, text, len);
        s[len] = 0;
        dfs_mode m;
        if (dfs_mode_parse(s, &m, err, sizeof err) == 0) {
            check(m.nopts >= 0 && m.nopts <= DFS_MODE_MAX_OPTS, "option count in range");
            check(memchr(m.name, 0, sizeof m.name) != NULL, "name terminated");
        }
        free(s);
    }
    return 0;
}
