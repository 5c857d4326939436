package dev.lockscope.agent;

import jdk.jfr.FlightRecorder;
import jdk.jfr.RecordingState;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

class MonitorContentionTest {
    /**
     * The stream's recording runs before the agent's start returns, so the chunk rotation of its start falls
     * before the application's main and splits none of its monitor entries (whose call chains it lost).
     */
    @Test
    void theStreamsRecordingRunsWhenTheConstructorReturns() {
        try (MonitorContention monitors = new MonitorContention(Duration.ofMillis(1), 10, false)) {
            assertThat(monitors.started()).as("started, not given up on after %s", MonitorContention.START_WAIT).isTrue();
            assertThat(FlightRecorder.getFlightRecorder().getRecordings())
                    .anyMatch(r -> r.getState() == RecordingState.RUNNING);
        }
    }
}
