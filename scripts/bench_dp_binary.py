"""The exact search on binarised data against STreeD (see bench-dp-binary).

For every dataset and depth: the features binarised with a few thresholds each
(`binarised.binarise`), then, one after the other on the same 0/1 matrix and one thread each,
milptree's search (`examples/bench_dp`) with the depth-two kernel by counts, the same build
with that kernel switched off (`counts`, the kernel of scans), and STreeD (`pystreed`, accuracy,
the same depth and time limit) when the peers' venv has it. CPU seconds of the solve alone are
compared (the search's thread; STreeD's process time around `fit`), and the table prints their
ratios and whether the optima agree. With `BENCH_BEFORE` naming a `bench_dp` built from another
commit, that build runs too (defaults on), for a change measured before and after in one run.
Timings are reported, never judged.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from binarised import binarise, load

STREED = r"""
import json, sys, time, warnings
import numpy as np, pandas as pd
from pystreed import STreeDClassifier
warnings.filterwarnings("ignore")
path, depth, limit = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
frame = pd.read_csv(path)
x = frame.iloc[:, :-1].to_numpy(dtype=np.intc)
y = frame.iloc[:, -1].to_numpy(dtype=np.intc)
model = STreeDClassifier(optimization_task="accuracy", max_depth=depth,
                         max_num_nodes=2 ** depth - 1, time_limit=limit, random_seed=0)
cpu = time.process_time()
model.fit(x, y)
cpu = time.process_time() - cpu
wrong = int((np.asarray(model.predict(x)).astype(int) != y).sum())
print(json.dumps({"cpu_seconds": cpu, "objective": wrong,
                  "optimal": bool(model.fit_result.is_optimal())}))
"""


def run_json(command: list[str], limit: float) -> dict[str, Any] | None:
    """The last JSON line a command prints, or None when it fails or overruns the limit."""
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=limit + 120)
    except subprocess.TimeoutExpired:
        return None
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if done.returncode != 0 or not lines:
        sys.stderr.write(done.stderr[-2000:])
        return None
    return json.loads(lines[-1])


def ours(bench_dp: str, csv: Path, depth: int, limit: float, switch: str) -> dict[str, Any] | None:
    """One solve by `bench_dp` with `switch` off (`none`: the defaults)."""
    return run_json([bench_dp, str(csv), str(depth), str(limit), switch], limit)


def cell(run: dict[str, Any] | None) -> str:
    """CPU seconds, or `-` for no run and `>` before the seconds of a run that was not proven."""
    if run is None:
        return "-"
    proven = run.get("termination") == "optimal" or run.get("optimal") is True
    return f"{'' if proven else '>'}{run['cpu_seconds']:.3f}"


def proven(run: dict[str, Any] | None) -> bool:
    return run is not None and (run.get("termination") == "optimal" or run.get("optimal") is True)


def geomean(values: list[float]) -> str:
    return f"{math.exp(sum(math.log(v) for v in values) / len(values)):.3f}" if values else "-"


def main() -> None:
    bench_dp, python, shared = sys.argv[1], sys.argv[2], Path(sys.argv[3])
    names = [n for n in os.environ.get("BENCH_DATASETS", "").split(",") if n] or sorted(
        p.stem for p in (shared / "datasets").glob("*.csv"))
    depths = [int(d) for d in os.environ.get("BENCH_DEPTHS", "2,3,4").split(",")]
    limit = float(os.environ.get("BENCH_TIME_LIMIT", "60"))
    per_feature = int(os.environ.get("BENCH_THRESHOLDS", "4"))
    streed = python != "none"
    before = os.environ.get("BENCH_BEFORE")
    out = Path(os.environ.get("BENCH_OUT", "target/bench-dp-binary.jsonl"))
    out.parent.mkdir(parents=True, exist_ok=True)
    print(f"binarised with at most {per_feature} thresholds per feature; {limit:g} s per solve, "
          "CPU seconds of the solve ('>' not proven)")
    print(f"{'dataset':<18} {'d':>1} {'cols':>4} {'counts s':>9} {'scans s':>9} {'scans/counts':>12} "
          f"{'STreeD s':>9} {'counts/STreeD':>13} {'before s':>9} {'before/counts':>13}  optima")
    speedups, ratios, gains = [], [], []
    with tempfile.TemporaryDirectory() as tmp, out.open("a") as log:
        for name in names:
            x, y, _ = load(shared / "datasets" / f"{name}.csv")
            xb, columns = binarise(x, per_feature)
            csv = Path(tmp) / f"{name}.csv"
            frame = pd.DataFrame(xb.astype(np.uint8), columns=columns)
            frame["class"] = y
            frame.to_csv(csv, index=False)
            for depth in depths:
                counted = ours(bench_dp, csv, depth, limit, "none")
                scanned = ours(bench_dp, csv, depth, limit, "counts")
                peer = run_json([python, "-c", STREED, str(csv), str(depth), str(limit)],
                                limit) if streed else None
                earlier = ours(before, csv, depth, limit, "none") if before else None
                runs = {"counts": counted, "scans": scanned, "streed": peer, "before": earlier}
                log.write(json.dumps({"dataset": name, "depth": depth, "columns": len(columns),
                                      "limit": limit, "thresholds": per_feature, **runs}) + "\n")
                optima = {k: r["objective"] for k, r in runs.items() if proven(r)}
                agree = "agree" if len(set(optima.values())) <= 1 else f"DIFFER {optima}"
                speed = ratio = gain = "-"
                if proven(counted) and proven(scanned):
                    s = max(scanned["cpu_seconds"], 1e-4) / max(counted["cpu_seconds"], 1e-4)
                    speedups.append(s)
                    speed = f"{s:.2f}"
                if proven(counted) and proven(peer):
                    r = max(counted["cpu_seconds"], 1e-4) / max(peer["cpu_seconds"], 1e-4)
                    ratios.append(r)
                    ratio = f"{r:.3f}"
                if proven(counted) and proven(earlier):
                    g = max(earlier["cpu_seconds"], 1e-4) / max(counted["cpu_seconds"], 1e-4)
                    gains.append(g)
                    gain = f"{g:.2f}"
                print(f"{name:<18} {depth:>1} {len(columns):>4} {cell(counted):>9} "
                      f"{cell(scanned):>9} {speed:>12} {cell(peer):>9} {ratio:>13} "
                      f"{cell(earlier):>9} {gain:>13}  {agree}", flush=True)
    print(f"geometric mean over the instances both proved: scans/counts {geomean(speedups)} "
          f"({len(speedups)}), counts/STreeD {geomean(ratios)} ({len(ratios)}), "
          f"before/counts {geomean(gains)} ({len(gains)})")
    if not streed:
        print("note: no STreeD runs (no peers venv with pystreed)")


if __name__ == "__main__":
    main()
