/* log.h — dfshim's messages: a level and a destination (EXBLAS_LOG and EXBLAS_LOG_FILE, handed
 * over by config/env.c).  Quiet by default: only errors, to stderr, and each distinct error only
 * once.  Used by shim/, config/ (through a callback) and engines/. */
#ifndef DFS_LOG_H
#define DFS_LOG_H

typedef enum { DFS_LOG_ERROR = 0, DFS_LOG_WARN = 1, DFS_LOG_INFO = 2, DFS_LOG_TRACE = 3 } dfs_log_level;

/* Sets the level ("error", "warn", "info", "trace"; NULL or empty: error) and the file the log
 * is appended to (NULL or empty: stderr); a bad level or a file that cannot be opened is said on
 * stderr.  Only the first call counts; messages before it use the defaults. */
void dfs_log_configure(const char *level, const char *file);

/* Current level. */
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
