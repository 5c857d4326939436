package dev.lockscope.analysis.bottle;

import dev.lockscope.analysis.model.CarrierMount;
import dev.lockscope.analysis.model.ThreadRef;
import dev.lockscope.sched.SchedSource;
import dev.lockscope.sched.SchedTrace;
import dev.lockscope.sched.ThreadState;
import dev.lockscope.sched.Transition;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import static dev.lockscope.analysis.bottle.TestVectorsTest.box;
import static dev.lockscope.analysis.bottle.TestVectorsTest.q;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Carriers split among the virtual threads they ran, on hand-built schedules with exact answers:
 * main [0,2); both carriers [2,6); carrier 1 alone [6,8); main [8,10). Carrier 1 runs v1 in [2,5) and v3
 * in [5,7) (an unmount and a mount at one instant) and nothing in [7,8); carrier 2 runs v2 in [2,6).
 */
class VirtualThreadBottleTest {
    private final Schedule schedule = new Schedule().step(2, "main")
            .step(4, "ForkJoinPool-1-worker-1", "ForkJoinPool-1-worker-2")
            .step(2, "ForkJoinPool-1-worker-1").step(2, "main");
    private final int c1 = schedule.id("ForkJoinPool-1-worker-1");
    private final int c2 = schedule.id("ForkJoinPool-1-worker-2");

    private VirtualThreadMounts mounts() {
        return new VirtualThreadMounts(List.of(
                new VirtualThreadMounts.Mount(c1, -1, 2, 5),
                new VirtualThreadMounts.Mount(c2, -2, 2, 6),
                new VirtualThreadMounts.Mount(c1, -3, 5, 7)),
                Map.of(-1, "virtual: app.Handler.run", -2, "virtual: app.Handler.run", -3, "vt-worker-* (virtual)"), 0);
    }

    @Test
    void eachVirtualThreadGetsTheCarrierTimeItWasMountedForExactly() {
        BottleCalculator.Result r = BottleCalculator.compute(schedule.transitions(), List.of(), 0, 10, 64, mounts());
        assertThat(r.tallies().get(-1).share()).isEqualTo(q(3, 2)); // [2,5) beside carrier 2
        assertThat(r.tallies().get(-1).running()).isEqualTo(3);
        assertThat(r.tallies().get(-2).share()).isEqualTo(q(2));
        assertThat(r.tallies().get(-2).running()).isEqualTo(4);
        assertThat(r.tallies().get(-3).share()).isEqualTo(q(3, 2)); // [5,6) beside carrier 2, [6,7) alone
        assertThat(r.tallies().get(-3).running()).isEqualTo(2);
        assertThat(r.tallies().get(c1).running()).as("carrier 1 keeps [7,8)").isEqualTo(1);
        assertThat(r.tallies().get(c1).share()).isEqualTo(q(1));
        assertThat(r.tallies()).doesNotContainKey(c2); // mounted whenever it ran
    }

    @Test
    void virtualThreadsOfOnePoolAreOneBoxAndNothingIsCountedTwice() {
        BottleGraph plain = schedule.graph();
        BottleGraph split = BottleGraphs.whole(schedule.trace(), ThreadClassifier.defaults(), mounts());
        box(split, "virtual: app.Handler.run", q(7, 2), q(7), q(2));
        box(split, "vt-worker-* (virtual)", q(3, 2), q(2), q(4, 3));
        box(split, "ForkJoinPool-1-worker-1", q(1), q(1), q(1));
        box(split, "main", q(4), q(4), q(1));
        assertThat(split.threads()).extracting(ThreadBox::name).doesNotContain("ForkJoinPool-1-worker-2");
        ThreadBox handlers = split.threads().stream().filter(b -> b.name().equals("virtual: app.Handler.run")).findFirst().orElseThrow();
        assertThat(handlers.virtualThreads()).isEqualTo(2);
        assertThat(handlers.osTid()).isNegative();
        // the same busy time and total running time as the carriers' own boxes without the split
        assertThat(split.busyNanos()).isEqualTo(plain.busyNanos());
        assertThat(total(split)).isEqualTo(total(plain)).isEqualTo(q(14));
        Rational carriersBefore = plain.threads().stream().filter(b -> b.name().startsWith("ForkJoinPool"))
                .map(ThreadBox::running).reduce(Rational.ZERO, Rational::plus);
        Rational carriersAndVirtualAfter = split.threads().stream().filter(b -> !b.name().equals("main"))
                .map(ThreadBox::running).reduce(Rational.ZERO, Rational::plus);
        assertThat(carriersAndVirtualAfter).isEqualTo(carriersBefore).isEqualTo(q(10));
        // a group box of virtual threads counts the threads, not the box
        assertThat(split.groups()).filteredOn(gb -> gb.name().equals("virtual: app.Handler.run"))
                .singleElement().extracting(GroupBox::threads).isEqualTo(2);
    }

    @Test
    void userGroupsMatchTheVirtualThreadsPool() {
        ThreadClassifier handlers = new ThreadClassifier(Map.of("handlers", Pattern.compile("Handler")));
        BottleGraph split = BottleGraphs.whole(schedule.trace(), handlers, mounts());
        assertThat(split.threads()).filteredOn(b -> b.name().equals("virtual: app.Handler.run"))
                .singleElement().extracting(ThreadBox::group).isEqualTo("handlers");
    }

    @Test
    void aCarrierPreemptedWhileRunningAVirtualThreadIsThatThreadsPreemption() {
        List<Transition> t = List.of(new Transition(0, 7, ThreadState.RUNNING), new Transition(4, 7, ThreadState.RUNNABLE),
                new Transition(6, 7, ThreadState.RUNNING), new Transition(10, 7, ThreadState.BLOCKED));
        SchedTrace trace = new SchedTrace(SchedSource.PERF, null, 1, 64, 0, 10, Map.of(7, "ForkJoinPool-1-worker-1"), t, List.of());
        VirtualThreadMounts m = new VirtualThreadMounts(List.of(new VirtualThreadMounts.Mount(7, -1, 1, 8)),
                Map.of(-1, "virtual"), 3);
        BottleGraph g = BottleGraphs.whole(trace, ThreadClassifier.defaults(), m);
        ThreadBox vt = g.threads().stream().filter(ThreadBox::isVirtual).findFirst().orElseThrow();
        assertThat(vt.running()).isEqualTo(q(5)); // [1,4) and [6,8)
        assertThat(vt.preemptedNanos()).isEqualTo(2); // [4,6)
        ThreadBox carrier = g.threads().stream().filter(b -> !b.isVirtual()).findFirst().orElseThrow();
        assertThat(carrier.running()).isEqualTo(q(3)); // [0,1) and [8,10)
        assertThat(g.approximateReason()).contains("3 mount intervals of virtual threads were lost");
    }

    @Test
    void slicesSplitTheSameWay() {
        List<BottleGraph> slices = BottleGraphs.slices(schedule.trace(), ThreadClassifier.defaults(), 5, mounts());
        // [0,5): v1 3 of its 3; [5,10): v3 2
        box(slices.get(0), "virtual: app.Handler.run", q(3, 2).plus(q(3, 2)), q(6), q(2));
        box(slices.get(1), "vt-worker-* (virtual)", q(3, 2), q(2), q(4, 3));
    }

    @Test
    void mountsAreResolvedToCarriersOsThreadsAndPoolsOfTheirTasks() {
        Map<Long, ThreadRef> threads = Map.of(
                21L, new ThreadRef(21, 4001, "ForkJoinPool-1-worker-1"),
                22L, new ThreadRef(22, 0, "no-os-thread"),
                31L, new ThreadRef(31, 0, "virtual#31", true),
                33L, new ThreadRef(33, 0, "vt-worker-7 (virtual#33)", true));
        List<CarrierMount> raw = List.of(
                new CarrierMount(21, 31, 100, 200, 0, 0),
                new CarrierMount(21, 32, 200, 300, 0, 2),
                new CarrierMount(21, 33, 300, 400, 0, 0),
                new CarrierMount(22, 31, 100, 200, 0, 1));
        Map<Long, List<String>> stacks = Map.of(31L, List.of("java.lang.Thread.sleep:1", "app.Handler.handle:12",
                "app.Handler.run:5", "java.lang.VirtualThread.run:300"));
        VirtualThreadMounts m = CarrierMountCollector.resolve(raw, threads, stacks);
        assertThat(m.mounts()).extracting(VirtualThreadMounts.Mount::carrierTid).containsOnly(4001);
        assertThat(m.mounts()).hasSize(3); // the carrier without an OS thread id keeps its time
        assertThat(m.lostIntervals()).isEqualTo(3);
        assertThat(m.poolOf(m.mounts().get(0).virtualKey())).isEqualTo("virtual: app.Handler.run");
        assertThat(m.poolOf(m.mounts().get(1).virtualKey())).isEqualTo("virtual"); // no stack, no name
        assertThat(m.poolOf(m.mounts().get(2).virtualKey())).isEqualTo("vt-worker-* (virtual)");
    }

    private static Rational total(BottleGraph g) {
        return g.threads().stream().map(ThreadBox::running).reduce(Rational.ZERO, Rational::plus);
    }
}
