package dev.lockscope.analysis.blame;

import dev.lockscope.analysis.model.LockRecording;

/**
 * Owner blame (seed 001 chapter 4): turns a recording into contention records, each blamed on the
 * thread that held the lock and the call chain in which it held it, plus conditional waits kept apart.
 * A pure function of the recording: the same recording always gives the same result.
 */
public final class BlameAnalysis {
    private BlameAnalysis() {
    }

    public static BlameResult analyze(LockRecording recording) {
        BlameCollector out = new BlameCollector();
        ParkBlame.analyze(recording, out);
        MonitorBlame.analyze(recording, out);
        return out.result();
    }
}
