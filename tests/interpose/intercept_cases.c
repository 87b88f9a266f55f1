/* intercept_cases.c — the cases of test_intercept's 'calls' child, routine by routine (valid,
 * invalid, quick-return, failing and forwarded forms), and the child that runs them all. */
#include "intercept.h"

#include <stdint.h>
#include <stdio.h>

/* ---------- GEMM family, FP64 ---------- */

static const gcase gemm_cases[] = {
    /* every op pair, padded leading dimensions */
    {G_DGEMM, N_, N_, 3, 4, 5, 3, 5, 3, 0, 0, 0, 0, 2, -1, 0, 0, 0, 0, OK, "", 0},
    {G_DGEMM, N_, T_, 3, 4, 5, 4, 6, 5, 0, 0, 0, 0, 1, 0.5, 0, 0, 0, 0, OK, "", 0},
    {G_DGEMM, N_, C_, 3, 4, 5, 3, 4, 3, 0, 0, 0, 0, -1, 1, 0, 0, 0, 0, OK, "", 0},
    {G_DGEMM, T_, N_, 3, 4, 5, 5, 5, 4, 0, 0, 0, 0, 3, 2, 0, 0, 0, 0, OK, "", 0},
    {G_DGEMM, T_, T_, 3, 4, 5, 7, 4, 3, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, OK, "", 0},
    {G_DGEMM, T_, C_, 3, 4, 5, 5, 4, 3, 0, 0, 0, 0, 0.25, -2, 0, 0, 0, 0, OK, "", 0},
    {G_DGEMM, C_, N_, 3, 4, 5, 5, 5, 3, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, OK, "", 0},
    {G_DGEMM, C_, T_, 3, 4, 5, 6, 4, 3, 0, 0, 0, 0, 2, 0, 0, 1, 0, 0, OK, "", 0},
    {G_DGEMM, C_, C_, 3, 4, 5, 5, 4, 8, 0, 0, 0, 0, -0.5, 3, 0, 0, 0, 0, OK, "", 0},
    /* device pointer mode */
    {G_DGEMM, T_, N_, 4, 2, 3, 3, 3, 4, 0, 0, 0, 0, 2, -1, 1, 0, 0, 0, OK, "", 0},
    /* beta == 0 never reads C (NaN there) */
    {G_DGEMM, N_, N_, 6, 5, 4, 6, 4, 7, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, OK, "", 0},
    {G_DGEMM64, N_, T_, 2, 3, 4, 2, 3, 2, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, OK, "", 0},
    {G_DGEMM64, C_, T_, 5, 3, 2, 2, 3, 6, 0, 0, 0, 0, -1, 0.5, 1, 0, 0, 0, OK, "", 0},
    {G_SB, T_, N_, 3, 2, 4, 4, 4, 3, 16, 8, 6, 3, 1, -1, 0, 0, 0, 0, OK, "", 0},
    {G_SB64, N_, N_, 2, 3, 2, 2, 2, 2, 0, 6, 6, 2, 2, 1, 0, 0, 0, 0, OK, "", 0}, /* sA = 0 */
    {G_SB64, N_, C_, 3, 3, 3, 3, 3, 3, 9, 9, 9, 4, 1, 0, 1, 1, 0, 0, OK, "", 0},
    {G_EX, N_, N_, 3, 4, 5, 3, 5, 3, 0, 0, 0, 0, 1, 1, 0, 0, 0, CUBLAS_GEMM_DEFAULT, OK, "", 0},
    {G_EX, T_, C_, 2, 2, 2, 2, 2, 2, 0, 0, 0, 0, 1, 0, 1, 0, 0, CUBLAS_GEMM_DEFAULT, OK, "", 0},
    {G_EX64, T_, T_, 4, 3, 2, 2, 3, 4, 0, 0, 0, 0, 2, 1, 0, 0, 0, CUBLAS_GEMM_DEFAULT_TENSOR_OP,
     OK, "", 0},
    {G_SBEX, N_, T_, 3, 3, 2, 3, 3, 3, 6, 6, 9, 2, 1, 2, 0, 0, 0, CUBLAS_GEMM_DEFAULT, OK, "", 0},
    {G_SBEX64, C_, N_, 2, 4, 3, 3, 3, 2, 6, 12, 8, 3, -1, 0, 0, 1, 0, CUBLAS_GEMM_ALGO3, OK, "",
     0},
    /* FP64 data with a non-default FP64 compute type: forwarded untouched */
    {G_EX, N_, N_, 3, 3, 3, 3, 3, 3, 0, 0, 0, 0, 1, 1, 0, 0, CUBLAS_COMPUTE_64F_PEDANTIC,
     CUBLAS_GEMM_DEFAULT, OK, "", 0},
    {G_SBEX64, T_, N_, 2, 2, 2, 2, 2, 2, 4, 4, 4, 2, 1, 0, 0, 0, CUBLAS_COMPUTE_64F_PEDANTIC,
     CUBLAS_GEMM_DEFAULT, OK, "", 0},
    /* invalid arguments: the stand-in's status, untouched C */
    {G_DGEMM, N_, N_, 3, 4, 5, 3, 5, 3, 0, 0, 0, 0, 1, 1, 2, 0, 0, 0, NOINIT, INVALID, 0},
    {G_DGEMM, N_, N_, -1, 4, 5, 3, 5, 3, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, INV, INVALID, 0},
    {G_DGEMM, N_, N_, 3, -4, 5, 3, 5, 3, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, INV, INVALID, 0},
    {G_DGEMM, N_, N_, 3, 4, -5, 3, 5, 3, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, INV, INVALID, 0},
    {G_DGEMM, (cublasOperation_t)7, N_, 3, 4, 5, 5, 5, 3, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, INV,
     INVALID, 0},
    {G_DGEMM, N_, (cublasOperation_t)-1, 3, 4, 5, 3, 5, 3, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, INV,
     INVALID, 0},
    {G_DGEMM, N_, N_, 3, 4, 5, 2, 5, 3, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, INV, INVALID, 0},
    {G_DGEMM, T_, N_, 3, 4, 5, 4, 5, 3, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, INV, INVALID, 0},
    {G_DGEMM, N_, N_, 3, 4, 5, 3, 4, 3, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, INV, INVALID, 0},
    {G_DGEMM, N_, T_, 3, 4, 5, 3, 3, 3, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, INV, INVALID, 0},
    {G_DGEMM, N_, N_, 3, 4, 5, 3, 5, 2, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, INV, INVALID, 0},
    {G_DGEMM, N_, N_, 0, 4, 5, 1, 5, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, INV, INVALID, 0},
    {G_DGEMM64, N_, N_, TOOBIG, 2, 2, 3, 2, 3, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, INV, INVALID, 0},
    {G_DGEMM64, N_, N_, 3, 4, 5, 3, 5, 3, 0, 0, 0, 0, 1, 1, 2, 0, 0, 0, NOINIT, INVALID, 0},
    {G_SB, N_, N_, 2, 2, 2, 2, 2, 2, 4, 4, 4, -1, 1, 1, 0, 0, 0, 0, INV, INVALID, 0},
    {G_SB64, N_, N_, 2, 2, 2, 2, 2, 2, 4, 4, 4, TOOBIG, 1, 1, 0, 0, 0, 0, INV, INVALID, 0},
    {G_EX, N_, N_, 3, 4, 5, 3, 5, 2, 0, 0, 0, 0, 1, 1, 0, 0, 0, CUBLAS_GEMM_DEFAULT, INV, INVALID,
     0},
    {G_EX64, N_, N_, 3, 4, 5, 3, 5, 3, 0, 0, 0, 0, 1, 1, 2, 0, 0, CUBLAS_GEMM_DEFAULT, NOINIT,
     INVALID, 0},
    {G_SBEX, N_, N_, 2, 2, 2, 2, 2, 2, 4, 4, 4, -3, 1, 1, 0, 0, 0, CUBLAS_GEMM_DEFAULT, OK,
     QUICK, 0},
    {G_SBEX64, T_, N_, 2, 2, 3, 2, 3, 2, 6, 6, 4, 2, 1, 1, 0, 0, 0, CUBLAS_GEMM_DEFAULT, INV,
     INVALID, 0},
    /* quick returns: m, n or batch 0 leave C alone; k = 0 scales C by beta */
    {G_DGEMM, N_, N_, 0, 4, 5, 1, 5, 1, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, OK, QUICK, 0},
    {G_DGEMM, N_, N_, 3, 0, 5, 3, 5, 3, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, OK, QUICK, 0},
    {G_DGEMM, N_, N_, 3, 4, 0, 3, 1, 3, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, OK, QUICK, 0},
    {G_DGEMM64, T_, N_, 3, 4, 0, 1, 1, 3, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, OK, QUICK, 0},
    {G_SB, N_, N_, 2, 2, 2, 2, 2, 2, 4, 4, 4, 0, 1, 1, 0, 0, 0, 0, OK, QUICK, 0},
    {G_SBEX64, N_, N_, 2, 2, 0, 2, 1, 2, 0, 0, 4, 2, 1, -1, 0, 0, 0, CUBLAS_GEMM_DEFAULT, OK,
     QUICK, 0},
    /* a failure of the real library comes back as is */
    {G_DGEMM, N_, N_, 3, 4, 5, 3, 5, 3, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, OK, "",
     CUBLAS_STATUS_EXECUTION_FAILED},
    {G_SB64, N_, N_, 2, 2, 2, 2, 2, 2, 4, 4, 4, 2, 1, 1, 0, 0, 0, 0, OK, "",
     CUBLAS_STATUS_ARCH_MISMATCH},
    {G_EX, N_, N_, 3, 4, 5, 3, 5, 3, 0, 0, 0, 0, 1, 1, 0, 0, 0, CUBLAS_GEMM_DEFAULT, OK, "",
     CUBLAS_STATUS_INTERNAL_ERROR},
};

/* ---------- GemmEx with non-FP64 types: forwarded untouched ---------- */

static const fcase fwd_cases[] = {
    {G_EX, CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F, 3, 4, 5, 1, OK},
    {G_EX64, CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32, 4, 2, 3, 1, OK},
    {G_SBEX, CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F_PEDANTIC, 2, 3, 2, 3, OK},
    {G_SBEX64, CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F, 3, 2, 4, 2, OK},
    /* FP64 A and B but an FP32 C, and FP16 A: not FP64 products; the stand-in refuses them */
    {G_EX, CUDA_R_64F, CUDA_R_64F, CUDA_R_32F, CUBLAS_COMPUTE_64F, 2, 2, 2, 1, NOSUP},
    {G_EX64, CUDA_R_16F, CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F, 2, 2, 2, 1, NOSUP},
    /* FP64 data, FP32 compute: not an FP64 product either */
    {G_SBEX, CUDA_R_64F, CUDA_R_64F, CUDA_R_64F, CUBLAS_COMPUTE_32F, 2, 2, 2, 2, NOSUP},
    /* invalid sizes are the stand-in's business: forwarded as well */
    {G_EX, CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F, -2, 2, 2, 1, INV},
};

/* ---------- GEMV ---------- */

static const vcase gemv_cases[] = {
    {0, N_, 4, 3, 5, 1, 1, 2, -1, 0, 0, OK, "", 0},
    {0, T_, 4, 3, 4, 2, -1, 1, 1, 0, 0, OK, "", 0},
    {0, C_, 5, 2, 6, -2, 3, -1, 0.5, 0, 0, OK, "", 0},
    {0, N_, 3, 5, 3, -1, -2, 1, 0, 0, 1, OK, "", 0},
    {0, T_, 3, 3, 3, 1, 1, 2, 2, 1, 0, OK, "", 0},
    {0, N_, 3, 3, 3, 1, 1, 0, 1, 0, 0, OK, "", 0}, /* alpha 0, beta 1: nothing to do */
    {1, N_, 6, 2, 6, -1, 1, 1, 1, 0, 0, OK, "", 0},
    {1, T_, 2, 6, 3, 3, -3, -2, 0, 1, 1, OK, "", 0},
    {1, C_, 4, 4, 4, 1, 2, 1, -1, 0, 0, OK, "", 0},
    /* invalid (cuBLAS 13.1: only lda and the handle) */
    {0, T_, 4, 3, 3, 1, 1, 1, 1, 0, 0, INV, INVALID, 0},
    {0, N_, 4, 3, 4, 1, 1, 1, 1, 2, 0, NOINIT, INVALID, 0},
    {1, N_, TOOBIG, 3, 4, 1, 1, 1, 1, 0, 0, OK, QUICK, 0}, /* negative as int64 */
    {1, T_, 4, 3, 4, 1, 1, 1, 1, 2, 0, NOINIT, INVALID, 0},
    /* SUCCESS without computing (cuBLAS 13.1): zero increments, bad op, negative sizes */
    {0, N_, 4, 3, 4, 0, 1, 1, 1, 0, 0, OK, QUICK, 0},
    {0, N_, 4, 3, 4, 1, 0, 1, 1, 0, 0, OK, QUICK, 0},
    {0, (cublasOperation_t)3, 4, 3, 4, 1, 1, 1, 1, 0, 0, OK, QUICK, 0},
    {0, N_, -1, 3, 4, 1, 1, 1, 1, 0, 0, OK, QUICK, 0},
    {0, N_, 4, -3, 4, 1, 1, 1, 1, 0, 0, OK, QUICK, 0},
    {1, T_, 4, 3, 4, 1, 0, 1, 1, 0, 0, OK, QUICK, 0},
    /* quick returns */
    {0, N_, 0, 3, 1, 1, 1, 1, 1, 0, 0, OK, QUICK, 0},
    {0, T_, 4, 0, 4, 1, 1, 1, 1, 0, 0, OK, QUICK, 0},
    {1, N_, 4, 0, 4, -1, -1, 1, 0, 0, 0, OK, QUICK, 0},
    /* the real library fails */
    {0, N_, 4, 3, 5, 1, 1, 2, -1, 0, 0, OK, "", CUBLAS_STATUS_MAPPING_ERROR},
    {1, T_, 4, 3, 5, 1, 1, 2, -1, 0, 0, OK, "", CUBLAS_STATUS_EXECUTION_FAILED},
};

/* ---------- DOT ---------- */

static const dcase dot_cases[] = {
    {0, 7, 1, 1, 0, 0, OK, "", 0},
    {0, 5, 2, -3, 0, 0, OK, "", 0},
    {0, 6, -1, -1, 1, 0, OK, "", 0},
    {0, 4, 0, 1, 0, 0, OK, "", 0}, /* incx 0: x[0] for every element, as BLAS */
    {1, 9, 3, 1, 0, 0, OK, "", 0},
    {1, 3, -2, 2, 1, 0, OK, "", 0},
    {0, 0, 1, 1, 0, 0, OK, QUICK, 0},
    {0, -3, 1, 1, 0, 0, OK, QUICK, 0},
    {1, 0, 1, 1, 1, 0, OK, QUICK, 0},
    {1, TOOBIG, 1, 1, 0, 0, OK, QUICK, 0}, /* 3 if truncated: the result would not be 0 */
    {0, 5, 1, 1, 2, 0, NOINIT, INVALID, 0},
    {1, 5, 1, 1, 2, 0, NOINIT, INVALID, 0},
    {0, 5, 1, 1, 0, 1, INV, INVALID, 0},
    {1, 5, 1, 1, 0, 1, INV, INVALID, 0},
    {0, 5, 1, 1, 0, 0, OK, "", CUBLAS_STATUS_EXECUTION_FAILED},
    {1, 5, 1, 1, 0, 0, OK, "", CUBLAS_STATUS_ALLOC_FAILED},
};

/* ---------- the 'calls' child ---------- */

int child_calls(const char *log_path)
{
    require_shim("cublasDgemm_v2");
    load_raw();
    logc.path = log_path;
    H_host = create(CUBLAS_POINTER_MODE_HOST);
    H_dev = create(CUBLAS_POINTER_MODE_DEVICE);
    cudaStream_t stream = (cudaStream_t)(uintptr_t)0x5eed;
    CHECK(cublasSetStream_v2(H_host, stream) == OK, "cublasSetStream_v2 failed");
    log_expect_nothing(&logc); /* handle functions are not intercepted */

    for (size_t i = 0; i < sizeof fwd_cases / sizeof fwd_cases[0]; i++)
        run_fwd(&fwd_cases[i], (int)i);
    for (size_t i = 0; i < sizeof gemm_cases / sizeof gemm_cases[0]; i++)
        run_gemm(&gemm_cases[i], (int)i);
    for (size_t i = 0; i < sizeof gemv_cases / sizeof gemv_cases[0]; i++)
        run_gemv(&gemv_cases[i], (int)i);
    for (size_t i = 0; i < sizeof dot_cases / sizeof dot_cases[0]; i++)
        run_dot(&dot_cases[i], (int)i);

    /* The shim changed neither the stream nor the pointer modes. */
    cudaStream_t s2 = NULL;
    cublasPointerMode_t pm = CUBLAS_POINTER_MODE_HOST;
    CHECK(cublasGetStream_v2(H_host, &s2) == OK && s2 == stream, "the handle's stream changed");
    CHECK(cublasGetPointerMode_v2(H_dev, &pm) == OK && pm == CUBLAS_POINTER_MODE_DEVICE,
          "the handle's pointer mode changed");

    /* cublasDestroy_v2 is hooked: it reaches the stand-in once, and traces nothing. */
    cublasHandle_t handles[2] = {H_host, H_dev};
    for (int i = 0; i < 2; i++) {
        snap before = snap_of("cublasDestroy_v2");
        CHECK(cublasDestroy_v2(handles[i]) == OK, "cublasDestroy_v2 failed");
        expect_one_call("cublasDestroy_v2", "cublasDestroy_v2", before);
    }
    snap before = snap_of("cublasDestroy_v2");
    CHECK(cublasDestroy_v2(NULL) == NOINIT, "cublasDestroy_v2(NULL) is not NOT_INITIALIZED");
    expect_one_call("cublasDestroy_v2(NULL)", "cublasDestroy_v2", before);
    log_expect_nothing(&logc);

    /* A handle created after a destroy (possibly at the same address) works as a new one. */
    H_host = create(CUBLAS_POINTER_MODE_HOST);
    run_gemm(&gemm_cases[0], 0);
    run_dot(&dot_cases[0], 0);
    CHECK(cublasDestroy_v2(H_host) == OK, "cublasDestroy_v2 failed");

    /* For the parent: what the exit summary (into the log, EXBLAS_LOG=trace) must say. */
    printf("%ld %ld %ld\n", expect_count[0], expect_count[1], expect_count[2]);
    return 0;
}
