#!/bin/bash
# run_program.sh [--gpu] PROGRAM PATTERN... — runs PROGRAM (which knows nothing of dfshim;
# LD_PRELOAD and EXBLAS_MODE come from the test's environment) with EXBLAS_LOG=trace into a
# temporary log, and passes when it exits 0, prints a line ending in ": ok", and the log has a line
# containing each PATTERN (proof that its calls went through the shim).  --gpu: the program needs
# an NVIDIA GPU; without one, exit 77 (skipped).
set -u
if [ "${1:-}" = --gpu ]; then
    shift
    [ -e /dev/nvidiactl ] || { echo "no NVIDIA GPU: skipped"; exit 77; }
fi
prog=$1
shift
log=$(mktemp)
trap 'rm -f "$log"' EXIT
out=$(EXBLAS_LOG=trace EXBLAS_LOG_FILE="$log" "$prog" 2>&1)
rc=$?
echo "$out"
if [ $rc -ne 0 ]; then
    echo "FAIL: $prog exited with $rc"
    exit 1
fi
if ! grep -q ': ok$' <<<"$out"; then
    echo "FAIL: $prog did not report ok"
    exit 1
fi
for p in "$@"; do
    if ! grep -qF -- "$p" "$log"; then
        echo "FAIL: no trace line containing '$p'; the log:"
        cat "$log"
        exit 1
    fi
done
echo "ok: $prog through the shim ($# trace patterns found)"
