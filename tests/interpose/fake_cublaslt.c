/* fake_cublaslt.c — a stand-in libcublasLt.so.13 for the interposition tests (see
 * fake_cublaslt.h).  Attribute sizes are those of cublasLt.h; an attribute it does not know, or
 * a buffer of the wrong size, gives CUBLAS_STATUS_INVALID_VALUE, as the real library does. */
#include "fake_cublaslt.h"

#include <stdlib.h>
#include <string.h>

#define EXPORT __attribute__((visibility("default")))
#define SLOTS 40

typedef struct {
    unsigned char v[SLOTS][8];
} attrs;

struct cublasLtContext {
    int dummy;
};

static long calls;
static fake_lt_args last;

/* Sizes of cublasLtMatmulDescAttributes_t 0..39 (0: unknown) and of the layout attributes. */
static const unsigned char desc_size[SLOTS] = {
    [0] = 4, [1] = 4, [2] = 4, [3] = 4, [4] = 4, [5] = 4, [6] = 4, [7] = 4, [8] = 8, [10] = 8,
    [11] = 8, [12] = 8, [13] = 8, [14] = 8, [15] = 4, [17] = 8, [18] = 8, [19] = 8, [20] = 8,
    [21] = 8, [22] = 4, [23] = 8, [24] = 8, [25] = 1, [26] = 4, [31] = 4, [32] = 4, [33] = 4,
    [34] = 4, [35] = 4, [36] = 8, [37] = 4, [38] = 8};
static const unsigned char layout_size[SLOTS] = {[0] = 4, [1] = 4, [2] = 8, [3] = 8, [4] = 8,
                                                 [5] = 4, [6] = 8, [7] = 8, [8] = 4};

static cublasStatus_t set(attrs *a, const unsigned char *sizes, int attr, const void *buf,
                          size_t size)
{
    if (!a || attr < 0 || attr >= SLOTS || !sizes[attr] || size != sizes[attr] || !buf)
        return CUBLAS_STATUS_INVALID_VALUE;
    memcpy(a->v[attr], buf, size);
    return CUBLAS_STATUS_SUCCESS;
}

static cublasStatus_t get(const attrs *a, const unsigned char *sizes, int attr, void *buf,
                          size_t size, size_t *written)
{
    if (!a || attr < 0 || attr >= SLOTS || !sizes[attr])
        return CUBLAS_STATUS_INVALID_VALUE;
    if (size == 0 && !buf) {
        if (!written)
            return CUBLAS_STATUS_INVALID_VALUE;
        *written = sizes[attr];
        return CUBLAS_STATUS_SUCCESS;
    }
    if (size != sizes[attr] || !buf)
        return CUBLAS_STATUS_INVALID_VALUE;
    memcpy(buf, a->v[attr], size);
    if (written)
        *written = size;
    return CUBLAS_STATUS_SUCCESS;
}

EXPORT cublasStatus_t cublasLtCreate(cublasLtHandle_t *h)
{
    *h = calloc(1, sizeof **h);
    return *h ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_ALLOC_FAILED;
}

EXPORT cublasStatus_t cublasLtDestroy(cublasLtHandle_t h)
{
    free(h);
    return CUBLAS_STATUS_SUCCESS;
}

EXPORT cublasStatus_t cublasLtMatmulDescCreate(cublasLtMatmulDesc_t *d, cublasComputeType_t ct,
                                               cudaDataType_t st)
{
    attrs *a = calloc(1, sizeof *a);
    if (!a)
        return CUBLAS_STATUS_ALLOC_FAILED;
    int32_t v[2] = {ct, st};
    memcpy(a->v[0], &v[0], 4);
    memcpy(a->v[1], &v[1], 4);
    uint32_t epi = CUBLASLT_EPILOGUE_DEFAULT;
    int32_t fill = CUBLAS_FILL_MODE_FULL;
    memcpy(a->v[7], &epi, 4);
    memcpy(a->v[6], &fill, 4);
    *d = (cublasLtMatmulDesc_t)a;
    return CUBLAS_STATUS_SUCCESS;
}

EXPORT cublasStatus_t cublasLtMatmulDescDestroy(cublasLtMatmulDesc_t d)
{
    free(d);
    return CUBLAS_STATUS_SUCCESS;
}

EXPORT cublasStatus_t cublasLtMatmulDescSetAttribute(cublasLtMatmulDesc_t d,
                                                     cublasLtMatmulDescAttributes_t attr,
                                                     const void *buf, size_t size)
{
    return set((attrs *)d, desc_size, (int)attr, buf, size);
}

EXPORT cublasStatus_t cublasLtMatmulDescGetAttribute(cublasLtMatmulDesc_t d,
                                                     cublasLtMatmulDescAttributes_t attr,
                                                     void *buf, size_t size, size_t *written)
{
    return get((const attrs *)d, desc_size, (int)attr, buf, size, written);
}

EXPORT cublasStatus_t cublasLtMatrixLayoutCreate(cublasLtMatrixLayout_t *l, cudaDataType type,
                                                 uint64_t rows, uint64_t cols, int64_t ld)
{
    attrs *a = calloc(1, sizeof *a);
    if (!a)
        return CUBLAS_STATUS_ALLOC_FAILED;
    uint32_t t = (uint32_t)type;
    int32_t batch = 1;
    memcpy(a->v[0], &t, 4);
    memcpy(a->v[2], &rows, 8);
    memcpy(a->v[3], &cols, 8);
    memcpy(a->v[4], &ld, 8);
    memcpy(a->v[5], &batch, 4);
    *l = (cublasLtMatrixLayout_t)a;
    return CUBLAS_STATUS_SUCCESS;
}

EXPORT cublasStatus_t cublasLtMatrixLayoutDestroy(cublasLtMatrixLayout_t l)
{
    free(l);
    return CUBLAS_STATUS_SUCCESS;
}

EXPORT cublasStatus_t cublasLtMatrixLayoutSetAttribute(cublasLtMatrixLayout_t l,
                                                       cublasLtMatrixLayoutAttribute_t attr,
                                                       const void *buf, size_t size)
{
    return set((attrs *)l, layout_size, (int)attr, buf, size);
}

EXPORT cublasStatus_t cublasLtMatrixLayoutGetAttribute(cublasLtMatrixLayout_t l,
                                                       cublasLtMatrixLayoutAttribute_t attr,
                                                       void *buf, size_t size, size_t *written)
{
    return get((const attrs *)l, layout_size, (int)attr, buf, size, written);
}

EXPORT cublasStatus_t cublasLtMatmul(cublasLtHandle_t lt, cublasLtMatmulDesc_t desc,
                                     const void *alpha, const void *A,
                                     cublasLtMatrixLayout_t Adesc, const void *B,
                                     cublasLtMatrixLayout_t Bdesc, const void *beta, const void *C,
                                     cublasLtMatrixLayout_t Cdesc, void *D,
                                     cublasLtMatrixLayout_t Ddesc,
                                     const cublasLtMatmulAlgo_t *algo, void *workspace,
                                     size_t workspace_size, cudaStream_t stream)
{
    fake_lt_args a = {lt, desc, alpha, A, Adesc, B, Bdesc, beta, C, Cdesc, D, Ddesc, algo,
                      workspace, workspace_size, stream};
    last = a;
    calls++;
    if (D) {
        double mark = 1000.0 + (double)calls;
        memcpy(D, &mark, sizeof mark);
    }
    return CUBLAS_STATUS_SUCCESS;
}

EXPORT long fake_cublaslt_calls(void)
{
    return calls;
}

EXPORT const fake_lt_args *fake_cublaslt_last(void)
{
    return &last;
}
