package dev.lockscope.report.model;

import dev.lockscope.analysis.model.CarrierMount;
import dev.lockscope.analysis.model.Interval;
import dev.lockscope.analysis.model.RecordingInfo;
import dev.lockscope.analysis.model.ThreadRef;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Virtual threads' rows say when they ran on which carrier (recordings made with --sched, JDK 21+). */
class ThreadTimelineMountsTest {
    private static final long MS = 1_000_000;
    private static final long START = 1_700_000_000_000_000_000L;
    /** The agent's System.nanoTime is this much behind the recording's epoch time. */
    private static final long OFFSET = START - 5_000 * MS;

    @Test
    void mountedSpansGoOnTheVirtualThreadsRowWithTheirCarrier() {
        ThreadTimeline timeline = new ThreadTimeline();
        ThreadRef vt31 = new ThreadRef(31, 0, "virtual#31", true);
        timeline.sleep(new Interval("jdk.ThreadSleep", vt31, START + 10 * MS, START + 20 * MS, List.of()));
        timeline.carrierMount(mount(21, 31, 5, 10));
        timeline.carrierMount(mount(22, 31, 20, 30));
        timeline.carrierMount(mount(21, 32, 30, 40)); // a virtual thread with no other event gets a row too
        Timeline t = timeline.build(new RecordingInfo(null, START, START + 100 * MS,
                Map.of(21L, new ThreadRef(21, 4001, "ForkJoinPool-1-worker-1"))));
        assertThat(spans(t, "virtual#31")).containsExactly("5-10 mounted ForkJoinPool-1-worker-1", "10-20 sleeping",
                "20-30 mounted carrier #22");
        assertThat(spans(t, "virtual#32")).containsExactly("30-40 mounted ForkJoinPool-1-worker-1");
        // mounted is on a carrier, not off-CPU: the thread that slept comes first
        assertThat(t.threads().get(0).name()).isEqualTo("virtual#31");
        assertThat(t.states()).contains("mounted");
    }

    private static CarrierMount mount(long carrier, long virtual, long fromMs, long toMs) {
        return new CarrierMount(carrier, virtual, 5_000 * MS + fromMs * MS, 5_000 * MS + toMs * MS, OFFSET, 0);
    }

    private static List<String> spans(Timeline timeline, String thread) {
        List<String> out = new ArrayList<>();
        for (Timeline.Track t : timeline.threads()) {
            if (t.name().equals(thread)) {
                long[] s = t.spans();
                for (int i = 0; i < s.length; i += 4) {
                    String state = timeline.states().get((int) s[i + 2]);
                    int label = (int) s[i + 3];
                    String what = label < 0 ? "" : " " + (state.equals("mounted") ? timeline.carriers() : timeline.locks()).get(label);
                    out.add(s[i] / 1000 + "-" + s[i + 1] / 1000 + " " + state + what);
                }
            }
        }
        return out;
    }
}
