"""An ``OptimalTreeClassifier`` that measures its own ``fit``: the process's CPU seconds over
the wall seconds (the cores it kept busy) and the threads its search was given. A module of its
own, so that the worker processes of a Dask or Ray cluster can import it by name."""

import time

from milptree import OptimalTreeClassifier


class CpuProbeTree(OptimalTreeClassifier):
    """``OptimalTreeClassifier`` that keeps ``cores_used_`` and ``threads_used_`` of its fit."""

    def fit(self, X, y, sample_weight=None):
        """Fits as the parent does, and measures the fit."""
        wall, cpu = time.perf_counter(), time.process_time()
        super().fit(X, y, sample_weight)
        self.cores_used_ = (time.process_time() - cpu) / max(time.perf_counter() - wall, 1e-9)
        # The threads the search was given (the report's `threads` is the MILP solver's).
        self.threads_used_ = self._settings().get("threads", 1)
        return self


def cores_used(estimator, X, y):
    """A scorer (``GridSearchCV(scoring=...)``) that reports the fit's ``cores_used_``."""
    return estimator.cores_used_


def threads_used(estimator, X, y):
    """A scorer that reports the threads the fit's search ran with."""
    return estimator.threads_used_
