#!/bin/bash
# elf_check.sh SHIM STANDIN LAPP — the ELF interface of libdfshim.so.
#
# SHIM must: have no DT_NEEDED on libcublas, libcublasLt, libcudart or libcuda (it uses the
# application's copies, found at run time); define no symbol versions; export exactly the hooked
# cuBLAS entry points, as unversioned functions, and nothing else but the usual linker symbols;
# and reference no cuBLAS or CUDA symbol directly.
#
# Negative controls, so that a broken checker cannot pass: the stand-in libcublas.so.13
# (STANDIN: versioned, more exports) and lapp (LAPP: needs libcublas.so.13) must both fail.
set -u

expected=(
    cublasDgemm_v2 cublasDgemm_v2_64
    cublasDgemv_v2 cublasDgemv_v2_64
    cublasDdot_v2 cublasDdot_v2_64
    cublasDgemmStridedBatched cublasDgemmStridedBatched_64
    cublasZgemm_v2 cublasZgemm_v2_64 cublasZgemm3m cublasZgemm3m_64
    cublasZgemmStridedBatched cublasZgemmStridedBatched_64 cublasZgemm
    cublasZdotc_v2 cublasZdotc_v2_64 cublasZdotu_v2 cublasZdotu_v2_64 cublasZdotc cublasZdotu
    cublasZgemv_v2 cublasZgemv_v2_64 cublasZgemv
    cublasDgemmBatched cublasDgemmBatched_64 cublasZgemmBatched cublasZgemmBatched_64
    cublasGemmBatchedEx cublasGemmBatchedEx_64
    cublasDsyrk_v2 cublasDsyrk_v2_64 cublasZsyrk_v2 cublasZsyrk_v2_64
    cublasZherk_v2 cublasZherk_v2_64
    cublasDsyrkx cublasDsyrkx_64 cublasZsyrkx cublasZsyrkx_64 cublasZherkx cublasZherkx_64
    cublasDsyr2k_v2 cublasDsyr2k_v2_64 cublasZsyr2k_v2 cublasZsyr2k_v2_64
    cublasZher2k_v2 cublasZher2k_v2_64
    cublasDsymm_v2 cublasDsymm_v2_64 cublasZsymm_v2 cublasZsymm_v2_64
    cublasZhemm_v2 cublasZhemm_v2_64
    cublasDtrmm_v2 cublasDtrmm_v2_64 cublasZtrmm_v2 cublasZtrmm_v2_64
    cublasDtrsm_v2 cublasDtrsm_v2_64 cublasZtrsm_v2 cublasZtrsm_v2_64
    cublasDsyrk cublasZsyrk cublasZherk cublasDsyr2k cublasZsyr2k cublasZher2k
    cublasDsymm cublasZsymm cublasZhemm cublasDtrmm cublasZtrmm cublasDtrsm cublasZtrsm
    cublasGemmEx cublasGemmEx_64
    cublasGemmStridedBatchedEx cublasGemmStridedBatchedEx_64
    cublasDestroy_v2
    cublasDgemm cublasDgemv cublasDdot cublasSetKernelStream cublasGetError cublasShutdown
    cublasLtMatmul
)
linker_symbols=(_init _fini _edata _end __bss_start)

if [ $# -ne 3 ]; then
    echo "usage: $0 SHIM STANDIN LAPP" >&2
    exit 2
fi
if ! command -v readelf >/dev/null; then
    echo "FAIL: readelf (binutils) not found" >&2
    exit 1
fi

in_list() { # NAME LIST...
    local n=$1
    shift
    local x
    for x in "$@"; do [ "$x" = "$n" ] && return 0; done
    return 1
}

# Prints one line per violation of the rules above for library $1.
problems() {
    local lib=$1 dyn syms
    if ! dyn=$(readelf -d -W "$lib" 2>&1) || ! syms=$(readelf --dyn-syms -W "$lib" 2>&1); then
        echo "readelf cannot read $lib: $dyn"
        return
    fi
    # DT_NEEDED
    local needed
    needed=$(sed -n 's/.*(NEEDED).*\[\(.*\)\].*/\1/p' <<<"$dyn")
    [ -n "$needed" ] || echo "no DT_NEEDED at all (readelf output not understood?)"
    local n
    for n in $needed; do
        case "$n" in
            libcublas.so* | libcublasLt.so* | libcudart.so* | libcuda.so*) echo "DT_NEEDED $n" ;;
        esac
    done
    # version definitions
    grep -q '(VERDEF)' <<<"$dyn" && echo "defines symbol versions (DT_VERDEF)"
    # dynamic symbols: "Num: Value Size Type Bind Vis Ndx Name"
    local defined=() undefined=() num value size type bind vis ndx name rest
    while read -r num value size type bind vis ndx name rest; do
        [[ "$num" =~ ^[0-9]+:$ ]] || continue
        [ -n "${name:-}" ] || continue
        case "$bind" in GLOBAL | WEAK | UNIQUE | GNU_UNIQUE) ;; *) continue ;; esac
        if [ "$ndx" = UND ]; then
            undefined+=("$name")
        else
            defined+=("$name|$type")
        fi
    done <<<"$syms"
    [ ${#defined[@]} -gt 0 ] || echo "no defined dynamic symbols (readelf output not understood?)"
    local d base found
    for d in "${defined[@]}"; do
        name=${d%|*}
        type=${d##*|}
        base=${name%%@*}
        [ "$base" != "$name" ] && echo "versioned symbol $name"
        if in_list "$base" "${expected[@]}"; then
            [ "$type" = FUNC ] || echo "$base is $type, not FUNC"
        elif ! in_list "$base" "${linker_symbols[@]}"; then
            echo "unexpected export $base"
        fi
    done
    for n in "${expected[@]}"; do
        found=0
        for d in "${defined[@]}"; do
            [ "${d%|*}" = "$n" ] && found=1
        done
        [ $found = 1 ] || echo "missing unversioned export $n"
    done
    for n in "${undefined[@]}"; do
        case "${n%%@*}" in
            cublas* | cuda[A-Z]* | cu[A-Z]*) echo "references ${n%%@*} directly" ;;
        esac
    done
}

status=0

p=$(problems "$1")
if [ -n "$p" ]; then
    echo "FAIL: $1:" >&2
    sed 's/^/  /' <<<"$p" >&2
    status=1
else
    echo "ok: $1 exports exactly the ${#expected[@]} hooks, unversioned, and needs no CUDA library"
fi

# The checker itself: it must reject the stand-in and lapp, for the right reasons.
p=$(problems "$2")
for want in "unexpected export cublasCreate_v2" "versioned symbol cublasDgemm_v2@@libcublas.so.13" \
    "defines symbol versions (DT_VERDEF)" "unexpected export fake_cublas_calls"; do
    if ! grep -qxF "$want" <<<"$p"; then
        echo "FAIL: the checker does not report '$want' for the stand-in $2; it reports:" >&2
        sed 's/^/  /' <<<"$p" >&2
        status=1
    fi
done
p=$(problems "$3")
for want in "DT_NEEDED libcublas.so.13" "references cublasDgemm_v2 directly"; do
    if ! grep -qxF "$want" <<<"$p"; then
        echo "FAIL: the checker does not report '$want' for $3; it reports:" >&2
        sed 's/^/  /' <<<"$p" >&2
        status=1
    fi
done
[ $status = 0 ] && echo "ok: the checker rejects the stand-in and lapp"
exit $status
