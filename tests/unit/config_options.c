/* config_options.c — unit tests (Check) of engine options checked when the configuration is
 * read: the messages of core/options.c for the engines' own tables (the stand-in engines of
 * config_test.h get the real engines' tables by name), mode strings and policy texts with
 * unknown keys, bad values and conflicting options (one line each, the option dropped, the rule
 * in force with the engine's default), and the typed getters the engines read options with. */
#include "config_test.h"

#include "../../engines/engine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The three examples of issue 27, item 4. */
#define DF_SCHEME_BOGUS                                                                            \
    "df: scheme=bogus is not paper (16), fused (15), accurate (29) or lazy (12); using fused"
#define REPRO_MAX_SPLITS_NEG "repro: max_splits=-5 is not a number from 1 to 16; using 12"
#define INT8_MODULI_999 "int8: moduli=999 is not 0 (from the data) or a number from 2 to 24; using 0 (from the data)"

static const dfs_option_table *table(const char *engine)
{
    return dfs_engine_option_table(dfs_engine_find(engine));
}

/* The stand-in engines' tables: the real engines' of the same name. */
static const dfs_option_table *tables(int engine)
{
    return engine >= 0 && engine < ENGINE_COUNT ? table(engine_names[engine]) : NULL;
}

/* dfs_option_check's verdict on engine's key=value: NULL (valid) or the message. */
static const char *check(const char *engine, const char *key, const char *value)
{
    static char msg[512];
    return dfs_option_check(table(engine), key, value, msg, sizeof msg) ? msg : NULL;
}

static void expect_valid(const char *engine, const char *key, const char *value)
{
    const char *m = check(engine, key, value);
    ck_assert_msg(m == NULL, "%s: %s=%s refused: %s", engine, key, value, m);
}

START_TEST(option_messages)
{
    static const struct {
        const char *engine, *key, *value, *says;
    } bad_values[] = {
        {"df", "scheme", "bogus", DF_SCHEME_BOGUS},
        {"repro", "max_splits", "-5", REPRO_MAX_SPLITS_NEG},
        {"int8", "moduli", "999", INT8_MODULI_999},
        {"int8", "moduli", "1",
         "int8: moduli=1 is not 0 (from the data) or a number from 2 to 24; using 0 (from the data)"},
        {"df", "workspace_mb", "8",
         "df: workspace_mb=8 is not 0 (the device class's) or a number from 16 to 16777216; "
         "using 0 (the device class's)"},
        {"df", "tile", "64", "df: tile=64 is not auto, 128x128, 128x64 or 64x64; using auto"},
        {"df", "small", "yes", "df: small=yes is not auto, always, never, 16 or 32; using auto"},
        {"repro", "products", "fp64", "repro: products=fp64 is not auto, f64 or int8; using auto"},
        {"ozaki", "sum", "nearsum", "ozaki: sum=nearsum is not exact or fixed; using exact"},
        {"ozaki", "fast", "yes", "ozaki: fast=yes is not 0 or 1; using 0"},
        {"ozaki-sgemm", "splits", "7", "ozaki-sgemm: splits=7 is not a number from 2 to 6; using 2"},
        /* unknown keys, with the keys the engine takes */
        {"df", "shceme", "paper",
         "df: no option 'shceme' (df takes scheme, workspace_mb, tile, small); shceme=paper "
         "ignored"},
        {"repro", "splits", "3",
         "repro: no option 'splits' (repro takes max_splits, workspace_mb, products, small, "
         "kgroups); splits=3 ignored"},
        {"dd", "x", "1", "dd: no option 'x' (dd takes tile); x=1 ignored"},
        {"dd", "tile", "48", "dd: tile=48 is not auto, 64, 32 or 16; using auto"},
    };
    for (size_t i = 0; i < sizeof bad_values / sizeof bad_values[0]; i++) {
        const char *m = check(bad_values[i].engine, bad_values[i].key, bad_values[i].value);
        ck_assert_msg(m && !strcmp(m, bad_values[i].says), "%s: %s=%s: said '%s', not '%s'",
                      bad_values[i].engine, bad_values[i].key, bad_values[i].value,
                      m ? m : "nothing", bad_values[i].says);
    }
    /* malformed numbers */
    static const char *const bad[] = {"", "12x", " 12", "+12", "1e3", "0x10", "-",
                                      "99999999999999999999"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ck_assert_msg(check("repro", "max_splits", bad[i]) != NULL, "max_splits='%s' taken",
                      bad[i]);
    /* what is taken: the ends of the ranges, 0 where it means the default, every word and
     * synonym */
    expect_valid("repro", "max_splits", "1");
    expect_valid("repro", "max_splits", "16");
    expect_valid("int8", "moduli", "0");
    expect_valid("int8", "moduli", "2");
    expect_valid("int8", "moduli", "24");
    expect_valid("df", "workspace_mb", "0");
    expect_valid("df", "workspace_mb", "16");
    expect_valid("ozaki", "splits", "0");
    static const char *const schemes[] = {"paper", "16", "fused", "15", "accurate", "29", "lazy",
                                          "12"};
    for (size_t i = 0; i < sizeof schemes / sizeof schemes[0]; i++)
        expect_valid("df", "scheme", schemes[i]);
    expect_valid("df", "tile", "128x64");
    expect_valid("df", "small", "always");
    expect_valid("df", "small", "never");
    expect_valid("repro", "products", "int8");
    expect_valid("ozaki", "sum", "fixed");
    expect_valid("ozaki", "fast", "1");
}
END_TEST

START_TEST(option_getters)
{
    const dfs_option_table *df = table("df"), *oz = table("ozaki"), *i8 = table("int8");
    const dfs_option base[] = {{"scheme", "29", "p:1"}, {"tile", "128x64", "p:2"},
                               {"splits", "4", "p:3"}, {"moduli", "1", "p:4"}};
    const dfs_option over[] = {{"tile", "64x64", "EXBLAS_MODE"}, {"sum", "bogus", "EXBLAS_MODE"}};
    const dfs_options o = {4, 2, base, over};
    ck_assert_int_eq(dfs_option_word(&o, df, "scheme"), 2); /* synonym of accurate */
    ck_assert_int_eq(dfs_option_word(&o, df, "tile"), 3);   /* the override wins */
    ck_assert_int_eq(dfs_option_int(&o, oz, "splits"), 4);
    ck_assert_int_eq(dfs_option_int(&o, oz, "max_splits"), 12); /* not given: the default */
    ck_assert_int_eq(dfs_option_int(&o, df, "workspace_mb"), 0);
    /* values that slipped through (options built by hand): the default, silently */
    ck_assert_int_eq(dfs_option_word(&o, oz, "sum"), 0);
    ck_assert_int_eq(dfs_option_int(&o, i8, "moduli"), 0);
    /* a key the table lacks, or the wrong kind: 0 */
    ck_assert_int_eq(dfs_option_int(&o, df, "splits"), 0);
    ck_assert_int_eq(dfs_option_int(&o, df, "scheme"), 0);
    ck_assert_int_eq(dfs_option_word(NULL, df, "scheme"), 1); /* no options: fused */
    char d[256];
    for (const dfs_option_spec *s = df->spec; s->key; s++) {
        dfs_option_describe(s, d, sizeof d);
        ck_assert_msg(strstr(d, "; default ") != NULL, "%s: %s", s->key, d);
    }
    dfs_option_describe(&oz->spec[0], d, sizeof d);
    ck_assert_str_eq(d, "a number from 1 to 16; default 12");
}
END_TEST

/* A configuration from EXBLAS_MODE = mode, EXBLAS_MODE_DDOT = ddot and EXBLAS_POLICY = path
 * (NULL: unset) with the engines' tables; it must have said exactly `said`. */
static dfs_config *build(const char *mode, const char *ddot, const char *path, const char *said)
{
    diag_reset();
    dfs_config_set_option_tables(tables);
    const char *routine[DFS_R_COUNT] = {NULL, NULL, ddot};
    dfs_config *c = dfs_config_build(mode, routine, path, lookup, diag);
    dfs_config_set_option_tables(NULL);
    ck_assert_msg(!strcmp(diag_log, said), "EXBLAS_MODE=%s: said\n%sinstead of\n%s",
                  mode ? mode : "(unset)", diag_log, said);
    return c;
}

START_TEST(mode_option_values)
{
    /* each bad value: one line, however many routines the variable serves; the engine stays */
    dfs_config *c = build("df:scheme=bogus,tile=128x64", NULL, NULL,
                          "EXBLAS_MODE: " DF_SCHEME_BOGUS "\n");
    ck_assert(!dfs_config_all_native(c));
    dfs_rule r;
    dfs_device h100 = dev(9, 0, "NVIDIA H100"), ada = dev(8, 9, "NVIDIA GeForce RTX 4090");
    for (int q = 0; q < DFS_R_COUNT; q++) {
        dfs_config_rule(c, &h100, (dfs_routine)q, &r);
        ck_assert_int_eq(r.engine, lookup("df"));
        ck_assert_int_eq(r.options.noverride, 1); /* tile only: scheme=bogus dropped */
        ck_assert_str_eq(dfs_option_get(&r.options, "tile"), "128x64");
        ck_assert_int_eq(dfs_option_word(&r.options, table("df"), "scheme"), 1); /* fused */
    }
    dfs_config_free(c);
    c = build("repro:max_splits=-5", NULL, NULL, "EXBLAS_MODE: " REPRO_MAX_SPLITS_NEG "\n");
    dfs_config_rule(c, &h100, DFS_R_DGEMM, &r);
    ck_assert_int_eq(r.engine, lookup("repro"));
    ck_assert_int_eq(r.options.noverride, 0);
    dfs_config_free(c);
    c = build("int8:moduli=999,workspace_mb=64", NULL, NULL, "EXBLAS_MODE: " INT8_MODULI_999 "\n");
    dfs_config_rule(c, &h100, DFS_R_DGEMM, &r);
    ck_assert_int_eq(r.engine, lookup("int8"));
    ck_assert_int_eq(dfs_option_int(&r.options, table("int8"), "moduli"), 0);
    ck_assert_int_eq(dfs_option_int(&r.options, table("int8"), "workspace_mb"), 64);
    dfs_config_free(c);
    /* a per-routine variable, and an unknown key: dropped too, the engine stays */
    c = build("native", "ozaki:splits=99,split=3", NULL,
              "EXBLAS_MODE_DDOT: ozaki: splits=99 is not a number from 0 to 16; using 0\n"
              "EXBLAS_MODE_DDOT: ozaki: no option 'split' (ozaki takes max_splits, workspace_mb, "
              "splits, fast, sum); split=3 ignored\n");
    dfs_config_rule(c, &h100, DFS_R_DDOT, &r);
    ck_assert_int_eq(r.engine, lookup("ozaki"));
    ck_assert_int_eq(r.options.noverride, 0);
    dfs_config_free(c);
    /* native takes none */
    dfs_config_free(build("native:scheme=paper", NULL, NULL,
                          "EXBLAS_MODE: native: no option 'scheme' (native takes none); "
                          "scheme=paper ignored\n"));
    /* a mode of the policy: checked against its engines (the embedded auto: native, df) */
    c = build("auto:scheme=accurate", NULL, NULL, "");
    dfs_config_rule(c, &ada, DFS_R_DGEMM, &r);
    ck_assert_int_eq(r.engine, lookup("df"));
    ck_assert_int_eq(dfs_option_word(&r.options, table("df"), "scheme"), 2);
    dfs_config_free(c);
    dfs_config_free(build("auto:scheme=bogus", NULL, NULL, "EXBLAS_MODE: " DF_SCHEME_BOGUS "\n"));
    dfs_config_free(build("auto:moduli=3", NULL, NULL,
                          "EXBLAS_MODE: mode auto: none of its engines (native, df) takes option "
                          "'moduli'; moduli=3 ignored\n"));
    c = build("fast:moduli=3", NULL, NULL, "");
    dfs_config_rule(c, &h100, DFS_R_DGEMM, &r);
    ck_assert_int_eq(dfs_option_int(&r.options, table("int8"), "moduli"), 3);
    dfs_config_free(c);
    /* valid options: nothing to say */
    dfs_config_free(build("df:scheme=lazy,tile=auto,workspace_mb=0", "ozaki:splits=3,sum=fixed",
                          NULL, ""));
}
END_TEST

START_TEST(mode_option_conflicts)
{
    dfs_config_free(build("ozaki:sum=fixed,fast=1", NULL, NULL,
                          "EXBLAS_MODE: ozaki: sum=fixed needs splits; using sum=exact\n"
                          "EXBLAS_MODE: ozaki: fast=1 needs splits; using fast=0\n"));
    dfs_config_free(build("ozaki:sum=fixed,fast=1,splits=2", NULL, NULL, ""));
    /* with the policy's [engine ozaki] options */
    char path[] = "/tmp/dfs-policy-XXXXXX";
    int fd = mkstemp(path);
    FILE *f = fdopen(fd, "w");
    fputs("[engine ozaki]\nsum = fixed\n[mode knobs]\nall = ozaki splits=3\n", f);
    fclose(f);
    dfs_config_free(build("ozaki", NULL, path,
                          "EXBLAS_MODE: ozaki: sum=fixed needs splits; using sum=exact\n"));
    dfs_config_free(build("ozaki:splits=1", NULL, path, ""));
    dfs_config_free(build("knobs", NULL, path, ""));
    /* a mode's option that makes a conflict of a rule */
    dfs_config_free(build("knobs:splits=0", NULL, path,
                          "EXBLAS_MODE: ozaki: sum=fixed needs splits; using sum=exact\n"));
    unlink(path);
}
END_TEST

/* The parse of text with the engines' tables: it parses, and its warnings are exactly `said`. */
static dfs_policy *parse_saying(const char *text, const char *said)
{
    char err[256], got[2048] = "";
    dfs_config_set_option_tables(tables);
    dfs_policy *p = parse(text, err);
    dfs_config_set_option_tables(NULL);
    ck_assert_msg(p != NULL, "%s", err);
    for (int i = 0; dfs_policy_warning(p, i); i++)
        snprintf(got + strlen(got), sizeof got - strlen(got), "%s\n", dfs_policy_warning(p, i));
    ck_assert_msg(!strcmp(got, said), "said\n%sinstead of\n%s", got, said);
    return p;
}

START_TEST(policy_option_values)
{
    dfs_policy *p = parse_saying(
        "[engine df]\n"
        "scheme = bogus\n"
        "tile = 64x64\n"
        "shceme = paper\n"
        "[mode auto]\n"
        "dgemm = df workspace_mb=5 min_dim=9\n"
        "ddot = int8 moduli=999 workspace_mb=32\n"
        "[mode z]\n"
        "all = ozaki sum=fixed\n"
        "[engine repro]\n"
        "max_splits = -5\n",
        "p.policy:2: " DF_SCHEME_BOGUS "\n"
        "p.policy:4: df: no option 'shceme' (df takes scheme, workspace_mb, tile, small); "
        "shceme=paper ignored\n"
        "p.policy:6: df: workspace_mb=5 is not 0 (the device class's) or a number from 16 to "
        "16777216; using 0 (the device class's)\n"
        "p.policy:7: " INT8_MODULI_999 "\n"
        "p.policy:11: " REPRO_MAX_SPLITS_NEG "\n"
        "p.policy:9: ozaki: sum=fixed needs splits; using sum=exact\n");
    /* the rules stay, with the options that are valid */
    dfs_rule r;
    dfs_policy_rule(p, "auto", NULL, DFS_R_DGEMM, &r);
    ck_assert_int_eq(r.engine, lookup("df"));
    ck_assert_int_eq(r.min_dim, 9);
    ck_assert_int_eq(r.options.nbase, 1);
    ck_assert_str_eq(dfs_option_get(&r.options, "tile"), "64x64");
    dfs_policy_rule(p, "auto", NULL, DFS_R_DDOT, &r);
    ck_assert_int_eq(r.engine, lookup("int8"));
    ck_assert_int_eq(r.options.nbase, 1);
    ck_assert_int_eq(dfs_option_int(&r.options, table("int8"), "workspace_mb"), 32);
    dfs_policy_rule(p, "z", NULL, DFS_R_DGEMV, &r);
    ck_assert_int_eq(r.engine, lookup("ozaki"));
    ck_assert_str_eq(dfs_option_get(&r.options, "sum"), "fixed"); /* the engine corrects it */
    dfs_options eo;
    dfs_policy_engine_options(p, lookup("repro"), &eo);
    ck_assert_int_eq(eo.nbase, 0);
    dfs_policy_free(p);
    /* valid options: nothing */
    dfs_policy_free(parse_saying("[engine df]\nscheme = 29\n[mode m]\ndgemm = ozaki splits=2 "
                                 "sum=fixed fast=1\nddot = repro products=f64\n",
                                 ""));
    /* what is not an engine option stays an error */
    char err[256];
    dfs_config_set_option_tables(tables);
    ck_assert_ptr_null(parse("[mode auto]\ndgemm = df min_dim=-3\n", err));
    dfs_config_set_option_tables(NULL);
}
END_TEST

START_TEST(policy_file_option_values)
{
    char path[] = "/tmp/dfs-policy-XXXXXX";
    int fd = mkstemp(path);
    FILE *f = fdopen(fd, "w");
    fputs("[mode auto]\nall = native\n[mode auto class=starved]\ndgemm = df scheme=bogus\n", f);
    fclose(f);
    char said[512];
    snprintf(said, sizeof said, "EXBLAS_POLICY: %s:4: " DF_SCHEME_BOGUS "\n", path);
    dfs_config *c = build(NULL, NULL, path, said);
    ck_assert_str_eq(dfs_config_policy_source(c), path); /* not the embedded policy */
    dfs_rule r;
    dfs_device ada = dev(8, 9, "NVIDIA GeForce RTX 4090");
    dfs_config_rule(c, &ada, DFS_R_DGEMM, &r);
    ck_assert_int_eq(r.engine, lookup("df"));
    ck_assert_int_eq(r.options.nbase, 0);
    dfs_config_free(c);
    unlink(path);
}
END_TEST

START_TEST(embedded_default_options_valid)
{
    dfs_policy_free(parse_saying(dfs_default_policy_text, ""));
    dfs_config_free(build(NULL, NULL, NULL, ""));
    dfs_config_free(build("fast", NULL, NULL, ""));
    dfs_config_free(build("accurate", NULL, NULL, ""));
}
END_TEST

void config_options_tests(TCase *t)
{
    tcase_add_test(t, option_messages);
    tcase_add_test(t, option_getters);
    tcase_add_test(t, mode_option_values);
    tcase_add_test(t, mode_option_conflicts);
    tcase_add_test(t, policy_option_values);
    tcase_add_test(t, policy_file_option_values);
    tcase_add_test(t, embedded_default_options_valid);
}
