/* zelem.h — element (r, q) of op(X) for a column-major complex matrix X stored as
 * cuDoubleComplex (interleaved re, im) with leading dimension ld: the CPU twins' complex GEMMs
 * (engines/repro/zhost.c, engines/dd/zhost.c) and the kernels that read complex operands
 * (engines/dd/zgemm.cuh, engines/zreal/kernels.cu).  op: 0 = N, 1 = T, 2 = C (conjugate
 * transpose). */
#ifndef DFS_ZELEM_H
#define DFS_ZELEM_H

#include "hd.h"

#include <stdint.h>

DFS_HD void dfs_z_op_elem(const double *X, int64_t ld, int op, int64_t r, int64_t q,
                                 double *re, double *im)
{
    const double *p = op ? X + 2 * (q + r * ld) : X + 2 * (r + q * ld);
    *re = p[0];
    *im = op == 2 ? -p[1] : p[1];
}

#endif
