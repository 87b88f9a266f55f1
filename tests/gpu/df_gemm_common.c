/* df_gemm_common.c — the df_gemm test's helpers (see df_gemm.c): the panel plan (for messages),
 * the mode with options added, the problems (logical operands), bitwise comparisons of results,
 * and dfs_df_gemm_host's results for a batch entry, whole or on sampled rows and columns, checked
 * against the GPU's. */
#include "df_gemm_common.h"

#include "../../engines/df/df_gemm.h"
#include "../../engines/df/host.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------- small helpers ---------- */

static int64_t rup(int64_t x, int64_t to)
{
    return (x + to - 1) / to * to;
}

/* The panel plan of engines/df/gemm.c (plan_panels, static there), replicated for the messages
 * only. */
void df_plan(int64_t m, int64_t n, int64_t k, size_t budget, int64_t *Mb, int64_t *Nb,
             size_t *bytes)
{
    const int64_t Kp = rup(k, DFS_DF_BK);
    *Mb = rup(m, DFS_DF_BM);
    *Nb = rup(n, DFS_DF_BN);
    while ((size_t)(*Mb + *Nb) * (size_t)Kp * 8 > budget && (*Mb > DFS_DF_BM || *Nb > DFS_DF_BN)) {
        if (*Mb >= *Nb)
            *Mb = rup(*Mb / 2, DFS_DF_BM);
        else
            *Nb = rup(*Nb / 2, DFS_DF_BN);
    }
    *bytes = (size_t)rup(m + n, 64) * sizeof(int) + (size_t)(*Mb + *Nb) * (size_t)Kp * 8;
}

/* ---------- the mode ---------- */

/* The original mode with the options `extra` (key=value,...) added, replacing the same keys. */
char *mode_with(const char *extra)
{
    size_t cap = strlen(mode_orig) + strlen(extra) + 8;
    char *out = malloc(cap), *opts = strdup(mode_orig + 2 + (mode_orig[2] == ':'));
    if (!out || !opts)
        gt_fatal("out of memory");
    snprintf(out, cap, "df:");
    char *save = NULL;
    for (char *t = strtok_r(opts, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        const char *eq = strchr(t, '=');
        size_t klen = eq ? (size_t)(eq - t) + 1 : strlen(t);
        int replaced = 0;
        for (const char *e = extra; *e && !replaced;) {
            replaced = !strncmp(e, t, klen);
            const size_t len = strcspn(e, ",");
            e += len + (e[len] != 0);
        }
        if (!replaced) {
            strncat(out, t, cap - strlen(out) - 1);
            strncat(out, ",", cap - strlen(out) - 1);
        }
    }
    strncat(out, extra, cap - strlen(out) - 1);
    free(opts);
    return out;
}

void set_mode(const char *v)
{
    if (setenv("EXBLAS_MODE", v, 1))
        gt_fatal("setenv EXBLAS_MODE failed");
}

/* ---------- problems, layouts, runs ---------- */

problem make_problem(int64_t m, int64_t n, int64_t k, int nb, uint64_t seed)
{
    problem P = {.m = m, .n = n, .k = k, .nb = nb};
    for (int b = 0; b < nb; b++) {
        P.A[b] = df_xmalloc((size_t)(m * k));
        P.B[b] = df_xmalloc((size_t)(k * n));
        P.C[b] = df_xmalloc((size_t)(m * n));
        gt_fill(P.A[b], (size_t)(m * k), seed + 10 * (uint64_t)b + 1);
        gt_fill(P.B[b], (size_t)(k * n), seed + 10 * (uint64_t)b + 2);
        gt_fill(P.C[b], (size_t)(m * n), seed + 10 * (uint64_t)b + 3);
    }
    P.Cnan = df_xmalloc((size_t)(m * n));
    gt_fill_const(P.Cnan, (size_t)(m * n), qnan);
    return P;
}

void free_problem(problem *P)
{
    for (int b = 0; b < P->nb; b++) {
        free(P->A[b]);
        free(P->B[b]);
        free(P->C[b]);
    }
    free(P->Cnan);
}

/* ---------- bitwise comparisons ---------- */

typedef struct {
    size_t n, total;
    int64_t b, i, j;
    double want, got;
} diffs;

static void diff_add(diffs *d, int64_t b, int64_t i, int64_t j, double want, double have)
{
    d->total++;
    if (df_bits(want) == df_bits(have))
        return;
    if (!d->n++) {
        d->b = b;
        d->i = i;
        d->j = j;
        d->want = want;
        d->got = have;
    }
}

static int diff_report(const diffs *d, const char *what, const char *want_name)
{
    if (!d->n)
        return 1;
    gt_fail("%s: %zu of %zu entries differ; first: batch %lld C(%lld,%lld): %s %.17g "
            "[%016" PRIx64 "], shim %.17g [%016" PRIx64 "]", what, d->n, d->total,
            (long long)d->b, (long long)d->i, (long long)d->j, want_name, d->want, df_bits(d->want),
            d->got, df_bits(d->got));
    return 0;
}

/* Tight m x n `have` against tight `want`, bitwise (fast path: memcmp per column). */
int cmp_tight(const char *what, const char *want_name, const double *want,
              const double *have, int64_t m, int64_t n, int64_t b)
{
    diffs d = {0};
    for (int64_t j = 0; j < n; j++) {
        if (!memcmp(want + j * m, have + j * m, (size_t)m * sizeof *want)) {
            d.total += (size_t)m;
            continue;
        }
        for (int64_t i = 0; i < m; i++)
            diff_add(&d, b, i, j, want[i + j * m], have[i + j * m]);
    }
    return diff_report(&d, what, want_name);
}

/* Up to NS indices below n: the ends, both sides of the first block edge, the middle, random. */
static int pick(int64_t n, int64_t *out, uint64_t seed)
{
    int cnt = 0;
    if (n <= NS) {
        for (int64_t i = 0; i < n; i++)
            out[cnt++] = i;
        return cnt;
    }
    const int64_t fixed[6] = {0, n - 1, 127, 128, n / 2, 255};
    uint64_t s = seed;
    for (int f = 0; cnt < NS; f++) {
        int64_t v = f < 6 ? fixed[f] : (int64_t)(gt_rand(&s) % (uint64_t)n);
        int dup = v >= n;
        for (int c = 0; c < cnt && !dup; c++)
            dup = out[c] == v;
        if (!dup)
            out[cnt++] = v;
    }
    return cnt;
}


void ref_free(ref *r)
{
    free(r->E);
    free(r->R);
    free(r->Cc);
    free(r->first);
    memset(r, 0, sizeof *r);
}

void ref_compute(ref *r, const problem *P, int b, double alpha, double beta, int full)
{
    const int64_t m = P->m, n = P->n, k = P->k;
    const double *Cin = beta == 0.0 ? P->Cnan : P->C[b];
    ref_free(r);
    r->ready = 1;
    r->full = full;
    if (full) {
        r->E = df_xmalloc((size_t)(m * n));
        memcpy(r->E, Cin, (size_t)(m * n) * sizeof *Cin);
        dfs_df_gemm_host(scheme, 0, 0, m, n, k, alpha, P->A[b], m, P->B[b], k, beta, r->E, m);
        return;
    }
    r->nr = pick(m, r->rows, 0x1234 + (uint64_t)b);
    r->nc = pick(n, r->cols, 0x5678 + (uint64_t)b);
    const int nr = r->nr, nc = r->nc;
    double *sa = df_xmalloc((size_t)(nr * k)), *sb = df_xmalloc((size_t)(k * nc));
    for (int64_t p = 0; p < k; p++)
        for (int q = 0; q < nr; q++)
            sa[q + p * nr] = P->A[b][r->rows[q] + p * m];
    r->R = df_xmalloc((size_t)(nr * n));
    for (int64_t j = 0; j < n; j++)
        for (int q = 0; q < nr; q++)
            r->R[q + j * nr] = Cin[r->rows[q] + j * m];
    dfs_df_gemm_host(scheme, 0, 0, nr, n, k, alpha, sa, nr, P->B[b], k, beta, r->R, nr);
    for (int c = 0; c < nc; c++)
        memcpy(sb + c * k, P->B[b] + r->cols[c] * k, (size_t)k * sizeof *sb);
    r->Cc = df_xmalloc((size_t)(m * nc));
    for (int c = 0; c < nc; c++)
        memcpy(r->Cc + c * m, Cin + r->cols[c] * m, (size_t)m * sizeof *Cin);
    dfs_df_gemm_host(scheme, 0, 0, m, nc, k, alpha, P->A[b], m, sb, k, beta, r->Cc, m);
    free(sa);
    free(sb);
}

/* The tight GPU result of batch entry b against the host result. */
void ref_check(ref *r, const double *have, int64_t m, int64_t n, int64_t b)
{
    char what[96];
    snprintf(what, sizeof what, "C of batch entry %lld vs dfs_df_gemm_host", (long long)b);
    if (r->full) {
        cmp_tight(what, "host", r->E, have, m, n, b);
        return;
    }
    diffs d = {0};
    for (int q = 0; q < r->nr; q++)
        for (int64_t j = 0; j < n; j++)
            diff_add(&d, b, r->rows[q], j, r->R[q + j * r->nr], have[r->rows[q] + j * m]);
    for (int c = 0; c < r->nc; c++)
        for (int64_t i = 0; i < m; i++)
            diff_add(&d, b, i, r->cols[c], r->Cc[i + c * m], have[i + r->cols[c] * m]);
    strncat(what, " (sampled rows/columns)", sizeof what - strlen(what) - 1);
    diff_report(&d, what, "host");
    if (!r->first) {
        r->first = df_xmalloc((size_t)(m * n));
        memcpy(r->first, have, (size_t)(m * n) * sizeof *have);
    } else {
        cmp_tight("C vs the first result of the same inputs (another layout/API/pointer mode)",
                  "first", r->first, have, m, n, b);
    }
}

void check_binary64_entries(const double *A, const double *B, const double *C, int64_t m,
                            int64_t k, const int64_t *rows, int nr, const int64_t *cols, int nc,
                            double alpha, double beta, const double *E)
{
    for (int tr = 0; tr < nr; tr++)
        for (int tc = 0; tc < nc; tc++) {
            const int64_t i = rows[tr], j = cols[tc];
            double ab = 0.0;
            for (int64_t q = 0; q < k; q++)
                ab = fma(A[i + q * m], B[q + j * k], ab);
            const double want = alpha * ab + beta * C[i + j * m];
            if (df_bits(want) != df_bits(E[i + j * m]))
                gt_fail("C(%lld,%lld) = %.17g, not the binary64 sum %.17g", (long long)i,
                        (long long)j, E[i + j * m], want);
        }
}
