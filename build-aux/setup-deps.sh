#!/usr/bin/env bash
# setup-deps.sh — checks that this machine has what building and testing dfshim needs and, on
# Debian/Ubuntu as root, installs what is missing with apt-get.  The first step of the README's
# commands and of .ci/run; silent when nothing is missing.  Its decisions are tested with stub
# commands by tests/tools/setup_deps.sh.
set -u

usage() {
    cat <<'EOF'
usage: build-aux/setup-deps.sh [--check]

Checks for what building and testing dfshim needs: a C compiler, g++ (nvcc runs its
preprocessor on the kernels), readelf (binutils), pkg-config, Meson >= 1.0, Ninja, Check and
MPFR with GMP (the unit tests), and the CUDA toolkit (12 or 13).  Prints nothing and exits 0
when all are there.  Otherwise, where apt-get exists and as root, installs the missing Debian
packages (gcc g++ binutils pkg-config meson ninja-build check libmpfr-dev); not root: prints
the apt-get command to run and exits 1.

  --check   only report what is missing (exit 1 if anything is); install nothing
  -h, --help  this text

The CUDA toolkit is never installed here: it is looked for as meson.build does, in $CUDA_HOME,
$CUDA_PATH, the toolkit of nvcc on PATH, then /usr/local/cuda (include/cublas_api.h).
EOF
}

check_only=0
case "${1:-}" in
    "") ;;
    --check) check_only=1 ;;
    -h | --help)
        usage
        exit 0
        ;;
    *)
        usage >&2
        exit 2
        ;;
esac
[ $# -le 1 ] || { usage >&2; exit 2; }

say() { echo "setup-deps: $*" >&2; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/setup-deps.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

# The CUDA toolkit's root (where include/cublas_api.h is), in meson.build's order
# (build-aux/cuda_root.py).  SETUP_DEPS_CUDA_DEFAULT replaces /usr/local/cuda (for the test).
find_cuda() {
    local nvcc root top
    for root in "${CUDA_HOME:-}" "${CUDA_PATH:-}"; do
        [ -n "$root" ] && [ -f "$root/include/cublas_api.h" ] && { echo "$root"; return 0; }
    done
    if nvcc=$(command -v nvcc 2>/dev/null); then
        root=$(readlink -f "$nvcc" 2>/dev/null || echo "$nvcc")
        root=${root%/*}
        root=${root%/*}
        [ -f "$root/include/cublas_api.h" ] && { echo "$root"; return 0; }
        # a wrapper script: nvcc says where its toolkit is
        top=$("$nvcc" --dryrun -x cu -c /dev/null -o /dev/null 2>&1 | sed -n 's/^#\$ TOP=//p')
        top=${top//\"/}
        [ -n "$top" ] && [ -f "$top/include/cublas_api.h" ] && { echo "$top"; return 0; }
    fi
    root=${SETUP_DEPS_CUDA_DEFAULT:-/usr/local/cuda}
    [ -f "$root/include/cublas_api.h" ] && { echo "$root"; return 0; }
    return 1
}

# has_lib PKG HEADER FALLBACK [LIBS...]: pkg-config knows PKG; else, when FALLBACK is 1 (meson.build
# looks for the library itself too) or there is no pkg-config to ask, a program including
# HEADER links with LIBS.  Without pkg-config and a compiler nothing can be found.
has_lib() {
    local pkg=$1 header=$2 fallback=$3
    shift 3
    if command -v pkg-config >/dev/null 2>&1; then
        pkg-config --exists "$pkg" 2>/dev/null && return 0
        [ "$fallback" = 1 ] || return 1
    fi
    [ ${#ccmd[@]} -gt 0 ] || return 1
    printf '#include <%s>\nint main(void) { return 0; }\n' "$header" >"$tmp/probe.c"
    "${ccmd[@]}" "$tmp/probe.c" -o "$tmp/probe" "$@" >/dev/null 2>&1
}

# survey: fills pkgs (Debian packages to install), lines (one per missing thing), advice (what
# apt-get cannot fix: an old Meson, the CUDA toolkit).
survey() {
    pkgs=()
    lines=()
    advice=()
    hash -r
    miss() { pkgs+=("$1"); lines+=("missing: $2 (Debian package $1)"); }

    ccmd=()
    if [ -n "${CC:-}" ]; then
        read -r -a ccmd <<<"$CC"
        command -v "${ccmd[0]}" >/dev/null 2>&1 || ccmd=()
    fi
    if [ ${#ccmd[@]} -eq 0 ]; then
        if command -v cc >/dev/null 2>&1; then ccmd=(cc)
        elif command -v gcc >/dev/null 2>&1; then ccmd=(gcc)
        else miss gcc "a C compiler (cc)"
        fi
    fi
    command -v g++ >/dev/null 2>&1 || miss g++ "g++ (nvcc preprocesses the kernels with it)"
    command -v readelf >/dev/null 2>&1 || miss binutils "readelf"
    command -v pkg-config >/dev/null 2>&1 || miss pkg-config "pkg-config"
    if command -v meson >/dev/null 2>&1; then
        local v major
        v=$(meson --version 2>/dev/null)
        major=${v%%.*}
        if ! [[ "$major" =~ ^[0-9]+$ ]] || [ "$major" -lt 1 ]; then
            lines+=("too old: Meson ${v:-(no version)} (needs >= 1.0)")
            advice+=("a newer Meson: python3 -m pip install --user 'meson>=1.0' (or pipx install meson), with ~/.local/bin on PATH")
        fi
    else
        miss meson "Meson >= 1.0"
    fi
    command -v ninja >/dev/null 2>&1 || command -v samu >/dev/null 2>&1 || miss ninja-build "Ninja"
    has_lib check check.h 0 || miss check "Check, the unit tests' framework"
    has_lib mpfr mpfr.h 1 -lmpfr -lgmp || miss libmpfr-dev "MPFR with GMP, the unit tests' reference"

    local root ver
    if root=$(find_cuda); then
        ver=$(sed -n 's/^#define CUDA_VERSION \([0-9][0-9]*\).*/\1/p' "$root/include/cuda.h" 2>/dev/null)
        if [ -n "$ver" ] && [ "$ver" -lt 12000 ]; then
            lines+=("too old: the CUDA toolkit in $root is $((ver / 1000)).$((ver % 1000 / 10)) (needs 12 or 13)")
            advice+=("CUDA 12 or 13 from https://developer.nvidia.com/cuda-downloads, or CUDA_HOME (meson: -Dtoolkit=DIR) pointing at one")
        fi
    else
        lines+=("missing: the CUDA toolkit (12 or 13): no include/cublas_api.h in \$CUDA_HOME, \$CUDA_PATH, nvcc's toolkit or ${SETUP_DEPS_CUDA_DEFAULT:-/usr/local/cuda}")
        advice+=("the CUDA toolkit from https://developer.nvidia.com/cuda-downloads (Debian/Ubuntu: NVIDIA's cuda-keyring package, then apt-get install cuda-toolkit), or CUDA_HOME (meson: -Dtoolkit=DIR) pointing at an installed one")
    fi
}

report() {
    local l
    for l in "${lines[@]}"; do say "$l"; done
    for l in "${advice[@]}"; do say "get $l"; done
}

survey
[ ${#lines[@]} -eq 0 ] && exit 0

is_root=0
[ "$(id -u 2>/dev/null)" = 0 ] && is_root=1
have_apt=0
command -v apt-get >/dev/null 2>&1 && have_apt=1
report
if [ ${#pkgs[@]} -gt 0 ]; then
    if [ $have_apt = 0 ]; then
        say "no apt-get here: install the above with this system's package manager"
        exit 1
    fi
    sudo=""
    [ $is_root = 1 ] || sudo="sudo "
    cmd="${sudo}apt-get update && ${sudo}apt-get install -y ${pkgs[*]}"
    if [ $check_only = 1 ] || [ $is_root = 0 ]; then
        say "to install them: $cmd"
        [ $check_only = 1 ] || say "then run $0 again"
        exit 1
    fi
    say "installing with apt-get: ${pkgs[*]}"
    export DEBIAN_FRONTEND=noninteractive
    if ! apt-get update -qq || ! apt-get install -y -qq "${pkgs[@]}" >/dev/null; then
        say "apt-get failed"
        exit 1
    fi
    survey
    [ ${#lines[@]} -eq 0 ] && exit 0
    say "still not there after apt-get:"
    report
fi
exit 1
