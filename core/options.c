/* options.c — engine options (types.h): reading them, and checking them against the engine's
 * table.  The one place where an option's values and its messages are written. */
#include "types.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *dfs_option_get(const dfs_options *o, const char *key)
{
    const char *v = NULL;
    for (int i = 0; o && i < o->nbase; i++)
        if (!strcmp(o->base[i].key, key))
            v = o->base[i].value;
    for (int i = 0; o && i < o->noverride; i++)
        if (!strcmp(o->override[i].key, key))
            v = o->override[i].value;
    return v;
}

static const dfs_option_spec *spec_of(const dfs_option_table *t, const char *key)
{
    for (const dfs_option_spec *s = t ? t->spec : NULL; s && s->key; s++)
        if (!strcmp(s->key, key))
            return s;
    return NULL;
}

/* A decimal integer, the whole of v (no blanks, no '+'); 0 on success. */
static int parse_int(const char *v, long long *out)
{
    const char *d = v + (*v == '-');
    if (*d < '0' || *d > '9')
        return -1;
    errno = 0;
    char *end;
    long long x = strtoll(v, &end, 10);
    if (*end || errno)
        return -1;
    *out = x;
    return 0;
}

static int int_valid(const dfs_option_spec *s, const char *v, long long *out)
{
    return !parse_int(v, out) && ((*out >= s->lo && *out <= s->hi) || (s->zero && *out == 0));
}

/* The index of the word (or one of its synonyms) v, or -1. */
static int word_index(const dfs_option_spec *s, const char *v)
{
    const size_t n = strlen(v);
    for (int i = 0; s->words[i]; i++)
        for (const char *w = s->words[i]; w; w = strchr(w, '|') ? strchr(w, '|') + 1 : NULL) {
            const size_t wl = strcspn(w, "|");
            if (wl == n && !strncmp(w, v, n))
                return i;
        }
    return -1;
}

/* Appends to buf (a string of capacity len). */
static void add(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void add(char *buf, size_t len, const char *fmt, ...)
{
    const size_t used = strlen(buf);
    if (used + 1 >= len)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + used, len - used, fmt, ap);
    va_end(ap);
}

/* A word with its synonyms: "paper|16" is "paper (16)". */
static void add_word(char *buf, size_t len, const char *w)
{
    const char *bar = strchr(w, '|');
    if (!bar) {
        add(buf, len, "%s", w);
        return;
    }
    add(buf, len, "%.*s (", (int)(bar - w), w);
    for (const char *s = bar + 1; s; s = strchr(s, '|') ? strchr(s, '|') + 1 : NULL)
        add(buf, len, "%s%.*s", s == bar + 1 ? "" : ", ", (int)strcspn(s, "|"), s);
    add(buf, len, ")");
}

/* What the option takes: "a number from 1 to 16", "0 (by k) or a number from 2 to 24",
 * "paper (16), fused (15), accurate (29) or lazy (12)". */
static void add_values(char *buf, size_t len, const dfs_option_spec *s)
{
    if (s->kind == DFS_OPT_INT) {
        if (s->zero)
            add(buf, len, "0 (%s) or ", s->zero);
        add(buf, len, "a number from %lld to %lld", s->lo, s->hi);
        return;
    }
    for (int i = 0; s->words[i]; i++) {
        if (i)
            add(buf, len, "%s", s->words[i + 1] ? ", " : " or ");
        add_word(buf, len, s->words[i]);
    }
}

/* The default: "12", "0 (by k)", "fused". */
static void add_default(char *buf, size_t len, const dfs_option_spec *s)
{
    if (s->kind == DFS_OPT_WORD)
        add(buf, len, "%.*s", (int)strcspn(s->words[s->def], "|"), s->words[s->def]);
    else if (s->zero && s->def == 0)
        add(buf, len, "0 (%s)", s->zero);
    else
        add(buf, len, "%lld", s->def);
}

int dfs_option_check(const dfs_option_table *t, const char *key, const char *value, char *msg,
                     size_t len)
{
    const dfs_option_spec *s = spec_of(t, key);
    msg[0] = '\0';
    if (!s) {
        add(msg, len, "%s: no option '%s' (%s takes ", t->engine, key, t->engine);
        for (const dfs_option_spec *o = t->spec; o && o->key; o++)
            add(msg, len, "%s%s", o == t->spec ? "" : ", ", o->key);
        add(msg, len, "%s); %s=%s ignored", t->spec && t->spec->key ? "" : "none", key, value);
        return -1;
    }
    long long x;
    if (s->kind == DFS_OPT_INT ? int_valid(s, value, &x) : word_index(s, value) >= 0)
        return 0;
    add(msg, len, "%s: %s=%s is not ", t->engine, key, value);
    add_values(msg, len, s);
    add(msg, len, "; using ");
    add_default(msg, len, s);
    return -1;
}

long long dfs_option_int(const dfs_options *o, const dfs_option_table *t, const char *key)
{
    const dfs_option_spec *s = spec_of(t, key);
    if (!s || s->kind != DFS_OPT_INT)
        return 0;
    const char *v = dfs_option_get(o, key);
    long long x;
    return v && int_valid(s, v, &x) ? x : s->def;
}

int dfs_option_word(const dfs_options *o, const dfs_option_table *t, const char *key)
{
    const dfs_option_spec *s = spec_of(t, key);
    if (!s || s->kind != DFS_OPT_WORD)
        return 0;
    const char *v = dfs_option_get(o, key);
    const int i = v ? word_index(s, v) : -1;
    return i >= 0 ? i : (int)s->def;
}

void dfs_option_describe(const dfs_option_spec *s, char *buf, size_t len)
{
    buf[0] = '\0';
    add_values(buf, len, s);
    add(buf, len, "; default ");
    add_default(buf, len, s);
}
