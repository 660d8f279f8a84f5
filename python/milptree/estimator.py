"""``OptimalTreeClassifier``: a scikit-learn classifier over milptree's methods.

The parameters are stored as given in ``__init__`` and checked in ``fit``, where they become
the options of ``milptree solve`` (``max_depth`` is ``--depth``, ``min_samples_leaf`` is
``--min-leaf``, ...) and go through the command line's own checks: an engine error is a
``ValueError`` with the command line's message, the options named as this class names them.
"""

import html
import json
import numbers
import os

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import _check_sample_weight, check_is_fitted

from milptree import _core

try:  # scikit-learn >= 1.6
    from sklearn.utils.validation import validate_data as _validate_data

    # NaN in X is a missing value; infinities are still refused.
    _ALLOW_NAN = {"ensure_all_finite": "allow-nan"}
except ImportError:  # pragma: no cover - older scikit-learn

    def _validate_data(estimator, *args, **kwargs):
        return estimator._validate_data(*args, **kwargs)

    _ALLOW_NAN = {"force_all_finite": "allow-nan"}


METHODS = ("dp", "sparse", "oct", "binoct", "flowoct", "olct")
MILP_METHODS = ("oct", "binoct", "flowoct", "olct")

# Each parameter passed on as a `solve` option: (parameter, option, kind).
_OPTIONS = (
    ("objective", "--objective", str),
    ("alpha", "--alpha", numbers.Real),
    ("min_samples_leaf", "--min-leaf", numbers.Integral),
    ("max_splits", "--max-splits", numbers.Integral),
    ("leaf_penalty", "--leaf-penalty", numbers.Real),
    ("thresholds", "--thresholds", str),
    ("warm_start", "--warm-start", str),
    ("time_limit", "--time-limit", numbers.Real),
    ("threads", "--threads", numbers.Integral),
    ("memory_limit", "--memory-limit", numbers.Integral),
    ("mip_gap", "--mip-gap", numbers.Real),
    ("certify", "--certify", (numbers.Real, str)),
)


def _word(value):
    """A parameter's value as a command-line word (floats without loss)."""
    if isinstance(value, numbers.Integral):
        return str(int(value))
    if isinstance(value, numbers.Real):
        return repr(float(value))
    return str(value)


def _check_kind(name, value, kind):
    if isinstance(value, bool) or not isinstance(value, kind):
        wanted = {str: "a string", numbers.Real: "a number", numbers.Integral: "an integer"}
        what = " or ".join(wanted[k] for k in (kind if isinstance(kind, tuple) else (kind,)))
        raise ValueError(f"{name} must be {what}, not {value!r}")


def _translate(message, method):
    """The command line's message with its options named as the estimator's parameters."""
    names = [("--solver dp", "method='dp'"), ("--solver sparse", "method='sparse'")]
    names += [(f"--formulation {m}", f"method={m!r}") for m in MILP_METHODS]
    names += [(option, name) for name, option, _ in _OPTIONS]
    names += [("--depth", "max_depth"), ("--positive-class", "positive_class"),
              ("--class-weight", "class_weight"), ("--solver-option", "solver_options"),
              ("--solver", "solver"), ("--formulation", "method"),
              ("--max-features", "max_features"), ("--max-leaves", "max_leaves"),
              ("--min-leaf-rows", "min_leaf_rows"), ("--max-leaf-rows", "max_leaf_rows"),
              ("--forbid-feature", "forbidden_features")]
    for option, name in sorted(names, key=lambda pair: -len(pair[0])):
        message = message.replace(option, name)
    return message


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
        The MIP solver of a MILP method (default highs).
    warm_start : {"greedy", "dp", "best", "none"} or bool, optional
        Warm start of a MILP method (``True``: greedy, ``False``: none).
    time_limit : float, optional
        Seconds; past it the best tree found is kept (``optimal_`` False).
    threads : int, optional
        Threads of the MILP solver, or of the exact and sparse searches (``dp``,
        ``sparse``; default 1, the same tree with any number).
    n_jobs : int or None, default=None
        Threads of the exact searches (dp, its metric fronts, sparse), as scikit-learn means it:
        ``None`` is 1, ``-1`` every core, ``-2`` every core but one, ... The tree is the same
        for any number. With a MILP method it is the solver's threads (as ``threads``).
    class_weight : dict, "balanced" or None
        ``"balanced"`` is the balanced objective; a dict ``{label: weight}`` multiplies the
        cost of an error on a row of that class (the engine's ``--class-weight``).
    positive_class : label, optional
        The positive class of two-class objectives and of OLCT.
    memory_limit : int, optional
        Cap on the search's cache in MiB (dp, sparse).
    certify : float or "off", optional
        Seconds for the exact search to certify a MILP result (oct, binoct, flowoct).
    mip_gap : float, optional
        Relative MIP gap at which the solver may stop.
    solver_options : dict, optional
        The MIP solver's own parameters, ``{name: value}``.
    max_features : int, optional
        Side constraint: at most this many distinct features in the tree (oct, binoct,
        flowoct; the engine's ``--max-features``).
    forbidden_features : list, optional
        Side constraint: columns of ``X`` no split may use (indexes, or a DataFrame's column
        names; not categorical columns). Every method but olct takes it: dp and sparse search
        exactly without those columns (``--forbid-feature``).
    max_leaves : int, optional
        Side constraint: at most this many leaves (oct, binoct, flowoct; ``--max-leaves``).
    min_leaf_rows : int, optional
        Side constraint: every leaf some training row reaches has at least this many training
        rows, counted unweighted (oct, binoct, flowoct; ``--min-leaf-rows``).
    max_leaf_rows : int, optional
        Side constraint: every leaf has at most this many training rows, counted unweighted
        (oct, binoct, flowoct; ``--max-leaf-rows``).
    categorical_features : list, optional
        Columns of ``X`` read as categorical (indexes, or a DataFrame's column names): each
        value seen in ``fit`` is a category, and splits on the column are equality tests
        (``colour = 2`` in ``tree_.to_text()``). A value ``fit`` did not see goes the ``!=``
        way at every split on its column.

    Attributes
    ----------
    tree_ : milptree._core.Tree
        The tree: ``to_text()``, ``to_dot()``, ``to_json()``, ``save(path)``.
    classes_, n_features_in_, feature_names_in_
        As scikit-learn's estimators have them.
    categories_ : dict
        The categories of each categorical column, ``{column index: sorted values}``.
    optimal_ : bool
        Whether the tree is proven optimal.
    objective_, bound_, gap_ : float or None
        The objective of the tree, the proven bound and the relative gap between them.
    report_ : dict
        The report ``milptree solve --json`` prints for the same run.

    NaN in ``X`` is a missing value: every split learns, optimally, where the rows missing its
    feature go (``olct`` refuses them). At prediction time, a value missing in a feature that
    had none in training goes to the child more training rows reached.

    Ctrl-C during ``fit`` stops the run within a second and raises ``KeyboardInterrupt``; the
    estimator is then left as it was before ``fit``.
    """

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = True
        return tags

    def _more_tags(self):  # pragma: no cover - scikit-learn < 1.6
        return {"allow_nan": True}

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
        categorical_features=None,
        max_features=None,
        forbidden_features=None,
        max_leaves=None,
        min_leaf_rows=None,
        max_leaf_rows=None,
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
        self.max_features = max_features
        self.forbidden_features = forbidden_features
        self.max_leaves = max_leaves
        self.min_leaf_rows = min_leaf_rows
        self.max_leaf_rows = max_leaf_rows

    # -- parameters -------------------------------------------------------------------------

    def _solve_options(self):
        """The parameters as `milptree solve` options, their kinds checked."""
        if self.method not in METHODS:
            raise ValueError(f"method must be one of {', '.join(METHODS)}, not {self.method!r}")
        if self.method in MILP_METHODS:
            words = ["--formulation", self.method]
            if self.solver is not None:
                _check_kind("solver", self.solver, str)
            words += ["--solver", self.solver or "highs"]
        else:
            if self.solver is not None:
                raise ValueError(
                    f"solver applies to the MILP methods ({', '.join(MILP_METHODS)}), "
                    f"not to method={self.method!r}"
                )
            words = ["--solver", self.method]
        if self.max_depth is not None:
            _check_kind("max_depth", self.max_depth, numbers.Integral)
            words += ["--depth", _word(self.max_depth)]
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
                for label, weight in self.class_weight.items():
                    words += ["--class-weight", f"{label}={_word(weight)}"]
            else:
                raise ValueError(f"class_weight must be 'balanced', a dict or None, not {self.class_weight!r}")
        for name, option, kind in _OPTIONS:
            value = objective if name == "objective" else getattr(self, name)
            if name == "warm_start" and isinstance(value, bool):
                if not value and self.method not in MILP_METHODS:
                    continue  # the searches start from nothing anyway
                value = "greedy" if value else "none"
            if value is not None:
                _check_kind(name, value, kind)
                words += [option, _word(value)]
        jobs = self._jobs()
        if jobs is not None:
            if self.threads is not None:
                raise ValueError("give threads or n_jobs, not both")
            words += ["--threads", str(jobs)]
        if self.positive_class is not None:
            words += ["--positive-class", str(self.positive_class)]
        if self.solver_options is not None:
            if not isinstance(self.solver_options, dict):
                raise ValueError(f"solver_options must be a dict, not {self.solver_options!r}")
            for name, value in self.solver_options.items():
                words += ["--solver-option", f"{name}={value}"]
        return words

    def _jobs(self):
        """``n_jobs`` as a number of threads (scikit-learn's meaning: ``-1`` every core, ``-2``
        all but one, ...), or None when it asks for one thread."""
        if self.n_jobs is None:
            return None
        _check_kind("n_jobs", self.n_jobs, numbers.Integral)
        n_jobs = int(self.n_jobs)
        if n_jobs == 0:
            raise ValueError("n_jobs must not be 0 (None or 1: one thread, -1: every core)")
        jobs = n_jobs if n_jobs > 0 else max(1, (os.cpu_count() or 1) + 1 + n_jobs)
        return jobs if jobs > 1 else None

    def _row_weights(self, y, sample_weight, X):
        """Each row's weight (a dict class_weight goes to the engine as class weights), or None
        when every row weighs 1."""
        if sample_weight is None:
            return None
        return _check_sample_weight(sample_weight, X, dtype=np.float64)

    def _categorical_columns(self, n_columns):
        """The positions of the columns ``categorical_features`` names."""
        if self.categorical_features is None:
            return []
        if isinstance(self.categorical_features, (str, bytes)) or not hasattr(
            self.categorical_features, "__iter__"
        ):
            raise ValueError(
                f"categorical_features must be a list of columns, not {self.categorical_features!r}"
            )
        names = [str(f) for f in getattr(self, "feature_names_in_", [])]
        positions = set()
        for item in self.categorical_features:
            if isinstance(item, (numbers.Integral, np.integer)) and not isinstance(item, bool):
                if not 0 <= item < n_columns:
                    raise ValueError(
                        f"categorical_features: column {item} is out of range (X has {n_columns} columns)"
                    )
                positions.add(int(item))
            elif isinstance(item, str) and item in names:
                positions.add(names.index(item))
            else:
                raise ValueError(
                    f"categorical_features: {item!r} is not a column of X (give column indexes, "
                    "or names of a DataFrame's columns)"
                )
        return sorted(positions)

    def _constraint_words(self, features):
        """The side constraints as `solve` options, ``forbidden_features`` resolved to the
        feature names of ``features`` (one per column of ``X``)."""
        words = []
        for name, option in (
            ("max_features", "--max-features"),
            ("max_leaves", "--max-leaves"),
            ("min_leaf_rows", "--min-leaf-rows"),
            ("max_leaf_rows", "--max-leaf-rows"),
        ):
            value = getattr(self, name)
            if value is not None:
                _check_kind(name, value, numbers.Integral)
                words += [option, _word(value)]
        if self.forbidden_features is None:
            return words
        if isinstance(self.forbidden_features, (str, bytes)) or not hasattr(
            self.forbidden_features, "__iter__"
        ):
            raise ValueError(
                f"forbidden_features must be a list of columns, not {self.forbidden_features!r}"
            )
        for item in self.forbidden_features:
            if isinstance(item, (numbers.Integral, np.integer)) and not isinstance(item, bool):
                if not 0 <= item < len(features):
                    raise ValueError(
                        f"forbidden_features: column {item} is out of range (X has "
                        f"{len(features)} columns)"
                    )
                position = int(item)
            elif isinstance(item, str) and item in features and hasattr(self, "feature_names_in_"):
                position = features.index(item)
            else:
                raise ValueError(
                    f"forbidden_features: {item!r} is not a column of X (give column indexes, "
                    "or names of a DataFrame's columns)"
                )
            if position in self.categories_:
                raise ValueError(
                    f"forbidden_features: column {item!r} is categorical; forbidding a "
                    "categorical column is not supported"
                )
            words += ["--forbid-feature", features[position]]
        return words

    def _encode(self, X):
        """``X`` with each categorical column replaced by one 0/1 column per category of
        ``categories_`` (a value not among them: all zeros; a missing value, NaN: NaN in each
        of its column's categories)."""
        if not self.categories_:
            return X
        parts = []
        for j in range(X.shape[1]):
            categories = self.categories_.get(j)
            if categories is None:
                parts.append(X[:, j : j + 1])
            else:
                column = X[:, j : j + 1]
                encoded = (column == categories[None, :]).astype(np.float64)
                encoded[np.isnan(column[:, 0]), :] = np.nan
                parts.append(encoded)
        return np.hstack(parts)

    # -- learning ---------------------------------------------------------------------------

    def fit(self, X, y, sample_weight=None):
        """Learns the tree on ``X`` (array or DataFrame; column names become feature names)
        and ``y`` (any labels), each row weighing its ``sample_weight``."""
        words = self._solve_options()
        X, y = _validate_data(self, X, y, dtype=np.float64, **_ALLOW_NAN)
        check_classification_targets(y)
        classes, labels = np.unique(y, return_inverse=True)
        if len(classes) < 2:
            raise ValueError(
                f"y has one class only ({classes[0]!r}): a classifier needs at least two classes"
            )
        weights = self._row_weights(y, sample_weight, X)
        names = [str(c) for c in classes]
        if len(set(names)) < len(names):
            raise ValueError("two classes of y have the same text; give y labels that differ as text")
        features = (
            [str(f) for f in self.feature_names_in_]
            if hasattr(self, "feature_names_in_")
            else [f"x{j}" for j in range(X.shape[1])]
        )
        self.categories_ = {
            j: np.unique(X[~np.isnan(X[:, j]), j]) for j in self._categorical_columns(X.shape[1])
        }
        words = words + self._constraint_words(features)
        categories = None
        if self.categories_:
            categories = [
                [_category_text(v) for v in self.categories_[j]] if j in self.categories_ else None
                for j in range(X.shape[1])
            ]
        try:
            tree, report = _core.fit(
                np.ascontiguousarray(self._encode(X), dtype=np.float64).tobytes(),
                X.shape[0],
                features,
                names,
                labels.astype(np.int64).tolist(),
                None if weights is None else np.asarray(weights, dtype=np.float64).tolist(),
                words,
                categories,
            )
        except ValueError as error:
            raise ValueError(_translate(str(error), self.method)) from None
        self.classes_ = classes
        self._set_tree(tree)
        self.report_ = json.loads(report)
        self.optimal_ = self.report_.get("termination") == "optimal"
        self.objective_ = self.report_.get("objective")
        self.bound_ = self.report_.get("best_bound")
        self.gap_ = self.report_.get("rel_gap")
        return self

    def _set_tree(self, tree):
        """Keeps ``tree`` and the map from its class order to ``classes_``."""
        position = {str(c): i for i, c in enumerate(self.classes_)}
        self.tree_ = tree
        self._tree_classes = np.array([position[c] for c in tree.classes], dtype=np.int64)

    # -- prediction -------------------------------------------------------------------------

    def _rows(self, X):
        check_is_fitted(self)
        X = _validate_data(self, X, reset=False, dtype=np.float64, **_ALLOW_NAN)
        X = self._encode(X) if getattr(self, "categories_", None) else X
        return np.ascontiguousarray(X, dtype=np.float64).tobytes(), X.shape[0]

    def predict(self, X):
        """The class of each row."""
        rows, n = self._rows(X)
        index = np.frombuffer(self.tree_.predict(rows, n), dtype=np.int64)
        return self.classes_[self._tree_classes[index]]

    def predict_proba(self, X):
        """Each row's probability of every class (columns in ``classes_`` order): the class
        frequencies of the training rows of its leaf (a logistic tree's, OLCT's, logistic
        models)."""
        rows, n = self._rows(X)
        k = len(self.classes_)
        by_tree = np.frombuffer(self.tree_.predict_proba(rows, n), dtype=np.float64).reshape(n, k)
        proba = np.empty_like(by_tree)
        proba[:, self._tree_classes] = by_tree
        return proba

    def apply(self, X):
        """The id of the leaf each row reaches (root 1; the children of ``k`` are ``2k`` and
        ``2k + 1``)."""
        rows, n = self._rows(X)
        return np.frombuffer(self.tree_.apply(rows, n), dtype=np.int64).copy()

    def decision_path(self, X):
        """A sparse matrix whose entry ``(i, k)`` is 1 when row ``i`` passes node ``k`` (node
        ids as in ``apply``; column 0 is no node)."""
        from scipy.sparse import csr_matrix

        rows, n = self._rows(X)
        ids, offsets = self.tree_.decision_paths(rows, n)
        indices = np.frombuffer(ids, dtype=np.int64)
        indptr = np.frombuffer(offsets, dtype=np.int64)
        data = np.ones(len(indices), dtype=np.int64)
        return csr_matrix((data, indices, indptr), shape=(n, self.tree_.node_count))

    def get_depth(self):
        """The depth of the deepest leaf."""
        check_is_fitted(self)
        return self.tree_.depth

    def get_n_leaves(self):
        check_is_fitted(self)
        return self.tree_.n_leaves

    # -- renderings and files ---------------------------------------------------------------

    def export_text(self):
        """The tree as indented text (as ``milptree show`` prints it)."""
        check_is_fitted(self)
        return self.tree_.to_text()

    def export_graphviz(self):
        """The tree as a Graphviz DOT digraph."""
        check_is_fitted(self)
        return self.tree_.to_dot()

    def save_tree(self, path):
        """Writes the tree file that ``milptree predict --tree`` reads."""
        check_is_fitted(self)
        self.tree_.save(str(path))

    def plot_tree(self, ax=None, **kwargs):
        """Draws the tree with matplotlib (see ``milptree.plot_tree``)."""
        from milptree.plot import plot_tree

        return plot_tree(self, ax=ax, **kwargs)

    def to_html(self, path=None, X=None, y=None):
        """The fitted tree as one self-contained HTML page (``milptree solve --html``): the
        diagram, collapsible, with every split, count and leaf probability, and the provenance
        and report beside it; it opens offline and makes no request. With ``X`` (and ``y``),
        rows to pick and route through the tree, embedded when they hold at most 20000 values.
        Written to ``path`` when given; returns the page's text."""
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


def load_tree(path):
    """An estimator holding the tree of a tree file (as ``milptree solve -o`` writes it), ready
    to predict: ``classes_`` are the file's class labels (text), ``feature_names_in_`` its
    feature names, in the columns' order."""
    tree = _core.read_tree(str(path))
    model = OptimalTreeClassifier(max_depth=tree.max_depth)
    model.classes_ = np.array(tree.classes, dtype=object)
    model.n_features_in_ = len(tree.features)
    if tree.features != [f"x{j}" for j in range(len(tree.features))]:
        # Named features (not those of a tree learned from an array).
        model.feature_names_in_ = np.array(tree.features, dtype=object)
    model._set_tree(tree)
    model.report_ = None
    model.optimal_ = None
    model.objective_ = model.bound_ = model.gap_ = None
    return model


def _category_text(value):
    """A category's text: a whole number without its ``.0``, any other number as Python
    writes it."""
    value = float(value)
    return str(int(value)) if value.is_integer() else repr(value)
