#!/bin/sh
# bench-df.sh BUILD_DIR — the measurements of the DF engine (issue 4) on a GPU machine: DGEMM
# n = 4096, 8192 and 16384 under cuBLAS alone (--no-shim) and EXBLAS_MODE=df with each scheme
# (paper: 16 operations per multiply-add, fused: 15, lazy: 12 + 3/8, accurate: 29), then DDOT and
# DGEMV N / T
# against cuBLAS (memory-bound: the gbps column; lazy sums them as fused does).  The fraction of the roofline is not computed
# here: it is gflops / (SMs x 128 lanes x clock x 2 / ops), with the clock nvidia-smi reads during
# the run.  SIZES="N ..." replaces the DGEMM sizes; NO_VEC=1 leaves out DDOT and DGEMV.  CSV on
# stdout (exblas-bench's columns), one header.  A failing run prints a comment line and the
# script goes on.
set -u
B=${1:-build}/tools/exblas-bench
. "$(dirname "$0")/bench-lib.sh"
for n in ${SIZES:-4096 8192 16384}; do
    for mode in native df:scheme=paper df:scheme=fused df:scheme=lazy df:scheme=accurate; do
        bench "$mode" dgemm $n $n $n --reps 3 --warmup 2
    done
done
[ "${NO_VEC:-0}" = 1 ] && exit 0
for mode in native df:scheme=fused df:scheme=accurate; do
    bench "$mode" ddot 134217728 --reps 20
    bench "$mode" dgemv 16384 16384 --op N --reps 20
    bench "$mode" dgemv 16384 16384 --op T --reps 20
done
