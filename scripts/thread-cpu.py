#!/usr/bin/env python3
"""Per-thread CPU of a command's process between two moments, summed by thread name.

usage: scripts/thread-cpu.py FROM_S TO_S COMMAND [ARG...]

Starts COMMAND, reads utime + stime of each of its threads (/proc/PID/task/*/stat) FROM_S and TO_S seconds
after the start, and prints the CPU each thread name used in between (digits at the end of a name folded to N,
so a pool's threads are one line), largest first. The command's output goes to thread-cpu.out in the working
directory. Linux only; the kernel counts in ticks of 10 ms. Used to see, at a workload's steady state, which
threads a profiler adds CPU to (docs/agent-cost.md)."""
import collections
import os
import re
import subprocess
import sys
import time


def snapshot(pid):
    out = {}
    for tid in os.listdir(f'/proc/{pid}/task'):
        try:
            with open(f'/proc/{pid}/task/{tid}/stat') as f:
                stat = f.read()
        except OSError:
            continue  # the thread ended
        name = stat[stat.index('(') + 1:stat.rindex(')')]
        fields = stat[stat.rindex(')') + 2:].split()
        out[tid] = (name, int(fields[11]) + int(fields[12]))
    return out


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    start, end = float(sys.argv[1]), float(sys.argv[2])
    if not 0 <= start < end:
        sys.exit('thread-cpu: FROM_S must be at least 0 and below TO_S')
    with open('thread-cpu.out', 'w') as log:
        p = subprocess.Popen(sys.argv[3:], stdout=log, stderr=subprocess.STDOUT)
    hz = os.sysconf('SC_CLK_TCK')
    time.sleep(start)
    before = snapshot(p.pid)
    time.sleep(end - start)
    after = snapshot(p.pid)
    p.wait()
    if not after:
        sys.exit(f'thread-cpu: the command ended before {end} s (exit {p.returncode}); see thread-cpu.out')
    by_name = collections.Counter()
    for tid, (name, ticks) in after.items():
        by_name[re.sub(r'\d+$', 'N', name)] += ticks - before.get(tid, (name, 0))[1]
    total = sum(by_name.values())
    for name, ticks in by_name.most_common():
        if ticks:
            print(f'{ticks * 1000 // hz:8d} ms {100 * ticks / total:5.1f}%  {name}')
    print(f'{total * 1000 // hz:8d} ms in all between {start:g} s and {end:g} s (exit {p.returncode})')


if __name__ == '__main__':
    main()
