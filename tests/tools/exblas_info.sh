#!/usr/bin/env bash
# exblas_info.sh EXBLAS_INFO — exblas-info tells the truth about the engines and the decisions,
# with or without a GPU: every engine of the table with its options (values, default); a routine
# an engine does not compute shown as native; an engine option from a policy file shown with
# file:line; a bad policy file reported once with file:line (in the report: exblas-info is
# asked), the embedded policy used instead; an engine option that is unknown or has a bad value,
# in EXBLAS_MODE or a policy file, reported once (the policy's with file:line), the option
# dropped and the rest in force.
set -u
info=$1
fail=0
check() { # description, command's output, extended regex that must match
    if grep -qE -- "$3" <<<"$2"; then echo "ok   $1"; else echo "FAIL $1: no line matching '$3'"; echo "$2" | sed 's/^/     | /' | head -60; fail=1; fi
}
check_once() { # description, command's output, a whole line that must stand there once
    local n
    n=$(grep -cFx -- "$3" <<<"$2")
    if [ "$n" = 1 ]; then echo "ok   $1"; else echo "FAIL $1: $n lines '$3'"; echo "$2" | sed 's/^/     | /' | head -80; fail=1; fi
}
unset EXBLAS_MODE EXBLAS_MODE_DGEMM EXBLAS_MODE_DGEMV EXBLAS_MODE_DDOT EXBLAS_MODE_ZGEMM EXBLAS_MODE_ZDOT EXBLAS_MODE_ZGEMV EXBLAS_MODE_SYRK EXBLAS_MODE_SYR2K EXBLAS_MODE_SYMM EXBLAS_MODE_TRMM EXBLAS_MODE_TRSM EXBLAS_POLICY
out=$("$info" 2>&1)
for e in native df repro ozaki int8 ozaki-sgemm; do
    check "engine $e listed" "$out" "^  $e +[a-zA-Z]"
done
check_once "ozaki-sgemm's splits" "$out" "              option splits: a number from 2 to 6; default 2"
check_once "df's scheme" "$out" "              option scheme: paper (16), fused (15), accurate (29) or lazy (12); default fused"
check_once "int8's moduli" "$out" "              option moduli: 0 (from the data) or a number from 2 to 24; default 0 (from the data)"
check "native has no options" "$out" "^ +\(no options\)$"
check_once "dd's tile" "$out" "              option tile: auto, 64, 32 or 16; default auto"
check "embedded policy in use" "$out" "policy in use: embedded"

out=$(EXBLAS_MODE=ozaki-sgemm "$info" --dgemm 1000,800,600 2>&1)
check "ozaki-sgemm computes DGEMM" "$out" "dgemm +m=1000 n=800 k=600 +-> ozaki-sgemm "
check "ozaki-sgemm has no DGEMV: native" "$out" "dgemv .*-> native \(the engine does not compute this routine\)"
check "ozaki-sgemm has no DDOT: native" "$out" "ddot .*-> native \(the engine does not compute this routine\)"
out=$(EXBLAS_MODE=df "$info" 2>&1)
check "df computes DGEMV" "$out" "dgemv .*-> df "
no_routine="native \(the engine does not compute this routine\)"
check "df has no ZGEMV: native" "$out" "zgemv .*-> $no_routine"
out=$(EXBLAS_MODE=repro "$info" --zgemv 7,9 2>&1)
check "repro computes ZGEMV" "$out" "zgemv +m=7 n=9 +-> repro "
out=$(EXBLAS_MODE=ozaki "$info" 2>&1)
check "ozaki computes ZGEMV (repro's)" "$out" "zgemv .*-> ozaki "
out=$(EXBLAS_MODE=accurate "$info" 2>&1)
check "accurate: ZGEMV on repro" "$out" "zgemv .*-> repro .*accurate -> repro"
check "accurate: DGEMV on dd" "$out" "dgemv .*-> dd "
# the Level-3 routines beside GEMM: SYRK, SYR2K, SYMM, TRMM through an engine's GEMM, TRSM in
# blocks of the engine's size (complex too on an engine with a complex GEMM)
out=$(EXBLAS_MODE=repro "$info" --syrk 300,40 --trsm 100,200 2>&1)
via_gemm="repro \(double and complex in 2 panels through its GEMM\)"
# a real triangle of output as one GEMM of it (DFS_CAP_TRIANGLE), else panels
via_tri="repro \(double as one GEMM of the triangle where the engine takes it, else in 2 panels, through its GEMM; complex in panels too\)"
check "syrk sized by --syrk" "$out" "syrk +n=300 k=40 +-> $via_tri"
check "trsm sized by --trsm" "$out" "trsm +m=100 n=200 +-> repro \(double and complex in blocks of 256 through its GEMM\)"
check "syr2k: repro's triangle GEMM" "$out" "syr2k +n=[0-9 ]*.*-> $via_tri"
check "trmm: repro's GEMM" "$out" "trmm +m=[0-9 ]*.*-> $via_gemm"
check "symm: repro's GEMM" "$out" "symm +m?=?[0-9 ]*.*-> repro \(double and complex through its GEMM\)"
out=$(EXBLAS_MODE=int8 "$info" --trsm 16384,16384 2>&1)
check "trsm: int8's parts on cuBLAS's TRSM" "$out" "trsm +m=16384 n=16384 +-> int8 \(double and complex in blocks of 256 through its GEMM; its leaves, and the parts native does faster, on cuBLAS's TRSM\)"
out=$(EXBLAS_MODE=fast "$info" 2>&1)
check "fast: syrk native (its rule)" "$out" "syrk .*-> native +\[rule"
out=$(EXBLAS_MODE=accurate "$info" 2>&1)
check "accurate: syrk on dd's GEMM" "$out" "syrk .*-> dd \(double and complex in 8 panels through its GEMM\)"
check "accurate: trsm on dd's GEMM" "$out" "trsm .*-> dd \(double and complex in blocks of 128 through its GEMM\)"
out=$(EXBLAS_MODE=fast "$info" 2>&1)
check "fast: trsm native (its rule)" "$out" "trsm .*-> native +\[rule"

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
printf '[engine ozaki-sgemm]\nsplits = 4\n[mode sg]\ndgemm = ozaki-sgemm\n' > "$dir/good.policy"
out=$(EXBLAS_POLICY="$dir/good.policy" EXBLAS_MODE=sg "$info" 2>&1)
check "policy rule to ozaki-sgemm" "$out" "dgemm .*-> ozaki-sgemm .*good.policy:4"
check "engine option with its file:line" "$out" "option splits = 4 \(.*good.policy:2\)"

printf '[engine ozaki-sgemm]\nsplits 4\n' > "$dir/bad.policy"
out=$(EXBLAS_POLICY="$dir/bad.policy" "$info" 2>&1)
check "bad policy reported with file:line" "$out" "^  ! EXBLAS_POLICY: .*bad.policy:2: expected 'key = value' or a \[section\]; using the embedded default policy$"
lines=$(grep -c "bad.policy:" <<<"$out")
if [ "$lines" = 1 ]; then echo "ok   bad policy: reported once"; else echo "FAIL bad policy: $lines lines name the file"; echo "$out"; fail=1; fi
check "bad policy: the embedded one in use" "$out" "policy in use: embedded"

# engine options: unknown keys and bad values, one line each, the option dropped, the rest kept
out=$(EXBLAS_MODE=df:scheme=bogus,tile=128x64 "$info" 2>&1)
check_once "df:scheme=bogus" "$out" "  ! EXBLAS_MODE: df: scheme=bogus is not paper (16), fused (15), accurate (29) or lazy (12); using fused"
check "df:scheme=bogus: df still computes" "$out" "dgemm .*-> df "
check "df:scheme=bogus: tile kept" "$out" "option tile = 128x64 \(EXBLAS_MODE\)"
if grep -q "scheme = bogus" <<<"$out"; then echo "FAIL df:scheme=bogus: the option is still shown"; fail=1; else echo "ok   df:scheme=bogus: dropped"; fi
out=$(EXBLAS_MODE=repro:max_splits=-5 "$info" 2>&1)
check_once "repro:max_splits=-5" "$out" "  ! EXBLAS_MODE: repro: max_splits=-5 is not a number from 1 to 16; using 12"
check "repro:max_splits=-5: repro still computes" "$out" "dgemm .*-> repro "
out=$(EXBLAS_MODE=native EXBLAS_MODE_DGEMM=int8:moduli=999 "$info" 2>&1)
check_once "int8:moduli=999" "$out" "  ! EXBLAS_MODE_DGEMM: int8: moduli=999 is not 0 (from the data) or a number from 2 to 24; using 0 (from the data)"
check "int8:moduli=999: int8 still computes" "$out" "dgemm .*-> int8 "
out=$(EXBLAS_MODE=ozaki-sgemm:splitz=4 "$info" 2>&1)
check_once "an unknown key" "$out" "  ! EXBLAS_MODE: ozaki-sgemm: no option 'splitz' \
(ozaki-sgemm takes splits, workspace_mb, native); splitz=4 ignored"
check "an unknown key: the engine stays" "$out" "dgemm .*-> ozaki-sgemm "
out=$(EXBLAS_MODE=ozaki:sum=fixed "$info" 2>&1)
check_once "ozaki: sum=fixed without splits" "$out" "  ! EXBLAS_MODE: ozaki: sum=fixed needs splits; using sum=exact"

printf '[engine ozaki-sgemm]\nsplitz = 4\n[mode sg]\ndgemm = ozaki-sgemm splits=9 workspace_mb=64\n' > "$dir/values.policy"
out=$(EXBLAS_POLICY="$dir/values.policy" EXBLAS_MODE=sg "$info" 2>&1)
check_once "policy: an unknown key at its line" "$out" "  ! EXBLAS_POLICY: $dir/values.policy:2: ozaki-sgemm: no option 'splitz' (ozaki-sgemm takes splits, workspace_mb, native); splitz=4 ignored"
check_once "policy: a bad value at its line" "$out" "  ! EXBLAS_POLICY: $dir/values.policy:4: ozaki-sgemm: splits=9 is not a number from 2 to 6; using 2"
check "policy with bad options: in use" "$out" "policy in use: $dir/values.policy"
check "policy with bad options: the rule in force" "$out" "dgemm .*-> ozaki-sgemm .*values.policy:4"
check "policy with bad options: the valid option kept" "$out" "option workspace_mb = 64 \(.*values.policy:4\)"
if grep -qE "option (splits = 9|splitz = 4)" <<<"$out"; then echo "FAIL policy with bad options: a dropped option is shown"; fail=1; else echo "ok   policy with bad options: dropped"; fi
exit $fail
