/* fake_cudart.c — a stand-in libcudart.so.13 for the interposition tests of programs that manage
 * "device" memory themselves (tests/programs/): device memory is host memory, as in the stand-in
 * libcublas.so.13.  Only what those programs call. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define EXPORT __attribute__((visibility("default")))

EXPORT int cudaMalloc(void **ptr, size_t bytes)
{
    *ptr = malloc(bytes ? bytes : 1);
    return *ptr ? 0 : 2; /* cudaErrorMemoryAllocation */
}

EXPORT int cudaFree(void *ptr)
{
    free(ptr);
    return 0;
}

EXPORT int cudaMemcpy(void *dst, const void *src, size_t bytes, int kind)
{
    (void)kind;
    memmove(dst, src, bytes);
    return 0;
}
