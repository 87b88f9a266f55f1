/* l3_entries.h — the Level-3 entry points of cuBLAS beside GEMM that dfshim intercepts (SYRK,
 * HERK, SYRKX, HERKX, SYR2K, HER2K, SYMM, HEMM, TRMM, TRSM in double and complex double), as an
 * X-macro table: the hooks (shim/level3.c, shim/legacy.c), the call record's API values
 * (engines/engine.h), the native engine's forwarding and the resolver's symbols (resolve.h) are
 * all generated from this one list, so an entry point is named once.
 *
 * DFS_L3_ENTRIES(X, a): X(a, form, kind, name, T, I) for each entry point, `a` passed through:
 *   form  V2: the v2 API (a handle, enum arguments, a status; the _64 forms too), or LEG: the
 *         legacy API of cublas.h (characters for the enums, scalars by value, errors through
 *         cublasGetError; TRMM in place; no SYRKX or HERKX);
 *   kind  its routine (DFS_L3_<kind>, engines/engine.h), which fixes the argument list
 *         (DFS_L3_KIND_* below): HERK's alpha and beta, and HERKX's and HER2K's beta, are
 *         double; every other scalar is of the element type;
 *   T     the element type (double or cuDoubleComplex);
 *   I     the index type: int, or int64_t for the _64 forms. */
#ifndef DFS_L3_ENTRIES_H
#define DFS_L3_ENTRIES_H

#define DFS_L3_ENTRIES(X, a)                                                                       \
    X(a, V2, SYRK, cublasDsyrk_v2, double, int)                                                    \
    X(a, V2, SYRK, cublasDsyrk_v2_64, double, int64_t)                                             \
    X(a, V2, SYRK, cublasZsyrk_v2, cuDoubleComplex, int)                                           \
    X(a, V2, SYRK, cublasZsyrk_v2_64, cuDoubleComplex, int64_t)                                    \
    X(a, V2, HERK, cublasZherk_v2, cuDoubleComplex, int)                                           \
    X(a, V2, HERK, cublasZherk_v2_64, cuDoubleComplex, int64_t)                                    \
    X(a, V2, SYRKX, cublasDsyrkx, double, int)                                                     \
    X(a, V2, SYRKX, cublasDsyrkx_64, double, int64_t)                                              \
    X(a, V2, SYRKX, cublasZsyrkx, cuDoubleComplex, int)                                            \
    X(a, V2, SYRKX, cublasZsyrkx_64, cuDoubleComplex, int64_t)                                     \
    X(a, V2, HERKX, cublasZherkx, cuDoubleComplex, int)                                            \
    X(a, V2, HERKX, cublasZherkx_64, cuDoubleComplex, int64_t)                                     \
    X(a, V2, SYR2K, cublasDsyr2k_v2, double, int)                                                  \
    X(a, V2, SYR2K, cublasDsyr2k_v2_64, double, int64_t)                                           \
    X(a, V2, SYR2K, cublasZsyr2k_v2, cuDoubleComplex, int)                                         \
    X(a, V2, SYR2K, cublasZsyr2k_v2_64, cuDoubleComplex, int64_t)                                  \
    X(a, V2, HER2K, cublasZher2k_v2, cuDoubleComplex, int)                                         \
    X(a, V2, HER2K, cublasZher2k_v2_64, cuDoubleComplex, int64_t)                                  \
    X(a, V2, SYMM, cublasDsymm_v2, double, int)                                                    \
    X(a, V2, SYMM, cublasDsymm_v2_64, double, int64_t)                                             \
    X(a, V2, SYMM, cublasZsymm_v2, cuDoubleComplex, int)                                           \
    X(a, V2, SYMM, cublasZsymm_v2_64, cuDoubleComplex, int64_t)                                    \
    X(a, V2, HEMM, cublasZhemm_v2, cuDoubleComplex, int)                                           \
    X(a, V2, HEMM, cublasZhemm_v2_64, cuDoubleComplex, int64_t)                                    \
    X(a, V2, TRMM, cublasDtrmm_v2, double, int)                                                    \
    X(a, V2, TRMM, cublasDtrmm_v2_64, double, int64_t)                                             \
    X(a, V2, TRMM, cublasZtrmm_v2, cuDoubleComplex, int)                                           \
    X(a, V2, TRMM, cublasZtrmm_v2_64, cuDoubleComplex, int64_t)                                    \
    X(a, V2, TRSM, cublasDtrsm_v2, double, int)                                                    \
    X(a, V2, TRSM, cublasDtrsm_v2_64, double, int64_t)                                             \
    X(a, V2, TRSM, cublasZtrsm_v2, cuDoubleComplex, int)                                           \
    X(a, V2, TRSM, cublasZtrsm_v2_64, cuDoubleComplex, int64_t)                                    \
    X(a, LEG, SYRK, cublasDsyrk, double, int)                                                      \
    X(a, LEG, SYRK, cublasZsyrk, cuDoubleComplex, int)                                             \
    X(a, LEG, HERK, cublasZherk, cuDoubleComplex, int)                                             \
    X(a, LEG, SYR2K, cublasDsyr2k, double, int)                                                    \
    X(a, LEG, SYR2K, cublasZsyr2k, cuDoubleComplex, int)                                           \
    X(a, LEG, HER2K, cublasZher2k, cuDoubleComplex, int)                                           \
    X(a, LEG, SYMM, cublasDsymm, double, int)                                                      \
    X(a, LEG, SYMM, cublasZsymm, cuDoubleComplex, int)                                             \
    X(a, LEG, HEMM, cublasZhemm, cuDoubleComplex, int)                                             \
    X(a, LEG, TRMM, cublasDtrmm, double, int)                                                      \
    X(a, LEG, TRMM, cublasZtrmm, cuDoubleComplex, int)                                             \
    X(a, LEG, TRSM, cublasDtrsm, double, int)                                                      \
    X(a, LEG, TRSM, cublasZtrsm, cuDoubleComplex, int)

/* What the trace calls each form's entry points after their name. */
#define DFS_L3_NOTE_V2 ""
#define DFS_L3_NOTE_LEG " (legacy)"

/* Each kind's argument list, for the files that spell the prototypes out:
 * DFS_L3_KIND_<kind>(P, name, T, I) is P<shape>(kind, name, T, SA, SB, I) with the shape RK
 * (uplo, trans, n, k, alpha, A, lda, beta, C, ldc), RK2 (... A, lda, B, ldb, beta, C, ldc),
 * MM (side, uplo, m, n, alpha, A, lda, B, ldb, beta, C, ldc), TRMM (side, uplo, trans, diag, m,
 * n, alpha, A, lda, B, ldb, C, ldc) or TRSM (... A, lda, B, ldb), and SA, SB the types of alpha
 * and beta. */
#define DFS_L3_KIND_SYRK(P, name, T, I) P##RK(SYRK, name, T, T, T, I)
#define DFS_L3_KIND_HERK(P, name, T, I) P##RK(HERK, name, T, double, double, I)
#define DFS_L3_KIND_SYRKX(P, name, T, I) P##RK2(SYRKX, name, T, T, T, I)
#define DFS_L3_KIND_HERKX(P, name, T, I) P##RK2(HERKX, name, T, T, double, I)
#define DFS_L3_KIND_SYR2K(P, name, T, I) P##RK2(SYR2K, name, T, T, T, I)
#define DFS_L3_KIND_HER2K(P, name, T, I) P##RK2(HER2K, name, T, T, double, I)
#define DFS_L3_KIND_SYMM(P, name, T, I) P##MM(SYMM, name, T, T, T, I)
#define DFS_L3_KIND_HEMM(P, name, T, I) P##MM(HEMM, name, T, T, T, I)
#define DFS_L3_KIND_TRMM(P, name, T, I) P##TRMM(TRMM, name, T, T, T, I)
#define DFS_L3_KIND_TRSM(P, name, T, I) P##TRSM(TRSM, name, T, T, T, I)

#endif
