/* lockscope diff's page: the similarity table and the differential flame graph Java computed
 * (ProfileDiffHtml.java); plain browser JavaScript, flame graphs from the vendor bundle. */
(function () {
  'use strict';
  const data = JSON.parse(document.getElementById('lockscope-data').textContent);
  const api = window.lockscope = { data: data, errors: [] };
  const fmt = v => (100 * v).toFixed(1) + '%';
  const amount = v => data.unit === 'nanoseconds' ? (v / 1e9).toFixed(2) + ' s' : String(v);
  const unitName = data.unit === 'nanoseconds' ? 'time' : 'samples';
  function section(id, render) {
    try { render(); } catch (e) {
      api.errors.push(id + ': ' + e);
      document.getElementById(id).append(Object.assign(document.createElement('div'), { className: 'error', textContent: 'This section failed to render: ' + e }));
    }
  }
  document.getElementById('meta').textContent = data.kind + ' profiles · ' + data.a + ' → ' + data.b + ' · hot-edge threshold ' + data.threshold;
  section('similarity', () => {
    const t = document.createElement('table');
    t.innerHTML = '<thead><tr><th class="text">thread group</th><th>' + unitName + ' (first)</th><th>' + unitName +
      ' (second)</th><th>overlap</th><th>first covers second</th><th>second covers first</th></tr></thead>';
    const body = t.createTBody();
    for (const r of data.rows) {
      const tr = body.insertRow();
      [r.group === null ? 'all threads' : r.group, amount(r.a), amount(r.b), fmt(r.overlap), fmt(r.aCoversB), fmt(r.bCoversA)].forEach((v, i) => {
        const td = tr.insertCell(); td.textContent = v; if (i === 0) td.className = 'text';
      });
    }
    document.getElementById('similarity-table').append(t);
  });
  section('differential', () => {
    const s = data.strings;
    /** [name index, total in the second profile, change of share (second − first), children] */
    const unpack = n => ({ name: s[n[0]], value: n[1], delta: n[2], children: n[3].map(unpack) });
    const tree = unpack(data.tree);
    const V = window.lockscopeVendor, box = document.getElementById('diff-flame');
    const chart = V.flamegraph().width(Math.max(600, box.clientWidth || 1000)).cellHeight(18).minFrameSize(2)
      .transitionDuration(300).sort(true).title('')
      .setColorMapper((d, original) => {
        const x = Math.max(-1, Math.min(1, d.data.delta * 10)); // 10 points of share: full colour
        const c = Math.round(255 * (1 - Math.abs(x)));
        return x > 0 ? 'rgb(255,' + c + ',' + c + ')' : x < 0 ? 'rgb(' + c + ',' + c + ',255)' : 'rgb(235,235,235)';
      })
      .label(d => d.data.name + ' — ' + (d.data.delta >= 0 ? '+' : '') + (100 * d.data.delta).toFixed(2) + ' points of share');
    V.select(box).datum(tree).call(chart);
    document.getElementById('diff-search').addEventListener('input', ev => {
      const term = ev.target.value.trim();
      term ? chart.search(term) : chart.clear();
    });
    document.getElementById('diff-reset').addEventListener('click', () => chart.resetZoom());
  });
  document.body.dataset.rendered = 'true';
})();
