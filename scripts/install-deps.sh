#!/usr/bin/env bash
# Installs what the build and tests need on a fresh Debian machine; quiet and quick when all is there.
set -euo pipefail
missing=()
command -v mvn >/dev/null || missing+=(maven)
# the HTML report's browser test (e2e HtmlReportBrowserTest): Debian's Chromium, driven from node
[[ -x /usr/bin/chromium ]] || missing+=(chromium)
command -v node >/dev/null || missing+=(nodejs)
command -v npm >/dev/null || missing+=(npm)
[[ -x /usr/lib/jvm/java-17-openjdk-amd64/bin/java ]] || missing+=(openjdk-17-jdk-headless)
if ((${#missing[@]})); then
  if [[ $(id -u) -ne 0 ]]; then
    echo "install-deps.sh: please install: ${missing[*]}" >&2
    exit 1
  fi
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi
if [[ ! -x /usr/lib/jvm/temurin-25-jdk-amd64/bin/java && -z "${LOCKSCOPE_JDK25:-}" ]]; then
  echo "install-deps.sh: JDK 25 not found at /usr/lib/jvm/temurin-25-jdk-amd64 (set LOCKSCOPE_JDK25)" >&2
  exit 1
fi
# the browser test's node packages (playwright-core, pinned in report/web/package-lock.json)
web="$(cd "$(dirname "${BASH_SOURCE[0]}")/../report/web" && pwd)"
stamp="$web/node_modules/.lockscope-installed"
if ! cmp -s "$web/package-lock.json" "$stamp" 2>/dev/null; then
  (cd "$web" && npm ci --silent --no-audit --no-fund >/dev/null && cp package-lock.json "$stamp")
fi
