package dev.lockscope.cli;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;

import static org.assertj.core.api.Assertions.assertThat;

/** A heap too small for a command is one line naming LOCKSCOPE_JAVA_OPTS and exit 1, never a stack trace. */
class OutOfMemoryLineTest {
    @Command(name = "exhaust")
    static final class Exhaust implements Callable<Integer> {
        private final boolean wrapped;

        Exhaust(boolean wrapped) {
            this.wrapped = wrapped;
        }

        @Override
        public Integer call() {
            OutOfMemoryError oom = new OutOfMemoryError("Java heap space");
            if (wrapped) {
                throw new IllegalStateException("reading failed", oom); // as a library that catches Throwable would
            }
            throw oom;
        }
    }

    private static String[] run(boolean wrapped) {
        PrintStream oldErr = System.err;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try {
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            CommandLine cli = new CommandLine(new LockscopeCli()).addSubcommand("exhaust", new Exhaust(wrapped));
            int code = LockscopeCli.execute(cli, "exhaust");
            return new String[] {String.valueOf(code), err.toString(StandardCharsets.UTF_8)};
        } finally {
            System.setErr(oldErr);
        }
    }

    @Test
    void outOfMemoryIsOneLineAndExit1() {
        for (boolean wrapped : new boolean[] {false, true}) {
            String[] r = run(wrapped);
            assertThat(r[0]).isEqualTo("1");
            assertThat(r[1]).endsWith("\n").doesNotContain("\tat ").doesNotContain("Exception");
            assertThat(r[1].strip()).doesNotContain("\n").startsWith("lockscope: out of memory")
                    .contains("LOCKSCOPE_JAVA_OPTS=-Xmx");
        }
    }

    @Test
    void theLineSuggestsMoreThanTheHeapItHad() {
        assertThat(LockscopeCli.outOfMemory(256L << 20)).contains("heap of 256 MB", "LOCKSCOPE_JAVA_OPTS=-Xmx1g");
        assertThat(LockscopeCli.outOfMemory(3L << 30)).contains("heap of 3072 MB", "LOCKSCOPE_JAVA_OPTS=-Xmx8g");
    }
}
