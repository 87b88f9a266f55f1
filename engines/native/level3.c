/* native/level3.c — the native engine's Level-3 routines beside GEMM: each record goes back,
 * unchanged, to the entry point of core/l3_entries.h it came from, its arguments cast back to
 * that entry point's types (the legacy ones with their characters and scalars by value). */
#include "native.h"

/* The argument lists by shape (core/l3_entries.h's DFS_L3_KIND_*): T the element type, SA and
 * SB alpha's and beta's, I the index type. */
#define V2_RK(kind, name, T, SA, SB, I)                                                            \
    CALL(name, x->handle, c->uplo, c->trans, (I)c->n, (I)c->k, (const SA *)c->alpha,               \
         (const T *)c->A, (I)c->lda, (const SB *)c->beta, (T *)c->C, (I)c->ldc)
#define V2_RK2(kind, name, T, SA, SB, I)                                                           \
    CALL(name, x->handle, c->uplo, c->trans, (I)c->n, (I)c->k, (const SA *)c->alpha,               \
         (const T *)c->A, (I)c->lda, (const T *)c->B, (I)c->ldb, (const SB *)c->beta, (T *)c->C,   \
         (I)c->ldc)
#define V2_MM(kind, name, T, SA, SB, I)                                                            \
    CALL(name, x->handle, c->side, c->uplo, (I)c->m, (I)c->n, (const SA *)c->alpha,                \
         (const T *)c->A, (I)c->lda, (const T *)c->B, (I)c->ldb, (const SB *)c->beta, (T *)c->C,   \
         (I)c->ldc)
#define V2_TRMM(kind, name, T, SA, SB, I)                                                          \
    CALL(name, x->handle, c->side, c->uplo, c->trans, c->diag, (I)c->m, (I)c->n,                   \
         (const SA *)c->alpha, (const T *)c->A, (I)c->lda, (const T *)c->B, (I)c->ldb,             \
         (T *)c->C, (I)c->ldc)
#define V2_TRSM(kind, name, T, SA, SB, I)                                                          \
    CALL(name, x->handle, c->side, c->uplo, c->trans, c->diag, (I)c->m, (I)c->n,                   \
         (const SA *)c->alpha, (const T *)c->A, (I)c->lda, (T *)c->C, (I)c->ldc)

#define LEG_RK(kind, name, T, SA, SB, I)                                                           \
    LEGACY(name, fill_char(c->uplo), op_char(c->trans), (int)c->n, (int)c->k,                      \
           *(const SA *)c->alpha, (const T *)c->A, (int)c->lda, *(const SB *)c->beta, (T *)c->C,   \
           (int)c->ldc)
#define LEG_RK2(kind, name, T, SA, SB, I)                                                          \
    LEGACY(name, fill_char(c->uplo), op_char(c->trans), (int)c->n, (int)c->k,                      \
           *(const SA *)c->alpha, (const T *)c->A, (int)c->lda, (const T *)c->B, (int)c->ldb,      \
           *(const SB *)c->beta, (T *)c->C, (int)c->ldc)
#define LEG_MM(kind, name, T, SA, SB, I)                                                           \
    LEGACY(name, side_char(c->side), fill_char(c->uplo), (int)c->m, (int)c->n,                     \
           *(const SA *)c->alpha, (const T *)c->A, (int)c->lda, (const T *)c->B, (int)c->ldb,      \
           *(const SB *)c->beta, (T *)c->C, (int)c->ldc)
/* TRMM and TRSM alike: in place on B (the record's C) */
#define LEG_TRMM(kind, name, T, SA, SB, I)                                                         \
    LEGACY(name, side_char(c->side), fill_char(c->uplo), op_char(c->trans), diag_char(c->diag),    \
           (int)c->m, (int)c->n, *(const SA *)c->alpha, (const T *)c->A, (int)c->lda, (T *)c->C,   \
           (int)c->ldc)
#define LEG_TRSM LEG_TRMM

static char fill_char(cublasFillMode_t f)
{
    return f == CUBLAS_FILL_MODE_LOWER ? 'L' : 'U';
}

static char side_char(cublasSideMode_t s)
{
    return s == CUBLAS_SIDE_LEFT ? 'L' : 'R';
}

static char diag_char(cublasDiagType_t d)
{
    return d == CUBLAS_DIAG_UNIT ? 'U' : 'N';
}

/* A row of the table: its case, with the argument list of its form (V2_ or LEG_) and kind. */
#define CASE(a, form, kind, name, T, I)                                                            \
    case DFS_API_##name:                                                                           \
        return DFS_L3_KIND_##kind(form##_, name, T, I);

cublasStatus_t dfs_native_level3(const dfs_ctx *x, const dfs_l3_call *c)
{
    switch (c->api) {
        DFS_L3_ENTRIES(CASE, )
    default:
        return CUBLAS_STATUS_INTERNAL_ERROR;
    }
}
