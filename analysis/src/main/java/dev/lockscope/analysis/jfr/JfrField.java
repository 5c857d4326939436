package dev.lockscope.analysis.jfr;

/**
 * A field of a {@link JfrType}.
 *
 * @param constantPool the value is a key into the constant pool of {@code typeId}
 * @param array        the value is an array ({@code dimension="1"})
 */
public record JfrField(String name, long typeId, boolean constantPool, boolean array) {
}
