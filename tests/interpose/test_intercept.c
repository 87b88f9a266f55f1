/* test_intercept.c — interception of every hooked routine, through the preloaded shim, in a
 * program linked directly to the stand-in libcublas.so.13.
 *
 * The program runs itself as children with chosen environments:
 *   calls           every intercepted routine, valid, invalid, quick-return, failing and
 *                   forwarded forms; after each call: the status is the stand-in's, the stand-in
 *                   saw exactly that one call, the result equals a reference and is bitwise the
 *                   unshimmed stand-in's, and the trace log (EXBLAS_LOG=trace, EXBLAS_LOG_FILE)
 *                   got exactly the one expected line.
 *   summary         a known mix of calls, for EXBLAS_SUMMARY=<file> / =1 / =0
 *   summary-threads DDOT and DGEMV from 4 threads started together (counts must not be lost)
 *   summary-none    no intercepted call
 * and the parent checks the exit summaries.
 *
 * This file: the summary children and the parent.  The 'calls' child and its cases are in
 * intercept_cases.c, the check of each call in intercept_run.c, what they share in
 * intercept_common.c and intercept.h. */
#include "intercept.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---------- the summary children ---------- */

static void small_gemm(cublasHandle_t h, gapi api)
{
    gcase c = {api, N_, T_, 3, 2, 4, 3, 2, 3, 6, 8, 6, 2, 1, 1, 0, 0, 0, CUBLAS_GEMM_DEFAULT, OK,
               "", 0};
    double A[32], B[32], C[32], R[32], al = 2, be = -1;
    fill_ints(A, 32, 1), fill_ints(B, 32, 2), fill_ints(C, 32, 3);
    memcpy(R, C, sizeof R);
    if (is_ex(api))
        c.ctype = CUBLAS_COMPUTE_64F;
    if (!is_batched(api))
        c.batch = 1;
    CHECK(call_gemm(&shim, &c, h, &al, A, B, &be, C) == OK, "%s failed", gapi_name[api]);
    for (int64_t b = 0; b < c.batch; b++)
        ref_dgemm(c.ta, c.tb, 3, 2, 4, al, A + 6 * b, 3, B + 8 * b, 2, be, R + 6 * b, 3);
    CHECK(first_diff(C, R, 32) < 0, "%s: wrong result", gapi_name[api]);
}

static void small_gemv(cublasHandle_t h, int is64)
{
    double A[12], x[4], y[4], r[4], al = 1, be = 2;
    fill_ints(A, 12, 4), fill_ints(x, 4, 5), fill_ints(y, 4, 6);
    memcpy(r, y, sizeof r);
    cublasStatus_t st = is64 ? cublasDgemv_v2_64(h, T_, 4, 3, &al, A, 4, x, 1, &be, y, 1)
                             : cublasDgemv_v2(h, T_, 4, 3, &al, A, 4, x, 1, &be, y, 1);
    CHECK(st == OK, "dgemv failed");
    ref_dgemv(T_, 4, 3, al, A, 4, x, 1, be, r, 1);
    CHECK(first_diff(y, r, 4) < 0, "dgemv: wrong result");
}

static int child_summary(void)
{
    require_shim("cublasDgemm_v2");
    cublasHandle_t h = create(CUBLAS_POINTER_MODE_HOST);
    /* dgemm family: 6 counted calls (one of them invalid); 2 FP32 GemmEx, not counted */
    small_gemm(h, G_DGEMM);
    small_gemm(h, G_DGEMM);
    small_gemm(h, G_DGEMM64);
    small_gemm(h, G_SB);
    small_gemm(h, G_SBEX64);
    double d[16] = {0};
    float f[16] = {0}, fa = 1, fb = 0;
    CHECK(cublasDgemm_v2(h, N_, N_, -1, 2, 2, d, d, 1, d, 2, d, d, 1) == INV, "invalid dgemm");
    CHECK(cublasGemmEx(h, N_, N_, 2, 2, 2, &fa, f, CUDA_R_32F, 2, f, CUDA_R_32F, 2, &fb, f,
                       CUDA_R_32F, 2, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT) == OK,
          "FP32 GemmEx failed");
    CHECK(cublasGemmEx_64(h, N_, N_, 2, 2, 2, &fa, f, CUDA_R_32F, 2, f, CUDA_R_32F, 2, &fb, f,
                          CUDA_R_32F, 2, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT) == OK,
          "FP32 GemmEx_64 failed");
    /* dgemv: 3 calls, one invalid; no ddot at all */
    small_gemv(h, 0);
    small_gemv(h, 1);
    CHECK(cublasDgemv_v2(h, N_, 2, 2, d, d, 1, d, 1, d, d, 1) == INV, "invalid dgemv");
    CHECK(cublasDestroy_v2(h) == OK, "destroy failed");
    return 0;
}

#define THREADS 4
static pthread_barrier_t barrier;

static void *worker(void *arg)
{
    (void)arg;
    cublasHandle_t h = create(CUBLAS_POINTER_MODE_HOST);
    double x[8], y[8], r = 0;
    fill_ints(x, 8, 7), fill_ints(y, 8, 8);
    double want = ref_ddot(8, x, 1, y, 1);
    pthread_barrier_wait(&barrier);
    for (int i = 0; i < 200; i++) {
        CHECK(cublasDdot_v2(h, 8, x, 1, y, 1, &r) == OK && r == want, "ddot in a thread");
        if (i % 4 == 0)
            small_gemv(h, 1);
    }
    CHECK(cublasDestroy_v2(h) == OK, "destroy failed");
    return NULL;
}

static int child_summary_threads(void)
{
    require_shim("cublasDdot_v2");
    pthread_t t[THREADS];
    pthread_barrier_init(&barrier, NULL, THREADS);
    for (int i = 0; i < THREADS; i++)
        CHECK(!pthread_create(&t[i], NULL, worker, NULL), "pthread_create");
    for (int i = 0; i < THREADS; i++)
        pthread_join(t[i], NULL);
    return 0;
}

static int child_summary_none(void)
{
    require_shim("cublasDgemm_v2");
    cublasHandle_t h = create(CUBLAS_POINTER_MODE_HOST);
    CHECK(cublasDestroy_v2(h) == OK, "destroy failed");
    return 0;
}

/* ---------- the parent ---------- */

/* text holds exactly the summary lines for these counts (routines with 0 calls have none). */
static void check_summary(const char *what, const char *text, long dgemm, long dgemv, long ddot)
{
    const char *names[3] = {"dgemm", "dgemv", "ddot"};
    long counts[3] = {dgemm, dgemv, ddot};
    int line = 0;
    for (int r = 0; r < 3; r++) {
        if (!counts[r])
            continue;
        char want[160];
        snprintf(want, sizeof want,
                 "dfshim-summary routine=%s engine=native calls=%ld declined=0 timed=0 gpu_ms=",
                 names[r], counts[r]);
        char *l = nth_line(text, line++);
        CHECK(l && !strncmp(l, want, strlen(want)),
              "%s: summary line %d is\n  %s\nexpected it to start with\n  %s\nwhole text:\n%s",
              what, line, l ? l : "(missing)", want, text);
        free(l);
    }
    if (!line) {
        CHECK(!strcmp(text, "dfshim-summary no intercepted calls\n"),
              "%s: expected 'dfshim-summary no intercepted calls', found:\n%s", what, text);
        line = 1;
    }
    CHECK(count_lines(text) == line, "%s: %d summary lines, expected %d:\n%s", what,
          count_lines(text), line, text);
}

static char *env_kv(const char *k, const char *v)
{
    size_t n = strlen(k) + strlen(v) + 2;
    char *s = malloc(n);
    CHECK(s, "out of memory");
    snprintf(s, n, "%s=%s", k, v);
    return s;
}

static int parent(char *self)
{
    require_shim("cublasDgemm_v2");
    char *dir = make_temp_dir("intercept");
    char *log = path_join(dir, "trace.log"), *out = path_join(dir, "out"),
         *err = path_join(dir, "err"), *sum = path_join(dir, "summary");
    char *lv = env_kv("EXBLAS_LOG", "trace"), *lf = env_kv("EXBLAS_LOG_FILE", log),
         *sv = env_kv("EXBLAS_SUMMARY", sum);
    /* The children run in dir: a file the shim should not write (say, a summary named "0")
     * shows up there. */
    CHECK(!chdir(dir), "chdir %s", dir);

    /* 1. every routine, traced into a file */
    char *a1[] = {self, "calls", log, NULL};
    const char *e1[] = {lv, lf, NULL};
    int rc = run_self(a1, e1, out, NULL, 60);
    CHECK(rc == 0, "the 'calls' child failed (status %d)", rc);
    /* its exit summary (EXBLAS_LOG >= info, no EXBLAS_SUMMARY) went to the log, after the
     * trace lines */
    char *counts = read_file(out, NULL);
    long g, v, d;
    CHECK(sscanf(counts, "%ld %ld %ld", &g, &v, &d) == 3, "bad child output: %s", counts);
    char *text = read_file(log, NULL);
    char *s = strstr(text, "dfshim-summary");
    CHECK(s && (s == text || s[-1] == '\n'), "no exit summary in the trace log");
    for (const char *p = s; *p; p = strchr(p, '\n') + 1) {
        CHECK(!strncmp(p, "dfshim-summary ", 15), "a line after the summary in the log: %s", p);
        if (!strchr(p, '\n'))
            break;
    }
    check_summary("summary in the log", s, g, v, d);

    /* 2. EXBLAS_SUMMARY=<file> */
    char *a2[] = {self, "summary", NULL};
    const char *e2[] = {sv, NULL};
    unlink(sum); /* the shim may append to an existing file */
    rc = run_self(a2, e2, out, err, 30);
    CHECK(rc == 0, "the 'summary' child failed (status %d): %s", rc, read_file(err, NULL));
    check_summary("EXBLAS_SUMMARY=file", read_file(sum, NULL), 6, 3, 0);
    CHECK(!*read_file(err, NULL) && !*read_file(out, NULL),
          "EXBLAS_SUMMARY=file: the child printed something");

    /* 3. the same with threads */
    char *a3[] = {self, "summary-threads", NULL};
    unlink(sum);
    rc = run_self(a3, e2, out, err, 30);
    CHECK(rc == 0, "the 'summary-threads' child failed (status %d): %s", rc, read_file(err, NULL));
    check_summary("EXBLAS_SUMMARY, 4 threads", read_file(sum, NULL), 0, THREADS * 50,
                  THREADS * 200);

    /* 4. nothing intercepted */
    char *a4[] = {self, "summary-none", NULL};
    unlink(sum);
    rc = run_self(a4, e2, out, err, 30);
    CHECK(rc == 0, "the 'summary-none' child failed (status %d)", rc);
    check_summary("EXBLAS_SUMMARY, no calls", read_file(sum, NULL), 0, 0, 0);

    /* 5. EXBLAS_SUMMARY=1: to the log destination (stderr); =0: nothing */
    const char *e5[] = {"EXBLAS_SUMMARY=1", NULL};
    rc = run_self(a2, e5, out, err, 30);
    CHECK(rc == 0, "the 'summary' child failed (status %d)", rc);
    check_summary("EXBLAS_SUMMARY=1 (stderr)", read_file(err, NULL), 6, 3, 0);
    CHECK(!*read_file(out, NULL), "EXBLAS_SUMMARY=1 printed on stdout");
    const char *e6[] = {"EXBLAS_SUMMARY=0", NULL};
    rc = run_self(a2, e6, out, err, 30);
    CHECK(rc == 0, "the 'summary' child failed (status %d)", rc);
    CHECK(!*read_file(err, NULL) && !*read_file(out, NULL), "EXBLAS_SUMMARY=0 printed something");
    expect_only_entries(dir, (const char *const[]){"trace.log", "out", "err", "summary", NULL});

    CHECK(!chdir("/"), "chdir /");
    remove_tree(dir);
    printf("ok: interception, results, statuses, traces and summaries\n");
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 1)
        return parent(argv[0]);
    if (!strcmp(argv[1], "calls") && argc == 3)
        return child_calls(argv[2]);
    if (!strcmp(argv[1], "summary"))
        return child_summary();
    if (!strcmp(argv[1], "summary-threads"))
        return child_summary_threads();
    if (!strcmp(argv[1], "summary-none"))
        return child_summary_none();
    FAIL("unknown mode %s", argv[1]);
}
