package dev.lockscope.report.rules;

import dev.lockscope.analysis.blame.BlameRow;
import dev.lockscope.core.LockKind;
import dev.lockscope.core.LockMetrics;

import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;

/**
 * What to change, for a lock whose evidence fits a known shape: one sentence from the first rule that applies,
 * naming its evidence, or none. Each rule looks only at what the recording shows of the lock: its class, where
 * it was waited for, what its holders did inside the hold ({@link LockSentence#doing}) and who released it
 * ({@link LockSentence#releaser}).
 */
final class Remedies {
    private Remedies() {
    }

    /**
     * What the finding says of one lock.
     *
     * @param doing    the holders' code inside the hold, {@code Class.method}, or null
     * @param releaser the code that released a blocker without an owner, or null
     */
    record Evidence(LockMetrics lock, List<BlameRow> blame, String doing, String releaser) {
        boolean anyFrame(Predicate<String> test) {
            if (lock.firstFrames().stream().anyMatch(test)) {
                return true;
            }
            for (BlameRow r : blame) {
                if (r.waiterFrames().stream().anyMatch(test) || r.ownerFrames().stream().anyMatch(test)
                        || r.ownerInside().stream().anyMatch(test)) {
                    return true;
                }
            }
            return false;
        }
    }

    private record Rule(Predicate<Evidence> applies, java.util.function.Function<Evidence, String> advice) {
    }

    private static final List<Rule> RULES = List.of(
            // a loader or callback inside ConcurrentHashMap.compute runs under the bin's monitor (Caffeine, computeIfAbsent)
            new Rule(e -> e.lock().kind() == LockKind.MONITOR && e.lock().className().startsWith("java.util.concurrent.ConcurrentHashMap$")
                    && e.doing() != null,
                    e -> "the holders' code runs inside ConcurrentHashMap.compute, under the map bin's lock, while the "
                            + "other callers for that key wait: load asynchronously (Caffeine's AsyncLoadingCache or "
                            + "refreshAfterWrite) or make `" + e.doing() + "` faster"),
            // HSQLDB's LOCKS mode: two-phase locks of whole tables, released at commit
            new Rule(e -> e.lock().className().startsWith("org.hsqldb.lib.CountUpDownLatch") && e.releaser() != null
                    && e.anyFrame(f -> f.contains("endTransactionTPL") || f.contains("TransactionManager2PL")),
                    e -> "HSQLDB's LOCKS mode locks whole tables until commit: `SET DATABASE TRANSACTION CONTROL MVCC` "
                            + "locks rows instead, or commit sooner"),
            // a pool whose objects are all borrowed: commons-pool2's borrowers queue in the pool's deque
            new Rule(e -> e.anyFrame(f -> f.startsWith("org.apache.commons.pool2.impl.GenericObjectPool.borrowObject")
                    || f.startsWith("org.apache.commons.pool2.impl.GenericKeyedObjectPool.borrowObject")),
                    e -> String.format(Locale.ROOT, "the pool's objects were all borrowed while up to %s waited for one: "
                            + "a pool of more objects (maxTotal at least the borrowers' arrival rate times their hold), "
                            + "or borrowers that hold them for less time",
                            e.lock().peakParked() == 1 ? "1 thread" : e.lock().peakParked() + " threads")),
            // a logging framework writing under its appender's lock
            new Rule(e -> e.anyFrame(f -> f.startsWith("org.apache.logging.log4j.core.appender.OutputStreamManager.")
                    || f.startsWith("ch.qos.logback.core.OutputStreamAppender.")),
                    e -> "every log event is written to its file under the appender's lock: an asynchronous appender "
                            + "(log4j2's AsyncAppender or async loggers, logback's AsyncAppender) takes the write off the "
                            + "logging threads"),
            // one lock around a plain map: the holders are inside HashMap, LinkedHashMap or TreeMap
            new Rule(e -> !e.blame().isEmpty() && e.blame().stream().anyMatch(r -> !r.ownerInside().isEmpty()
                    && isPlainMap(r.ownerInside().get(0))),
                    e -> "its holders work inside a plain map under one lock: a ConcurrentHashMap, or the map split "
                            + "over several locks (lock striping)"));

    private static boolean isPlainMap(String frame) {
        return frame.startsWith("java.util.HashMap.") || frame.startsWith("java.util.LinkedHashMap.")
                || frame.startsWith("java.util.TreeMap.");
    }

    /** The advice for the lock, {@code "What to change: …."}, or null when no rule applies. */
    static String of(Evidence e) {
        for (Rule r : RULES) {
            if (r.applies().test(e)) {
                return "What to change: " + r.advice().apply(e) + ".";
            }
        }
        return null;
    }
}
