/* bench-preload.c — exblas-bench's preloading of the shim into itself (bench-preload.h): the
 * shim is found among the loaded objects; when it is missing (or present under --no-shim),
 * LD_PRELOAD is changed and the program re-executes itself through /proc/self/exe, once
 * (REEXEC_GUARD). */
#include "bench-preload.h"

#include "common.h"

#include <limits.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define REEXEC_GUARD "EXBLAS_BENCH_REEXEC"

static int find_shim_cb(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    const char *name = info->dlpi_name, *base = name ? strrchr(name, '/') : NULL;
    base = base ? base + 1 : name;
    if (base && !strncmp(base, "libdfshim", 9)) {
        snprintf(data, PATH_MAX, "%s", name);
        return 1;
    }
    return 0;
}

/* The path of the libdfshim loaded in this process, or NULL. */
static const char *loaded_shim(void)
{
    static char path[PATH_MAX];
    return dl_iterate_phdr(find_shim_cb, path) ? path : NULL;
}

static void reexec(char **argv)
{
    setenv(REEXEC_GUARD, "1", 1);
    fflush(NULL);
    execv("/proc/self/exe", argv);
    perror("exblas-bench: cannot re-execute itself (/proc/self/exe)");
    exit(2);
}

static int is_shim_entry(const char *e, size_t len)
{
    const char *base = e;
    for (size_t i = 0; i < len; i++)
        if (e[i] == '/')
            base = e + i + 1;
    return (size_t)(e + len - base) >= 9 && !strncmp(base, "libdfshim", 9);
}

void dfs_bench_ensure_shim(int no_shim, const char *shim, char **argv)
{
    const char *loaded = loaded_shim();
    int again = getenv(REEXEC_GUARD) != NULL;
    unsetenv(REEXEC_GUARD);
    const char *old = getenv("LD_PRELOAD");
    if (no_shim) {
        if (!loaded)
            return;
        if (again) {
            fprintf(stderr, "exblas-bench: --no-shim, but %s is still loaded\n", loaded);
            exit(2);
        }
        /* take every libdfshim entry out of LD_PRELOAD (separated by ':' or ' ') */
        size_t len = old ? strlen(old) : 0;
        char *keep = calloc(len + 1, 1);
        if (!keep)
            exit(2);
        for (const char *p = old ? old : ""; *p;) {
            size_t l = strcspn(p, ": ");
            if (l && !is_shim_entry(p, l)) {
                if (*keep)
                    strcat(keep, ":");
                strncat(keep, p, l);
            }
            p += l + (p[l] != '\0');
        }
        setenv("LD_PRELOAD", keep, 1);
        reexec(argv);
    }

    char path[PATH_MAX + 32] = "", real[PATH_MAX];
    if (shim)
        snprintf(path, sizeof path, "%s", shim);
    else
        dfs_default_shim(path, sizeof path);
    if ((shim || !loaded) && !realpath(path, real)) {
        fprintf(stderr, "exblas-bench: no shim at %s (build it with ninja, or give --shim PATH, "
                        "or --no-shim)\n", path);
        exit(2);
    }
    if (loaded) { /* already preloaded (by the user, or by exblas-run): use it */
        char lreal[PATH_MAX];
        if (shim && realpath(loaded, lreal) && strcmp(lreal, real)) {
            fprintf(stderr, "exblas-bench: %s is already loaded (from LD_PRELOAD), not --shim %s\n",
                    loaded, shim);
            exit(2);
        }
        return;
    }
    if (again) {
        fprintf(stderr, "exblas-bench: LD_PRELOAD=%s did not load %s\n", old ? old : "", real);
        exit(2);
    }
    if (strpbrk(real, ": ")) {
        fprintf(stderr, "exblas-bench: %s: LD_PRELOAD cannot name a path with ':' or ' '\n", real);
        exit(2);
    }
    size_t need = strlen(real) + (old ? strlen(old) : 0) + 2;
    char *pre = malloc(need);
    if (!pre)
        exit(2);
    snprintf(pre, need, "%s%s%s", real, old && *old ? ":" : "", old ? old : "");
    setenv("LD_PRELOAD", pre, 1);
    reexec(argv);
}
