/* test_rtld_local.c — the shim finds the real cuBLAS when the application loaded it with
 * RTLD_LOCAL (as Python extension modules and plugin hosts do).
 *
 * This program is not linked to libcublas.  A child dlopen()s lapp (a library linked to the
 * stand-in libcublas.so.13) with RTLD_NOW | RTLD_LOCAL and calls cuBLAS through it.  Those calls
 * bind to the preloaded shim, whose dlsym(RTLD_NEXT) cannot see a library in a local scope: the
 * shim must find the stand-in through dl_iterate_phdr, without loading a copy by SONAME (that
 * would log a warning, and the trace log must hold exactly the expected lines).  Each call must
 * reach the stand-in exactly once, give the reference result, and trace one line. */
#include "common.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef long (*calls_fn)(const char *);
typedef cublasStatus_t (*create_fn)(cublasHandle_t *);
typedef cublasStatus_t (*destroy_fn)(cublasHandle_t);
typedef cublasStatus_t (*dgemm_fn)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int,
                                   int, const double *, const double *, int, const double *, int,
                                   const double *, double *, int);
typedef cublasStatus_t (*dgemm64_fn)(cublasHandle_t, cublasOperation_t, cublasOperation_t,
                                     int64_t, int64_t, int64_t, const double *, const double *,
                                     int64_t, const double *, int64_t, const double *, double *,
                                     int64_t);
typedef cublasStatus_t (*dgemv_fn)(cublasHandle_t, cublasOperation_t, int, int, const double *,
                                   const double *, int, const double *, int, const double *,
                                   double *, int);
typedef cublasStatus_t (*ddot_fn)(cublasHandle_t, int, const double *, int, const double *, int,
                                  double *);
typedef cublasStatus_t (*sgemm_ex_fn)(cublasHandle_t, int, int, int, const float *, const float *,
                                      int, const float *, int, const float *, float *, int);

static void *lib;
static calls_fn fake_calls;
static log_cursor logc;
static int traced; /* the log is checked ("-": not traced, nothing to check) */
#define EXPECT_LINE(text)                                                                          \
    do {                                                                                           \
        if (traced)                                                                                \
            log_expect_line(&logc, text);                                                  \
    } while (0)

static void *sym(const char *name)
{
    void *p = dlsym(lib, name);
    CHECK(p, "dlsym(lapp, %s): %s", name, dlerror());
    return p;
}

#define SYM(type, name) ((type)(uintptr_t)sym(name))

/* One call: the stand-in saw exactly one call of `entry`, and nothing else. */
typedef struct {
    long entry, total;
} snap;

static snap snap_of(const char *entry)
{
    return (snap){fake_calls(entry), fake_calls(NULL)};
}

static void expect_one(const char *entry, snap b)
{
    snap a = snap_of(entry);
    CHECK(a.entry == b.entry + 1 && a.total == b.total + 1,
          "%s: the stand-in saw %ld call(s) of it and %ld in all; expected exactly 1", entry,
          a.entry - b.entry, a.total - b.total);
}

static int child(const char *lapp_path, const char *log_path)
{
    require_shim("cublasDgemm_v2");
    logc.path = log_path;
    traced = strcmp(log_path, "-") != 0;
    CHECK(!dlopen("libcublas.so.13", RTLD_NOW | RTLD_NOLOAD),
          "libcublas.so.13 is loaded before lapp: this program must not be linked to it");
    lib = dlopen(lapp_path, RTLD_NOW | RTLD_LOCAL);
    CHECK(lib, "dlopen(%s): %s", lapp_path, dlerror());
    /* The premise: the stand-in is loaded, but invisible to global lookups. */
    void *loaded = dlopen("libcublas.so.13", RTLD_NOW | RTLD_NOLOAD);
    CHECK(loaded, "libcublas.so.13 was not loaded with lapp");
    dlclose(loaded);
    CHECK(!dlsym(RTLD_DEFAULT, "cublasCreate_v2") && !dlsym(RTLD_DEFAULT, "fake_cublas_calls"),
          "the stand-in libcublas is in the global scope: not the RTLD_LOCAL case");
    fake_calls = SYM(calls_fn, "fake_cublas_calls");

    create_fn create = SYM(create_fn, "lapp_create");
    destroy_fn destroy = SYM(destroy_fn, "lapp_destroy");
    dgemm_fn dgemm = SYM(dgemm_fn, "lapp_dgemm");
    dgemm64_fn dgemm64 = SYM(dgemm64_fn, "lapp_dgemm64");
    dgemv_fn dgemv = SYM(dgemv_fn, "lapp_dgemv");
    ddot_fn ddot = SYM(ddot_fn, "lapp_ddot");
    sgemm_ex_fn sgemm_ex = SYM(sgemm_ex_fn, "lapp_sgemm_ex");

    cublasHandle_t h = NULL;
    CHECK(create(&h) == CUBLAS_STATUS_SUCCESS && h, "cublasCreate_v2 failed");

    /* DGEMM, op TN, 3x4x5 */
    double A[40], B[40], C[40], R[40], al = 2, be = -1;
    fill_ints(A, 40, 1), fill_ints(B, 40, 2), fill_ints(C, 40, 3);
    memcpy(R, C, sizeof R);
    snap s = snap_of("cublasDgemm_v2");
    cublasStatus_t st = dgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, 3, 4, 5, &al, A, 5, B, 5, &be, C, 3);
    expect_one("cublasDgemm_v2", s);
    CHECK(st == CUBLAS_STATUS_SUCCESS, "cublasDgemm_v2: status %d", (int)st);
    EXPECT_LINE("dfshim: cublasDgemm_v2 op=TN m=3 n=4 k=5 batch=1 -> native status=0");
    ref_dgemm(CUBLAS_OP_T, CUBLAS_OP_N, 3, 4, 5, al, A, 5, B, 5, be, R, 3);
    CHECK(first_diff(C, R, 40) < 0, "cublasDgemm_v2: wrong result");

    /* DGEMM_64, op NC */
    s = snap_of("cublasDgemm_v2_64");
    st = dgemm64(h, CUBLAS_OP_N, CUBLAS_OP_C, 4, 2, 3, &al, A, 4, B, 2, &be, C, 4);
    expect_one("cublasDgemm_v2_64", s);
    CHECK(st == CUBLAS_STATUS_SUCCESS, "cublasDgemm_v2_64: status %d", (int)st);
    EXPECT_LINE("dfshim: cublasDgemm_v2_64 op=NC m=4 n=2 k=3 batch=1 -> native status=0");
    ref_dgemm(CUBLAS_OP_N, CUBLAS_OP_C, 4, 2, 3, al, A, 4, B, 2, be, R, 4);
    CHECK(first_diff(C, R, 40) < 0, "cublasDgemm_v2_64: wrong result");

    /* DGEMV, op T, negative incx */
    double x[16], y[16], yr[16];
    fill_ints(x, 16, 4), fill_ints(y, 16, 5);
    memcpy(yr, y, sizeof y);
    s = snap_of("cublasDgemv_v2");
    st = dgemv(h, CUBLAS_OP_T, 5, 3, &al, A, 6, x, -2, &be, y, 1);
    expect_one("cublasDgemv_v2", s);
    CHECK(st == CUBLAS_STATUS_SUCCESS, "cublasDgemv_v2: status %d", (int)st);
    EXPECT_LINE("dfshim: cublasDgemv_v2 op=T m=5 n=3 incx=-2 incy=1 -> native status=0");
    ref_dgemv(CUBLAS_OP_T, 5, 3, al, A, 6, x, -2, be, yr, 1);
    CHECK(first_diff(y, yr, 16) < 0, "cublasDgemv_v2: wrong result");

    /* DGEMV with lda < m: the stand-in's status */
    s = snap_of("cublasDgemv_v2");
    st = dgemv(h, CUBLAS_OP_N, 5, 3, &al, A, 4, x, 1, &be, y, 1);
    expect_one("cublasDgemv_v2", s);
    CHECK(st == CUBLAS_STATUS_INVALID_VALUE, "cublasDgemv_v2 lda=4: status %d", (int)st);
    EXPECT_LINE("dfshim: cublasDgemv_v2 op=N m=5 n=3 incx=1 incy=1 -> native "
                           "(invalid arguments) status=7");
    CHECK(first_diff(y, yr, 16) < 0, "cublasDgemv_v2 lda=4 changed y");

    /* DDOT */
    double r = 99;
    s = snap_of("cublasDdot_v2");
    st = ddot(h, 6, x, 2, y, -1, &r);
    expect_one("cublasDdot_v2", s);
    CHECK(st == CUBLAS_STATUS_SUCCESS, "cublasDdot_v2: status %d", (int)st);
    EXPECT_LINE("dfshim: cublasDdot_v2 n=6 incx=2 incy=-1 -> native status=0");
    CHECK(r == ref_ddot(6, x, 2, y, -1), "cublasDdot_v2: %g, expected %g", r,
          ref_ddot(6, x, 2, y, -1));

    /* FP32 GemmEx: forwarded */
    float fa[16], fb[16], fc[16], fr[16], fal = 1, fbe = 0.5f;
    fill_ints_f(fa, 16, 6), fill_ints_f(fb, 16, 7), fill_ints_f(fc, 16, 8);
    memcpy(fr, fc, sizeof fc);
    s = snap_of("cublasGemmEx");
    st = sgemm_ex(h, 2, 3, 2, &fal, fa, 2, fb, 2, &fbe, fc, 2);
    expect_one("cublasGemmEx", s);
    CHECK(st == CUBLAS_STATUS_SUCCESS, "cublasGemmEx FP32: status %d", (int)st);
    EXPECT_LINE("dfshim: cublasGemmEx m=2 n=3 k=2 -> forwarded (not an FP64 product) "
                           "status=0");
    ref_sgemm(CUBLAS_OP_N, CUBLAS_OP_N, 2, 3, 2, fal, fa, 2, fb, 2, fbe, fr, 2);
    CHECK(!memcmp(fc, fr, sizeof fc), "cublasGemmEx FP32: wrong result");

    s = snap_of("cublasDestroy_v2");
    CHECK(destroy(h) == CUBLAS_STATUS_SUCCESS, "cublasDestroy_v2 failed");
    expect_one("cublasDestroy_v2", s);
    if (traced)
        log_expect_nothing(&logc);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 4 && !strcmp(argv[1], "child"))
        return child(argv[2], argv[3]);
    CHECK(argc == 2, "usage: %s PATH/libinterpose-lapp.so", argv[0]);
    require_shim("cublasDgemm_v2");
    char *dir = make_temp_dir("rtld-local");
    char *log = path_join(dir, "trace.log"), *err = path_join(dir, "err");
    char lf[4200];
    snprintf(lf, sizeof lf, "EXBLAS_LOG_FILE=%s", log);

    /* traced: every line checked by the child */
    char *args1[] = {argv[0], "child", argv[1], log, NULL};
    const char *env1[] = {"EXBLAS_LOG=trace", lf, NULL};
    int rc = run_self(args1, env1, NULL, NULL, 30);
    CHECK(rc == 0, "the traced child failed (status %d)", rc);
    /* warnings on: still not a word on stderr (nothing is wrong) */
    char *args2[] = {argv[0], "child", argv[1], "-", NULL};
    const char *env2[] = {"EXBLAS_LOG=warn", NULL};
    rc = run_self(args2, env2, NULL, err, 30);
    char *e = read_file(err, NULL);
    CHECK(rc == 0, "the untraced child failed (status %d):\n%s", rc, e);
    CHECK(!*e, "at EXBLAS_LOG=warn the shim printed:\n%s", e);
    remove_tree(dir);
    printf("ok: RTLD_LOCAL libcublas found through dl_iterate_phdr\n");
    return 0;
}
