/* l3_mm_common.c — the harness of level3 and zlevel3 (l3_mm_common.h). */
#include "l3_mm_common.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

l3m_state l3m;

int l3m_rank_k(int kind)
{
    return kind <= l3m.type->last_rank_k;
}

int l3m_target(const cfg *c, int64_t i, int64_t j)
{
    return i < c->m && (!l3m_rank_k(c->kind) || l3_in_tri(c->uplo == 0, i, j));
}

void l3m_dims(cfg *c)
{
    const int rk = l3m_rank_k(c->kind);
    c->lda = (rk ? (c->trans ? c->k : c->n) : c->k) + 1;
    c->ldb = rk ? c->lda + 1 : c->m + 2;
    c->ldc = c->alias ? c->ldb : c->m + 3;
}

void l3m_image_free(image *im)
{
    free(im->A);
    free(im->B);
    free(im->C0);
    free(im->ref);
    free(im->sabs);
}

/* A's columns */
static int64_t acols(const cfg *c)
{
    return l3m_rank_k(c->kind) ? (c->trans ? c->n : c->k) : c->k;
}

/* "%g" (real) or "%g%+gi" (complex) */
static void scalar(char *s, size_t n, const double v[2])
{
    if (l3m.type->w == 2)
        snprintf(s, n, "%g%+gi", v[0], v[1]);
    else
        snprintf(s, n, "%g", v[0]);
}

void l3m_run_cfg(cfg c, uint64_t seed)
{
    const l3m_type *ty = l3m.type;
    const int w = ty->w;
    image im;
    ty->build(&c, seed, &im);
    const int64_t ac = acols(&c);
    const int64_t bcols = l3m_rank_k(c.kind) ? ac : c.n;
    if (c.lda * ac > MAXE || c.ldb * bcols > MAXE || c.ldc * c.n > MAXE)
        gt_fatal("a case larger than the device buffers (MAXE elements)");
    gt_h2d(l3m.dA, im.A, (size_t)(w * c.lda * ac) * sizeof(double));
    gt_h2d(l3m.dB, im.B, (size_t)(w * c.ldb * bcols) * sizeof(double));
    /* device scalars: alpha at 0, beta at w (the real routines' real parts first) */
    double sc[4];
    memcpy(sc, c.alpha, (size_t)w * sizeof(double));
    memcpy(sc + w, c.beta, (size_t)w * sizeof(double));
    gt_h2d(l3m.dScal, sc, (size_t)(2 * w) * sizeof(double));
    double *got = gt_hmalloc((size_t)(w * c.ldc * c.n) * sizeof(double));
    char al[64], be[64];
    scalar(al, sizeof al, c.alpha);
    scalar(be, sizeof be, w == 1 && c.kind == ty->trmm ? (const double[2]){0.0, 0.0} : c.beta);
    for (int f = 0; f < F_COUNT; f++) {
        if (f == F_LEG && (!ty->has_legacy(c.kind) || (c.kind == ty->trmm && !c.alias)))
            continue; /* the legacy TRMM is in place */
        for (int dev = 0; dev <= (f != F_LEG); dev++) {
            gt_case("%s %s side %c uplo %c op %c diag %c%s m %lld n %lld k %lld alpha %s beta "
                    "%s, %s scalars",
                    ty->kname[c.kind], l3_fname[f], "LR"[c.side], "LU"[c.uplo], "NTC"[c.trans],
                    "NU"[c.diag], c.alias ? " C = B" : "", (long long)c.m, (long long)c.n,
                    (long long)c.k, al, be, dev ? "device" : "host");
            gt_h2d(l3m.dC, im.C0, (size_t)(w * c.ldc * c.n) * sizeof(double));
            l3_pointer_mode(dev);
            if (!l3_call_ok(ty->call(&c, f, dev, l3m.dA, c.alias ? l3m.dC : l3m.dB, l3m.dC)))
                continue;
            gt_d2h(got, l3m.dC, (size_t)(w * c.ldc * c.n) * sizeof(double));
            ty->check(&c, &im, got, dev);
        }
    }
    l3_pointer_mode(0);
    free(got);
    l3m_image_free(&im);
}

void l3m_graph(const char *title, cfg s, const char *s_after, cfg t, const char *t_after)
{
    const l3m_type *ty = l3m.type;
    const int w = ty->w;
    gt_group("%s", title);
    l3m_dims(&s);
    l3m_dims(&t);
    image is, it;
    ty->build(&s, 8100u, &is);
    ty->build(&t, 8200u, &it);
    double *dA2 = gt_dmalloc((size_t)(w * t.lda * t.k) * sizeof(double));
    double *dC2 = gt_dmalloc((size_t)(w * t.ldc * t.n) * sizeof(double));
    gt_h2d(l3m.dA, is.A, (size_t)(w * s.lda * acols(&s)) * sizeof(double));
    gt_h2d(dA2, it.A, (size_t)(w * t.lda * t.k) * sizeof(double));
    l3_capture_begin();
    const cublasStatus_t s1 = ty->call(&s, F_V2, 0, l3m.dA, NULL, l3m.dC);
    gt_still_capturing(l3_stream, s_after);
    const cublasStatus_t s2 = ty->call(&t, F_V2, 0, dA2, dC2, dC2);
    gt_still_capturing(l3_stream, t_after);
    cudaGraph_t graph;
    cudaGraphExec_t exec = l3_capture_end(&graph);
    double *got = gt_hmalloc((size_t)(w * (t.ldc * t.n + s.ldc * s.n)) * sizeof(double));
    for (int r = 0; exec && r < 2; r++) {
        gt_case("replay %d (capture statuses %s, %s)", r, gt_status_name(s1),
                gt_status_name(s2));
        gt_h2d(l3m.dC, is.C0, (size_t)(w * s.ldc * s.n) * sizeof(double));
        gt_h2d(dC2, it.C0, (size_t)(w * t.ldc * t.n) * sizeof(double));
        l3_replay(exec);
        gt_d2h(got, l3m.dC, (size_t)(w * s.ldc * s.n) * sizeof(double));
        ty->check(&s, &is, got, -1);
        gt_d2h(got, dC2, (size_t)(w * t.ldc * t.n) * sizeof(double));
        ty->check(&t, &it, got, -1);
    }
    l3_capture_free(exec, graph);
    free(got);
    GT_CUDA(cudaFree(dA2));
    GT_CUDA(cudaFree(dC2));
    l3m_image_free(&is);
    l3m_image_free(&it);
}

void l3m_start(const char *test, const l3m_type *type, double others, const char *bitwise_what,
               const char *bound_what)
{
    gt_init(test);
    const char *e = gt_mode_engine();
    l3m.type = type;
    if (!strcmp(e, "repro"))
        l3m.tol_rel = -1, l3m.tol_ulp = 0;
    else if (!strcmp(e, "dd") || !strcmp(e, "accurate"))
        l3m.tol_rel = ldexp(1.0, -100), l3m.tol_ulp = 1;
    else if (!strcmp(e, "df"))
        l3m.tol_rel = 4 * ldexp(1.0, -48), l3m.tol_ulp = 2;
    else
        l3m.tol_rel = others, l3m.tol_ulp = 1;
    l3_start(test, l3m.tol_rel < 0 ? bitwise_what : bound_what);
    const size_t w = (size_t)type->w;
    l3m.dA = gt_dmalloc(w * MAXE * sizeof(double));
    l3m.dB = gt_dmalloc(w * MAXE * sizeof(double));
    l3m.dC = gt_dmalloc(w * MAXE * sizeof(double));
    l3m.dScal = gt_dmalloc(2 * w * sizeof(double));
}
