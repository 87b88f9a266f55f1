#!/usr/bin/env python3
"""frameworks.py — PyTorch, CuPy and JAX, unchanged, under LD_PRELOAD=libdfshim.so (issue 7).

    frameworks.py --shim PATH/libdfshim.so [--modes native,auto,fast,df,repro,ozaki,int8]
                  [--frameworks torch,cupy,jax]

For each framework that imports and sees a GPU, a child process computes a fixed set of float64
operations on seeded data, once without the shim (the reference) and once per mode with it
(EXBLAS_MODE=mode, EXBLAS_LOG=trace into a file).  Per (framework, mode) it checks:
  - the child exits 0;
  - every result against the reference: bit for bit in native mode (PyTorch, CuPy); otherwise
    (and for JAX, whose XLA autotuner may choose another cuBLASLt algorithm in each process, so
    that two unshimmed runs can differ in the last bits: there the reference's own bound is
    added) each entry within
    the mode's error bound, elementwise, relative to S = |alpha| |A||B|
    + |beta| |C| (the sum of the magnitudes of the terms): binary64 modes (repro, int8, auto on a
    binary64 part) 2 k 2^-53 S, df (4 (k + 1) 2^-48 + k 2^-53) S (README's tested bound); a
    small float64 training step (two linear layers, MSE loss, one SGD step) normwise within
    1e-12 (1e-9 for df) of the reference;
  - complex128 too (issue 28): a matrix product of phi data and one of exact products (each
    part correctly rounded under repro, bit for bit), torch.vdot; each entry's modulus within
    the bound of 2k terms times |Re| + |Im| of the terms;
  - the trace shows the calls intercepted: the cuBLAS routines each framework is expected to
    reach (torch: GEMM, GEMV, DOT, a batched GEMM, ZGEMM and ZDOTC; CuPy 14: GEMM (its
    matrix-vector product too), a batched GEMM and a complex cublasGemmEx, its dot being its own
    kernel; JAX: its matrix products (its complex one too), a
    cublasLtMatmul (XLA 0.11 on an H200 splits k = 512 into a batch of 8) that XLA looks up with
    dlsym in its own libcublasLt handle, so JAX's children preload libdfshim-dlsym.so too, found
    next to the shim);
  - exactly one libcublas (not counting libcublasLt) mapped in the process (PyTorch loads its
    wheel's copy in a local scope: the shim must use it, never load a second one).
Prints one line per (framework, mode) with the largest error seen (in units of the bound), the
routines intercepted and the engines that served them; exits 0 if all passed, 1 if any failed,
77 if no framework could run (no GPU, nothing installed).
"""
import json
import os
import re
import subprocess
import sys
import tempfile

BOUNDS = {"df": lambda k: 4 * (k + 1) * 2.0**-48 + k * 2.0**-53}
DEFAULT_BOUND = lambda k: 2 * k * 2.0**-53
EXPECT = {
    "torch": ["gemm", "gemv", "dot", "batched", "zgemm", "zdot"],
    # A @ v is a GEMM in CuPy 14, cupy.dot its own kernel; its complex product a cublasGemmEx
    "cupy": ["gemm", "batched", "zgemm"],
    # XLA's product: a cublasLtMatmul, which XLA may split along k into a batched one
    "jax": [("gemm", "batched"), ("zgemm", "zbatched")],
}


def cublas_maps():
    """Distinct libcublas.so* paths (not libcublasLt) mapped in this process."""
    paths = set()
    with open("/proc/self/maps") as f:
        for line in f:
            p = line.split()[-1] if len(line.split()) >= 6 else ""
            base = os.path.basename(p)
            if base.startswith("libcublas.so"):
                paths.add(p)
    return sorted(paths)


def data(np, seed=7):
    rng = np.random.default_rng(seed)
    m, n, k = 96, 80, 512

    def phi(*shape):
        return (rng.random(shape) - 0.5) * np.exp(rng.standard_normal(shape))

    def exact(*shape):  # 26-bit significands: every product exact in binary64
        return rng.integers(-2**25, 2**25, shape) * 2.0 ** rng.integers(-40, -20, shape)

    def zphi(*shape):
        return phi(*shape) + 1j * phi(*shape)

    def zexact(*shape):
        return exact(*shape) + 1j * exact(*shape)

    return {
        "ZA": zphi(m, k), "ZB": zphi(k, n), "ZE1": zexact(m, k), "ZE2": zexact(k, n),
        "zx": zphi(4096), "zy": zphi(4096),
        "E1": exact(m, k), "E2": exact(k, n),
        "A": phi(m, k), "B": phi(k, n), "C": phi(m, n), "v": phi(k), "x": phi(4096),
        "y": phi(4096), "Ab": phi(3, 64, 200), "Bb": phi(3, 200, 48), "W": phi(n, k),
        "b": phi(n), "X": phi(32, 64), "T": phi(32, 8), "W1": phi(48, 64), "W2": phi(8, 48),
    }


def cases(np, d):
    """(name, S, k) per checked result: S the elementwise sum of magnitudes, k the terms."""
    a = np.abs
    return {
        "matmul": (a(d["A"]) @ a(d["B"]), d["A"].shape[1]),
        "exact": (a(d["E1"]) @ a(d["E2"]), d["E1"].shape[1]),
        "addmm": (2 * a(d["A"]) @ a(d["B"]) + 0.5 * a(d["C"]), d["A"].shape[1]),
        "linear": (a(d["A"]) @ a(d["W"]).T + a(d["b"]), d["A"].shape[1]),
        "mv": (a(d["A"]) @ a(d["v"]), d["A"].shape[1]),
        "dot": (np.array(a(d["x"]) @ a(d["y"])), d["x"].shape[0]),
        "bmm": (np.matmul(a(d["Ab"]), a(d["Bb"])), d["Ab"].shape[2]),
        # complex128: each part a real sum of 2k products, so the error of an entry (its
        # modulus) is within the bound of 2k terms times the sum of both parts' magnitudes
        "zmatmul": (z(d["ZA"]) @ z(d["ZB"]), 2 * d["ZA"].shape[1]),
        "zexact": (z(d["ZE1"]) @ z(d["ZE2"]), 2 * d["ZE1"].shape[1]),
        "zvdot": (np.array(z(d["zx"]) @ z(d["zy"])), 2 * d["zx"].shape[0]),
    }


def z(v):
    """|Re| + |Im|, elementwise"""
    return abs(v.real) + abs(v.imag)


def child_torch(np, d):
    import torch
    if not torch.cuda.is_available():
        return None
    dev = torch.device("cuda")
    t = {key: torch.tensor(v, dtype=torch.float64, device=dev) for key, v in d.items()
         if not np.iscomplexobj(v)}
    z = {key: torch.tensor(v, dtype=torch.complex128, device=dev) for key, v in d.items()
         if np.iscomplexobj(v)}
    out = {
        "matmul": t["A"] @ t["B"],
        "exact": t["E1"] @ t["E2"],
        "addmm": torch.addmm(t["C"], t["A"], t["B"], beta=0.5, alpha=2.0),
        "linear": torch.nn.functional.linear(t["A"], t["W"], t["b"]),
        "mv": torch.mv(t["A"], t["v"]),
        "dot": torch.dot(t["x"], t["y"]),
        "bmm": torch.bmm(t["Ab"], t["Bb"]),
        "zmatmul": z["ZA"] @ z["ZB"],
        "zexact": z["ZE1"] @ z["ZE2"],
        "zvdot": torch.vdot(z["zx"], z["zy"]),
    }
    # a small training step: two linear layers, tanh, MSE, one SGD step
    w1 = t["W1"].clone().requires_grad_(True)
    w2 = t["W2"].clone().requires_grad_(True)
    loss = ((torch.tanh(t["X"] @ w1.T) @ w2.T - t["T"]) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        w1 -= 0.1 * w1.grad
        w2 -= 0.1 * w2.grad
    out["train"] = torch.cat([loss.reshape(1), w1.reshape(-1), w2.reshape(-1)])
    torch.cuda.synchronize()
    return {key: v.detach().cpu().numpy() for key, v in out.items()}


def child_cupy(np, d):
    import cupy as cp
    if cp.cuda.runtime.getDeviceCount() < 1:
        return None
    c = {key: cp.asarray(v) for key, v in d.items()}
    out = {
        "matmul": c["A"] @ c["B"],
        "exact": c["E1"] @ c["E2"],
        "mv": c["A"] @ c["v"],
        "dot": cp.dot(c["x"], c["y"]),
        "bmm": cp.matmul(c["Ab"], c["Bb"]),
        "zmatmul": c["ZA"] @ c["ZB"],
        "zexact": c["ZE1"] @ c["ZE2"],
    }
    cp.cuda.runtime.deviceSynchronize()
    return {key: cp.asnumpy(v) for key, v in out.items()}


def child_jax(np, d):
    import jax
    jax.config.update("jax_enable_x64", True)
    if not any(dv.platform == "gpu" for dv in jax.devices()):
        return None
    import jax.numpy as jnp
    j = {key: jnp.asarray(v) for key, v in d.items()}
    out = {"matmul": jnp.dot(j["A"], j["B"]), "exact": jnp.dot(j["E1"], j["E2"]),
           "mv": jnp.dot(j["A"], j["v"]),
           "dot": jnp.dot(j["x"], j["y"]), "zmatmul": jnp.dot(j["ZA"], j["ZB"]),
           "zexact": jnp.dot(j["ZE1"], j["ZE2"])}
    return {key: np.asarray(jax.block_until_ready(v)) for key, v in out.items()}


def child_run(run, np, d, path):
    """A child's end: run(np, d) computes the results (None: no GPU seen); they go to path and
    the libcublas mapped to stdout, or why it skipped, as one JSON line."""
    try:
        res = run(np, d)
    except ImportError as e:
        print(json.dumps({"skip": "cannot import: %s" % e}))
        return 0
    if res is None:
        print(json.dumps({"skip": "no GPU seen"}))
        return 0
    np.savez(path, **res)
    print(json.dumps({"maps": cublas_maps()}))
    return 0


def child(fw, path):
    import numpy as np
    run = {"torch": child_torch, "cupy": child_cupy, "jax": child_jax}[fw]
    return child_run(run, np, data(np), path)


def routine_kind(line):
    """The kind of an intercepted call in a trace line, or None."""
    name = line.split(":", 1)[-1].strip().split(" ", 1)[0]
    z = "z" if name.startswith("cublasZ") or "(CUDA_C_64F)" in line else ""
    batch = re.search(r" batch=(\d+)", line)
    if "Batched" in name or (batch and int(batch.group(1)) > 1):
        return z + "batched"
    for kind, keys in (("gemm", ("gemm", "Gemm", "Matmul")), ("gemv", ("gemv",)),
                       ("dot", ("dot",))):
        if any(key in name for key in keys):
            return z + kind
    return None


def correctly_rounded(np, d):
    """E1 @ E2 rounded once (its products are exact: fsum of them is correctly rounded), and
    ZE1 @ ZE2 each part rounded once (the same of its 2k products)."""
    import math
    E1, E2 = d["E1"], d["E2"]
    real = np.array([[math.fsum(E1[i] * E2[:, j]) for j in range(E2.shape[1])]
                     for i in range(E1.shape[0])])
    Z1, Z2 = d["ZE1"], d["ZE2"]
    re = [[math.fsum(list(Z1[i].real * Z2[:, j].real) + list(-Z1[i].imag * Z2[:, j].imag))
           for j in range(Z2.shape[1])] for i in range(Z1.shape[0])]
    im = [[math.fsum(list(Z1[i].real * Z2[:, j].imag) + list(Z1[i].imag * Z2[:, j].real))
           for j in range(Z2.shape[1])] for i in range(Z1.shape[0])]
    return {"exact": real, "zexact": np.array(re) + 1j * np.array(im)}


def compare(np, S_all, fw, mode, ref, got, exact=None):
    """(ok, worst error in units of the bound, messages); S_all from cases(); in repro mode
    "exact" must be `exact`, bit for bit"""
    bound_of = BOUNDS.get(mode, DEFAULT_BOUND)
    worst, msgs = 0.0, []
    for key, r in ref.items():
        if key not in got:
            msgs.append("%s missing" % key)
            continue
        g = got[key]
        if key in ("exact", "zexact") and mode == "repro" and exact is not None:
            if g.tobytes() != exact[key].tobytes():
                msgs.append("%s: %d entries not correctly rounded" %
                            (key, int(np.sum(g != exact[key]))))
            continue
        if mode == "native" and fw != "jax":
            if r.tobytes() != g.tobytes():
                msgs.append("%s: not the reference's bits" % key)
            continue
        if key == "train":
            tol = 1e-9 if mode == "df" else 1e-12
            e = float(np.max(np.abs(g - r)) / max(np.max(np.abs(r)), 1e-300))
            worst = max(worst, e / tol)
            if not e <= tol:
                msgs.append("train: normwise difference %.3g > %.0e" % (e, tol))
            continue
        S, k = S_all[key]
        # JAX: XLA's autotuner may pick another cuBLASLt algorithm in another process (its bits
        # differ between unshimmed runs too): the reference's own bound is added
        own = DEFAULT_BOUND(k) if fw == "jax" else 0.0
        allowed = (bound_of(k) + own) * S + 2.0**-1000
        e = np.abs(g - r)
        ratio = float(np.max(e / allowed))
        worst = max(worst, ratio)
        if not np.all(e <= allowed):
            i = np.unravel_index(np.argmax(e / allowed), e.shape) if e.ndim else ()
            msgs.append("%s: entry %s differs by %.3g, allowed %.3g" %
                        (key, i, float(e[i]), float(allowed[i] if allowed.ndim else allowed)))
    return not msgs, worst, msgs


def spawn(script, child_args, mode, shim, log, env_extra=None, preload=None):
    """Runs `script --child child_args...` in a clean environment (no LD_PRELOAD, no EXBLAS_*),
    under the shim in `mode` (None: unshimmed) with its trace in `log`: (exit status, the last
    JSON line of its output, its trace lines, its stderr)."""
    env = {k: v for k, v in os.environ.items()
           if k != "LD_PRELOAD" and not k.startswith("EXBLAS_")}
    env.update(env_extra or {})
    if mode:
        env.update({"LD_PRELOAD": preload or shim, "EXBLAS_MODE": mode, "EXBLAS_LOG": "trace",
                    "EXBLAS_LOG_FILE": log})
    p = subprocess.run([sys.executable, os.path.abspath(script), "--child"] + child_args, env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=900)
    info = {}
    for line in p.stdout.splitlines()[::-1]:
        if line.startswith("{"):
            info = json.loads(line)
            break
    trace = open(log).read().splitlines() if mode and os.path.exists(log) else []
    return p.returncode, info, trace, p.stderr


def setup(argv, modes, fws):
    """The options the framework scripts share (--shim, --modes, --frameworks, and the others in
    the returned dict), and whether they can run: (numpy, shim, modes, frameworks, options), or
    an exit status (1: no shim; 77: no GPU or no numpy)."""
    args = dict(zip(argv[1::2], argv[2::2]))
    shim = os.path.abspath(args.get("--shim", "build/shim/libdfshim.so"))
    if not os.path.exists(shim):
        print("no shim at %s" % shim)
        return 1
    if not os.path.exists("/dev/nvidiactl"):
        print("no NVIDIA GPU: skipped")
        return 77
    try:
        import numpy as np
    except ImportError:
        print("no numpy: skipped")
        return 77
    return (np, shim, args.get("--modes", modes).split(","),
            args.get("--frameworks", fws).split(","), args)


def run_child(fw, mode, shim, tmp):
    path = os.path.join(tmp, "%s-%s.npz" % (fw, mode or "ref"))
    log = os.path.join(tmp, "%s-%s.log" % (fw, mode or "ref"))
    extra, preload = {}, None
    if fw == "jax":  # XLA's own Triton GEMMs never reach cuBLAS: products through cuBLASLt
        extra["XLA_FLAGS"] = (os.environ.get("XLA_FLAGS", "") +
                              " --xla_gpu_enable_triton_gemm=false").strip()
        companion = os.path.join(os.path.dirname(shim), "libdfshim-dlsym.so")
        if os.path.exists(companion):
            preload = companion + ":" + shim
    rc, info, trace, err = spawn(__file__, [fw, path], mode, shim, log, extra, preload)
    return rc, info, path, trace, err


def main(argv):
    if len(argv) >= 4 and argv[1] == "--child":
        return child(argv[2], argv[3])
    got = setup(argv, "native,auto,fast,df,repro,ozaki,int8", "torch,cupy,jax")
    if isinstance(got, int):
        return got
    np, shim, modes, fws, _ = got
    S_all = cases(np, data(np))  # the children's data, seeded: the same in every run
    exact = correctly_rounded(np, data(np))
    ran, failed = 0, 0
    with tempfile.TemporaryDirectory() as tmp:
        for fw in fws:
            rc, info, refpath, _, err = run_child(fw, None, shim, tmp)
            if rc != 0 or "skip" in info or not os.path.exists(refpath):
                print("%-6s skipped: %s" % (fw, info.get("skip", "reference run failed (rc %d): %s"
                                                          % (rc, err.strip()[-300:]))))
                continue
            ref = dict(np.load(refpath))
            for mode in modes:
                ran += 1
                rc, info, path, trace, err = run_child(fw, mode, shim, tmp)
                msgs = []
                if rc != 0 or not os.path.exists(path):
                    msgs.append("exit %d: %s" % (rc, err.strip()[-400:]))
                    ok, worst = False, float("nan")
                else:
                    ok, worst, msgs = compare(np, S_all, fw, mode, ref, dict(np.load(path)),
                                              exact)
                kinds, engines = {}, {}
                for line in trace:
                    kind = routine_kind(line) if " -> " in line else None
                    if kind:
                        eng = line.split(" -> ", 1)[1].split()[0]
                        engines[eng] = engines.get(eng, 0) + 1
                        if eng != "forwarded":  # not a product the shim dispatched
                            kinds[kind] = kinds.get(kind, 0) + 1
                alts = [kd if isinstance(kd, tuple) else (kd,) for kd in EXPECT[fw]]
                missing = ["/".join(a) for a in alts if not any(kd in kinds for kd in a)]
                if missing:
                    msgs.append("not intercepted: %s" % ", ".join(missing))
                maps = info.get("maps", [])
                if len(maps) != 1:
                    msgs.append("%d libcublas mapped: %s" % (len(maps), " ".join(maps)))
                ok = not msgs
                failed += not ok
                print("%-6s %-7s %s  worst %.3g of the bound  calls %s  engines %s%s" % (
                    fw, mode, "ok  " if ok else "FAIL", worst,
                    json.dumps(kinds, sort_keys=True), json.dumps(engines, sort_keys=True),
                    "".join("\n         " + m for m in msgs)))
                sys.stdout.flush()
    if ran == 0:
        return 77
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
