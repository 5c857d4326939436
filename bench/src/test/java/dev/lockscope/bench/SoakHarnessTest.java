package dev.lockscope.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The soak's arithmetic: slopes per hour and the resident bytes of the Java heap's address range. */
class SoakHarnessTest {
    @Test
    void slopeIsPerHourByLeastSquares() {
        // 1 MB more every 10 s, with the middle point 3 MB high: the least-squares slope stays 360 MB/h
        List<double[]> points = List.of(new double[]{0, 100}, new double[]{10, 101}, new double[]{20, 105},
                new double[]{30, 103}, new double[]{40, 104});
        assertThat(SoakHarness.slopePerHour(points, 1)).isCloseTo(360, within(1e-9));
        assertThat(SoakHarness.slopePerHour(List.of(new double[]{5, 1}, new double[]{5, 2}), 1)).isZero();
    }

    @Test
    void residentBytesCountOnlyMappingsInsideTheHeapRange(@TempDir Path dir) throws Exception {
        Path smaps = dir.resolve("smaps");
        Files.writeString(smaps, """
                00400000-00401000 r-xp 00000000 fd:00 123  /usr/bin/java
                Size:                  4 kB
                Rss:                   4 kB
                e0000000-f0000000 rw-p 00000000 00:00 0
                Size:             262144 kB
                Rss:              100000 kB
                VmFlags: rd wr mr mw me ac
                f0000000-100000000 ---p 00000000 00:00 0
                Size:             262144 kB
                Rss:                  28 kB
                100000000-100100000 rw-p 00000000 00:00 0
                Rss:                1000 kB
                """);
        long[] heap = {0xe0000000L, 0x100000000L};
        assertThat(SoakHarness.residentBytesIn(smaps, heap)).isEqualTo((100000 + 28) * 1024L);
        assertThat(SoakHarness.residentBytesIn(dir.resolve("gone"), heap)).isZero();
    }
}
