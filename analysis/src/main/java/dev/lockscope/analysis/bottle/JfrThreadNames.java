package dev.lockscope.analysis.bottle;

import java.util.HashMap;
import java.util.Map;

/**
 * Java thread names put over the OS names of a scheduling trace (Linux comm names are cut to 15
 * characters); the Java names come from {@link JfrWaits#javaNames()}.
 */
public final class JfrThreadNames {
    private JfrThreadNames() {
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
