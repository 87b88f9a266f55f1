#!/bin/bash
# help.sh TOOL... — every installed tool answers --help with its usage on stdout (first line
# "usage: NAME", nothing on stderr) and exit 0, without touching a GPU, and an unknown option
# with its usage on stderr, nothing on stdout and exit 2.
set -u
fail=0
for tool in "$@"; do
    name=${tool##*/}
    out=$("$tool" --help 2>"${TMPDIR:-/tmp}/help.$$")
    rc=$?
    err=$(cat "${TMPDIR:-/tmp}/help.$$")
    first=${out%%$'\n'*}
    if [ $rc != 0 ] || [ "${first#usage: $name}" = "$first" ] || [ -n "$err" ]; then
        echo "FAIL: $name --help: exit $rc, first line '$first', stderr '$err'" >&2
        fail=1
    fi
    out=$("$tool" --no-such-option 2>"${TMPDIR:-/tmp}/help.$$")
    rc=$?
    err=$(cat "${TMPDIR:-/tmp}/help.$$")
    if [ $rc != 2 ] || [ -n "$out" ] || [ "${err#*usage: }" = "$err" ]; then
        echo "FAIL: $name --no-such-option: exit $rc, stdout '$out', stderr '$err'" >&2
        fail=1
    fi
done
rm -f "${TMPDIR:-/tmp}/help.$$"
[ $fail = 0 ] && echo "ok: --help of $# tools"
exit $fail
