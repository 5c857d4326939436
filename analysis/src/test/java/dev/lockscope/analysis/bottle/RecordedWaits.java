package dev.lockscope.analysis.bottle;

import dev.lockscope.analysis.model.RecordingException;
import dev.lockscope.analysis.model.RecordingReader;

import java.nio.file.Path;
import java.util.List;

/** Test helper: a recording's waits on a scheduling trace's time line, read by themselves. */
final class RecordedWaits {
    private RecordedWaits() {
    }

    static List<WaitInterval> of(Path recording, long epochOffsetNanos) throws RecordingException {
        JfrWaits waits = new JfrWaits();
        RecordingReader.read(recording, waits);
        return waits.intervals(epochOffsetNanos);
    }
}
