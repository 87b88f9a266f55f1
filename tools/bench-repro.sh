#!/bin/sh
# bench-repro.sh BUILD_DIR — the measurements of the reproducible engine (issue 5) on a GPU
# machine: DDOT, DGEMV and DGEMM under EXBLAS_MODE=repro (and the ozaki variants) against cuBLAS
# alone (--no-shim), on data of exponent spread phi 0, 1 and 4.  CSV on stdout (exblas-bench's
# columns), one header.  A failing run prints a comment line and the script goes on.
set -u
B=${1:-build}/tools/exblas-bench
. "$(dirname "$0")/bench-lib.sh"
for phi in 0 1 4; do
    for mode in native repro; do
        bench $mode ddot 134217728 --phi $phi --reps 10
        bench $mode dgemv 16384 16384 --op N --phi $phi --reps 10
        bench $mode dgemv 16384 16384 --op T --phi $phi --reps 10
    done
done
for n in 4096 8192; do
    for phi in 0 1 4; do
        bench native dgemm $n $n $n --phi $phi --reps 5 --warmup 3
        bench repro dgemm $n $n $n --phi $phi --reps 5 --warmup 5
    done
done
# the paper's cheaper variants at n = 4096, phi = 1
bench ozaki:splits=4,sum=fixed dgemm 4096 4096 4096 --phi 1 --reps 5 --warmup 5
bench ozaki:splits=3,fast=1 dgemm 4096 4096 4096 --phi 1 --reps 5 --warmup 5
bench ozaki:splits=3 dgemm 4096 4096 4096 --phi 1 --reps 5 --warmup 5
