package dev.lockscope.core;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The names of the rows of a table: the shortest form that tells every shown row apart, never one cut to
 * ambiguity. A row is named by the lock's class and its site (the acquiring application frame past lock
 * wrappers, {@link LockSites}), or by class and identity hash for one object ({@code --instances}). The
 * forms, tried in order until no two rows share a name: the class's own name with the frame's class and
 * method ({@code Node at BoundedLocalCache.doComputeIfAbsent:2686}; a synchronizer by its lock,
 * {@code ReentrantLock}), then with enclosing classes ({@code ConcurrentHashMap$Node}), then with packages.
 * A JVM class-initialisation lock is named as such, and a row with no stack says why it has none.
 * The exit table, {@code report} (text, JSON, HTML), findings and blame all take their names from here.
 */
public final class LockLabels {
    private LockLabels() {
    }

    /** The forms from shortest to fullest: own name, with enclosing classes, with packages. */
    private static final int SIMPLE = 0;
    private static final int ENCLOSING = 1;
    private static final int QUALIFIED = 2;

    /** The label of each row, unique among {@code rows} (by identity of the row). */
    public static Map<LockMetrics, String> of(List<LockMetrics> rows) {
        Map<LockMetrics, Integer> level = new IdentityHashMap<>();
        for (LockMetrics r : rows) {
            level.put(r, SIMPLE);
        }
        for (int round = SIMPLE; round < QUALIFIED; round++) {
            Map<String, List<LockMetrics>> byLabel = new HashMap<>();
            for (LockMetrics r : rows) {
                byLabel.computeIfAbsent(r.kind() + " " + label(r, level.get(r)), k -> new ArrayList<>()).add(r);
            }
            boolean changed = false;
            for (List<LockMetrics> same : byLabel.values()) {
                if (same.size() > 1) {
                    for (LockMetrics r : same) {
                        level.put(r, level.get(r) + 1);
                    }
                    changed = true;
                }
            }
            if (!changed) {
                break;
            }
        }
        Map<LockMetrics, String> out = new IdentityHashMap<>();
        for (LockMetrics r : rows) {
            out.put(r, label(r, level.get(r)));
        }
        return out;
    }

    /** The shortest label of one row, as if it were the only one shown. */
    public static String of(LockMetrics row) {
        return label(row, SIMPLE);
    }

    /**
     * A thread waiting for another to finish a class's static initialiser: JFR records it as an Object.wait
     * on the class's init lock, which HotSpot makes an {@code int[0]}, with the frame that needed the class
     * on top instead of {@code Object.wait} (seen on JDK 25: the virtual-thread unblocker waiting for
     * {@code main} to initialise {@code VirtualThread}).
     */
    public static boolean isClassInitialisation(LockMetrics lock) {
        return lock.className().equals("[I") && !lock.firstFrames().isEmpty()
                && !Frame.parse(lock.firstFrames().get(0)).function().startsWith("java.lang.Object.wait");
    }

    private static String label(LockMetrics r, int level) {
        String count = r.instances() == 1 ? "" : " x" + r.instances();
        if (isClassInitialisation(r)) {
            // the init lock's object is an int[]: the frame on top is the code that needed the class
            return "class initialisation at " + frame(Frame.parse(r.firstFrames().get(0)), level) + count;
        }
        String cls = className(r.className(), level);
        if (!r.isSite()) {
            return cls + "@" + r.identityHash();
        }
        String site = r.identityHash().substring(LockSites.SITE_PREFIX.length());
        if (site.equals("?")) {
            return cls + " (" + noStackReason(r) + ")" + count;
        }
        return cls + " at " + frame(Frame.parse(site), level) + count;
    }

    /** Why a row has no stack: what the agent and JFR leave out. */
    private static String noStackReason(LockMetrics r) {
        return r.kind() == LockKind.PARK ? "no stack: first parked at an idle place, where the agent records none"
                : "no stack: JFR recorded its waits without one";
    }

    private static String frame(Frame f, int level) {
        return level == QUALIFIED ? f.toString() : f.withoutPackage();
    }

    private static String className(String binaryName, int level) {
        if (level == QUALIFIED) {
            return binaryName;
        }
        String simple = Frame.simpleName(binaryName);
        if (level == ENCLOSING) {
            return simple;
        }
        int nested = simple.lastIndexOf('$');
        if (nested < 0 || nested == simple.length() - 1) {
            return simple;
        }
        String own = simple.substring(nested + 1);
        // a synchronizer (ReentrantLock$NonfairSync) and an anonymous class (Foo$1) say less than the class around them
        return own.endsWith("Sync") || Character.isDigit(own.charAt(0)) ? simple.substring(0, nested) : own;
    }
}
