package dev.lockscope.sched;

import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class PerfScriptParserTest {
    static final long S = 1_000_000_000L;

    static SchedTrace parse(long windowStart, Set<Integer> runningAtStart) throws Exception {
        PerfScriptParser p = new PerfScriptParser(4017, windowStart, 700 * S);
        try (BufferedReader r = new BufferedReader(new InputStreamReader(
                PerfScriptParserTest.class.getResourceAsStream("/perf-script-sample.txt"), StandardCharsets.UTF_8))) {
            p.parse(r);
        }
        return p.trace(2, runningAtStart, Map.of(4036, "Common-Cleaner"), false);
    }

    @Test
    void mapsSwitchForkExitToStates_withNanosecondTimestamps() throws Exception {
        SchedTrace t = parse(698 * S, Set.of());
        assertThat(t.names()).containsEntry(4038, "w1").containsEntry(4020, "GC Thread#0")
                .containsEntry(4036, "Common-Cleaner").doesNotContainKey(5555);
        assertThat(t.transitions()).containsSubsequence(
                new Transition(698_689_723_689L, 4035, ThreadState.RUNNING),
                new Transition(698_689_755_100L, 4035, ThreadState.BLOCKED),
                new Transition(699_440_968_448L, 4019, ThreadState.RUNNABLE),
                new Transition(699_440_985_452L, 4019, ThreadState.RUNNING),
                new Transition(699_447_144_223L, 4038, ThreadState.RUNNING),
                new Transition(699_448_000_000L, 4019, ThreadState.BLOCKED),
                new Transition(699_847_618_184L, 4038, ThreadState.BLOCKED));
        assertThat(t.transitions()).extracting(Transition::tid).doesNotContain(5555); // another process
        assertThat(t.approximate()).isFalse();
    }

    @Test
    void threadWhoseFirstRecordIsOutRanSinceTheWindowStart() throws Exception {
        SchedTrace t = parse(698 * S, Set.of());
        assertThat(t.transitions().get(0)).isEqualTo(new Transition(698 * S, 4019, ThreadState.RUNNING));
        // w1 was forked: its first record is EXIT but it started at the fork, not at the window start
        assertThat(t.transitions()).filteredOn(x -> x.tid() == 4038).hasSize(2);
    }

    @Test
    void threadRunningAtStartWithoutRecordsRunsThroughout() throws Exception {
        SchedTrace t = parse(698 * S, Set.of(4020));
        assertThat(t.transitions()).contains(new Transition(698 * S, 4020, ThreadState.RUNNING));
        assertThat(t.transitions()).filteredOn(x -> x.tid() == 4020).hasSize(1);
    }

    @Test
    void recordsBeforeTheWindowOnlySetTheState() throws Exception {
        SchedTrace t = parse(699 * S, Set.of());
        assertThat(t.transitions()).allSatisfy(x -> assertThat(x.nanos()).isGreaterThanOrEqualTo(699 * S));
    }

    @Test
    void lostRecordsMakeTheTraceApproximate() {
        PerfScriptParser p = new PerfScriptParser(1, 0, 10 * S);
        p.accept("            java     1 [-01]     1.000000000: PERF_RECORD_LOST lost 12");
        assertThat(p.trace(2, Set.of(), Map.of(), false).approximateReason()).contains("lost");
    }

    @Test
    void fileRoundTrip(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        SchedTrace t = parse(698 * S, Set.of(4020));
        SchedTrace withWaits = new SchedTrace(SchedSource.SCHEDSTAT, "tab\there\nand newline", t.pid(), t.cpus(),
                t.startNanos(), t.endNanos(), Map.of(1, "odd\tname\\x"), t.transitions(),
                List.of(new RunQueueWait(699 * S, 1, 42)), 1234);
        java.nio.file.Path f = dir.resolve("x.sched");
        SchedFile.write(withWaits, f);
        assertThat(SchedFile.read(f)).isEqualTo(withWaits);
        assertThat(SchedFile.besideRecording(dir.resolve("run.jfr"))).isEqualTo(dir.resolve("run.sched"));
    }
}
