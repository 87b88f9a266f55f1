/* test_check.c — unit tests (Check) of shim/check.c and check_l3.c: cuBLAS's argument rules for
 * GEMM, GEMV, DOT and the other Level-3 routines as documented and measured (the GPU suite
 * checks the same cases against the real cuBLAS).  Each rule is tested on both sides of its
 * boundary, so that a classifier with the rule dropped or moved fails. */
#include "../../shim/check.h"

#include <check.h>

#define H ((cublasHandle_t)0x1)
#define N CUBLAS_OP_N
#define T CUBLAS_OP_T
#define C CUBLAS_OP_C

static void gemm_is(dfs_args want, cublasStatus_t want_st, cublasHandle_t h, cublasOperation_t ta,
                    cublasOperation_t tb, int64_t m, int64_t n, int64_t k, int64_t lda, int64_t ldb,
                    int64_t ldc, int64_t batch, int line)
{
    cublasStatus_t st = (cublasStatus_t)-1;
    dfs_args a = dfs_check_gemm(h, 0, ta, tb, m, n, k, lda, ldb, ldc, batch, CUBLAS_GEMM_DEFAULT, &st);
    ck_assert_msg(a == want, "line %d: class %d, expected %d", line, (int)a, (int)want);
    ck_assert_msg(st == want_st, "line %d: status %d, expected %d", line, (int)st, (int)want_st);
}
#define GEMM(w, s, ...) gemm_is(w, s, __VA_ARGS__, __LINE__)
#define OK DFS_ARGS_OK, CUBLAS_STATUS_SUCCESS
#define QUICK DFS_ARGS_QUICK, CUBLAS_STATUS_SUCCESS
#define BAD DFS_ARGS_INVALID, CUBLAS_STATUS_INVALID_VALUE

START_TEST(gemm_rules)
{
    GEMM(OK, H, N, N, 4, 5, 6, 4, 6, 4, 1);
    GEMM(OK, H, T, T, 4, 5, 6, 6, 5, 4, 1);
    GEMM(OK, H, C, T, 4, 5, 6, 6, 5, 4, 7);
    GEMM(DFS_ARGS_INVALID, CUBLAS_STATUS_NOT_INITIALIZED, NULL, N, N, 4, 5, 6, 4, 6, 4, 1);
    GEMM(BAD, H, (cublasOperation_t)7, N, 4, 5, 6, 6, 6, 4, 1);
    GEMM(BAD, H, N, (cublasOperation_t)-1, 4, 5, 6, 4, 6, 4, 1);
    GEMM(BAD, H, N, N, -1, 5, 6, 4, 6, 4, 1);
    GEMM(BAD, H, N, N, 4, -1, 6, 4, 6, 4, 1);
    GEMM(BAD, H, N, N, 4, 5, -1, 4, 6, 4, 1);
    GEMM(BAD, H, N, N, 4, 5, 6, 3, 6, 4, 1);  /* lda < m */
    GEMM(BAD, H, T, N, 4, 5, 6, 5, 6, 4, 1);  /* lda < k for op(A) = A^T */
    GEMM(BAD, H, N, N, 4, 5, 6, 4, 5, 4, 1);  /* ldb < k */
    GEMM(BAD, H, N, T, 4, 5, 6, 4, 4, 4, 1);  /* ldb < n for op(B) = B^T */
    GEMM(BAD, H, N, N, 4, 5, 6, 4, 6, 3, 1);  /* ldc < m */
    GEMM(BAD, H, N, N, 4, 5, 6, 4, 6, 4, -1); /* batchCount < 0 */
    GEMM(BAD, H, N, N, 0, 5, 6, 0, 6, 0, 1);  /* ld >= 1 even when m = 0 */
    GEMM(QUICK, H, N, N, 0, 5, 6, 1, 6, 1, 1);
    GEMM(QUICK, H, N, N, 4, 0, 6, 4, 6, 4, 1);
    GEMM(QUICK, H, N, N, 4, 5, 0, 4, 1, 4, 1); /* k = 0: C = beta*C, left to cuBLAS */
    GEMM(QUICK, H, N, N, 4, 5, 6, 4, 6, 4, 0);
}
END_TEST

/* The GemmEx forms: the algorithm is checked, and GemmStridedBatchedEx with batchCount < 0 returns
 * SUCCESS without computing (observed with cuBLAS 13.1 on an H200). */
START_TEST(gemmex_rules)
{
    cublasStatus_t st;
    ck_assert_int_eq(dfs_check_gemm(H, 1, N, N, 4, 5, 6, 4, 6, 4, 1, CUBLAS_GEMM_DEFAULT, &st), DFS_ARGS_OK);
    ck_assert_int_eq(dfs_check_gemm(H, 1, N, N, 4, 5, 6, 4, 6, 4, 1, CUBLAS_GEMM_ALGO23, &st), DFS_ARGS_OK);
    ck_assert_int_eq(dfs_check_gemm(H, 1, N, N, 4, 5, 6, 4, 6, 4, 1, CUBLAS_GEMM_ALGO15_TENSOR_OP, &st), DFS_ARGS_OK);
    ck_assert_int_eq(dfs_check_gemm(H, 1, N, N, 4, 5, 6, 4, 6, 4, 1, (cublasGemmAlgo_t)9999, &st), DFS_ARGS_INVALID);
    ck_assert_int_eq(st, CUBLAS_STATUS_INVALID_VALUE);
    ck_assert_int_eq(dfs_check_gemm(H, 1, N, N, 0, 5, 6, 1, 6, 1, 1, (cublasGemmAlgo_t)9999, &st), DFS_ARGS_INVALID);
    ck_assert_int_eq(dfs_check_gemm(H, 1, N, N, 4, 5, 6, 4, 6, 4, -1, CUBLAS_GEMM_DEFAULT, &st), DFS_ARGS_QUICK);
    ck_assert_int_eq(dfs_check_gemm(H, 0, N, N, 4, 5, 6, 4, 6, 4, -1, CUBLAS_GEMM_DEFAULT, &st), DFS_ARGS_INVALID);
}
END_TEST

/* GEMV as cuBLAS 13.1 behaves (observed on an H200 by the GPU suite's status_matrix). */
START_TEST(gemv_rules)
{
    cublasStatus_t st;
    ck_assert_int_eq(dfs_check_gemv(H, N, 4, 5, 4, 1, 1, &st), DFS_ARGS_OK);
    ck_assert_int_eq(dfs_check_gemv(H, T, 4, 5, 4, -2, 3, &st), DFS_ARGS_OK);
    ck_assert_int_eq(dfs_check_gemv(H, C, 4, 5, 4, 1, 1, &st), DFS_ARGS_OK);
    ck_assert_int_eq(dfs_check_gemv(NULL, N, 4, 5, 4, 1, 1, &st), DFS_ARGS_INVALID);
    ck_assert_int_eq(st, CUBLAS_STATUS_NOT_INITIALIZED);
    ck_assert_int_eq(dfs_check_gemv(NULL, N, 4, 5, 4, 0, 1, &st), DFS_ARGS_INVALID);
    ck_assert_int_eq(st, CUBLAS_STATUS_NOT_INITIALIZED);
    /* lda < max(1, m) is the one INVALID_VALUE */
    ck_assert_int_eq(dfs_check_gemv(H, N, 4, 5, 3, 1, 1, &st), DFS_ARGS_INVALID);
    ck_assert_int_eq(st, CUBLAS_STATUS_INVALID_VALUE);
    ck_assert_int_eq(dfs_check_gemv(H, T, 4, 5, 3, 1, 1, &st), DFS_ARGS_INVALID);
    ck_assert_int_eq(st, CUBLAS_STATUS_INVALID_VALUE);
    /* SUCCESS without computing: empty or negative sizes (even with a NULL handle or a bad lda),
     * a zero increment, an invalid op */
    const int64_t quick[][6] = {{N, -1, 5, 4, 1, 1}, {N, 4, -1, 4, 1, 1}, {N, 0, 5, 0, 1, 1},
                                {N, 5, 0, 4, 1, 1},  {N, 4, 5, 4, 0, 1},  {N, 4, 5, 4, 1, 0},
                                {7, 4, 5, 4, 1, 1},  {3, 4, 5, 4, 1, 1}};
    for (size_t i = 0; i < sizeof quick / sizeof quick[0]; i++) {
        st = CUBLAS_STATUS_INVALID_VALUE;
        ck_assert_msg(dfs_check_gemv(H, (cublasOperation_t)quick[i][0], quick[i][1], quick[i][2],
                                     quick[i][3], quick[i][4], quick[i][5], &st) == DFS_ARGS_QUICK,
                      "case %zu not a quick return", i);
        ck_assert_int_eq(st, CUBLAS_STATUS_SUCCESS);
    }
    ck_assert_int_eq(dfs_check_gemv(NULL, N, -1, 5, 4, 1, 1, &st), DFS_ARGS_QUICK);
}
END_TEST

START_TEST(dot_rules)
{
    cublasStatus_t st;
    double r = 0;
    ck_assert_int_eq(dfs_check_dot(H, 10, &r, &st), DFS_ARGS_OK);
    ck_assert_int_eq(dfs_check_dot(H, 0, &r, &st), DFS_ARGS_QUICK);
    ck_assert_int_eq(dfs_check_dot(H, -5, &r, &st), DFS_ARGS_QUICK);
    ck_assert_int_eq(dfs_check_dot(NULL, 10, &r, &st), DFS_ARGS_INVALID);
    ck_assert_int_eq(st, CUBLAS_STATUS_NOT_INITIALIZED);
    ck_assert_int_eq(dfs_check_dot(H, 10, NULL, &st), DFS_ARGS_INVALID);
    ck_assert_int_eq(st, CUBLAS_STATUS_INVALID_VALUE);
}
END_TEST

/* GemmEx's types: only all-R_64F or all-C_64F with COMPUTE_64F reach the engines. */
START_TEST(ex_types)
{
    ck_assert_int_eq(dfs_check_ex_types(CUDA_R_64F, CUDA_R_64F, CUDA_R_64F, CUBLAS_COMPUTE_64F), 1);
    ck_assert_int_eq(dfs_check_ex_types(CUDA_C_64F, CUDA_C_64F, CUDA_C_64F, CUBLAS_COMPUTE_64F), 2);
    ck_assert_int_eq(
        dfs_check_ex_types(CUDA_R_64F, CUDA_R_64F, CUDA_R_64F, CUBLAS_COMPUTE_64F_PEDANTIC), 0);
    ck_assert_int_eq(dfs_check_ex_types(CUDA_R_64F, CUDA_R_64F, CUDA_R_32F, CUBLAS_COMPUTE_64F), 0);
    ck_assert_int_eq(dfs_check_ex_types(CUDA_C_64F, CUDA_R_64F, CUDA_C_64F, CUBLAS_COMPUTE_64F), 0);
    ck_assert_int_eq(dfs_check_ex_types(CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F), 0);
}
END_TEST

/* Pointer-array batches go through dfs_check_gemm: DgemmBatched's batchCount < 0 is
 * INVALID_VALUE and 0 a quick return (measured); GemmBatchedEx (ex) as GemmStridedBatchedEx. */
START_TEST(batched_rules)
{
    GEMM(BAD, H, N, N, 4, 5, 6, 4, 6, 4, -1);
    GEMM(QUICK, H, N, N, 4, 5, 6, 4, 6, 4, 0);
    GEMM(OK, H, N, N, 4, 5, 6, 4, 6, 4, 3);
    GEMM(BAD, H, N, N, 0, 5, 6, 0, 6, 0, 0); /* ld rules before the batch's quick return */
}
END_TEST

/* ---------- the Level-3 routines beside GEMM (check_l3.c) ---------- */

#undef C /* the records have a C */
#define OPC CUBLAS_OP_C

static double bufA[256], bufB[256], bufC[256];
static const double one[2] = {1.0, 0.0};

static int is_rank_k(dfs_l3_kind k)
{
    return k <= DFS_L3_HER2K;
}

/* A valid, non-trivial call of kind k and type t: m = 4, n = 6 (rank-k: n = 6, k = 3), tight
 * leading dimensions, separate buffers, A on the left, lower, op N, non-unit. */
static dfs_l3_call l3(dfs_l3_kind k, dfs_dtype t)
{
    const int rk = is_rank_k(k), tri = k == DFS_L3_TRMM || k == DFS_L3_TRSM;
    dfs_l3_call c = {.kind = k, .type = t, .side = CUBLAS_SIDE_LEFT,
                     .uplo = CUBLAS_FILL_MODE_LOWER, .trans = N, .diag = CUBLAS_DIAG_NON_UNIT,
                     .m = rk ? 6 : 4, .n = 6, .k = rk ? 3 : 4, .alpha = one,
                     .beta = tri ? NULL : one, .A = bufA, .lda = rk ? 6 : 4,
                     .B = k == DFS_L3_SYRK || k == DFS_L3_HERK ? NULL : bufB, .ldb = rk ? 6 : 4,
                     .C = bufC, .ldc = rk ? 6 : 4};
    if (k == DFS_L3_TRSM) /* B is the output */
        c.C = bufB;
    return c;
}

static void l3_is(dfs_args want, cublasStatus_t want_st, dfs_l3_call c, const char *what,
                  cublasHandle_t h, int line)
{
    cublasStatus_t st = (cublasStatus_t)-1;
    dfs_args a = dfs_check_l3(h, &c, &st);
    ck_assert_msg(a == want, "line %d, kind %d, type %d (%s): class %d, expected %d", line,
                  (int)c.kind, (int)c.type, what, (int)a, (int)want);
    ck_assert_msg(st == want_st, "line %d, kind %d (%s): status %d, expected %d", line,
                  (int)c.kind, what, (int)st, (int)want_st);
}
#define L3(w, s, ...) l3_is(w, s, __VA_ARGS__, H, __LINE__)
#define NATIVE DFS_ARGS_NATIVE, CUBLAS_STATUS_SUCCESS

static const dfs_l3_kind all_kinds[] = {DFS_L3_SYRK,  DFS_L3_HERK,  DFS_L3_SYRKX, DFS_L3_HERKX,
                                        DFS_L3_SYR2K, DFS_L3_HER2K, DFS_L3_SYMM,  DFS_L3_HEMM,
                                        DFS_L3_TRMM,  DFS_L3_TRSM};
#define NKINDS (sizeof all_kinds / sizeof all_kinds[0])

static int hermitian(dfs_l3_kind k)
{
    return k == DFS_L3_HERK || k == DFS_L3_HERKX || k == DFS_L3_HER2K || k == DFS_L3_HEMM;
}

/* INVALID_VALUE where the rule applies (e.g. an enum value cuBLAS does not know, where the
 * routine has the argument), the class `otherwise` (SUCCESS) elsewhere. */
static void bad_if(dfs_l3_call c, int applies, dfs_args otherwise, const char *what, int line)
{
    l3_is(applies ? DFS_ARGS_INVALID : otherwise,
          applies ? CUBLAS_STATUS_INVALID_VALUE : CUBLAS_STATUS_SUCCESS, c, what, H, line);
}

/* Every kind: the valid call, the handle, the enums, negative sizes, NULL scalars. */
START_TEST(l3_enums_and_sizes)
{
    for (size_t i = 0; i < NKINDS; i++) {
        const dfs_l3_kind k = all_kinds[i];
        const int rk = is_rank_k(k), tri = k == DFS_L3_TRMM || k == DFS_L3_TRSM;
        for (int t = hermitian(k) ? 1 : 0; t < 2; t++) {
            const dfs_l3_call ok = l3(k, (dfs_dtype)t);
            dfs_l3_call c = ok;
            L3(OK, c, "valid");
            c.uplo = CUBLAS_FILL_MODE_UPPER;
            L3(OK, c, "upper");
            c.m = -1;
            c.n = -1;
            l3_is(DFS_ARGS_INVALID, CUBLAS_STATUS_NOT_INITIALIZED, c, "NULL handle first", NULL,
                  __LINE__);
            c = ok;
            c.uplo = CUBLAS_FILL_MODE_FULL;
            L3(BAD, c, "FILL_MODE_FULL");
            c.uplo = (cublasFillMode_t)7;
            L3(BAD, c, "uplo 7");
            /* side, op, diag: checked where the routine has them, ignored elsewhere */
            c = ok;
            c.side = (cublasSideMode_t)9;
            bad_if(c, !rk, DFS_ARGS_OK, "side 9", __LINE__);
            c.m = 0; /* an enum is checked at zero size too */
            if (!rk)
                L3(BAD, c, "side 9, m = 0");
            c = ok;
            c.trans = (cublasOperation_t)9;
            bad_if(c, rk || tri, DFS_ARGS_OK, "op 9", __LINE__);
            c = ok;
            c.diag = (cublasDiagType_t)9; /* TRMM's measured, not in the docs */
            bad_if(c, tri, DFS_ARGS_OK, "diag 9", __LINE__);
            c.diag = CUBLAS_DIAG_UNIT;
            L3(OK, c, "unit diagonal");
            /* negative sizes */
            c = ok;
            c.n = -1;
            if (rk)
                c.m = -1;
            L3(BAD, c, "n < 0");
            c = ok;
            c.m = -1;
            L3(BAD, c, "m < 0");
            if (rk) {
                c = ok;
                c.k = -1;
                L3(BAD, c, "k < 0");
            }
            /* NULL scalars: checked after the zero-size return */
            c = ok;
            c.alpha = NULL;
            L3(BAD, c, "alpha NULL");
            c.n = 0;
            if (rk)
                c.m = 0;
            L3(QUICK, c, "alpha NULL, n = 0");
            c = ok;
            c.beta = NULL;
            if (tri)
                L3(OK, c, "no beta");
            else
                L3(BAD, c, "beta NULL");
        }
    }
}
END_TEST

/* Leading dimensions, each at its minimum (OK) and one below (INVALID_VALUE), at zero sizes
 * too; then the quick returns. */
START_TEST(l3_leading_dimensions)
{
    for (size_t i = 0; i < NKINDS; i++) {
        const dfs_l3_kind k = all_kinds[i];
        const int rk = is_rank_k(k), has_b = k != DFS_L3_SYRK && k != DFS_L3_HERK;
        const dfs_l3_call ok = l3(k, DFS_C64);
        dfs_l3_call c = ok;
        if (rk) { /* op N: lda, ldb >= n; op T: >= k; ldc >= n */
            c.lda = 5;
            L3(BAD, c, "lda < n");
            c = ok;
            c.trans = T;
            c.lda = c.ldb = 3;
            L3(hermitian(k) ? DFS_ARGS_NATIVE : DFS_ARGS_OK, CUBLAS_STATUS_SUCCESS, c,
               "lda = ldb = k, op T");
            c.lda = 2;
            L3(BAD, c, "lda < k, op T");
            c.lda = 3;
            c.ldb = 2;
            if (has_b)
                L3(BAD, c, "ldb < k, op T");
            else
                L3(hermitian(k) ? DFS_ARGS_NATIVE : DFS_ARGS_OK, CUBLAS_STATUS_SUCCESS, c,
                   "no B");
            c = ok;
            c.ldc = 5;
            L3(BAD, c, "ldc < n");
            c = ok;
            c.m = c.n = 0; /* C is n x n */
            c.ldc = 0;
            L3(BAD, c, "n = 0, ldc = 0");
            c.ldc = 1;
            c.lda = c.ldb = 1;
            L3(QUICK, c, "n = 0");
            c = ok;
            c.k = 0;
            c.trans = OPC;
            c.lda = c.ldb = 0;
            L3(BAD, c, "k = 0, op C, lda = 0");
            c.lda = c.ldb = 1;
            L3(QUICK, c, "k = 0");
        } else { /* lda >= m on the left, n on the right; ldb, ldc >= m (TRSM: no C) */
            c.lda = 3;
            L3(BAD, c, "lda < m, left");
            c.side = CUBLAS_SIDE_RIGHT;
            c.lda = 5;
            L3(BAD, c, "lda < n, right");
            c.lda = 6;
            c.k = 6;
            L3(OK, c, "lda = n, right");
            c = ok;
            c.ldb = 3;
            if (k == DFS_L3_TRSM)
                c.ldc = 3;
            L3(BAD, c, "ldb < m");
            c = ok;
            c.ldc = 3;
            bad_if(c, k != DFS_L3_TRSM, DFS_ARGS_OK, "ldc < m (TRSM has none)", __LINE__);
            c = ok;
            c.m = 0;
            c.lda = 0;
            L3(BAD, c, "m = 0, lda = 0");
            c.lda = 1;
            c.ldb = c.ldc = 1;
            L3(QUICK, c, "m = 0");
            c.ldc = 0;
            bad_if(c, k != DFS_L3_TRSM, DFS_ARGS_QUICK, "m = 0, ldc = 0 (TRSM has none)",
                   __LINE__);
            c = ok;
            c.n = 0;
            L3(QUICK, c, "n = 0");
            c.alpha = NULL;
            L3(QUICK, c, "n = 0, alpha NULL");
        }
    }
}
END_TEST

/* What cuBLAS accepts but only cuBLAS computes: complex symmetric rank-k with op C, Hermitian
 * rank-k with op T, and aliasing beyond the in-place TRMM and TRSM. */
START_TEST(l3_native_only)
{
    for (size_t i = 0; i < 6; i++) { /* the rank-k kinds */
        const dfs_l3_kind k = all_kinds[i];
        dfs_l3_call c = l3(k, DFS_C64);
        c.trans = hermitian(k) ? T : OPC;
        L3(NATIVE, c, "Z op the reference BLAS rejects");
        c.trans = hermitian(k) ? OPC : T;
        L3(OK, c, "Z op the reference BLAS takes");
        c.trans = OPC;
        if (!hermitian(k)) {
            c.type = DFS_R64;
            L3(OK, c, "real op C: as T");
        }
        c = l3(k, hermitian(k) ? DFS_C64 : DFS_R64);
        c.C = (double *)c.A + 2; /* C overlaps A */
        L3(NATIVE, c, "C overlaps A");
        c.C = (double *)c.A + 200; /* C just after A's 6 x 3 complex elements: no overlap */
        c.type = DFS_C64;
        if (hermitian(k) || k == DFS_L3_SYRK || k == DFS_L3_SYRKX || k == DFS_L3_SYR2K)
            L3(OK, c, "C after A");
    }
    /* TRMM in place: C = B with ldc = ldb is OK, with ldc != ldb cuBLAS's own (measured) */
    dfs_l3_call c = l3(DFS_L3_TRMM, DFS_R64);
    c.C = bufB;
    L3(OK, c, "TRMM in place");
    c.ldc = 8;
    L3(NATIVE, c, "TRMM C = B, ldc != ldb");
    c = l3(DFS_L3_TRMM, DFS_R64);
    c.C = bufB + 1;
    L3(NATIVE, c, "TRMM C overlaps B");
    c.C = bufA + 3;
    L3(NATIVE, c, "TRMM C overlaps A");
    c = l3(DFS_L3_TRSM, DFS_C64);
    c.B = c.C = bufA + 8;
    L3(NATIVE, c, "TRSM B overlaps A");
    c = l3(DFS_L3_SYMM, DFS_R64);
    c.C = bufB + 3;
    L3(NATIVE, c, "SYMM C overlaps B");
    c = l3(DFS_L3_SYMM, DFS_R64);
    c.C = bufA + 16; /* A is 4 x 4 doubles: C right after it */
    L3(OK, c, "SYMM C right after A");
    c.C = bufA + 15;
    L3(NATIVE, c, "SYMM C on A's last element");
}
END_TEST

/* Blocks of one matrix (leading dimension 40, as cuSOLVER passes LAPACK's blocks): disjoint ones
 * are computed, those that share an element (or may: other leading dimensions) only by cuBLAS. */
START_TEST(l3_blocks_of_one_matrix)
{
    static double P[40 * 40];
    const int64_t L = 40;
#define AT(i, j) (P + (i) + (j) * L)
    /* potrf's update: SYRK (upper, op T) of the trailing matrix A22 by the panel A12 */
    dfs_l3_call c = l3(DFS_L3_SYRK, DFS_R64);
    c.uplo = CUBLAS_FILL_MODE_UPPER;
    c.trans = T;
    c.m = c.n = 30, c.k = 10;
    c.A = AT(0, 10), c.lda = L; /* k x n */
    c.C = AT(10, 10), c.ldc = L;
    L3(OK, c, "SYRK: the trailing matrix by the panel above it");
    c.C = AT(9, 10);
    L3(NATIVE, c, "SYRK: C's first row the panel's last");
    c.C = AT(10, 10), c.ldc = L - 1;
    L3(NATIVE, c, "SYRK: another leading dimension, spans meet");
    /* lower, op N: A21 (n x k, left of C) */
    c = l3(DFS_L3_SYRK, DFS_R64);
    c.m = c.n = 30, c.k = 10;
    c.A = AT(10, 0), c.lda = L;
    c.C = AT(10, 10), c.ldc = L;
    L3(OK, c, "SYRK: the trailing matrix by the panel left of it");
    c.C = AT(10, 9);
    L3(NATIVE, c, "SYRK: C's first column the panel's last");
    /* potrf / getrf's TRSM: B = A12 beside the diagonal block A11 */
    c = l3(DFS_L3_TRSM, DFS_R64);
    c.m = 10, c.n = 30;
    c.A = AT(0, 0), c.lda = L;
    c.B = c.C = AT(0, 10), c.ldb = c.ldc = L; /* the record's C is B (shim/level3.c) */
    L3(OK, c, "TRSM: B right of A");
    c.B = c.C = AT(10, 0);
    L3(OK, c, "TRSM: B below A");
    c.B = c.C = AT(9, 0);
    L3(NATIVE, c, "TRSM: B's first row A's last");
    c.B = c.C = AT(0, 9);
    L3(NATIVE, c, "TRSM: B's first column A's last");
    /* columns that run past ld: A's last rows wrap into the next column's top (P(38..41, j) is
     * rows 38, 39 of column j and 0, 1 of column j + 1) */
    c = l3(DFS_L3_SYMM, DFS_R64);
    c.m = 4, c.n = 4, c.k = 4;
    c.A = AT(38, 0), c.lda = L;
    c.B = bufB, c.ldb = 4;
    c.C = AT(0, 3), c.ldc = L; /* rows 0..3 of columns 3..6; A's wrap reaches column 4 */
    L3(NATIVE, c, "SYMM: C on A's wrapped rows");
    c.C = AT(2, 1);            /* rows 2..5 of columns 1..4: below A's wrapped rows 0, 1 */
    L3(OK, c, "SYMM: C beside A's wrapped rows");
    c.C = AT(0, 5);            /* columns 5..8: right of A (whose wrap ends in column 4) */
    L3(OK, c, "SYMM: C right of A");
    /* complex: elements of 16 bytes, a block an odd number of doubles away */
    c = l3(DFS_L3_TRSM, DFS_C64);
    c.m = 5, c.n = 5;
    c.A = AT(0, 0), c.lda = L / 2;
    c.B = c.C = AT(10, 0), c.ldb = c.ldc = L / 2; /* rows 5..9 of column 0 (complex) */
    L3(OK, c, "ZTRSM: B below A");
    c.B = c.C = AT(9, 0);                 /* half an element off: the spans decide */
    L3(NATIVE, c, "ZTRSM: B half an element off A's rows");
#undef AT
}
END_TEST

int main(void)
{
    Suite *s = suite_create("check");
    TCase *t = tcase_create("rules");
    tcase_add_test(t, gemm_rules);
    tcase_add_test(t, gemmex_rules);
    tcase_add_test(t, gemv_rules);
    tcase_add_test(t, dot_rules);
    tcase_add_test(t, ex_types);
    tcase_add_test(t, batched_rules);
    tcase_add_test(t, l3_enums_and_sizes);
    tcase_add_test(t, l3_leading_dimensions);
    tcase_add_test(t, l3_native_only);
    tcase_add_test(t, l3_blocks_of_one_matrix);
    suite_add_tcase(s, t);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? 1 : 0;
}
