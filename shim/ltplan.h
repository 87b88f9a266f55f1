/* ltplan.h — which cublasLtMatmul calls the shim computes, and as what column-major GEMM.
 *
 * A pure function of the attributes read from the call's descriptors (shim/lt.c reads them with
 * the real cublasLt*GetAttribute functions), so that the CPU tests check it.  Taken are the calls
 * that cuBLASLt itself accepts and that mean D = alpha op(A) op(B) + beta C in FP64 and nothing
 * else: compute type CUBLAS_COMPUTE_64F, scale type and every matrix CUDA_R_64F, or all of them
 * CUDA_C_64F (complex: an operand that a row-major layout would need conjugated without
 * transposition is left to cuBLASLt), alpha and beta host or device scalars, the default
 * epilogue, full fill mode, no scaling or amax pointers, no emulation descriptor, strided
 * batches (equal batch counts, strides >= 0) in column- or row-major order, dimensions that
 * agree and leading dimensions large enough.  Everything else goes
 * to the real cuBLASLt, which returns its own status. */
#ifndef DFS_LTPLAN_H
#define DFS_LTPLAN_H

#include <cublas_api.h>
#include <stdint.h>

/* One matrix layout's attributes (cublasLtMatrixLayoutAttribute_t). */
typedef struct {
    uint32_t type;       /* CUBLASLT_MATRIX_LAYOUT_TYPE (cudaDataType) */
    int32_t order;       /* CUBLASLT_MATRIX_LAYOUT_ORDER (cublasLtOrder_t) */
    uint64_t rows, cols; /* CUBLASLT_MATRIX_LAYOUT_ROWS, _COLS */
    int64_t ld;          /* CUBLASLT_MATRIX_LAYOUT_LD */
    int32_t batch;       /* CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT */
    int64_t stride;      /* CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET */
    int64_t plane_offset;
    uint32_t batch_mode; /* cublasLtBatchMode_t */
} dfs_lt_layout;

/* The operation descriptor's attributes (cublasLtMatmulDescAttributes_t) that decide. */
typedef struct {
    int32_t compute;      /* cublasComputeType_t */
    int32_t scale_type;   /* cudaDataType */
    int32_t pointer_mode; /* cublasLtPointerMode_t */
    int32_t transa, transb, transc;
    int32_t fill;      /* cublasFillMode_t */
    uint32_t epilogue; /* cublasLtEpilogue_t */
    int extras;        /* 1: a scaling, amax or emulation attribute is set, or fast accumulation */
} dfs_lt_desc;

enum { DFS_LT_A, DFS_LT_B, DFS_LT_C, DFS_LT_D };

/* The column-major GEMM the call is: D' = alpha op_a(A') op_b(B') + beta D', where D' is D's
 * storage seen column-major, A' and B' the storage of A and B, or of B and A (swap = 1) when D is
 * row-major (then D' = D^T).  C is copied into D first when C != D (copy_c). */
typedef struct {
    cublasOperation_t transa, transb;
    int64_t m, n, k;
    int swap;                       /* A' is B and B' is A */
    int64_t lda, ldb, ldd, ldc;     /* of A', B', D, C */
    long long sA, sB, sD, sC;       /* batch strides of A', B', D, C (0 when batch = 1) */
    int64_t batch;
    int64_t c_rows, c_cols;         /* C's (and D's) storage, column-major, for the copy */
    int copy_c;
    int complex;                    /* CUDA_C_64F: elements of two doubles */
} dfs_lt_plan;

/* NULL and *p filled when the shim computes the call; else why not (for the trace).  C_is_D:
 * the C and D pointers are equal.  host_beta_zero: beta is a host zero (C is then not read). */
const char *dfs_lt_plan_make(const dfs_lt_desc *d, const dfs_lt_layout l[4], int C_is_D,
                             int host_beta_zero, dfs_lt_plan *p);

#endif
