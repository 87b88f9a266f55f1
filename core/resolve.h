/* resolve.h — the one way dfshim reaches the real cuBLAS and the CUDA driver.
 *
 * Every function the shim or an engine calls in libcublas or libcuda is named once in the
 * tables below and resolved lazily, thread-safely and once per symbol: dlsym(RTLD_NEXT), then
 * the already-loaded object found with dl_iterate_phdr + dlopen(RTLD_NOLOAD), and only as a
 * last resort (libcublas only) dlopen of the library by SONAME (with a warning).  Calls made through DFS_REAL
 * never re-enter the shim's exported hooks.  Engines include this header and nothing else of
 * shim/. */
#ifndef DFS_RESOLVE_H
#define DFS_RESOLVE_H

#include <cublas.h> /* the legacy API's prototypes; it includes cublas_api.h (not cublas_v2.h) */
#include <cublasLt.h>
#include <cublas_api.h>
#include <cuda.h>

#include "l3_entries.h"

/* cuBLAS entry points the shim forwards to or calls (the prototype comes from cublas_api.h). */
#define DFS_CUBLAS_SYMBOLS(X)                                                                      \
    X(cublasDgemm_v2) X(cublasDgemm_v2_64) X(cublasDgemv_v2) X(cublasDgemv_v2_64)                  \
    X(cublasDdot_v2) X(cublasDdot_v2_64) X(cublasDgemmStridedBatched)                              \
    X(cublasDgemmStridedBatched_64) X(cublasGemmEx) X(cublasGemmEx_64)                             \
    X(cublasGemmStridedBatchedEx) X(cublasGemmStridedBatchedEx_64) X(cublasDestroy_v2)             \
    X(cublasGetStream_v2) X(cublasGetPointerMode_v2) X(cublasSetPointerMode_v2)                    \
    X(cublasGetMathMode) X(cublasGetVersion_v2) X(cublasCreate_v2) X(cublasSetStream_v2)           \
    X(cublasDgemm) X(cublasDgemv) X(cublasDdot) X(cublasGetError) X(cublasSetKernelStream)         \
    X(cublasShutdown) X(cublasZgemm_v2) X(cublasZgemm_v2_64) X(cublasZgemm3m) X(cublasZgemm3m_64)  \
    X(cublasZgemmStridedBatched) X(cublasZgemmStridedBatched_64) X(cublasZgemm)                    \
    X(cublasZdotc_v2) X(cublasZdotc_v2_64) X(cublasZdotu_v2) X(cublasZdotu_v2_64) X(cublasZdotc)   \
    X(cublasZdotu) X(cublasZgemv_v2) X(cublasZgemv_v2_64) X(cublasZgemv) X(cublasDgemmBatched)     \
    X(cublasDgemmBatched_64) X(cublasZgemmBatched) X(cublasZgemmBatched_64) X(cublasGemmBatchedEx) \
    X(cublasGemmBatchedEx_64) DFS_L3_ENTRIES(DFS_L3_SYMBOL, X)
/* the Level-3 table's names (l3_entries.h) as X(name) */
#define DFS_L3_SYMBOL(X, form, kind, name, T, I) X(name)

/* cuBLASLt entry points (libcublasLt), for the cublasLtMatmul hook. */
#define DFS_CUBLASLT_SYMBOLS(X)                                                                    \
    X(cublasLtMatmul) X(cublasLtMatmulDescGetAttribute) X(cublasLtMatrixLayoutGetAttribute)

/* CUDA driver entry points: (our name, exported symbol, fallback symbol for older drivers).
 * The driver API is used instead of cudart because an application may link cudart statically;
 * libcuda.so.1 is present in every process that uses a GPU. */
#define DFS_DRIVER_SYMBOLS(X)                                                                      \
    X(cuCtxGetDevice, "cuCtxGetDevice", NULL)                                                      \
    X(cuDeviceGetAttribute, "cuDeviceGetAttribute", NULL)                                          \
    X(cuDeviceGetName, "cuDeviceGetName", NULL)                                                    \
    X(cuEventCreate, "cuEventCreate", NULL)                                                        \
    X(cuEventRecord, "cuEventRecord", NULL)                                                        \
    X(cuEventQuery, "cuEventQuery", NULL)                                                          \
    X(cuEventSynchronize, "cuEventSynchronize", NULL)                                              \
    X(cuEventElapsedTime, "cuEventElapsedTime_v2", "cuEventElapsedTime")                           \
    X(cuEventDestroy, "cuEventDestroy_v2", "cuEventDestroy")                                       \
    X(cuStreamIsCapturing, "cuStreamIsCapturing", NULL)                                            \
    X(cuStreamWaitEvent, "cuStreamWaitEvent", NULL)                                                \
    X(cuStreamSynchronize, "cuStreamSynchronize", NULL)                                            \
    X(cuCtxGetCurrent, "cuCtxGetCurrent", NULL)                                                    \
    X(cuModuleLoadData, "cuModuleLoadData", NULL)                                                  \
    X(cuModuleGetFunction, "cuModuleGetFunction", NULL)                                            \
    X(cuFuncSetAttribute, "cuFuncSetAttribute", NULL)                                              \
    X(cuOccupancyMaxActiveBlocksPerMultiprocessor, "cuOccupancyMaxActiveBlocksPerMultiprocessor",  \
      NULL)                                                                                        \
    X(cuLaunchKernel, "cuLaunchKernel", NULL)                                                      \
    X(cuMemAllocAsync, "cuMemAllocAsync", NULL)                                                    \
    X(cuMemFreeAsync, "cuMemFreeAsync", NULL)                                                      \
    X(cuMemFree, "cuMemFree_v2", NULL)                                                             \
    X(cuMemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2", NULL)                                            \
    X(cuMemsetD32Async, "cuMemsetD32Async", NULL)                                              \
    X(cuMemHostAlloc, "cuMemHostAlloc", NULL)                                                      \
    X(cuMemFreeHost, "cuMemFreeHost", NULL)                                                        \
    X(cuCtxGetId, "cuCtxGetId", NULL)                                                              \
    X(cuMemcpy2DAsync, "cuMemcpy2DAsync_v2", NULL)                                                 \
    X(cuMemcpy3DAsync, "cuMemcpy3DAsync_v2", NULL)                                                 \
    X(cuThreadExchangeStreamCaptureMode, "cuThreadExchangeStreamCaptureMode", NULL)

typedef enum {
#define DFS_X_CUBLAS(n) DFS_SYM_##n,
#define DFS_X_DRIVER(n, s, f) DFS_SYM_##n,
    DFS_CUBLAS_SYMBOLS(DFS_X_CUBLAS) DFS_CUBLASLT_SYMBOLS(DFS_X_CUBLAS)
    DFS_DRIVER_SYMBOLS(DFS_X_DRIVER)
#undef DFS_X_CUBLAS
#undef DFS_X_DRIVER
    DFS_SYM_COUNT
} dfs_sym;

/* Driver prototypes, spelled out because cuda.h maps some names to _v2/_ptsz macros. */
typedef CUresult (*dfs_fn_cuCtxGetDevice)(CUdevice *);
typedef CUresult (*dfs_fn_cuDeviceGetAttribute)(int *, CUdevice_attribute, CUdevice);
typedef CUresult (*dfs_fn_cuDeviceGetName)(char *, int, CUdevice);
typedef CUresult (*dfs_fn_cuEventCreate)(CUevent *, unsigned int);
typedef CUresult (*dfs_fn_cuEventRecord)(CUevent, CUstream);
typedef CUresult (*dfs_fn_cuEventQuery)(CUevent);
typedef CUresult (*dfs_fn_cuEventSynchronize)(CUevent);
typedef CUresult (*dfs_fn_cuEventElapsedTime)(float *, CUevent, CUevent);
typedef CUresult (*dfs_fn_cuEventDestroy)(CUevent);
typedef CUresult (*dfs_fn_cuStreamIsCapturing)(CUstream, CUstreamCaptureStatus *);
typedef CUresult (*dfs_fn_cuStreamWaitEvent)(CUstream, CUevent, unsigned int);
typedef CUresult (*dfs_fn_cuStreamSynchronize)(CUstream);
typedef CUresult (*dfs_fn_cuCtxGetCurrent)(CUcontext *);
typedef CUresult (*dfs_fn_cuModuleLoadData)(CUmodule *, const void *);
typedef CUresult (*dfs_fn_cuModuleGetFunction)(CUfunction *, CUmodule, const char *);
typedef CUresult (*dfs_fn_cuFuncSetAttribute)(CUfunction, CUfunction_attribute, int);
typedef CUresult (*dfs_fn_cuOccupancyMaxActiveBlocksPerMultiprocessor)(int *, CUfunction, int,
                                                                       size_t);
typedef CUresult (*dfs_fn_cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned,
                                          unsigned, unsigned, unsigned, CUstream, void **, void **);
typedef CUresult (*dfs_fn_cuMemAllocAsync)(CUdeviceptr *, size_t, CUstream);
typedef CUresult (*dfs_fn_cuMemFreeAsync)(CUdeviceptr, CUstream);
typedef CUresult (*dfs_fn_cuMemFree)(CUdeviceptr);
typedef CUresult (*dfs_fn_cuMemcpyDtoHAsync)(void *, CUdeviceptr, size_t, CUstream);
typedef CUresult (*dfs_fn_cuMemsetD32Async)(CUdeviceptr, unsigned int, size_t, CUstream);
typedef CUresult (*dfs_fn_cuMemHostAlloc)(void **, size_t, unsigned int);
typedef CUresult (*dfs_fn_cuMemFreeHost)(void *);
typedef CUresult (*dfs_fn_cuThreadExchangeStreamCaptureMode)(CUstreamCaptureMode *);
typedef CUresult (*dfs_fn_cuCtxGetId)(CUcontext, unsigned long long *);
typedef CUresult (*dfs_fn_cuMemcpy2DAsync)(const CUDA_MEMCPY2D *, CUstream);
typedef CUresult (*dfs_fn_cuMemcpy3DAsync)(const CUDA_MEMCPY3D *, CUstream);

typedef void (*dfs_fn)(void);

/* The real function, or NULL when it cannot be found (never aborts).  cuBLASLt's come from
 * libcublasLt, never loaded by dfshim itself: a caller of cublasLtMatmul has it loaded. */
dfs_fn dfs_resolve(dfs_sym sym);

/* DFS_REAL(cublasDgemm_v2)(...): the real cuBLAS function, typed from cublas_api.h.
 * DFS_DRV(cuEventRecord)(...): the real driver function.  Both may be NULL: check first. */
#define DFS_REAL(name) ((__typeof__(&name))dfs_resolve(DFS_SYM_##name))
#define DFS_DRV(name) ((dfs_fn_##name)dfs_resolve(DFS_SYM_##name))

/* Path of the object the cuBLAS symbols were resolved from ("" before the first resolution). */
const char *dfs_resolve_cublas_path(void);

#endif
