/* level3_status — the Level-3 entry points beside GEMM (core/l3_entries.h: SYRK, HERK, SYRKX,
 * HERKX, SYR2K, HER2K, SYMM, HEMM, TRMM, TRSM; v2, _64 and legacy forms) and the pointer-array
 * batches (DgemmBatched, ZgemmBatched, GemmBatchedEx and their _64 forms) through the shim: in
 * every mode each call must give the real cuBLAS's status and output, bit for bit (the whole
 * output buffer: padding and the other triangle included), but for the valid calls an engine
 * computes through its GEMM (D and Z SYRK, SYRKX, SYR2K, SYMM, TRMM and TRSM, Z HERK, HERKX,
 * HER2K and HEMM in the modes repro and accurate, shim/l3_mm.h, l3_trsm.h; and there the valid
 * pointer-array batches on FP64 data through the engine's strided GEMM, shim/ptr_batch.h): there
 * every element (each part) within 64 ulps of 1 + |cuBLAS's| (tests/gpu/level3.c, zlevel3.c,
 * level3_trsm.c, zlevel3_trsm.c and ptr_batch.c hold them to the engines' contracts; TRSM's A
 * here has its diagonal raised, so its solutions are well conditioned).
 *
 * Groups: every entry point on a valid small call with every uplo, side, op and diag (scalars
 * on the host and, v2, on the device; TRMM also in place); invalid arguments of each kind and
 * the quick returns; the cases LEVEL3.md 2.1 measured (TRMM C = B with ldc != ldb, op C on real
 * data, Zsyrk op C and Zherk/Zher2k/Zherkx op T, HERK's quick returns with Im(C_ii) = 3, HERK
 * zeroing Im(C_ii), TRSM alpha = 0 with NaN in A and B, SYRK's untouched triangle); the
 * pointer-array batches (ops, repeated A pointers, batchCount 0 and -1, GemmBatchedEx's
 * forwarded types).  Besides, shim/check_l3.c's class for each call is compared with what
 * cuBLAS did: a call classified OK that cuBLAS rejects fails (it could reach an engine); other
 * disagreements are printed (the shim forwards those calls either way).  A NULL alpha is only
 * passed to TRSM, as measured harmless: with n = 0 (SUCCESS), and with sizes in device pointer
 * mode (INVALID_VALUE, not read). */
#include "../../shim/check.h"
#include "common.h"

#include <cublas.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXE 4096 /* elements of every matrix buffer (complex: 2 doubles each) */

/* One call's arguments; the enums as ints (invalid values too).  C is the output: for TRSM and
 * the legacy TRMM it is B (then B == C), as in the shim's record. */
typedef struct {
    int side, uplo, trans, diag;
    int64_t m, n, k, lda, ldb, ldc;
    const void *alpha, *beta, *A, *B;
    void *C;
} args;

typedef cublasStatus_t (*runner)(void *real, cublasHandle_t hh, const args *a);

/* The entry point as the program sees it (through the shim) or the real one. */
#define FN(name, real)                                                                             \
    __typeof__(&name) f = name;                                                                    \
    if (real)                                                                                      \
    memcpy(&f, &real, sizeof f)

/* The legacy API's characters (an invalid value: a character cuBLAS does not know). */
static char ch(int v, const char *valid)
{
    return v >= 0 && v < (int)strlen(valid) ? valid[v] : 'X';
}
#define UPLO(a) ch((a)->uplo, "LU")
#define SIDE(a) ch((a)->side, "LR")
#define OP(a) ch((a)->trans, "NTC")
#define DIAG(a) ch((a)->diag, "NU")

/* The runners by argument list (core/l3_entries.h's DFS_L3_KIND_*): `call` is the argument
 * list; a legacy call's status is cublasGetError's. */
#define V2_RUNNER(name, call)                                                                      \
    static cublasStatus_t run_##name(void *real, cublasHandle_t hh, const args *a)                 \
    {                                                                                              \
        FN(name, real);                                                                            \
        return f call;                                                                             \
    }
#define LEG_RUNNER(name, call)                                                                     \
    static cublasStatus_t run_##name(void *real, cublasHandle_t hh, const args *a)                 \
    {                                                                                              \
        (void)hh;                                                                                  \
        FN(name, real);                                                                            \
        cublasGetError();                                                                          \
        f call;                                                                                    \
        return cublasGetError();                                                                   \
    }
#define ENUMS2(a) (cublasFillMode_t)(a)->uplo, (cublasOperation_t)(a)->trans
#define ENUMS4(a)                                                                                  \
    (cublasSideMode_t)(a)->side, (cublasFillMode_t)(a)->uplo, (cublasOperation_t)(a)->trans,       \
        (cublasDiagType_t)(a)->diag
#define V2_RK(kind, name, T, SA, SB, I)                                                            \
    V2_RUNNER(name, (hh, ENUMS2(a), (I)a->n, (I)a->k, a->alpha, a->A, (I)a->lda, a->beta, a->C,    \
                     (I)a->ldc))
#define V2_RK2(kind, name, T, SA, SB, I)                                                           \
    V2_RUNNER(name, (hh, ENUMS2(a), (I)a->n, (I)a->k, a->alpha, a->A, (I)a->lda, a->B, (I)a->ldb,  \
                     a->beta, a->C, (I)a->ldc))
#define V2_MM(kind, name, T, SA, SB, I)                                                            \
    V2_RUNNER(name, (hh, (cublasSideMode_t)a->side, (cublasFillMode_t)a->uplo, (I)a->m, (I)a->n,   \
                     a->alpha, a->A, (I)a->lda, a->B, (I)a->ldb, a->beta, a->C, (I)a->ldc))
#define V2_TRMM(kind, name, T, SA, SB, I)                                                          \
    V2_RUNNER(name, (hh, ENUMS4(a), (I)a->m, (I)a->n, a->alpha, a->A, (I)a->lda, a->B, (I)a->ldb,  \
                     a->C, (I)a->ldc))
#define V2_TRSM(kind, name, T, SA, SB, I)                                                          \
    V2_RUNNER(name, (hh, ENUMS4(a), (I)a->m, (I)a->n, a->alpha, a->A, (I)a->lda, a->C, (I)a->ldb))
#define LEG_RK(kind, name, T, SA, SB, I)                                                           \
    LEG_RUNNER(name, (UPLO(a), OP(a), (int)a->n, (int)a->k, *(const SA *)a->alpha, a->A,           \
                      (int)a->lda, *(const SB *)a->beta, a->C, (int)a->ldc))
#define LEG_RK2(kind, name, T, SA, SB, I)                                                          \
    LEG_RUNNER(name, (UPLO(a), OP(a), (int)a->n, (int)a->k, *(const SA *)a->alpha, a->A,           \
                      (int)a->lda, a->B, (int)a->ldb, *(const SB *)a->beta, a->C, (int)a->ldc))
#define LEG_MM(kind, name, T, SA, SB, I)                                                           \
    LEG_RUNNER(name, (SIDE(a), UPLO(a), (int)a->m, (int)a->n, *(const SA *)a->alpha, a->A,         \
                      (int)a->lda, a->B, (int)a->ldb, *(const SB *)a->beta, a->C, (int)a->ldc))
#define LEG_TRMM(kind, name, T, SA, SB, I)                                                         \
    LEG_RUNNER(name, (SIDE(a), UPLO(a), OP(a), DIAG(a), (int)a->m, (int)a->n,                      \
                      *(const SA *)a->alpha, a->A, (int)a->lda, a->C, (int)a->ldb))
#define LEG_TRSM LEG_TRMM

#define RUNNER(a, form, kind, name, T, I) DFS_L3_KIND_##kind(form##_, name, T, I)
DFS_L3_ENTRIES(RUNNER, )

typedef struct {
    const char *name;
    int legacy;
    dfs_l3_kind kind;
    int complex;
    runner run;
    void *real;
} entry;

#define IS_LEGACY_V2 0
#define IS_LEGACY_LEG 1
#define ROW(a, form, kind, name, T, I)                                                             \
    {#name, IS_LEGACY_##form, DFS_L3_##kind, sizeof(T) == 16, run_##name, NULL},
static entry entries[] = {DFS_L3_ENTRIES(ROW, )};
#define NENTRIES (sizeof entries / sizeof entries[0])

static cublasHandle_t h;
static int engine_mode; /* its engine computes D/Z SYRK...TRSM through its GEMM */
/* dR, dS: the output of the real and shimmed call; dZero: MAXE complex zeros */
static double *dA, *dB, *dR, *dS, *dScal, *dZero, *hA, *hB, *hOut;
static int disagreements;

static int rank_k(dfs_l3_kind k)
{
    return k <= DFS_L3_HER2K;
}

static int triangular(dfs_l3_kind k)
{
    return k == DFS_L3_TRMM || k == DFS_L3_TRSM;
}

/* B is the output (TRSM; the legacy TRMM; the in-place v2 TRMM when asked). */
static int in_place(const entry *e)
{
    return e->kind == DFS_L3_TRSM || (e->kind == DFS_L3_TRMM && e->legacy);
}

/* Bit for bit, or within 64 ulps of 1 + |real| (an engine's rounding); fails at the first. */
static void cmp_close(const char *what, const double *real, const double *got, size_t count)
{
    for (size_t i = 0; i < count; i++)
        if (memcmp(&real[i], &got[i], 8) &&
            !(fabs(real[i] - got[i]) <= 64 * ldexp(1.0, -52) * (1 + fabs(real[i])))) {
            gt_fail("%s: element %zu = %.17g, cuBLAS %.17g", what, i, got[i], real[i]);
            return;
        }
}

/* shim/check_l3.c's class of the call (the hook's record, built the same way). */
static dfs_args predict(const entry *e, cublasHandle_t hh, const args *a, cublasStatus_t *st)
{
    const int rk = rank_k(e->kind);
    const dfs_l3_call c = {
        .kind = e->kind, .type = e->complex ? DFS_C64 : DFS_R64,
        .side = (cublasSideMode_t)a->side, .uplo = (cublasFillMode_t)a->uplo,
        .trans = (cublasOperation_t)a->trans, .diag = (cublasDiagType_t)a->diag,
        .m = rk ? a->n : a->m, .n = a->n,
        .k = rk ? a->k : a->side == CUBLAS_SIDE_LEFT ? a->m : a->n, .alpha = a->alpha,
        .beta = triangular(e->kind) ? NULL : a->beta, .A = a->A,
        .lda = a->lda, .B = e->kind == DFS_L3_SYRK || e->kind == DFS_L3_HERK ? NULL : a->B,
        .ldb = a->ldb, .C = a->C, .ldc = e->kind == DFS_L3_TRSM ? a->ldb : a->ldc};
    return dfs_check_l3(e->legacy ? (cublasHandle_t)1 : hh, &c, st);
}

/* Runs the call for real (output dR) and through the shim (output dS), both from out0 (MAXE
 * elements), and compares status, output and the classifier's prediction. */
static void compare(const entry *e, cublasHandle_t hh, args a, const double *out0)
{
    const size_t bytes = (size_t)MAXE * (e->complex ? 16 : 8);
    const int b_is_c = triangular(e->kind) && a.B == NULL; /* in place: B is the output */
    gt_h2d(dR, out0, bytes);
    gt_h2d(dS, out0, bytes);
    args r = a, s = a;
    r.C = dR;
    s.C = dS;
    if (b_is_c) {
        r.B = dR;
        s.B = dS;
    }
    const cublasStatus_t sr = e->run(e->real, hh, &r);
    GT_CUDA(cudaDeviceSynchronize());
    const cublasStatus_t ss = e->run(NULL, hh, &s);
    GT_CUDA(cudaDeviceSynchronize());
    gt_cmp_status(e->name, sr, ss);
    double *got = gt_hmalloc(bytes);
    gt_d2h(hOut, dR, bytes);
    gt_d2h(got, dS, bytes);
    cublasStatus_t pst = CUBLAS_STATUS_SUCCESS;
    const dfs_args p = predict(e, hh, &r, &pst);
    if (p == DFS_ARGS_OK && engine_mode)
        cmp_close(e->name, hOut, got, bytes / 8);
    else
        gt_cmp(e->name, hOut, got, bytes / 8, 8, 0);
    free(got);
    if (p == DFS_ARGS_OK && sr != CUBLAS_STATUS_SUCCESS)
        gt_fail("check_l3 classifies the call OK (an engine could take it); cuBLAS returns %s",
                gt_status_name(sr));
    else if ((p == DFS_ARGS_INVALID) != (sr != CUBLAS_STATUS_SUCCESS) ||
             (p == DFS_ARGS_INVALID && pst != sr)) {
        disagreements++;
        gt_note("check_l3 predicts class %d (%s), cuBLAS returns %s (forwarded either way)",
                (int)p, gt_status_name(pst), gt_status_name(sr));
    }
}

/* The valid base call of e: m = 5, n = 4 (rank-k: n = 5, k = 3), leading dimensions one, two
 * and three above their minimum, A on dA (diagonal raised, for TRSM), B on dB, scalars at
 * alpha/beta. */
static args base(const entry *e, int side, int trans, const void *alpha, const void *beta)
{
    args a = {side, 0, trans, 0, 5, 4, 3, 0, 0, 0, alpha, beta, dA, dB, NULL};
    if (rank_k(e->kind)) {
        a.m = a.n = 5;
        a.lda = a.ldb = (trans == CUBLAS_OP_N ? a.n : a.k) + 1;
        a.ldc = a.n + 3;
    } else {
        a.k = side == CUBLAS_SIDE_LEFT ? a.m : a.n;
        a.lda = a.k + 1;
        a.ldb = a.m + 2;
        a.ldc = a.m + 3;
    }
    if (in_place(e)) {
        a.B = NULL; /* set to the output by compare */
        a.ldc = a.ldb;
    }
    return a;
}

/* Uploads A (uniform, diagonal + 8 at leading dimension lda) and B; out0 uniform. */
static void load(const entry *e, int64_t lda, uint64_t seed, double *out0)
{
    const int w = e->complex ? 2 : 1;
    gt_fill(hA, (size_t)MAXE * 2, seed);
    gt_fill(hB, (size_t)MAXE * 2, seed + 1);
    gt_fill(out0, (size_t)MAXE * 2, seed + 2);
    for (int64_t i = 0; i < 8 && i * (lda + 1) < MAXE; i++)
        hA[w * i * (lda + 1)] += 8.0;
    gt_h2d(dA, hA, (size_t)MAXE * 16);
    gt_h2d(dB, hB, (size_t)MAXE * 16);
}

static void set_pointer_mode(int device)
{
    GT_CUBLAS(cublasSetPointerMode_v2(h, device ? CUBLAS_POINTER_MODE_DEVICE
                                                : CUBLAS_POINTER_MODE_HOST));
}

static const double alpha_h[2] = {1.5, -0.5}, beta_h[2] = {0.75, 0.25};

/* Group 1: every entry point, every enum combination, host and device scalars. */
static void valid_calls(double *out0)
{
    gt_h2d(dScal, alpha_h, 16);
    gt_h2d(dScal + 2, beta_h, 16);
    for (size_t i = 0; i < NENTRIES; i++) {
        const entry *e = &entries[i];
        gt_group("%s: every uplo, side, op, diag; host%s scalars", e->name,
                 e->legacy ? "" : " and device");
        const int sides = rank_k(e->kind) ? 1 : 2;
        const int ops = rank_k(e->kind) || triangular(e->kind) ? 3 : 1;
        const int diags = triangular(e->kind) ? 2 : 1;
        const int places = e->kind == DFS_L3_TRMM && !e->legacy ? 2 : 1;
        for (int side = 0; side < sides; side++)
            for (int uplo = 0; uplo < 2; uplo++)
                for (int op = 0; op < ops; op++)
                    for (int diag = 0; diag < diags; diag++)
                        for (int place = 0; place < places; place++)
                            for (int dev = 0; dev <= !e->legacy; dev++) {
                                args a = base(e, side, op, dev ? dScal : alpha_h,
                                              dev ? dScal + 2 : beta_h);
                                a.uplo = uplo;
                                a.diag = diag;
                                if (place) { /* TRMM in place: C = B, ldc = ldb */
                                    a.B = NULL;
                                    a.ldc = a.ldb;
                                }
                                gt_case("%s side %c uplo %c op %c diag %c%s, %s scalars",
                                        e->name, "LR"[side], "LU"[uplo], "NTC"[op], "NU"[diag],
                                        place ? ", in place" : "", dev ? "device" : "host");
                                load(e, a.lda, 100u * i + 7u * (unsigned)(side + 2 * uplo), out0);
                                set_pointer_mode(dev);
                                compare(e, h, a, out0);
                            }
        set_pointer_mode(0);
    }
    gt_end_group();
}

/* Group 2: invalid arguments of each kind and the quick returns. */
static void invalid_and_quick(double *out0)
{
    enum { UPLO_FULL, UPLO_7, SIDE_9, OP_9, DIAG_9, M_NEG, N_NEG, K_NEG, LDA, LDB, LDC, M0_LDA0,
           N0_LDC0, M0, N0, K0, ALPHA_NULL_N0, ALPHA_NULL_DEV, NULL_HANDLE, NCASES };
    static const char *const what[NCASES] = {
        "uplo FULL", "uplo 7", "side 9", "op 9", "diag 9", "m < 0", "n < 0", "k < 0",
        "lda below its minimum", "ldb below its minimum", "ldc below its minimum",
        "m = 0 with lda = 0", "n = 0 with ldc = 0", "m = 0", "n = 0", "k = 0",
        "alpha NULL, n = 0", "alpha NULL, device pointer mode", "NULL handle"};
    gt_group("invalid arguments and quick returns, every entry point: the real status and output");
    for (size_t i = 0; i < NENTRIES; i++) {
        const entry *e = &entries[i];
        const int rk = rank_k(e->kind), tri = triangular(e->kind);
        load(e, 8, 5000u + i, out0);
        for (int q = 0; q < NCASES; q++) {
            /* what the routine has no argument for, or the legacy API cannot say */
            if ((q == SIDE_9 && rk) || (q == OP_9 && !rk && !tri) || (q == DIAG_9 && !tri) ||
                (q == M_NEG && rk) || (q == K_NEG && !rk) || (q == K0 && !rk) ||
                (q == LDB && (e->kind == DFS_L3_SYRK || e->kind == DFS_L3_HERK)) ||
                ((q == LDC || q == N0_LDC0) && in_place(e)) ||
                (e->legacy && (q == UPLO_FULL || q >= ALPHA_NULL_N0)) ||
                /* a NULL alpha only where it was measured harmless (TRSM): another routine
                 * that read it would end the process */
                ((q == ALPHA_NULL_N0 || q == ALPHA_NULL_DEV) && e->kind != DFS_L3_TRSM))
                continue;
            args a = base(e, CUBLAS_SIDE_LEFT, CUBLAS_OP_N, alpha_h, beta_h);
            switch (q) {
            case UPLO_FULL: a.uplo = CUBLAS_FILL_MODE_FULL; break;
            case UPLO_7: a.uplo = 7; break;
            case SIDE_9: a.side = 9; break;
            case OP_9: a.trans = 9; break;
            case DIAG_9: a.diag = 9; break;
            case M_NEG: a.m = -1; break;
            case N_NEG: a.n = -1; break;
            case K_NEG: a.k = -1; break;
            case LDA: a.lda = rk ? a.n - 1 : a.m - 1; break;
            case LDB: a.ldb = a.m - 1; break;
            case LDC: a.ldc = a.m - 1; break;
            case M0_LDA0: a.m = 0; a.lda = 0; break;
            case N0_LDC0: a.n = 0; a.ldc = 0; break;
            case M0: a.m = 0; break;
            case N0: a.n = 0; break;
            case K0: a.k = 0; break;
            case ALPHA_NULL_N0: a.alpha = NULL; a.n = 0; break;
            case ALPHA_NULL_DEV: a.alpha = NULL; a.beta = dScal + 2; break;
            default: break;
            }
            if (rk && (q == M0 || q == M0_LDA0)) /* rank-k routines have no m: n instead */
                a.n = 0;
            if (q == LDB && in_place(e))
                a.ldc = a.ldb;
            gt_case("%s: %s", e->name, what[q]);
            set_pointer_mode(q == ALPHA_NULL_DEV);
            compare(e, q == NULL_HANDLE ? NULL : h, a, out0);
            set_pointer_mode(0);
        }
    }
    gt_end_group();
}

static const entry *find(const char *name)
{
    for (size_t i = 0; i < NENTRIES; i++)
        if (!strcmp(entries[i].name, name))
            return &entries[i];
    gt_fatal("no entry %s", name);
}

/* Group 3: what LEVEL3.md 2.1 measured, with the data that show it. */
static void measured_cases(double *out0)
{
    gt_group("the cases LEVEL3.md 2.1 measured");
    static const char *const real_c[] = {"cublasDsyrk_v2", "cublasDsyrkx", "cublasDsyr2k_v2"};
    static const char *const odd_op[] = {"cublasZsyrk_v2", "cublasZsyrkx", "cublasZsyr2k_v2",
                                         "cublasZherk_v2", "cublasZherkx", "cublasZher2k_v2"};
    for (size_t i = 0; i < 3; i++) {
        const entry *e = find(real_c[i]);
        gt_case("%s with op C (real: as T)", e->name);
        load(e, 8, 9000u + i, out0);
        compare(e, h, base(e, 0, CUBLAS_OP_C, alpha_h, beta_h), out0);
    }
    for (size_t i = 0; i < 6; i++) {
        const entry *e = find(odd_op[i]);
        const int op = e->kind == DFS_L3_SYRK || e->kind == DFS_L3_SYRKX ||
                               e->kind == DFS_L3_SYR2K
                           ? CUBLAS_OP_C
                           : CUBLAS_OP_T;
        gt_case("%s with op %c (the reference BLAS rejects it)", e->name, "NTC"[op]);
        load(e, 8, 9100u + i, out0);
        compare(e, h, base(e, 0, op, alpha_h, beta_h), out0);
    }
    const entry *trmm = find("cublasDtrmm_v2");
    gt_case("cublasDtrmm_v2 with C = B, ldb = 5, ldc = 8");
    load(trmm, 6, 9200u, out0);
    args a = base(trmm, 0, CUBLAS_OP_N, alpha_h, NULL);
    a.B = NULL;
    a.ldb = 5;
    a.ldc = 8;
    compare(trmm, h, a, out0);

    /* HERK: alpha = 0, beta = 1 and k = 0, beta = 1 leave C (Im 3 everywhere) untouched; alpha =
     * 1, beta = 1 on A = 0 zeroes Im(C_ii) only */
    const entry *herk = find("cublasZherk_v2");
    static const double zero[2] = {0.0, 0.0}, one[2] = {1.0, 0.0};
    for (int c = 0; c < 3; c++) {
        gt_case("cublasZherk_v2: %s", c == 0   ? "alpha = 0, beta = 1"
                                      : c == 1 ? "k = 0, beta = 1"
                                               : "alpha = 1, beta = 1, A = 0");
        load(herk, 8, 9300u, out0);
        for (int j = 0; j < MAXE; j++)
            out0[2 * j + 1] = 3.0;
        a = base(herk, 0, CUBLAS_OP_N, c == 0 ? zero : one, one);
        if (c == 1)
            a.k = 0;
        if (c == 2)
            a.A = dZero;
        compare(herk, h, a, out0);
    }
    /* TRSM alpha = 0 with NaN in A and B: cuBLAS 13 leaves NaN in B */
    const entry *trsm = find("cublasDtrsm_v2");
    gt_case("cublasDtrsm_v2 alpha = 0, NaN in A and B");
    load(trsm, 6, 9400u, out0);
    for (int j = 0; j < MAXE; j++) {
        hA[j] = gt_qnan();
        out0[j] = gt_qnan();
    }
    gt_h2d(dA, hA, (size_t)MAXE * 8);
    compare(trsm, h, base(trsm, 0, CUBLAS_OP_N, zero, NULL), out0);
    /* SYRK lower, beta = 0, C = 7 everywhere: the upper triangle keeps its 7 */
    const entry *syrk = find("cublasDsyrk_v2");
    gt_case("cublasDsyrk_v2 lower, beta = 0, C = 7");
    load(syrk, 6, 9500u, out0);
    for (int j = 0; j < MAXE; j++)
        out0[j] = 7.0;
    compare(syrk, h, base(syrk, 0, CUBLAS_OP_N, alpha_h, zero), out0);
    gt_end_group();
}

/* ---------- pointer-array batches ---------- */

typedef struct {
    int ta, tb;
    int64_t m, n, k, lda, ldb, ldc, batch;
    cudaDataType type;
    cublasComputeType_t compute;
    const void *alpha, *beta;
    const void *const *A, *const *B;
    void *const *C;
} bargs;

typedef cublasStatus_t (*brunner)(void *real, cublasHandle_t hh, const bargs *a);

#define BATCHED(name, T, I)                                                                        \
    static cublasStatus_t run_##name(void *real, cublasHandle_t hh, const bargs *a)                \
    {                                                                                              \
        FN(name, real);                                                                            \
        return f(hh, (cublasOperation_t)a->ta, (cublasOperation_t)a->tb, (I)a->m, (I)a->n,         \
                 (I)a->k, a->alpha, (const T *const *)a->A, (I)a->lda, (const T *const *)a->B,     \
                 (I)a->ldb, a->beta, (T *const *)a->C, (I)a->ldc, (I)a->batch);                    \
    }
#define BATCHED_EX(name, I)                                                                        \
    static cublasStatus_t run_##name(void *real, cublasHandle_t hh, const bargs *a)                \
    {                                                                                              \
        FN(name, real);                                                                            \
        return f(hh, (cublasOperation_t)a->ta, (cublasOperation_t)a->tb, (I)a->m, (I)a->n,         \
                 (I)a->k, a->alpha, a->A, a->type, (I)a->lda, a->B, a->type, (I)a->ldb, a->beta,   \
                 a->C, a->type, (I)a->ldc, (I)a->batch, a->compute, CUBLAS_GEMM_DEFAULT);          \
    }
BATCHED(cublasDgemmBatched, double, int)
BATCHED(cublasDgemmBatched_64, double, int64_t)
BATCHED(cublasZgemmBatched, cuDoubleComplex, int)
BATCHED(cublasZgemmBatched_64, cuDoubleComplex, int64_t)
BATCHED_EX(cublasGemmBatchedEx, int)
BATCHED_EX(cublasGemmBatchedEx_64, int64_t)

static struct {
    const char *name;
    brunner run;
    int complex, ex;
    void *real;
} batched[] = {
    {"cublasDgemmBatched", run_cublasDgemmBatched, 0, 0, NULL},
    {"cublasDgemmBatched_64", run_cublasDgemmBatched_64, 0, 0, NULL},
    {"cublasZgemmBatched", run_cublasZgemmBatched, 1, 0, NULL},
    {"cublasZgemmBatched_64", run_cublasZgemmBatched_64, 1, 0, NULL},
    {"cublasGemmBatchedEx", run_cublasGemmBatchedEx, 0, 1, NULL},
    {"cublasGemmBatchedEx_64", run_cublasGemmBatchedEx_64, 0, 1, NULL},
};
#define NBATCHED (sizeof batched / sizeof batched[0])

/* 3 entries of 8 x 8 blocks: A's pointers {A0, A1, A0} (repeated), B's, and C's into the
 * output buffer (dR or dS) at block offsets. */
#define BLK 128 /* elements between blocks */
static void **pointer_array(double *base_ptr, int complex, int repeat)
{
    void *p[3];
    for (int i = 0; i < 3; i++)
        p[i] = base_ptr + (size_t)(repeat && i == 2 ? 0 : i) * BLK * (complex ? 2 : 1);
    void **d = gt_dmalloc(sizeof p);
    gt_h2d(d, p, sizeof p);
    return d;
}

/* The batch for real (output dR) and through the shim (output dS), both from out0: the same
 * status, and the same output bit for bit, or within 64 ulps of 1 + |cuBLAS's| where engine_may
 * (a valid FP64 call) in repro and accurate, whose engine computes it through its strided GEMM
 * (shim/ptr_batch.h). */
static void compare_batched(int bi, bargs a, const double *out0, int engine_may)
{
    const int cx = batched[bi].complex || a.type == CUDA_C_64F;
    const size_t bytes = (size_t)MAXE * (cx ? 16 : 8);
    gt_h2d(dR, out0, bytes);
    gt_h2d(dS, out0, bytes);
    void **aa = pointer_array(dA, cx, 1), **bb = pointer_array(dB, cx, 0);
    void **cr = pointer_array(dR, cx, 0), **cs = pointer_array(dS, cx, 0);
    bargs r = a, s = a;
    r.A = s.A = (const void *const *)aa;
    r.B = s.B = (const void *const *)bb;
    r.C = cr;
    s.C = cs;
    const cublasStatus_t sr = batched[bi].run(batched[bi].real, h, &r);
    GT_CUDA(cudaDeviceSynchronize());
    const cublasStatus_t ss = batched[bi].run(NULL, h, &s);
    GT_CUDA(cudaDeviceSynchronize());
    gt_cmp_status(batched[bi].name, sr, ss);
    double *got = gt_hmalloc(bytes);
    gt_d2h(hOut, dR, bytes);
    gt_d2h(got, dS, bytes);
    if (engine_may && engine_mode)
        cmp_close(batched[bi].name, hOut, got, bytes / 8);
    else
        gt_cmp(batched[bi].name, hOut, got, bytes / 8, 8, 0);
    free(got);
    void **arrays[4] = {aa, bb, cr, cs};
    for (int i = 0; i < 4; i++)
        GT_CUDA(cudaFree(arrays[i]));
}

/* Group 4: the batches: every op pair, the Ex forms' types, invalid and empty batches. */
static void batches(double *out0)
{
    gt_group("pointer-array batches: ops, repeated A, GemmBatchedEx's types, bad arguments");
    gt_fill(hA, (size_t)MAXE * 2, 77);
    gt_fill(hB, (size_t)MAXE * 2, 78);
    gt_fill(out0, (size_t)MAXE * 2, 79);
    gt_h2d(dA, hA, (size_t)MAXE * 16);
    gt_h2d(dB, hB, (size_t)MAXE * 16);
    static const struct {
        cudaDataType type;
        cublasComputeType_t compute;
        const char *what;
    } ex[] = {{CUDA_R_64F, CUBLAS_COMPUTE_64F, "R_64F"},
              {CUDA_C_64F, CUBLAS_COMPUTE_64F, "C_64F"},
              {CUDA_R_64F, CUBLAS_COMPUTE_64F_PEDANTIC, "R_64F pedantic (forwarded)"}};
    for (size_t bi = 0; bi < NBATCHED; bi++)
        for (size_t x = 0; x < (batched[bi].ex ? 3 : 1); x++)
            for (int ta = 0; ta < 3; ta++)
                for (int tb = 0; tb < 3; tb++) {
                    bargs a = {ta, tb, 7, 6, 5, 8, 8, 8, 3, ex[x].type, ex[x].compute,
                               alpha_h, beta_h, NULL, NULL, NULL};
                    gt_case("%s%s%s op %c%c", batched[bi].name, batched[bi].ex ? " " : "",
                            batched[bi].ex ? ex[x].what : "", "NTC"[ta], "NTC"[tb]);
                    compare_batched((int)bi, a, out0, x != 2); /* pedantic: forwarded */
                }
    static const char *const bad[] = {"batchCount = -1", "batchCount = 0", "op 9", "lda < m",
                                      "m < 0"};
    for (size_t bi = 0; bi < NBATCHED; bi++)
        for (int q = 0; q < 5; q++) {
            bargs a = {0, 0, 7, 6, 5, 8, 8, 8, 3, CUDA_R_64F, CUBLAS_COMPUTE_64F, alpha_h, beta_h,
                       NULL, NULL, NULL};
            a.batch = q == 0 ? -1 : q == 1 ? 0 : a.batch;
            a.ta = q == 2 ? 9 : a.ta;
            a.lda = q == 3 ? 6 : a.lda;
            a.m = q == 4 ? -1 : a.m;
            gt_case("%s: %s", batched[bi].name, bad[q]);
            compare_batched((int)bi, a, out0, 0);
        }
    gt_end_group();
}

int main(void)
{
    gt_init("level3_status");
    engine_mode = gt_mode_is("repro") || gt_mode_is("accurate");
    for (size_t i = 0; i < NENTRIES; i++)
        entries[i].real = gt_real_fn(entries[i].name);
    for (size_t i = 0; i < NBATCHED; i++)
        batched[i].real = gt_real_fn(batched[i].name);
    printf("level3_status: EXBLAS_MODE=%s: %zu Level-3 entry points and %zu batched ones against "
           "real cuBLAS\n",
           gt_mode() ? gt_mode() : "(unset)", NENTRIES, NBATCHED);
    GT_CUBLAS(cublasCreate_v2(&h));
    if (cublasInit() != CUBLAS_STATUS_SUCCESS)
        gt_fatal("cublasInit failed");
    double **dev[] = {&dA, &dB, &dR, &dS, &dZero}, **host[] = {&hA, &hB, &hOut};
    for (size_t i = 0; i < sizeof dev / sizeof dev[0]; i++)
        *dev[i] = gt_dmalloc((size_t)MAXE * 16);
    for (size_t i = 0; i < sizeof host / sizeof host[0]; i++)
        *host[i] = gt_hmalloc((size_t)MAXE * 16);
    dScal = gt_dmalloc(64);
    double *out0 = gt_hmalloc((size_t)MAXE * 16);
    valid_calls(out0);
    invalid_and_quick(out0);
    measured_cases(out0);
    batches(out0);
    if (disagreements)
        printf("level3_status: %d calls where check_l3's class and cuBLAS's status disagree "
               "harmlessly (printed above)\n", disagreements);
    free(out0);
    return gt_finish();
}
