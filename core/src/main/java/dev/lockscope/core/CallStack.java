package dev.lockscope.core;

import java.util.AbstractList;
import java.util.Collection;
import java.util.List;
import java.util.RandomAccess;
import java.util.function.Function;

/**
 * The frames of one call chain, innermost first: an immutable list of the frames' texts that keeps its
 * hash and each frame's {@link Frame}, parsed once. The reader interns one per distinct stack (and one
 * {@link Frame} per distinct frame), so the millions of waits of a real recording share a few thousand
 * of them; analyses key maps by (lock, thread, frames), and a list's own hash walks every frame's text.
 * Equal to any list with the same frames, as {@link List} requires, so tests' {@code List.of(...)} stacks
 * key the same entries. A {@link #subList} is a call stack over the same arrays, and {@link #copyOf} keeps
 * a call stack as it is: the records that hold a stack share it rather than copy it.
 */
public final class CallStack extends AbstractList<String> implements RandomAccess {
    private static final CallStack EMPTY = new CallStack(new String[0], new Frame[0], 0, 0);

    private final String[] texts;
    private final Frame[] frames;
    private final int from;
    private final int size;
    private final int hash;

    private CallStack(String[] texts, Frame[] frames, int from, int size) {
        this.texts = texts;
        this.frames = frames;
        this.from = from;
        this.size = size;
        this.hash = super.hashCode();
    }

    /** An immutable copy of these frames (none null), each parsed with {@link Frame#parse}. */
    public static CallStack of(Collection<String> frames) {
        return of(frames, Frame::parse);
    }

    /** An immutable copy of these frames (none null), each turned into its {@link Frame} by {@code frameOf} (an intern table). */
    public static CallStack of(Collection<String> frames, Function<String, Frame> frameOf) {
        if (frames instanceof CallStack stack) {
            return stack;
        }
        String[] copy = frames.toArray(String[]::new);
        if (copy.length == 0) {
            return EMPTY;
        }
        Frame[] parsed = new Frame[copy.length];
        for (int i = 0; i < copy.length; i++) {
            if (copy[i] == null) {
                throw new NullPointerException("a null frame");
            }
            parsed[i] = frameOf.apply(copy[i]);
        }
        return new CallStack(copy, parsed, 0, copy.length);
    }

    /**
     * An immutable list of these frames: a call stack itself, or a sublist of one, unchanged; any other list copied
     * ({@link List#copyOf}). What the records that hold a stack keep, so that they share the reader's.
     */
    public static List<String> copyOf(List<String> frames) {
        return frames instanceof CallStack ? frames : List.copyOf(frames);
    }

    /** The {@link Frame} at {@code index} of a stack: a call stack's own, parsed once; any other list's parsed now. */
    public static Frame frameAt(List<String> frames, int index) {
        return frames instanceof CallStack stack ? stack.frame(index) : Frame.parse(frames.get(index));
    }

    /** The {@link Frame}s of a stack, innermost first: a call stack's own, parsed once; any other list's parsed now. */
    public static List<Frame> framesOf(List<String> frames) {
        if (frames instanceof CallStack stack) {
            return java.util.Arrays.asList(stack.frames).subList(stack.from, stack.from + stack.size);
        }
        List<Frame> out = new java.util.ArrayList<>(frames.size());
        for (String f : frames) {
            out.add(Frame.parse(f));
        }
        return out;
    }

    /**
     * Two stacks in the order of their frames' texts joined by newlines, without joining them: frame by frame, a stack
     * that is the other's beginning first. It is that order because no frame holds a character below a newline: where
     * one frame is the other's beginning, what follows it in the joined text (a newline, or the end) sorts before the
     * other's next character.
     */
    public static int compareJoined(List<String> a, List<String> b) {
        int n = Math.min(a.size(), b.size());
        for (int i = 0; i < n; i++) {
            int c = a.get(i).compareTo(b.get(i));
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(a.size(), b.size());
    }

    /** The parsed frame at {@code index}. */
    public Frame frame(int index) {
        return frames[from + checked(index)];
    }

    @Override
    public String get(int index) {
        return texts[from + checked(index)];
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public CallStack subList(int fromIndex, int toIndex) {
        if (fromIndex < 0 || toIndex > size || fromIndex > toIndex) {
            throw new IndexOutOfBoundsException("subList(" + fromIndex + ", " + toIndex + ") of " + size);
        }
        if (fromIndex == 0 && toIndex == size) {
            return this;
        }
        return toIndex == fromIndex ? EMPTY : new CallStack(texts, frames, from + fromIndex, toIndex - fromIndex);
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
            if (hash != other.hash || size != other.size) {
                return false;
            }
            for (int i = 0; i < size; i++) {
                if (!texts[from + i].equals(other.texts[other.from + i])) {
                    return false;
                }
            }
            return true;
        }
        return o instanceof List<?> && super.equals(o);
    }

    private int checked(int index) {
        if (index < 0 || index >= size) {
            throw new IndexOutOfBoundsException("index " + index + " of " + size);
        }
        return index;
    }
}
