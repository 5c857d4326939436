package dev.lockscope.analysis.jfr;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One chunk of a JFR file: its header, metadata (types and their fields, in write order) and
 * constant pools, and its events decoded by type id with the fields the metadata names, so a JDK
 * that adds or reorders fields is read the same way.
 *
 * <p>Layout (JDK's {@code ChunkHeader}, {@code MetadataReader}, {@code ChunkParser}): a 68-byte header
 * ({@code FLR\0}, major and minor version, chunk size, offset of the last checkpoint event, offset of
 * the metadata event, start nanos, duration, start ticks, ticks per second, file state byte at 64,
 * flags at 67 with bit 0 "compressed integers"), then events, each {@code size, typeId, fields}.
 * Type 0 is the metadata event; type 1 a checkpoint, holding constant pools and the relative offset
 * of the previous checkpoint. Modelled on async-profiler's {@code one.jfr.JfrReader}.
 */
public final class JfrChunk {
    public static final int HEADER_SIZE = 68;
    private static final long METADATA_TYPE = 0;
    private static final long CHECKPOINT_TYPE = 1;
    /** Checkpoints followed at most per chunk: a damaged chain cannot loop. */
    private static final int MAX_CHECKPOINTS = 1 << 20;

    /** What the events of a chunk are handed to. */
    public interface EventHandler {
        /**
         * @param values  per field of {@code type}: a primitive as a long (float/double as raw bits,
         *                boolean 0/1) or a constant-pool key; 0 for strings, arrays and inline structs
         * @param strings per field: the value of a {@code java.lang.String} field, else null
         */
        void event(JfrType type, long[] values, String[] strings);
    }

    private final ByteBuffer buf;
    private final JfrDecoder in;
    public final int major;
    public final int minor;
    public final long startNanos;
    /** The chunk's duration as its header gives it, nanoseconds; 0 for a chunk its JVM did not finish. */
    public final long durationNanos;
    public final long startTicks;
    public final long ticksPerSecond;
    /** Whether the JVM finished this chunk (file state 0); a killed JVM leaves it non-zero. */
    public final boolean finished;
    private final int cpOffset;
    private final int metaOffset;
    private final double ticksPerNano;
    private final Map<Long, JfrType> types = new HashMap<>();
    private final Map<String, JfrType> typesByName = new HashMap<>();
    private final Map<Long, Map<Long, Object>> pools = new HashMap<>();
    /** The metadata's annotation elements, while it is read. */
    private List<Element> annotations;

    /**
     * Reads the header, metadata and constant pools of the chunk in {@code buf} (position 0 is its
     * first byte; the limit its end as the header says).
     *
     * @throws JfrFormatException when any of them is damaged
     */
    public JfrChunk(ByteBuffer buf) {
        this.buf = buf;
        if (buf.limit() < HEADER_SIZE || buf.getInt(0) != 0x464C5200) {
            throw new JfrFormatException("no chunk header");
        }
        major = buf.getShort(4);
        minor = buf.getShort(6);
        if (major != 1 && major != 2) {
            throw new JfrFormatException("unknown JFR version " + major + "." + minor);
        }
        long size = buf.getLong(8);
        long cp = buf.getLong(16);
        long meta = buf.getLong(24);
        if (size != buf.limit()) {
            throw new JfrFormatException("chunk size " + size + " does not match " + buf.limit());
        }
        if (cp < HEADER_SIZE || cp >= size || meta < HEADER_SIZE || meta >= size) {
            throw new JfrFormatException("constant pool or metadata offset outside the chunk");
        }
        cpOffset = (int) cp;
        metaOffset = (int) meta;
        startNanos = buf.getLong(32);
        durationNanos = Math.max(0, buf.getLong(40));
        startTicks = buf.getLong(48);
        ticksPerSecond = buf.getLong(56);
        if (ticksPerSecond <= 0) {
            throw new JfrFormatException("ticks per second " + ticksPerSecond);
        }
        finished = buf.get(64) == 0;
        // the JDK's TimeConverter divides by the integral ticks per nanosecond; so do we, to agree to the nanosecond
        ticksPerNano = ticksPerSecond / 1_000_000_000L;
        in = new JfrDecoder(buf, (buf.get(67) & 1) != 0);
        readMetadata();
        readConstantPools();
    }

    public long nanos(long ticks) {
        return ticksPerNano == 0 ? startNanos + (ticks - startTicks) * 1_000_000_000L / ticksPerSecond
                : startNanos + (long) ((ticks - startTicks) / ticksPerNano);
    }

    public long spanNanos(long ticks) {
        return ticksPerNano == 0 ? ticks * 1_000_000_000L / ticksPerSecond : (long) (ticks / ticksPerNano);
    }

    public JfrType type(String name) {
        return typesByName.get(name);
    }

    public JfrType type(long id) {
        return types.get(id);
    }

    public List<JfrType> types() {
        return List.copyOf(types.values());
    }

    /** A constant: a long, a String, or an {@code Object[]} of field values; null when the pool lacks the key. */
    public Object constant(long typeId, long key) {
        Map<Long, Object> pool = pools.get(typeId);
        return pool == null ? null : pool.get(key);
    }

    /** The whole pool of a type (for instance every thread of the chunk); empty when absent. */
    public Map<Long, Object> pool(String typeName) {
        JfrType t = typesByName.get(typeName);
        Map<Long, Object> pool = t == null ? null : pools.get(t.id);
        return pool == null ? Map.of() : pool;
    }

    /**
     * Hands every event of the chunk, in file order, to {@code handler} (or, with a null handler,
     * only decodes them: a check that the whole chunk is readable before any of it is used).
     *
     * @return the number of events
     */
    public long events(EventHandler handler) {
        if (handler == null) { // the checking pass: it also keeps the index of eventTimes
            indexTypes = new JfrType[1 << 10];
            indexStarts = new long[1 << 10];
            indexDurations = new long[1 << 10];
            indexPositions = new int[1 << 10];
            indexed = 0;
        }
        int pos = HEADER_SIZE;
        int end = buf.limit();
        long count = 0;
        while (pos < end) {
            int next = readRecord(pos, end, handler);
            count += next < 0 ? 1 : 0;
            pos = Math.abs(next);
        }
        return count;
    }

    /**
     * Hands the one event at {@code position} (as {@link #eventTimes} gives it)
     * to {@code handler} again: a reader can put a chunk's events in another order without holding
     * them all as objects.
     */
    public void eventAt(int position, EventHandler handler) {
        if (position < HEADER_SIZE || readRecord(position, buf.limit(), handler) >= 0) {
            throw new IllegalArgumentException("no event at byte " + position);
        }
    }

    /** Told of each event's type, start and duration (in ticks; duration 0 for instant events) and position. */
    public interface TimedEventHandler {
        void event(JfrType type, long startTicks, long durationTicks, int position);
    }

    /**
     * Hands every event with a start time, in file order, to {@code handler}: its type, times and
     * position, from an index the checking pass ({@code events(null)}) keeps, so the chunk is not
     * decoded again.
     */
    public void eventTimes(TimedEventHandler handler) {
        if (indexTypes == null) {
            events(null);
        }
        for (int i = 0; i < indexed; i++) {
            handler.event(indexTypes[i], indexStarts[i], indexDurations[i], indexPositions[i]);
        }
    }

    /** The index of {@link #eventTimes}: events with a start time, in file order. */
    private JfrType[] indexTypes;
    private long[] indexStarts;
    private long[] indexDurations;
    private int[] indexPositions;
    private int indexed;

    private void index(JfrType t, int pos) {
        if (t.startTimeField < 0) {
            return;
        }
        if (indexed == indexTypes.length) {
            int capacity = 2 * indexed;
            indexTypes = Arrays.copyOf(indexTypes, capacity);
            indexStarts = Arrays.copyOf(indexStarts, capacity);
            indexDurations = Arrays.copyOf(indexDurations, capacity);
            indexPositions = Arrays.copyOf(indexPositions, capacity);
        }
        indexTypes[indexed] = t;
        indexStarts[indexed] = values[t.startTimeField];
        indexDurations[indexed] = t.durationField < 0 ? 0 : values[t.durationField];
        indexPositions[indexed] = pos;
        indexed++;
    }

    private long[] values = new long[8];
    private String[] strings = new String[8];

    /**
     * Reads the record at {@code pos}: an event goes to the handler, metadata and checkpoints are
     * skipped.
     *
     * @return where the next record starts, negated when this one was an event
     */
    private int readRecord(int pos, int end, EventHandler handler) {
        in.pos = pos;
        in.limit = end;
        int size = in.readInt();
        if (size <= 0 || size > end - pos) {
            throw new JfrFormatException("event size " + size + " at byte " + pos);
        }
        in.limit = pos + size;
        long typeId = in.readLong();
        if (typeId == METADATA_TYPE || typeId == CHECKPOINT_TYPE) {
            return pos + size;
        }
        JfrType t = typeId >= 0 && typeId < eventTypes.length ? eventTypes[(int) typeId] : null;
        if (t == null) {
            t = eventType(typeId, pos);
        }
        int[] plan = t.fieldPlan;
        int n = plan.length;
        if (values.length < n) {
            values = new long[n];
            strings = new String[n];
        }
        long[] values = this.values;
        String[] strings = this.strings;
        for (int i = 0; i < n; i++) {
            int step = plan[i];
            strings[i] = null;
            if (step == PLAN_VALUE) {
                in.readValue(t.fields.get(i), types, 0);
                values[i] = 0;
            } else if (step == PLAN_CONSTANT) {
                values[i] = in.readLong();
            } else if (step == PLAN_STRING) {
                // the checking pass only needs to know the string is well formed, not its text
                strings[i] = handler == null ? in.skipString() : in.readString();
                values[i] = 0;
            } else {
                values[i] = in.readPrimitive(step);
            }
        }
        if (in.pos != in.limit) {
            throw new JfrFormatException("event of type " + t.name + " at byte " + pos + " has "
                    + (in.limit - in.pos) + " bytes its fields do not account for");
        }
        if (handler != null) {
            handler.event(t, values, strings);
        } else if (indexTypes != null) {
            index(t, pos);
        }
        return -(pos + size);
    }

    /** How {@link #events} reads a field: a primitive's {@link JfrDecoder} kind, or one of these. */
    private static final int PLAN_VALUE = -1;
    private static final int PLAN_CONSTANT = -2;
    private static final int PLAN_STRING = -3;
    /** Event types by id, for the ids below its length (JFR numbers types from a few hundred); filled as met. */
    private final JfrType[] eventTypes = new JfrType[1 << 12];

    /** The type of an event record, checked, with how each of its fields is read worked out once per chunk. */
    private JfrType eventType(long typeId, int pos) {
        JfrType t = types.get(typeId);
        if (t == null) {
            throw new JfrFormatException("event of unknown type " + typeId + " at byte " + pos);
        }
        if (!t.isEvent()) { // the JDK's reader refuses these too (a Type is not a PlatformEventType)
            throw new JfrFormatException("record of type " + t.name + ", which is not an event, at byte " + pos);
        }
        if (t.fieldPlan == null) {
            int[] plan = new int[t.fields.size()];
            for (int i = 0; i < plan.length; i++) {
                JfrField f = t.fields.get(i);
                JfrType ft = types.get(f.typeId());
                if (f.array() || ft == null || (!f.constantPool() && ft.kind == JfrDecoder.KIND_STRUCT)) {
                    plan[i] = PLAN_VALUE;
                } else if (f.constantPool()) {
                    plan[i] = PLAN_CONSTANT;
                } else if (ft.kind == JfrDecoder.KIND_STRING) {
                    plan[i] = PLAN_STRING;
                } else {
                    plan[i] = ft.kind;
                }
            }
            t.fieldPlan = plan;
        }
        if (typeId >= 0 && typeId < eventTypes.length) {
            eventTypes[(int) typeId] = t;
        }
        return t;
    }

    private void readMetadata() {
        in.pos = metaOffset;
        in.limit = buf.limit();
        int size = in.readInt();
        if (size <= 0 || size > buf.limit() - metaOffset) {
            throw new JfrFormatException("metadata size " + size);
        }
        in.limit = metaOffset + size;
        if (in.readLong() != METADATA_TYPE) {
            throw new JfrFormatException("no metadata event at its offset");
        }
        in.readLong(); // start
        in.readLong(); // duration
        in.readLong(); // metadata id
        int n = in.readCount();
        String[] strings = new String[n];
        for (int i = 0; i < n; i++) {
            strings[i] = in.readString();
        }
        List<Element> annotations = new ArrayList<>();
        this.annotations = annotations;
        Element root = element(strings, 0);
        for (Element section : root.children) {
            if ("region".equals(section.name)) {
                continue;
            }
            if (!"metadata".equals(section.name)) {
                throw new JfrFormatException("unknown metadata element " + section.name);
            }
            for (Element c : section.children) {
                if (!"class".equals(c.name) || c.attr("name") == null) {
                    throw new JfrFormatException("metadata element " + c.name + " where a class belongs");
                }
                List<JfrField> fields = new ArrayList<>();
                for (Element f : c.children) {
                    // like the JDK's reader, every element of a class refers to a type by id
                    long typeId = parseId(f.attr("class"));
                    checkAnnotations(f);
                    if ("annotation".equals(f.name)) {
                        annotations.add(f);
                    }
                    if ("field".equals(f.name)) {
                        if (f.attr("name") == null) {
                            throw new JfrFormatException("metadata field without a name");
                        }
                        checkJavaName(f.attr("name"), false);
                        fields.add(new JfrField(f.attr("name"), typeId, "true".equals(f.attr("constantPool")),
                                "1".equals(f.attr("dimension"))));
                    } else if ("setting".equals(f.name)) {
                        // the JDK's reader takes a class with settings for an event type (it fails with a
                        // ClassCastException otherwise): settings elsewhere are damage, e.g. a flipped superType
                        if (!"jdk.jfr.Event".equals(c.attr("superType"))) {
                            throw new JfrFormatException("setting " + f.attr("name") + " of " + c.attr("name") + ", which is not an event type");
                        }
                    } else if (!"annotation".equals(f.name)) {
                        throw new JfrFormatException("unknown metadata element " + f.name);
                    }
                }
                checkJavaName(c.attr("name"), true);
                JfrType t = new JfrType(parseId(c.attr("id")), c.attr("name"), c.attr("superType"), fields);
                if (types.put(t.id, t) != null) {
                    // the JDK's reader fails on it too (an UnsupportedOperationException adding the second
                    // class's fields to the first): an id written twice is damage, e.g. a flipped byte
                    throw new JfrFormatException("two metadata classes with id " + t.id);
                }
                typesByName.put(t.name, t);
            }
        }
        if (types.isEmpty()) {
            throw new JfrFormatException("metadata without types");
        }
        // as the JDK's reader does: an annotation gives a value for every field of its type
        for (Element a : annotations) {
            JfrType at = types.get(parseId(a.attr("class")));
            if (at == null) {
                throw new JfrFormatException("annotation of undefined type " + a.attr("class"));
            }
            for (JfrField f : at.fields) {
                if (!f.array() && a.attr(f.name()) == null) {
                    throw new JfrFormatException("annotation " + at.name + " without its " + f.name());
                }
            }
        }
        for (JfrType t : types.values()) {
            for (JfrField f : t.fields) {
                if (!types.containsKey(f.typeId())) {
                    throw new JfrFormatException("field " + t.name + "." + f.name() + " of undefined type " + f.typeId());
                }
            }
        }
    }

    private void checkAnnotations(Element e) {
        for (Element a : e.children) {
            if (!"annotation".equals(a.name)) {
                throw new JfrFormatException("unknown metadata element " + a.name);
            }
            parseId(a.attr("class"));
            annotations.add(a);
        }
    }

    /**
     * As the JDK's reader does (it refuses such metadata with "is not a valid Java identifier/type"): a
     * field name is a Java identifier, a type name identifiers joined by dots. A flipped byte in a name
     * is damage, not a new type.
     */
    private static void checkJavaName(String name, boolean dotted) {
        boolean start = true;
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (dotted && c == '.' && !start) {
                start = true;
            } else if (start ? Character.isJavaIdentifierStart(c) : Character.isJavaIdentifierPart(c)) {
                start = false;
            } else {
                throw new JfrFormatException("metadata name is not a Java " + (dotted ? "type" : "identifier") + ": " + name);
            }
        }
        if (start) {
            throw new JfrFormatException("metadata name is not a Java " + (dotted ? "type" : "identifier") + ": " + name);
        }
    }

    private static long parseId(String s) {
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException | NullPointerException e) {
            throw new JfrFormatException("type id " + s + " in metadata");
        }
    }

    /** An element of the metadata tree: name, attributes, children. */
    private record Element(String name, List<String> attributes, List<Element> children) {
        String attr(String key) {
            for (int i = 0; i < attributes.size(); i += 2) {
                if (attributes.get(i).equals(key)) {
                    return attributes.get(i + 1);
                }
            }
            return null;
        }
    }

    private Element element(String[] strings, int depth) {
        if (depth > 32) {
            throw new JfrFormatException("metadata nests too deeply");
        }
        String name = string(strings, in.readInt());
        int attrs = in.readCount();
        List<String> attributes = new ArrayList<>(2 * attrs);
        for (int i = 0; i < attrs; i++) {
            attributes.add(string(strings, in.readInt()));
            attributes.add(string(strings, in.readInt()));
        }
        int n = in.readCount();
        List<Element> children = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            children.add(element(strings, depth + 1));
        }
        return new Element(name, attributes, children);
    }

    private static String string(String[] strings, int index) {
        if (index < 0 || index >= strings.length || strings[index] == null) {
            throw new JfrFormatException("metadata string index " + index);
        }
        return strings[index];
    }

    private void readConstantPools() {
        int pos = cpOffset;
        for (int checkpoints = 0; ; checkpoints++) {
            if (checkpoints > MAX_CHECKPOINTS) {
                throw new JfrFormatException("checkpoint chain does not end");
            }
            in.pos = pos;
            in.limit = buf.limit();
            int size = in.readInt();
            if (size <= 0 || size > buf.limit() - pos) {
                throw new JfrFormatException("checkpoint size " + size + " at byte " + pos);
            }
            in.limit = pos + size;
            if (in.readLong() != CHECKPOINT_TYPE) {
                throw new JfrFormatException("no checkpoint event at byte " + pos);
            }
            in.readLong(); // start
            in.readLong(); // duration
            long delta = in.readLong();
            in.readByte(); // checkpoint kind (flush, ...)
            int poolCount = in.readCount();
            for (int p = 0; p < poolCount; p++) {
                long typeId = in.readLong();
                JfrType t = types.get(typeId);
                if (t == null) {
                    throw new JfrFormatException("constant pool of unknown type " + typeId);
                }
                Map<Long, Object> pool = pools.computeIfAbsent(typeId, k -> new HashMap<>());
                int count = in.readCount();
                for (int i = 0; i < count; i++) {
                    long key = in.readLong();
                    pool.put(key, in.readValue(t, types, 0));
                }
            }
            if (in.pos != in.limit) { // the JDK's reader refuses this too ("Size of check point event doesn't match content")
                throw new JfrFormatException("checkpoint at byte " + pos + " is " + size + " bytes but its content ends at "
                        + (in.pos - pos));
            }
            if (delta == 0) {
                break;
            }
            long previous = pos + delta;
            if (delta > 0 || previous < HEADER_SIZE) {
                throw new JfrFormatException("checkpoint chain leaves the chunk at byte " + pos);
            }
            pos = (int) previous;
        }
        JfrType string = typesByName.get("java.lang.String");
        if (string != null && pools.containsKey(string.id)) {
            in.stringPool = LongKeyMap.of(pools.get(string.id));
        }
    }
}
