/* policy_internal.h — the parsed policy's representation, shared by the parser (policy.c) and
 * the rule lookup (policy_query.c).  Not part of config.h's interface. */
#ifndef DFS_POLICY_INTERNAL_H
#define DFS_POLICY_INTERNAL_H

#include "config.h"

#include <stdint.h>

#define DFS_POLICY_MAX_FILE (1 << 20) /* the largest policy file read */

enum sel_kind { SEL_CLASS, SEL_CC, SEL_RATIO, SEL_NAME };
enum sel_op { OP_EQ, OP_GE, OP_LE, OP_GT, OP_LT };

typedef struct {
    enum sel_kind kind;
    enum sel_op op;
    long value; /* cc as major*100+minor, or ratio */
    char *text; /* class name or name glob */
} selector;

typedef struct {
    int set;
    int engine;
    int64_t min_dim;
    int64_t tiny_products;     /* calls of at most this many products stay on engine (0: none) */
    int below;                 /* the engine of the calls below min_dim (0: native) */
    dfs_options below_options; /* its [engine] section's options (pointing into p->opts) */
    int fallback;              /* the engine of the calls the engine declines (0: native) */
    dfs_options fallback_options;
    int opt_first, opt_count; /* inline options in p->opts */
    dfs_option *merged;       /* engine-section options followed by inline ones */
    int nmerged;
    char *where;
} rule;

typedef struct {
    char *mode;
    selector *sel;
    int nsel;
    rule r[DFS_R_COUNT];
} mode_section;

typedef struct {
    int engine;
    int opt_first, opt_count; /* contiguous: options are appended line by line */
    int line;
} engine_section;

struct dfs_policy {
    mode_section *modes;
    int nmodes;
    engine_section *engines;
    int nengines;
    dfs_option *opts;
    int nopts;
    char **warn; /* dfs_policy_warning's lines */
    int nwarn;
};

/* ---- the parser's text helpers (policy_text.c) ---- */
#define DFS_POL_MAX_TOKENS 64 /* tokens on one line */

typedef struct { /* where the parser is, and where its error goes */
    const char *file;
    int line;
    char *err;
    size_t errlen;
} dfs_pol_ctx;

char *dfs_pol_strdup(const char *s);
/* p resized for element n + 1 where n is 0 or a power of two (capacity doubles); else p. */
void *dfs_pol_grow(void *p, int n, size_t elem);
/* Whether s is a non-empty run of letters, digits, '_', '-', '.'. */
int dfs_pol_is_name(const char *s);
/* Writes "FILE:LINE: message" into c->err; returns -1. */
int dfs_pol_fail(dfs_pol_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Splits s in place at blanks; returns the number of tokens (or -1 if too many). */
int dfs_pol_tokenize(char *s, char **tok);
/* A decimal number, all of s; 0, or -1. */
int dfs_pol_parse_long(const char *s, long *out);
/* A compute capability X or X.Y as X * 100 + Y; 0, or -1. */
int dfs_pol_parse_cc(const char *s, long *out);
/* s without leading and trailing blanks (the end cut in place). */
char *dfs_pol_trim(char *s);

#endif
