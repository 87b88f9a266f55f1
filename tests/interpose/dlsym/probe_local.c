/* probe_local.c — loaded with RTLD_LOCAL: dlsym(RTLD_DEFAULT) from here must still search this
 * library's own scope (its dependency probe_dep). */
#include <dlfcn.h>

int dep_only(void);

__attribute__((visibility("default"))) int local_default(void)
{
    void *p = dlsym(RTLD_DEFAULT, "dep_only");
    int (*f)(void);
    if (!p)
        return -1;
    *(void **)&f = p;
    return f() + 0 * dep_only(); /* the reference keeps the DT_NEEDED */
}
