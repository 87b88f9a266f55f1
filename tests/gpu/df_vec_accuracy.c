/* df_vec_accuracy.c — the df_vec test's group 1 (see df_vec.c): its data (uniform, the phi
 * generator, cancellation-heavy pairs) and the accuracy of DDOT and DGEMV against the
 * double-double reference, beside native cuBLAS's, with the tables of the max errors. */
#include "df_vec_common.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------- data ---------- */

static double unif(uint64_t *s)
{
    return (double)(gt_rand(s) >> 11) * 0x1p-52 - 1.0;
}

/* gen 0: uniform [-1, 1); 1..4: (U - 0.5) exp(phi N(0,1)), phi = 0, 1, 2, 4; 5: see below. */
static const char *const gen_names[NGEN] = {"uniform", "phi=0", "phi=1", "phi=2", "phi=4",
                                            "cancel"};
static const double gen_phi[NGEN] = {0, 0, 1, 2, 4, 0};

static void fill_phi(double *x, size_t n, double phi, uint64_t seed)
{
    uint64_t s = seed;
    for (size_t i = 0; i < n; i += 2) {
        const double u1 = ((double)(gt_rand(&s) >> 11) + 1.0) * 0x1p-53;
        const double u2 = (double)(gt_rand(&s) >> 11) * 0x1p-53;
        const double rad = sqrt(-2.0 * log(u1)), t = 6.283185307179586 * u2;
        const double g[2] = {rad * cos(t), rad * sin(t)};
        for (size_t q = 0; q < 2 && i + q < n; q++) {
            const double U = (double)(gt_rand(&s) >> 11) * 0x1p-53;
            x[i + q] = phi == 0 ? U - 0.5 : (U - 0.5) * exp(phi * g[q]);
        }
    }
}

/* (U - 0.5) 2^e, e uniform in [-15, 15]: the wide-exponent values of the cancellation data. */
static double wide(uint64_t *s)
{
    const double U = (double)(gt_rand(s) >> 11) * 0x1p-53;
    return ldexp(U - 0.5, (int)(gt_rand(s) % 31) - 15);
}

/* v (1 + d), |d| < 2^-21: the partner of v in a cancelling pair. */
static double perturb(double v, uint64_t *s)
{
    return v * (1.0 + ((double)(gt_rand(s) >> 11) * 0x1p-53 - 0.5) * 0x1p-20);
}

static void fill_vec(double *x, size_t n, int gen, uint64_t seed)
{
    if (gen == 0)
        gt_fill(x, n, seed);
    else
        fill_phi(x, n, gen_phi[gen], seed);
}

/* DDOT data.  Cancellation: x[h+i] = x[i] (1 + d_i), y[h+i] = -y[i] (h = n/2), x wide-exponent:
 * sum x y = -sum x_i y_i d_i, some 2^-21 of sum |x y|. */
static void fill_dot(double *x, double *y, int64_t n, int gen, uint64_t seed)
{
    if (gen != NGEN - 1) {
        fill_vec(x, (size_t)n, gen, seed);
        fill_vec(y, (size_t)n, gen, seed + 1);
        return;
    }
    uint64_t s = seed;
    const int64_t h = n / 2;
    for (int64_t i = 0; i < h; i++) {
        x[i] = wide(&s);
        y[i] = unif(&s);
        x[h + i] = perturb(x[i], &s);
        y[h + i] = -y[i];
    }
    if (n & 1) {
        x[n - 1] = wide(&s) * 0x1p-20;
        y[n - 1] = unif(&s);
    }
}

/* GEMV data for the stored m x n matrix A, x for op N (n elements) and op T (m).  Cancellation:
 * A's four quadrants (hm = m/2, hn = n/2) are one wide-exponent block perturbed three ways, and
 * x = [x1, -x1] (an odd last element 2^-20 small): every output of op(A) x cancels. */
static void fill_gemv(double *A, int64_t m, int64_t n, double *xN, double *xT, int gen,
                      uint64_t seed)
{
    if (gen != NGEN - 1) {
        fill_vec(A, (size_t)(m * n), gen, seed);
        fill_vec(xN, (size_t)n, gen, seed + 1);
        fill_vec(xT, (size_t)m, gen, seed + 2);
        return;
    }
    uint64_t s = seed;
    for (int64_t i = 0; i < m * n; i++)
        A[i] = wide(&s);
    const int64_t hm = m / 2, hn = n / 2;
    for (int64_t j = 0; j < hn; j++)
        for (int64_t i = 0; i < hm; i++) {
            const double b = A[i + j * m];
            A[i + (j + hn) * m] = perturb(b, &s);
            A[i + hm + j * m] = perturb(b, &s);
            A[i + hm + (j + hn) * m] = perturb(b, &s);
        }
    double *xs[2] = {xN, xT};
    const int64_t len[2] = {n, m};
    for (int t = 0; t < 2; t++) {
        const int64_t h = len[t] / 2;
        for (int64_t i = 0; i < h; i++) {
            xs[t][i] = unif(&s);
            xs[t][h + i] = -xs[t][i];
        }
        if (len[t] & 1)
            xs[t][len[t] - 1] = unif(&s) * 0x1p-20;
    }
}

/* ---------- 1. accuracy: DDOT ---------- */

static const int64_t dot_ns[5] = {1, 7, 1000, 1 << 20, DOT_MAXN};
static const int64_t inc3[3] = {1, 3, -2};
/* (incx, incy) for the largest n */
static const int64_t big_incs[3][2] = {{1, 1}, {3, -2}, {-2, 3}};

typedef struct {
    errs df, nat;
    double bound;
    int cases;
} tab_row;

void accuracy_dot_group(void)
{
    static tab_row tab[5][NGEN];
    df_group("accuracy DDOT (scheme %s): n in {1,7,1000,2^20,2^24+3} x (incx,incy) in {1,3,-2}^2 "
          "(2^24+3: (1,1),(3,-2),(-2,3)) x host/device ptr x data {uniform, phi=0,1,2,4, "
          "cancel}: |r - ref| / sum|x y| <= %s; each call twice (bitwise), host = device ptr "
          "(bitwise), host-mode result in the variable as the call returns", scheme_name,
          df_test_bound_text(scheme));
    double *x = df_xmalloc((size_t)DOT_MAXN), *y = df_xmalloc((size_t)DOT_MAXN);
    size_t layout_diff = 0, layout_total = 0;
    for (int ni = 0; ni < 5; ni++) {
        const int64_t n = dot_ns[ni];
        const double bound = df_test_bound(scheme, n);
        for (int gi = 0; gi < NGEN; gi++) {
            tab_row *row = &tab[ni][gi];
            errs_init(&row->df);
            errs_init(&row->nat);
            row->bound = bound;
            fill_dot(x, y, n, gi, 7000 + 100 * (uint64_t)ni + 10 * (uint64_t)gi);
            const vref f = ref_dot(x, 1, y, 1, n, 0);
            const int ncombo = ni < 4 ? 9 : 3;
            double first = 0;
            for (int cc = 0; cc < ncombo; cc++) {
                /* every other data set in reverse: the staging buffers keep their gaps */
                const int c = gi & 1 ? ncombo - 1 - cc : cc;
                const int64_t incx = ni < 4 ? inc3[c / 3] : big_incs[c][0];
                const int64_t incy = ni < 4 ? inc3[c % 3] : big_incs[c][1];
                gt_h2d(dX, hX, stage_vec(&sX, x, n, incx, qnan) * sizeof *hX);
                gt_h2d(dY, hY, stage_vec(&sY, y, n, incy, qnan) * sizeof *hY);
                double host_r = 0;
                for (int dev = 0; dev < 2; dev++) {
                    const int is64 = (c + dev) & 1;
                    gt_case("%s n=%lld incx=%lld incy=%lld %s ptr=%s", gt_dot_name(is64),
                            (long long)n, (long long)incx, (long long)incy, gen_names[gi],
                            dev ? "device" : "host");
                    row->cases++;
                    const double r = dot_shim(is64, n, incx, incy, dev);
                    const double r2 = dot_shim(is64, n, incx, incy, dev);
                    const double rn = dot_real(is64, n, incx, incy, dev);
                    errs e, en;
                    errs_init(&e);
                    errs_init(&en);
                    verdict v = judge(r, &f, 1.0, 0.0, 0.0, bound);
                    errs_add(&e, &v, 0, r);
                    v = judge(rn, &f, 1.0, 0.0, 0.0, bound);
                    errs_add(&en, &v, 0, rn);
                    errs_report(&e, "result", bound);
                    errs_merge(&row->df, &e);
                    errs_merge(&row->nat, &en);
                    same_bits("the same call again", &r, &r2, 1, "first", "second");
                    if (!dev)
                        host_r = r;
                    else
                        same_bits("device vs host pointer mode", &host_r, &r, 1, "host",
                                  "device");
                    if (cc == 0 && dev == 0)
                        first = r;
                    layout_total++;
                    layout_diff += df_bits(r) != df_bits(first);
                }
            }
        }
    }
    free(x);
    free(y);
    df_group_end();
    printf("     results that differ (bitwise) from the first of the same data with other "
           "increments (not required): %zu of %zu\n", layout_diff, layout_total);
    printf("     DDOT accuracy (scheme %s, u = 2^-24): max |r - ref| / sum|x y| over the "
           "increments and pointer modes\n", scheme_name);
    for (int ni = 0; ni < 5; ni++)
        for (int gi = 0; gi < NGEN; gi++) {
            const tab_row *t = &tab[ni][gi];
            printf("     n=%-9lld %-8s df %9.3e (%8.3f u^2)  native %9.3e  df/native %8.3g  "
                   "bound %9.3e  (%d calls)\n", (long long)dot_ns[ni], gen_names[gi], t->df.norm,
                   t->df.norm / 0x1p-48, t->nat.norm,
                   t->nat.norm > 0 ? t->df.norm / t->nat.norm : INFINITY, t->bound, t->cases);
        }
}

/* ---------- 1. accuracy: DGEMV ---------- */

static const int64_t gemv_shapes[7][2] = {{1, 1},       {37, 19},     {1000, 300}, {300, 1000},
                                          {4096, 4096}, {16384, 64}, {64, 16384}};
static const double alphas3[3] = {1, 0.5, -3};
static const double betas3[3] = {0, 1, -0.75};
static const int64_t inc2[2] = {1, -2};

/* Up to NSAMP outputs below len: the ends, both sides of 256, the middle, then random ones. */
static int sample_outputs(int64_t len, int64_t *out, uint64_t seed)
{
    int cnt = 0;
    const int64_t fixed[7] = {0, len - 1, 255, 256, len / 2, 31, 32};
    uint64_t s = seed;
    for (int f = 0; cnt < NSAMP; f++) {
        int64_t v = f < 7 ? fixed[f] : (int64_t)(gt_rand(&s) % (uint64_t)len);
        int dup = v >= len;
        for (int c = 0; c < cnt && !dup; c++)
            dup = out[c] == v;
        if (!dup)
            out[cnt++] = v;
    }
    return cnt;
}

void accuracy_gemv_group(void)
{
    static tab_row tab[7][2][NGEN];
    df_group("accuracy DGEMV (scheme %s): m x n in {1x1, 37x19, 1000x300, 300x1000, 4096x4096 "
          "(%d sampled outputs), 16384x64, 64x16384} x ops N,T,C x lda tight/+5 x (incx,incy) in "
          "{1,-2}^2 x alpha {1,0.5,-3} x beta {0,1,-0.75} x host/device ptr x data {uniform, "
          "phi=0,1,2,4, cancel}: |y - ref| / (|alpha| sum|a x| + |beta y|) <= %s; each call "
          "twice (bitwise), host = device ptr (bitwise), C = T (bitwise); beta = 0 with y full "
          "of NaN", scheme_name, NSAMP, df_test_bound_text(scheme));
    const size_t maxlen = 16384;
    double *ycur[2][2], *yfirst[2][9], *nan_vec = df_xmalloc(maxlen);
    double *yN = df_xmalloc(maxlen), *yT = df_xmalloc(maxlen), *xN = df_xmalloc(maxlen),
           *xT = df_xmalloc(maxlen);
    double *yl = df_xmalloc(maxlen), *yl2 = df_xmalloc(maxlen), *yn = df_xmalloc(maxlen),
           *yc = df_xmalloc(maxlen);
    for (int t = 0; t < 2; t++) {
        for (int d = 0; d < 2; d++)
            ycur[t][d] = df_xmalloc(maxlen);
        for (int a = 0; a < 9; a++)
            yfirst[t][a] = df_xmalloc(maxlen);
    }
    gt_fill_const(nan_vec, maxlen, qnan);
    vref *R[2] = {malloc(maxlen * sizeof(vref)), malloc(maxlen * sizeof(vref))};
    int64_t *outs[2] = {malloc(maxlen * sizeof(int64_t)), malloc(maxlen * sizeof(int64_t))};
    double *A = df_xmalloc((size_t)4096 * 4096);
    if (!R[0] || !R[1] || !outs[0] || !outs[1])
        gt_fatal("out of host memory");
    size_t layout_diff = 0, layout_total = 0;
    int counter = 0;
    for (int si = 0; si < 7; si++) {
        const int64_t m = gemv_shapes[si][0], n = gemv_shapes[si][1];
        const int sampled = m * n > 4096 * 1024;
        for (int gi = 0; gi < NGEN; gi++) {
            const uint64_t seed = 9000 + 100 * (uint64_t)si + 10 * (uint64_t)gi;
            fill_gemv(A, m, n, xN, xT, gi, seed);
            gt_fill(yN, (size_t)m, seed + 5);
            gt_fill(yT, (size_t)n, seed + 6);
            int nout[2];
            for (int t = 0; t < 2; t++) {
                const int64_t len = t ? n : m;
                if (sampled) {
                    nout[t] = sample_outputs(len, outs[t], seed + 7 + (uint64_t)t);
                } else {
                    nout[t] = (int)len;
                    for (int64_t r = 0; r < len; r++)
                        outs[t][r] = r;
                }
                for (int q = 0; q < nout[t]; q++)
                    R[t][q] = ref_out(A, m, n, t, outs[t][q], t ? xT : xN, 0);
                tab_row *row = &tab[si][t][gi];
                errs_init(&row->df);
                errs_init(&row->nat);
                row->bound = df_test_bound(scheme, t ? m : n);
                row->cases = 0;
            }
            for (int pad = 0; pad <= 5; pad += 5) {
                const int64_t lda = m + pad;
                upload_A(dA, hA, A_BUF, A, m, n, lda);
                for (int ic = 0; ic < 4; ic++) {
                    const int64_t incx = inc2[ic / 2], incy = inc2[ic % 2];
                    size_t sp = lay_vec(hX, xN, n, incx, qnan);
                    gt_h2d(dX, hX, sp * sizeof *hX);
                    sp = lay_vec(hX, xT, m, incx, qnan);
                    gt_h2d(dX + XT_OFF, hX, sp * sizeof *hX);
                    sX.n = -1; /* hX rewritten */
                    make_ytemplates(hYt, yN, yT, m, n, incy, nan_vec, Y_GAP);
                    for (int ab = 0; ab < 9; ab++) {
                        const double alpha = alphas3[ab / 3], beta = betas3[ab % 3];
                        for (int dev = 0; dev < 2; dev++) {
                            const int is64 = counter++ & 1;
                            for (int t = 0; t < 3; t++) { /* N, T, C */
                                const int tr = t > 0;
                                const cublasOperation_t op =
                                    t == 0 ? CUBLAS_OP_N : t == 1 ? CUBLAS_OP_T : CUBLAS_OP_C;
                                const int64_t len = tr ? n : m, k = tr ? m : n;
                                const double bound = df_test_bound(scheme, k);
                                const double *ytm = hYt[2 * tr + (beta == 0.0)];
                                const double *y0 = tr ? yT : yN;
                                gparams p = {op, m, n, lda, incx, incy, alpha, beta, dev, is64,
                                             dA, tr ? dX + XT_OFF : dX};
                                gt_case("%s %lldx%lld op=%c lda=%lld incx=%lld incy=%lld "
                                        "alpha=%g beta=%g %s ptr=%s", gt_gemv_name(is64),
                                        (long long)m, (long long)n, gt_op_char(op),
                                        (long long)lda, (long long)incx, (long long)incy, alpha,
                                        beta, gen_names[gi], dev ? "device" : "host");
                                if (t == 2) {
                                    run_gemv(0, &p, ytm, yc);
                                    same_bits("op C vs op T", ycur[1][dev], yc, len, "T", "C");
                                    continue;
                                }
                                tab_row *row = &tab[si][tr][gi];
                                row->cases++;
                                run_gemv(0, &p, ytm, yl);
                                run_gemv(0, &p, ytm, yl2);
                                run_gemv(1, &p, ytm, yn);
                                memcpy(ycur[tr][dev], yl, (size_t)len * sizeof *yl);
                                same_bits("the same call again", yl, yl2, len, "first", "second");
                                if (dev)
                                    same_bits("device vs host pointer mode", ycur[tr][0], yl, len,
                                              "host", "device");
                                if (beta == 0.0) {
                                    int64_t bad = -1;
                                    for (int64_t r = 0; r < len && bad < 0; r++)
                                        if (isnan(yl[r]))
                                            bad = r;
                                    if (bad >= 0)
                                        gt_fail("y(%lld) is NaN with beta = 0 (the NaN in y "
                                                "propagated?)", (long long)bad);
                                }
                                errs e, en;
                                errs_init(&e);
                                errs_init(&en);
                                for (int q = 0; q < nout[tr]; q++) {
                                    const int64_t r = outs[tr][q];
                                    verdict v = judge(yl[r], &R[tr][q], alpha, beta, y0[r], bound);
                                    errs_add(&e, &v, r, yl[r]);
                                    v = judge(yn[r], &R[tr][q], alpha, beta, y0[r], bound);
                                    errs_add(&en, &v, r, yn[r]);
                                }
                                errs_report(&e, "y", bound);
                                errs_merge(&row->df, &e);
                                errs_merge(&row->nat, &en);
                                if (pad == 0 && ic == 0 && dev == 0) {
                                    memcpy(yfirst[tr][ab], yl, (size_t)len * sizeof *yl);
                                } else {
                                    layout_total++;
                                    layout_diff += memcmp(yfirst[tr][ab], yl,
                                                          (size_t)len * sizeof *yl) != 0;
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    df_group_end();
    printf("     result vectors that differ (bitwise) from those of the same data with lda tight "
           "and incx = incy = 1 (not required): %zu of %zu\n", layout_diff, layout_total);
    printf("     DGEMV accuracy (scheme %s, u = 2^-24): max |y - ref| / (|alpha| sum|a x| + "
           "|beta y|) over lda, increments, alpha, beta, pointer modes (C: bitwise T)\n",
           scheme_name);
    for (int si = 0; si < 7; si++)
        for (int t = 0; t < 2; t++)
            for (int gi = 0; gi < NGEN; gi++) {
                const tab_row *r = &tab[si][t][gi];
                char shape[32];
                snprintf(shape, sizeof shape, "%lldx%lld %c", (long long)gemv_shapes[si][0],
                         (long long)gemv_shapes[si][1], t ? 'T' : 'N');
                printf("     %-13s %-8s df %9.3e (%8.3f u^2)  native %9.3e  df/native %8.3g  "
                       "bound %9.3e  (%d calls)\n", shape, gen_names[gi], r->df.norm,
                       r->df.norm / 0x1p-48, r->nat.norm,
                       r->nat.norm > 0 ? r->df.norm / r->nat.norm : INFINITY, r->bound, r->cases);
            }
    for (int t = 0; t < 2; t++) {
        for (int d = 0; d < 2; d++)
            free(ycur[t][d]);
        for (int a = 0; a < 9; a++)
            free(yfirst[t][a]);
        free(R[t]);
        free(outs[t]);
    }
    free(nan_vec);
    free(yN);
    free(yT);
    free(xN);
    free(xT);
    free(yl);
    free(yl2);
    free(yn);
    free(yc);
    free(A);
}
