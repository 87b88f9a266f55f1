/* types.h — what config/ and the engines share without knowing each other: the description of
 * a GPU (filled by config/devices.c, read by engines), engine options (collected by config/
 * from the policy and the mode string, read by the engine they name) and each engine's table of
 * the options it takes (declared by the engine, checked by config/). */
#ifndef DFS_TYPES_H
#define DFS_TYPES_H

#include <stddef.h>

/* What the device table says about a GPU. */
typedef struct {
    int ordinal;
    int cc_major, cc_minor;
    int fp64_ratio;   /* FP32:FP64 throughput, e.g. 2, 32 or 64; 0 = unknown */
    char name[96];
} dfs_device;

/* Engine options (key = value strings): `base` from the policy (the [engine NAME] section, then
 * the options written on the rule), `override` from the mode string (EXBLAS_MODE=name:k=v,...),
 * which wins.  `where` says where each came from ("file:line" or "EXBLAS_MODE"). */
typedef struct {
    const char *key, *value, *where;
} dfs_option;
typedef struct dfs_options {
    int nbase, noverride;
    const dfs_option *base, *override;
} dfs_options;

/* An engine's option table: each option the engine takes, declared by the engine (its
 * engine.c), checked by config/ when it reads a mode string or a policy (dfs_option_check), read
 * by the engine at call time (dfs_option_int, dfs_option_word).  An integer option takes lo..hi,
 * and 0 too where `zero` says what 0 means (0 is then the default); a word option takes one of
 * `words`, each written "name" or "name|synonym|...". */
typedef enum { DFS_OPT_INT, DFS_OPT_WORD } dfs_option_kind;
typedef struct {
    const char *key;
    dfs_option_kind kind;
    long long lo, hi;         /* DFS_OPT_INT */
    const char *zero;         /* DFS_OPT_INT: what 0 means where it is outside lo..hi, or NULL */
    const char *const *words; /* DFS_OPT_WORD: NULL-terminated */
    long long def;            /* the default: a value (DFS_OPT_INT) or an index into words */
    const char *meaning;      /* one line, for exblas-info */
} dfs_option_spec;
typedef struct dfs_option_table {
    const char *engine;          /* the engine's name, for messages */
    const dfs_option_spec *spec; /* ending with an entry whose key is NULL */
    /* The rules between options that the engine applies (NULL: none): given options whose values
     * are valid one by one, puts in msg[] a line for each combination the engine changes
     * ("ENGINE: ...; using ...", static strings), at most max, and returns their number. */
    int (*conflicts)(const dfs_options *o, const char *msg[], int max);
} dfs_option_table;

/* The row of a GPU of compute capability major.minor in an engine's tuning table (tuning.h)
 * whose device classes start at from[0] = 0 < from[1] < ... (major * 10 + minor): the last class
 * that starts at or below it, so every GPU has one. */
static inline int dfs_device_class_row(const int *from, int count, int major, int minor)
{
    const int cc = major * 10 + minor;
    int r = 0;
    for (int i = 1; i < count; i++)
        if (cc >= from[i])
            r = i;
    return r;
}

/* The last value given for key, or NULL (options.c). */
const char *dfs_option_get(const dfs_options *o, const char *key);

/* Whether key=value is an option of t with a value it takes: 0 if so; otherwise -1 and msg
 * holds one line, "ENGINE: KEY=VALUE is not ...; using DEFAULT" (a value it does not take) or
 * "ENGINE: no option 'KEY' (ENGINE takes ...); KEY=VALUE ignored". */
int dfs_option_check(const dfs_option_table *t, const char *key, const char *value, char *msg,
                     size_t len);

/* The value of an integer option of t, or its default when it is not given.  config/ has checked
 * the values; one that is not valid all the same (options built by hand) gives the default,
 * silently. */
long long dfs_option_int(const dfs_options *o, const dfs_option_table *t, const char *key);
/* The index into the spec's words of a word option's value (synonyms included), or the
 * default's, likewise. */
int dfs_option_word(const dfs_options *o, const dfs_option_table *t, const char *key);

/* The values an option takes and its default, e.g. "a number from 1 to 16; default 12", for
 * exblas-info. */
void dfs_option_describe(const dfs_option_spec *s, char *buf, size_t len);

#endif
