package dev.lockscope.analysis.bottle;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** A set of time points as sorted, disjoint, half-open intervals [start, end). */
final class Intervals {
    final List<long[]> parts;

    private Intervals(List<long[]> parts) {
        this.parts = parts;
    }

    static Intervals empty() {
        return new Intervals(new ArrayList<>());
    }

    /** Normalises any intervals (overlapping, unsorted, empty ones dropped). */
    static Intervals of(List<long[]> raw) {
        List<long[]> s = new ArrayList<>();
        for (long[] p : raw) {
            if (p[1] > p[0]) {
                s.add(new long[] {p[0], p[1]});
            }
        }
        s.sort(Comparator.comparingLong(p -> p[0]));
        List<long[]> out = new ArrayList<>();
        for (long[] p : s) {
            long[] last = out.isEmpty() ? null : out.get(out.size() - 1);
            if (last != null && p[0] <= last[1]) {
                last[1] = Math.max(last[1], p[1]);
            } else {
                out.add(p);
            }
        }
        return new Intervals(out);
    }

    long length() {
        long n = 0;
        for (long[] p : parts) {
            n += p[1] - p[0];
        }
        return n;
    }

    Intervals intersect(Intervals o) {
        List<long[]> out = new ArrayList<>();
        int i = 0;
        int j = 0;
        while (i < parts.size() && j < o.parts.size()) {
            long[] a = parts.get(i);
            long[] b = o.parts.get(j);
            long s = Math.max(a[0], b[0]);
            long e = Math.min(a[1], b[1]);
            if (e > s) {
                out.add(new long[] {s, e});
            }
            if (a[1] < b[1]) {
                i++;
            } else {
                j++;
            }
        }
        return new Intervals(out);
    }

    Intervals minus(Intervals o) {
        List<long[]> out = new ArrayList<>();
        int j = 0;
        for (long[] a : parts) {
            long s = a[0];
            while (j < o.parts.size() && o.parts.get(j)[1] <= s) {
                j++;
            }
            int k = j;
            while (k < o.parts.size() && o.parts.get(k)[0] < a[1]) {
                long[] b = o.parts.get(k);
                if (b[0] > s) {
                    out.add(new long[] {s, b[0]});
                }
                s = Math.max(s, b[1]);
                k++;
            }
            if (s < a[1]) {
                out.add(new long[] {s, a[1]});
            }
        }
        return new Intervals(out);
    }
}
