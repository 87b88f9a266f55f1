#!/usr/bin/env bash
# sass_check.sh FATBIN — the DF GEMM kernels and the small kernels keep the intended FP32
# instruction count per DF multiply-add (no contraction, no reassociation, nothing extra in the
# main loop): for each kernel, the FMUL / FFMA / FADD counts of the main loop of its sm_90 code
# must be (MADs per k-tile) times the scheme's per-MAD counts, inside the main loop.  Needs
# cuobjdump (the GPU machine has it); exits 77 without it.
set -euo pipefail
fatbin=$1
command -v cuobjdump >/dev/null 2>&1 || { echo "SKIP: no cuobjdump"; exit 77; }
cuobjdump -lelf "$fatbin" 2>/dev/null | grep -q sm_90 || { echo "SKIP: no sm_90 code in $fatbin"; exit 77; }
fail=0
# kernel, MADs per k-tile (8 x 8, 8 x 4 or 4 x 4 per thread, the small kernels 2 x 2 or, _t16,
# 1 x 1, 8 k-steps), FMUL FFMA FADD per MAD, FADD per k-tile besides (the lazy scheme's
# renormalisation: 3 per accumulator every 8 MADs).  The small kernels' main loop also converts
# the next k-tile's elements (binary64 instructions and conversions, no FP32 arithmetic).
while read -r k mads fmul ffma fadd extra; do
    # The main loop: of the backward branches (to a label defined earlier), the one whose body
    # holds the most FFMA; count inside it only (the epilogue has DF arithmetic of its own).
    loop=$(cuobjdump -sass -arch sm_90 -fun "$k" "$fatbin" | awk '
        function hex(h,   v, i, c) { v = 0; h = tolower(h); sub(/^0x/, "", h)
            for (i = 1; i <= length(h); i++) { c = index("0123456789abcdef", substr(h, i, 1)) - 1; v = v * 16 + c }
            return v }
        { line[NR] = $0 }
        match($0, /\/\*[0-9a-f]+\*\//) { a = hex(substr($0, RSTART + 2, RLENGTH - 4)); at[a] = NR
            if (match($0, / BRA 0x[0-9a-f]+/)) {
                t = hex(substr($0, RSTART + 5, RLENGTH - 5))
                if (t < a && (t in at)) {
                    n = 0
                    for (i = at[t]; i <= NR; i++) if (line[i] ~ / FFMA /) n++
                    if (n > best) { best = n; from = at[t]; to = NR }
                }
            }
        }
        END { for (i = from; i <= to; i++) print line[i] }')
    got_mul=$(grep -c ' FMUL ' <<<"$loop" || true)
    got_fma=$(grep -c ' FFMA ' <<<"$loop" || true)
    got_add=$(grep -c ' FADD ' <<<"$loop" || true)
    want="$((mads * fmul)) $((mads * ffma)) $((mads * fadd + extra))"
    got="$got_mul $got_fma $got_add"
    if [ "$got" = "$want" ]; then
        echo "ok   $k: FMUL FFMA FADD = $got ($((fmul + ffma + fadd)) ops per MAD, $extra more per k-tile)"
    else
        echo "FAIL $k: FMUL FFMA FADD = $got, expected $want"
        fail=1
    fi
done <<'TABLE'
dfs_df_gemm16 512 1 3 12 0
dfs_df_gemm15 512 1 3 11 0
dfs_df_gemm29 512 2 3 24 0
dfs_df_gemm16n 256 1 3 12 0
dfs_df_gemm15n 256 1 3 11 0
dfs_df_gemm29n 256 2 3 24 0
dfs_df_gemm16s 128 1 3 12 0
dfs_df_gemm15s 128 1 3 11 0
dfs_df_gemm29s 128 2 3 24 0
dfs_df_gemm12 512 1 3 8 192
dfs_df_gemm12n 256 1 3 8 96
dfs_df_gemm12s 128 1 3 8 48
dfs_df_small16 32 1 3 12 0
dfs_df_small15 32 1 3 11 0
dfs_df_small29 32 2 3 24 0
dfs_df_small12 32 1 3 8 12
dfs_df_small16_t16 8 1 3 12 0
dfs_df_small15_t16 8 1 3 11 0
dfs_df_small29_t16 8 2 3 24 0
dfs_df_small12_t16 8 1 3 8 3
TABLE
exit $fail
