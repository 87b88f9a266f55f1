/* oz_ddsum.c — test_oz's tests of the double-double first way of repro's small kernel
 * (engines/oz/ddsum.h): wherever dfs_oz_ddsum_round decides, its result is MPFR's
 * RN(alpha sum x y + beta c) bit for bit, on data of every range (uniform, phi 4 and 8, rows
 * mixing 1e+-300, products that underflow, sums cancelling to a tiny rest, Inf and NaN), with
 * the products split over 1, 4 or 32 lanes merged by the kernel's butterfly; it decides nearly
 * every sum of narrow data (the way pays); and it leaves open a sum whose double-double value
 * lost a bit the rounding needs (1 + 2^-80 + 2^-160 - 1 - 2^-80: a bound too small would round
 * it to 0; 1 + 2^-53 + 2^-200: a quick test too lax would round it to 1); and sums of tiny
 * products, decided by the first way or the second on scaled operands (dfs_oz_ddsum_scale); the
 * tiled kernel's serial way (dfs_oz_dot2) the same. */
#include "ozfamily_test.h"

#include "../../engines/oz/ddsum.h"

#define MAX_K 1000

/* The kernel's way: lane g of L adds q = g, g + L, ...; then the butterfly (partner g ^ sh for
 * sh = 1, 2, ..., L/2; lane 0's sum is what its merges gathered). */
static dfs_oz_ddsum lanes_sum(int64_t K, const double *x, const double *y, int L)
{
    dfs_oz_ddsum d[32];
    for (int g = 0; g < L; g++) {
        d[g] = dfs_oz_ddsum_zero();
        for (int64_t q = g; q < K; q += L)
            dfs_oz_ddsum_add(&d[g], x[q], y[q]);
    }
    for (int sh = 1; sh < L; sh <<= 1) {
        dfs_oz_ddsum next[32];
        for (int g = 0; g < L; g++) {
            next[g] = d[g];
            dfs_oz_ddsum_merge(&next[g], d[g ^ sh]);
        }
        memcpy(d, next, sizeof next);
    }
    return d[0];
}

static double draw(rng *r, int kind, int64_t q, int64_t K)
{
    switch (kind) {
    case 0: return unif_pm1(r);
    case 1: return (unif(r) - 0.5) * exp(4.0 * randn(r));
    case 2: return (unif(r) - 0.5) * exp(8.0 * randn(r));
    case 3: return unif_pm1(r) * (q % 8 == 0 ? 1e300 : 1e-300);   /* mixed */
    case 4: return unif_pm1(r) * 1e-170;                            /* products underflow */
    default: return q < K / 2 ? unif_pm1(r) : 0.0;                  /* cancelling (below) */
    }
}

START_TEST(ddsum_decides_rn)
{
    rng r = rng_seed(0xdd5u);
    static const int64_t ks[] = {1, 2, 3, 7, 64, 256, 1000};
    static const int lanes[] = {1, 4, 32};
    static double x[MAX_K], y[MAX_K];
    long cases = 0, decided = 0, narrow = 0, narrow_decided = 0;
    for (int it = 0; it < 6000; it++) {
        const int kind = it % 7 == 6 ? 5 : it % 6, L = lanes[it % 3];
        const int64_t K = ks[(it / 3) % 7];
        for (int64_t q = 0; q < K; q++) {
            x[q] = draw(&r, kind, q, K);
            y[q] = draw(&r, kind == 3 ? 0 : kind, q, K);
        }
        if (kind == 5) /* the second half cancels the first, less a tiny rest */
            for (int64_t q = K / 2; q < 2 * (K / 2); q++) {
                x[q] = -x[q - K / 2];
                y[q] = y[q - K / 2] * (1.0 + 0x1p-52 * (double)(q % 3));
            }
        if (it % 97 == 0)
            x[K / 2] = it % 2 ? INFINITY : NAN;
        const double alpha = it % 5 == 0 ? -1.5 : 1.0, beta = it % 4 == 0 ? 0.75 : 0.0;
        const double c = beta != 0.0 ? unif_pm1(&r) * (kind == 4 ? 1e-300 : 1.0) : 0.0;
        const dfs_oz_ddsum d = lanes_sum(K, x, y, L);
        double v;
        const int ok = dfs_oz_ddsum_round(&d, K, 0, alpha, beta, c, &v);
        cases++;
        decided += ok;
        if (kind == 0 && it % 97) {
            narrow++;
            narrow_decided += ok;
        }
        if (ok) {
            const double want = reference(K, x, 1, y, 1, alpha, beta, c);
            if (!same_bits(v, want))
                ck_abort_msg("case %d (kind %d, k %lld, %d lanes): %a, RN %a", it, kind,
                             (long long)K, L, v, want);
        }
    }
    printf("oz: ddsum: %ld sums, %ld decided, each = MPFR's RN; uniform data %ld of %ld "
           "decided\n", cases, decided, narrow_decided, narrow);
    ck_assert_msg(narrow_decided * 100 >= narrow * 99, "uniform data: %ld of %ld decided",
                  narrow_decided, narrow);
}
END_TEST

START_TEST(ddsum_leaves_lost_bits_open)
{
    /* the double-double sum after 1 + 2^-80 + 2^-160 holds 1 + 2^-80 (the 2^-160 is lost), so
     * it ends at 0 where the exact sum is 2^-160 */
    const double x[5] = {1.0, 0x1p-80, 0x1p-160, -1.0, -0x1p-80}, y[5] = {1, 1, 1, 1, 1};
    for (int L = 1; L <= 4; L *= 4) {
        const dfs_oz_ddsum d = lanes_sum(5, x, y, L);
        double v;
        if (dfs_oz_ddsum_round(&d, 5, 0, 1.0, 0.0, 0.0, &v))
            ck_assert_msg(same_bits(v, 0x1p-160), "%d lanes: decided %a, exact 2^-160", L, v);
    }
    /* 1 + 2^-53 + 2^-200: the double-double sum holds 1 + 2^-53, a tie that rounds to 1, where
     * the exact sum rounds up (the quick test must not take h = 1) */
    const double x2[3] = {1.0, 0x1p-53, 0x1p-200}, y2[3] = {1, 1, 1};
    const dfs_oz_ddsum d2 = lanes_sum(3, x2, y2, 1);
    double v2;
    if (dfs_oz_ddsum_round(&d2, 3, 0, 1.0, 0.0, 0.0, &v2))
        ck_assert_msg(same_bits(v2, 1.0 + 0x1p-52), "decided %a, RN 1 + 2^-52", v2);
}
END_TEST

/* The kernel's first way on the group's sum, then its second on operands scaled up
 * (dfs_oz_ddsum_scale) where the first left it open: 1 (first), 2 (second) or 0 (open). */
static int two_ways(int64_t K, const double *x, const double *y, int L, double alpha, double beta,
                    double c, double *v)
{
    const dfs_oz_ddsum d = lanes_sum(K, x, y, L);
    if (dfs_oz_ddsum_round(&d, K, 0, alpha, beta, c, v))
        return 1;
    double px, py, xs[MAX_K], ys[MAX_K];
    const int sigma = dfs_oz_ddsum_scale(&d, &px, &py);
    if (!sigma)
        return 0;
    for (int64_t q = 0; q < K; q++) {
        xs[q] = x[q] * px;
        ys[q] = y[q] * py;
    }
    const dfs_oz_ddsum d2 = lanes_sum(K, xs, ys, L);
    return dfs_oz_ddsum_round(&d2, K, -sigma, alpha, beta, c, v) ? 2 : 0;
}

/* Sums of tiny products, against MPFR: near 1e-300 (normal results far below 2^-1000, whose
 * bound's last term is subnormal: decided by the first way), near 1e-320 (subnormal products
 * and results: the second way), below 2^-1074 (results 0 or the least subnormals), and mixed
 * with larger products.  Nearly all decided, each MPFR's RN bit for bit. */
START_TEST(ddsum_decides_tiny_sums)
{
    rng r = rng_seed(0x7191u);
    static const int64_t ks[] = {1, 3, 64, 256, 1000};
    static const double mag[] = {1e-150, 1e-160, 1e-165, 1e-170};
    static double x[MAX_K], y[MAX_K];
    long cases[4] = {0}, first[4] = {0}, second[4] = {0};
    for (int it = 0; it < 4000; it++) {
        const int kind = it % 4, L = it % 3 == 0 ? 1 : it % 3 == 1 ? 4 : 32;
        const int64_t K = ks[(it / 4) % 5];
        for (int64_t q = 0; q < K; q++) {
            x[q] = unif_pm1(&r) * mag[kind];
            y[q] = unif_pm1(&r) * mag[kind];
        }
        const double alpha = it % 5 == 0 ? -1.5 : 1.0, beta = it % 7 == 0 ? 0.25 : 0.0;
        if (it % 13 == 0 && beta == 0.0) /* one product far above the rest (with a beta c far
                                            below, the rounding's words could not span both) */
            x[K / 2] = unif_pm1(&r);
        const double c = beta != 0.0 ? unif_pm1(&r) * 1e-310 : 0.0;
        double v;
        const int way = two_ways(K, x, y, L, alpha, beta, c, &v);
        cases[kind]++;
        first[kind] += way == 1;
        second[kind] += way == 2;
        if (way) {
            const double want = reference(K, x, 1, y, 1, alpha, beta, c);
            if (!same_bits(v, want))
                ck_abort_msg("case %d (magnitude %g, k %lld, %d lanes, way %d): %a, RN %a", it,
                             mag[kind], (long long)K, L, way, v, want);
        }
    }
    for (int kind = 0; kind < 4; kind++) {
        printf("oz: ddsum: magnitude %g: %ld sums, %ld decided by the first way, %ld by the "
               "second\n", mag[kind], cases[kind], first[kind], second[kind]);
        ck_assert_msg((first[kind] + second[kind]) * 100 >= cases[kind] * 99,
                      "magnitude %g: %ld + %ld of %ld decided", mag[kind], first[kind],
                      second[kind], cases[kind]);
    }
    /* near 1e-300 the first way alone decides them (its bound's subnormal last term rounded up
     * to the power of two above it, not to 2^-1021) */
    ck_assert_msg(first[0] * 100 >= cases[0] * 99, "1e-150: %ld of %ld by the first way",
                  first[0], cases[0]);
}
END_TEST

/* repro's DGEMV way (kernels_vec.cu): the inner dimension in chunks, each summed by one thread
 * (op N) or by 32 lanes merged by a butterfly (op T); the finish's lanes merge chunks i, i + 32,
 * ... from zero, then a butterfly of 32; the bound counts those levels beside the products
 * (k + 5 + ceil(splits / 32), + 5 for T).  Wherever it decides: MPFR's RN, bit for bit. */
static dfs_oz_ddsum gemv_way(int64_t K, const double *x, const double *y, int splits, int T)
{
    static dfs_oz_ddsum chunk[MAX_K];
    const int64_t len = (K + splits - 1) / splits;
    int n = 0;
    for (int64_t q0 = 0; q0 < K; q0 += len, n++) {
        const int64_t c = K - q0 < len ? K - q0 : len;
        chunk[n] = T ? lanes_sum(c, x + q0, y + q0, 32) : lanes_sum(c, x + q0, y + q0, 1);
    }
    dfs_oz_ddsum lane[32];
    for (int l = 0; l < 32; l++) {
        lane[l] = dfs_oz_ddsum_zero();
        for (int i = l; i < n; i += 32)
            dfs_oz_ddsum_merge(&lane[l], chunk[i]);
    }
    for (int sh = 1; sh < 32; sh <<= 1) {
        dfs_oz_ddsum next[32];
        for (int l = 0; l < 32; l++) {
            next[l] = lane[l];
            dfs_oz_ddsum_merge(&next[l], lane[l ^ sh]);
        }
        memcpy(lane, next, sizeof next);
    }
    return lane[0];
}

START_TEST(ddsum_gemv_chunks)
{
    rng r = rng_seed(0x63e7u);
    static double x[MAX_K], y[MAX_K];
    long cases = 0, decided = 0, narrow = 0, narrow_decided = 0;
    for (int it = 0; it < 3000; it++) {
        const int kind = it % 6, T = it % 2;
        const int64_t K = 1 + (int64_t)(unif(&r) * (MAX_K - 1));
        const int splits = 1 + (int)(unif(&r) * (double)(K < 200 ? K : 200));
        for (int64_t q = 0; q < K; q++) {
            x[q] = draw(&r, kind, q, K);
            y[q] = draw(&r, kind == 3 ? 0 : kind, q, K);
        }
        const double alpha = it % 5 == 0 ? -1.5 : 1.0, beta = it % 4 == 0 ? 0.75 : 0.0;
        const double c = beta != 0.0 ? unif_pm1(&r) : 0.0;
        const dfs_oz_ddsum d = gemv_way(K, x, y, splits, T);
        const int64_t levels = 5 + (splits + 31) / 32 + (T ? 5 : 0);
        double v;
        const int ok = dfs_oz_ddsum_round(&d, K + levels, 0, alpha, beta, c, &v);
        cases++;
        decided += ok;
        narrow += kind == 0;
        narrow_decided += kind == 0 && ok;
        if (ok) {
            const double want = reference(K, x, 1, y, 1, alpha, beta, c);
            if (!same_bits(v, want))
                ck_abort_msg("case %d (kind %d, k %lld, %d chunks, op %c): %a, RN %a", it, kind,
                             (long long)K, splits, T ? 'T' : 'N', v, want);
        }
    }
    printf("oz: ddsum: DGEMV's chunks: %ld sums, %ld decided, each = MPFR's RN; uniform data "
           "%ld of %ld decided\n", cases, decided, narrow_decided, narrow);
    ck_assert_msg(narrow_decided * 100 >= narrow * 99, "uniform data: %ld of %ld decided",
                  narrow_decided, narrow);
}
END_TEST

/* Two classes in one pass (dfs_oz_ddsum2): lanes of a group each sum their share, merged by the
 * butterfly, then the decision; against MPFR on data whose products are all normal, all tiny,
 * mostly normal with tiny ones among them, straddling 2^-900, phi 8, 1e+-300 mixed and below
 * 2^-1074. */
static dfs_oz_ddsum2 lanes_sum2(int64_t K, const double *x, const double *y, int L)
{
    dfs_oz_ddsum2 d[32];
    for (int g = 0; g < L; g++) {
        d[g] = dfs_oz_ddsum2_zero();
        for (int64_t q = g; q < K; q += L)
            dfs_oz_ddsum2_add(&d[g], x[q], y[q]);
    }
    for (int sh = 1; sh < L; sh <<= 1) {
        dfs_oz_ddsum2 next[32];
        for (int g = 0; g < L; g++) {
            next[g] = d[g];
            dfs_oz_ddsum2_merge(&next[g], d[g ^ sh]);
        }
        memcpy(d, next, sizeof next);
    }
    return d[0];
}

static double draw2(rng *r, int kind, int64_t q, int role)
{
    switch (kind) {
    case 0: return unif_pm1(r);
    case 1: return unif_pm1(r) * 1e-160;
    case 2: return unif_pm1(r) * (q % 2 == 0 ? 1.0 : role ? 1e-120 : 1e-200);
    case 3: return unif_pm1(r) * ldexp(1.0, -450 + (int)(unif(r) * 20.0) - 10);
    case 4: return (unif(r) - 0.5) * exp(8.0 * randn(r));
    case 5: return role ? unif_pm1(r) : unif_pm1(r) * (q % 8 == 0 ? 1e300 : 1e-300);
    default: return unif_pm1(r) * 1e-170;
    }
}

START_TEST(ddsum2_decides_in_one_pass)
{
    static const char *const names[7] = {"normal", "underflowing", "tiny among normal",
                                         "straddling 2^-900", "phi 8", "1e+-300 mixed",
                                         "below 2^-1074"};
    static const int64_t ks[] = {1, 3, 64, 256, 1000};
    rng r = rng_seed(0xdd52u);
    static double x[MAX_K], y[MAX_K];
    long cases[7] = {0}, decided[7] = {0};
    for (int it = 0; it < 7000; it++) {
        const int kind = it % 7, L = it % 3 == 0 ? 1 : it % 3 == 1 ? 4 : 32;
        const int64_t K = ks[(it / 7) % 5];
        for (int64_t q = 0; q < K; q++) {
            x[q] = draw2(&r, kind, q, 0);
            y[q] = draw2(&r, kind, q, 1);
        }
        const double alpha = it % 5 == 0 ? -1.5 : 1.0, beta = it % 4 == 0 ? 0.75 : 0.0;
        /* beta c of the sum's size (far apart, the words of the rounding in registers could not
         * hold both: the exact way's) */
        const double c = beta == 0.0               ? 0.0
                         : kind == 1 || kind == 6 ? unif_pm1(&r) * 1e-315
                         : kind == 3              ? unif_pm1(&r) * 0x1p-900
                         : kind == 5              ? unif_pm1(&r) * 1e300
                                                  : unif_pm1(&r);
        const dfs_oz_ddsum2 d = lanes_sum2(K, x, y, L);
        double v;
        const int ok = dfs_oz_ddsum2_round(&d, K, alpha, beta, c, &v);
        cases[kind]++;
        decided[kind] += ok;
        if (ok) {
            const double want = reference(K, x, 1, y, 1, alpha, beta, c);
            if (!same_bits(v, want))
                ck_abort_msg("case %d (%s, k %lld, %d lanes): %a, RN %a", it, names[kind],
                             (long long)K, L, v, want);
        }
    }
    for (int kind = 0; kind < 7; kind++) {
        printf("oz: ddsum2: %s: %ld of %ld decided, each = MPFR's RN\n", names[kind],
               decided[kind], cases[kind]);
        ck_assert_msg(decided[kind] * 100 >= cases[kind] * 97, "%s: %ld of %ld decided",
                      names[kind], decided[kind], cases[kind]);
    }
}
END_TEST

/* sum x y exactly into S (PREC_S bits: any sum of K <= MAX_K products of doubles). */
static void exact_sum(mpfr_t S, int64_t K, const double *x, const double *y)
{
    mpfr_t p;
    mpfr_init2(p, 120);
    mpfr_set_zero(S, 1);
    for (int64_t q = 0; q < K; q++) {
        mpfr_set_d(p, x[q], MPFR_RNDN);
        mpfr_mul_d(p, p, y[q], MPFR_RNDN); /* exact: 106 bits */
        mpfr_add(S, S, p, MPFR_RNDN);      /* exact within PREC_S */
    }
    mpfr_clear(p);
}

/* RN(a1 S1 + a2 S2 + b1 c1 + b2 c2), computed exactly first. */
static double exact_part(mpfr_srcptr S1, mpfr_srcptr S2, double a1, double a2, double b1,
                         double c1, double b2, double c2)
{
    mpfr_t r, u;
    mpfr_init2(r, PREC_R + 200);
    mpfr_init2(u, PREC_R);
    mpfr_mul_d(r, S1, a1, MPFR_RNDN);
    mpfr_mul_d(u, S2, a2, MPFR_RNDN);
    mpfr_add(r, r, u, MPFR_RNDN);
    mpfr_set_d(u, b1, MPFR_RNDN);
    mpfr_mul_d(u, u, c1, MPFR_RNDN);
    mpfr_add(r, r, u, MPFR_RNDN);
    mpfr_set_d(u, b2, MPFR_RNDN);
    mpfr_mul_d(u, u, c2, MPFR_RNDN);
    mpfr_add(r, r, u, MPFR_RNDN);
    const double v = round_binary64(r);
    mpfr_clear(r);
    mpfr_clear(u);
    return v;
}

/* Complex combinations (dfs_oz_ddsum2_zround): both parts of alpha S + beta c from the two
 * parts' sums, with real and complex scalars, beta zero or not, on draw2's data; wherever it
 * decides, each part is MPFR's RN; it decides nearly all on narrow data with scalars of
 * ordinary size. */
START_TEST(ddsum2_zround_decides_rn)
{
    static const char *const names2[7] = {"normal", "underflowing", "tiny among normal",
                                          "straddling 2^-900", "phi 8", "1e+-300 mixed",
                                          "below 2^-1074"};
    static const double alphas[6][2] = {{1, 0}, {-1, 0}, {0.5, -0.75}, {0, 2}, {3, 1e-300},
                                        {-1.25, 1}};
    static const double betas[5][2] = {{0, 0}, {1, 0}, {0, 1}, {-0.75, 0.25}, {0.5, -1e-300}};
    static const int64_t ks[] = {1, 3, 64, 256, 1000};
    rng r = rng_seed(0x2dd5u);
    static double x[2][MAX_K], y[2][MAX_K];
    mpfr_t S[2];
    mpfr_init2(S[0], PREC_S);
    mpfr_init2(S[1], PREC_S);
    long cases = 0, decided = 0, kind_cases[7] = {0}, kind_decided[7] = {0};
    for (int it = 0; it < 3000; it++) {
        const int kind = it % 7, L = it % 3 == 0 ? 1 : it % 3 == 1 ? 4 : 32;
        const int64_t K = ks[(it / 7) % 5];
        const double *alpha = alphas[it % 6], *beta = betas[(it / 6) % 5];
        for (int p = 0; p < 2; p++)
            for (int64_t q = 0; q < K; q++) {
                x[p][q] = draw2(&r, kind, q, 0);
                y[p][q] = draw2(&r, kind, q, 1);
            }
        /* c of the sums' size (kind 0 and 4: about 1) */
        const double scale = kind == 1 || kind == 6 ? 1e-315
                           : kind == 3            ? 0x1p-900
                           : kind == 5            ? 1e300
                                                  : 1.0;
        const double c[2] = {unif_pm1(&r) * scale, unif_pm1(&r) * scale};
        const dfs_oz_ddsum2 dr = lanes_sum2(K, x[0], y[0], L), di = lanes_sum2(K, x[1], y[1], L);
        double v[2];
        const int ok = dfs_oz_ddsum2_zround(&dr, &di, K, alpha, beta, c, v);
        cases++;
        decided += ok;
        /* scalars of ordinary size (a part of 1e-300 beside one of 1: the corners' terms span
         * too far for the words in registers, the exact way's) */
        if (it % 6 != 4 && (it / 6) % 5 != 4) {
            kind_cases[kind]++;
            kind_decided[kind] += ok;
        }
        if (!ok)
            continue;
        exact_sum(S[0], K, x[0], y[0]);
        exact_sum(S[1], K, x[1], y[1]);
        const double re = exact_part(S[0], S[1], alpha[0], -alpha[1], beta[0], c[0], -beta[1],
                                     c[1]);
        const double im = exact_part(S[0], S[1], alpha[1], alpha[0], beta[1], c[0], beta[0],
                                     c[1]);
        if (!same_bits(v[0], re) || !same_bits(v[1], im))
            ck_abort_msg("case %d (kind %d, k %lld, alpha %g%+gi, beta %g%+gi): %a%+ai, RN "
                         "%a%+ai", it, kind, (long long)K, alpha[0], alpha[1], beta[0], beta[1],
                         v[0], v[1], re, im);
    }
    mpfr_clear(S[0]);
    mpfr_clear(S[1]);
    printf("oz: ddsum2 complex: %ld of %ld decided, each part = MPFR's RN; with scalars of "
           "ordinary size, by data:", decided, cases);
    for (int kind = 0; kind < 7; kind++)
        printf(" %s %ld/%ld;", names2[kind], kind_decided[kind], kind_cases[kind]);
    printf("\n");
    /* the data this way is for: normal, underflowing, tiny among normal, phi 8 (straddling
     * 2^-900 and below 2^-1074 beside c: the corners span too far; the exact way's) */
    for (int kind = 0; kind < 7; kind++)
        ck_assert_msg(kind == 3 || kind == 6 || kind_decided[kind] * 100 >= kind_cases[kind] * 97,
                      "%s: %ld of %ld decided", names2[kind], kind_decided[kind],
                      kind_cases[kind]);
}
END_TEST

/* The corners: alpha = 1 + i, Re = Sr - Si with Sr = 1.5 + 2^-53 + 2^-200 (its double-double
 * 1.5 + 2^-53) and Si = 0.5 of equal bounds: Re's double-double value 1 + 2^-53 is a tie, its
 * exact value above it (RN 1 + 2^-52).  Corners taken by the coefficients' signs span the tie and
 * leave Re open; corners of one sign for both parts would cancel the bounds and round the tie to
 * 1.  Im = Sr + Si = 2 + 2^-53 + 2^-200 is far from its boundaries. */
START_TEST(ddsum2_zround_corners)
{
    static const double xr[3] = {1.5, 0x1p-53, 0x1p-200}, xi[3] = {0.5, 0.5, -0.5};
    static const double one[3] = {1, 1, 1}, alpha[2] = {1, 1}, beta[2] = {0, 0};
    dfs_oz_ddsum2 dr = dfs_oz_ddsum2_zero(), di = dfs_oz_ddsum2_zero();
    for (int q = 0; q < 3; q++) {
        dfs_oz_ddsum2_add(&dr, xr[q], one[q]);
        dfs_oz_ddsum2_add(&di, xi[q], one[q]);
    }
    ck_assert(dr.m.h + dr.m.l == 1.5 + 0x1p-53 && di.m.h == 0.5);
    ck_assert(dfs_oz_ddsum_bound(&dr.m, 3, 0.0) == dfs_oz_ddsum_bound(&di.m, 3, 0.0));
    double v[2] = {0, 0};
    const int ok = dfs_oz_ddsum2_zround(&dr, &di, 3, alpha, beta, NULL, v);
    ck_assert_msg(!ok || (same_bits(v[0], 1.0 + 0x1p-52) && same_bits(v[1], 2.0)),
                  "decided %a%+ai, RN 1 + 2^-52 + 2i", v[0], v[1]);
    ck_assert_msg(!ok, "the tie's interval decided");
}
END_TEST

/* The tiled small kernel's way (dfs_oz_dot2: one thread's products in order, not renormalised):
 * wherever its bound decides, MPFR's RN bit for bit, on every data class above (the tiny ones
 * are mostly left open: the kernel then takes the lanes' way); nearly every uniform sum decided;
 * and a sum whose lost bits change the result (1, 2^-53, 2^-110, -1, -2^-53, 2^-100: l drops
 * 2^-110, h + l = 2^-100, exact 2^-100 + 2^-110) left open. */
static dfs_oz_ddsum dot2_sum(int64_t K, const double *x, const double *y, double *B)
{
    dfs_oz_dot2 d = dfs_oz_dot2_zero();
    for (int64_t q = 0; q < K; q++)
        dfs_oz_dot2_add(&d, x[q], y[q], fabs(x[q]), fabs(y[q]));
    return dfs_oz_dot2_done(&d, K, B);
}

START_TEST(dot2_decides_rn)
{
    rng r = rng_seed(0xd072u);
    static const int64_t ks[] = {1, 2, 3, 7, 64, 256, 1000};
    static double x[MAX_K], y[MAX_K];
    long cases = 0, decided = 0, narrow = 0, narrow_decided = 0;
    for (int it = 0; it < 6000; it++) {
        const int kind = it % 7 == 6 ? 5 : it % 6;
        const int64_t K = ks[(it / 3) % 7];
        for (int64_t q = 0; q < K; q++) {
            x[q] = draw(&r, kind, q, K);
            y[q] = draw(&r, kind == 3 ? 0 : kind, q, K);
        }
        if (kind == 5)
            for (int64_t q = K / 2; q < 2 * (K / 2); q++) {
                x[q] = -x[q - K / 2];
                y[q] = y[q - K / 2] * (1.0 + 0x1p-52 * (double)(q % 3));
            }
        if (it % 97 == 0)
            x[K / 2] = it % 2 ? INFINITY : NAN;
        if (it % 89 == 0)
            x[K / 2] = 0x1p600, y[K / 2] = 0x1p450; /* a product of 2^1050: open */
        const double alpha = it % 5 == 0 ? -1.5 : 1.0, beta = it % 4 == 0 ? 0.75 : 0.0;
        const double c = beta != 0.0 ? unif_pm1(&r) * (kind == 4 ? 1e-300 : 1.0) : 0.0;
        double B, v;
        const dfs_oz_ddsum d = dot2_sum(K, x, y, &B);
        const int ok = dfs_oz_ddsum_round_within(&d, B, 0, alpha, beta, c, &v);
        cases++;
        decided += ok;
        if (kind == 0 && it % 97 && it % 89) {
            narrow++;
            narrow_decided += ok;
        }
        if (ok) {
            ck_assert_msg(it % 97 && it % 89, "case %d: Inf, NaN or 2^1050 decided", it);
            const double want = reference(K, x, 1, y, 1, alpha, beta, c);
            if (!same_bits(v, want))
                ck_abort_msg("case %d (kind %d, k %lld): %a, RN %a", it, kind, (long long)K, v,
                             want);
        }
    }
    printf("oz: dot2: %ld sums, %ld decided, each = MPFR's RN; uniform data %ld of %ld "
           "decided\n", cases, decided, narrow_decided, narrow);
    ck_assert_msg(narrow_decided * 100 >= narrow * 99, "uniform data: %ld of %ld decided",
                  narrow_decided, narrow);
    const double lx[6] = {1.0, 0x1p-53, 0x1p-110, -1.0, -0x1p-53, 0x1p-100};
    const double ly[6] = {1, 1, 1, 1, 1, 1};
    double B, v;
    const dfs_oz_ddsum d = dot2_sum(6, lx, ly, &B);
    ck_assert(d.h + d.l == 0x1p-100); /* the way loses 2^-110, as planned */
    if (dfs_oz_ddsum_round_within(&d, B, 0, 1.0, 0.0, 0.0, &v))
        ck_assert_msg(same_bits(v, 0x1p-100 + 0x1p-110), "decided %a, exact 2^-100 + 2^-110", v);
}
END_TEST

/* One (h, l, B) at the edges of h + l's rounding interval (round_within_near_midpoints): h of
 * exponent e with a random mantissa, a power of two or the binary64 below one; l a multiple of
 * h's ulp near +-1/2, +-1/4 of it or up to 4 ulps; B a power of two from 2^-70 ulp to 2 ulp.
 * Returns h's ulp. */
static double edge_case(rng *r, int e, double *h, double *l, double *B)
{
    const int shape = below(r, 3); /* random mantissa, 2^e, or the binary64 below 2^e */
    double x = shape == 1 ? ldexp(1.0, e) : shape == 2 ? ldexp(1.0 - 0x1p-53, e)
                                                        : ldexp(1.0 + unif(r), e);
    x = below(r, 2) ? -x : x;
    const double ulp = ldexp(1.0, ilogb(x) - 52);
    static const double f0[] = {0.5, 0.25, 0.125, 0.75, 1.0};
    const int j = 1 + below(r, 60);
    double f = below(r, 5) == 0 ? ldexp(unif_pm1(r), 2)
                                : f0[below(r, 5)] + (below(r, 2) ? 1 : -1) * ldexp(1.0, -j);
    f = below(r, 4) == 0 ? f0[below(r, 5)] : f;
    *h = x;
    *l = (below(r, 2) ? -f : f) * ulp;
    *B = ldexp(ulp, -below(r, 72) + 1);
    return ulp;
}

/* The decision's quick test (alpha = 1, beta = 0) where it matters: (h, l, B) drawn at the edges
 * of h + l's rounding interval: h with a random mantissa, a power of two or the binary64 below
 * one, at exponents from -950 to 1000; l a multiple of h's ulp near +-1/2 and +-1/4 of it (a
 * midpoint, or a quarter below a power of two), or up to 4 ulps (the tiled kernel's
 * double-double is not renormalised); B a power of two from 2^-70 ulp to 2 ulp.  Wherever
 * dfs_oz_ddsum_round_within decides, both ends h + l -+ B round (MPFR) to its result; and it
 * decides at least the cases whose ends are 1/64 ulp clear of the interval's edges.  A test
 * wider by one bit (half an ulp below a power of two, or a whole ulp) fails it. */
START_TEST(round_within_near_midpoints)
{
    rng r = rng_seed(0x3d1du);
    static const int exps[] = {0, 1, -1, 52, -300, 700, -950, 1000};
    mpfr_t x;
    mpfr_init2(x, 4200);
    long cases = 0, decided = 0, clear = 0, clear_decided = 0;
    for (int it = 0; it < 200000; it++) {
        double h, l, B;
        const double ulp = edge_case(&r, exps[below(&r, 8)], &h, &l, &B);
        double v;
        const dfs_oz_ddsum d = {h, l, 1.0, 0u};
        const int ok = dfs_oz_ddsum_round_within(&d, B, 0, 1.0, 0.0, 0.0, &v);
        double end[2];
        for (int s = 0; s < 2; s++) {
            mpfr_set_d(x, h, MPFR_RNDN);
            mpfr_add_d(x, x, l, MPFR_RNDN);                /* exact at 4200 bits */
            mpfr_add_d(x, x, s ? B : -B, MPFR_RNDN);       /* exact */
            end[s] = mpfr_get_d(x, MPFR_RNDN);
        }
        /* the ends 1/64 ulp inside the interval: both round to the same binary64 then */
        double in[2];
        for (int s = 0; s < 2; s++) {
            mpfr_set_d(x, h, MPFR_RNDN);
            mpfr_add_d(x, x, l, MPFR_RNDN);
            mpfr_add_d(x, x, (s ? 1 : -1) * (B + ulp / 64), MPFR_RNDN);
            in[s] = mpfr_get_d(x, MPFR_RNDN);
        }
        cases++;
        decided += ok;
        if (same_bits(in[0], in[1]) && same_bits(in[0], end[0])) {
            clear++;
            clear_decided += ok;
        }
        if (ok && !(same_bits(v, end[0]) && same_bits(v, end[1])))
            ck_abort_msg("case %d: h %a l %a B %a decided %a, the ends round to %a and %a", it,
                         h, l, B, v, end[0], end[1]);
    }
    mpfr_clear(x);
    printf("oz: round_within near midpoints: %ld cases, %ld decided, %ld of %ld clear ones\n",
           cases, decided, clear_decided, clear);
    ck_assert_msg(clear_decided == clear, "%ld of %ld clear cases decided", clear_decided, clear);
}
END_TEST

/* The quick decision for any alpha, beta (dfs_oz_ddsum_round_quick), and round_within through it:
 * (h, l, B) as above, alpha in {1, -1, 2^-30, -4, 0.75, -3, 0.1}, beta in {0, 1, -1, 0.5, 0.3},
 * c a multiple of alpha h's ulp (so that alpha (h + l) + beta c keeps h's edges where the
 * products are exact), a large c cancelling alpha h, or a random one; now and then a c of NaN
 * or Inf, a tiny h (2^-1020: underflowing products).  Wherever either decides, both ends
 * alpha (h + l -+ B) + beta c round (MPFR) to its result; and the quick one decides at least
 * 99% of the cases whose ends are 1/16 ulp clear of their interval's edges.  (Its 2^-99 M term,
 * the rest's second-order roundings, is reached by no random case here.) */
START_TEST(round_quick_any_scalars)
{
    rng r = rng_seed(0x9a1cu);
    static const int exps[] = {0, 3, -1, 52, -300, 700, -950, -1020};
    static const double alphas[] = {1.0, -1.0, 0x1p-30, -4.0, 0.75, -3.0, 0.1};
    static const double betas[] = {0.0, 1.0, -1.0, 0.5, 0.3};
    mpfr_t x, y;
    mpfr_init2(x, 4400);
    mpfr_init2(y, 4400);
    long cases = 0, quick = 0, clear = 0, clear_quick = 0;
    for (int it = 0; it < 200000; it++) {
        const int e = exps[below(&r, 8)];
        double h, l, B;
        const double ulp = edge_case(&r, e, &h, &l, &B);
        const double alpha = alphas[below(&r, 7)], beta = betas[below(&r, 5)];
        double c = 0.0;
        const int ck = below(&r, 8);
        if (beta != 0.0) {
            const double au = fabs(alpha) * ulp; /* alpha h's ulp, or near it */
            c = ck < 4   ? (double)(below(&r, 9) - 4) * au / beta
                : ck < 6 ? -alpha * h * (1.0 + (double)(below(&r, 5) - 2) * 0x1p-52) / beta
                : ck < 7 ? unif_pm1(&r) * ldexp(1.0, e)
                         : (below(&r, 2) ? NAN : INFINITY);
        }
        double v;
        const dfs_oz_ddsum d = {h, l, 1.0, 0u};
        const int okq = dfs_oz_ddsum_round_quick(&d, B, alpha, beta, c, &v);
        double w2;
        const int okw = dfs_oz_ddsum_round_within(&d, B, 0, alpha, beta, c, &w2);
        double end[2], in[2];
        for (int s2 = 0; s2 < 2; s2++) {
            mpfr_set_d(x, h, MPFR_RNDN);
            mpfr_add_d(x, x, l, MPFR_RNDN);
            mpfr_add_d(x, x, s2 ? B : -B, MPFR_RNDN);
            mpfr_mul_d(x, x, alpha, MPFR_RNDN); /* exact at 4400 bits */
            mpfr_set_d(y, c, MPFR_RNDN);
            mpfr_mul_d(y, y, beta, MPFR_RNDN);
            if (beta != 0.0)
                mpfr_add(x, x, y, MPFR_RNDN);
            end[s2] = mpfr_get_d(x, MPFR_RNDN);
            /* 1/16 of the result's ulp further out */
            const double ue = isfinite(end[s2]) && end[s2] != 0.0
                                  ? ldexp(1.0, ilogb(end[s2]) - 56) : 0.0;
            mpfr_add_d(x, x, (s2 ? 1 : -1) * (alpha > 0 ? 1 : -1) * ue, MPFR_RNDN);
            in[s2] = mpfr_get_d(x, MPFR_RNDN);
        }
        cases++;
        quick += okq;
        if (isfinite(end[0]) && fabs(end[0]) >= 0x1p-950 && same_bits(in[0], in[1]) &&
            same_bits(in[0], end[0]) && same_bits(end[0], end[1])) {
            clear++;
            clear_quick += okq;
        }
        if (okq && !(same_bits(v, end[0]) && same_bits(v, end[1])))
            ck_abort_msg("case %d: h %a l %a B %a alpha %a beta %a c %a: quick %a, the ends "
                         "round to %a and %a", it, h, l, B, alpha, beta, c, v, end[0], end[1]);
        if (okw && !(same_bits(w2, end[0]) && same_bits(w2, end[1])))
            ck_abort_msg("case %d: h %a l %a B %a alpha %a beta %a c %a: round_within %a, the "
                         "ends round to %a and %a", it, h, l, B, alpha, beta, c, w2, end[0],
                         end[1]);
    }
    mpfr_clear(x);
    mpfr_clear(y);
    printf("oz: round_quick: %ld cases, %ld decided quickly, %ld of %ld clear ones\n", cases,
           quick, clear_quick, clear);
    ck_assert_msg(clear_quick * 100 >= clear * 99, "%ld of %ld clear cases decided quickly",
                  clear_quick, clear);
}
END_TEST

void oz_ddsum_tests(TCase *t)
{
    tcase_add_test(t, ddsum_decides_rn);
    tcase_add_test(t, ddsum_leaves_lost_bits_open);
    tcase_add_test(t, ddsum_decides_tiny_sums);
    tcase_add_test(t, ddsum_gemv_chunks);
    tcase_add_test(t, ddsum2_decides_in_one_pass);
    tcase_add_test(t, ddsum2_zround_decides_rn);
    tcase_add_test(t, ddsum2_zround_corners);
    tcase_add_test(t, dot2_decides_rn);
    tcase_add_test(t, round_within_near_midpoints);
    tcase_add_test(t, round_quick_any_scalars);
}
