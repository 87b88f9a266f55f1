/* crt_finish.h — one output of the DGEMM by the Ozaki scheme II (crt.h) from its residues: the
 * body of the GPU finish kernel (kernels.cu) and of the CPU twin (host_crt.c), host and
 * device alike, so that both give the same bits in both modes:
 *   fast    C = alpha RN(X 2^e0) + beta C (fma), X the exact product of the truncated row and
 *           column: the int8 engine (README.md: its error bound);
 *   verify  C = RN(alpha S + beta C) for the exact S, or the output goes direct: the truncation
 *           bounded (dfs_crt_bound) against the rounding margin, as in the scheme-I finish. */
#ifndef DFS_OZ_CRT_FINISH_H
#define DFS_OZ_CRT_FINISH_H

#include "crt.h"

#if !defined(__CUDACC__)
#include <math.h> /* scalbn (exact) */
#endif

/* RN(X 2^e0) in binary64, from the top 64 bits of |X| with a sticky bit (one rounding, then an
 * exact scaling; results in the subnormal range are rounded twice, the same way on the CPU
 * and the GPU).  Written without indexing or loops over words, for registers. */
DFS_HD double dfs_crt_to_double(const dfs_oz_i192 *x, int e0)
{
    const int neg = (int)(x->w[2] >> 63);
    uint64_t w0 = x->w[0], w1 = x->w[1], w2 = x->w[2];
    if (neg) { /* |X|: two's complement negation */
        w0 = ~w0 + 1;
        const uint64_t c1 = w0 == 0;
        w1 = ~w1 + c1;
        const uint64_t c2 = c1 && w1 == 0;
        w2 = ~w2 + c2;
    }
    /* the top word and the two below it */
    int base = 128;
    if (w2 == 0) {
        w2 = w1;
        w1 = w0;
        w0 = 0;
        base = 64;
        if (w2 == 0) {
            w2 = w1;
            w1 = 0;
            base = 0;
        }
    }
    if (w2 == 0)
        return 0.0;
    const int z = dfs_clz64(w2);
    const uint64_t top = z ? w2 << z | w1 >> (64 - z) : w2;
    const uint64_t rest = (z ? w1 << z : w1) | w0;
#if defined(__CUDA_ARCH__)
    double r = __ull2double_rn(top | (rest != 0));
#else
    double r = (double)(top | (rest != 0)); /* 64 bits, sticky below the rounding bit */
#endif
    /* r 2^s, r in [2^63, 2^64]: a multiplication by the normal 2^s when the result is normal
     * (exact, what scalbn gives), scalbn itself near the ends of the range */
    const int s = e0 + base - z;
    if (s >= -1022 && s <= 1023 - 64)
        r = dfs_d_mul(r, dfs_d_from_bits((uint64_t)(s + 1023) << 52));
    else
        r = scalbn(r, s);
    return neg ? -r : r;
}

/* The int8 engine's output (fast) from residue sums c[l * stride] of a row and a column with top
 * exponents ta, tb truncated to bA and bB bits (nfix: dfs_crt_reconstruct), special: either
 * holds Inf or NaN: *v = alpha RN(X 2^e0) + beta cv (cv, C's value, not read when beta = 0),
 * DFS_OZ_WRITTEN, or DFS_OZ_LISTED (special). */
DFS_HD int dfs_crt_output_fast(const dfs_crt_step *st, const int nfix, const int32_t *c,
                               uint32_t stride, int ta, int tb, int bA, int bB, int special,
                               double alpha, double beta, double cv, double *v)
{
    if (alpha == 0 || st->k == 0) { /* C = beta C, as cuBLAS: A and B not read */
        *v = beta != 0 ? dfs_d_mul(beta, cv) : 0.0;
        return DFS_OZ_WRITTEN;
    }
    if (special)
        return DFS_OZ_LISTED;
    double s = 0.0;
    if (ta != DFS_OZ_NONE_TAU && tb != DFS_OZ_NONE_TAU) {
        dfs_oz_i192 x;
        dfs_crt_reconstruct(&st->tab, c, stride, &x, nfix);
        s = dfs_crt_to_double(&x, ta + tb - bA - bB);
    }
    if (beta == 0)
        *v = alpha == 1 ? s : dfs_d_mul(alpha, s);
    else
        *v = dfs_d_fma(alpha, s, dfs_d_mul(beta, cv));
    return DFS_OZ_WRITTEN;
}

/* Output with residue sums c[l * stride] of a row and a column with top exponents ta, tb,
 * truncated to bA = dfs_crt_row_bits(st->L, sA, k) and bB bits (nA, nB: their l1 norms,
 * dfs_oz_row_l1; sA, sB: their sums of squares, dfs_oz_row_l2sq; read in verify only),
 * special: either holds Inf or NaN.  alpha, beta, cv (C's
 * value; not read when beta = 0).  DFS_OZ_WRITTEN with *v, or DFS_OZ_LISTED (special values, or
 * alpha S + beta C beyond the window), or DFS_OZ_UNDECIDED (verify: the truncation could change
 * the rounding).  Not verifying: dfs_crt_output_fast.  *lower (verify, written): one modulus
 * fewer would have left it undecided.  win, res: DFS_OZ_WIN and DFS_OZ_RWIN words (verify
 * only). */
DFS_HD int dfs_crt_output(const dfs_crt_step *st, const int32_t *c, uint32_t stride, int ta,
                          int tb, int bA, int bB, double nA, double nB, double sA, double sB,
                          int special, double alpha, double beta, double cv, int64_t *win,
                          int64_t *res, double *v,
                          int *lower)
{
    *lower = 0;
    if (!st->verify)
        return dfs_crt_output_fast(st, 0, c, stride, ta, tb, bA, bB, special, alpha, beta, cv, v);
    if (alpha == 0 || st->k == 0) { /* C = beta C, as cuBLAS: A and B not read */
        *v = beta != 0 ? dfs_d_mul(beta, cv) : 0.0;
        return DFS_OZ_WRITTEN;
    }
    if (special)
        return DFS_OZ_LISTED;
    dfs_oz_i192 x = {{0, 0, 0}};
    const int zero = ta == DFS_OZ_NONE_TAU || tb == DFS_OZ_NONE_TAU;
    if (!zero)
        dfs_crt_reconstruct(&st->tab, c, stride, &x, 0);
    const int e0 = zero ? 0 : ta + tb - bA - bB;
    int margin;
    if (!dfs_oz_i192_axpby(&x, e0, alpha, beta, cv, win, DFS_OZ_WIN, e0, res, DFS_OZ_RWIN, v,
                           &margin))
        return DFS_OZ_LISTED;
    if (zero)
        return DFS_OZ_WRITTEN; /* exact: nothing was truncated */
    if (!dfs_oz_decided(dfs_crt_bound(bA, bB, nA, nB), ta, tb, alpha, margin))
        return DFS_OZ_UNDECIDED;
    if (st->lower_L > 0) {
        const int lA = dfs_crt_row_bits(st->lower_L, sA, st->k),
                  lB = dfs_crt_row_bits(st->lower_L, sB, st->k);
        *lower = lA == 0 || lB == 0 ||
                 !dfs_oz_decided(dfs_crt_bound(lA, lB, nA, nB), ta, tb, alpha, margin);
    }
    return DFS_OZ_WRITTEN;
}

#endif
