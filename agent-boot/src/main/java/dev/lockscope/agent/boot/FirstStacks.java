package dev.lockscope.agent.boot;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The first stacks and thread names of the blocker records, each kept once and shared: a fresh lock per
 * request parked on from one call site costs one stack, not one per lock. Charged to the registry's byte
 * bound ({@link BlockerRegistry#bytesInUse}); a stack or name that does not fit any more is not kept (the
 * record shows none). Kept for the agent's life: the distinct first-park sites of a program are few.
 * JFR's own stack ids cannot be used here: JFR does not hand them to Java code.
 *
 * <p>Concurrency: two threads capturing the same new stack may both pass the budget check before either
 * inserts, so the bound can be passed by at most one stack per thread capturing at that moment.
 */
final class FirstStacks {
    /** A String, its byte array's header and the map node that holds it, beyond its characters. */
    static final long STRING_BYTES = 72;
    /** The shared array's header, its key list and the map node, beyond 4 bytes per frame. */
    static final long STACK_BYTES = 80;

    private static final ConcurrentHashMap<String, String> STRINGS = new ConcurrentHashMap<>();
    private static final ConcurrentHashMap<List<String>, String[]> STACKS = new ConcurrentHashMap<>();
    private static final AtomicLong BYTES = new AtomicLong();

    private FirstStacks() {
    }

    /** The shared copy of {@code frames}, or null when a new stack does not fit the bound. */
    static String[] share(String[] frames) {
        String[] known = STACKS.get(Arrays.asList(frames));
        if (known != null) {
            return known;
        }
        long need = STACK_BYTES + 4L * frames.length;
        for (String frame : frames) {
            if (!STRINGS.containsKey(frame)) {
                need += stringBytes(frame);
            }
        }
        if (!BlockerRegistry.fits(need)) {
            return null;
        }
        String[] shared = new String[frames.length];
        for (int i = 0; i < frames.length; i++) {
            shared[i] = intern(frames[i]);
        }
        String[] raced = STACKS.putIfAbsent(Arrays.asList(shared), shared);
        if (raced != null) {
            return raced;
        }
        BYTES.addAndGet(STACK_BYTES + 4L * shared.length);
        return shared;
    }

    /** The shared copy of a thread name, or null when a new one does not fit the bound. */
    static String name(String name) {
        String known = STRINGS.get(name);
        if (known != null) {
            return known;
        }
        return BlockerRegistry.fits(stringBytes(name)) ? intern(name) : null;
    }

    private static String intern(String s) {
        String raced = STRINGS.putIfAbsent(s, s);
        if (raced != null) {
            return raced;
        }
        BYTES.addAndGet(stringBytes(s));
        return s;
    }

    /** Two bytes a character: names and frames outside Latin-1 are stored that way. */
    private static long stringBytes(String s) {
        return STRING_BYTES + 2L * s.length();
    }

    static long bytesInUse() {
        return BYTES.get();
    }
}
