/* config.h — which engine computes each call: EXBLAS_MODE, the per-routine overrides, the
 * policy file (EXBLAS_POLICY) or the embedded default policy, and the device table.
 * config/ decides and computes nothing; it knows engines only by name (the caller passes a
 * function that says whether a name is an engine).  Diagnostics go through a callback. */
#ifndef DFS_CONFIG_H
#define DFS_CONFIG_H

#include "../core/types.h"

#include <stddef.h>
#include <stdint.h>

/* zgemm: complex GEMM (the Z entry points and GemmEx on CUDA_C_64F); zdot: Zdotc and Zdotu;
 * zgemv: Zgemv.  dgemm and zgemm take the pointer-array batches too.  The other Level-3 routines,
 * one per family, in double and complex double: syrk (SYRK, HERK, SYRKX, HERKX), syr2k (SYR2K,
 * HER2K), symm (SYMM, HEMM), trmm, trsm. */
typedef enum {
    DFS_R_DGEMM, DFS_R_DGEMV, DFS_R_DDOT, DFS_R_ZGEMM, DFS_R_ZDOT, DFS_R_ZGEMV,
    DFS_R_SYRK, DFS_R_SYR2K, DFS_R_SYMM, DFS_R_TRMM, DFS_R_TRSM, DFS_R_COUNT
} dfs_routine;
extern const char *const dfs_routine_names[DFS_R_COUNT];

/* Engine lookup supplied by the caller: index of the engine with this name, or -1. */
typedef int (*dfs_engine_lookup)(const char *name);
/* Where messages go: one complete line without the trailing newline. */
typedef void (*dfs_diag)(const char *line);

/* ---- device table (devices.c) ---- */
/* FP32:FP64 throughput ratio of a compute capability (2, 32, 64), or 0 if unknown. */
int dfs_device_fp64_ratio(int cc_major, int cc_minor);
/* "full" (ratio 2), "starved" (ratio 32 or more) or "unknown". */
const char *dfs_device_class(const dfs_device *d);
/* Fills d from a compute capability and name. */
void dfs_device_describe(dfs_device *d, int ordinal, int cc_major, int cc_minor, const char *name);

/* ---- mode strings (mode.c): NAME[:key=value[,key=value...]] ---- */
#define DFS_MODE_MAX_OPTS 16
typedef struct {
    char name[64];
    int nopts;
    char keys[DFS_MODE_MAX_OPTS][64];
    char values[DFS_MODE_MAX_OPTS][128];
} dfs_mode;
/* 0 on success; otherwise -1 and err holds the reason. */
int dfs_mode_parse(const char *text, dfs_mode *out, char *err, size_t errlen);

/* ---- engine options (engine_options.c) ---- */
/* The option table of engine (an index from the lookup; core/types.h), or NULL.  Set by the
 * program (the shim, exblas-info) before building a configuration; unset, options are taken
 * unchecked.  With it, every engine option of a policy file or a mode string is checked against
 * the table of the engine it goes to when it is read: an unknown key, or a value the engine does
 * not take, is reported with one line (in a policy, FILE:LINE: first) and dropped, so that the
 * engine's default applies and the rest of the policy or mode stays in force; so are the
 * combinations of options that the engine changes (the table's conflicts), which the engine
 * applies. */
typedef const dfs_option_table *(*dfs_option_tables)(int engine);
void dfs_config_set_option_tables(dfs_option_tables tables);

/* ---- policy files (policy.c) ---- */
typedef struct dfs_policy dfs_policy;
/* Parses a policy text.  NULL on error, with err = "FILE:LINE: reason".  Engine options it drops
 * (above) do not make it fail: dfs_policy_warning says them. */
dfs_policy *dfs_policy_parse(const char *text, size_t len, const char *file,
                             dfs_engine_lookup lookup, char *err, size_t errlen);
/* Reads and parses a file (size and line-length limits, binary content rejected). */
dfs_policy *dfs_policy_load(const char *path, dfs_engine_lookup lookup, char *err, size_t errlen);
void dfs_policy_free(dfs_policy *p);
/* The i-th thing the parse dropped or will see corrected, "FILE:LINE: reason" (an engine option
 * that is unknown or whose value the engine does not take, a rule between options), or NULL past
 * the last. */
const char *dfs_policy_warning(const dfs_policy *p, int i);
/* Whether every rule of this mode sends routine r to the native engine, on any device. */
int dfs_policy_mode_is_native(const dfs_policy *p, const char *mode, dfs_routine r);
/* Whether the policy defines a mode of this name (in any section). */
int dfs_policy_has_mode(const dfs_policy *p, const char *mode);
/* The options of the policy's [engine NAME] section for this engine index (none: count 0). */
void dfs_policy_engine_options(const dfs_policy *p, int engine, dfs_options *out);
/* The embedded default policy text (default.policy, compiled in). */
extern const char dfs_default_policy_text[];

/* The decision for one routine on one device. */
typedef struct {
    int engine;        /* index in the engine table (0 = native) */
    int64_t min_dim;   /* calls whose smallest dimension is below this go to below_engine, */
    int64_t tiny_products; /* unless they have at most this many products (0: none) */
    int below_engine;  /* the rule's below= (0 = native, the default) */
    dfs_options below_options; /* below_engine's options: its [engine] section's, then the
                                  mode string's */
    int fallback_engine; /* the rule's fallback=: what computes the calls the engine declines
                            (0 = native, the default) */
    dfs_options fallback_options; /* its options, as below_options */
    dfs_options options;
    const char *source; /* where the decision came from, for exblas-info and traces */
} dfs_rule;

/* Whether a call goes to the rule's below= engine: its smallest dimension under min_dim and more
 * than tiny_products products (m n k per batch entry for DGEMM, m n for DGEMV, n for DDOT). */
static inline int dfs_rule_below(const dfs_rule *r, int64_t min_dim, double products)
{
    return min_dim < r->min_dim && !(r->tiny_products > 0 && products <= (double)r->tiny_products);
}

/* The policy's rule for (mode, device, routine); falls back to native when nothing matches.
 * The returned options point into the policy. */
void dfs_policy_rule(const dfs_policy *p, const char *mode, const dfs_device *dev, dfs_routine r,
                     dfs_rule *out);
/* The i-th rule that mode sets, on any device and for any routine (file order): 1, or 0 past the
 * last. */
int dfs_policy_nth_rule(const dfs_policy *p, const char *mode, int i, dfs_rule *out);

/* ---- the effective configuration (config.c) ---- */
typedef struct dfs_config dfs_config;
/* Builds a configuration from the environment: EXBLAS_MODE, EXBLAS_MODE_DGEMM / _DGEMV /
 * _DDOT, EXBLAS_POLICY (read with secure_getenv).  Never fails: every problem is reported
 * through diag (one line each) and replaced by the embedded default or native. */
dfs_config *dfs_config_from_env(dfs_engine_lookup lookup, dfs_diag diag);
/* The same from explicit strings (NULL = unset); used by the environment loader and tests. */
dfs_config *dfs_config_build(const char *mode, const char *const routine_mode[DFS_R_COUNT],
                             const char *policy_path, dfs_engine_lookup lookup, dfs_diag diag);
void dfs_config_free(dfs_config *c);
/* True when every routine runs natively whatever the device (the shim's fast path). */
int dfs_config_all_native(const dfs_config *c);
/* The decision for routine r on device dev (dev may be NULL: unknown device). */
void dfs_config_rule(const dfs_config *c, const dfs_device *dev, dfs_routine r, dfs_rule *out);
/* The policy in use and where it came from ("embedded" or the file path). */
const dfs_policy *dfs_config_policy(const dfs_config *c);
const char *dfs_config_policy_source(const dfs_config *c);
/* The mode text in effect for routine r (after overrides), e.g. "auto". */
const char *dfs_config_mode(const dfs_config *c, dfs_routine r);
/* Whether the environment variables read by dfs_config_from_env now differ from those c was
 * built from (for EXBLAS_REREAD=1). */
int dfs_config_env_changed(const dfs_config *c);

#endif
