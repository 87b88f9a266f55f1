/* policy.c — the policy file: parsing and validation (reading it from disk: policy_load.c; the
 * rule lookup: policy_query.c).
 * Format (docs/POLICY.md):
 *
 *   [mode NAME SELECTOR...]      rules of mode NAME on devices matching every selector
 *   dgemm = ENGINE [min_dim=N [below=ENGINE] [tiny_products=N]] [fallback=ENGINE] [key=value...]
 *           (also dgemv, ddot, zgemm, zdot, zgemv, syrk, syr2k, symm, trmm, trsm, all)
 *   [engine NAME]                options of engine NAME
 *   key = value
 *
 * Selectors: class=full|starved|unknown, cc=X.Y (also >=, <=, >, <), ratio=N (same operators),
 * name=GLOB.  Later matching sections override earlier ones routine by routine.  The text's
 * tokens, numbers and error line: policy_text.c. */
#include "engine_options.h"
#include "policy_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LINE 4096

const char *const dfs_routine_names[DFS_R_COUNT] = {
    "dgemm", "dgemv", "ddot", "zgemm", "zdot", "zgemv", "syrk", "syr2k", "symm", "trmm", "trsm"};

/* ---------- engine options ---------- */

/* Records "WHERE: msg" (once) for dfs_policy_warning. */
static int warn(dfs_policy *p, const char *where, const char *msg)
{
    char line[1024];
    snprintf(line, sizeof line, "%s: %s", where, msg);
    for (int i = 0; i < p->nwarn; i++)
        if (!strcmp(p->warn[i], line))
            return 0;
    char **w = dfs_pol_grow(p->warn, p->nwarn, sizeof *w);
    if (!w)
        return -1;
    p->warn = w;
    if (!(w[p->nwarn] = dfs_pol_strdup(line)))
        return -1;
    p->nwarn++;
    return 0;
}

/* ---------- parsing ---------- */

/* Adds key=value for engine if it is one of the engine's options with a value it takes (0);
 * otherwise says so at this line and drops it (1).  -1: out of memory. */
static int add_option(dfs_policy *p, dfs_pol_ctx *c, int engine, const char *key, const char *value)
{
    char where[600], msg[512];
    snprintf(where, sizeof where, "%s:%d", c->file, c->line);
    if (dfs_config_check_option(&engine, 1, NULL, key, value, msg, sizeof msg))
        return warn(p, where, msg) ? dfs_pol_fail(c, "out of memory") : 1;
    dfs_option *o = dfs_pol_grow(p->opts, p->nopts, sizeof *o);
    if (!o)
        return dfs_pol_fail(c, "out of memory");
    p->opts = o;
    o[p->nopts].key = dfs_pol_strdup(key);
    o[p->nopts].value = dfs_pol_strdup(value);
    o[p->nopts].where = dfs_pol_strdup(where);
    if (!o[p->nopts].key || !o[p->nopts].value || !o[p->nopts].where)
        return dfs_pol_fail(c, "out of memory");
    p->nopts++;
    return 0;
}

static int parse_selector(dfs_pol_ctx *c, const char *t, selector *s)
{
    static const struct {
        const char *name;
        enum sel_kind kind;
    } kinds[] = {{"class", SEL_CLASS}, {"cc", SEL_CC}, {"ratio", SEL_RATIO}, {"name", SEL_NAME}};
    static const struct {
        const char *text;
        enum sel_op op;
    } ops[] = {{">=", OP_GE}, {"<=", OP_LE}, {"=", OP_EQ}, {">", OP_GT}, {"<", OP_LT}};
    memset(s, 0, sizeof *s);
    size_t klen = strcspn(t, "<>=");
    int k = -1;
    for (int i = 0; i < 4; i++)
        if (strlen(kinds[i].name) == klen && !strncmp(t, kinds[i].name, klen))
            k = i;
    if (k < 0)
        return dfs_pol_fail(c, "unknown selector '%s' (expected class=, cc=, ratio= or name=)", t);
    s->kind = kinds[k].kind;
    const char *rest = t + klen;
    int o = -1;
    for (int i = 0; i < 5 && o < 0; i++)
        if (!strncmp(rest, ops[i].text, strlen(ops[i].text)))
            o = i;
    if (o < 0)
        return dfs_pol_fail(c, "selector '%s' has no operator", t);
    s->op = ops[o].op;
    const char *v = rest + strlen(ops[o].text);
    if (!*v)
        return dfs_pol_fail(c, "selector '%s' has no value", t);
    switch (s->kind) {
    case SEL_CLASS:
        if (s->op != OP_EQ)
            return dfs_pol_fail(c, "class takes only '='");
        if (strcmp(v, "full") && strcmp(v, "starved") && strcmp(v, "unknown"))
            return dfs_pol_fail(c, "unknown class '%s' (expected full, starved or unknown)", v);
        s->text = dfs_pol_strdup(v);
        break;
    case SEL_NAME:
        if (s->op != OP_EQ)
            return dfs_pol_fail(c, "name takes only '='");
        s->text = dfs_pol_strdup(v);
        break;
    case SEL_CC:
        if (dfs_pol_parse_cc(v, &s->value))
            return dfs_pol_fail(c, "bad compute capability '%s' (expected like 8.6)", v);
        break;
    case SEL_RATIO:
        if (dfs_pol_parse_long(v, &s->value) || s->value < 1 || s->value > 1024)
            return dfs_pol_fail(c, "bad ratio '%s' (expected an integer such as 2, 32 or 64)", v);
        break;
    }
    if ((s->kind == SEL_CLASS || s->kind == SEL_NAME) && !s->text)
        return dfs_pol_fail(c, "out of memory");
    return 0;
}

static int parse_header(dfs_policy *p, dfs_pol_ctx *c, char *line, int *cur_mode, int *cur_engine,
                        dfs_engine_lookup lookup)
{
    size_t n = strlen(line);
    if (line[n - 1] != ']')
        return dfs_pol_fail(c, "section header must end with ']'");
    line[n - 1] = '\0';
    char *tok[DFS_POL_MAX_TOKENS];
    int nt = dfs_pol_tokenize(line + 1, tok);
    if (nt < 0)
        return dfs_pol_fail(c, "too many words in the section header");
    if (nt < 2)
        return dfs_pol_fail(c, "section header needs a kind and a name, e.g. [mode auto] or "
                               "[engine df]");
    if (!dfs_pol_is_name(tok[1]) || strlen(tok[1]) >= 64)
        return dfs_pol_fail(c, "bad name '%s'", tok[1]);
    if (!strcmp(tok[0], "engine")) {
        if (nt != 2)
            return dfs_pol_fail(c, "[engine NAME] takes no selectors");
        int e = lookup(tok[1]);
        if (e < 0)
            return dfs_pol_fail(c, "unknown engine '%s'", tok[1]);
        for (int i = 0; i < p->nengines; i++)
            if (p->engines[i].engine == e)
                return dfs_pol_fail(c, "[engine %s] appears twice (first at line %d)", tok[1],
                            p->engines[i].line);
        engine_section *es = dfs_pol_grow(p->engines, p->nengines, sizeof *es);
        if (!es)
            return dfs_pol_fail(c, "out of memory");
        p->engines = es;
        es[p->nengines] = (engine_section){e, p->nopts, 0, c->line};
        *cur_engine = p->nengines++;
        *cur_mode = -1;
        return 0;
    }
    if (strcmp(tok[0], "mode"))
        return dfs_pol_fail(c, "unknown section kind '%s' (expected mode or engine)", tok[0]);
    mode_section *ms = dfs_pol_grow(p->modes, p->nmodes, sizeof *ms);
    if (!ms)
        return dfs_pol_fail(c, "out of memory");
    p->modes = ms;
    ms += p->nmodes;
    memset(ms, 0, sizeof *ms);
    p->nmodes++; /* counted now so that free() releases it on error */
    ms->mode = dfs_pol_strdup(tok[1]);
    if (!ms->mode)
        return dfs_pol_fail(c, "out of memory");
    if (nt > 2) {
        ms->sel = calloc((size_t)(nt - 2), sizeof *ms->sel);
        if (!ms->sel)
            return dfs_pol_fail(c, "out of memory");
        for (int i = 2; i < nt; i++) {
            if (parse_selector(c, tok[i], &ms->sel[ms->nsel]))
                return -1;
            ms->nsel++;
        }
    }
    *cur_mode = p->nmodes - 1;
    *cur_engine = -1;
    return 0;
}

static int parse_rule(dfs_policy *p, dfs_pol_ctx *c, mode_section *ms, const char *key, char *value,
                      dfs_engine_lookup lookup)
{
    int first, last;
    if (!strcmp(key, "all")) {
        first = 0;
        last = DFS_R_COUNT - 1;
    } else {
        first = -1;
        for (int i = 0; i < DFS_R_COUNT; i++)
            if (!strcmp(key, dfs_routine_names[i]))
                first = i;
        if (first < 0) {
            char names[256] = "";
            for (int i = 0; i < DFS_R_COUNT; i++)
                snprintf(names + strlen(names), sizeof names - strlen(names), "%s, ",
                         dfs_routine_names[i]);
            return dfs_pol_fail(c, "unknown routine '%s' (expected %sor all)", key, names);
        }
        last = first;
    }
    for (int i = first; i <= last; i++)
        if (ms->r[i].set)
            return dfs_pol_fail(c, "%s is set twice in this section (first at %s)",
                                dfs_routine_names[i], ms->r[i].where);
    char *tok[DFS_POL_MAX_TOKENS];
    int nt = dfs_pol_tokenize(value, tok);
    if (nt < 0)
        return dfs_pol_fail(c, "too many words in the rule");
    if (nt == 0)
        return dfs_pol_fail(c, "%s needs an engine name", key);
    int e = lookup(tok[0]);
    if (e < 0)
        return dfs_pol_fail(c, "unknown engine '%s'", tok[0]);
    rule r = {.set = 1, .engine = e, .opt_first = p->nopts};
    for (int i = 1; i < nt; i++) {
        char *eq = strchr(tok[i], '=');
        if (!eq || eq == tok[i] || !eq[1])
            return dfs_pol_fail(c, "'%s' is not key=value", tok[i]);
        *eq = '\0';
        if (!dfs_pol_is_name(tok[i]))
            return dfs_pol_fail(c, "bad option name '%s'", tok[i]);
        if (!strcmp(tok[i], "min_dim")) {
            long v;
            if (dfs_pol_parse_long(eq + 1, &v))
                return dfs_pol_fail(c, "min_dim must be a non-negative integer, not '%s'", eq + 1);
            r.min_dim = v;
        } else if (!strcmp(tok[i], "tiny_products")) {
            long v;
            if (dfs_pol_parse_long(eq + 1, &v))
                return dfs_pol_fail(c, "tiny_products must be a non-negative integer, not '%s'",
                                    eq + 1);
            r.tiny_products = v;
        } else if (!strcmp(tok[i], "below")) {
            const int b = lookup(eq + 1);
            if (b < 0)
                return dfs_pol_fail(c, "unknown engine '%s' in below=", eq + 1);
            r.below = b;
        } else if (!strcmp(tok[i], "fallback")) {
            const int b = lookup(eq + 1);
            if (b < 0)
                return dfs_pol_fail(c, "unknown engine '%s' in fallback=", eq + 1);
            r.fallback = b;
        } else {
            const int added = add_option(p, c, e, tok[i], eq + 1);
            if (added < 0)
                return -1;
            r.opt_count += added == 0;
        }
    }
    char where[600];
    snprintf(where, sizeof where, "%s:%d", c->file, c->line);
    for (int i = first; i <= last; i++) {
        ms->r[i] = r;
        ms->r[i].where = dfs_pol_strdup(where);
        if (!ms->r[i].where)
            return dfs_pol_fail(c, "out of memory");
    }
    return 0;
}

/* Copies the engine's section options, then the rule's own, into one array per rule; says the
 * combinations the rule's engine will change, at the rule's line. */
static int merge_options(dfs_policy *p)
{
    for (int m = 0; m < p->nmodes; m++)
        for (int r = 0; r < DFS_R_COUNT; r++) {
            rule *ru = &p->modes[m].r[r];
            if (!ru->set)
                continue;
            dfs_options eo;
            dfs_policy_engine_options(p, ru->engine, &eo);
            dfs_policy_engine_options(p, ru->below, &ru->below_options);
            dfs_policy_engine_options(p, ru->fallback, &ru->fallback_options);
            int n = ru->opt_count + eo.nbase;
            if (n) {
                ru->merged = malloc((size_t)n * sizeof *ru->merged);
                if (!ru->merged)
                    return -1;
                for (int i = 0; i < eo.nbase; i++)
                    ru->merged[ru->nmerged++] = eo.base[i];
                for (int i = 0; i < ru->opt_count; i++)
                    ru->merged[ru->nmerged++] = p->opts[ru->opt_first + i];
            }
            const char *msg[DFS_CONFIG_MAX_CONFLICTS];
            const dfs_options merged = {ru->nmerged, 0, ru->merged, NULL};
            const int nc = dfs_config_conflicts(ru->engine, &merged, msg, DFS_CONFIG_MAX_CONFLICTS);
            for (int i = 0; i < nc; i++)
                if (warn(p, ru->where, msg[i]))
                    return -1;
        }
    return 0;
}


dfs_policy *dfs_policy_parse(const char *text, size_t len, const char *file,
                             dfs_engine_lookup lookup, char *err, size_t errlen)
{
    dfs_pol_ctx c = {file ? file : "<policy>", 0, err, errlen};
    if (err && errlen)
        err[0] = '\0';
    if (len > DFS_POLICY_MAX_FILE) {
        dfs_pol_fail(&c, "file larger than %d bytes", DFS_POLICY_MAX_FILE);
        return NULL;
    }
    dfs_policy *p = calloc(1, sizeof *p);
    char *line = malloc(MAX_LINE + 1);
    if (!p || !line) {
        free(p);
        free(line);
        dfs_pol_fail(&c, "out of memory");
        return NULL;
    }
    int cur_mode = -1, cur_engine = -1, bad = 0;
    size_t pos = 0;
    while (pos < len && !bad) {
        c.line++;
        size_t end = pos;
        while (end < len && text[end] != '\n')
            end++;
        size_t n = end - pos;
        if (n > MAX_LINE) {
            bad = dfs_pol_fail(&c, "line longer than %d characters", MAX_LINE);
            break;
        }
        if (memchr(text + pos, '\0', n)) {
            bad = dfs_pol_fail(&c, "NUL byte: this is not a text file");
            break;
        }
        memcpy(line, text + pos, n);
        line[n] = '\0';
        pos = end + 1;
        /* A comment starts at '#' at the start of the line or after a blank. */
        for (char *h = line; (h = strchr(h, '#')); h++)
            if (h == line || h[-1] == ' ' || h[-1] == '\t') {
                *h = '\0';
                break;
            }
        for (char *q = line; *q; q++)
            if ((unsigned char)*q < 0x20 && *q != '\t' && *q != '\r') {
                bad = dfs_pol_fail(&c, "control character 0x%02x", (unsigned char)*q);
                break;
            }
        if (bad)
            break;
        char *s = dfs_pol_trim(line);
        if (!*s)
            continue;
        if (*s == '[') {
            bad = parse_header(p, &c, s, &cur_mode, &cur_engine, lookup);
            continue;
        }
        char *eq = strchr(s, '=');
        if (!eq) {
            bad = dfs_pol_fail(&c, "expected 'key = value' or a [section]");
            continue;
        }
        *eq = '\0';
        char *key = dfs_pol_trim(s), *value = dfs_pol_trim(eq + 1);
        if (!dfs_pol_is_name(key)) {
            bad = dfs_pol_fail(&c, "bad key '%s'", key);
        } else if (!*value) {
            bad = dfs_pol_fail(&c, "'%s' has no value", key);
        } else if (cur_mode >= 0) {
            bad = parse_rule(p, &c, &p->modes[cur_mode], key, value, lookup);
        } else if (cur_engine >= 0) {
            engine_section *es = &p->engines[cur_engine];
            for (int i = 0; i < es->opt_count && !bad; i++)
                if (!strcmp(p->opts[es->opt_first + i].key, key))
                    bad = dfs_pol_fail(&c, "'%s' is set twice in this section (first at %s)", key,
                               p->opts[es->opt_first + i].where);
            const int added = bad ? -1 : add_option(p, &c, es->engine, key, value);
            bad = added < 0 ? -1 : 0;
            es->opt_count += added == 0;
        } else {
            bad = dfs_pol_fail(&c, "'%s' outside a section: start with [mode NAME] or [engine "
                                   "NAME]", key);
        }
    }
    free(line);
    if (!bad && merge_options(p)) {
        c.line = 0;
        bad = dfs_pol_fail(&c, "out of memory");
    }
    if (bad) {
        dfs_policy_free(p);
        return NULL;
    }
    return p;
}

void dfs_policy_free(dfs_policy *p)
{
    if (!p)
        return;
    for (int m = 0; m < p->nmodes; m++) {
        mode_section *ms = &p->modes[m];
        free(ms->mode);
        for (int i = 0; i < ms->nsel; i++)
            free(ms->sel[i].text);
        free(ms->sel);
        for (int r = 0; r < DFS_R_COUNT; r++) {
            free(ms->r[r].merged);
            free(ms->r[r].where);
        }
    }
    for (int i = 0; i < p->nopts; i++) {
        free((char *)p->opts[i].key);
        free((char *)p->opts[i].value);
        free((char *)p->opts[i].where);
    }
    for (int i = 0; i < p->nwarn; i++)
        free(p->warn[i]);
    free(p->warn);
    free(p->modes);
    free(p->engines);
    free(p->opts);
    free(p);
}
