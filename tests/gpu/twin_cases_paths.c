/* twin_cases_paths.c — group 4 of the repro and dd tests and group 5 of the repro test (repro.c
 * says what they run): reproducibility across streams, handles and graph replays; the slow and
 * direct paths. */
#include "twin_cases.h"

#include "../common/gen.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------- 4. reproducibility: streams, handles, graphs ---------- */

static double *upload_new(const double *h, size_t n)
{
    double *d = gt_dmalloc(n * sizeof *d);
    gt_h2d(d, h, n * sizeof *h);
    return d;
}

void reproducibility_group(void)
{
    enum { REPS = 3, ND = 2, NG = 2, NM = 2 };
    const int64_t dn[ND] = {(int64_t)1 << 22, (int64_t)1 << 20};
    const int64_t gm = 3000, gn = 2000;
    const int64_t mm[NM][3] = {{257, 129, 65}, {200, 300, 400}};
    const double g_alpha = 1.5, g_beta = -0.75, m_alpha[NM] = {-0.5, 1.0}, m_beta[NM] = {2.0, 0.0};
    df_group("reproducibility: DDOT, DGEMV, DGEMM on two handles (blocking and non-blocking "
             "streams), interleaved, %d rounds: bitwise equal and the CPU's; a captured DGEMV + "
             "device-pointer DDOT replayed twice: the eager bits", REPS);
    cudaStream_t s[2];
    cublasHandle_t h[2];
    GT_CUDA(cudaStreamCreate(&s[0]));
    GT_CUDA(cudaStreamCreateWithFlags(&s[1], cudaStreamNonBlocking));
    for (int i = 0; i < 2; i++) {
        GT_CUBLAS(cublasCreate_v2(&h[i]));
        GT_CUBLAS(cublasSetStream_v2(h[i], s[i]));
    }
    /* data and CPU results */
    double *hx[ND], *hy[ND], *dx[ND], *dy[ND], dref[ND];
    for (int d = 0; d < ND; d++) {
        hx[d] = df_xmalloc((size_t)dn[d]);
        hy[d] = df_xmalloc((size_t)dn[d]);
        if (d == 0) {
            fill(hx[d], dn[d], G_PHI4, 4001);
            fill(hy[d], dn[d], G_PHI4, 4002);
        } else {
            uint64_t st = 4003;
            for (int64_t i = 0; i < dn[d]; i++) {
                const double u = (double)(gt_rand(&st) >> 11) * 0x1p-53 + 0.5;
                hx[d][i] = (gt_rand(&st) & 1 ? -u : u) * pow(10.0, (double)(gt_rand(&st) % 301) - 150);
                hy[d][i] = u * pow(10.0, (double)(gt_rand(&st) % 301) - 150);
            }
        }
        dref[d] = dot_ref(dn[d], hx[d], hy[d], NULL);
        dx[d] = upload_new(hx[d], (size_t)dn[d]);
        dy[d] = upload_new(hy[d], (size_t)dn[d]);
    }
    double *gA = df_xmalloc((size_t)(gm * gn)), *gx[NG], *gy0[NG], *gref[NG], *dgA, *dgx[NG],
           *dgy0[NG];
    fill(gA, gm * gn, G_PHI4, 4010);
    dgA = upload_new(gA, (size_t)(gm * gn));
    for (int t = 0; t < NG; t++) {
        const int64_t lx = t ? gm : gn, ly = t ? gn : gm;
        gx[t] = df_xmalloc((size_t)lx);
        gy0[t] = df_xmalloc((size_t)ly);
        gref[t] = df_xmalloc((size_t)ly);
        fill(gx[t], lx, G_PHI4, 4011 + (uint64_t)t);
        fill(gy0[t], ly, G_PHI1, 4013 + (uint64_t)t);
        gemv_ref(t, gm, gn, g_alpha, gA, gx[t], g_beta, gy0[t], gref[t]);
        dgx[t] = upload_new(gx[t], (size_t)lx);
        dgy0[t] = upload_new(gy0[t], (size_t)ly);
    }
    double *mA[NM], *mB[NM], *mC0[NM], *mref[NM], *dmA[NM], *dmB[NM], *dmC0[NM];
    for (int q = 0; q < NM; q++) {
        const int64_t m = mm[q][0], n = mm[q][1], k = mm[q][2];
        mA[q] = df_xmalloc((size_t)(m * k));
        mB[q] = df_xmalloc((size_t)(k * n));
        mC0[q] = df_xmalloc((size_t)(m * n));
        mref[q] = df_xmalloc((size_t)(m * n));
        fill(mA[q], m * k, q ? G_PHI1 : G_PHI4, 4020 + 3 * (uint64_t)q);
        fill(mB[q], k * n, q ? G_PHI1 : G_PHI4, 4021 + 3 * (uint64_t)q);
        fill(mC0[q], m * n, G_PHI1, 4022 + 3 * (uint64_t)q);
        if (q == 1)
            for (int64_t p = 0; p < k; p++)
                for (int64_t i = 0; i < m; i++)
                    mA[q][i + p * m] *= i % 2 ? 1e300 : 1e-300;
        gemm_ref(m, n, k, m_alpha[q], mA[q], mB[q], m_beta[q], mC0[q], mref[q], NULL);
        /* q = 0: NN, A m x k; q = 1: TN, A stored k x m */
        double *At = df_xmalloc((size_t)(m * k));
        for (int64_t p = 0; p < k; p++)
            for (int64_t i = 0; i < m; i++)
                At[q ? p + i * k : i + p * m] = mA[q][i + p * m];
        dmA[q] = upload_new(At, (size_t)(m * k));
        free(At);
        dmB[q] = upload_new(mB[q], (size_t)(k * n));
        dmC0[q] = upload_new(mC0[q], (size_t)(m * n));
    }
    /* outputs: [rep][handle] */
    double *d_dot = gt_dmalloc((size_t)REPS * 2 * ND * sizeof(double));
    double *d_gy[REPS][2][NG], *d_mC[REPS][2][NM];
    for (int r = 0; r < REPS; r++)
        for (int i = 0; i < 2; i++) {
            for (int t = 0; t < NG; t++)
                d_gy[r][i][t] = gt_dmalloc((size_t)(t ? gn : gm) * sizeof(double));
            for (int q = 0; q < NM; q++)
                d_mC[r][i][q] = gt_dmalloc((size_t)(mm[q][0] * mm[q][1]) * sizeof(double));
        }

    gt_case("%d rounds on both handles, interleaved", REPS);
    for (int r = 0; r < REPS; r++)
        for (int i = 0; i < 2; i++) {
            GT_CUBLAS(cublasSetPointerMode_v2(h[i], CUBLAS_POINTER_MODE_DEVICE));
            for (int d = 0; d < ND; d++)
                check_status("cublasDdot_v2",
                             cublasDdot_v2(h[i], (int)dn[d], dx[d], 1, dy[d], 1,
                                           d_dot + (r * 2 + i) * ND + d));
            GT_CUBLAS(cublasSetPointerMode_v2(h[i], CUBLAS_POINTER_MODE_HOST));
            for (int t = 0; t < NG; t++) {
                const int64_t ly = t ? gn : gm;
                GT_CUDA(cudaMemcpyAsync(d_gy[r][i][t], dgy0[t], (size_t)ly * sizeof(double),
                                        cudaMemcpyDeviceToDevice, s[i]));
                check_status("cublasDgemv_v2",
                             cublasDgemv_v2(h[i], t ? CUBLAS_OP_T : CUBLAS_OP_N, (int)gm, (int)gn,
                                            &g_alpha, dgA, (int)gm, dgx[t], 1, &g_beta,
                                            d_gy[r][i][t], 1));
            }
            for (int q = 0; q < NM; q++) {
                const int64_t m = mm[q][0], n = mm[q][1], k = mm[q][2];
                GT_CUDA(cudaMemcpyAsync(d_mC[r][i][q], dmC0[q], (size_t)(m * n) * sizeof(double),
                                        cudaMemcpyDeviceToDevice, s[i]));
                check_status("cublasDgemm_v2",
                             cublasDgemm_v2(h[i], q ? CUBLAS_OP_T : CUBLAS_OP_N, CUBLAS_OP_N,
                                            (int)m, (int)n, (int)k, &m_alpha[q], dmA[q],
                                            (int)(q ? k : m), dmB[q], (int)k, &m_beta[q],
                                            d_mC[r][i][q], (int)m));
            }
        }
    GT_CUDA(cudaDeviceSynchronize());
    double *got = df_xmalloc((size_t)(300 * 300));
    double dots[REPS * 2 * ND];
    gt_d2h(dots, d_dot, sizeof dots);
    for (int r = 0; r < REPS; r++)
        for (int i = 0; i < 2; i++) {
            gt_case("round %d, handle %d (%s stream)", r, i, i ? "non-blocking" : "blocking");
            for (int d = 0; d < ND; d++)
                cmp_one(d ? "DDOT n = 2^20 (slow path)" : "DDOT n = 2^22", dref[d],
                        dots[(r * 2 + i) * ND + d]);
            for (int t = 0; t < NG; t++) {
                const int64_t ly = t ? gn : gm;
                gt_d2h(got, d_gy[r][i][t], (size_t)ly * sizeof *got);
                cmp_out(t ? "DGEMV T" : "DGEMV N", gref[t], got, ly, 0);
            }
            for (int q = 0; q < NM; q++) {
                const int64_t m = mm[q][0], n = mm[q][1];
                gt_d2h(got, d_mC[r][i][q], (size_t)(m * n) * sizeof *got);
                cmp_out(q ? "DGEMM TN" : "DGEMM NN", mref[q], got, m * n, m);
            }
        }

    /* graph capture on handle 1 (non-blocking stream): y = DGEMV N, r = y . w (device) */
    {
        cudaStream_t gs = s[1];
        cublasHandle_t gh = h[1];
        double *dyg = gt_dmalloc((size_t)gm * sizeof(double)), *drg = gt_dmalloc(sizeof(double));
        double *w = df_xmalloc((size_t)gm), *ye = df_xmalloc((size_t)gm);
        fill(w, gm, G_PHI1, 4030);
        double *dw = upload_new(w, (size_t)gm);
        const double rref = dot_ref(gm, gref[0], w, NULL);
        double re;
        gt_case("eager DGEMV N %lldx%lld + device-pointer DDOT of its output on the non-blocking "
                "stream", (long long)gm, (long long)gn);
        GT_CUDA(cudaMemcpyAsync(dyg, dgy0[0], (size_t)gm * sizeof(double),
                                cudaMemcpyDeviceToDevice, gs));
        check_status("cublasDgemv_v2", cublasDgemv_v2(gh, CUBLAS_OP_N, (int)gm, (int)gn, &g_alpha,
                                                      dgA, (int)gm, dgx[0], 1, &g_beta, dyg, 1));
        GT_CUBLAS(cublasSetPointerMode_v2(gh, CUBLAS_POINTER_MODE_DEVICE));
        check_status("cublasDdot_v2_64", cublasDdot_v2_64(gh, gm, dyg, 1, dw, 1, drg));
        GT_CUBLAS(cublasSetPointerMode_v2(gh, CUBLAS_POINTER_MODE_HOST));
        GT_CUDA(cudaStreamSynchronize(gs));
        gt_d2h(ye, dyg, (size_t)gm * sizeof *ye);
        gt_d2h(&re, drg, sizeof re);
        cmp_out("eager y", gref[0], ye, gm, 0);
        cmp_one("eager r", rref, re);

        gt_case("captured (global mode): the same DGEMV and DDOT, replayed twice: bitwise the "
                "eager results");
        cudaGraph_t graph = NULL;
        cudaGraphExec_t exec = NULL;
        GT_CUDA(cudaStreamBeginCapture(gs, cudaStreamCaptureModeGlobal));
        GT_CUDA(cudaMemcpyAsync(dyg, dgy0[0], (size_t)gm * sizeof(double),
                                cudaMemcpyDeviceToDevice, gs));
        check_status("captured cublasDgemv_v2",
                     cublasDgemv_v2(gh, CUBLAS_OP_N, (int)gm, (int)gn, &g_alpha, dgA, (int)gm,
                                    dgx[0], 1, &g_beta, dyg, 1));
        gt_still_capturing(gs, "the DGEMV");
        GT_CUBLAS(cublasSetPointerMode_v2(gh, CUBLAS_POINTER_MODE_DEVICE));
        check_status("captured cublasDdot_v2_64", cublasDdot_v2_64(gh, gm, dyg, 1, dw, 1, drg));
        GT_CUBLAS(cublasSetPointerMode_v2(gh, CUBLAS_POINTER_MODE_HOST));
        gt_still_capturing(gs, "the DDOT");
        if (gt_end_capture(gs, &graph))
            exec = gt_instantiate(graph);
        for (int rep = 0; exec && rep < 2; rep++) {
            double *yr = df_xmalloc((size_t)gm), rr;
            GT_CUDA(cudaMemsetAsync(dyg, 0xff, (size_t)gm * sizeof(double), gs));
            GT_CUDA(cudaMemsetAsync(drg, 0xff, sizeof(double), gs));
            GT_CUDA(cudaGraphLaunch(exec, gs));
            GT_CUDA(cudaStreamSynchronize(gs));
            gt_d2h(yr, dyg, (size_t)gm * sizeof *yr);
            gt_d2h(&rr, drg, sizeof rr);
            cmp_named(rep ? "replay 2: y" : "replay 1: y", "eager", ye, yr, gm, 0);
            cmp_named(rep ? "replay 2: r" : "replay 1: r", "eager", &re, &rr, 1, 0);
            free(yr);
        }
        if (exec)
            GT_CUDA(cudaGraphExecDestroy(exec));
        if (graph)
            GT_CUDA(cudaGraphDestroy(graph));
        GT_CUDA(cudaFree(dyg));
        GT_CUDA(cudaFree(drg));
        GT_CUDA(cudaFree(dw));
        free(w);
        free(ye);
    }

    for (int i = 0; i < 2; i++) {
        GT_CUBLAS(cublasDestroy_v2(h[i]));
        GT_CUDA(cudaStreamDestroy(s[i]));
    }
    for (int d = 0; d < ND; d++) {
        free(hx[d]);
        free(hy[d]);
        GT_CUDA(cudaFree(dx[d]));
        GT_CUDA(cudaFree(dy[d]));
    }
    free(gA);
    GT_CUDA(cudaFree(dgA));
    for (int t = 0; t < NG; t++) {
        free(gx[t]);
        free(gy0[t]);
        free(gref[t]);
        GT_CUDA(cudaFree(dgx[t]));
        GT_CUDA(cudaFree(dgy0[t]));
    }
    for (int q = 0; q < NM; q++) {
        free(mA[q]);
        free(mB[q]);
        free(mC0[q]);
        free(mref[q]);
        GT_CUDA(cudaFree(dmA[q]));
        GT_CUDA(cudaFree(dmB[q]));
        GT_CUDA(cudaFree(dmC0[q]));
    }
    GT_CUDA(cudaFree(d_dot));
    for (int r = 0; r < REPS; r++)
        for (int i = 0; i < 2; i++) {
            for (int t = 0; t < NG; t++)
                GT_CUDA(cudaFree(d_gy[r][i][t]));
            for (int q = 0; q < NM; q++)
                GT_CUDA(cudaFree(d_mC[r][i][q]));
        }
    free(got);
    df_group_end();
}

/* ---------- 5. the slow and direct paths ---------- */

/* U[0.5, 1) 10^e, e uniform in [lo, hi], random sign. */
static void fill_pow10(double *x, int64_t n, int lo, int hi, uint64_t seed)
{
    uint64_t s = seed;
    for (int64_t i = 0; i < n; i++) {
        const double u = (double)(gt_rand(&s) >> 11) * 0x1p-54 + 0.5;
        const int e = lo + (int)(gt_rand(&s) % (uint64_t)(hi - lo + 1));
        x[i] = (gt_rand(&s) & 1 ? -u : u) * pow(10.0, e);
    }
}

/* U[0.5, 1) 2^e, e uniform in [lo, hi], random sign. */
static void fill_pow2(double *x, int64_t n, int lo, int hi, uint64_t seed)
{
    uint64_t s = seed;
    for (int64_t i = 0; i < n; i++) {
        const double u = (double)(gt_rand(&s) >> 11) * 0x1p-54 + 0.5;
        const int e = lo + (int)(gt_rand(&s) % (uint64_t)(hi - lo + 1));
        x[i] = ldexp(gt_rand(&s) & 1 ? -u : u, e);
    }
}

void slow_group(void)
{
    df_group("slow and direct paths: DDOT products 1e-300..1e300 and 2^-700..2^700; DGEMV with "
             "some spilling rows/columns; DGEMM with rows/columns beyond the slice cap, and all "
             "rows so: the CPU takes them, the GPU gives its bits");
    /* DDOT */
    const int64_t ns[2] = {1000, ((int64_t)1 << 20) + 1};
    double *x = df_xmalloc((size_t)ns[1]), *y = df_xmalloc((size_t)ns[1]);
    for (int ni = 0; ni < 2; ni++)
        for (int v = 0; v < 2; v++) {
            const int64_t n = ns[ni];
            if (v == 0) {
                fill_pow10(x, n, -150, 150, 6000 + (uint64_t)ni);
                fill_pow10(y, n, -150, 150, 6010 + (uint64_t)ni);
            } else {
                fill_pow2(x, n, -350, 350, 6020 + (uint64_t)ni);
                fill_pow2(y, n, -350, 350, 6030 + (uint64_t)ni);
            }
            int64_t slow;
            const double want = dot_ref(n, x, y, &slow);
            gt_case("DDOT n=%lld %s: the CPU takes the slow path", (long long)n,
                    v ? "exponents 2^-700..2^700" : "products 1e-300..1e300");
            if (!slow)
                gt_fail("test bug: the CPU implementation did not take the slow path");
            dot_layouts(v ? "exponents 2^-700..2^700" : "products 1e-300..1e300", x, y, n, 3,
                        want);
        }
    free(x);
    free(y);

    /* DGEMV: spilling rows (op N) and columns (op T) among fast ones */
    {
        const int64_t m = 500, n = 400;
        double *A = df_xmalloc((size_t)(m * n)), *A0 = df_xmalloc((size_t)(m * n));
        double *xN = df_xmalloc((size_t)n), *xT = df_xmalloc((size_t)m), *yN = df_xmalloc((size_t)m),
               *yT = df_xmalloc((size_t)n), *xN0 = df_xmalloc((size_t)n), *xT0 = df_xmalloc((size_t)m);
        double *nan_vec = df_xmalloc((size_t)m), *yl = df_xmalloc((size_t)m);
        double *ref[2][NAB];
        memset(ref, 0, sizeof ref);
        fill(A, m * n, G_PHI1, 6100);
        fill(xN, n, G_PHI1, 6101);
        fill(xT, m, G_PHI1, 6102);
        fill(yN, m, G_PHI1, 6103);
        fill(yT, n, G_PHI1, 6104);
        gt_fill_const(nan_vec, (size_t)m, qnan);
        A[7 + 3 * m] = 1e-300;             /* row 7, column 3: a product below 2^-960 */
        A[100 + 200 * m] = 1e300;          /* row 100, column 200: a big one beside... */
        A[100 + 201 * m] = 3e-300;         /* ... a tiny one */
        A[499 + 399 * m] = 0x1p-1000;      /* row 499, column 399 */
        for (int64_t j = 0; j < n; j++)    /* row 250: exponents spread: the expansion spills */
            A[250 + j * m] = ldexp(A[250 + j * m], (int)((j * 37) % 1200) - 600);
        poison(A0, A, m * n);
        poison(xN0, xN, n);
        poison(xT0, xT, m);
        static const int abs_[3] = {0, 8, 11}; /* (1,0), (-3,-0.75), (0,-0.75) */
        int64_t slow[2] = {0, 0};
        for (int t = 0; t < 2; t++)
            for (int ai = 0; ai < 3; ai++) {
                const int ab = abs_[ai];
                const double alpha = ab_alpha(ab), beta = ab_beta(ab);
                ref[t][ab] = df_xmalloc((size_t)(t ? n : m));
                slow[t] += gemv_ref(t, m, n, alpha, alpha == 0 ? A0 : A,
                                    alpha == 0 ? (t ? xT0 : xN0) : (t ? xT : xN), beta,
                                    beta == 0 ? nan_vec : t ? yT : yN, ref[t][ab]);
            }
        gt_case("DGEMV %lldx%lld: the CPU takes the slow path for some outputs, not all",
                (long long)m, (long long)n);
        for (int t = 0; t < 2; t++)
            if (!slow[t] || slow[t] >= 2 * (t ? n : m))
                gt_fail("test bug: op %c: %lld slow outputs in the CPU implementation",
                        t ? 'T' : 'N', (long long)slow[t]);
        static const int64_t incs[2][2] = {{1, 1}, {-2, 1}};
        for (int ic = 0; ic < 2; ic++) {
            const int64_t lda = m + 5 * ic, incx = incs[ic][0], incy = incs[ic][1];
            upload_A(dA, hA, A_BUF, A, m, n, lda);
            upload_A(dA0, hA, A_BUF, A0, m, n, lda);
            upload_xs(xN, xT, xN0, xT0, m, n, incx);
            make_ytemplates(hYt, yN, yT, m, n, incy, nan_vec, Y_GAP);
            gemv_layout("spilling rows/columns", m, n, lda, incx, incy, abs_, 3, ref, yl);
        }
        for (int t = 0; t < 2; t++)
            for (int ab = 0; ab < NAB; ab++)
                free(ref[t][ab]);
        free(A);
        free(A0);
        free(xN);
        free(xT);
        free(yN);
        free(yT);
        free(xN0);
        free(xT0);
        free(nan_vec);
        free(yl);
    }

    /* DGEMM: rows and columns beyond the slice cap */
    {
        double *gotb = df_xmalloc(G_BUF);
        static const int abs_[3] = {0, 8, 11};
        static const gt_gemm_api apis[3] = {GT_DGEMM, GT_DGEMM_SB, GT_GEMMEX};
        for (int v = 0; v < 2; v++) {
            problem P;
            const int64_t m = v ? 64 : 96, n = v ? 64 : 80, k = v ? 100 : 200;
            make_problem(&P, m, n, k, GK_PHI1, 1, 6200 + 10 * (uint64_t)v);
            for (int b = 0; b < NB; b++) {
                double *A = P.A[b], *B = P.B[b];
                if (v == 0) {
                    A[3 + 10 * m] = 1e300;     /* row 3: 1e300 beside 1e-300 */
                    A[3 + 20 * m] = -1e-300;
                    A[50 + 0 * m] = 1e-200;    /* row 50: 1e-200 among phi1 values */
                    A[60 + 5 * m] = 0x1.8p-250; /* row 60: 2^-250 among them */
                    B[7 + 5 * k] = 1e250;      /* column 5: 1e250 beside 3e-250 */
                    B[8 + 5 * k] = 3e-250;
                    B[0 + 79 * k] = -0x1.4p-300; /* column 79 */
                } else {
                    fill(A, m * k, G_MIXED, 6250 + (uint64_t)b); /* every row spans 1e+-300 */
                }
                poison(P.A0[b], A, m * k);
                poison(P.B0[b], B, k * n);
            }
            int slices;
            const int64_t direct = problem_refs(&P, abs_, 3, 1, &slices);
            gt_case("DGEMM %lldx%lldx%lld: the CPU computes entries directly (%lld of %lld)",
                    (long long)m, (long long)n, (long long)k, (long long)direct,
                    (long long)(3 * NB * m * n));
            if (!direct)
                gt_fail("test bug: no entry computed directly by the CPU implementation");
            for (int tp = 0; tp < 4; tp++)
                for (int a = 0; a < 3; a++)
                    gemm_layout(&P, v ? "every row of op(A) 1e+-300" : "rows/columns beyond the cap",
                                apis[a], tp & 1, tp >> 1, a == 2 ? 3 : 0, abs_, 3, gotb);
            free_problem(&P);
        }
        free(gotb);
    }
    df_group_end();
}
