"""milptree: optimal classification trees as scikit-learn estimators.

The exact search (``method="dp"``), the sparse search (``"sparse"``) and the MILP formulations
(``"oct"``, ``"binoct"``, ``"flowoct"``, ``"olct"`` on HiGHS or CBC) of the ``milptree``
command line, over the same engine::

    from milptree import OptimalTreeClassifier
    model = OptimalTreeClassifier(method="dp", max_depth=3).fit(X, y)

The estimator module (and so scikit-learn) is imported on first use, so that the command line
this package installs, which also runs the solvers' worker processes, starts quickly.
"""

import os
import sysconfig

from milptree._core import __version__

__all__ = ["OptimalTreeClassifier", "load_tree", "pareto_front", "plot_tree", "__version__"]

_WORKER_ENV = "MILPTREE_WORKER"


def _use_installed_worker():
    """HiGHS and CBC solves run in a child ``milptree`` process: the command line this package
    installs, unless ``MILPTREE_WORKER`` names another."""
    if os.environ.get(_WORKER_ENV):
        return
    name = "milptree.exe" if os.name == "nt" else "milptree"
    for scheme in (None, f"{os.name}_user"):
        try:
            scripts = sysconfig.get_path("scripts", scheme) if scheme else sysconfig.get_path("scripts")
        except KeyError:
            continue
        candidate = os.path.join(scripts, name)
        if os.path.isfile(candidate):
            os.environ[_WORKER_ENV] = candidate
            return


_use_installed_worker()


def __getattr__(name):
    if name in ("OptimalTreeClassifier", "load_tree"):
        from milptree import estimator

        return getattr(estimator, name)
    if name == "pareto_front":
        from milptree.pareto import pareto_front

        return pareto_front
    if name == "plot_tree":
        from milptree.plot import plot_tree

        return plot_tree
    raise AttributeError(f"module 'milptree' has no attribute {name!r}")
