#!/usr/bin/env bash
# Records every owner-blame scenario ATTEMPTS times with the given java, for BlameE2EIT's replay mode
# (mvn -B verify -pl e2e -am -Dlockscope.test.recordings=OUT_DIR): useful where the build machine is too
# busy for the timed scenarios to run as scripted, or to keep the recordings of one JDK.
#   usage: e2e/record-blame-scenarios.sh JAVA OUT_DIR [AGENT_JAR DEMO_JAR]
set -euo pipefail
java_bin=$1
out=$2
agent=${3:-agent/target/lockscope-agent.jar}
demo=${4:-demo/target/lockscope-demo.jar}
attempts=${ATTEMPTS:-3}
mkdir -p "$out/jfr-repository"
"$java_bin" -version > "$out/java-version.txt" 2>&1
for pattern in blame-fig44-sync blame-fig44-juc blame-article-sync blame-article-juc blame-calibration-sync \
    blame-calibration-juc blame-barging-juc blame-rw-juc blame-semaphore-juc blame-wait-sync blame-wait-juc; do
  case $pattern in blame-article-*|blame-calibration-*) seconds=2 ;; *) seconds=0 ;; esac
  for n in $(seq 1 "$attempts"); do
    "$java_bin" -XX:FlightRecorderOptions:repository="$out/jfr-repository" \
      -javaagent:"$agent"=file="$out/$pattern-$n.jfr",quiet,report=off \
      -cp "$demo" dev.lockscope.demo.DemoMain "$pattern" --seconds $seconds > "$out/$pattern-$n.out" 2>&1
  done
done
rm -rf "$out/jfr-repository"
