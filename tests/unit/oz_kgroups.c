/* oz_kgroups.c — test_oz's tests of the inner dimension in two groups (kgroups.h; the CPU twin
 * dfs_oz_crt_gemm_host_groups, verifying): every output RN(exact) against MPFR (exact_ref.c),
 * the split found where the exponents of op(A)'s columns and op(B)'s rows lie far apart and not
 * elsewhere, and the direct path taken only where the bound says it must be; and the gate of
 * the classes (dfs_oz_kgate_closed: the GPU seeks them only past it) open wherever the split
 * is found, over every pair of the hostile generators, and closed on narrow data. */
#include "exact_ref.h"
#include "ozfamily_test.h"

#include "../../engines/oz/host_common.h"
#include "../../engines/oz/host_crt.h"
#include "../../engines/oz/kgroups.h"
#include "../common/gen.h"

#include <math.h>
#include <stdlib.h>

/* The data (column-major, op = N): kind 0, 'mixed': every 8th column of A near +-1e300 and
 * the rest near +-1e-300, B's rows at the big columns zero for the even columns of C (their
 * outputs' sums are the small parts alone); kind 1, 'near': columns q < 8 of A in [1, 2), the
 * rest 2^-70 times that, so the classes lie 70 binades apart, and the even rows of A cancel
 * their big part to -x 2^-40 (A's columns 0 and 1 x and -x, B's rows 0 and 1 b and b + 2^-40):
 * the small part, ~2^-67, changes those outputs' rounding, so no output there may be written
 * from its big part alone; kind 2, phi 4 (no split). */
static void fill(rng *r, int kind, int64_t m, int64_t n, int64_t k, double *A, double *B)
{
    for (int64_t q = 0; q < k; q++)
        for (int64_t i = 0; i < m; i++) {
            double a = unif_pm1(r);
            if (kind == 0)
                a *= q % 8 == 0 ? 1e300 : 1e-300;
            else if (kind == 1)
                a = q < 8 ? 1.0 + fabs(a) : ldexp(a, -70);
            else
                a = gen_phi(r, 4.0);
            A[i + q * m] = a;
        }
    for (int64_t c = 0; c < n; c++)
        for (int64_t q = 0; q < k; q++) {
            double b = unif_pm1(r);
            if (kind == 0 && q % 8 == 0 && c % 2 == 0)
                b = 0.0;
            else if (kind == 1)
                b = 1.0 + fabs(b);
            else if (kind == 2)
                b = gen_phi(r, 4.0);
            B[q + c * k] = b;
        }
    if (kind == 1) {
        for (int64_t c = 0; c < n; c++)
            B[1 + c * k] = B[0 + c * k] + 0x1p-40;
        for (int64_t i = 0; i < m; i += 2) {
            A[i + 1 * m] = -A[i];
            for (int64_t q = 2; q < 8; q++)
                A[i + q * m] = 0.0;
        }
    }
}

START_TEST(crt_kgroups)
{
    rng r = rng_seed(411);
    const int64_t m = 40, n = 36, k = 96;
    double *A = malloc((size_t)(m * k) * sizeof *A), *B = malloc((size_t)(k * n) * sizeof *B);
    double *C = malloc((size_t)(m * n) * sizeof *C);
    ck_assert(A && B && C);
    for (int kind = 0; kind < 3; kind++) {
        fill(&r, kind, m, n, k, A, B);
        int64_t slow[3] = {0, 0, 0};
        for (int groups = 1; groups <= 2; groups++) {
            dfs_oz_stats st;
            dfs_oz_crt_gemm_host_groups(0, 0, m, n, k, 1.0, A, m, B, k, 0.0, C, m, 36, 0, groups,
                                        &st);
            for (int64_t c = 0; c < n; c++)
                for (int64_t i = 0; i < m; i++) {
                    const double want = reference(k, A + i, m, B + c * k, 1, 1.0, 0.0, 0.0);
                    ck_assert_msg(same(C[i + c * m], want),
                                  "kind %d, %d group(s): C(%lld,%lld) = %a, correctly rounded %a",
                                  kind, groups, (long long)i, (long long)c, C[i + c * m], want);
                }
            slow[groups] = st.slow;
            if (groups == 2) {
                /* split where the classes lie 70 and ~2000 binades apart, not on phi data */
                ck_assert_int_eq(st.ksplit, kind < 2);
                if (kind == 0)
                    ck_assert_int_gt(st.kgap, 1900);
                if (kind == 1)
                    ck_assert_int_ge(st.kgap, DFS_OZ_KGAP);
            }
        }
        printf("crt kgroups: data %d, %lld outputs: %lld direct in one group, %lld in two\n",
               kind, (long long)(m * n), (long long)slow[1], (long long)slow[2]);
        if (kind == 0) {
            /* one group: the small parts lost, the zero-partner half direct; two: none */
            ck_assert_int_ge(slow[1], m * n / 2);
            ck_assert_int_eq(slow[2], 0);
        } else if (kind == 1) {
            /* the cancelling rows cannot be decided from their big part: direct */
            ck_assert_int_ge(slow[2], m / 2 * n);
            ck_assert_int_le(slow[2], m / 2 * n + m * n / 20);
        }
    }
    free(A);
    free(B);
    free(C);
}
END_TEST

/* What the GPU's rows passes with beta 1 leave in maxneed: the largest tau - low over op(A)'s
 * rows (is_b 0) or op(B)'s columns, those with Inf or NaN left out. */
static int max_span(const gemm_in *g, int is_b)
{
    int most = 0;
    for (int64_t r = 0; r < (is_b ? g->n : g->m); r++) {
        const dfs_oz_row ri = row_of(g, is_b, r);
        const int span = ri.special ? 0 : dfs_oz_row_slices(ri, 1);
        most = span > most ? span : most;
    }
    return most;
}

/* Whether the classes split (dfs_oz_ksplit_host on s_q from the tops of op(A)'s columns and
 * op(B)'s rows); *gap the largest gap. */
static int splits(const gemm_in *g, int *gap)
{
    int *s = malloc((size_t)g->k * sizeof *s), thr = 0;
    ck_assert(s);
    for (int64_t q = 0; q < g->k; q++) {
        dfs_oz_row ca = dfs_oz_row_init(), rb = dfs_oz_row_init();
        for (int64_t i = 0; i < g->m; i++)
            dfs_oz_row_add(&ca, opA(g->ta, g->A, g->lda, i, q));
        for (int64_t c = 0; c < g->n; c++)
            dfs_oz_row_add(&rb, opB(g->tb, g->B, g->ldb, q, c));
        s[q] = dfs_oz_ks(ca.tau, rb.tau);
    }
    const int split = dfs_oz_ksplit_host(s, g->k, gap, &thr);
    free(s);
    return split;
}

static int gate_closed(const gemm_in *g)
{
    const int span[2] = {max_span(g, 0), max_span(g, 1)};
    return dfs_oz_kgate_closed(span);
}

START_TEST(kgroups_gate)
{
    rng r = rng_seed(1127);
    const int64_t m = 24, n = 20, k = 64;
    double *A = malloc((size_t)(m * k) * sizeof *A), *B = malloc((size_t)(k * n) * sizeof *B);
    ck_assert(A && B);
    const gemm_in g = {0, 0, m, n, k, A, B, m, k};
    int gap = 0;
    /* the split data of crt_kgroups: open; phi 4 there: closed */
    for (int kind = 0; kind < 3; kind++) {
        fill(&r, kind, m, n, k, A, B);
        ck_assert_int_eq(splits(&g, &gap), kind < 2);
        ck_assert_msg(gate_closed(&g) == (kind == 2), "data %d: gate %s", kind,
                      gate_closed(&g) ? "closed" : "open");
    }
    /* every pair of generators, A's and B's, several draws: a split only behind an open gate;
     * the narrow ones (phi 0 to 4, erange, small integers) closed */
    int found = 0;
    for (int ga = 0; ga < G_COUNT; ga++)
        for (int gb = 0; gb < G_COUNT; gb++)
            for (int draw = 0; draw < 4; draw++) {
                gen_fill(&r, ga, A, m * k);
                gen_fill(&r, gb, B, k * n);
                const int split = splits(&g, &gap), closed = gate_closed(&g);
                found += split;
                ck_assert_msg(!(split && closed),
                              "A %s, B %s: a split (gap %d) behind a closed gate",
                              gen_label(ga), gen_label(gb), gap);
                const int narrow_a = ga <= G_PHI4 || ga == G_ERANGE || ga == G_ZEROS;
                const int narrow_b = gb <= G_PHI4 || gb == G_ERANGE || gb == G_ZEROS;
                if (narrow_a && narrow_b)
                    ck_assert_msg(closed, "A %s, B %s: the gate open on narrow data",
                                  gen_label(ga), gen_label(gb));
            }
    printf("kgroups gate: %d of %d draws split, all behind an open gate\n", found,
           4 * G_COUNT * G_COUNT);
    ck_assert_int_gt(found, 0);
    free(A);
    free(B);
}
END_TEST

void oz_kgroups_tests(TCase *t)
{
    tcase_add_test(t, crt_kgroups);
    tcase_add_test(t, kgroups_gate);
}
