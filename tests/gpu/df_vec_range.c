/* df_vec_range.c — the df_vec test's group 2 (see df_vec.c): DDOT and DGEMV with elements outside
 * the fast window (scaled far up or down, subnormal, mixed, single huge elements, overflowing
 * sums and products): the scenarios, their data, the tallies and the tables. */
#include "df_vec_common.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------- 2. range ---------- */

/* How a scenario changes uniform data: which operands are scaled and how. */
enum {
    SC_NONE,
    SC_MUL,   /* times a constant */
    SC_MIXED, /* times 1e200 or 1e-200, at random */
};

typedef struct {
    const char *desc;
    int a_how;      /* first operand: DDOT x, DGEMV A */
    double a_by;
    int x_how;      /* second operand: DDOT y, DGEMV x */
    double x_by;
    int special;    /* scenario-specific edits, below */
    int native_cmp; /* native computes without intermediate overflow: compare its kinds */
} range_sc;

enum {
    RS_NONE,
    RS_HUGE_A,     /* one element of the first operand 1e300 */
    RS_HUGE_X,     /* one element of the second operand 1e300 */
    RS_OVF_POS,    /* products ~2^1020 of one sign, the sum overflows */
    RS_OVF_PROD,   /* one product 1e310 (DDOT); DGEMV: see range_edit_gemv */
    RS_CANCEL_OVF, /* products +-1e310 that cancel: exact result finite */
    RS_PARTIAL,    /* DDOT: +-1.5e308 terms whose partial sums may overflow, exact finite */
};

static const range_sc range_scs[] = {
    {"x,y (A,x) * 2^300", SC_MUL, 0x1p300, SC_MUL, 0x1p300, RS_NONE, 1},
    {"x,y (A,x) * 2^-300", SC_MUL, 0x1p-300, SC_MUL, 0x1p-300, RS_NONE, 1},
    {"x (A) * 2^300, y (x) * 2^-300", SC_MUL, 0x1p300, SC_MUL, 0x1p-300, RS_NONE, 1},
    {"x (A) * 1e-310 (subnormal)", SC_MUL, 1e-310, SC_NONE, 1, RS_NONE, 1},
    {"x (A) * 1e-310, y (x) * 2^300", SC_MUL, 1e-310, SC_MUL, 0x1p300, RS_NONE, 1},
    {"x,y (A,x) * 1e-310 (exact result below the subnormals)", SC_MUL, 1e-310, SC_MUL, 1e-310,
     RS_NONE, 1},
    {"x (A) mixed 1e200 / 1e-200", SC_MIXED, 0, SC_NONE, 1, RS_NONE, 1},
    {"y (x) mixed 1e200 / 1e-200", SC_NONE, 1, SC_MIXED, 0, RS_NONE, 1},
    {"both mixed 1e200 / 1e-200 (products 1e400: the exact sums overflow)", SC_MIXED, 0,
     SC_MIXED, 0, RS_NONE, 0},
    {"one element of x (A) = 1e300", SC_NONE, 1, SC_NONE, 1, RS_HUGE_A, 1},
    {"one element of y (x) = 1e300", SC_NONE, 1, SC_NONE, 1, RS_HUGE_X, 1},
    {"products ~2^1020 of one sign: the sum overflows", SC_NONE, 1, SC_NONE, 1, RS_OVF_POS, 1},
    {"one product 1e300 * 1e10 (overflows)", SC_NONE, 1, SC_NONE, 1, RS_OVF_PROD, 1},
    {"products +1e310 and -1e310 cancel: the exact result is finite (native: Inf - Inf)",
     SC_NONE, 1, SC_NONE, 1, RS_CANCEL_OVF, 0},
};
#define N_RANGE (int)(sizeof range_scs / sizeof range_scs[0])

static void scale_vec(double *v, size_t n, int how, double by, uint64_t seed)
{
    uint64_t s = seed;
    for (size_t i = 0; i < n; i++) {
        if (how == SC_MUL)
            v[i] *= by;
        else if (how == SC_MIXED)
            v[i] *= (gt_rand(&s) & 1) ? 1e200 : 1e-200;
    }
}

/* Positive values in [0.5, 1) times s. */
static void pos_vec(double *v, size_t n, double sc, uint64_t seed)
{
    uint64_t st = seed;
    for (size_t i = 0; i < n; i++)
        v[i] = ((double)(gt_rand(&st) >> 11) * 0x1p-54 + 0.5) * sc;
}

/* Results tallied per range scenario (and op): errors, non-finite counts. */
typedef struct {
    errs df, nat;
    size_t outs, inf_exact, inf_df, inf_nat, nan_nat;
    int cases;
} range_row;

static void range_tally(range_row *row, const double *got, const double *nat, const vref *R,
                        int64_t len, double alpha, double beta, const double *y0, double bound,
                        int native_cmp)
{
    errs e;
    errs_init(&e);
    int64_t kd = -1, nkd = 0;
    for (int64_t r = 0; r < len; r++) {
        const double yv = beta == 0.0 ? 0.0 : y0[r];
        verdict v = judge(got[r], &R[r], alpha, beta, yv, bound);
        errs_add(&e, &v, r, got[r]);
        verdict vn = judge(nat[r], &R[r], alpha, beta, yv, bound);
        if (vn.kind == 0)
            errs_add(&row->nat, &vn, r, nat[r]);
        row->outs++;
        row->inf_exact += v.kind != 0;
        row->inf_df += isinf(got[r]) != 0;
        row->inf_nat += isinf(nat[r]) != 0;
        row->nan_nat += isnan(nat[r]) != 0;
        if (native_cmp && fclass(got[r]) != fclass(nat[r]) && !nkd++)
            kd = r;
    }
    errs_report(&e, len > 1 ? "y" : "result", bound);
    errs_merge(&row->df, &e);
    if (nkd)
        gt_fail("%lld outputs differ in kind from real cuBLAS; first %lld: shim %s (%.17g), "
                "real %s (%.17g)", (long long)nkd, (long long)kd, fclass_name[fclass(got[kd])],
                got[kd], fclass_name[fclass(nat[kd])], nat[kd]);
}

static void range_row_print(const char *label, const range_row *r)
{
    char sub[128] = "";
    if (r->df.sub >= 0 || r->nat.sub >= 0)
        snprintf(sub, sizeof sub, "  subnormal-range outputs: |r - ref| df %.3g native %.3g "
                 "x 2^-1074", r->df.sub, r->nat.sub);
    printf("     %-34s df %9.3e  native %9.3e  outputs %zu, exact overflow %zu, df +-Inf %zu, "
           "native +-Inf %zu NaN %zu%s\n", label, r->df.norm, r->nat.norm, r->outs, r->inf_exact,
           r->inf_df, r->inf_nat, r->nan_nat, sub);
}

/* The DDOT data of range scenario sc (variant ni) of length n. */
static void range_data_dot(int sc, int ni, double *x, double *y, int64_t n)
{
    const range_sc *S = &range_scs[sc];
    const uint64_t seed = 11000 + 10 * (uint64_t)sc + (uint64_t)ni;
    gt_fill(x, (size_t)n, seed);
    gt_fill(y, (size_t)n, seed + 1);
    scale_vec(x, (size_t)n, S->a_how, S->a_by, seed + 2);
    scale_vec(y, (size_t)n, S->x_how, S->x_by, seed + 3);
    const int64_t i0 = n / 3;
    switch (S->special) {
    case RS_HUGE_A:
        x[i0] = 1e300;
        break;
    case RS_HUGE_X:
        y[i0] = -1e300;
        break;
    case RS_OVF_POS:
        pos_vec(x, (size_t)n, 0x1.8p1020, seed + 4);
        pos_vec(y, (size_t)n, ni ? -1.0 : 1.0, seed + 5); /* -Inf, +Inf */
        break;
    case RS_OVF_PROD:
        x[i0] = 1e300;
        y[i0] = -1e10;
        break;
    case RS_CANCEL_OVF:
        x[i0] = 1e300;
        x[i0 + 7] = -1e300;
        y[i0] = y[i0 + 7] = 1e10;
        break;
    default:
        break;
    }
}

void range_dot_group(void)
{
    static const int64_t ns[2] = {1000, 100003};
    static range_row tab[N_RANGE];
    df_group("range DDOT, n in {1000, 100003} x (incx,incy) in {(1,1),(-2,3)} x host/device ptr, "
          "uniform data with elements outside [2^-37, 2^38): the kind of the exact result, "
          "within %s (+8 x 2^-1074); the kind of native's where it has no intermediate overflow",
          df_test_bound_text(scheme));
    double *x = df_xmalloc(100003), *y = df_xmalloc(100003);
    for (int sc = 0; sc < N_RANGE; sc++) {
        const range_sc *S = &range_scs[sc];
        memset(&tab[sc], 0, sizeof tab[sc]);
        errs_init(&tab[sc].df);
        errs_init(&tab[sc].nat);
        for (int ni = 0; ni < 2; ni++) {
            const int64_t n = ns[ni];
            range_data_dot(sc, ni, x, y, n);
            const vref f = ref_dot(x, 1, y, 1, n, 1);
            const double bound = df_test_bound(scheme, n);
            for (int c = 0; c < 2; c++) {
                const int64_t incx = c ? -2 : 1, incy = c ? 3 : 1;
                gt_h2d(dX, hX, stage_vec(&sX, x, n, incx, qnan) * sizeof *hX);
                gt_h2d(dY, hY, stage_vec(&sY, y, n, incy, qnan) * sizeof *hY);
                for (int dev = 0; dev < 2; dev++) {
                    const int is64 = (c + dev + ni) & 1;
                    gt_case("%s: %s n=%lld incx=%lld incy=%lld ptr=%s", S->desc,
                            gt_dot_name(is64), (long long)n, (long long)incx, (long long)incy,
                            dev ? "device" : "host");
                    tab[sc].cases++;
                    const double r = dot_shim(is64, n, incx, incy, dev);
                    const double r2 = dot_shim(is64, n, incx, incy, dev);
                    const double rn = dot_real(is64, n, incx, incy, dev);
                    same_bits("the same call again", &r, &r2, 1, "first", "second");
                    range_tally(&tab[sc], &r, &rn, &f, 1, 1.0, 0.0, NULL, bound, S->native_cmp);
                }
            }
        }
    }
    free(x);
    free(y);
    df_group_end();
    printf("     DDOT range (scheme %s): max normwise errors (outputs out of the subnormal "
           "range)\n", scheme_name);
    for (int sc = 0; sc < N_RANGE; sc++)
        range_row_print(range_scs[sc].desc, &tab[sc]);
}

/* DGEMV range edits on the stored m x n matrix A and xN (n), xT (m). */
static void range_edit_gemv(int special, double *A, int64_t m, int64_t n, double *xN, double *xT,
                            uint64_t seed)
{
    switch (special) {
    case RS_HUGE_A:
        A[5 + 7 * m] = 1e300;
        break;
    case RS_HUGE_X:
        xN[7] = -1e300;
        xT[5] = 1e300;
        break;
    case RS_OVF_POS:
        /* row 5 and column 7 of A ~1.5 2^1020, x positive: output 5 of op N and output 7 of op T
         * overflow to +Inf; the others meet one such product (finite) */
        pos_vec(xN, (size_t)n, 1.0, seed);
        pos_vec(xT, (size_t)m, 1.0, seed + 1);
        for (int64_t j = 0; j < n; j++)
            A[5 + j * m] = 0x1.8p1020 * (0.75 + 0.25 * fabs(A[5 + j * m]));
        for (int64_t i = 0; i < m; i++)
            if (i != 5) /* A(5,7) is already large */
                A[i + 7 * m] = 0x1.8p1020 * (0.75 + 0.25 * fabs(A[i + 7 * m]));
        break;
    case RS_OVF_PROD:
        /* A(5,7) = 1e300 with x 1e10 where it multiplies it: -Inf at output 5 (N) / 7 (T) */
        A[5 + 7 * m] = 1e300;
        xN[7] = -1e10;
        xT[5] = -1e10;
        break;
    case RS_CANCEL_OVF:
        /* op N output 3: A(3,0) x(0) + A(3,1) x(1) = 1e310 - 1e310; op T output 3 likewise */
        A[3 + 0 * m] = 1e300;
        A[3 + 1 * m] = -1e300;
        A[0 + 3 * m] = 1e300;
        A[1 + 3 * m] = -1e300;
        xN[0] = xN[1] = 1e10;
        xT[0] = xT[1] = 1e10;
        break;
    default:
        break;
    }
}

/* The DGEMV data of range scenario sc (variant si): the stored m x n A, x and y for both ops. */
static void range_data_gemv(int sc, int si, double *A, int64_t m, int64_t n, double *xN,
                            double *xT, double *yN, double *yT)
{
    const range_sc *S = &range_scs[sc];
    const uint64_t seed = 12000 + 10 * (uint64_t)sc + (uint64_t)si;
    gt_fill(A, (size_t)(m * n), seed);
    gt_fill(xN, (size_t)n, seed + 1);
    gt_fill(xT, (size_t)m, seed + 2);
    gt_fill(yN, (size_t)m, seed + 3);
    gt_fill(yT, (size_t)n, seed + 4);
    scale_vec(A, (size_t)(m * n), S->a_how, S->a_by, seed + 5);
    scale_vec(xN, (size_t)n, S->x_how, S->x_by, seed + 6);
    scale_vec(xT, (size_t)m, S->x_how, S->x_by, seed + 7);
    /* y on the scale of the products, so that beta*y does not hide alpha*op(A)x */
    const double ysc = (S->a_how == SC_MUL ? S->a_by : 1) * (S->x_how == SC_MUL ? S->x_by : 1);
    scale_vec(yN, (size_t)m, SC_MUL, ysc, 0);
    scale_vec(yT, (size_t)n, SC_MUL, ysc, 0);
    range_edit_gemv(S->special, A, m, n, xN, xT, seed + 8);
}

void range_gemv_group(void)
{
    static const int64_t shapes[2][2] = {{300, 200}, {64, 5000}};
    static const double abs_[2][2] = {{1, 0}, {-3, 0.5}};
    static range_row tab[N_RANGE][2];
    df_group("range DGEMV, m x n in {300x200, 64x5000} x ops N,T x lda +5 x (incx,incy) in "
          "{(1,1),(-2,-2)} x (alpha,beta) in {(1,0),(-3,0.5)} x host/device ptr, the same "
          "scenarios (x -> A, y -> x; y scaled like the products): the kind of the exact "
          "result, within %s (+(4|alpha|+4) 2^-1074); the kind of native's where it has no "
          "intermediate overflow",
          df_test_bound_text(scheme));
    const size_t maxA = 300 * 200 > 64 * 5000 ? 300 * 200 : 64 * 5000;
    double *A = df_xmalloc(maxA), *xN = df_xmalloc(5000), *xT = df_xmalloc(300), *yN = df_xmalloc(5000),
           *yT = df_xmalloc(5000), *nan_vec = df_xmalloc(5000);
    double *yl = df_xmalloc(5000), *yl2 = df_xmalloc(5000), *yn = df_xmalloc(5000);
    vref *R = malloc(5000 * sizeof *R);
    if (!R)
        gt_fatal("out of host memory");
    gt_fill_const(nan_vec, 5000, qnan);
    int counter = 0;
    for (int sc = 0; sc < N_RANGE; sc++) {
        const range_sc *S = &range_scs[sc];
        for (int t = 0; t < 2; t++) {
            memset(&tab[sc][t], 0, sizeof tab[sc][t]);
            errs_init(&tab[sc][t].df);
            errs_init(&tab[sc][t].nat);
        }
        for (int si = 0; si < 2; si++) {
            const int64_t m = shapes[si][0], n = shapes[si][1], lda = m + 5;
            range_data_gemv(sc, si, A, m, n, xN, xT, yN, yT);
            upload_A(dA, hA, A_BUF, A, m, n, lda);
            for (int t = 0; t < 2; t++) {
                const cublasOperation_t op = t ? CUBLAS_OP_T : CUBLAS_OP_N;
                const int64_t len = t ? n : m, k = t ? m : n;
                const double *xv = t ? xT : xN, *y0 = t ? yT : yN;
                for (int64_t r = 0; r < len; r++)
                    R[r] = ref_out(A, m, n, t, r, xv, 1);
                for (int c = 0; c < 2; c++) {
                    const int64_t inc = c ? -2 : 1;
                    gemv_vectors(xv, k, y0, nan_vec, len, inc);
                    for (int ab = 0; ab < 2; ab++)
                        for (int dev = 0; dev < 2; dev++) {
                            const double alpha = abs_[ab][0], beta = abs_[ab][1];
                            const int is64 = counter++ & 1;
                            const gparams p = gemv_case(S->desc, op, m, n, lda, inc, alpha, beta,
                                                        dev, is64);
                            tab[sc][t].cases++;
                            const double *ytm = hYt[beta == 0.0];
                            run_gemv(0, &p, ytm, yl);
                            run_gemv(0, &p, ytm, yl2);
                            run_gemv(1, &p, ytm, yn);
                            same_bits("the same call again", yl, yl2, len, "first", "second");
                            range_tally(&tab[sc][t], yl, yn, R, len, alpha, beta, y0,
                                        df_test_bound(scheme, k), S->native_cmp);
                        }
                }
            }
        }
    }
    df_group_end();
    printf("     DGEMV range (scheme %s): max normwise errors (outputs out of the subnormal "
           "range)\n", scheme_name);
    for (int sc = 0; sc < N_RANGE; sc++)
        for (int t = 0; t < 2; t++) {
            char label[64];
            snprintf(label, sizeof label, "op %c: %.27s", t ? 'T' : 'N', range_scs[sc].desc);
            range_row_print(label, &tab[sc][t]);
        }
    free(A);
    free(xN);
    free(xT);
    free(yN);
    free(yT);
    free(nan_vec);
    free(yl);
    free(yl2);
    free(yn);
    free(R);
}
