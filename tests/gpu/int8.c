/* int8 — the int8 engine (EXBLAS_MODE=int8[:moduli=N][,workspace_mb=M]) through the shim.
 *
 * The engine (engines/int8/engine.c, engines/oz/crt_gemm.c, kernels.cu) computes DGEMM by the Ozaki
 * scheme II on int8 tensor cores.  Its CPU twin, dfs_oz_crt_gemm_host(..., moduli, fast = 1)
 * (engines/oz/host_crt.c), gives the same bits for every output when it gets the same moduli:
 * the option moduli= when given (this test reads it from EXBLAS_MODE with the engine's rules),
 * else dfs_crt_fast_moduli(k), at least one bit per element (crt_gemm.c's moduli()).  The bits
 * do not depend on blocking, stream, pointer mode, API or transposition (the rows pass merges a
 * row's partial sums in one order for either layout); the CPU references are computed with the
 * call's own transa/transb all the same (on tight copies of the operands in the layout the call
 * sees).  CUBLAS_OP_C is CUBLAS_OP_T for real data.  Any NaN equals any NaN.
 *
 *  0. engaged: 64x64x300 phi 0 NN (alpha 1, beta 0): at least one output differs from real
 *     cuBLAS (else the engine was not reached); the count is printed.
 *  1. bitwise: cublasDgemm_v2 (ld tight), cublasDgemm_v2_64 (ld +3, transposition given as
 *     CUBLAS_OP_C), cublasDgemmStridedBatched (ld +1, every entry its own data, batch strides
 *     with gaps) and cublasGemmEx (CUDA_R_64F, CUBLAS_COMPUTE_64F, ld +3) x ops NN, NT, TN, TT x
 *     m x n x k in {1x1x1, 13x17x29, 64x64x300, 257x129x65, 7x9x0} (batch 3) x data {phi 0, 1,
 *     4, 8; rows of op(A) x 1e300 / 1e-300; Inf / NaN in rows of op(A) and -Inf in a column of
 *     op(B), Inf * 0; rows x 2^-1000 and columns x 2^-40: subnormal outputs} (k = 0: phi 1
 *     only; the shim sends it to native cuBLAS as a quick return, which must give the twin's
 *     beta C too) x alpha {1, 0.5, -3, 0} x beta {0, 1, -0.75} x host / device pointers; then
 *     200x300x2000 (batch 2; data phi 0, 4, 8, rows, Inf/NaN; (alpha, beta) in {(1,0), (0.5,1),
 *     (-3,-0.75), (0,-0.75)}) and 1024x1024x1024 NN (phi 1, (1,0) and (-3,-0.75); strided
 *     batched: 2 copies of the same data).  Every output of every batch entry equals the
 *     twin's.  Padding of A and B holds NaN; C's padding, batch gaps and 64 elements before and
 *     after C's span hold a sentinel that must stay untouched; beta = 0 runs with C full of NaN
 *     (not read); alpha = 0 runs with NaN and Inf in A and B.
 *  2. unit leading dimension: 1 x 8 x 4096 NN with lda = 1 and 8 x 1 x 4096 NT with ldb = 1 (a
 *     row of op(A) / a column of op(B) contiguous in memory although not transposed: the rows
 *     pass takes it a warp per row) and with ld 4 (32 parts per row), with data crafted so that
 *     merging the row's 32 partial sums of squares in order rather than in the butterfly would
 *     give it different bits: the GPU must equal the twin, which gives the same bits for
 *     either layout.
 *  3. accuracy: 256x256x4096 NN, x = (U - 0.5) exp(0.5 N): on 200 sampled outputs, the engine's
 *     and real cuBLAS's largest relative errors against the correctly rounded value
 *     (dfs_oz_gemm_host, default parameters), printed; the engine's must be at most 4 times
 *     native's.  The sampled outputs also equal the twin's bit for bit.
 *
 * The same program runs as int8 (EXBLAS_MODE=int8), int8_small (int8:workspace_mb=16: the
 * 200x300x2000 and 1024^3 products are computed block by block) and int8_m20 (int8:moduli=20):
 * the results must be the twin's in each, so blocking changes no bit.  The CPU references are
 * computed on threads (column ranges of the twin's calls from a shared queue).
 *
 * Exit 0: all passed; 1: a mismatch (each failing case names API, shape, ops, ld padding,
 * alpha, beta, data, pointer mode, and the first differing output with both values); 77: no
 * GPU. */
#include "int8_common.h"

#include "../../engines/oz/host_common.h"

#include <pthread.h>
#include <stdatomic.h>
#include <unistd.h>

/* ---------- 1. bitwise ---------- */

/* One API and op pair of a problem: operands laid out (ld + pad; strided: batch strides with
 * gaps) and uploaded (clean to dA, dB; poisoned to dA0, dB0), then every pair in abs_ x host /
 * device pointers through the shim against refs, every batch entry, C around the matrices
 * untouched. */
static void run_api(const problem *P, double *const ref[NAB][NBMAX], const char *desc, int N,
                    gt_gemm_api api, int ta, int tb, int pad, const int *abs_, int nab)
{
    const int64_t m = P->m, n = P->n, k = P->k;
    const int strided = gt_gemm_api_strided(api), nb = strided ? P->nb : 1;
    gt_gemm g = gemm_setup(api, ta, tb, m, n, k, pad, nb);
    upload(dA, P->A, nb, m, k, ta, g.lda, g.sA);
    upload(dA0, P->A0, nb, m, k, ta, g.lda, g.sA);
    upload(dB, P->B, nb, k, n, tb, g.ldb, g.sB);
    upload(dB0, P->B0, nb, k, n, tb, g.ldb, g.sB);
    char want_name[64];
    snprintf(want_name, sizeof want_name, "dfs_oz_crt_gemm_host (%d moduli)", N);
    for (int ai = 0; ai < nab; ai++) {
        const int ab = abs_[ai];
        const double alpha = ab_alpha(ab), beta = ab_beta(ab);
        double *Cl[NBMAX];
        for (int b = 0; b < nb; b++)
            Cl[b] = beta == 0 ? P->Cnan : P->C[b];
        const size_t span = c_template(&g, nb, Cl);
        g.A = alpha == 0 ? dA0 : dA;
        g.B = alpha == 0 ? dB0 : dB;
        for (int dev = 0; dev < 2; dev++) {
            gt_case("%s %lldx%lldx%lld op=%c%c ld+%d%s alpha=%g beta=%g data=%s ptr=%s",
                    gt_gemm_api_name[api], (long long)m, (long long)n, (long long)k,
                    gt_op_char(g.ta), gt_op_char(g.tb), pad, strided ? " batch" : "", alpha, beta,
                    desc, ptr_name(dev));
            const cublasStatus_t st = call(0, &g, dev, alpha, beta, span);
            if (st != CUBLAS_STATUS_SUCCESS) {
                gt_fail("%s: status %s", gt_gemm_api_name[api], gt_status_name(st));
                continue;
            }
            check_around(&g, nb, span);
            for (int b = 0; b < nb; b++) {
                gather(gotb, hCo + GUARD + (size_t)b * (size_t)g.sC, m, n, g.ldc);
                char what[48];
                snprintf(what, sizeof what, "C of batch entry %d", b);
                cmp_c(what, want_name, ref[ab][b], gotb, m, n);
            }
        }
    }
}

static const gt_gemm_api apis[4] = {GT_DGEMM, GT_DGEMM_64, GT_DGEMM_SB, GT_GEMMEX};
static const int pads[4] = {0, 3, 1, 3};

/* One op pair of a problem: the twin's C for every pair in abs_ and batch entry (operands in the
 * op pair's layout), then every API against them. */
static void op_block(const problem *P, const char *desc, int ta, int tb, const int *abs_,
                     int nab)
{
    const int64_t m = P->m, n = P->n, k = P->k;
    const int nref = P->distinct ? P->nb : 1, N = moduli_for(k);
    double *SA[NBMAX], *SA0[NBMAX], *SB[NBMAX], *SB0[NBMAX];
    for (int b = 0; b < nref; b++) {
        SA[b] = stored(P->A[b], m, k, ta);
        SA0[b] = stored(P->A0[b], m, k, ta);
        SB[b] = stored(P->B[b], k, n, tb);
        SB0[b] = stored(P->B0[b], k, n, tb);
    }
    double *ref[NAB][NBMAX];
    memset(ref, 0, sizeof ref);
    ref_task tasks[NAB * NBMAX];
    int nt = 0;
    for (int ai = 0; ai < nab; ai++) {
        const int ab = abs_[ai];
        const double alpha = ab_alpha(ab), beta = ab_beta(ab);
        for (int b = 0; b < nref; b++) {
            ref[ab][b] = df_xmalloc((size_t)max64(m * n, 1));
            tasks[nt++] = (ref_task){.ta = ta, .tb = tb, .moduli = N, .m = m, .n = n, .k = k,
                                     .lda = max64(ta ? k : m, 1), .ldb = max64(tb ? n : k, 1),
                                     .alpha = alpha, .beta = beta,
                                     .A = alpha == 0 ? SA0[b] : SA[b],
                                     .B = alpha == 0 ? SB0[b] : SB[b],
                                     .C0 = beta == 0 ? P->Cnan : P->C[b], .C = ref[ab][b]};
        }
        for (int b = nref; b < P->nb; b++)
            ref[ab][b] = ref[ab][0];
    }
    run_refs(tasks, nt);
    for (int a = 0; a < 4; a++)
        run_api(P, (double *const(*)[NBMAX])ref, desc, N, apis[a], ta, tb, pads[a], abs_, nab);
    for (int ai = 0; ai < nab; ai++)
        free(ref[abs_[ai]][0]), ref[abs_[ai]][0] = NULL;
    for (int ai = 0; ai < nab && nref > 1; ai++)
        for (int b = 1; b < nref; b++)
            free(ref[abs_[ai]][b]);
    for (int b = 0; b < nref; b++) {
        if (ta) {
            free(SA[b]);
            free(SA0[b]);
        }
        if (tb) {
            free(SB[b]);
            free(SB0[b]);
        }
    }
}

/* Shape m x n x k: every data kind in kinds (k = 0: phi 1 only) x op pairs (nops 4: NN, NT, TN,
 * TT; 1: NN) x the four APIs x abs_ x host/device pointers. */
static void shape_group(int64_t m, int64_t n, int64_t k, const int *kinds, int nkinds,
                        const int *abs_, int nab, int nb, int distinct, int nops, uint64_t seed)
{
    df_group("bitwise %lldx%lldx%lld (%d moduli): Dgemm_v2, _64 (T as C), StridedBatched (batch "
             "%d%s), GemmEx x %s x %d data x %d (alpha, beta) x host/device pointers = the twin",
             (long long)m, (long long)n, (long long)k, moduli_for(k), nb,
             distinct ? "" : ", copies", nops == 4 ? "NN, NT, TN, TT" : "NN", k == 0 ? 1 : nkinds,
             nab);
    const double r0 = ref_seconds;
    for (int ki = 0; ki < nkinds; ki++) {
        const int kind = kinds[ki];
        if (k == 0 && kind != K_PHI1)
            continue;
        problem P;
        make_problem(&P, m, n, k, kind, nb, distinct, seed + 100 * (uint64_t)kind);
        for (int op = 0; op < nops; op++)
            op_block(&P, kind_names[kind], op & 1, op >> 1, abs_, nab);
        free_problem(&P);
    }
    df_group_end();
    printf("     (CPU references: %.1f s)\n", ref_seconds - r0);
}

static void bitwise_groups(void)
{
    static const int64_t shapes[5][3] = {
        {1, 1, 1}, {13, 17, 29}, {64, 64, 300}, {257, 129, 65}, {7, 9, 0}};
    static const int all_kinds[K_COUNT] = {K_PHI0, K_PHI1,    K_PHI4, K_PHI8,
                                           K_ROWS, K_SPECIAL, K_TINY};
    int all_ab[NAB];
    for (int ab = 0; ab < NAB; ab++)
        all_ab[ab] = ab;
    for (int s = 0; s < 5; s++)
        shape_group(shapes[s][0], shapes[s][1], shapes[s][2], all_kinds, K_COUNT, all_ab, NAB, 3,
                    1, 4, 5000 + 1000 * (uint64_t)s);
    /* larger: fewer pairs and data (the twin is O(m n k moduli)) */
    static const int big_kinds[5] = {K_PHI0, K_PHI4, K_PHI8, K_ROWS, K_SPECIAL};
    static const int big_ab[4] = {0, 4, 8, 11}; /* (1,0), (0.5,1), (-3,-0.75), (0,-0.75) */
    shape_group(200, 300, 2000, big_kinds, 5, big_ab, 4, 2, 1, 4, 11000);
    static const int huge_kinds[1] = {K_PHI1};
    static const int huge_ab[2] = {0, 8}; /* (1,0), (-3,-0.75) */
    shape_group(1024, 1024, 1024, huge_kinds, 1, huge_ab, 2, 2, 0, 1, 12000);
}

/* ---------- 0. engaged ---------- */

static void engaged_group(void)
{
    df_group("engaged: 64x64x300 phi0 NN through the shim differs from real cuBLAS somewhere");
    const int64_t m = 64, n = 64, k = 300;
    problem P;
    make_problem(&P, m, n, k, K_PHI0, 1, 1, 4242);
    gt_gemm g = {.api = GT_DGEMM, .ta = CUBLAS_OP_N, .tb = CUBLAS_OP_N, .m = m, .n = n, .k = k,
                 .lda = m, .ldb = k, .ldc = m, .batch = 1};
    upload(dA, P.A, 1, m, k, 0, m, 0);
    upload(dB, P.B, 1, k, n, 0, k, 0);
    g.A = dA;
    g.B = dB;
    double *out[2] = {df_xmalloc((size_t)(m * n)), df_xmalloc((size_t)(m * n))};
    double *want = df_xmalloc((size_t)(m * n));
    twin(0, 0, m, n, k, 1.0, P.A[0], m, P.B[0], k, 0.0, want, m);
    gt_case("cublasDgemm_v2 64x64x300 op=NN alpha=1 beta=0 data=phi0 ptr=host: shim vs real "
            "cuBLAS");
    for (int real = 0; real < 2; real++) {
        const size_t span = c_template(&g, 1, &P.Cnan);
        const cublasStatus_t st = call(real, &g, 0, 1.0, 0.0, span);
        if (st != CUBLAS_STATUS_SUCCESS)
            gt_fail("%scublasDgemm_v2: status %s", real ? "real " : "", gt_status_name(st));
        gather(out[real], hCo + GUARD, m, n, m);
    }
    int64_t nd = 0;
    for (int64_t i = 0; i < m * n; i++)
        nd += !same(out[0][i], out[1][i]);
    cmp_c("C", "dfs_oz_crt_gemm_host", want, out[0], m, n);
    if (!nd)
        gt_fail("every output equals real cuBLAS's: cannot tell that the int8 engine is reached");
    df_group_end();
    printf("     (%lld of %lld outputs differ from real cuBLAS)\n", (long long)nd,
           (long long)(m * n));
    free(out[0]);
    free(out[1]);
    free(want);
    free_problem(&P);
}

/* ---------- 2. unit leading dimension ---------- */

/* The bits dfs_crt_row_bits gives x (k elements) when its partial sums (32 parts, each every
 * 32nd element) are merged in the rows pass's butterfly (tree = 1: host_common.h's row_of_gpu,
 * as the GPU and the twin do for either layout) or in order (tree = 0: what a layout-dependent
 * pass could do). */
static int bits_in_order(const double *x, int64_t k, int L, int tree)
{
    dfs_oz_row r = dfs_oz_row_init();
    if (tree) {
        const gemm_in g = {0, 0, 1, 1, k, x, x, 1, k}; /* op(A) = x, 1 x k */
        r = row_of_gpu(&g, 0, 0);
    } else {
        for (int i = 0; i < 32; i++) {
            dfs_oz_row p = dfs_oz_row_init();
            for (int64_t q = i; q < k; q += 32)
                dfs_oz_row_add(&p, x[q]);
            dfs_oz_row_merge(&r, p);
        }
    }
    return dfs_crt_row_bits(L, dfs_oz_row_l2sq(r, k), k);
}

/* A vector of k >= 64 elements (tau = 0: every element below 1) whose sum of squares lies on
 * either side of 1/(1 + 2^-30), where dfs_crt_row_bits steps (L odd), depending on the merge
 * order: a big element x0 at 0, its square's last bit even, and 2^-27 at 2 .. 31 (squares of
 * half an ulp of x0^2: each absorbed into x0^2 in order, added up among themselves first in the
 * butterfly); a probe at 1 of the larger bit count's weight, whose truncation decides the
 * output.  x0 searched down from 1 - 2^-31; 0 if none found in 4096 steps. */
static int craft(double *x, int64_t k, int L)
{
    double x0 = 1 - 0x1p-31;
    for (int step = 0; step < 4096; step++, x0 = nextafter(x0, 0.0)) {
        for (int64_t q = 0; q < k; q++)
            x[q] = q >= 2 && q < 32 ? 0x1p-27 : 0.0;
        x[0] = x0;
        const int bt = bits_in_order(x, k, L, 1), bs = bits_in_order(x, k, L, 0);
        if (bt == bs)
            continue;
        const int hi = bt > bs ? bt : bs;
        x[1] = ldexp(1.0, -hi);
        if (bits_in_order(x, k, L, 1) == bt && bits_in_order(x, k, L, 0) == bs)
            return 1;
    }
    return 0;
}

/* The row case (col = 0): op(A) = x (1 x k, stored with lda = 1, op N), op(B) = M (k x w); the
 * column case (col = 1): op(A) = M^T (w x k, op N), op(B) = x (k x 1, stored with ldb = 1, op T).
 * The twin for the call's own arguments (want) and for the same memory read as op T / op N
 * (alt: the other layout, which must give the same bits). */
static void unit_refs(int col, const double *x, const double *M, const double *Mt, int64_t k,
                      int64_t w, double *want, double *alt)
{
    if (!col) {
        twin(0, 0, 1, w, k, 1.0, x, 1, M, k, 0.0, want, 1);
        twin(1, 0, 1, w, k, 1.0, x, k, M, k, 0.0, alt, 1);
    } else {
        twin(0, 1, w, 1, k, 1.0, Mt, w, x, 1, 0.0, want, w);
        twin(0, 0, w, 1, k, 1.0, Mt, w, x, k, 0.0, alt, w);
    }
}

static void unit_ld_group(void)
{
    const int64_t k = 4096, w = 8;
    const int N = moduli_for(k), L = dfs_crt_bits(N);
    df_group("unit leading dimension: 1x%lldx%lld NN with lda = 1 and %lldx1x%lld NT with ldb = 1 "
             "(a row / column contiguous though not transposed), data where the merge order of "
             "the sum of squares changes the row's bits (%d moduli): = the twin", (long long)w, (long long)k,
             (long long)w, (long long)k, N);
    double *x = df_xmalloc((size_t)k), *M = df_xmalloc((size_t)(k * w));
    double *Mt = df_xmalloc((size_t)(k * w));
    double want[8], alt[8], got[8];
    fill(M, k * w, G_PHI0, 777);
    for (int64_t c = 0; c < w; c++)
        M[0 + c * k] = 0.0; /* the big element meets zeros: the probe at 1 shows */
    for (int64_t c = 0; c < w; c++)
        for (int64_t q = 0; q < k; q++)
            Mt[c + q * w] = M[q + c * k];
    for (int col = 0; col < 2; col++) {
        if (!(L & 1) || !craft(x, k, L)) {
            gt_case("%s case", col ? "column" : "row");
            gt_note("no data found whose two merge orders give different bits (%d moduli, L = "
                    "%d): case skipped", N, L);
            continue;
        }
        unit_refs(col, x, M, Mt, k, w, want, alt);
        gt_case("twin, %s case: op(%c) stored transposed or not, the same bits",
                col ? "column" : "row", col ? 'B' : 'A');
        cmp_c("C", "the twin for the other layout", want, alt, col ? w : 1, col ? 1 : w);
        for (int ld1 = 1; ld1 >= 0; ld1--) {
            const int64_t ld = ld1 ? 1 : 4;
            gt_gemm g = {.api = GT_DGEMM, .ta = CUBLAS_OP_N,
                         .tb = col ? CUBLAS_OP_T : CUBLAS_OP_N, .m = col ? w : 1,
                         .n = col ? 1 : w, .k = k, .batch = 1};
            double *xl[1] = {x}, *Ml[1] = {M}, *Mtl[1] = {Mt};
            if (!col) {
                g.lda = ld;
                g.ldb = k;
                g.ldc = 1;
                upload(dA, xl, 1, 1, k, 0, ld, 0);
                upload(dB, Ml, 1, k, w, 0, k, 0);
            } else {
                g.lda = w;
                g.ldb = ld;
                g.ldc = w;
                upload(dA, Mtl, 1, w, k, 0, w, 0);
                upload(dB, xl, 1, k, 1, 1, ld, 0);
            }
            g.A = dA;
            g.B = dB;
            double nanv[8]; /* beta = 0: C full of NaN */
            for (int i = 0; i < 8; i++)
                nanv[i] = qnan;
            double *Cl[1] = {nanv};
            gt_case("cublasDgemm_v2 %lldx%lldx%lld op=N%c %s=%lld alpha=1 beta=0 ptr=host (big "
                    "element %a, probe %a)", (long long)g.m, (long long)g.n, (long long)k,
                    col ? 'T' : 'N', col ? "ldb" : "lda", (long long)ld, x[0], x[1]);
            const size_t span = c_template(&g, 1, Cl);
            const cublasStatus_t st = call(0, &g, 0, 1.0, 0.0, span);
            if (st != CUBLAS_STATUS_SUCCESS) {
                gt_fail("cublasDgemm_v2: status %s", gt_status_name(st));
                continue;
            }
            check_around(&g, 1, span);
            gather(got, hCo + GUARD, g.m, g.n, g.ldc);
            if (!cmp_c("C", "dfs_oz_crt_gemm_host", want, got, g.m, g.n))
                gt_note("with %s = 1 the GPU's rows pass takes this %s of op(%c) as contiguous "
                        "(a warp per row), with %s = 4 as strided (32 parts): both must merge "
                        "in the butterfly's order (engines/oz/kernels.cu, host_common.h's row_of_gpu)",
                        col ? "ldb" : "lda", col ? "column" : "row", col ? 'B' : 'A',
                        col ? "ldb" : "lda");
        }
    }
    df_group_end();
    free(x);
    free(M);
    free(Mt);
}

/* ---------- 3. accuracy ---------- */

static void accuracy_group(void)
{
    const int64_t m = 256, n = 256, k = 4096;
    const int S = 200;
    df_group("accuracy: 256x256x4096 NN phi 0.5, %d sampled outputs against the correctly rounded "
             "value: the engine's largest relative error <= 4 x real cuBLAS's (%d moduli)", S,
             moduli_for(k));
    double *A = df_xmalloc((size_t)(m * k)), *B = df_xmalloc((size_t)(k * n));
    rng r = rng_seed(31337);
    for (int64_t i = 0; i < m * k; i++)
        A[i] = gen_phi(&r, 0.5);
    for (int64_t i = 0; i < k * n; i++)
        B[i] = gen_phi(&r, 0.5);
    double *Al[1] = {A}, *Bl[1] = {B};
    upload(dA, Al, 1, m, k, 0, m, 0);
    upload(dB, Bl, 1, k, n, 0, k, 0);
    gt_gemm g = {.api = GT_DGEMM, .ta = CUBLAS_OP_N, .tb = CUBLAS_OP_N, .m = m, .n = n, .k = k,
                 .lda = m, .ldb = k, .ldc = m, .batch = 1, .A = dA, .B = dB};
    double *out[2] = {df_xmalloc((size_t)(m * n)), df_xmalloc((size_t)(m * n))};
    double *Cnan = df_xmalloc((size_t)(m * n));
    gt_fill_const(Cnan, (size_t)(m * n), qnan);
    gt_case("cublasDgemm_v2 256x256x4096 op=NN alpha=1 beta=0 data=phi0.5 ptr=host");
    for (int real = 0; real < 2; real++) {
        const size_t span = c_template(&g, 1, &Cnan);
        const cublasStatus_t st = call(real, &g, 0, 1.0, 0.0, span);
        if (st != CUBLAS_STATUS_SUCCESS)
            gt_fail("%scublasDgemm_v2: status %s", real ? "real " : "", gt_status_name(st));
        gather(out[real], hCo + GUARD, m, n, m);
    }
    double err[2] = {0, 0};
    int64_t zero = 0, twin_bad = 0, first_bad = -1;
    double tw_first = 0;
    for (int s = 0; s < S; s++) {
        const int64_t i = below(&r, (int)m), j = below(&r, (int)n);
        double exact = 0, tw = 0;
        repro_dgemm_host('N', 'N', 1, 1, k, 1.0, A + i, m, B + j * k, k, 0.0, &exact, 1);
        twin(0, 0, 1, 1, k, 1.0, A + i, m, B + j * k, k, 0.0, &tw, 1);
        const double got = out[0][i + j * m];
        if (!same(tw, got) && !twin_bad++) {
            first_bad = i + j * m;
            tw_first = tw;
        }
        if (exact == 0) {
            zero++;
            continue;
        }
        for (int q = 0; q < 2; q++) {
            const double e = fabs(out[q][i + j * m] - exact) / fabs(exact);
            err[q] = e > err[q] || isnan(e) ? e : err[q];
        }
    }
    if (twin_bad)
        gt_fail("%lld of %d sampled outputs differ from dfs_oz_crt_gemm_host; first (row %lld, col "
                "%lld): GPU %.17g [%016" PRIx64 "], expected %.17g [%016" PRIx64 "]",
                (long long)twin_bad, S, (long long)(first_bad % m), (long long)(first_bad / m),
                out[0][first_bad], df_bits(out[0][first_bad]), tw_first, df_bits(tw_first));
    if (!(err[0] <= 4 * err[1]))
        gt_fail("the int8 engine's largest relative error %.3e is more than 4 x real cuBLAS's "
                "%.3e", err[0], err[1]);
    df_group_end();
    printf("     (largest relative error over %d outputs: int8 %.3e, real cuBLAS %.3e, ratio "
           "%.3g%s)\n", S - (int)zero, err[0], err[1], err[1] > 0 ? err[0] / err[1] : 0.0,
           zero ? "; exact zeros skipped" : "");
    free(A);
    free(B);
    free(out[0]);
    free(out[1]);
    free(Cnan);
}

/* ---------- main ---------- */

int main(void)
{
    gt_init("int8");
    const double t0 = gt_now();
    const char *mode = gt_mode();
    if (!parse_mode())
        gt_fatal("int8 needs EXBLAS_MODE=int8[:options], not '%s'", mode ? mode : "(unset)");
    qnan = gt_qnan();
    gap_c = of_bits(0x7ff8dead0000beefULL);
    long np = sysconf(_SC_NPROCESSORS_ONLN);
    n_threads = np < 1 ? 1 : np > MAX_THREADS ? MAX_THREADS : (int)np;
    printf("int8: EXBLAS_MODE=%s against dfs_oz_crt_gemm_host(fast = 1) with %s (k = 300: %d, "
           "k = 4096: %d); %d CPU threads for the references\n", mode,
           opt_moduli ? "the moduli= option" : "dfs_crt_fast_moduli(k)", moduli_for(300),
           moduli_for(4096), n_threads);
    GT_CUBLAS(cublasCreate_v2(&handle));
    dA = gt_dmalloc(BUF * sizeof(double));
    dA0 = gt_dmalloc(BUF * sizeof(double));
    dB = gt_dmalloc(BUF * sizeof(double));
    dB0 = gt_dmalloc(BUF * sizeof(double));
    dC = gt_dmalloc((BUF + 2 * GUARD) * sizeof(double));
    d_ab = gt_dmalloc(2 * sizeof(double));
    hS = df_pinned(BUF);
    hCt = df_pinned(BUF + 2 * GUARD);
    hCo = df_pinned(BUF + 2 * GUARD);
    gotb = df_xmalloc(BUF);

    engaged_group();
    bitwise_groups();
    unit_ld_group();
    accuracy_group();

    GT_CUBLAS(cublasDestroy_v2(handle));
    double *dev_bufs[] = {dA, dA0, dB, dB0, dC, d_ab};
    for (size_t i = 0; i < sizeof dev_bufs / sizeof dev_bufs[0]; i++)
        GT_CUDA(cudaFree(dev_bufs[i]));
    GT_CUDA(cudaFreeHost(hS));
    GT_CUDA(cudaFreeHost(hCt));
    GT_CUDA(cudaFreeHost(hCo));
    free(gotb);
    printf("int8: %.1f s in all, %.1f s of it CPU references (%lld twin calls)\n", gt_now() - t0,
           ref_seconds, ref_calls);
    return gt_finish();
}
