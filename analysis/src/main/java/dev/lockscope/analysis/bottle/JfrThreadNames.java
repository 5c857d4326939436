package dev.lockscope.analysis.bottle;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * Java thread names by OS thread id, from the threads that JFR events of a recording carry
 * ({@code RecordedThread.getOSThreadId()}). Linux comm names are cut to 15 characters and the main
 * thread's is "java"; these are the full Java names. Threads without a Java name (GC, JIT) keep
 * their OS name.
 */
public final class JfrThreadNames {
    private JfrThreadNames() {
    }

    public static Map<Integer, String> read(Path recording) throws IOException {
        Map<Integer, String> names = new HashMap<>();
        try (RecordingFile f = new RecordingFile(recording)) {
            while (f.hasMoreEvents()) {
                RecordedEvent e = f.readEvent();
                RecordedThread t = e.getThread();
                if (t != null) {
                    put(names, t);
                }
                if (e.hasField("thread") && e.getValue("thread") instanceof RecordedThread other) {
                    put(names, other); // jdk.ThreadStart/End name the started thread here
                }
            }
        }
        return names;
    }

    private static void put(Map<Integer, String> names, RecordedThread t) {
        long tid = t.getOSThreadId();
        String name = t.getJavaName();
        if (tid > 0 && tid <= Integer.MAX_VALUE && name != null && !name.isEmpty()) {
            names.put((int) tid, name);
        }
    }

    /** {@code names} with the Java names put over the OS names. */
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
