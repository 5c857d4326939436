package dev.lockscope.report.rules;

import dev.lockscope.analysis.model.RecordingInfo;
import dev.lockscope.core.EventNames;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class EventsSeenTest {
    /**
     * The agent enables the JDK's monitor events: in its recording, none means no thread blocked on or
     * waited in a monitor (an exhausted object pool's run), not events that were never recorded.
     */
    @Test
    void aRecordingOfTheAgentHasTheMonitorEventsEvenWithoutAny() {
        EventsSeen byAgent = new EventsSeen();
        byAgent.finish(new RecordingInfo(Path.of("a.jfr"), 0, 1, Map.of(), List.of(), Set.of(EventNames.PARK)));
        assertThat(byAgent.has(EventNames.MONITOR_ENTER)).isTrue();
        assertThat(byAgent.has(EventNames.MONITOR_WAIT)).isTrue();

        EventsSeen plain = new EventsSeen();
        plain.finish(new RecordingInfo(Path.of("p.jfr"), 0, 1, Map.of(), List.of(), Set.of(EventNames.MONITOR_ENTER)));
        assertThat(plain.has(EventNames.MONITOR_ENTER)).as("a plain JFR recording without one").isFalse();
    }
}
