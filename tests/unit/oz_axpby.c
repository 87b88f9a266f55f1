/* oz_axpby.c — test_oz's test of the finishes' register path for RN(alpha X 2^e0 + beta c)
 * (dfs_oz_w_axpby_regs, engines/oz/wint.h): every result it gives equals MPFR's correct rounding
 * of the exact value, every margin it gives is sound (the value moved by +-2^margin rounds the
 * same, in MPFR), no margin is smaller than the window path's (dfs_x_axpby_margin on a full
 * accumulator), exact zeros carry IEEE's sign, and it declines only where it says it does; and
 * the same for one part of a complex alpha S + beta c (dfs_oz_w_combine_regs), whose bits must
 * also be dfs_x_combine's. */
#include "ozfamily_test.h"

#include "../../engines/oz/tuning.h"
#include "../../engines/oz/wint.h"

#include <inttypes.h>

enum { AX_WORDS = 3 }; /* X as the narrow verifying finish has it (up to 24 moduli) */
enum { AXK_NEAR, AXK_FAR, AXK_CANCEL, AXK_TIE, AXK_ZERO, AXK_EDGE, AXK_COUNT };
static const char *const axk_name[AXK_COUNT] = {"near", "far", "cancel", "tie", "zero", "edge"};

typedef struct {
    int kind, e0;
    uint64_t x[AX_WORDS];
    double alpha, beta, c;
} ax_case;

static void ax_fail(const ax_case *k, int line, const char *msg)
{
    fprintf(stderr,
            "oz_axpby FAILED (line %d): %s\n  kind %s e0 %d X = 0x%016" PRIx64 "_%016" PRIx64
            "_%016" PRIx64 " alpha %a beta %a c %a\n",
            line, msg, axk_name[k->kind], k->e0, k->x[2], k->x[1], k->x[0], k->alpha, k->beta,
            k->c);
    fflush(stderr);
    ck_abort_msg("oz_axpby (line %d): %s [kind %s; the case on stderr]", line, msg,
                 axk_name[k->kind]);
}

#define AXREQ(k, x)                                                                                \
    do {                                                                                           \
        if (!(x))                                                                                  \
            ax_fail((k), __LINE__, "assertion '" #x "' failed");                                  \
    } while (0)

/* X = (-1)^neg times a random integer of exactly t bits (1 <= t <= 189; t = 0: X = 0), with
 * runs of ones and powers of two now and then (the carries). */
static void rand_x(rng *r, uint64_t x[AX_WORDS], int t)
{
    uint64_t m[AX_WORDS] = {0, 0, 0};
    if (t > 0) {
        const int shape = below(r, 4);
        for (int i = 0; i < AX_WORDS; i++)
            m[i] = shape == 0 ? 0 : shape == 1 ? ~0ull : next64(r);
        for (int b = t; b < 64 * AX_WORDS; b++) /* clear bits t and up */
            m[b >> 6] &= ~(1ull << (b & 63));
        m[(t - 1) >> 6] |= 1ull << ((t - 1) & 63);
    }
    const int neg = (int)(next64(r) & 1);
    uint64_t carry = 1;
    for (int i = 0; i < AX_WORDS; i++) {
        x[i] = neg ? ~m[i] + carry : m[i];
        carry = neg && carry && m[i] == 0;
    }
}

/* A random double of exponent about e (2^e <= |d| < 2^(e+1)), random sign; now and then a power
 * of two or an all-ones mantissa. */
static double rand_d(rng *r, int e)
{
    const int shape = below(r, 6);
    const uint64_t mant = shape == 0 ? 0 : shape == 1 ? (1ull << 52) - 1 : next64(r) >> 12;
    const double m = 1.0 + (double)mant * 0x1p-52;
    const double d = ldexp(m, e);
    return (next64(r) & 1) ? -d : d;
}

/* v := X 2^e0 exactly (v has PREC_R bits). */
static void x_to_mpfr(mpfr_t v, const uint64_t x[AX_WORDS], int e0)
{
    uint64_t m[AX_WORDS];
    const int neg = dfs_oz_w_abs(x, AX_WORDS, m);
    mpfr_set_ui(v, 0, MPFR_RNDN);
    for (int i = AX_WORDS - 1; i >= 0; i--) {
        mpfr_mul_2ui(v, v, 64, MPFR_RNDN);
        mpfr_add_d(v, v, (double)(m[i] >> 32) * 0x1p32, MPFR_RNDN);
        mpfr_add_d(v, v, (double)(m[i] & 0xffffffffu), MPFR_RNDN);
    }
    mpfr_mul_2si(v, v, e0, MPFR_RNDN);
    if (neg)
        mpfr_neg(v, v, MPFR_RNDN);
}

/* RN to binary64 of v, subnormals included. */
static double rn_d(const mpfr_t v)
{
    return round_binary64(v);
}

/* Whether v -+ 2^margin both round to got (what a margin promises), in MPFR. */
static int margin_sound(const mpfr_t v, int margin, double got)
{
    mpfr_t e, lo, hi;
    mpfr_inits2(PREC_R, e, lo, hi, (mpfr_ptr)0);
    mpfr_set_ui_2exp(e, 1, margin, MPFR_RNDN);
    mpfr_sub(lo, v, e, MPFR_RNDN);
    mpfr_add(hi, v, e, MPFR_RNDN);
    const int ok = same_bits(rn_d(lo), got) && same_bits(rn_d(hi), got);
    mpfr_clears(e, lo, hi, (mpfr_ptr)0);
    return ok;
}

/* Not vacuous, and the register path the one usually taken: fails unless every kind took it in
 * more than a tenth of its cases; prints the line's head and "taken/all" per kind. */
static void kinds_taken(const char *head, int cases, const char *const *names, const long *taken,
                        const long *all, int n)
{
    for (int i = 0; i < n; i++)
        REQUIRE(taken[i] > all[i] / 10);
    printf("%s: %d cases (taken/all:", head, cases);
    for (int i = 0; i < n; i++)
        printf(" %s %ld/%ld", names[i], taken[i], all[i]);
}

/* The window path on a full accumulator: RN and its margin (dfs_x_axpby_margin). */
static double window_path(const ax_case *k, int *margin)
{
    static int64_t w[DFS_X_WORDS], scratch[DFS_X_WORDS];
    dfs_xacc a;
    full_init(&a, w);
    uint64_t m[AX_WORDS];
    const int neg = dfs_oz_w_abs(k->x, AX_WORDS, m);
    for (int i = 0; i < AX_WORDS; i++)
        if (m[i])
            REQUIRE(dfs_x_add(&a, neg, (dfs_u128)m[i], k->e0 + 64 * i));
    double v = 0;
    REQUIRE(dfs_x_axpby_margin(&a, 0u, k->alpha, k->beta, k->c, scratch, DFS_X_WORDS, &v, margin));
    return v;
}

/* A case of the kind: alpha X 2^e0 of exponent about s, beta c placed by the kind. */
static void make_case(rng *r, ax_case *k, int kind)
{
    k->kind = kind;
    const int t = kind == AXK_ZERO ? 0 : 1 + below(r, 189);
    rand_x(r, k->x, t);
    const int ea = below(r, 4) == 0 ? 0 : below(r, 41) - 20;
    k->alpha = below(r, 3) == 0 ? ((next64(r) & 1) ? -1.0 : 1.0) : rand_d(r, ea);
    int s = below(r, 1600) - 800; /* the exponent of alpha X 2^e0 */
    if (kind == AXK_EDGE) /* results near the subnormal and the overflow ranges */
        s = below(r, 2) ? -1022 + below(r, 120) - 60 : 1023 - below(r, 60);
    k->e0 = s - ea - (t > 0 ? t - 1 : 0);
    const int eb = below(r, 3) == 0 ? 0 : below(r, 21) - 10;
    k->beta = below(r, 6) == 0 ? 0.0 : below(r, 3) == 0 ? ((next64(r) & 1) ? -1.0 : 1.0) : rand_d(r, eb);
    int ec = s - eb + below(r, 81) - 40; /* near: within 2^+-40 */
    if (kind == AXK_FAR)
        ec = s - eb + (below(r, 2) ? 1 : -1) * (41 + below(r, 400));
    k->c = below(r, 12) == 0 ? (below(r, 2) ? 0.0 : -0.0) : rand_d(r, ec);
    if (kind == AXK_CANCEL || kind == AXK_TIE) {
        /* beta c = -RN(alpha X 2^e0) (cancel), or 1/2 ulp of alpha X 2^e0 away from it (tie):
         * beta a power of two, so that c is exact */
        k->beta = ldexp((next64(r) & 1) ? -1.0 : 1.0, below(r, 9) - 4);
        mpfr_t v;
        mpfr_init2(v, PREC_R);
        x_to_mpfr(v, k->x, k->e0);
        mpfr_mul_d(v, v, k->alpha, MPFR_RNDN);
        double a = rn_d(v);
        if (kind == AXK_TIE && t > 0) { /* X 2^e0 alpha = a + (1/2 ulp or so): make X small */
            const int j = below(r, 60);
            k->x[0] = (1ull << j) + (below(r, 2) ? 0 : (uint64_t)below(r, 3) - 1);
            k->x[1] = k->x[2] = 0;
            k->alpha = (next64(r) & 1) ? -1.0 : 1.0;
            a = rand_d(r, below(r, 200) - 100);
            int ex;
            frexp(a, &ex); /* ulp(a) = 2^(ex - 53) */
            k->e0 = ex - 54 - j;
        }
        k->c = ldexp(-a, 0) / k->beta;
        if (kind == AXK_TIE)
            k->c = a / k->beta;
        mpfr_clear(v);
    }
}

START_TEST(oz_axpby_regs)
{
    rng r = rng_seed(61);
    enum { CASES = 300000 };
    long n_kind[AXK_COUNT] = {0}, taken[AXK_COUNT] = {0}, margins = 0, wider = 0, zeros = 0;
    long declined_near = 0, near_normal = 0, sub = 0, sub_taken = 0;
    mpfr_t v, cv;
    mpfr_inits2(PREC_R, v, cv, (mpfr_ptr)0);
    ax_case k;
    for (int it = 0; it < CASES; it++) {
        make_case(&r, &k, it % AXK_COUNT);
        n_kind[k.kind]++;
        /* the exact value */
        x_to_mpfr(v, k.x, k.e0);
        mpfr_mul_d(v, v, k.alpha, MPFR_RNDN);
        if (k.beta != 0) {
            mpfr_set_d(cv, k.c, MPFR_RNDN);
            mpfr_mul_d(cv, cv, k.beta, MPFR_RNDN);
            mpfr_add(v, v, cv, MPFR_RNDN);
        }
        double got = 0;
        int margin = 0;
        const int ok = dfs_oz_w_axpby_regs(k.x, AX_WORDS, k.e0, k.alpha, k.beta, k.c, &got, &margin);
        /* below 2^1023 (subnormal results included): what it must take when the terms fit */
        const int normal = mpfr_zero_p(v) || (mpfr_regular_p(v) && mpfr_get_exp(v) - 1 <= 1022);
        const int subn = mpfr_regular_p(v) && mpfr_get_exp(v) - 1 < -1022;
        sub += subn;
        if (k.kind == AXK_NEAR && normal) {
            near_normal++;
            declined_near += !ok;
        }
        if (!ok) {
            continue;
        }
        taken[k.kind]++;
        if (mpfr_zero_p(v)) { /* +0, or -0 only for alpha < 0 times X = 0 with beta c = -0 */
            zeros++;
            const int xzero = !(k.x[0] | k.x[1] | k.x[2]);
            const int negz = xzero && k.alpha < 0 && k.beta != 0 && k.c == 0 &&
                             (signbit(k.beta) != 0) != (signbit(k.c) != 0);
            AXREQ(&k, same_bits(got, negz ? -0.0 : 0.0));
            AXREQ(&k, margin == DFS_X_NO_MARGIN);
            continue;
        }
        AXREQ(&k, normal); /* it declines near-overflow results */
        sub_taken += subn;
        AXREQ(&k, same_bits(got, rn_d(v)));
        int wm = 0;
        AXREQ(&k, same_bits(window_path(&k, &wm), got));
        if (margin != DFS_X_NO_MARGIN) {
            margins++;
            AXREQ(&k, margin_sound(v, margin, got));
        }
        if (wm != DFS_X_NO_MARGIN) { /* never narrower than the window path's */
            AXREQ(&k, margin != DFS_X_NO_MARGIN && margin >= wm);
            wider += margin > wm;
        }
    }
    mpfr_clears(v, cv, (mpfr_ptr)0);
    REQUIRE(declined_near == 0 && near_normal > CASES / 10);
    REQUIRE(margins > CASES / 2 && zeros > 1000 && sub_taken > 1000);
    REQUIRE(sub_taken * 10 > sub * 9); /* the rest: beta c far from it */
    kinds_taken("oz: axpby in registers", CASES, axk_name, taken, n_kind, AXK_COUNT);
    printf("), each = MPFR's RN and the window path's; %ld margins sound in MPFR (%ld wider than "
           "the window path's); %ld exact zeros with IEEE's sign; %ld of %ld subnormal results taken; "
           "all %ld results below 2^1023 with beta c within 2^+-40 of alpha S taken\n",
           margins, wider, zeros, sub_taken, sub, near_normal);
    fflush(stdout);
}
END_TEST

/* ---- the complex part: RN(a1 X1 2^e0 + a2 X2 2^e0 + b1 y1 + b2 y2) (dfs_oz_w_combine_regs) */

/* A full accumulator holding X 2^e0. */
static void x_to_acc(dfs_xacc *a, int64_t *w, const uint64_t x[AX_WORDS], int e0)
{
    full_init(a, w);
    uint64_t m[AX_WORDS];
    const int neg = dfs_oz_w_abs(x, AX_WORDS, m);
    for (int i = 0; i < AX_WORDS; i++)
        if (m[i])
            REQUIRE(dfs_x_add(a, neg, (dfs_u128)m[i], e0 + 64 * i));
}

/* v += a X 2^e0, v += b y: exactly (t: scratch). */
static void add_x_term(mpfr_t v, mpfr_t t, const uint64_t x[AX_WORDS], int e0, double a)
{
    x_to_mpfr(t, x, e0);
    mpfr_mul_d(t, t, a, MPFR_RNDN);
    mpfr_add(v, v, t, MPFR_RNDN);
}
static void add_d_term(mpfr_t v, mpfr_t t, double b, double y)
{
    mpfr_set_d(t, b, MPFR_RNDN);
    mpfr_mul_d(t, t, y, MPFR_RNDN);
    mpfr_add(v, v, t, MPFR_RNDN);
}

/* A value that rounds to zero (|X 2^e0| below 2^-1075): dfs_oz_w_round gives the zero of its
 * sign, and its margin (below 2^-1076) is sound in MPFR; near 2^-1075, none. */
START_TEST(oz_round_to_zero)
{
    rng r = rng_seed(83);
    mpfr_t v, t75, t76; /* 2^-1075, 2^-1076 */
    mpfr_inits2(PREC_R, v, t75, t76, (mpfr_ptr)0);
    mpfr_set_ui_2exp(t75, 1, -1075, MPFR_RNDN);
    mpfr_set_ui_2exp(t76, 1, -1076, MPFR_RNDN);
    long given = 0, none = 0, ties = 0;
    for (int it = 0; it < 100000; it++) {
        uint64_t x[AX_WORDS] = {0};
        const int bits = 1 + (int)below(&r, 120); /* X's magnitude below 2^bits */
        for (int i = 0; i < AX_WORDS && 64 * i < bits; i++)
            x[i] = 64 * (i + 1) <= bits ? next64(&r) : next64(&r) >> (64 * (i + 1) - bits);
        if (!(x[0] | x[1]))
            x[0] = 1;
        if (next64(&r) & 1) { /* negative: two's complement */
            int carry = 1;
            for (int i = 0; i < AX_WORDS; i++) {
                x[i] = ~x[i] + (uint64_t)carry;
                carry = carry && x[i] == 0;
            }
        }
        const int top = -1076 - (int)below(&r, 90) + (it % 8 == 0); /* now and then near 2^-1075 */
        const int e0 = top - bits;
        x_to_mpfr(v, x, e0);
        if (!(mpfr_cmpabs(v, t75) < 0))
            continue;
        double got;
        int margin;
        REQUIRE(dfs_oz_w_round(x, AX_WORDS, e0, &got, &margin));
        REQUIRE(same_bits(got, rn_d(v)) && got == 0);
        if (margin == DFS_X_NO_MARGIN) {
            none++;
            ties += mpfr_cmpabs(v, t76) >= 0;
            continue;
        }
        given++;
        REQUIRE(margin_sound(v, margin, got));
    }
    mpfr_clears(v, t75, t76, (mpfr_ptr)0);
    REQUIRE(given > 50000 && none > 30 && ties == none); /* none only from 2^-1076 on */
    printf("oz: values that round to zero: %ld margins sound in MPFR, %ld from 2^-1076 on without\n",
           given, none);
    fflush(stdout);
}
END_TEST

START_TEST(oz_combine_regs)
{
    rng r = rng_seed(62);
    enum { CASES = 200000 };
    enum { CK_NEAR, CK_FAR, CK_CANCEL, CK_ZERO, CK_EDGE, CK_COUNT };
    static const char *const names[CK_COUNT] = {"near", "far", "cancel", "zero", "edge"};
    long n_kind[CK_COUNT] = {0}, taken[CK_COUNT] = {0}, margins = 0, zeros = 0, negz = 0;
    long near_ok = 0, near_declined = 0;
    static int64_t w1[DFS_X_WORDS], w2[DFS_X_WORDS], scratch[DFS_X_WORDS];
    mpfr_t v, t;
    mpfr_inits2(PREC_R, v, t, (mpfr_ptr)0);
    for (int it = 0; it < CASES; it++) {
        const int kind = it % CK_COUNT;
        ax_case k; /* for ax_fail's report: X1, alpha = a1, beta = b1, c = y1 */
        memset(&k, 0, sizeof k);
        k.kind = AXK_NEAR;
        uint64_t x1[AX_WORDS], x2[AX_WORDS];
        const int t1 = kind == CK_ZERO && below(&r, 2) ? 0 : 1 + below(&r, 189);
        const int t2 = kind == CK_ZERO ? 0 : below(&r, 8) == 0 ? 0 : 1 + below(&r, 189);
        rand_x(&r, x1, t1);
        rand_x(&r, x2, t2);
        const double sc[] = {1.0, -1.0, 0.0, -0.0};
        const double a1 = below(&r, 4) == 0 ? sc[below(&r, 4)] : rand_d(&r, below(&r, 41) - 20);
        const double a2 = below(&r, 4) == 0 ? sc[below(&r, 4)] : rand_d(&r, below(&r, 41) - 20);
        int s = below(&r, 1600) - 800; /* the exponent of the a X terms */
        if (kind == CK_EDGE)
            s = below(&r, 2) ? -1022 + below(&r, 120) - 60 : 1023 - below(&r, 60);
        const int tm = t1 > t2 ? t1 : t2;
        const int e0 = s - (tm > 0 ? tm - 1 : 0);
        const int with_c = below(&r, 4) != 0;
        double b1 = below(&r, 4) == 0 ? sc[below(&r, 4)] : rand_d(&r, below(&r, 21) - 10);
        double b2 = below(&r, 4) == 0 ? sc[below(&r, 4)] : rand_d(&r, below(&r, 21) - 10);
        const int off = kind == CK_FAR ? (below(&r, 2) ? 1 : -1) * (41 + below(&r, 400))
                                       : below(&r, 81) - 40;
        double y1 = below(&r, 10) == 0 ? sc[2 + below(&r, 2)] : rand_d(&r, s + off);
        double y2 = below(&r, 10) == 0 ? sc[2 + below(&r, 2)] : rand_d(&r, s + below(&r, 81) - 40);
        /* the exact a terms */
        mpfr_set_zero(v, +1);
        add_x_term(v, t, x1, e0, a1);
        add_x_term(v, t, x2, e0, a2);
        if (kind == CK_CANCEL && with_c) { /* b1 y1 = -RN(the a terms) (+ a little) */
            b1 = ldexp((next64(&r) & 1) ? -1.0 : 1.0, below(&r, 9) - 4);
            y1 = -round_binary64(v) / b1;
            if (!isfinite(y1))
                y1 = 0.0;
            b2 = below(&r, 2) ? 0.0 : b2;
        }
        if (with_c) {
            add_d_term(v, t, b1, y1);
            add_d_term(v, t, b2, y2);
        }
        memcpy(k.x, x1, sizeof x1);
        k.e0 = e0, k.alpha = a1, k.beta = b1, k.c = y1;
        n_kind[kind]++;
        double got = 0;
        int margin = 0;
        const int ok = dfs_oz_w_combine_regs(x1, x2, AX_WORDS, e0, a1, a2, with_c, b1, y1, b2, y2,
                                             &got, &margin);
        const int below_top = mpfr_zero_p(v) || (mpfr_regular_p(v) && mpfr_get_exp(v) - 1 <= 1022);
        if (kind == CK_NEAR && below_top) {
            near_ok += ok;
            near_declined += !ok;
        }
        if (!ok)
            continue;
        taken[kind]++;
        AXREQ(&k, below_top);
        /* the generic path on full accumulators gives the same bits */
        dfs_xacc s1, s2;
        x_to_acc(&s1, w1, x1, e0);
        x_to_acc(&s2, w2, x2, e0);
        dfs_x_term terms[4] = {{a1, &s1, 0, 0.0}, {a2, &s2, 0, 0.0}, {b1, NULL, 0, y1},
                               {b2, NULL, 0, y2}};
        double gen = 0;
        REQUIRE(dfs_x_combine(terms, with_c ? 4 : 2, scratch, DFS_X_WORDS, &gen));
        AXREQ(&k, same_bits(got, gen));
        if (mpfr_zero_p(v)) {
            zeros++;
            negz += signbit(got) != 0;
            AXREQ(&k, margin == DFS_X_NO_MARGIN);
            continue;
        }
        AXREQ(&k, same_bits(got, round_binary64(v)));
        if (margin != DFS_X_NO_MARGIN) {
            margins++;
            AXREQ(&k, margin_sound(v, margin, got));
        }
    }
    mpfr_clears(v, t, (mpfr_ptr)0);
    REQUIRE(near_declined == 0 && near_ok > CASES / 10);
    REQUIRE(margins > CASES / 3 && zeros > 1000 && negz > 100);
    kinds_taken("oz: complex part in registers", CASES, names, taken, n_kind, CK_COUNT);
    printf("), each = MPFR's RN and dfs_x_combine's bits; %ld margins sound in MPFR; %ld exact "
           "zeros (%ld of them -0, as dfs_x_combine); all %ld results below 2^1023 with the c terms "
           "within 2^+-40 taken\n",
           margins, zeros, negz, near_ok);
    fflush(stdout);
}
END_TEST


/* A thread's expansion of T terms rounded in registers (dfs_oz_w_terms_axpby, repro's small
 * DGEMMs): every result equals MPFR's RN(alpha sum t + beta c) and dfs_x_axpby's bits (the
 * direct path's, on an exact accumulator; the README's signs of zero included); it declines only
 * where the terms span more than its words, or the result is near overflow.  T = 4, and the
 * small kernel's DFS_OZ_SMALL_TERMS. */
enum { TERMS_MAX = 8 };
static void terms_axpby_cases(int T, uint64_t seed)
{
    rng r = rng_seed(seed);
    enum { CASES = 200000 };
    /* an expansion's terms about 53 bits apart, fewer when more of them must fit the words */
    const int step = T <= 4 ? 53 : 200 / (T - 1);
    enum { TK_NEAR, TK_SPREAD, TK_CANCEL, TK_ZERO, TK_TINY, TK_COUNT };
    static const char *const names[TK_COUNT] = {"near", "spread", "cancel", "zero", "tiny"};
    long n_kind[TK_COUNT] = {0}, taken[TK_COUNT] = {0}, zeros = 0, negz = 0, declined_wide = 0;
    static int64_t w[DFS_X_WORDS], scratch[DFS_X_WORDS];
    mpfr_t v, t;
    mpfr_inits2(PREC_R, v, t, (mpfr_ptr)0);
    for (int it = 0; it < CASES; it++) {
        const int kind = it % TK_COUNT;
        double x[TERMS_MAX] = {0};
        int e = below(&r, 1800) - 900;
        if (kind == TK_TINY)
            e = -1074 + below(&r, 120);
        for (int i = 0; i < T; i++) {
            /* an expansion's shape: each term about step bits below the one before, or (spread)
             * anywhere within 300 bits */
            const int ei = kind == TK_SPREAD ? e - below(&r, 300) : e - step * i - below(&r, 12);
            x[i] = ei >= -1074 && below(&r, 8) ? rand_d(&r, ei) : 0.0;
        }
        if (kind == TK_CANCEL) /* the top terms cancel but for a little */
            x[1] = -x[0] + (below(&r, 2) ? ldexp(1.0, e - below(&r, 40)) : 0.0);
        if (kind == TK_ZERO)
            for (int i = 0; i < T; i++)
                x[i] = below(&r, 3) ? 0.0 : x[i];
        const double sc[] = {1.0, -1.0, 0.0, -0.0};
        const int plain = below(&r, 3) == 0;
        const double alpha = plain ? 1.0 : below(&r, 6) == 0 ? sc[below(&r, 2)]
                                                            : rand_d(&r, below(&r, 41) - 20);
        const double beta = plain ? 0.0 : below(&r, 4) == 0 ? sc[below(&r, 4)]
                                                           : rand_d(&r, below(&r, 21) - 10);
        const double c = below(&r, 8) == 0 ? sc[2 + below(&r, 2)]
                                           : rand_d(&r, e + below(&r, 161) - 80 > -1074
                                                            ? e + below(&r, 161) - 80 : -1074);
        /* the exact value */
        mpfr_set_zero(v, +1);
        for (int i = 0; i < T; i++)
            mpfr_add_d(v, v, x[i], MPFR_RNDN);
        mpfr_mul_d(v, v, alpha, MPFR_RNDN);
        if (beta != 0) {
            mpfr_set_d(t, beta, MPFR_RNDN);
            mpfr_mul_d(t, t, c, MPFR_RNDN);
            mpfr_add(v, v, t, MPFR_RNDN);
        }
        n_kind[kind]++;
        double got = 0;
        const int ok = dfs_oz_w_terms_axpby(x, T, alpha, beta, c, &got);
        /* the span it may decline for */
        int lsb = 1 << 20, top = -(1 << 20);
        for (int i = 0; i < T; i++)
            if (x[i] != 0) {
                uint64_t m;
                int ex;
                dfs_d_split(x[i], &m, &ex);
                lsb = ex + dfs_ctz64(m) < lsb ? ex + dfs_ctz64(m) : lsb;
                top = ex + 64 - dfs_clz64(m) > top ? ex + 64 - dfs_clz64(m) : top;
            }
        const int wide = top - lsb > 64 * DFS_OZ_TW - 4;
        const int below_top = mpfr_zero_p(v) || (mpfr_regular_p(v) && mpfr_get_exp(v) - 1 <= 1020);
        /* alpha S and beta c each fit dfs_oz_w_axpby_regs's words when within 2^+-80 of the
         * terms: then only a wide span or a huge value may decline */
        if (!ok) {
            declined_wide += wide;
            REQUIRE(wide || !below_top || kind == TK_TINY || (beta != 0 && c != 0));
            continue;
        }
        taken[kind]++;
        REQUIRE(!wide);
        dfs_xacc acc;
        full_init(&acc, w);
        for (int i = 0; i < T; i++)
            if (x[i] != 0) {
                uint64_t m;
                int ex;
                const int neg = dfs_d_split(x[i], &m, &ex);
                REQUIRE(dfs_x_add(&acc, neg, (dfs_u128)m, ex));
            }
        double gen = 0; /* what the direct path's finish gives (dfs_x_axpby) */
        REQUIRE(dfs_x_axpby(&acc, 0u, alpha, beta, c, scratch, DFS_X_WORDS, &gen));
        if (!same_bits(got, gen))
            fprintf(stderr, "oz_terms_axpby: T %d kind %s terms %a %a %a %a ... alpha %a beta %a "
                    "c %a: %a, dfs_x_axpby %a\n", T, names[kind], x[0], x[1], x[2], x[3], alpha,
                    beta, c, got, gen);
        REQUIRE(same_bits(got, gen));
        if (mpfr_zero_p(v)) {
            zeros++;
            negz += signbit(got) != 0;
            continue;
        }
        REQUIRE(same_bits(got, round_binary64(v)));
    }
    mpfr_clears(v, t, (mpfr_ptr)0);
    REQUIRE(zeros > 1000 && negz > 100 && declined_wide > 100);
    char head[64];
    snprintf(head, sizeof head, "oz: expansions of %d terms in registers", T);
    kinds_taken(head, CASES, names, taken, n_kind, TK_COUNT);
    printf("), each = MPFR's RN and dfs_x_axpby's bits; %ld exact zeros (%ld -0); %ld declined "
           "for a span beyond %d bits\n",
           zeros, negz, declined_wide, 64 * DFS_OZ_TW - 4);
    fflush(stdout);
}

START_TEST(oz_terms_axpby)
{
    terms_axpby_cases(4, 63);
    _Static_assert(DFS_OZ_SMALL_TERMS <= TERMS_MAX, "the kernel's terms");
    terms_axpby_cases(DFS_OZ_SMALL_TERMS, 64);
}
END_TEST

void oz_axpby_tests(TCase *t)
{
    tcase_add_test(t, oz_axpby_regs);
    tcase_add_test(t, oz_round_to_zero);
    tcase_add_test(t, oz_combine_regs);
    tcase_add_test(t, oz_terms_axpby);
}
