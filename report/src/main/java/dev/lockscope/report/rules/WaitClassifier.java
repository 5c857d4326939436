package dev.lockscope.report.rules;

import dev.lockscope.core.Frame;
import dev.lockscope.core.FrameKind;
import dev.lockscope.analysis.blame.BlameRow;
import dev.lockscope.analysis.blame.WaitRow;
import dev.lockscope.analysis.model.ThreadRef;
import dev.lockscope.core.JucLocks;
import dev.lockscope.core.LockKind;
import dev.lockscope.core.IdlePlaces;
import dev.lockscope.core.LockLabels;
import dev.lockscope.core.LockMetrics;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Says of every waited-for lock whether its waits were contention (threads waiting for something
 * another thread held), idle (workers waiting for work) or other, and which named rule decided.
 * The rules are tried in order: the user's {@code --contention} and {@code --idle} patterns, waits
 * inside lockscope's agent or JFR (other), the idle places of the JDK's and Jetty's pools ({@link IdlePlaces}), a lock
 * taken (an exclusive lock or a monitor entry, or an {@code Object.wait} another thread notified: a lock
 * built on wait/notify), then conditions by whether a releasing thread woke the waiter.
 *
 * @param idle       {@code --idle}: a lock whose class or a waiting frame matches is idle; null for none
 * @param contention {@code --contention}: likewise contention, before every other rule; null for none
 */
public record WaitClassifier(Pattern idle, Pattern contention) {
    public static final WaitClassifier DEFAULTS = new WaitClassifier(null, null);

    /** What a lock's waits are, and the rule that said so (its name shows in text and JSON). */
    public record Verdict(WaitClass waitClass, String rule) {
        /** Rule name of the waits of lockscope's and JFR's own threads. */
        public static final String LOCKSCOPE_OWN = "lockscope-own";

        /** Whether owner blame shows these waits: not a worker waiting for work, nor the profiler's own threads. */
        public boolean blamed() {
            return waitClass != WaitClass.IDLE && !rule.equals(LOCKSCOPE_OWN);
        }
    }

    /**
     * Waits for another thread or a child process to end, in Object.wait, woken by the JVM's notify
     * when it ends: neither a lock nor work (other).
     */
    private static final List<IdlePlaces.Place> END_WAITS = List.of(
            new IdlePlaces.Place("thread-join", "java.lang.Thread.join"),
            new IdlePlaces.Place("process-wait", "java.lang.ProcessImpl.waitFor"));

    /** Parses the two options; a bad pattern is an {@link IllegalArgumentException} naming the option. */
    public static WaitClassifier of(String idleRegex, String contentionRegex) {
        return new WaitClassifier(compile("--idle", idleRegex), compile("--contention", contentionRegex));
    }

    private static Pattern compile(String option, String regex) {
        if (regex == null) {
            return null;
        }
        try {
            return Pattern.compile(regex);
        } catch (java.util.regex.PatternSyntaxException e) {
            throw new IllegalArgumentException(option + ": not a regular expression: " + e.getDescription()
                    + " in '" + regex + "'");
        }
    }

    /** {@link #classify(LockMetrics, List, List)} for a lock with no conditional waits. */
    public Verdict classify(LockMetrics lock, List<BlameRow> blame) {
        return classify(lock, blame, List.of());
    }

    /**
     * The verdict on one lock, from its class, its waiting frames, and who released it to the waiters:
     * the blame rows' owners and the conditional waits' notifiers.
     */
    public Verdict classify(LockMetrics lock, List<BlameRow> blame, List<WaitRow> waits) {
        // what each distinct waiting stack says, worked out once: a lock's blame rows repeat a few stacks
        // thousands of times, and formatting their frames once per row was most of a big report's garbage
        Map<List<String>, StackFacts> facts = new LinkedHashMap<>();
        facts.computeIfAbsent(lock.firstFrames(), this::facts);
        blame.forEach(r -> facts.computeIfAbsent(r.waiterFrames(), this::facts));
        if (contention != null && (contention.matcher(lock.className()).find()
                || facts.values().stream().anyMatch(StackFacts::contentionFrame))) {
            return new Verdict(WaitClass.CONTENTION, "--contention");
        }
        if (idle != null && (idle.matcher(lock.className()).find() || facts.values().stream().anyMatch(StackFacts::idleFrame))) {
            return new Verdict(WaitClass.IDLE, "--idle");
        }
        if (facts.values().stream().anyMatch(StackFacts::lockscopesOwn) || monitorAtParkSite(lock)) {
            return new Verdict(WaitClass.OTHER, Verdict.LOCKSCOPE_OWN);
        }
        for (int rule = 0; rule < END_WAITS.size(); rule++) {
            int bit = 1 << rule;
            if (facts.values().stream().anyMatch(f -> (f.endWaits() & bit) != 0)) {
                return new Verdict(WaitClass.OTHER, END_WAITS.get(rule).rule());
            }
        }
        if (IdlePlaces.isServiceLoopWait(lock)) {
            return new Verdict(WaitClass.IDLE, IdlePlaces.SERVICE_LOOP);
        }
        // before the lock rules: workers taking their queue's lock to get work are waiting for work
        Verdict idlePlace = idlePlace(lock, blame, facts);
        if (idlePlace != null) {
            return idlePlace;
        }
        if (lock.kind() == LockKind.WAIT && LockLabels.isClassInitialisation(lock)) {
            return new Verdict(WaitClass.CONTENTION, "class-initialization");
        }
        if (lock.kind() == LockKind.WAIT) {
            // a lock built on Object.wait (a database's row lock): only waits that another thread's notify ended are counted
            return new Verdict(WaitClass.CONTENTION, "wait-notified");
        }
        if (lock.kind() == LockKind.MONITOR) {
            return new Verdict(WaitClass.CONTENTION, "monitor-enter");
        }
        if (JucLocks.hasHolder(lock.className())) {
            return new Verdict(WaitClass.CONTENTION, "lock-acquire");
        }
        boolean notified = blame.stream().anyMatch(r -> known(r.ownerThread())) || waits.stream().anyMatch(w -> known(w.notifier()));
        if (lock.className().contains("ConditionObject")) {
            // a condition used as a lock: the waiter was woken by the thread that released what it waited for
            return notified ? new Verdict(WaitClass.CONTENTION, "condition-signalled-by-releaser")
                    : new Verdict(WaitClass.OTHER, "condition-no-releaser");
        }
        if (lock.className().endsWith("Sync")) {
            return new Verdict(WaitClass.CONTENTION, "synchronizer-acquire"); // Semaphore, a custom AQS lock
        }
        return notified ? new Verdict(WaitClass.CONTENTION, "woken-by-releaser") : new Verdict(WaitClass.OTHER, "unrecognised-wait");
    }

    /**
     * What one waiting stack says: whether a frame matches {@code --contention} or {@code --idle}, whether
     * it is lockscope's or JFR's own, which {@link #END_WAITS} (bit by rule) and which idle place (null
     * for none) are among its {@link IdlePlaces#DEPTH} innermost frames.
     */
    private record StackFacts(boolean contentionFrame, boolean idleFrame, boolean lockscopesOwn, int endWaits,
                              String idleRule) {
    }

    private StackFacts facts(List<String> stack) {
        boolean contentionFrame = false;
        boolean idleFrame = false;
        boolean own = false;
        List<String> functions = new ArrayList<>(stack.size());
        for (String frame : stack) {
            contentionFrame |= contention != null && contention.matcher(frame).find();
            idleFrame |= idle != null && idle.matcher(frame).find();
            Frame f = Frame.parse(frame);
            own |= f.kind() == FrameKind.RUNTIME;
            functions.add(f.function());
        }
        List<String> near = functions.subList(0, Math.min(IdlePlaces.DEPTH, functions.size()));
        int endWaits = 0;
        for (int rule = 0; rule < END_WAITS.size(); rule++) {
            if (IdlePlaces.atPlace(END_WAITS.get(rule), near)) {
                endWaits |= 1 << rule;
            }
        }
        return new StackFacts(contentionFrame, idleFrame, own, endWaits, IdlePlaces.ruleOf(functions));
    }


    /**
     * The idle verdict from where the lock's waiting happened, weighted by time: idle when most of the
     * blamed wait (rows with a waiting stack) was at an idle place, named by the place with the most;
     * the first waiter's stack decides only where no row has one. One odd stack must not turn a hot lock
     * idle: on Jetty's virtual-thread pool a few handler waits were recorded with a selector frame near
     * the top, and any-match made the application's 14 s monitor "idle" (VirtualThreadServerIT).
     */
    private static Verdict idlePlace(LockMetrics lock, List<BlameRow> blame, Map<List<String>, StackFacts> facts) {
        long withStack = 0;
        Map<String, Long> idleNanos = new LinkedHashMap<>();
        for (BlameRow row : blame) {
            if (row.waiterFrames().isEmpty()) {
                continue;
            }
            withStack += row.nanos();
            String rule = facts.get(row.waiterFrames()).idleRule();
            if (rule != null) {
                idleNanos.merge(rule, row.nanos(), Long::sum);
            }
        }
        if (withStack == 0) {
            String rule = lock.firstFrames().isEmpty() ? IdlePlaces.ruleOf(lock) : facts.get(lock.firstFrames()).idleRule();
            return rule == null ? null : new Verdict(WaitClass.IDLE, rule);
        }
        long idleTotal = idleNanos.values().stream().mapToLong(Long::longValue).sum();
        if (idleTotal * 2 <= withStack) {
            return null;
        }
        String rule = idleNanos.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
        return new Verdict(WaitClass.IDLE, rule);
    }

    /**
     * The recorder's own locks are JFR's, and those taken while the agent writes a park event: the agent's
     * or JFR's frames are in a stack ({@link StackFacts#lockscopesOwn}), or, where the reader trimmed them,
     * a monitor entered at a park site (java.util.concurrent's locks enter no monitor of their own, only
     * the agent's hook there does).
     */
    private static boolean monitorAtParkSite(LockMetrics lock) {
        return lock.kind() == LockKind.MONITOR && !lock.firstFrames().isEmpty()
                && Frame.parse(lock.firstFrames().get(0)).className().startsWith("java.util.concurrent.locks.");
    }


    private static boolean known(ThreadRef thread) {
        return thread != null && !thread.equals(ThreadRef.UNKNOWN);
    }
}
