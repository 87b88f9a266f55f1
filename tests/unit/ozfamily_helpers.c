/* ozfamily_helpers.c — what the Ozaki-family unit tests (test_repro, test_oz, test_int8,
 * test_sgemm) share besides the MPFR reference (exact_ref.c): their suite, the comparison that
 * fails a test, engine parameters, the exact-accumulator helpers of the bound tests and the
 * scheme-II DGEMM cases; see ozfamily_test.h. */
#include "ozfamily_test.h"

#include "../../engines/oz/host_crt.h"
#include "../common/gen.h"

/* ---------------- the suite ---------------- */

Suite *ozfamily_suite(const char *name, void (*const *add)(TCase *))
{
    Suite *s = suite_create(name);
    TCase *t = tcase_create("all");
    tcase_set_timeout(t, 300);
    for (; *add; add++)
        (*add)(t);
    suite_add_tcase(s, t);
    return s;
}

/* ---------------- comparison and parameters ---------------- */

void expect(double got, double want, const char *what)
{
    if (!same(got, want))
        ck_abort_msg("%s: got %a, want %a", what, got, want);
}

dfs_oz_params params(int terms, int lanes)
{
    dfs_oz_params p = dfs_oz_default_params();
    p.terms = terms;
    p.lanes = lanes;
    return p;
}

/* ---------------- exact accumulators (repro_bound.c, oz_tail.c, oz_i192.c) ---------------- */

uint64_t bits_of_d(double d)
{
    uint64_t b;
    memcpy(&b, &d, sizeof b);
    return b;
}

/* A fresh full accumulator in w. */
void full_init(dfs_xacc *a, int64_t *w)
{
    dfs_x_init(a, w, DFS_X_WORDS, DFS_X_LSB);
}

/* dst (words dw, as many as src's) := src. */
void acc_copy(dfs_xacc *dst, int64_t *dw, const dfs_xacc *src)
{
    *dst = *src;
    dst->w = dw;
    memcpy(dw, src->w, (size_t)src->nw * sizeof *dw);
}

/* dst += (-1)^neg src, both with the same words (nw, lsb); normalises both. */
void acc_add_acc(dfs_xacc *dst, dfs_xacc *src, int neg)
{
    REQUIRE(dst->nw == src->nw && dst->lsb == src->lsb);
    dfs_x_normalize(src);
    dfs_x_normalize(dst);
    for (int i = 0; i < dst->nw; i++)
        dst->w[i] += neg ? -src->w[i] : src->w[i];
    dfs_x_normalize(dst);
}

/* Add (-1)^neg 2^e. */
void add_pow2(dfs_xacc *a, int neg, int e)
{
    REQUIRE(dfs_x_add(a, neg, 1, e));
}

/* ---------------- scheme-II DGEMM cases (oz_crt.c, int8_crt_fast.c) ---------------- */

void crt_case_run(rng *r, int it, int g, int maxmn, const int64_t *ks, int nk, int mods, int fast,
                  crt_case *t)
{
    static const double scal[] = {1.0, 1.0, -1.0, 3.0, 0.1, 0x1p-1074, 1e300, 0.0};
    t->ta = below(r, 2);
    t->tb = below(r, 2);
    t->m = 1 + below(r, maxmn);
    t->n = 1 + below(r, maxmn);
    t->k = ks[below(r, nk)];
    const int64_t m = t->m, n = t->n, k = t->k;
    t->lda = (t->ta ? k : m) + below(r, 2);
    t->ldb = (t->tb ? n : k) + below(r, 2);
    t->ldc = m + below(r, 2);
    const int64_t na = t->lda * (t->ta ? m : k), nb = t->ldb * (t->tb ? k : n), nc = t->ldc * n;
    t->A = malloc((size_t)na * sizeof(double));
    t->B = malloc((size_t)nb * sizeof(double));
    t->C0 = malloc((size_t)nc * sizeof(double));
    t->C1 = malloc((size_t)nc * sizeof(double));
    t->C2 = malloc((size_t)nc * sizeof(double));
    gen_fill(r, g, t->A, na);
    gen_fill(r, below(r, 2) ? g : G_PHI1, t->B, nb);
    gen_fill(r, G_PHI2, t->C0, nc);
    if (it % 12 == 11)
        t->A[below(r, (int)na)] = it % 24 == 11 ? NAN : -INFINITY;
    t->alpha = it % 3 ? 1.0 : scal[below(r, 8)];
    t->beta = it % 3 ? 0.0 : scal[below(r, 8)];
    memcpy(t->C1, t->C0, (size_t)nc * sizeof(double));
    memcpy(t->C2, t->C0, (size_t)nc * sizeof(double));
    dfs_oz_params p = dfs_oz_default_params();
    dfs_oz_stats s1;
    dfs_oz_gemm_host(&p, t->ta, t->tb, m, n, k, t->alpha, t->A, t->lda, t->B, t->ldb, t->beta,
                     t->C1, t->ldc, &s1);
    dfs_oz_crt_gemm_host(t->ta, t->tb, m, n, k, t->alpha, t->A, t->lda, t->B, t->ldb, t->beta,
                         t->C2, t->ldc, mods, fast, &t->s2);
}

void crt_case_free(crt_case *t)
{
    free(t->A);
    free(t->B);
    free(t->C0);
    free(t->C1);
    free(t->C2);
}
