package dev.lockscope.agent;

import dev.lockscope.core.Frame;
import dev.lockscope.core.FrameClassifier;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Live owner methods of {@code java.util.concurrent} blockers, for the metrics endpoint: each
 * {@code lockscope.Unpark} event is a release by the lock's owner, and its stack is the owner's at
 * that moment (the same stack owner blame's {@code exact} chains come from). The method counted is the
 * innermost frame outside the JDK and lockscope, so {@code ReentrantLock.unlock} and AQS give way to
 * the application method that released the lock. Counts, not time: a share is the fraction of the
 * blocker's recorded hand-offs released in that method.
 *
 * <p>Bounded: {@link #MAX_BLOCKERS} blockers, {@link #MAX_METHODS} methods each (later ones count as
 * {@link #OTHER}). When a new blocker finds the map full, the half with the fewest releases counted is
 * dropped: in a JVM that runs for days blockers come and go (a lock table's entries, collected
 * objects), and a full map that kept its first blockers would never tally a lock that turns hot later.
 * A blocker dropped and seen again starts counting anew (its shares are fractions of what was counted).
 * Written by the agent's event-stream thread, read by scrapes; guarded by this.
 */
final class OwnerMethods {
    static final int MAX_BLOCKERS = 4096;
    static final int MAX_METHODS = 8;
    static final String OTHER = "other";

    /** Stacks whose releasing method is kept at most; then the cache starts again (bounded memory). */
    static final int MAX_CACHED_STACKS = 4096;
    private static final String NO_METHOD = "";

    private final Map<String, Map<String, Long>> byBlocker = new HashMap<>();
    /**
     * The releasing method of each stack seen, by the stack object's identity. JFR's parser hands out one
     * {@code RecordedStackTrace} per stack of a chunk, so a release site recorded thousands of times is
     * walked once per chunk: walking a frame's method, type and name allocates at every step (on a Jetty
     * server with the endpoint on, that walk was 31% of all bytes the process allocated, measured with
     * scripts/profile-agent.sh). Read and written by the stream's thread only.
     */
    private final Map<RecordedStackTrace, String> methodByStack = new IdentityHashMap<>();

    void accept(RecordedEvent e) {
        RecordedStackTrace stack = e.getStackTrace();
        if (stack == null) {
            return;
        }
        String method = methodByStack.get(stack);
        if (method == null) {
            if (methodByStack.size() >= MAX_CACHED_STACKS) {
                methodByStack.clear();
            }
            method = releasingMethod(stack);
            methodByStack.put(stack, method == null ? NO_METHOD : method);
        }
        if (method == null || method.isEmpty()) {
            return;
        }
        String blocker = e.getString("blockerClass") + "@" + Integer.toHexString(e.getInt("blockerHash"));
        count(blocker, method);
    }

    synchronized void count(String blocker, String method) {
        Map<String, Long> methods = byBlocker.get(blocker);
        if (methods == null) {
            if (byBlocker.size() >= MAX_BLOCKERS) {
                dropLeastReleased();
            }
            methods = new LinkedHashMap<>();
            byBlocker.put(blocker, methods);
        }
        String slot = methods.containsKey(method) || methods.size() < MAX_METHODS ? method : OTHER;
        methods.merge(slot, 1L, Long::sum);
    }

    /** Removes the half of the blockers with the fewest releases counted (ties: any of them). */
    private void dropLeastReleased() {
        List<Map.Entry<String, Long>> totals = new ArrayList<>(byBlocker.size());
        byBlocker.forEach((blocker, methods) -> totals.add(Map.entry(blocker, methods.values().stream().mapToLong(Long::longValue).sum())));
        totals.sort(Map.Entry.comparingByValue());
        for (Map.Entry<String, Long> e : totals.subList(0, totals.size() / 2)) {
            byBlocker.remove(e.getKey());
        }
    }

    synchronized int blockers() {
        return byBlocker.size();
    }

    /** The methods that released this blocker with their shares, most first; empty when none was seen. */
    synchronized List<Map.Entry<String, Double>> shares(String className, String identityHashHex) {
        Map<String, Long> methods = byBlocker.get(className + "@" + identityHashHex);
        if (methods == null) {
            return List.of();
        }
        long total = methods.values().stream().mapToLong(Long::longValue).sum();
        List<Map.Entry<String, Double>> out = new ArrayList<>();
        methods.forEach((m, n) -> out.add(Map.entry(m, (double) n / total)));
        out.sort(Map.Entry.<String, Double>comparingByValue().reversed());
        return out;
    }

    /** The innermost frame outside the JDK and lockscope, as {@code package.Class.method}; null if none. */
    static String releasingMethod(RecordedStackTrace stack) {
        if (stack == null) {
            return null;
        }
        for (RecordedFrame f : stack.getFrames()) {
            if (f.getMethod() == null) {
                continue;
            }
            String type = f.getMethod().getType().getName();
            if (!isLibraryClass(type)) {
                return Frame.format(type, f.getMethod().getName(), -1);
            }
        }
        return null;
    }

    static boolean isLibraryClass(String className) {
        return FrameClassifier.isJdkOrRuntime(className);
    }
}
