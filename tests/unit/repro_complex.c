/* repro_complex.c — test_repro's test of the CPU ZGEMM (engines/repro/zhost.c): every output's
 * real and imaginary part against an independent MPFR reference of RN(Re(alpha S + beta c)) and
 * RN(Im(alpha S + beta c)), bit for bit (signed zeros told apart), across the ops N, T and C,
 * shapes with k = 0 and 1, the data generators (phi 0 to 8, 1e+-300 mixes, subnormal products,
 * zeros), tiny imaginary parts beside large real ones, parts that cancel, Inf and NaN, and
 * complex alpha and beta (zero ones: what is not read must not matter).  A term whose scalar
 * part is zero is left out (alpha = 1: Re is RN(Sr) even where Si is Inf or NaN). */
#include "ozfamily_test.h"

#include "../common/gen.h"
#include "../../engines/oz/crt_zpair.h"
#include "../../engines/oz/host_crt.h"

/* A sum with IEEE's special values beside it: the exact finite part, and whether a NaN term,
 * a +Inf and a -Inf term were seen. */
typedef struct {
    mpfr_t v;
    int nan, pinf, ninf;
} xsum;

/* s += x y (IEEE: NaN for a NaN factor or 0 * Inf, an infinity of the product's sign). */
static void xsum_add(xsum *s, double x, double y)
{
    if (isnan(x) || isnan(y)) {
        s->nan = 1;
    } else if (isinf(x) || isinf(y)) {
        if (x == 0 || y == 0)
            s->nan = 1;
        else if (signbit(x) != signbit(y))
            s->ninf = 1;
        else
            s->pinf = 1;
    } else {
        mpfr_t p;
        mpfr_init2(p, 106);
        mpfr_set_d(p, x, MPFR_RNDN);
        mpfr_mul_d(p, p, y, MPFR_RNDN); /* exact */
        mpfr_add(s->v, s->v, p, MPFR_RNDN); /* exact at PREC_S */
        mpfr_clear(p);
    }
}

/* One term of a part: coef times a sum (s) or times a double (y); its value and specials. */
typedef struct {
    int nan, inf, neg, zero, zero_neg;
    mpfr_t v;
} term;

static void term_sum(term *t, double a, const xsum *s)
{
    memset(t, 0, sizeof *t);
    mpfr_init2(t->v, PREC_R);
    mpfr_set_zero(t->v, +1);
    const int s_nan = s->nan || (s->pinf && s->ninf), s_inf = !s_nan && (s->pinf || s->ninf);
    const int s_zero = !s_nan && !s_inf && mpfr_zero_p(s->v); /* an exact zero sum is +0 */
    if (s_nan || isnan(a))
        t->nan = 1;
    else if (s_inf)
        a == 0 ? (void)(t->nan = 1) : (void)(t->inf = 1, t->neg = s->ninf ^ (signbit(a) != 0));
    else if (isinf(a))
        s_zero ? (void)(t->nan = 1)
               : (void)(t->inf = 1, t->neg = (mpfr_sgn(s->v) < 0) ^ (signbit(a) != 0));
    else if (s_zero || a == 0)
        t->zero = 1, t->zero_neg = (!s_zero && mpfr_sgn(s->v) < 0) ^ (signbit(a) != 0);
    else
        mpfr_mul_d(t->v, s->v, a, MPFR_RNDN); /* exact */
}

static void term_prod(term *t, double a, double y)
{
    xsum s;
    mpfr_init2(s.v, PREC_S);
    mpfr_set_zero(s.v, +1);
    s.nan = s.pinf = s.ninf = 0;
    memset(t, 0, sizeof *t);
    mpfr_init2(t->v, PREC_R);
    mpfr_set_zero(t->v, +1);
    xsum_add(&s, a, y);
    if (s.nan)
        t->nan = 1;
    else if (s.pinf || s.ninf)
        t->inf = 1, t->neg = s.ninf;
    else if (a == 0 || y == 0)
        t->zero = 1, t->zero_neg = (signbit(a) != 0) != (signbit(y) != 0);
    else
        mpfr_set(t->v, s.v, MPFR_RNDN); /* exact */
    mpfr_clear(s.v);
}

/* RN of the sum of n terms (clears them). */
static double combine(term *t, int n)
{
    int nan = 0, pinf = 0, ninf = 0, zero_neg = 1;
    mpfr_t R;
    mpfr_init2(R, PREC_R + 64);
    mpfr_set_zero(R, +1);
    for (int i = 0; i < n; i++) {
        nan |= t[i].nan;
        pinf |= t[i].inf && !t[i].neg;
        ninf |= t[i].inf && t[i].neg;
        zero_neg &= t[i].zero && t[i].zero_neg;
        mpfr_add(R, R, t[i].v, MPFR_RNDN); /* exact */
        mpfr_clear(t[i].v);
    }
    double r;
    if (nan || (pinf && ninf))
        r = NAN;
    else if (pinf || ninf)
        r = pinf ? INFINITY : -INFINITY;
    else if (mpfr_zero_p(R))
        r = zero_neg ? -0.0 : 0.0;
    else
        r = round_binary64(R);
    mpfr_clear(R);
    return r;
}

/* Element (r, q) of op(X), op 0 N, 1 T, 2 C. */
static void zel(const double *X, int64_t ld, int op, int64_t r, int64_t q, double *re, double *im)
{
    const double *p = op ? X + 2 * (q + r * ld) : X + 2 * (r + q * ld);
    *re = p[0];
    *im = op == 2 ? -p[1] : p[1];
}

/* The reference output (i, j): out[0], out[1]. */
static void zref(int ta, int tb, int64_t i, int64_t j, int64_t k, const double al[2],
                 const double *A, int64_t lda, const double *B, int64_t ldb, const double be[2],
                 const double c[2], double out[2])
{
    xsum sr, si;
    mpfr_init2(sr.v, PREC_S);
    mpfr_init2(si.v, PREC_S);
    mpfr_set_zero(sr.v, +1);
    mpfr_set_zero(si.v, +1);
    sr.nan = sr.pinf = sr.ninf = si.nan = si.pinf = si.ninf = 0;
    if (al[0] != 0 || al[1] != 0)
        for (int64_t q = 0; q < k; q++) {
            double ar, ai, br, bi;
            zel(A, lda, ta, i, q, &ar, &ai);
            zel(B, ldb, tb, q, j, &br, &bi);
            xsum_add(&sr, ar, br);
            xsum_add(&sr, -ai, bi);
            xsum_add(&si, ar, bi);
            xsum_add(&si, ai, br);
        }
    /* the terms whose scalar part is not zero (alpha = 0: both of alpha's, S being +0) */
    const int a0 = al[0] == 0 && al[1] == 0;
    const int use[4] = {a0 || al[0] != 0, a0 || al[1] != 0, be[0] != 0, be[1] != 0};
    term t[4];
    int n = 0;
    if (use[0])
        term_sum(&t[n++], al[0], &sr);
    if (use[1])
        term_sum(&t[n++], -al[1], &si);
    if (use[2])
        term_prod(&t[n++], be[0], c[0]);
    if (use[3])
        term_prod(&t[n++], -be[1], c[1]);
    out[0] = combine(t, n);
    n = 0;
    if (use[0])
        term_sum(&t[n++], al[0], &si);
    if (use[1])
        term_sum(&t[n++], al[1], &sr);
    if (use[2])
        term_prod(&t[n++], be[0], c[1]);
    if (use[3])
        term_prod(&t[n++], be[1], c[0]);
    out[1] = combine(t, n);
    mpfr_clears(sr.v, si.v, (mpfr_ptr)0);
}

/* Data kinds beyond the generators: tiny imaginary parts beside large real ones, and parts
 * that nearly cancel (Im(a) = Re(a) (1 + tiny), Im(b) = Re(b): Re(a b) = ar br - ai bi small). */
enum { ZK_GEN, ZK_TINY_IM, ZK_CANCEL, ZK_SPECIAL, ZK_COUNT };

static void zfill(rng *r, int kind, int g, double *X, int64_t n)
{
    gen_fill(r, g, X, 2 * n);
    for (int64_t e = 0; e < n; e++) {
        double *p = X + 2 * e;
        if (kind == ZK_TINY_IM)
            p[1] = p[0] * ldexp(1.0, -(int)below(r, 900)) * ((next64(r) & 1) ? -1 : 1);
        else if (kind == ZK_CANCEL)
            p[1] = p[0] * (1.0 + ldexp((double)below(r, 1 << 20), -60));
        else if (kind == ZK_SPECIAL && below(r, 23) == 0) {
            static const double sp[] = {INFINITY, -INFINITY, NAN, 0.0, -0.0};
            p[below(r, 2)] = sp[below(r, 5)];
        }
    }
}

/* What a test covered, and that it covered enough. */
static void summary(const char *routine, const char *shapes, long parts, const long *kinds,
                    long zeros, long specials)
{
    REQUIRE(zeros > 100 && specials > 100 && parts > 10000);
    printf("repro: %s (CPU) %ld parts correctly rounded (%s; kinds: generators %ld, tiny "
           "imaginary %ld, cancelling %ld, Inf/NaN %ld; %ld zero and %ld Inf/NaN results)\n",
           routine, parts, shapes, kinds[ZK_GEN], kinds[ZK_TINY_IM], kinds[ZK_CANCEL],
           kinds[ZK_SPECIAL], zeros, specials);
    fflush(stdout);
}

static const double zscal[][2] = {{1, 0},  {0, 0},     {0, 1},   {-1, 0},  {0.5, -2},
                                  {3, 1e-300}, {-0.0, 0.0}, {0x1p-1074, 1e300}, {0, -0.0}};
#define NZS ((int)(sizeof zscal / sizeof zscal[0]))

START_TEST(zgemm_correctly_rounded)
{
    rng r = rng_seed(77);
    static const int gens[] = {G_PHI0, G_PHI2, G_PHI4, G_PHI8, G_MIXED, G_SUBNORMAL, G_ZEROS,
                               G_ERANGE};
    const int ngen = (int)(sizeof gens / sizeof gens[0]);
    long parts = 0, zeros = 0, specials = 0, kinds[ZK_COUNT] = {0};
    for (int it = 0; it < 1200; it++) {
        const int ta = it % 3, tb = (it / 3) % 3, kind = (it / 9) % ZK_COUNT;
        const int g = gens[below(&r, ngen)];
        const int64_t m = 1 + below(&r, 4), n = 1 + below(&r, 4);
        const int64_t k = it % 17 == 0 ? 0 : it % 13 == 0 ? 1 : 1 + below(&r, 40);
        const int64_t ra = ta ? k : m, ca = ta ? m : k, rb = tb ? n : k, cb = tb ? k : n;
        const int64_t lda = (ra > 0 ? ra : 1) + below(&r, 2), ldb = (rb > 0 ? rb : 1) + below(&r, 2),
                      ldc = m + below(&r, 2);
        double *A = calloc((size_t)(2 * lda * (ca > 0 ? ca : 1)), sizeof *A);
        double *B = calloc((size_t)(2 * ldb * (cb > 0 ? cb : 1)), sizeof *B);
        double *C = malloc((size_t)(2 * ldc * n) * sizeof *C), *C0 = malloc((size_t)(2 * ldc * n) * sizeof *C0);
        zfill(&r, kind, g, A, lda * ca);
        zfill(&r, kind == ZK_CANCEL ? ZK_GEN : kind, g == G_MIXED ? G_PHI1 : g, B, ldb * cb);
        if (kind == ZK_CANCEL) /* Im(b) = Re(b) */
            for (int64_t e = 0; e < ldb * cb; e++)
                B[2 * e + 1] = B[2 * e];
        gen_fill(&r, G_PHI2, C, 2 * ldc * n);
        const double *al = zscal[below(&r, NZS)], *be = zscal[below(&r, NZS)];
        if (be[0] == 0 && be[1] == 0)
            for (int64_t e = 0; e < 2 * ldc * n; e++)
                C[e] = NAN; /* not read */
        if (al[0] == 0 && al[1] == 0 && k > 0)
            A[below(&r, (int)(2 * lda * ca))] = NAN; /* not read */
        memcpy(C0, C, (size_t)(2 * ldc * n) * sizeof *C);
        ck_assert_int_eq(dfs_repro_zgemm_host(ta, tb, m, n, k, al, A, lda, B, ldb, be, C, ldc), 0);
        for (int64_t j = 0; j < n; j++)
            for (int64_t i = 0; i < m; i++) {
                double want[2];
                zref(ta, tb, i, j, k, al, A, lda, B, ldb, be, C0 + 2 * (i + j * ldc), want);
                const double *got = C + 2 * (i + j * ldc);
                for (int p = 0; p < 2; p++) {
                    if (!same(got[p], want[p]))
                        ck_abort_msg("zgemm %s part, op %d %d, %lldx%lldx%lld, kind %d, gen %s, "
                                     "alpha %g%+gi beta %g%+gi, (%lld, %lld): got %a, want %a",
                                     p ? "imaginary" : "real", ta, tb, (long long)m, (long long)n,
                                     (long long)k, kind, gen_label(g), al[0], al[1], be[0], be[1],
                                     (long long)i, (long long)j, got[p], want[p]);
                    parts++;
                    zeros += want[p] == 0;
                    specials += !isfinite(want[p]);
                }
            }
        /* C's padding rows untouched */
        for (int64_t j = 0; j < n; j++)
            for (int64_t e = 2 * m; e < 2 * ldc; e++)
                ck_assert(same(C[2 * j * ldc + e], C0[2 * j * ldc + e]));
        kinds[kind]++;
        free(A);
        free(B);
        free(C);
        free(C0);
    }
    summary("zgemm", "ops N/T/C both sides, k 0..40", parts, kinds, zeros, specials);
}
END_TEST

/* repro's ZGEMM with complex scalars on the GPU's row pairs (engines/oz/host_crt.c's
 * dfs_oz_crt_zgemm_host, the GPU's steps and per-pair finish on the CPU): every part against
 * the MPFR reference, bit for bit, across moduli counts from too few to wide (more than 24),
 * and a good share of the parts decided by the pair finish (not all sent the exact way). */
START_TEST(zgemm_pairs_correctly_rounded)
{
    rng r = rng_seed(79);
    static const int gens[] = {G_PHI0, G_PHI2, G_PHI4, G_PHI8, G_MIXED, G_SUBNORMAL, G_ZEROS,
                               G_ERANGE};
    static const int mods[] = {8, 14, 18, 21, 24, 27};
    const int ngen = (int)(sizeof gens / sizeof gens[0]);
    long parts = 0, zeros = 0, specials = 0, kinds[ZK_COUNT] = {0}, slow = 0, decided[6] = {0};
    long plain = 0, plain_slow = 0, sub = 0, sub_dec = 0, splits = 0;
    long mixed[2] = {0, 0}, mixed_dec[2] = {0, 0};
    for (int it = 0; it < 1500; it++) {
        const int ta = it % 3, tb = (it / 3) % 3, kind = (it / 9) % ZK_COUNT;
        const int g = gens[below(&r, ngen)], mi = (int)below(&r, 6);
        const int64_t m = 1 + below(&r, 5), n = 1 + below(&r, 4);
        const int64_t k = it % 17 == 0 ? 0 : it % 13 == 0 ? 1 : 1 + below(&r, 60);
        const int64_t ra = ta ? k : m, ca = ta ? m : k, rb = tb ? n : k, cb = tb ? k : n;
        const int64_t lda = (ra > 0 ? ra : 1) + below(&r, 2);
        const int64_t ldb = (rb > 0 ? rb : 1) + below(&r, 2), ldc = m + below(&r, 2);
        double *A = calloc((size_t)(2 * lda * (ca > 0 ? ca : 1)), sizeof *A);
        double *B = calloc((size_t)(2 * ldb * (cb > 0 ? cb : 1)), sizeof *B);
        double *C = malloc((size_t)(2 * ldc * n) * sizeof *C);
        double *C0 = malloc((size_t)(2 * ldc * n) * sizeof *C0);
        zfill(&r, kind, g, A, lda * ca);
        zfill(&r, kind == ZK_CANCEL ? ZK_GEN : kind, g == G_MIXED ? G_PHI1 : g, B, ldb * cb);
        /* every third call: products that underflow (narrow data times 2^-540 each side) */
        const int under = it % 3 == 1 && (g == G_PHI0 || g == G_PHI2);
        for (int64_t e = 0; under && e < 2 * lda * ca; e++)
            A[e] *= 0x1p-540;
        for (int64_t e = 0; under && e < 2 * ldb * cb; e++)
            B[e] *= 0x1p-540;
        gen_fill(&r, G_PHI2, C, 2 * ldc * n);
        /* complex scalars mostly (real ones too: the pairs take any) */
        const double *al = zscal[below(&r, NZS)], *be = zscal[below(&r, NZS)];
        if (be[0] == 0 && be[1] == 0)
            for (int64_t e = 0; e < 2 * ldc * n; e++)
                C[e] = NAN; /* not read */
        memcpy(C0, C, (size_t)(2 * ldc * n) * sizeof *C);
        dfs_oz_stats st;
        const int groups = 1 + (it & 1); /* one group, or two where the exponents split */
        ck_assert_int_eq(dfs_oz_crt_zgemm_host(ta, tb, m, n, k, al, A, lda, B, ldb, be, C, ldc,
                                               mods[mi], groups, &st), 0);
        slow += st.slow;
        decided[mi] += 2 * m * n - st.slow;
        /* plain calls: narrow data, no Inf/NaN, scalars of like parts (not 0, not 3 + 1e-300 i:
         * their terms lie too far apart for the registers), enough moduli */
        const int odd_al = al[0] == 0 && al[1] == 0, odd_s = fabs(al[1]) < 1e-200 && al[1] != 0;
        const int odd_b = (be[1] != 0 && fabs(be[1]) < 1e-200) || fabs(al[0]) < 1e-300;
        if (mods[mi] >= 21 && kind != ZK_SPECIAL && (g == G_PHI0 || g == G_PHI2) && !odd_al &&
            !odd_s && !odd_b && !(be[0] == 0x1p-1074 || fabs(be[1]) > 1e200) && k > 1 && !under) {
            plain += 2 * m * n;
            plain_slow += st.slow;
        }
        splits += st.ksplit;
        if (g == G_MIXED && kind != ZK_SPECIAL && mods[mi] >= 21 && !odd_al && !odd_s &&
            !odd_b && k > 1) {
            mixed[groups - 1] += 2 * m * n;
            mixed_dec[groups - 1] += 2 * m * n - st.slow;
        }
        if (under && kind != ZK_SPECIAL && mods[mi] >= 21 && !odd_al && !odd_s && !odd_b && k > 1) {
            sub += 2 * m * n;
            sub_dec += 2 * m * n - st.slow;
        }
        for (int64_t j = 0; j < n; j++)
            for (int64_t i = 0; i < m; i++) {
                double want[2];
                zref(ta, tb, i, j, k, al, A, lda, B, ldb, be, C0 + 2 * (i + j * ldc), want);
                const double *got = C + 2 * (i + j * ldc);
                for (int p = 0; p < 2; p++) {
                    if (!same(got[p], want[p]))
                        ck_abort_msg("zgemm pairs %s part, op %d %d, %lldx%lldx%lld, kind %d, gen "
                                     "%s, %d moduli, alpha %g%+gi beta %g%+gi, (%lld, %lld): got "
                                     "%a, want %a", p ? "imaginary" : "real", ta, tb,
                                     (long long)m, (long long)n, (long long)k, kind, gen_label(g),
                                     mods[mi], al[0], al[1], be[0], be[1], (long long)i,
                                     (long long)j, got[p], want[p]);
                    parts++;
                    zeros += want[p] == 0;
                    specials += !isfinite(want[p]);
                }
            }
        for (int64_t j = 0; j < n; j++) /* C's padding rows untouched */
            for (int64_t e = 2 * m; e < 2 * ldc; e++)
                ck_assert(same(C[2 * j * ldc + e], C0[2 * j * ldc + e]));
        kinds[kind]++;
        free(A);
        free(B);
        free(C);
        free(C0);
    }
    summary("zgemm on row pairs", "ops N/T/C both sides, k 0..60, 8-27 moduli", parts, kinds,
            zeros, specials);
    printf("repro: zgemm on row pairs (CPU): %ld parts the exact way; decided by the pairs with "
           "8 / 14 / 18 / 21 / 24 / 27 moduli: %ld / %ld / %ld / %ld / %ld / %ld; plain calls "
           "(phi 0-2, ordinary scalars, 21 moduli or more): %ld of %ld parts the exact way; "
           "underflowing products: %ld of %ld parts decided; 1e+-300 mixes, one group / two: "
           "%ld of %ld / %ld of %ld decided (%ld calls split)\n",
           slow, decided[0], decided[1], decided[2], decided[3], decided[4], decided[5],
           plain_slow, plain, sub_dec, sub, mixed_dec[0], mixed[0], mixed_dec[1], mixed[1],
           splits);
    fflush(stdout);
    REQUIRE(slow > 100 && sub_dec * 2 > sub);
    REQUIRE(plain > 300 && plain_slow * 10 < plain); /* the pairs decide the plain ones */
}
END_TEST

/* The value of the two's complement integer x of nw words, exactly (precision 400). */
static void words_value(mpfr_t v, const uint64_t *x, int nw)
{
    mpfr_set_ui(v, 0, MPFR_RNDN);
    for (int i = nw - 1; i >= 0; i--) {
        mpfr_mul_2ui(v, v, 32, MPFR_RNDN); /* exact at this precision */
        mpfr_add_ui(v, v, (unsigned long)(x[i] >> 32), MPFR_RNDN);
        mpfr_mul_2ui(v, v, 32, MPFR_RNDN);
        mpfr_add_ui(v, v, (unsigned long)(x[i] & 0xffffffffu), MPFR_RNDN);
    }
    if (x[nw - 1] >> 63) { /* negative: minus 2^(64 nw) */
        mpfr_t t;
        mpfr_init2(t, 400);
        mpfr_set_ui_2exp(t, 1, (mpfr_exp_t)(64 * nw), MPFR_RNDN);
        mpfr_sub(v, v, t, MPFR_RNDN);
        mpfr_clear(t);
    }
}

/* The pair finish puts both parts' integers on one grid (crt_zpair.h's dfs_crt_pair_shift):
 * X 2^s in five words, exactly, or a refusal only when it would not fit. */
START_TEST(zpair_shift)
{
    rng r = rng_seed(80);
    mpfr_t a, b;
    mpfr_init2(a, 400);
    mpfr_init2(b, 400);
    long shifted = 0, refused = 0;
    for (int it = 0; it < 20000; it++) {
        const int nw = below(&r, 2) ? 3 : DFS_OZ_XW, s = (int)below(&r, 70);
        uint64_t x[DFS_OZ_XW] = {0}, y[DFS_OZ_XW];
        const int top = (int)below(&r, (unsigned)nw); /* the highest non-sign word */
        for (int i = 0; i <= top; i++)
            x[i] = next64(&r);
        if (next64(&r) & 1)
            for (int i = 0; i < nw; i++) /* negate: two's complement */
                x[i] = ~x[i];
        if (!dfs_crt_pair_shift(x, nw, s, y, DFS_OZ_XW)) {
            refused++;
            REQUIRE(top >= DFS_OZ_XW - 2); /* only values near the top of five words */
            continue;
        }
        words_value(a, x, nw);
        mpfr_mul_2si(a, a, s, MPFR_RNDN);
        words_value(b, y, DFS_OZ_XW);
        REQUIRE(mpfr_equal_p(a, b));
        shifted++;
    }
    mpfr_clear(a);
    mpfr_clear(b);
    printf("repro: the pair finish's shift to one grid: %ld exact, %ld refused (too wide)\n",
           shifted, refused);
    REQUIRE(shifted > 15000);
}
END_TEST

/* ZGEMV (dfs_repro_zgemv_host): output i is zref's (i, 0) of op(A) times x as a K x 1 op(B)
 * read with op T from x's first element (negative increments from the end) with ld = incx. */
START_TEST(zgemv_correctly_rounded)
{
    rng r = rng_seed(78);
    static const int gens[] = {G_PHI0, G_PHI2, G_PHI8, G_MIXED, G_SUBNORMAL, G_ZEROS, G_ERANGE};
    static const int64_t incs[] = {1, 2, -1, -3};
    const int ngen = (int)(sizeof gens / sizeof gens[0]);
    long parts = 0, zeros = 0, specials = 0, kinds[ZK_COUNT] = {0};
    for (int it = 0; it < 1500; it++) {
        const int ta = it % 3, kind = (it / 3) % ZK_COUNT;
        const int g = gens[below(&r, ngen)];
        /* m or n = 0: a quick return (y untouched, as BLAS) */
        const int64_t m = it % 29 == 0 ? 0 : 1 + below(&r, 6);
        const int64_t n = it % 31 == 0 ? 0 : 1 + below(&r, 40);
        const int64_t len = m && n ? (ta ? n : m) : 0, K = ta ? m : n;
        const int64_t incx = incs[below(&r, 4)], incy = incs[below(&r, 4)];
        const int64_t lda = (m > 0 ? m : 1) + below(&r, 3);
        const int64_t xs = K > 0 ? (K - 1) * llabs(incx) + 1 : 1;
        const int64_t ys = len > 0 ? (len - 1) * llabs(incy) + 1 : 4;
        double *A = calloc((size_t)(2 * lda * (n > 0 ? n : 1)), sizeof *A);
        double *x = calloc((size_t)(2 * xs), sizeof *x);
        double *y = malloc((size_t)(2 * ys) * sizeof *y);
        double *y0 = malloc((size_t)(2 * ys) * sizeof *y0);
        zfill(&r, kind, g, A, lda * n);
        zfill(&r, kind == ZK_CANCEL ? ZK_GEN : kind, g == G_MIXED ? G_PHI1 : g, x, xs);
        if (kind == ZK_CANCEL) /* Im(x) = Re(x) */
            for (int64_t e = 0; e < xs; e++)
                x[2 * e + 1] = x[2 * e];
        gen_fill(&r, G_PHI2, y, 2 * ys);
        if (kind == ZK_SPECIAL && below(&r, 3) == 0)
            y[2 * below(&r, (int)ys) + below(&r, 2)] = (next64(&r) & 1) ? INFINITY : NAN;
        const double *al = zscal[below(&r, NZS)], *be = zscal[below(&r, NZS)];
        if (be[0] == 0 && be[1] == 0)
            for (int64_t e = 0; e < 2 * ys; e++)
                y[e] = NAN; /* not read */
        if (al[0] == 0 && al[1] == 0 && len > 0) {
            A[below(&r, (int)(2 * lda * n))] = NAN; /* not read */
            x[below(&r, (int)(2 * xs))] = INFINITY;
        }
        memcpy(y0, y, (size_t)(2 * ys) * sizeof *y);
        ck_assert_int_eq(dfs_repro_zgemv_host(ta, m, n, al, A, lda, x, incx, be, y, incy), 0);
        const double *xb = incx < 0 ? x + 2 * (K - 1) * -incx : x;
        for (int64_t i = 0; i < len; i++) {
            const int64_t yi = incy < 0 ? (len - 1 - i) * -incy : i * incy;
            double want[2];
            zref(ta, 1, i, 0, K, al, A, lda, xb, incx, be, y0 + 2 * yi, want);
            for (int p = 0; p < 2; p++) {
                if (!same(y[2 * yi + p], want[p]))
                    ck_abort_msg("zgemv %s part, op %d, %lldx%lld, inc %lld,%lld, kind %d, gen %s, "
                                 "alpha %g%+gi beta %g%+gi, output %lld: got %a, want %a",
                                 p ? "imaginary" : "real", ta, (long long)m, (long long)n,
                                 (long long)incx, (long long)incy, kind, gen_label(g), al[0],
                                 al[1], be[0], be[1], (long long)i, y[2 * yi + p], want[p]);
                parts++;
                zeros += want[p] == 0;
                specials += !isfinite(want[p]);
            }
        }
        /* the gaps of a strided y untouched (and all of y when m or n is 0) */
        for (int64_t e = 0; e < ys; e++)
            if (len == 0 || e % llabs(incy) != 0)
                ck_assert(same(y[2 * e], y0[2 * e]) && same(y[2 * e + 1], y0[2 * e + 1]));
        kinds[kind]++;
        free(A);
        free(x);
        free(y);
        free(y0);
    }
    summary("zgemv", "ops N/T/C, increments +-1..3, K 1..40, quick returns", parts, kinds,
            zeros, specials);
}
END_TEST

void repro_complex_tests(TCase *t)
{
    tcase_add_test(t, zgemm_correctly_rounded);
    tcase_add_test(t, zgemm_pairs_correctly_rounded);
    tcase_add_test(t, zpair_shift);
    tcase_add_test(t, zgemv_correctly_rounded);
}
