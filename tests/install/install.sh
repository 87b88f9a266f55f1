#!/bin/bash
# install.sh MESON BUILD_DIR PROGRAM.c — the installed tree as a user gets it, without root or a
# GPU: `meson install --destdir` of the build into a temporary folder, then, with PKG_CONFIG_PATH
# pointing there (prefix redefined to the folder): the three .pc files and their variables (the
# preload paths name the installed shim), the versioned SONAMEs and their links, the headers and
# the documentation; PROGRAM.c compiled with `$CC $(pkg-config --cflags ddblas dfblas) ...
# $(pkg-config --libs ddblas dfblas)` and run with LD_LIBRARY_PATH at the installed libdir; the
# installed exblas-run running a program under the installed shim named by dfshim.pc.
set -u
meson=$1 build=$2 src=$3
T=$(mktemp -d "${TMPDIR:-/tmp}/dfshim-install.XXXXXX")
trap 'rm -rf "$T"' EXIT
D=$T/root
fail=0
bad() { echo "FAIL: $*" >&2; fail=1; }

if ! "$meson" install -C "$build" --no-rebuild --quiet --destdir "$D"; then
    echo "FAIL: meson install --destdir $D" >&2
    exit 1
fi
pc=$(find "$D" -name ddblas.pc)
[ -n "$pc" ] || { echo "FAIL: no ddblas.pc installed" >&2; exit 1; }
export PKG_CONFIG_PATH=${pc%/*}
prefix=$(pkg-config --variable=prefix ddblas)
P=$D$prefix
pcd() { pkg-config --define-variable=prefix="$P" "$@"; }
echo "installed into $D (prefix $prefix); pkg-config files in $PKG_CONFIG_PATH"

for p in ddblas dfblas dfshim; do
    pkg-config --exists "$p" || bad "pkg-config does not find $p"
    echo "== $p.pc"
    cat "$PKG_CONFIG_PATH/$p.pc"
done
libdir=$(pcd --variable=libdir ddblas)
includedir=$(pcd --variable=includedir ddblas)

# dfshim.pc: the preload variables name the installed files (as configured: under $D here).
for v in preload preload_dlsym; do
    path=$(pkg-config --variable=$v dfshim)
    if [ -z "$path" ]; then
        [ $v = preload_dlsym ] && [ "$(uname -m)" != x86_64 ] && continue
        bad "dfshim.pc has no $v variable"
    elif [ ! -f "$D$path" ] || [ -L "$D$path" ]; then
        bad "dfshim.pc: $v=$path is not an installed file"
    fi
done

# SONAMEs: libddblas.so.0 and libdfblas.so.0, with the links a linker and a loader use; the shim
# unversioned.
for l in ddblas dfblas; do
    so=$(readelf -d "$libdir/lib$l.so" 2>/dev/null | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
    [ "$so" = "lib$l.so.0" ] || bad "lib$l.so: SONAME '$so', expected lib$l.so.0"
    [ -L "$libdir/lib$l.so" ] && [ -L "$libdir/lib$l.so.0" ] && [ -f "$libdir/lib$l.so.0.1.0" ] ||
        bad "lib$l.so, .so.0 (links) and .so.0.1.0 not all installed"
done
so=$(readelf -d "$libdir/libdfshim.so" 2>/dev/null | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[ "$so" = libdfshim.so ] || bad "libdfshim.so: SONAME '$so', expected libdfshim.so"

for f in ddblas.h dfblas.h; do
    [ -f "$includedir/$f" ] || bad "no $f in $includedir"
done
doc=$(find "$D" -type d -path '*/doc/dfshim')
for f in README.md docs/POLICY.md docs/BENCHMARKS.md docs/bench/h100-2026-11-26/speedup.png \
    engines/df/README.md engines/dd/README.md engines/oz/README.md; do
    [ -n "$doc" ] && [ -f "$doc/$f" ] || bad "documentation: no $f in ${doc:-share/doc/dfshim}"
done

# A user's program through pkg-config, run against the installed libraries only.
cflags=$(pcd --cflags ddblas dfblas) && libs=$(pcd --libs ddblas dfblas) || bad "pkg-config --cflags/--libs"
echo "cc $cflags ... $libs"
read -r -a cc <<<"${CC:-cc}"
if "${cc[@]}" -std=c11 -Wall -Wextra -Werror $cflags "$src" -o "$T/prog" $libs; then
    needed=$(readelf -d "$T/prog" | sed -n 's/.*(NEEDED).*\[\(lib[dfd]*blas[^]]*\)\]/\1/p' | sort | tr '\n' ' ')
    [ "$needed" = "libddblas.so.0 libdfblas.so.0 " ] || bad "the program needs '$needed'"
    LD_LIBRARY_PATH=$libdir "$T/prog" || bad "the program failed"
else
    bad "the program does not compile against the installed tree"
fi

# The installed exblas-run runs a program under the shim that dfshim.pc names.
shim=$(pcd --variable=preload dfshim)
out=$("$P/bin/exblas-run" --shim "$shim" --modes native -- /bin/true 2>&1)
grep -qxF "preload: $shim" <<<"$out" && grep -q 'exit 0' <<<"$out" ||
    bad "installed exblas-run with the installed shim:
$out"

[ $fail = 0 ] && echo "ok: the installed tree"
exit $fail
