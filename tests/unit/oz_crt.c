/* oz_crt.c — test_oz's tests of the Ozaki scheme II arithmetic (engines/oz/crt.h, shared by
 * the int8 engine and repro's integer products) and of its correctly rounded CPU DGEMM
 * (engines/oz/host_crt.c, verifying: fast = 0): the moduli and their bit count, scaling and
 * residues (limb and byte forms), the exact product recovered from int8 residues against an
 * exact accumulator, the rows' sum-of-squares bound against MPFR, and every DGEMM output equal
 * to dfs_oz_gemm_host's (itself checked against MPFR).  The fast mode, the int8 engine's CPU
 * twin: int8_crt_fast.c. */
#include "ozfamily_test.h"

#include "../../engines/oz/crt.h"
#include "../../engines/oz/feedback.h"
#include "../../engines/oz/host_common.h"
#include "../common/gen.h"

START_TEST(crt_moduli)
{
    double s = 0;
    for (int n = 1; n <= DFS_CRT_MODULI; n++) {
        const int m = dfs_crt_modulus(n - 1);
        ck_assert(m >= 2 && m <= 256);
        for (int j = 0; j < n - 1; j++) { /* pairwise coprime */
            int a = m, b = dfs_crt_modulus(j);
            while (b) {
                const int t = a % b;
                a = b;
                b = t;
            }
            ck_assert_int_eq(a, 1);
        }
        s += log2((double)m);
        ck_assert_int_le(dfs_crt_log2_1024(n - 1), (int)(1024 * log2((double)m)));
        ck_assert_int_ge(dfs_crt_log2_1024(n - 1), (int)(1024 * log2((double)m)) - 1);
        ck_assert_int_le(dfs_crt_bits(n), (int)s);     /* from below */
        ck_assert_int_ge(dfs_crt_bits(n), (int)s - 1); /* and not far */
        if (n > 1) {
            const int inv = dfs_crt_inverse(dfs_crt_modulus(0) % m, m);
            ck_assert_int_eq((int)((int64_t)inv * (dfs_crt_modulus(0) % m) % m), 1);
        }
    }
    ck_assert_int_lt(dfs_crt_bits(DFS_CRT_FAST_MODULI), 190); /* int8: three words */
    ck_assert_int_lt(dfs_crt_bits(DFS_CRT_MODULI), 32 * (DFS_CRT_LIMBS - 1) - 1);
    /* M > 2^L (1 + 2^-6) exactly (the room dfs_crt_reconstruct's quotient needs with |X| <=
     * 2^(L-1)): 64 M > 65 2^L, in 32-bit limbs */
    for (int n = 1; n <= DFS_CRT_MODULI; n++) {
        uint64_t M[10] = {1}, P[10] = {0};
        for (int l = 0; l < n; l++) {
            uint64_t carry = 0;
            for (int w = 0; w < 10; w++) {
                const uint64_t t = M[w] * (uint64_t)dfs_crt_modulus(l) + carry;
                M[w] = t & 0xffffffffu;
                carry = t >> 32;
            }
        }
        const int L = dfs_crt_bits(n);
        P[L / 32] = (uint64_t)65 << (L % 32); /* 65 2^L, not normalised */
        uint64_t carry = 0;
        for (int w = 0; w < 10; w++) {
            const uint64_t t = P[w] + carry;
            P[w] = t & 0xffffffffu;
            carry = t >> 32;
        }
        carry = 0;
        for (int w = 0; w < 10; w++) { /* 64 M */
            const uint64_t t = (M[w] << 6) + carry;
            M[w] = t & 0xffffffffu;
            carry = t >> 32;
        }
        int w = 9;
        while (w > 0 && M[w] == P[w])
            w--;
        ck_assert_msg(M[w] > P[w], "%d moduli: M is not above 2^%d (1 + 2^-6)", n, L);
    }
    ck_assert_int_eq(dfs_crt_count(130, 1 << 16), 0); /* 278 bits: beyond the moduli */
    /* the bits n moduli carry: the most that dfs_crt_count still gives n (or fewer) for */
    static const int64_t ks[] = {1, 2, 300, 1 << 16, (1 << 17) - 1};
    for (int n = 1; n <= DFS_CRT_MODULI; n++)
        for (int i = 0; i < 5; i++) {
            const int b = dfs_crt_scale_bits(n, ks[i]);
            if (b == 0) {
                ck_assert(dfs_crt_count(1, ks[i]) > n);
                continue;
            }
            const int c = dfs_crt_count(b, ks[i]);
            ck_assert(c >= 1 && c <= n);
            /* every row gets at least these bits, the fullest row (sum of squares k) too, and a
             * row of one element more */
            const int L = dfs_crt_bits(n);
            ck_assert_int_eq(dfs_crt_row_bits(L, (double)ks[i], ks[i]), b);
            ck_assert_int_ge(dfs_crt_row_bits(L, (double)ks[i] * 0.999, ks[i]), b);
            ck_assert_int_ge(dfs_crt_row_bits(L, 0.5, ks[i]), b);
            if (ks[i] >= 16 && b < DFS_CRT_MAX_BITS - 1)
                ck_assert_int_gt(dfs_crt_row_bits(L, 0.5, ks[i]), b);
            if (b < DFS_CRT_MAX_BITS)
                ck_assert(dfs_crt_count(b + 1, ks[i]) > n || dfs_crt_count(b + 1, ks[i]) == 0);
        }
}
END_TEST

/* x += (-1)^neg a b exactly (a, b < 2^128), four 64 x 64-bit partial products. */
static void add_product(dfs_xacc *x, int neg, dfs_u128 a, dfs_u128 b)
{
    const uint64_t ah = (uint64_t)(a >> 64), al = (uint64_t)a, bh = (uint64_t)(b >> 64),
                   bl = (uint64_t)b;
    ck_assert(dfs_x_add(x, neg, (dfs_u128)al * bl, 0));
    ck_assert(dfs_x_add(x, neg, (dfs_u128)al * bh, 64));
    ck_assert(dfs_x_add(x, neg, (dfs_u128)ah * bl, 64));
    ck_assert(dfs_x_add(x, neg, (dfs_u128)ah * bh, 128));
}

START_TEST(crt_exact_products)
{
    rng r = rng_seed(91);
    int cases = 0;
    for (int it = 0; it < 400; it++) {
        const int64_t k = 1 + below(&r, it % 4 ? 64 : 3000);
        /* 2b + log2 k + 2 <= 264 (up to 36 moduli), b <= 125; the three-word reconstruction up
         * to 24 moduli, the five-word one above (and, for the counts both take, both) */
        int b = 1 + below(&r, (it % 3 ? 182 : 262 - dfs_oz_ceil_log2(k)) / 2);
        b = b > DFS_CRT_MAX_BITS ? DFS_CRT_MAX_BITS : b;
        const int n = dfs_crt_count(b, k);
        ck_assert_int_gt(n, 0);
        dfs_crt_table tab;
        dfs_crt_table_init(&tab, n);
        int32_t res[DFS_CRT_MODULI] = {0}; /* k <= 3000 products below 2^14: int32 */
        int64_t w[DFS_X_WORDS];
        dfs_xacc exact;
        dfs_x_init(&exact, w, DFS_X_WORDS, DFS_X_LSB);
        for (int64_t q = 0; q < k; q++) {
            dfs_u128 ma = 0, mb = 0;
            for (int h = 0; h < 2; h++) {
                ma = (ma << 64) | next64(&r);
                mb = (mb << 64) | next64(&r);
            }
            /* below 2^b, sometimes all ones or tiny */
            const dfs_u128 mask = (((dfs_u128)1) << b) - 1;
            ma &= mask;
            mb &= mask;
            if (below(&r, 8) == 0)
                ma = mask;
            if (below(&r, 8) == 0)
                mb = below(&r, 3);
            const int na = below(&r, 2), nb = below(&r, 2);
            for (int l = 0; l < n; l++) {
                const int m = dfs_crt_modulus(l);
                /* op(A)'s residue carries y_l (dfs_crt_coefs) */
                int ra = dfs_crt_residue(na, ma, m) * tab.y[l] % m;
                ra = ra > (m - 1) / 2 ? ra - m : ra < -(m / 2) ? ra + m : ra;
                const int rb = dfs_crt_residue(nb, mb, m);
                ck_assert(ra >= -128 && ra <= 127 && rb >= -128 && rb <= 127);
                res[l] += ra * rb;
            }
            add_product(&exact, na ^ nb, ma, mb);
        }
        /* int32 sums anywhere in +-(2^31 - 2^14) (k < 2^17 products of at most 2^14): the
         * same residues, so the same X */
        if (it % 2) {
            for (int l = 0; l < n; l++) {
                const int64_t m = dfs_crt_modulus(l), lim = ((int64_t)1 << 31) - (1 << 14);
                const int64_t hi = (lim - res[l]) / m, lo = (lim + res[l]) / m;
                const int64_t t = it % 4 == 1 ? hi : it % 8 == 3 ? -lo : (int64_t)below(&r, 1000);
                res[l] = (int32_t)(res[l] + t * m);
            }
        }
        for (int form = 0; form < 2; form++) {
            if (form == 0 && n > DFS_CRT_FAST_MODULI)
                continue;
            dfs_oz_ix x = {{0, 0, 0, 0, 0}};
            int nw = DFS_OZ_XW;
            if (form == 0) {
                dfs_oz_i192 x3;
                dfs_crt_reconstruct(&tab, res, 1, &x3, it % 2 && n <= 20 ? n : 0);
                memcpy(x.w, x3.w, sizeof x3.w);
                nw = 3;
            } else {
                dfs_crt_reconstruct_wide(&tab, res, 1, &x);
            }
            uint64_t mg[DFS_OZ_XW] = {0};
            const int neg = dfs_oz_w_abs(x.w, nw, mg);
            /* exact - X == 0 (on a copy) */
            int64_t cw[DFS_X_WORDS];
            dfs_xacc chk;
            dfs_x_init(&chk, cw, DFS_X_WORDS, DFS_X_LSB);
            memcpy(cw, w, sizeof cw);
            chk.pending = exact.pending;
            ck_assert(dfs_x_add(&chk, !neg, (dfs_u128)mg[0] | ((dfs_u128)mg[1] << 64), 0));
            ck_assert(dfs_x_add(&chk, !neg, (dfs_u128)mg[2] | ((dfs_u128)mg[3] << 64), 128));
            ck_assert(dfs_x_add(&chk, !neg, (dfs_u128)mg[4], 256));
            if (dfs_x_sign(&chk) != 0)
                ck_abort_msg("crt: b %d k %lld, %d moduli (%s): the reconstructed product is not "
                             "exact", b, (long long)k, n, form ? "five words" : "three words");
            cases++;
        }
    }
    printf("crt: %d exact products of k <= 3000 integers below 2^b (b <= 125, up to 36 moduli) "
           "recovered from int8 residues\n", cases);
    /* the table: M_l m_l = M and y_l M_l = 1 modulo m_l, for every n */
    for (int n = 1; n <= DFS_CRT_MODULI; n++) {
        dfs_crt_table tab;
        dfs_crt_table_init(&tab, n);
        for (int l = 0; l < n; l++) {
            uint32_t p[DFS_CRT_LIMBS];
            memcpy(p, tab.Ml[l], sizeof p);
            dfs_crt_mul_small(p, (uint32_t)dfs_crt_modulus(l));
            ck_assert(memcmp(p, tab.M, sizeof p) == 0);
            const int m = dfs_crt_modulus(l);
            uint64_t mod = 0, w32 = 1; /* M_l mod m, limb by limb (w32 = 2^(32 w) mod m) */
            for (int w = 0; w < DFS_CRT_LIMBS; w++) {
                mod = (mod + tab.Ml[l][w] % m * w32) % m;
                w32 = w32 * (((uint64_t)1 << 32) % m) % m;
            }
            ck_assert_int_eq((int)(mod * (uint64_t)tab.y[l] % m), 1 % m);
        }
        for (int w = tab.limbs; w < DFS_CRT_LIMBS; w++)
            ck_assert_int_eq(tab.M[w], 0);
        /* dfs_crt_reconstruct's copies: up to 16 moduli in 4 limbs, up to 20 in 5 */
        ck_assert(tab.limbs > 4 || n <= 16);
        ck_assert(tab.limbs > 5 || n <= 20);
    }
}
END_TEST

START_TEST(crt_scale_truncates)
{
    rng r = rng_seed(92);
    int reached_top = 0; /* rounded up to 2^b: the limbs' largest top */
    for (int it = 0; it < 40000; it++) {
        double a;
        gen_fill(&r, (it / 2) % G_ZEROS, &a, 1);
        if (a == 0 || !isfinite(a))
            continue;
        const int rnd = it % 2; /* the verifying path truncates, the int8 engine rounds */
        int e;
        frexp(a, &e); /* |a| < 2^e */
        const int tau = e + below(&r, 5), b = 1 + below(&r, 100);
        int neg;
        dfs_u128 mag;
        dfs_crt_scale(a, tau, b, rnd, &neg, &mag);
        ck_assert_int_eq(neg, a < 0);
        int64_t w[DFS_X_WORDS];
        dfs_xacc x;
        dfs_x_init(&x, w, DFS_X_WORDS, DFS_X_LSB);
        if (!rnd) {
            ck_assert(mag < ((dfs_u128)1 << b));
            /* mag <= |a| 2^(b - tau) < mag + 1: compare exactly in an accumulator */
            ck_assert(dfs_x_add_double(&x, fabs(a), b - tau));
            ck_assert(dfs_x_add(&x, 1, mag, 0));
            ck_assert_int_ge(dfs_x_sign(&x), 0);
            ck_assert(dfs_x_add(&x, 1, 1, 0));
            ck_assert_int_lt(dfs_x_sign(&x), 0);
        } else {
            ck_assert(mag <= ((dfs_u128)1 << b));
            reached_top += mag == ((dfs_u128)1 << b);
            /* nearest, ties away from zero: -1 <= 2 |a| 2^(b - tau) - 2 mag < 1 */
            ck_assert(dfs_x_add_double(&x, fabs(a), b - tau + 1));
            ck_assert(dfs_x_add(&x, 1, mag, 1));
            ck_assert(dfs_x_add(&x, 1, 1, 0));
            ck_assert_int_lt(dfs_x_sign(&x), 0);
            ck_assert(dfs_x_add(&x, 0, 2, 0));
            ck_assert_int_ge(dfs_x_sign(&x), 0);
        }
        /* the 21-bit limbs the CPU twin uses and the GPU's byte forms (8 bytes for b <= 62, 16
         * for any b): the same integer, the same residues, times y too */
        dfs_crt_int xi;
        dfs_crt_int_of(a, tau, b, rnd, &xi);
        dfs_crt_table tab;
        dfs_crt_table_init(&tab, DFS_CRT_MODULI);
        uint32_t cy[DFS_CRT_MODULI][DFS_CRT_ALIMBS], c1[DFS_CRT_MODULI][DFS_CRT_ALIMBS];
        dfs_crt_coefs(&tab, 1, cy);
        dfs_crt_coefs(&tab, 0, c1);
        dfs_crt_bcoef by[DFS_CRT_MODULI], b1[DFS_CRT_MODULI], wy[DFS_CRT_MODULI],
            w1[DFS_CRT_MODULI];
        dfs_crt_bcoefs(&tab, 1, 2, by);
        dfs_crt_bcoefs(&tab, 0, 2, b1);
        dfs_crt_bcoefs(&tab, 1, 4, wy);
        dfs_crt_bcoefs(&tab, 0, 4, w1);
        uint32_t ww[4];
        dfs_crt_words128(neg, mag, ww);
        const int nl = dfs_crt_limbs(b);
        /* value: sum l_i 2^(21 i), limbs below the top in [0, 2^21), the top below 2^20 in
         * magnitude (truncated) or at most 2^20 (rounded) */
        dfs_u128 back = 0; /* modulo 2^128 */
        for (int i = DFS_CRT_ALIMBS - 1; i >= 0; i--) {
            ck_assert(i < nl || xi.l[i] == 0);
            if (i < nl - 1)
                ck_assert(xi.l[i] >= 0 && xi.l[i] < (1 << 21));
            else if (i == nl - 1)
                ck_assert(xi.l[i] >= -(1 << 20) && xi.l[i] < (1 << 20) + rnd);
            back = (back << 21) + (dfs_u128)(int64_t)xi.l[i];
        }
        ck_assert(back == (neg ? (dfs_u128)0 - mag : mag));
        uint32_t bw[2] = {0, 0};
        if (b <= 62) {
            const int64_t v = dfs_crt_int62(a, tau, b, rnd);
            ck_assert((dfs_u128)v == (neg ? (dfs_u128)0 - mag : mag)); /* sign-extended */
            dfs_crt_words(v, bw);
        }
        for (int l = 0; l < DFS_CRT_MODULI; l++) {
            const int m = dfs_crt_modulus(l), want = dfs_crt_residue(neg, mag, m);
            ck_assert_int_eq(dfs_crt_residue_limbs(&xi, nl, c1[l], (unsigned)m), want);
            int ry = want * tab.y[l] % m;
            ry = ry > (m - 1) / 2 ? ry - m : ry < -(m / 2) ? ry + m : ry;
            ck_assert_int_eq(dfs_crt_residue_limbs(&xi, nl, cy[l], (unsigned)m), ry);
            /* the byte forms' value is the residue plus floor(m / 2) */
            if (b <= 62) {
                ck_assert_int_eq((int)dfs_crt_residue_bytes(bw, 2, &b1[l], (uint32_t)m) - m / 2,
                                 want);
                ck_assert_int_eq((int)dfs_crt_residue_bytes(bw, 2, &by[l], (uint32_t)m) - m / 2,
                                 ry);
            }
            ck_assert_int_eq((int)dfs_crt_residue_bytes(ww, 4, &w1[l], (uint32_t)m) - m / 2, want);
            ck_assert_int_eq((int)dfs_crt_residue_bytes(ww, 4, &wy[l], (uint32_t)m) - m / 2, ry);
        }
    }
    ck_assert_int_gt(reached_top, 0);
}
END_TEST

START_TEST(crt_gemm_correctly_rounded)
{
    rng r = rng_seed(93);
    static const int gens[] = {G_PHI0, G_PHI1, G_PHI4, G_PHI8, G_ERANGE, G_MIXED, G_SUBNORMAL};
    static const int64_t ks[] = {1, 7, 64, 300};
    /* about 42, 70, 88, 108 and 125 bits per element at k = 300; more than 24 moduli: the
     * five-word finish */
    static const int modss[] = {12, 18, 24, 30, 36};
    long outputs = 0, slow = 0, outputs24 = 0, slow24 = 0, wide_out[2] = {0, 0},
         wide_slow[2] = {0, 0}, predicted = 0;
    for (int it = 0; it < 280; it++) {
        const int g = gens[it % 7], mods = modss[(it / 7) % 5];
        crt_case t;
        crt_case_run(&r, it, g, 12, ks, 4, mods, 0, &t);
        const int ta = t.ta, tb = t.tb;
        const int64_t m = t.m, n = t.n, k = t.k, ldc = t.ldc;
        const double alpha = t.alpha, beta = t.beta, *C1 = t.C1, *C2 = t.C2;
        const dfs_oz_stats s2 = t.s2;
        for (int64_t c = 0; c < n; c++)
            for (int64_t i = 0; i < ldc; i++)
                if (!same_bits(C1[i + c * ldc], C2[i + c * ldc]))
                    ck_abort_msg("crt gemm %s %c%c %lldx%lldx%lld moduli %d alpha %a beta %a "
                                 "C(%lld,%lld): %a, correctly rounded %a", gen_label(g),
                                 ta ? 'T' : 'N', tb ? 'T' : 'N', (long long)m, (long long)n,
                                 (long long)k, mods, alpha, beta, (long long)i, (long long)c,
                                 C2[i + c * ldc], C1[i + c * ldc]);
        outputs += m * n;
        slow += s2.slow;
        if (mods == 24 && g <= G_PHI4 && it % 12 != 11 && alpha == 1.0 && beta == 0.0) {
            outputs24 += m * n;
            slow24 += s2.slow;
        }
        if ((mods == 24 || mods == 36) && (g == G_PHI8 || g == G_MIXED || g == G_ERANGE)) {
            wide_out[mods == 36] += m * n;
            wide_slow[mods == 36] += s2.slow;
        }
        /* the undecided outputs' needs: above the moduli taken, at most every direct output
         * (Inf/NaN rows are direct without a need) */
        int64_t needs = 0;
        for (int b = 0; b < DFS_OZ_STATS_NEED; b++) {
            ck_assert(s2.need[b] == 0 || b > mods);
            needs += s2.need[b];
        }
        ck_assert_int_le(needs, s2.slow);
        /* with 24 moduli on wide data, the count the feedback would take next decides what
         * the needs said it would (the margins with more bits may differ a little) */
        if (mods == 24 && needs > 0 && g >= G_PHI8 && t.k > 1) {
            unsigned long long nd[DFS_OZ_STATS_NEED];
            for (int b = 0; b < DFS_OZ_STATS_NEED; b++)
                nd[b] = (unsigned long long)s2.need[b];
            const int up = dfs_oz_fb_moduli_up(nd, (unsigned long long)(m * n), 24, 16);
            /* more moduli when the decidable ones are more than 1/16, else the same */
            unsigned long long decidable = 0;
            for (int b = 25; b <= DFS_CRT_MODULI; b++)
                decidable += nd[b];
            if (decidable * 16 > (unsigned long long)(m * n))
                ck_assert_int_gt(up, 24);
            else
                ck_assert_int_eq(up, 24);
            unsigned long long left = 0;
            for (int b = up + 1; b < DFS_OZ_STATS_NEED; b++)
                left += nd[b];
            memcpy(t.C2, t.C0, (size_t)(t.ldc * n) * sizeof(double));
            dfs_oz_stats s3;
            dfs_oz_crt_gemm_host(ta, tb, m, n, k, alpha, t.A, t.lda, t.B, t.ldb, beta, t.C2, ldc,
                                 up, 0, &s3);
            int64_t und3 = 0;
            for (int b = 0; b < DFS_OZ_STATS_NEED; b++)
                und3 += s3.need[b];
            ck_assert_msg(und3 <= (int64_t)left + 2 + (int64_t)left / 4,
                          "%d moduli, predicted to leave %llu undecided, left %lld", up, left,
                          (long long)und3);
            predicted++;
        }
        crt_case_free(&t);
    }
    printf("crt gemm: %ld outputs the same bits as the scheme-I CPU DGEMM (correctly rounded), "
           "%ld of them computed directly; with 24 moduli, phi 0-4 data, alpha 1, beta 0: "
           "%ld of %ld direct; phi 8, erange and mixed data: %ld of %ld direct with 24 moduli, "
           "%ld of %ld with 36\n", outputs, slow, slow24, outputs24, wide_slow[0], wide_out[0],
           wide_slow[1], wide_out[1]);
    fflush(stdout);
    ck_assert_int_gt(outputs24, 200);
    ck_assert_int_lt(slow24 * 20, outputs24); /* the truncated product decides most outputs */
    ck_assert_int_gt(slow, 0);                /* and the direct path is exercised */
    ck_assert_int_gt(predicted, 3);
    /* wide data: 36 moduli decide a larger share than 24 */
    ck_assert(wide_slow[1] * wide_out[0] < wide_slow[0] * wide_out[1]);
}
END_TEST

/* dfs_oz_row_l2sq bounds the sum of (a 2^-tau)^2 from above, closely (within 2^-25 of it and
 * 2^-900), for rows of every generator, summed in order (row_of) or in the rows pass's order
 * (row_of_gpu), against MPFR; and the bits it gives keep |X| <= 2^(L-1) for the row times
 * itself (Cauchy-Schwarz's equality case). */
START_TEST(crt_row_l2sq)
{
    rng r = rng_seed(96);
    static const int64_t ks[] = {1, 2, 33, 300, 4096};
    mpfr_t acc, t;
    mpfr_init2(acc, 4200);
    mpfr_init2(t, 120);
    for (int it = 0; it < 180; it++) {
        const int g = it % G_COUNT;
        const int64_t k = ks[(it / G_COUNT) % 5];
        double *x = malloc((size_t)k * sizeof *x);
        ck_assert_ptr_nonnull(x);
        gen_fill(&r, g, x, k);
        if (g == G_SUBNORMAL && k > 1)
            x[0] = 1e300; /* a row of both ends: most squares far below 2^-1000 */
        const gemm_in gi = {0, 0, 1, 1, k, x, x, 1, k};
        const dfs_oz_row ro[2] = {row_of(&gi, 0, 0), row_of_gpu(&gi, 0, 0)};
        for (int v = 0; v < 2; v++) {
            const dfs_oz_row ri = ro[v];
            if (ri.special || ri.tau == DFS_OZ_NONE_TAU) {
                ck_assert(ri.special || dfs_oz_row_l2sq(ri, k) == 0.0);
                continue;
            }
            mpfr_set_zero(acc, 1);
            for (int64_t q = 0; q < k; q++) {
                mpfr_set_d(t, x[q], MPFR_RNDN);
                mpfr_mul_2si(t, t, -ri.tau, MPFR_RNDN);
                mpfr_sqr(t, t, MPFR_RNDN); /* exact: 106 bits in 120 */
                mpfr_add(acc, acc, t, MPFR_RNDN);
            }
            const double exact_dn = mpfr_get_d(acc, MPFR_RNDD), exact_up = mpfr_get_d(acc, MPFR_RNDU);
            const double b = dfs_oz_row_l2sq(ri, k);
            ck_assert_msg(b >= exact_up && b >= 0.25 && b <= (double)k,
                          "gen %s k %lld order %d: bound %a below the sum of squares %a",
                          gen_label(g), (long long)k, v, b, exact_up);
            ck_assert_msg(b <= exact_dn * (1 + 0x1p-25) + 0x1p-900 || b == (double)k,
                          "gen %s k %lld order %d: bound %a far above the sum of squares %a",
                          gen_label(g), (long long)k, v, b, exact_dn);
        }
        free(x);
    }
    mpfr_clear(acc);
    mpfr_clear(t);
}
END_TEST

/* The byte form's steps for every value they can meet: the remainder of every s < 2^20 (the
 * dot products of 16 bytes stay below 16 * 255^2 + 256) for every modulus, and the packed
 * subtraction of every h <= 128 from every byte in every position. */
START_TEST(crt_residue_bytes_every_value)
{
    for (int l = 0; l < DFS_CRT_MODULI; l++) {
        const uint32_t m = (uint32_t)dfs_crt_modulus(l);
        uint32_t bad = 0;
        for (uint32_t s = 0; s < (1u << 20); s++)
            bad += dfs_crt_mod_small(s, m) != s % m;
        ck_assert_msg(bad == 0, "modulus %u: %u remainders wrong", m, bad);
    }
    rng r = rng_seed(93);
    for (uint32_t h = 0; h <= 128; h++)
        for (uint32_t v = 0; v < 256; v++)
            for (int pos = 0; pos < 4; pos++) {
                uint32_t x = (uint32_t)next64(&r);
                x = (x & ~(0xffu << (8 * pos))) | v << (8 * pos);
                const uint32_t z = dfs_crt_sub_bytes(x, h);
                for (int i = 0; i < 4; i++)
                    ck_assert_uint_eq((z >> (8 * i)) & 0xff, (((x >> (8 * i)) & 0xff) - h) & 0xff);
            }
    /* and dp4a's twin: a sum of four byte products */
    ck_assert_uint_eq(dfs_crt_dp4a(0xff01fe02u, 0x03ff04ffu, 7),
                      7 + 2 * 255 + 254 * 4 + 1 * 255 + 255 * 3);
}
END_TEST

void oz_crt_tests(TCase *t)
{
    tcase_add_test(t, crt_moduli);
    tcase_add_test(t, crt_exact_products);
    tcase_add_test(t, crt_scale_truncates);
    tcase_add_test(t, crt_gemm_correctly_rounded);
    tcase_add_test(t, crt_row_l2sq);
    tcase_add_test(t, crt_residue_bytes_every_value);
}
