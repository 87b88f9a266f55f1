#!/bin/bash
# setup_deps.sh SCRIPT — the decisions of build-aux/setup-deps.sh on a machine that lacks the
# build's packages, with nothing installed for real: the script runs with PATH restricted to a
# temporary folder of links to basic tools, where stubs stand in for id, apt-get, meson,
# pkg-config and the compilers.  The stub apt-get records its arguments and "installs" a package
# by adding its stub commands (and, for check and libmpfr-dev, what the stub pkg-config and cc
# then find).  Checks what --check reports, the apt-get command printed (not root) or run (root),
# that a second run is silent, an old Meson, a missing CUDA toolkit and a machine without apt-get.
set -u

script=$(readlink -f "${1:?usage: setup_deps.sh SCRIPT}")
T=$(mktemp -d "${TMPDIR:-/tmp}/setup-deps-test.XXXXXX")
trap 'rm -rf "$T"' EXIT
fail=0
bad() { echo "FAIL: $*" >&2; fail=1; }

# The tools the script itself uses, and nothing it looks for.
mkdir -p "$T/bin" "$T/avail" "$T/world/pc" "$T/world/h" "$T/cuda/include" "$T/nocuda"
for t in bash sh sed mktemp rm readlink cat mkdir ln touch; do
    p=$(command -v "$t") || { echo "setup_deps.sh: no $t here" >&2; exit 77; }
    ln -s "$p" "$T/bin/$t"
done
stub() { # NAME BODY: a /bin/sh script in $T/avail
    printf '#!/bin/sh\n%s\n' "$2" >"$T/avail/$1"
    chmod +x "$T/avail/$1"
}
stub id '[ "$1" = -u ] && cat '"$T"'/world/uid'
stub apt-get 'echo "$*" >>'"$T"'/apt.log
[ "$1" = install ] || exit 0
for p; do
    case $p in
    install | -*) ;;
    gcc) ln -sf '"$T"'/avail/cc '"$T"'/bin/cc; ln -sf '"$T"'/avail/cc '"$T"'/bin/gcc ;;
    g++) ln -sf '"$T"'/avail/cc '"$T"'/bin/g++ ;;
    binutils) ln -sf '"$T"'/avail/readelf '"$T"'/bin/readelf ;;
    pkg-config) ln -sf '"$T"'/avail/pkg-config '"$T"'/bin/pkg-config ;;
    meson) ln -sf '"$T"'/avail/meson '"$T"'/bin/meson ;;
    ninja-build) ln -sf '"$T"'/avail/ninja '"$T"'/bin/ninja ;;
    check) touch '"$T"'/world/pc/check '"$T"'/world/h/check.h ;;
    libmpfr-dev) touch '"$T"'/world/pc/mpfr '"$T"'/world/h/mpfr.h ;;
    *) echo "E: Unable to locate package $p" >&2; exit 100 ;;
    esac
done'
stub meson '[ "$1" = --version ] && cat '"$T"'/world/meson_version'
stub ninja 'echo 1.11.1'
stub readelf 'exit 0'
stub pkg-config '[ "$1" = --exists ] && [ -e '"$T"'/world/pc/"$2" ]'
# cc FILE.c -o OUT LIBS: compiles when FILE.c's header is in the stub world
stub cc 'h=$(sed -n "s/^#include <\(.*\)>.*/\1/p" "$1"); [ -e '"$T"'/world/h/"$h" ]'
ln -s cc "$T/avail/gcc"
ln -s cc "$T/avail/g++"
echo '#define CUDA_VERSION 13000' >"$T/cuda/include/cuda.h"
touch "$T/cuda/include/cublas_api.h"

# reset [STUBS...]: an empty machine with the given stub commands on PATH
reset() {
    local s
    rm -f "$T/apt.log" "$T"/world/pc/* "$T"/world/h/*
    for s in "$T"/bin/*; do
        case ${s##*/} in bash | sh | sed | mktemp | rm | readlink | cat | mkdir | ln | touch) ;; *) rm -f "$s" ;; esac
    done
    for s in "$@"; do ln -s "$T/avail/$s" "$T/bin/$s"; done
    echo 1000 >"$T/world/uid"
    echo 1.0.1 >"$T/world/meson_version"
}
# run NAME [VAR=VALUE...] -- ARGS: the script in the stub world; sets out and rc
run() {
    local name=$1
    shift
    local vars=()
    while [ "$1" != -- ]; do vars+=("$1"); shift; done
    shift
    out=$(/usr/bin/env -i PATH="$T/bin" TMPDIR="$T" SETUP_DEPS_CUDA_DEFAULT="$T/nocuda" "${vars[@]}" \
        "$T/bin/bash" "$script" "$@" 2>&1)
    rc=$?
    printf -- '--- %s (exit %d)\n%s\n' "$name" "$rc" "$out"
}
expect_rc() { [ "$rc" = "$1" ] || bad "$2: exit $rc, expected $1"; }
expect_line() { grep -qxF -- "setup-deps: $1" <<<"$out" || bad "$2: no line 'setup-deps: $1'"; }
expect_missing() { # CASE LINES...: exactly these "missing:"/"too old:" lines, in this order
    local c=$1 got want
    shift
    got=$(sed -n 's/^setup-deps: \(missing\|too old\): /\1: /p' <<<"$out")
    want=$(printf '%s\n' "$@")
    [ "$got" = "$want" ] || bad "$c: reported
$got
expected
$want"
}
expect_apt() { # CASE LINES...: the stub apt-get's calls (none: no lines)
    local c=$1 got=""
    shift
    [ -f "$T/apt.log" ] && got=$(cat "$T/apt.log")
    [ "$got" = "$(printf '%s\n' "$@" | sed '/^$/d')" ] || bad "$c: apt-get called with
$got"
}

all_missing=(
    "missing: a C compiler (cc) (Debian package gcc)"
    "missing: g++ (nvcc preprocesses the kernels with it) (Debian package g++)"
    "missing: readelf (Debian package binutils)"
    "missing: pkg-config (Debian package pkg-config)"
    "missing: Meson >= 1.0 (Debian package meson)"
    "missing: Ninja (Debian package ninja-build)"
    "missing: Check, the unit tests' framework (Debian package check)"
    "missing: MPFR with GMP, the unit tests' reference (Debian package libmpfr-dev)"
)
all_pkgs="gcc g++ binutils pkg-config meson ninja-build check libmpfr-dev"
no_cuda="missing: the CUDA toolkit (12 or 13): no include/cublas_api.h in \$CUDA_HOME, \$CUDA_PATH, nvcc's toolkit or $T/nocuda"

# 1. --check on an empty machine with the toolkit: everything reported, nothing run.
reset id apt-get
run check-empty CUDA_HOME="$T/cuda" -- --check
expect_rc 1 check-empty
expect_missing check-empty "${all_missing[@]}"
expect_line "to install them: sudo apt-get update && sudo apt-get install -y $all_pkgs" check-empty
expect_apt check-empty

# 2. --check as root without the toolkit: the command without sudo, the CUDA advice.
reset id apt-get
echo 0 >"$T/world/uid"
run check-root-nocuda -- --check
expect_rc 1 check-root-nocuda
expect_missing check-root-nocuda "${all_missing[@]}" "$no_cuda"
expect_line "to install them: apt-get update && apt-get install -y $all_pkgs" check-root-nocuda
grep -q 'developer.nvidia.com/cuda-downloads' <<<"$out" || bad "check-root-nocuda: no CUDA advice"
expect_apt check-root-nocuda

# 3. Installing, not root: prints the command, runs nothing, fails.
reset id apt-get
run install-user CUDA_HOME="$T/cuda" -- 
expect_rc 1 install-user
expect_line "to install them: sudo apt-get update && sudo apt-get install -y $all_pkgs" install-user
expect_apt install-user

# 4. Installing as root: one apt-get update and one install of exactly the missing packages,
# then all is there (exit 0); a second run is silent and calls apt-get no more.
reset id apt-get
echo 0 >"$T/world/uid"
run install-root CUDA_HOME="$T/cuda" --
expect_rc 0 install-root
expect_apt install-root "update -qq" "install -y -qq $all_pkgs"
expect_line "installing with apt-get: $all_pkgs" install-root
rm -f "$T/apt.log"
run install-root-again CUDA_HOME="$T/cuda" --
expect_rc 0 install-root-again
[ -z "$out" ] || bad "install-root-again: not silent"
expect_apt install-root-again
run check-after-install CUDA_HOME="$T/cuda" -- --check
expect_rc 0 check-after-install
[ -z "$out" ] || bad "check-after-install: not silent"

# 5. Some there: a compiler and pkg-config that knows Check, MPFR found by neither, Meson 0.61
# (as on Ubuntu 22.04): installs libmpfr-dev only, then fails on Meson with the pip advice.
reset id apt-get cc g++ readelf pkg-config meson ninja
echo 0 >"$T/world/uid"
echo 0.61.2 >"$T/world/meson_version"
touch "$T/world/pc/check" "$T/world/h/check.h"
run partial CUDA_HOME="$T/cuda" --
expect_rc 1 partial
expect_apt partial "update -qq" "install -y -qq libmpfr-dev"
expect_line "still not there after apt-get:" partial
grep -qF "pip install --user 'meson>=1.0'" <<<"$out" || bad "partial: no advice for Meson"
got=$(sed -n 's/^setup-deps: too old: //p' <<<"$out" | sort -u)
[ "$got" = "Meson 0.61.2 (needs >= 1.0)" ] || bad "partial: too old: $got"

# 6. MPFR without a pkg-config file (meson.build then looks for the library): found by the
# compiler, not reported.
reset id cc g++ readelf pkg-config meson ninja
touch "$T/world/pc/check" "$T/world/h/mpfr.h"
run mpfr-no-pc CUDA_HOME="$T/cuda" -- --check
expect_rc 0 mpfr-no-pc

# 7. No apt-get, as root: the list and a pointer to the system's package manager.
reset id cc g++ readelf meson ninja
echo 0 >"$T/world/uid"
touch "$T/world/h/check.h" "$T/world/h/mpfr.h"
run no-apt CUDA_HOME="$T/cuda" --
expect_rc 1 no-apt
expect_missing no-apt "missing: pkg-config (Debian package pkg-config)"
expect_line "no apt-get here: install the above with this system's package manager" no-apt

# 8. The toolkit found through nvcc on PATH: a link into it, then a wrapper script that names it
# in --dryrun's TOP (as meson.build's build-aux/cuda_root.py finds it).
reset cc g++ readelf pkg-config meson ninja
touch "$T/world/pc/check" "$T/world/pc/mpfr"
mkdir -p "$T/cuda/bin"
printf '#!/bin/sh\nexit 1\n' >"$T/cuda/bin/nvcc"
chmod +x "$T/cuda/bin/nvcc"
ln -s "$T/cuda/bin/nvcc" "$T/bin/nvcc"
run nvcc-link -- --check
expect_rc 0 nvcc-link
rm "$T/bin/nvcc"
printf '#!/bin/sh\necho "#\\$ TOP=%s" >&2\n' "$T/cuda" >"$T/bin/nvcc"
chmod +x "$T/bin/nvcc"
run nvcc-wrapper -- --check
expect_rc 0 nvcc-wrapper
rm "$T/bin/nvcc"
run nvcc-none -- --check
expect_rc 1 nvcc-none
expect_missing nvcc-none "$no_cuda"

# 9. --help: usage on stdout, exit 0; a wrong argument: exit 2.
help=$("$T/bin/bash" "$script" --help 2>/dev/null)
[ $? = 0 ] && [ "${help%%:*}" = usage ] || bad "--help"
"$T/bin/bash" "$script" --bogus >/dev/null 2>&1
[ $? = 2 ] || bad "--bogus: exit not 2"

[ $fail = 0 ] && echo "ok: setup-deps.sh's decisions"
exit $fail
