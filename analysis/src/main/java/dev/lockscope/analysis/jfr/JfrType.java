package dev.lockscope.analysis.jfr;

import java.util.List;

/**
 * A class of a chunk's metadata: an event type, a constant-pool type (jdk.types.Thread, ...), or a
 * primitive. Fields are in the order their values are written.
 */
public final class JfrType {
    public final long id;
    public final String name;
    public final String superType;
    final List<JfrField> fields;
    /** How a value of this type is decoded; see {@link JfrDecoder}. */
    final int kind;
    /** Positions of the {@code startTime} and {@code duration} fields, -1 when absent. */
    public final int startTimeField;
    public final int durationField;
    /** How {@link JfrChunk#events} reads each field of this event type; set there when first needed. */
    int[] fieldPlan;

    JfrType(long id, String name, String superType, List<JfrField> fields) {
        this.id = id;
        this.name = name;
        this.superType = superType;
        this.fields = List.copyOf(fields);
        this.kind = JfrDecoder.kindOf(name, fields.isEmpty());
        this.startTimeField = field("startTime");
        this.durationField = field("duration");
    }

    public List<JfrField> fields() {
        return fields;
    }

    /** Index of the named field, or -1 when this chunk's JDK does not write it. */
    public int field(String fieldName) {
        for (int i = 0; i < fields.size(); i++) {
            if (fields.get(i).name().equals(fieldName)) {
                return i;
            }
        }
        return -1;
    }

    public boolean isEvent() {
        return "jdk.jfr.Event".equals(superType);
    }

    @Override
    public String toString() {
        return name + "#" + id;
    }
}
