#!/usr/bin/env python3
"""embed.py IN OUT SYMBOL: writes OUT, a C file defining `const char SYMBOL[]` = IN's text."""
import sys

src, dst, sym = sys.argv[1:4]
data = open(src, 'rb').read().decode('utf-8')
lines = ['/* Generated from %s by config/embed.py; do not edit. */' % src.split('/')[-1],
         'const char %s[] =' % sym]
for line in data.splitlines(keepends=True):
    esc = line.replace('\\', '\\\\').replace('"', '\\"').replace('\n', '\\n').replace('\t', '\\t')
    lines.append('    "%s"' % esc)
if not data:
    lines.append('    ""')
lines[-1] += ';'
open(dst, 'w').write('\n'.join(lines) + '\n')
