# bench-lib.sh — sourced by bench-repro.sh and bench-int8.sh: bench MODE ARGS... runs
# exblas-bench ($B) under EXBLAS_MODE=MODE and prints its CSV, the header only the first time
# ($hdr = 1); a failing run prints a comment line instead.  MODE native: cuBLAS alone
# (--no-shim).  MODE gemmul8:N or gemmul8-fast:N: cuBLAS alone with GEMMul8's hook library
# ($GEMMUL8_SO, built outside this repository) preloaded, its DGEMM and ZGEMM on N moduli in its
# accurate or fast mode; the mode column then names it.
hdr=1
bench() { # MODE ARGS...
    mode=$1; shift
    case $mode in
    native)
        out=$("$B" "$@" --no-shim 2>&1) || { echo "# failed: $mode $*: $out"; return; } ;;
    gemmul8:* | gemmul8-fast:*)
        fast=0; [ "${mode%%:*}" = gemmul8-fast ] && fast=1
        out=$(LD_PRELOAD=$GEMMUL8_SO GEMMUL8_NUM_MOD_D=${mode#*:} GEMMUL8_FASTMODE_D=$fast \
              GEMMUL8_NUM_MOD_Z=${mode#*:} GEMMUL8_FASTMODE_Z=$fast \
              "$B" "$@" --no-shim 2>&1) || { echo "# failed: $mode $*: $out"; return; }
        out=$(echo "$out" | sed "/^routine,/!s/,no-shim,/,$mode,/") ;;
    *)
        out=$(EXBLAS_MODE=$mode "$B" "$@" 2>&1) || { echo "# failed: $mode $*: $out"; return; } ;;
    esac
    # the header by its content: a line the run printed before it (a preloaded library's
    # message, a loader's error) is kept as a comment, not taken for the header
    if [ $hdr = 1 ]; then echo "$out" | grep -m1 '^routine,'; hdr=0; fi
    echo "$out" | grep -v '^routine,' | sed '/^[a-z0-9]*,/!s/^/# /'
}
