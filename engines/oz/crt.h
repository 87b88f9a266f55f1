/* crt.h — the arithmetic of the Ozaki scheme II (products of integers through the Chinese
 * remainder theorem), for the correctly rounded DGEMM on integer tensor cores (issue 6;
 * host_crt.c is its CPU implementation, crt_gemm.c and kernels.cu the GPU's).
 *
 * Row r of op(A) is scaled by 2^(b - tau_r) and truncated to integers below 2^b in magnitude
 * (likewise the columns of op(B)); their exact integer product X = sum_q a~_q b~_q is found from
 * its residues modulo N small pairwise coprime moduli m_l <= 256: residues fit in int8, and the
 * products of residues summed over k < 2^17 terms fit in int32, so each modulus is one exact
 * int8 GEMM with int32 accumulation.  The sum of t_l M_l (t_l from the residues) gives X modulo
 * M = prod m_l, and X itself when |X| <= 2^(L-1), L = dfs_crt_bits (dfs_crt_reconstruct).  A
 * row's bits come from the sum of its squares (Cauchy-Schwarz: dfs_crt_row_bits), so that
 * |X| <= 2^(L-1) whatever the data.  The truncation error is bounded
 * from the rows' l1 norms (as dfs_oz_tail_bound does for slices), so each output can be rounded
 * correctly or sent to the exact direct path, as in the scheme-I engine (README.md). */
#ifndef DFS_OZ_CRT_H
#define DFS_OZ_CRT_H

#include "steps.h"

#define DFS_CRT_MODULI 36 /* usable moduli: their product stays below 2^267 */
/* The moduli the int8 engine (fast) takes at most: their product stays below 2^190, so its
 * sums fit the three-word integers (dfs_oz_i192) of its finish; repro's verifying finish takes
 * more, in five words (dfs_oz_ix), when the data need them. */
#define DFS_CRT_FAST_MODULI 24
#define DFS_CRT_MAX_K (1 << 17) /* k below it: sums of k residue products (< 2^14) fit int32 */
/* The most bits of a row's integers: with their sign they fit 128 bits (the GPU's byte form,
 * dfs_crt_words128) and six 21-bit limbs (the CPU's, dfs_crt_int_of). */
#define DFS_CRT_MAX_BITS 125

/* Modulus l (0 <= l < DFS_CRT_MODULI): pairwise coprime, the largest first. */
DFS_HD int dfs_crt_modulus(int l)
{
    const int m[DFS_CRT_MODULI] = {256, 255, 253, 251, 247, 241, 239, 233, 229, 227, 223, 217,
                                   211, 199, 197, 193, 191, 181, 179, 173, 167, 163, 157, 151,
                                   149, 139, 137, 131, 127, 113, 109, 107, 103, 101, 97,  89};
    return m[l];
}

/* A complex product by Karatsuba's three products a modulus (crt_gemm.h's zk): the largest
 * complex inner dimension, padded to 16, whose int32 sums carry Im = P1 - P2 - P3 (|P| <= 2^14
 * kp each, residues of at most 128 in magnitude): 3 kp 2^14 <= 2^31 - 2^14, the room the
 * reconstruction takes (dfs_crt_reconstruct: v + K >= 0). */
#define DFS_CRT_ZK_MAX_KP 43680

/* Whether a complex product whose real representation has inner dimension k takes three
 * products. */
DFS_HD int dfs_crt_zk_fits(int64_t k)
{
    return k > 0 && (k / 2 + 15) / 16 * 16 <= DFS_CRT_ZK_MAX_KP;
}

/* floor(1024 log2 m_l), the moduli's sizes in 1/1024 bit, from below. */
DFS_HD int dfs_crt_log2_1024(int l)
{
    const int v[DFS_CRT_MODULI] = {8192, 8186, 8174, 8162, 8139, 8102, 8090, 8052, 8027,
                                   8014, 7988, 7947, 7906, 7819, 7804, 7774, 7759, 7679,
                                   7663, 7613, 7560, 7525, 7469, 7412, 7392, 7289, 7268,
                                   7202, 7156, 6983, 6930, 6903, 6846, 6818, 6758, 6631};
    return v[l];
}

/* L: a lower bound of log2 of the product M of the first n moduli (within n/1024 of it,
 * floored), with M > 2^L (1 + 2^-6) (the unit tests check every n): |X| <= 2^(L-1) leaves
 * dfs_crt_reconstruct the room its fixed-point quotient needs.  n = 1: M = 2^8, L = 7. */
DFS_HD int dfs_crt_bits(int n)
{
    int s = 0;
    for (int l = 0; l < n; l++)
        s += dfs_crt_log2_1024(l);
    return n == 1 ? 7 : s >> 10;
}

/* The moduli needed for integers of b bits (each |a~| < 2^b) and k terms: L >= 2b + ceil(log2 k)
 * + 1, so |X| < 2^(L-1).  0 if more than DFS_CRT_MODULI would be needed. */
DFS_HD int dfs_crt_count(int b, int64_t k)
{
    const int want = 2 * b + dfs_oz_ceil_log2(k) + 1;
    for (int n = 1; n <= DFS_CRT_MODULI; n++)
        if (dfs_crt_bits(n) >= want)
            return n;
    return 0;
}

/* The bits per element that n moduli carry for k terms: the largest b with 2b + ceil(log2 k) + 1
 * <= dfs_crt_bits(n) (then |X| < 2^(L-1) whatever the data), at most DFS_CRT_MAX_BITS; 0 when n
 * is too few.
 * Every row gets at least these (dfs_crt_row_bits with the largest sum of squares, k). */
DFS_HD int dfs_crt_scale_bits(int n, int64_t k)
{
    const int room = dfs_crt_bits(n) - dfs_oz_ceil_log2(k) - 1;
    const int b = room >= 2 ? room / 2 : 0;
    return b > DFS_CRT_MAX_BITS ? DFS_CRT_MAX_BITS : b;
}

/* The int8 engine's default moduli for k terms (the first call of a shape; later ones follow the
 * data, int8/choice.c): the fewest that give every element at least DFS_CRT_FAST_BITS bits, and
 * 57 - ceil(log2 k) for small k, whatever the data (rows of few large elements get more:
 * dfs_crt_row_bits), with the rows rounded to nearest (dfs_crt_rounds): 15 moduli for k up to
 * 2^16.  Why these: the contract (crt_check.h) asks the error below k u S; an element's error is
 * about 2^-b of its row's top power of two, so on well-scaled data b + log2 k >= 55 or so
 * passes, and a row's bits grow as its sum of squares shrinks, so the ratio to native's error
 * hardly depends on k from there on.  Measured on the CPU twin over 256-1024 of exblas-bench's
 * sampled entries against a sequential FMA loop (which gave cuBLAS's errors exactly on the GPU,
 * README.md): 15 moduli are 2-20x more accurate than native at n = 4096-16384 on phi 0-2 data;
 * 14 are up to 2x (n = 4096, phi 0.5) and 17x (n = 16384, phi 2) less accurate. */
#define DFS_CRT_FAST_BITS 50
DFS_HD int dfs_crt_fast_moduli(int64_t k)
{
    const int small = 57 - dfs_oz_ceil_log2(k > 0 ? k : 1);
    const int want = small > DFS_CRT_FAST_BITS ? small : DFS_CRT_FAST_BITS;
    for (int n = 1; n <= DFS_CRT_FAST_MODULI; n++)
        if (dfs_crt_scale_bits(n, k) >= want)
            return n;
    return DFS_CRT_FAST_MODULI;
}

/* The moduli a call takes for k terms when n are wished for: at least enough for one bit per
 * element whatever the data, at most all of them. */
DFS_HD int dfs_crt_fit_moduli(int n, int64_t k)
{
    while (n < DFS_CRT_MODULI && dfs_crt_scale_bits(n, k) < 1)
        n++;
    return n > DFS_CRT_MODULI ? DFS_CRT_MODULI : n;
}

/* The int8 engine's moduli for k terms: its option moduli (> 0) or dfs_crt_fast_moduli, fitted,
 * at most DFS_CRT_FAST_MODULI. */
DFS_HD int dfs_crt_int8_moduli(int option, int64_t k)
{
    const int n = dfs_crt_fit_moduli(option > 0 ? option : dfs_crt_fast_moduli(k), k);
    return n < DFS_CRT_FAST_MODULI ? n : DFS_CRT_FAST_MODULI;
}

/* The int8 engine (fast) rounds a row's integers to nearest when the row has at least this many
 * bits, and truncates them otherwise; the verifying path always truncates (its bounds,
 * dfs_crt_bound, are the truncation's).  Rounding halves the largest error of an element, 2^-b
 * of the row's top power of two instead of 2^(1-b), and makes it unbiased: about one bit more
 * per product for random data, and more where the products share their sign.  It may make
 * |a~| exceed |a| 2^(b - tau) by 1/2 (and reach 2^b): the l2 norm of a row of k elements by at
 * most sqrt(k)/2 < 2^8 (k < 2^17), against a norm of at least 2^(b-1) (dfs_crt_row_bits: the
 * squares sum to at least 1/4 in units of the top power of two).  From 24 bits on this is a
 * factor below 1 + 2^-15 per operand, so |X| <= 2^(L-1) (1 + 2^-14), still well inside the
 * room dfs_crt_reconstruct leaves (M/2 (1 - 2^-7) > 2^(L-1) (1 + 2^-7.1): dfs_crt_bits). */
#define DFS_CRT_ROUND_BITS 24
DFS_HD int dfs_crt_rounds(int fast, int b)
{
    return fast && b >= DFS_CRT_ROUND_BITS;
}

/* m 2^sh as an integer for sh < 0 and m < 2^53: truncated, or (rnd) rounded to nearest with
 * ties away from zero (m + 2^(-sh-1) < 2^64 for -sh <= 63; from -sh = 55 on it is 0). */
DFS_HD uint64_t dfs_crt_shift_down(uint64_t m, int sh, int rnd)
{
    if (sh <= -64)
        return 0;
    const uint64_t half = rnd ? (uint64_t)1 << (-sh - 1) : 0;
    return (m + half) >> -sh;
}

/* a~ = trunc(a 2^(b - tau)), or (rnd: dfs_crt_rounds) the nearest integer, for a finite a with
 * |a| < 2^tau, 1 <= b <= DFS_CRT_MAX_BITS: |a~| < 2^b (truncated) or <= 2^b (rounded). */
DFS_HD void dfs_crt_scale(double a, int tau, int b, int rnd, int *neg, dfs_u128 *mag)
{
    uint64_t m;
    int e;
    *neg = dfs_d_split(a, &m, &e);
    const int sh = e + b - tau; /* a~ = m 2^sh, truncated or rounded */
    if (m == 0)
        *mag = 0;
    else if (sh < 0)
        *mag = (dfs_u128)dfs_crt_shift_down(m, sh, rnd);
    else
        *mag = (dfs_u128)m << sh; /* below 2^b: no overflow */
}

/* The residue of (-1)^neg mag modulo m, in [-(m/2), (m-1)/2] (fits int8 for m <= 256), in
 * 128-bit arithmetic: the reference the tests hold dfs_crt_residue_limbs to. */
DFS_HD int dfs_crt_residue(int neg, dfs_u128 mag, int m)
{
    /* mag mod m without 128-bit division: 2^64 mod m, then two 64-bit remainders */
    const uint64_t hi = (uint64_t)(mag >> 64), lo = (uint64_t)mag;
    const uint64_t t64 = ((uint64_t)-1 % (uint64_t)m + 1) % (uint64_t)m; /* 2^64 mod m */
    uint64_t r = ((hi % m) * t64 + lo % m) % m;
    if (neg && r)
        r = m - r;
    return r > (uint64_t)(m - 1) / 2 ? (int)r - m : (int)r;
}

/* x^-1 modulo m (x and m coprime, 0 < x < m). */
DFS_HD int dfs_crt_inverse(int x, int m)
{
    int r0 = m, r1 = x, s0 = 0, s1 = 1;
    while (r1) {
        const int q = r0 / r1, r2 = r0 - q * r1, s2 = s0 - q * s1;
        r0 = r1;
        r1 = r2;
        s0 = s1;
        s1 = s2;
    }
    return s0 < 0 ? s0 + m : s0;
}

/* The limbs that integers of b bits need, their sign included. */
DFS_HD int dfs_crt_limbs(int b)
{
    return (b + 21) / 21;
}

/* a~ = trunc(a 2^(b - tau)) or its rounding (dfs_crt_scale) as nl = dfs_crt_limbs(b) limbs of
 * 21 bits, a~ = sum l_i 2^(21 i): what the CPU twin computes each modulus's residue from
 * (dfs_crt_residue_limbs; the GPU takes a~'s bytes instead, below).  The limbs below the top
 * one, l[nl - 1], lie in [0, 2^21) (two's complement), the top one is signed and at most 2^20
 * in magnitude (b - 21 (nl - 1) <= 20); the limbs above it are zero.  b <= 125: nl <= 6. */
#define DFS_CRT_LB 21
#define DFS_CRT_ALIMBS 6
typedef struct {
    int32_t l[DFS_CRT_ALIMBS];
} dfs_crt_int;

DFS_HD void dfs_crt_int_of(double a, int tau, int b, int rnd, dfs_crt_int *x)
{
    int neg;
    dfs_u128 mag;
    dfs_crt_scale(a, tau, b, rnd, &neg, &mag);
    const int nl = dfs_crt_limbs(b), sh = DFS_CRT_LB * (nl - 1);
    const dfs_u128 v = neg ? (dfs_u128)0 - mag : mag; /* two's complement, 128 bits */
    /* the top limb: floor(v / 2^sh) */
    const dfs_u128 low = ((dfs_u128)1 << sh) - 1;
    const int32_t top = neg ? -(int32_t)((mag + low) >> sh) : (int32_t)(mag >> sh);
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
    for (int i = 0; i < DFS_CRT_ALIMBS; i++) /* constant indices: registers on the GPU */
        x->l[i] = i < nl - 1 ? (int32_t)((uint32_t)(v >> (DFS_CRT_LB * i)) & 0x1fffffu)
                  : i == nl - 1 ? top
                                : 0;
}

/* The same integer for b <= 62 in 64-bit arithmetic (|a~| <= 2^b): what the GPU's residue
 * kernel uses when the moduli give no row more than 62 bits (the byte form below). */
DFS_HD int64_t dfs_crt_int62(double a, int tau, int b, int rnd)
{
    uint64_t m;
    int e;
    const int neg = dfs_d_split(a, &m, &e);
    const int sh = e + b - tau; /* a~ = m 2^sh, truncated or rounded, at most 2^b <= 2^62 */
    const uint64_t mag = m == 0 ? 0 : sh < 0 ? dfs_crt_shift_down(m, sh, rnd) : m << sh;
    return neg ? -(int64_t)mag : (int64_t)mag;
}

/* The symmetric residue, in [-(p/2), (p-1)/2], of y a~ modulo p <= 256 from the first nl limbs
 * of a~ (the others zero) and coef[i] = y 2^(21 i) mod p (dfs_crt_coefs): K + sum l_i coef[i]
 * with K the least multiple of p from 2^28 lies in [0, 2^32) for the limbs of dfs_crt_int_of
 * (the sum is at least -2^20 * 255 and at most 5 * 2^21 * 255 + 2^20 * 255 < 2^32 - 2^28), so
 * it is computed in wrapping 32-bit arithmetic, then one remainder (with a constant p, a
 * multiplication). */
DFS_HD int dfs_crt_residue_limbs(const dfs_crt_int *x, int nl, const uint32_t *coef, unsigned p)
{
    unsigned s = ((1u << 28) + p - 1) / p * p;
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
    for (int i = 0; i < DFS_CRT_ALIMBS; i++)
        if (i < nl)
            s += (unsigned)x->l[i] * coef[i];
    const unsigned r = s % p;
    return r > (p - 1) / 2 ? (int)r - (int)p : (int)r;
}

#define DFS_CRT_LIMBS 10 /* 32-bit limbs of M < 2^267, and of the five words of X */

/* What reconstruction with the first n moduli needs, computed once per call on the host (and
 * small enough to travel in a kernel's arguments): M = prod m_l and M_l = M / m_l in 32-bit
 * limbs (the least significant first), y_l = M_l^-1 modulo m_l. */
typedef struct {
    int n, limbs; /* limbs: those of M that can be nonzero */
    int y[DFS_CRT_MODULI];
    uint32_t Ml[DFS_CRT_MODULI][DFS_CRT_LIMBS], M[DFS_CRT_LIMBS];
} dfs_crt_table;

/* x = x * v for a six-limb unsigned x (no overflow here: every product stays below M). */
DFS_HD void dfs_crt_mul_small(uint32_t x[DFS_CRT_LIMBS], uint32_t v)
{
    uint64_t carry = 0;
    for (int w = 0; w < DFS_CRT_LIMBS; w++) {
        const uint64_t s = (uint64_t)x[w] * v + carry;
        x[w] = (uint32_t)s;
        carry = s >> 32;
    }
}

DFS_HD void dfs_crt_table_init(dfs_crt_table *t, int n)
{
    t->n = n;
    for (int w = 0; w < DFS_CRT_LIMBS; w++)
        t->M[w] = w == 0;
    for (int l = 0; l < n; l++)
        dfs_crt_mul_small(t->M, (uint32_t)dfs_crt_modulus(l));
    t->limbs = DFS_CRT_LIMBS;
    while (t->limbs > 1 && t->M[t->limbs - 1] == 0)
        t->limbs--;
    for (int l = 0; l < DFS_CRT_MODULI; l++) {
        t->y[l] = 0;
        for (int w = 0; w < DFS_CRT_LIMBS; w++)
            t->Ml[l][w] = 0;
    }
    for (int l = 0; l < n; l++) {
        const int m = dfs_crt_modulus(l);
        uint32_t *Ml = t->Ml[l];
        int r = 1; /* M_l mod m */
        Ml[0] = 1;
        for (int j = 0; j < n; j++)
            if (j != l) {
                dfs_crt_mul_small(Ml, (uint32_t)dfs_crt_modulus(j));
                r = r * (dfs_crt_modulus(j) % m) % m;
            }
        t->y[l] = dfs_crt_inverse(r, m);
    }
}

/* The limb form's coefficients for the table's moduli: coef[l][i] = y 2^(21 i) mod m_l
 * with y = y_l (times_y: op(A)'s residues carry y_l, so each int8 GEMM sums c_l y_l and the
 * reconstruction needs no multiplication) or 1 (op(B)); zero for l >= n. */
DFS_HD void dfs_crt_coefs(const dfs_crt_table *t, int times_y,
                          uint32_t coef[DFS_CRT_MODULI][DFS_CRT_ALIMBS])
{
    for (int l = 0; l < DFS_CRT_MODULI; l++) {
        const uint32_t m = (uint32_t)dfs_crt_modulus(l);
        uint32_t c = l < t->n ? (times_y ? (uint32_t)t->y[l] : 1u) % m : 0u;
        for (int i = 0; i < DFS_CRT_ALIMBS; i++) {
            coef[l][i] = c;
            c = (uint32_t)((uint64_t)c * ((1u << DFS_CRT_LB) % m) % m);
        }
    }
}

/* ---- the residue kernel's form: byte dot products ----
 * The GPU takes v = a~ as the bytes u_i of v + 2^(8W - 1), which lies in [0, 2^(8W)): W = 8
 * bytes when the moduli give no row more than 62 bits (up to 16 moduli: dfs_crt_max_bits; v from
 * dfs_crt_int62, dfs_crt_words), else W = 16 (|v| <= 2^125: dfs_crt_words128).  Per modulus p it
 * forms s = K + sum u_i c_i with c_i = y 2^(8 i) mod p and K = (H - y 2^(8W - 1)) mod p, H =
 * floor(p / 2) (dfs_crt_bcoefs): W / 4 four-byte dot products (dp4a).  s = y v + H (mod p) and s
 * < 16 * 255^2 + 256 < 2^20, so the remainder s mod p takes one high multiplication by
 * ceil(2^32 / p) and one multiply-add (dfs_crt_mod_small), and its value minus H is the
 * symmetric residue of dfs_crt_residue_limbs, in [-(p/2), (p-1)/2]; the kernel subtracts H from
 * four packed bytes at once (dfs_crt_sub_bytes).  About 5.5 (W = 8) or 6.5 (W = 16)
 * instructions per residue against about 10 with 21-bit limbs (which the CPU twin keeps: two
 * ways to the same residues).  The unit tests check every s for every modulus. */
typedef struct {
    uint32_t c[4], K; /* c_0 .. c_15, four bytes a word, the first lowest; K */
} dfs_crt_bcoef;

/* acc + the dot product of the four unsigned bytes of u and of c. */
DFS_HD uint32_t dfs_crt_dp4a(uint32_t u, uint32_t c, uint32_t acc)
{
#if defined(__CUDA_ARCH__)
    return __dp4a(u, c, acc);
#else
    for (int i = 0; i < 4; i++)
        acc += ((u >> (8 * i)) & 0xffu) * ((c >> (8 * i)) & 0xffu);
    return acc;
#endif
}

/* v + 2^63 (|v| < 2^63) as two words, the low one first. */
DFS_HD void dfs_crt_words(int64_t v, uint32_t w[2])
{
    const uint64_t u = (uint64_t)v ^ ((uint64_t)1 << 63);
    w[0] = (uint32_t)u;
    w[1] = (uint32_t)(u >> 32);
}

/* v + 2^127 for v = (-1)^neg mag (mag < 2^127: dfs_crt_scale) as four words, the low one
 * first. */
DFS_HD void dfs_crt_words128(int neg, dfs_u128 mag, uint32_t w[4])
{
    const dfs_u128 u = (neg ? (dfs_u128)0 - mag : mag) ^ ((dfs_u128)1 << 127);
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
    for (int i = 0; i < 4; i++)
        w[i] = (uint32_t)(u >> (32 * i));
}

/* s mod p for s < 2^24 and p <= 256: q = floor(s m / 2^32) with m = ceil(2^32 / p) is
 * floor(s / p), since s m / 2^32 exceeds s / p by less than s / 2^32 < 2^-8 <= 1/p and the
 * fraction of s / p is at most 1 - 1/p. */
DFS_HD uint32_t dfs_crt_mod_small(uint32_t s, uint32_t p)
{
    const uint32_t m = 0xffffffffu / p + 1; /* a constant in the kernel */
#if defined(__CUDA_ARCH__)
    const uint32_t q = __umulhi(s, m);
#else
    const uint32_t q = (uint32_t)(((uint64_t)s * m) >> 32);
#endif
    return s - q * p;
}

/* s mod p + (the byte form's H) for the nw = W / 4 words w of v (2 or 4) and modulus p's
 * coefficients (dfs_crt_bcoefs with the same W). */
DFS_HD uint32_t dfs_crt_residue_bytes(const uint32_t *w, int nw, const dfs_crt_bcoef *c,
                                      uint32_t p)
{
    uint32_t s = c->K;
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
    for (int i = 0; i < 4; i++)
        if (i < nw)
            s = dfs_crt_dp4a(w[i], c->c[i], s);
    return dfs_crt_mod_small(s, p);
}

/* Each byte of x minus h (h <= 128) modulo 256, without borrows between the bytes: (b | 128) - h
 * cannot borrow, and adds 128 to b - h exactly when b < 128, which the XOR takes back. */
DFS_HD uint32_t dfs_crt_sub_bytes(uint32_t x, uint32_t h)
{
    return ((x | 0x80808080u) - h * 0x01010101u) ^ (~x & 0x80808080u);
}

/* The coefficients of the byte form of nw words (2: W = 8 bytes, 4: W = 16) for the table's
 * moduli, y as in dfs_crt_coefs; zero for l >= n and for the words past nw. */
DFS_HD void dfs_crt_bcoefs(const dfs_crt_table *t, int times_y, int nw,
                           dfs_crt_bcoef c[DFS_CRT_MODULI])
{
    for (int l = 0; l < DFS_CRT_MODULI; l++) {
        const uint32_t m = (uint32_t)dfs_crt_modulus(l), h = m / 2;
        c[l].c[0] = c[l].c[1] = c[l].c[2] = c[l].c[3] = c[l].K = 0;
        if (l >= t->n)
            continue;
        uint32_t y = (times_y ? (uint32_t)t->y[l] : 1u) % m;
        for (int i = 0; i < 4 * nw; i++) { /* y 2^(8 i) mod m */
            c[l].c[i / 4] |= y << (8 * (i % 4));
            y = (y << 8) % m;
        }
        /* after the loop y = y_l 2^(8W) mod m: 2^(8W - 1) = 2^(8W) / 2, and m is odd or 256 */
        const uint32_t yhalf = m % 2 ? (y % 2 ? y + m : y) / 2 : 0;
        c[l].K = (h + m - yhalf) % m;
    }
}

/* The most bits any row gets with L bits of moduli: L / 2, at most DFS_CRT_MAX_BITS (dfs_oz_row_l2sq is
 * above 1/4, so h >= -1 in dfs_crt_row_bits).  Up to 16 moduli (L <= 125) no row gets more
 * than 62: the integers fit 64 bits (dfs_crt_int62). */
DFS_HD int dfs_crt_max_bits(int L)
{
    const int b = L >= 0 ? L / 2 : 0;
    return b > DFS_CRT_MAX_BITS ? DFS_CRT_MAX_BITS : b;
}

/* The bits of a row (or column) of k elements whose squares (in units of 2^(2 tau)) sum to at
 * most ss (dfs_oz_row_l2sq; 1/4 <= ss <= k) when the moduli give L = dfs_crt_bits(n) bits: the
 * largest b with 2^(2b) ss <= 2^(L-1), i.e. b = floor((L - 1 - h) / 2) with 2^h the least power
 * of two >= ss; at most dfs_crt_max_bits(L), at least 0 (0: unusable).  Then for a row and a
 * column, by Cauchy-Schwarz, |X| <= sum |a~ b~| <= sqrt(sum a~^2 sum b~^2) <= sqrt(2^(2bA)
 * ssA 2^(2bB) ssB) <= 2^(L-1): reconstruction is exact whatever the data, and a row whose
 * squares sum to less than k gets more bits than k alone allows (dfs_crt_scale_bits: ss = k). */
DFS_HD int dfs_crt_row_bits(int L, double ss, int64_t k)
{
    const int hk = dfs_oz_ceil_log2(k > 0 ? k : 1);
    int h = ss > 0 ? dfs_oz_exp_up(ss) : hk;
    h = h < hk ? h : hk;
    const int t = L - 1 - h;
    const int b = t >= 0 ? t / 2 : 0;
    const int mx = dfs_crt_max_bits(L);
    return b < mx ? b : mx;
}

/* The per-call constants of the finish step. */
typedef struct {
    dfs_crt_table tab;
    int L;       /* dfs_crt_bits(tab.n) */
    int lower_L; /* verify: dfs_crt_bits(tab.n - 1) (the host's next choice), or 0 */
    int verify;
    int64_t k;
    int Ln[DFS_CRT_MODULI + 1]; /* dfs_crt_bits(n) for every n (dfs_crt_step_bits): the GPU reads
                                   them instead of summing a table it would keep in local memory */
} dfs_crt_step;

/* st->Ln: the bits of every count of moduli. */
DFS_HD void dfs_crt_step_bits(dfs_crt_step *st)
{
    for (int n = 0; n <= DFS_CRT_MODULI; n++)
        st->Ln[n] = n ? dfs_crt_bits(n) : 0;
}

/* X from c[l * stride] (l < t->n <= nmax), the int32 sums of op(A)'s residues (carrying y_l:
 * dfs_crt_coefs) times op(B)'s modulo the table's moduli: the unique X with |X| <= 2^(L-1),
 * which is below M/2 (1 - 2^-7) (dfs_crt_bits; dfs_crt_row_bits keeps |X| there), as an integer
 * of nxw 64-bit words (two's complement; 3 up to 24 moduli, 5 up to 36).  With t_l = c_l mod
 * m_l (= X y_l mod m_l), sum t_l / m_l = q + X / M for an integer q, and X / M lies in (-1/2 +
 * 2^-8, 1/2 - 2^-8).  q comes from F = sum t_l floor(2^32 / m_l) in 64 bits: F / 2^32 is below
 * sum t_l / m_l by less than 36 * 256 / 2^32 < 2^-18, far less than the 2^-8 left, so q =
 * floor(F / 2^32 + 1/2) exactly.  c_l lies within 2^31 - 2^14 of 0 (k < 2^17 products of at
 * most 2^14), so c_l + K_l, K_l the least multiple of m_l from 2^31 - 2^14, lies in [0, 2^32).
 * The sum of t_l M_l goes limb by limb (the first `limbs` of M's) into 64-bit words: each term
 * is below 2^40, 36 of them below 2^46, and the carries are propagated once at the end, over
 * 2 nxw limbs. */
DFS_HD void dfs_crt_reconstruct_limbs(const dfs_crt_table *t, const int n, const int32_t *c,
                                      uint32_t stride, uint64_t *xw, const int nxw,
                                      const int limbs, const int nmax)
{
    int32_t v[DFS_CRT_MODULI];
    uint64_t acc[DFS_CRT_LIMBS], F = 0;
    DFS_UNROLLED
    for (int w = 0; w < DFS_CRT_LIMBS; w++)
        acc[w] = 0;
    /* the loads first; the address stepped (one 64-bit addition per modulus) */
    const int32_t *p = c;
    DFS_UNROLLED
    for (int l = 0; l < nmax; l++) {
        v[l] = l < n ? *p : 0;
        p += stride;
    }
    DFS_UNROLLED
    for (int l = 0; l < nmax; l++) {
        if (l < n) {
            const uint32_t m = (uint32_t)dfs_crt_modulus(l);
            const uint32_t K = (0x7fffc000u + m - 1) / m * m;
            const uint32_t tl = ((uint32_t)v[l] + K) % m;
            F += (uint64_t)tl * (uint32_t)(((uint64_t)1 << 32) / m);
            for (int w = 0; w < limbs; w++)
                acc[w] += (uint64_t)tl * t->Ml[l][w];
        }
    }
    const uint32_t q = (uint32_t)((F + 0x80000000u) >> 32);
    /* sum - q M, limb by limb with the carries and borrows in a signed 64-bit word; |X| < M/2:
     * the 2 nxw limbs hold it in two's complement */
    int64_t carry = 0;
    uint32_t o[DFS_CRT_LIMBS];
    DFS_UNROLLED
    for (int w = 0; w < DFS_CRT_LIMBS; w++) {
        if (w >= 2 * nxw)
            break;
        const uint64_t aw = w < limbs ? acc[w] : 0;
        const int64_t s = (int64_t)(aw & 0xffffffffu) - (int64_t)((uint64_t)q * t->M[w]) + carry;
        o[w] = (uint32_t)s;
        carry = (s >> 32) + (int64_t)(aw >> 32); /* s >> 32: arithmetic (floor) */
    }
    DFS_UNROLLED
    for (int i = 0; i < DFS_OZ_XW; i++)
        if (i < nxw)
            xw[i] = o[2 * i] | (uint64_t)o[2 * i + 1] << 32;
}

/* stride * n < 2^32 (the GPU's blocks of C keep it, crt_gemm.c).  Up to DFS_CRT_FAST_MODULI
 * moduli (M < 2^190: three words).  nfix: 0, or t->n as a constant where inlined (the GPU's
 * fast kernels for 13 to 20 moduli: straight code, fewer registers). */
DFS_HD void dfs_crt_reconstruct(const dfs_crt_table *t, const int32_t *c, uint32_t stride,
                                dfs_oz_i192 *x, const int nfix)
{
    /* the limbs of M and the most moduli as constants in each copy: M < 2^128 for up to 16
     * moduli, 2^160 for up to 20, 2^192 for up to 24 */
    if (nfix) /* the limbs M needs for nfix moduli, as below */
        dfs_crt_reconstruct_limbs(t, nfix, c, stride, x->w, 3,
                                  nfix <= 16 ? 4 : nfix <= 20 ? 5 : 6, nfix);
    else if (t->limbs <= 4)
        dfs_crt_reconstruct_limbs(t, t->n, c, stride, x->w, 3, 4, 16);
    else if (t->limbs == 5)
        dfs_crt_reconstruct_limbs(t, t->n, c, stride, x->w, 3, 5, 20);
    else
        dfs_crt_reconstruct_limbs(t, t->n, c, stride, x->w, 3, 6, DFS_CRT_FAST_MODULI);
}

/* The same for any count up to DFS_CRT_MODULI, X in five words (repro's verifying finish with
 * more than DFS_CRT_FAST_MODULI moduli). */
DFS_HD void dfs_crt_reconstruct_wide(const dfs_crt_table *t, const int32_t *c, uint32_t stride,
                                     dfs_oz_ix *x)
{
    dfs_crt_reconstruct_limbs(t, t->n, c, stride, x->w, DFS_OZ_XW, DFS_CRT_LIMBS - 1,
                              DFS_CRT_MODULI);
}

/* A bound, in units of 2^(tau_a + tau_b), of |sum_q a_q b_q - 2^-(bA + bB) sum_q a~_q b~_q| for
 * a row and a column with l1 norms nA, nB (dfs_oz_row_l1, every element below 1 in these units)
 * truncated to bA and bB bits: a_q - a~_q 2^-bA is below 2^-bA and below |a_q|, so its terms add
 * up to less than min(nA, 2^-bA nB), and likewise for b; doubled for the rounding of the norms. */
DFS_HD double dfs_crt_bound(int bA, int bB, double nA, double nB)
{
    const double xa = dfs_d_mul(dfs_oz_pow2m(bA), nB), xb = dfs_d_mul(dfs_oz_pow2m(bB), nA);
    const double ea = nA < xa ? nA : xa, eb = nB < xb ? nB : xb;
    return 2.0 * (ea + eb);
}

#endif
