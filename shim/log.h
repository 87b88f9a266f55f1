/* log.h — dfshim's messages: levels from EXBLAS_LOG, destination from EXBLAS_LOG_FILE.
 * Quiet by default: only errors, and each distinct error only once.  Used by shim/, config/
 * (through a callback) and engines/. */
#ifndef DFS_LOG_H
#define DFS_LOG_H

typedef enum { DFS_LOG_ERROR = 0, DFS_LOG_WARN = 1, DFS_LOG_INFO = 2, DFS_LOG_TRACE = 3 } dfs_log_level;

/* Current level (reads the environment once). */
int dfs_log_level_get(void);
static inline int dfs_log_on(dfs_log_level l) { return (int)l <= dfs_log_level_get(); }

void dfs_log(dfs_log_level level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Logs only the first time this key is seen (keys are compared by content; at most a few
 * hundred distinct keys are remembered, later ones are always printed). */
void dfs_log_once(dfs_log_level level, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Writes a block of text verbatim to the log destination (the exit summary). */
void dfs_log_write(const char *text);

#endif
