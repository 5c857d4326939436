package dev.lockscope.core;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class IdlePlacesTest {
    private static List<String> stack(int depthOfPlace, String place) {
        List<String> functions = new ArrayList<>();
        for (int i = 0; i < depthOfPlace; i++) {
            functions.add("java.util.concurrent.locks.Frame" + i + ".call");
        }
        functions.add(place);
        functions.add("java.lang.Thread.run");
        return functions;
    }

    @Test
    void aPlaceNearTheTopOfAWaitingStackNamesItsRule() {
        assertThat(IdlePlaces.ruleOf(stack(3, "java.util.concurrent.ThreadPoolExecutor.getTask"))).isEqualTo("pool-queue");
        assertThat(IdlePlaces.ruleOf(stack(IdlePlaces.DEPTH - 1, "java.util.concurrent.ForkJoinPool.awaitWork")))
                .isEqualTo("fork-join-idle");
        // the agent's frames carry their line
        assertThat(IdlePlaces.ruleOf(stack(1, "java.util.concurrent.ThreadPoolExecutor.getTask:1061"))).isEqualTo("pool-queue");
        assertThat(IdlePlaces.ruleOf(stack(1, "com.example.Pool.awaitTermination:12"))).isEqualTo("termination-wait");
    }

    @Test
    void theSameClassDeeperDownIsOnlyWhereTheThreadCameFrom() {
        assertThat(IdlePlaces.ruleOf(stack(IdlePlaces.DEPTH, "java.util.concurrent.ThreadPoolExecutor.getTask"))).isNull();
        assertThat(IdlePlaces.ruleOf(stack(2, "com.example.Inventory.reserve"))).isNull();
        assertThat(IdlePlaces.ruleOf(List.of())).isNull();
    }

    private static LockMetrics waitRow(int peak, String... frames) {
        ParkTally tally = ParkTally.of(0, 25, 0, peak, 118_000_000_000L, 118_000_000_000L, 0, 120_000_000_000L, true);
        return new LockMetrics(LockKind.WAIT, "org.apache.derby.impl.services.daemon.BasicDaemon", "7f00", "derby.rawStoreDaemon",
                List.of(frames), tally, 122_000_000_000L);
    }

    /** Derby's daemon sleeps in its own loop until it is given work: idle, not a lock however long it waits (issue 40). */
    @Test
    void aServiceThreadWaitingInItsOwnLoopIsIdle() {
        LockMetrics daemon = waitRow(1, "java.lang.Object.wait", "org.apache.derby.impl.services.daemon.BasicDaemon.rest:577",
                "org.apache.derby.impl.services.daemon.BasicDaemon.run:391", "java.lang.Thread.run:840");
        assertThat(IdlePlaces.ruleOf(daemon)).isEqualTo(IdlePlaces.SERVICE_LOOP);
        // JDK 21+: wait0 on top, Thread.runWith below
        assertThat(IdlePlaces.isServiceLoopWait(waitRow(1, "java.lang.Object.wait0", "java.lang.Object.wait:366",
                "com.example.Consumer.run:12", "java.lang.Thread.runWith", "java.lang.Thread.run"))).isTrue();

        // a row lock: waited for deep in the code that needs it
        assertThat(IdlePlaces.isServiceLoopWait(waitRow(1, "java.lang.Object.wait", "org.apache.derby.impl.services.locks.ActiveLock.waitForGrant:118",
                "org.apache.derby.impl.services.locks.ConcurrentLockSet.lockObject:487", "com.example.Dao.update:40",
                "com.example.Worker.run:12", "java.lang.Thread.run"))).isFalse();
        // two threads waiting at once: a lock, not one service loop
        assertThat(IdlePlaces.isServiceLoopWait(waitRow(2, "java.lang.Object.wait", "com.example.Consumer.take:30",
                "com.example.Consumer.run:12", "java.lang.Thread.run"))).isFalse();
        // not below a run() method, or no stack at all
        assertThat(IdlePlaces.isServiceLoopWait(waitRow(1, "java.lang.Object.wait", "com.example.Consumer.take:30",
                "com.example.Main.main:5"))).isFalse();
        assertThat(IdlePlaces.isServiceLoopWait(waitRow(1))).isFalse();
    }
}
