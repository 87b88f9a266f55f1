#!/bin/sh
# Run from the repository root on a machine with a GPU: builds dfshim in a fresh build-gpu/
# (no Check library there, so without the CPU unit tests) and runs the GPU suite, or with
# SUITE=gpu-quick the quick one (tests/gpu/meson.build).  Arguments go to meson setup (e.g.
# -Dgpu_archs=90).  With OUT set, the test log
# is copied to "$OUT".  Exits with meson test's status.
set -eu
rm -rf build-gpu
meson setup build-gpu -Dunit_tests=disabled -Dgpu_tests=enabled "$@"
meson compile -C build-gpu
rc=0
meson test -C build-gpu --suite "${SUITE:-gpu}" --print-errorlogs || rc=$?
if [ -n "${OUT:-}" ]; then
    cp build-gpu/meson-logs/testlog.txt "$OUT/"
fi
exit "$rc"
