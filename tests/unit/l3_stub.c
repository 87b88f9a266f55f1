/* l3_stub.c — the recording stand-ins' regions and checks (l3_stub.h). */
#include "l3_stub.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int l3s_width = 1;
region reg[R_COUNT];
char problem[256];
int calls, decline_at;
int out_region = R_C;

void misuse(const char *what)
{
    if (!problem[0])
        snprintf(problem, sizeof problem, "%s", what);
}

void region_init(int r, int64_t n)
{
    region *g = &reg[r];
    const size_t e = (size_t)(n > 0 ? n : 1);
    g->n = n;
    g->p = calloc(e * (size_t)l3s_width, sizeof(double));
    g->writes = calloc(e, sizeof(int));
    g->gemms = calloc(e, sizeof(int));
    g->k = malloc(e * sizeof(int64_t));
    for (size_t i = 0; i < e; i++)
        g->k[i] = -1;
}

void region_free(void)
{
    for (int r = 0; r < R_COUNT; r++) {
        free(reg[r].p);
        free(reg[r].writes);
        free(reg[r].gemms);
        free(reg[r].k);
        memset(&reg[r], 0, sizeof reg[r]);
    }
}

int locate(const double *p, int64_t rows, int64_t cols, int64_t ld, int64_t *off)
{
    if (rows <= 0 || cols <= 0)
        return -2;
    if (ld < rows) {
        misuse("a leading dimension below its matrix's rows");
        return -1;
    }
    for (int r = 0; r < R_COUNT; r++)
        if (reg[r].p && p >= reg[r].p && p < reg[r].p + l3s_width * reg[r].n) {
            if ((p - reg[r].p) % l3s_width) {
                misuse("a complex matrix at an imaginary part");
                return -1;
            }
            *off = (p - reg[r].p) / l3s_width;
            if (*off + (cols - 1) * ld + rows > reg[r].n) {
                misuse("a matrix reaching past the end of its buffer");
                return -1;
            }
            return r;
        }
    misuse("a matrix outside A, B, C and the scratch");
    return -1;
}

int l3s_declines(void)
{
    return ++calls == decline_at;
}

int l3s_gemm_regions(const dfs_gemm_call *g, int64_t *oc, const char *what)
{
    int64_t oa = 0, ob = 0;
    const int ta = g->transa == CUBLAS_OP_N, tb = g->transb == CUBLAS_OP_N;
    const int ra = locate(g->A, ta ? g->m : g->k, ta ? g->k : g->m, g->lda, &oa);
    const int rb = locate(g->B, tb ? g->k : g->n, tb ? g->n : g->k, g->ldb, &ob);
    const int rc = locate(g->C, g->m, g->n, g->ldc, oc);
    if (ra == -1 || rb == -1 || (rc != out_region && rc != R_S)) {
        misuse(what);
        return -1;
    }
    return rc;
}

int l3s_copy_regions(const dfs_l3_copy *cp, int *rs, int64_t *os, int64_t *od, const char *what)
{
    const int t = cp->mode == DFS_L3_COPY_T;
    *rs = locate(cp->src, t ? cp->cols : cp->rows, t ? cp->rows : cp->cols, cp->lds, os);
    const int rd = locate(cp->dst, cp->rows, cp->cols, cp->ldd, od);
    if (*rs < 0 || (rd != out_region && rd != R_S) || *rs == rd) {
        misuse(what);
        return -1;
    }
    return rd;
}

cublasStatus_t l3s_run(const dfs_mm *mm, int64_t nb, const dfs_mm_ops *ops, int nan_scratch)
{
    const int64_t need = dfs_mm_scratch(mm, nb);
    ck_assert(need % l3s_width == 0);
    region_init(R_S, need / l3s_width);
    for (int64_t e = 0; nan_scratch && e < l3s_width * reg[R_S].n; e++)
        reg[R_S].p[e] = NAN;
    problem[0] = 0;
    calls = 0;
    return dfs_mm_run(mm, nb, reg[R_S].p, ops);
}

double small_int(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (double)((int)((*s >> 33) % 9) - 4);
}

int in_tri(int lower, int64_t i, int64_t j)
{
    return lower ? i >= j : i <= j;
}
