/* milptree's page script: draws the trees, charts and tables of the JSON in #milptree-data as
   HTML and inline SVG. No library and no request: everything the page shows is in the file.
   page.rs writes these files, in this order, into one function: common.js, router.js,
   tree_view.js, chart.js, page.js. The address's fragment can drive it
   (#select=N&click=ID,ID&row=N&route=all): the same actions as the controls, for scripted
   checks. */

// Shared pieces: the page's data, the requests it is refused, sizes, DOM helpers, numbers.
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
const BOX_W = 236, BOX_H = 58, COLUMN = 290, ROW = 72, PAD = 20;
const FONT = 'system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif';
const HEAD_FONT = `600 12.5px ${FONT}`, SUB_FONT = `11px ${FONT}`, TEXT_WIDTH = BOX_W - 13 - 14;
// Trees with more nodes than this open with the levels below EXPANDED_DEPTH collapsed.
const OPEN_NODES = 1023, EXPANDED_DEPTH = 6;
// Trees showing more leaves than this are drawn compact (see TreeView.layout).
const CENTRED_LEAVES = 16;

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
const measure = document.createElement('canvas').getContext('2d');
/** `text` cut in its middle to at most `width` pixels in `font`, so that its start and its
    end (a feature's number, a threshold) both show. */
function clip(text, width, font) {
  measure.font = font;
  const fits = (t) => measure.measureText(t).width <= width;
  if (fits(text)) return text;
  const cut = (n) => {
    const tail = Math.floor((n - 1) / 2);
    return text.slice(0, n - 1 - tail) + '\u2026' + text.slice(text.length - tail);
  };
  let low = 1, high = text.length - 1;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (fits(cut(mid))) low = mid; else high = mid - 1;
  }
  return cut(low);
}
/** A split's condition cut to `width` pixels in `font` in its left-hand side, so that the
    comparison and the threshold show whole. */
function clipCondition(text, width, font) {
  const at = Math.max(text.lastIndexOf(' <= '), text.lastIndexOf(' != '));
  if (at <= 0) return clip(text, width, font);
  measure.font = font;
  const tail = text.slice(at);
  const room = width - measure.measureText(tail).width;
  return room > 40 ? clip(text.slice(0, at), room, font) + tail : clip(text, width, font);
}
const countsText = (counts) => '[' + counts.map((c) => num(c, 6)).join(', ') + ']';
const sum = (values) => values.reduce((a, b) => a + b, 0);
