/* df_gemm_ref.c — the host DGEMM tests' common ground: the cases and their exact MPFR reference,
 * the calls of the host DGEMM (engines/df/host.c), the error bound and the input classes. */
#include "df_gemm_ref.h"

const char *const scheme_name[DFS_DF_SCHEMES] = {"MAD16", "MAD15", "MAD29", "MAD12"};

/* ---------------- GEMM: data, exact reference, host calls ---------------- */

size_t nz(int64_t x) { return (size_t)(x > 0 ? x : 1); }

void gc_init(gcase *g, int64_t m, int64_t n, int64_t k)
{
    g->m = m;
    g->n = n;
    g->k = k;
    g->A = calloc(nz(m * k), sizeof(double));
    g->B = calloc(nz(k * n), sizeof(double));
    g->D = malloc(nz(m * n) * sizeof(mpfr_t));
    g->S = malloc(nz(m * n) * sizeof(mpfr_t));
    ck_assert(g->A && g->B && g->D && g->S);
    for (int64_t i = 0; i < m * n; i++) {
        mpfr_init2(g->D[i], PREC_REF);
        mpfr_init2(g->S[i], PREC_REF);
    }
}

void gc_free(gcase *g)
{
    for (int64_t i = 0; i < g->m * g->n; i++) {
        mpfr_clear(g->D[i]);
        mpfr_clear(g->S[i]);
    }
    free(g->A);
    free(g->B);
    free(g->D);
    free(g->S);
}

/* D and S from A and B: every product is exact in PREC_PROD bits; mpfr_sum rounds the sum once. */
void gc_reference(gcase *g)
{
    int64_t m = g->m, n = g->n, k = g->k;
    mpfr_t *pr = malloc(nz(k) * sizeof *pr);
    mpfr_ptr *pp = malloc(nz(k) * sizeof *pp);
    ck_assert(pr && pp);
    for (int64_t p = 0; p < k; p++) {
        mpfr_init2(pr[p], PREC_PROD);
        pp[p] = pr[p];
    }
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < m; i++) {
            for (int64_t p = 0; p < k; p++) {
                mpfr_set_d(pr[p], g->A[i + p * m], MPFR_RNDN);
                mpfr_mul_d(pr[p], pr[p], g->B[p + j * k], MPFR_RNDN);
            }
            mpfr_sum(g->D[i + j * m], pp, (unsigned long)k, MPFR_RNDN);
            for (int64_t p = 0; p < k; p++)
                mpfr_abs(pr[p], pr[p], MPFR_RNDN);
            mpfr_sum(g->S[i + j * m], pp, (unsigned long)k, MPFR_RNDN);
        }
    for (int64_t p = 0; p < k; p++)
        mpfr_clear(pr[p]);
    free(pr);
    free(pp);
}

/* The binary64 dot product of row i of op(A) and column j of op(B): an fma loop in order of p, as
 * the host code computes rows and columns holding Inf or NaN. */
double dot64(const gcase *g, int64_t i, int64_t j)
{
    double s = 0.0;
    for (int64_t p = 0; p < g->k; p++)
        s = fma(g->A[i + p * g->m], g->B[p + j * g->k], s);
    return s;
}

/* The rows x cols matrix op (column-major, ld rows) stored as a GEMM with this trans flag and
 * leading dimension ld reads it; the padding is NaN (read by mistake, it would show). */
static double *layout(const double *op, int64_t rows, int64_t cols, int trans, int64_t ld)
{
    int64_t scols = trans ? rows : cols;
    double *s = malloc(nz(ld * scols) * sizeof *s);
    ck_assert(s != NULL);
    for (int64_t x = 0; x < ld * scols; x++)
        s[x] = NAN;
    for (int64_t c = 0; c < cols; c++)
        for (int64_t r = 0; r < rows; r++) {
            if (trans)
                s[c + r * ld] = op[r + c * rows];
            else
                s[r + c * ld] = op[r + c * rows];
        }
    return s;
}

static const double sentinel = -0x1.2345p+77;

/* out (m x n) = the host DGEMM's C for op(A) = g->A, op(B) = g->B, given trans flags, padding of
 * every leading dimension by pad, and C on entry C0 (m x n; NULL: all NaN).  Asserts that C's
 * padding rows stay untouched. */
void run_gemm(int scheme, int ta, int tb, const gcase *g, double alpha, double beta,
              const double *C0, int64_t pad, double *out)
{
    int64_t m = g->m, n = g->n, k = g->k;
    int64_t lda = (ta ? k : m) + pad, ldb = (tb ? n : k) + pad, ldc = m + pad;
    if (lda < 1)
        lda = 1;
    if (ldb < 1)
        ldb = 1;
    if (ldc < 1)
        ldc = 1;
    double *A = layout(g->A, m, k, ta, lda), *B = layout(g->B, k, n, tb, ldb);
    double *C = malloc(nz(ldc * n) * sizeof *C);
    ck_assert(C != NULL);
    for (int64_t x = 0; x < ldc * n; x++)
        C[x] = sentinel;
    for (int64_t j = 0; j < n; j++)
        for (int64_t i = 0; i < m; i++)
            C[i + j * ldc] = C0 ? C0[i + j * m] : NAN;
    dfs_df_gemm_host(scheme, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
    for (int64_t j = 0; j < n; j++) {
        for (int64_t i = m; i < ldc; i++)
            ck_assert_msg(memcmp(&C[i + j * ldc], &sentinel, sizeof sentinel) == 0,
                          "%s: C padding (%lld,%lld) (ldc %lld) was written", scheme_name[scheme],
                          (long long)i, (long long)j, (long long)ldc);
        for (int64_t i = 0; i < m; i++)
            out[i + j * m] = C[i + j * ldc];
    }
    free(A);
    free(B);
    free(C);
}

int pow2_or_zero(double x)
{
    int e;
    return x == 0.0 || fabs(frexp(x, &e)) == 0.5;
}

/* The normwise bound on |computed - exact| / (|alpha| sum|a b| + |beta c|).  MAD29: the proven
 * first-order bound (3k + 4) u^2 (conversion of the inputs u^2, product < 4u^2, k - 1 additions of
 * <= 3u^2 + 13u^3 each; the padding to a multiple of 8 adds zeros exactly).  MAD16/MAD15: the
 * empirical bound 4 (k + 1) u^2 (no proof exists for the sloppy add; measured constants are
 * printed).  MAD12: the first-order bound (17k + 196) u^2 derived in df.h.  Plus one binary64 rounding (2^-53) for each of: the DF -> binary64 conversion,
 * alpha * ab (unless alpha is 0 or a power of two), beta * c (unless a power of two), the final
 * add. */
double gemm_bound(int scheme, int64_t k, double alpha, double beta)
{
    double df = dfs_df_scheme_bound(scheme, k) * U2;
    int r64 = 1 + !pow2_or_zero(alpha);
    if (beta != 0.0)
        r64 += 1 + !pow2_or_zero(beta);
    return df + r64 * U64;
}

void wsg_init(wsg *w) { mpfr_inits2(PREC_EVAL, w->ex, w->den, w->t, w->lim, (mpfr_ptr)0); }

void wsg_clear(wsg *w) { mpfr_clears(w->ex, w->den, w->t, w->lim, (mpfr_ptr)0); }

/* For entry e of g: exact = alpha D + beta c0, den = |alpha| S + |beta c0|.  Returns
 * |got - exact| / den (0/0 = 0, x/0 = Inf); *ok: |got - exact| <= bnd * den + 4 * 2^-1074 (the
 * last term: binary64 roundings in the subnormal range). */
double entry_err(wsg *w, const gcase *g, int64_t e, double got, double alpha, double beta,
                 double c0, double bnd, int *ok)
{
    mpfr_mul_d(w->ex, g->D[e], alpha, MPFR_RNDN);
    mpfr_mul_d(w->den, g->S[e], fabs(alpha), MPFR_RNDN);
    if (beta != 0.0) {
        mpfr_set_d(w->t, c0, MPFR_RNDN);
        mpfr_mul_d(w->t, w->t, beta, MPFR_RNDN);
        mpfr_add(w->ex, w->ex, w->t, MPFR_RNDN);
        mpfr_abs(w->t, w->t, MPFR_RNDN);
        mpfr_add(w->den, w->den, w->t, MPFR_RNDN);
    }
    if (!isfinite(got)) {
        *ok = 0;
        return INFINITY;
    }
    mpfr_set_d(w->t, got, MPFR_RNDN);
    mpfr_sub(w->t, w->t, w->ex, MPFR_RNDN);
    mpfr_abs(w->t, w->t, MPFR_RNDN);
    mpfr_mul_d(w->lim, w->den, bnd, MPFR_RNDN);
    mpfr_add_d(w->lim, w->lim, 0x1p-1072, MPFR_RNDN);
    *ok = mpfr_lessequal_p(w->t, w->lim);
    if (mpfr_zero_p(w->den))
        return mpfr_zero_p(w->t) ? 0.0 : INFINITY;
    mpfr_div(w->t, w->t, w->den, MPFR_RNDN);
    return mpfr_get_d(w->t, MPFR_RNDN);
}

/* ---------------- GEMM input classes ---------------- */

const char *const class_name[NCLASS] = {
    "uniform[-1,1)", "phi=0", "phi=1", "phi=2", "cancel-mirror", "cancel-pairs", "cancel-last"};

/* x = (rand - 0.5) * exp(phi * randn) (ALGORITHMS.md section 3). */
static double phi_gen(rng *r, double phi) { return (unif(r) - 0.5) * exp(phi * randn(r)); }

/* An entry of class cls before the cancellation classes shape it: phi classes, else uniform. */
static double class_value(rng *r, int cls)
{
    if (cls == C_PHI0 || cls == C_PHI1 || cls == C_PHI2)
        return phi_gen(r, (double)(cls - C_PHI0));
    return unif_pm1(r);
}

/* Fills g (already sized) with class cls.  Cancellation classes: mirror: the second half of each
 * row of op(A) is the negated first half times (1 + O(2^-30)), op(B)'s second half repeats its
 * first, so partial sums grow and then cancel; pairs: the same for neighbouring p (cancellation at
 * every second step); last: op(B)'s last n rows are the identity and op(A)'s last n columns hold
 * -RN(partial dot products), so the last product cancels the whole sum (needs k > n). */
void gc_fill(gcase *g, int cls, rng *r)
{
    int64_t m = g->m, n = g->n, k = g->k;
    for (int64_t x = 0; x < m * k; x++)
        g->A[x] = class_value(r, cls);
    for (int64_t x = 0; x < k * n; x++)
        g->B[x] = class_value(r, cls);
    if (cls == C_MIRROR || cls == C_PAIRS) {
        int64_t h = k / 2;
        for (int64_t q = 0; q < h; q++) {
            int64_t p0 = cls == C_MIRROR ? q : 2 * q, p1 = cls == C_MIRROR ? h + q : 2 * q + 1;
            for (int64_t i = 0; i < m; i++)
                g->A[i + p1 * m] = -g->A[i + p0 * m] * (1.0 + 0x1p-30 * unif_pm1(r));
            for (int64_t j = 0; j < n; j++)
                g->B[p1 + j * k] = g->B[p0 + j * k];
        }
    } else if (cls == C_LAST) {
        int64_t k0 = k - n;
        ck_assert(k0 > 0);
        for (int64_t q = 0; q < n; q++)
            for (int64_t j = 0; j < n; j++)
                g->B[k0 + q + j * k] = q == j ? 1.0 : 0.0;
        gcase h;
        gc_init(&h, m, n, k0);
        memcpy(h.A, g->A, (size_t)(m * k0) * sizeof(double));
        for (int64_t j = 0; j < n; j++)
            memcpy(h.B + j * k0, g->B + j * k, (size_t)k0 * sizeof(double));
        gc_reference(&h);
        for (int64_t j = 0; j < n; j++)
            for (int64_t i = 0; i < m; i++)
                g->A[i + (k0 + j) * m] = -mpfr_get_d(h.D[i + j * m], MPFR_RNDN);
        gc_free(&h);
    }
}
