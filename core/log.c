/* log.c — the log destination, levels and once-only messages (see log.h). */
#include "log.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

static atomic_int level = DFS_LOG_ERROR;
static FILE *dest;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static int parse_level(const char *v)
{
    static const char *const names[] = {"error", "warn", "info", "trace"};
    for (int i = 0; i < 4; i++)
        if (!strcasecmp(v, names[i]))
            return i;
    if (!strcasecmp(v, "warning"))
        return DFS_LOG_WARN;
    if (!strcasecmp(v, "debug"))
        return DFS_LOG_TRACE;
    if (v[0] >= '0' && v[0] <= '3' && v[1] == '\0')
        return v[0] - '0';
    return -1;
}

/* One message, one line: control characters (a newline in an environment value, say) are
 * written as '?'. */
static void one_line(char *s)
{
    for (; *s; s++)
        if (((unsigned char)*s < 0x20 && *s != '\t') || *s == 0x7f)
            *s = '?';
}

/* The defaults until dfs_log_configure: errors, to stderr. */
static void init(void)
{
    dest = stderr;
}

void dfs_log_configure(const char *level_text, const char *file)
{
    static int configured;
    char msg[1024];
    pthread_once(&once, init);
    pthread_mutex_lock(&lock);
    const int first = !configured;
    configured = 1;
    pthread_mutex_unlock(&lock);
    if (!first)
        return;
    if (file && *file) {
        FILE *fp = fopen(file, "ae");
        if (fp) {
            setvbuf(fp, NULL, _IOLBF, 0);
            pthread_mutex_lock(&lock);
            dest = fp;
            pthread_mutex_unlock(&lock);
        } else {
            snprintf(msg, sizeof msg, "cannot open EXBLAS_LOG_FILE=%s (%s); logging to stderr",
                     file, strerror(errno));
            one_line(msg);
            fprintf(stderr, "dfshim: %s\n", msg);
        }
    }
    if (level_text && *level_text) {
        int l = parse_level(level_text);
        if (l < 0) {
            snprintf(msg, sizeof msg, "EXBLAS_LOG=%s is not one of error, warn, info, trace; "
                     "using error", level_text);
            one_line(msg);
            pthread_mutex_lock(&lock);
            fprintf(dest, "dfshim: %s\n", msg);
            pthread_mutex_unlock(&lock);
        } else {
            atomic_store(&level, l);
        }
    }
}

int dfs_log_level_get(void)
{
    pthread_once(&once, init);
    return atomic_load_explicit(&level, memory_order_relaxed);
}

static void vlog(const char *fmt, va_list ap)
{
    char buf[1024];
    vsnprintf(buf, sizeof buf, fmt, ap);
    one_line(buf);
    pthread_mutex_lock(&lock);
    fprintf(dest, "dfshim: %s\n", buf);
    fflush(dest);
    pthread_mutex_unlock(&lock);
}

void dfs_log(dfs_log_level l, const char *fmt, ...)
{
    if (!dfs_log_on(l))
        return;
    va_list ap;
    va_start(ap, fmt);
    vlog(fmt, ap);
    va_end(ap);
}

#define ONCE_SLOTS 256
static unsigned long once_hash[ONCE_SLOTS];
static int once_used;

static unsigned long hash(const char *s)
{
    unsigned long h = 1469598103934665603UL;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211UL;
    return h | 1;
}

void dfs_log_once(dfs_log_level l, const char *key, const char *fmt, ...)
{
    if (!dfs_log_on(l))
        return;
    unsigned long h = hash(key);
    int seen = 0;
    pthread_mutex_lock(&lock);
    for (int i = 0; i < once_used && !seen; i++)
        seen = once_hash[i] == h;
    if (!seen && once_used < ONCE_SLOTS)
        once_hash[once_used++] = h;
    pthread_mutex_unlock(&lock);
    if (seen)
        return;
    va_list ap;
    va_start(ap, fmt);
    vlog(fmt, ap);
    va_end(ap);
}

void dfs_log_write(const char *text)
{
    pthread_once(&once, init);
    pthread_mutex_lock(&lock);
    fputs(text, dest);
    fflush(dest);
    pthread_mutex_unlock(&lock);
}
