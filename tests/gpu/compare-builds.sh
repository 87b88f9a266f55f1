#!/usr/bin/env bash
# compare-builds.sh DIGEST OLD_SHIM NEW_SHIM [MODE...] — runs digest (digest.c) under two builds
# of libdfshim.so in each mode (default: every engine and mode) and says, per mode, whether every
# result is the same bit for bit; the differing lines are printed.  Exit 1 if any mode differs.
# For refactorings that claim no behaviour change: run it on a GPU with the build before and the
# build after.
set -u
digest=$1 old=$2 new=$3
shift 3
modes=("$@")
[ ${#modes[@]} -gt 0 ] || modes=(native auto fast accurate df df:scheme=paper df:scheme=accurate
    df:scheme=lazy repro repro:products=f64 "repro:products=f64,max_splits=2,workspace_mb=16"
    "repro:products=int8,workspace_mb=16" ozaki:splits=3 "ozaki:splits=3,fast=1,sum=fixed" int8
    int8:moduli=20 int8:workspace_mb=16 ozaki-sgemm:splits=2 ozaki-sgemm:splits=3 dd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad=0
for m in "${modes[@]}"; do
    for side in old new; do # both at once: the bits cannot depend on it
        shim=$old
        [ $side = new ] && shim=$new
        (env -u EXBLAS_POLICY EXBLAS_MODE="$m" LD_PRELOAD="$shim" "$digest" ${DIGEST_ARGS:-} \
            >"$tmp/$side" 2>"$tmp/$side.err"; echo "exit $?" >>"$tmp/$side") &
    done
    wait
    if cmp -s "$tmp/old" "$tmp/new"; then
        echo "same       $m ($(grep -c digest "$tmp/new") results)"
    else
        echo "DIFFERENT  $m"
        diff "$tmp/old" "$tmp/new" | head -20
        bad=1
    fi
done
exit $bad
