package dev.lockscope.cli;

import dev.lockscope.analysis.jfr.ReadingProgress;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * One updating line on stderr while a recording is read, once the reading has taken
 * {@link #AFTER_NANOS}: {@code lockscope: reading run.jfr: 3.1 of 7.3 MB}, rewritten in place and
 * erased when the reading ends (before anything else is printed). Only when stderr is a terminal:
 * a log or a pipe gets nothing.
 */
final class ProgressLine implements ReadingProgress.Listener {
    static final long AFTER_NANOS = 2_000_000_000L;
    /** At most this often: a terminal need not redraw for every few thousand events. */
    private static final long EVERY_NANOS = 200_000_000L;

    private final PrintStream err;
    private final boolean terminal;
    private final LongSupplier clock;
    private Path file;
    private long startNanos;
    private long shownNanos;
    private int shownLength;

    ProgressLine(PrintStream err, boolean terminal, LongSupplier clock) {
        this.err = err;
        this.terminal = terminal;
        this.clock = clock;
    }

    /** Shows the progress of every reading from now on, when stderr is a terminal. */
    static void start() {
        if (stderrIsTerminal()) {
            ReadingProgress.listen(new ProgressLine(System.err, true, System::nanoTime));
        }
    }

    static void stop() {
        ReadingProgress.listen(null);
    }

    /** Whether a reading that has run {@code elapsedNanos} shows its progress. */
    static boolean shows(boolean stderrIsTerminal, long elapsedNanos) {
        return stderrIsTerminal && elapsedNanos >= AFTER_NANOS;
    }

    /**
     * Whether stderr is a terminal: on Linux, what file descriptor 2 is ({@code /dev/pts/N} or a
     * {@code /dev/tty}); elsewhere whether the JVM has a console (stdin and stdout a terminal).
     */
    static boolean stderrIsTerminal() {
        Path fd2 = Path.of("/proc/self/fd/2");
        if (Files.exists(fd2, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            try {
                return isTerminalDevice(Files.readSymbolicLink(fd2).toString());
            } catch (IOException | UnsupportedOperationException e) {
                return false;
            }
        }
        return System.console() != null;
    }

    static boolean isTerminalDevice(String device) {
        return device.startsWith("/dev/pts/") || device.startsWith("/dev/tty") || device.equals("/dev/console");
    }

    static String line(Path file, long bytesRead, long fileBytes) {
        return String.format(Locale.ROOT, "lockscope: reading %s: %.1f of %.1f MB", file.getFileName(),
                bytesRead / 1e6, fileBytes / 1e6);
    }

    @Override
    public void reading(Path path, long bytesRead, long fileBytes) {
        long now = clock.getAsLong();
        if (!path.equals(file)) {
            file = path;
            startNanos = now;
            shownNanos = now - EVERY_NANOS;
        }
        if (!shows(terminal, now - startNanos) || now - shownNanos < EVERY_NANOS) {
            return;
        }
        shownNanos = now;
        String text = line(path, bytesRead, fileBytes);
        err.print("\r" + text + " ".repeat(Math.max(0, shownLength - text.length())));
        err.flush();
        shownLength = text.length();
    }

    @Override
    public void done(Path path) {
        if (shownLength > 0) {
            err.print("\r" + " ".repeat(shownLength) + "\r");
            err.flush();
        }
        file = null;
        shownLength = 0;
    }
}
