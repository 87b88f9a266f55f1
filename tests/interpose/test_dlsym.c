/* test_dlsym.c — libdfshim-dlsym.so, the opt-in dlsym interposer.
 *
 * Usage: test_dlsym STANDIN LOCAL EXPECT   (EXPECT: "shim" when libdfshim-dlsym.so is preloaded,
 * "standin" when it is not: the negative control)
 *   1. dlsym on the handle of a libcublas.so.13 loaded with RTLD_LOCAL (STANDIN, the stand-in)
 *      gives libdfshim.so's cublasDgemm_v2, cublasDdot_v2 and legacy cublasDgemm with the
 *      interposer and the library's own without; a name the shim does not hook
 *      (cublasCreate_v2) always the library's; the redirected function computes the right
 *      result and the call is traced as intercepted.  Likewise cublasLtMatmul (hooked) and
 *      cublasLtCreate (not) in a handle of the stand-in libcublasLt.so.13.
 *   2. RTLD_NEXT keeps its meaning relative to the caller: probe_a's probe_next() finds
 *      probe_b's probe() (2), not probe_a's (1).
 *   3. RTLD_DEFAULT keeps its meaning: from a library loaded with RTLD_LOCAL (LOCAL) it finds a
 *      symbol of that library's own dependency. */
#include "common.h"

#include <cublas_api.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unistd.h>

int probe_next(void);
int probe_b_marker(void);

static const char *object_of(const void *p)
{
    Dl_info info;
    if (!p || !dladdr(p, &info) || !info.dli_fname)
        return "";
    const char *s = strrchr(info.dli_fname, '/');
    return s ? s + 1 : info.dli_fname;
}

int main(int argc, char **argv)
{
    CHECK(argc == 4, "usage: test_dlsym STANDIN LOCAL shim|standin");
    const int redirect = !strcmp(argv[3], "shim");
    char *dir = make_temp_dir("dlsym");
    char *log = path_join(dir, "trace.log");
    setenv("EXBLAS_LOG", "trace", 1); /* before the shim's first call */
    setenv("EXBLAS_LOG_FILE", log, 1);
    void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    CHECK(lib, "dlopen %s: %s", argv[1], dlerror());
    static const char *const hooked[] = {"cublasDgemm_v2", "cublasDdot_v2", "cublasDgemm"};
    for (int i = 0; i < 3; i++) {
        void *p = dlsym(lib, hooked[i]);
        const char *want = redirect ? "libdfshim.so" : "libcublas.so.13";
        CHECK(p && !strcmp(object_of(p), want), "dlsym(libcublas handle, %s) is in %s, not %s",
              hooked[i], object_of(p), want);
    }
    /* cuBLASLt's matmul too, in a handle of the stand-in libcublasLt (the stand-in libcublas's
     * dependency); a name the shim does not hook stays the library's */
    void *ltlib = dlopen("libcublasLt.so.13", RTLD_NOW | RTLD_NOLOAD);
    CHECK(ltlib, "the stand-in libcublasLt.so.13 is not loaded: %s", dlerror());
    void *mm = dlsym(ltlib, "cublasLtMatmul"), *ltc = dlsym(ltlib, "cublasLtCreate");
    const char *want_lt = redirect ? "libdfshim.so" : "libcublasLt.so.13";
    CHECK(mm && !strcmp(object_of(mm), want_lt), "dlsym(libcublasLt handle, cublasLtMatmul) is in "
          "%s, not %s", object_of(mm), want_lt);
    CHECK(ltc && !strcmp(object_of(ltc), "libcublasLt.so.13"), "cublasLtCreate comes from %s",
          object_of(ltc));
    void *create = dlsym(lib, "cublasCreate_v2");
    CHECK(create && !strcmp(object_of(create), "libcublas.so.13"),
          "cublasCreate_v2 (not hooked) comes from %s", object_of(create));

    /* the function we got computes the right thing */
    cublasStatus_t (*cr)(cublasHandle_t *);
    cublasStatus_t (*dot)(cublasHandle_t, int, const double *, int, const double *, int, double *);
    *(void **)&cr = create;
    *(void **)&dot = dlsym(lib, "cublasDdot_v2");
    cublasHandle_t h;
    CHECK(cr(&h) == CUBLAS_STATUS_SUCCESS, "cublasCreate_v2 failed");
    const double x[3] = {1, 2, 3}, y[3] = {4, -5, 6};
    double r = 0;
    CHECK(dot(h, 3, x, 1, y, 1, &r) == CUBLAS_STATUS_SUCCESS && r == 12.0,
          "cublasDdot_v2 through dlsym: %g, expected 12", r);
    cublasStatus_t (*destroy)(cublasHandle_t);
    *(void **)&destroy = dlsym(lib, "cublasDestroy_v2");
    CHECK(destroy && destroy(h) == CUBLAS_STATUS_SUCCESS, "cublasDestroy_v2 failed");

    /* ... and went through the shim exactly when redirected */
    char *text = access(log, F_OK) == 0 ? read_file(log, NULL) : NULL;
    const int traced = text && strstr(text, "cublasDdot_v2 n=3") != NULL;
    CHECK(traced == redirect, "the DDOT was %straced by the shim", traced ? "" : "not ");
    free(text);
    remove_tree(dir);

    /* RTLD_NEXT and RTLD_DEFAULT keep their meaning */
    CHECK(probe_b_marker() == 0 && probe_next() == 2, "dlsym(RTLD_NEXT) from probe_a found probe() = %d, expected 2",
          probe_next());
    void *local = dlopen(argv[2], RTLD_NOW | RTLD_LOCAL);
    CHECK(local, "dlopen %s: %s", argv[2], dlerror());
    int (*local_default)(void);
    *(void **)&local_default = dlsym(local, "local_default");
    CHECK(local_default && local_default() == 3,
          "dlsym(RTLD_DEFAULT) from a RTLD_LOCAL library missed its own dependency");
    printf("ok: dlsym %s\n", redirect ? "redirected to the shim, RTLD_NEXT/RTLD_DEFAULT intact"
                                       : "untouched without the interposer");
    return 0;
}
