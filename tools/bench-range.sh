#!/bin/sh
# bench-range.sh BUILD_DIR — the measurements of issue 26 (range-proof Ozaki engines) on a GPU
# machine: DGEMM at n = $SIZES (default 2048 4096 8192) on data phi 0, 1, 2, 4, 6, 8, 'mixed'
# (1e+-300 columns with zero partners) and 'under' (products that underflow), in $MODES (default
# native fast int8 repro), each with --check $CHECK (default 1024) sampled outputs: the max_rel_err
# and max_norm_err columns against the correctly rounded product; then, unless NO_VEC=1, DDOT of
# 2^27 and DGEMV 16384^2 (N and T) in native and repro on phi 0, 2, 4, 8 and 'under'.
# GEMMUL8_SO=PATH adds GEMMul8's accurate mode on 14 and 16 moduli to the DGEMM runs (built
# outside this repository, bench-lib.sh).  REPS (default 3) timed runs after 2 warm-up runs (the
# engines that learn from earlier calls settle).  CSV on stdout, one header; a failing run prints
# a comment line and the script goes on.
set -u
B=${1:-build}/tools/exblas-bench
. "$(dirname "$0")/bench-lib.sh"
reps=${REPS:-3}
g8=
[ -n "${GEMMUL8_SO:-}" ] && g8="gemmul8:14 gemmul8:16"
for n in ${SIZES:-2048 4096 8192}; do
    for data in "--phi 0" "--phi 1" "--phi 2" "--phi 4" "--phi 6" "--phi 8" "--data mixed" \
        "--data under"; do
        for mode in ${MODES:-native fast int8 repro} $g8; do
            # shellcheck disable=SC2086
            bench "$mode" dgemm $n $n $n $data --reps $reps --warmup 2 --check ${CHECK:-1024}
        done
    done
done
[ "${NO_VEC:-0}" = 1 ] && exit 0
for data in "--phi 0" "--phi 2" "--phi 4" "--phi 8" "--data under"; do
    for mode in native repro; do
        # shellcheck disable=SC2086
        bench "$mode" ddot 134217728 $data --reps $reps --warmup 2
        bench "$mode" dgemv 16384 16384 --op N $data --reps $reps --warmup 2
        bench "$mode" dgemv 16384 16384 --op T $data --reps $reps --warmup 2
    done
done
