/* policy_text.c — the policy parser's handling of text (policy.c): strings, growing arrays,
 * names, tokens, numbers, compute capabilities and the error line. */
#include "policy_internal.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *dfs_pol_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

void *dfs_pol_grow(void *p, int n, size_t elem)
{
    /* Capacity doubles at powers of two. */
    if (n & (n - 1))
        return p;
    size_t cap = n ? (size_t)n * 2 : 4;
    return realloc(p, cap * elem);
}

int dfs_pol_is_name(const char *s)
{
    if (!*s)
        return 0;
    for (; *s; s++)
        if (!(isalnum((unsigned char)*s) || *s == '_' || *s == '-' || *s == '.'))
            return 0;
    return 1;
}

int dfs_pol_fail(dfs_pol_ctx *c, const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (c->line > 0)
        snprintf(c->err, c->errlen, "%s:%d: %s", c->file, c->line, msg);
    else
        snprintf(c->err, c->errlen, "%s: %s", c->file, msg);
    return -1;
}

/* Splits s in place at blanks; returns the number of tokens (or -1 if too many). */
int dfs_pol_tokenize(char *s, char **tok)
{
    int n = 0;
    for (;;) {
        while (*s == ' ' || *s == '\t')
            s++;
        if (!*s)
            return n;
        if (n == DFS_POL_MAX_TOKENS)
            return -1;
        tok[n++] = s;
        while (*s && *s != ' ' && *s != '\t')
            s++;
        if (*s)
            *s++ = '\0';
    }
}

int dfs_pol_parse_long(const char *s, long *out)
{
    if (!*s || !isdigit((unsigned char)*s))
        return -1;
    errno = 0;
    char *end;
    long v = strtol(s, &end, 10);
    if (*end || errno)
        return -1;
    *out = v;
    return 0;
}

int dfs_pol_parse_cc(const char *s, long *out)
{
    long major = 0, minor = 0;
    const char *dot = strchr(s, '.');
    char buf[16];
    if (strlen(s) >= sizeof buf)
        return -1;
    snprintf(buf, sizeof buf, "%s", s);
    if (dot) {
        buf[dot - s] = '\0';
        if (dfs_pol_parse_long(buf, &major) || dfs_pol_parse_long(buf + (dot - s) + 1, &minor) ||
            minor > 99)
            return -1;
    } else if (dfs_pol_parse_long(buf, &major)) {
        return -1;
    }
    if (major > 99)
        return -1;
    *out = major * 100 + minor;
    return 0;
}

char *dfs_pol_trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
        s[--n] = '\0';
    return s;
}
