/* resolve.c — finds the real cuBLAS and CUDA driver functions (see resolve.h for the order).
 * Results are cached per symbol in atomics; a race between two first callers is harmless because
 * both find the same address.  A symbol that cannot be found is retried on later calls (the
 * application may load libcublas after its first call into us), but reported only once. */
#include "resolve.h"

#include "log.h"

#include <dlfcn.h>
#include <link.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

typedef struct {
    const char *name;
    const char *fallback; /* older name of the same function, or NULL */
    int lib;              /* DFS_LIB_CUBLAS, DFS_LIB_CUBLASLT or DFS_LIB_DRIVER */
} dfs_sym_info;

enum { DFS_LIB_CUBLAS, DFS_LIB_CUBLASLT, DFS_LIB_DRIVER, DFS_LIB_COUNT };

static const dfs_sym_info sym_table[DFS_SYM_COUNT] = {
#define DFS_X_CUBLAS(n) [DFS_SYM_##n] = {#n, NULL, DFS_LIB_CUBLAS},
#define DFS_X_CUBLASLT(n) [DFS_SYM_##n] = {#n, NULL, DFS_LIB_CUBLASLT},
#define DFS_X_DRIVER(n, s, f) [DFS_SYM_##n] = {s, f, DFS_LIB_DRIVER},
    DFS_CUBLAS_SYMBOLS(DFS_X_CUBLAS) DFS_CUBLASLT_SYMBOLS(DFS_X_CUBLASLT)
    DFS_DRIVER_SYMBOLS(DFS_X_DRIVER)
#undef DFS_X_CUBLAS
#undef DFS_X_CUBLASLT
#undef DFS_X_DRIVER
};

/* Basename prefixes of the loaded objects searched by dl_iterate_phdr, and the SONAMEs tried
 * as a last resort, per library. */
static const char *const lib_prefix[DFS_LIB_COUNT] = {"libcublas.so", "libcublasLt.so",
                                                       "libcuda.so"};
static const char *const lib_sonames[DFS_LIB_COUNT][3] = {
    {"libcublas.so.13", "libcublas.so.12", NULL},
    {NULL, NULL, NULL}, /* never loaded by dfshim: see resolve.h */
    {NULL, NULL, NULL}, /* neither: a process that has not loaded it has no CUDA context */
};

static _Atomic(dfs_fn) cache[DFS_SYM_COUNT];
static _Atomic(void *) lib_handle[DFS_LIB_COUNT];
static char cublas_path[512];
static atomic_int cublas_path_set;

static dfs_fn to_fn(void *p)
{
    dfs_fn f;
    memcpy(&f, &p, sizeof f);
    return f;
}

/* Our own address, so that RTLD_NEXT-less lookups never hand back one of our hooks. */
static int is_ours(void *addr)
{
    static const char marker;
    Dl_info a, b;
    if (!addr || !dladdr(addr, &a) || !dladdr(&marker, &b))
        return 0;
    return a.dli_fbase == b.dli_fbase;
}

static void *lookup(void *handle, const dfs_sym_info *s)
{
    void *p = dlsym(handle, s->name);
    if (!p && s->fallback)
        p = dlsym(handle, s->fallback);
    return p;
}

struct phdr_search {
    const char *prefix;
    char path[512];
};

static int phdr_cb(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    struct phdr_search *ps = data;
    const char *path = info->dlpi_name;
    if (!path || !*path)
        return 0;
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t n = strlen(ps->prefix);
    /* "libcublas.so" or "libcublas.so.13..." but not "libcublasLt.so". */
    if (strncmp(base, ps->prefix, n) == 0 && (base[n] == '\0' || base[n] == '.')) {
        snprintf(ps->path, sizeof ps->path, "%s", path);
        return 1;
    }
    return 0;
}

/* A handle on the library as already loaded in this process (any scope), or NULL. */
static void *loaded_library(int lib, const char **how)
{
    void *h = atomic_load_explicit(&lib_handle[lib], memory_order_acquire);
    if (h)
        return h;
    struct phdr_search ps = {lib_prefix[lib], {0}};
    if (dl_iterate_phdr(phdr_cb, &ps)) {
        h = dlopen(ps.path, RTLD_NOW | RTLD_NOLOAD);
        if (h) {
            *how = "loaded";
            if (lib == DFS_LIB_CUBLAS && !atomic_exchange(&cublas_path_set, 1))
                snprintf(cublas_path, sizeof cublas_path, "%s", ps.path);
        }
    }
    if (!h) {
        for (int i = 0; lib_sonames[lib][i] && !h; i++) {
            h = dlopen(lib_sonames[lib][i], RTLD_NOW | RTLD_LOCAL);
            if (h) {
                *how = "dlopen";
                dfs_log(DFS_LOG_WARN,
                        "no %s was loaded by the application; dfshim loaded %s itself",
                        lib_prefix[lib], lib_sonames[lib][i]);
                if (lib == DFS_LIB_CUBLAS && !atomic_exchange(&cublas_path_set, 1))
                    snprintf(cublas_path, sizeof cublas_path, "%s", lib_sonames[lib][i]);
            }
        }
    }
    if (h) {
        void *expected = NULL;
        if (!atomic_compare_exchange_strong(&lib_handle[lib], &expected, h)) {
            dlclose(h); /* another thread won; drop our extra reference */
            h = expected;
        }
    }
    return h;
}

static void note_rtld_next_path(int lib, void *addr)
{
    Dl_info info;
    if (lib != DFS_LIB_CUBLAS || atomic_load(&cublas_path_set))
        return;
    if (dladdr(addr, &info) && info.dli_fname && !atomic_exchange(&cublas_path_set, 1))
        snprintf(cublas_path, sizeof cublas_path, "%s", info.dli_fname);
}

dfs_fn dfs_resolve(dfs_sym sym)
{
    dfs_fn f = atomic_load_explicit(&cache[sym], memory_order_acquire);
    if (f)
        return f;
    const dfs_sym_info *s = &sym_table[sym];
    void *p = lookup(RTLD_NEXT, s);
    if (p && is_ours(p))
        p = NULL;
    if (p) {
        note_rtld_next_path(s->lib, p);
    } else {
        const char *how = "";
        void *h = loaded_library(s->lib, &how);
        if (h)
            p = lookup(h, s);
        if (p && is_ours(p))
            p = NULL;
    }
    if (!p) {
        /* A missing driver is normal on a machine without a GPU: say it only at info level. */
        dfs_log_once(s->lib == DFS_LIB_DRIVER ? DFS_LOG_INFO : DFS_LOG_ERROR, s->name,
                     "cannot find the real %s: %s", s->name,
                     s->lib == DFS_LIB_CUBLAS     ? "is libcublas loaded in this process?"
                     : s->lib == DFS_LIB_CUBLASLT ? "is libcublasLt loaded in this process?"
                                                  : "no CUDA driver (libcuda.so.1) in this process");
        return NULL;
    }
    f = to_fn(p);
    atomic_store_explicit(&cache[sym], f, memory_order_release);
    return f;
}

const char *dfs_resolve_cublas_path(void)
{
    return atomic_load(&cublas_path_set) ? cublas_path : "";
}
