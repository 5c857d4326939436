package dev.lockscope.bench;

import dev.lockscope.analysis.profile.CallTree;
import dev.lockscope.analysis.profile.ProfileSimilarity;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class AsyncProfilerWallTest {
    private static final String RUN = "java.lang.Thread.run";
    private static final String TASK = "app.Work$$Lambda.run";
    private static final String COMPUTE = "app.Work.compute";
    private static final String PARK = "java.util.concurrent.locks.LockSupport.park";

    /** jfrconv --wall --threads --dot -o collapsed, in the shapes JDK 17 and 25 runs gave. */
    private static final List<String> COLLAPSED = List.of(
            "[bench-0 tid=101];java.lang.Thread.run_[j];app.Work$$Lambda$145.0x00007f5600143190.run_[j];app.Work.compute_[i] 30",
            "[bench-3 tid=104];java.lang.Thread.run_[0];app.Work$$Lambda$145.0x00007f5600143190.run_[1];"
                    + "java.util.concurrent.locks.LockSupport.park_[j];jdk.internal.misc.Unsafe.park_[j] 10",
            "[bench-3 tid=104];unknown_Java 5",
            "[bench-0 tid=101];java.lang.Thread.run_[j];app.Work$$Lambda$145.0x00007f5600143190.run_[j];app.Work.compute_[j];"
                    + "os::javaTimeNanos;clock_gettime@@GLIBC_2.17;[vdso]_[k] 4",
            "[C2 CompilerThre tid=12];thread_native_entry;CompileBroker::compiler_thread_loop 50",
            "[tid=13];no_Java_frame 2",
            "");

    @Test
    void samplesAreGroupedByPoolWithOnlyTheirJavaFramesAndTheUnwalkableCountedApart() {
        AsyncProfilerWall.Profile p = AsyncProfilerWall.parseCollapsed(COLLAPSED);

        assertThat(p.byGroup()).containsOnlyKeys("bench-*");
        assertThat(p.byGroup().get("bench-*").edgeWeights()).containsExactly(
                Map.entry(List.of(RUN, TASK, COMPUTE), 34L),
                Map.entry(List.of(RUN, TASK, PARK), 10L));
        assertThat(p.samples("bench-*")).isEqualTo(44);
        assertThat(p.unwalkableByGroup()).containsExactly(Map.entry("", 2L), Map.entry("C* CompilerThre", 50L),
                Map.entry("bench-*", 5L));
        assertThat(p.unwalkable("bench-*")).isEqualTo(5);
    }

    @Test
    void lockscopesWaitLeavesAndTheJdksBlockingNativesAreDropped() {
        assertThat(AsyncProfilerWall.comparablePath(List.of(RUN, PARK, "[parked on java.util.concurrent.locks.ReentrantLock$NonfairSync]")))
                .containsExactly(RUN, PARK);
        assertThat(AsyncProfilerWall.comparablePath(List.of(RUN, "app.Queue.take", "java.lang.Object.wait", "java.lang.Object.wait0",
                "[Object.wait on app.Queue]"))).containsExactly(RUN, "app.Queue.take");
        assertThat(AsyncProfilerWall.comparablePath(List.of(RUN, "app.Work.awaitLock", "[blocked on java.lang.Object]")))
                .containsExactly(RUN, "app.Work.awaitLock");
        // a sleep: JDK 17's JFR stack, JDK 25's (it ends at the caller) and async-profiler's on JDK 25 all end at the caller
        assertThat(AsyncProfilerWall.comparablePath(List.of(RUN, "app.Work.nap", "java.lang.Thread.sleep", "[sleeping]")))
                .containsExactly(RUN, "app.Work.nap");
        assertThat(AsyncProfilerWall.comparablePath(List.of(RUN, "app.Work.nap", "[sleeping]"))).containsExactly(RUN, "app.Work.nap");
        assertThat(AsyncProfilerWall.comparablePath(List.of(RUN, "app.Work.nap", "java.lang.Thread.sleep", "java.lang.Thread.sleepNanos",
                "java.lang.Thread.sleepNanos0"))).containsExactly(RUN, "app.Work.nap");
        // a blocking native called from the middle of a path is the caller's business, not a leaf
        assertThat(AsyncProfilerWall.comparablePath(List.of(RUN, "jdk.internal.misc.Unsafe.park", COMPUTE)))
                .containsExactly(RUN, "jdk.internal.misc.Unsafe.park", COMPUTE);
    }

    @Test
    void profilesThatDifferOnlyByConstructionOverlapFully() {
        // lockscope: 34 ms computing, a 10 ms park recorded with its leaf (async-profiler: 34 and 10 samples)
        CallTree<String> lockscope = new CallTree<>();
        lockscope.add(List.of(RUN, TASK, COMPUTE), 34_000_000);
        lockscope.add(List.of(RUN, TASK, PARK, "[parked on java.util.concurrent.locks.ReentrantLock$NonfairSync]"), 10_000_000);
        CallTree<String> asyncProfiler = AsyncProfilerWall.parseCollapsed(COLLAPSED).byGroup().get("bench-*");

        CallTree<String> comparable = AsyncProfilerWall.comparable(lockscope);
        assertThat(ProfileSimilarity.overlap(comparable, asyncProfiler)).isEqualTo(1.0);
        assertThat(ProfileSimilarity.hotEdgeCoverage(comparable, asyncProfiler, 0.1)).isEqualTo(1.0);
        // without the normalisation the park is a path async-profiler does not have: 34/44 in common
        assertThat(ProfileSimilarity.overlap(lockscope, asyncProfiler)).isCloseTo(34.0 / 44, within(1e-15));
    }

    @Test
    void aLineWithoutItsThreadIsRefused() {
        assertThatThrownBy(() -> AsyncProfilerWall.parseCollapsed(List.of("java.lang.Thread.run_[j];app.Work.compute_[j] 3")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--threads");
    }
}
