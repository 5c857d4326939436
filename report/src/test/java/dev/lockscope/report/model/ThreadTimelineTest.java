package dev.lockscope.report.model;

import dev.lockscope.analysis.model.LockRecording;
import dev.lockscope.report.export.Recordings;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ThreadTimelineTest {
    private final LockRecording recording = Recordings.small();
    private final Timeline timeline = Recordings.report(recording).timeline();

    private List<String> spans(String thread) {
        List<String> out = new ArrayList<>();
        for (Timeline.Track t : timeline.threads()) {
            if (t.name().equals(thread)) {
                long[] s = t.spans();
                for (int i = 0; i < s.length; i += 4) {
                    int lock = (int) s[i + 3];
                    out.add(s[i] / 1000 + "-" + s[i + 1] / 1000 + " " + timeline.states().get((int) s[i + 2])
                            + (lock < 0 ? "" : " " + timeline.locks().get(lock)));
                }
            }
        }
        return out;
    }

    @Test
    void statesOfEachThreadInTimeOrderWithTheirLocks() {
        assertThat(spans("worker-a")).containsExactly("0-30 parked " + Recordings.LOCK + "@abc",
                "70-100 parked " + Recordings.LOCK + "@abc");
        assertThat(spans("worker-c")).containsExactly("20-25 blocked com.example.Cache@7f00", "30-40 sleeping",
                "40-45 waiting com.example.Cache@7f00");
    }

    @Test
    void cpuSamplesLastOneSamplingPeriodAndAdjacentOnesMerge() {
        // samples at 60, 80, 100 ms: period 20 ms, so running 60..120 ms as one span
        assertThat(spans("worker-b")).containsExactly("10-60 parked " + Recordings.LOCK + "@abc", "60-120 running");
    }

    @Test
    void threadsWithTheMostTimeOffCpuComeFirst() {
        assertThat(timeline.threads().get(0).name()).isEqualTo("worker-a"); // 60 ms parked
        assertThat(timeline.durationMicros()).isEqualTo(200_000);
    }
}
