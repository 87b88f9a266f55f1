#!/usr/bin/env bash
# bench_plot.sh BENCH_PLOT — tools/bench-plot.sh draws the three plots of a sample sweep
# (bench-sample.csv), and refuses what is not exblas-bench's CSV.  77 without gnuplot.
set -u
plot=$1
command -v gnuplot >/dev/null 2>&1 || { echo "no gnuplot: skipped"; exit 77; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
sh "$plot" "$(dirname "$0")/bench-sample.csv" "$dir/out" "sample" >/dev/null || { echo "FAIL: bench-plot.sh failed"; exit 1; }
for f in time speedup error; do
    [ -s "$dir/out/$f.png" ] || { echo "FAIL: no $f.png"; exit 1; }
    head -c 8 "$dir/out/$f.png" | od -An -c | grep -q "P   N   G" || { echo "FAIL: $f.png is not a PNG"; exit 1; }
done
printf 'a,b\n1,2\n' >"$dir/bad.csv"
if sh "$plot" "$dir/bad.csv" "$dir/bad" >/dev/null 2>&1; then echo "FAIL: a foreign CSV was plotted"; exit 1; fi
echo "bench-plot: three plots of the sample; a foreign CSV refused"
