// How a row goes through a tree: the tree's own rule, as `milptree predict` applies it.

/** A tree's routing: the tree's own rule, as `milptree predict` applies it. */
class Router {
  constructor(model) {
    this.model = model;
    this.byId = new Map(model.nodes.map((n) => [n.id, n]));
  }
  rows(id) {
    const node = this.byId.get(id);
    return node ? sum(node.counts) : 0;
  }
  score(node, x) {
    // As the library computes it: every feature's term, so a missing value anywhere makes
    // the score NaN (and the row go right).
    const scaling = this.model.standardisation;
    if (x.some((v) => Number.isNaN(v))) return NaN;
    let value = node.bias;
    for (const [j, w] of node.terms) value += (w * (x[j] - scaling.mean[j])) / scaling.scale[j];
    return value;
  }
  goesLeft(node, x) {
    const axis = node.feature !== undefined;
    const needsMissing = axis ? Number.isNaN(x[node.feature])
      : node.terms.some(([j]) => Number.isNaN(x[j]));
    if (!needsMissing) return axis ? x[node.feature] <= node.threshold : this.score(node, x) <= 0;
    if (node.missing) return node.missing === 'left';
    return this.rows(2 * node.id) > this.rows(2 * node.id + 1);
  }
  /** The ids of the nodes `x` passes through, root first. */
  path(x) {
    const path = [1];
    let node = this.byId.get(1);
    while (node && node.class === undefined) {
      const next = this.goesLeft(node, x) ? 2 * node.id : 2 * node.id + 1;
      path.push(next);
      node = this.byId.get(next);
    }
    return path;
  }
  /** The class probabilities of `x` at its leaf. */
  probabilities(x, leaf) {
    const node = this.byId.get(leaf);
    const logistic = this.model.logistic;
    if (!logistic) return node.probability;
    const [negative, positive] = logistic;
    const parent = this.byId.get(leaf >> 1);
    let p = parent && parent.terms ? this.score(parent, x) : NaN;
    if (Number.isNaN(p)) {
      const total = sum(node.counts);
      p = total === 0 ? 0.5 : node.counts[positive] / total;
    } else {
      p = 1 / (1 + Math.exp(-p));
    }
    const probabilities = this.model.classes.map(() => 0);
    probabilities[negative] = 1 - p;
    probabilities[positive] = p;
    return probabilities;
  }
}

/** Values of `row` (JSON `null` is a missing value). */
const rowValues = (row) => row.map((v) => (v === null ? NaN : v));
