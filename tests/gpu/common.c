/* common.c — see common.h. */
#include "common.h"

#include <dlfcn.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

gt_real_fns gt_real;
static void *cublas_lib; /* libcublas's own handle (gt_init) */

/* ---------- start-up ---------- */

static void *lookup(void *lib, const char *name)
{
    void *p = dlsym(lib, name);
    if (!p)
        gt_fatal("cannot find %s in libcublas: %s", name, dlerror());
    return p;
}

#define LOAD(field, name)                                                                          \
    do {                                                                                           \
        void *p_ = lookup(lib, #name);                                                             \
        memcpy(&gt_real.field, &p_, sizeof p_);                                                    \
        void *s_ = dlsym(RTLD_DEFAULT, #name);                                                     \
        if (s_ == p_ && !not_shimmed)                                                              \
            not_shimmed = #name;                                                                   \
    } while (0)

void *gt_real_fn(const char *name)
{
    void *p = lookup(cublas_lib, name);
    if (dlsym(RTLD_DEFAULT, name) == p)
        gt_fatal("%s is not intercepted: is libdfshim.so preloaded?", name);
    return p;
}

void gt_init(const char *test_name)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count == 0) {
        printf("%s: SKIP: no GPU (cudaGetDeviceCount: %s, %d devices)\n", test_name,
               e == cudaSuccess ? "success" : cudaGetErrorString(e), count);
        exit(77);
    }

    void *lib = dlopen("libcublas.so.13", RTLD_NOW | RTLD_NOLOAD);
    if (!lib)
        lib = dlopen("libcublas.so.12", RTLD_NOW | RTLD_NOLOAD);
    if (!lib)
        gt_fatal("libcublas.so.13 is not loaded in this process (%s)", dlerror());
    cublas_lib = lib;
    const char *not_shimmed = NULL;
    LOAD(Dgemm, cublasDgemm_v2);
    LOAD(Dgemm_64, cublasDgemm_v2_64);
    LOAD(DgemmSB, cublasDgemmStridedBatched);
    LOAD(DgemmSB_64, cublasDgemmStridedBatched_64);
    LOAD(GemmEx, cublasGemmEx);
    LOAD(GemmEx_64, cublasGemmEx_64);
    LOAD(GemmSBEx, cublasGemmStridedBatchedEx);
    LOAD(GemmSBEx_64, cublasGemmStridedBatchedEx_64);
    LOAD(Dgemv, cublasDgemv_v2);
    LOAD(Dgemv_64, cublasDgemv_v2_64);
    LOAD(Ddot, cublasDdot_v2);
    LOAD(Ddot_64, cublasDdot_v2_64);
    LOAD(Zdotc, cublasZdotc_v2);
    LOAD(Destroy, cublasDestroy_v2);
    if (not_shimmed) {
        const char *pre = getenv("LD_PRELOAD");
        gt_fatal("%s resolves to the real libcublas: libdfshim.so is not preloaded "
                 "(LD_PRELOAD=%s)", not_shimmed, pre ? pre : "(unset)");
    }
    Dl_info shim_info, real_info;
    void *shim_dgemm = dlsym(RTLD_DEFAULT, "cublasDgemm_v2");
    const char *shim_path = dladdr(shim_dgemm, &shim_info) ? shim_info.dli_fname : "?";
    void *real_dgemm;
    memcpy(&real_dgemm, &gt_real.Dgemm, sizeof real_dgemm);
    const char *real_path = dladdr(real_dgemm, &real_info) ? real_info.dli_fname : "?";

    GT_CUDA(cudaSetDevice(0));
    GT_CUDA(cudaFree(NULL));
    struct cudaDeviceProp prop;
    GT_CUDA(cudaGetDeviceProperties(&prop, 0));
    int rt = 0, drv = 0, cmaj = 0, cmin = 0, cpatch = 0;
    cudaRuntimeGetVersion(&rt);
    cudaDriverGetVersion(&drv);
    cublasGetProperty(MAJOR_VERSION, &cmaj);
    cublasGetProperty(MINOR_VERSION, &cmin);
    cublasGetProperty(PATCH_LEVEL, &cpatch);
    const char *timing = getenv("EXBLAS_TIMING");
    printf("%s: %s (cc %d.%d, %d SMs), driver %d, runtime %d, cuBLAS %d.%d.%d; "
           "EXBLAS_MODE=%s EXBLAS_TIMING=%s\n", test_name, prop.name, prop.major, prop.minor,
           prop.multiProcessorCount, drv, rt, cmaj, cmin, cpatch,
           gt_mode() ? gt_mode() : "(unset or empty: auto)", timing && *timing ? timing : "(off)");
    printf("%s: shim %s, real cuBLAS %s\n", test_name, shim_path, real_path);
}

/* ---------- the mode under test ---------- */

const char *gt_mode(void)
{
    const char *m = getenv("EXBLAS_MODE");
    return m && *m ? m : NULL;
}

/* gt_mode() (or "native") split in place: the name, then each option's key and value, each
 * ending in a NUL; an option without '=' is left out.  Split again on every call, into the same
 * bytes while EXBLAS_MODE stays the same. */
enum { MODE_TEXT = 512, MODE_OPTS = 32 };
static struct {
    char text[MODE_TEXT];
    const char *name;
    int nopts;
    const char *key[MODE_OPTS], *value[MODE_OPTS];
} mode_parts;

static void mode_split(void)
{
    const char *m = gt_mode();
    if (!m)
        m = "native";
    if (strlen(m) >= sizeof mode_parts.text)
        gt_fatal("EXBLAS_MODE is longer than %d characters", MODE_TEXT - 1);
    char *s = strcpy(mode_parts.text, m), *colon = strchr(s, ':');
    mode_parts.name = s;
    mode_parts.nopts = 0;
    if (!colon)
        return;
    *colon = '\0';
    for (char *t = colon + 1; t;) {
        char *comma = strchr(t, ','), *eq;
        if (comma)
            *comma = '\0';
        if ((eq = strchr(t, '='))) {
            if (mode_parts.nopts == MODE_OPTS)
                gt_fatal("EXBLAS_MODE=%s: more than %d options", m, MODE_OPTS);
            *eq = '\0';
            mode_parts.key[mode_parts.nopts] = t;
            mode_parts.value[mode_parts.nopts++] = eq + 1;
        }
        t = comma ? comma + 1 : NULL;
    }
}

const char *gt_mode_engine(void)
{
    mode_split();
    return mode_parts.name;
}

int gt_mode_is(const char *name)
{
    return !strcmp(gt_mode_engine(), name);
}

const char *gt_mode_option(const char *key)
{
    mode_split();
    for (int i = mode_parts.nopts - 1; i >= 0; i--)
        if (!strcmp(mode_parts.key[i], key))
            return mode_parts.value[i];
    return NULL;
}

/* ---------- results ---------- */

#define MAX_MESSAGES_PER_GROUP 12

static char group_name[256];
static int group_open, group_cases, group_failed, group_messages;
static char case_desc[512];
static int case_open, case_failed;
static int total_passed, total_failed;

static void end_case(void)
{
    if (!case_open)
        return;
    case_open = 0;
    group_cases++;
    if (case_failed) {
        group_failed++;
        total_failed++;
    } else {
        total_passed++;
    }
}

static void end_group(void)
{
    end_case();
    if (!group_open)
        return;
    group_open = 0;
    if (group_messages > MAX_MESSAGES_PER_GROUP)
        printf("  ... %d more messages in this group not shown\n",
               group_messages - MAX_MESSAGES_PER_GROUP);
    printf("%-4s %s: %d cases, %d failed\n", group_failed ? "FAIL" : "ok", group_name,
           group_cases, group_failed);
}

void gt_group(const char *fmt, ...)
{
    end_group();
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(group_name, sizeof group_name, fmt, ap);
    va_end(ap);
    group_open = 1;
    group_cases = group_failed = group_messages = 0;
}

void gt_case(const char *fmt, ...)
{
    end_case();
    if (!group_open)
        gt_group("(ungrouped)");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(case_desc, sizeof case_desc, fmt, ap);
    va_end(ap);
    case_open = 1;
    case_failed = 0;
}

static void message(const char *tag, const char *fmt, va_list ap)
{
    if (++group_messages > MAX_MESSAGES_PER_GROUP)
        return;
    char text[1024];
    vsnprintf(text, sizeof text, fmt, ap);
    printf("  %s %s: %s\n", tag, case_open ? case_desc : "-", text);
}

void gt_fail(const char *fmt, ...)
{
    if (!case_open)
        gt_case("(no case)");
    case_failed = 1;
    va_list ap;
    va_start(ap, fmt);
    message("FAIL", fmt, ap);
    va_end(ap);
}

void gt_note(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    message("note", fmt, ap);
    va_end(ap);
}

void gt_end_group(void)
{
    end_group();
}

int gt_case_failed(void)
{
    return case_open && case_failed;
}

int gt_finish(void)
{
    end_group();
    printf("%d passed, %d failed\n", total_passed, total_failed);
    return total_failed ? 1 : 0;
}

int gt_cmp(const char *what, const void *real, const void *shim, size_t count, size_t elsize,
           int64_t ld)
{
    if (!memcmp(real, shim, count * elsize))
        return 1;
    const unsigned char *r = real, *s = shim;
    size_t first = count, ndiff = 0;
    for (size_t i = 0; i < count; i++)
        if (memcmp(r + i * elsize, s + i * elsize, elsize)) {
            if (first == count)
                first = i;
            ndiff++;
        }
    char where[96] = "";
    if (ld > 0)
        snprintf(where, sizeof where, " (row %" PRId64 ", col %" PRId64 ")",
                 (int64_t)first % ld, (int64_t)first / ld);
    char vals[192];
    if (elsize == 8) {
        double a, b;
        uint64_t ba, bb;
        memcpy(&a, r + first * 8, 8);
        memcpy(&b, s + first * 8, 8);
        memcpy(&ba, &a, 8);
        memcpy(&bb, &b, 8);
        snprintf(vals, sizeof vals, "real=%.17g [%016" PRIx64 "] shim=%.17g [%016" PRIx64 "]", a,
                 ba, b, bb);
    } else if (elsize == 4) {
        float a, b;
        uint32_t ba, bb;
        memcpy(&a, r + first * 4, 4);
        memcpy(&b, s + first * 4, 4);
        memcpy(&ba, &a, 4);
        memcpy(&bb, &b, 4);
        snprintf(vals, sizeof vals, "real=%.9g [%08" PRIx32 "] shim=%.9g [%08" PRIx32 "]",
                 (double)a, ba, (double)b, bb);
    } else {
        snprintf(vals, sizeof vals, "(bytes)");
    }
    gt_fail("%s differs at element %zu%s: %s; %zu of %zu elements differ", what, first, where,
            vals, ndiff, count);
    return 0;
}

int gt_cmp_status(const char *routine, cublasStatus_t real, cublasStatus_t shim)
{
    if (real == shim)
        return 1;
    gt_fail("%s: status through the shim %s, real cuBLAS %s", routine, gt_status_name(shim),
            gt_status_name(real));
    return 0;
}

void gt_check_modes(cublasHandle_t h, cublasPointerMode_t pm, cublasMath_t mm)
{
    cublasPointerMode_t p;
    cublasMath_t m;
    GT_CUBLAS(cublasGetPointerMode_v2(h, &p));
    GT_CUBLAS(cublasGetMathMode(h, &m));
    if (p != pm)
        gt_fail("pointer mode changed by the shimmed call: %d, was %d", (int)p, (int)pm);
    if (m != mm)
        gt_fail("math mode changed by the shimmed call: %d, was %d", (int)m, (int)mm);
}

void gt_still_capturing(cudaStream_t s, const char *after)
{
    enum cudaStreamCaptureStatus cs = cudaStreamCaptureStatusNone;
    cudaError_t e = cudaStreamIsCapturing(s, &cs);
    if (e != cudaSuccess || cs != cudaStreamCaptureStatusActive)
        gt_fail("after %s: cudaStreamIsCapturing -> %s, status %d (%s)", after,
                cudaGetErrorName(e), (int)cs,
                cs == cudaStreamCaptureStatusInvalidated ? "capture invalidated" : "not active");
}

int gt_end_capture(cudaStream_t s, cudaGraph_t *graph)
{
    cudaError_t e = cudaStreamEndCapture(s, graph);
    if (e != cudaSuccess || !*graph) {
        gt_fail("cudaStreamEndCapture: %s (%s)", cudaGetErrorName(e), cudaGetErrorString(e));
        cudaGetLastError();
        return 0;
    }
    return 1;
}

cudaGraphExec_t gt_instantiate(cudaGraph_t graph)
{
    cudaGraphExec_t exec = NULL;
    cudaError_t e = cudaGraphInstantiate(&exec, graph, 0);
    if (e != cudaSuccess) {
        gt_fail("cudaGraphInstantiate: %s", cudaGetErrorName(e));
        cudaGetLastError();
        return NULL;
    }
    return exec;
}

const char *gt_status_name(cublasStatus_t s)
{
    switch (s) {
    case CUBLAS_STATUS_SUCCESS: return "SUCCESS";
    case CUBLAS_STATUS_NOT_INITIALIZED: return "NOT_INITIALIZED";
    case CUBLAS_STATUS_ALLOC_FAILED: return "ALLOC_FAILED";
    case CUBLAS_STATUS_INVALID_VALUE: return "INVALID_VALUE";
    case CUBLAS_STATUS_ARCH_MISMATCH: return "ARCH_MISMATCH";
    case CUBLAS_STATUS_MAPPING_ERROR: return "MAPPING_ERROR";
    case CUBLAS_STATUS_EXECUTION_FAILED: return "EXECUTION_FAILED";
    case CUBLAS_STATUS_INTERNAL_ERROR: return "INTERNAL_ERROR";
    case CUBLAS_STATUS_NOT_SUPPORTED: return "NOT_SUPPORTED";
    case CUBLAS_STATUS_LICENSE_ERROR: return "LICENSE_ERROR";
    default: break;
    }
    static _Thread_local char buf[32];
    snprintf(buf, sizeof buf, "status %d", (int)s);
    return buf;
}

char gt_op_char(cublasOperation_t op)
{
    return op == CUBLAS_OP_N ? 'N' : op == CUBLAS_OP_T ? 'T' : op == CUBLAS_OP_C ? 'C' : '?';
}

/* ---------- CUDA plumbing ---------- */

void gt_fatal(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fflush(stdout);
    fprintf(stderr, "FATAL: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    printf("FATAL error (see stderr); %d passed, %d failed before it\n", total_passed,
           total_failed);
    exit(1);
}

void gt_cuda_ok(cudaError_t e, const char *what, const char *file, int line)
{
    if (e != cudaSuccess)
        gt_fatal("%s:%d: %s: %s (%s)", file, line, what, cudaGetErrorName(e),
                 cudaGetErrorString(e));
}

void gt_cublas_ok(cublasStatus_t s, const char *what, const char *file, int line)
{
    if (s != CUBLAS_STATUS_SUCCESS)
        gt_fatal("%s:%d: %s: %s", file, line, what, gt_status_name(s));
}

void *gt_dmalloc(size_t bytes)
{
    void *p = NULL;
    GT_CUDA(cudaMalloc(&p, bytes ? bytes : 1));
    GT_CUDA(cudaMemset(p, 0, bytes ? bytes : 1));
    return p;
}

void *gt_hmalloc(size_t bytes)
{
    void *p = calloc(1, bytes ? bytes : 1);
    if (!p)
        gt_fatal("out of host memory (%zu bytes)", bytes);
    return p;
}

void gt_h2d(void *dst, const void *src, size_t bytes)
{
    GT_CUDA(cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice));
}

void gt_d2h(void *dst, const void *src, size_t bytes)
{
    GT_CUDA(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToHost));
}

double gt_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---------- data ---------- */

uint64_t gt_rand(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void gt_fill(double *h, size_t n, uint64_t seed)
{
    uint64_t s = seed;
    for (size_t i = 0; i < n; i++)
        h[i] = (double)(gt_rand(&s) >> 11) * 0x1p-52 - 1.0;
}

void gt_fill_f(float *h, size_t n, uint64_t seed)
{
    uint64_t s = seed;
    for (size_t i = 0; i < n; i++)
        h[i] = (float)((double)(gt_rand(&s) >> 40) * 0x1p-23 - 1.0);
}

void gt_fill_const(double *h, size_t n, double v)
{
    for (size_t i = 0; i < n; i++)
        h[i] = v;
}

double gt_qnan(void)
{
    uint64_t bits = 0x7ff8000000dead00ULL;
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
}

size_t gt_span(int64_t n, int64_t inc)
{
    if (n <= 0)
        return 0;
    return 1 + (size_t)(n - 1) * (size_t)(inc < 0 ? -inc : inc);
}
