/* test_config.c — unit tests (Check) of config/: mode strings, policy files, the device table
 * and the effective configuration; engine options: config_options.c; a rule's words below=,
 * tiny_products= and fallback=: config_rules.c.  The engine table is a
 * stand-in: the names the embedded default policy uses and ozaki and repro, which it does not,
 * so that rules for engines that a build may not have can be tested. */
#include "config_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *const engine_names[ENGINE_COUNT] = {"native", "df", "ozaki", "int8", "dd", "repro"};

int lookup(const char *name)
{
    for (int i = 0; i < ENGINE_COUNT; i++)
        if (!strcmp(engine_names[i], name))
            return i;
    return -1;
}

dfs_policy *parse(const char *text, char *err)
{
    return dfs_policy_parse(text, strlen(text), "p.policy", lookup, err, 256);
}

/* Asserts that text is rejected with an error that starts with "p.policy:LINE:" and contains
 * what. */
void expect_error(const char *text, int line, const char *what)
{
    char err[256], prefix[64];
    dfs_policy *p = parse(text, err);
    ck_assert_msg(p == NULL, "accepted: %s", text);
    snprintf(prefix, sizeof prefix, "p.policy:%d:", line);
    ck_assert_msg(!strncmp(err, prefix, strlen(prefix)), "error '%s' does not start with '%s'", err,
                  prefix);
    ck_assert_msg(strstr(err, what) != NULL, "error '%s' does not mention '%s'", err, what);
}

dfs_device dev(int major, int minor, const char *name)
{
    dfs_device d;
    dfs_device_describe(&d, 0, major, minor, name);
    return d;
}

/* ---------------- mode strings ---------------- */

START_TEST(mode_plain_and_options)
{
    dfs_mode m;
    char err[128];
    ck_assert_int_eq(dfs_mode_parse("auto", &m, err, sizeof err), 0);
    ck_assert_str_eq(m.name, "auto");
    ck_assert_int_eq(m.nopts, 0);
    ck_assert_int_eq(dfs_mode_parse(" ozaki-sgemm:splits=3,fast=yes", &m, err, sizeof err), 0);
    ck_assert_str_eq(m.name, "ozaki-sgemm");
    ck_assert_int_eq(m.nopts, 2);
    ck_assert_str_eq(m.keys[0], "splits");
    ck_assert_str_eq(m.values[0], "3");
    ck_assert_str_eq(m.keys[1], "fast");
    ck_assert_str_eq(m.values[1], "yes");
}
END_TEST

START_TEST(mode_errors)
{
    static const char *const bad[] = {"",        ":x=1",    "df:",      "df:x",  "df:x=",
                                      "df x",    "df:=1",   "df:x=1,",  "d$f",   "df:x=a\tb"};
    dfs_mode m;
    char err[128];
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = '\0';
        ck_assert_msg(dfs_mode_parse(bad[i], &m, err, sizeof err) == -1, "accepted '%s'", bad[i]);
        ck_assert_msg(err[0] != '\0', "no reason for '%s'", bad[i]);
    }
    char many[512] = "df:";
    for (int i = 0; i < 17; i++)
        snprintf(many + strlen(many), sizeof many - strlen(many), "%sk%d=1", i ? "," : "", i);
    ck_assert_int_eq(dfs_mode_parse(many, &m, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "too many"));
}
END_TEST

/* ---------------- device table ---------------- */

START_TEST(device_table)
{
    static const struct {
        int major, minor, ratio;
        const char *cls;
    } t[] = {{9, 0, 2, "full"},     {8, 0, 2, "full"},     {7, 0, 2, "full"},
             {6, 0, 2, "full"},     {10, 0, 2, "full"},    {8, 6, 64, "starved"},
             {8, 9, 64, "starved"}, {12, 0, 64, "starved"}, {10, 3, 64, "starved"},
             {7, 5, 32, "starved"}, {6, 1, 32, "starved"}, {5, 2, 32, "starved"},
             {11, 0, 0, "unknown"}, {3, 5, 0, "unknown"}};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        dfs_device d = dev(t[i].major, t[i].minor, "x");
        ck_assert_msg(d.fp64_ratio == t[i].ratio, "cc %d.%d: ratio %d, expected %d", t[i].major,
                      t[i].minor, d.fp64_ratio, t[i].ratio);
        ck_assert_str_eq(dfs_device_class(&d), t[i].cls);
    }
    ck_assert_str_eq(dfs_device_class(NULL), "unknown");
}
END_TEST

/* ---------------- policy files ---------------- */

static const char *const good_policy =
    "# comment line\n"
    "[mode auto]   # trailing comment\n"
    "all = native\n"
    "\n"
    "[mode auto class=starved]\n"
    "dgemm = df min_dim=256 scheme=fast\n"
    "ddot = df\n"
    "[mode auto cc>=12.0 name=*RTX*]\n"
    "dgemm = ozaki\n"
    "[mode repro]\n"
    "all = ozaki splits=0\n"
    "[engine df]\n"
    "scheme = accurate\n"
    "tile = 64\n"
    "[engine ozaki]\n"
    "summation=nearsum\n";

START_TEST(policy_cascade)
{
    char err[256];
    dfs_policy *p = parse(good_policy, err);
    ck_assert_msg(p != NULL, "%s", err);
    dfs_rule r;
    dfs_device h100 = dev(9, 0, "NVIDIA H100 80GB HBM3");
    dfs_device a10 = dev(8, 6, "NVIDIA A10");
    dfs_device rtx = dev(12, 0, "NVIDIA GeForce RTX 5090");

    dfs_policy_rule(p, "auto", &h100, DFS_R_DGEMM, &r);
    ck_assert_int_eq(r.engine, 0);
    ck_assert_str_eq(r.source, "p.policy:3");

    dfs_policy_rule(p, "auto", &a10, DFS_R_DGEMM, &r);
    ck_assert_int_eq(r.engine, 1);
    ck_assert_int_eq(r.min_dim, 256);
    ck_assert_str_eq(r.source, "p.policy:6");
    /* engine section first, rule options after: the rule's scheme wins */
    ck_assert_int_eq(r.options.nbase, 3);
    ck_assert_str_eq(dfs_option_get(&r.options, "scheme"), "fast");
    ck_assert_str_eq(dfs_option_get(&r.options, "tile"), "64");
    ck_assert_ptr_null(dfs_option_get(&r.options, "summation"));

    dfs_policy_rule(p, "auto", &a10, DFS_R_DGEMV, &r);
    ck_assert_int_eq(r.engine, 0); /* only dgemm and ddot were overridden */
    dfs_policy_rule(p, "auto", &a10, DFS_R_DDOT, &r);
    ck_assert_int_eq(r.engine, 1);
    ck_assert_int_eq(r.min_dim, 0);

    /* the later, more specific section overrides dgemm only */
    dfs_policy_rule(p, "auto", &rtx, DFS_R_DGEMM, &r);
    ck_assert_int_eq(r.engine, 2);
    ck_assert_str_eq(dfs_option_get(&r.options, "summation"), "nearsum");
    dfs_policy_rule(p, "auto", &rtx, DFS_R_DDOT, &r);
    ck_assert_int_eq(r.engine, 1);

    /* unknown device: only sections without selectors apply */
    dfs_policy_rule(p, "auto", NULL, DFS_R_DGEMM, &r);
    ck_assert_int_eq(r.engine, 0);
    /* an undefined mode: native, with a source saying so */
    dfs_policy_rule(p, "nope", &a10, DFS_R_DGEMM, &r);
    ck_assert_int_eq(r.engine, 0);
    ck_assert_str_eq(r.source, "no matching rule");

    ck_assert(dfs_policy_has_mode(p, "repro"));
    ck_assert(!dfs_policy_has_mode(p, "fast"));
    ck_assert(!dfs_policy_mode_is_native(p, "auto", DFS_R_DGEMM));
    ck_assert(dfs_policy_mode_is_native(p, "auto", DFS_R_DGEMV));
    dfs_policy_free(p);
}
END_TEST

START_TEST(policy_selectors)
{
    char err[256];
    dfs_policy *p = parse("[mode m cc=8.6]\ndgemm = df\n"
                          "[mode m cc<8.0]\ndgemv = df\n"
                          "[mode m ratio>=64]\nddot = df\n"
                          "[mode m class=unknown]\nall = ozaki\n",
                          err);
    ck_assert_msg(p != NULL, "%s", err);
    dfs_rule r;
    dfs_device a = dev(8, 6, "A"), v = dev(7, 5, "T4"), h = dev(9, 0, "H"), u = dev(11, 0, "Thor");
    dfs_policy_rule(p, "m", &a, DFS_R_DGEMM, &r);
    ck_assert_int_eq(r.engine, 1);
    dfs_policy_rule(p, "m", &h, DFS_R_DGEMM, &r);
    ck_assert_int_eq(r.engine, 0);
    dfs_policy_rule(p, "m", &v, DFS_R_DGEMV, &r);
    ck_assert_int_eq(r.engine, 1);
    dfs_policy_rule(p, "m", &a, DFS_R_DGEMV, &r);
    ck_assert_int_eq(r.engine, 0);
    dfs_policy_rule(p, "m", &a, DFS_R_DDOT, &r);
    ck_assert_int_eq(r.engine, 1);
    dfs_policy_rule(p, "m", &v, DFS_R_DDOT, &r); /* ratio 32 */
    ck_assert_int_eq(r.engine, 0);
    dfs_policy_rule(p, "m", &u, DFS_R_DGEMM, &r);
    ck_assert_int_eq(r.engine, 2);
    dfs_policy_rule(p, "m", NULL, DFS_R_DDOT, &r);
    ck_assert_int_eq(r.engine, 2);
    dfs_policy_free(p);
}
END_TEST

START_TEST(policy_errors)
{
    expect_error("dgemm = df\n", 1, "outside a section");
    expect_error("[mode auto]\n[thing x]\n", 2, "unknown section kind");
    expect_error("[mode auto\n", 1, "must end with ']'");
    expect_error("[mode]\n", 1, "needs a kind and a name");
    expect_error("[mode auto]\ndgemm = cuda\n", 2, "unknown engine 'cuda'");
    expect_error("[mode auto]\ndsyrk = df\n", 2, "unknown routine");
    expect_error("[mode auto]\ndgemm = df\ndgemm = native\n", 3, "set twice");
    expect_error("[mode auto]\nall = df\nddot = native\n", 3, "set twice");
    expect_error("[mode auto]\nall = df\nzgemv = native\n", 3, "set twice"); /* all: zgemv too */
    /* all: the Level-3 routines too */
    expect_error("[mode auto]\nall = df\nsyrk = native\n", 3, "set twice");
    expect_error("[mode auto]\nall = df\ntrsm = native\n", 3, "set twice");
    expect_error("[mode auto]\nherk = df\n", 2, "unknown routine 'herk' (expected dgemm, dgemv, "
                 "ddot, zgemm, zdot, zgemv, syrk, syr2k, symm, trmm, trsm, or all)");
    expect_error("[mode auto]\ndgemm =\n", 2, "has no value");
    expect_error("[mode auto]\ndgemm df\n", 2, "expected 'key = value'");
    expect_error("[mode auto]\ndgemm = df min_dim=-3\n", 2, "min_dim");
    expect_error("[mode auto]\ndgemm = df fast\n", 2, "not key=value");
    expect_error("[mode auto gpu=x]\n", 1, "unknown selector");
    expect_error("[mode auto cc>=nine]\n", 1, "bad compute capability");
    expect_error("[mode auto class=cheap]\n", 1, "unknown class");
    expect_error("[mode auto class>=full]\n", 1, "only '='");
    expect_error("[mode auto ratio=0]\n", 1, "bad ratio");
    expect_error("[mode auto cc]\n", 1, "no operator");
    expect_error("[engine nope]\n", 1, "unknown engine");
    expect_error("[engine df x=1]\n", 1, "takes no selectors");
    expect_error("[engine df]\na = 1\na = 2\n", 3, "set twice");
    expect_error("[engine df]\n[mode a]\nall=df\n[engine df]\n", 4, "appears twice");
    expect_error("[mode auto]\nall = native\n\x01\n", 3, "control character");

    char err[256];
    /* NUL byte: binary garbage */
    const char bin[] = "[mode auto]\nall = native\n\0garbage\n";
    ck_assert_ptr_null(dfs_policy_parse(bin, sizeof bin - 1, "p.policy", lookup, err, sizeof err));
    ck_assert_ptr_nonnull(strstr(err, "p.policy:3: NUL byte"));
    /* a line over the limit */
    enum { n = 5000 };
    static char longline[n + 16];
    memcpy(longline, "[mode a]\n#", 10);
    memset(longline + 10, 'x', n);
    strcpy(longline + 10 + n, "\n");
    ck_assert_ptr_null(parse(longline, err));
    ck_assert_ptr_nonnull(strstr(err, "p.policy:2: line longer"));
}
END_TEST

START_TEST(policy_files)
{
    char err[256];
    ck_assert_ptr_null(dfs_policy_load("/nonexistent/policy", lookup, err, sizeof err));
    ck_assert_ptr_nonnull(strstr(err, "/nonexistent/policy: cannot open"));
    ck_assert_ptr_null(dfs_policy_load("/tmp", lookup, err, sizeof err));
    ck_assert_ptr_nonnull(strstr(err, "not a regular file"));

    char path[] = "/tmp/dfs-policy-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "w");
    fputs("[mode auto]\nall = df min_dim=7\n", f);
    fclose(f);
    dfs_policy *p = dfs_policy_load(path, lookup, err, sizeof err);
    ck_assert_msg(p != NULL, "%s", err);
    dfs_rule r;
    dfs_policy_rule(p, "auto", NULL, DFS_R_DGEMV, &r);
    ck_assert_int_eq(r.engine, 1);
    ck_assert_int_eq(r.min_dim, 7);
    dfs_policy_free(p);

    /* larger than 1 MiB */
    f = fopen(path, "w");
    for (int i = 0; i < (1 << 20) / 16 + 1; i++)
        fputs("# padding line.\n", f);
    fclose(f);
    ck_assert_ptr_null(dfs_policy_load(path, lookup, err, sizeof err));
    ck_assert_ptr_nonnull(strstr(err, "larger than"));
    unlink(path);
}
END_TEST

START_TEST(embedded_default_parses)
{
    char err[256];
    dfs_policy *p = dfs_policy_parse(dfs_default_policy_text, strlen(dfs_default_policy_text),
                                     "<embedded>", lookup, err, sizeof err);
    ck_assert_msg(p != NULL, "%s", err);
    ck_assert(dfs_policy_has_mode(p, "auto"));
    dfs_policy_free(p);
}
END_TEST

/* ---------------- effective configuration ---------------- */

char diag_log[4096];
int diag_count;
void diag(const char *line)
{
    diag_count++;
    snprintf(diag_log + strlen(diag_log), sizeof diag_log - strlen(diag_log), "%s\n", line);
}
void diag_reset(void)
{
    diag_log[0] = '\0';
    diag_count = 0;
}

START_TEST(config_defaults)
{
    diag_reset();
    const char *none[DFS_R_COUNT] = {NULL, NULL, NULL};
    dfs_config *c = dfs_config_build(NULL, none, NULL, lookup, diag);
    ck_assert_int_eq(diag_count, 0);
    ck_assert_str_eq(dfs_config_policy_source(c), "embedded");
    ck_assert_str_eq(dfs_config_mode(c, DFS_R_DGEMM), "auto");
    /* the embedded auto: native on full-FP64 parts, DGEMM on df for FP64-starved ones */
    ck_assert(!dfs_config_all_native(c));
    dfs_rule r;
    dfs_device h100 = dev(9, 0, "NVIDIA H100"), ada = dev(8, 9, "NVIDIA GeForce RTX 4090");
    dfs_config_rule(c, &h100, DFS_R_DGEMM, &r);
    ck_assert_int_eq(r.engine, 0);
    dfs_config_rule(c, NULL, DFS_R_DGEMM, &r);
    ck_assert_int_eq(r.engine, 0);
    dfs_config_rule(c, &ada, DFS_R_DGEMM, &r);
    ck_assert_int_eq(r.engine, 1);
    ck_assert_int_eq(r.min_dim, 256);
    ck_assert_str_eq(dfs_option_get(&r.options, "scheme"), "fused");
    dfs_config_rule(c, &ada, DFS_R_DGEMV, &r);
    ck_assert_int_eq(r.engine, 0);
    dfs_config_rule(c, &ada, DFS_R_DDOT, &r);
    ck_assert_int_eq(r.engine, 0);
    dfs_config_free(c);

    c = dfs_config_build("native", none, NULL, lookup, diag);
    ck_assert(dfs_config_all_native(c));
    ck_assert_int_eq(diag_count, 0);
    dfs_config_free(c);
}
END_TEST

/* The embedded fast: DGEMM on int8 on tensor-core parts (from 2048 in every dimension on
 * full-FP64 parts, where the engine's cost model takes over; 512 on FP64-starved ones), native
 * where there are no integer tensor cores (before cc 7.5); DGEMV and DDOT native. */
START_TEST(config_fast_embedded)
{
    diag_reset();
    const char *none[DFS_R_COUNT] = {NULL, NULL, NULL};
    dfs_config *c = dfs_config_build("fast", none, NULL, lookup, diag);
    ck_assert_int_eq(diag_count, 0);
    ck_assert_str_eq(dfs_config_policy_source(c), "embedded");
    dfs_rule r;
    dfs_device h100 = dev(9, 0, "NVIDIA H100"), ada = dev(8, 9, "NVIDIA GeForce RTX 4090"),
               v100 = dev(7, 0, "Tesla V100");
    dfs_config_rule(c, &h100, DFS_R_DGEMM, &r);
    ck_assert_int_eq(r.engine, 3);
    ck_assert_int_eq(r.min_dim, 2048);
    dfs_config_rule(c, &ada, DFS_R_DGEMM, &r);
    ck_assert_int_eq(r.engine, 3);
    ck_assert_int_eq(r.min_dim, 512);
    dfs_config_rule(c, &v100, DFS_R_DGEMM, &r);
    ck_assert_int_eq(r.engine, 0);
    dfs_config_rule(c, &h100, DFS_R_DGEMV, &r);
    ck_assert_int_eq(r.engine, 0);
    dfs_config_rule(c, &ada, DFS_R_DDOT, &r);
    ck_assert_int_eq(r.engine, 0);
    dfs_config_free(c);
}
END_TEST

/* The embedded accurate: dd everywhere, except DGEMM on parts with integer tensor cores (cc 7.5
 * and later), which goes to repro when every dimension is 256 or more, to dd below. */
START_TEST(config_accurate_embedded)
{
    diag_reset();
    const char *none[DFS_R_COUNT] = {NULL, NULL, NULL};
    dfs_config *c = dfs_config_build("accurate", none, NULL, lookup, diag);
    ck_assert_int_eq(diag_count, 0);
    ck_assert(!dfs_config_all_native(c));
    dfs_rule r;
    dfs_device h100 = dev(9, 0, "NVIDIA H100"), v100 = dev(7, 0, "Tesla V100");
    dfs_config_rule(c, &h100, DFS_R_DGEMM, &r);
    ck_assert_int_eq(r.engine, lookup("repro"));
    ck_assert_int_eq(r.min_dim, 256);
    ck_assert_int_eq(r.below_engine, lookup("dd"));
    ck_assert(!dfs_rule_below(&r, 64, 64.0 * 64 * 64)); /* repro's small kernel */
    ck_assert(dfs_rule_below(&r, 64, 4096.0 * 4096 * 64));
    for (int rt = DFS_R_DGEMV; rt <= DFS_R_DDOT; rt++) {
        dfs_config_rule(c, &h100, (dfs_routine)rt, &r);
        ck_assert_int_eq(r.engine, lookup("dd"));
        ck_assert_int_eq(r.min_dim, 0);
    }
    /* complex DOT and GEMV: repro on every GPU (dd has neither) */
    static const dfs_routine zvec[2] = {DFS_R_ZDOT, DFS_R_ZGEMV};
    for (int i = 0; i < 2; i++) {
        const dfs_routine rt = zvec[i];
        dfs_config_rule(c, &h100, rt, &r);
        ck_assert_int_eq(r.engine, lookup("repro"));
        dfs_config_rule(c, &v100, rt, &r);
        ck_assert_int_eq(r.engine, lookup("repro"));
        ck_assert_int_eq(r.min_dim, 0);
    }
    /* complex GEMM: repro, whose declined calls go to dd */
    dfs_config_rule(c, &h100, DFS_R_ZGEMM, &r);
    ck_assert_int_eq(r.engine, lookup("repro"));
    ck_assert_int_eq(r.fallback_engine, lookup("dd"));
    dfs_config_rule(c, &v100, DFS_R_DGEMM, &r);
    ck_assert_int_eq(r.engine, lookup("dd"));
    ck_assert_int_eq(r.min_dim, 0);
    ck_assert_int_eq(r.below_engine, 0);
    dfs_config_rule(c, &v100, DFS_R_ZGEMM, &r);
    ck_assert_int_eq(r.engine, lookup("dd"));
    ck_assert_int_eq(r.fallback_engine, 0);
    dfs_config_rule(c, NULL, DFS_R_DGEMM, &r);
    ck_assert_int_eq(r.engine, lookup("dd"));
    dfs_config_free(c);
    /* the mode string's options reach both engines of the rule (repro takes max_splits) */
    c = dfs_config_build("accurate:max_splits=4", none, NULL, lookup, diag);
    ck_assert_int_eq(diag_count, 0);
    dfs_config_rule(c, &h100, DFS_R_DGEMM, &r);
    ck_assert_str_eq(dfs_option_get(&r.options, "max_splits"), "4");
    ck_assert_str_eq(dfs_option_get(&r.below_options, "max_splits"), "4");
    dfs_config_free(c);
}
END_TEST

START_TEST(config_engine_and_overrides)
{
    diag_reset();
    const char *routine[DFS_R_COUNT] = {NULL, "native", "ozaki:splits=4"};
    dfs_config *c = dfs_config_build("df:scheme=fast", routine, NULL, lookup, diag);
    ck_assert_int_eq(diag_count, 0);
    ck_assert(!dfs_config_all_native(c));
    dfs_rule r;
    dfs_device h = dev(9, 0, "H100");
    dfs_config_rule(c, &h, DFS_R_DGEMM, &r);
    ck_assert_int_eq(r.engine, 1);
    ck_assert_int_eq(r.min_dim, 0);
    ck_assert_str_eq(dfs_option_get(&r.options, "scheme"), "fast");
    ck_assert_str_eq(r.options.override[0].where, "EXBLAS_MODE");
    dfs_config_rule(c, &h, DFS_R_DGEMV, &r);
    ck_assert_int_eq(r.engine, 0);
    dfs_config_rule(c, &h, DFS_R_DDOT, &r);
    ck_assert_int_eq(r.engine, 2);
    ck_assert_str_eq(dfs_option_get(&r.options, "splits"), "4");
    ck_assert_str_eq(r.options.override[0].where, "EXBLAS_MODE_DDOT");
    dfs_config_free(c);
    /* complex GEMV's own variable: EXBLAS_MODE_ZGEMV over EXBLAS_MODE for it alone */
    const char *zgemv[DFS_R_COUNT] = {[DFS_R_ZGEMV] = "native"};
    c = dfs_config_build("repro", zgemv, NULL, lookup, diag);
    ck_assert_int_eq(diag_count, 0);
    dfs_config_rule(c, &h, DFS_R_ZGEMV, &r);
    ck_assert_int_eq(r.engine, 0);
    dfs_config_rule(c, &h, DFS_R_ZDOT, &r);
    ck_assert_int_eq(r.engine, lookup("repro"));
    dfs_config_free(c);
    /* the Level-3 routines' own variables, each for its routine alone (a mutation that maps one
     * variable to another routine fails here) */
    static const char *const l3var[] = {"EXBLAS_MODE_SYRK", "EXBLAS_MODE_SYR2K",
                                        "EXBLAS_MODE_SYMM", "EXBLAS_MODE_TRMM",
                                        "EXBLAS_MODE_TRSM"};
    for (int q = DFS_R_SYRK; q < DFS_R_COUNT; q++) {
        const char *l3[DFS_R_COUNT] = {NULL};
        l3[q] = "ozaki:splits=4";
        c = dfs_config_build("native", l3, NULL, lookup, diag);
        ck_assert_int_eq(diag_count, 0);
        for (int o = 0; o < DFS_R_COUNT; o++) {
            dfs_config_rule(c, &h, (dfs_routine)o, &r);
            ck_assert_int_eq(r.engine, o == q ? lookup("ozaki") : 0);
        }
        dfs_config_rule(c, &h, (dfs_routine)q, &r);
        ck_assert_str_eq(r.options.override[0].where, l3var[q - DFS_R_SYRK]);
        dfs_config_free(c);
    }
}
END_TEST

START_TEST(config_bad_values_reported_once)
{
    diag_reset();
    const char *none[DFS_R_COUNT] = {NULL, NULL, NULL};
    dfs_config *c = dfs_config_build("turbo", none, NULL, lookup, diag);
    ck_assert_int_eq(diag_count, 1);
    ck_assert_ptr_nonnull(strstr(diag_log, "EXBLAS_MODE=turbo"));
    ck_assert_ptr_nonnull(strstr(diag_log, "native"));
    ck_assert(dfs_config_all_native(c));
    dfs_config_free(c);

    diag_reset();
    c = dfs_config_build("df:bad", none, NULL, lookup, diag);
    ck_assert_int_eq(diag_count, 1);
    ck_assert(dfs_config_all_native(c));
    dfs_config_free(c);

    /* a malformed policy file: one line with file:line, then the embedded default */
    char path[] = "/tmp/dfs-policy-XXXXXX";
    int fd = mkstemp(path);
    FILE *f = fdopen(fd, "w");
    fputs("[mode auto]\nddot = native\ndgemm = warp\n", f);
    fclose(f);
    diag_reset();
    c = dfs_config_build(NULL, none, path, lookup, diag);
    ck_assert_int_eq(diag_count, 1);
    char expect[128];
    snprintf(expect, sizeof expect, "%s:3: unknown engine 'warp'", path);
    ck_assert_msg(strstr(diag_log, expect) != NULL, "got: %s", diag_log);
    ck_assert_ptr_nonnull(strstr(diag_log, "embedded default"));
    ck_assert_str_eq(dfs_config_policy_source(c), "embedded");
    dfs_config_free(c);

    /* a good policy file defining a new mode */
    f = fopen(path, "w");
    fputs("[mode fast]\ndgemm = ozaki min_dim=4096\n", f);
    fclose(f);
    diag_reset();
    c = dfs_config_build("fast", none, path, lookup, diag);
    ck_assert_int_eq(diag_count, 0);
    ck_assert_str_eq(dfs_config_policy_source(c), path);
    dfs_rule r;
    dfs_config_rule(c, NULL, DFS_R_DGEMM, &r);
    ck_assert_int_eq(r.engine, 2);
    ck_assert_int_eq(r.min_dim, 4096);
    dfs_config_rule(c, NULL, DFS_R_DDOT, &r);
    ck_assert_int_eq(r.engine, 0);
    ck_assert(!dfs_config_all_native(c));
    dfs_config_free(c);
    unlink(path);
}
END_TEST

START_TEST(config_env_changed)
{
    unsetenv("EXBLAS_MODE");
    unsetenv("EXBLAS_POLICY");
    dfs_config *c = dfs_config_from_env(lookup, diag);
    ck_assert(!dfs_config_env_changed(c));
    setenv("EXBLAS_MODE", "df", 1);
    ck_assert(dfs_config_env_changed(c));
    dfs_config_free(c);
    c = dfs_config_from_env(lookup, diag);
    ck_assert(!dfs_config_env_changed(c));
    setenv("EXBLAS_MODE", "ozaki", 1);
    ck_assert(dfs_config_env_changed(c));
    unsetenv("EXBLAS_MODE");
    ck_assert(dfs_config_env_changed(c));
    dfs_config_free(c);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("config");
    TCase *t = tcase_create("all");
    tcase_add_test(t, mode_plain_and_options);
    tcase_add_test(t, mode_errors);
    tcase_add_test(t, device_table);
    tcase_add_test(t, policy_cascade);
    tcase_add_test(t, policy_selectors);
    tcase_add_test(t, policy_errors);
    tcase_add_test(t, policy_files);
    tcase_add_test(t, embedded_default_parses);
    tcase_add_test(t, config_defaults);
    tcase_add_test(t, config_fast_embedded);
    tcase_add_test(t, config_accurate_embedded);
    tcase_add_test(t, config_engine_and_overrides);
    tcase_add_test(t, config_bad_values_reported_once);
    tcase_add_test(t, config_env_changed);
    config_rules_tests(t);
    config_options_tests(t);
    suite_add_tcase(s, t);
    return s;
}

#include "check_main.h"
