/* probe_a.c — first of two libraries defining probe(); probe_next() asks for the next one with
 * dlsym(RTLD_NEXT), whose answer depends on the caller (this library). */
#include <dlfcn.h>

__attribute__((visibility("default"))) int probe(void)
{
    return 1;
}

__attribute__((visibility("default"))) int probe_next(void)
{
    void *p = dlsym(RTLD_NEXT, "probe");
    int (*f)(void);
    if (!p)
        return -1;
    *(void **)&f = p;
    return f();
}
