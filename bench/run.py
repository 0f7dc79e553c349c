"""The benchmark of docs/performance.md, side by side with ONNX's own inference.

Run it through bench/run.sh, which builds what it needs first. Per workload it prints:

  ours      infer-shapes MODEL -o OUT, end to end (a child process: wall time, peak RSS),
            and in process, phase by phase (onnx-infer-bench phases): parse (the model
            parsed from the file), infer (InferShapes), write (serialize + write), and
            microseconds per node;
  floor     onnx-infer-bench floor: parse from the file, serialize, write, nothing else (the
            least a tool that rewrites the model does): its wall time and peak RSS;
  ONNX      onnx.shape_inference.infer_shapes_path(check_type, strict_mode, data_prop) of
            Debian's python3-onnx, timed inside its own child process, and that process's
            peak RSS; its inference alone is estimated as that time less our parse
            and serialize phases (the same libprotobuf, the same annotated output), and
            measured exactly in instructions by --callgrind;
  ONNX C++  with --onnx-cxx PREFIX (or ONNX_INFER_BENCH_ONNX_CXX): bench/onnx_cxx's
            onnx-cxx-infer, built here against the ONNX C++ library installed under PREFIX
            (its CMake package; Debian's libonnx-dev: /usr), runs ONNX's InferShapes with the
            same options and no Python: its whole process (wall time, peak RSS) and its
            inference alone, timed inside it, and with --callgrind their instructions;

then each target of issue 16 as a pass/miss line. Times are medians of --runs runs
(default 5 at 10k nodes and for real models, 3 at 100k, 1 at 1M). With --callgrind it also
counts instructions (valgrind's callgrind) on the 10k and 100k workloads, figures that do
not depend on the machine's load.
"""
import argparse
import hashlib
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
KINDS = ["decoder", "chain", "cnn", "decoder-ext", "tiny-nodes"]
SIZES = {"10k": 10_000, "100k": 100_000, "700k": 700_000, "1M": 1_000_000}
DEFAULT_RUNS = {"10k": 5, "100k": 3, "700k": 1, "1M": 1, "real": 5}
# decoder-ext's data file: 4 GiB of output projection, and 16 GiB for the check that the
# file's size changes nothing.
EXT_GIB, EXT_BIG_GIB = 4, 16
PYTHON = "/usr/bin/python3"  # Debian's, with python3-onnx
# onnx_child.py's infer_shapes_path(check_type=True, strict_mode=True, data_prop=True).
CXX_OPTIONS = ["--check-type", "--strict", "--data-prop"]
# Where a prefix holds ONNX's CMake package (CMake's own search layout, the common cases).
CXX_CONFIGS = ["ONNXConfig.cmake", "lib*/cmake/ONNX*/ONNXConfig.cmake",
               "lib/*/cmake/ONNX*/ONNXConfig.cmake", "share/cmake/ONNX*/ONNXConfig.cmake",
               "lib*/ONNX*/cmake/ONNXConfig.cmake", "share/ONNX*/cmake/ONNXConfig.cmake"]


# ---- Child processes.

class Child:
    """One finished child process: wall time, peak RSS, bytes it read, exit code, output."""

    def __init__(self, wall, rss_kb, rchar, rc, out):
        self.wall, self.rss_kb, self.rchar, self.rc, self.out = wall, rss_kb, rchar, rc, out

    def json_lines(self):
        rows = []
        for line in self.out.splitlines():
            line = line.strip()
            if line.startswith("{"):
                try:
                    rows.append(json.loads(line))
                except json.JSONDecodeError:
                    pass
        return rows


def run_child(cmd, cwd=None):
    """Runs cmd; its peak RSS comes from wait4's rusage (this child only), the bytes it read
    from /proc/PID/io, read while it is a zombie (waitid with WNOWAIT) before reaping it."""
    with tempfile.TemporaryFile() as out:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.DEVNULL, cwd=cwd)
        os.waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOWAIT)
        wall = time.perf_counter() - start
        rchar = None
        try:
            for line in Path(f"/proc/{proc.pid}/io").read_text().splitlines():
                if line.startswith("rchar:"):
                    rchar = int(line.split()[1])
        except OSError:
            pass
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        text = out.read().decode(errors="replace")
    return Child(wall, usage.ru_maxrss, rchar, proc.returncode, text)


def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


# ---- ONNX's C++ library (--onnx-cxx).

def build_onnx_cxx(prefix, scratch):
    """Configures and builds bench/onnx_cxx against the ONNX CMake package under prefix (or
    prefix itself, the folder holding ONNXConfig.cmake), quietly, into the scratch directory.
    Returns {"bin", "version", "prefix"}; exits with CMake's message when it cannot."""
    prefix = Path(prefix).resolve()
    if not prefix.is_dir():
        sys.exit(f"run: --onnx-cxx {prefix}: no such directory")
    if not shutil.which("cmake"):
        sys.exit("run: --onnx-cxx needs cmake (Debian: apt-get install cmake)")
    # The package's folder, found here and passed as ONNX_DIR: with only CMAKE_PREFIX_PATH,
    # CMake would go on to the system's folders and could measure /usr's ONNX instead.
    configs = [c for pattern in CXX_CONFIGS for c in sorted(prefix.glob(pattern))]
    if not configs:
        sys.exit(f"run: --onnx-cxx {prefix}: no ONNX CMake package there (no ONNXConfig.cmake "
                 f"in {prefix} or its lib*/cmake/ONNX, lib/<arch>/cmake/ONNX, share/cmake/ONNX). "
                 f"Debian: apt-get install libonnx-dev, then --onnx-cxx /usr; an ONNX build: "
                 f"cmake --install BUILD --prefix PREFIX, then --onnx-cxx PREFIX "
                 f"(docs/performance.md)")
    key = hashlib.sha256(str(configs[0]).encode()).hexdigest()[:10]
    build = scratch / f"onnx-cxx-{key}"
    print(f"building onnx-cxx-infer against {configs[0].parent} ...", file=sys.stderr, flush=True)
    for step in (["cmake", "-S", str(HERE / "onnx_cxx"), "-B", str(build),
                  "-DCMAKE_BUILD_TYPE=Release", f"-DONNX_DIR={configs[0].parent}",
                  f"-DCMAKE_PREFIX_PATH={prefix}"],
                 ["cmake", "--build", str(build)]):
        done = subprocess.run(step, capture_output=True, text=True)
        if done.returncode != 0:
            output = done.stdout + done.stderr
            log = scratch / f"onnx-cxx-{key}.log"
            log.write_text(" ".join(step) + "\n" + output)
            lines = output.splitlines()
            first = next((i for i, line in enumerate(lines)
                          if "CMake Error" in line or "error:" in line), max(len(lines) - 12, 0))
            detail = "\n  ".join(line for line in lines[first:first + 12] if line.strip())
            sys.exit(f"run: --onnx-cxx {prefix}: `{' '.join(step[:2])}` failed (all of its "
                     f"output: {log}):\n  {detail}")
    binary = build / "onnx-cxx-infer"
    probe = run_child([str(binary), "--version"])
    if probe.rc != 0 or not probe.json_lines():
        sys.exit(f"run: {binary} --version failed (exit {probe.rc})")
    return {"bin": str(binary), "version": probe.json_lines()[0]["version"],
            "prefix": str(prefix)}


def count_value_info(cxx, path):
    """The value_info entries of the model at path (subgraphs included), or None."""
    child = run_child([cxx["bin"], "--count", str(path)])
    rows = child.json_lines()
    return rows[0].get("value_info") if child.rc == 0 and rows else None


# ---- Workloads.

class Workload:
    def __init__(self, name, path, group, size=None, nodes=None):
        self.name, self.path, self.group, self.size = name, Path(path), group, size
        self.nodes = nodes
        self.fig = {}  # measured figures


def generator_key():
    """Cached models are named after the generator's source, so an edit regenerates them."""
    h = hashlib.sha256()
    for f in ("workloads.cc", "workloads.h"):
        h.update((HERE / f).read_bytes())
    return h.hexdigest()[:10]


def generate(bench, scratch, kind, size, gib=EXT_GIB):
    key = generator_key()
    stem = f"{kind}-{size}" + (f"-{gib}g" if kind == "decoder-ext" else "")
    path = scratch / f"{stem}-{key}.onnx"
    done = path.with_suffix(".ok")
    if not done.exists():
        for old in scratch.glob(f"{stem}-*"):  # an older generator's files
            old.unlink()
        print(f"generating {stem} ...", file=sys.stderr, flush=True)
        cmd = [bench, "generate", kind, str(SIZES[size]), str(path)]
        if kind == "decoder-ext":
            cmd.append(str(gib))
        gen = run_child(cmd)
        if gen.rc != 0:
            sys.exit(f"run: generating {stem} failed")
        check = run_child([PYTHON, str(HERE / "onnx_child.py"), "--check", str(path)])
        done.write_text(json.dumps({"generate": gen.json_lines()[0],
                                    "onnx_checker": check.rc == 0}))
    info = json.loads(done.read_text())
    if not info["onnx_checker"]:
        print(f"warning: onnx.checker rejects {path.name}", file=sys.stderr)
    name = f"{kind} {size}" + (f" ({gib} GiB)" if kind == "decoder-ext" else "")
    return Workload(name, path, kind, size, info["generate"]["nodes"])


def real_models(shared):
    root = Path(shared) / "models" / "real"
    if not root.is_dir():
        return []
    return [Workload(p.stem, p, "real") for p in sorted(root.rglob("*.onnx"))]


# ---- Measuring.

def measure(w, bins, scratch, runs, with_onnx, cxx=None):
    out = scratch / f"out-{os.getpid()}"
    out.mkdir(exist_ok=True)
    target = out / w.path.name  # beside nothing: external data is found beside the input
    cxx_target = out / f"cxx-{w.path.name}"
    cli, floor, onnx, cxx_runs = [], [], [], []
    for _ in range(runs):
        cli.append(run_child([bins["cli"], str(w.path), "-o", str(target), "--quiet"]))
        floor.append(run_child([bins["bench"], "floor", str(w.path), str(target)]))
        if with_onnx:
            onnx.append(run_child([PYTHON, str(HERE / "onnx_child.py"), str(w.path),
                                   str(target)]))
        if cxx:
            cxx_runs.append(run_child([cxx["bin"], str(w.path), str(cxx_target)] + CXX_OPTIONS))
    if cxx:
        # The C++ column means something only if that program annotates the model as the
        # Python path does: the same number of value_info entries in both outputs (target
        # holds the Python path's, written last).
        python_ok = with_onnx and onnx and onnx[-1].rc == 0
        measure_cxx(w.fig, cxx_runs, count_value_info(cxx, target) if python_ok else None)
        if cxx_target.exists():
            cxx_target.unlink()
    phases = run_child([bins["bench"], "phases", str(w.path), str(target), str(runs)])
    if target.exists():
        target.unlink()

    f = w.fig
    f["cli_rc"] = sorted({c.rc for c in cli})
    f["e2e"] = median([c.wall for c in cli])
    f["rss"] = median([c.rss_kb for c in cli])
    f["rchar"] = median([c.rchar for c in cli])
    rows = phases.json_lines()
    if rows:
        w.nodes = rows[0]["nodes"]
        f["errors"] = rows[0]["errors"]
        f["parse"] = median([r["load"] for r in rows])
        f["infer"] = median([r["infer"] for r in rows])
        f["write"] = median([r["serialize"] + r["write"] for r in rows])
        f["free"] = median([r["free"] for r in rows])
        f["registry"] = rows[0]["registry"]
    frows = [r for c in floor for r in c.json_lines()]
    f["floor"] = median([c.wall for c in floor])
    f["floor_rss"] = median([c.rss_kb for c in floor])
    f["floor_parse"] = median([r["load"] for r in frows])
    f["floor_write"] = median([r["write"] for r in frows])
    if with_onnx:
        ok = [c for c in onnx if c.rc == 0 and c.json_lines() and "seconds" in c.json_lines()[0]]
        if ok:
            f["onnx"] = median([c.json_lines()[0]["seconds"] for c in ok])
            f["onnx_rss"] = median([c.rss_kb for c in ok])
            # What infer_shapes_path does besides inference: read and parse the file,
            # serialize the annotated model; our phases time the same with the same
            # libprotobuf. (Its write, to the page cache, stays in: in ONNX's favour.)
            if f.get("parse") is not None and rows:
                serialize = median([r["serialize"] for r in rows])
                f["onnx_infer"] = max(f["onnx"] - f["parse"] - serialize, 1e-9)
        else:
            bad = onnx[0]
            why = bad.json_lines()[0].get("error") if bad.json_lines() else f"exit {bad.rc}"
            f["onnx_na"] = why or f"exit {bad.rc}"


def measure_cxx(f, runs, python_value_info):
    ok = [c for c in runs if c.rc == 0 and c.json_lines() and "infer" in c.json_lines()[0]]
    if not ok:
        bad = runs[0]
        why = bad.json_lines()[0].get("error") if bad.json_lines() else None
        f["cxx_na"] = why or f"exit {bad.rc}"
        return
    rows = [c.json_lines()[0] for c in ok]
    f["cxx"] = median([c.wall for c in ok])  # the whole process
    f["cxx_rss"] = median([c.rss_kb for c in ok])
    for key in ("seconds", "registry", "load", "infer", "save"):
        f[f"cxx_{key}"] = median([r[key] for r in rows])
    f["cxx_value_info"] = rows[-1]["value_info"]
    if python_value_info is not None:
        f["onnx_value_info"] = python_value_info


def callgrind_inclusive(cmd, patterns, scratch):
    """Runs cmd under callgrind: the total instructions, and the inclusive count of the first
    function whose name starts with each pattern (callgrind_annotate --inclusive)."""
    out_file = scratch / f"callgrind-{os.getpid()}.out"
    full = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out_file}"] + cmd
    child = run_child(full)
    result = {"rc": child.rc}
    if not out_file.exists():
        return result
    for line in out_file.read_text(errors="replace").splitlines():
        if line.startswith("summary:") or line.startswith("totals:"):
            result["total"] = int(line.split()[1])
    if patterns:
        ann = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100",
                              str(out_file)], capture_output=True, text=True).stdout
        for key, pattern in patterns.items():
            for line in ann.splitlines():
                parts = line.split(None, 1)
                if len(parts) < 2 or not parts[0][0].isdigit():
                    continue
                # "1,234,567 (12.3%)  file:function" or "1,234,567  file:function"
                rest = parts[1].split(")", 1)[1] if parts[1].startswith("(") else parts[1]
                func = rest.strip().split(":", 1)[-1].strip()
                if func.startswith(pattern):
                    result[key] = int(parts[0].replace(",", ""))
                    break
    out_file.unlink()
    return result


def measure_callgrind(w, bins, scratch, with_onnx, cxx=None):
    target = scratch / f"out-{os.getpid()}" / w.path.name
    target.parent.mkdir(exist_ok=True)
    f = w.fig
    ours = callgrind_inclusive([bins["cli"], str(w.path), "-o", str(target), "--quiet"],
                               {"infer": "onnx_infer::InferShapes("}, scratch)
    f["ir_e2e"], f["ir_infer"] = ours.get("total"), ours.get("infer")
    floor = callgrind_inclusive([bins["bench"], "floor", str(w.path), str(target)], {}, scratch)
    f["ir_floor"] = floor.get("total")
    if with_onnx:
        theirs = callgrind_inclusive(
            [PYTHON, str(HERE / "onnx_child.py"), str(w.path), str(target)],
            {"infer": "onnx::shape_inference::InferShapes(onnx::ModelProto&",
             "path": "onnx::shape_inference::InferShapes(std::"}, scratch)
        if theirs["rc"] == 0:
            f["ir_onnx_infer"], f["ir_onnx"] = theirs.get("infer"), theirs.get("path")
    if cxx:
        cxx_target = target.parent / f"cxx-{w.path.name}"
        theirs = callgrind_inclusive(
            [cxx["bin"], str(w.path), str(cxx_target)] + CXX_OPTIONS,
            {"infer": "onnx::shape_inference::InferShapes(onnx::ModelProto&"}, scratch)
        if theirs["rc"] == 0:
            f["ir_cxx_infer"], f["ir_cxx"] = theirs.get("infer"), theirs.get("total")
        if cxx_target.exists():
            cxx_target.unlink()
    if target.exists():
        target.unlink()


# ---- Printing.

def ratio(a, b):
    return a / b if a is not None and b else None


def fmt(v, spec="{:.3f}", none="-"):
    return none if v is None else spec.format(v)


def cxx_columns(f, mb):
    """The ONNX C++ columns of a row: its whole process, inference alone, peak RSS, and ours
    over each."""
    if "cxx_na" in f:
        cells = ["n/a", "n/a", "n/a"]
    else:
        cells = [fmt(f.get("cxx")), fmt(f.get("cxx_infer")), fmt(mb(f.get("cxx_rss")), "{:.0f}")]
    return (f" || {cells[0]:>7} {cells[1]:>8} {cells[2]:>7} | "
            f"{fmt(ratio(f.get('e2e'), f.get('cxx')), '{:.2f}'):>8} "
            f"{fmt(ratio(f.get('infer'), f.get('cxx_infer')), '{:.2f}'):>8} "
            f"{fmt(ratio(f.get('rss'), f.get('cxx_rss')), '{:.2f}'):>8}")


def print_table(workloads, cxx=None):
    head = (f"{'workload':<34} {'nodes':>8} {'parse':>7} {'infer':>7} {'write':>7} {'e2e':>7} "
            f"{'us/node':>7} {'floor':>7} {'x floor':>7} {'RSS MB':>7} {'floor MB':>8} | "
            f"{'ONNX':>7} {'ONNX inf':>8} {'ONNX MB':>7} | {'e2e/ONNX':>8} {'inf/ONNX':>8} "
            f"{'RSS/ONNX':>8}")
    if cxx:
        extra = (f" || {'C++':>7} {'C++ inf':>8} {'C++ MB':>7} | {'e2e/C++':>8} {'inf/C++':>8} "
                 f"{'RSS/C++':>8}")
        label = f"ONNX {cxx['version']} C++"
        print(" " * (len(head) + 4) + f"{label:-^{len(extra) - 4}}")
        head += extra
    print(head)
    print("-" * len(head))
    for w in workloads:
        f = w.fig
        mb = lambda kb: None if kb is None else kb / 1024  # noqa: E731
        onnx = fmt(f.get("onnx"))
        onnx_infer = fmt(f.get("onnx_infer"))
        onnx_rss = fmt(mb(f.get("onnx_rss")), "{:.0f}")
        if "onnx_na" in f:
            onnx, onnx_infer, onnx_rss = "n/a", "n/a", "n/a"
        print(f"{w.name[:34]:<34} {w.nodes or 0:>8} {fmt(f.get('parse')):>7} "
              f"{fmt(f.get('infer')):>7} {fmt(f.get('write')):>7} {fmt(f.get('e2e')):>7} "
              f"{fmt(ratio(f.get('infer'), w.nodes and w.nodes / 1e6), '{:.1f}'):>7} "
              f"{fmt(f.get('floor')):>7} {fmt(ratio(f.get('e2e'), f.get('floor')), '{:.2f}'):>7} "
              f"{fmt(mb(f.get('rss')), '{:.0f}'):>7} {fmt(mb(f.get('floor_rss')), '{:.0f}'):>8} | "
              f"{onnx:>7} {onnx_infer:>8} {onnx_rss:>7} | "
              f"{fmt(ratio(f.get('e2e'), f.get('onnx')), '{:.2f}'):>8} "
              f"{fmt(ratio(f.get('infer'), f.get('onnx_infer')), '{:.2f}'):>8} "
              f"{fmt(ratio(f.get('rss'), f.get('onnx_rss')), '{:.2f}'):>8}"
              + (cxx_columns(f, mb) if cxx else ""))
    if not cxx:
        return
    lost = [w for w in workloads if w.fig.get("onnx_value_info") is not None
            and w.fig.get("cxx_value_info") != w.fig["onnx_value_info"]]
    checked = [w for w in workloads if w.fig.get("onnx_value_info") is not None]
    for w in lost:
        print(f"warning: {w.name}: onnx-cxx-infer wrote {w.fig.get('cxx_value_info')} value_info "
              f"entries, the Python path {w.fig['onnx_value_info']}: its column does not measure "
              f"the same inference")
    if checked and not lost:
        print(f"(ONNX C++ wrote as many value_info entries as the Python path on all "
              f"{len(checked)} workloads both handled)")


def print_callgrind_table(workloads, cxx=None):
    rows = [w for w in workloads if w.fig.get("ir_e2e")]
    if not rows:
        return
    print("\ninstructions (callgrind, millions): infer = InferShapes inclusive; e2e = the whole "
          "infer-shapes process; floor = the whole floor process; ONNX = infer_shapes_path's "
          "C++ call, ONNX inf = its InferShapes(ModelProto&)")
    if cxx:
        print(f"C++ = onnx-cxx-infer's whole process (ONNX {cxx['version']} C++), C++ inf = the "
              f"InferShapes(ModelProto&) in it (the schema registry built before it)")
    head = (f"{'workload':<34} {'infer':>9} {'e2e':>9} {'floor':>9} {'x floor':>7} | "
            f"{'ONNX inf':>9} {'ONNX':>9} | {'inf/ONNX':>8} {'e2e/ONNX':>8} {'ins/node':>8}")
    if cxx:
        head += (f" || {'C++ inf':>9} {'C++':>9} | {'inf/C++':>8} {'e2e/C++':>8}")
    print(head)
    print("-" * len(head))
    m = lambda v: fmt(None if v is None else v / 1e6, "{:.0f}")  # noqa: E731
    for w in rows:
        f = w.fig
        line = (f"{w.name[:34]:<34} {m(f.get('ir_infer')):>9} {m(f.get('ir_e2e')):>9} "
                f"{m(f.get('ir_floor')):>9} {fmt(ratio(f.get('ir_e2e'), f.get('ir_floor')), '{:.2f}'):>7} | "
                f"{m(f.get('ir_onnx_infer')):>9} {m(f.get('ir_onnx')):>9} | "
                f"{fmt(ratio(f.get('ir_infer'), f.get('ir_onnx_infer')), '{:.2f}'):>8} "
                f"{fmt(ratio(f.get('ir_e2e'), f.get('ir_onnx')), '{:.2f}'):>8} "
                f"{fmt(ratio(f.get('ir_infer'), w.nodes), '{:.0f}'):>8}")
        if cxx:
            line += (f" || {m(f.get('ir_cxx_infer')):>9} {m(f.get('ir_cxx')):>9} | "
                     f"{fmt(ratio(f.get('ir_infer'), f.get('ir_cxx_infer')), '{:.2f}'):>8} "
                     f"{fmt(ratio(f.get('ir_e2e'), f.get('ir_cxx')), '{:.2f}'):>8}")
        print(line)


def print_scaling(by_name):
    """Per workload run at both 100k and 1M nodes: the cost per node at 1M over that at 100k
    (issue 32's target: within 5%), by instructions when callgrind counted both, and by the
    end-to-end time per node (noisier: the machine's load, page faults)."""
    lines = []
    for kind in KINDS:
        suffix = f" ({EXT_GIB} GiB)" if kind == "decoder-ext" else ""
        big, small = by_name.get(f"{kind} 1M{suffix}"), by_name.get(f"{kind} 100k{suffix}")
        if not (big and small and big.nodes and small.nodes):
            continue
        parts = []
        for key, what in (("ir_e2e", "instructions per node, whole process"),
                          ("ir_infer", "instructions per node, InferShapes"),
                          ("e2e", "e2e time per node")):
            b, s = big.fig.get(key), small.fig.get(key)
            if b and s:
                per_b, per_s = b / big.nodes, s / small.nodes
                spec = "{:.0f}" if key.startswith("ir_") else "{:.2f} us"
                scale = 1 if key.startswith("ir_") else 1e6
                parts.append(f"{what} {spec.format(per_b * scale)} vs {spec.format(per_s * scale)}"
                             f" = {per_b / per_s:.3f}")
        if parts:
            lines.append(f"  {kind}: 1M / 100k: " + "; ".join(parts))
    if lines:
        print("\nscaling (per node at 1M over per node at 100k; target <= 1.05):")
        print("\n".join(lines))


def print_targets(by_name, cxx=None):
    lines = []

    def check(label, value, limit, detail=""):
        if value is None:
            return
        verdict = "pass" if value <= limit else "miss"
        lines.append(f"[{verdict}] {label}: {value:.2f} (target <= {limit:.2f}){detail}")

    for kind in ("decoder", "chain"):
        w = by_name.get(f"{kind} 100k")
        if not w:
            continue
        f = w.fig
        check(f"inference alone vs ONNX's, {kind} 100k (time, ONNX's estimated)",
              ratio(f.get("infer"), f.get("onnx_infer")), 1 / 3)
        if f.get("ir_infer"):
            check(f"inference alone vs ONNX's, {kind} 100k (instructions)",
                  ratio(f.get("ir_infer"), f.get("ir_onnx_infer")), 1 / 3)
        if cxx:
            check(f"inference alone vs ONNX {cxx['version']} C++'s, {kind} 100k (time, measured)",
                  ratio(f.get("infer"), f.get("cxx_infer")), 1 / 3)
            if f.get("ir_infer"):
                check(f"inference alone vs ONNX {cxx['version']} C++'s, {kind} 100k "
                      f"(instructions)", ratio(f.get("ir_infer"), f.get("ir_cxx_infer")), 1 / 3)
        check(f"infer-shapes end to end vs infer_shapes_path, {kind} 100k (time)",
              ratio(f.get("e2e"), f.get("onnx")), 0.40)
        if f.get("ir_e2e"):
            check(f"infer-shapes end to end vs infer_shapes_path, {kind} 100k (instructions)",
                  ratio(f.get("ir_e2e"), f.get("ir_onnx")), 0.40)
    for kind in KINDS:
        for size in ("1M", "100k", "10k"):
            w = by_name.get(f"{kind} {size}" + (f" ({EXT_GIB} GiB)" if kind == "decoder-ext" else ""))
            if w:
                check(f"infer-shapes end to end vs the parse + serialize floor, {w.name} (time)",
                      ratio(w.fig.get("e2e"), w.fig.get("floor")), 1.3)
                if w.fig.get("ir_e2e"):
                    check(f"infer-shapes end to end vs the floor, {w.name} (instructions)",
                          ratio(w.fig.get("ir_e2e"), w.fig.get("ir_floor")), 1.3)
                break
    for kind in KINDS:
        suffix = f" ({EXT_GIB} GiB)" if kind == "decoder-ext" else ""
        big, small = by_name.get(f"{kind} 1M{suffix}"), by_name.get(f"{kind} 100k{suffix}")
        if big and small:
            check(f"1M-node run vs 100k-node run, {kind} (infer-shapes end to end)",
                  ratio(big.fig.get("e2e"), small.fig.get("e2e")), 10.5)
    w = by_name.get("decoder 1M")
    if w:
        check("peak RSS vs ONNX's, decoder 1M", ratio(w.fig.get("rss"), w.fig.get("onnx_rss")), 0.5)
        check("peak RSS vs the parse + serialize process, decoder 1M",
              ratio(w.fig.get("rss"), w.fig.get("floor_rss")), 1.2)
    a = by_name.get(f"decoder-ext 100k ({EXT_GIB} GiB)")
    b = by_name.get(f"decoder-ext 100k ({EXT_BIG_GIB} GiB)")
    if a and b:
        model_mb = a.path.stat().st_size / 2**20
        read = f"; infer-shapes read {fmt(a.fig.get('rchar') and a.fig['rchar'] / 2**20, '{:.1f}')} MB " \
               f"and {fmt(b.fig.get('rchar') and b.fig['rchar'] / 2**20, '{:.1f}')} MB for a {model_mb:.1f} MB model"
        check(f"external data {EXT_BIG_GIB} GiB vs {EXT_GIB} GiB, decoder-ext 100k, time",
              ratio(b.fig.get("e2e"), a.fig.get("e2e")), 1.15)
        check(f"external data {EXT_BIG_GIB} GiB vs {EXT_GIB} GiB, decoder-ext 100k, peak RSS",
              ratio(b.fig.get("rss"), a.fig.get("rss")), 1.05, read)
    print("\ntargets of issue 16 (ours / reference):")
    for line in lines:
        print("  " + line)


def real_total(reals):
    total = Workload(f"real: all {len(reals)} models", "", "real-total",
                     nodes=sum(w.nodes or 0 for w in reals))
    for key in ("parse", "infer", "write", "e2e", "floor", "onnx", "onnx_infer", "cxx",
                "cxx_infer"):
        vals = [w.fig.get(key) for w in reals]
        if key.startswith("onnx"):
            vals = [v for w, v in zip(reals, vals) if "onnx_na" not in w.fig]
        if key.startswith("cxx"):
            vals = [v for w, v in zip(reals, vals) if "cxx_na" not in w.fig]
        total.fig[key] = sum(v for v in vals if v is not None)
    # The ratios of the total row compare ours and ONNX's on the models ONNX handled.
    total.fig["e2e_onnx_ok"] = sum(w.fig.get("e2e") or 0 for w in reals if "onnx_na" not in w.fig)
    return total


def machine():
    cpu = "?"
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            cpu = line.split(":", 1)[1].strip()
            break
    mem = "?"
    for line in Path("/proc/meminfo").read_text().splitlines():
        if line.startswith("MemTotal"):
            mem = f"{int(line.split()[1]) / 2**20:.1f} GiB"
    onnx = run_child([PYTHON, str(HERE / "onnx_child.py")])
    version = onnx.json_lines()[0]["version"] if onnx.rc == 0 and onnx.json_lines() else "absent"
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip()
    return {"nproc": os.cpu_count(), "cpu": cpu, "ram": mem, "onnx": version,
            "onnx_python_rss_mb": onnx.rss_kb / 1024, "kernel": platform.release(),
            "commit": commit, "load": os.getloadavg()}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", required=True, help="bazel-bin of an opt build")
    ap.add_argument("--sizes", default="10k,100k,1M",
                    help="of 10k, 100k, 700k (the issue's tiny-nodes model), 1M")
    ap.add_argument("--workloads", default=",".join(KINDS + ["real"]),
                    help="of decoder, chain, cnn, decoder-ext, tiny-nodes, real")
    ap.add_argument("--runs", type=int, help="runs per workload (default 5/3/1 by size)")
    ap.add_argument("--callgrind", action="store_true",
                    help="also count instructions on the 10k and 100k workloads")
    ap.add_argument("--callgrind-sizes", default="10k,100k",
                    help="the sizes --callgrind counts (1M: about 10 minutes a workload)")
    ap.add_argument("--only-callgrind", action="store_true",
                    help="only the instruction counts, no timed runs (they do not disturb "
                         "a timed run on another machine's load as much as it disturbs them)")
    ap.add_argument("--no-onnx", action="store_true", help="skip ONNX's side")
    ap.add_argument("--onnx-cxx", metavar="PREFIX",
                    default=os.environ.get("ONNX_INFER_BENCH_ONNX_CXX"),
                    help="also a column of ONNX's C++ library installed under PREFIX (its CMake "
                         "package: lib/cmake/ONNX; Debian's libonnx-dev: /usr), measured by "
                         "bench/onnx_cxx built here (default: $ONNX_INFER_BENCH_ONNX_CXX)")
    ap.add_argument("--scratch", default=os.environ.get("ONNX_INFER_BENCH_DIR",
                                                        "/tmp/onnx-infer-bench"),
                    help="where generated models are cached")
    ap.add_argument("--shared", default=str(ROOT.parent / "shared"))
    ap.add_argument("--json", help="write every figure to this file")
    args = ap.parse_args()

    sizes = [s for s in args.sizes.split(",") if s]
    for s in sizes:
        if s not in SIZES:
            sys.exit(f"run: unknown size {s} (10k, 100k, 700k, 1M)")
    kinds = [k for k in args.workloads.split(",") if k]
    for k in kinds:
        if k not in KINDS + ["real"]:
            sys.exit(f"run: unknown workload {k}")
    bins = {"cli": str(Path(args.bin) / "cli" / "infer-shapes"),
            "bench": str(Path(args.bin) / "bench" / "onnx-infer-bench")}
    scratch = Path(args.scratch)
    scratch.mkdir(parents=True, exist_ok=True)
    with_onnx = not args.no_onnx
    if args.callgrind and not shutil.which("valgrind"):
        sys.exit("run: --callgrind needs valgrind (tools/setup.sh installs it)")

    cxx = build_onnx_cxx(args.onnx_cxx, scratch) if args.onnx_cxx else None
    info = machine()
    if cxx:
        info["onnx_cxx"] = cxx
    if info["onnx"] == "absent":
        with_onnx = False
    print(f"machine: {info['nproc']} cores, {info['cpu']}, {info['ram']} RAM; "
          f"load average {info['load'][0]:.2f}; ONNX {info['onnx']} (Python + onnx alone: "
          f"{info['onnx_python_rss_mb']:.0f} MB RSS); onnx-infer {info['commit']}")
    if cxx:
        print(f"ONNX {cxx['version']} C++ = bench/onnx_cxx's onnx-cxx-infer linked against "
              f"{cxx['prefix']}: InferShapes(check_type, strict, data propagation) with no "
              f"Python; C++ = its whole process, C++ inf = the inference in it, RSS its peak")
    if not args.only_callgrind:
        print("times in seconds (median of runs); e2e = infer-shapes -o, a child process; "
              "parse, infer, write = its phases in process; floor = a process that only reads, "
              "parses and serializes straight to the file; ONNX = infer_shapes_path in its "
              "process, ONNX inf = that less our parse and serialize phases; RSS = peak of "
              "the child process\n", flush=True)

    plan = []
    for kind in [k for k in KINDS if k in kinds]:
        for size in sizes:
            plan.append((kind, size, EXT_GIB))
            if kind == "decoder-ext" and size == "100k":
                plan.append((kind, size, EXT_BIG_GIB))
    workloads = []
    for kind, size, gib in plan:
        w = generate(bins["bench"], scratch, kind, size, gib)
        w.runs = args.runs or DEFAULT_RUNS[size]
        workloads.append(w)
    reals = real_models(args.shared) if "real" in kinds else []
    for w in reals:
        w.runs = args.runs or DEFAULT_RUNS["real"]
    if "real" in kinds and not reals:
        print(f"(no real models under {args.shared}/models/real: skipped)")

    if args.only_callgrind:
        args.callgrind, reals = True, []
    for w in ([] if args.only_callgrind else workloads + reals):
        print(f"measuring {w.name} ...", file=sys.stderr, flush=True)
        measure(w, bins, scratch, w.runs, with_onnx, cxx)
    if not args.only_callgrind:
        print_table(workloads + reals + ([] if not reals else [real_total(reals)]), cxx)
    if reals:
        total = real_total(reals)
        na = [w for w in reals if "onnx_na" in w.fig]
        ok_e2e, ok_onnx = total.fig["e2e_onnx_ok"], total.fig["onnx"]
        print(f"\nreal models: ONNX n/a on {len(na)} of {len(reals)}"
              + (" (" + "; ".join(f"{w.name}: {w.fig['onnx_na'][:80]}" for w in na) + ")" if na else "")
              + f"; over the {len(reals) - len(na)} it handled, infer-shapes end to end "
              f"{fmt(ok_e2e)} s vs infer_shapes_path {fmt(ok_onnx)} s "
              f"(ratio {fmt(ratio(ok_e2e, ok_onnx), '{:.2f}')}; ours includes process start-up "
              f"and the schema registry, {fmt(reals[0].fig.get('registry'))} s, per model)")

    if args.callgrind:
        # The 16 GiB decoder-ext is the 4 GiB one with a larger hole: counted once.
        cg_sizes = [s for s in args.callgrind_sizes.split(",") if s]
        cg = [w for w in workloads
              if w.size in cg_sizes and not w.name.endswith(f"({EXT_BIG_GIB} GiB)")]
        for w in cg:
            print(f"callgrind {w.name} ...", file=sys.stderr, flush=True)
            measure_callgrind(w, bins, scratch, with_onnx, cxx)
        print_callgrind_table(cg, cxx)

    print_scaling({w.name: w for w in workloads})
    print_targets({w.name: w for w in workloads}, cxx)
    end_load = os.getloadavg()
    print(f"\nload average at the end: {end_load[0]:.2f} (on {info['nproc']} cores)")
    if args.json:
        Path(args.json).write_text(json.dumps(
            {"machine": info, "end_load": end_load,
             "workloads": [{"name": w.name, "nodes": w.nodes, "runs": getattr(w, "runs", None),
                            **w.fig} for w in workloads + reals]}, indent=1))


if __name__ == "__main__":
    main()
