package dev.lockscope.analysis.blame;

import java.util.List;
import java.util.function.ToLongFunction;

/** Binary search over lists sorted by a long key (times, sequence numbers). */
final class SortedSearch {
    private SortedSearch() {
    }

    /** Index of the first element whose key is greater than {@code value}; the size when there is none. */
    static <T> int firstAfter(List<T> sorted, ToLongFunction<T> key, long value) {
        int lo = 0;
        int hi = sorted.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (key.applyAsLong(sorted.get(mid)) <= value) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }
}
