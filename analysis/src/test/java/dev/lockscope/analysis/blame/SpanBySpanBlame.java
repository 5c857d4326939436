package dev.lockscope.analysis.blame;

import dev.lockscope.analysis.model.LockRecording;

/**
 * Test fixture: owner blame with one entry per span of contention and per wait (count 1,
 * {@code firstBeginNanos} its begin), for tests that check where spans lie in time. Grows with the
 * recording, which is why reports sum by key instead.
 */
public final class SpanBySpanBlame {
    private SpanBySpanBlame() {
    }

    public static BlameResult of(LockRecording recording) {
        BlameAnalysis blame = new BlameAnalysis(new BlameCollector() {
            private long spans;

            @Override
            long span() {
                return ++spans;
            }
        });
        recording.replay(blame);
        return blame.result();
    }
}
