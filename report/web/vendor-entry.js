// What the HTML report takes from npm: d3-flame-graph (zoom, search, tooltips) and d3-selection to
// mount it. Exposed as window.lockscopeVendor; the report's own code is report.js.
import flamegraph, { tooltip } from 'd3-flame-graph';
import { select } from 'd3-selection';
window.lockscopeVendor = { flamegraph, tooltip, select };
