/* l3_gemm.h — the Level-3 routines of l3_mm.h and TRSM, and the pointer-array GEMM batches of
 * ptr_batch.h, computed by an engine's GEMM (l3_gemm.c). */
#ifndef DFS_L3_GEMM_H
#define DFS_L3_GEMM_H

#include "../engines/engine.h"

/* D and Z SYRK, SYRKX, SYR2K, SYMM and TRMM, Z HERK, HERKX, HER2K (real alpha) and HEMM (any
 * form) through engine e's GEMM (complex: its complex GEMM, e needing DFS_CAP_COMPLEX), and D and
 * Z TRSM as the blocked sweep of l3_trsm.h in blocks of e->trsm_nb (DFS_TRSM_NB when it names
 * none), on x's stream with no host synchronisation (graph capture included: the scratch is a
 * stream-ordered temporary).  DFS_STATUS_DECLINED with C (TRSM: B) untouched when the record is
 * none of these, e has no GEMM (or, for complex data, no DFS_CAP_COMPLEX), the scratch or the
 * Level-3 kernels cannot be had, or e's GEMM declines (or prefers native for) the call's first
 * GEMM; a later GEMM it declines runs on cuBLAS's DGEMM or ZGEMM (said once per engine).
 * Otherwise SUCCESS, or the failure status of a GEMM or copy. */
cublasStatus_t dfs_l3_through_gemm(const dfs_engine *e, const dfs_ctx *x, const dfs_l3_call *c);

/* A pointer-array batch (c->Carray set) through engine e's strided GEMM (complex: e needing
 * DFS_CAP_COMPLEX), group by group in scratch of at most DFS_PTR_BATCH_GROUP_BYTES from the
 * stream-ordered temporaries, the gathers and scatters by the Level-3 kernels (ptr_batch.h), on
 * x's stream with no host synchronisation (graph capture included).  DFS_STATUS_DECLINED (or the
 * engine's DFS_STATUS_PREFER_NATIVE) with C untouched when e has no such GEMM, the scratch or
 * the kernels cannot be had, or e declines the first group; a later group it declines runs on
 * cuBLAS's strided GEMM (said once per engine).  Otherwise SUCCESS, or a failure status. */
cublasStatus_t dfs_ptr_batch_through_gemm(const dfs_engine *e, const dfs_ctx *x,
                                          const dfs_gemm_call *c);

#endif
