/* policy_query.c — what the shim asks of a parsed policy: the rule for a (mode, device,
 * routine), whether a mode exists or is native everywhere, an engine's options, the rules of a
 * mode, what the parse dropped.  Later matching sections override earlier ones routine by
 * routine. */
#include "policy_internal.h"

#include <fnmatch.h>
#include <string.h>

/* ---------- lookup ---------- */

static int compare(long a, enum sel_op op, long b)
{
    switch (op) {
    case OP_EQ: return a == b;
    case OP_GE: return a >= b;
    case OP_LE: return a <= b;
    case OP_GT: return a > b;
    case OP_LT: return a < b;
    }
    return 0;
}

static int matches(const mode_section *ms, const dfs_device *d)
{
    for (int i = 0; i < ms->nsel; i++) {
        const selector *s = &ms->sel[i];
        int ok = 0;
        switch (s->kind) {
        case SEL_CLASS:
            ok = !strcmp(dfs_device_class(d), s->text);
            break;
        case SEL_CC:
            ok = d && (d->cc_major || d->cc_minor) &&
                 compare(d->cc_major * 100L + d->cc_minor, s->op, s->value);
            break;
        case SEL_RATIO:
            ok = d && d->fp64_ratio && compare(d->fp64_ratio, s->op, s->value);
            break;
        case SEL_NAME:
            ok = d && fnmatch(s->text, d->name, FNM_CASEFOLD) == 0;
            break;
        }
        if (!ok)
            return 0;
    }
    return 1;
}

void dfs_policy_engine_options(const dfs_policy *p, int engine, dfs_options *out)
{
    memset(out, 0, sizeof *out);
    for (int e = 0; p && e < p->nengines; e++)
        if (p->engines[e].engine == engine && p->engines[e].opt_count > 0) {
            /* (p->opts is NULL while no option exists: no pointer arithmetic on it) */
            out->nbase = p->engines[e].opt_count;
            out->base = p->opts + p->engines[e].opt_first;
        }
}

const char *dfs_policy_warning(const dfs_policy *p, int i)
{
    return p && i >= 0 && i < p->nwarn ? p->warn[i] : NULL;
}

int dfs_policy_mode_is_native(const dfs_policy *p, const char *mode, dfs_routine r)
{
    for (int m = 0; p && m < p->nmodes; m++)
        if (!strcmp(p->modes[m].mode, mode) && p->modes[m].r[r].set &&
            (p->modes[m].r[r].engine != 0 || p->modes[m].r[r].below != 0))
            return 0;
    return 1;
}

int dfs_policy_has_mode(const dfs_policy *p, const char *mode)
{
    for (int m = 0; p && m < p->nmodes; m++)
        if (!strcmp(p->modes[m].mode, mode))
            return 1;
    return 0;
}

static void rule_out(const rule *ru, dfs_rule *out)
{
    out->engine = ru->engine;
    out->min_dim = ru->min_dim;
    out->tiny_products = ru->tiny_products;
    out->below_engine = ru->below;
    out->below_options = ru->below_options;
    out->fallback_engine = ru->fallback;
    out->fallback_options = ru->fallback_options;
    out->options.nbase = ru->nmerged;
    out->options.base = ru->merged;
    out->source = ru->where;
}

void dfs_policy_rule(const dfs_policy *p, const char *mode, const dfs_device *dev, dfs_routine r,
                     dfs_rule *out)
{
    memset(out, 0, sizeof *out);
    out->source = "no matching rule";
    for (int m = 0; p && m < p->nmodes; m++) {
        const mode_section *ms = &p->modes[m];
        if (strcmp(ms->mode, mode) || !ms->r[r].set || !matches(ms, dev))
            continue;
        rule_out(&ms->r[r], out);
    }
}

int dfs_policy_nth_rule(const dfs_policy *p, const char *mode, int i, dfs_rule *out)
{
    memset(out, 0, sizeof *out);
    for (int m = 0; p && m < p->nmodes; m++)
        for (int r = 0; r < DFS_R_COUNT; r++) {
            const rule *ru = &p->modes[m].r[r];
            if (strcmp(p->modes[m].mode, mode) || !ru->set || i-- > 0)
                continue;
            rule_out(ru, out);
            return 1;
        }
    return 0;
}
