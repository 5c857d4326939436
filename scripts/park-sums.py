#!/usr/bin/env python3
"""What a recording's lockscope.Park events add up to, against the agent's exact summaries.

usage: scripts/park-sums.py RECORDING.jfr

Reads the recording with the JDK's `jfr print` (on the PATH) and prints, for the Park events and then the IdlePark
events (a pool's workers waiting for work, sampled below 10 ms): how many, and the sum of their durations; of those the agent sampled (standsForNanos > 0), how many, the waiting they stand for and its standard
error (the square root of the sum of standsFor squared: each stands for length/p with p its probability, so its
variance is at most that square); and the last batch of lockscope.LockSummary events: parks and thread time over
every blocker, what `lockscope report` prints. For the parks recorded for themselves it adds their lengths' 10th, 50th
and 90th percentiles and the share of them that sampling by length below 10 us, 100 us, 1 ms and 10 ms would
keep (read a recording made with sampleBelow=0, which sampled none). The recorded parks' durations, plus the sampled ones' weights,
should add up to the summaries' thread time: how far they do not is what owner blame's totals miss
(docs/agent-cost.md, "Short parks sampled below 300 µs")."""
import math
import re
import subprocess
import sys

UNITS = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}
VALUE = re.compile(r"\s*([\d.,]+)\s*(ns|us|ms|s)\b")


def seconds(text):
    """A duration as `jfr print` writes it (e.g. '12.3 us', '0 s'), in seconds."""
    m = VALUE.match(text)
    return float(m.group(1).replace(",", "")) * UNITS[m.group(2)] if m else 0.0


def micros(s):
    return "%.1f us" % (s * 1e6)


def events(path, name):
    out = subprocess.run(["jfr", "print", "--events", name, path], capture_output=True, text=True, check=True).stdout
    return out.split(name + " {")[1:]


def field(event, name):
    m = re.search(r"\b" + name + r" = (.*)", event)
    return m.group(1) if m else ""


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    path = sys.argv[1]
    for name in ("lockscope.Park", "lockscope.IdlePark"):
        parks = events(path, name)
        duration = sum(seconds(field(e, "duration")) for e in parks)
        stands = [seconds(field(e, "standsForNanos")) for e in parks]
        sampled = [s for s in stands if s > 0]
        print("%s events: %d, durations %.1f ms" % (name[len("lockscope."):], len(parks), duration * 1e3))
        print("  sampled: %d, standing for %.1f ms (standard error %.1f ms)"
              % (len(sampled), sum(sampled) * 1e3, math.sqrt(sum(s * s for s in sampled)) * 1e3))
        own = sorted(seconds(field(e, "duration")) for e, s in zip(parks, stands) if s == 0)
        print("  recorded for themselves: %.1f ms" % (sum(own) * 1e3))
        if own:
            print("    their lengths: 10th percentile %s, median %s, 90th %s" % tuple(
                micros(own[int(q * (len(own) - 1))]) for q in (0.1, 0.5, 0.9)))
            # what sampling by length below D would keep of them: the longer ones, and each shorter one with
            # probability length/D (meaningful for a recording made with sampleBelow=0, where none was sampled)
            print("    sampled below D, expected to be kept: " + ", ".join(
                "%s %.0f%%" % (label, 100 * sum(1 if x >= d else x / d for x in own) / len(own))
                for label, d in (("10 us", 1e-5), ("100 us", 1e-4), ("1 ms", 1e-3), ("10 ms", 1e-2))))
    batches = {}
    for e in events(path, "lockscope.LockSummary"):
        batch = int(field(e, "batch") or 0)
        total = batches.setdefault(batch, [0, 0.0])
        total[0] += int(field(e, "timesParked").replace(",", "") or 0)
        total[1] += seconds(field(e, "threadTimeNanos"))
    if batches:
        last = max(batches)
        print("LockSummary batch %d: %d parks, thread time %.1f ms" % (last, batches[last][0], batches[last][1] * 1e3))
    else:
        print("no lockscope.LockSummary events")


if __name__ == "__main__":
    main()
