package dev.lockscope.report.export;

import dev.lockscope.core.LockMetrics;
import dev.lockscope.report.model.Report;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The pprof export read by the Go toolchain's own reader: an integration test, as {@code go tool pprof}
 * runs in a child process (and builds itself on its first run, which takes minutes).
 */
class GoToolPprofIT {
    private final Report report = Recordings.report(Recordings.small());

    /** The Go toolchain's own reader, when go is installed (it is on lockscope's development machines). */
    @Test
    void goToolPprofReadsTheProfileWithTheSameTotals(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        String go = java.util.stream.Stream.of(System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator))
                .map(d -> java.nio.file.Path.of(d, "go")).filter(java.nio.file.Files::isExecutable)
                .map(java.nio.file.Path::toString).findFirst().orElse(null);
        org.junit.jupiter.api.Assumptions.assumeTrue(go != null, "go not installed: go tool pprof check skipped");
        java.nio.file.Path file = java.nio.file.Files.write(dir.resolve("wait.pb.gz"), PprofProfile.render(report.contention(), report.blame(), Side.waiter));
        Process p = new ProcessBuilder(go, "tool", "pprof", "-raw", file.toString()).redirectErrorStream(true).start();
        String raw = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(raw).isZero();
        long nanos = 0, count = 0;
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?m)^\\s+(\\d+)\\s+(\\d+): ").matcher(raw);
        while (m.find()) {
            nanos += Long.parseLong(m.group(1));
            count += Long.parseLong(m.group(2));
        }
        assertThat(raw).contains("wait/nanoseconds[dflt] contentions/count", "thread:[worker-a]");
        assertThat(nanos).isEqualTo(report.contention().locks().stream().mapToLong(LockMetrics::totalWaitNanos).sum());
        assertThat(count).isEqualTo(4);
    }
}
