/* hd.h — one macro for functions shared by host C and CUDA device code.
 *
 * DFS_HD marks a small function that both compilers see in full: static __host__ __device__
 * __forceinline__ under nvcc, static inline in host C.  The arithmetic headers (eft.h, df.h,
 * xacc.h, fpe.h) are built on it so that the CPU implementations and the kernels run the same
 * code. */
#ifndef DFS_HD_H
#define DFS_HD_H

#if defined(__CUDACC__)
#define DFS_HD static __host__ __device__ __forceinline__
/* A loop the device compiler must keep rolled (long, cold loops that would only cost registers) */
#define DFS_ROLLED _Pragma("unroll 1")
/* A short loop over a small array the device compiler must unroll (so the array stays in
 * registers: its indices become constants) */
#define DFS_UNROLLED _Pragma("unroll")
#else
#define DFS_HD static inline
#define DFS_ROLLED
#define DFS_UNROLLED
#endif

#endif
