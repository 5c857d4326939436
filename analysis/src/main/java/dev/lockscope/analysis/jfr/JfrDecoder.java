package dev.lockscope.analysis.jfr;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Reads JFR's encodings from one chunk's bytes: integers (LEB128 when the chunk says "compressed
 * integers", big-endian otherwise), the six string encodings, and values of any metadata type.
 * Every read is bounded by {@link #limit}; a read past it is a {@link JfrFormatException}, never an
 * index error, so a damaged chunk is one exception that names what was wrong.
 */
final class JfrDecoder {
    static final int KIND_STRUCT = 0;
    static final int KIND_BOOLEAN = 1;
    static final int KIND_BYTE = 2;
    static final int KIND_CHAR = 3;
    static final int KIND_SHORT = 4;
    static final int KIND_INT = 5;
    static final int KIND_LONG = 6;
    static final int KIND_FLOAT = 7;
    static final int KIND_DOUBLE = 8;
    static final int KIND_STRING = 9;
    /** Nesting of inline structs allowed before the metadata is taken as damaged (JDK's types nest 2 deep). */
    private static final int MAX_DEPTH = 16;

    private final ByteBuffer buf;
    private final boolean compressed;
    int pos;
    int limit;
    /** jdk.types.String / java.lang.String constant pool (string encoding 2), set once the pools are read. */
    LongKeyMap stringPool = LongKeyMap.of(Map.of());

    JfrDecoder(ByteBuffer buf, boolean compressed) {
        this.buf = buf;
        this.compressed = compressed;
        this.limit = buf.limit();
    }

    static int kindOf(String typeName, boolean noFields) {
        return switch (typeName) {
            case "boolean" -> KIND_BOOLEAN;
            case "byte" -> KIND_BYTE;
            case "char" -> KIND_CHAR;
            case "short" -> KIND_SHORT;
            case "int" -> KIND_INT;
            case "long" -> KIND_LONG;
            case "float" -> KIND_FLOAT;
            case "double" -> KIND_DOUBLE;
            case "java.lang.String" -> KIND_STRING;
            default -> KIND_STRUCT;
        };
    }

    private void need(int n) {
        if (n < 0 || limit - pos < n) {
            throw new JfrFormatException("value runs past its event at byte " + pos);
        }
    }

    byte readByte() {
        need(1);
        return buf.get(pos++);
    }

    long readRawLong() {
        need(8);
        long v = buf.getLong(pos);
        pos += 8;
        return v;
    }

    int readRawInt() {
        need(4);
        int v = buf.getInt(pos);
        pos += 4;
        return v;
    }

    private long readLongOrInt() {
        return compressed ? readLong() : readRawShort() & 0xFFFF;
    }

    private short readRawShort() {
        need(2);
        short v = buf.getShort(pos);
        pos += 2;
        return v;
    }

    long readLong() {
        if (!compressed) {
            return readRawLong();
        }
        // fast path: the whole varint is inside the limit
        long result = 0;
        for (int shift = 0; shift < 56; shift += 7) {
            if (pos >= limit) {
                throw new JfrFormatException("integer runs past its event at byte " + pos);
            }
            byte b = buf.get(pos++);
            result |= (b & 0x7FL) << shift;
            if (b >= 0) {
                return result;
            }
        }
        if (pos >= limit) {
            throw new JfrFormatException("integer runs past its event at byte " + pos);
        }
        return result | (buf.get(pos++) & 0xFFL) << 56;
    }

    int readInt() {
        return compressed ? (int) readLong() : readRawInt();
    }

    /** A count or length: never negative, never more than the bytes left (each element takes one at least). */
    int readCount() {
        int n = readInt();
        if (n < 0 || n > limit - pos) {
            throw new JfrFormatException("count " + n + " exceeds the data at byte " + pos);
        }
        return n;
    }

    String readString() {
        byte encoding = readByte();
        switch (encoding) {
            case 0:
                return null;
            case 1:
                return "";
            case 2: {
                long key = readLong();
                Object s = stringPool.get(key);
                return s instanceof String str ? str : null;
            }
            case 3: {
                int n = readCount();
                return n <= CACHED_STRING_BYTES ? cachedString(n, encoding) : new String(bytes(n), StandardCharsets.UTF_8);
            }
            case 4: {
                int n = readCount();
                char[] chars = new char[n];
                for (int i = 0; i < n; i++) {
                    chars[i] = (char) readInt();
                }
                return new String(chars);
            }
            case 5: {
                int n = readCount();
                return n <= CACHED_STRING_BYTES ? cachedString(n, encoding) : new String(bytes(n), StandardCharsets.ISO_8859_1);
            }
            default:
                throw new JfrFormatException("unknown string encoding " + encoding + " at byte " + (pos - 1));
        }
    }

    /** Reads past a string, checked as {@link #readString} checks it; returns null (the text is not made). */
    String skipString() {
        byte encoding = readByte();
        switch (encoding) {
            case 0, 1 -> {
            }
            case 2 -> readLong();
            case 3, 5 -> {
                int n = readCount();
                need(n);
                pos += n;
            }
            case 4 -> {
                int n = readCount();
                for (int i = 0; i < n; i++) {
                    readInt();
                }
            }
            default -> throw new JfrFormatException("unknown string encoding " + encoding + " at byte " + (pos - 1));
        }
        return null;
    }

    /**
     * Strings written inline in events (an unpark's target thread name, a park's owner name) repeat
     * with every event: the short ones are kept by their bytes, so that a repeated one is matched in
     * the buffer and returned without decoding a copy (millions of events, a few distinct names). The
     * bytes are hashed and compared eight at a time: the byte-by-byte loop showed as a quarter of the
     * reading thread's time in two of five profiles of a pipeline's recording (as the JIT compiled it),
     * this one at 1% in every profile since.
     */
    private static final int CACHED_STRING_BYTES = 64;
    private static final int STRING_CACHE_SLOTS = 1 << 10;
    /** Each slot's bytes, in the chunk's byte order so that words compare as the buffer's do. */
    private final ByteBuffer[] cachedBytes = new ByteBuffer[STRING_CACHE_SLOTS];
    private final byte[] cachedEncodings = new byte[STRING_CACHE_SLOTS];
    private final String[] cachedStrings = new String[STRING_CACHE_SLOTS];

    /** The string of the next n bytes in this encoding (3: UTF-8, 5: Latin-1), from the cache when it holds them. */
    private String cachedString(int n, byte encoding) {
        need(n);
        long hash = encoding * 31L + n;
        int i = 0;
        for (; i + Long.BYTES <= n; i += Long.BYTES) {
            hash = hash * 0x9E3779B97F4A7C15L + buf.getLong(pos + i);
        }
        for (; i < n; i++) {
            hash = hash * 31 + buf.get(pos + i);
        }
        int h = (int) (hash ^ hash >>> 32);
        int slot = (h ^ h >>> 16) & (STRING_CACHE_SLOTS - 1);
        ByteBuffer cached = cachedBytes[slot];
        if (cached != null && cached.capacity() == n && cachedEncodings[slot] == encoding && sameBytes(cached, n)) {
            pos += n;
            return cachedStrings[slot];
        }
        byte[] b = bytes(n);
        String s = new String(b, encoding == 3 ? StandardCharsets.UTF_8 : StandardCharsets.ISO_8859_1);
        cachedBytes[slot] = ByteBuffer.wrap(b).order(buf.order());
        cachedEncodings[slot] = encoding;
        cachedStrings[slot] = s;
        return s;
    }

    /** Whether the next n bytes are the cached ones. */
    private boolean sameBytes(ByteBuffer cached, int n) {
        int i = 0;
        for (; i + Long.BYTES <= n; i += Long.BYTES) {
            if (cached.getLong(i) != buf.getLong(pos + i)) {
                return false;
            }
        }
        for (; i < n; i++) {
            if (cached.get(i) != buf.get(pos + i)) {
                return false;
            }
        }
        return true;
    }

    private byte[] bytes(int n) {
        need(n);
        byte[] b = new byte[n];
        buf.get(pos, b);
        pos += n;
        return b;
    }

    /**
     * A primitive or constant-pool key as a long (floating point as raw bits, boolean as 0/1), or
     * a string, array ({@code Object[]}) or inline struct ({@code Object[]} of its fields' values).
     */
    Object readValue(JfrField f, Map<Long, JfrType> types, int depth) {
        JfrType t = types.get(f.typeId());
        if (t == null) {
            throw new JfrFormatException("field " + f.name() + " has unknown type " + f.typeId());
        }
        if (f.array()) {
            int n = readCount();
            Object[] out = new Object[n];
            for (int i = 0; i < n; i++) {
                out[i] = f.constantPool() ? (Object) readLong() : readValue(t, types, depth);
            }
            return out;
        }
        return f.constantPool() ? (Object) readLong() : readValue(t, types, depth);
    }

    Object readValue(JfrType t, Map<Long, JfrType> types, int depth) {
        switch (t.kind) {
            case KIND_STRING:
                return readString();
            case KIND_FLOAT:
                return (long) readRawInt();
            case KIND_DOUBLE:
                return readRawLong();
            case KIND_STRUCT:
                if (depth > MAX_DEPTH) {
                    throw new JfrFormatException("types nest too deeply: " + t.name);
                }
                Object[] values = new Object[t.fields.size()];
                for (int i = 0; i < values.length; i++) {
                    values[i] = readValue(t.fields.get(i), types, depth + 1);
                }
                return values;
            default:
                return readPrimitive(t.kind);
        }
    }

    long readPrimitive(int kind) {
        return switch (kind) {
            case KIND_BOOLEAN, KIND_BYTE -> readByte();
            case KIND_CHAR -> (char) readLongOrInt();
            case KIND_SHORT -> compressed ? (short) readLong() : readRawShort();
            case KIND_INT -> readInt();
            case KIND_LONG -> readLong();
            case KIND_FLOAT -> readRawInt();
            case KIND_DOUBLE -> readRawLong();
            default -> throw new IllegalArgumentException("not a primitive kind: " + kind);
        };
    }
}
