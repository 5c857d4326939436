package dev.lockscope.report.export;

import java.io.ByteArrayOutputStream;

/**
 * The few protocol-buffer wire-format primitives pprof's profile.proto needs (varints,
 * length-delimited fields, packed repeated varints), written by hand so the report module needs
 * no protobuf runtime.
 */
final class ProtoWriter {
    private static final int VARINT = 0;
    private static final int LENGTH_DELIMITED = 2;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    ProtoWriter varint(int field, long value) {
        if (value != 0) { // proto3: default values are not written
            tag(field, VARINT);
            rawVarint(value);
        }
        return this;
    }

    /** Always written, even when empty: pprof's string_table must start with "". */
    ProtoWriter string(int field, String value) {
        return bytes(field, value.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    ProtoWriter message(int field, ProtoWriter message) {
        return bytes(field, message.toByteArray());
    }

    ProtoWriter packed(int field, long[] values) {
        ProtoWriter body = new ProtoWriter();
        for (long v : values) {
            body.rawVarint(v);
        }
        return bytes(field, body.toByteArray());
    }

    private ProtoWriter bytes(int field, byte[] value) {
        tag(field, LENGTH_DELIMITED);
        rawVarint(value.length);
        out.writeBytes(value);
        return this;
    }

    private void tag(int field, int wireType) {
        rawVarint(((long) field << 3) | wireType);
    }

    private void rawVarint(long v) {
        while ((v & ~0x7FL) != 0) {
            out.write((int) ((v & 0x7F) | 0x80));
            v >>>= 7;
        }
        out.write((int) v);
    }

    byte[] toByteArray() {
        return out.toByteArray();
    }
}
