/* options.c — reading engine options (types.h). */
#include "types.h"

#include "log.h"

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

long long dfs_option_int(const dfs_options *o, const char *engine, const char *key, long long lo,
                         long long hi, long long def)
{
    const char *v = dfs_option_get(o, key);
    if (!v)
        return def;
    char *end;
    long long x = strtoll(v, &end, 10);
    if (*v && !*end && x >= lo && x <= hi)
        return x;
    dfs_log_once(DFS_LOG_ERROR, key, "%s: %s=%s is not a number from %lld to %lld; using %lld",
                 engine, key, v, lo, hi, def);
    return def;
}
