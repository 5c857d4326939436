package dev.lockscope.cli;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/** The progress line's decisions: a terminal and two seconds of reading; the clock here is the test's, not time. */
class ProgressLineTest {
    private static final long S = 1_000_000_000L;

    @Test
    void showsOnlyOnATerminalAfterTwoSeconds() {
        assertThat(ProgressLine.shows(true, 2 * S)).isTrue();
        assertThat(ProgressLine.shows(true, 2 * S - 1)).isFalse();
        assertThat(ProgressLine.shows(false, 60 * S)).isFalse();
    }

    @Test
    void terminalDevices() {
        assertThat(ProgressLine.isTerminalDevice("/dev/pts/3")).isTrue();
        assertThat(ProgressLine.isTerminalDevice("/dev/tty1")).isTrue();
        assertThat(ProgressLine.isTerminalDevice("pipe:[123]")).isFalse();
        assertThat(ProgressLine.isTerminalDevice("/tmp/out.log")).isFalse();
        assertThat(ProgressLine.isTerminalDevice("/dev/null")).isFalse();
    }

    /** Surefire's forked JVM writes stderr to a pipe or file: no terminal, so the CLI shows nothing. */
    @Test
    void thisTestsStderrIsNoTerminal() {
        assertThat(ProgressLine.stderrIsTerminal()).isFalse();
    }

    private static String feed(boolean terminal) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        AtomicLong now = new AtomicLong();
        ProgressLine line = new ProgressLine(new PrintStream(out, true, StandardCharsets.UTF_8), terminal, now::get);
        Path file = Path.of("/recordings/run.jfr");
        line.reading(file, 0, 7_300_000);
        now.set(S);
        line.reading(file, 1_000_000, 7_300_000); // under two seconds: nothing yet
        now.set(3 * S);
        line.reading(file, 3_100_000, 7_300_000);
        line.done(file);
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void oneLineRewrittenInPlaceAndErased() {
        String shown = feed(true);
        String text = "lockscope: reading run.jfr: 3.1 of 7.3 MB";
        assertThat(shown).isEqualTo("\r" + text + "\r" + " ".repeat(text.length()) + "\r");
    }

    @Test
    void nothingWhenStderrIsNoTerminal() {
        assertThat(feed(false)).isEmpty();
    }
}
