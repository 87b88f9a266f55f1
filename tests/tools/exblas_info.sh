#!/usr/bin/env bash
# exblas_info.sh EXBLAS_INFO — exblas-info tells the truth about the engines and the decisions,
# with or without a GPU: every engine of the table with its options; a routine an engine does
# not compute shown as native; an engine option from a policy file shown with file:line; an
# unknown engine option in a policy file reported once with file:line (in the report:
# exblas-info is asked), the option dropped and the policy kept.
set -u
info=$1
fail=0
check() { # description, command's output, extended regex that must match
    if grep -qE -- "$3" <<<"$2"; then echo "ok   $1"; else echo "FAIL $1: no line matching '$3'"; echo "$2" | sed 's/^/     | /' | head -60; fail=1; fi
}
unset EXBLAS_MODE EXBLAS_MODE_DGEMM EXBLAS_MODE_DGEMV EXBLAS_MODE_DDOT EXBLAS_POLICY
out=$("$info" 2>&1)
for e in native df repro ozaki int8 ozaki-sgemm; do
    check "engine $e listed" "$out" "^  $e +[a-zA-Z]"
done
check "ozaki-sgemm options" "$out" "^ +options: splits workspace_mb$"
check "embedded policy in use" "$out" "policy in use: embedded"

out=$(EXBLAS_MODE=ozaki-sgemm "$info" --dgemm 300,200,100 2>&1)
check "ozaki-sgemm computes DGEMM" "$out" "dgemm +m=300 n=200 k=100 +-> ozaki-sgemm "
check "ozaki-sgemm has no DGEMV: native" "$out" "dgemv .*-> native \(the engine does not compute this routine\)"
check "ozaki-sgemm has no DDOT: native" "$out" "ddot .*-> native \(the engine does not compute this routine\)"
out=$(EXBLAS_MODE=df "$info" 2>&1)
check "df computes DGEMV" "$out" "dgemv .*-> df "

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
printf '[engine ozaki-sgemm]\nsplits = 4\n[mode sg]\ndgemm = ozaki-sgemm\n' > "$dir/good.policy"
out=$(EXBLAS_POLICY="$dir/good.policy" EXBLAS_MODE=sg "$info" 2>&1)
check "policy rule to ozaki-sgemm" "$out" "dgemm .*-> ozaki-sgemm .*good.policy:4"
check "engine option with its file:line" "$out" "option splits = 4 \(.*good.policy:2\)"

printf '[engine ozaki-sgemm]\nsplitz = 4\n' > "$dir/bad.policy"
out=$(EXBLAS_POLICY="$dir/bad.policy" "$info" 2>&1)
check "bad option reported with file:line" "$out" "^  ! EXBLAS_POLICY: .*bad.policy:2: ozaki-sgemm: no option 'splitz' \(ozaki-sgemm takes splits, workspace_mb\); splitz=4 ignored$"
lines=$(grep -c "bad.policy:" <<<"$out")
if [ "$lines" = 1 ]; then echo "ok   bad option: reported once"; else echo "FAIL bad option: $lines lines name the file"; echo "$out"; fail=1; fi
check "bad option: the policy still in use" "$out" "policy in use: .*bad.policy"
exit $fail
