package dev.lockscope.report.rules;

import dev.lockscope.core.CallStack;
import dev.lockscope.core.Frame;
import dev.lockscope.analysis.blame.BlameRow;
import dev.lockscope.analysis.blame.ConvoyWaiters;
import dev.lockscope.analysis.blame.OwnerChain;
import dev.lockscope.analysis.blame.ReleaseSite;
import dev.lockscope.analysis.blame.WaitRow;
import dev.lockscope.analysis.model.ThreadRef;
import dev.lockscope.core.LockFindings;
import dev.lockscope.core.LockKind;
import dev.lockscope.core.LockLabels;
import dev.lockscope.core.LockMetrics;

import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.ToLongFunction;

/**
 * A lock in one sentence: which lock, where it was waited for, how many threads and how much of
 * the wall time, and, when owners are known, where (or by whom) it was held meanwhile.
 */
final class LockSentence {
    private LockSentence() {
    }

    /**
     * @param label the lock's row as the table names it ({@link LockLabels}): the finding names the same row
     * @param waits its conditional waits: a condition's waiters (an exhausted pool's borrowers) waited for what
     *              their notifiers gave back, taken where those had waited for it themselves
     */
    static String of(LockMetrics lock, String label, List<BlameRow> blame, List<WaitRow> waits) {
        Top waiterMethod = top(blame, r -> r.waiterFrames().isEmpty() ? null : appMethod(r.waiterFrames()));
        Set<String> waiters = new HashSet<>();
        blame.stream().filter(r -> !ConvoyWaiters.isGroup(r.waiterThread())).forEach(r -> waiters.add(r.waiterThread().name()));
        // the same words as the agent's findings of its table, which has no blame to count waiters or weigh their places
        StringBuilder s = new StringBuilder(LockFindings.head(lock, label, waiterMethod == null ? null : waiterMethod.key,
                waiters.size()));
        // held in: the owners' stacks inside a hold, not those sampled perhaps between two tenures
        Top ownerMethod = top(blame, r -> r.ownerFrames().isEmpty() || r.ownerChain() == OwnerChain.SAMPLED_OUTSIDE_HOLD
                || r.ownerChain() == OwnerChain.NO_OWNER ? null : appMethod(withoutOwnClass(r.ownerFrames(), lock)));
        // a latch, a condition, a pool has no holder: who released it, and in what code, is the answer
        Top releaser = top(blame, r -> r.ownerChain() != OwnerChain.NO_OWNER || r.ownerFrames().isEmpty() ? null
                : releaser(r.ownerFrames()));
        if (releaser != null && (ownerMethod == null || releaser.pct > ownerMethod.pct)) {
            return s.append(String.format(Locale.ROOT, "; they waited for a release, made in `%s` %.0f%% of that time",
                    releaser.key, releaser.pct)).append('.').toString();
        }
        Top tookIn = blame.isEmpty() ? top(waits, WaitRow::nanos, w -> w.notifierTookIn().isEmpty() ? null
                : releaser(w.notifierTookIn())) : null;
        if (tookIn != null) {
            return s.append(String.format(Locale.ROOT, "; what they waited for was given back by threads that had taken it "
                    + "in `%s` %.0f%% of that time", tookIn.key, tookIn.pct)).append('.').toString();
        }
        Top doing = top(blame, r -> doing(r.ownerInside()));
        // a class initialiser's notifier seen outside its initialiser was past its notifyAll: not what was waited for
        Top seenOutside = ownerMethod != null || LockLabels.isClassInitialisation(lock) ? null : top(blame, r -> r.ownerFrames().isEmpty()
                || r.ownerChain() != OwnerChain.SAMPLED_OUTSIDE_HOLD ? null : appMethod(r.ownerFrames()));
        Top ownerThread = ownerMethod != null || seenOutside != null ? null
                : top(blame, r -> r.ownerThread() == null || r.ownerThread().equals(ThreadRef.UNKNOWN) ? null : r.ownerThread().name());
        if (ownerMethod != null && LockLabels.isClassInitialisation(lock)) {
            // its notifier held the init lock while it ran a static initialiser (MonitorOwnerChains): that is the code
            s.append(String.format(Locale.ROOT, "; the class was being initialised in `%s` %.0f%% of that time",
                    ownerMethod.key, ownerMethod.pct));
        } else if (ownerMethod != null && lock.kind() == LockKind.WAIT) {
            // the notifier released what the waiters waited for: it held that in its chain (or took it there)
            s.append(String.format(Locale.ROOT, "; the threads that notified them held it in `%s` %.0f%% of that time",
                    ownerMethod.key, ownerMethod.pct));
        } else if (ownerMethod != null) {
            if (doing != null && !doing.key.equals(ownerMethod.key)) {
                // what the holders did under the lock-taking frame (a loader, a write), with that frame as context
                s.append(String.format(Locale.ROOT, "; its holders were in `%s` %.0f%% of that time, holding it in `%s`",
                        doing.key, doing.pct, ownerMethod.key));
            } else {
                s.append(String.format(Locale.ROOT, "; it was held in `%s` %.0f%% of that time", ownerMethod.key, ownerMethod.pct));
            }
        } else if (seenOutside != null) {
            s.append(String.format(Locale.ROOT, "; its owner was seen in `%s` %.0f%% of that time (not in a method seen "
                    + "taking it)", seenOutside.key, seenOutside.pct));
        } else if (ownerThread != null) {
            s.append(String.format(Locale.ROOT, "; it was held by `%s` %.0f%% of that time", ownerThread.key, ownerThread.pct));
        } else if (!blame.isEmpty()) {
            s.append("; who held it meanwhile is not known");
        }
        return s.append('.').toString();
    }

    /** What to change about the lock ({@link Remedies}), from the same evidence as {@link #of}; null when no rule applies. */
    static String remedy(LockMetrics lock, List<BlameRow> blame) {
        Top doing = top(blame, r -> doing(r.ownerInside()));
        Top releaser = top(blame, r -> r.ownerChain() != OwnerChain.NO_OWNER || r.ownerFrames().isEmpty() ? null
                : releaser(r.ownerFrames()));
        return Remedies.of(new Remedies.Evidence(lock, blame, doing == null ? null : doing.key,
                releaser == null ? null : releaser.key));
    }

    /** A key with the most nanoseconds and its share (%) of all the rows' nanoseconds. */
    private record Top(String key, double pct) {
    }

    /** The key with the most blame nanoseconds (ties: the first by name), or null when no row has one. */
    private static Top top(List<BlameRow> rows, Function<BlameRow, String> keyOf) {
        return top(rows, BlameRow::nanos, keyOf);
    }

    private static <R> Top top(List<R> rows, ToLongFunction<R> nanosOf, Function<R, String> keyOf) {
        Map<String, Long> nanos = new TreeMap<>();
        long all = 0;
        for (R r : rows) {
            long n = nanosOf.applyAsLong(r);
            all += n;
            String key = keyOf.apply(r);
            if (key != null) {
                nanos.merge(key, n, Long::sum);
            }
        }
        String best = null;
        for (Map.Entry<String, Long> e : nanos.entrySet()) {
            if (best == null || e.getValue() > nanos.get(best)) {
                best = e.getKey();
            }
        }
        return best == null ? null : new Top(best, 100.0 * nanos.get(best) / Math.max(1, all));
    }

    /**
     * What a holder was doing inside its hold ({@code BlameRow.ownerInside}, innermost first): the innermost
     * application frame there ({@code CacheLoads.slowLoad}, sleeping in {@code Thread.sleep} or computing); null
     * when no stack inside the hold has an application frame (then the lock-taking frame is the answer).
     */
    static String doing(List<String> inside) {
        for (Frame f : CallStack.framesOf(inside)) {
            if (f.kind().isApplication()) {
                return f.classAndMethod();
            }
        }
        return null;
    }

    /** The release site's label ({@link ReleaseSite}), or null for a stack with no application frame. */
    static String releaser(List<String> frames) {
        ReleaseSite site = ReleaseSite.of(frames);
        return site == null ? null : site.label();
    }

    /** {@link LockFindings#appMethod}. */
    static String appMethod(List<String> frames) {
        return LockFindings.appMethod(frames);
    }

    /**
     * A wait/notify lock's notifier frames without those on top in the lock object's own package: the
     * lock manager's own code (its grant method, where the notifier took it) says nothing about who held
     * it where. All frames when every one is there; other kinds' frames as they are (a monitor's owner
     * method is often the lock's own {@code synchronized} method, which is the answer).
     */
    static List<String> withoutOwnClass(List<String> frames, LockMetrics lock) {
        if (lock.kind() != LockKind.WAIT) {
            return frames;
        }
        String own = lock.className().substring(0, lock.className().lastIndexOf('.') + 1);
        int first = 0;
        while (first < frames.size() - 1 && isIn(own, CallStack.frameAt(frames, first).function())) {
            first++;
        }
        return frames.subList(first, frames.size());
    }

    /** Whether {@code package.Class.method} is in a class of {@code pkg} (with its trailing dot) itself. */
    private static boolean isIn(String pkg, String function) {
        String cls = function.substring(0, Math.max(0, function.lastIndexOf('.')));
        return cls.startsWith(pkg) && cls.indexOf('.', pkg.length()) < 0;
    }
}
