#!/usr/bin/env python3
"""Turns the CSV files of run-jmh.sh into markdown tables: one row per benchmark and parameters, one column
per JVM configuration (the CSV file name), score +- JMH's 99.9% error."""
import csv, os, sys
from collections import OrderedDict

rows = OrderedDict()
configs = []
for path in sys.argv[1:]:
    config = os.path.basename(path)[:-4].replace('-library', '').replace('-synchronized', '')
    if config not in configs:
        configs.append(config)
    with open(path) as f:
        for r in csv.DictReader(f):
            bench = r['Benchmark'].split('.')[-2] + '.' + r['Benchmark'].split('.')[-1]
            params = ', '.join(f"{k[7:]}={v}" for k, v in r.items() if k.startswith('Param: ') and v)
            err = r['Score Error (99.9%)']
            score = float(r['Score'])
            cell = f"{score:,.1f} ± {float(err):,.1f}" if err not in ('', 'NaN') else f"{score:,.1f}"
            rows.setdefault((bench, params, r['Unit']), {})[config] = cell

bench_order = []
for (bench, _, _) in rows:
    b = bench.split('.')[0]
    if b not in bench_order:
        bench_order.append(b)
for b in bench_order:
    print(f"\n#### {b}\n")
    print('| benchmark | parameters | unit | ' + ' | '.join(configs) + ' |')
    print('|---|---|---|' + '---|' * len(configs))
    for (bench, params, unit), cells in rows.items():
        if bench.split('.')[0] == b:
            print(f"| {bench.split('.')[1]} | {params} | {unit} | " + ' | '.join(cells.get(c, '') for c in configs) + ' |')
