/* types.h — what config/ and the engines share without knowing each other: the description of
 * a GPU (filled by config/devices.c, read by engines) and engine options (collected by config/
 * from the policy and the mode string, read by the engine they name). */
#ifndef DFS_TYPES_H
#define DFS_TYPES_H

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

/* The last value given for key, or NULL (options.c). */
const char *dfs_option_get(const dfs_options *o, const char *key);

/* An integer option in [lo, hi], or def when it is not given; a value that is not such a number
 * is logged once as an error naming `engine`, and def is used. */
long long dfs_option_int(const dfs_options *o, const char *engine, const char *key, long long lo,
                         long long hi, long long def);

#endif
