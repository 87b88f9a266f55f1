/* config.c — the effective configuration: which mode each routine runs in, the policy that
 * defines the modes, and the per-device decision.  Built once from the environment (or again
 * when EXBLAS_REREAD=1 and the environment changed); immutable afterwards. */
#include "config.h"
#include "engine_options.h"
#include "env.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { KIND_NATIVE, KIND_POLICY, KIND_ENGINE };

/* The variables a configuration is built from (env.h), in the order of v[] in
 * dfs_config_from_env: the mode, the policy, then one per routine. */
#define ENV_COUNT (2 + DFS_R_COUNT)
static const dfs_env_var env_vars[ENV_COUNT] = {DFS_ENV_MODE, DFS_ENV_POLICY, DFS_ENV_MODE_DGEMM,
                                                DFS_ENV_MODE_DGEMV, DFS_ENV_MODE_DDOT,
                                                DFS_ENV_MODE_ZGEMM, DFS_ENV_MODE_ZDOT,
                                                DFS_ENV_MODE_ZGEMV, DFS_ENV_MODE_SYRK,
                                                DFS_ENV_MODE_SYR2K, DFS_ENV_MODE_SYMM,
                                                DFS_ENV_MODE_TRMM, DFS_ENV_MODE_TRSM};

typedef struct {
    int kind;
    int engine; /* KIND_ENGINE */
    int native_everywhere;
    char text[256]; /* the mode string as given */
    char var[32];   /* the variable it came from */
    dfs_mode mode;
    dfs_option overrides[DFS_MODE_MAX_OPTS]; /* the mode's options that its engines take */
    int noverride;
    char source[600];
} routine_mode;

struct dfs_config {
    dfs_policy *policy;
    char policy_source[512];
    routine_mode r[DFS_R_COUNT];
    int all_native;
    char *env[ENV_COUNT]; /* values seen, for dfs_config_env_changed */
    int env_set[ENV_COUNT];
};

static void diagf(dfs_diag diag, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void diagf(dfs_diag diag, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (diag)
        diag(buf);
}

static int native_lookup_only(const char *name)
{
    return strcmp(name, "native") ? -1 : 0;
}

/* What the policy's parse dropped, one line each. */
static void say_policy_warnings(const dfs_config *c, const char *var, dfs_diag diag)
{
    for (int i = 0; dfs_policy_warning(c->policy, i); i++)
        diagf(diag, "%s: %s", var, dfs_policy_warning(c->policy, i));
}

static void load_policy(dfs_config *c, const char *path, dfs_engine_lookup lookup, dfs_diag diag)
{
    char err[512];
    if (path && *path) {
        c->policy = dfs_policy_load(path, lookup, err, sizeof err);
        if (c->policy) {
            snprintf(c->policy_source, sizeof c->policy_source, "%s", path);
            say_policy_warnings(c, "EXBLAS_POLICY", diag);
            return;
        }
        diagf(diag, "EXBLAS_POLICY: %s; using the embedded default policy", err);
    }
    c->policy = dfs_policy_parse(dfs_default_policy_text, strlen(dfs_default_policy_text),
                                 "<embedded>", lookup, err, sizeof err);
    snprintf(c->policy_source, sizeof c->policy_source, "embedded");
    if (!c->policy)
        diagf(diag, "the embedded default policy does not parse (%s); every call runs natively", err);
    say_policy_warnings(c, "the embedded default policy", diag);
}

/* The engines a policy mode's rules name (distinct; below= and fallback= ones too), at most max;
 * their number. */
static int mode_engines(const dfs_policy *p, const char *mode, int *engines, int max)
{
    int n = 0;
    dfs_rule ru;
    for (int i = 0; dfs_policy_nth_rule(p, mode, i, &ru); i++)
        for (int b = 0; b < 3; b++) {
            const int e = b == 2 ? ru.fallback_engine : b ? ru.below_engine : ru.engine;
            int seen = 0;
            for (int j = 0; j < n; j++)
                seen |= engines[j] == e;
            if (!seen && n < max)
                engines[n++] = e;
        }
    return n;
}

/* Keeps of the mode string's options those that its engines take, with values they take; each
 * other one is said (when report) and dropped. */
static void keep_options(routine_mode *m, const int *engines, int n, int report, dfs_diag diag)
{
    m->noverride = 0;
    for (int i = 0; i < m->mode.nopts; i++) {
        char msg[512];
        if (dfs_config_check_option(engines, n, m->mode.name, m->mode.keys[i], m->mode.values[i],
                                    msg, sizeof msg)) {
            if (report)
                diagf(diag, "%s: %s", m->var, msg);
            continue;
        }
        m->overrides[m->noverride++] = (dfs_option){m->mode.keys[i], m->mode.values[i], m->var};
    }
}

/* Says the combinations of options that engine will change under this mode string: those of
 * `with` (the options as the engine sees them) that `without` (the policy's alone, whose parse
 * said them; NULL: none) does not have, each once (said[] holds those said). */
static void say_conflicts(const routine_mode *m, int engine, const dfs_options *with,
                          const dfs_options *without, const char **said, int *nsaid,
                          dfs_diag diag)
{
    const char *now[DFS_CONFIG_MAX_CONFLICTS], *before[DFS_CONFIG_MAX_CONFLICTS];
    const int n = dfs_config_conflicts(engine, with, now, DFS_CONFIG_MAX_CONFLICTS),
              nb = without ? dfs_config_conflicts(engine, without, before, DFS_CONFIG_MAX_CONFLICTS)
                           : 0;
    for (int i = 0; i < n; i++) {
        int old = 0;
        for (int j = 0; j < nb; j++)
            old |= !strcmp(now[i], before[j]);
        for (int j = 0; j < *nsaid; j++)
            old |= !strcmp(now[i], said[j]);
        if (old)
            continue;
        diagf(diag, "%s: %s", m->var, now[i]);
        if (*nsaid < DFS_CONFIG_MAX_CONFLICTS)
            said[(*nsaid)++] = now[i];
    }
}

/* The engine options of the mode string: checked against the engines they go to (an engine, the
 * engines of a policy mode, native), dropped when they do not fit, and the combinations the
 * engines will change said. */
static void mode_options(dfs_config *c, routine_mode *m, int engine, int report, dfs_diag diag)
{
    int engines[64], n = 1;
    engines[0] = engine;
    if (m->kind == KIND_POLICY)
        n = mode_engines(c->policy, m->mode.name, engines, 64);
    keep_options(m, engines, n, report, diag);
    if (!report)
        return;
    const char *said[DFS_CONFIG_MAX_CONFLICTS];
    int nsaid = 0;
    if (m->kind == KIND_ENGINE) {
        dfs_options o;
        dfs_policy_engine_options(c->policy, engine, &o);
        o.noverride = m->noverride;
        o.override = m->overrides;
        say_conflicts(m, engine, &o, NULL, said, &nsaid, diag);
        return;
    }
    dfs_rule ru;
    for (int i = 0; m->noverride && dfs_policy_nth_rule(c->policy, m->mode.name, i, &ru); i++)
        for (int b = 0; b < 3; b++) {
            const dfs_options *base = b == 2 ? &ru.fallback_options
                                      : b    ? &ru.below_options
                                             : &ru.options;
            dfs_options with = *base;
            with.noverride = m->noverride;
            with.override = m->overrides;
            say_conflicts(m, b == 2 ? ru.fallback_engine : b ? ru.below_engine : ru.engine, &with,
                          base, said, &nsaid, diag);
        }
}

static void set_mode(dfs_config *c, dfs_routine r, const char *var, const char *text,
                     dfs_engine_lookup lookup, dfs_diag diag)
{
    routine_mode *m = &c->r[r];
    snprintf(m->var, sizeof m->var, "%s", var);
    snprintf(m->text, sizeof m->text, "%s", text);
    /* Report a problem once even when one variable serves several routines. */
    int first_use = 1;
    for (int q = 0; q < (int)r; q++)
        if (!strcmp(c->r[q].var, var))
            first_use = 0;
    char err[256];
    m->kind = KIND_NATIVE;
    if (dfs_mode_parse(text, &m->mode, err, sizeof err)) {
        if (first_use)
            diagf(diag, "%s=%s: %s; using native", var, text, err);
        snprintf(m->source, sizeof m->source, "%s is invalid", var);
        return;
    }
    if (!strcmp(m->mode.name, "native")) {
        snprintf(m->source, sizeof m->source, "%s=native", var);
        mode_options(c, m, 0, first_use, diag);
    } else if (dfs_policy_has_mode(c->policy, m->mode.name)) {
        m->kind = KIND_POLICY;
        m->native_everywhere = dfs_policy_mode_is_native(c->policy, m->mode.name, r);
        snprintf(m->source, sizeof m->source, "%s=%s, policy %s", var, m->mode.name,
                 c->policy_source);
        mode_options(c, m, 0, first_use, diag);
    } else if (lookup(m->mode.name) >= 0) {
        m->kind = KIND_ENGINE;
        m->engine = lookup(m->mode.name);
        snprintf(m->source, sizeof m->source, "%s=%s", var, m->mode.name);
        mode_options(c, m, m->engine, first_use, diag);
    } else if (!strcmp(var, "default")) {
        if (first_use)
            diagf(diag, "the policy %s defines no [mode auto], the mode used when EXBLAS_MODE "
                        "is unset; using native", c->policy_source);
    } else {
        if (first_use)
            diagf(diag, "%s=%s: no mode or engine of that name (modes come from the policy, "
                        "engines from exblas-info); using native", var, m->mode.name);
        snprintf(m->source, sizeof m->source, "%s names no mode or engine", var);
    }
}

dfs_config *dfs_config_build(const char *mode, const char *const routine_mode_text[DFS_R_COUNT],
                             const char *policy_path, dfs_engine_lookup lookup, dfs_diag diag)
{
    dfs_config *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    if (!lookup)
        lookup = native_lookup_only;
    load_policy(c, policy_path, lookup, diag);
    c->all_native = 1;
    for (int r = 0; r < DFS_R_COUNT; r++) {
        const char *text = "auto", *var = "default";
        if (mode && *mode) {
            text = mode;
            var = "EXBLAS_MODE";
        }
        if (routine_mode_text && routine_mode_text[r] && *routine_mode_text[r]) {
            text = routine_mode_text[r];
            var = dfs_env_table[env_vars[2 + r]].name;
        }
        set_mode(c, (dfs_routine)r, var, text, lookup, diag);
        routine_mode *m = &c->r[r];
        if (m->kind == KIND_ENGINE ? m->engine != 0 : m->kind == KIND_POLICY && !m->native_everywhere)
            c->all_native = 0;
    }
    return c;
}

dfs_config *dfs_config_from_env(dfs_engine_lookup lookup, dfs_diag diag)
{
    const char *v[ENV_COUNT];
    for (int i = 0; i < ENV_COUNT; i++)
        v[i] = dfs_env(env_vars[i]);
    dfs_config *c = dfs_config_build(v[0], v + 2, v[1], lookup, diag);
    if (!c)
        return NULL;
    for (int i = 0; i < ENV_COUNT; i++) {
        c->env_set[i] = v[i] != NULL;
        c->env[i] = v[i] ? strdup(v[i]) : NULL;
    }
    return c;
}

int dfs_config_env_changed(const dfs_config *c)
{
    for (int i = 0; i < ENV_COUNT; i++) {
        const char *v = dfs_env(env_vars[i]);
        if ((v != NULL) != c->env_set[i] || (v && c->env[i] && strcmp(v, c->env[i])))
            return 1;
    }
    return 0;
}

void dfs_config_free(dfs_config *c)
{
    if (!c)
        return;
    dfs_policy_free(c->policy);
    for (int i = 0; i < ENV_COUNT; i++)
        free(c->env[i]);
    free(c);
}

int dfs_config_all_native(const dfs_config *c)
{
    return c->all_native;
}

void dfs_config_rule(const dfs_config *c, const dfs_device *dev, dfs_routine r, dfs_rule *out)
{
    const routine_mode *m = &c->r[r];
    memset(out, 0, sizeof *out);
    out->source = m->source;
    if (m->kind == KIND_POLICY) {
        dfs_policy_rule(c->policy, m->mode.name, dev, r, out);
    } else if (m->kind == KIND_ENGINE) {
        out->engine = m->engine;
        out->source = m->source;
        dfs_policy_engine_options(c->policy, m->engine, &out->options);
    }
    out->options.noverride = m->noverride;
    out->options.override = m->overrides;
    out->below_options.noverride = m->noverride; /* checked against the below= engines too */
    out->below_options.override = m->overrides;
    out->fallback_options.noverride = m->noverride; /* and the fallback= ones */
    out->fallback_options.override = m->overrides;
}

const dfs_policy *dfs_config_policy(const dfs_config *c)
{
    return c->policy;
}

const char *dfs_config_policy_source(const dfs_config *c)
{
    return c->policy_source;
}

const char *dfs_config_mode(const dfs_config *c, dfs_routine r)
{
    return c->r[r].text;
}
