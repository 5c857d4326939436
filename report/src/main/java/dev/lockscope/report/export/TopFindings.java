package dev.lockscope.report.export;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The report's headline in sentences, for the top locks of a report document: which lock, where it
 * was waited for, how many threads and how much of the wall time, and, from the {@code blame}
 * member when owners are known, where it was held meanwhile. Names in {@code `backticks`}: the
 * HTML page sets them as code, the text report drops the marks.
 */
public final class TopFindings {
    static final int MAX = 3;
    private static final String[] RUNTIME_PACKAGES = {"java.", "javax.", "jdk.", "sun.", "com.sun.", "dev.lockscope.agent."};

    private TopFindings() {
    }

    public static List<String> of(ObjectNode doc) {
        List<String> out = new ArrayList<>();
        for (JsonNode lock : doc.path("locks")) {
            if (out.size() == MAX || lock.path("totalWaitNanos").asLong() <= 0) {
                break;
            }
            out.add(sentence(lock, entriesOf(doc.path("blame"), lock)));
        }
        if (out.isEmpty()) {
            out.add("No thread waited for a lock in this recording.");
        }
        return out;
    }

    private static List<JsonNode> entriesOf(JsonNode blame, JsonNode lock) {
        List<JsonNode> entries = new ArrayList<>();
        for (JsonNode e : blame) {
            if (e.path("lockClass").asText().equals(lock.path("className").asText())
                    && e.path("lockId").asText().equals(lock.path("identityHash").asText())) {
                entries.add(e);
            }
        }
        return entries;
    }

    private static String sentence(JsonNode lock, List<JsonNode> blame) {
        String name = outerSimpleName(lock.path("className").asText());
        String what = lock.path("kind").asText().equals("monitor") ? "The monitor of `" + name + "`" : "`" + name + "`";
        String waiterMethod = top(blame, "waiterFrames", null);
        if (waiterMethod == null) {
            waiterMethod = appMethod(lock.path("firstFrames"));
        }
        Set<String> waiters = new HashSet<>();
        blame.forEach(e -> waiters.add(e.path("waiterThread").asText()));
        String threads = waiters.isEmpty() ? "up to " + lock.path("peakParked").asInt() + " threads at once"
                : waiters.size() + (waiters.size() == 1 ? " thread" : " threads");
        StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "%s in `%s` blocked %s for %.0f%% of wall time "
                        + "(%.1f s of waiting in all)", what, waiterMethod, threads,
                lock.path("realTimeUtilPct").asDouble(), lock.path("totalWaitNanos").asLong() / 1e9));
        long[] share = new long[2];
        String ownerMethod = top(blame, "ownerFrames", share);
        String ownerThread = ownerMethod == null ? topOwnerThread(blame, share) : null;
        if (ownerMethod != null) {
            s.append(String.format(Locale.ROOT, "; it was held in `%s` %.0f%% of that time", ownerMethod,
                    100.0 * share[0] / Math.max(1, share[1])));
        } else if (ownerThread != null) {
            s.append(String.format(Locale.ROOT, "; it was held by `%s` %.0f%% of that time", ownerThread,
                    100.0 * share[0] / Math.max(1, share[1])));
        } else if (!blame.isEmpty()) {
            s.append("; where it was held meanwhile is not known (no owner blame in this report)");
        }
        return s.append('.').toString();
    }

    /**
     * The method (application frame) with the most blame nanoseconds on the given side, or null when
     * no entry has frames there.
     *
     * @param share if not null, receives {top method's nanos, all entries' nanos}
     */
    private static String top(List<JsonNode> blame, String framesField, long[] share) {
        Map<String, Long> nanos = new HashMap<>();
        long all = 0;
        for (JsonNode e : blame) {
            long n = e.path("nanos").asLong();
            all += n;
            if (e.path(framesField).size() > 0) {
                nanos.merge(appMethod(e.path(framesField)), n, Long::sum);
            }
        }
        String best = null;
        for (Map.Entry<String, Long> m : new java.util.TreeMap<>(nanos).entrySet()) { // ties: first by name
            if (best == null || m.getValue() > nanos.get(best)) {
                best = m.getKey();
            }
        }
        if (share != null && best != null) {
            share[0] = nanos.get(best);
            share[1] = all;
        }
        return best;
    }

    /** The owner thread with the most nanoseconds when owners have no call chains (monitors), or null. */
    private static String topOwnerThread(List<JsonNode> blame, long[] share) {
        Map<String, Long> nanos = new java.util.TreeMap<>();
        long all = 0;
        for (JsonNode e : blame) {
            all += e.path("nanos").asLong();
            if (e.path("ownerThread").isTextual()) {
                nanos.merge(e.path("ownerThread").asText(), e.path("nanos").asLong(), Long::sum);
            }
        }
        String best = null;
        for (Map.Entry<String, Long> m : nanos.entrySet()) {
            if (best == null || m.getValue() > nanos.get(best)) {
                best = m.getKey();
            }
        }
        if (best != null) {
            share[0] = nanos.get(best);
            share[1] = all;
        }
        return best;
    }

    /**
     * {@code Class.method} of the innermost frame outside the JDK and lockscope (where the
     * application asked for or held the lock), or of the innermost frame when all are runtime frames.
     */
    public static String appMethod(JsonNode frames) {
        String chosen = null;
        for (JsonNode f : frames) {
            String frame = f.asText();
            if (chosen == null) {
                chosen = frame;
            }
            if (!isRuntime(frame)) {
                chosen = frame;
                break;
            }
        }
        return chosen == null ? "?" : classAndMethod(chosen);
    }

    private static boolean isRuntime(String frame) {
        for (String p : RUNTIME_PACKAGES) {
            if (frame.startsWith(p)) {
                return true;
            }
        }
        return false;
    }

    /** {@code com.example.Inventory.reserve:42} → {@code Inventory.reserve}. */
    static String classAndMethod(String frame) {
        int colon = frame.lastIndexOf(':');
        String qualified = colon < 0 ? frame : frame.substring(0, colon);
        int method = qualified.lastIndexOf('.');
        int pkg = method < 0 ? -1 : qualified.lastIndexOf('.', method - 1);
        return qualified.substring(pkg + 1);
    }

    /** {@code java.util.concurrent.locks.ReentrantLock$NonfairSync} → {@code ReentrantLock}. */
    static String outerSimpleName(String className) {
        String simple = className.substring(className.lastIndexOf('.') + 1);
        int nested = simple.indexOf('$');
        return nested > 0 ? simple.substring(0, nested) : simple;
    }
}
