/* env.h — every EXBLAS_* environment variable dfshim reads, in one table: name, default and
 * meaning (the README's table and exblas-info print the same).  Nothing else in dfshim calls
 * getenv for them.  Values are read with secure_getenv (unset in set-uid programs). */
#ifndef DFS_ENV_H
#define DFS_ENV_H

/* X(id, name, default, meaning) */
#define DFS_ENV_VARS(X)                                                                           \
    X(MODE, "EXBLAS_MODE", "auto",                                                                \
      "native, auto, a mode of the policy, or an engine name with options NAME:key=value,...")    \
    DFS_ENV_MODE_OF(X, DGEMM, "DGEMM")                                                            \
    DFS_ENV_MODE_OF(X, DGEMV, "DGEMV")                                                            \
    DFS_ENV_MODE_OF(X, DDOT, "DDOT")                                                              \
    DFS_ENV_MODE_OF(X, ZGEMM, "complex GEMM")                                                     \
    DFS_ENV_MODE_OF(X, ZDOT, "ZDOTC and ZDOTU")                                                   \
    DFS_ENV_MODE_OF(X, ZGEMV, "ZGEMV")                                                            \
    DFS_ENV_MODE_OF(X, SYRK, "D/Z SYRK and SYRKX, Z HERK and HERKX")                              \
    DFS_ENV_MODE_OF(X, SYR2K, "D/Z SYR2K and Z HER2K")                                            \
    DFS_ENV_MODE_OF(X, SYMM, "D/Z SYMM and Z HEMM")                                               \
    DFS_ENV_MODE_OF(X, TRMM, "D/Z TRMM")                                                          \
    DFS_ENV_MODE_OF(X, TRSM, "D/Z TRSM")                                                          \
    X(POLICY, "EXBLAS_POLICY", "embedded", "a policy file replacing the embedded default")        \
    X(REREAD, "EXBLAS_REREAD", "off",                                                             \
      "1: re-read the variables above when the program changes them")                             \
    X(LOG, "EXBLAS_LOG", "error", "error, warn, info (adds the exit summary) or trace")           \
    X(LOG_FILE, "EXBLAS_LOG_FILE", "stderr", "append the log there")                              \
    X(TIMING, "EXBLAS_TIMING", "off", "1: time each intercepted call on the GPU")                 \
    X(SUMMARY, "EXBLAS_SUMMARY", "off", "1: a per-routine call summary at exit; a path: there")   \
    X(TEST_NO_WORKSPACE, "EXBLAS_TEST_NO_WORKSPACE", "off",                                       \
      "1 (for tests): every engine workspace allocation fails")

/* A routine's own mode variable, EXBLAS_MODE_<id> (config.c lists them in dfs_routine's
 * order). */
#define DFS_ENV_MODE_OF(X, id, what)                                                              \
    X(MODE_##id, "EXBLAS_MODE_" #id, "EXBLAS_MODE", "the mode for " what " only")

typedef enum {
#define DFS_ENV_ID(id, name, def, meaning) DFS_ENV_##id,
    DFS_ENV_VARS(DFS_ENV_ID)
#undef DFS_ENV_ID
    DFS_ENV_COUNT
} dfs_env_var;

typedef struct {
    const char *name, *fallback, *meaning;
} dfs_env_info;
extern const dfs_env_info dfs_env_table[DFS_ENV_COUNT];

/* The variable's value, or NULL when unset. */
const char *dfs_env(dfs_env_var v);
/* Whether a switch is on: set, not empty and not "0". */
int dfs_env_on(dfs_env_var v);
/* Hands the core (core/log.h, core/gpu.h) the settings it takes from the environment: the log's
 * level and destination, the workspace test hook.  Called by the programs' entry points (the
 * shim, the public libraries) before their first use of the core; later calls do nothing. */
void dfs_env_configure_core(void);

#endif
