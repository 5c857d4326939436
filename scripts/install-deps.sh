#!/usr/bin/env bash
# Installs what the build and tests need on a fresh Debian machine; quiet and quick when all is there.
set -euo pipefail
missing=()
command -v mvn >/dev/null || missing+=(maven)
[[ -x /usr/lib/jvm/java-17-openjdk-amd64/bin/java ]] || missing+=(openjdk-17-jdk-headless)
command -v perf >/dev/null || missing+=(linux-perf)  # bottle graphs: perf record --switch-events
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
