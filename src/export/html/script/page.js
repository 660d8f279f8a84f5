// The page: header, provenance, notes, charts, table, trees; the fragment's actions.

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
  const caption = h('h2', { id: 'tree-caption' });
  const host = h('div', { class: 'tree-host' });
  // A tree's or a solve's page shows the tree first; the others, the chart a tree is
  // chosen from.
  const treeFirst = data.kind === 'tree' || data.kind === 'solve';
  const figures = [...data.charts.map((chart) => drawChart(chart, pick)),
    data.table ? drawTable(data.table, pick) : null];
  if (!treeFirst) mainColumn.append(...figures.filter(Boolean));
  if (data.trees.length) {
    mainColumn.append(h('section', { class: 'tree-box' }, caption, host));
    aside.append(treeFacts, side.details, side.route);
    view = new TreeView(host, side);
  }
  if (treeFirst) mainColumn.append(...figures.filter(Boolean));
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
