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

__all__ = [
    "OptimalTreeClassifier",
    "RashomonSet",
    "export_text",
    "load_tree",
    "pareto_front",
    "plot_tree",
    "__version__",
]

# The public names the package imports on first use, and the module each comes from.
_LAZY = {
    "OptimalTreeClassifier": "milptree.estimator",
    "load_tree": "milptree.estimator",
    "export_text": "milptree.export",
    "pareto_front": "milptree.pareto",
    "RashomonSet": "milptree.rashomon",
    "plot_tree": "milptree.plot",
}

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
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'milptree' has no attribute {name!r}")


def __dir__():
    """The module's names with those imported on first use, so that completion finds them."""
    return sorted(set(globals()) | set(__all__))
