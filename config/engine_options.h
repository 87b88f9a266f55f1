/* engine_options.h — checking engine options against the engines' tables (engine_options.c), for
 * the policy parser and the mode strings.  Internal to config/, not part of config.h's interface. */
#ifndef DFS_ENGINE_OPTIONS_H
#define DFS_ENGINE_OPTIONS_H

#include "config.h"

/* Whether key=value is an option that the engines (indices, n of them: those a mode string's
 * options go to) take, with a value that each of them taking the key takes: 0 if so, or when no
 * table is set; otherwise -1 and msg holds one line saying what is used instead (core/types.h's
 * dfs_option_check; with several engines, an unknown key names `mode` and its engines). */
int dfs_config_check_option(const int *engines, int n, const char *mode, const char *key,
                            const char *value, char *msg, size_t len);

/* The lines of the combinations in o that engine changes (its table's conflicts), at most max,
 * and their number (0 without a table). */
int dfs_config_conflicts(int engine, const dfs_options *o, const char *msg[], int max);

#define DFS_CONFIG_MAX_CONFLICTS 8

#endif
