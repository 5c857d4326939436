package dev.lockscope.report.stream;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The analyses behind {@code lockscope report} keep state bounded by threads, locks and stacks, never
 * by the number of events: two million synthetic rounds (about eight million events) go through all
 * of them in a JVM with a 64 MB heap. Kept as records, the parks alone would need several hundred MB.
 */
class BoundedHeapIT {
    private static final long ROUNDS = 2_000_000;

    @Test
    void manyEventsFitAFixedHeap() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(List.of(java, "-Xmx64m", "-XX:+ExitOnOutOfMemoryError",
                "-cp", System.getProperty("java.class.path"), SyntheticStream.class.getName(), Long.toString(ROUNDS)))
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(5, TimeUnit.MINUTES)).as("finished").isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        // the sweep ranks lock sites: the 4 blockers are first waited for at 2 sites (put, get), and the monitor
        // each park is split at its release: the owner's span, then the unowned tail; plus every 8th round a monitor wait
        assertThat(out).contains("parks " + ROUNDS, "contention spans " + (2 * ROUNDS + ROUNDS / 8),
                "timeline threads " + SyntheticStream.THREADS, "sweep locks " + 3);
    }
}
