package dev.lockscope.cli;

import dev.lockscope.core.LockKind;
import dev.lockscope.core.LockMetrics;
import dev.lockscope.core.LockSites;
import dev.lockscope.core.ParkTally;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class WhatIfMeasureTest {
    private static LockMetrics site(LockKind kind, String lockClass, String frame, String... above) {
        List<String> frames = new java.util.ArrayList<>(List.of(above));
        frames.add(frame);
        return new LockMetrics(kind, lockClass, LockSites.SITE_PREFIX + frame, "t", frames, ParkTally.empty(0), 0);
    }

    @Test
    void theApplicationsLocksAreCandidates() {
        assertThat(WhatIfMeasure.isApplicationLock(site(LockKind.MONITOR, "org.apache.logging.log4j.core.appender.FileManager",
                "org.apache.logging.log4j.core.appender.OutputStreamManager.writeBytes:365"))).isTrue();
        // the application's use of a JDK lock, waited for in the application's method
        assertThat(WhatIfMeasure.isApplicationLock(site(LockKind.PARK, "java.util.concurrent.locks.ReentrantLock$NonfairSync",
                "dev.lockscope.demo.LargeCriticalSection.juc3:73", "jdk.internal.misc.Unsafe.park",
                "java.util.concurrent.locks.AbstractQueuedSynchronizer.acquire:938"))).isTrue();
        assertThat(WhatIfMeasure.isApplicationLock(site(LockKind.PARK,
                "java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject",
                "dev.lockscope.bench.LibraryWorkloads.lambda$main$3:80"))).isTrue();
    }

    @Test
    void jfrsLockscopesAndTheJdksBookkeepingLocksAreNot() {
        // what whatif --measure chose on log4j2 before: JFR's recorder
        assertThat(WhatIfMeasure.isApplicationLock(site(LockKind.MONITOR, "jdk.jfr.internal.PlatformRecorder",
                "jdk.jfr.internal.PlatformRecorder.periodicTask:471"))).isFalse();
        // JFR's lock taken from an application frame is still JFR's
        assertThat(WhatIfMeasure.isApplicationLock(site(LockKind.MONITOR, "jdk.jfr.internal.PlatformRecorder",
                "com.example.App.record:10"))).isFalse();
        assertThat(WhatIfMeasure.isApplicationLock(site(LockKind.WAIT, "java.lang.ref.ReferenceQueue$Lock",
                "java.lang.Object.wait"))).isFalse();
        assertThat(WhatIfMeasure.isApplicationLock(site(LockKind.MONITOR, "java.lang.Object",
                "java.lang.ClassLoader.loadClass:576"))).isFalse();
        assertThat(WhatIfMeasure.isApplicationLock(site(LockKind.MONITOR, "sun.net.httpserver.ServerImpl",
                "sun.net.httpserver.ServerImpl$Dispatcher.run:400"))).isFalse();
        assertThat(WhatIfMeasure.isApplicationLock(site(LockKind.PARK, "java.util.concurrent.locks.ReentrantLock$NonfairSync",
                "dev.lockscope.agent.boot.BlockerRegistry.register:12"))).isFalse();
        assertThat(WhatIfMeasure.isApplicationLock(site(LockKind.MONITOR, "dev.lockscope.core.LockSites",
                "com.example.App.run:3"))).isFalse();
        assertThat(WhatIfMeasure.isApplicationLock(site(LockKind.PARK, "java.util.concurrent.locks.ReentrantLock$NonfairSync",
                "jdk.internal.misc.InnocuousThread.run:1"))).isFalse();
        // seen on log4j2: class loading's lock under the application's frame, and class initialisation's int[0]
        assertThat(WhatIfMeasure.isApplicationLock(site(LockKind.MONITOR, "java.lang.Object",
                "org.apache.logging.log4j.core.layout.StringBuilderEncoder.encode:67",
                "jdk.internal.loader.BuiltinClassLoader.loadClassOrNull:651", "java.lang.ClassLoader.loadClass:525"))).isFalse();
        assertThat(WhatIfMeasure.isApplicationLock(site(LockKind.WAIT, "[I",
                "org.apache.logging.log4j.message.ReusableParameterizedMessage.init:124"))).isFalse();
    }

    @Test
    void rowsWaitingForNoHolderArePassedOverAndNamedWhenAskedFor() {
        LockMetrics rowLocks = site(LockKind.WAIT, "org.apache.derby.impl.services.locks.ActiveLock",
                "org.apache.derby.impl.services.locks.ActiveLock.waitForGrant:118");
        LockMetrics borrowers = site(LockKind.PARK, "java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject",
                "org.apache.commons.pool2.impl.LinkedBlockingDeque.takeFirst:1324");
        LockMetrics lockSet = site(LockKind.PARK, "java.util.concurrent.locks.ReentrantLock$NonfairSync",
                "org.apache.derby.impl.services.locks.ConcurrentLockSet.lockObject:501");
        List<String> said = new java.util.ArrayList<>();
        assertThat(WhatIfMeasure.choose(List.of(rowLocks, lockSet), List.of(), 1, said::add)).containsExactly(lockSet);
        assertThat(said).containsExactly("org.apache.derby.impl.services.locks.ActiveLock.waitForGrant:118: Object.wait "
                + "(a wait for a notification, not for a holder)");
        assertThatThrownBy(() -> WhatIfMeasure.choose(List.of(borrowers), List.of(), 1, n -> { }))
                .isInstanceOf(UserError.class).hasMessageContaining("wait for no holder")
                .hasMessageContaining("LinkedBlockingDeque.takeFirst:1324: a condition or queue (nobody holds it)");
        assertThatThrownBy(() -> WhatIfMeasure.choose(List.of(rowLocks, lockSet), List.of("waitForGrant"), 1, n -> { }))
                .isInstanceOf(UserError.class).hasMessage("--site waitForGrant: its waits are Object.wait (a wait for a "
                        + "notification, not for a holder): no hold there to lengthen");
        assertThat(WhatIfMeasure.choose(List.of(rowLocks, lockSet), List.of("ConcurrentLockSet"), 1, n -> { }))
                .containsExactly(lockSet);
    }
}
