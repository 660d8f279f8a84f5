"""``OptimalTreeClassifier``: a scikit-learn classifier over milptree's methods.

The parameters are stored as given in ``__init__`` and checked in ``fit``, where they become
the engine's settings, keyed by the parameters' own names, and go through the engine's checks
(the same as the command line's): an engine error is a ``ValueError`` naming the parameters
as this class names them.

How ``X`` is read (categorical columns, their labels, sparse input) is ``milptree._columns``;
the scikit-learn arrays of ``tree_`` are ``milptree.tree_structure``; the text rendering is
``milptree.export``.
"""

import html
import json
import numbers
import os
import warnings
from typing import Any, Optional

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils import _safe_indexing
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import _check_sample_weight, _num_samples, check_is_fitted

from milptree import _columns, _core, _groups, tree_structure

try:  # scikit-learn >= 1.6
    from sklearn.utils.validation import validate_data as _validate_data

    # NaN in X is a missing value; infinities are still refused.
    _ALLOW_NAN = {"ensure_all_finite": "allow-nan"}
except ImportError:  # pragma: no cover - older scikit-learn

    def _validate_data(estimator, *args, **kwargs):
        return estimator._validate_data(*args, **kwargs)

    _ALLOW_NAN = {"force_all_finite": "allow-nan"}


METHODS = ("dp", "sparse", "oct", "binoct", "flowoct", "olct")
"""The values of ``OptimalTreeClassifier``'s ``method``."""
MILP_METHODS = ("oct", "binoct", "flowoct", "olct")
"""The methods that are MILP formulations, solved by ``solver``."""
FAIR_METHODS = ("dp", "sparse", "oct", "binoct", "flowoct")
"""The methods that take the fairness bounds (``max_parity_gap``, ``max_opportunity_gap``)."""
ON_INTERRUPT = ("keep", "raise")
"""The values of ``on_interrupt``: what an interrupted fit does (keep the best tree found, or
re-raise and stay as it was)."""

# Each parameter passed on to the engine's settings as it is given, with the kind it must be.
_SETTINGS = (
    ("objective", str),
    ("alpha", numbers.Real),
    ("min_samples_leaf", numbers.Integral),
    ("max_splits", numbers.Integral),
    ("leaf_penalty", numbers.Real),
    ("thresholds", str),
    ("warm_start", str),
    ("time_limit", numbers.Real),
    ("threads", numbers.Integral),
    ("memory_limit", numbers.Integral),
    ("mip_gap", numbers.Real),
    ("certify", (numbers.Real, str)),
    ("max_features_used", numbers.Integral),
    ("max_leaves", numbers.Integral),
    ("min_leaf_rows", numbers.Integral),
    ("max_leaf_rows", numbers.Integral),
    ("max_parity_gap", numbers.Real),
    ("max_opportunity_gap", numbers.Real),
)


def _value(value):
    """A parameter's value as JSON takes it (NumPy scalars as Python numbers; a number JSON
    cannot hold, NaN or an infinity, as its text, for the engine to refuse by name)."""
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        return float(value) if np.isfinite(value) else repr(float(value))
    return value


def _figures(report):
    """The returned tree's objective (by plain evaluation: the certificate's tree where it
    replaced the solver's), the proven bound, and the relative gap between the two (the
    engine's formula: ``max(0, objective - bound) / |objective|``, 0 when they meet)."""
    objective = report.get("evaluated_objective")
    if objective is None:
        objective = report.get("objective")
    bound = report.get("best_bound")
    if objective == report.get("objective"):
        return objective, bound, report.get("rel_gap")
    if objective is None or bound is None:
        return objective, bound, None
    gap = max(0.0, objective - bound)
    if gap == 0:
        return objective, bound, 0.0
    return objective, bound, (gap / abs(objective) if objective != 0 else None)


def _check_kind(name, value, kind):
    if isinstance(value, bool) or not isinstance(value, kind):
        wanted = {str: "a string", numbers.Real: "a number", numbers.Integral: "an integer"}
        what = " or ".join(wanted[k] for k in (kind if isinstance(kind, tuple) else (kind,)))
        raise ValueError(f"{name} must be {what}, not {value!r}")


def _depth_list(item: Any, value: Any) -> list:
    """The depths ``feature_depths`` gives column ``item``: whole numbers at least 0."""
    if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
        raise ValueError(
            f"feature_depths[{item!r}] must be a list of depths (the root 0), not {value!r}"
        )
    depths = []
    for depth in value:
        if isinstance(depth, bool) or not isinstance(depth, numbers.Integral) or depth < 0:
            raise ValueError(
                f"feature_depths[{item!r}]: {depth!r} is not a depth (a whole number, the "
                "root 0)"
            )
        depths.append(int(depth))
    return depths


class OptimalTreeClassifier(ClassifierMixin, BaseEstimator):
    """An optimal classification tree learned by one of milptree's methods.

    Parameters
    ----------
    method : {"dp", "sparse", "oct", "binoct", "flowoct", "olct"}, default="dp"
        ``dp``: the exact search (proven optimum of the depth); ``sparse``: the sparse search (a
        penalty per leaf, ``max_depth`` a cap); the others: a MILP formulation solved by
        ``solver``.
    max_depth : int or None, default=3
        Levels of splits (``None``: no cap, the sparse search only).
    objective : str, optional
        ``accuracy``, ``balanced``, or a metric (``f1``, ``mcc``, ``fowlkes-mallows`` with dp;
        ``weighted``, ``f1``, ``auc``, ``pauc`` with sparse).
    alpha : float, optional
        Cost per split (oct, dp), in units of the baseline's errors.
    min_samples_leaf : int, optional
        Least training rows in a used leaf (oct, dp).
    max_splits : int, optional
        At most this many split nodes (dp).
    leaf_penalty : float, optional
        Penalty per leaf (sparse, oct, binoct).
    thresholds : {"all", "class-boundary"}, optional
        Candidate thresholds (binoct, flowoct, dp, sparse).
    solver : {"highs", "cbc"}, optional
        The MIP solver of a MILP method (default highs). ``cbc`` needs a milptree built
        with CBC (from source); the wheels refuse it with a ValueError.
    warm_start : {"greedy", "dp", "best", "none"} or bool, optional
        Warm start of a MILP method (default best: the better of the greedy tree and
        the exact search's; ``True``: greedy, ``False``: none).
    time_limit : float, optional
        Seconds; past it the best tree found is kept (``optimal_`` False).
    threads : int, optional
        Threads of the MILP solver, or of the exact and sparse searches (``dp``,
        ``sparse``; default 1, the same tree with any number).
    n_jobs : int or None, default=None
        Threads of the exact searches (dp, its metric fronts, sparse), as scikit-learn means it:
        ``None`` is 1, ``-1`` every core, ``-2`` every core but one, ... The tree is the same
        for any number. With a MILP method it is the solver's threads (as ``threads``). The
        cores counted are this process's share: its CPU affinity, capped by
        ``OMP_NUM_THREADS`` when set (as joblib's, Dask's and Ray's workers set it).
    class_weight : dict, "balanced" or None
        ``"balanced"`` is the balanced objective; a dict ``{label: weight}`` multiplies the
        cost of an error on a row of that class (the engine's ``--class-weight``).
    positive_class : label, optional
        The positive class of two-class objectives, of OLCT and of the fairness bounds.
    memory_limit : int, optional
        Cap on the search's cache in MiB (dp, sparse).
    certify : float, bool or "off", optional
        Seconds for the exact search to certify a MILP result (oct, binoct, flowoct);
        ``True`` is the default budget (5 s), ``False`` or ``"off"`` no certificate.
    mip_gap : float, optional
        Relative MIP gap at which the solver may stop.
    solver_options : dict, optional
        The MIP solver's own parameters, ``{name: value}``.
    max_features_used : int, optional
        Side constraint: at most this many distinct features in the whole tree (every method
        but olct; the engine's ``--max-features``). Not scikit-learn's ``max_features``.
    max_features : None, deprecated
        Deprecated: the former name of ``max_features_used``, which an integer still means, with
        a ``FutureWarning``; it will be removed. scikit-learn's ``max_features`` (how many
        features a split draws at random to try) does not apply: an optimal tree tries every
        feature at every split, so its meanings (``"sqrt"``, ``"log2"``, a fraction) are
        refused, and ``None`` (every feature) is the only value kept once the name is gone.
    forbidden_features : list, optional
        Side constraint: columns of ``X`` no split may use (indexes, or a DataFrame's column
        names; not categorical columns). Every method but olct takes it: dp and sparse search
        exactly without those columns (``--forbid-feature``).
    max_leaves : int, optional
        Side constraint: at most this many leaves (every method but olct; ``--max-leaves``).
    min_leaf_rows : int, optional
        Side constraint: every leaf some training row reaches has at least this many training
        rows, counted unweighted (every method but olct; dp and sparse without sample weights
        or with one weight per class, e.g. balanced ones; ``--min-leaf-rows``).
    max_leaf_rows : int, optional
        Side constraint: every leaf has at most this many training rows, counted unweighted
        (oct, binoct, flowoct, dp and sparse, the searches without sample weights or with one
        weight per class; ``--max-leaf-rows``).
    feature_costs : dict, optional
        Side constraint, with ``budget``: the cost of each listed column of ``X`` (an index,
        or a DataFrame's column name; not categorical columns; others cost 0); the summed cost
        of the distinct columns the tree uses is at most ``budget`` (every method but olct;
        the constraints file's ``feature_costs``).
    budget : float, optional
        Side constraint: the budget of ``feature_costs`` (the constraints file's ``budget``).
    feature_depths : dict, optional
        Side constraint: ``{column: depths}``, the column (an index, or a DataFrame's column
        name; not categorical columns) may split only at the listed depths, the root 0 (every
        method but olct; the constraints file's ``depths``).
    max_parity_gap : float, optional
        Fairness, on two-class data: any two groups' rates of predicted ``positive_class``
        (default: the second class of ``classes_``) differ by at most this on the training
        rows (statistical parity; ``--max-parity-gap``). The groups are ``fit``'s
        ``sensitive_features``, or the column ``group_column`` of ``X``. Taken by dp (the
        exact search, depths 1 to 3, two groups or more, either bound or both) and by oct,
        binoct and flowoct; sparse and olct refuse it.
    max_opportunity_gap : float, optional
        Fairness: any two groups' true-positive rates differ by at most this (equal
        opportunity; ``--max-opportunity-gap``), as ``max_parity_gap``.
    group_column : int or str, optional
        Fairness, with the groups in ``X``: the column of ``X`` (an index, or a DataFrame's
        column name) whose values are the groups. No split uses it unless
        ``allow_group_as_feature``, but ``X`` keeps it at prediction as at fit; ``fit``'s
        ``sensitive_features`` gives the groups beside ``X`` instead (``--group-column``).
    allow_group_as_feature : bool, default=False
        Fairness: splits may use the group column ``group_column`` (not
        ``sensitive_features``, which prediction does not see).
    categorical_features : "from_dtype", list or None, default="from_dtype"
        Which columns of ``X`` are categorical. ``"from_dtype"``: a DataFrame's object, string
        and category columns (scikit-learn's meaning); a list (indexes, a DataFrame's column
        names, or a boolean mask): those columns too, numeric codes read as categories;
        ``None``: none (a text column is then an error). Each value ``fit`` sees in such a
        column is a category, kept as ``X`` holds it (``categories_``), and splits on the
        column are equality tests (``island != Dream`` in ``export_text``). A value ``fit``
        did not see goes the ``!=`` way at every split on its column, with a warning.
    proba_smoothing : float, optional
        Laplace smoothing of ``predict_proba``'s leaf frequencies, ``(n_c + A) / (n + K A)``
        over ``K`` classes (the command line's ``predict --proba-smoothing``); default 0. Not
        for a logistic tree (olct).
    on_interrupt : {"keep", "raise"}, default="keep"
        What Ctrl-C (a ``KeyboardInterrupt`` raised while ``fit`` runs) does: ``"keep"`` stops
        the run within a second and keeps the best tree it found (``optimal_`` False, its bound
        and gap, a ``ConvergenceWarning``); ``"raise"`` stops it and re-raises, the estimator
        left as it was before ``fit``. A run stopped before it had any tree re-raises either way.

    Attributes
    ----------
    tree_ : milptree.tree_structure.TreeStructure
        The tree as scikit-learn's ``DecisionTreeClassifier.tree_`` has it (``children_left``,
        ``children_right``, ``feature``, ``threshold``, ``value``, ``n_node_samples``,
        ``weighted_n_node_samples``, ``impurity``, ``missing_go_to_left``, ``node_count``,
        ``max_depth``, ``n_leaves``; ``TREE_LEAF`` and ``TREE_UNDEFINED``), with the
        categorical splits' ``is_categorical`` and ``category``; the engine's tree is
        ``tree_.core`` (``to_text()``, ``to_dot()``, ``to_json()``, ``save(path)``, also on
        ``tree_`` itself).
    feature_importances_ : ndarray of shape (n_features_in_,)
        Each column's share of the decrease of the training objective the tree's splits bring:
        at each split, the node's errors as a leaf less its two children's (each predicting its
        best class; an error weighs its row's ``sample_weight`` times its class's cost: the
        ``class_weight`` dict's, ``1 / class weight`` for the balanced objective, 1 otherwise),
        added up per column and normalised to sum 1 (all 0 for a single leaf). Metric
        objectives (f1, mcc, auc, ...) are not sums over rows; their trees are credited by
        errors.
    classes_, n_classes_, n_features_in_, feature_names_in_
        As scikit-learn's classifiers have them.
    categories_ : dict
        The categories of each categorical column, ``{column index: values}`` (numbers sorted
        as numbers, anything else sorted as text).
    optimal_ : bool
        Whether the tree is proven optimal.
    objective_, bound_, gap_ : float or None
        The tree's objective, the proven lower bound on it and the relative gap between them,
        in the method's own units (what the method minimises, the command line's
        ``objective``): training errors (each weighing its row's weight) plus ``alpha`` per
        split for dp and binoct/flowoct; for ``objective="balanced"``, errors weighted so each
        class weighs as much as in the data; for a metric objective, one minus the metric
        (f1, mcc, ...); for sparse, the normalised errors (a share of the rows) plus
        ``leaf_penalty`` per leaf; for oct, the normalised errors plus ``alpha`` per split;
        for olct, its penalised log-loss. ``report_["errors"]`` is every method's training
        errors on one scale.
    report_ : dict
        The report ``milptree solve --json`` prints for the same run.

    ``X`` may be an array, a DataFrame (column names become ``feature_names_in_``; text and
    category columns are categorical, see ``categorical_features``) or a scipy sparse matrix,
    made dense (its implicit zeros are zeros, not missing values). NaN (or None, ``pd.NA``) in
    ``X`` is a missing value: every split learns, optimally, where the rows missing its
    feature go (``olct`` refuses them). At prediction time, a value missing in a feature that
    had none in training goes to the child more training rows reached. A row whose label is
    missing in ``y`` (NaN, None) is dropped with a warning, as the command line drops it.

    ``fit`` never leaves a half-fitted estimator: when it raises, every attribute is as it was
    before. A fit stopped by ``time_limit`` keeps the best tree found, with a
    ``ConvergenceWarning`` (and ``optimal_`` False); so does Ctrl-C (see ``on_interrupt``).
    """

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        tags.input_tags.sparse = True  # made dense, see ``milptree._columns.dense``
        return tags

    def _more_tags(self):  # pragma: no cover - scikit-learn < 1.6
        return {"allow_nan": True}

    def __sklearn_is_fitted__(self):
        return hasattr(self, "tree_")

    def __init__(
        self,
        method="dp",
        max_depth=3,
        *,
        objective=None,
        alpha=None,
        min_samples_leaf=None,
        max_splits=None,
        leaf_penalty=None,
        thresholds=None,
        solver=None,
        warm_start=None,
        time_limit=None,
        threads=None,
        n_jobs=None,
        class_weight=None,
        positive_class=None,
        memory_limit=None,
        certify=None,
        mip_gap=None,
        solver_options=None,
        categorical_features="from_dtype",
        max_features_used=None,
        max_features=None,
        forbidden_features=None,
        max_leaves=None,
        min_leaf_rows=None,
        max_leaf_rows=None,
        feature_costs=None,
        budget=None,
        feature_depths=None,
        group_column=None,
        max_parity_gap=None,
        max_opportunity_gap=None,
        allow_group_as_feature=False,
        proba_smoothing=None,
        on_interrupt="keep",
    ):
        self.method = method
        self.categorical_features = categorical_features
        self.max_depth = max_depth
        self.objective = objective
        self.alpha = alpha
        self.min_samples_leaf = min_samples_leaf
        self.max_splits = max_splits
        self.leaf_penalty = leaf_penalty
        self.thresholds = thresholds
        self.solver = solver
        self.warm_start = warm_start
        self.time_limit = time_limit
        self.threads = threads
        self.n_jobs = n_jobs
        self.class_weight = class_weight
        self.positive_class = positive_class
        self.memory_limit = memory_limit
        self.certify = certify
        self.mip_gap = mip_gap
        self.solver_options = solver_options
        self.max_features_used = max_features_used
        self.max_features = max_features
        self.forbidden_features = forbidden_features
        self.max_leaves = max_leaves
        self.min_leaf_rows = min_leaf_rows
        self.max_leaf_rows = max_leaf_rows
        self.feature_costs = feature_costs
        self.budget = budget
        self.feature_depths = feature_depths
        self.group_column = group_column
        self.max_parity_gap = max_parity_gap
        self.max_opportunity_gap = max_opportunity_gap
        self.allow_group_as_feature = allow_group_as_feature
        self.proba_smoothing = proba_smoothing
        self.on_interrupt = on_interrupt

    # -- parameters -------------------------------------------------------------------------

    def _settings(self):
        """The engine's settings of the parameters that need no data, keyed by their names,
        their kinds checked."""
        if self.method not in METHODS:
            raise ValueError(f"method must be one of {', '.join(METHODS)}, not {self.method!r}")
        settings = {"method": self.method}
        if self.method in MILP_METHODS:
            if self.solver is not None:
                _check_kind("solver", self.solver, str)
                settings["solver"] = self.solver
        elif self.solver is not None:
            raise ValueError(
                f"solver applies to the MILP methods ({', '.join(MILP_METHODS)}), "
                f"not to method={self.method!r}"
            )
        if self.max_depth is not None:
            _check_kind("max_depth", self.max_depth, numbers.Integral)
            settings["max_depth"] = int(self.max_depth)
        elif self.method != "sparse":
            raise ValueError(f"max_depth is needed with method={self.method!r}")
        objective = self.objective
        if self.class_weight is not None:
            if isinstance(self.class_weight, str):
                if self.class_weight != "balanced":
                    raise ValueError(
                        f"class_weight must be 'balanced', a dict or None, not {self.class_weight!r}"
                    )
                if objective not in (None, "balanced"):
                    raise ValueError(
                        f"class_weight='balanced' is the balanced objective; objective={objective!r} "
                        "cannot be balanced too"
                    )
                objective = "balanced"
            elif isinstance(self.class_weight, dict):
                settings["class_weight"] = {
                    str(label): _value(weight) for label, weight in self.class_weight.items()
                }
            else:
                raise ValueError(f"class_weight must be 'balanced', a dict or None, not {self.class_weight!r}")
        former = self._former_max_features()
        for name, kind in _SETTINGS:
            value = objective if name == "objective" else getattr(self, name)
            if name == "max_features_used" and former is not None:
                value = former
            if name == "warm_start" and isinstance(value, bool):
                if not value and self.method not in MILP_METHODS:
                    continue  # the searches start from nothing anyway
                value = "greedy" if value else "none"
            if name == "certify" and isinstance(value, (bool, np.bool_)):
                if not value and self.method not in MILP_METHODS:
                    continue  # the searches certify nothing anyway
                # True: the default budget; False: off (the engine takes both).
                settings[name] = bool(value)
                continue
            if value is not None:
                _check_kind(name, value, kind)
                settings[name] = _value(value)
        jobs = self._jobs()
        if jobs is not None:
            if self.threads is not None:
                raise ValueError("give threads or n_jobs, not both")
            settings["threads"] = jobs
        if self.positive_class is not None and not self._fair_milp():
            # A MILP takes the positive class of the fairness rates with the constraints.
            settings["positive_class"] = str(self.positive_class)
        if self.solver_options is not None:
            if not isinstance(self.solver_options, dict):
                raise ValueError(f"solver_options must be a dict, not {self.solver_options!r}")
            settings["solver_options"] = {
                str(name): str(value) for name, value in self.solver_options.items()
            }
        if not isinstance(self.allow_group_as_feature, (bool, np.bool_)):
            raise ValueError(
                "allow_group_as_feature must be True or False, not "
                f"{self.allow_group_as_feature!r}"
            )
        if self.allow_group_as_feature:
            settings["allow_group_as_feature"] = True
        return settings

    def _former_max_features(self):
        """``max_features``, the deprecated name of ``max_features_used``: an integer keeps that
        meaning (with a ``FutureWarning``); scikit-learn's meanings of it are refused."""
        if self.max_features is None:
            return None
        if isinstance(self.max_features, str) or (
            isinstance(self.max_features, numbers.Real)
            and not isinstance(self.max_features, (numbers.Integral, bool))
        ):
            raise ValueError(
                f"max_features={self.max_features!r} is scikit-learn's number of features a "
                "split draws to try, which does not apply here: an optimal tree tries every "
                "feature at every split. For at most K distinct features in the whole tree, "
                "give max_features_used=K"
            )
        if self.max_features_used is not None:
            raise ValueError(
                "give max_features_used, not both it and max_features (its deprecated name)"
            )
        warnings.warn(
            "max_features is deprecated and will be removed: it bounds the distinct features "
            "in the whole tree, which is now max_features_used (scikit-learn's max_features, the "
            f"features a split tries, does not apply to an optimal tree); give "
            f"max_features_used={self.max_features!r}",
            FutureWarning,
            stacklevel=4,
        )
        return self.max_features

    def _fair(self) -> bool:
        """Whether a fairness bound is given."""
        return self.max_parity_gap is not None or self.max_opportunity_gap is not None

    def _fair_milp(self) -> bool:
        """Whether a MILP method runs under a fairness bound."""
        return self._fair() and self.method in MILP_METHODS

    def _check_fairness(self, groups_beside: bool) -> None:
        """Refuses a fairness bound for a method that does not take it, or without groups, and
        groups given twice, or beside ``X`` but allowed as a feature."""
        if not self._fair():
            if groups_beside:
                raise ValueError(
                    "sensitive_features gives the groups of the fairness bounds; give "
                    "max_parity_gap or max_opportunity_gap too"
                )
            return
        bound = "max_parity_gap" if self.max_parity_gap is not None else "max_opportunity_gap"
        if self.method not in FAIR_METHODS:
            raise ValueError(
                f"method={self.method!r} does not take the fairness bounds ({bound}); "
                "method='dp' (the exact search, depths 1 to 3), method='sparse' (within "
                "depth 3) and the MILP methods 'oct', 'binoct' and 'flowoct' do"
            )
        if groups_beside and self.group_column is not None:
            raise ValueError(
                "give the groups as fit's sensitive_features or as group_column (a column of "
                "X), not both"
            )
        if groups_beside and self.allow_group_as_feature is True:
            raise ValueError(
                "allow_group_as_feature applies to group_column: the groups of "
                "sensitive_features are not a column of X, so no split can use them"
            )
        if not groups_beside and self.group_column is None:
            raise ValueError(
                f"{bound} needs a group column: fit's sensitive_features (the groups beside X), "
                "or group_column (a column of X)"
            )

    def _jobs(self):
        """``n_jobs`` as a number of threads (scikit-learn's meaning: ``-1`` every core, ``-2``
        all but one, ... of this process's share, ``_available_cores``), or None when it asks
        for one thread."""
        if self.n_jobs is None:
            return None
        _check_kind("n_jobs", self.n_jobs, numbers.Integral)
        n_jobs = int(self.n_jobs)
        if n_jobs == 0:
            raise ValueError("n_jobs must not be 0 (None or 1: one thread, -1: every core)")
        jobs = n_jobs if n_jobs > 0 else max(1, _available_cores() + 1 + n_jobs)
        return jobs if jobs > 1 else None

    def _check_own_parameters(self):
        """The parameters the engine does not see."""
        if self.on_interrupt not in ON_INTERRUPT:
            raise ValueError(f"on_interrupt must be 'keep' or 'raise', not {self.on_interrupt!r}")
        if self.proba_smoothing is not None:
            _check_kind("proba_smoothing", self.proba_smoothing, numbers.Real)
            if not (np.isfinite(self.proba_smoothing) and self.proba_smoothing >= 0):
                raise ValueError(
                    "proba_smoothing must be a finite number at least 0, not "
                    f"{self.proba_smoothing!r}"
                )

    def _row_weights(self, sample_weight, X):
        """Each row's weight (a dict class_weight goes to the engine as class weights), or None
        when every row weighs 1. The searches take weights that are whole multiples of one unit
        per class (the engine refuses others by name)."""
        if sample_weight is None:
            return None
        return _check_sample_weight(sample_weight, X, dtype=np.float64)

    def _column_settings(self, features):
        """The settings that name columns of ``X`` (``forbidden_features``, ``group_column``),
        resolved to the feature names of ``features`` (one per column of ``X``)."""
        settings = {}
        if self.group_column is not None:
            position = self._column_position("group_column", self.group_column, features)
            settings["group_column"] = features[position]
        if self.forbidden_features is None:
            return settings
        if isinstance(self.forbidden_features, (str, bytes)) or not hasattr(
            self.forbidden_features, "__iter__"
        ):
            raise ValueError(
                f"forbidden_features must be a list of columns, not {self.forbidden_features!r}"
            )
        forbidden = []
        for item in self.forbidden_features:
            position = self._column_position("forbidden_features", item, features)
            if position in self.categories_:
                raise ValueError(
                    f"forbidden_features: column {item!r} is categorical; forbidding a "
                    "categorical column is not supported"
                )
            forbidden.append(features[position])
        settings["forbidden_features"] = forbidden
        return settings

    def _constraint_set(self, features: list) -> Optional[dict]:
        """The side constraints without a setting of their own (``feature_costs`` with
        ``budget``, ``feature_depths``, and a MILP's positive class of the fairness rates) as a
        constraints file's keys, columns resolved to the feature names of ``features``; None
        without any."""
        spec = {}
        if self.budget is not None:
            _check_kind("budget", self.budget, numbers.Real)
            spec["budget"] = float(self.budget)
        for name, key in (("feature_costs", "feature_costs"), ("feature_depths", "depths")):
            given = getattr(self, name)
            if given is None:
                continue
            if not isinstance(given, dict):
                raise ValueError(f"{name} must be a dict {{column: value}}, not {given!r}")
            resolved = {}
            for item, value in given.items():
                position = self._column_position(name, item, features)
                if position in self.categories_:
                    raise ValueError(
                        f"{name}: column {item!r} is categorical; {name} on a categorical "
                        "column is not supported"
                    )
                if name == "feature_costs":
                    _check_kind(f"feature_costs[{item!r}]", value, numbers.Real)
                    resolved[features[position]] = float(value)
                else:
                    resolved[features[position]] = _depth_list(item, value)
            spec[key] = resolved
        if self.positive_class is not None and self._fair_milp():
            spec["positive_class"] = str(self.positive_class)
        return spec or None

    def _column_position(self, parameter, item, features):
        """The position in ``features`` (one per column of ``X``) of the column ``item`` that
        ``parameter`` names: an index, or a DataFrame's column name."""
        if isinstance(item, (numbers.Integral, np.integer)) and not isinstance(item, bool):
            if not 0 <= item < len(features):
                raise ValueError(
                    f"{parameter}: column {item} is out of range (X has {len(features)} "
                    "columns)"
                )
            return int(item)
        if isinstance(item, str) and item in features and hasattr(self, "feature_names_in_"):
            return features.index(item)
        raise ValueError(
            f"{parameter}: {item!r} is not a column of X (give column indexes, or names of a "
            "DataFrame's columns)"
        )

    # -- learning ---------------------------------------------------------------------------

    def fit(self, X, y, sample_weight=None, *, sensitive_features=None, callback=None):
        """Learns the tree on ``X`` and ``y``.

        When it raises (or an interruption is re-raised, see ``on_interrupt``), the estimator
        is left as it was before.

        Parameters
        ----------
        X : array-like, DataFrame or sparse matrix of shape (n_samples, n_features)
            The training rows. A DataFrame's column names become the feature names
            (``feature_names_in_``) and its text and category columns are categorical (see
            ``categorical_features``); a scipy sparse matrix is made dense. NaN (or None,
            ``pd.NA``) is a missing value.
        y : array-like of shape (n_samples,)
            The labels, any values (at least two classes); a row whose label is missing is
            dropped with a warning.
        sample_weight : array-like of shape (n_samples,), optional
            Each row's weight: any non-negative weights for the MILP methods; for the
            searches (dp, sparse), weights that are whole multiples of one unit per class,
            such as ``compute_sample_weight("balanced", y)``, alone or times whole numbers
            (whole numbers for the sparse search's F1 and AUC objectives and under
            fairness).
        sensitive_features : array-like, Series or DataFrame of shape (n_samples,) or \
(n_samples, n_columns), optional
            The group of each row for ``max_parity_gap`` and ``max_opportunity_gap``
            (fairlearn's name), beside ``X``: not a feature, so the tree never splits on it
            and ``predict`` takes ``X`` alone. Any values, two groups or more, none missing;
            with several columns each distinct combination of values is a group (named by
            its values joined with ``,``). The groups' rates are in
            ``report_["side_constraints"]["fairness"]``.
        callback : callable, optional
            Called with each point of progress while the run goes on, so that a long run can
            be watched: a dict with ``seconds`` (since the run started), ``source`` (what
            reported it: ``"dp"``, ``"sparse"``, ``"highs"``, ``"cbc"``), ``incumbent`` (the
            objective of the best tree or solution known then, in the terms of
            ``report_["trajectory"]``) and ``bound`` (the best lower bound known then); either
            may be None. The calls come from the thread that called ``fit``, about every
            tenth of a second and once more when the run ends, in the order the points were
            reported. When it returns a true value the run stops and keeps the best tree found
            (``report_["termination"]`` is ``"interrupted"``, with a ``ConvergenceWarning``);
            when it raises, the run stops and ``fit`` raises its exception. It is not called
            again after either.

        Returns
        -------
        self : OptimalTreeClassifier
            The fitted estimator.
        """
        if callback is not None and not callable(callback):
            raise TypeError(f"callback must be callable, not {type(callback).__name__}")
        before = dict(self.__dict__)
        try:
            return self._fit(X, y, sample_weight, sensitive_features, callback)
        except BaseException:
            # Never half-fitted: an error, or an interruption re-raised, leaves every attribute
            # as it was before fit.
            self.__dict__.clear()
            self.__dict__.update(before)
            raise

    def _training_data(self, X, y, sample_weight, sensitive_features=None):
        """``X``, ``y``, ``sample_weight`` and ``sensitive_features`` as ``fit`` reads them
        (``milptree._columns``, ``milptree._groups``): a sparse ``X`` made dense, the rows
        without a label dropped, the categorical columns' categories learned and replaced by
        codes, all validated (``n_features_in_`` and ``feature_names_in_`` set). Returns the
        coded matrix, ``y``, ``sample_weight``, the categories, ``{column: categories}``, and
        each row's group as text (None without ``sensitive_features``)."""
        X = _columns.dense(X)
        groups = None
        if sensitive_features is not None:
            groups = _groups.group_texts(sensitive_features, _num_samples(X))
        X, y, sample_weight, groups = _drop_unlabelled_rows(X, y, sample_weight, groups)
        positions = _columns.categorical_positions(self.categorical_features, X)
        _refuse_text_read_as_numbers(X, positions)
        categories = {j: _columns.learn_categories(_columns.column(X, j)) for j in positions}
        coded, _ = _columns.with_codes(X, categories)
        coded, y = _validate_data(self, coded, y, dtype=np.float64, **_ALLOW_NAN)
        check_classification_targets(y)
        if groups is not None:
            _groups.check_groups(groups)
        return coded, y, sample_weight, categories, groups

    def _fit(self, X, y, sample_weight, sensitive_features, callback=None):
        settings = self._settings()
        self._check_own_parameters()
        beside = sensitive_features is not None
        self._check_fairness(beside)
        coded, y, sample_weight, categories, groups = self._training_data(
            X, y, sample_weight, sensitive_features
        )
        classes, labels = np.unique(y, return_inverse=True)
        if len(classes) < 2:
            raise ValueError(
                f"y has one class only ({classes[0]!r}): a classifier needs at least two classes"
            )
        weights = self._row_weights(sample_weight, coded)
        names = [str(c) for c in classes]
        if len(set(names)) < len(names):
            raise ValueError("two classes of y have the same text; give y labels that differ as text")
        features = self._feature_names(coded.shape[1])
        self.categories_ = categories
        settings.update(self._column_settings(features))
        settings["constraints"] = self._constraint_set(features)
        texts = None
        if categories:
            texts = [
                _columns.category_texts(categories[j]) if j in categories else None
                for j in range(coded.shape[1])
            ]
        matrix = np.ascontiguousarray(_columns.one_hot(coded, categories), dtype=np.float64)
        rows = matrix.tobytes()
        asked_to_stop = []

        def watch(point):
            stop = callback(point)
            if stop:
                asked_to_stop.append(point)
            return stop

        # The engine's errors name the parameters as this class does.
        tree, report, interruption = _core.fit(
            rows,
            matrix.shape[0],
            features,
            names,
            labels.astype(np.int64).tolist(),
            None if weights is None else np.asarray(weights, dtype=np.float64).tolist(),
            json.dumps(settings),
            texts,
            None if groups is None else groups.tolist(),
            None if callback is None else watch,
        )
        if interruption is not None and (
            self.on_interrupt == "raise" or not isinstance(interruption, KeyboardInterrupt)
        ):
            raise interruption
        self.classes_ = classes
        self.n_classes_ = len(classes)
        row_weights = np.ones(len(labels)) if weights is None else np.asarray(weights, float)
        totals = tree_structure.node_totals(
            tree, rows, matrix.shape[0], labels, row_weights, len(classes)
        )
        self._set_tree(tree, totals, self._class_costs(labels, row_weights))
        self.report_ = json.loads(report)
        self.optimal_ = self.report_.get("termination") == "optimal"
        self.objective_, self.bound_, self.gap_ = _figures(self.report_)
        self._warn_if_stopped(
            interrupted=interruption is not None, by_callback=bool(asked_to_stop)
        )
        return self

    def _feature_names(self, n_columns):
        """The engine's name of each column of ``X``: the DataFrame's, or ``x0``, ``x1``, ..."""
        if hasattr(self, "feature_names_in_"):
            return [str(f) for f in self.feature_names_in_]
        return [f"x{j}" for j in range(n_columns)]

    def _class_costs(self, labels, weights):
        """What an error on each class costs in the training objective (``feature_importances_``):
        a dict ``class_weight``'s weight, ``1 / class weight`` for the balanced objective, 1
        otherwise."""
        if self.class_weight == "balanced" or self.objective == "balanced":
            totals = np.bincount(labels, weights=weights, minlength=len(self.classes_))
            return np.where(totals > 0, 1.0 / np.where(totals > 0, totals, 1.0), 0.0)
        if isinstance(self.class_weight, dict):
            given = {str(label): float(w) for label, w in self.class_weight.items()}
            return np.array([given.get(str(c), 1.0) for c in self.classes_])
        return np.ones(len(self.classes_))

    def _warn_if_stopped(self, interrupted, by_callback=False):
        """A ``ConvergenceWarning`` when the run stopped before proving its tree optimal."""
        termination = self.report_.get("termination")
        if not interrupted and termination in (None, "optimal"):
            return
        if interrupted:
            why = "interrupted"
        elif by_callback and termination == "interrupted":
            why = "stopped by the callback"
        else:
            why = f"stopped ({termination})"

        def figure(value):
            return "unknown" if value is None else f"{value:.6g}"

        warnings.warn(
            f"fit {why}: the tree kept is the best found, not proven optimal (objective "
            f"{figure(self.objective_)}, bound {figure(self.bound_)}, gap {figure(self.gap_)})",
            ConvergenceWarning,
            stacklevel=3,
        )

    def _set_tree(self, tree, totals=None, class_costs=None, document=None):
        """Keeps the engine's ``tree`` (``tree_.core``), its scikit-learn arrays (``tree_``;
        ``totals``: the training rows reaching each node, see
        ``tree_structure.node_totals``), and the map from its class order to ``classes_``."""
        position = {str(c): i for i, c in enumerate(self.classes_)}
        self._tree_classes = np.array([position[c] for c in tree.classes], dtype=np.int64)
        self.tree_ = tree_structure.build(
            tree, self._tree_classes, self.categories_, self.n_features_in_, totals, class_costs,
            document,
        )

    @property
    def feature_importances_(self):
        """Each column's share of the decrease of the training objective the tree's splits bring.

        See the class's documentation and ``TreeStructure.compute_feature_importances``.

        Returns
        -------
        importances : ndarray of shape (n_features_in_,)
            Normalised to sum 1 (all 0 for a single leaf).
        """
        check_is_fitted(self)
        return self.tree_.compute_feature_importances()

    # -- prediction -------------------------------------------------------------------------

    def _rows(self, X):
        """The engine's matrix of ``X`` (its bytes and rows), checked against the fit; a
        category ``fit`` never saw is a warning."""
        check_is_fitted(self)
        X = _columns.dense(X)
        coded, unseen = _columns.with_codes(X, self.categories_)
        coded = _validate_data(self, coded, reset=False, dtype=np.float64, **_ALLOW_NAN)
        _columns.warn_unseen(unseen, self._feature_names(coded.shape[1]))
        matrix = _columns.one_hot(coded, self.categories_)
        return np.ascontiguousarray(matrix, dtype=np.float64).tobytes(), matrix.shape[0]

    def predict(self, X):
        """The class of each row.

        Parameters
        ----------
        X : array-like, DataFrame or sparse matrix of shape (n_samples, n_features)
            The rows, columns as in ``fit`` (NaN: a missing value; a category ``fit`` did not
            see goes the ``!=`` way, with a warning).

        Returns
        -------
        y : ndarray of shape (n_samples,)
            A label of ``classes_`` per row.
        """
        rows, n = self._rows(X)
        index = np.frombuffer(self.tree_.core.predict(rows, n), dtype=np.int64)
        return self.classes_[self._tree_classes[index]]

    def predict_proba(self, X):
        """Each row's probability of every class.

        The class frequencies of the training rows of the row's leaf, smoothed by
        ``proba_smoothing`` (a logistic tree's, OLCT's, logistic models).

        Parameters
        ----------
        X : array-like, DataFrame or sparse matrix of shape (n_samples, n_features)
            The rows, columns as in ``fit`` (NaN: a missing value).

        Returns
        -------
        proba : ndarray of shape (n_samples, n_classes)
            Columns in ``classes_`` order; each row sums to 1.
        """
        rows, n = self._rows(X)
        k = len(self.classes_)
        smoothing = None if self.proba_smoothing is None else float(self.proba_smoothing)
        proba = self.tree_.core.predict_proba(rows, n, smoothing)
        by_tree = np.frombuffer(proba, dtype=np.float64).reshape(n, k)
        proba = np.empty_like(by_tree)
        proba[:, self._tree_classes] = by_tree
        return proba

    def _node_indexes(self, ids):
        """The ``tree_`` index of each of the engine's node ids."""
        lookup = np.full(int(self.tree_.node_id.max()) + 1, -1, dtype=np.int64)
        lookup[self.tree_.node_id] = np.arange(self.tree_.node_count)
        return lookup[ids]

    def apply(self, X):
        """The leaf each row reaches, as its index in ``tree_``'s arrays (as scikit-learn's).

        Parameters
        ----------
        X : array-like, DataFrame or sparse matrix of shape (n_samples, n_features)
            The rows, columns as in ``fit`` (NaN: a missing value).

        Returns
        -------
        leaves : ndarray of shape (n_samples,)
            Indexes into ``tree_``'s arrays; ``tree_.node_id[leaves]`` gives the engine's ids
            (root 1, the children of ``k`` are ``2k`` and ``2k + 1``), the leaf ``milptree
            predict`` prints.
        """
        rows, n = self._rows(X)
        return self._node_indexes(np.frombuffer(self.tree_.core.apply(rows, n), dtype=np.int64))

    def decision_path(self, X):
        """The nodes each row passes through.

        Parameters
        ----------
        X : array-like, DataFrame or sparse matrix of shape (n_samples, n_features)
            The rows, columns as in ``fit`` (NaN: a missing value).

        Returns
        -------
        indicator : scipy.sparse.csr_matrix of shape (n_samples, tree_.node_count)
            Entry ``(i, k)`` is 1 when row ``i`` passes node ``k``, the index in ``tree_``'s
            arrays (as scikit-learn's).
        """
        from scipy.sparse import csr_matrix

        rows, n = self._rows(X)
        ids, offsets = self.tree_.core.decision_paths(rows, n)
        indices = self._node_indexes(np.frombuffer(ids, dtype=np.int64))
        indptr = np.frombuffer(offsets, dtype=np.int64)
        data = np.ones(len(indices), dtype=np.int64)
        return csr_matrix((data, indices, indptr), shape=(n, self.tree_.node_count))

    def get_depth(self):
        """The depth of the deepest leaf.

        Returns
        -------
        depth : int
            0 for a single leaf.
        """
        check_is_fitted(self)
        return self.tree_.max_depth

    def get_n_leaves(self):
        """The number of leaves.

        Returns
        -------
        n_leaves : int
            The leaves of the fitted tree.
        """
        check_is_fitted(self)
        return self.tree_.n_leaves

    # -- renderings and files ---------------------------------------------------------------

    def export_text(self, *, feature_names=None, class_names=None, max_depth=10, spacing=3,
                    decimals=None, show_weights=False, show_counts=True):
        """The tree as indented text, with scikit-learn's ``export_text`` arguments.

        With none, as ``milptree show`` prints it; see :func:`milptree.export_text`.

        Parameters
        ----------
        feature_names : list of str, optional
            A name per column of ``X`` (default: ``feature_names_in_``, or ``x0``, ``x1``,
            ...).
        class_names : list of str or "auto", optional
            A name per class, in ``classes_`` order (default: the classes).
        max_depth : int, default=10
            Levels shown; a deeper branch reads ``truncated branch of depth N``.
        spacing : int, default=3
            Width of each level's indentation.
        decimals : int, optional
            Decimals of thresholds and weights (default: thresholds as the command line
            writes them, weights with 2).
        show_weights : bool, default=False
            Each leaf shows ``weights: [...]``, the weighted training rows of each class.
        show_counts : bool, default=True
            Each leaf shows its training rows per class after its class, as ``milptree show``
            does.

        Returns
        -------
        text : str
            One line per node, ending with a newline.
        """
        from milptree.export import export_text

        return export_text(self, feature_names=feature_names, class_names=class_names,
                           max_depth=max_depth, spacing=spacing, decimals=decimals,
                           show_weights=show_weights, show_counts=show_counts)

    def export_graphviz(self):
        """The tree as a Graphviz DOT digraph.

        Returns
        -------
        dot : str
            The DOT source (``dot -Tpng`` draws it).
        """
        check_is_fitted(self)
        return self.tree_.core.to_dot()

    def save_tree(self, path):
        """Writes the tree file that ``milptree predict --tree`` reads.

        Parameters
        ----------
        path : str or path-like
            The file to write (JSON). A tree learned from an array has the features ``x0``,
            ``x1``, ... and the label column ``class``.
        """
        check_is_fitted(self)
        self.tree_.core.save(str(path))

    def plot_tree(self, ax=None, **kwargs):
        """Draws the tree with matplotlib.

        Parameters
        ----------
        ax : matplotlib.axes.Axes, optional
            The axes to draw on (the current axes by default).
        **kwargs
            Passed to :func:`milptree.plot_tree` (scikit-learn's arguments: ``max_depth``,
            ``feature_names``, ``class_names``, ``filled``, ``fontsize``, ...).

        Returns
        -------
        annotations : list of matplotlib.text.Annotation
            One per node drawn.
        """
        from milptree.plot import plot_tree

        return plot_tree(self, ax=ax, **kwargs)

    def to_html(self, path=None, X=None, y=None):
        """The fitted tree as one self-contained HTML page, as ``milptree solve --html`` writes it.

        The diagram, collapsible, with every split, count and leaf probability, and the
        provenance and report beside it; it opens offline and makes no request.

        Parameters
        ----------
        path : str or path-like, optional
            The file to write the page to.
        X : array-like or DataFrame of shape (n_samples, n_features), optional
            Rows to pick and route through the tree, columns as in ``fit``; embedded when they
            hold at most 20000 values.
        y : array-like of shape (n_samples,), optional
            The labels of the rows of ``X``, each a class of the tree.

        Returns
        -------
        page : str
            The page's text (also written to ``path`` when given).
        """
        check_is_fitted(self)
        rows, n_rows, labels = None, 0, None
        if X is not None:
            rows, n_rows = self._rows(X)
            if y is not None:
                position = {c: i for i, c in enumerate(self.tree_.classes)}
                try:
                    labels = [position[str(c)] for c in np.asarray(y)]
                except KeyError as error:
                    raise ValueError(
                        f"y has the label {error.args[0]!r}, not a class of the tree"
                    ) from None
        report = None if self.report_ is None else json.dumps(self.report_)
        page = self.tree_.to_html(report, rows, n_rows, labels)
        if path is not None:
            with open(path, "w", encoding="utf-8") as file:
                file.write(page)
        return page

    def _repr_html_(self):
        """Jupyter's view of a fitted estimator: its page (``to_html``) in a frame of its own;
        before ``fit``, scikit-learn's view of the parameters."""
        if not hasattr(self, "tree_"):
            inner = getattr(super(), "_repr_html_inner", None)
            return inner() if inner is not None else None
        page = html.escape(self.to_html(), quote=True)
        return (f'<iframe title="milptree tree" sandbox="allow-scripts" srcdoc="{page}" '
                'style="width: 100%; height: 640px; border: 1px solid #d5d9e0; '
                'border-radius: 8px"></iframe>')

    def _repr_mimebundle_(self, **kwargs):
        """Jupyter takes the HTML of this bundle before ``_repr_html_``: the fitted tree's
        page, or scikit-learn's bundle before ``fit``."""
        if not hasattr(self, "tree_"):
            return super()._repr_mimebundle_(**kwargs)
        return {"text/plain": repr(self), "text/html": self._repr_html_()}


def _drop_unlabelled_rows(X, y, sample_weight, groups=None):
    """``X``, ``y``, ``sample_weight`` and ``groups`` (an array, or None) without the rows whose
    label is missing (NaN, None, ``pd.NA``), with a warning giving their number, as the
    command line drops them; a ``y`` with no label at all is an error. Shapes that do not
    match are left to the validation."""
    if y is None:
        return X, y, sample_weight, groups
    labels = y if hasattr(y, "isna") else np.asarray(y)
    if getattr(labels, "ndim", 1) == 2 and labels.shape[1] == 1:
        labels = np.asarray(labels).ravel()
    if getattr(labels, "ndim", 1) != 1:
        return X, y, sample_weight, groups
    missing = labels.isna().to_numpy() if hasattr(labels, "isna") else _columns.is_missing(labels)
    if not missing.any():
        return X, y, sample_weight, groups
    try:
        same_rows = _num_samples(X) == len(missing)
    except TypeError:
        same_rows = False
    if not same_rows:
        return X, y, sample_weight, groups
    if missing.all():
        raise ValueError("Input y contains NaN: every label is missing")
    dropped = int(missing.sum())
    warnings.warn(
        f"y: {dropped} row{'' if dropped == 1 else 's'} with a missing label dropped",
        UserWarning,
        stacklevel=4,
    )
    keep = np.flatnonzero(~missing)
    if sample_weight is not None and not np.isscalar(sample_weight):
        sample_weight = _safe_indexing(np.asarray(sample_weight), keep)
    if groups is not None:
        groups = groups[keep]
    return _safe_indexing(X, keep), _safe_indexing(y, keep), sample_weight, groups


def _refuse_text_read_as_numbers(X, categorical):
    """Refuses a DataFrame text or category column that is not read as categorical, naming it
    (the conversion to numbers would say only that a string is not a number)."""
    if not _columns.is_frame(X):
        return
    typed = _columns.categorical_positions(_columns.FROM_DTYPE, X)
    left = [X.columns[j] for j in typed if j not in categorical]
    if left:
        raise ValueError(
            f"column {left[0]!r} holds text or categories, but categorical_features=None reads "
            "every column as numbers; leave categorical_features at 'from_dtype' (the default) "
            "to read it as categorical"
        )


def load_tree(path):
    """An estimator holding the tree of a tree file, ready to predict.

    Parameters
    ----------
    path : str or path-like
        A tree file, as ``milptree solve -o`` or ``save_tree`` writes it.

    Returns
    -------
    model : OptimalTreeClassifier
        A fitted estimator that predicts on the columns the tree was learned from:
        ``classes_`` are the file's class labels (text), ``feature_names_in_`` its columns'
        names (unless they are ``x0``, ``x1``, ..., those of a tree learned from an array),
        ``categories_`` the categories of its categorical columns (text).
    """
    return estimator_of_tree(_core.read_tree(str(path)))


def estimator_of_tree(tree, classes=None, categories=None):
    """An estimator holding the engine's tree (see ``load_tree``).

    Parameters
    ----------
    tree : milptree._core.Tree
        The engine's tree.
    classes : ndarray, optional
        The labels of its classes in ``classes_``'s order, each ``str`` of one of the tree's
        (default: the tree's, as text).
    categories : dict, optional
        ``{column: values}`` whose texts are the tree's categories, to keep in
        ``categories_`` in their place (default: the texts).

    Returns
    -------
    model : OptimalTreeClassifier
        A fitted estimator (``report_``, ``optimal_``, ``objective_``, ``bound_`` and
        ``gap_`` None).
    """
    document = json.loads(tree.to_json())
    columns = [c for c in document["columns"] if c["kind"] in ("numeric", "categorical")]
    model = OptimalTreeClassifier(max_depth=tree.max_depth)
    model.classes_ = np.array(tree.classes, dtype=object) if classes is None else classes
    model.n_classes_ = len(model.classes_)
    model.n_features_in_ = len(columns)
    names = [c["name"] for c in columns]
    if names != [f"x{j}" for j in range(len(names))]:
        # Named features (not those of a tree learned from an array).
        model.feature_names_in_ = np.array(names, dtype=object)
    model.categories_ = {}
    for j, column in enumerate(columns):
        if column["kind"] != "categorical":
            continue
        texts = column["categories"]
        known = (categories or {}).get(j)
        if known is not None and set(_columns.category_texts(known)) == set(texts):
            # The same categories, in the tree's order (its features follow it).
            by_text = dict(zip(_columns.category_texts(known), known))
            model.categories_[j] = np.array([by_text[t] for t in texts], dtype=known.dtype)
        else:
            model.categories_[j] = np.array(texts, dtype=object)
    model._set_tree(tree, document=document)
    model.report_ = None
    model.optimal_ = None
    model.objective_ = model.bound_ = model.gap_ = None
    return model


def _available_cores():
    """The cores this process may use: those of its CPU affinity mask, no more than
    ``OMP_NUM_THREADS`` when that is set, as the workers of joblib's loky backend, of Dask
    (its nanny) and of Ray set it to the share of the machine each worker has."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        cores = os.cpu_count() or 1
    share = os.environ.get("OMP_NUM_THREADS", "").strip()
    if share.isdigit() and int(share) > 0:
        cores = min(cores, int(share))
    return max(1, cores)
