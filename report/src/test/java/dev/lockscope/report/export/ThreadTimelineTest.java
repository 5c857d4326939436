package dev.lockscope.report.export;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lockscope.analysis.model.LockRecording;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ThreadTimelineTest {
    private final LockRecording recording = Recordings.small();
    private final JsonNode timeline = Recordings.document(recording, List.of(new ThreadTimeline())).get("timeline");

    private List<String> spans(String thread) {
        List<String> out = new ArrayList<>();
        for (JsonNode t : timeline.get("threads")) {
            if (t.get("name").asText().equals(thread)) {
                JsonNode s = t.get("spans");
                for (int i = 0; i < s.size(); i += 4) {
                    int lock = s.get(i + 3).asInt();
                    out.add(s.get(i).asLong() / 1000 + "-" + s.get(i + 1).asLong() / 1000 + " "
                            + timeline.get("states").get(s.get(i + 2).asInt()).asText()
                            + (lock < 0 ? "" : " " + timeline.get("locks").get(lock).asText()));
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
        assertThat(timeline.get("threads").get(0).get("name").asText()).isEqualTo("worker-a"); // 60 ms parked
        assertThat(timeline.get("durationMicros").asLong()).isEqualTo(200_000);
    }
}
