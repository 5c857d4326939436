package dev.lockscope.analysis.model;

import java.util.AbstractList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.RandomAccess;

/**
 * The frames of one call chain as the reader interns them, innermost first: an immutable list that
 * keeps its hash. Every analysis keys maps by (lock, thread, frames); a list's own hash walks every
 * frame's text, and that walk, once per event and map, was one of the replay's largest costs. Equal to
 * any list with the same frames, as {@link List} requires, so tests' {@code List.of(...)} stacks key
 * the same entries.
 */
public final class CallStack extends AbstractList<String> implements RandomAccess {
    private final String[] frames;
    private final int hash;

    private CallStack(String[] frames) {
        this.frames = frames;
        this.hash = super.hashCode();
    }

    /** An immutable copy of these frames (none null). */
    public static CallStack of(Collection<String> frames) {
        String[] copy = frames.toArray(String[]::new);
        for (String f : copy) {
            if (f == null) {
                throw new NullPointerException("a null frame");
            }
        }
        return new CallStack(copy);
    }

    @Override
    public String get(int index) {
        return frames[index];
    }

    @Override
    public int size() {
        return frames.length;
    }

    @Override
    public int hashCode() {
        return hash;
    }

    @Override
    public boolean equals(Object o) {
        if (o == this) {
            return true;
        }
        if (o instanceof CallStack other) {
            return hash == other.hash && Arrays.equals(frames, other.frames);
        }
        return o instanceof List<?> && super.equals(o);
    }
}
