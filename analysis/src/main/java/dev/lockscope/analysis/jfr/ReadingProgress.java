package dev.lockscope.analysis.jfr;

import java.nio.file.Path;

/**
 * How far the reading of a recording has got, for a progress line: {@link JfrFile} says where each
 * chunk starts, the reader how far through a chunk's events it is, and the one listener (the CLI's
 * progress line) hears it on the reading thread. Without a listener a report costs a volatile read
 * per chunk and per few thousand events.
 *
 * <p>The position is the reading thread's own (set and read there only); one reading is shown at a
 * time, as lockscope reads the recordings of one command one after another.
 */
public final class ReadingProgress {
    /** Told of a reading's progress, on the reading thread. */
    public interface Listener {
        /** {@code bytesRead} of the {@code fileBytes} of {@code file} are read: often, so keep it cheap. */
        void reading(Path file, long bytesRead, long fileBytes);

        /** The reading of {@code file} ended, read or failed. */
        void done(Path file);
    }

    private static volatile Listener listener;
    private static Path file;
    private static long fileBytes;
    private static long chunkStart;
    private static long chunkSize;

    private ReadingProgress() {
    }

    /** Hands every reading's progress to {@code l} from now on (null: to nobody). */
    public static void listen(Listener l) {
        listener = l;
    }

    static void chunk(Path path, long start, long size, long length) {
        Listener l = listener;
        if (l != null) {
            file = path;
            fileBytes = length;
            chunkStart = start;
            chunkSize = size;
            l.reading(path, start, length);
        }
    }

    /** The reader is {@code fraction} (0 to 1) through the events of the chunk {@link JfrFile} handed it last. */
    public static void throughChunk(double fraction) {
        Listener l = listener;
        if (l != null && file != null) {
            l.reading(file, chunkStart + (long) (chunkSize * fraction), fileBytes);
        }
    }

    static void done(Path path) {
        Listener l = listener;
        file = null;
        if (l != null) {
            l.done(path);
        }
    }
}
