// Bundles vendor-entry.js into the minified file the HTML report inlines, with a header naming each
// bundled package, its version and licence, and writes the licence texts beside it. Run through
// scripts/build-web.sh; the output is committed so Maven builds need no npm.
import { build } from 'esbuild';
import { readFileSync, writeFileSync, existsSync } from 'node:fs';

const out = '../src/main/resources/dev/lockscope/report/html/';
const result = await build({
  entryPoints: ['vendor-entry.js'], bundle: true, minify: true, format: 'iife',
  target: 'es2019', legalComments: 'none', write: false, metafile: true,
  loader: { '.css': 'empty' }, // the stylesheet is inlined separately as vendor.css
});
const packages = new Set();
for (const input of Object.keys(result.metafile.inputs)) {
  const m = input.match(/node_modules\/((?:@[^/]+\/)?[^/]+)\//);
  if (m) packages.add(m[1]);
}
const names = [...packages].sort();
const header = ['/*! lockscope report vendor bundle, built by report/web/build-vendor.mjs from npm packages:'];
const licences = [];
for (const name of names) {
  const pkg = JSON.parse(readFileSync(`node_modules/${name}/package.json`, 'utf8'));
  header.push(` * ${name} ${pkg.version} (${pkg.license})`);
  const file = ['LICENSE', 'LICENSE.md', 'LICENSE.txt'].map(f => `node_modules/${name}/${f}`).find(existsSync);
  licences.push(`==== ${name} ${pkg.version} (${pkg.license}) ====\n\n${file ? readFileSync(file, 'utf8') : pkg.license}\n`);
}
header.push(' * Full licence texts: vendor-licenses.txt next to this file in lockscope-report.jar. */');
writeFileSync(out + 'vendor.min.js', header.join('\n') + '\n' + result.outputFiles[0].text);
writeFileSync(out + 'vendor.css', '/*! d3-flame-graph (Apache-2.0) */\n'
  + readFileSync('node_modules/d3-flame-graph/dist/d3-flamegraph.css', 'utf8'));
writeFileSync(out + 'vendor-licenses.txt', licences.join('\n'));
console.log(`vendor.min.js: ${names.length} packages, ${result.outputFiles[0].text.length} bytes`);
