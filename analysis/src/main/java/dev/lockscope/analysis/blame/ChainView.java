package dev.lockscope.analysis.blame;

import dev.lockscope.core.LockId;

import dev.lockscope.core.Frame;
import dev.lockscope.core.FrameClassifier;
import dev.lockscope.core.FrameKind;

import dev.lockscope.analysis.model.ThreadRef;
import dev.lockscope.analysis.model.VirtualThreads;

import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * How call chains and threads are shown and grouped. By default the JDK's lock internals on top of a
 * chain ({@code LockSupport}, AQS, {@code ReentrantLock.unlock}, {@code Object.wait}, ...) are hidden, and
 * so are the application's own wrappers of them right below ({@code AutoLock.close}, a lock table's
 * {@code Entry.unlock}: methods named like a lock operation, see {@link #WRAPPER_METHODS}), so that a
 * chain starts at the code that used the lock; {@link #RAW} keeps every frame. A program's own wrappers
 * named otherwise ({@code --wrapper REGEX}, {@link #withWrappers}) are hidden too, wherever they are on top.
 */
public final class ChainView {
    public static final ChainView FILTERED = new ChainView(false);
    public static final ChainView RAW = new ChainView(true);
    /** Key of a thread, method or chain nobody knows. */
    public static final String UNKNOWN = "(unknown)";

    /**
     * Methods that wrap a lock operation when they call the JDK's lock internals directly: Jetty's
     * {@code AutoLock.lock}/{@code close}, Derby's {@code ConcurrentLockSet$Entry.lock}/{@code unlock}, a
     * pool's {@code acquire}/{@code release}. Naming the owner or the waiter by them says nothing.
     */
    static final Set<String> WRAPPER_METHODS = Set.of("lock", "unlock", "close", "tryLock", "lockInterruptibly",
            "acquire", "acquireUninterruptibly", "tryAcquire", "release", "await", "signal", "signalAll");

    private final boolean raw;
    /** The user's wrappers beside {@link #WRAPPER_METHODS}, matched against a frame ({@code package.Class.method:line}); or null. */
    private final Pattern wrappers;

    /** The name a report gives a lock ({@link Aspect#LOCK}'s key): its label, or the table's name of its row. */
    private final Function<LockId, String> lockName;

    private ChainView(boolean raw, Pattern wrappers, Function<LockId, String> lockName) {
        this.raw = raw;
        this.wrappers = wrappers;
        this.lockName = lockName;
    }

    private ChainView(boolean raw) {
        this(raw, null, LockId::label);
    }

    public static ChainView of(boolean raw) {
        return raw ? RAW : FILTERED;
    }

    /**
     * This view that also hides, at the top of a chain (above the code that used the lock), the frames
     * {@code wrappers} finds a match in: lock helpers of the program's own ({@code LockUtil.withLock}) whose
     * names the defaults do not know. Null adds none; a raw view hides nothing all the same.
     */
    public ChainView withWrappers(Pattern wrappers) {
        return wrappers == null ? this : new ChainView(raw, wrappers, lockName);
    }

    /** This view naming each lock by {@code lockName} (a report's: the table's name of the lock's row). */
    public ChainView withLockNames(Function<LockId, String> lockName) {
        return new ChainView(raw, wrappers, lockName);
    }

    /** The name of a lock in this view. */
    public String lock(LockId lock) {
        return lockName.apply(lock);
    }

    /** Whether lock internals stay at the top of chains. */
    public boolean isRaw() {
        return raw;
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
        // wrappers by name count only right below the JDK's lock internals: an application method named close is
        // not one otherwise; the user's wrappers count wherever they are on top
        while (first < frames.size() - 1 && isWrapper(frames.get(first), first > 0)) {
            first++;
        }
        return first == frames.size() ? frames : frames.subList(first, frames.size());
    }

    /** The innermost visible method, {@code package.Class.method}, or {@link #UNKNOWN}. */
    public String method(List<String> frames) {
        List<String> v = visible(frames);
        return v.isEmpty() ? UNKNOWN : Frame.parse(v.get(0)).function();
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

    private boolean isWrapper(String frame, boolean belowLockCode) {
        if (wrappers != null && wrappers.matcher(frame).find()) {
            return true;
        }
        Frame f = Frame.parse(frame);
        return f.kind() == FrameKind.LOCK_WRAPPER || belowLockCode && WRAPPER_METHODS.contains(f.method());
    }

    /** Lock machinery on top of a chain (a synchronizer without an owner is released inside its own methods). */
    private static boolean isInternal(String frame) {
        return FrameClassifier.isLockMachinery(Frame.parse(frame));
    }
}
