/* lockscope's HTML report: renders the report document embedded in the page (docs/html-report.md).
 * Plain browser JavaScript, no build step; flame graphs come from the vendor bundle (d3-flame-graph).
 * Everything long is aggregated before it reaches the DOM, so 100k blame entries stay interactive. */
(function () {
  'use strict';
  const data = JSON.parse(document.getElementById('lockscope-data').textContent);
  const MAX_TABLE_ROWS = 500, MAX_CHILDREN = 50, MAX_CHAINS = 5;
  const api = window.lockscope = { data: data, errors: [] };
  /** Blame rows, each with its key under every aspect as Java computed it (HtmlReport.java); null without blame. */
  const blame = data.blame && data.blame.rows.length ? unpackBlame(data.blame) : null;
  /** Index of each aspect's key in a row's keys. */
  const KEY = data.blame ? Object.fromEntries(data.blame.aspects.map((a, i) => [a, i])) : {};
  const UNKNOWN = '(unknown)'; // Java's key of a thread, method or chain nobody knows (ChainView.UNKNOWN)

  /** Rows from the string table: keys and chains become strings and shared frame arrays. */
  function unpackBlame(b) {
    const A = b.aspects.length, width = A + 4, s = b.strings, r = b.rows;
    const chains = b.chains.map(c => c.map(i => s[i]));
    const out = new Array(r.length / width);
    for (let i = 0; i < out.length; i++) {
      const o = i * width, keys = new Array(A);
      for (let a = 0; a < A; a++) keys[a] = s[r[o + a]];
      out[i] = { keys: keys, waiterFrames: chains[r[o + A]], ownerFrames: chains[r[o + A + 1]], nanos: r[o + A + 2], count: r[o + A + 3] };
    }
    return out;
  }

  // ---- small helpers --------------------------------------------------------------------------
  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === 'class') e.className = v; else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
      else if (v !== undefined && v !== null) e.setAttribute(k, v);
    }
    for (const c of children.flat()) if (c !== null && c !== undefined) e.append(c instanceof Node ? c : String(c));
    return e;
  }
  function fmtNanos(ns) {
    if (ns >= 1e9) return (ns / 1e9).toFixed(2) + ' s';
    if (ns >= 1e6) return (ns / 1e6).toFixed(2) + ' ms';
    if (ns >= 1e3) return (ns / 1e3).toFixed(1) + ' µs';
    return ns + ' ns';
  }
  const pct = (part, whole) => whole > 0 ? (100 * part / whole).toFixed(1) + '%' : '–';
  const shortClass = c => c.substring(c.lastIndexOf('.') + 1);
  /** `code` spans of the findings become <code>. */
  function withCode(text) {
    return text.split('`').map((part, i) => i % 2 ? el('code', {}, part) : part);
  }
  function missing(container, what, how) {
    container.replaceChildren(el('div', { class: 'missing' }, el('strong', {}, what), ' ', how));
  }
  function section(id, render) {
    try { render(); } catch (e) {
      api.errors.push(id + ': ' + e);
      console.error('lockscope: cannot render ' + id, e);
      document.querySelector('#' + id).append(el('div', { class: 'error' }, 'This section failed to render: ' + e));
    }
  }
  const hasOwners = !!blame && blame.some(e => e.ownerFrames.length > 0);

  // ---- header and summary ---------------------------------------------------------------------
  section('summary', () => {
    const r = data.recording || {};
    document.getElementById('meta').textContent =
      (r.path || '') + ' · ' + (r.start || '') + ' · ' + fmtNanos(r.durationNanos || 0);
    const ul = document.getElementById('findings');
    for (const f of data.findings || []) {
      ul.append(el('li', { class: 'finding ' + f.severity, 'data-rule': f.rule },
        el('span', { class: 'severity', title: 'rule ' + f.rule + ', score ' + f.score + ' of 100' }, f.severity), ' ', el('span', { class: 'message' }, withCode(f.message))));
    }
    for (const r of (data.rules || []).filter(r => r.severity === 'na' && !(data.findings || []).some(f => f.rule === r.rule))) {
      ul.append(el('li', { class: 'hint', 'data-rule': r.rule }, 'not evaluated: ' + r.rule + ' (no ' + r.missingEvents.join(' or ') + ' events in the recording)'));
    }
    // idle time apart from the findings, one line per pool (JsonReport.waits)
    const pools = data.idlePools || [];
    const idle = document.getElementById('idle');
    idle.hidden = pools.length === 0;
    for (const p of pools) {
      idle.querySelector('ul').append(el('li', { class: 'idle-pool' }, el('code', {}, p.pool), ' ' + fmtNanos(p.nanos) +
        ' in ' + p.waits + (p.waits === 1 ? ' wait' : ' waits') + ' (rule ' + p.rules.join(', ') + ')'));
    }
  });

  // ---- lock table ------------------------------------------------------------------------------
  section('locks', () => {
    const cols = [
      ['#', l => l._rank], ['kind', l => l.kind, 'text'], ['lock', l => l.label || (shortClass(l.className) + '@' + l.identityHash), 'text'], // the text table's row name
      ['total wait', l => l.totalWaitNanos, 'ns'], ['times parked', l => l.timesParked], ['parked now', l => l.parkedNow],
      ['peak parked', l => l.peakParked], ['thread-time', l => l.threadTimeNanos, 'ns'],
      ['real-time', l => l.realTimeNanos, 'ns'], ['avg park', l => l.avgParkNanos, 'ns'],
      // the second hold estimate: held from one hand-off to the next (none where no hand-off was seen), and how many
      // holds it averages: on a lock handed on a few times a run one or two make it, an upper bound (docs/reading-the-report.md)
      ['avg hold', l => l.avgHoldNanos, 'ns'], ['hold/hand-off', l => l.avgHoldFromHandoffsNanos, 'ns'],
      ['hand-off holds', l => l.handoffHolds],
      ['%real-time', l => l.realTimeUtilPct, 'pct'],
      ['%thread-time', l => l.threadTimeUtilPct, 'pct'], ['%real-life', l => l.realLifeTimeUtilPct, 'pct'],
      ['%thread-life', l => l.threadLifeTimeUtilPct, 'pct'], ['life time', l => l.lifeTimeNanos, 'ns'],
      ['first thread', l => l.firstThread, 'text']];
    // the locks only idle threads waited for are the idle section's, as in the text table (LockTable.idleNote)
    const idleLocks = (data.locks || []).filter(l => l.waitClass === 'idle').length;
    const locks = (data.locks || []).filter(l => l.waitClass !== 'idle').map((l, i) => Object.assign({ _rank: i + 1 }, l));
    const box = document.getElementById('lock-table');
    const idleNote = idleLocks === 0 ? null : idleLocks + (idleLocks === 1 ? ' lock' : ' locks')
      + ' only idle threads waited for (workers waiting for work) left out: the idle section sums them per pool';
    if (locks.length === 0) {
      missing(box, 'No contended lock.', idleNote || 'No thread parked on a blocker or blocked on a monitor.');
      return;
    }
    let sortCol = 0, desc = false;
    function draw() {
      const get = cols[sortCol][1];
      const rows = locks.slice().sort((a, b) => {
        const x = get(a), y = get(b);
        const c = typeof x === 'string' ? x.localeCompare(y) : x - y;
        return desc ? -c : c;
      });
      const head = el('tr', {}, cols.map(([name, , type], i) => el('th', {
        class: (type === 'text' ? 'text ' : '') + (i === sortCol ? (desc ? 'sorted-desc' : 'sorted-asc') : ''),
        onclick: () => { desc = i === sortCol ? !desc : type !== 'text'; sortCol = i; draw(); }
      }, name)));
      const body = rows.slice(0, MAX_TABLE_ROWS).map(l => el('tr', { title: (l.firstFrames || []).join('\n') },
        cols.map(([, get, type]) => {
          const v = get(l);
          return el('td', { class: type === 'text' ? 'text' : '' },
            v === undefined ? '–' : type === 'ns' ? fmtNanos(v) : type === 'pct' ? Number(v).toFixed(2) : v);
        })));
      const table = el('table', { id: 'lock-table-el' }, el('thead', {}, head), el('tbody', {}, body));
      box.replaceChildren(table);
      if (rows.length > MAX_TABLE_ROWS) box.append(el('p', { class: 'hint' },
        (rows.length - MAX_TABLE_ROWS) + ' more locks not shown (sort to see others; all are in the JSON report).'));
      if (data.sampledParksNote) box.append(el('p', { class: 'hint sampled-note' }, data.sampledParksNote));
      if (data.stackBudgetNote) box.append(el('p', { class: 'hint budget-note' }, data.stackBudgetNote));
      if (data.profilersOwnNote) box.append(el('p', { class: 'hint' }, data.profilersOwnNote));
      if (idleNote) box.append(el('p', { class: 'hint idle-note' }, idleNote));
    }
    draw();
  });

  // ---- what would help (WhatIfReport.json: Java's replay, greatest predicted gain first) ----------
  section('whatif', () => {
    const all = data.whatWouldHelp || [];
    const box = document.getElementById('whatif-table');
    const fmtPct = v => v === null || v === undefined ? '–' : (v >= 0 ? '+' : '') + Number(v).toFixed(1) + '%';
    // whatif --measure's page: the experiment (WhatIfReport.measuredJson), each site's replay prediction beside it
    const measured = () => {
      if (!data.measured) return;
      const head = el('tr', {}, ['measured change [interval]', 'outcome', 'holds halved', 'replay predicted', 'mean hold µs', 'delay µs', 'lock site']
        .map((h, i) => el('th', { class: i === 6 ? 'text' : '' }, h)));
      const body = data.measured.map(m => el('tr', { class: 'measured-row' },
        el('td', {}, fmtPct(m.changePct) + ' [' + fmtPct(m.lowPct) + ', ' + fmtPct(m.highPct) + '] in ' + m.runs + ' runs'),
        el('td', {}, m.outcome),
        el('td', {}, m.halvingRefused ? m.halvingRefused : fmtPct(m.halvingPct) + ' (s ' + Number(m.sensitivity).toFixed(2) + ')'),
        el('td', {}, m.predicted ? (m.predicted.refused ? 'refused: ' + m.predicted.refused : fmtPct(m.predicted.changePct) + ' (' + m.predicted.confidence + ')') : '–'),
        el('td', {}, (m.holdNanos / 1e3).toFixed(2)), el('td', {}, (m.delayNanos / 1e3).toFixed(2)),
        el('td', { class: 'text' }, el('code', {}, m.site))));
      box.append(el('h3', {}, 'Measured: each site\'s holds lengthened, its releases delayed (whatif --measure)'),
        el('table', { id: 'whatif-measured' }, el('thead', {}, head), el('tbody', {}, body)),
        el('p', { class: 'hint' }, 'Measured change: the median of the delayed runs, each against the runs as it is before and after it, with its distribution-free interval; '
          + 'holds halved: 2^s - 1 for the sensitivity s (throughput goes as hold^-s), bounded by Amdahl\'s law; replay predicted: the replay of the profiled run, holds in the site\'s method halved.'));
    };
    if (all.length === 0) { missing(box, 'No prediction.', 'No thread waited for a lock, so no lock\'s holds would help.'); measured(); return; }
    // low confidence is no advice: only medium and high are ranked (WhatIfReport.section does the same)
    const rows = all.filter(p => p.confidence !== 'low');
    const lowWhy = 'the quarters of the recording disagree, few holds were seen, or the replay reordered a lock';
    if (rows.length === 0) {
      missing(box, 'No trustworthy prediction.', 'All ' + all.length + ' have low confidence (' + lowWhy + '); the JSON report lists them.');
      measured();
      return;
    }
    const head = el('tr', {}, ['predicted', 'quarters alone', 'confidence', 'lock', 'holds seen', 'then waited for most']
      .map((h, i) => el('th', { class: i >= 3 && i !== 4 ? 'text' : '' }, h)));
    const body = rows.map(p => el('tr', { class: 'whatif-row' },
      el('td', {}, p.refused ? 'refused: ' + p.refused : fmtPct(p.changePct)), el('td', {}, p.parts ? fmtPct(p.lowPct) + ' … ' + fmtPct(p.highPct) : '–'),
      // named as the table names its row (JSON row); the object, what `whatif --lock` takes, on hover
      el('td', {}, p.confidence), el('td', { class: 'text', title: p.lock || '' }, el('code', {}, p.row || p.lock)),
      el('td', {}, Number(p.holdsSeenPct).toFixed(0) + '%'),
      el('td', { class: 'text' }, p.topLockAfter ? el('code', {}, p.topLockAfter) : 'nobody waits')));
    box.replaceChildren(el('table', { id: 'whatif-table-el' }, el('thead', {}, head), el('tbody', {}, body)));
    if (all.length > rows.length) box.append(el('p', { class: 'hint' }, (all.length - rows.length)
      + ' more of low confidence, no advice (' + lowWhy + '; the JSON report lists them).'));
    measured();
    const ul = document.getElementById('whatif-assumptions');
    for (const a of data.whatIfAssumptions || []) ul.append(el('li', {}, 'assumes ' + a));
  });

  // ---- blame explorer ---------------------------------------------------------------------------
  /** A chain key shortened for display to its innermost frames, as the text report does (BlameText.shortChain). */
  const SHOWN_FRAMES = 3;
  const shortChain = key => {
    const parts = key.split(' <- ');
    return parts.length <= SHOWN_FRAMES ? key : parts.slice(0, SHOWN_FRAMES).join(' <- ') + ' [+' + (parts.length - SHOWN_FRAMES) + ']';
  };
  const ASPECTS = {};
  for (const a of Object.keys(KEY)) {
    const i = KEY[a];
    ASPECTS[a] = { label: a.replace('-', ' '), key: e => e.keys[i], show: a.endsWith('-chain') ? shortChain : null };
  }
  let aspects = data.blame ? data.blame.groupBy.slice() : [];
  let selectedPath = null;
  const expanded = new Set();
  /** Java's order of children (BlameTree): most time first, then key (UTF-16 order, as String.compareTo). */
  const byTotalThenKey = (a, b) => b.total - a.total || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

  /** Groups the rows by the keys of the aspects: every node has total, count, children. */
  function buildTree(order) {
    const root = { key: 'all', total: 0, count: 0, children: new Map() };
    const fns = order.map(a => ASPECTS[a].key);
    for (const e of blame) {
      let node = root;
      root.total += e.nanos; root.count += e.count;
      for (const fn of fns) {
        const k = fn(e);
        let child = node.children.get(k);
        if (!child) { child = { key: k, total: 0, count: 0, children: new Map() }; node.children.set(k, child); }
        child.total += e.nanos; child.count += e.count;
        node = child;
      }
    }
    return root;
  }
  /** A tree as plain data, children in Java's order: {key, nanos, count, children}. */
  function plain(node) {
    return { key: node.key, nanos: node.total, count: node.count, children: [...node.children.values()].sort(byTotalThenKey).map(plain) };
  }

  function drawAspects() {
    const box = document.getElementById('aspects');
    const chips = aspects.map((a, i) => el('span', { class: 'chip', 'data-aspect': a },
      (i + 1) + '. ' + ASPECTS[a].label,
      el('button', { title: 'move left', 'data-move': 'left', onclick: () => move(i, -1) }, '◀'),
      el('button', { title: 'move right', 'data-move': 'right', onclick: () => move(i, 1) }, '▶'),
      el('button', { title: 'remove', 'data-move': 'remove', onclick: () => { if (aspects.length > 1) { aspects.splice(i, 1); redrawBlame(); } } }, '✕')));
    const rest = Object.keys(ASPECTS).filter(a => !aspects.includes(a));
    const add = el('select', { id: 'aspect-add', onchange: ev => { if (ev.target.value) { aspects.push(ev.target.value); redrawBlame(); } } },
      el('option', { value: '' }, 'add aspect…'), rest.map(a => el('option', { value: a }, ASPECTS[a].label)));
    box.replaceChildren(el('span', { class: 'hint' }, 'group by'), ...chips, add);
  }
  function move(i, by) {
    const j = i + by;
    if (j < 0 || j >= aspects.length) return;
    [aspects[i], aspects[j]] = [aspects[j], aspects[i]];
    redrawBlame();
  }

  function drawTree() {
    const tree = buildTree(aspects);
    const box = document.getElementById('blame-tree');
    const head = el('div', { class: 'node tree-head' }, el('span', {}), el('span', {}, aspects.map(a => ASPECTS[a].label).join(' › ')),
      el('span', { class: 'num' }, 'wait'), el('span', { class: 'num' }, 'share'), el('span', { class: 'num' }, 'count'));
    const ul = el('ul', {});
    renderChildren(ul, tree, [], tree.total, 0);
    box.replaceChildren(head, ul);
    api.blameTree = () => plain(tree);
  }
  function renderChildren(ul, node, path, grand, depth) {
    const kids = [...node.children.values()].sort(byTotalThenKey);
    const aspect = ASPECTS[aspects[depth]];
    for (const child of kids.slice(0, MAX_CHILDREN)) {
      const childPath = path.concat([child.key]);
      const id = childPath.join('\u0000');
      const leaf = child.children.size === 0;
      const open = expanded.has(id);
      const li = el('li', {});
      const row = el('div', { class: 'node' + (selectedPath === id ? ' selected' : ''), 'data-depth': depth, 'data-key': child.key,
        'data-nanos': child.total, 'data-count': child.count, title: child.key },
        el('span', { class: 'toggle', onclick: () => { open ? expanded.delete(id) : expanded.add(id); drawTree(); } }, leaf ? '' : open ? '▾' : '▸'),
        el('span', { class: 'label', onclick: () => { selectedPath = id; drawTree(); drawDetail(childPath); } },
          aspect.show ? aspect.show(child.key) : child.key),
        el('span', { class: 'num' }, fmtNanos(child.total)),
        el('span', { class: 'num', title: pct(child.total, node.total) + ' of the parent' }, pct(child.total, grand)),
        el('span', { class: 'num' }, child.count),
        el('div', { class: 'bar', style: 'width:' + (100 * child.total / (grand || 1)).toFixed(2) + '%' }));
      li.append(row);
      if (open && !leaf) {
        const sub = el('ul', {});
        renderChildren(sub, child, childPath, grand, depth + 1);
        li.append(sub);
      }
      ul.append(li);
    }
    if (kids.length > MAX_CHILDREN) {
      const rest = kids.slice(MAX_CHILDREN).reduce((s, k) => s + k.total, 0);
      ul.append(el('li', { class: 'more' }, '… ' + (kids.length - MAX_CHILDREN) + ' more, ' + fmtNanos(rest) + ' (' + pct(rest, grand) + ')'));
    }
  }
  /** The full waiter and owner chains of the rows under the selected node, heaviest first. */
  function drawDetail(path) {
    const fns = aspects.slice(0, path.length).map(a => ASPECTS[a].key);
    const inNode = blame.filter(e => fns.every((fn, i) => fn(e) === path[i]));
    const total = inNode.reduce((s, e) => s + e.nanos, 0);
    const box = document.getElementById('blame-detail');
    box.replaceChildren(el('div', {}, el('strong', {}, path.map((k, i) => ASPECTS[aspects[i]].show ? ASPECTS[aspects[i]].show(k) : k).join(' › '))),
      el('div', { class: 'hint' }, fmtNanos(total) + ' of waiting, ' + inNode.length + ' blame rows'));
    for (const [side, title] of [['waiter', 'Waiter chains'], ['owner', 'Owner chains']]) {
      const byChain = new Map();
      for (const e of inNode) {
        const k = ASPECTS[side + '-chain'].key(e);
        const agg = byChain.get(k) || { nanos: 0, how: new Set(), frames: e[side + 'Frames'] };
        agg.nanos += e.nanos;
        if (side === 'owner') agg.how.add(ASPECTS['chain-class'].key(e));
        byChain.set(k, agg);
      }
      const top = [...byChain.values()].sort((a, b) => b.nanos - a.nanos);
      box.append(el('h3', {}, title + ' (' + byChain.size + ')'));
      for (const agg of top.slice(0, MAX_CHAINS)) {
        box.append(el('div', {}, pct(agg.nanos, total) + ' · ' + fmtNanos(agg.nanos) +
          (agg.how.size ? ' · attribution: ' + [...agg.how].join(', ') : '')),
        agg.frames.length === 0 ? el('p', { class: 'hint' }, side === 'owner' ? 'owner chain not known' : 'no stack') :
          el('ol', { class: 'chain' }, agg.frames.map(f => el('li', {}, f))));
      }
      if (top.length > MAX_CHAINS) box.append(el('p', { class: 'hint' }, (top.length - MAX_CHAINS) + ' more chains'));
    }
  }
  function redrawBlame() {
    selectedPath = null;
    expanded.clear();
    drawAspects();
    drawTree();
    document.getElementById('blame-detail').replaceChildren(el('p', { class: 'hint' }, 'Select a node to see its chains.'));
  }
  section('blame', () => {
    if (!blame) {
      missing(document.querySelector('#blame .blame-body'), 'No blame data in this report.',
        'No thread waited for a lock while being recorded, so there is nothing to blame.');
      return;
    }
    redrawBlame();
    api.aspects = () => aspects.slice();
    /** For tests: regroups the explorer as the user would, by these aspects in this order. */
    api.groupBy = order => { aspects = order.slice(); redrawBlame(); };
    api.treeFor = order => plain(buildTree(order));
  });

  // ---- flame graphs ------------------------------------------------------------------------------
  /** Root-first stacks with the lock as leaf, as the collapsed and pprof exports (BlameStacks.java). */
  function flameTree(side) {
    const root = { name: 'all', value: 0, children: [], _m: new Map() };
    const thread = ASPECTS[side + '-thread'].key, lock = ASPECTS.lock.key;
    for (const e of blame) {
      const frames = e[side + 'Frames'];
      const stack = frames.length ? frames.slice().reverse() : [thread(e) === UNKNOWN ? '[owner unknown]' : '[no stack]'];
      stack.push(lock(e));
      const v = e.nanos;
      let node = root;
      root.value += v;
      for (const f of stack) {
        let c = node._m.get(f);
        if (!c) { c = { name: f, value: 0, children: [], _m: new Map() }; node._m.set(f, c); node.children.push(c); }
        c.value += v;
        node = c;
      }
    }
    (function strip(n) { delete n._m; n.children.forEach(strip); })(root);
    return root;
  }
  const charts = [];
  function drawFlame(side, container) {
    drawFlameData(flameTree(side), container);
  }
  function drawFlameData(tree, container) {
    const V = window.lockscopeVendor;
    const width = Math.max(600, container.clientWidth || 1000);
    const chart = V.flamegraph().width(width).cellHeight(18).minFrameSize(2).transitionDuration(300)
      .sort(true).title('')
      .setSearchMatch((d, term) => !!term && String(d.data.name).toLowerCase().includes(term.toLowerCase()))
      .label(d => d.data.name + ' — ' + fmtNanos(d.value) + ' (' + pct(d.value, d.parent ? rootValue(d) : d.value) + ')');
    const tip = V.tooltip.defaultFlamegraphTooltip().text(d => d.data.name + ' — ' + fmtNanos(d.value));
    chart.tooltip(tip);
    V.select(container).datum(tree).call(chart);
    charts.push(chart);
  }
  function rootValue(d) { while (d.parent) d = d.parent; return d.value; }
  section('flames', () => {
    const waiter = document.getElementById('flame-waiter'), owner = document.getElementById('flame-owner');
    if (!blame) {
      missing(waiter, 'No blame data in this report.', 'No thread waited for a lock while being recorded.');
      missing(owner, 'No blame data in this report.', 'No thread waited for a lock while being recorded.');
      return;
    }
    drawFlame('waiter', waiter);
    if (hasOwners) drawFlame('owner', owner);
    else missing(owner, 'No owner chains in this report.', 'No owner of a lock was seen with a call chain ' +
      '(blockers without an owner, such as Semaphore, or monitors whose owners were never sampled).');
    document.getElementById('flame-search').addEventListener('input', ev => {
      const term = ev.target.value.trim();
      charts.forEach(c => term ? c.search(term) : c.clear());
    });
    document.getElementById('flame-reset').addEventListener('click', () => charts.forEach(c => c.resetZoom()));
  });

  // ---- CPU and wall-clock profiles (trees computed in Java: HtmlReport.profiles) -------------------
  /** [name index, total nanoseconds, children] → d3-flame-graph's {name, value, children}. */
  function unpackFlame(node, strings) {
    return { name: strings[node[0]], value: node[1], children: node[2].map(c => unpackFlame(c, strings)) };
  }
  api.unpackFlame = unpackFlame;
  const profileCharts = [];
  section('profiles', () => {
    const p = data.profiles;
    const boxes = { wall: document.getElementById('profile-wall'), cpu: document.getElementById('profile-cpu') };
    for (const kind of ['wall', 'cpu']) {
      if (!p || !p[kind] || p[kind][1] === 0) {
        missing(boxes[kind], 'No ' + kind + ' profile in this report.', kind === 'cpu'
          ? 'It needs execution samples: record with the agent\'s cpuSamples on (the default, 20ms).'
          : 'It needs execution samples or recorded waits.');
        continue;
      }
      const before = charts.length;
      drawFlameData(unpackFlame(p[kind], p.strings), boxes[kind]);
      profileCharts.push(...charts.splice(before));
    }
    document.getElementById('profile-search').addEventListener('input', ev => {
      const term = ev.target.value.trim();
      profileCharts.forEach(c => term ? c.search(term) : c.clear());
    });
    document.getElementById('profile-reset').addEventListener('click', () => profileCharts.forEach(c => c.resetZoom()));
  });

  // ---- bottle graph ------------------------------------------------------------------------------
  section('bottle', () => {
    const box = document.getElementById('bottle-graph');
    const bg = data.bottleGraph;
    if (!bg) {
      missing(box, 'No bottle graph in this report.', 'It needs scheduling data beside the recording: record with ' +
        'lockscope record --sched, which writes run.sched next to run.jfr.');
      return;
    }
    box.innerHTML = bg.svg; // lockscope's own SVG (BottleSvg.java), the one lockscope bottle draws
  });

  // ---- CPU per thread with steal time: shown when the recording has the agent's CPU-time samples ---
  section('cpu-times', () => {
    if (!data.cpuTimes) {
      return;
    }
    document.getElementById('cpu-times').hidden = false;
    document.getElementById('cpu-times-body').innerHTML = data.cpuTimes.html; // lockscope's own escaped HTML (ThreadCpuReport.java)
  });

  // ---- deep mode (record --deep): shown only when the recording has it ---------------------------
  section('deep', () => {
    if (!data.deep) {
      return;
    }
    document.getElementById('deep').hidden = false;
    document.getElementById('deep-body').innerHTML = data.deep.html; // lockscope's own escaped HTML (DeepHtml.java)
  });

  // ---- per-thread timeline (canvas: thousands of spans per thread stay fast) ---------------------
  section('timeline', () => {
    const tl = data.timeline, view = document.getElementById('timeline-view');
    if (!tl || !tl.threads || tl.threads.length === 0) {
      missing(view, 'No thread timeline in this report.', 'It is drawn from the recording\'s park, monitor, sleep and CPU-sample events.');
      return;
    }
    // mounted: a virtual thread on a carrier (record --sched), drawn under its other spans
    const colors = { running: '#38a169', blocked: '#e53e3e', parked: '#dd6b20', waiting: '#805ad5', sleeping: '#a0aec0', mounted: '#9ae6b4' };
    const mounted = tl.states.indexOf('mounted'), carriers = tl.carriers || [];
    const shown = tl.states.filter((st, i) => i !== mounted || tl.threads.some(t => t.spans.some((v, k) => k % 4 === 2 && v === i)));
    const legend = document.getElementById('timeline-legend');
    legend.replaceChildren(...shown.map(s => el('span', {}, el('span', { class: 'swatch', style: 'background:' + colors[s] }),
      s === 'mounted' ? 'mounted on a carrier' : s)),
      el('span', { class: 'hint' }, ' · wheel to zoom, double-click to reset, hover for the lock'));
    if (tl.threadsLeftOut || tl.spansLeftOut) legend.append(el('span', { class: 'hint' },
      ' (' + tl.threadsLeftOut + ' threads and ' + tl.spansLeftOut + ' short spans left out for size)'));
    const ROW = 16, LABEL = 200, dpr = window.devicePixelRatio || 1;
    const width = Math.max(700, view.clientWidth - 20), plot = width - LABEL;
    const height = tl.threads.length * ROW + 20;
    const canvas = el('canvas', { id: 'timeline-canvas', width: width * dpr, height: height * dpr, style: 'width:' + width + 'px;height:' + height + 'px' });
    const ctx = canvas.getContext('2d');
    ctx.scale(dpr, dpr);
    // The visible window [v0, v1] in µs: the wheel zooms around the pointer, double-click resets.
    let v0 = 0, v1 = tl.durationMicros || 1;
    const x = us => LABEL + plot * (us - v0) / (v1 - v0);
    function draw() {
      ctx.clearRect(0, 0, width, height);
      ctx.font = '11px system-ui, sans-serif';
      tl.threads.forEach((t, row) => {
        const y = row * ROW;
        ctx.fillStyle = row % 2 ? '#fafbfc' : '#fff'; ctx.fillRect(0, y, width, ROW);
        const s = t.spans;
        for (const under of [true, false]) { // mounted spans first: the samples and waits inside them stay visible
          for (let i = 0; i < s.length; i += 4) {
            if (s[i + 1] < v0 || s[i] > v1 || (s[i + 2] === mounted) !== under) continue;
            const a = Math.max(LABEL, x(s[i])), b = Math.min(width, x(s[i + 1]));
            ctx.fillStyle = colors[tl.states[s[i + 2]]];
            ctx.fillRect(a, y + 2, Math.max(1, b - a), ROW - 4);
          }
        }
        ctx.fillStyle = row % 2 ? '#fafbfc' : '#fff'; ctx.fillRect(0, y, LABEL, ROW);
        ctx.fillStyle = '#1d232b'; ctx.fillText(t.name.length > 30 ? t.name.slice(0, 29) + '…' : t.name, 4, y + 12);
      });
      ctx.fillStyle = '#5c6673';
      for (let k = 0; k <= 10; k++) {
        ctx.fillText(fmtNanos(Math.round((v0 + (v1 - v0) * k / 10) * 1000)), LABEL + plot * k / 10 - (k === 10 ? 50 : 0), height - 6);
      }
    }
    draw();
    canvas.addEventListener('wheel', ev => {
      const r = canvas.getBoundingClientRect(), px = ev.clientX - r.left;
      if (px < LABEL) return;
      ev.preventDefault();
      const at = v0 + (px - LABEL) * (v1 - v0) / plot, f = ev.deltaY > 0 ? 1.25 : 0.8;
      const span = Math.min(tl.durationMicros, Math.max(10, (v1 - v0) * f));
      v0 = Math.max(0, at - (at - v0) * span / (v1 - v0));
      v1 = Math.min(tl.durationMicros, v0 + span);
      v0 = Math.max(0, v1 - span);
      draw();
    }, { passive: false });
    canvas.addEventListener('dblclick', () => { v0 = 0; v1 = tl.durationMicros || 1; draw(); });
    view.replaceChildren(canvas);
    const tip = document.getElementById('timeline-tip');
    /** The span under a point: the shortest one containing it (a park inside a running sample wins). */
    function hit(px, py) {
      const row = Math.floor(py / ROW), t = tl.threads[row];
      if (!t || px < LABEL) return null;
      const us = v0 + (px - LABEL) * (v1 - v0) / plot, slack = 2 * (v1 - v0) / plot;
      let best = null;
      for (let i = 0; i < t.spans.length; i += 4) {
        if (t.spans[i] > us + slack) break;
        if (t.spans[i + 1] >= us - slack && (!best || t.spans[i + 1] - t.spans[i] < best[1] - best[0])) best = t.spans.slice(i, i + 4);
      }
      if (!best) return null;
      const state = tl.states[best[2]], lock = best[3] < 0 ? null : best[2] === mounted ? carriers[best[3]] : tl.locks[best[3]];
      return t.name + ': ' + state + (lock ? (state === 'running' ? '' : ' on ') + lock : '') + ', ' +
        fmtNanos((best[1] - best[0]) * 1000) + ' from ' + fmtNanos(best[0] * 1000);
    }
    canvas.addEventListener('mousemove', ev => {
      const r = canvas.getBoundingClientRect(), text = hit(ev.clientX - r.left, ev.clientY - r.top);
      tip.hidden = !text;
      if (text) {
        tip.textContent = text;
        const w = tip.offsetWidth; // keep the tip inside the window near its right edge
        tip.style.left = (ev.clientX + 12 + w > window.innerWidth ? Math.max(0, ev.clientX - 12 - w) : ev.clientX + 12) + 'px';
        tip.style.top = (ev.clientY + 12) + 'px';
      }
    });
    canvas.addEventListener('mouseleave', () => { tip.hidden = true; });
    /** For tests: page coordinates of the middle of the widest span in a state, or null. */
    api.timelinePoint = (state) => {
      const si = tl.states.indexOf(state);
      let best = null;
      tl.threads.forEach((t, row) => {
        for (let i = 0; i < t.spans.length; i += 4) {
          if (t.spans[i + 2] === si && (!best || t.spans[i + 1] - t.spans[i] > best.end - best.begin)) {
            best = { row: row, begin: t.spans[i], end: t.spans[i + 1] };
          }
        }
      });
      if (!best) return null;
      const r = canvas.getBoundingClientRect();
      return { x: r.left + (x(best.begin) + x(best.end)) / 2, y: r.top + best.row * ROW + ROW / 2 };
    };
  });

  api.rendered = true;
  document.body.setAttribute('data-rendered', 'true');
})();
