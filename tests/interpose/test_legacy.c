/* test_legacy.c — the legacy cuBLAS API (cublas.h: cublasDgemm, cublasDgemv, cublasDdot with
 * character operations and scalars by value, cublasGetError, cublasSetKernelStream,
 * cublasShutdown) through the preloaded shim, in a program linked to the stand-in.
 *
 * Checked for each call: the shim's function is the one the program reaches; the stand-in saw
 * exactly one call of the same legacy entry point (the shim forwards natively: there is no GPU
 * here); the result is bitwise what the stand-in computes when called directly; the error that
 * cublasGetError() reports afterwards is the stand-in's (invalid operation characters, negative
 * sizes, an injected failure), and reading it clears it; the trace log names the legacy entry
 * points; cublasSetKernelStream reaches the library; cublasShutdown too, after which calls
 * still work. */
#include "common.h"
#include "fake_cublas.h"

#include <cublas.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    __typeof__(&cublasDgemm) dgemm;
    __typeof__(&cublasDgemv) dgemv;
    __typeof__(&cublasDdot) ddot;
    __typeof__(&cublasGetError) get_error;
} legacy_fns;

static legacy_fns raw;

static void load_raw(void)
{
    void *lib = dlopen("libcublas.so.13", RTLD_NOW | RTLD_NOLOAD);
    CHECK(lib, "libcublas.so.13 is not loaded: %s", dlerror());
    void *p[4] = {dlsym(lib, "cublasDgemm"), dlsym(lib, "cublasDgemv"), dlsym(lib, "cublasDdot"),
                  dlsym(lib, "cublasGetError")};
    for (int i = 0; i < 4; i++)
        CHECK(p[i], "the stand-in lacks a legacy entry point (%d)", i);
    memcpy(&raw.dgemm, &p[0], sizeof raw.dgemm);
    memcpy(&raw.dgemv, &p[1], sizeof raw.dgemv);
    memcpy(&raw.ddot, &p[2], sizeof raw.ddot);
    memcpy(&raw.get_error, &p[3], sizeof raw.get_error);
}

static void expect_calls(const char *what, const char *entry, long before, long want)
{
    long now = fake_cublas_calls(entry);
    CHECK(now - before == want, "%s: the stand-in's %s was called %ld times, expected %ld", what,
          entry, now - before, want);
}

static void expect_error(const char *what, cublasStatus_t want)
{
    cublasStatus_t got = cublasGetError();
    CHECK(got == want, "%s: cublasGetError() = %d, expected %d", what, (int)got, (int)want);
    CHECK(cublasGetError() == CUBLAS_STATUS_SUCCESS, "%s: the error was not cleared", what);
}

static void gemm_case(char ta, char tb, int m, int n, int k, double alpha, double beta)
{
    const int lda = (ta == 'N' || ta == 'n' ? m : k) + 1, ldb = (tb == 'N' || tb == 'n' ? k : n) + 2;
    const int ldc = m + 1;
    double A[64 * 8], B[64 * 8], C[64 * 8], R[64 * 8];
    fill_ints(A, 64 * 8, (unsigned)(m * 31 + k));
    fill_ints(B, 64 * 8, (unsigned)(n * 17 + k));
    fill_ints(C, 64 * 8, (unsigned)(m + n));
    memcpy(R, C, sizeof C);
    raw.dgemm(ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, R, ldc);
    CHECK(raw.get_error() == CUBLAS_STATUS_SUCCESS, "reference dgemm failed");
    long before = fake_cublas_calls("cublasDgemm");
    cublasDgemm(ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
    char what[96];
    snprintf(what, sizeof what, "cublasDgemm('%c', '%c', %d, %d, %d)", ta, tb, m, n, k);
    expect_calls(what, "cublasDgemm", before, 1);
    expect_error(what, CUBLAS_STATUS_SUCCESS);
    long d = first_diff(C, R, 64 * 8);
    CHECK(d < 0, "%s: element %ld is %g, the stand-in gives %g", what, d, C[d < 0 ? 0 : d],
          R[d < 0 ? 0 : d]);
}

int main(void)
{
    char *dir = make_temp_dir("legacy");
    char *log = path_join(dir, "trace.log");
    setenv("EXBLAS_LOG", "trace", 1);
    setenv("EXBLAS_LOG_FILE", log, 1);
    require_shim("cublasDgemm");
    require_shim("cublasDdot");
    require_shim("cublasGetError");
    load_raw();

    /* GEMM: every operation character, upper and lower case */
    const char ops[] = "NnTtCc";
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 6; j += 3)
            gemm_case(ops[i], ops[(i + j + 1) % 6], 5, 4, 7, 1.5, i % 2 ? 0.0 : -2.0);
    gemm_case('N', 'N', 0, 4, 7, 1.0, 1.0); /* quick return */

    /* invalid calls: the stand-in's own error, through the shim's cublasGetError */
    double A[64], B[64], C[64], x[16], y[16];
    fill_ints(A, 64, 1), fill_ints(B, 64, 2), fill_ints(C, 64, 3), fill_ints(x, 16, 4),
        fill_ints(y, 16, 5);
    long before = fake_cublas_calls("cublasDgemm");
    cublasDgemm('X', 'N', 2, 2, 2, 1.0, A, 2, B, 2, 0.0, C, 2);
    expect_calls("an unknown operation character", "cublasDgemm", before, 1);
    expect_error("an unknown operation character", CUBLAS_STATUS_INVALID_VALUE);
    cublasDgemm('N', 'N', -1, 2, 2, 1.0, A, 2, B, 2, 0.0, C, 2);
    expect_error("m = -1", CUBLAS_STATUS_INVALID_VALUE);
    cublasDgemv('N', 4, 3, 1.0, A, 1, x, 1, 0.0, y, 1);
    expect_error("dgemv lda < m", CUBLAS_STATUS_INVALID_VALUE);
    fake_cublas_fail_next("cublasDgemm", CUBLAS_STATUS_EXECUTION_FAILED);
    cublasDgemm('N', 'N', 2, 2, 2, 1.0, A, 2, B, 2, 0.0, C, 2);
    expect_error("an injected failure", CUBLAS_STATUS_EXECUTION_FAILED);

    /* GEMV, N and T, with increments */
    static const int incs[][2] = {{1, 1}, {2, -1}, {-3, 2}};
    for (int t = 0; t < 2; t++)
        for (int i = 0; i < 3; i++) {
            const char tr = t ? 'T' : 'n';
            double yv[16], yr[16];
            fill_ints(yv, 16, 9);
            memcpy(yr, yv, sizeof yv);
            raw.dgemv(tr, 3, 4, 2.0, A, 5, x, incs[i][0], 0.5, yr, incs[i][1]);
            before = fake_cublas_calls("cublasDgemv");
            cublasDgemv(tr, 3, 4, 2.0, A, 5, x, incs[i][0], 0.5, yv, incs[i][1]);
            expect_calls("cublasDgemv", "cublasDgemv", before, 1);
            expect_error("cublasDgemv", CUBLAS_STATUS_SUCCESS);
            CHECK(first_diff(yv, yr, 16) < 0, "cublasDgemv('%c') differs from the stand-in", tr);
        }

    /* DOT: the value returned */
    for (int i = 0; i < 3; i++) {
        double want = raw.ddot(5, x, incs[i][0], y, incs[i][1]);
        before = fake_cublas_calls("cublasDdot");
        double got = cublasDdot(5, x, incs[i][0], y, incs[i][1]);
        expect_calls("cublasDdot", "cublasDdot", before, 1);
        CHECK(got == want, "cublasDdot = %g, the stand-in gives %g", got, want);
    }
    CHECK(cublasDdot(0, x, 1, y, 1) == 0.0, "cublasDdot(n = 0) is not 0");

    /* the kernel stream reaches the library; shutdown too, and calls work afterwards */
    cudaStream_t s = (cudaStream_t)(uintptr_t)0x5a5a0;
    CHECK(cublasSetKernelStream(s) == CUBLAS_STATUS_SUCCESS, "cublasSetKernelStream failed");
    CHECK(fake_cublas_legacy_stream() == s, "cublasSetKernelStream did not reach the library");
    gemm_case('T', 'N', 3, 3, 3, 1.0, 0.0);
    before = fake_cublas_calls("cublasShutdown");
    CHECK(cublasShutdown() == CUBLAS_STATUS_SUCCESS, "cublasShutdown failed");
    expect_calls("cublasShutdown", "cublasShutdown", before, 1);
    gemm_case('N', 'T', 4, 2, 3, -1.0, 1.0);

    /* the trace names the legacy entry points (each valid call went through the dispatcher) */
    char *text = read_file(log, NULL);
    CHECK(text && strstr(text, "cublasDgemm (legacy) op=NT m=5 n=4 k=7"),
          "no trace line for the legacy DGEMM in:\n%s", text ? text : "(no log)");
    CHECK(strstr(text, "cublasDgemv (legacy) op=T"), "no trace line for the legacy DGEMV");
    CHECK(strstr(text, "cublasDdot (legacy) n=5"), "no trace line for the legacy DDOT");
    free(text);
    remove_tree(dir);
    printf("ok: legacy cuBLAS API through the shim\n");
    return 0;
}
