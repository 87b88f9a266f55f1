/* engine.h — the interface every engine implements, and the call records the shim hands it.
 *
 * An engine is one folder under engines/ with one dfs_engine value, listed once in
 * engines/registry.c.  The shim has already validated the arguments exactly as cuBLAS does and
 * taken the quick returns it can take without reading device memory; the engine computes the
 * call on ctx->stream with no host synchronisation, or answers DFS_STATUS_DECLINED when it
 * cannot compute this call correctly (the shim then logs it once and runs it natively), or
 * DFS_STATUS_PREFER_NATIVE when it knows native to be faster on these data.
 * Engines reach real cuBLAS and CUDA only through core/resolve.h, and include nothing of shim/
 * or config/. */
#ifndef DFS_ENGINE_H
#define DFS_ENGINE_H

#include "../core/l3_entries.h"
#include "../core/types.h"

#include <cublas_api.h>
#include <stdint.h>

/* Not a cuBLAS status: "this engine does not take this call; run it natively". */
#define DFS_STATUS_DECLINED ((cublasStatus_t)0x7d00)
/* Not a cuBLAS status: "native is faster for this call's data; run it natively" (an engine's
 * choice from what it learnt of earlier calls, not a failure: logged at info, not warn). */
#define DFS_STATUS_PREFER_NATIVE ((cublasStatus_t)0x7d01)

/* Which exported entry point the application called (native forwarding calls the same one, so
 * native results are bitwise those of cuBLAS). */
typedef enum {
    DFS_API_DGEMM, DFS_API_DGEMM_64,
    DFS_API_DGEMM_STRIDED, DFS_API_DGEMM_STRIDED_64,
    DFS_API_GEMMEX, DFS_API_GEMMEX_64,
    DFS_API_GEMMEX_STRIDED, DFS_API_GEMMEX_STRIDED_64,
    DFS_API_DGEMV, DFS_API_DGEMV_64,
    DFS_API_DDOT, DFS_API_DDOT_64,
    /* the legacy API (cublas.h): no handle (the shim passes an internal one), alpha and beta by
     * value (the record points at copies), Ddot's result returned (the record points at a host
     * variable) */
    DFS_API_LEGACY_DGEMM, DFS_API_LEGACY_DGEMV, DFS_API_LEGACY_DDOT,
    /* cublasLtMatmul (cuBLASLt): the shim passes an internal handle and a column-major record of
     * the product; natively the shim itself forwards the original call */
    DFS_API_LT_MATMUL,
    /* complex double (dfs_gemm_call.type = DFS_C64; the GemmEx forms above take it too, with
     * CUDA_C_64F) */
    DFS_API_ZGEMM, DFS_API_ZGEMM_64,
    DFS_API_ZGEMM3M, DFS_API_ZGEMM3M_64,
    DFS_API_ZGEMM_STRIDED, DFS_API_ZGEMM_STRIDED_64,
    DFS_API_LEGACY_ZGEMM,
    DFS_API_ZDOTC, DFS_API_ZDOTC_64, DFS_API_ZDOTU, DFS_API_ZDOTU_64,
    DFS_API_LEGACY_ZDOTC, DFS_API_LEGACY_ZDOTU,
    DFS_API_ZGEMV, DFS_API_ZGEMV_64, DFS_API_LEGACY_ZGEMV,
    /* pointer-array batches (dfs_gemm_call's Aarray, Barray, Carray); GemmBatchedEx on CUDA_R_64F
     * or CUDA_C_64F */
    DFS_API_DGEMM_BATCHED, DFS_API_DGEMM_BATCHED_64, DFS_API_ZGEMM_BATCHED,
    DFS_API_ZGEMM_BATCHED_64, DFS_API_GEMMEX_BATCHED, DFS_API_GEMMEX_BATCHED_64,
    /* the other Level-3 routines (dfs_l3_call): DFS_API_cublasDsyrk_v2 and so on, one per entry
     * point of core/l3_entries.h, the legacy ones (DFS_API_cublasDsyrk...) included */
#define DFS_X_L3_API(a, form, kind, name, T, I) DFS_API_##name,
    DFS_L3_ENTRIES(DFS_X_L3_API, )
#undef DFS_X_L3_API
} dfs_api;

/* The element type of a call's matrices and scalars: binary64, or complex binary64 (real and
 * imaginary parts interleaved, cuDoubleComplex: the pointers below then point at an element's
 * real part, leading dimensions and strides count elements, alpha and beta at two doubles). */
typedef enum { DFS_R64 = 0, DFS_C64 = 1 } dfs_dtype;

/* The part of C a GEMM computes (dfs_gemm_call.tri): all of it, or its lower or upper triangle,
 * the diagonal included; the other triangle is never written (it may be read, its values never
 * used).  A triangle only in calls to engines with DFS_CAP_TRIANGLE, on real data, with m = n
 * and batch 1 (the shim's SYRK, SYRKX and SYR2K, ../shim/l3_mm.h). */
typedef enum { DFS_TRI_ALL = 0, DFS_TRI_LOWER = 1, DFS_TRI_UPPER = 2 } dfs_tri;

/* C(i) = alpha * op(A(i)) * op(B(i)) + beta * C(i) for i < batch, column-major, of the element
 * type `type` (op C: the conjugate transpose; on real data the same as T).  Non-batched calls
 * have batch = 1 and strides 0.  alpha and beta are host or device pointers according to
 * ctx->pointer_mode.  Pointer-array batches (DgemmBatched...) have A, B and C NULL and the
 * matrices' addresses in Aarray, Barray, Carray: arrays of batch pointers in device memory
 * (never read on the host), given only to engines with DFS_CAP_PTRARRAY; NULL otherwise (an
 * engine without it gets them as strided batches of packed copies, ../shim/ptr_batch.h). */
typedef struct {
    dfs_api api;
    cublasOperation_t transa, transb;
    int64_t m, n, k;
    const double *alpha;
    const double *A; int64_t lda; long long strideA;
    const double *B; int64_t ldb; long long strideB;
    const double *beta;
    double *C; int64_t ldc; long long strideC;
    int64_t batch;
    cublasGemmAlgo_t algo; /* GemmEx forms only, forwarded unchanged when run natively */
    dfs_dtype type;
    const double *const *Aarray; /* pointer-array batches only */
    const double *const *Barray;
    double *const *Carray;
    dfs_tri tri; /* DFS_TRI_ALL but for engines with DFS_CAP_TRIANGLE */
} dfs_gemm_call;

/* The Level-3 routines beside GEMM (dfs_l3_call.kind); the H kinds are the Hermitian forms of
 * the S ones before them (complex only). */
typedef enum {
    DFS_L3_SYRK, DFS_L3_HERK, DFS_L3_SYRKX, DFS_L3_HERKX, DFS_L3_SYR2K, DFS_L3_HER2K,
    DFS_L3_SYMM, DFS_L3_HEMM, DFS_L3_TRMM, DFS_L3_TRSM
} dfs_l3_kind;

/* One call of a Level-3 routine beside GEMM, column-major, of the element type `type` (complex:
 * interleaved, as dfs_gemm_call's).  C, m x n, is the output of every kind; op(X)^S below is the
 * transpose, ^H for the H kinds; op C on real data is the same as T.
 *   SYRK   C = alpha op(A) op(A)^S + beta C      m = n; op(A) is n x k; B NULL
 *   SYRKX  C = alpha op(A) op(B)^S + beta C      (the result need not be symmetric)
 *   SYR2K  C = alpha op(A) op(B)^S + alpha' op(B) op(A)^S + beta C   (alpha' = alpha, HER2K:
 *          conj(alpha))
 *          each only on C's `uplo` triangle; the H kinds read and write Im(C_ii) as zero
 *   SYMM   C = alpha A B + beta C (side left) or alpha B A + beta C (right), A k x k symmetric
 *          (HEMM: Hermitian, Im(A_ii) taken as zero) stored in its `uplo` triangle
 *   TRMM   C = alpha op(A) B (left) or alpha B op(A) (right), A k x k triangular (`uplo`,
 *          `diag`: the diagonal not read when unit); C may be B (in place, ldc = ldb: the legacy
 *          form always is); beta NULL
 *   TRSM   X with op(A) X = alpha B (left) or X op(A) = alpha B (right), written over B: B and C
 *          are the same matrix (ldc = ldb); beta NULL
 * k is the inner dimension: the rank-k kinds' k, else A's order (m on the left, n on the
 * right).  alpha and beta are host or device pointers according to ctx->pointer_mode, each to
 * one double where alpha_real / beta_real say so (always on real data; HERK's alpha and beta,
 * HERKX's and HER2K's beta), else to two. */
typedef struct {
    dfs_api api;
    dfs_l3_kind kind;
    dfs_dtype type;
    cublasSideMode_t side;   /* SYMM, HEMM, TRMM, TRSM */
    cublasFillMode_t uplo;   /* the triangle of A (SYMM...TRSM) or of C (the rank-k kinds) */
    cublasOperation_t trans; /* the rank-k kinds, TRMM, TRSM */
    cublasDiagType_t diag;   /* TRMM, TRSM */
    int64_t m, n, k;
    const double *alpha, *beta;
    unsigned char alpha_real, beta_real;
    const double *A; int64_t lda;
    const double *B; int64_t ldb;
    double *C; int64_t ldc;
} dfs_l3_call;

/* y = alpha * op(A) * x + beta * y, of the element type `type` (op C: the conjugate transpose;
 * complex: A, x, y, alpha and beta interleaved, as dfs_gemm_call's). */
typedef struct {
    dfs_api api;
    cublasOperation_t trans;
    int64_t m, n;
    const double *alpha;
    const double *A; int64_t lda;
    const double *x; int64_t incx;
    const double *beta;
    double *y; int64_t incy;
    dfs_dtype type;
} dfs_gemv_call;

/* *result = x . y  (result is a host or device pointer according to ctx->pointer_mode; in host
 * mode the engine returns only when *result holds the value, as cuBLAS does).  Complex (type
 * DFS_C64: x, y and result interleaved, n and the increments in elements): sum conj(x_i) y_i
 * when conj (Zdotc), sum x_i y_i otherwise (Zdotu). */
typedef struct {
    dfs_api api;
    int64_t n;
    const double *x; int64_t incx;
    const double *y; int64_t incy;
    double *result;
    dfs_dtype type;
    int conj;
} dfs_dot_call;

typedef struct dfs_scratch dfs_scratch;

/* What an engine knows about the call's environment. */
typedef struct {
    cublasHandle_t handle;            /* the application's handle: read it, never change it */
    cudaStream_t stream;              /* the handle's stream: all work goes there */
    cublasPointerMode_t pointer_mode; /* of the handle at the time of the call */
    int device;                       /* CUDA device ordinal of the handle */
    const dfs_device *dev;            /* the device table's description of it (NULL: unknown) */
    dfs_scratch *scratch;             /* per-handle device workspace */
    const dfs_options *options;       /* engine options from the policy and the mode string */
} dfs_ctx;

/* What an engine computes beyond real GEMM, GEMV and DOT (dfs_engine.caps): the shim sends it
 * nothing else (a call it lacks the capability for runs natively, said once), but for SYRK,
 * SYRKX, SYR2K, SYMM, TRMM and TRSM (real, and complex with HERK, HERKX, HER2K, HEMM where the
 * engine has DFS_CAP_COMPLEX), which the shim computes with the GEMM of an engine that lacks
 * DFS_CAP_SYRK... (../shim/l3_mm.h: a GEMM per block of outputs, copies in between;
 * ../shim/l3_trsm.h: diagonal solves by a shared kernel, a GEMM update after each), and the
 * pointer-array batches (real, and complex with DFS_CAP_COMPLEX), which it computes with the
 * strided GEMM of an engine that lacks DFS_CAP_PTRARRAY (../shim/ptr_batch.h). */
enum {
    DFS_CAP_COMPLEX = 1, /* GEMM with type DFS_C64 */
    DFS_CAP_ZDOT = 2,    /* DOT with type DFS_C64 */
    DFS_CAP_ZGEMV = 4,   /* GEMV with type DFS_C64 */
    DFS_CAP_PTRARRAY = 8, /* GEMM of pointer-array batches (dfs_gemm_call.Aarray...); without
                           * it the shim gathers them into strided GEMMs (../shim/ptr_batch.h) */
    /* dfs_l3_call of these kinds, both types (an engine declines what it does not compute) */
    DFS_CAP_SYRK = 16,  /* SYRK, HERK, SYRKX, HERKX */
    DFS_CAP_SYR2K = 32, /* SYR2K, HER2K */
    DFS_CAP_SYMM = 64,  /* SYMM, HEMM */
    DFS_CAP_TRMM = 128,
    DFS_CAP_TRSM = 256,
    /* GEMM of a triangle of C (dfs_gemm_call.tri), which it declines (DFS_STATUS_DECLINED,
     * nothing written) where it cannot compute the triangle alone: the shim then computes the
     * call in panels (../shim/l3_mm.h) */
    DFS_CAP_TRIANGLE = 512
};

typedef struct dfs_engine {
    const char *name;
    const char *summary; /* one line for exblas-info */
    /* The options it takes, their values and defaults (core/types.h; every engine has one, the
     * table of an engine without options is empty).  config/ checks each option given in a
     * policy or mode string against it and reports, with one line, an unknown key or a value the
     * engine does not take (the option is then dropped); the engine reads its options through
     * dfs_option_int and dfs_option_word with the same table. */
    const dfs_option_table *options;
    /* Whether the engine can run on this device at all. */
    int (*can_run)(const dfs_device *dev);
    unsigned caps; /* DFS_CAP_* */
    /* GEMM of every element type in caps (real always). */
    cublasStatus_t (*gemm)(const dfs_ctx *ctx, const dfs_gemm_call *c);
    cublasStatus_t (*dgemv)(const dfs_ctx *ctx, const dfs_gemv_call *c);
    cublasStatus_t (*ddot)(const dfs_ctx *ctx, const dfs_dot_call *c);
    /* The Level-3 routines beside GEMM of the kinds in caps (DFS_CAP_SYRK...). */
    cublasStatus_t (*level3)(const dfs_ctx *ctx, const dfs_l3_call *c);
    /* Optional: 1 when the engine runs a GEMM of c's shape and type natively whatever the data
     * (its cost model finds native faster), with options o; exblas-info says so. */
    int (*gemm_prefers_native)(const dfs_device *dev, const dfs_gemm_call *c,
                               const dfs_options *o);
    /* The block size of the real TRSM the shim computes through this engine's GEMM
     * (../shim/l3_trsm.h): a constant of the engine, never tuned to the device (the results of a
     * reproducible engine depend on it); 0: DFS_TRSM_NB. */
    int trsm_nb;
    /* 1: the engine's TRSM contract is native FP64's, so the sweep may leave parts to cuBLAS's
     * TRSM: its leaves, and every part whose update GEMM gemm_prefers_native gives to native
     * (l3_trsm.h's ops->trsm).  0: every solve and GEMM the engine's or the shared kernels'. */
    int trsm_native_parts;
    /* The panels into which the shim cuts a triangle of output (SYRK, SYR2K, SYRKX and their
     * Hermitian forms) or a TRMM's blocks when it computes them through this engine's GEMM
     * (../shim/l3_mm.h): more panels compute fewer zeros and outputs of the other triangle,
     * but each is a GEMM that prepares its operands again; 0: DFS_L3_PANELS. */
    int l3_panels;
} dfs_engine;

/* The TRSM block size of an engine that names none (dfs_engine.trsm_nb). */
#define DFS_TRSM_NB 128
/* The Level-3 panels of an engine that names none (dfs_engine.l3_panels). */
#define DFS_L3_PANELS 8

/* The table (engines/registry.c).  Index 0 is always the native engine. */
extern const dfs_engine *const dfs_engines[];
extern const int dfs_engine_count;
/* Index of the engine with this name, or -1. */
int dfs_engine_find(const char *name);
/* The option table of engine (an index), or NULL when there is no such engine. */
const dfs_option_table *dfs_engine_option_table(int engine);

#endif
