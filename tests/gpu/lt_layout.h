/* lt_layout.h — what the cuBLASLt tests (lt_matmul.c, lt_zmatmul.c) share: the real
 * cublasLtMatmul, and matrix layouts: a matrix of rows x cols in column- or row-major order with
 * its leading dimension and batch stride (in elements), where its logical (i, j) of batch b lies,
 * and its cuBLASLt layout descriptor. */
#ifndef GT_LT_LAYOUT_H
#define GT_LT_LAYOUT_H

#include "common.h"

#include <cublasLt.h>
#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* The real cublasLtMatmul (dlsym on libcublasLt's own handle); fails the test when it cannot be
 * found or when the program's symbol is not the shim's. */
static inline __typeof__(&cublasLtMatmul) lt_real_matmul(void)
{
    void *lib = dlopen("libcublasLt.so.13", RTLD_NOW | RTLD_NOLOAD);
    if (!lib)
        lib = dlopen("libcublasLt.so.12", RTLD_NOW | RTLD_NOLOAD);
    void *p = lib ? dlsym(lib, "cublasLtMatmul") : NULL;
    if (!p)
        gt_fatal("the real cublasLtMatmul is not found: %s", dlerror());
    __typeof__(&cublasLtMatmul) f;
    memcpy(&f, &p, sizeof p);
    if (f == cublasLtMatmul)
        gt_fatal("cublasLtMatmul is not the shim's: is libdfshim.so preloaded?");
    return f;
}

typedef struct {
    int order; /* CUBLASLT_ORDER_COL or _ROW */
    int64_t rows, cols, ld, stride;
    int batch;
} lay;

/* The rows and columns stored (column-major view). */
static inline int64_t srows(const lay *l) { return l->order == CUBLASLT_ORDER_COL ? l->rows : l->cols; }
static inline int64_t scols(const lay *l) { return l->order == CUBLASLT_ORDER_COL ? l->cols : l->rows; }
/* Elements spanned by every batch entry. */
static inline size_t elems(const lay *l)
{
    return (size_t)(l->batch - 1) * (size_t)l->stride + (size_t)(l->ld * scols(l));
}
/* The element index of logical (i, j) of batch b. */
static inline size_t at(const lay *l, int b, int64_t i, int64_t j)
{
    return (size_t)b * (size_t)l->stride +
           (size_t)(l->order == CUBLASLT_ORDER_COL ? i + j * l->ld : j + i * l->ld);
}

/* A layout of `pad` more rows stored than needed; batches `gap` elements apart (0: tight). */
static inline lay make_lay(int order, int64_t rows, int64_t cols, int pad, int batch, int gap)
{
    lay l = {order, rows, cols, 0, 0, batch};
    l.ld = srows(&l) + pad;
    l.stride = batch > 1 ? l.ld * scols(&l) + gap : 0;
    return l;
}

static inline cublasLtMatrixLayout_t lt_layout(const lay *l, cudaDataType t)
{
    cublasLtMatrixLayout_t d;
    GT_CUBLAS(cublasLtMatrixLayoutCreate(&d, t, (uint64_t)l->rows, (uint64_t)l->cols, l->ld));
    int32_t order = l->order, batch = l->batch;
    GT_CUBLAS(cublasLtMatrixLayoutSetAttribute(d, CUBLASLT_MATRIX_LAYOUT_ORDER, &order, 4));
    GT_CUBLAS(cublasLtMatrixLayoutSetAttribute(d, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &batch, 4));
    GT_CUBLAS(cublasLtMatrixLayoutSetAttribute(d, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET,
                                               &l->stride, 8));
    return d;
}

#endif
