/* milptree's page script: draws the trees, charts and tables of the JSON in #milptree-data as
   HTML and inline SVG. No library and no request: everything the page shows is in the file.
   The address's fragment can drive it (#select=N&click=ID,ID&row=N&route=all): the same
   actions as the controls, for scripted checks. */
(function () {
  'use strict';
  const started = performance.now();
  const violations = [];
  document.addEventListener('securitypolicyviolation', (event) => {
    violations.push(event.blockedURI || event.violatedDirective);
    showRequests();
  });
  const data = JSON.parse(document.getElementById('milptree-data').textContent);
  const SVG = 'http://www.w3.org/2000/svg';
  const PALETTE = ['#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#59a14f', '#edc948', '#b07aa1',
    '#ff9da7', '#9c755f', '#bab0ac'];
  // Node boxes and the grid they sit on (left to right: depth, then the leaves in order).
  const BOX_W = 224, BOX_H = 58, COLUMN = 280, ROW = 72, PAD = 20;
  const HEAD_CHARS = 30, SUB_CHARS = 36;
  // Trees with more nodes than this open with the levels below EXPANDED_DEPTH collapsed.
  const OPEN_NODES = 1023, EXPANDED_DEPTH = 6;

  const colour = (k) => PALETTE[k % PALETTE.length];

  function put(element, attributes, children) {
    for (const [name, value] of Object.entries(attributes || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (name === 'text') element.textContent = value;
      else if (name.startsWith('on')) element.addEventListener(name.slice(2), value);
      else element.setAttribute(name, value === true ? '' : String(value));
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue;
      element.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return element;
  }
  const h = (tag, attributes, ...children) =>
    put(document.createElement(tag), attributes, children);
  const s = (tag, attributes, ...children) =>
    put(document.createElementNS(SVG, tag), attributes, children);

  /** A number with at most `digits` significant digits, without trailing zeros. */
  function num(x, digits = 4) {
    if (x === null || x === undefined) return '-';
    if (!Number.isFinite(x)) return String(x);
    if (Number.isInteger(x) && Math.abs(x) < 1e15) return String(x);
    return String(Number(x.toPrecision(digits)));
  }
  const clip = (text, n) => (text.length > n ? text.slice(0, n - 1) + '\u2026' : text);
  const countsText = (counts) => '[' + counts.map((c) => num(c, 6)).join(', ') + ']';
  const sum = (values) => values.reduce((a, b) => a + b, 0);

  // ---------------------------------------------------------------- trees

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

  /** One tree drawn left to right, with its controls, node details and row routing. */
  class TreeView {
    constructor(host, side) {
      this.host = host;
      this.side = side;
      this.scale = 1;
    }

    show(entry) {
      this.entry = entry;
      this.model = entry.model;
      this.router = new Router(this.model);
      this.byId = this.router.byId;
      this.collapsed = new Set();
      if (this.model.nodes.length > OPEN_NODES) {
        for (const n of this.model.nodes) {
          if (n.depth === EXPANDED_DEPTH && n.class === undefined) this.collapsed.add(n.id);
        }
      }
      this.path = [];
      this.selected = null;
      this.build();
      this.draw();
      // A diagram a little wider than its box is fitted; a larger one keeps its size (readable)
      // and scrolls.
      const room = this.scroller.clientWidth - 4;
      if (room > 0 && this.width > room && room / this.width >= 0.8) this.zoom(room / this.width);
      this.details(null);
    }

    build() {
      const m = this.model;
      const deepest = Math.max(...m.nodes.map((n) => n.depth));
      const depthChoice = h('select', { id: 'collapse-depth', title: 'collapse the levels below',
        onchange: (event) => this.collapseBelow(Number(event.target.value)) },
      h('option', { value: '', text: 'show levels\u2026' }),
      Array.from({ length: deepest + 1 }, (_, d) => h('option', { value: d, text: `down to depth ${d}` })));
      const button = (id, text, title, action) => h('button', { id, type: 'button', title, onclick: action, text });
      const toolbar = h('div', { class: 'toolbar' },
        button('expand-all', 'Expand all', 'show every node', () => this.expandAll()),
        button('collapse-all', 'Collapse all', 'show the root only', () => this.collapseBelow(0)),
        depthChoice,
        h('span', { class: 'gap' }),
        button('zoom-out', '\u2212', 'smaller', () => this.zoom(this.scale / 1.25)),
        button('zoom-reset', '100%', 'actual size', () => this.zoom(1)),
        button('zoom-in', '+', 'larger', () => this.zoom(this.scale * 1.25)),
        button('zoom-fit', 'Fit', 'fit the width', () => this.fit()));
      const legend = h('div', { class: 'legend' }, m.classes.map((name, k) =>
        h('span', { class: 'key' }, h('i', { style: `background:${colour(k)}` }), name)));
      const stats = h('p', { class: 'stats', id: 'tree-stats' });
      this.svg = s('svg', { id: 'tree-svg', class: 'tree', role: 'img' });
      this.scroller = h('div', { class: 'diagram', id: 'diagram' }, this.svg);
      this.host.replaceChildren(toolbar, legend, stats, this.scroller);
      this.detailsBox = h('div', { id: 'node-details' });
      this.side.details.replaceChildren(h('h2', { text: 'Node' }), this.detailsBox);
      this.buildRouting();
    }

    visible() {
      const shown = [];
      const walk = (id) => {
        const n = this.byId.get(id);
        if (!n) return;
        shown.push(n);
        if (n.class === undefined && !this.collapsed.has(id)) { walk(2 * id); walk(2 * id + 1); }
      };
      walk(1);
      return shown;
    }

    hiddenBelow(id) {
      let count = 0;
      const walk = (k) => {
        if (!this.byId.has(k)) return;
        count += 1;
        walk(2 * k); walk(2 * k + 1);
      };
      walk(2 * id); walk(2 * id + 1);
      return count;
    }

    layout() {
      const place = new Map();
      let slot = 0;
      let right = 0;
      const walk = (id) => {
        const n = this.byId.get(id);
        const x = PAD + n.depth * COLUMN;
        if (n.class === undefined && !this.collapsed.has(id)) {
          walk(2 * id); walk(2 * id + 1);
          place.set(id, { x, y: (place.get(2 * id).y + place.get(2 * id + 1).y) / 2 });
        } else {
          place.set(id, { x, y: PAD + slot * ROW });
          slot += 1;
        }
        // Room for the toggle, and for the count of hidden nodes beside a collapsed split.
        const extra = n.class !== undefined ? 0 : this.collapsed.has(id) ? 90 : 12;
        right = Math.max(right, x + BOX_W + extra);
      };
      walk(1);
      return { place, width: right + PAD, height: 2 * PAD + (slot - 1) * ROW + BOX_H };
    }

    draw() {
      const { place, width, height } = this.layout();
      this.width = width;
      this.height = height;
      const svg = this.svg;
      svg.replaceChildren();
      svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
      this.applyScale();
      const onPath = new Set(this.path);
      const edges = s('g', { class: 'edges' });
      const nodes = s('g', { class: 'nodes' });
      const shown = this.visible();
      for (const n of shown) {
        const p = place.get(n.id);
        if (n.id > 1) edges.append(this.edge(n, place.get(n.id >> 1), p, onPath.has(n.id) && onPath.has(n.id >> 1)));
        nodes.append(this.box(n, p, onPath.has(n.id)));
      }
      svg.append(edges, nodes);
      const splits = this.model.nodes.filter((n) => n.class === undefined).length;
      document.getElementById('tree-stats').textContent =
        `${this.model.nodes.length} nodes (${splits} splits, ${this.model.nodes.length - splits} leaves), ` +
        `${shown.length} shown; ${this.model.features.length} features, ${this.model.classes.length} classes` +
        (this.model.weighted ? '; counts with row weights' : '');
      svg.dataset.shown = shown.length;
    }

    edge(n, from, to, lit) {
      const x1 = from.x + BOX_W, y1 = from.y + BOX_H / 2, x2 = to.x, y2 = to.y + BOX_H / 2;
      const mid = (x1 + x2) / 2;
      const parent = this.byId.get(n.id >> 1);
      const left = n.id % 2 === 0;
      const side = left ? 'left' : 'right';
      let label = left ? 'yes' : 'no';
      if (parent.missing === side) label += ' \u00b7 missing';
      return s('g', { class: 'edge' + (lit ? ' on-path' : ''), id: `edge-${n.id}` },
        s('path', { d: `M${x1},${y1} C${mid},${y1} ${mid},${y2} ${x2},${y2}` }),
        s('text', { x: x2 - 6, y: y2 - 6, 'text-anchor': 'end', class: 'edge-label', text: label }));
    }

    box(n, p, lit) {
      const split = n.class === undefined;
      const total = sum(n.counts);
      const majority = n.counts.indexOf(Math.max(...n.counts));
      const tone = split ? majority : n.class;
      const classes = ['node', split ? 'split' : 'leaf'];
      if (lit) classes.push('on-path');
      if (this.selected === n.id) classes.push('selected');
      const collapsed = split && this.collapsed.has(n.id);
      if (collapsed) classes.push('collapsed');
      const head = split ? n.text
        : `${this.model.classes[n.class]} \u00b7 p ${num(n.probability ? n.probability[n.class] : NaN, 3)}`;
      const weight = n.weighted ? ` \u00b7 w ${num(sum(n.weighted), 6)}` : '';
      const sub = `${total} row${total === 1 ? '' : 's'}${weight} ${countsText(n.counts)}`;
      const g = s('g', { class: classes.join(' '), id: `node-${n.id}`, 'data-id': n.id,
        'data-counts': n.counts.join(','), transform: `translate(${p.x},${p.y})`,
        onclick: () => this.select(n.id) },
      s('title', { text: this.describe(n) }),
      s('rect', { class: 'box', width: BOX_W, height: BOX_H, rx: 6 }),
      s('rect', { class: 'stripe', width: 5, height: BOX_H, fill: colour(tone) }),
      s('text', { class: split ? 'head split-text' : 'head leaf-text', x: 13, y: 19, text: clip(head, HEAD_CHARS) }),
      s('text', { class: 'counts', x: 13, y: 36, text: clip(sub, SUB_CHARS) }));
      const bar = s('g', { class: 'bar', transform: 'translate(13,44)' });
      let at = 0;
      const barWidth = BOX_W - 26;
      n.counts.forEach((c, k) => {
        if (total === 0 || c === 0) return;
        const w = (barWidth * c) / total;
        bar.append(s('rect', { x: at, width: w, height: 6, fill: colour(k) }));
        at += w;
      });
      if (total === 0) bar.append(s('rect', { width: barWidth, height: 6, class: 'empty' }));
      g.append(bar);
      if (split) {
        const toggle = s('g', { class: 'toggle', id: `toggle-${n.id}`, transform: `translate(${BOX_W},${BOX_H / 2})`,
          onclick: (event) => { event.stopPropagation(); this.toggle(n.id); } },
        s('title', { text: collapsed ? 'expand' : 'collapse' }),
        s('circle', { r: 9 }),
        s('text', { y: 4, 'text-anchor': 'middle', text: collapsed ? '+' : '\u2212' }));
        g.append(toggle);
        if (collapsed) {
          g.append(s('text', { class: 'hidden-count', x: BOX_W + 14, y: BOX_H / 2 + 4,
            text: `${this.hiddenBelow(n.id)} nodes` }));
        }
      }
      return g;
    }

    describe(n) {
      const m = this.model;
      const lines = [`node ${n.id} (depth ${n.depth})`];
      if (n.class === undefined) {
        lines.push(`${n.text}: yes \u2192 node ${2 * n.id}; no (${n.right_text}) \u2192 node ${2 * n.id + 1}`);
        lines.push(this.missingText(n));
        if (n.constant) lines.push(n.constant);
      } else {
        lines.push(`predicts ${m.classes[n.class]}`);
        if (n.probability) lines.push('probabilities ' + m.classes.map((c, k) => `${c} ${num(n.probability[k], 4)}`).join(', '));
      }
      lines.push(`${sum(n.counts)} training rows: ` + m.classes.map((c, k) => `${c} ${n.counts[k]}`).join(', '));
      if (n.weighted) lines.push('weights: ' + m.classes.map((c, k) => `${c} ${num(n.weighted[k], 6)}`).join(', '));
      return lines.join('\n');
    }

    missingText(n) {
      if (n.missing) return `missing values go ${n.missing} (learned)`;
      const left = this.router.rows(2 * n.id), right = this.router.rows(2 * n.id + 1);
      return `missing values go ${left > right ? 'left' : 'right'} (no side learned: the child more training rows reached, right on a tie)`;
    }

    toggle(id) {
      if (this.collapsed.has(id)) this.collapsed.delete(id); else this.collapsed.add(id);
      this.draw();
    }

    expandAll() {
      this.collapsed.clear();
      this.draw();
    }

    collapseBelow(depth) {
      this.collapsed.clear();
      for (const n of this.model.nodes) if (n.depth === depth && n.class === undefined) this.collapsed.add(n.id);
      this.draw();
    }

    applyScale() {
      this.svg.setAttribute('width', Math.round(this.width * this.scale));
      this.svg.setAttribute('height', Math.round(this.height * this.scale));
    }

    zoom(scale) {
      this.scale = Math.min(3, Math.max(0.1, scale));
      this.applyScale();
    }

    fit() {
      const room = this.scroller.clientWidth - 4;
      if (room > 0) this.zoom(Math.min(1, room / this.width));
    }

    select(id) {
      this.selected = id;
      this.draw();
      this.details(id);
    }

    details(id) {
      const box = this.detailsBox;
      const n = id === null ? null : this.byId.get(id);
      if (!n) {
        box.replaceChildren(h('p', { class: 'hint', text: 'Click a node for its counts and split.' }));
        return;
      }
      const m = this.model;
      const parts = [h('h3', { text: `Node ${n.id} \u00b7 depth ${n.depth}` })];
      if (n.class === undefined) {
        parts.push(h('p', { class: 'condition', text: n.text }),
          h('p', { text: `yes \u2192 node ${2 * n.id}; no (${n.right_text}) \u2192 node ${2 * n.id + 1}` }),
          h('p', { class: 'missing', text: this.missingText(n) }));
        if (n.constant) parts.push(h('p', { text: n.constant }));
      } else {
        parts.push(h('p', { class: 'condition', text: `predicts ${m.classes[n.class]}` }));
        if (m.logistic) parts.push(h('p', { text: 'a row\u2019s probability is the logistic model of the split above (route a row to see it); below, the leaf\u2019s class frequencies' }));
      }
      const total = sum(n.counts);
      const rows = m.classes.map((c, k) => h('tr', {},
        h('td', {}, h('i', { class: 'swatch', style: `background:${colour(k)}` }), c),
        h('td', { class: 'n', text: n.counts[k] }),
        n.weighted ? h('td', { class: 'n', text: num(n.weighted[k], 6) }) : null,
        h('td', { class: 'n', text: total ? num(n.counts[k] / total, 3) : '-' }),
        n.probability ? h('td', { class: 'n', text: num(n.probability[k], 4) }) : null));
      parts.push(h('table', { class: 'counts-table' },
        h('thead', {}, h('tr', {}, h('th', { text: 'class' }), h('th', { text: 'rows' }),
          n.weighted ? h('th', { text: 'weight' }) : null, h('th', { text: 'share' }),
          n.probability ? h('th', { text: 'probability' }) : null)),
        h('tbody', {}, rows),
        h('tfoot', {}, h('tr', {}, h('td', { text: 'all' }), h('td', { class: 'n', text: total }),
          n.weighted ? h('td', { class: 'n', text: num(sum(n.weighted), 6) }) : null,
          h('td', {}), n.probability ? h('td', {}) : null))));
      if (n.class === undefined) {
        parts.push(h('button', { type: 'button', id: 'details-toggle', onclick: () => this.toggle(n.id),
          text: this.collapsed.has(n.id) ? 'Expand this subtree' : 'Collapse this subtree' }));
      }
      box.replaceChildren(...parts);
    }

    // ------------------------------------------------------------ routing a row

    buildRouting() {
      const m = this.model;
      const rows = data.rows;
      const parts = [h('h2', { text: 'Route a row' })];
      if (rows) {
        const count = rows.values.length;
        this.pick = h('input', { id: 'row-pick', type: 'number', min: 1, max: count, value: 1 });
        parts.push(h('p', {}, `Pick one of the ${count} ${rows.source}: `, this.pick,
          h('button', { type: 'button', id: 'route-row', text: 'Route', onclick: () => this.routeRow(Number(this.pick.value) - 1) }),
          h('button', { type: 'button', id: 'previous-row', text: '\u25c0', title: 'previous row', onclick: () => this.routeRow(Number(this.pick.value) - 2) }),
          h('button', { type: 'button', id: 'next-row', text: '\u25b6', title: 'next row', onclick: () => this.routeRow(Number(this.pick.value)) })));
      } else if (data.rows_note) {
        parts.push(h('p', { class: 'hint', text: data.rows_note }));
      }
      parts.push(h('p', { class: 'hint', text: m.inputs.length ?
        `Or type the values of the ${m.inputs.length} column(s) the splits read (empty: missing):`
        : 'No split reads a column: every row reaches the root leaf.' }));
      this.fields = m.inputs.map((input) => {
        const field = input.kind === 'categorical'
          ? h('select', { 'data-column': input.name },
            input.categories.map((c, k) => h('option', { value: k, text: c })),
            h('option', { value: 'other', text: '(another value)' }),
            h('option', { value: 'missing', text: '(missing)' }))
          : h('input', { type: 'text', inputmode: 'decimal', 'data-column': input.name, placeholder: 'missing' });
        return { input, field, row: h('label', { class: 'field' }, h('span', { text: input.name, title: input.name }), field) };
      });
      const form = h('div', { class: 'fields', id: 'route-fields' }, this.fields.map((f) => f.row));
      if (this.fields.length > 12) {
        parts.push(h('input', { type: 'search', class: 'filter', placeholder: `filter ${this.fields.length} columns`,
          oninput: (event) => {
            const word = event.target.value.toLowerCase();
            for (const f of this.fields) f.row.hidden = !f.input.name.toLowerCase().includes(word);
          } }));
      }
      parts.push(form, h('p', {},
        h('button', { type: 'button', id: 'route-values', text: 'Route these values', onclick: () => this.routeTyped() }),
        h('button', { type: 'button', id: 'route-clear', text: 'Clear', onclick: () => this.highlight([], '') })));
      this.result = h('p', { id: 'route-result', class: 'result' });
      parts.push(this.result);
      this.side.route.replaceChildren(...parts);
    }

    /** The feature values the form holds (features no split reads are 0). */
    typedValues() {
      const x = this.model.features.map(() => 0);
      for (const { input, field } of this.fields) {
        if (input.kind === 'categorical') {
          for (const j of input.features) x[j] = field.value === 'missing' ? NaN : 0;
          if (field.value !== 'missing' && field.value !== 'other') x[input.features[Number(field.value)]] = 1;
        } else {
          const text = field.value.trim();
          x[input.feature] = text === '' ? NaN : Number(text);
        }
      }
      return x;
    }

    fill(x) {
      for (const { input, field } of this.fields) {
        if (input.kind === 'categorical') {
          const values = input.features.map((j) => x[j]);
          const one = values.indexOf(1);
          field.value = values.some(Number.isNaN) ? 'missing' : one >= 0 ? String(one) : 'other';
        } else {
          field.value = Number.isNaN(x[input.feature]) ? '' : String(x[input.feature]);
        }
      }
    }

    routeTyped() {
      const x = this.typedValues();
      const bad = this.fields.find(({ input, field }) => input.kind === 'numeric'
        && field.value.trim() !== '' && !Number.isFinite(Number(field.value.trim())));
      if (bad) { this.result.textContent = `${bad.input.name}: not a number`; return; }
      this.route(x, 'the typed values');
    }

    routeRow(index) {
      const rows = data.rows;
      if (!rows) return;
      const i = Math.min(rows.values.length - 1, Math.max(0, index));
      this.pick.value = i + 1;
      const x = rowValues(rows.values[i]);
      this.fill(x);
      let what = `row ${i + 1}`;
      if (rows.labels) what += ` (label ${rows.classes[rows.labels[i]]}${rows.weights ? `, weight ${num(rows.weights[i], 6)}` : ''})`;
      this.route(x, what);
    }

    route(x, what) {
      const path = this.router.path(x);
      const leaf = path[path.length - 1];
      const node = this.byId.get(leaf);
      const probabilities = this.router.probabilities(x, leaf);
      const p = probabilities ? ` (probability ${num(probabilities[node.class], 4)})` : '';
      this.highlight(path, `${what} \u2192 leaf ${leaf}: ${this.model.classes[node.class]}${p}; path ${path.join(' \u2192 ')}`);
      return path;
    }

    highlight(path, text) {
      this.path = path;
      for (const id of path) this.collapsed.delete(id);
      this.draw();
      this.result.textContent = text;
      const leaf = document.getElementById(`node-${path[path.length - 1]}`);
      if (leaf && leaf.scrollIntoView) leaf.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    }
  }

  // ---------------------------------------------------------------- charts

  /** About `count` round tick values from `low` to `high`. */
  function ticks(low, high, count, whole) {
    const span = high - low;
    const step0 = span / Math.max(1, count);
    const power = Math.pow(10, Math.floor(Math.log10(step0)));
    let step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((v) => v >= step0) || 10 * power;
    if (whole) step = Math.max(1, Math.round(step));
    const values = [];
    for (let v = Math.ceil(low / step) * step; v <= high + step * 1e-9; v += step) values.push(Number(v.toPrecision(12)));
    return values;
  }

  function extent(values) {
    let low = Math.min(...values), high = Math.max(...values);
    if (!(Number.isFinite(low) && Number.isFinite(high))) return [0, 1];
    if (low === high) { low -= low === 0 ? 1 : Math.abs(low) * 0.1; high += high === 0 ? 1 : Math.abs(high) * 0.1; }
    const pad = (high - low) * 0.06;
    return [low - pad, high + pad];
  }

  function drawChart(spec, onPick) {
    const W = 660, H = 330, L = 70, R = 20, T = 20, B = 50;
    const points = spec.series.flatMap((series) => series.points);
    const [x0, x1] = extent(points.map((p) => p.x));
    const [y0, y1] = extent(points.flatMap((p) => (p.err ? [p.y - p.err, p.y + p.err] : [p.y])));
    const X = (x) => L + ((x - x0) / (x1 - x0)) * (W - L - R);
    const Y = (y) => H - B - ((y - y0) / (y1 - y0)) * (H - T - B);
    const svg = s('svg', { class: 'chart', id: `chart-${spec.id}`, viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: 'img' });
    const grid = s('g', { class: 'grid' });
    const whole = points.every((p) => Number.isInteger(p.x));
    for (const v of ticks(x0, x1, 7, whole)) {
      grid.append(s('line', { x1: X(v), x2: X(v), y1: T, y2: H - B }),
        s('text', { x: X(v), y: H - B + 16, 'text-anchor': 'middle', text: num(v, 6) }));
    }
    for (const v of ticks(y0, y1, 6)) {
      grid.append(s('line', { x1: L, x2: W - R, y1: Y(v), y2: Y(v) }),
        s('text', { x: L - 6, y: Y(v) + 4, 'text-anchor': 'end', text: num(v, 6) }));
    }
    svg.append(grid,
      s('rect', { class: 'frame', x: L, y: T, width: W - L - R, height: H - T - B }),
      s('text', { class: 'axis-label', x: (L + W - R) / 2, y: H - 10, 'text-anchor': 'middle', text: spec.x_label }),
      s('text', { class: 'axis-label', transform: `translate(16,${(T + H - B) / 2}) rotate(-90)`, 'text-anchor': 'middle', text: spec.y_label }));
    const legend = h('div', { class: 'legend' });
    spec.series.forEach((series, k) => {
      const c = colour(k);
      const g = s('g', { class: 'series', 'data-name': series.name, 'data-points': series.points.length });
      const sorted = series.style === 'points' ? series.points : series.points.slice().sort((a, b) => a.x - b.x);
      if (series.style === 'line' && sorted.length > 1) {
        g.append(s('polyline', { points: sorted.map((p) => `${X(p.x)},${Y(p.y)}`).join(' '), stroke: c, class: 'line' }));
      }
      if (series.style === 'step' && sorted.length > 0) {
        let d = `M${X(sorted[0].x)},${Y(sorted[0].y)}`;
        for (let i = 1; i < sorted.length; i++) d += ` H${X(sorted[i].x)} V${Y(sorted[i].y)}`;
        g.append(s('path', { d, stroke: c, class: 'line' }));
      }
      for (const p of sorted) {
        if (p.err) {
          g.append(s('path', { class: 'err', stroke: c,
            d: `M${X(p.x)},${Y(p.y - p.err)} V${Y(p.y + p.err)} M${X(p.x) - 4},${Y(p.y - p.err)} h8 M${X(p.x) - 4},${Y(p.y + p.err)} h8` }));
        }
        const mark = s('circle', { class: 'pt' + (p.tree !== undefined ? ' pickable' : ''), cx: X(p.x), cy: Y(p.y),
          r: series.style === 'step' ? 2.5 : 4.5, fill: c, 'data-x': p.x, 'data-y': p.y,
          'data-tree': p.tree, onclick: p.tree !== undefined ? () => onPick(p.tree) : null },
        s('title', { text: p.label || `${spec.x_label} ${num(p.x, 6)}, ${spec.y_label} ${num(p.y, 6)}` }));
        g.append(mark);
        if (p.chosen) g.append(s('circle', { class: 'chosen-ring', cx: X(p.x), cy: Y(p.y), r: 9 }));
      }
      svg.append(g);
      legend.append(h('span', { class: 'key' }, h('i', { style: `background:${c}` }), series.name));
    });
    return h('section', { class: 'chart-box' }, h('h2', { text: spec.title }), legend, svg);
  }

  function drawTable(table, onPick) {
    return h('section', { class: 'table-box' }, h('table', { class: 'data', id: 'data-table' },
      h('thead', {}, h('tr', {}, table.columns.map((c) => h('th', { text: c })))),
      h('tbody', {}, table.rows.map((row) => h('tr', {
        class: [row.chosen ? 'chosen' : '', row.tree !== undefined ? 'pickable' : ''].join(' ').trim() || null,
        'data-tree': row.tree, onclick: row.tree !== undefined ? () => onPick(row.tree) : null,
      }, row.cells.map((c) => h('td', { text: c })))))));
  }

  // ---------------------------------------------------------------- the page

  function factsList(facts, id) {
    return h('dl', { class: 'facts', id }, facts.map((f) =>
      h('div', { class: 'fact', 'data-key': f.key }, h('dt', { text: f.label }), h('dd', { text: f.value }))));
  }

  function showRequests() {
    const out = document.getElementById('requests');
    if (!out) return;
    const resources = performance.getEntriesByType('resource').length;
    out.dataset.resources = resources;
    out.dataset.blocked = violations.length;
    out.textContent = resources + violations.length === 0 ? 'none'
      : `${resources} loaded, ${violations.length} blocked (${violations.join(', ')})`;
  }

  function main() {
    const app = document.getElementById('app');
    const side = { details: h('section', { class: 'panel', id: 'details' }), route: h('section', { class: 'panel', id: 'route' }) };
    const mainColumn = h('div', { class: 'main' });
    const aside = h('aside', { class: 'side' });
    app.replaceChildren(h('header', {}, h('h1', { text: data.title }),
      h('p', { class: 'kind', text: `milptree ${data.kind} page` })),
    h('div', { class: 'layout' }, mainColumn, aside),
    h('footer', {}, `Written by milptree ${data.version}. Everything this page shows is in the file; requests it made: `,
      h('output', { id: 'requests', text: 'none' }), '.'));
    if (data.facts.length) aside.append(h('section', { class: 'panel' }, h('h2', { text: 'Provenance' }), factsList(data.facts, 'facts')));
    if (data.notes.length) aside.append(h('section', { class: 'panel notes' }, h('h2', { text: 'Notes' }), h('ul', {}, data.notes.map((n) => h('li', { text: n })))));
    const treeFacts = h('section', { class: 'panel', id: 'tree-facts' });
    let view = null;
    const pick = (index) => selectTree(index);
    for (const chart of data.charts) mainColumn.append(drawChart(chart, pick));
    if (data.table) mainColumn.append(drawTable(data.table, pick));
    const caption = h('h2', { id: 'tree-caption' });
    const host = h('div', { class: 'tree-host' });
    if (data.trees.length) {
      mainColumn.append(h('section', { class: 'tree-box' }, caption, host));
      aside.append(treeFacts, side.details, side.route);
      view = new TreeView(host, side);
    }
    function selectTree(index) {
      const entry = data.trees[index];
      if (!entry) return;
      caption.textContent = entry.caption;
      treeFacts.hidden = entry.facts.length === 0;
      treeFacts.replaceChildren(h('h2', { text: 'This tree' }), factsList(entry.facts, 'tree-facts-list'));
      for (const el of document.querySelectorAll('[data-tree]')) {
        el.classList.toggle('selected', Number(el.getAttribute('data-tree')) === index);
      }
      document.body.dataset.tree = index;
      view.show(entry);
    }
    if (view) selectTree(data.selected);
    runFragment(view, selectTree);
    document.body.dataset.renderMs = Math.round(performance.now() - started);
    showRequests();
    window.addEventListener('load', () => setTimeout(showRequests, 0));
  }

  /** The actions the address's fragment names, in order: select=N, click=ID,ID,
      row=N (route embedded row N, from 1), route=all (write every embedded row's leaf). */
  function runFragment(view, selectTree) {
    const fragment = decodeURIComponent(location.hash.slice(1));
    if (!fragment) return;
    for (const part of fragment.split('&')) {
      const [name, value = ''] = part.split('=');
      if (name === 'select') selectTree(Number(value));
      if (name === 'click') {
        for (const id of value.split(',')) {
          const target = document.getElementById(id);
          if (target) target.dispatchEvent(new MouseEvent('click', { bubbles: true }));
          else document.body.dataset.missingTarget = id;
        }
      }
      if (name === 'row' && view) view.routeRow(Number(value) - 1);
      if (name === 'route' && value === 'all' && view && data.rows) {
        const leaves = data.rows.values.map((row) => {
          const path = view.router.path(rowValues(row));
          return path[path.length - 1];
        });
        document.body.append(h('pre', { id: 'routes', hidden: true, text: leaves.join(',') }));
      }
    }
  }

  main();
})();
