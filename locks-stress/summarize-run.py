#!/usr/bin/env python3
"""Summarises a jcstress log of locks-stress/run-jcstress.sh, finished or cut short.

Reads the per-result progress blocks that `jcstress -v` prints as it goes (one per test, JVM configuration
and fork), so a full run stopped early still says how far every test and negative control got.
usage: locks-stress/summarize-run.py DIR/tests.log [DIR/negative-controls-N.log ...] > summary.md
"""
import re
import sys
from collections import defaultdict

HEADER = re.compile(r'^\.+ \[(\w+)\] dev\.lockscope\.locks\.(\w+)\.(\w+)\s*$')
ROW = re.compile(r'^\s*(.+?)\s+([\d,]+)\s+<?[\d.]+%\s+(Acceptable|Forbidden|Interesting)\b')
JVM_ARGS = re.compile(r'^\s+JVM args: (.*)$')


def main(paths):
    results = defaultdict(lambda: defaultdict(int))  # (class, test) -> verdict -> count
    samples = defaultdict(int)
    forbidden = defaultdict(int)
    configs = defaultdict(set)
    finished = []
    for path in paths:
        current = None
        in_run_results = False
        with open(path, errors='replace') as log:
            for line in log:
                if line.startswith('RUN RESULTS'):
                    in_run_results = True  # the closing summary repeats the blocks: count progress only
                if in_run_results:
                    continue
                m = HEADER.match(line)
                if m:
                    current = (m.group(2), m.group(3))
                    results[current][m.group(1)] += 1
                    continue
                if current is None:
                    continue
                m = JVM_ARGS.match(line)
                if m:
                    configs[current].add(re.sub(r'-XX:StressSeed=\d+', '', m.group(1)))
                    continue
                m = ROW.match(line)
                if m:
                    n = int(m.group(2).replace(',', ''))
                    samples[current] += n
                    if m.group(3) == 'Forbidden':
                        forbidden[current] += n
        finished.append(f'{path} ({"finished" if in_run_results else "cut short: progress so far"})')
    print('logs: ' + ', '.join(finished) + '\n')
    print('| class | test | results (configuration x fork) | verdicts | samples | forbidden outcome seen |')
    print('|---|---|---|---|---|---|')
    for key in sorted(results):
        verdicts = ', '.join(f'{v} {c}' for v, c in sorted(results[key].items()))
        count = sum(results[key].values())
        print(f'| {key[0]} | {key[1]} | {count} in {len(configs[key])} JVM configurations | {verdicts} '
              f'| {samples[key]:,} | {forbidden[key]:,} |')


if __name__ == '__main__':
    main(sys.argv[1:])
