/* crt.h — the arithmetic of the Ozaki scheme II (products of integers through the Chinese
 * remainder theorem), for the correctly rounded DGEMM on integer tensor cores (issue 6;
 * host_crt.c is its CPU implementation, the GPU side comes next).
 *
 * Row r of op(A) is scaled by 2^(b - tau_r) and truncated to integers below 2^b in magnitude
 * (likewise the columns of op(B)); their exact integer product X = sum_q a~_q b~_q is found from
 * its residues modulo N small pairwise coprime moduli m_l <= 256: residues fit in int8, and the
 * products of residues summed over k < 2^17 terms fit in int32, so each modulus is one exact
 * int8 GEMM with int32 accumulation.  The sum of t_l M_l (t_l from the residues) gives X modulo
 * M = prod m_l, and X itself when M > 4 |X| (dfs_crt_reconstruct).  The truncation error is bounded from the rows' l1 norms (as
 * dfs_oz_tail_bound does for slices), so each output can be rounded correctly or sent to the
 * exact direct path, as in the scheme-I engine (README.md). */
#ifndef DFS_OZ_CRT_H
#define DFS_OZ_CRT_H

#include "oz_steps.h"

#define DFS_CRT_MODULI 24 /* usable moduli: their product stays below 2^190 */

/* Modulus l (0 <= l < DFS_CRT_MODULI): pairwise coprime, the largest first. */
DFS_HD int dfs_crt_modulus(int l)
{
    const int m[DFS_CRT_MODULI] = {256, 255, 253, 251, 247, 241, 239, 233, 229, 227, 223, 217,
                                   211, 199, 197, 193, 191, 181, 179, 173, 167, 163, 157, 151};
    return m[l];
}

/* floor(1024 log2 m_l), the moduli's sizes in 1/1024 bit, from below. */
DFS_HD int dfs_crt_log2_1024(int l)
{
    const int v[DFS_CRT_MODULI] = {8192, 8186, 8174, 8162, 8139, 8102, 8090, 8052,
                                   8027, 8014, 7988, 7947, 7906, 7819, 7804, 7774,
                                   7759, 7679, 7663, 7613, 7560, 7525, 7469, 7412};
    return v[l];
}

/* A lower bound of log2 of the product of the first n moduli (within n/1024 of it, floored). */
DFS_HD int dfs_crt_bits(int n)
{
    int s = 0;
    for (int l = 0; l < n; l++)
        s += dfs_crt_log2_1024(l);
    return s >> 10;
}

/* The moduli needed for integers of b bits (each |a~| < 2^b) and k terms: M >= 2^(2b + ceil(log2
 * k) + 2) > 4 |X|.  0 if more than DFS_CRT_MODULI would be needed. */
DFS_HD int dfs_crt_count(int b, int64_t k)
{
    const int want = 2 * b + dfs_oz_ceil_log2(k) + 2;
    for (int n = 1; n <= DFS_CRT_MODULI; n++)
        if (dfs_crt_bits(n) >= want)
            return n;
    return 0;
}

/* a~ = trunc(a 2^(b - tau)) for a finite a with |a| < 2^tau, 1 <= b <= 100: |a~| < 2^b. */
DFS_HD void dfs_crt_scale(double a, int tau, int b, int *neg, dfs_u128 *mag)
{
    uint64_t m;
    int e;
    *neg = dfs_d_split(a, &m, &e);
    const int sh = e + b - tau; /* a~ = m 2^sh, truncated */
    if (m == 0 || sh <= -64)
        *mag = 0;
    else if (sh < 0)
        *mag = (dfs_u128)(m >> -sh);
    else
        *mag = (dfs_u128)m << sh; /* below 2^b: no overflow */
}

/* The residue of (-1)^neg mag modulo m, in [-(m/2), (m-1)/2] (fits int8 for m <= 256). */
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

/* What reconstruction with the first n moduli needs, computed once per call on the host (and
 * small enough to travel in a kernel's arguments): M = prod m_l, M_l = M / m_l, y_l = M_l^-1
 * modulo m_l, as four-word integers (M < 2^190). */
typedef struct {
    int n;
    int y[DFS_CRT_MODULI];
    uint64_t Ml[DFS_CRT_MODULI][3], M[3];
} dfs_crt_table;

/* x = x * v for a three-word unsigned x (no overflow here: every product stays below M). */
DFS_HD void dfs_crt_mul_small(uint64_t x[3], uint64_t v)
{
    uint64_t carry = 0;
    for (int w = 0; w < 3; w++) {
        const dfs_u128 s = (dfs_u128)x[w] * v + carry;
        x[w] = (uint64_t)s;
        carry = (uint64_t)(s >> 64);
    }
}

DFS_HD void dfs_crt_table_init(dfs_crt_table *t, int n)
{
    t->n = n;
    t->M[0] = 1;
    t->M[1] = t->M[2] = 0;
    for (int l = 0; l < n; l++)
        dfs_crt_mul_small(t->M, (uint64_t)dfs_crt_modulus(l));
    for (int l = 0; l < n; l++) {
        const int m = dfs_crt_modulus(l);
        uint64_t *Ml = t->Ml[l];
        int r = 1; /* M_l mod m */
        Ml[0] = 1;
        Ml[1] = Ml[2] = 0;
        for (int j = 0; j < n; j++)
            if (j != l) {
                dfs_crt_mul_small(Ml, (uint64_t)dfs_crt_modulus(j));
                r = r * (dfs_crt_modulus(j) % m) % m;
            }
        t->y[l] = dfs_crt_inverse(r, m);
    }
}

/* X from its residues c[l] (any integers, reduced here) modulo the table's moduli: the unique X
 * with |X| < M/4 (dfs_crt_count leaves that room), as a 192-bit integer.  With
 * t_l = c_l y_l mod m_l, X = sum t_l M_l - q M where q is the nearest integer to
 * sum t_l / m_l (a sum of n terms below 1 in binary64: off by far less than the 1/4 of room). */
DFS_HD void dfs_crt_reconstruct(const dfs_crt_table *t, const int64_t *c, dfs_oz_i192 *x)
{
    uint64_t X[3] = {0, 0, 0};
    double f = 0.0;
    for (int l = 0; l < t->n; l++) {
        const int m = dfs_crt_modulus(l);
        int64_t r = c[l] % m;
        r = r < 0 ? r + m : r;
        const uint64_t tl = (uint64_t)(r * t->y[l] % m);
        f += (double)tl / (double)m;
        uint64_t carry = 0;
        for (int w = 0; w < 3; w++) { /* X += t_l M_l (below n M < 2^192) */
            const dfs_u128 s = (dfs_u128)t->Ml[l][w] * tl + X[w] + carry;
            X[w] = (uint64_t)s;
            carry = (uint64_t)(s >> 64);
        }
    }
    uint64_t qM[3] = {t->M[0], t->M[1], t->M[2]};
    dfs_crt_mul_small(qM, (uint64_t)(f + 0.5)); /* q M <= X + M/4: no overflow */
    uint64_t borrow = 0;
    for (int w = 0; w < 3; w++) { /* X - q M, two's complement */
        const uint64_t d = X[w] - qM[w] - borrow;
        borrow = (X[w] < qM[w]) || (X[w] - qM[w] < borrow);
        x->w[w] = d;
    }
}

/* A bound, in units of 2^(tau_a + tau_b), of |sum_q a_q b_q - 2^-2b sum_q a~_q b~_q| for k terms
 * with l1 norms nrm_a, nrm_b (dfs_oz_row_l1): the truncation leaves below 2^-b and below |a_q|
 * per element, |b_q| < 1 and |a~_q| 2^-b < 1; doubled for the rounding of the norms. */
DFS_HD double dfs_crt_bound(int64_t k, int b, double nrm_a, double nrm_b)
{
    const double kp = (double)k * dfs_oz_pow2m(b);
    const double ea = nrm_a < kp ? nrm_a : kp, eb = nrm_b < kp ? nrm_b : kp;
    return 2.0 * (ea + eb);
}

#endif
