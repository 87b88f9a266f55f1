#!/usr/bin/env python3
"""Print the root of the CUDA toolkit (the directory whose include/ holds cublas_api.h).

Usage: cuda_root.py [NVCC]

Tried in order: $CUDA_HOME and $CUDA_PATH; the directory above the real location of NVCC
(symbolic links resolved); the TOP that NVCC itself reports with --dryrun (this finds the
toolkit behind a wrapper script such as /usr/local/bin/nvcc that execs the real one);
/usr/local/cuda.  Exits 1, printing nothing, when none of them has the headers.
"""
import os
import re
import subprocess
import sys


def has_headers(root):
    return bool(root) and os.path.isfile(os.path.join(root, "include", "cublas_api.h"))


def from_dryrun(nvcc):
    try:
        out = subprocess.run([nvcc, "--dryrun", "-x", "cu", "-c", os.devnull, "-o", os.devnull],
                             capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return None
    m = re.search(r"^#\$ TOP=(.*)$", out.stdout + out.stderr, re.M)
    return os.path.realpath(m.group(1).strip().strip('"')) if m else None


def main():
    nvcc = sys.argv[1] if len(sys.argv) > 1 and sys.argv[1] else None
    candidates = [os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH")]
    if nvcc:
        candidates.append(os.path.dirname(os.path.dirname(os.path.realpath(nvcc))))
        candidates.append(lambda: from_dryrun(nvcc))
    candidates.append("/usr/local/cuda")
    for c in candidates:
        root = c() if callable(c) else c
        if has_headers(root):
            print(os.path.realpath(root))
            return 0
    return 1


if __name__ == "__main__":
    sys.exit(main())
