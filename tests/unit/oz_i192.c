/* oz_i192.c — test_oz's test of the Ozaki finish's 192-bit fast path (engines/oz/steps.h):
 * cases made as the GPU finish kernel makes them, rounded and their margins checked against
 * full accumulators of xacc.h. */
#include "ozfamily_test.h"

#include "../../engines/oz/steps.h"
#include "../common/gen.h"

#include <inttypes.h>

/* A case as the GPU finish kernel makes it: terms v 2^sh (|v| < 2^53, sh a multiple of beta up to
 * d beta <= 128), added in this order, then rounded at e0. */
enum { OZ_TERMS = 64, IW_WORDS = 8 /* an integer window accumulator: 2^0 .. 2^256 */ };
enum { OZK_RICH, OZK_MIXED, OZK_GPU, OZK_ZERO, OZK_TINY, OZK_EXACT, OZK_MID, OZK_MIDJ, OZK_COUNT };
static const char *const ozk_name[OZK_COUNT] = {"rich", "mixed", "gpu-like", "zero", "tiny",
                                                "exact", "midpoint", "midpoint+-2^j"};

typedef struct {
    int kind, beta, d, n, e0, emode;
    int64_t v[OZ_TERMS];
    int sh[OZ_TERMS];
} oz_case;

/* Prints the case (every input, in the order added) to stderr and fails the test. */
static void oz_fail(const oz_case *c, int line, const char *msg)
{
    fprintf(stderr,
            "oz_i192_round FAILED (line %d): %s\n  kind %s beta %d d %d e0 %d (e0 mode %d), %d "
            "terms (v, sh), in the order added:\n",
            line, msg, ozk_name[c->kind], c->beta, c->d, c->e0, c->emode, c->n);
    for (int i = 0; i < c->n; i++)
        fprintf(stderr, "    (%" PRId64 ", %d)\n", c->v[i], c->sh[i]);
    fflush(stderr);
    ck_abort_msg("oz_i192_round (line %d): %s [kind %s beta %d d %d e0 %d n %d; terms on stderr]",
                 line, msg, ozk_name[c->kind], c->beta, c->d, c->e0, c->n);
}

#define OZREQ(c, x)                                                                                \
    do {                                                                                           \
        if (!(x))                                                                                  \
            oz_fail((c), __LINE__, "assertion '" #x "' failed");                                  \
    } while (0)

static uint64_t mag64(int64_t v)
{
    return v < 0 ? -(uint64_t)v : (uint64_t)v;
}

/* Add v 2^e (|v| < 2^63) to an accumulator. */
static void acc_add_int(dfs_xacc *a, int64_t v, int e)
{
    REQUIRE(dfs_x_add(a, v < 0, (dfs_u128)mag64(v), e));
}

/* |value| of an integer window accumulator as four 64-bit words; returns 1 if it was negative
 * (destroys the value). */
static int iw_mag(dfs_xacc *a, uint64_t m[4])
{
    int neg = dfs_x_abs(a);
    REQUIRE(a->nw == IW_WORDS && a->w[IW_WORDS - 1] == 0);
    for (int i = 0; i < 4; i++)
        m[i] = (uint64_t)a->w[2 * i] | (i < 3 ? (uint64_t)a->w[2 * i + 1] << 32 : 0);
    return neg;
}

/* Bits off .. off+len-1 of m (len <= 64), one at a time. */
static uint64_t mbits(const uint64_t m[4], int off, int len)
{
    uint64_t r = 0;
    for (int i = len - 1; i >= 0; i--) {
        const int b = off + i;
        r = (r << 1) | (b < 256 ? (m[b >> 6] >> (b & 63)) & 1 : 0);
    }
    return r;
}

static void oz_push(oz_case *c, int64_t v, int sh)
{
    if (v == 0)
        return;
    REQUIRE(c->n < OZ_TERMS && mag64(v) < (1ull << 53) && sh >= 0 && sh <= c->d * c->beta &&
            sh % c->beta == 0);
    c->v[c->n] = v;
    c->sh[c->n++] = sh;
}

/* A random v, |v| < 2^maxbits (1 <= maxbits <= 53): tiny, small, of a random length, near the
 * top, a power of two, or full width; random sign. */
static int64_t oz_rand_v(rng *r, int maxbits)
{
    const uint64_t top = (1ull << maxbits) - 1;
    uint64_t mag;
    switch (below(r, 6)) {
    case 0: mag = 1 + (uint64_t)below(r, 16); break;
    case 1: mag = (uint64_t)below(r, 1 << 20); break;
    case 2: mag = next64(r) >> (63 - below(r, maxbits)); break;
    case 3: mag = top - ((uint64_t)below(r, 1000) & top); break;
    case 4: mag = 1ull << below(r, maxbits); break;
    default: mag = next64(r) >> (64 - maxbits); break;
    }
    mag &= top;
    return (next64(r) & 1) ? -(int64_t)mag : (int64_t)mag;
}

/* A random shift of the grid. */
static int oz_rand_sh(rng *r, const oz_case *c)
{
    return below(r, c->d + 1) * c->beta;
}

/* Terms that add up to the target T = (-1)^tneg (t1 2^k1 + s2 2^k2) (t1 < 2^63, s2 in {-1, 0,
 * 1}), T < 2^(d beta + 56): a few bounded noise terms, pairs that cancel, and T minus the noise
 * cut into beta-bit digits (now and then signed ones) with the top cut into pieces below 2^53. */
static void oz_target(rng *r, oz_case *c, int tneg, uint64_t t1, int k1, int s2, int k2)
{
    const int beta = c->beta, D = c->d * beta;
    int64_t wd[IW_WORDS];
    dfs_xacc Dx;
    dfs_x_init(&Dx, wd, IW_WORDS, 0);
    REQUIRE(dfs_x_add(&Dx, tneg, (dfs_u128)t1, k1));
    if (s2)
        REQUIRE(dfs_x_add(&Dx, tneg ^ (s2 < 0), 1, k2));
    for (int i = below(r, 9); i > 0; i--) { /* noise: sum below 2^(D + 50) */
        const int sh = oz_rand_sh(r, c);
        const int mb = D + 47 - sh < 53 ? D + 47 - sh : 53;
        const int64_t v = oz_rand_v(r, mb);
        oz_push(c, v, sh);
        acc_add_int(&Dx, -v, sh);
    }
    for (int i = below(r, 4); i > 0; i--) { /* pairs that cancel: at one shift, or across two */
        const int sh = oz_rand_sh(r, c);
        if (sh + beta <= D && below(r, 2)) {
            const int64_t v = oz_rand_v(r, 53 - beta);
            oz_push(c, v * ((int64_t)1 << beta), sh);
            oz_push(c, -v, sh + beta);
        } else {
            const int64_t v = oz_rand_v(r, 53);
            oz_push(c, v, sh);
            oz_push(c, -v, sh);
        }
    }
    uint64_t m[4];
    const int64_t sg = iw_mag(&Dx, m) ? -1 : 1;
    REQUIRE(mbits(m, D + 63, 64) == 0 && m[3] == 0);
    int64_t carry = 0;
    for (int t = 0; t < c->d; t++) {
        int64_t dg = (int64_t)mbits(m, t * beta, beta) + carry;
        carry = 0;
        if (dg == ((int64_t)1 << beta) || (dg != 0 && below(r, 2))) {
            dg -= (int64_t)1 << beta;
            carry = 1;
        }
        oz_push(c, sg * dg, t * beta);
    }
    uint64_t rest = mbits(m, D, 63) + (uint64_t)carry;
    while (rest) {
        const uint64_t piece =
            rest < (1ull << 53) ? rest : (1ull << 53) - 1 - (uint64_t)below(r, 1 << 30);
        oz_push(c, sg * (int64_t)piece, D);
        rest -= piece;
    }
}

/* Bits of the three words, 64 at a time, and the top bit, against mbits. */
static void oz_i192_bits_top(rng *r)
{
    for (int it = 0; it < 3000; it++) {
        uint64_t m[4] = {0, 0, 0, 0};
        for (int q = 0; q < 3; q++) {
            const int pick = below(r, 4);
            m[q] = pick == 0 ? 0 : pick == 1 ? 1ull << below(r, 64) : next64(r);
        }
        const int off = below(r, 200), n = below(r, 193);
        REQUIRE(dfs_oz_i192_bits(m, off) == mbits(m, off, 64));
        int want = -1;
        for (int b = n - 1; b >= 0 && want < 0; b--)
            if (mbits(m, b, 1))
                want = b;
        REQUIRE(dfs_oz_i192_top(m, n) == want);
    }
}

START_TEST(oz_i192_round)
{
    rng r = rng_seed(44);
    enum { CASES = 192000 };
    oz_i192_bits_top(&r);
    long n_kind[OZK_COUNT] = {0}, fast[OZK_COUNT] = {0}, zeros = 0, sub = 0, over = 0, ties = 0;
    long with_margin = 0, rich = 0, rich_inf = 0, mj = 0, mj_direct = 0, exact_n = 0, to_zero = 0;
    long cmp_eq = 0, cmp_gt = 0, only_i192 = 0, both_none = 0, terms_max = 0;
    int gt_max = 0;
    static const char *const emode_name[5] = {"uniform", "2^-970 edge", "overflow edge",
                                              "subnormal", "boundary"};
    long n_emode[5] = {0};
    char msg[400];
    oz_case c;
    for (int it = 0; it < CASES; it++) {
        c.kind = it % OZK_COUNT;
        c.beta = 13 + below(&r, 14);
        c.d = below(&r, DFS_OZ_I192_MAX_SHIFT / c.beta + 1);
        c.n = 0;
        const int D = c.d * c.beta;
        /* the target's description (OZK_MID, OZK_MIDJ): mid = (2M+1) 2^k, + s 2^j */
        uint64_t M = 0;
        int k = 0, j = 0, s = 0, tneg = (int)(next64(&r) & 1);
        switch (c.kind) {
        case OZK_RICH: /* random full-width terms: many low bits */
            for (int i = 1 + below(&r, 30); i > 0; i--) {
                const int64_t v = (int64_t)(next64(&r) >> (11 + below(&r, 4)));
                oz_push(&c, (next64(&r) & 1) ? -v : v, oz_rand_sh(&r, &c));
            }
            break;
        case OZK_MIXED:
            for (int i = 1 + below(&r, 30); i > 0; i--)
                oz_push(&c, oz_rand_v(&r, 53), oz_rand_sh(&r, &c));
            break;
        case OZK_GPU: /* pair (i, j) at shift (d - i - j) beta: t + 1 pairs at t, at most 30 */
            for (int t = 0; t <= c.d; t++)
                for (int i = 0; i <= t && c.n < 30; i++)
                    oz_push(&c, oz_rand_v(&r, 53), (c.d - t) * c.beta);
            break;
        case OZK_ZERO:
            oz_target(&r, &c, 0, 0, 0, 0, 0);
            break;
        case OZK_TINY:
            oz_target(&r, &c, tneg, 1 + (uint64_t)below(&r, below(&r, 2) ? 16 : 1 << 20),
                      below(&r, 4) ? 0 : below(&r, 30), 0, 0);
            break;
        case OZK_EXACT: { /* M 2^k, M of 1 .. 53 bits */
            const int bm = 1 + below(&r, 53);
            M = (next64(&r) >> (64 - bm)) | (1ull << (bm - 1));
            k = below(&r, D + 55 - bm);
            oz_target(&r, &c, tneg, M, k, 0, 0);
            break;
        }
        default: /* midpoints (2M+1) 2^k, M in [2^52, 2^53); and +- 2^j, j < k */
            M = (1ull << 52) | (next64(&r) >> 12);
            if (below(&r, 4) == 0)
                M = below(&r, 2) ? 1ull << 52 : (1ull << 53) - 1; /* a binade's ends */
            if (below(&r, 4) == 0)
                M &= ~1ull, M |= (uint64_t)below(&r, 2); /* either parity, evenly */
            if (c.kind == OZK_MID) {
                k = below(&r, D + 2);
                oz_target(&r, &c, tneg, 2 * M + 1, k, 0, 0);
            } else {
                k = 1 + below(&r, D + 1);
                const int pick = below(&r, 4);
                /* just under the midpoint's bit, two under, at the bottom, anywhere */
                j = pick == 0   ? k - 1
                    : pick == 1 ? (k >= 2 ? k - 2 : 0)
                    : pick == 2 ? 0
                                : below(&r, k);
                s = (next64(&r) & 1) ? -1 : 1;
                oz_target(&r, &c, tneg, 2 * M + 1, k, s, j);
            }
            break;
        }
        /* the order the GPU adds in is arbitrary */
        for (int i = c.n - 1; i > 0; i--) {
            const int q = below(&r, i + 1);
            const int64_t tv = c.v[i];
            const int ts = c.sh[i];
            c.v[i] = c.v[q], c.sh[i] = c.sh[q];
            c.v[q] = tv, c.sh[q] = ts;
        }
        terms_max = c.n > terms_max ? c.n : terms_max;
        n_kind[c.kind]++;

        /* the integer X exactly, in a window accumulator: its top bit p picks e0 */
        int64_t wx[IW_WORDS];
        dfs_xacc X;
        dfs_x_init(&X, wx, IW_WORDS, 0);
        for (int i = 0; i < c.n; i++)
            acc_add_int(&X, c.v[i], c.sh[i]);
        dfs_x_normalize(&X);
        /* dfs_oz_i192_add: X mod 2^192, and X fits (|X| < 2^190) */
        dfs_oz_i192 x = {{0, 0, 0}};
        for (int i = 0; i < c.n; i++)
            dfs_oz_i192_add(&x, c.v[i], c.sh[i]);
        for (int q = 0; q < 3; q++)
            OZREQ(&c, x.w[q] == ((uint64_t)wx[2 * q] | ((uint64_t)wx[2 * q + 1] << 32)));
        int p = -1;
        {
            int64_t wa[IW_WORDS];
            dfs_xacc A;
            acc_copy(&A, wa, &X);
            uint64_t m[4];
            iw_mag(&A, m);
            for (int b = 255; b >= 0 && p < 0; b--)
                if (mbits(m, b, 1))
                    p = b;
            OZREQ(&c, p < 190);
            if (c.kind == OZK_ZERO)
                OZREQ(&c, p < 0);
        }
        c.emode = below(&r, 10);
        c.emode = c.emode < 5 ? 0 : c.emode - 5;
        n_emode[c.emode]++;
        const int pp = p < 0 ? 0 : p;
        switch (c.emode) {
        case 0: c.e0 = below(&r, 1901) - 1000; break;
        case 1: c.e0 = -980 + below(&r, 21) - pp; break;
        case 2: c.e0 = 1012 + below(&r, 19) - pp; break;
        case 3: c.e0 = -1080 + below(&r, 120) - pp; break;
        default: {
            static const int edge[6] = {-971, -970, -969, 1021, 1022, 1023};
            c.e0 = edge[below(&r, 6)] - pp;
            break;
        }
        }
        const int e0 = c.e0;

        /* the value X 2^e0 in a full accumulator, rounded there */
        int64_t wv[DFS_X_WORDS], wc[DFS_X_WORDS];
        dfs_xacc V, C;
        full_init(&V, wv);
        for (int i = 0; i < c.n; i++)
            acc_add_int(&V, c.v[i], c.sh[i] + e0);
        acc_copy(&C, wc, &V);
        int mx = 12345;
        const double rx = dfs_x_round_margin(&C, 0, &mx);
        int lo, hi, etop = 0;
        acc_copy(&C, wc, &V);
        dfs_x_abs(&C);
        const int nonzero = dfs_x_span(&C, &lo, &hi);
        OZREQ(&c, nonzero == (p >= 0));
        if (nonzero) {
            etop = hi - 1; /* 2^etop <= |value| < 2^(etop + 1) */
            OZREQ(&c, etop == p + e0 && lo >= e0);
        }

        double rr = -1.0;
        int m = 12345;
        const int ok = dfs_oz_i192_round(&x, e0, &rr, &m);
        if (!nonzero) {
            /* an exact zero: +0, no margin */
            OZREQ(&c, ok == 1 && bits_of_d(rr) == 0 && m == DFS_X_NO_MARGIN &&
                          bits_of_d(rx) == 0);
            zeros++;
            fast[c.kind]++;
            continue;
        }
        /* the general path exactly when the value is at least 2^1023; results of fewer than 53
         * bits (|value| < 2^(-1022+52): subnormal, or normal with their last bit at 2^-1074)
         * rounded here too */
        const int out = etop >= 1023;
        if (!ok) {
            OZREQ(&c, out);
            over++;
            continue;
        }
        OZREQ(&c, !out);
        const int short_result = etop < -1022 + 52;
        sub += short_result;
        fast[c.kind]++;
        if (bits_of_d(rr) != bits_of_d(rx)) {
            snprintf(msg, sizeof msg,
                     "result %a (bits %016" PRIx64 "), dfs_x_round %a (bits %016" PRIx64 ")", rr,
                     bits_of_d(rr), rx, bits_of_d(rx));
            oz_fail(&c, __LINE__, msg);
        }
        if (m == DFS_X_NO_MARGIN && rr == 0) {
            /* a value that rounds to a zero: none (its sign would change with the value's) */
            OZREQ(&c, short_result);
            to_zero++;
        } else if (m == DFS_X_NO_MARGIN) {
            /* only for an exact midpoint: value -/+ 2^(e0-60) round apart */
            double rs[2];
            for (int neg = 0; neg < 2; neg++) {
                acc_copy(&C, wc, &V);
                add_pow2(&C, neg, e0 - 60);
                rs[neg] = dfs_x_round(&C, 0);
            }
            if (bits_of_d(rs[0]) == bits_of_d(rs[1]))
                oz_fail(&c, __LINE__, "no margin, but the value is no midpoint");
            ties++;
        } else {
            /* soundness: value +- 2^m round to r's bits */
            if (m < DFS_X_LSB + 64 || m > 1024) {
                snprintf(msg, sizeof msg, "margin %d out of range (result %a)", m, rr);
                oz_fail(&c, __LINE__, msg);
            }
            for (int neg = 0; neg < 2; neg++) {
                acc_copy(&C, wc, &V);
                add_pow2(&C, neg, m);
                const double got = dfs_x_round(&C, 0);
                if (bits_of_d(got) != bits_of_d(rr)) {
                    snprintf(msg, sizeof msg,
                             "margin %d unsound: value %c 2^%d rounds to %a, the value to %a "
                             "(xacc margin %d)",
                             m, neg ? '-' : '+', m, got, rr, mx);
                    oz_fail(&c, __LINE__, msg);
                }
            }
            with_margin++;
        }
        /* against dfs_x_round_margin (the top three digits only) */
        if (mx != DFS_X_NO_MARGIN) {
            if (m == DFS_X_NO_MARGIN || m < mx) {
                snprintf(msg, sizeof msg, "margin %d below dfs_x_round_margin's %d", m, mx);
                oz_fail(&c, __LINE__, msg);
            }
            cmp_eq += m == mx, cmp_gt += m > mx;
            gt_max = m - mx > gt_max ? m - mx : gt_max;
        } else if (m != DFS_X_NO_MARGIN) {
            only_i192++;
        } else {
            both_none++;
        }
        /* the kinds' own expectations (made for results of 53 bits) */
        switch (short_result ? -1 : c.kind) {
        case OZK_RICH:
            rich++;
            rich_inf += m != DFS_X_NO_MARGIN && m >= ilogb(rr) - 60;
            break;
        case OZK_EXACT: {
            /* r is the value; the true margin is at most L - 1 (L = etop - 52, r's last bit),
             * and the function gives L - 3 (the xacc rule) */
            const int L = etop - 52;
            if (!(m != DFS_X_NO_MARGIN && m <= L - 1 && m >= L - 3)) {
                snprintf(msg, sizeof msg, "exact value: margin %d, want L - 3 .. L - 1, L = %d", m,
                         L);
                oz_fail(&c, __LINE__, msg);
            }
            exact_n++;
            break;
        }
        case OZK_MID:
            OZREQ(&c, m == DFS_X_NO_MARGIN);
            break;
        case OZK_MIDJ: {
            /* mid = (2M+1) 2^k lies between M 2^(k+1) and (M+1) 2^(k+1) and rounds to the even
             * one; value = mid + s 2^j rounds to the upper one when s > 0.  The true margin is at
             * most j (2^(j+1) crosses mid) and at most j - 1 when mid rounds the other way; the
             * function sees every bit: j - 1 above mid, j - 2 below it */
            const int same = (s > 0) == (int)(M & 1);
            const int tm = e0 + j - (same ? 0 : 1);
            if (!(m != DFS_X_NO_MARGIN && m <= tm && m >= e0 + j - 2)) {
                snprintf(msg, sizeof msg,
                         "midpoint (2M+1) 2^%d %c 2^%d (M %" PRIu64 "): margin %d, true one at "
                         "most %d, want at least %d",
                         k, s > 0 ? '+' : '-', j, M, m, tm, e0 + j - 2);
                oz_fail(&c, __LINE__, msg);
            }
            mj++;
            mj_direct += m == e0 + j - (s > 0 ? 1 : 2);
            break;
        }
        default: break;
        }
    }
    /* not vacuous: random sums with many low bits nearly always get a close margin */
    if (rich_inf < rich * 9 / 10)
        ck_abort_msg("i192 margin too often absent or loose: %ld of %ld rich sums have margin >= "
                     "exponent - 60",
                     rich_inf, rich);
    REQUIRE(zeros > 1000 && sub > 1000 && over > 1000 && ties > 1000 && mj > 1000 &&
            exact_n > 1000);
    printf("oz: i192 round: %d cases (beta 13..26, d beta <= 128, up to %ld terms; kinds",
           CASES, terms_max);
    for (int kk = 0; kk < OZK_COUNT; kk++)
        printf(" %s %ld/%ld", ozk_name[kk], fast[kk], n_kind[kk]);
    printf(" fast/all; e0");
    for (int e = 0; e < 5; e++)
        printf(" %s %ld", emode_name[e], n_emode[e]);
    printf("): %ld exact zeros (+0, no margin), %ld results of fewer than 53 bits rounded, %ld "
           "overflow-range values to "
           "the general path, the rest bit-identical to dfs_x_round (%ld of them rounded to a zero); %ld margins sound, %ld "
           "exact midpoints without one; rich sums %ld of %ld with margin >= exponent - 60; "
           "%ld midpoint +- 2^j margins <= the true one (%ld exactly j-1 / j-2); vs "
           "dfs_x_round_margin: equal %ld, larger %ld (by up to %d), only i192 %ld, neither %ld\n",
           zeros, sub, over, to_zero, with_margin, ties, rich_inf, rich, mj, mj_direct, cmp_eq, cmp_gt,
           gt_max, only_i192, both_none);
    fflush(stdout);
}
END_TEST

void oz_i192_tests(TCase *t)
{
    tcase_add_test(t, oz_i192_round);
}
