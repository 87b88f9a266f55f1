#!/usr/bin/env bash
# exblas_run.sh EXBLAS_RUN — exblas-run as a launcher, without a GPU (the programs are shell
# and Python scripts that write down their environment; the preloaded libraries are stand-in
# files, which the loader ignores, so that the test runs in the sanitizer builds too, where an
# instrumented shim cannot be preloaded into a plain shell): a program that cannot be run gives one
# line and 127 and runs nothing; failed runs count in no median and no speed-up; LD_PRELOAD is
# [companion:]shim[:the caller's], the companion and XLA's flag by default for Python programs
# only, --dlsym/--xla on/off override it, XLA_FLAGS kept and the flag not added twice; a bad
# --dlsym value is a usage error.
set -u
run=$1
fail=0
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
mkdir "$t/lib"
: >"$t/lib/libdfshim.so"
shim=$(realpath "$t/lib/libdfshim.so")
companion=$(dirname "$shim")/libdfshim-dlsym.so
: >"$companion"
ok() { echo "ok   $1"; }
bad() { echo "FAIL $1"; shift; printf '     | %s\n' "$@"; fail=1; }
expect() { # description, got, want
    if [ "$2" = "$3" ]; then ok "$1"; else bad "$1" "got:  $2" "want: $3"; fi
}
unset EXBLAS_MODE EXBLAS_MODE_DGEMM EXBLAS_MODE_DGEMV EXBLAS_MODE_DDOT EXBLAS_MODE_ZGEMM EXBLAS_MODE_ZDOT EXBLAS_MODE_ZGEMV EXBLAS_MODE_SYRK EXBLAS_MODE_SYR2K EXBLAS_MODE_SYMM EXBLAS_MODE_TRMM EXBLAS_MODE_TRSM EXBLAS_POLICY XLA_FLAGS
unset LD_PRELOAD
cat > "$t/env.sh" <<'EOS'
#!/bin/sh
echo "$LD_PRELOAD|$XLA_FLAGS|$EXBLAS_MODE" >> "$1"
exit "${2:-0}"
EOS
printf '#!/usr/bin/env python3\nimport os, sys\nopen(sys.argv[1], "a").write("%%s|%%s|%%s\\n" %% (os.environ.get("LD_PRELOAD", ""), os.environ.get("XLA_FLAGS", ""), os.environ.get("EXBLAS_MODE", "")))\n' > "$t/env.py"
chmod +x "$t/env.sh" "$t/env.py"
S=(--shim "$shim")

# a program that cannot be run: one line, 127, nothing on stdout
for p in no-such-program-xyz "$t/missing" "$t"; do
    out=$("$run" "${S[@]}" --modes native,df -- "$p" 2>"$t/err"); rc=$?
    expect "cannot run $p: exit 127" "$rc" 127
    expect "cannot run $p: nothing on stdout" "$out" ""
    expect "cannot run $p: one line on stderr" "$(wc -l < "$t/err")" 1
done
grep -q "no-such-program-xyz: command not found" <<<"$(LC_ALL=C "$run" "${S[@]}" -- no-such-program-xyz 2>&1)" &&
    ok "command not found named" || bad "command not found named"

# failed runs: no median, no speed-up against or for them
out=$("$run" "${S[@]}" --modes native,df --repeat 2 -- "$t/env.sh" "$t/o" 3 2>/dev/null); rc=$?
expect "failing program: its status" "$rc" 3
grep -qE '^  native +0 +failed' <<<"$out" && ok "failed mode shown as failed" ||
    bad "failed mode shown as failed" "$out"
grep -qE 'x$' <<<"$(grep -A3 '^summary' <<<"$out")" && bad "no speed-up from failed runs" "$out" ||
    ok "no speed-up from failed runs"

# runs in rounds, every mode once a round (no mode gets all the warm runs); one run per mode
# says that the first paid the cold start
rm -f "$t/o"
out=$("$run" "${S[@]}" --modes native,df --repeat 2 -- "$t/env.sh" "$t/o" 2>/dev/null)
expect "rounds: modes interleaved" "$(cut -d'|' -f3 "$t/o" | tr '\n' ' ')" "native df native df "
grep -q "cold start" <<<"$out" && bad "no cold-start note with medians" "$out" ||
    ok "no cold-start note with medians"
out=$("$run" "${S[@]}" --modes native,df -- "$t/env.sh" "$t/o" 2>/dev/null)
grep -q "cold start" <<<"$out" && ok "cold-start note with one run per mode" ||
    bad "cold-start note with one run per mode" "$out"

# the environment of a plain program: the shim only, the caller's LD_PRELOAD after it
rm -f "$t/o"
LD_PRELOAD=/nonexistent/x.so XLA_FLAGS=--foo "$run" "${S[@]}" --modes native,repro -- "$t/env.sh" "$t/o" >/dev/null 2>&1
expect "sh program: shim, then the caller's preload; XLA_FLAGS untouched" "$(cat "$t/o")" \
    "$shim:/nonexistent/x.so|--foo|native
$shim:/nonexistent/x.so|--foo|repro"
if true; then
    # Python: the companion in front, XLA's flag added (after the caller's flags)
    for how in script interpreter; do
        rm -f "$t/o"
        if [ $how = script ]; then cmd=("$t/env.py"); else cmd=(python3 "$t/env.py"); fi
        if command -v python3 >/dev/null; then
            XLA_FLAGS=--foo "$run" "${S[@]}" --mode df -- "${cmd[@]}" "$t/o" >/dev/null 2>&1
            expect "python $how: companion and XLA flag" "$(cat "$t/o")" \
                "$companion:$shim|--foo --xla_gpu_enable_triton_gemm=false|df"
        fi
    done
    if command -v python3 >/dev/null; then
        rm -f "$t/o"
        XLA_FLAGS=--xla_gpu_enable_triton_gemm=true "$run" "${S[@]}" --mode df -- python3 "$t/env.py" "$t/o" >/dev/null 2>&1
        "$run" "${S[@]}" --mode df --dlsym off --xla off -- python3 "$t/env.py" "$t/o" >/dev/null 2>&1
        expect "python: the caller's triton setting kept; --dlsym off --xla off" "$(cat "$t/o")" \
            "$companion:$shim|--xla_gpu_enable_triton_gemm=true|df
$shim||df"
    fi
    rm -f "$t/o"
    "$run" "${S[@]}" --mode int8 --dlsym on --xla on -- "$t/env.sh" "$t/o" >/dev/null 2>&1
    expect "sh program with --dlsym on --xla on" "$(cat "$t/o")" \
        "$companion:$shim|--xla_gpu_enable_triton_gemm=false|int8"
fi
"$run" "${S[@]}" --dlsym maybe -- "$t/env.sh" "$t/o" >/dev/null 2>&1
expect "--dlsym maybe: usage error" "$?" 2
# --dlsym on without a companion next to the shim: a setup error
rm "$companion"
"$run" "${S[@]}" --dlsym on -- "$t/env.sh" "$t/o" >/dev/null 2>&1
expect "--dlsym on without the companion: setup error" "$?" 2
exit $fail
