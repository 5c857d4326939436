package dev.lockscope.analysis.blame;

import dev.lockscope.analysis.model.ThreadRef;
import dev.lockscope.core.LockId;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The conditional waits of the report: the application's, not the profiler's own. */
class WaitRowTest {
    private static final ThreadRef APP = new ThreadRef(11, 1, "worker");
    private static final ThreadRef EXIT = new ThreadRef(16, 2, "lockscope-exit");
    private static final ThreadRef OTHER = new ThreadRef(12, 3, "other");

    @Test
    void theProfilersOwnWaitsAreNoRows() {
        WaitRecord app = new WaitRecord(LockId.monitor("app.Queue", 0x10), APP,
                List.of("java.lang.Object.wait:-1", "app.Queue.take:5"), OTHER, List.of(), 1, 5_000_000L, 0, 0, 5_000_000L);
        WaitRecord join = new WaitRecord(LockId.monitor("java.lang.Thread", 0x20), EXIT,
                List.of("java.lang.Object.wait:-1", "java.lang.Thread.join:1300",
                        "dev.lockscope.agent.RecordingSession.stop:400"), OTHER, List.of(), 1, 2_000_000L, 0, 0, 2_000_000L);
        assertThat(WaitRow.of(List.of(app, join), ChainView.FILTERED)).extracting(WaitRow::waiterThread).containsExactly(APP);
    }
}
