/* policy_load.c — a policy file read from disk and handed to the parser (policy.c): a regular
 * file of at most DFS_POLICY_MAX_FILE bytes, opened without blocking on a FIFO. */
#include "policy_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* "PATH: what[: why]" into err. */
static void say(char *err, size_t errlen, const char *path, const char *what, const char *why)
{
    if (err && errlen)
        snprintf(err, errlen, why ? "%s: %s: %s" : "%s: %s", path, what, why);
}

dfs_policy *dfs_policy_load(const char *path, dfs_engine_lookup lookup, char *err, size_t errlen)
{
    /* O_NONBLOCK: opening a FIFO must not wait for a writer (it is then rejected below). */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        say(err, errlen, path, "cannot open", strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fd, &st) == 0 && !S_ISREG(st.st_mode)) {
        close(fd);
        say(err, errlen, path, "not a regular file", NULL);
        return NULL;
    }
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        close(fd);
        say(err, errlen, path, "cannot open", strerror(errno));
        return NULL;
    }
    char *buf = malloc(DFS_POLICY_MAX_FILE + 1);
    if (!buf) {
        fclose(f);
        say(err, errlen, path, "out of memory", NULL);
        return NULL;
    }
    size_t n = fread(buf, 1, DFS_POLICY_MAX_FILE + 1, f);
    int rerr = ferror(f);
    fclose(f);
    dfs_policy *p = NULL;
    if (rerr)
        say(err, errlen, path, "read error", NULL);
    else
        p = dfs_policy_parse(buf, n, path, lookup, err, errlen);
    free(buf);
    return p;
}

