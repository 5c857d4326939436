package dev.lockscope.report.export;

import com.google.protobuf.ByteString;
import com.google.protobuf.UnknownFieldSet;
import dev.lockscope.analysis.blame.BlameRow;
import dev.lockscope.analysis.model.LockRecording;
import dev.lockscope.core.LockMetrics;
import dev.lockscope.report.model.Report;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Collapsed stacks and pprof carry exactly the waiting time of the contention table: per lock and in
 * all, on both sides. pprof is parsed with protobuf-java's generic parser, independent of our encoder.
 */
class ExportTotalsTest {
    private final LockRecording recording = Recordings.small();
    private final Report report = Recordings.report(recording);

    private long tableTotal() {
        return report.contention().locks().stream().mapToLong(LockMetrics::totalWaitNanos).sum();
    }

    @Test
    void blameCoversEveryWaitOfTheLockTable() {
        assertThat(tableTotal()).isEqualTo(115 * Recordings.MS); // 110 ms of parks + 5 ms blocked on the monitor
        assertThat(report.blame().rows().stream().mapToLong(BlameRow::nanos).sum()).isEqualTo(tableTotal());
    }

    @Test
    void collapsedWaiterStacksAreRootFirstWithTheLockAsLeafAndSumToTheTableTotal() {
        String collapsed = CollapsedStacks.render(report.blame(), Side.waiter);
        // lock internals at the top of the waiter's chain are hidden, as in every view of blame
        assertThat(collapsed.lines()).containsExactly(
                "java.lang.Thread.run:840;com.example.Cache.get:17;com.example.Cache at com.example.Cache.get:17 5000000",
                "java.lang.Thread.run:840;com.example.Inventory.reserve:42;" + Recordings.LOCK + " at com.example.Inventory.reserve:42 110000000");
        assertThat(total(collapsed)).isEqualTo(tableTotal());
    }

    @Test
    void collapsedOwnerSideNamesUnknownOwnersAndKeepsTheTotal() {
        String collapsed = CollapsedStacks.render(report.blame(), Side.owner);
        assertThat(collapsed).contains(BlameStacks.UNKNOWN_OWNER + ";" + Recordings.LOCK + " at com.example.Inventory.reserve:42 110000000");
        assertThat(total(collapsed)).isEqualTo(tableTotal());
    }

    @Test
    void pprofParsesAndItsTotalsEqualTheTableTotals() throws IOException {
        for (Side side : Side.values()) {
            Profile p = Profile.parse(pprof(side));
            assertThat(p.strings.get(0)).isEmpty();
            assertThat(p.sampleTypes).containsExactly("wait/nanoseconds", "contentions/count");
            assertThat(p.totals[0]).isEqualTo(tableTotal());
            assertThat(p.totals[1]).isEqualTo(4); // three parks and one blocked entry
            assertThat(p.defaultSampleType).isEqualTo("wait");
            assertThat(p.durationNanos).isEqualTo(200 * Recordings.MS);
        }
    }

    @Test
    void pprofSamplesHaveTheLockAsLeafAndTheFramesWithLines() throws IOException {
        Profile p = Profile.parse(pprof(Side.waiter));
        assertThat(p.leafFunctions).contains(Recordings.LOCK + " at com.example.Inventory.reserve:42", "com.example.Cache at com.example.Cache.get:17");
        assertThat(p.functionNames).contains("com.example.Inventory.reserve", "java.lang.Thread.run");
        assertThat(p.lines).contains(42L, 840L);
    }

    private byte[] pprof(Side side) {
        return PprofProfile.render(report.contention(), report.blame(), side);
    }

    private static long total(String collapsed) {
        return collapsed.lines().mapToLong(l -> Long.parseLong(l.substring(l.lastIndexOf(' ') + 1))).sum();
    }

    /** The parts of profile.proto the tests look at, read field by field with protobuf-java. */
    static final class Profile {
        final List<String> strings = new ArrayList<>();
        final List<String> sampleTypes = new ArrayList<>();
        final long[] totals = new long[2];
        final List<String> leafFunctions = new ArrayList<>();
        final List<String> functionNames = new ArrayList<>();
        final List<Long> lines = new ArrayList<>();
        String defaultSampleType;
        long durationNanos;

        static Profile parse(byte[] gzipped) throws IOException {
            byte[] raw;
            try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(gzipped))) {
                raw = in.readAllBytes();
            }
            UnknownFieldSet profile = UnknownFieldSet.parseFrom(raw);
            Profile p = new Profile();
            profile.getField(6).getLengthDelimitedList().forEach(s -> p.strings.add(s.toStringUtf8()));
            for (ByteString vt : profile.getField(1).getLengthDelimitedList()) {
                UnknownFieldSet v = UnknownFieldSet.parseFrom(vt);
                p.sampleTypes.add(p.str(v, 1) + "/" + p.str(v, 2));
            }
            java.util.Map<Long, Long> locationFunction = new java.util.HashMap<>();
            for (ByteString l : profile.getField(4).getLengthDelimitedList()) {
                UnknownFieldSet loc = UnknownFieldSet.parseFrom(l);
                UnknownFieldSet line = UnknownFieldSet.parseFrom(loc.getField(4).getLengthDelimitedList().get(0));
                locationFunction.put(loc.getField(1).getVarintList().get(0), line.getField(1).getVarintList().get(0));
                if (!line.getField(2).getVarintList().isEmpty()) {
                    p.lines.add(line.getField(2).getVarintList().get(0));
                }
            }
            java.util.Map<Long, String> functionName = new java.util.HashMap<>();
            for (ByteString f : profile.getField(5).getLengthDelimitedList()) {
                UnknownFieldSet fn = UnknownFieldSet.parseFrom(f);
                functionName.put(fn.getField(1).getVarintList().get(0), p.str(fn, 2));
                p.functionNames.add(p.str(fn, 2));
            }
            for (ByteString s : profile.getField(2).getLengthDelimitedList()) {
                UnknownFieldSet sample = UnknownFieldSet.parseFrom(s);
                List<Long> locations = packed(sample.getField(1).getLengthDelimitedList().get(0));
                List<Long> values = packed(sample.getField(2).getLengthDelimitedList().get(0));
                p.totals[0] += values.get(0);
                p.totals[1] += values.get(1);
                p.leafFunctions.add(functionName.get(locationFunction.get(locations.get(0))));
            }
            p.defaultSampleType = p.strings.get(profile.getField(14).getVarintList().get(0).intValue());
            p.durationNanos = profile.getField(10).getVarintList().get(0);
            return p;
        }

        private String str(UnknownFieldSet m, int field) {
            return strings.get(m.getField(field).getVarintList().get(0).intValue());
        }

        private static List<Long> packed(ByteString bytes) throws IOException {
            List<Long> out = new ArrayList<>();
            com.google.protobuf.CodedInputStream in = bytes.newCodedInput();
            while (!in.isAtEnd()) {
                out.add(in.readInt64());
            }
            return out;
        }
    }
}
