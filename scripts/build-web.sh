#!/usr/bin/env bash
# Rebuilds the JavaScript that every HTML report inlines (report/src/main/resources/.../vendor.min.js,
# vendor.css, vendor-licenses.txt) from the npm packages pinned in report/web/package-lock.json.
# The output is committed, so `mvn package` needs no npm; run this after changing report/web.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../report/web"
npm ci --silent --no-audit --no-fund
node build-vendor.mjs
