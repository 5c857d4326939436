package dev.lockscope.analysis.whatif;

import dev.lockscope.core.LockId;
import dev.lockscope.analysis.deep.DeepResult;
import dev.lockscope.analysis.model.DeepLock;
import dev.lockscope.core.LockKind;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A lock whose every hold deep mode timed, and the most the program's throughput can grow while its holds
 * stay as long: a lock cannot be held more than all the time, so if it was held a share U of the run, the
 * program can do at most 1/U times as many operations (each operation keeping its holds of it): a change of
 * at most {@code 100 (1/U - 1)} percent. This is what the replay lacks for a lock below another: taken only
 * while the upper lock is held, nobody ever waits for it, so the recording's waits do not show it, while
 * deep mode counts it at every acquisition (Guerin et al.'s layers: removing the upper lock makes it the next).
 *
 * @param lock           the lock as deep mode names it (class and identity hash)
 * @param site           where it was first locked, {@code package.Class.method:line}
 * @param utilisationPct percent of the recording it was held (deep mode's %UTIL)
 */
public record HoldCeiling(LockId lock, String site, double utilisationPct) {
    /** The largest throughput change, percent, with which its holds still fit in the run. */
    public double maxChangePct() {
        return utilisationPct <= 0 ? Double.POSITIVE_INFINITY : 100 * (100 / utilisationPct - 1);
    }

    /** Every lock deep mode timed in the recording, none when it was not recorded in deep mode (null). */
    public static List<HoldCeiling> of(DeepResult deep) {
        List<HoldCeiling> out = new ArrayList<>();
        if (deep == null) {
            return out;
        }
        for (DeepLock l : deep.locks()) {
            double util = l.counts().utilPct(deep.durationNanos());
            if (util > 0) {
                LockKind kind = l.kind().equals("monitor") ? LockKind.MONITOR : LockKind.PARK;
                out.add(new HoldCeiling(new LockId(kind, l.lockClass(), Integer.toHexString(l.lockHash())), l.firstSite(), util));
            }
        }
        return out;
    }

    /**
     * Whether this is deep mode's record of {@code changed}, a lock of the recording's waits: the same class
     * (a {@code java.util.concurrent} lock parks on its inner {@code Sync}), and first locked at one of the
     * sites its holds were taken at, or the only lock of that class deep mode saw. (The two name an object
     * differently: deep mode by identity hash, a monitor wait by the JVM's monitor address.)
     */
    boolean isDeepRecordOf(LockId changed, Set<String> changedSites, List<HoldCeiling> all) {
        String deepClass = lock.lockClass();
        if (!changed.lockClass().equals(deepClass) && !changed.lockClass().startsWith(deepClass + "$")) {
            return false;
        }
        if (site != null && changedSites.contains(callerSite(site))) {
            return true;
        }
        return all.stream().filter(c -> c.lock.lockClass().equals(deepClass)).count() == 1;
    }

    /**
     * The site as a wait's stack names it: a JDK monitor deep mode sees at a call of a synchronized method is
     * locked in a synthetic {@code Caller.lockscope$caller$method:line}, which is {@code Caller.caller:line}.
     */
    static String callerSite(String site) {
        return site.replaceFirst("\\.lockscope\\$([^$.]+)\\$[^:]*", ".$1");
    }
}
