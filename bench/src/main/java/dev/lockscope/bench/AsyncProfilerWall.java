package dev.lockscope.bench;

import dev.lockscope.analysis.model.ThreadRef;
import dev.lockscope.analysis.model.VirtualThreads;
import dev.lockscope.analysis.profile.CallTree;
import dev.lockscope.analysis.profile.ProfileAnalysis;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * async-profiler's wall-clock profile made comparable with lockscope's, both normalised where they
 * differ by construction (the profile-agreement section of the performance report).
 *
 * <p>async-profiler's side is its converter's collapsed output of the {@code profiler.WallClockSample}
 * events of its own JFR file ({@code jfrconv --wall --threads --dot -o collapsed}): one line per distinct
 * stack, {@code [thread-name tid=N];outermost_[j];...;innermost_[i] samples}, the thread first, each Java
 * frame with a suffix naming how it ran ({@code _[0]} interpreted, {@code _[1]} C1, {@code _[j]} JIT,
 * {@code _[i]} inlined), native and kernel frames without one or with {@code _[k]}. Normalised:
 * <ul>
 *   <li>threads grouped as lockscope groups them ({@link VirtualThreads#poolOf}: {@code bench-3} is
 *       {@code bench-*});</li>
 *   <li>only Java frames are kept, as methods with lambda class numbers dropped
 *       ({@link ProfileAnalysis#method}); a sample without any Java frame is one async-profiler could not
 *       walk ({@code unknown_Java}, {@code not_walkable_Java}, {@code deoptimization}, {@code GC_active}, or
 *       the JVM's own threads): it is counted apart, not compared;</li>
 *   <li>the innermost frames that are the JDK's blocking calls ({@link #BLOCKING_CALLS}) are dropped, on
 *       both sides, so that a wait ends at the method that called into the JDK to wait.</li>
 * </ul>
 * On lockscope's side the wait leaf ({@code [blocked on X]}, {@code [parked on X]}, {@code [sleeping]},
 * ...) is dropped: async-profiler's stacks do not say what a thread waited for, so a wait and a running
 * sample in the same method are one call path in both profiles.
 */
final class AsyncProfilerWall {
    /**
     * The JDK's methods in which a thread parks, waits, sleeps or blocks in file or socket I/O: the
     * innermost frames of a waiting thread's stack, where the two profilers' stacks differ by JDK and
     * by construction (JDK 17's JFR ends a sleep at {@code Thread.sleep}, JDK 25's at its caller,
     * async-profiler at {@code Thread.sleepNanos0} under both; lockscope's park event ends at
     * {@code LockSupport.park}, async-profiler at {@code Unsafe.park} under it).
     */
    static final Set<String> BLOCKING_CALLS = Set.of(
            "jdk.internal.misc.Unsafe.park", "java.lang.Object.wait", "java.lang.Object.wait0", "java.lang.Thread.sleep",
            "java.lang.Thread.sleep0", "java.lang.Thread.sleepNanos", "java.lang.Thread.sleepNanos0", "java.io.FileOutputStream.writeBytes", "java.io.FileInputStream.readBytes",
            "java.io.RandomAccessFile.writeBytes", "java.io.RandomAccessFile.readBytes",
            "sun.nio.ch.SocketDispatcher.read0", "sun.nio.ch.SocketDispatcher.write0", "sun.nio.ch.Net.poll",
            "sun.nio.ch.FileDispatcherImpl.read0", "sun.nio.ch.FileDispatcherImpl.write0",
            "sun.nio.ch.FileDispatcherImpl.pread0", "sun.nio.ch.FileDispatcherImpl.pwrite0");
    /** {@code [name tid=N]}, or {@code [tid=N]} for a thread without a name. */
    private static final Pattern THREAD = Pattern.compile("^\\[(?:(.*) )?tid=(\\d+)]$");
    private static final Pattern JAVA_FRAME = Pattern.compile("^(.*)_\\[[01ji]]$");

    private AsyncProfilerWall() {
    }

    /**
     * async-profiler's wall profile, one tree per thread group, weights in samples.
     *
     * @param byGroup           the samples with at least one Java frame, by group, as normalised paths
     * @param unwalkableByGroup the samples without a Java frame, by group (not in {@code byGroup})
     */
    record Profile(Map<String, CallTree<String>> byGroup, Map<String, Long> unwalkableByGroup) {
        long samples(String group) {
            CallTree<String> tree = byGroup.get(group);
            return tree == null ? 0 : tree.totalWeight();
        }

        long unwalkable(String group) {
            return unwalkableByGroup.getOrDefault(group, 0L);
        }
    }

    /** Reads {@code jfrconv --wall --threads --dot -o collapsed} output; a line of another shape is an error. */
    static Profile parseCollapsed(Iterable<String> lines) {
        Map<String, CallTree<String>> byGroup = new TreeMap<>();
        Map<String, Long> unwalkable = new TreeMap<>();
        for (String line : lines) {
            if (line.isBlank()) {
                continue;
            }
            int space = line.lastIndexOf(' ');
            String[] frames = space < 0 ? new String[0] : line.substring(0, space).split(";");
            Matcher thread = frames.length == 0 ? null : THREAD.matcher(frames[0]);
            if (thread == null || !thread.matches()) {
                throw new IllegalArgumentException("not a collapsed stack with its thread first (--threads): " + line);
            }
            long samples = Long.parseLong(line.substring(space + 1));
            List<String> rootFirst = new ArrayList<>();
            for (int i = 1; i < frames.length; i++) {
                Matcher java = JAVA_FRAME.matcher(frames[i]);
                if (java.matches()) {
                    rootFirst.add(ProfileAnalysis.method(java.group(1)));
                }
            }
            List<String> innermostFirst = new ArrayList<>(rootFirst);
            java.util.Collections.reverse(innermostFirst);
            String name = thread.group(1) == null ? "" : thread.group(1);
            String group = VirtualThreads.poolOf(new ThreadRef(0, Long.parseLong(thread.group(2)), name), innermostFirst);
            if (rootFirst.isEmpty()) {
                unwalkable.merge(group, samples, Long::sum);
            } else {
                byGroup.computeIfAbsent(group, g -> new CallTree<>()).add(comparablePath(rootFirst), samples);
            }
        }
        return new Profile(byGroup, unwalkable);
    }

    /** lockscope's wall tree of one group with its paths made comparable ({@link #comparablePath}). */
    static CallTree<String> comparable(CallTree<String> lockscopeWall) {
        CallTree<String> out = new CallTree<>();
        lockscopeWall.edgeWeights().forEach((path, weight) -> out.add(comparablePath(path), weight));
        return out;
    }

    /**
     * A call path (outermost first, methods) without its wait leaf ({@code [...]}) and without the JDK's
     * blocking calls at its innermost end.
     */
    static List<String> comparablePath(List<String> rootFirst) {
        int end = rootFirst.size();
        if (end > 0 && rootFirst.get(end - 1).startsWith("[")) {
            end--;
        }
        while (end > 0 && BLOCKING_CALLS.contains(rootFirst.get(end - 1))) {
            end--;
        }
        return List.copyOf(rootFirst.subList(0, end));
    }
}
