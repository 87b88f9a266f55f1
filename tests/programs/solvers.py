#!/usr/bin/env python3
"""solvers.py — cuSOLVER's factorisations through CuPy and PyTorch under the shim (issue 29).

    solvers.py --shim PATH/libdfshim.so [--modes native,repro,dd,df,fast,accurate]
               [--frameworks torch,cupy] [--n 768]

cuSOLVER calls cuBLAS's Level-3 routines (TRSM, SYRK/HERK, TRMM, GEMM) and GEMV from inside the
library; the shim routes them to the mode's engine.  For each framework that imports and sees a
GPU, a child process factorises fixed seeded matrices in float64 and complex128 (Cholesky of a
symmetric / Hermitian positive definite A, an LU solve and a QR of a general G, eigh of A), on
the default stream and again on a second stream, once without the shim (the reference) and once
per mode with it (EXBLAS_MODE=mode, EXBLAS_LOG=trace into a file); `repro` runs twice.  Per
(framework, mode) it checks:
  - the child exits 0, and exactly one libcublas (not libcublasLt) is mapped in it;
  - every factorisation's backward error (L L^H - A, G x - b, Q R - G and Q^H Q - I,
    A V - V diag(w) and V^H V - I, each normwise, over the norm of what it approximates) is below
    c n u: c = 64, u = 2^-53 (df: 2^-44, its double-float unit with the slack of its bound);
  - repro: every result the same bits on both streams and in both runs (same GPU);
  - the trace: the calls by routine and engine (GEMV and DOT too); in repro, dd and df every
    Level-3 call, GEMM included, served by that engine (none natively; a declined call's reason
    is in the log).
Prints one line per (framework, mode): the worst backward error in units of n u, and the calls
by routine and engine; exits 0 if all passed, 1 if any failed, 77 if none could run.
"""
import json
import os
import re
import sys
import tempfile

from frameworks import child_run, setup, spawn

ENGINE_MODES = ("repro", "dd", "df")  # every Level-3 call (GEMM included) in the engine
LEVEL3 = re.compile(r"gemm|syrk|herk|syr2k|her2k|trsm|trmm|symm|hemm", re.I)
LINE = re.compile(r"dfshim: (cublas\w+)(?: \(legacy\))? .*? -> (\S+)( \(declined by (\S+)\))?")


def data(np, n, seed=11):
    rng = np.random.default_rng(seed)

    def spd(z):
        m = rng.standard_normal((n, n)) + (1j * rng.standard_normal((n, n)) if z else 0)
        return m @ m.conj().T / n + np.eye(n)

    def gen(z):
        return rng.standard_normal((n, n)) + (1j * rng.standard_normal((n, n)) if z else 0)

    return {"A": spd(False), "G": gen(False), "b": rng.standard_normal(n),
            "ZA": spd(True), "ZG": gen(True), "zb": rng.standard_normal(n) + 0j}


def factor_torch(torch, t):
    """The factorisations of the tensors t (on the GPU), by torch.linalg."""
    out = {}
    for p in ("", "Z"):
        A, G, b = t[p + "A"], t[p + "G"], t[(p.lower() or "") + "b"]
        out[p + "chol"] = torch.linalg.cholesky(A)
        out[p + "solve"] = torch.linalg.solve(G, b)
        q, r = torch.linalg.qr(G)
        out[p + "qr_q"], out[p + "qr_r"] = q, r
        w, v = torch.linalg.eigh(A)
        out[p + "eigh_w"], out[p + "eigh_v"] = w, v
    return out


def child_torch(np, d):
    import torch
    if not torch.cuda.is_available():
        return None
    torch.backends.cuda.preferred_linalg_library("cusolver")
    dev = torch.device("cuda")
    t = {k: torch.tensor(v, device=dev) for k, v in d.items()}
    res = {}
    for tag, stream in (("", torch.cuda.current_stream()), ("s2.", torch.cuda.Stream())):
        with torch.cuda.stream(stream):
            out = factor_torch(torch, t)
        stream.synchronize()
        res.update({tag + k: v.cpu().numpy() for k, v in out.items()})
    return res


def child_cupy(np, d):
    import cupy as cp
    if cp.cuda.runtime.getDeviceCount() < 1:
        return None
    c = {k: cp.asarray(v) for k, v in d.items()}
    res = {}
    for tag, stream in (("", cp.cuda.Stream.null), ("s2.", cp.cuda.Stream(non_blocking=True))):
        with stream:
            out = {}
            for p in ("", "Z"):
                A, G, b = c[p + "A"], c[p + "G"], c[(p.lower() or "") + "b"]
                out[p + "chol"] = cp.linalg.cholesky(A)
                out[p + "solve"] = cp.linalg.solve(G, b)
                out[p + "qr_q"], out[p + "qr_r"] = cp.linalg.qr(G)
                out[p + "eigh_w"], out[p + "eigh_v"] = cp.linalg.eigh(A)
            stream.synchronize()
        res.update({tag + k: cp.asnumpy(v) for k, v in out.items()})
    return res


def child(fw, path, n):
    import numpy as np
    return child_run({"torch": child_torch, "cupy": child_cupy}[fw], np, data(np, n), path)


def backward_errors(np, d, r, tag=""):
    """Each factorisation's normwise backward error (name -> value)."""
    nrm = np.linalg.norm
    e = {}
    for p in ("", "Z"):
        A, G, b = d[p + "A"], d[p + "G"], d[(p.lower() or "") + "b"]
        L = r[tag + p + "chol"]
        e[p + "chol"] = nrm(L @ L.conj().T - A) / nrm(A)
        x = r[tag + p + "solve"]
        e[p + "solve"] = nrm(G @ x - b) / (nrm(G) * nrm(x) + nrm(b))
        Q, R = r[tag + p + "qr_q"], r[tag + p + "qr_r"]
        eye = np.eye(Q.shape[1])
        e[p + "qr"] = max(nrm(Q @ R - G) / nrm(G), nrm(Q.conj().T @ Q - eye))
        w, V = r[tag + p + "eigh_w"], r[tag + p + "eigh_v"]
        e[p + "eigh"] = max(nrm(A @ V - V * w) / nrm(A), nrm(V.conj().T @ V - eye))
    return e


def run_child(fw, mode, shim, tmp, n, run=0):
    name = "%s-%s-%d" % (fw, mode or "ref", run)
    path, log = os.path.join(tmp, name + ".npz"), os.path.join(tmp, name + ".log")
    rc, info, trace, err = spawn(__file__, [fw, path, str(n)], mode, shim, log)
    return rc, info, path, trace, err


def calls(trace):
    """{routine: {engine: count}} and the Level-3 routines (GEMM included) some call of which
    ran natively."""
    table, native = {}, set()
    for line in trace:
        m = LINE.search(line)
        if not m or m.group(2) == "forwarded":
            continue
        name, eng = m.group(1), m.group(2)
        table.setdefault(name, {})
        table[name][eng] = table[name].get(eng, 0) + 1
        if eng == "native" and LEVEL3.search(name):
            native.add(name + (" (declined by %s)" % m.group(4) if m.group(4) else ""))
    return table, native


def check_mode(np, d, fw, mode, shim, tmp, n):
    """(ok, worst in units of n u, calls table, messages) of one framework and mode."""
    runs = 2 if mode == "repro" else 1
    msgs, results, table = [], [], {}
    for run in range(runs):
        rc, info, path, trace, err = run_child(fw, mode, shim, tmp, n, run)
        if rc != 0 or not os.path.exists(path):
            return False, float("nan"), {}, ["exit %d: %s" % (rc, err.strip()[-400:])]
        maps = info.get("maps", [])
        if len(maps) != 1:
            msgs.append("%d libcublas mapped: %s" % (len(maps), " ".join(maps)))
        results.append(dict(np.load(path)))
        table, native = calls(trace)
        if mode in ENGINE_MODES and native:
            msgs.append("ran natively: %s" % ", ".join(sorted(native)))
    unit = n * (2.0**-44 if mode == "df" else 2.0**-53)
    worst = 0.0
    for tag in ("", "s2."):
        for key, e in backward_errors(np, d, results[0], tag).items():
            worst = max(worst, e / unit)
            if not e <= 64 * unit:
                msgs.append("%s%s: backward error %.3g > 64 n u" % (tag, key, e))
    if mode == "repro":
        for key, v in results[0].items():
            base = key[3:] if key.startswith("s2.") else key
            for other, what in ((results[0][base], "the default stream"),
                                (results[1][key], "the second run")):
                if v.tobytes() != other.tobytes():
                    msgs.append("%s: not the bits of %s" % (key, what))
    return not msgs, worst, table, msgs


def main(argv):
    if len(argv) >= 5 and argv[1] == "--child":
        return child(argv[2], argv[3], int(argv[4]))
    got = setup(argv, "native,repro,dd,df,fast,accurate", "torch,cupy")
    if isinstance(got, int):
        return got
    np, shim, modes, fws, args = got
    n = int(args.get("--n", "768"))
    d = data(np, n)
    ran, failed = 0, 0
    with tempfile.TemporaryDirectory() as tmp:
        for fw in fws:
            rc, info, refpath, _, err = run_child(fw, None, shim, tmp, n)
            if rc != 0 or "skip" in info or not os.path.exists(refpath):
                print("%-6s skipped: %s" % (fw, info.get("skip", "reference run failed (rc %d): %s"
                                                          % (rc, err.strip()[-300:]))))
                continue
            ref = backward_errors(np, d, dict(np.load(refpath)))
            unit = n * 2.0**-53
            print("%-6s unshimmed  worst %.3g n u  (%s)" % (fw, max(ref.values()) / unit, ", ".join(
                "%s %.2g" % (k, v / unit) for k, v in sorted(ref.items()))))
            for mode in modes:
                ran += 1
                ok, worst, table, msgs = check_mode(np, d, fw, mode, shim, tmp, n)
                failed += not ok
                print("%-6s %-8s %s  worst %.3g n u  calls %s%s" % (
                    fw, mode, "ok  " if ok else "FAIL", worst, json.dumps(table, sort_keys=True),
                    "".join("\n         " + m for m in msgs)))
                sys.stdout.flush()
    if ran == 0:
        return 77
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
