package dev.lockscope.bench;

import dev.lockscope.analysis.model.RecordingException;
import dev.lockscope.analysis.model.RecordingReader;
import dev.lockscope.analysis.profile.CallTree;
import dev.lockscope.analysis.profile.ProfileAnalysis;
import dev.lockscope.analysis.profile.ProfileDiff;
import dev.lockscope.analysis.profile.ProfileSimilarity;
import dev.lockscope.analysis.profile.Profiles;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * How far lockscope's CPU and wall-clock profiles agree with async-profiler's {@code cpu} and {@code wall}
 * profiles of the same run (issue 21; Hofer, <i>Method Profiling and Lock Contention Profiling on the
 * JVM Level</i>, §3.4: degree of overlap and hot-edge coverage, as {@code lockscope diff} computes them).
 * One JVM per workload runs with both the lockscope agent (JFR execution samples every {@link #INTERVAL},
 * its recorded waits) and async-profiler 4.2 ({@code event=cpu,wall=...,cstack=no}, its own JFR file).
 * async-profiler's CPU samples are {@code jdk.ExecutionSample} events, read by lockscope's reader as its
 * own; its wall samples ({@code profiler.WallClockSample}) come through its own converter as collapsed
 * stacks ({@link AsyncProfilerWall}, which normalises what differs by construction). The rows compared
 * are the workload's own threads: async-profiler also samples the JVM's compiler and GC threads, which
 * JFR never does. The workload with a known split ({@link TimeSplitWorkload}) also runs once under
 * async-profiler alone, the control for what JFR's sampler does to async-profiler's wall samples.
 */
final class ProfileAgreementHarness {
    /** Both profilers' sampling interval: CPU samples and wall samples alike. */
    static final String INTERVAL = "10ms";
    static final String SPLIT = "time-split";
    private static final String[] PHASES = {"compute", "nap", "awaitLock"};

    private final BenchSettings settings;

    private ProfileAgreementHarness(BenchSettings settings) {
        this.settings = settings;
    }

    /** A workload: its name, the thread group compared, and the main class with its arguments. */
    record Workload(String name, String group, String description, List<String> mainAndArgs) {
    }

    /**
     * One workload's comparison.
     *
     * @param cpu          the group's CPU profiles compared (lockscope first)
     * @param wall         the group's normalised wall profiles compared (lockscope first)
     * @param apUnwalkable async-profiler's wall samples of the group it could not walk to a Java frame
     * @param apUnwalkableRunning those of them taken while the thread ran (state {@code RUNNABLE}), not slept
     * @param wallChanges  the call paths of the group's two wall profiles, the largest change of share first
     * @param truth        {@code truth-total} lines of the workload, by phase (empty if it has none)
     * @param wallShares   per phase of {@link TimeSplitWorkload}: the share in lockscope's and in
     *                     async-profiler's normalised wall profile
     * @param lockscopeWall the group's normalised wall profile by lockscope; {@code asyncProfilerWall} by async-profiler
     */
    record Comparison(Workload workload, ProfileDiff.Row cpu, ProfileDiff.Row wall, long apUnwalkable, long apUnwalkableRunning,
                      List<ProfileDiff.Change> wallChanges, Map<String, Long> truth, Map<String, double[]> wallShares,
                      CallTree<String> lockscopeWall, CallTree<String> asyncProfilerWall) {
    }

    static String section(BenchSettings settings) throws Exception {
        return new ProfileAgreementHarness(settings).measure();
    }

    List<Workload> workloads() {
        Path bench = settings.root().resolve("bench/target/lockscope-bench.jar");
        List<Workload> all = new ArrayList<>();
        List<String> split = settings.smoke() ? List.of("6", "60", "40", "50") : List.of("40", "120", "80", "100");
        all.add(new Workload(SPLIT, "split-worker", String.format(Locale.ROOT,
                "one thread computing %s ms, sleeping %s ms and waiting %s ms for a monitor in each of %s rounds, "
                        + "each phase timed by the thread itself", split.get(1), split.get(2), split.get(3), split.get(0)),
                with(bench, TimeSplitWorkload.class.getName(), split)));
        if (!settings.smoke()) {
            all.add(new Workload("h2", "bench-*", "embedded H2, 4 threads inserting and querying one table, 20 s",
                    with(bench, LibraryWorkloads.class.getName(), List.of("h2", "4", "1", "20"))));
            all.add(new Workload("logback", "bench-*", "logback FileAppender, 4 threads logging to one file, 20 s",
                    with(bench, LibraryWorkloads.class.getName(), List.of("logback", "4", "1", "20"))));
        }
        return all;
    }

    private static List<String> with(Path classpath, String main, List<String> args) {
        List<String> out = new ArrayList<>(List.of("-cp", classpath.toString(), main));
        out.addAll(args);
        return out;
    }

    private String measure() throws Exception {
        String started = String.format(Locale.ROOT, "%s, %s, %d CPUs, load average %s at the start",
                java.time.LocalDate.now(java.time.ZoneOffset.UTC), PerformanceReport.javaVersion(settings.java()),
                Runtime.getRuntime().availableProcessors(), loadAverage());
        List<Comparison> done = new ArrayList<>();
        Comparison alone = null;
        for (Workload w : workloads()) {
            Comparison c = compare(w, true);
            if (c != null) {
                done.add(c);
            }
            if (w.name().equals(SPLIT)) {
                alone = compare(w, false);
            }
        }
        return markdown(done, alone, started);
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
        } catch (IOException | RuntimeException e) {
            return "?";
        }
    }

    /**
     * Runs the workload under both profilers (or, {@code withLockscope} false, async-profiler alone, whose
     * wall profile is then compared with nothing) and compares their profiles of its group; null when a
     * run failed (counted as a failure).
     */
    private Comparison compare(Workload w, boolean withLockscope) throws Exception {
        String tag = w.name() + (withLockscope ? "" : "-alone");
        Path ours = settings.work().resolve(tag + "-lockscope.jfr");
        Path theirs = settings.work().resolve(tag + "-async-profiler.jfr");
        Path collapsed = settings.work().resolve(tag + "-async-profiler-wall.collapsed");
        Files.deleteIfExists(ours);
        Files.deleteIfExists(theirs);
        List<String> cmd = new ArrayList<>(List.of(settings.java()));
        if (withLockscope) {
            cmd.addAll(Profilers.agent(settings.root().resolve("agent/target/lockscope-agent.jar") + "@cpuSamples=" + INTERVAL, ours));
        }
        cmd.add("-agentpath:" + Profilers.asyncProfilerLibrary(settings.root(), settings.work()) + "=start,event=cpu,interval="
                + INTERVAL + ",wall=" + INTERVAL + ",cstack=no,jfr,file=" + theirs);
        cmd.addAll(w.mainAndArgs());
        System.err.println("profile-agreement: " + tag);
        MeasuredProcess run = MeasuredProcess.run(cmd, settings.work().resolve("profile-agreement.txt"));
        Path running = settings.work().resolve(tag + "-async-profiler-wall-running.collapsed");
        MeasuredProcess convert = run.exitCode() != 0 ? null : wallCollapsed(theirs, collapsed, List.of());
        if (convert != null && convert.exitCode() == 0) {
            // the same samples of running threads only (the converter's thread-state filter)
            convert = wallCollapsed(theirs, running, List.of("--state", "RUNNABLE"));
        }
        if (convert == null || convert.exitCode() != 0 || !Files.exists(collapsed) || !Files.exists(running)) {
            System.err.println("profile-agreement: " + tag + " failed:\n" + (convert == null ? run : convert).tail());
            settings.failures().incrementAndGet();
            return null;
        }
        AsyncProfilerWall.Profile apWall = AsyncProfilerWall.parseCollapsed(Files.readAllLines(collapsed));
        Profiles apProfiles = profiles(theirs);
        Profiles lsProfiles = withLockscope ? profiles(ours) : new Profiles(0, false, Map.of(), Map.of(), 0);
        Map<String, CallTree<String>> lsWall = new TreeMap<>();
        lsProfiles.wallByGroup().forEach((group, tree) -> lsWall.put(group, AsyncProfilerWall.comparable(tree)));
        Profiles lsComparable = new Profiles(lsProfiles.samplingPeriodNanos(), true, Map.of(), lsWall, 0);
        Profiles apComparable = new Profiles(apProfiles.samplingPeriodNanos(), true, Map.of(), apWall.byGroup(), 0);
        ProfileDiff cpu = ProfileDiff.of(lsProfiles, apProfiles, false, ProfileSimilarity.DEFAULT_HOT_THRESHOLD);
        ProfileDiff wall = ProfileDiff.of(lsComparable, apComparable, true, ProfileSimilarity.DEFAULT_HOT_THRESHOLD);
        CallTree<String> lsGroup = lsComparable.tree(true, w.group());
        CallTree<String> apGroup = apComparable.tree(true, w.group());
        List<ProfileDiff.Change> changes = ProfileDiff.of(wallOnly(w.group(), lsGroup), wallOnly(w.group(), apGroup), true,
                ProfileSimilarity.DEFAULT_HOT_THRESHOLD).changes();
        Comparison c = new Comparison(w, row(cpu, w.group()), row(wall, w.group()), apWall.unwalkable(w.group()),
                AsyncProfilerWall.parseCollapsed(Files.readAllLines(running)).unwalkable(w.group()), changes, truth(run.output()), shares(lsGroup, apGroup), lsGroup, apGroup);
        boolean noNumber = c.wall().weightB() == 0 || withLockscope && (c.wall().weightA() == 0 || c.cpu().weightA() == 0
                || c.cpu().weightB() == 0);
        if (noNumber) {
            System.err.println("profile-agreement: " + tag + ": a profile of " + w.group() + " is empty");
            settings.failures().incrementAndGet();
        }
        return c;
    }

    /** async-profiler's converter: the wall samples of its JFR file as collapsed stacks, thread first. */
    private MeasuredProcess wallCollapsed(Path jfr, Path out, List<String> filter) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(settings.java(), "-jar", settings.root().resolve("bench/target/jfr-converter.jar")
                .toString(), "--wall", "--threads", "--dot", "-o", "collapsed"));
        cmd.addAll(filter);
        cmd.addAll(List.of(jfr.toString(), out.toString()));
        return MeasuredProcess.run(cmd, settings.work().resolve("jfrconv.txt"));
    }

    private static Profiles profiles(Path recording) throws IOException {
        ProfileAnalysis analysis = new ProfileAnalysis();
        try {
            RecordingReader.read(recording, analysis);
        } catch (RecordingException e) {
            throw new IOException(e.getMessage(), e);
        }
        return analysis.result();
    }

    private static Profiles wallOnly(String group, CallTree<String> tree) {
        return new Profiles(0, false, Map.of(), Map.of(group, tree), 0);
    }

    private static ProfileDiff.Row row(ProfileDiff diff, String group) {
        return diff.rows().stream().filter(r -> group.equals(r.group())).findFirst()
                .orElse(new ProfileDiff.Row(group, 0, 0, 0, 0, 0));
    }

    /** The workload's {@code truth-total PHASE NANOS} lines. */
    static Map<String, Long> truth(String output) {
        Map<String, Long> out = new LinkedHashMap<>();
        for (String line : output.lines().toList()) {
            String[] f = line.trim().split(" ");
            if (f.length == 3 && f[0].equals("truth-total")) {
                out.put(f[1], Long.parseLong(f[2]));
            }
        }
        return out;
    }

    /** Per phase of {@link TimeSplitWorkload}: its share of each tree (the paths through the phase's method). */
    static Map<String, double[]> shares(CallTree<String> lockscope, CallTree<String> asyncProfiler) {
        Map<String, double[]> out = new LinkedHashMap<>();
        for (String phase : PHASES) {
            String method = TimeSplitWorkload.class.getName() + "." + phase;
            out.put(phase, new double[] {share(lockscope, method), share(asyncProfiler, method)});
        }
        return out;
    }

    private static double share(CallTree<String> tree, String method) {
        long in = tree.edgeWeights().entrySet().stream().filter(e -> e.getKey().contains(method))
                .mapToLong(Map.Entry::getValue).sum();
        return tree.totalWeight() == 0 ? Double.NaN : (double) in / tree.totalWeight();
    }

    private String markdown(List<Comparison> done, Comparison alone, String started) {
        StringBuilder md = new StringBuilder("## Profile agreement with async-profiler\n\n");
        md.append("Generated by `scripts/performance.sh --only profile-agreement` (issue 21). Each workload runs once, in one JVM "
                + "with both the lockscope agent (`cpuSamples=" + INTERVAL + "`: JFR's `jdk.ExecutionSample`, and its recorded "
                + "waits) and async-profiler 4.2 (`event=cpu,interval=" + INTERVAL + ",wall=" + INTERVAL + ",cstack=no`, its own "
                + "JFR file). The profiles are compared as `lockscope diff` compares two recordings (Hofer §3.4): degree of "
                + "overlap (Σ over the call paths both have of the smaller share) and hot-edge coverage (T = 0.1 of the hottest "
                + "path; \"lockscope covers AP\" = the share of async-profiler's hot paths that are hot in lockscope's profile). "
                + "Hofer's SFS/AGCT agreement was above 70% for 17 of 25 benchmarks. The rows are the workload's own threads: "
                + "async-profiler also samples the JVM's compiler and GC threads, which JFR never samples. This run: " + started
                + " (a shared machine: one run per workload).\n\n");
        md.append("Workloads:\n\n");
        for (Comparison c : done) {
            md.append("- ").append(c.workload().name()).append(" (threads `").append(c.workload().group()).append("`): ")
                    .append(c.workload().description()).append('\n');
        }
        md.append("\n### CPU\n\nasync-profiler's `cpu` samples are `jdk.ExecutionSample` events in its file, read by lockscope's "
                + "reader like its own. JFR's execution samples take only threads running Java code; async-profiler's take "
                + "threads wherever they run, native code included.\n\n");
        md.append("| workload | samples lockscope / AP | overlap | lockscope covers AP | AP covers lockscope |\n|---|---|---|---|---|\n");
        for (Comparison c : done) {
            ProfileDiff.Row r = c.cpu();
            md.append(String.format(Locale.ROOT, "| %s | %d / %d | %s | %s | %s |%n", c.workload().name(), r.weightA(),
                    r.weightB(), pct(r.overlap()), pct(r.aCoversB()), pct(r.bCoversA())));
        }
        md.append("\n### Wall clock\n\nasync-profiler's `wall` samples (`profiler.WallClockSample`) as its converter writes them "
                + "(`jfrconv --wall --threads --dot -o collapsed`), against lockscope's wall profile (running samples weighted "
                + "by the time to the thread's next sample, waits by their recorded durations). Normalised on both sides, "
                + "where the two differ by construction: lockscope's wait leaves (`[blocked on X]`, `[parked on X]`, "
                + "`[sleeping]`, ...) are dropped, since async-profiler's stacks do not say what was waited for; the JDK's "
                + "blocking natives under the Java call (`Unsafe.park`, `Object.wait0`, `Thread.sleepNanos0`, file and socket "
                + "natives) are dropped, since a parked thread's sample ends in them where lockscope's park event ends at "
                + "`LockSupport.park`; only Java frames of async-profiler's stacks are kept, and its samples with none "
                + "(`unknown_Java`, `not_walkable_Java`, `deoptimization`, `GC_active`) are counted apart (\"AP not walked\", "
                + "with the share of them taken while the thread was running, not sleeping: its converter's `--state RUNNABLE`) "
                + "and left out of the comparison; lambda class numbers are dropped on both sides. Idle threads of a pool "
                + "count in both: lockscope records their parks, async-profiler samples them.\n\n");
        md.append("| workload | lockscope s / AP samples | AP not walked | overlap | lockscope covers AP | AP covers lockscope |\n"
                + "|---|---|---|---|---|---|\n");
        for (Comparison c : done) {
            ProfileDiff.Row r = c.wall();
            md.append(String.format(Locale.ROOT, "| %s | %.1f / %d | %d (%s; %s running) | %s | %s | %s |%n", c.workload().name(),
                    r.weightA() / 1e9, r.weightB(), c.apUnwalkable(), pct(share(c.apUnwalkable(), r.weightB() + c.apUnwalkable())),
                    pct(share(c.apUnwalkableRunning(), c.apUnwalkable())), pct(r.overlap()), pct(r.aCoversB()), pct(r.bCoversA())));
        }
        Comparison split = done.stream().filter(c -> c.workload().name().equals(SPLIT)).findFirst().orElse(null);
        if (alone != null && split != null) {
            // the control: async-profiler without JFR's sampler, against lockscope's profile of the other run
            CallTree<String> ls = split.lockscopeWall();
            CallTree<String> ap = alone.asyncProfilerWall();
            double t = ProfileSimilarity.DEFAULT_HOT_THRESHOLD;
            md.append(String.format(Locale.ROOT, "| %s: async-profiler alone (no JFR; a separate run) against lockscope above "
                            + "| %.1f / %d | %d (%s) | %s | %s | %s |%n", SPLIT, split.wall().weightA() / 1e9, ap.totalWeight(),
                    alone.apUnwalkable(), pct(share(alone.apUnwalkable(), ap.totalWeight() + alone.apUnwalkable())),
                    pct(ProfileSimilarity.overlap(ls, ap)), pct(ProfileSimilarity.hotEdgeCoverage(ls, ap, t)),
                    pct(ProfileSimilarity.hotEdgeCoverage(ap, ls, t))));
        }
        if (split != null) {
            splitShares(md, split, alone);
        }
        md.append("\nThe call paths whose share of the workload threads' time differs most between the two wall profiles "
                + "(lockscope / async-profiler; the innermost three frames):\n\n");
        for (Comparison c : done) {
            md.append("- ").append(c.workload().name()).append(": ");
            List<String> items = new ArrayList<>();
            for (ProfileDiff.Change ch : c.wallChanges()) {
                if (items.size() == 3) {
                    break;
                }
                if (!ch.path().isEmpty() && ch.path().get(0).equals(c.workload().group())) {
                    items.add(String.format(Locale.ROOT, "`%s` %s / %s", tail(ch.path(), 3), pct(ch.shareA()), pct(ch.shareB())));
                }
            }
            md.append(String.join("; ", items)).append('\n');
        }
        md.append("\nWhat differs by construction and is not normalised away: async-profiler walks fewer of its wall samples "
                + "while JFR's execution sampler runs in the same JVM (\"AP not walked\" against the control row, where it runs "
                + "alone), and the samples it loses are mostly of running Java code, so its walked samples under-weigh "
                + "computing (the time-split table). JFR's execution samples take only threads running Java code, never one "
                + "in native code or in the JVM's own (a native method such as `Throwable.fillInStackTrace` or "
                + "`Reference.clear0`, the JVM throwing an exception, a file write shorter than the 1 ms from which lockscope "
                + "records I/O), where async-profiler's cpu and wall samples take it with the Java frames above it: that "
                + "time is missing from both of lockscope's profiles, and the shares of the rest are larger.\n");
        return md.toString();
    }

    /** The known split: each phase's share of the loop as the thread measured it, and in each wall profile. */
    private static void splitShares(StringBuilder md, Comparison c, Comparison alone) {
        long loop = c.truth().getOrDefault("loop", 0L);
        md.append("\n").append(SPLIT).append(": each phase's share of the worker's time, as the thread measured it and in each "
                + "normalised wall profile (async-profiler's over the samples it walked):\n\n");
        md.append("| phase | truth | lockscope | async-profiler | async-profiler alone (separate run) |\n|---|---|---|---|---|\n");
        for (String phase : PHASES) {
            double[] s = c.wallShares().get(phase);
            md.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s |%n", phase,
                    loop == 0 ? "n/a" : pct((double) c.truth().getOrDefault(phase, 0L) / loop), pct(s[0]), pct(s[1]),
                    alone == null ? "n/a" : pct(alone.wallShares().get(phase)[1])));
        }
    }

    private static double share(long part, long whole) {
        return whole == 0 ? Double.NaN : (double) part / whole;
    }

    private static String pct(double share) {
        return Double.isNaN(share) ? "n/a" : String.format(Locale.ROOT, "%.1f%%", 100 * share);
    }

    private static String tail(List<String> path, int frames) {
        List<String> shortNames = new ArrayList<>();
        for (String f : path.subList(Math.max(1, path.size() - frames), path.size())) {
            int dot = f.lastIndexOf('.', f.lastIndexOf('.') - 1);
            shortNames.add(dot < 0 ? f : f.substring(dot + 1));
        }
        return String.join(";", shortNames);
    }
}
