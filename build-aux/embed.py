#!/usr/bin/env python3
"""embed.py [--binary] IN OUT SYMBOL: writes OUT, a C file defining `SYMBOL[]` with IN's content:
   text (default): `const char SYMBOL[]`, a NUL-terminated string (as an array of characters);
   --binary:       `const unsigned char SYMBOL[]` (aligned for the CUDA driver's loaders)."""
import sys

args = sys.argv[1:]
binary = args[0] == '--binary'
if binary:
    args = args[1:]
src, dst, sym = args
data = open(src, 'rb').read()
name = src.split('/')[-1]
out = ['/* Generated from %s by build-aux/embed.py; do not edit. */' % name]
if binary:
    out.append('__attribute__((aligned(64))) const unsigned char %s[%d] = {'
               % (sym, len(data) or 1))
    for i in range(0, len(data), 16):
        out.append('    ' + ', '.join('0x%02x' % b for b in data[i:i + 16]) + ',')
    if not data:
        out.append('    0')
    out.append('};')
else:
    # as an array of characters, not a string literal: C99 promises string literals of 4095
    # characters only (gcc's -Woverlength-strings), and the policy is longer
    data.decode('utf-8')  # text must be UTF-8
    out.append('const char %s[%d] = {' % (sym, len(data) + 1))
    for i in range(0, len(data), 16):
        out.append('    ' + ', '.join('%d' % b for b in data[i:i + 16]) + ',')
    out.append('    0};')
open(dst, 'w').write('\n'.join(out) + '\n')
