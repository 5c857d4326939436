package dev.lockscope.cli;

import dev.lockscope.analysis.ContentionOptions;
import dev.lockscope.analysis.model.RecordingException;
import dev.lockscope.analysis.blame.Aspect;
import dev.lockscope.analysis.deep.DeepAnalysis;
import dev.lockscope.analysis.deep.DeepResult;
import dev.lockscope.analysis.model.DeepCounts;
import dev.lockscope.analysis.model.DeepSite;
import dev.lockscope.analysis.model.RecordingReader;
import dev.lockscope.analysis.model.RecordingVisitor;
import dev.lockscope.analysis.whatif.LockTrace;
import dev.lockscope.analysis.whatif.Measured;
import dev.lockscope.analysis.whatif.WhatIf;
import dev.lockscope.core.Frame;
import dev.lockscope.core.FrameClassifier;
import dev.lockscope.core.FrameKind;
import dev.lockscope.core.LockKind;
import dev.lockscope.core.LockMetrics;
import dev.lockscope.core.LockSites;
import dev.lockscope.report.model.Report;
import dev.lockscope.report.model.ReportBuilder;
import dev.lockscope.report.whatif.WhyNoPrediction;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code lockscope whatif --measure -- COMMAND}: the causal experiment. One profiled run finds the application's
 * lock sites waited for most; a second, with deep mode on their classes, times every hold there (the report's
 * average hold counts only holds somebody waited for, which on a lock mostly taken without waiting spans many
 * holds). Then the command runs as it is and with the releases at one site delayed by {@code factor - 1} of its
 * mean hold (agent option {@code delayRelease}), alternately (A B A B ... A), each delayed run compared with the
 * mean of the runs as it is just before and after it (a drift of the machine's load cancels), until the median
 * change's interval is narrower than the change or the run budget is spent ({@link Measured#stop}). A delayed run
 * whose throughput is near zero, or that does not finish, ends the site's experiment: the delay broke the
 * workload, and nothing is extrapolated from it.
 */
final class WhatIfMeasure {
    private static final Pattern DELAYED = Pattern.compile("release delay at \\S+: (\\d+) releases delayed, (\\d+) ns in all");

    private final List<String> command;
    private final ThroughputPattern throughput;
    private final Path dir;
    private final long timeoutSeconds;

    WhatIfMeasure(List<String> command, ThroughputPattern throughput, Path dir, long timeoutSeconds) {
        this.command = command;
        this.throughput = throughput;
        this.dir = dir;
        this.timeoutSeconds = timeoutSeconds;
    }

    /** The profiled run's report (the sites measured are not in it yet), once {@link #run} has profiled. */
    private Report profiled;
    private LockTrace profiledHolds;

    /** The sites measured, the greatest slow-down first, each with the replay's prediction from the profiled run. */
    List<Measured> run(List<String> sites, int top, double factor, int budget, boolean withTimeline) {
        List<LockMetrics> candidates = profile(sites, top, withTimeline);
        Map<LockMetrics, DeepCounts> timed = timeHolds(candidates, !sites.isEmpty());
        List<Measured> out = new ArrayList<>();
        for (Map.Entry<LockMetrics, DeepCounts> e : timed.entrySet()) {
            out.add(measure(e.getKey(), e.getValue(), factor, budget));
        }
        out.sort(Comparator.comparing((Measured m) -> m.outcome() != Measured.Outcome.BROKE)
                .thenComparingDouble(m -> Double.isNaN(m.changePct()) ? 0 : m.changePct()));
        return out;
    }

    /** The application's lock sites the profiling run ranked, before any was measured (JSON {@code candidates}). */
    List<String> candidates() {
        return candidates;
    }

    private List<String> candidates = List.of();
    private double holdTimingSeconds;
    private long holdInflationNanos;

    /** One site's experiment: A B A B ... A, until {@link Measured#stop} says so or a delayed run breaks the workload. */
    private Measured measure(LockMetrics site, DeepCounts holds, double factor, int budget) {
        // less what the probes add to each timed hold (measured by the agent at start), unless that is all of it
        double timed = (double) holds.holdNanos() / holds.sections();
        double meanHold = timed > holdInflationNanos ? timed - holdInflationNanos : timed;
        // the share of the time the lock was in use: the whole recording (the JVM's start and exit, a warm-up without
        // it) would understate it, and Amdahl's bound with it; in use from its first wait to its last in the profiled
        // run, that fraction of the hold-timing run
        double inUse = site.totalExecutionNanos() > 0 && site.tally().lifeTimeNanos() > 0
                ? Math.min(1, (double) site.tally().lifeTimeNanos() / site.totalExecutionNanos()) : 1;
        double heldShare = meanHold * holds.sections() / (holdTimingSeconds * 1e9 * inUse);
        long asked = Measured.delayNanos(meanHold, factor);
        String delay = method(site) + ":" + asked + "ns";
        List<Double> changes = new ArrayList<>();
        long releases = 0, delayedNanos = 0;
        Measured.Outcome outcome = null;
        Run before = measure(method(site) + ", run 1 as it is", null, timeoutSeconds);
        // a delayed run is given a few times the runs as it is took: a delay that stalls the program is found out
        long delayedTimeout = Math.min(timeoutSeconds, Math.max(30, 4 * Math.round(before.seconds)));
        while (outcome == null) {
            int n = changes.size() + 1;
            Run delayed;
            try {
                delayed = measure(method(site) + String.format(Locale.ROOT, ", delayed run %d, +%.1f µs per release", n,
                        asked / 1e3), delay, delayedTimeout);
            } catch (TimedOut t) {
                System.err.println("lockscope: whatif --measure: " + method(site) + ": the delayed run did not finish in "
                        + delayedTimeout + " s: the delay broke the workload");
                outcome = Measured.Outcome.BROKE;
                break;
            }
            if (delayed.releases == 0) {
                throw new UserError("no release at " + method(site) + " was delayed: its lock is not released in that "
                        + "method (a lock taken in one method and released in another), give --site");
            }
            releases += delayed.releases;
            delayedNanos += delayed.delayedNanos;
            Run after = measure(method(site) + ", run " + (n + 1) + " as it is", null, timeoutSeconds);
            double ratio = delayed.throughput / ((before.throughput + after.throughput) / 2);
            before = after;
            changes.add(100 * (ratio - 1));
            outcome = Measured.breaks(ratio) ? Measured.Outcome.BROKE : Measured.stop(changes, budget);
        }
        double perRelease = releases == 0 ? asked : (double) delayedNanos / releases;
        return new Measured(site.identityHash().substring(LockSites.SITE_PREFIX.length()), meanHold, heldShare, factor,
                perRelease, changes, outcome, predicted(site, 0.5), predicted(site, Measured.lengthenedBy(meanHold, perRelease)));
    }

    /** The profiled run's report with the measured sites in it: the page of {@code whatif --measure --format html}. */
    Report report(List<Measured> measured) {
        return profiled.withMeasured(measured);
    }

    /**
     * The replay's answer from the profiled run for the holds taken in the site's method (the experiment delays
     * every release in that method) {@code factor} times as long; null when the replay saw none there.
     */
    private WhatIf.Prediction predicted(LockMetrics site, double factor) {
        WhatIf.Prediction p = WhatIf.predict(profiledHolds, null, method(site) + ":", factor);
        return p.holds() == 0 ? null : p;
    }

    /** The profiled run: the sites waited for most (or those asked for), with their average hold. */
    private List<LockMetrics> profile(List<String> asked, int top, boolean withTimeline) {
        Path jfr = dir.resolve("profile.jfr");
        System.err.println("lockscope: whatif --measure: profiling run, to find the lock sites and their holds ...");
        // every park recorded: the replay follows each hold, which sampled short waits, or waits the stack budget
        // refused, would leave out
        Run run = run(List.of("file=" + jfr, "report=off", "quiet", "sampleBelow=0", "stackBudget=0"), timeoutSeconds);
        // one pass: the report (its table gives the sites and their holds) and the holds the replay reads
        ReportBuilder builder = new ReportBuilder(ContentionOptions.DEFAULTS, Aspect.DEFAULT, false, withTimeline);
        try {
            profiled = builder.build(RecordingReader.read(jfr, builder.visitors().toArray(RecordingVisitor[]::new)));
        } catch (RecordingException e) {
            throw new UserError("the profiling run wrote no readable recording: " + e.getMessage());
        }
        profiledHolds = builder.holdTrace();
        List<LockMetrics> applications = profiled.contention().sites().stream()
                .filter(s -> s.avgHoldNanos() > 0 && !s.identityHash().endsWith("?") && method(s).indexOf('.') > 0)
                .filter(WhatIfMeasure::isApplicationLock).toList();
        List<LockMetrics> chosen = choose(applications, asked, top,
                n -> System.err.println("lockscope: whatif --measure: " + n + ": nothing held to lengthen, left out"));
        if (chosen.isEmpty()) {
            throw new UserError("no thread waited for an application lock in the profiling run (throughput "
                    + String.format(Locale.ROOT, "%.1f", run.throughput) + "): nothing to measure");
        }
        candidates = chosen.stream().map(s -> s.identityHash().substring(LockSites.SITE_PREFIX.length())).toList();
        return chosen;
    }

    /**
     * The sites to measure among the application's, ranked: those asked for, or the first {@code top}. A row whose
     * waiters wait for no holder ({@link WhyNoPrediction#notHeld}: {@code Object.wait}, a condition) has no hold a
     * delayed release would lengthen: passed over, said through {@code leftOut}; asked for by name, or all the
     * sites there are, it is an error that says so.
     */
    static List<LockMetrics> choose(List<LockMetrics> applications, List<String> asked, int top, Consumer<String> leftOut) {
        List<String> notHeld = new ArrayList<>();
        List<LockMetrics> sites = new ArrayList<>();
        for (LockMetrics s : applications) {
            String why = WhyNoPrediction.notHeld(s);
            if (why == null) {
                sites.add(s);
            } else if (sites.size() < top && notHeld.size() < 3) {
                notHeld.add(siteName(s) + ": " + why);
            }
        }
        List<LockMetrics> chosen = new ArrayList<>();
        if (asked.isEmpty()) {
            notHeld.forEach(leftOut);
            chosen.addAll(sites.subList(0, Math.min(top, sites.size())));
            if (chosen.isEmpty() && !notHeld.isEmpty()) {
                throw new UserError("the application's sites waited for most wait for no holder, so no hold is there to "
                        + "lengthen: " + String.join("; ", notHeld));
            }
            return chosen;
        }
        for (String a : asked) {
            Optional<LockMetrics> found = sites.stream().filter(s -> s.identityHash().contains(a)).findFirst();
            if (found.isEmpty()) {
                Optional<LockMetrics> waited = applications.stream().filter(s -> s.identityHash().contains(a)).findFirst();
                throw new UserError(waited.isPresent()
                        ? "--site " + a + ": its waits are " + WhyNoPrediction.notHeld(waited.get()) + ": no hold there to lengthen"
                        : "--site " + a + ": no lock site waited for in the profiling run contains it (sites: "
                        + String.join(", ", sites.stream().limit(5).map(WhatIfMeasure::siteName).toList()) + ")");
            }
            chosen.add(found.get());
        }
        return chosen;
    }

    private static String siteName(LockMetrics site) {
        return site.identityHash().substring(LockSites.SITE_PREFIX.length());
    }

    /**
     * JDK lock classes that are the JDK's internals' bookkeeping wherever they are taken (JFR's and lockscope's
     * are {@link FrameClassifier}'s runtime code).
     */
    private static final List<String> BOOKKEEPING_LOCKS = List.of("jdk.internal.", "sun.", "com.sun.", "java.lang.ref.");

    /**
     * Whether a lock site of the report's table is the application's, a candidate for the experiment: not when the
     * site's method is the JDK's or lockscope's (JFR's recorder, the agent's HTTP server, class loading: the agent
     * cannot delay their releases, and they are not the program's), nor when the lock's class is JFR's, the JDK
     * internals' or lockscope's (a reference queue's lock, {@code PlatformRecorder}). The application's use of a
     * JDK lock ({@code ReentrantLock}, a queue's condition) is taken in the application's method and stays.
     * The JDK's and lockscope's code are {@link FrameClassifier}'s; only the bookkeeping lock classes are listed here.
     */
    static boolean isApplicationLock(LockMetrics site) {
        String m = method(site);
        String siteClass = m.substring(0, Math.max(0, m.lastIndexOf('.')));
        // a monitor entered in the JDK's code under the application's frame: class loading's lock, a JDK class's
        // synchronized method (the agent delays no release there)
        String top = site.firstFrames().isEmpty() ? siteClass : site.firstFrames().get(0);
        boolean enteredByJdk = site.kind() == LockKind.MONITOR && FrameClassifier.isJdkOrRuntime(Frame.parse(top).className());
        return !enteredByJdk && !FrameClassifier.isJdkOrRuntime(siteClass)
                && FrameClassifier.kindOf(site.className()) != FrameKind.RUNTIME
                && BOOKKEEPING_LOCKS.stream().noneMatch(site.className()::startsWith)
                && !site.className().equals(CLASS_INIT_LOCK);
    }

    /** HotSpot's class-initialisation lock, an {@code int[0]}: threads wait on it while another initialises a class. */
    private static final String CLASS_INIT_LOCK = "[I";

    /**
     * The hold-timing run: deep mode on the candidates' classes times every hold taken at their sites, whose mean
     * the delay is a share of. A candidate whose site deep mode saw no hold at (its lock released in another
     * method, or taken nowhere the agent instruments) is left out, said on stderr; asked for by name, it is an error.
     */
    private Map<LockMetrics, DeepCounts> timeHolds(List<LockMetrics> candidates, boolean asked) {
        Path jfr = dir.resolve("holds.jfr");
        String classes = String.join(":", candidates.stream().map(s -> {
            String m = method(s);
            return m.substring(0, m.lastIndexOf('.'));
        }).distinct().toList());
        System.err.println("lockscope: whatif --measure: hold-timing run, every hold at those sites timed (deep mode) ...");
        run(List.of("file=" + jfr, "report=off", "quiet", "deep=" + classes), timeoutSeconds);
        DeepResult result;
        try {
            // read as every recording is: its report's deep-mode statistics
            result = ReportBuilder.read(jfr, ContentionOptions.DEFAULTS, Aspect.DEFAULT, false, false).deep();
        } catch (RecordingException e) {
            throw new UserError("the hold-timing run wrote no readable recording: " + e.getMessage());
        }
        holdTimingSeconds = result == null ? Double.NaN : result.durationNanos() / 1e9;
        holdInflationNanos = result == null || result.info() == null ? 0 : Math.max(0, result.info().holdInflationNanos());
        Map<LockMetrics, DeepCounts> out = new LinkedHashMap<>();
        for (LockMetrics c : candidates) {
            String name = c.identityHash().substring(LockSites.SITE_PREFIX.length());
            // by method, not line: the experiment delays every release in the method, and a wait's line (JFR's, where
            // the thread blocked) need not be the line deep mode names (that of the monitorenter)
            List<DeepCounts> inMethod = result == null ? List.of() : result.sites().stream()
                    .filter(d -> d.site().startsWith(method(c) + ":")).map(DeepSite::counts).toList();
            DeepCounts counts = inMethod.isEmpty() ? null : DeepAnalysis.sum(inMethod);
            if (counts != null && counts.sections() > 0 && counts.holdNanos() > 0) {
                out.put(c, counts);
            } else if (asked) {
                throw new UserError("--site " + name + ": deep mode timed no hold there (a lock taken in one method and "
                        + "released in another, or in code the agent does not instrument): nothing to lengthen");
            } else {
                System.err.println("lockscope: whatif --measure: " + name + " left out: deep mode timed no hold there "
                        + "(its lock is taken in one method and released in another, or in code the agent does not instrument)");
            }
        }
        if (out.isEmpty()) {
            throw new UserError("deep mode timed no hold at any of the sites waited for most (" + String.join(", ",
                    candidates()) + "): nothing to lengthen");
        }
        return out;
    }

    /** {@code pkg.Class.method} of a site {@code at pkg.Class.method:line}. */
    static String method(LockMetrics site) {
        return Frame.parse(site.identityHash().substring(LockSites.SITE_PREFIX.length())).function();
    }

    private record Run(double throughput, long releases, long delayedNanos, double seconds) {
    }

    /** A run that did not finish within its time. */
    private static final class TimedOut extends RuntimeException {
        TimedOut(String message) {
            super(message, null, false, false);
        }
    }

    private Run measure(String what, String delayRelease, long timeout) {
        System.err.println("lockscope: whatif --measure: " + what + " ...");
        List<String> args = new ArrayList<>(List.of("file=" + dir.resolve("run.jfr"), "report=off", "quiet", "maxSize=64m"));
        if (delayRelease != null) {
            args.add("delayRelease=" + delayRelease);
        }
        return run(args, timeout);
    }

    /** Runs the command once with the agent, its output kept in a file, and reads the throughput it printed. */
    private Run run(List<String> agentArgs, long timeout) {
        Path log = dir.resolve("run.log");
        ProcessBuilder pb = ChildJvm.withJvmOptions(command, List.of("-javaagent:" + EmbeddedJars.agent() + "="
                + String.join(",", agentArgs))).redirectErrorStream(true).redirectOutput(log.toFile());
        String output;
        long start = System.nanoTime();
        try {
            Process p = pb.start();
            if (!p.waitFor(timeout, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                p.waitFor(30, TimeUnit.SECONDS);
                if (agentArgs.stream().anyMatch(a -> a.startsWith("delayRelease="))) {
                    throw new TimedOut("the delayed run ran longer than " + timeout + " s");
                }
                throw new UserError("the command ran longer than " + timeout + " s: " + String.join(" ", command));
            }
            output = Files.readString(log, StandardCharsets.UTF_8);
            if (p.exitValue() != 0) {
                throw new UserError("the command exited with " + p.exitValue() + " (its output: " + log + ")");
            }
        } catch (IOException e) {
            throw new UserError("cannot run '" + command.get(0) + "': " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UserError("interrupted");
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        OptionalDouble t = throughput.find(output);
        if (t.isEmpty() || !(t.getAsDouble() > 0)) {
            if (agentArgs.stream().anyMatch(a -> a.startsWith("delayRelease=")) && t.isPresent()) {
                return new Run(0, releases(output)[0], releases(output)[1], seconds); // throughput zero: the delay broke it
            }
            throw new UserError("no throughput in the command's output (see --throughput-regex; its output: " + log + ")");
        }
        long[] r = releases(output);
        return new Run(t.getAsDouble(), r[0], r[1], seconds);
    }

    /** The agent's exit line: releases delayed and the time they waited in all. */
    private static long[] releases(String output) {
        Matcher m = DELAYED.matcher(output);
        return m.find() ? new long[] {Long.parseLong(m.group(1)), Long.parseLong(m.group(2))} : new long[] {0, 0};
    }
}
