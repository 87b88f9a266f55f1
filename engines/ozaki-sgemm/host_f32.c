/* host_f32.c — the Ozaki scheme on binary32 products (f32split.h) on the CPU: the model
 * of the ozaki-sgemm engine (f32_gemm.c, kernels_f32.cu) and its error bound.
 *
 * Row i of op(A), scaled by 2^-eA_i, is P_1 + ... + P_{S-1} (slices) + r_A (exact rest), and
 * A_S = fl32(r_A); column j of op(B), scaled by 2^-eB_j, likewise, with the rests
 * Rb_t = b - P_1 - ... - P_{t-1} (exact) and R_t = fl32(Rb_t) (R_1 = fl32(b)).  The products are
 * the pairs s + t <= S + 1:
 *
 *     A_s x (t < S + 1 - s ? P_t : R_t),   A_s = P_s for s < S,
 *
 * (S = 2: A1 B1 + A1 fl32(b - B1) + A2 fl32(b); S = 3: six products, the paper's).  For s < S the
 * B factors add up to b + (R - Rb), and A's parts to a + (A_S - r_A), so the only errors are the
 * binary32 roundings of the rests and of the products that involve one:
 *
 *     |C - exact| <= 2^(eA + eB) |alpha| [ sum_q u (sum_{s<S} |P_s| |Rb_{S+1-s}| + |r_A| |b|
 *                                                    + |A_S| |b|) + eta (sum_s |P_s| + |b| + |A_S|)
 *                                          + gamma_k sum over inexact pairs of sum_q |A_s| |B_t|
 *                                          + gamma'_pairs sum |partials| ]
 *                    + 2^-52 (|alpha v| + |beta c|) + 2^-1073
 *
 * with u = 2^-24, eta = 2^-126 (binary32's underflow, taken as flush to zero, which cuBLAS's
 * kernels may do; the headroom of f32split.h keeps it far below the values), gamma_k = k u / (1 - k u)
 * (any order of summation, with or without FMA: what cuBLAS SGEMM may do), gamma' the binary64
 * sum of the partials.  Slice x slice products are exact in binary32 in any order.  Here the
 * inexact products are summed in binary32 in order with FMA, one of the orders SGEMM may use.
 *
 * Outputs of a row and a column holding Inf or NaN, or whose ranges add up to more than
 * dfs_f32_wide_limit, are plain binary64 sums instead, as on the GPU (bound: gamma_{k+5} of
 * sum |a b|, any order; +Inf for the specials). */
#include "host.h"

#include "f32split.h"
#include "../oz/host_common.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* One row of op(A) or column of op(B), scaled and split. */
typedef struct {
    int e;           /* the scale: values were multiplied by 2^-e */
    int span;        /* top of the largest |x| minus top of the smallest nonzero one */
    int special;     /* an Inf or NaN */
    double *P[DFS_F32_MAX_SPLITS - 1];
    double *rest[DFS_F32_MAX_SPLITS]; /* rest[0]: the scaled values; Rb_t (B), r_A = rest[S-1] (A): exact */
    float *R[DFS_F32_MAX_SPLITS];     /* fl32 of rest[] */
} parts;

static void split(parts *o, const double *v, int64_t k, int S, int p)
{
    double mu = 0, lo = INFINITY;
    o->special = 0;
    for (int64_t q = 0; q < k; q++) {
        if (!isfinite(v[q]))
            o->special = 1;
        else if (v[q] != 0) {
            mu = fmax(mu, fabs(v[q]));
            lo = fmin(lo, fabs(v[q]));
        }
    }
    const int h = dfs_f32_headroom(k);
    o->e = mu > 0 ? dfs_f32_top(mu) - h : 0;
    o->span = mu > 0 ? dfs_f32_top(mu) - dfs_f32_top(lo) : 0;
    for (int64_t q = 0; q < k; q++)
        o->rest[0][q] = isfinite(v[q]) ? dfs_f32_scale(v[q], -o->e) : 0.0;
    for (int s = 0; s + 1 < S; s++) {
        for (int64_t q = 0; q < k; q++) {
            o->P[s][q] = dfs_f32_round_to(o->rest[s][q], h - (s + 1) * p);
            o->rest[s + 1][q] = o->rest[s][q] - o->P[s][q];
        }
    }
    for (int t = 0; t < S; t++)
        for (int64_t q = 0; q < k; q++)
            o->R[t][q] = (float)o->rest[t][q];
}

static int parts_alloc(parts *o, int64_t k, int S)
{
    memset(o, 0, sizeof *o);
    size_t d = (size_t)k * sizeof(double), f = (size_t)k * sizeof(float);
    int ok = 1;
    for (int s = 0; s < S - 1; s++)
        ok &= (o->P[s] = malloc(d)) != NULL;
    for (int t = 0; t < S; t++) {
        ok &= (o->rest[t] = malloc(d)) != NULL;
        ok &= (o->R[t] = malloc(f)) != NULL;
    }
    return ok;
}

static void parts_free(parts *o)
{
    for (int s = 0; s < DFS_F32_MAX_SPLITS - 1; s++)
        free(o->P[s]);
    for (int t = 0; t < DFS_F32_MAX_SPLITS; t++) {
        free(o->rest[t]);
        free(o->R[t]);
    }
}

/* Every row of op(A) (is_b: column of op(B)) of g split into o[]; 0 when memory runs out. */
static int split_all(parts *o, const gemm_in *g, int is_b, double *v, int S, int p)
{
    for (int64_t r = 0; r < (is_b ? g->n : g->m); r++) {
        if (!parts_alloc(&o[r], g->k, S))
            return 0;
        for (int64_t q = 0; q < g->k; q++)
            v[q] = is_b ? opB(g->tb, g->B, g->ldb, q, r) : opA(g->ta, g->A, g->lda, r, q);
        split(&o[r], v, g->k, S, p);
    }
    return 1;
}

/* sum_q x_q y_q in binary32, in order, with FMA */
static float dot32(const float *x, const float *y, int64_t k)
{
    float s = 0;
    for (int64_t q = 0; q < k; q++)
        s = fmaf(x[q], y[q], s);
    return s;
}

/* One output: the scaled sum of the products, and its bound (scaled, before alpha). */
static double one(const parts *a, const parts *b, int64_t k, int S, float *fa, float *fb,
                  double *bound)
{
    const double u = 0x1p-24, eta = 0x1p-126, gk = (double)k * u / (1 - (double)k * u);
    double sum = 0, mag = 0, err = 0;
    int npairs = 0;
    for (int s = 1; s <= S; s++)
        for (int t = 1; s + t <= S + 1; t++) {
            const int a_slice = s < S, b_slice = t < S + 1 - s;
            const double *xa = a_slice ? a->P[s - 1] : NULL, *xb = b_slice ? b->P[t - 1] : NULL;
            double partial, absum = 0;
            if (a_slice && b_slice) { /* exact: in binary64 (and in binary32, any order) */
                partial = 0;
                for (int64_t q = 0; q < k; q++)
                    partial += xa[q] * xb[q];
            } else {
                for (int64_t q = 0; q < k; q++) {
                    fa[q] = a_slice ? (float)xa[q] : a->R[S - 1][q];
                    fb[q] = b_slice ? (float)xb[q] : b->R[t - 1][q];
                    absum += fabs((double)fa[q] * (double)fb[q]);
                }
                partial = dot32(fa, fb, k);
                err += gk * absum + (double)k * 2 * eta; /* products may underflow */
            }
            sum += partial;
            mag += fabs(partial);
            npairs++;
        }
    /* the roundings of the rests */
    double trunc = 0;
    for (int64_t q = 0; q < k; q++) {
        const double bq = fabs(b->rest[0][q]);
        double t = fabs(a->rest[S - 1][q]) * bq + fabs((double)a->R[S - 1][q]) * bq;
        double parts_abs = fabs((double)a->R[S - 1][q]) + bq;
        for (int s = 1; s < S; s++) {
            t += fabs(a->P[s - 1][q]) * fabs(b->rest[S - s][q]);
            parts_abs += fabs(a->P[s - 1][q]);
        }
        trunc += u * t + eta * parts_abs;
    }
    const double g64 = (double)npairs * 0x1p-53 / (1 - (double)npairs * 0x1p-53);
    /* the bound's own roundings (sums of k positive terms in binary64) */
    *bound = (trunc + err + g64 * mag) * (1 + (double)(k + 8) * 0x1p-50);
    return sum;
}

void dfs_oz_f32_gemm_host(int transa, int transb, int64_t m, int64_t n, int64_t k, double alpha,
                          const double *A, int64_t lda, const double *B, int64_t ldb, double beta,
                          double *C, int64_t ldc, int splits, double *bound)
{
    const int S = splits < 2 ? 2 : splits > DFS_F32_MAX_SPLITS ? DFS_F32_MAX_SPLITS : splits;
    const int p = dfs_f32_slice_bits(k);
    parts *pa = calloc((size_t)(m > 0 ? m : 1), sizeof *pa);
    parts *pb = calloc((size_t)(n > 0 ? n : 1), sizeof *pb);
    double *v = malloc((size_t)(k > 0 ? k : 1) * sizeof *v);
    float *fa = malloc((size_t)(k > 0 ? k : 1) * sizeof *fa);
    float *fb = malloc((size_t)(k > 0 ? k : 1) * sizeof *fb);
    const gemm_in g = {transa, transb, m, n, k, A, B, lda, ldb};
    int ok = pa && pb && v && fa && fb && k > 0 && k <= DFS_F32_MAX_K &&
             split_all(pa, &g, 0, v, S, p) && split_all(pb, &g, 1, v, S, p);
    const int wide = dfs_f32_wide_limit(k);
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < m; i++) {
            double *c = &C[i + j * ldc], s, bd;
            const double bc = beta == 0 ? 0 : beta * *c;
            if (!ok || pa[i].special || pb[j].special || pa[i].span + pb[j].span > wide) {
                /* plain binary64, IEEE's specials */
                double mag = 0;
                s = 0;
                for (int64_t q = 0; q < k; q++) {
                    const double t = opA(transa, A, lda, i, q) * opB(transb, B, ldb, q, j);
                    s += t;
                    mag += fabs(t);
                }
                *c = alpha * s + bc;
                if (bound) {
                    const double gk5 = (double)(k + 5) * 0x1p-53 / (1 - (double)(k + 5) * 0x1p-53);
                    bound[i + j * m] = ok && !pa[i].special && !pb[j].special
                                           ? fabs(alpha) * gk5 * mag * (1 + 0x1p-40) +
                                                 0x1p-52 * (fabs(alpha * s) + fabs(bc)) + 0x1p-1073
                                           : INFINITY;
                }
                continue;
            }
            s = one(&pa[i], &pb[j], k, S, fa, fb, &bd);
            /* back to scale: 2^(eA + eB) in two exact steps (exact unless the result leaves
             * binary64's range) */
            const double val = dfs_f32_scale(s, pa[i].e + pb[j].e);
            *c = alpha * val + bc;
            if (bound) {
                const double sc = dfs_f32_scale(bd, pa[i].e + pb[j].e);
                bound[i + j * m] = fabs(alpha) * sc * (1 + 0x1p-40) +
                                   0x1p-52 * (fabs(alpha * val) + fabs(bc)) + 0x1p-1073;
            }
        }
    for (int64_t i = 0; pa && i < m; i++)
        parts_free(&pa[i]);
    for (int64_t j = 0; pb && j < n; j++)
        parts_free(&pb[j]);
    free(pa), free(pb), free(v), free(fa), free(fb);
}
