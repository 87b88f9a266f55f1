/* lt.c — the cublasLtMatmul hook: cuBLASLt's FP64 matrix products (JAX/XLA's, PyTorch's) reach
 * the engines too.
 *
 * The call's descriptors are read with the real cublasLt*GetAttribute functions; ltplan.c says
 * whether the call is a plain FP64 (or complex FP64) GEMM and as what column-major GEMM.  Those
 * calls are dispatched like cublasDgemm (cublasZgemm) on an internal cuBLAS handle of the
 * current context (internal.h),
 * its stream and pointer mode set to the call's; when an engine computes one and C is not D, C
 * is first copied into D on the stream.  Natively (by rule, on an engine's decline, for every
 * other call) the original call goes to the real cublasLtMatmul untouched, with its algorithm
 * and workspace.  Calls made from inside libcublas or libcublasLt (cuBLAS's own routines built
 * on cuBLASLt), or while an engine runs, are forwarded at once. */
#include "check.h"
#include "dispatch.h"
#include "internal.h"
#include "../core/log.h"
#include "ltplan.h"
#include "../core/resolve.h"
#include "state.h"

#include <dlfcn.h>
#include <string.h>

#define DFS_EXPORT __attribute__((visibility("default")))

typedef struct {
    cublasLtHandle_t lt;
    cublasLtMatmulDesc_t desc;
    const void *alpha, *A;
    cublasLtMatrixLayout_t Adesc;
    const void *B;
    cublasLtMatrixLayout_t Bdesc;
    const void *beta, *C;
    cublasLtMatrixLayout_t Cdesc;
    void *D;
    cublasLtMatrixLayout_t Ddesc;
    const cublasLtMatmulAlgo_t *algo;
    void *workspace;
    size_t workspace_size;
    cudaStream_t stream;
    dfs_lt_plan plan;
} lt_call;

static cublasStatus_t forward(void *arg)
{
    const lt_call *c = arg;
    if (!DFS_REAL(cublasLtMatmul))
        return CUBLAS_STATUS_NOT_INITIALIZED;
    return DFS_REAL(cublasLtMatmul)(c->lt, c->desc, c->alpha, c->A, c->Adesc, c->B, c->Bdesc,
                                    c->beta, c->C, c->Cdesc, c->D, c->Ddesc, c->algo, c->workspace,
                                    c->workspace_size, c->stream);
}

/* C into D (their storage, column-major c_rows x c_cols, each batch), before an engine computes
 * D = alpha op(A) op(B) + beta D. */
static cublasStatus_t copy_c(void *arg, cudaStream_t stream)
{
    const lt_call *c = arg;
    const dfs_lt_plan *p = &c->plan;
    if (!p->copy_c || !c->C)
        return CUBLAS_STATUS_SUCCESS;
    if (!DFS_DRV(cuMemcpy2DAsync) || !DFS_DRV(cuMemcpy3DAsync))
        return CUBLAS_STATUS_NOT_SUPPORTED;
    const size_t e = (p->complex ? 2 : 1) * sizeof(double);
    const int64_t src_h = p->sC / p->ldc, dst_h = p->sD / p->ldd;
    if (p->batch > 1 && p->sC % p->ldc == 0 && p->sD % p->ldd == 0 && src_h >= p->c_cols &&
        dst_h >= p->c_cols) {
        CUDA_MEMCPY3D m = {
            .srcMemoryType = CU_MEMORYTYPE_UNIFIED, .srcDevice = (CUdeviceptr)c->C,
            .srcPitch = (size_t)p->ldc * e, .srcHeight = (size_t)src_h,
            .dstMemoryType = CU_MEMORYTYPE_UNIFIED, .dstDevice = (CUdeviceptr)c->D,
            .dstPitch = (size_t)p->ldd * e, .dstHeight = (size_t)dst_h,
            .WidthInBytes = (size_t)p->c_rows * e, .Height = (size_t)p->c_cols,
            .Depth = (size_t)p->batch};
        return DFS_DRV(cuMemcpy3DAsync)(&m, (CUstream)stream) == CUDA_SUCCESS
                   ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_EXECUTION_FAILED;
    }
    for (int64_t i = 0; i < p->batch; i++) {
        CUDA_MEMCPY2D m = {
            .srcMemoryType = CU_MEMORYTYPE_UNIFIED,
            .srcDevice = (CUdeviceptr)((const char *)c->C + (size_t)(i * p->sC) * e),
            .srcPitch = (size_t)p->ldc * e,
            .dstMemoryType = CU_MEMORYTYPE_UNIFIED,
            .dstDevice = (CUdeviceptr)((char *)c->D + (size_t)(i * p->sD) * e),
            .dstPitch = (size_t)p->ldd * e,
            .WidthInBytes = (size_t)p->c_rows * e, .Height = (size_t)p->c_cols};
        if (DFS_DRV(cuMemcpy2DAsync)(&m, (CUstream)stream) != CUDA_SUCCESS)
            return CUBLAS_STATUS_EXECUTION_FAILED;
    }
    return CUBLAS_STATUS_SUCCESS;
}

/* Whether the caller's code lies in libcublas or libcublasLt (one answer cached per thread). */
static int from_cublas(const void *caller)
{
    static _Thread_local const void *last;
    static _Thread_local int verdict;
    if (caller == last)
        return verdict;
    Dl_info info;
    int v = 0;
    if (dladdr(caller, &info) && info.dli_fname) {
        const char *base = strrchr(info.dli_fname, '/');
        base = base ? base + 1 : info.dli_fname;
        v = strncmp(base, "libcublas", 9) == 0;
    }
    last = caller;
    verdict = v;
    return v;
}

/* ---- reading the descriptors ---- */

typedef cublasStatus_t (*getter)(const void *obj, int attr, void *buf, size_t size, size_t *written);

static cublasStatus_t get_desc(const void *obj, int attr, void *buf, size_t size, size_t *written)
{
    return DFS_REAL(cublasLtMatmulDescGetAttribute)((cublasLtMatmulDesc_t)obj,
                                                    (cublasLtMatmulDescAttributes_t)attr, buf,
                                                    size, written);
}

static cublasStatus_t get_layout(const void *obj, int attr, void *buf, size_t size,
                                 size_t *written)
{
    return DFS_REAL(cublasLtMatrixLayoutGetAttribute)((cublasLtMatrixLayout_t)obj,
                                                      (cublasLtMatrixLayoutAttribute_t)attr, buf,
                                                      size, written);
}

/* Reads attribute attr, of exactly `size` bytes, into out.  An attribute this cuBLASLt does not
 * know reads as zero when `optional` (its default), else fails. */
static int read_attr(getter get, const void *obj, int attr, void *out, size_t size, int optional)
{
    size_t need = 0;
    if (get(obj, attr, NULL, 0, &need) != CUBLAS_STATUS_SUCCESS) {
        memset(out, 0, size);
        return optional;
    }
    size_t written = 0;
    return need == size && get(obj, attr, out, size, &written) == CUBLAS_STATUS_SUCCESS &&
           written == size;
}

/* Whether attr holds anything but zero (its default; absent counts as zero). */
static int attr_set(const void *desc, int attr)
{
    size_t need = 0, written = 0;
    unsigned char buf[32] = {0};
    if (get_desc(desc, attr, NULL, 0, &need) != CUBLAS_STATUS_SUCCESS)
        return 0;
    if (need > sizeof buf || get_desc(desc, attr, buf, need, &written) != CUBLAS_STATUS_SUCCESS)
        return 1;
    for (size_t i = 0; i < need; i++)
        if (buf[i])
            return 1;
    return 0;
}

static int read_desc(cublasLtMatmulDesc_t desc, dfs_lt_desc *d)
{
    static const int extras[] = {
        CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, CUBLASLT_MATMUL_DESC_B_SCALE_POINTER,
        CUBLASLT_MATMUL_DESC_C_SCALE_POINTER, CUBLASLT_MATMUL_DESC_D_SCALE_POINTER,
        CUBLASLT_MATMUL_DESC_AMAX_D_POINTER, CUBLASLT_MATMUL_DESC_FAST_ACCUM,
        CUBLASLT_MATMUL_DESC_A_SCALE_MODE, CUBLASLT_MATMUL_DESC_B_SCALE_MODE,
        CUBLASLT_MATMUL_DESC_C_SCALE_MODE, CUBLASLT_MATMUL_DESC_D_SCALE_MODE,
        CUBLASLT_MATMUL_DESC_D_OUT_SCALE_POINTER, CUBLASLT_MATMUL_DESC_D_OUT_SCALE_MODE,
        CUBLASLT_MATMUL_DESC_EMULATION_DESCRIPTOR};
    const void *o = desc;
    if (!read_attr(get_desc, o, CUBLASLT_MATMUL_DESC_COMPUTE_TYPE, &d->compute, 4, 0) ||
        !read_attr(get_desc, o, CUBLASLT_MATMUL_DESC_SCALE_TYPE, &d->scale_type, 4, 0) ||
        !read_attr(get_desc, o, CUBLASLT_MATMUL_DESC_POINTER_MODE, &d->pointer_mode, 4, 0) ||
        !read_attr(get_desc, o, CUBLASLT_MATMUL_DESC_TRANSA, &d->transa, 4, 0) ||
        !read_attr(get_desc, o, CUBLASLT_MATMUL_DESC_TRANSB, &d->transb, 4, 0) ||
        !read_attr(get_desc, o, CUBLASLT_MATMUL_DESC_TRANSC, &d->transc, 4, 0) ||
        !read_attr(get_desc, o, CUBLASLT_MATMUL_DESC_FILL_MODE, &d->fill, 4, 0) ||
        !read_attr(get_desc, o, CUBLASLT_MATMUL_DESC_EPILOGUE, &d->epilogue, 4, 0))
        return 0;
    d->extras = 0;
    for (size_t i = 0; i < sizeof extras / sizeof extras[0] && !d->extras; i++)
        d->extras = attr_set(o, extras[i]);
    return 1;
}

static int read_layout(cublasLtMatrixLayout_t layout, dfs_lt_layout *l)
{
    const void *o = layout;
    return read_attr(get_layout, o, CUBLASLT_MATRIX_LAYOUT_TYPE, &l->type, 4, 0) &&
           read_attr(get_layout, o, CUBLASLT_MATRIX_LAYOUT_ORDER, &l->order, 4, 0) &&
           read_attr(get_layout, o, CUBLASLT_MATRIX_LAYOUT_ROWS, &l->rows, 8, 0) &&
           read_attr(get_layout, o, CUBLASLT_MATRIX_LAYOUT_COLS, &l->cols, 8, 0) &&
           read_attr(get_layout, o, CUBLASLT_MATRIX_LAYOUT_LD, &l->ld, 8, 0) &&
           read_attr(get_layout, o, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &l->batch, 4, 0) &&
           read_attr(get_layout, o, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &l->stride, 8,
                     0) &&
           read_attr(get_layout, o, CUBLASLT_MATRIX_LAYOUT_PLANE_OFFSET, &l->plane_offset, 8, 1) &&
           read_attr(get_layout, o, CUBLASLT_MATRIX_LAYOUT_BATCH_MODE, &l->batch_mode, 4, 1);
}

/* Why the shim does not compute this call (NULL: it may). */
static const char *plan(lt_call *c, dfs_lt_desc *d)
{
    if (!DFS_REAL(cublasLtMatmulDescGetAttribute) || !DFS_REAL(cublasLtMatrixLayoutGetAttribute))
        return "cuBLASLt's attribute functions are missing";
    if (!c->desc || !c->Adesc || !c->Bdesc || !c->Cdesc || !c->Ddesc || !read_desc(c->desc, d))
        return "a descriptor that cannot be read";
    dfs_lt_layout l[4];
    const cublasLtMatrixLayout_t ls[4] = {c->Adesc, c->Bdesc, c->Cdesc, c->Ddesc};
    for (int i = 0; i < 4; i++)
        if (!read_layout(ls[i], &l[i]))
            return "a layout that cannot be read";
    const double *hb = d->pointer_mode == CUBLASLT_POINTER_MODE_HOST ? c->beta : NULL;
    const int host_beta_zero =
        hb && hb[0] == 0.0 && (d->scale_type != CUDA_C_64F || hb[1] == 0.0);
    if (d->pointer_mode == CUBLASLT_POINTER_MODE_HOST && (!c->alpha || !c->beta))
        return "a NULL alpha or beta";
    return dfs_lt_plan_make(d, l, c->C == c->D, host_beta_zero, &c->plan);
}

/* Computes the planned call through the dispatcher on the internal handle. */
static cublasStatus_t run_planned(lt_call *c, const dfs_lt_desc *d)
{
    const dfs_lt_plan *p = &c->plan;
    void *token;
    cublasHandle_t h = dfs_internal_acquire(DFS_INTERNAL_LT, c->stream,
                                            d->pointer_mode == CUBLASLT_POINTER_MODE_DEVICE
                                                ? CUBLAS_POINTER_MODE_DEVICE
                                                : CUBLAS_POINTER_MODE_HOST,
                                            &token);
    if (!h) {
        dfs_log_once(DFS_LOG_WARN, "lt:internal", "no internal cuBLAS handle for this context: "
                     "cublasLtMatmul runs natively (said once)");
        return forward(c);
    }
    const double *first = p->swap ? c->B : c->A, *second = p->swap ? c->A : c->B;
    dfs_gemm_call g = {DFS_API_LT_MATMUL, p->transa, p->transb, p->m, p->n, p->k,
                       c->alpha, first, p->lda, p->sA, second, p->ldb, p->sB,
                       c->beta, c->D, p->ldd, p->sD, p->batch, CUBLAS_GEMM_DEFAULT,
                       p->complex ? DFS_C64 : DFS_R64, NULL, NULL, NULL, DFS_TRI_ALL};
    dfs_args a = dfs_check_gemm(h, 0, p->transa, p->transb, p->m, p->n, p->k, p->lda, p->ldb,
                                p->ldd, p->batch, CUBLAS_GEMM_DEFAULT, NULL);
    const dfs_foreign f = {forward, copy_c, c};
    const cublasStatus_t st = dfs_dispatch_gemm_foreign(h, &g, a, &f);
    dfs_internal_release(token);
    return st;
}

DFS_EXPORT cublasStatus_t cublasLtMatmul(cublasLtHandle_t lightHandle,
                                         cublasLtMatmulDesc_t computeDesc, const void *alpha,
                                         const void *A, cublasLtMatrixLayout_t Adesc,
                                         const void *B, cublasLtMatrixLayout_t Bdesc,
                                         const void *beta, const void *C,
                                         cublasLtMatrixLayout_t Cdesc, void *D,
                                         cublasLtMatrixLayout_t Ddesc,
                                         const cublasLtMatmulAlgo_t *algo, void *workspace,
                                         size_t workspaceSizeInBytes, cudaStream_t stream)
{
    lt_call c = {lightHandle, computeDesc, alpha, A, Adesc, B, Bdesc, beta, C, Cdesc, D, Ddesc,
                 algo, workspace, workspaceSizeInBytes, stream, {0}};
    if (dfs_dispatch_nested() || from_cublas(__builtin_return_address(0)))
        return forward(&c);
    const dfs_config *cfg = dfs_config_current();
    const int trace = dfs_log_on(DFS_LOG_TRACE);
    if (!cfg || (dfs_config_all_native(cfg) && !dfs_timing_enabled() && !trace))
        return forward(&c);
    dfs_lt_desc d = {0};
    const char *why = plan(&c, &d);
    if (!why)
        return run_planned(&c, &d);
    cublasStatus_t st = forward(&c);
    if (d.compute == CUBLAS_COMPUTE_64F && !dfs_config_all_native(cfg))
        dfs_log_once(DFS_LOG_INFO, why, "an FP64 (or complex FP64) cublasLtMatmul with %s runs "
                     "natively (said once per reason)", why);
    if (trace)
        dfs_log(DFS_LOG_TRACE, "cublasLtMatmul -> forwarded (%s) status=%d", why, (int)st);
    return st;
}
