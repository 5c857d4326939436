package dev.lockscope.report.export;

import dev.lockscope.analysis.profile.Profiles;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A CPU or wall-clock profile as the stack exports (collapsed, pprof) see it: one stack per call path
 * with self time, its thread group as outermost frame, no lock leaf (a wall profile's waits end in
 * their own leaf frame naming the lock, sleep or I/O).
 */
public final class ProfileStacks {
    private ProfileStacks() {
    }

    /**
     * @param wall  the wall-clock profile (nanoseconds), else the CPU profile (samples × period)
     * @param group one thread group, or null for all
     */
    public static List<BlameStacks.Stack> of(Profiles profiles, boolean wall, String group) {
        List<BlameStacks.Stack> stacks = new ArrayList<>();
        profiles.tree(wall, null).edgeWeights().forEach((path, self) -> {
            if (group != null && (path.isEmpty() || !path.get(0).equals(group))) {
                return;
            }
            List<String> innermostFirst = new ArrayList<>(path);
            Collections.reverse(innermostFirst);
            long nanos = nanos(profiles, wall, self);
            stacks.add(new BlameStacks.Stack(innermostFirst, null, null, nanos, wall ? 0 : self));
        });
        return stacks;
    }

    /** The tree's self weights in nanoseconds (the CPU tree counts samples). */
    public static long nanos(Profiles profiles, boolean wall, long weight) {
        return wall ? weight : weight * profiles.samplingPeriodNanos();
    }
}
