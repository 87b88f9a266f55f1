/* zgemm_cases.c — zgemm's CPU side (zgemm.c runs the calls): the data of one problem, and a CPU
 * twin over it, column by column on threads: the dd engine's dfs_dd_zgemm_host, or the repro
 * engine's correctly rounded dfs_repro_zgemm_host (also the reference of the bounds); and the
 * scale of each output's error bound.
 *
 * A problem is C(b) = alpha op(A(b)) op(B(b)) + beta C(b) for b < batch, complex double
 * interleaved (re, im); ta, tb: 0 = N, 1 = T, 2 = C.  Every matrix here is tight (A: m x k as
 * op(A) is, stored k x m under T and C; B likewise; C m x n) and batch entry b starts tstride
 * complex elements after entry 0.  The data kinds (zgemm.c's K_*):
 *   0  (U-0.5) exp(0 N) in both parts        1  (U-0.5) exp(4 N) in both parts (C too)
 *   2  kind 0 with Im = Re 1e-20 (0.5 + U): a tiny imaginary part beside a large real one
 *   3  kind 0 with the rows of op(A) times 1e300, 1e-300 and 1 in turn
 *   4  kind 0 with +Inf in row m/2 of op(A) (real part, column k/2), and in column n/3 of op(B)
 *      a NaN (imaginary part, row k/3) and, when k >= 3, -Inf (real part, row k-1)
 * bshared: every B(b) is B(0) (for a B stride of 0).  Deterministic in seed. */
#include "common.h"
#include "zgemm.h"

#include "../../engines/dd/host.h"
#include "../../engines/repro/host.h"
#include "../common/gen.h"

#include <math.h>
#include <pthread.h>
#include <string.h>

static void gen_tight(double *x, int64_t count, int kind, uint64_t seed)
{
    rng r = rng_seed(seed);
    const double phi = kind == 1 ? 4.0 : 0.0;
    for (int64_t e = 0; e < count; e++) {
        x[2 * e] = gen_phi(&r, phi);
        x[2 * e + 1] = kind == 2 ? x[2 * e] * 1e-20 * (0.5 + unif(&r)) : gen_phi(&r, phi);
    }
}

/* Element (i, q) of op(X), X tight with `rows` rows: the index of its real part. */
static int64_t op_at(int op, int64_t rows, int64_t i, int64_t q)
{
    return 2 * (op == 0 ? i + q * rows : q + i * rows);
}

void zgemm_gen(int kind, int ta, int tb, int64_t m, int64_t n, int64_t k, int64_t batch,
               int bshared, uint64_t seed, int64_t tstride, double *A, double *B, double *C0)
{
    const int64_t ra = ta == 0 ? m : k, rb = tb == 0 ? k : n;
    for (int64_t b = 0; b < batch; b++) {
        double *Ab = A + 2 * b * tstride, *Bb = B + 2 * b * tstride;
        const uint64_t s = seed * 1000003u + (uint64_t)b * 7919u;
        gen_tight(Ab, m * k, kind, s + 1);
        gen_tight(C0 + 2 * b * tstride, m * n, kind == 1 ? 1 : 0, s + 3);
        if (bshared && b > 0) {
            memcpy(Bb, B, (size_t)(k * n) * 16); /* B(0), its specials included */
        } else {
            gen_tight(Bb, k * n, kind, s + 2);
            if (kind == 4) {
                Bb[op_at(tb, rb, k / 3, n / 3) + 1] = gt_qnan();
                if (k >= 3)
                    Bb[op_at(tb, rb, k - 1, n / 3)] = -INFINITY;
            }
        }
        if (kind == 3)
            for (int64_t i = 0; i < m; i++)
                for (int64_t q = 0; q < k; q++) {
                    const double f = i % 3 == 0 ? 1e300 : i % 3 == 1 ? 1e-300 : 1.0;
                    Ab[op_at(ta, ra, i, q)] *= f;
                    Ab[op_at(ta, ra, i, q) + 1] *= f;
                }
        if (kind == 4)
            Ab[op_at(ta, ra, m / 2, k / 2)] = INFINITY;
    }
}

typedef struct {
    int ta, tb, t, threads, repro;
    int64_t m, n, k, batch, tstride;
    const double *alpha, *beta, *A, *B;
    double *T;
} twin_job;

/* Columns t, t + threads, ... of every batch entry (T holds C0 there). */
static void *twin_run(void *v)
{
    const twin_job *j = v;
    const int64_t rb = j->tb == 0 ? j->k : j->n;
    for (int64_t c = j->t; c < j->batch * j->n; c += j->threads) {
        const int64_t b = c / j->n, col = c % j->n;
        const double *Bc = j->B + 2 * (b * j->tstride + (j->tb == 0 ? col * rb : col));
        double *T = j->T + 2 * (b * j->tstride + col * j->m);
        const double *A = j->A + 2 * b * j->tstride;
        const int64_t lda = j->ta == 0 ? j->m : j->k;
        if (!j->repro)
            dfs_dd_zgemm_host(j->ta, j->tb, j->m, 1, j->k, j->alpha, A, lda, Bc, rb, j->beta, T,
                              j->m);
        else if (dfs_repro_zgemm_host(j->ta, j->tb, j->m, 1, j->k, j->alpha, A, lda, Bc, rb,
                                      j->beta, T, j->m))
            gt_fatal("dfs_repro_zgemm_host: out of memory");
    }
    return NULL;
}

void zgemm_twin(int ta, int tb, int64_t m, int64_t n, int64_t k, int64_t batch,
                const double alpha[2], const double beta[2], const double *A, const double *B,
                const double *C0, int64_t tstride, int threads, int repro, double *T)
{
    enum { MAXT = 16 };
    for (int64_t b = 0; b < batch; b++)
        memcpy(T + 2 * b * tstride, C0 + 2 * b * tstride, (size_t)(m * n) * 16);
    if (batch * m * n * k < 100000 || threads < 2)
        threads = 1;
    threads = threads > MAXT ? MAXT : threads;
    pthread_t th[MAXT];
    twin_job jobs[MAXT];
    int started[MAXT] = {0};
    for (int t = 0; t < threads; t++) {
        jobs[t] = (twin_job){ta, tb, t, threads, repro, m, n, k, batch, tstride, alpha, beta, A, B,
                             T};
        if (t > 0)
            started[t] = !pthread_create(&th[t], NULL, twin_run, &jobs[t]);
    }
    twin_run(&jobs[0]);
    for (int t = 1; t < threads; t++)
        if (started[t])
            pthread_join(th[t], NULL);
        else
            twin_run(&jobs[t]);
}

/* The scale of each part's error bound, S[2 (b tstride + i + j m) + part].  per_part = 0: for
 * either part (|alpha_r| + |alpha_i|) sum_q (|ar br| + |ai bi| + |ar bi| + |ai br|) +
 * (|beta_r| + |beta_i|) (|cr| + |ci|) (the four real products of every term, both parts of C);
 * per_part = 1: each part's own, from Sr = sum_q |ar br| + |ai bi| and Si = sum_q |ar bi| +
 * |ai br| (the terms of each part of op(A) op(B)): Re |alpha_r| Sr + |alpha_i| Si + |beta_r cr|
 * + |beta_i ci|, Im |alpha_r| Si + |alpha_i| Sr + |beta_r ci| + |beta_i cr| (what alpha S +
 * beta C does with each part's error).  beta = 0: no C; alpha = 0: A, B not read. */
void zgemm_scale(int ta, int tb, int64_t m, int64_t n, int64_t k, int64_t batch,
                 const double alpha[2], const double beta[2], const double *A, const double *B,
                 const double *C0, int64_t tstride, int per_part, double *S)
{
    const double ar = fabs(alpha[0]), ai = fabs(alpha[1]), br = fabs(beta[0]),
                 bi = fabs(beta[1]);
    const int64_t ra = ta == 0 ? m : k, rb = tb == 0 ? k : n;
    for (int64_t b = 0; b < batch; b++)
        for (int64_t j = 0; j < n; j++)
            for (int64_t i = 0; i < m; i++) {
                double sr = 0.0, si = 0.0;
                for (int64_t q = 0; ar + ai != 0.0 && q < k; q++) {
                    const double *x = A + 2 * b * tstride + op_at(ta, ra, i, q),
                                 *y = B + 2 * b * tstride + op_at(tb, rb, q, j);
                    sr += fabs(x[0] * y[0]) + fabs(x[1] * y[1]);
                    si += fabs(x[0] * y[1]) + fabs(x[1] * y[0]);
                }
                const double *c = C0 + 2 * (b * tstride + i + j * m);
                const double cr = br + bi != 0.0 ? fabs(c[0]) : 0.0,
                             ci = br + bi != 0.0 ? fabs(c[1]) : 0.0;
                double *o = S + 2 * (b * tstride + i + j * m);
                if (per_part) {
                    o[0] = (ar != 0.0 ? ar * sr : 0.0) + (ai != 0.0 ? ai * si : 0.0) +
                           (br != 0.0 ? br * cr : 0.0) + (bi != 0.0 ? bi * ci : 0.0);
                    o[1] = (ar != 0.0 ? ar * si : 0.0) + (ai != 0.0 ? ai * sr : 0.0) +
                           (br != 0.0 ? br * ci : 0.0) + (bi != 0.0 ? bi * cr : 0.0);
                } else {
                    const double fa = ar + ai, fb = br + bi;
                    o[0] = o[1] = (fa != 0.0 ? fa * (sr + si) : 0.0) +
                                  (fb != 0.0 ? fb * (cr + ci) : 0.0);
                }
            }
}
