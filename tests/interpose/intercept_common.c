/* intercept_common.c — test_intercept's common ground: the two ways into cuBLAS (through the
 * shim, straight into the stand-in), the bookkeeping of the 'calls' child, the GEMM family's
 * call and handle creation. */
#include "intercept.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

/* ---------- the two ways in: through the shim, and straight into the stand-in ---------- */

const fns shim = {cublasDgemm_v2, cublasDgemm_v2_64, cublasDgemmStridedBatched,
                  cublasDgemmStridedBatched_64, cublasGemmEx, cublasGemmEx_64,
                  cublasGemmStridedBatchedEx, cublasGemmStridedBatchedEx_64,
                  cublasDgemv_v2, cublasDgemv_v2_64, cublasDdot_v2, cublasDdot_v2_64,
                  cublasDestroy_v2};
fns raw;

static void *raw_sym(void *lib, const char *name)
{
    void *p = dlsym(lib, name);
    CHECK(p, "dlsym(libcublas.so.13, %s): %s", name, dlerror());
    Dl_info info;
    CHECK(dladdr(p, &info) && strstr(info.dli_fname, "libcublas.so.13"),
          "%s from the libcublas handle is not in the stand-in", name);
    return p;
}

#define RAW(field, name) memcpy(&raw.field, &(void *){raw_sym(lib, name)}, sizeof raw.field)

void load_raw(void)
{
    void *lib = dlopen("libcublas.so.13", RTLD_NOW | RTLD_NOLOAD);
    CHECK(lib, "libcublas.so.13 is not loaded: %s", dlerror());
    RAW(dgemm, "cublasDgemm_v2");
    RAW(dgemm64, "cublasDgemm_v2_64");
    RAW(sb, "cublasDgemmStridedBatched");
    RAW(sb64, "cublasDgemmStridedBatched_64");
    RAW(ex, "cublasGemmEx");
    RAW(ex64, "cublasGemmEx_64");
    RAW(sbex, "cublasGemmStridedBatchedEx");
    RAW(sbex64, "cublasGemmStridedBatchedEx_64");
    RAW(dgemv, "cublasDgemv_v2");
    RAW(dgemv64, "cublasDgemv_v2_64");
    RAW(ddot, "cublasDdot_v2");
    RAW(ddot64, "cublasDdot_v2_64");
    RAW(destroy, "cublasDestroy_v2");
    /* The program's own references must land in the shim, not here. */
    void *mine[] = {(void *)(uintptr_t)shim.dgemm, (void *)(uintptr_t)shim.ddot64,
                    (void *)(uintptr_t)shim.sbex64, (void *)(uintptr_t)shim.destroy};
    for (size_t i = 0; i < sizeof mine / sizeof mine[0]; i++) {
        Dl_info info;
        CHECK(dladdr(mine[i], &info) && strstr(info.dli_fname, "libdfshim.so"),
              "the program's cuBLAS reference %zu does not resolve into libdfshim.so", i);
    }
}

/* ---------- bookkeeping ---------- */

log_cursor logc;
cublasHandle_t H_host, H_dev;
long expect_count[3]; /* dgemm, dgemv, ddot calls the shim should have counted */

snap snap_of(const char *entry)
{
    return (snap){fake_cublas_calls(entry), fake_cublas_calls(NULL)};
}

void expect_one_call(const char *what, const char *entry, snap before)
{
    snap now = snap_of(entry);
    CHECK(now.entry == before.entry + 1 && now.total == before.total + 1,
          "%s: the stand-in saw %ld call(s) of %s and %ld call(s) in all; expected exactly 1",
          what, now.entry - before.entry, entry, now.total - before.total);
}

cublasHandle_t handle_of(int kind)
{
    return kind == 0 ? H_host : kind == 1 ? H_dev : NULL;
}

char op_char(cublasOperation_t op)
{
    return op == CUBLAS_OP_N ? 'N' : op == CUBLAS_OP_T ? 'T' : op == CUBLAS_OP_C ? 'C' : '?';
}

int64_t clamp(int64_t v, int64_t lo, int64_t hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);
    CHECK(p, "out of memory");
    return p;
}

/* ---------- GEMM family, FP64 ---------- */

const char *const gapi_name[] = {
    "cublasDgemm_v2", "cublasDgemm_v2_64", "cublasDgemmStridedBatched",
    "cublasDgemmStridedBatched_64", "cublasGemmEx", "cublasGemmEx_64",
    "cublasGemmStridedBatchedEx", "cublasGemmStridedBatchedEx_64"};

int is_ex(gapi a)
{
    return a >= G_EX;
}

int is_batched(gapi a)
{
    return a == G_SB || a == G_SB64 || a == G_SBEX || a == G_SBEX64;
}

cublasStatus_t call_gemm(const fns *f, const gcase *c, cublasHandle_t h, const double *al,
                         const double *A, const double *B, const double *be, double *C)
{
    const cudaDataType D = CUDA_R_64F;
    int m = (int)c->m, n = (int)c->n, k = (int)c->k, lda = (int)c->lda, ldb = (int)c->ldb,
        ldc = (int)c->ldc, b = (int)c->batch;
    switch (c->api) {
    case G_DGEMM:
        return f->dgemm(h, c->ta, c->tb, m, n, k, al, A, lda, B, ldb, be, C, ldc);
    case G_DGEMM64:
        return f->dgemm64(h, c->ta, c->tb, c->m, c->n, c->k, al, A, c->lda, B, c->ldb, be, C,
                          c->ldc);
    case G_SB:
        return f->sb(h, c->ta, c->tb, m, n, k, al, A, lda, c->sA, B, ldb, c->sB, be, C, ldc, c->sC,
                     b);
    case G_SB64:
        return f->sb64(h, c->ta, c->tb, c->m, c->n, c->k, al, A, c->lda, c->sA, B, c->ldb, c->sB,
                       be, C, c->ldc, c->sC, c->batch);
    case G_EX:
        return f->ex(h, c->ta, c->tb, m, n, k, al, A, D, lda, B, D, ldb, be, C, D, ldc, c->ctype,
                     c->algo);
    case G_EX64:
        return f->ex64(h, c->ta, c->tb, c->m, c->n, c->k, al, A, D, c->lda, B, D, c->ldb, be, C, D,
                       c->ldc, c->ctype, c->algo);
    case G_SBEX:
        return f->sbex(h, c->ta, c->tb, m, n, k, al, A, D, lda, c->sA, B, D, ldb, c->sB, be, C, D,
                       ldc, c->sC, b, c->ctype, c->algo);
    case G_SBEX64:
        return f->sbex64(h, c->ta, c->tb, c->m, c->n, c->k, al, A, D, c->lda, c->sA, B, D, c->ldb,
                         c->sB, be, C, D, c->ldc, c->sC, c->batch, c->ctype, c->algo);
    }
    FAIL("bad api");
}

/* ---------- handles ---------- */

cublasHandle_t create(cublasPointerMode_t pm)
{
    cublasHandle_t h = NULL;
    CHECK(cublasCreate_v2(&h) == OK && h, "cublasCreate_v2 failed");
    CHECK(cublasSetPointerMode_v2(h, pm) == OK, "cublasSetPointerMode_v2 failed");
    return h;
}
