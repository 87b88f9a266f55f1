#!/bin/sh
# bench-plot.sh CSV OUTDIR [TITLE] — plots of an exblas-bench sweep (bench-report.sh writes the
# CSV: exblas-bench's columns, one header) with gnuplot (Debian: gnuplot-nox; a tool for reports,
# not a dependency of the libraries): OUTDIR/time.png (DGEMM median time against n, one line per
# mode, log-log), OUTDIR/speedup.png (native's time over each mode's, against n) and
# OUTDIR/error.png (the largest normwise error |c - exact| / (|A||B|)_ij against phi at the
# largest n, log scale, with native FP64's bound k u for that n).  Speed is read at the sweep's
# smallest phi.  TITLE (e.g. the GPU and the date) heads every plot.  Exit 77 without gnuplot.
set -eu
csv=$1 out=$2 title=${3:-}
command -v gnuplot >/dev/null 2>&1 || { echo "bench-plot: gnuplot not found" >&2; exit 77; }
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# columns by name from the header
col() { head -1 "$csv" | tr ',' '\n' | grep -nx "$1" | cut -d: -f1; }
c_r=$(col routine) c_mode=$(col mode) c_n=$(col n) c_ms=$(col median_ms) c_phi=$(col phi)
c_ne=$(col max_norm_err)
[ -n "$c_r" ] && [ -n "$c_ms" ] && [ -n "$c_phi" ] || { echo "bench-plot: $csv: not exblas-bench CSV" >&2; exit 2; }
rows() { grep -v '^#' "$csv" | tail -n +2 | awk -F, -v r="$c_r" '$r == "dgemm"'; }
phi0=$(rows | awk -F, -v p="$c_phi" '$p != "" {print $p}' | sort -g | head -1)
nmax=$(rows | awk -F, -v n="$c_n" '{print $n}' | sort -g | tail -1)
modes=$(rows | awk -F, -v m="$c_mode" '{print $m}' | awk '!seen[$0]++')
[ -n "$modes" ] || { echo "bench-plot: $csv: no dgemm rows" >&2; exit 2; }
# per mode: n and time at phi0; phi and normwise error at nmax
i=0
for m in $modes; do
    i=$((i + 1))
    rows | awk -F, -v mc="$c_mode" -v m="$m" -v pc="$c_phi" -v p="$phi0" -v nc="$c_n" -v t="$c_ms" \
        '$mc == m && $pc == p {print $nc, $t}' | sort -g >"$tmp/t$i"
    [ -n "$c_ne" ] && rows | awk -F, -v mc="$c_mode" -v m="$m" -v nc="$c_n" -v n="$nmax" \
        -v pc="$c_phi" -v e="$c_ne" '$mc == m && $nc == n && $pc != "" && $e != "" {print $pc, $e}' |
        sort -g >"$tmp/e$i"
    echo "$m" >"$tmp/name$i"
done
# speed-up against native (the mode named native or no-shim)
base=
for j in $(seq 1 $i); do
    case $(cat "$tmp/name$j") in native | no-shim) base=$j ;; esac
done
plots_t= plots_s= plots_e=
for j in $(seq 1 $i); do
    name=$(cat "$tmp/name$j")
    [ -s "$tmp/t$j" ] && plots_t="$plots_t${plots_t:+, }'$tmp/t$j' using 1:2 with linespoints title '$name'"
    if [ -n "$base" ] && [ -s "$tmp/t$j" ]; then
        join "$tmp/t$base" "$tmp/t$j" | awk '$3 > 0 {print $1, $2 / $3}' >"$tmp/s$j"
        [ -s "$tmp/s$j" ] && plots_s="$plots_s${plots_s:+, }'$tmp/s$j' using 1:2 with linespoints title '$name'"
    fi
    [ -s "$tmp/e$j" ] && plots_e="$plots_e${plots_e:+, }'$tmp/e$j' using 1:(\$2 > 0 ? \$2 : 1e-18) with linespoints title '$name'"
done
{
    echo "set terminal pngcairo size 900,600 font 'sans,11'"
    echo "set key outside right"
    echo "set grid"
    echo "set output '$out/time.png'"
    echo "set title 'DGEMM median time, phi = $phi0${title:+ - $title}' noenhanced"
    echo "set logscale xy"
    echo "set xlabel 'n (m = n = k)'"
    echo "set ylabel 'ms'"
    [ -n "$plots_t" ] && echo "plot $plots_t"
    if [ -n "$plots_s" ]; then
        echo "set output '$out/speedup.png'"
        echo "set title 'DGEMM speed-up over native FP64 (cuBLAS), phi = $phi0${title:+ - $title}' noenhanced"
        echo "unset logscale y"
        echo "set yrange [0:*]"
        echo "set ylabel 'native time / mode time'"
        echo "plot $plots_s, 1 with lines dashtype 2 lc rgb 'gray' title 'native'"
    fi
    if [ -n "$plots_e" ]; then
        echo "set output '$out/error.png'"
        echo "set title 'DGEMM max normwise error |c - exact| / (|A||B|)_ij, n = $nmax${title:+ - $title}' noenhanced"
        echo "unset logscale x"
        echo "set logscale y"
        echo "set format y '10^{%L}'"
        echo "set xlabel 'phi (data (U - 0.5) exp(phi N))'"
        echo "set yrange [*:*]"
        echo "set ylabel 'max normwise error (exact: drawn at 1e-18)'"
        echo "plot $plots_e, $nmax * 2**-53 with lines dashtype 2 lc rgb 'gray' title 'k u (native bound)'"
    fi
} >"$tmp/plot.gp"
gnuplot "$tmp/plot.gp"
ls "$out"/*.png
