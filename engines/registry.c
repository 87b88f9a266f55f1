/* registry.c — the engine table.  Adding an engine = one folder and one line here. */
#include "engine.h"

#include <string.h>

extern const dfs_engine dfs_engine_native, dfs_engine_df, dfs_engine_repro, dfs_engine_ozaki,
    dfs_engine_int8, dfs_engine_ozaki_sgemm, dfs_engine_dd;

const dfs_engine *const dfs_engines[] = {
    &dfs_engine_native, /* index 0: always native */
    &dfs_engine_df,
    &dfs_engine_repro,
    &dfs_engine_ozaki,
    &dfs_engine_int8,
    &dfs_engine_ozaki_sgemm,
    &dfs_engine_dd,
};
const int dfs_engine_count = (int)(sizeof dfs_engines / sizeof dfs_engines[0]);

int dfs_engine_find(const char *name)
{
    for (int i = 0; i < dfs_engine_count; i++)
        if (!strcmp(dfs_engines[i]->name, name))
            return i;
    return -1;
}

const dfs_option_table *dfs_engine_option_table(int engine)
{
    return engine >= 0 && engine < dfs_engine_count ? dfs_engines[engine]->options : NULL;
}
