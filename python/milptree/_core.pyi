"""The extension module compiled from milptree's Rust library (``src/python/``).

Arrays cross this boundary as the bytes of C-ordered native-endian ``float64`` matrices (rows)
and ``int64`` vectors (results), read back with ``numpy.frombuffer``; the estimator in
:mod:`milptree.estimator` does those conversions. Every library error is a ``ValueError``
carrying the command line's message.
"""

from os import PathLike
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

__version__: str
"""The version of the Rust library (Cargo.toml's)."""

class Tree:
    """A learned tree: prediction, probabilities, leaves, paths, renderings and tree files.

    Trees are immutable and picklable (through their JSON text). Node ids number the
    positions of a complete binary tree: the root is 1, the children of ``k`` are ``2k``
    (the condition holds) and ``2k + 1``.
    """

    @property
    def classes(self) -> list[str]:
        """The class labels, in class-index order."""
    @property
    def features(self) -> list[str]:
        """The feature names, in feature (column) order."""
    @property
    def depth(self) -> int:
        """The depth of the deepest leaf."""
    @property
    def max_depth(self) -> int:
        """The depth the tree was learned for."""
    @property
    def n_leaves(self) -> int:
        """The number of leaves."""
    @property
    def n_splits(self) -> int:
        """The number of split nodes."""
    @property
    def node_count(self) -> int:
        """One more than the largest node id (the columns of a decision path)."""
    def predict(self, x: bytes, n_rows: int) -> bytes:
        """The class index of each row.

        Parameters
        ----------
        x : bytes
            The bytes of a C-ordered ``n_rows`` x ``len(features)`` ``float64`` matrix.
        n_rows : int
            The number of rows of ``x``.

        Returns
        -------
        bytes
            One native-endian ``int64`` class index per row.
        """
    def apply(self, x: bytes, n_rows: int) -> bytes:
        """The id of the leaf each row reaches.

        Parameters
        ----------
        x : bytes
            The bytes of a C-ordered ``n_rows`` x ``len(features)`` ``float64`` matrix.
        n_rows : int
            The number of rows of ``x``.

        Returns
        -------
        bytes
            One native-endian ``int64`` leaf id per row.
        """
    def decision_paths(self, x: bytes, n_rows: int) -> Tuple[bytes, bytes]:
        """The ids of the nodes each row passes through, root first.

        Parameters
        ----------
        x : bytes
            The bytes of a C-ordered ``n_rows`` x ``len(features)`` ``float64`` matrix.
        n_rows : int
            The number of rows of ``x``.

        Returns
        -------
        ids : bytes
            The concatenated paths, native-endian ``int64`` node ids.
        offsets : bytes
            ``n_rows + 1`` native-endian ``int64`` offsets of each row's path in ``ids``.
        """
    def predict_proba(self, x: bytes, n_rows: int, smoothing: Optional[float] = None) -> bytes:
        """Each row's probability of every class.

        A logistic tree's (OLCT's) logistic models; for every other tree, the class
        frequencies of the training rows of the row's leaf, smoothed by ``smoothing``
        pseudo-rows per class when given.

        Parameters
        ----------
        x : bytes
            The bytes of a C-ordered ``n_rows`` x ``len(features)`` ``float64`` matrix.
        n_rows : int
            The number of rows of ``x``.
        smoothing : float, optional
            Laplace smoothing of the leaf frequencies, ``(n_c + A) / (n + K A)`` over ``K``
            classes (``milptree predict --proba-smoothing``); refused for a logistic tree.

        Returns
        -------
        bytes
            ``n_rows`` x ``len(classes)`` native-endian ``float64`` values, row after row.
        """
    def to_text(self) -> str:
        """The tree as indented text, as ``milptree show`` prints it.

        Returns
        -------
        str
            One line per node.
        """
    def to_dot(self) -> str:
        """The tree as a Graphviz DOT digraph.

        Returns
        -------
        str
            The DOT source.
        """
    def to_json(self) -> str:
        """The tree file's JSON text.

        Returns
        -------
        str
            The document ``milptree solve -o`` writes.
        """
    def to_html(
        self,
        report: Optional[str] = None,
        x: Optional[bytes] = None,
        n_rows: int = 0,
        labels: Optional[Sequence[int]] = None,
    ) -> str:
        """A self-contained HTML page of the tree, as ``milptree show --format html`` writes it.

        Parameters
        ----------
        report : str, optional
            The JSON text of the solve report; with it, the solve's page (``milptree solve
            --html``): the tree beside its provenance and report.
        x : bytes, optional
            Rows to pick and route through the tree: the bytes of a C-ordered ``n_rows`` x
            ``len(features)`` ``float64`` matrix, embedded when few enough.
        n_rows : int, default=0
            The number of rows of ``x``.
        labels : sequence of int, optional
            Each row's index into ``classes``.

        Returns
        -------
        str
            The page's text; it opens offline and makes no request.
        """
    def save(self, path: Union[str, PathLike[str]]) -> None:
        """Writes the tree file that ``milptree predict --tree`` and ``milptree show`` read.

        Parameters
        ----------
        path : str or path-like
            The file to write.
        """

def fit(
    x: bytes,
    n_rows: int,
    features: Sequence[str],
    classes: Sequence[str],
    labels: Sequence[int],
    weights: Optional[Sequence[float]],
    settings: str,
    categories: Optional[Sequence[Optional[Sequence[str]]]] = None,
    groups: Optional[Sequence[str]] = None,
    callback: Optional[Callable[[Dict[str, Any]], Any]] = None,
) -> Tuple[Tree, str, Optional[BaseException]]:
    """Learns a tree with the engine's settings (as ``milptree solve`` does with its options).

    The search runs on its own thread with the GIL released; Ctrl-C asks it to stop and waits
    for it: the best tree found is returned with the interruption beside it, for the caller to
    keep or raise. A run stopped before it had a tree raises the interruption.

    Parameters
    ----------
    x : bytes
        The bytes of a C-ordered ``n_rows`` x ``len(features)`` ``float64`` matrix (with
        ``categories``, one 0/1 column per category in place of each categorical column).
    n_rows : int
        The number of rows.
    features : sequence of str
        The column names.
    classes : sequence of str
        The class labels.
    labels : sequence of int
        Each row's index into ``classes``.
    weights : sequence of float or None
        Each row's weight, or None for weight 1 everywhere.
    settings : str
        The run's settings as a JSON object keyed by ``OptimalTreeClassifier``'s parameter
        names (``method`` required; ``min_samples_leaf``, ``max_depth``, ...; a dict
        ``class_weight`` and ``solver_options``; ``forbidden_features`` and ``group_column``
        as feature names; ``constraints``: the side constraints without a parameter of their
        own, as a constraints file's keys: ``feature_costs``, ``budget``, ``depths``,
        ``positive_class``). An error names the parameter.
    categories : sequence of (sequence of str or None), optional
        One entry per name of ``features``: None for a numeric column, its categories for a
        categorical one.
    groups : sequence of str, optional
        Each row's group for the fairness bounds of ``settings``, beside the rows: the search
        reads them as a last categorical column no split may use, and the tree returned is
        over ``features`` alone (it predicts without the groups).
    callback : callable, optional
        Called on the calling thread, about every tenth of a second and once when the run
        ends, with each point of progress reported since the last call, in order: a dict
        with ``seconds``, ``source``, ``incumbent`` and ``bound``. A true value returned
        stops the run (it keeps its best tree); an exception stops it and is returned as the
        interruption. It is not called again after either.
    Returns
    -------
    tree : Tree
        The learned tree.
    report : str
        The JSON document ``milptree solve --json`` prints for the same run.
    interruption : BaseException or None
        The exception a signal handler or the callback raised while the run went on (Ctrl-C's
        ``KeyboardInterrupt``; the run then stopped early and the tree is the best it found),
        or None.
    """

def pareto_front(
    x: bytes,
    n_rows: int,
    features: Sequence[str],
    classes: Sequence[str],
    labels: Sequence[int],
    weights: Optional[Sequence[float]],
    settings: str,
    categories: Optional[Sequence[Optional[Sequence[str]]]] = None,
) -> Tuple[str, List[Tree], Optional[BaseException]]:
    """Learns the front of false positives and false negatives (as ``milptree pareto`` does
    with its options).

    The search runs on its own thread with the GIL released, as in ``fit``; Ctrl-C asks it to
    stop and waits for it: the points found are returned with the interruption beside it. A
    run stopped before it had a front raises the interruption.

    Parameters
    ----------
    x, n_rows, features, classes, labels, weights, categories
        The data, as ``fit`` takes it.
    settings : str
        The front's settings as a JSON object keyed by ``pareto_front``'s parameter names
        (``method`` and ``max_depth`` required; ``solver``, ``positive_class``,
        ``max_splits``, ``thresholds``, ``time_limit``, ``memory_limit``, ``threads``). A
        setting the method does not take is refused naming it.

    Returns
    -------
    report : str
        The JSON document ``milptree pareto --json`` prints for the same run.
    trees : list of Tree
        Each point's tree, in the report's order.
    interruption : BaseException or None
        The exception a signal handler raised while the search went on, or None.
    """

def run_command_line(args: Sequence[str]) -> int:
    """Runs the ``milptree`` command line with the GIL released.

    Parameters
    ----------
    args : sequence of str
        The program name, then its arguments.

    Returns
    -------
    int
        The exit code.
    """

def tree_from_json(text: str, source: str = "tree") -> Tree:
    """A tree from the JSON text of a tree file.

    Parameters
    ----------
    text : str
        The tree file's text.
    source : str, default="tree"
        The name error messages give the text.

    Returns
    -------
    Tree
        The tree.
    """

def read_tree(path: Union[str, PathLike[str]]) -> Tree:
    """The tree of a tree file, as ``milptree solve -o`` writes it.

    Parameters
    ----------
    path : str or path-like
        The tree file.

    Returns
    -------
    Tree
        The tree.
    """

class RashomonSet:
    """A built Rashomon set (see :func:`rashomon_set`); held by the engine."""

    def report(self) -> str:
        """``milptree rashomon --json``'s report of the set, as JSON text."""
    def tree(self, rank: str) -> Optional[Tuple[str, float, str, Tree]]:
        """The tree of rank ``rank`` (decimal text; 0 is a best tree) in objective order:
        its rank, objective, threshold variants (decimal text) and tree; ``None`` past the
        last."""
    def sample(self, k: int, seed: int) -> List[Tuple[str, float, str, Tree]]:
        """``k`` trees drawn uniformly with replacement from seed ``seed`` (as ``tree``)."""
    def votes(self, x: bytes, n_rows: int) -> List[List[str]]:
        """Per row of the matrix ``x``, the number of the set's trees predicting each class
        (decimal text)."""

def rashomon_set(
    x: bytes,
    n_rows: int,
    features: Sequence[str],
    classes: Sequence[str],
    labels: Sequence[int],
    weights: Optional[Sequence[float]],
    settings: str,
    categories: Optional[Sequence[Optional[Sequence[str]]]] = None,
) -> RashomonSet:
    """Builds the Rashomon set of the data (as ``fit`` takes it) with the settings (JSON:
    ``epsilon`` or ``max_errors``, and optionally ``max_depth``, ``alpha``,
    ``min_samples_leaf``, ``class_weight``, ``objective`` (``accuracy`` or ``balanced``),
    ``max_leaf_rows``, ``time_limit``, ``memory_limit``), as ``milptree rashomon`` does.

    The build runs on its own thread with the GIL released; Ctrl-C stops it and raises the
    interruption. A set not complete within its limits raises ``ValueError``.
    """
