package dev.lockscope.sched;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class WindowPackingTest {
    /** Replays transitions: per-tid running time, and the most threads running at once. */
    static long[] replay(List<Transition> ts, Map<Integer, Long> runningTime) {
        Map<Integer, Long> since = new HashMap<>();
        int running = 0;
        int max = 0;
        for (Transition t : ts) {
            if (t.state() == ThreadState.RUNNING) {
                assertThat(since).as("thread %d started twice", t.tid()).doesNotContainKey(t.tid());
                since.put(t.tid(), t.nanos());
                max = Math.max(max, ++running);
            } else {
                long s = since.remove(t.tid());
                runningTime.merge(t.tid(), t.nanos() - s, Long::sum);
                running--;
            }
        }
        return new long[] {max};
    }

    @Test
    void keepsEachThreadsTime_neverOverlapsAThreadWithItself_andUsesAtMostCpusLanes() {
        Random rnd = new Random(1);
        for (int round = 0; round < 500; round++) {
            int cpus = 1 + rnd.nextInt(4);
            long window = 1000;
            Map<Integer, Long> ran = new LinkedHashMap<>();
            long budget = cpus * window;
            for (int tid = 1; tid <= 6; tid++) {
                long d = Math.min(window, Math.min(budget, rnd.nextInt(1200)));
                budget -= d;
                if (d > 0) {
                    ran.put(tid, d);
                }
            }
            Map<Integer, Long> got = new HashMap<>();
            long[] max = replay(WindowPacking.pack(5000, window, cpus, ran), got);
            assertThat(got).isEqualTo(ran);
            assertThat(max[0]).isLessThanOrEqualTo(cpus);
        }
    }

    @Test
    void convoyThatFillsOneWindowIsSerial() {
        Map<Integer, Long> ran = new LinkedHashMap<>(Map.of(1, 300L, 2, 300L, 3, 400L));
        Map<Integer, Long> got = new HashMap<>();
        assertThat(replay(WindowPacking.pack(0, 1000, 2, ran), got)[0]).isEqualTo(1);
    }

    @Test
    void twoFullThreadsGetOneLaneEach() {
        Map<Integer, Long> ran = new LinkedHashMap<>(Map.of(1, 1000L, 2, 1000L));
        Map<Integer, Long> got = new HashMap<>();
        assertThat(replay(WindowPacking.pack(0, 1000, 2, ran), got)[0]).isEqualTo(2);
        assertThat(got).isEqualTo(ran);
    }
}
