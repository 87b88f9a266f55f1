/* mode.c — parses a mode string: NAME[:key=value[,key=value...]].
 * NAME is a mode of the policy (auto, ...), "native", or an engine name; the options are engine
 * options.  Names and keys are [A-Za-z0-9_.-]; values are any characters but ',' and controls. */
#include "config.h"

#include <stdio.h>
#include <string.h>

static int name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_' || c == '-' || c == '.';
}

static int fail(char *err, size_t errlen, const char *fmt, const char *what)
{
    snprintf(err, errlen, fmt, what);
    return -1;
}

int dfs_mode_parse(const char *s, dfs_mode *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = 0;
    while (name_char(s[n]))
        n++;
    if (n == 0)
        return fail(err, errlen, "%s", "empty mode name");
    if (n >= sizeof out->name)
        return fail(err, errlen, "%s", "mode name too long");
    memcpy(out->name, s, n);
    s += n;
    while (*s == ' ' || *s == '\t')
        s++;
    if (*s == '\0')
        return 0;
    if (*s != ':')
        return fail(err, errlen, "unexpected character '%.1s' after the mode name", s);
    s++;
    for (;;) {
        size_t k = 0;
        while (name_char(s[k]))
            k++;
        if (k == 0 || s[k] != '=')
            return fail(err, errlen, "%s", "options must be key=value pairs separated by ','");
        if (out->nopts == DFS_MODE_MAX_OPTS)
            return fail(err, errlen, "%s", "too many options (at most 16)");
        if (k >= sizeof out->keys[0])
            return fail(err, errlen, "%s", "option name too long");
        memcpy(out->keys[out->nopts], s, k);
        s += k + 1;
        size_t v = 0;
        while (s[v] && s[v] != ',') {
            if ((unsigned char)s[v] < 0x20 || s[v] == 0x7f)
                return fail(err, errlen, "%s", "control character in an option value");
            v++;
        }
        if (v == 0)
            return fail(err, errlen, "option '%s' has an empty value", out->keys[out->nopts]);
        if (v >= sizeof out->values[0])
            return fail(err, errlen, "%s", "option value too long");
        memcpy(out->values[out->nopts], s, v);
        out->nopts++;
        s += v;
        if (*s == '\0')
            return 0;
        s++; /* ',' */
    }
}
