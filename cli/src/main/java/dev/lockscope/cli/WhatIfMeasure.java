package dev.lockscope.cli;

import dev.lockscope.core.Frame;

import dev.lockscope.analysis.ContentionOptions;
import dev.lockscope.analysis.model.RecordingException;
import dev.lockscope.analysis.blame.Aspect;
import dev.lockscope.analysis.model.RecordingReader;
import dev.lockscope.analysis.model.RecordingVisitor;
import dev.lockscope.analysis.whatif.LockTrace;
import dev.lockscope.analysis.whatif.Measured;
import dev.lockscope.analysis.whatif.WhatIf;
import dev.lockscope.core.LockMetrics;
import dev.lockscope.core.LockSites;
import dev.lockscope.report.model.Report;
import dev.lockscope.report.model.ReportBuilder;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code lockscope whatif --measure -- COMMAND}: the causal experiment. One profiled run finds the lock sites
 * waited for most and their average hold; then the command runs again and again, as it is and with the
 * releases at one site delayed by a known share of its hold (agent option {@code delayRelease}), each delayed
 * run between two runs as it is, whose mean it is compared with (a drift of the machine's load cancels). The throughput's
 * response to the longer holds is the site's sensitivity: {@code s = -ln(T'/T) / ln(1 + d/h)}, the exponent
 * of {@code T ~ h^-s} (1 for a lock every operation waits for, 0 for one nobody does), and halving the holds
 * is expected to give {@code 2^s - 1}. Every repeat gives its own sensitivity; their spread is shown.
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

    /** The sites measured, the most sensitive first, each with the replay's prediction from the profiled run. */
    List<Measured> run(List<String> sites, int top, double delayShare, int repeats, boolean withTimeline) {
        List<LockMetrics> candidates = profile(sites, top, withTimeline);
        List<List<Double>> sens = new ArrayList<>(), change = new ArrayList<>();
        double[] delay = new double[candidates.size()];
        for (int i = 0; i < candidates.size(); i++) {
            sens.add(new ArrayList<>());
            change.add(new ArrayList<>());
        }
        for (int r = 0; r < repeats; r++) {
            // as it is, then each site delayed with a run as it is after it: a delayed run is compared with the
            // mean of the runs just before and after it, so a drift of the machine's load cancels
            double before = measure("repeat " + (r + 1) + ", as it is", null).throughput;
            for (int i = 0; i < candidates.size(); i++) {
                LockMetrics site = candidates.get(i);
                long asked = Math.max(1_000, Math.round(site.avgHoldNanos() * delayShare));
                Run delayed = measure("repeat " + (r + 1) + ", " + method(site) + String.format(Locale.ROOT, " +%.3f ms", asked / 1e6), method(site) + ":" + asked + "ns");
                if (delayed.releases == 0) {
                    throw new UserError("no release at " + method(site) + " was delayed: its lock is not released in that "
                            + "method (a lock taken in one method and released in another), give --site");
                }
                double after = measure("repeat " + (r + 1) + ", as it is", null).throughput;
                double perRelease = (double) delayed.delayedNanos / delayed.releases;
                delay[i] = perRelease;
                double ratio = delayed.throughput / ((before + after) / 2);
                before = after;
                change.get(i).add(100 * (ratio - 1));
                sens.get(i).add(-Math.log(ratio) / Math.log(1 + perRelease / site.avgHoldNanos()));
            }
        }
        List<Measured> out = new ArrayList<>();
        for (int i = 0; i < candidates.size(); i++) {
            LockMetrics s = candidates.get(i);
            double mean = sens.get(i).stream().mapToDouble(Double::doubleValue).average().orElseThrow();
            out.add(new Measured(s.identityHash().substring(LockSites.SITE_PREFIX.length()), s.avgHoldNanos(),
                    delay[i], mean, Collections.min(sens.get(i)), Collections.max(sens.get(i)),
                    100 * (Math.pow(2, mean) - 1), change.get(i), predicted(s)));
        }
        out.sort(Comparator.comparingDouble(Measured::sensitivity).reversed());
        return out;
    }

    /** The profiled run's report with the measured sites in it: the page of {@code whatif --measure --format html}. */
    Report report(List<Measured> measured) {
        return profiled.withMeasured(measured);
    }

    /**
     * The replay's answer for the same question from the profiled run: the holds taken in the site's method
     * halved (the experiment delays every release in that method); null when the replay saw none there.
     */
    private WhatIf.Prediction predicted(LockMetrics site) {
        WhatIf.Prediction p = WhatIf.predict(profiledHolds, null, method(site) + ":", 0.5);
        return p.holds() == 0 ? null : p;
    }

    /** The profiled run: the sites waited for most (or those asked for), with their average hold. */
    private List<LockMetrics> profile(List<String> asked, int top, boolean withTimeline) {
        Path jfr = dir.resolve("profile.jfr");
        System.err.println("lockscope: whatif --measure: profiling run, to find the lock sites and their holds ...");
        // every park recorded: the replay follows each hold, which sampled short waits would leave out
        Run run = run(List.of("file=" + jfr, "report=off", "quiet", "sampleBelow=0"));
        // one pass: the report (its table gives the sites and their holds) and the holds the replay reads
        ReportBuilder builder = new ReportBuilder(ContentionOptions.DEFAULTS, Aspect.DEFAULT, false, withTimeline);
        try {
            profiled = builder.build(RecordingReader.read(jfr, builder.visitors().toArray(RecordingVisitor[]::new)));
        } catch (RecordingException e) {
            throw new UserError("the profiling run wrote no readable recording: " + e.getMessage());
        }
        profiledHolds = builder.holdTrace();
        List<LockMetrics> sites = profiled.contention().sites().stream()
                .filter(s -> s.avgHoldNanos() > 0 && !s.identityHash().endsWith("?") && method(s).indexOf('.') > 0).toList();
        List<LockMetrics> chosen = new ArrayList<>();
        if (asked.isEmpty()) {
            chosen.addAll(sites.subList(0, Math.min(top, sites.size())));
        } else {
            for (String a : asked) {
                LockMetrics found = sites.stream().filter(s -> s.identityHash().contains(a)).findFirst()
                        .orElseThrow(() -> new UserError("--site " + a + ": no lock site waited for in the profiling run "
                                + "contains it (sites: " + String.join(", ", sites.stream().limit(5)
                                .map(s -> s.identityHash().substring(LockSites.SITE_PREFIX.length())).toList()) + ")"));
                chosen.add(found);
            }
        }
        if (chosen.isEmpty()) {
            throw new UserError("no thread waited for a lock in the profiling run (throughput "
                    + String.format(Locale.ROOT, "%.1f", run.throughput) + "): nothing to measure");
        }
        return chosen;
    }

    /** {@code pkg.Class.method} of a site {@code at pkg.Class.method:line}. */
    static String method(LockMetrics site) {
        return Frame.parse(site.identityHash().substring(LockSites.SITE_PREFIX.length())).function();
    }

    private record Run(double throughput, long releases, long delayedNanos) {
    }

    private Run measure(String what, String delayRelease) {
        System.err.println("lockscope: whatif --measure: " + what + " ...");
        List<String> args = new ArrayList<>(List.of("file=" + dir.resolve("run.jfr"), "report=off", "quiet", "maxSize=64m"));
        if (delayRelease != null) {
            args.add("delayRelease=" + delayRelease);
        }
        return run(args);
    }

    /** Runs the command once with the agent, its output kept in a file, and reads the throughput it printed. */
    private Run run(List<String> agentArgs) {
        Path log = dir.resolve("run.log");
        ProcessBuilder pb = ChildJvm.withJvmOptions(command, List.of("-javaagent:" + EmbeddedJars.agent() + "="
                + String.join(",", agentArgs))).redirectErrorStream(true).redirectOutput(log.toFile());
        String output;
        try {
            Process p = pb.start();
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.destroy();
                p.waitFor(30, TimeUnit.SECONDS);
                throw new UserError("the command ran longer than " + timeoutSeconds + " s: " + String.join(" ", command));
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
        OptionalDouble t = throughput.find(output);
        if (t.isEmpty() || !(t.getAsDouble() > 0)) {
            throw new UserError("no throughput in the command's output (see --throughput-regex; its output: " + log + ")");
        }
        Matcher m = DELAYED.matcher(output);
        long releases = 0, delayed = 0;
        if (m.find()) {
            releases = Long.parseLong(m.group(1));
            delayed = Long.parseLong(m.group(2));
        }
        return new Run(t.getAsDouble(), releases, delayed);
    }
}
