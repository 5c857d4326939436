package dev.lockscope.report.whatif;

import dev.lockscope.core.LockKind;
import dev.lockscope.core.LockMetrics;
import dev.lockscope.core.LockSites;
import dev.lockscope.core.ParkTally;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class WhyNoPredictionTest {
    private static LockMetrics row(LockKind kind, String lockClass, String site, int instances) {
        return new LockMetrics(kind, lockClass, LockSites.SITE_PREFIX + site, "t", List.of(site), ParkTally.empty(0), 0, instances);
    }

    @Test
    void eachRowSaysWhatTheReplayDoesNotFollow() {
        // Derby's row locks: Object.wait on thousands of ActiveLock objects at one site
        assertThat(WhyNoPrediction.reasons(row(LockKind.WAIT, "org.apache.derby.impl.services.locks.ActiveLock",
                "org.apache.derby.impl.services.locks.ActiveLock.waitForGrant:118", 20757), false, false, false))
                .containsExactly("Object.wait (a wait for a notification, not for a holder)",
                        "20757 objects in one row (the replay changes one)");
        // commons-pool2 exhausted: borrowers wait on the deque's condition, from a sampled recording
        assertThat(WhyNoPrediction.reasons(row(LockKind.PARK, "java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject",
                "org.apache.commons.pool2.impl.LinkedBlockingDeque.takeFirst:1324", 1), false, true, false))
                .containsExactly("a condition or queue (nobody holds it)", "sampled parks (record with --sample-below 0)");
        assertThat(WhyNoPrediction.reasons(row(LockKind.PARK, "java.util.concurrent.locks.ReentrantLock$NonfairSync",
                "org.apache.commons.pool2.impl.LinkedBlockingDeque.takeFirst:1324", 1), false, true, false))
                .containsExactly("sampled parks (record with --sample-below 0)");
        // a storm past the agent's stack budget: the replay misses the refused parks' holds
        assertThat(WhyNoPrediction.reasons(row(LockKind.PARK, "java.util.concurrent.locks.ReentrantLock$NonfairSync",
                "com.example.Queue.put:12", 1), false, false, true))
                .containsExactly("parks the stack budget refused (record with --stack-budget 0)");
        assertThat(WhyNoPrediction.reasons(row(LockKind.WAIT, "java.lang.ref.ReferenceQueue$Lock", "java.lang.Object.wait", 1),
                true, false, false)).startsWith("idle (threads waiting for work)");
        // a monitor the replay follows, one object, every park recorded: its own low confidence
        assertThat(WhyNoPrediction.reasons(row(LockKind.MONITOR, "com.example.Catalog", "com.example.Catalog.search:10", 1),
                false, true, true)).singleElement().asString().startsWith("low confidence (the quarters");
    }
}
