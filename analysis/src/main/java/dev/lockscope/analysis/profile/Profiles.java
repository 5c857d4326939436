package dev.lockscope.analysis.profile;

import java.util.List;
import java.util.ArrayList;
import java.util.Map;
import java.util.TreeMap;

/**
 * The CPU and wall-clock profiles of one recording ({@link ProfileAnalysis}), one calling context
 * tree per thread group (threads of one pool together, {@code VirtualThreads.poolOf}). Frames are
 * methods ({@code package.Class.method}, lines do not split nodes); the wall tree's waits end in a
 * leaf naming what was waited for ({@link ProfileAnalysis#waitLeaf}).
 *
 * @param samplingPeriodNanos the period of the execution samples: from the recording's settings, else
 *                            {@link ProfileAnalysis#DEFAULT_PERIOD_NANOS}
 * @param periodFromRecording whether the recording gave the period
 * @param cpuByGroup          per group, execution samples counted (weight 1 each)
 * @param wallByGroup         per group, nanoseconds: running samples weighted by the time to the thread's
 *                            next sample or recorded wait (at most one period), waits by their durations
 * @param wallRunningNanos    the running share of the wall trees' total
 */
public record Profiles(long samplingPeriodNanos, boolean periodFromRecording,
                       Map<String, CallTree<String>> cpuByGroup, Map<String, CallTree<String>> wallByGroup,
                       long wallRunningNanos) {
    public Profiles {
        cpuByGroup = new TreeMap<>(cpuByGroup);
        wallByGroup = new TreeMap<>(wallByGroup);
    }

    public long cpuSamples() {
        return cpuByGroup.values().stream().mapToLong(CallTree::totalWeight).sum();
    }

    public long wallNanos() {
        return wallByGroup.values().stream().mapToLong(CallTree::totalWeight).sum();
    }

    /** The CPU profile of all threads: the groups are the outermost frames. */
    public CallTree<String> cpu() {
        return combined(cpuByGroup);
    }

    /** The wall-clock profile of all threads: the groups are the outermost frames. */
    public CallTree<String> wall() {
        return combined(wallByGroup);
    }

    /** The profile {@code wall} or not, each group a tree, or all under one root ({@code group == null}). */
    public CallTree<String> tree(boolean wall, String group) {
        Map<String, CallTree<String>> byGroup = wall ? wallByGroup : cpuByGroup;
        return group == null ? combined(byGroup) : byGroup.getOrDefault(group, new CallTree<>());
    }

    private static CallTree<String> combined(Map<String, CallTree<String>> byGroup) {
        CallTree<String> all = new CallTree<>();
        byGroup.forEach((group, tree) -> tree.edgeWeights().forEach((path, self) -> {
            List<String> withGroup = new ArrayList<>(path.size() + 1);
            withGroup.add(group);
            withGroup.addAll(path);
            all.add(withGroup, self);
        }));
        return all;
    }
}
