// One tree as a diagram: layout, drawing, collapse and expand, zoom, node details, routing a row.

/** One tree drawn left to right, with its controls, node details and row routing. */
class TreeView {
  constructor(host, side) {
    this.host = host;
    this.side = side;
    this.scale = 1;
  }

  show(entry) {
    this.entry = entry;
    this.scale = 1;
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
    this.reveal(1);
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

  /** Where each shown node goes: its depth across, the leaves shown one under the other;
      a split midway between its children, or, when more than CENTRED_LEAVES leaves are
      shown, level with its first child, so that a node's neighbours stay on the screen. */
  layout() {
    const place = new Map();
    const compact = this.visible().filter((n) => n.class !== undefined || this.collapsed.has(n.id)).length > CENTRED_LEAVES;
    let slot = 0;
    let right = 0;
    const walk = (id) => {
      const n = this.byId.get(id);
      const x = PAD + n.depth * COLUMN;
      if (n.class === undefined && !this.collapsed.has(id)) {
        walk(2 * id); walk(2 * id + 1);
        const top = place.get(2 * id).y;
        place.set(id, { x, y: compact ? top : (top + place.get(2 * id + 1).y) / 2 });
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

  /** Scrolls the diagram so that node `id` is in view, the page itself left where it is. */
  reveal(id) {
    const p = this.place && this.place.get(id);
    if (!p) return;
    const box = this.scroller;
    const x = p.x * this.scale, y = p.y * this.scale;
    const w = BOX_W * this.scale, hgt = BOX_H * this.scale;
    if (y < box.scrollTop || y + hgt > box.scrollTop + box.clientHeight) box.scrollTop = Math.max(0, y + hgt / 2 - box.clientHeight / 2);
    if (x < box.scrollLeft || x + w > box.scrollLeft + box.clientWidth) box.scrollLeft = Math.max(0, x + w / 2 - box.clientWidth / 2);
  }

  draw() {
    const { place, width, height } = this.layout();
    this.place = place;
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
    if (parent.missing === side && !parent.missing_test) label += ' \u00b7 missing';
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
    s('text', { class: split ? 'head split-text' : 'head leaf-text', x: 13, y: 19, text: split ? clipCondition(head, TEXT_WIDTH, HEAD_FONT) : clip(head, TEXT_WIDTH, HEAD_FONT) }),
    s('text', { class: 'counts', x: 13, y: 36, text: clip(sub, TEXT_WIDTH, SUB_FONT) }));
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
    if (path.length) this.reveal(path[path.length - 1]);
  }
}
