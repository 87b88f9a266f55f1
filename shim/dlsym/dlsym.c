/* dlsym.c — libdfshim-dlsym.so: an opt-in companion of libdfshim.so for programs that look cuBLAS
 * up with dlsym() on their own library handle (TensorFlow's and PaddlePaddle's loaders, XLA):
 * such lookups never see a preloaded definition, so the shim's hooks are bypassed.
 *
 *   LD_PRELOAD=libdfshim-dlsym.so:libdfshim.so ./program
 *
 * Only a lookup in an explicit handle of a cuBLAS name that libdfshim.so defines, whose answer
 * lies in a libcublas.so or libcublasLt.so object, and which does not come from libdfshim.so
 * itself (its resolver must reach the real functions), is answered with libdfshim.so's function
 * instead.  RTLD_NEXT and
 * RTLD_DEFAULT lookups go straight to glibc by a tail jump (dlsym_x86_64.S), so their meaning,
 * which depends on the caller, is unchanged.  Not loaded by default: it replaces dlsym for the
 * whole process. */
#include <dlfcn.h>
#include <stddef.h>
#include <string.h>

#define HIDDEN __attribute__((visibility("hidden")))

typedef void *(*dlsym_fn)(void *, const char *);
HIDDEN dlsym_fn dfs_real_dlsym;

HIDDEN void dfs_dlsym_init(void)
{
    if (dfs_real_dlsym)
        return;
    static const char *const versions[] = {"GLIBC_2.34", "GLIBC_2.2.5"};
    for (size_t i = 0; i < sizeof versions / sizeof versions[0] && !dfs_real_dlsym; i++) {
        void *p = dlvsym(RTLD_NEXT, "dlsym", versions[i]);
        memcpy(&dfs_real_dlsym, &p, sizeof p);
    }
}

__attribute__((constructor)) static void init(void)
{
    dfs_dlsym_init();
}

/* The file name of the object holding address p, without its directory, or "". */
static const char *object_of(const void *p)
{
    Dl_info info;
    if (!p || !dladdr(p, &info) || !info.dli_fname)
        return "";
    const char *slash = strrchr(info.dli_fname, '/');
    return slash ? slash + 1 : info.dli_fname;
}

/* Reached from dlsym by a jump: __builtin_return_address(0) is dlsym's caller. */
HIDDEN void *dfs_dlsym_explicit(void *handle, const char *name)
{
    const void *caller = __builtin_return_address(0);
    dfs_dlsym_init();
    if (!dfs_real_dlsym)
        return NULL;
    void *p = dfs_real_dlsym(handle, name);
    const char *obj = object_of(p);
    if (!p || !name || strncmp(name, "cublas", 6) ||
        (strncmp(obj, "libcublas.so", 12) && strncmp(obj, "libcublasLt.so", 14)) ||
        !strncmp(object_of(caller), "libdfshim", 9))
        return p;
    /* libdfshim.so's definition, if it is loaded (preloaded: first in the global scope) and
     * defines the name: it exports cuBLAS names only, each a hook (tests/interpose/elf_check.sh),
     * so no list here has to be kept in step with them */
    void *q = dfs_real_dlsym(RTLD_DEFAULT, name);
    return q && !strcmp(object_of(q), "libdfshim.so") ? q : p;
}
