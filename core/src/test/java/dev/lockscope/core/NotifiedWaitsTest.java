package dev.lockscope.core;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Which Object.wait is a wait for a wait/notify lock: the one rule of the exit table and the report. */
class NotifiedWaitsTest {
    private static final List<String> ROW_LOCK = List.of("java.lang.Object.wait0", "java.lang.Object.wait:366",
            "org.apache.derby.impl.services.locks.ActiveLock.waitForGrant:118");

    @Test
    void aWaitAnotherThreadNotifiedCounts() {
        assertThat(NotifiedWaits.isLockWait(false, 7, 9, ROW_LOCK)).isTrue();
    }

    @Test
    void timeoutsUnknownNotifiersAndOwnNotifiesDoNot() {
        assertThat(NotifiedWaits.isLockWait(true, 7, 9, ROW_LOCK)).isFalse();
        assertThat(NotifiedWaits.isLockWait(false, 0, 9, ROW_LOCK)).isFalse();
        assertThat(NotifiedWaits.isLockWait(false, 9, 9, ROW_LOCK)).isFalse();
    }

    @Test
    void joinsAndProcessWaitsDoNot() {
        assertThat(NotifiedWaits.isLockWait(false, 7, 9, List.of("java.lang.Object.wait0", "java.lang.Object.wait:366",
                "java.lang.Thread.join:2078", "java.lang.Thread.join:2154", "com.app.Main.main:10"))).isFalse();
        assertThat(NotifiedWaits.isLockWait(false, 7, 9, List.of("java.lang.Object.wait",
                "java.lang.ProcessImpl.waitFor:434", "com.app.Main.main:10"))).isFalse();
    }

    /** Only the innermost frames are read (the agent formats no more): a join deeper down is some other wait's caller. */
    @Test
    void onlyTheInnermostFramesAreRead() {
        List<String> deep = new java.util.ArrayList<>(ROW_LOCK);
        for (int i = 0; i < NotifiedWaits.DEPTH; i++) {
            deep.add("com.app.Layer.call:" + i);
        }
        deep.add("java.lang.Thread.join:2078");
        assertThat(NotifiedWaits.isLockWait(false, 7, 9, deep)).isTrue();
    }
}
