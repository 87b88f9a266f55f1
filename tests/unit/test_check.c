/* test_check.c — unit tests (Check) of shim/check.c: cuBLAS's argument rules for GEMM, GEMV
 * and DOT as documented (the GPU suite checks the same cases against the real cuBLAS). */
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

int main(void)
{
    Suite *s = suite_create("check");
    TCase *t = tcase_create("rules");
    tcase_add_test(t, gemm_rules);
    tcase_add_test(t, gemmex_rules);
    tcase_add_test(t, gemv_rules);
    tcase_add_test(t, dot_rules);
    suite_add_tcase(s, t);
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? 1 : 0;
}
