package dev.lockscope.analysis.bottle;

import dev.lockscope.analysis.model.RecordingReader;
import dev.lockscope.analysis.model.RecordingVisitor;
import dev.lockscope.analysis.model.ThreadRef;

import java.util.HashMap;
import java.util.Map;

/**
 * The Java names of a recording's threads by OS thread id, put over the OS names of a scheduling trace (Linux comm
 * names are cut to 15 characters and the main thread's is "java"). Told of every thread of each chunk's thread pool,
 * JFR's own among them, which the events' threads alone would miss.
 */
public final class JfrThreadNames implements RecordingVisitor, RecordingReader.ThreadVisitor {
    private final Map<Integer, String> javaNames = new HashMap<>();

    @Override
    public void thread(ThreadRef t) {
        if (t.osTid() > 0 && t.osTid() <= Integer.MAX_VALUE && t.javaTid() > 0 && !t.name().isEmpty()) {
            javaNames.put((int) t.osTid(), t.name());
        }
    }

    /** Java thread names by OS thread id; threads without a Java name (GC, JIT) are absent. */
    public Map<Integer, String> javaNames() {
        return Map.copyOf(javaNames);
    }

    /** {@code osNames} with the Java names put over the OS names of the same threads. */
    public static Map<Integer, String> merge(Map<Integer, String> osNames, Map<Integer, String> javaNames) {
        Map<Integer, String> out = new HashMap<>(osNames);
        javaNames.forEach((tid, n) -> {
            if (osNames.containsKey(tid)) {
                out.put(tid, n);
            }
        });
        return out;
    }
}
