package dev.lockscope.analysis.model;

import dev.lockscope.core.ThreadNames;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class VirtualThreadsTest {
    @Test
    void virtualThreadsAreNamedByIdAndKeepTheirName() {
        assertThat(ThreadNames.virtual(42, "")).isEqualTo("virtual#42");
        assertThat(ThreadNames.virtual(42, null)).isEqualTo("virtual#42");
        assertThat(ThreadNames.virtual(7, "handler-3")).isEqualTo("handler-3 (virtual#7)");
    }

    @Test
    void theOwnerOfAnUnmountedWaitIsThePreviousAcquirerOfTheSameMonitor() {
        VirtualThreads vt = new VirtualThreads();
        ThreadRef a = new ThreadRef(1, 0, "virtual#1");
        ThreadRef b = new ThreadRef(2, 0, "virtual#2");
        ThreadRef c = new ThreadRef(3, 0, "virtual#3");
        assertThat(vt.withOwner(wait(a, "M", 10)).previousOwner()).isNull(); // nobody seen before
        assertThat(vt.withOwner(wait(b, "M", 20)).previousOwner()).isEqualTo(a);
        assertThat(vt.withOwner(wait(c, "Other", 25)).previousOwner()).isNull(); // another monitor
        assertThat(vt.withOwner(wait(c, "M", 30)).previousOwner()).isEqualTo(b);
        // the JVM's own events keep JFR's previousOwner
        MonitorEnter jfr = new MonitorEnter(a, "M", 1, 0, 40, c, List.of());
        assertThat(vt.withOwner(jfr)).isSameAs(jfr);
    }

    @Test
    void threadsOfOnePoolOrFactoryAreOneGroup() {
        assertThat(VirtualThreads.poolOf(new ThreadRef(5, 9, "pool-2-thread-7"), List.of())).isEqualTo("pool-2-thread-*");
        assertThat(VirtualThreads.poolOf(new ThreadRef(5, 9, "main"), List.of())).isEqualTo("main");
        assertThat(VirtualThreads.poolOf(new ThreadRef(31, 0, "vt-worker-12 (virtual#31)"), List.of())).isEqualTo("vt-worker-* (virtual)");
        // unnamed virtual threads of an executor: by the root of their task
        List<String> stack = List.of("java.util.concurrent.locks.LockSupport.park", "app.Handler.handle:12", "app.Handler.run:5",
                "java.util.concurrent.ThreadPerTaskExecutor$TaskRunner.run:314", "java.lang.VirtualThread.run:466");
        assertThat(VirtualThreads.poolOf(new ThreadRef(40, 0, "virtual#40"), stack)).isEqualTo("virtual: app.Handler.run");
        assertThat(VirtualThreads.poolOf(new ThreadRef(41, 0, "virtual#41"), stack))
                .isEqualTo(VirtualThreads.poolOf(new ThreadRef(40, 0, "virtual#40"), stack));
        // a task given as a lambda: by the lambda's body, not its hidden class, whose name changes every run
        List<String> lambda = List.of("app.Server.lambda$serve$0:40", "app.Server$$Lambda.0x000000001f086450.run:-1",
                "java.util.concurrent.ThreadPerTaskExecutor$TaskRunner.run:314", "java.lang.VirtualThread.run:466");
        assertThat(VirtualThreads.poolOf(new ThreadRef(42, 0, "virtual#42"), lambda)).isEqualTo("virtual: app.Server.lambda$serve$0");
        assertThat(VirtualThreads.isVirtual(new ThreadRef(5, 9, "pool-2-thread-7"))).isFalse();
    }

    private static MonitorEnter wait(ThreadRef t, String monitorClass, long end) {
        return new MonitorEnter(t, monitorClass, 5, end - 5, end, VirtualThreads.PREVIOUS_ACQUIRER, List.of("x.Y.z:1"));
    }
}
