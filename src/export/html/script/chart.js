// Charts (points, lines, steps, bars, error bars; a point may stand for a tree; x may name
// categories) and tables.

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
  const names = spec.x_names || null;
  const B = names ? 40 + 6 * Math.min(18, Math.max(0, ...names.map((n) => n.length))) : 50;
  const W = 660, H = 280 + B, L = 70, R = 20, T = 20;
  const points = spec.series.flatMap((series) => series.points);
  const bars = spec.series.some((series) => series.style === 'bar');
  // Bars stand on 0, and categories sit at 0, 1, ... with half a slot either side.
  const [x0, x1] = names ? [-0.6, names.length - 0.4] : extent(points.map((p) => p.x));
  const yValues = points.flatMap((p) => (p.err ? [p.y - p.err, p.y + p.err] : [p.y]));
  let [y0, y1] = extent(bars ? yValues.concat([0]) : yValues);
  if (bars && Math.min(...yValues) >= 0) y0 = 0;
  const X = (x) => L + ((x - x0) / (x1 - x0)) * (W - L - R);
  const Y = (y) => H - B - ((y - y0) / (y1 - y0)) * (H - T - B);
  const svg = s('svg', { class: 'chart', id: `chart-${spec.id}`, viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: 'img' });
  const grid = s('g', { class: 'grid' });
  const whole = points.every((p) => Number.isInteger(p.x));
  if (names) {
    names.forEach((name, i) => {
      const short = name.length > 18 ? name.slice(0, 17) + '\u2026' : name;
      grid.append(s('text', { class: 'category', x: X(i), y: H - B + 12, 'text-anchor': 'end',
        transform: `rotate(-40 ${X(i)} ${H - B + 12})`, text: short }, s('title', { text: name })));
    });
  } else {
    for (const v of ticks(x0, x1, 7, whole)) {
      grid.append(s('line', { x1: X(v), x2: X(v), y1: T, y2: H - B }),
        s('text', { x: X(v), y: H - B + 16, 'text-anchor': 'middle', text: num(v, 6) }));
    }
  }
  for (const v of ticks(y0, y1, 6)) {
    grid.append(s('line', { x1: L, x2: W - R, y1: Y(v), y2: Y(v) }),
      s('text', { x: L - 6, y: Y(v) + 4, 'text-anchor': 'end', text: num(v, 6) }));
  }
  svg.append(grid,
    s('rect', { class: 'frame', x: L, y: T, width: W - L - R, height: H - T - B }),
    s('text', { class: 'axis-label', x: (L + W - R) / 2, y: H - 6, 'text-anchor': 'middle', text: spec.x_label }),
    s('text', { class: 'axis-label', transform: `translate(16,${(T + H - B) / 2}) rotate(-90)`, 'text-anchor': 'middle', text: spec.y_label }));
  const legend = h('div', { class: 'legend' });
  spec.series.forEach((series, k) => {
    const c = colour(k);
    const g = s('g', { class: 'series', 'data-name': series.name, 'data-points': series.points.length });
    const sorted = series.style === 'points' ? series.points : series.points.slice().sort((a, b) => a.x - b.x);
    // A series of points after the first (a reference beside a front) is drawn as rings, so
    // that a point it shares with the first shows.
    const ring = series.style === 'points' && k > 0;
    if (series.style === 'line' && sorted.length > 1) {
      g.append(s('polyline', { points: sorted.map((p) => `${X(p.x)},${Y(p.y)}`).join(' '), stroke: c, class: 'line' }));
    }
    if (series.style === 'bar') {
      // As wide as most of the narrowest gap between two bars' x.
      const xs = [...new Set(sorted.map((p) => p.x))];
      let gap = names ? 1 : x1 - x0;
      for (let i = 1; i < xs.length; i++) gap = Math.min(gap, xs[i] - xs[i - 1]);
      const width = Math.max(2, Math.min(40, 0.7 * (X(gap) - X(0))));
      for (const p of sorted) {
        const top = Y(Math.max(p.y, 0)), bottom = Y(Math.min(p.y, 0));
        g.append(s('rect', { class: 'bar' + (p.tree !== undefined ? ' pickable' : ''), x: X(p.x) - width / 2,
          y: top, width, height: Math.max(0.5, bottom - top), fill: c, 'data-x': p.x, 'data-y': p.y,
          'data-tree': p.tree, onclick: p.tree !== undefined ? () => onPick(p.tree) : null },
        s('title', { text: p.label || `${spec.x_label} ${num(p.x, 6)}, ${spec.y_label} ${num(p.y, 6)}` })));
      }
      svg.append(g);
      legend.append(h('span', { class: 'key' }, h('i', { style: `background:${c}` }), series.name));
      return;
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
      const mark = s('circle', { class: 'pt' + (p.tree !== undefined ? ' pickable' : '') + (ring ? ' ring' : ''),
        cx: X(p.x), cy: Y(p.y), r: series.style === 'step' ? 2.5 : ring ? 7 : 4.5,
        fill: ring ? 'none' : c, stroke: ring ? c : null, 'data-x': p.x, 'data-y': p.y,
        'data-tree': p.tree, onclick: p.tree !== undefined ? () => onPick(p.tree) : null },
      s('title', { text: p.label || `${spec.x_label} ${num(p.x, 6)}, ${spec.y_label} ${num(p.y, 6)}` }));
      g.append(mark);
      if (p.chosen) g.append(s('circle', { class: 'chosen-ring', cx: X(p.x), cy: Y(p.y), r: 9 }));
    }
    svg.append(g);
    const swatch = ring ? `border:2px solid ${c};border-radius:50%;box-sizing:border-box` : `background:${c}`;
    legend.append(h('span', { class: 'key' }, h('i', { style: swatch }), series.name));
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
