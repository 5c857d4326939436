package dev.lockscope.report.export;

import dev.lockscope.core.Frame;
import dev.lockscope.analysis.blame.BlameSummary;
import dev.lockscope.analysis.LockContention;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;

/**
 * A gzipped pprof profile (github.com/google/pprof, proto/profile.proto) of the blame stacks (or of a
 * CPU or wall-clock profile's, {@link ProfileStacks}), read by {@code go tool pprof}, Pyroscope and most continuous profilers. Two sample types:
 * {@code wait/nanoseconds} (the default) and {@code contentions/count}; each sample carries the
 * stack of the chosen side with the lock as leaf, and a {@code thread} label.
 */
public final class PprofProfile {
    // profile.proto field numbers
    private static final int SAMPLE_TYPE = 1, SAMPLE = 2, LOCATION = 4, FUNCTION = 5, STRING_TABLE = 6,
            TIME_NANOS = 9, DURATION_NANOS = 10, PERIOD_TYPE = 11, PERIOD = 12, DEFAULT_SAMPLE_TYPE = 14;
    private static final int VALUE_TYPE_TYPE = 1, VALUE_TYPE_UNIT = 2;
    private static final int SAMPLE_LOCATION_ID = 1, SAMPLE_VALUE = 2, SAMPLE_LABEL = 3;
    private static final int LABEL_KEY = 1, LABEL_STR = 2;
    private static final int LOCATION_ID = 1, LOCATION_LINE = 4;
    private static final int LINE_FUNCTION_ID = 1, LINE_LINE = 2;
    private static final int FUNCTION_ID = 1, FUNCTION_NAME = 2, FUNCTION_SYSTEM_NAME = 3, FUNCTION_FILENAME = 4;

    private final Map<String, Long> strings = new LinkedHashMap<>();
    private final Map<String, Long> functions = new HashMap<>();
    private final Map<String, Long> locations = new HashMap<>();
    private final ProtoWriter locationsAndFunctions = new ProtoWriter();

    private PprofProfile() {
        string(""); // string_table[0] must be the empty string
    }

    public static byte[] render(LockContention contention, BlameSummary blame, Side side) {
        return new PprofProfile().encode(BlameStacks.of(blame, side), "wait", "contentions", contention.startNanos(),
                contention.durationNanos());
    }

    /**
     * Any stacks (a profile's, {@link ProfileStacks}) with the sample types {@code valueType}/nanoseconds
     * and, unless null, {@code countType}/count.
     */
    public static byte[] render(List<BlameStacks.Stack> stacks, String valueType, String countType, long startNanos,
                                long durationNanos) {
        return new PprofProfile().encode(stacks, valueType, countType, startNanos, durationNanos);
    }

    private byte[] encode(List<BlameStacks.Stack> stacks, String valueType, String countType, long startNanos,
                          long durationNanos) {
        ProtoWriter body = new ProtoWriter();
        body.message(SAMPLE_TYPE, valueType(valueType, "nanoseconds"));
        if (countType != null) {
            body.message(SAMPLE_TYPE, valueType(countType, "count"));
        }
        // one label key for both sides: Pyroscope and Prometheus-style tools accept only [a-zA-Z_][a-zA-Z0-9_]*
        long threadKey = string("thread");
        for (BlameStacks.Stack s : stacks) {
            // leaf first: the lock (if any), then the frames innermost first (or who is missing)
            int leaf = s.lock() == null ? 0 : 1;
            long[] ids = new long[leaf + Math.max(1, s.frames().size())];
            if (leaf == 1) {
                ids[0] = location(s.lock(), s.lock(), 0);
            }
            if (s.frames().isEmpty()) {
                ids[leaf] = location(s.placeholder(), s.placeholder(), 0);
            }
            for (int i = 0; i < s.frames().size(); i++) {
                String frame = s.frames().get(i);
                Frame f = Frame.parse(frame);
                ids[i + leaf] = location(frame, f.function(), Math.max(0, f.line()));
            }
            ProtoWriter sample = new ProtoWriter().packed(SAMPLE_LOCATION_ID, ids)
                    .packed(SAMPLE_VALUE, countType == null ? new long[] {s.nanos()} : new long[] {s.nanos(), s.count()});
            if (s.thread() != null) {
                sample.message(SAMPLE_LABEL, new ProtoWriter().varint(LABEL_KEY, threadKey)
                        .varint(LABEL_STR, string(s.thread())));
            }
            body.message(SAMPLE, sample);
        }
        body.varint(TIME_NANOS, startNanos);
        body.varint(DURATION_NANOS, durationNanos);
        body.message(PERIOD_TYPE, valueType(valueType, "nanoseconds"));
        body.varint(PERIOD, 1);
        body.varint(DEFAULT_SAMPLE_TYPE, string(valueType));
        // Locations and functions were collected while encoding samples; the string table comes last
        // because every other message adds to it.
        ProtoWriter stringTable = new ProtoWriter();
        for (String s : strings.keySet()) {
            stringTable.string(STRING_TABLE, s);
        }
        ByteArrayOutputStream raw = new ByteArrayOutputStream();
        raw.writeBytes(body.toByteArray());
        raw.writeBytes(locationsAndFunctions.toByteArray());
        raw.writeBytes(stringTable.toByteArray());
        return gzip(raw.toByteArray());
    }

    private ProtoWriter valueType(String type, String unit) {
        return new ProtoWriter().varint(VALUE_TYPE_TYPE, string(type)).varint(VALUE_TYPE_UNIT, string(unit));
    }

    /** A location per distinct frame (or lock leaf, or placeholder), with its function and line. */
    private long location(String text, String function, long line) {
        Long known = locations.get(text);
        if (known != null) {
            return known;
        }
        long id = locations.size() + 1L;
        locations.put(text, id);
        locationsAndFunctions.message(LOCATION, new ProtoWriter().varint(LOCATION_ID, id)
                .message(LOCATION_LINE, new ProtoWriter().varint(LINE_FUNCTION_ID, function(function)).varint(LINE_LINE, line)));
        return id;
    }

    private long function(String name) {
        Long known = functions.get(name);
        if (known != null) {
            return known;
        }
        long id = functions.size() + 1L;
        functions.put(name, id);
        locationsAndFunctions.message(FUNCTION, new ProtoWriter().varint(FUNCTION_ID, id).varint(FUNCTION_NAME, string(name))
                .varint(FUNCTION_SYSTEM_NAME, string(name)).varint(FUNCTION_FILENAME, string(Frame.parse(name).sourceFile())));
        return id;
    }

    private long string(String s) {
        return strings.computeIfAbsent(s, k -> (long) strings.size());
    }

    private static byte[] gzip(byte[] raw) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(raw);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // in memory: does not happen
        }
        return out.toByteArray();
    }
}
