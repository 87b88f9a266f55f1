#!/usr/bin/env bash
# sass_check.sh FATBIN — the DF GEMM kernels keep the intended FP32 instruction count per DF
# multiply-add (no contraction, no reassociation, nothing extra in the main loop): for each kernel,
# the FMUL / FFMA / FADD counts of its sm_90 machine code must be exactly (MADs per k-tile) times
# the scheme's per-MAD counts.  Needs cuobjdump (the GPU machine has it); exits 77 without it.
set -euo pipefail
fatbin=$1
command -v cuobjdump >/dev/null 2>&1 || { echo "SKIP: no cuobjdump"; exit 77; }
cuobjdump -lelf "$fatbin" 2>/dev/null | grep -q sm_90 || { echo "SKIP: no sm_90 code in $fatbin"; exit 77; }
fail=0
# kernel, MADs per k-tile (8 x 8 or 8 x 4 per thread, 8 k-steps), FMUL FFMA FADD per MAD
while read -r k mads fmul ffma fadd; do
    sass=$(cuobjdump -sass -arch sm_90 -fun "$k" "$fatbin")
    got_mul=$(grep -c ' FMUL ' <<<"$sass" || true)
    got_fma=$(grep -c ' FFMA ' <<<"$sass" || true)
    got_add=$(grep -c ' FADD ' <<<"$sass" || true)
    want="$((mads * fmul)) $((mads * ffma)) $((mads * fadd))"
    got="$got_mul $got_fma $got_add"
    if [ "$got" = "$want" ]; then
        echo "ok   $k: FMUL FFMA FADD = $got ($((fmul + ffma + fadd)) ops per MAD)"
    else
        echo "FAIL $k: FMUL FFMA FADD = $got, expected $want"
        fail=1
    fi
done <<'TABLE'
dfs_df_gemm16 512 1 3 12
dfs_df_gemm15 512 1 3 11
dfs_df_gemm29 512 2 3 24
dfs_df_gemm16n 256 1 3 12
dfs_df_gemm15n 256 1 3 11
dfs_df_gemm29n 256 2 3 24
TABLE
exit $fail
