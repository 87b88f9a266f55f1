/* l3_common.h — what the Level-3 GPU tests (level3, zlevel3, level3_trsm, zlevel3_trsm) share:
 * the handle and stream, the start with the legacy API and the mode's line, one call's pointer
 * mode and status, a CUDA graph's capture and replays, and small helpers. */
#ifndef GT_L3_COMMON_H
#define GT_L3_COMMON_H

#include "common.h"

#include <stdint.h>

/* the forms of each routine: _v2, _v2_64, the legacy API */
enum { F_V2, F_64, F_LEG, F_COUNT };
extern const char *const l3_fname[F_COUNT];

extern cublasHandle_t l3_h;
extern cudaStream_t l3_stream; /* non-blocking, for the graphs */

/* Creates the handle, starts the legacy API (cublasInit) and the stream, after printing
 * "test: EXBLAS_MODE=...: what". */
void l3_start(const char *test, const char *what);
/* Destroys the stream; gt_finish's status. */
int l3_finish(void);

/* The handle's pointer mode: device scalars (dev) or host ones. */
void l3_pointer_mode(int dev);
/* After a call that returned st: synchronizes; 1 when st is SUCCESS, else fails the case. */
int l3_call_ok(cublasStatus_t st);

/* A CUDA graph: l3_capture_begin puts the handle on l3_stream and begins capturing it;
 * l3_capture_end ends the capture into *graph and instantiates it (NULL on an error, the case
 * failed); l3_replay launches it and waits; l3_capture_free destroys what there is and gives the
 * handle its default stream back. */
void l3_capture_begin(void);
cudaGraphExec_t l3_capture_end(cudaGraph_t *graph);
void l3_replay(cudaGraphExec_t exec);
void l3_capture_free(cudaGraphExec_t exec, cudaGraph_t graph);

int l3_in_tri(int lower, int64_t i, int64_t j); /* (i, j) in the lower or upper triangle */
int l3_same(double a, double b);                /* the same bits */

#endif
