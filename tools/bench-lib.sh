# bench-lib.sh — sourced by bench-repro.sh and bench-int8.sh: bench MODE ARGS... runs
# exblas-bench ($B) under EXBLAS_MODE=MODE (native: cuBLAS alone, --no-shim) and prints its CSV,
# the header only the first time ($hdr = 1); a failing run prints a comment line instead.
hdr=1
bench() { # MODE ARGS...
    mode=$1; shift
    if [ "$mode" = native ]; then
        out=$("$B" "$@" --no-shim 2>&1) || { echo "# failed: $mode $*: $out"; return; }
    else
        out=$(EXBLAS_MODE=$mode "$B" "$@" 2>&1) || { echo "# failed: $mode $*: $out"; return; }
    fi
    if [ $hdr = 1 ]; then echo "$out" | head -1; hdr=0; fi
    echo "$out" | tail -n +2
}
