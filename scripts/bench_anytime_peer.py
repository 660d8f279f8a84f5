#!/usr/bin/env python3
"""CA-ConTree (pytrees-rs) on one dataset for scripts/bench-anytime: one JSON line.

usage: bench_anytime_peer.py DATA.csv DEPTH TIME_LIMIT

Runs `pytrees.ConTreeClassifier(max_depth=DEPTH, max_time=TIME_LIMIT, use_lds=True,
sort_by_heuristic=True, split_selection="first")` through `fit_anytime`, whose callback
reports each better tree; every point's time is wall-clock seconds since the call began. The
last tree is re-evaluated on the data (its training errors, printed as `tree_errors`).
"""
from __future__ import annotations

import csv
import json
import sys
import time

import numpy as np
from pytrees import ConTreeClassifier


def main() -> None:
    path, depth, limit = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
    with open(path, newline="") as handle:
        rows = list(csv.reader(handle))[1:]
    x = np.array([[float(v) for v in row[:-1]] for row in rows])
    y = np.array([row[-1] for row in rows])
    points: list[list[float]] = []
    model = ConTreeClassifier(
        max_depth=depth,
        max_time=limit,
        use_lds=True,
        sort_by_heuristic=True,
        split_selection="first",
    )
    start = time.perf_counter()
    model.fit_anytime(
        x, y, callback=lambda errors, _seconds, _status: points.append(
            [time.perf_counter() - start, float(errors)]
        )
    )
    seconds = time.perf_counter() - start
    print(json.dumps({
        "trajectory": points,
        "status": model.status_,
        "seconds": seconds,
        "tree_errors": int((model.predict(x) != y).sum()),
    }))


if __name__ == "__main__":
    main()
