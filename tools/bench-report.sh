#!/bin/sh
# bench-report.sh BUILD_DIR OUTDIR — one command for a report of the current GPU: a sweep of
# DGEMM with exblas-bench over $MODES (default: native fast int8 repro df dd) x n in $SIZES
# (default 1024 2048 4096 8192) x phi in $PHIS (default 0 1 2 4 8), each with --check $CHECK
# (default 256) sampled outputs against the correctly rounded product, into OUTDIR/bench.csv
# (OUTDIR/gpu.txt: the GPU, the driver and the date), then the plots of bench-plot.sh (time,
# speed-up over native, normwise error against phi) in OUTDIR.  REPS timed runs (default 3)
# after 2 warm-up runs.  Plotting needs gnuplot (Debian: gnuplot-nox), not the GPU machine: the
# CSV can be plotted anywhere with bench-plot.sh.
set -u
B=${1:-build}/tools/exblas-bench
out=${2:-bench-report}
mkdir -p "$out"
. "$(dirname "$0")/bench-lib.sh"
title=$( (nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1) || true)
title="${title:-unknown GPU}, $(date -u +%Y-%m-%d)"
{ echo "$title"; nvidia-smi --query-gpu=name,driver_version --format=csv 2>/dev/null || true; } >"$out/gpu.txt"
for n in ${SIZES:-1024 2048 4096 8192}; do
    for phi in ${PHIS:-0 1 2 4 8}; do
        for mode in ${MODES:-native fast int8 repro df dd}; do
            bench "$mode" dgemm $n $n $n --phi $phi --reps ${REPS:-3} --warmup 2 --check ${CHECK:-256}
        done
    done
done >"$out/bench.csv"
sh "$(dirname "$0")/bench-plot.sh" "$out/bench.csv" "$out" "$title" || echo "bench-report: no plots (gnuplot missing?); the CSV is $out/bench.csv" >&2
