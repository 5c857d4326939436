package dev.lockscope.core;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** Objects beyond the bound are retired into their site's sum, which stays what following them all gives. */
class FollowedLocksTest {
    private static final long MS = 1_000_000;
    private static final long RUN = 10_000 * MS;
    private static final String CLASS = "org.apache.derby.impl.services.locks.ActiveLock";
    private static final List<String> AT_GRANT = List.of("java.lang.Object.wait",
            "org.apache.derby.impl.services.locks.ActiveLock.waitForGrant:118");
    private static final List<String> AT_FLUSH = List.of("java.lang.Object.wait", "com.app.Log.flush:40");

    /** 400 objects at two sites, each waited for in two bursts far apart (so retired, then seen again), in end order. */
    private static List<LockMetrics> rows(int max, List<String> retiredSites) {
        ReplayWindow window = new ReplayWindow();
        FollowedLocks locks = new FollowedLocks(max, 0, window, (kind, className, identity, site) -> retiredSites.add(site));
        Random random = new Random(7);
        record Wait(long object, long begin, long end) {
        }
        List<Wait> waits = new ArrayList<>();
        for (long object = 1; object <= 400; object++) {
            for (long burst : new long[] {object * 10 * MS, 5_000 * MS + object * 10 * MS}) {
                for (int i = 0; i < 3; i++) {
                    long begin = burst + random.nextInt(5) * MS;
                    waits.add(new Wait(object, begin, begin + (1 + random.nextInt(4)) * MS));
                }
            }
        }
        waits.sort(java.util.Comparator.comparingLong(Wait::end));
        for (Wait w : waits) {
            FollowedLocks.Followed f = locks.follow(LockKind.WAIT, CLASS, 0x7f00L + w.object());
            f.waits.add(w.begin(), w.end(), "worker", w.object() % 2 == 0 ? AT_GRANT : AT_FLUSH);
            window.added(f.waits, 2, w.end());
        }
        List<LockMetrics> out = new ArrayList<>();
        Map<LockMetrics, LockWaits> waitsOf = new IdentityHashMap<>();
        locks.metrics(RUN, out, waitsOf);
        return LockSites.group(out, RUN);
    }

    @Test
    void retiredObjectsKeepTheirSitesParksThreadTimePeakAndObjectCount() {
        List<String> retired = new ArrayList<>();
        List<LockMetrics> all = rows(10_000, new ArrayList<>());
        List<LockMetrics> bounded = rows(16, retired);
        assertThat(retired).as("objects retired beyond 16").hasSizeGreaterThan(700) // each of 400 retired twice
                .containsOnly("at org.apache.derby.impl.services.locks.ActiveLock.waitForGrant:118", "at com.app.Log.flush:40");
        assertThat(bounded).hasSize(2);
        for (int i = 0; i < 2; i++) {
            LockMetrics a = all.get(i);
            LockMetrics b = bounded.get(i);
            assertThat(b.identityHash()).isEqualTo(a.identityHash());
            assertThat(b.timesParked()).isEqualTo(a.timesParked()).isEqualTo(1_200);
            assertThat(b.tally().threadTimeNanos).isEqualTo(a.tally().threadTimeNanos);
            assertThat(b.tally().peakParked).isEqualTo(a.tally().peakParked);
            assertThat(b.instances()).as("an object retired twice counts once").isEqualTo(a.instances()).isEqualTo(200);
        }
    }
}
