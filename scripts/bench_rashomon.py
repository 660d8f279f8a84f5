"""Rashomon-set counts of milptree against TreeFARMS, ArborEnum and PRAXIS (see bench-rashomon).

`python bench_rashomon.py run ...` drives the whole benchmark; `python bench_rashomon.py report
DIR` prints the table of DIR/results.jsonl again; `python bench_rashomon.py peer
TOOL CASE.npz` runs one peer on one case in its own process (so that its peak memory and wall
time are its own) and prints one JSON document.

Conventions (established from the peers' installed sources and checked on tiny data):

* Objective. The peers score a tree as (misclassified rows) / n + lambda * (leaves).  milptree
  scores errors + C * (split nodes).  With k = lambda * n an integer (lambda is rounded to k / n,
  k >= 1; ArborEnum and PRAXIS round lambda * n to an integer themselves), C = k and
  n * peer = milptree + k, since leaves = splits + 1.
* Bound. Every peer's bound is (1 + epsilon) * optimum of its own objective.  With P = milptree's
  optimum + k (the peers' optimum in units of 1/n), the set is every tree of integer
  n * objective <= B = floor((1 + epsilon) * P + 1e-9 * n).  Each peer gets B directly
  (TreeFARMS `rashomon_bound` = (B + 0.5) / n, ArborEnum / PRAXIS `root_budget` = B) and milptree
  gets `--max-errors` B - k + 0.5, so no peer depends on its own search for the optimum or on
  floating-point ties at the boundary.  (ArborEnum left alone rounds (1 + epsilon) * P to the
  nearest integer, and from a proxy objective rather than the optimum.)
* Depth. milptree's --depth D counts split levels.  TreeFARMS' depth_budget counts the root-only
  tree as depth 1: it gets D + 1.  ArborEnum's and PRAXIS' depth_budget counts split levels
  (depth_budget 0 is a leaf): they get D.
* Leaves. TreeFARMS labels each leaf with its majority class; ArborEnum and PRAXIS count every
  labelling unless majority_leaf_only=True, which they get.  TreeFARMS drops "trivial extensions"
  (terminal splits that do not improve accuracy) unless rashomon_ignore_trivial_extensions is
  false, which it gets.
* What is counted. TreeFARMS, ArborEnum and PRAXIS count trees by structure: each (feature,
  threshold) at each node is another tree, even when it splits the node's rows the same way as
  another; this is milptree's `count_over_thresholds`, which is what the table compares.
"""

from __future__ import annotations

import io
import json
import math
import os
import resource
import subprocess
import sys
import tempfile
import time
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from binarised import binarise, load

PEERS = ("treefarms", "arborenum", "praxis")


def measured(command: list[str], limit: float) -> dict[str, Any]:
    """Runs a command with a wall-clock limit: its stdout, wall seconds and peak RSS (bytes)."""
    start = time.perf_counter()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        child = subprocess.Popen(command, stdout=out, stderr=err, start_new_session=True)
        timed_out = False
        while True:
            pid, status, usage = os.wait4(child.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() - start > limit:
                timed_out = True
                os.killpg(child.pid, 9)
                pid, status, usage = os.wait4(child.pid, 0)
                break
            time.sleep(0.02)
        wall = time.perf_counter() - start
        out.seek(0)
        err.seek(0)
        return {
            "wall": wall,
            "rss": usage.ru_maxrss * 1024,
            "timed_out": timed_out,
            "status": os.waitstatus_to_exitcode(status),
            "stdout": out.read().decode(errors="replace"),
            "stderr": err.read().decode(errors="replace")[-2000:],
        }


def run_peer(tool: str, case: Path) -> dict[str, Any]:
    """Fits one peer on a case file (x, y, depth, k, bound) and returns its count."""
    data = np.load(case)
    x, y = data["x"], data["y"]
    depth, k, bound = int(data["depth"]), int(data["k"]), int(data["bound"])
    n = len(y)
    lam = k / n
    noise = io.StringIO()
    __import__({"treefarms": "treefarms", "arborenum": "arborenum", "praxis": "praxis"}[tool])
    start = time.perf_counter()
    result: dict[str, Any] = {}
    with redirect_stdout(noise):
        if tool == "treefarms":
            from treefarms import TREEFARMS

            config = {
                "regularization": lam,
                "rashomon": True,
                "rashomon_bound": (bound + 0.5) / n,
                "rashomon_ignore_trivial_extensions": False,
                "depth_budget": depth + 1,
                "allow_small_reg": True,
                "verbose": False,
            }
            frame = pd.DataFrame(x.astype(int), columns=[f"b{j}" for j in range(x.shape[1])])
            model = TREEFARMS(config)
            model.fit(frame, pd.Series(y, name="class"))
            result["count"] = int(model.get_tree_count())
        elif tool == "arborenum":
            from arborenum import ArborEnum

            model = ArborEnum()
            model.fit(x, y, proxy_mode="continuous", lambda_reg=lam, depth_budget=depth,
                      rashomon_mult=0.0, root_budget=bound, majority_leaf_only=True)
            result["count"] = int(model.count_trees())
            result["optimum"] = int(model.get_min_objective())
        elif tool == "praxis":
            from praxis import PRAXIS

            model = PRAXIS()
            model.fit(x.astype(np.uint8), y, lambda_reg=lam, depth_budget=depth,
                      rashomon_mult=0.0, root_budget=bound, majority_leaf_only=True)
            result["count"] = int(model.count_trees())
            result["optimum"] = int(model.get_min_objective())
        else:
            raise SystemExit(f"unknown peer {tool}")
    result["tool_seconds"] = time.perf_counter() - start
    return result


def milptree(binary: str, data: Path, depth: int, k: int, bound: int | None, eps: float,
             limit: float) -> dict[str, Any]:
    """One `milptree rashomon --json` run: by --max-errors when a bound is given."""
    command = [binary, "rashomon", str(data), "--depth", str(depth), "--split-cost", str(k),
               "--json", "--time-limit", str(limit)]
    command += ["--max-errors", f"{bound - k + 0.5}"] if bound is not None else ["--epsilon", str(eps)]
    run = measured(command, limit + 30)
    if run["status"] == 0 and not run["timed_out"]:
        try:
            run["json"] = json.loads(run["stdout"])
        except json.JSONDecodeError:
            pass
    return run


def main_run(argv: list[str]) -> None:
    """The benchmark: settings from argv (see bench-rashomon)."""
    (binary, python, folder, datasets, depths, margins, peers, limit, lam, per_feature,
     out) = argv
    out_dir = Path(out)
    out_dir.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="bench-rashomon-"))
    rows: list[dict[str, Any]] = []
    results = (out_dir / "results.jsonl").open("w")
    for name in datasets.split(","):
        path = Path(folder) / f"{name}.csv"
        if not path.exists():
            path = Path(name)
            name = path.stem
        x, y, _ = load(path)
        n = len(y)
        k = max(1, round(float(lam) * n))
        xb, bnames = binarise(x, int(per_feature))
        cont_csv = work / f"{name}.csv"
        bin_csv = work / f"{name}-bin.csv"
        pd.DataFrame(np.column_stack([x, y]), columns=[f"x{j}" for j in range(x.shape[1])] + ["class"]) \
            .astype({"class": int}).to_csv(cont_csv, index=False)
        pd.DataFrame(np.column_stack([xb, y]), columns=bnames + ["class"]).to_csv(bin_csv, index=False)
        for depth in [int(d) for d in depths.split(",")]:
            for feats, csv in (("binarised", bin_csv), ("continuous", cont_csv)):
                wanted = [p for p in peers.split(",") if p
                          and (p == "arborenum") == (feats == "continuous")]
                if not wanted:
                    continue
                optimum_run = milptree(binary, csv, depth, k, None, 0.0, float(limit))
                if "json" not in optimum_run:
                    print(f"bench-rashomon: {name} d{depth} {feats}: milptree found no optimum "
                          f"({'time-out' if optimum_run['timed_out'] else optimum_run['stderr'][-300:]})",
                          file=sys.stderr)
                    continue
                optimum = int(round(float(optimum_run["json"]["optimum"])))
                for margin in [float(m) for m in margins.split(",")]:
                    peak = optimum + k
                    bound = math.floor((1 + margin) * peak + 1e-9 * n)
                    case = work / f"{name}-{depth}-{feats}-{margin}.npz"
                    np.savez(case, x=xb if feats == "binarised" else x, y=y, depth=depth, k=k,
                             bound=bound)
                    base = {"dataset": name, "n": n, "depth": depth, "margin": margin,
                            "features": feats, "columns": int((xb if feats == "binarised" else x).shape[1]),
                            "k": k, "bound": bound, "milptree_optimum": optimum}
                    print(f"bench-rashomon: {name} d{depth} eps {margin} {feats}", file=sys.stderr)
                    ours = milptree(binary, csv, depth, k, bound, margin, float(limit))
                    record = dict(base, tool="milptree", wall=ours["wall"], rss=ours["rss"],
                                  timed_out=ours["timed_out"])
                    if "json" in ours:
                        record.update(count=int(ours["json"]["count"]),
                                      count_over_thresholds=int(ours["json"]["count_over_thresholds"]),
                                      tool_seconds=ours["json"].get("seconds"))
                    else:
                        record["error"] = ours["stderr"][-300:]
                    rows.append(record)
                    results.write(json.dumps(record) + "\n")
                    for peer in wanted:
                        run = measured([python, __file__, "peer", peer, str(case)], float(limit))
                        theirs = dict(base, tool=peer, wall=run["wall"], rss=run["rss"],
                                      timed_out=run["timed_out"])
                        line = [s for s in run["stdout"].splitlines() if s.startswith("{")]
                        if line and not run["timed_out"]:
                            theirs.update(json.loads(line[-1]))
                        elif not run["timed_out"]:
                            theirs["error"] = run["stderr"][-300:]
                        rows.append(theirs)
                        results.write(json.dumps(theirs) + "\n")
                    results.flush()
    report(rows, out_dir)


def report(rows: list[dict[str, Any]], out_dir: Path) -> None:
    """Prints the table and writes results.csv."""
    header = (f"{'dataset':14s} {'n':>5s} {'d':>2s} {'eps':>5s} {'feat':5s} {'cols':>4s} {'B':>5s} "
              f"{'tool':10s} {'count':>16s} {'milptree cot':>16s} {'same set?':9s} {'wall s':>8s} "
              f"{'tool s':>8s} {'peak MiB':>8s} {'ours/peer':>9s} {'tool s ratio':>12s}")
    lines = [header]
    csv = ["dataset,n,depth,margin,features,columns,k,bound,tool,count,milptree_count,"
           "milptree_count_over_thresholds,same_set,wall_seconds,tool_seconds,peak_bytes,ratio,"
           "tool_seconds_ratio"]
    ours: dict[tuple[Any, ...], dict[str, Any]] = {}
    for r in rows:
        key = (r["dataset"], r["depth"], r["margin"], r["features"])
        if r["tool"] == "milptree":
            ours[key] = r
        mine = ours.get(key, {})
        if r.get("timed_out"):
            count = "time-out"
        elif "count" in r:
            count = str(r["count"])
        else:
            count = "error"
        same = ""
        ratio = ""
        tool_ratio = ""
        if r["tool"] == "milptree":
            count = f"{r.get('count', count)}"
            cot = str(r.get("count_over_thresholds", ""))
        else:
            cot = str(mine.get("count_over_thresholds", ""))
            if "count" in r and "count_over_thresholds" in mine:
                same = "yes" if r["count"] == mine["count_over_thresholds"] else "no"
            elif r.get("timed_out") or mine.get("timed_out"):
                same = "n/a (t/o)"
            if mine.get("wall") and r.get("wall") and not r.get("timed_out"):
                ratio = f"{mine['wall'] / r['wall']:.3g}"
            ours_s, peer_s = mine.get("tool_seconds"), r.get("tool_seconds")
            if ours_s and peer_s and not r.get("timed_out"):
                tool_ratio = f"{float(ours_s) / float(peer_s):.3g}"
        tool_s = r.get("tool_seconds")
        tool_s = f"{float(tool_s):.3f}" if tool_s not in (None, "") else ""
        lines.append(
            f"{r['dataset']:14s} {r['n']:5d} {r['depth']:2d} {r['margin']:5.2f} {r['features'][:5]:5s} "
            f"{r['columns']:4d} {r['bound']:5d} {r['tool']:10s} {count:>16s} {cot:>16s} {same:9s} "
            f"{r['wall']:8.2f} {tool_s:>8s} {r['rss'] / 2**20:8.1f} {ratio:>9s} {tool_ratio:>12s}")
        csv.append(",".join(str(v) for v in (
            r["dataset"], r["n"], r["depth"], r["margin"], r["features"], r["columns"], r["k"],
            r["bound"], r["tool"], count, mine.get("count", ""), cot, same, f"{r['wall']:.3f}",
            tool_s, r["rss"], ratio, tool_ratio)))
    text = "\n".join(lines)
    print(text)
    (out_dir / "table.txt").write_text(text + "\n")
    (out_dir / "results.csv").write_text("\n".join(csv) + "\n")


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "peer":
        print(json.dumps(run_peer(sys.argv[2], Path(sys.argv[3]))))
    elif len(sys.argv) > 2 and sys.argv[1] == "report":
        report([json.loads(line) for line in Path(sys.argv[2], "results.jsonl").open()],
               Path(sys.argv[2]))
    elif len(sys.argv) > 1 and sys.argv[1] == "run":
        main_run(sys.argv[2:])
    else:
        raise SystemExit(__doc__)
