package dev.lockscope.core;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class LockFindingsTest {
    private static final List<String> ORDERS = List.of("java.util.concurrent.locks.LockSupport.park:211",
            "java.util.concurrent.locks.ReentrantLock.lock:322", "com.shop.Orders.place:42", "com.shop.Api.order:7");

    /** A row of one wait of {@code waitNanos} by each of {@code threads} threads at once, in a 1 ms run. */
    private static LockMetrics row(String cls, long waitNanos, int threads, List<String> frames) {
        ParkTally t = ParkTally.empty(0);
        for (int i = 0; i < threads; i++) {
            t = t.park(0);
        }
        for (int i = 0; i < threads; i++) {
            t = t.unpark(waitNanos);
        }
        return new LockMetrics(LockKind.PARK, cls, "7f0" + cls.length(), "worker-1", frames, t, 1_000_000);
    }

    @Test
    void findingsAreTheRowsWithAStackAndHalfAPercentOfWallTimeTheLargestShareFirst() {
        LockMetrics small = row("a.Small", 4_000, 1, ORDERS);             // 0.4% of wall time: no finding
        LockMetrics mostWaiting = row("a.Many", 100_000, 8, ORDERS);      // 10%, 0.8 ms of waiting
        LockMetrics largestShare = row("a.Long", 300_000, 1, ORDERS);     // 30%, 0.3 ms
        LockMetrics noStack = row("a.NoStack", 900_000, 1, List.of());   // 90%, but no place to change
        // in the table's order (by thread-time), the most waiting first
        List<LockMetrics> table = LockTable.ranked(List.of(small, largestShare, noStack, mostWaiting));

        assertThat(LockFindings.of(table)).containsExactly(largestShare, mostWaiting);
    }

    @Test
    void theHeadNamesTheRowItsWaitersAndItsShare() {
        LockMetrics lock = row("java.util.concurrent.locks.ReentrantLock$NonfairSync", 300_000, 3, ORDERS);
        String label = "ReentrantLock at Orders.place:42";
        assertThat(LockFindings.head(lock, label, null, 0))
                .as("without blame: the peak of waiters at once")
                .isEqualTo("`ReentrantLock at Orders.place:42` blocked up to 3 threads at once for 30% of wall time "
                        + "(0.90 ms of waiting in all)");
        LockMetrics site = new LockMetrics(lock.kind(), lock.className(), LockSites.SITE_PREFIX + "Orders.place:42", "worker-1",
                ORDERS, lock.tally(), 1_000_000, 3000);
        assertThat(LockFindings.head(site, label + " x3000", null, 0))
                .as("a site's peak is one object's: no count without blame")
                .isEqualTo("`ReentrantLock at Orders.place:42 x3000` blocked threads for 30% of wall time (0.90 ms of waiting in all)");
        assertThat(LockFindings.waiting(30_000_000L)).as("a lock that cost 30 ms").isEqualTo("30 ms");
        assertThat(LockFindings.waiting(1_434_200_000_000L)).isEqualTo("1434.2 s");
        assertThat(LockFindings.head(lock, label, "com.shop.Cart.checkout", 14))
                .as("with blame: the waiters counted, the place most of them waited named when the label does not say it")
                .isEqualTo("`ReentrantLock at Orders.place:42` in `com.shop.Cart.checkout` blocked 14 threads for 30% of "
                        + "wall time (0.90 ms of waiting in all)");
    }

    @Test
    void theAgentsListIsTheFindingsHeadsAndWhereToReadWhoHeldThem() {
        LockMetrics lock = row("a.Long", 300_000, 1, ORDERS);
        String text = LockFindings.text("lockscope: top findings at JVM exit", List.of(lock), Map.of(lock, "Long at Orders.place:42"),
                10, "who held each lock, and in what code: lockscope report app.jfr");
        assertThat(text).isEqualTo("lockscope: top findings at JVM exit\n"
                + "  - Long at Orders.place:42 blocked 1 thread at a time for 30% of wall time (0.30 ms of waiting in\n"
                + "    all).\n"
                + "  (who held each lock, and in what code: lockscope report app.jfr)\n");

        LockMetrics small = row("a.Small", 4_000, 1, ORDERS);
        assertThat(LockFindings.text("t", List.of(small), Map.of(small, "Small at Orders.place:42"), 10, "w"))
                .as("no finding: the largest and its share, as the report says it")
                .isEqualTo("t\n"
                        + "  - No contention in this recording: no thread waited for a lock that another thread held for long\n"
                        + "    enough to matter: the largest, Small at Orders.place:42, had waiters 0.40% of wall time (under\n"
                        + "    0.01 ms of waiting in all).\n"
                        + "  (w)\n");
    }

    @Test
    void wrappedLinesStayUnderTheWidthAndKeepEveryWord() {
        StringBuilder sb = new StringBuilder();
        String text = "word ".repeat(60).strip();
        LockTable.wrap(sb, text, "  - ", "    ");
        assertThat(sb.toString().lines()).hasSizeGreaterThan(2)
                .allSatisfy(line -> assertThat(line.length()).isLessThan(LockTable.WIDTH));
        assertThat(sb.toString().replaceAll("\\s+", " ").strip()).isEqualTo("- " + text);
    }
}
