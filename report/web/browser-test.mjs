// Opens lockscope HTML reports in headless Chromium (Debian's package, driven by playwright-core) and
// checks them as a person would look at them. Run by e2e's HtmlReportBrowserIT:
//   node browser-test.mjs <config.json>
// config: { chromium, screenshots, reports: [{ file, name, empty, expectLock, expectFrame (default expectLock),
//           expectThread, bottleGraph, owners, boundMillis, dump, trees }] }
// With dump (a file) and trees (lists of aspects), the page's own blame trees for those orders, the
// top level of its explorer after regrouping by each, and its first finding are written there as JSON.
// Prints one line per check; exits 1 with the failures listed on the last lines.
import { chromium } from 'playwright-core';
import { mkdtempSync, readFileSync, rmSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const config = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const failures = [];
function check(name, ok, detail) {
  console.log((ok ? 'ok   ' : 'FAIL ') + name + (detail ? ': ' + detail : ''));
  if (!ok) failures.push(name + (detail ? ': ' + detail : ''));
}

const profile = mkdtempSync(join(tmpdir(), 'lockscope-chromium-'));
mkdirSync(config.screenshots, { recursive: true });
const context = await chromium.launchPersistentContext(profile, {
  executablePath: config.chromium, headless: true, viewport: { width: 1400, height: 900 },
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
try {
  for (const report of config.reports) await checkReport(report);
} finally {
  await context.close();
  rmSync(profile, { recursive: true, force: true });
}
console.log(failures.length ? `browser test: ${failures.length} failed` : 'browser test: all passed');
for (const f of failures) console.log('  ' + f);
process.exit(failures.length ? 1 : 0);

async function checkReport(r) {
  const page = await context.newPage();
  const errors = [], requests = [];
  page.on('console', m => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', e => errors.push(String(e)));
  // The page must need nothing but itself: any request other than the file is a failure.
  await page.route('**/*', route => {
    const url = route.request().url();
    if (url.startsWith('file:') || url.startsWith('data:')) return route.continue();
    requests.push(url);
    return route.abort();
  });
  const began = Date.now();
  await page.goto(pathToFileURL(r.file).href);
  await page.waitForSelector('body[data-rendered="true"]', { timeout: Math.max(60000, r.boundMillis || 0) });
  const millis = Date.now() - began;
  const p = r.name + ': ';
  console.log(`info ${p}rendered in ${millis} ms`);
  if (r.boundMillis) check(p + `renders within ${r.boundMillis} ms`, millis <= r.boundMillis, millis + ' ms');
  check(p + 'no section failed', (await page.evaluate(() => window.lockscope.errors)).length === 0,
    JSON.stringify(await page.evaluate(() => window.lockscope.errors)));

  const text = sel => page.locator(sel).innerText();
  const frameNames = async sel => (await page.locator(sel + ' svg g').evaluateAll(gs => gs.map(g => g.getAttribute('name')))).join('\n');
  if (r.diff) { // lockscope diff's page: the similarity table and the differential flame graph
    check(p + 'similarity table has all threads and groups', await page.locator('#similarity-table tbody tr').count() >= 2);
    check(p + 'differential flame graph shows ' + r.expectFrame, (await frameNames('#diff-flame')).includes(r.expectFrame));
    await page.screenshot({ path: join(config.screenshots, r.name + '-page.png'), fullPage: true });
    check(p + 'no console errors', errors.length === 0, errors.join(' | '));
    check(p + 'no network requests', requests.length === 0, requests.join(' '));
    await page.close();
    return;
  }
  if (r.empty) { // a report with no locks and none of the optional members: every section says so
    for (const sel of ['#lock-table', '#whatif-table', '#blame', '#flame-waiter', '#flame-owner', '#bottle-graph', '#timeline-view',
      '#profile-wall', '#profile-cpu']) {
      check(p + sel + ' says what is missing', await page.locator(sel + ' .missing').count() === 1);
    }
    await page.screenshot({ path: join(config.screenshots, r.name + '-page.png'), fullPage: true });
    check(p + 'no console errors', errors.length === 0, errors.join(' | '));
    check(p + 'no network requests', requests.length === 0, requests.join(' '));
    await page.close();
    return;
  }
  if (r.dump) await dumpTrees(page, r);
  check(p + 'summary names the lock', (await text('#findings')).includes(r.expectLock), await text('#findings'));
  check(p + 'lock table names the lock', (await text('#lock-table')).includes(r.expectLock));
  check(p + 'lock table names rows as the text table does', !(await text('#lock-table')).includes('@at '));
  check(p + 'lock table counts the holds behind hold/hand-off', (await text('#lock-table')).includes('hand-off holds'));
  await page.locator('#lock-table th', { hasText: 'avg hold' }).click();
  check(p + 'lock table sorts', (await page.locator('#lock-table th.sorted-desc').innerText()).includes('avg hold'));
  check(p + 'blame tree names the lock', (await text('#blame-tree')).includes(r.expectLock));
  // a short demo's replay may call every prediction low-confidence: then the page must say so instead of ranking
  if (r.whatIf) {
    const whatIf = await text('#whatif-table');
    check(p + 'what would help names the lock or says no prediction is trustworthy',
      whatIf.includes(r.expectLock) || whatIf.includes('No trustworthy prediction'), whatIf);
  }
  // frame names are on the <g name> at once; the labels appear only after d3's transition
  const flame = (await page.locator('#flame-waiter svg g').evaluateAll(gs => gs.map(g => g.getAttribute('name')))).join('\n');
  const frame = r.expectFrame || r.expectLock;
  check(p + 'waiter flame graph shows ' + frame, flame.includes(frame));
  if (r.owners) {
    check(p + 'owner flame graph drawn', await page.locator('#flame-owner svg').count() === 1);
  } else {
    check(p + 'owner flame graph says what is missing', (await text('#flame-owner')).includes('No owner chains'));
  }
  if (r.expectProfileFrame) {
    check(p + 'wall profile shows ' + r.expectProfileFrame, (await frameNames('#profile-wall')).includes(r.expectProfileFrame));
    // a run whose threads mostly park may get no execution sample at all: then the section says so
    check(p + 'CPU profile drawn or said empty', await page.locator('#profile-cpu svg').count() === 1
      || await page.locator('#profile-cpu .missing').count() === 1);
  }
  if (r.bottleGraph) {
    // drawn, with threads in it; the workers themselves are only noted: on a loaded 2-core machine `record --sched`
    // once captured no switch of theirs (perf's data lacked them; the page drew what it had)
    const bottle = (await page.locator('#bottle-graph svg').count()) === 1 ? await page.locator('#bottle-graph svg').textContent() : '';
    check(p + 'bottle graph drawn', bottle.length > 0);
    console.log('info ' + p + 'bottle graph ' + (bottle.includes(r.expectThread) ? 'names ' : 'does not name ') + r.expectThread);
  } else {
    check(p + 'bottle graph says what is missing', (await text('#bottle-graph')).includes('No bottle graph'));
  }
  await page.screenshot({ path: join(config.screenshots, r.name + '-page.png'), fullPage: true });

  // Timeline: hover a parked span; the tip names the lock.
  await page.locator('#timeline').scrollIntoViewIfNeeded();
  const point = await page.evaluate(() => window.lockscope.timelinePoint('parked') || window.lockscope.timelinePoint('blocked'));
  if (point) {
    await page.mouse.move(point.x, point.y);
    const tip = await text('#timeline-tip');
    check(p + 'timeline hover names the lock', tip.includes(r.expectLock), tip);
  } else {
    check(p + 'timeline has a parked or blocked span', false);
  }
  await page.locator('#timeline').screenshot({ path: join(config.screenshots, r.name + '-timeline.png') });
  if (point) { // zoom in around the span; it still names its lock
    for (let i = 0; i < 5; i++) await page.mouse.wheel(0, -200);
    const zoomed = await page.evaluate(() => window.lockscope.timelinePoint('parked') || window.lockscope.timelinePoint('blocked'));
    await page.mouse.move(zoomed.x, zoomed.y);
    check(p + 'zoomed timeline hover names the lock', (await text('#timeline-tip')).includes(r.expectLock));
    await page.locator('#timeline').screenshot({ path: join(config.screenshots, r.name + '-timeline-zoomed.png') });
  }

  // Blame explorer: move the first aspect right; the top level must then group by the other aspect.
  const before = await page.evaluate(() => window.lockscope.aspects());
  const topBefore = await page.locator('#blame-tree > ul > li > .node .label').allInnerTexts();
  await page.locator('#aspects .chip').first().locator('[data-move="right"]').click();
  const after = await page.evaluate(() => window.lockscope.aspects());
  const topAfter = await page.locator('#blame-tree > ul > li > .node .label').allInnerTexts();
  check(p + 'aspects reordered', after[0] === before[1] && after[1] === before[0], before + ' -> ' + after);
  check(p + 'tree changed with the order', JSON.stringify(topBefore) !== JSON.stringify(topAfter),
    topBefore.slice(0, 3) + ' -> ' + topAfter.slice(0, 3));
  // Drill down: open the heaviest node and select its first child; its chains appear.
  await page.locator('#blame-tree > ul > li > .node .toggle').first().click();
  await page.locator('#blame-tree > ul > li > ul > li > .node .label').first().click();
  const detail = await text('#blame-detail');
  check(p + 'selected node shows waiter chains', detail.includes('Waiter chains') && /\.\w+:\d+/.test(detail), detail.slice(0, 200));
  await page.locator('#blame').screenshot({ path: join(config.screenshots, r.name + '-blame.png') });

  // Flame graph search and zoom.
  await page.fill('#flame-search', 'lock');
  await page.locator('#flame-waiter svg g').first().click();
  await page.click('#flame-reset');
  await page.locator('#flames').screenshot({ path: join(config.screenshots, r.name + '-flames.png') });

  check(p + 'no console errors', errors.length === 0, errors.join(' | '));
  check(p + 'no network requests', requests.length === 0, requests.join(' '));
  await page.close();
}

/** What the page itself computed and shows, for the Java side to compare with the other formats. */
async function dumpTrees(page, r) {
  const dump = await page.evaluate(trees => {
    const api = window.lockscope, initialOrder = api.aspects();
    const out = { groupBy: initialOrder, initial: api.blameTree(), trees: trees.map(t => api.treeFor(t)), topLevel: [] };
    for (const t of trees) {
      api.groupBy(t);
      out.topLevel.push([...document.querySelectorAll('#blame-tree > ul > li > .node')].map(n =>
        ({ key: n.dataset.key, nanos: Number(n.dataset.nanos), count: Number(n.dataset.count) })));
    }
    api.groupBy(initialOrder);
    return out;
  }, r.trees || []);
  dump.findings = await page.locator('#findings li .message').allInnerTexts();
  writeFileSync(r.dump, JSON.stringify(dump));
}
