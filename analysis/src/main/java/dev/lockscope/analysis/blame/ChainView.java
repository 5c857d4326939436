package dev.lockscope.analysis.blame;

import dev.lockscope.analysis.model.ThreadRef;
import dev.lockscope.analysis.model.VirtualThreads;

import java.util.List;
import java.util.Set;

/**
 * How call chains and threads are shown and grouped. By default the JDK's lock internals on top of a
 * chain ({@code LockSupport}, AQS, {@code ReentrantLock.unlock}, {@code Object.wait}, ...) are hidden, and
 * so are the application's own wrappers of them right below ({@code AutoLock.close}, a lock table's
 * {@code Entry.unlock}: methods named like a lock operation, see {@link #WRAPPER_METHODS}), so that a
 * chain starts at the code that used the lock; {@link #RAW} keeps every frame.
 */
public final class ChainView {
    public static final ChainView FILTERED = new ChainView(false);
    public static final ChainView RAW = new ChainView(true);
    /** Key of a thread, method or chain nobody knows. */
    public static final String UNKNOWN = "(unknown)";

    /**
     * Frames of these prefixes on top of a chain are lock machinery (Condition.await blocks through
     * ForkJoinPool; a synchronizer without an owner is released inside its own methods).
     */
    private static final List<String> INTERNAL_PREFIXES = List.of("java.util.concurrent.locks.", "jdk.internal.misc.Unsafe.",
            "java.util.concurrent.Semaphore.", "java.util.concurrent.CountDownLatch.", "java.util.concurrent.CyclicBarrier.",
            "sun.misc.Unsafe.", "java.util.concurrent.ForkJoinPool.managedBlock", "java.util.concurrent.ForkJoinPool.unmanagedBlock",
            "java.lang.Object.wait");

    /**
     * Methods that wrap a lock operation when they call the JDK's lock internals directly: Jetty's
     * {@code AutoLock.lock}/{@code close}, Derby's {@code ConcurrentLockSet$Entry.lock}/{@code unlock}, a
     * pool's {@code acquire}/{@code release}. Naming the owner or the waiter by them says nothing.
     */
    static final Set<String> WRAPPER_METHODS = Set.of("lock", "unlock", "close", "tryLock", "lockInterruptibly",
            "acquire", "acquireUninterruptibly", "tryAcquire", "release", "await", "signal", "signalAll");

    private final boolean raw;

    private ChainView(boolean raw) {
        this.raw = raw;
    }

    public static ChainView of(boolean raw) {
        return raw ? RAW : FILTERED;
    }

    /** The frames shown: lock internals at the top removed unless raw (all frames when nothing else is left). */
    public List<String> visible(List<String> frames) {
        if (raw) {
            return frames;
        }
        int first = 0;
        while (first < frames.size() && isInternal(frames.get(first))) {
            first++;
        }
        // wrappers count only right below the JDK's lock internals: an application method named close is not one otherwise
        while (first > 0 && first < frames.size() - 1 && isWrapper(frames.get(first))) {
            first++;
        }
        return first == frames.size() ? frames : frames.subList(first, frames.size());
    }

    /** The innermost visible method, {@code package.Class.method}, or {@link #UNKNOWN}. */
    public String method(List<String> frames) {
        List<String> v = visible(frames);
        return v.isEmpty() ? UNKNOWN : FrameText.method(v.get(0));
    }

    /** The visible chain as one key, innermost first, frames separated by {@code " <- "}. */
    public String chain(List<String> frames) {
        List<String> v = visible(frames);
        return v.isEmpty() ? UNKNOWN : String.join(" <- ", v);
    }

    /** {@code name #tid}, or {@link #UNKNOWN}. */
    public static String thread(ThreadRef t) {
        if (t == null || t.equals(ThreadRef.UNKNOWN)) {
            return UNKNOWN;
        }
        return VirtualThreads.isVirtual(t) ? t.name() : t.name() + " #" + t.javaTid(); // "virtual#<id>" has it already
    }

    private static boolean isWrapper(String frame) {
        String method = FrameText.method(frame);
        return WRAPPER_METHODS.contains(method.substring(method.lastIndexOf('.') + 1));
    }

    private static boolean isInternal(String frame) {
        for (String p : INTERNAL_PREFIXES) {
            if (frame.startsWith(p)) {
                return true;
            }
        }
        return false;
    }
}
