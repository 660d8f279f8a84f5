"""``RashomonSet``: every tree of a depth within a margin of the optimum (``milptree rashomon``),
counted exactly, in objective order, sampled uniformly, with its vote on any rows, each
feature's share of the set and the distribution of its importance across the set.

``X``, ``y`` and ``sample_weight`` are read as ``OptimalTreeClassifier.fit`` reads them and the
problem is the exact search's (``method="dp"``) with the estimator's parameters, so the set's
best trees are the estimator's optima. The set is held by the engine; trees are taken from it
by rank and returned as fitted ``OptimalTreeClassifier`` estimators.
"""

import json
import warnings
from typing import Iterator, List, Optional, Tuple

import numpy as np
from sklearn.exceptions import ConvergenceWarning

from milptree import _core
from milptree._engine_data import engine_data
from milptree.estimator import OptimalTreeClassifier, _value, estimator_of_tree


class RashomonSet:
    """Every tree of depth at most ``max_depth`` whose objective is within a margin of the
    optimum.

    The objective is the exact search's: weighted training errors plus ``alpha`` times the
    majority baseline's errors per split, with ``class_weight``; a tree is its splits (two
    trees are one when every node sends the same training rows each way), and a leaf predicts
    its best class (either class under a fairness bound); a missing value (NaN) goes the side each split learned. The margin is
    ``epsilon`` (every tree of objective at most ``(1 + epsilon)`` times the optimum) or
    ``max_errors`` (at most that objective).

    Parameters
    ----------
    max_depth : int, default=3
        Levels of splits.
    epsilon : float, optional
        The relative margin.
    max_errors : float, optional
        The largest objective of a tree of the set (instead of ``epsilon``).
    alpha : float, optional
        Split cost, as a share of the majority baseline's errors (the estimator's).
    min_samples_leaf : int, optional
        Every leaf has at least this many training rows.
    max_leaf_rows : int, optional
        Every leaf has at most this many training rows.
    class_weight : dict or "balanced", optional
        Class weights, as the estimator takes them.
    time_limit : float, optional
        Seconds for the exact search and the set's build. With a limit the build widens its
        bound pass by pass (the optimal trees first, then half the margin, then all of it); a
        build stopped by the limit keeps the last complete pass's set, with a
        ``ConvergenceWarning``, ``complete_`` False and ``max_objective_`` the bound it is
        complete to. Without the optimum proven in time it raises ``ValueError``.
    memory_limit : int, optional
        Cap on the set's graph in MiB (default 4096); past it, as past ``time_limit`` (without
        a time limit, a ``ValueError``).
    forbidden_features : list, optional
        Columns of ``X`` no split may use, as the estimator takes them.
    feature_depths : dict, optional
        ``{column: depths}``: the column may split only at the listed depths (the root 0), as
        the estimator takes it.
    group_column : int or str, optional
        Fairness: the column of ``X`` (an index, or a DataFrame's column name) whose values
        are the groups (two or more, on two-class data; depths 1 to 3, whole-number
        ``sample_weight``). No split uses it unless ``allow_group_as_feature``.
    max_parity_gap : float, optional
        Every tree of the set keeps statistical parity: any two groups' rates of predicted
        ``positive_class`` differ by at most this on the training rows. Under a fairness
        bound a leaf may predict either class (each labelling is a tree of its own: a leaf
        against its rows' majority can be what makes a tree fair), and the margin is taken
        from the fair optimum.
    max_opportunity_gap : float, optional
        Every tree of the set keeps equal opportunity: any two groups' true-positive rates
        differ by at most this.
    allow_group_as_feature : bool, default=False
        Splits may use the group column.
    positive_class : label, optional
        The positive class of the fairness rates (the second of the sorted labels by
        default).
    importance_trees : int, default=1000
        Importances over every tree of the set when it has at most this many, else over this
        many drawn uniformly; 0 leaves them out.
    random_state : int, default=0
        Seed of the importances' sample.
    categorical_features : "from_dtype", list or None, default="from_dtype"
        Which columns of ``X`` are categorical, as ``OptimalTreeClassifier`` takes it.

    Attributes
    ----------
    count_ : int
        The number of trees (``len(set)`` when it fits a machine integer).
    count_over_thresholds_ : int
        Each tree counted once per candidate threshold it stands for.
    optimum_ : float
        The proven optimum.
    max_objective_ : float
        The largest objective a tree of the set may have: every tree of objective at most this
        is in the set.
    complete_ : bool
        Whether the set reaches the margin asked (False when a limit stopped the build).
    by_objective_ : list of (float, int)
        Each objective of the set's trees, increasing, with how many have it.
    feature_use_ : ndarray of shape (n_features,)
        The share of the set's trees that split on each feature (exact).
    feature_importance_ : ndarray of shape (n_features,)
        Each feature's mean importance over the set's trees (``importance_distribution_``'s
        mean).
    importance_distribution_ : ndarray of shape (n_trees, n_features)
        Each feature's importance in each tree of the set (in objective order) or of a uniform
        sample of it (see ``importance_trees``): its share of the decrease of the weighted
        training errors its splits bring, as ``OptimalTreeClassifier.feature_importances_``
        reads one tree. Rows add up to 1 (all 0 for a tree whose splits lower no error).
    gaps_by_objective_ : list of (float, float, float)
        Under a fairness bound, each objective of the set's trees with the least and the
        largest gap among them (of the parity gap when it is bounded, else of the opportunity
        gap); empty without one.
    disputed_rows_ : ndarray of int
        The training rows on which the set's trees do not all agree.
    report_ : dict
        ``milptree rashomon --json``'s report of the set.
    classes_ : ndarray
        The labels of ``y``.
    """

    def __init__(self, max_depth: int = 3, *, epsilon: Optional[float] = None,
                 max_errors: Optional[float] = None, alpha: Optional[float] = None,
                 min_samples_leaf: Optional[int] = None, max_leaf_rows: Optional[int] = None,
                 class_weight=None, time_limit: Optional[float] = None,
                 memory_limit: Optional[int] = None, forbidden_features=None,
                 feature_depths=None, group_column=None,
                 max_parity_gap: Optional[float] = None,
                 max_opportunity_gap: Optional[float] = None,
                 allow_group_as_feature: bool = False, positive_class=None,
                 importance_trees: int = 1000, random_state: int = 0,
                 categorical_features="from_dtype") -> None:
        self.max_depth = max_depth
        self.epsilon = epsilon
        self.max_errors = max_errors
        self.alpha = alpha
        self.min_samples_leaf = min_samples_leaf
        self.max_leaf_rows = max_leaf_rows
        self.class_weight = class_weight
        self.time_limit = time_limit
        self.memory_limit = memory_limit
        self.forbidden_features = forbidden_features
        self.feature_depths = feature_depths
        self.group_column = group_column
        self.max_parity_gap = max_parity_gap
        self.max_opportunity_gap = max_opportunity_gap
        self.allow_group_as_feature = allow_group_as_feature
        self.positive_class = positive_class
        self.importance_trees = importance_trees
        self.random_state = random_state
        self.categorical_features = categorical_features

    def fit(self, X, y, sample_weight=None) -> "RashomonSet":
        """Builds the set of the training rows ``X``, ``y``.

        Raises
        ------
        ValueError
            On bad input, a setting the set does not take, an optimum not proven within
            ``time_limit``, or no pass complete within the limits.
        KeyboardInterrupt
            On Ctrl-C, once the build has stopped.
        """
        data = engine_data(X, y, sample_weight, self.categorical_features)
        settings = {"max_depth": self.max_depth, "epsilon": self.epsilon,
                    "max_errors": self.max_errors, "alpha": self.alpha,
                    "min_samples_leaf": self.min_samples_leaf,
                    "max_leaf_rows": self.max_leaf_rows, "time_limit": self.time_limit,
                    "memory_limit": self.memory_limit, "importance_trees": self.importance_trees,
                    "random_state": self.random_state, "max_parity_gap": self.max_parity_gap,
                    "max_opportunity_gap": self.max_opportunity_gap}
        settings = {name: _value(value) for name, value in settings.items()}
        if not isinstance(self.allow_group_as_feature, (bool, np.bool_)):
            raise ValueError("allow_group_as_feature must be True or False, not "
                             f"{self.allow_group_as_feature!r}")
        if self.allow_group_as_feature:
            settings["allow_group_as_feature"] = True
        if self.positive_class is not None:
            settings["positive_class"] = str(self.positive_class)
        # The columns the constraints name, resolved as the estimator resolves them.
        columns = OptimalTreeClassifier(forbidden_features=self.forbidden_features,
                                        feature_depths=self.feature_depths,
                                        group_column=self.group_column)
        columns.categories_ = data.categories
        settings.update(columns._column_settings(data.features))
        settings["constraints"] = columns._constraint_set(data.features)
        if isinstance(self.class_weight, str):
            if self.class_weight != "balanced":
                raise ValueError("class_weight must be 'balanced', a dict or None, not "
                                 f"{self.class_weight!r}")
            settings["objective"] = "balanced"
        elif isinstance(self.class_weight, dict):
            settings["class_weight"] = {str(label): _value(weight)
                                        for label, weight in self.class_weight.items()}
        elif self.class_weight is not None:
            raise ValueError("class_weight must be 'balanced', a dict or None, not "
                             f"{self.class_weight!r}")
        self._set = _core.rashomon_set(
            data.matrix, data.n_rows, data.features, data.names, data.labels, data.weights,
            json.dumps(settings), data.texts,
        )
        self._categories = data.categories
        self.classes_ = data.classes
        self.report_ = json.loads(self._set.report())
        self.count_ = int(self.report_["count"])
        self.count_over_thresholds_ = int(self.report_["count_over_thresholds"])
        self.optimum_ = self.report_["optimum"]
        self.max_objective_ = self.report_["max_objective"]
        self.complete_ = bool(self.report_["complete"])
        self.by_objective_ = [(entry["objective"], int(entry["trees"]))
                              for entry in self.report_["by_objective"]]
        self.feature_use_ = np.array([f["share"] for f in self.report_["features"]])
        n_features = len(self.report_["features"])
        self.importance_distribution_ = np.array(
            self._set.importances(), dtype=np.float64).reshape(-1, n_features)
        self.feature_importance_ = (self.importance_distribution_.mean(axis=0)
                                    if len(self.importance_distribution_)
                                    else np.zeros(n_features))
        self.gaps_by_objective_ = [(entry["objective"], entry["least_gap"], entry["largest_gap"])
                                   for entry in self.report_["gaps_by_objective"]]
        self.disputed_rows_ = np.array(self.report_["disputed_rows"], dtype=np.int64)
        best = self._set.tree("0")
        self._reader = None if best is None else self._estimator(best[3])
        if not self.complete_:
            warnings.warn(
                f"the set's build stopped ({self.report_['stopped'].replace('_', ' ')}): it "
                f"holds every tree of objective at most {self.max_objective_}, not "
                f"{self.report_['asked_max_objective']} as asked", ConvergenceWarning)
        return self

    def __len__(self) -> int:
        return self._fitted().count_

    def __getitem__(self, rank: int) -> OptimalTreeClassifier:
        """The tree of rank ``rank`` in objective order (0 is a best tree; negative ranks count
        from the end)."""
        self._fitted()
        rank = int(rank)
        if rank < 0:
            rank += self.count_
        found = None if rank < 0 else self._set.tree(str(rank))
        if found is None:
            raise IndexError(f"rank {rank} is not below the set's {self.count_} trees")
        return self._estimator(found[3])

    def __iter__(self) -> Iterator[OptimalTreeClassifier]:
        """The trees in objective order, best first."""
        self._fitted()
        rank = 0
        while True:
            found = self._set.tree(str(rank))
            if found is None:
                return
            yield self._estimator(found[3])
            rank += 1

    def objective(self, rank: int) -> float:
        """The objective of the tree of rank ``rank``."""
        found = self._fitted()._set.tree(str(int(rank)))
        if found is None:
            raise IndexError(f"rank {rank} is not below the set's {self.count_} trees")
        return found[1]

    def sample(self, k: int, random_state: int = 0) -> List[OptimalTreeClassifier]:
        """``k`` trees drawn uniformly (with replacement) from the set."""
        drawn = self._fitted()._set.sample(int(k), int(random_state))
        return [self._estimator(tree) for _, _, _, tree in drawn]

    def to_html(self, path=None, trees: int = 100, samples: int = 0,
                random_state: int = 0) -> str:
        """The set's page, as ``milptree rashomon --html`` writes it: the trees by objective,
        each feature's share of the trees and its importance across them, and a browser of the
        first ``trees`` trees in objective order and ``samples`` drawn uniformly, with the
        training rows to route; it opens offline and makes no request.

        Parameters
        ----------
        path : str or path-like, optional
            The file to write the page to.
        trees : int, default=100
            The trees listed first, in objective order.
        samples : int, default=0
            Trees drawn uniformly (with replacement) after them, from ``random_state``.
        random_state : int, default=0
            Seed of the samples.

        Returns
        -------
        page : str
            The page's text (also written to ``path`` when given).
        """
        page = self._fitted()._set.to_html(int(trees), int(samples), int(random_state))
        if path is not None:
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(page)
        return page

    def votes(self, X) -> np.ndarray:
        """For each row of ``X``, the number of the set's trees predicting each class (columns
        in ``classes_``'s order; float when a count passes 2^53)."""
        rows, n = self._rows(X)
        counts = [[int(c) for c in row] for row in self._set.votes(rows, n)]
        if any(c >= 2 ** 53 for row in counts for c in row):
            return np.array(counts, dtype=np.float64).reshape(n, len(self.classes_))
        return np.array(counts, dtype=np.int64).reshape(n, len(self.classes_))

    def predict_proba(self, X) -> np.ndarray:
        """For each row of ``X``, the share of the set's trees predicting each class."""
        counts = self.votes(X).astype(np.float64)
        return counts / counts.sum(axis=1, keepdims=True)

    def predict(self, X) -> np.ndarray:
        """The set's vote on each row of ``X``: the class most of its trees predict (the first
        in ``classes_`` on a tie)."""
        return self.classes_[np.argmax(self.votes(X), axis=1)]

    def _rows(self, X) -> Tuple[bytes, int]:
        if self._fitted()._reader is None:
            raise ValueError("the set holds no tree")
        return self._reader._rows(X)

    def _estimator(self, tree) -> OptimalTreeClassifier:
        return estimator_of_tree(tree, classes=self.classes_, categories=self._categories)

    def _fitted(self) -> "RashomonSet":
        if not hasattr(self, "_set"):
            raise ValueError("this RashomonSet is not fitted yet: call fit(X, y) first")
        return self

