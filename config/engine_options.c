/* engine_options.c — the engines' option tables as the program hands them to config/
 * (dfs_config_set_option_tables), and the checks that the policy parser and the mode strings
 * make with them (engine_options.h).  The messages themselves are core/options.c's and the
 * engines' (their conflicts); config/ only says where. */
#include "engine_options.h"

#include <stdio.h>
#include <string.h>

static dfs_option_tables option_tables; /* set once by the program before configuring */

void dfs_config_set_option_tables(dfs_option_tables tables)
{
    option_tables = tables;
}

static const dfs_option_table *table_of(int engine)
{
    return option_tables ? option_tables(engine) : NULL;
}

static int takes(const dfs_option_table *t, const char *key)
{
    for (const dfs_option_spec *s = t->spec; s && s->key; s++)
        if (!strcmp(s->key, key))
            return 1;
    return 0;
}

int dfs_config_check_option(const int *engines, int n, const char *mode, const char *key,
                            const char *value, char *msg, size_t len)
{
    int taken = 0, checked = 0;
    for (int i = 0; i < n; i++) {
        const dfs_option_table *t = table_of(engines[i]);
        if (!t)
            continue;
        checked++;
        if (n == 1 || takes(t, key)) {
            taken = 1;
            if (dfs_option_check(t, key, value, msg, len))
                return -1;
        }
    }
    if (taken || !checked)
        return 0;
    /* several engines, none of which takes key */
    int used = snprintf(msg, len, "mode %s: none of its engines (", mode), named = 0;
    for (int i = 0; i < n && used >= 0 && (size_t)used < len; i++) {
        const dfs_option_table *t = table_of(engines[i]);
        if (t)
            used += snprintf(msg + used, len - (size_t)used, "%s%s", named++ ? ", " : "",
                             t->engine);
    }
    if (used >= 0 && (size_t)used < len)
        snprintf(msg + used, len - (size_t)used, ") takes option '%s'; %s=%s ignored", key, key,
                 value);
    return -1;
}

int dfs_config_conflicts(int engine, const dfs_options *o, const char *msg[], int max)
{
    const dfs_option_table *t = table_of(engine);
    return t && t->conflicts ? t->conflicts(o, msg, max) : 0;
}
