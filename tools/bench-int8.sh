#!/bin/sh
# bench-int8.sh BUILD_DIR — the measurements of the integer tensor-core engine (issue 6) on a GPU
# machine: DGEMM under EXBLAS_MODE=int8 against cuBLAS alone (--no-shim) at n = 4096, 8192 and
# 16384 on data of exponent spread phi 0.5 and 2, then the reproducible engine with its products
# on int8 (EXBLAS_MODE=repro:products=int8) against plain repro at n = 4096 and 8192, phi 0 and 1.
# Every run checks 256 sampled entries of C against the correctly rounded product (--check 256:
# the max_rel_err column).  EXTRA_MODES="MODE ..." (modes separated by spaces) adds those modes
# to the first part's runs; FEWER=1 adds the int8 engine with one modulus fewer than its default
# (dfs_crt_fast_moduli: 15) and one more; GEMMUL8_SO=PATH (GEMMul8's libgemmul8.so, built
# outside this repository) adds GEMMul8's accurate mode on 14 and 16 moduli on the same data;
# NO_REPRO=1 leaves out the second part; SIZES="N ..." replaces the first part's sizes.  CSV on
# stdout (exblas-bench's columns), one header.  A failing run prints a comment line and the
# script goes on.
set -u
B=${1:-build}/tools/exblas-bench
. "$(dirname "$0")/bench-lib.sh"
for n in ${SIZES:-4096 8192 16384}; do
    around=
    [ "${FEWER:-0}" = 1 ] && around="int8:moduli=14 int8:moduli=16"
    g8=
    [ -n "${GEMMUL8_SO:-}" ] && g8="gemmul8:14 gemmul8:16"
    for phi in 0.5 2; do
        for mode in native int8 $around $g8 ${EXTRA_MODES:-}; do
            bench "$mode" dgemm $n $n $n --phi $phi --reps 5 --warmup 3 --check 256
        done
    done
done
[ "${NO_REPRO:-0}" = 1 ] && exit 0
# the reproducible engine, its products on int8 or not (5 warm-up runs, as bench-repro.sh gives
# repro)
for n in 4096 8192; do
    for phi in 0 1; do
        for mode in repro:products=int8 repro; do
            bench "$mode" dgemm $n $n $n --phi $phi --reps 5 --warmup 5 --check 256
        done
    done
done
