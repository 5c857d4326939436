package dev.lockscope.report.model;

import dev.lockscope.analysis.ContentionOptions;
import dev.lockscope.analysis.LockContention;
import dev.lockscope.analysis.LockContentionAnalysis;
import dev.lockscope.analysis.scale.ContendedLock;
import dev.lockscope.analysis.bottle.BottleSection;
import dev.lockscope.analysis.bottle.JfrWaits;
import dev.lockscope.analysis.model.RecordingException;
import dev.lockscope.analysis.blame.Aspect;
import dev.lockscope.analysis.blame.BlameAnalysis;
import dev.lockscope.analysis.blame.BlameResult;
import dev.lockscope.analysis.blame.HandoffHold;
import dev.lockscope.analysis.blame.BlameRow;
import dev.lockscope.analysis.blame.BlameRows;
import dev.lockscope.analysis.blame.ChainView;
import dev.lockscope.analysis.blame.Contention;
import dev.lockscope.analysis.blame.WaitRecord;
import dev.lockscope.analysis.blame.LockChainShare;
import dev.lockscope.core.LockId;
import dev.lockscope.analysis.blame.WaitRow;
import dev.lockscope.analysis.blame.BlameSummary;
import dev.lockscope.analysis.deep.DeepAnalysis;
import dev.lockscope.analysis.deep.DeepResult;
import dev.lockscope.analysis.bottle.JfrThreadNames;
import dev.lockscope.analysis.bottle.CarrierMountCollector;
import dev.lockscope.analysis.model.RecordingInfo;
import dev.lockscope.analysis.model.RecordingReader;
import dev.lockscope.analysis.model.RecordingVisitor;
import dev.lockscope.analysis.profile.CpuTimeAnalysis;
import dev.lockscope.analysis.profile.ProfileAnalysis;
import dev.lockscope.analysis.profile.ThreadCpuTimes;
import dev.lockscope.analysis.profile.Profiles;
import dev.lockscope.analysis.vthreads.PinningAnalysis;
import dev.lockscope.analysis.whatif.HoldTrace;
import dev.lockscope.analysis.whatif.WhatIf;
import dev.lockscope.report.rules.EventsSeen;
import dev.lockscope.report.rules.RuleInput;
import dev.lockscope.report.rules.Rules;
import dev.lockscope.report.rules.WaitClasses;
import dev.lockscope.report.rules.WaitClassifier;
import dev.lockscope.core.LockMetrics;
import dev.lockscope.core.LockTable;
import dev.lockscope.sched.SchedFile;
import dev.lockscope.sched.SchedTrace;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Builds the {@link Report} of a recording: one pass feeds every analysis, then the results are
 * put together and the rules evaluated once.
 */
public final class ReportBuilder {
    private final List<Aspect> groupBy;
    /** How call chains are shown: lock internals and wrappers hidden unless raw. */
    private final ChainView view;
    private final LockContentionAnalysis contention;
    private final BlameAnalysis blame;
    private final EventsSeen events = new EventsSeen();
    private final PinningAnalysis pinning = new PinningAnalysis();
    private final ProfileAnalysis profiles = new ProfileAnalysis();
    private final DeepAnalysis deep = new DeepAnalysis();
    private final HoldTrace holds = new HoldTrace();
    private final CpuTimeAnalysis cpuTimes = new CpuTimeAnalysis();
    private final CarrierMountCollector carrierMounts = new CarrierMountCollector();
    private final JfrThreadNames threadNames = new JfrThreadNames();
    private final ThreadTimeline timeline;
    private WaitClassifier classifier = WaitClassifier.DEFAULTS;
    private BottleSection.Request bottleRequest = BottleSection.Request.REPORT;
    /** The waits a neck is explained by: read only when {@link #bottleRequest} asks for necks. */
    private JfrWaits bottleWaits;

    /**
     * @param groupBy      the aspects of the blame tree
     * @param raw          keep lock internals (AQS, LockSupport frames) at the top of chains
     * @param withTimeline also build the per-thread timeline (the HTML page shows it)
     */
    public ReportBuilder(ContentionOptions options, List<Aspect> groupBy, boolean raw, boolean withTimeline) {
        this(options, groupBy, ChainView.of(raw), withTimeline);
    }

    /** The same with call chains shown by {@code view} (the user's {@code --raw} and {@code --wrapper}). */
    public ReportBuilder(ContentionOptions options, List<Aspect> groupBy, ChainView view, boolean withTimeline) {
        this.groupBy = List.copyOf(groupBy);
        this.view = view;
        this.contention = new LockContentionAnalysis(options);
        this.blame = BlameAnalysis.byObject(options.byInstance());
        this.timeline = withTimeline ? new ThreadTimeline() : null;
    }

    /** Classifies waits with {@code classifier} ({@code --idle}, {@code --contention}) instead of the defaults. */
    public ReportBuilder classifyingWaitsBy(WaitClassifier classifier) {
        this.classifier = classifier;
        return this;
    }

    /**
     * Builds the bottle section as {@code request} asks ({@code lockscope bottle}: its thread groups, slices and the
     * neck explained) instead of the report's whole-run graph.
     */
    public ReportBuilder drawingBottles(BottleSection.Request request) {
        this.bottleRequest = request;
        this.bottleWaits = request.necks() ? new JfrWaits() : null;
        return this;
    }

    /** Reads the recording once and builds its report. */
    public static Report read(Path recording, ContentionOptions options, List<Aspect> groupBy, boolean raw,
                              boolean withTimeline) throws RecordingException {
        return read(recording, options, groupBy, ChainView.of(raw), withTimeline, WaitClassifier.DEFAULTS);
    }

    /** The same with waits classified by {@code classifier} and chains shown by {@code view}. */
    public static Report read(Path recording, ContentionOptions options, List<Aspect> groupBy, ChainView view,
                              boolean withTimeline, WaitClassifier classifier) throws RecordingException {
        ReportBuilder builder = new ReportBuilder(options, groupBy, view, withTimeline).classifyingWaitsBy(classifier);
        return builder.build(RecordingReader.read(recording, builder.visitors().toArray(RecordingVisitor[]::new)));
    }

    /**
     * The same for events that come from elsewhere than a file (in tests, an in-memory recording's
     * {@code replay}): {@code pass} feeds the visitors every event and returns the recording's info.
     */
    public static Report read(Function<RecordingVisitor[], RecordingInfo> pass, ContentionOptions options,
                              List<Aspect> groupBy, boolean raw, boolean withTimeline) {
        ReportBuilder builder = new ReportBuilder(options, groupBy, raw, withTimeline);
        return builder.build(pass.apply(builder.visitors().toArray(RecordingVisitor[]::new)));
    }

    /**
     * The contended locks of one run of a scalability sweep, largest wait first: the report's table rows that are
     * contention (the profiler's own locks and idle ones left out, as every format of the report leaves them), with
     * the waiters and holders of the same pass's owner blame; and the recording's length.
     */
    public static SweepPoint sweepPoint(Path recording) throws RecordingException {
        ReportBuilder builder = new ReportBuilder(ContentionOptions.DEFAULTS, Aspect.DEFAULT, false, false);
        return builder.sweepPoint(builder.build(RecordingReader.read(recording, builder.visitors().toArray(RecordingVisitor[]::new))));
    }

    /** The same for events fed by {@code pass} (in tests, an in-memory recording's {@code replay}). */
    public static SweepPoint sweepPoint(Function<RecordingVisitor[], RecordingInfo> pass) {
        ReportBuilder builder = new ReportBuilder(ContentionOptions.DEFAULTS, Aspect.DEFAULT, false, false);
        return builder.sweepPoint(builder.build(pass.apply(builder.visitors().toArray(RecordingVisitor[]::new))));
    }

    private SweepPoint sweepPoint(Report report) {
        LockContention table = report.contention();
        List<LockMetrics> contended = new ArrayList<>();
        for (int i = 0; i < table.rows().size(); i++) {
            if (report.waits().of(i).blamed()) {
                contended.add(table.rows().get(i));
            }
        }
        return new SweepPoint(table.durationNanos(), ContendedLock.of(table, contended, blame.result()));
    }

    /** What {@link #sweepPoint} gives: the recording's length and its contended locks. */
    public record SweepPoint(long durationNanos, List<ContendedLock> locks) {
    }

    /** What the pass over the recording must feed. */
    public List<RecordingVisitor> visitors() {
        List<RecordingVisitor> all = new ArrayList<>(List.of(contention, blame, events, pinning, profiles, deep, holds, cpuTimes,
                carrierMounts, threadNames));
        if (timeline != null) {
            all.add(timeline);
        }
        if (bottleWaits != null) {
            all.add(bottleWaits);
        }
        return all;
    }

    /** The holds the what-if replay reads, once the visitors have been fed the whole recording ({@code whatif --measure}). */
    public dev.lockscope.analysis.whatif.LockTrace holdTrace() {
        return holds.result();
    }

    /** The report, once the visitors have been fed the whole recording. */
    public Report build(RecordingInfo recording) {
        LockContention table = contention.result();
        ThreadCpuTimes cpu = cpuTimes.result();
        List<String> warnings = new ArrayList<>(recording.warnings());
        BottleSection bottle = bottles(recording, cpu != null && cpu.sampled() ? cpu.stealByOsTid() : Map.of(), warnings);
        return build(recording, table, table.byRow(blame.result()), pinning.result(), events, warnings,
                bottle, profiles.result(), deep.result(), WhatIf.ranking(holds.result()), cpu);
    }

    /**
     * The report of several recordings (many JVMs, or the rotations of one) as one: each is read once
     * by its own analyses; their tables are merged by lock site ({@link LockContention#merge}), their
     * owner blame, each grouped by its own sites first, summed; then one report is built as for one.
     */
    public static Report merge(List<Path> recordings, ContentionOptions options, List<Aspect> groupBy, ChainView view,
                               WaitClassifier classifier) throws RecordingException {
        List<LockContention> tables = new ArrayList<>();
        List<Contention> contentions = new ArrayList<>();
        List<WaitRecord> waits = new ArrayList<>();
        List<HandoffHold> handoffHolds = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        EventsSeen seen = new EventsSeen();
        RecordingInfo first = null;
        for (Path recording : recordings) {
            ReportBuilder one = new ReportBuilder(options, groupBy, view, false);
            RecordingInfo info = RecordingReader.read(recording, one.visitors().toArray(RecordingVisitor[]::new));
            first = first == null ? info : first;
            LockContention table = one.contention.result();
            tables.add(table);
            BlameResult bySite = table.byRow(one.blame.result());
            contentions.addAll(bySite.contentions());
            waits.addAll(bySite.waits());
            handoffHolds.addAll(bySite.handoffHolds());
            one.events.addTo(seen);
            info.warnings().forEach(w -> warnings.add(recording.getFileName() + ": " + w));
        }
        ReportBuilder merged = new ReportBuilder(options, groupBy, view, false).classifyingWaitsBy(classifier);
        // no bottle graph, timeline, profiles, deep statistics or what-if replay: each belongs to one JVM's run
        return merged.build(first, LockContention.merge(tables),
                new BlameResult(contentions, waits, HandoffHold.sumBy(handoffHolds, lock -> lock)), null, seen, warnings,
                null, null, null, List.of(), null);
    }

    private Report build(RecordingInfo recording, LockContention everyLock, BlameResult result,
                         PinningAnalysis.Result pinned, EventsSeen events, List<String> warnings, BottleSection bottle,
                         Profiles profiles, DeepResult deep, List<WhatIf.Prediction> whatWouldHelp,
                         ThreadCpuTimes cpuTimes) {
        // the profiler's own locks leave the model here, once, so that no format shows them (each says how many waits)
        LockContention table = everyLock.withoutProfilersOwn();
        // every format names a lock as the table and the findings do: by its row's label
        Function<LockId, String> lockNames = table.rowLabels();
        BlameSummary all = summarize(result, lockNames);
        // the locks are classified on all their blame rows (the waiting stacks decide), then the blame that every
        // format shows leaves out idle locks and the profiler's own: a worker waiting for work is nobody's fault,
        // so the tree, like the findings, leads with contention, and idle time is shown apart, one line per pool
        WaitClasses classes = WaitClasses.of(table, all, classifier);
        Set<LockId> notBlamed = new HashSet<>();
        for (LockMetrics lock : everyLock.rows()) {
            if (LockTable.isProfilersOwn(lock)) {
                notBlamed.add(new LockId(lock.kind(), lock.className(), lock.identityHash()));
            }
        }
        for (int i = 0; i < table.rows().size(); i++) {
            if (!classes.of(i).blamed()) {
                LockMetrics lock = table.rows().get(i);
                notBlamed.add(new LockId(lock.kind(), lock.className(), lock.identityHash()));
            }
        }
        List<Contention> blamed = result.contentions().stream().filter(c -> !notBlamed.contains(table.rowOf(c.lock()))).toList();
        BlameSummary summary = blamed.size() == result.contentions().size() ? all
                : summarize(new BlameResult(blamed, result.waits(), result.handoffHolds()), lockNames);
        if (pinned != null && pinned.sites().isEmpty()) {
            pinned = null; // no virtual thread was pinned: nothing to show
        }
        RuleInput input = new RuleInput(table, summary, classes, pinned);
        return new Report(table, summary, bottle, timeline == null ? null : timeline.build(recording),
                pinned, Rules.evaluate(input, events), input.waits(), warnings, profiles, deep, whatWouldHelp, cpuTimes,
                List.of());
    }

    /** The blame every format renders: the tree of the rows, which the HTML page regroups. */
    private BlameSummary summarize(BlameResult result, Function<LockId, String> lockNames) {
        List<BlameRow> rows = BlameRows.of(result.contentions(), view);
        // the rows' chains are shown by the view already: the default view of the same rawness hides nothing more
        boolean raw = view.isRaw();
        return new BlameSummary(result.totalNanos(), result.contentionCount(), groupBy, raw,
                BlameKeys.tree(rows, groupBy, raw, lockNames), rows, LockChainShare.of(result.contentions()),
                WaitRow.of(result.waits(), view), result.handoffHolds());
    }

    /**
     * The bottle graphs of the scheduling data beside the recording ({@code run.sched} next to {@code run.jfr},
     * written by {@code record --sched}), with the recording's Java thread names as {@code lockscope bottle} shows
     * them; null without one, or with a damaged one (said in {@code warnings}).
     */
    private BottleSection bottles(RecordingInfo recording, Map<Integer, Long> steal, List<String> warnings) {
        if (recording.source() == null) {
            return null;
        }
        Path sched = SchedFile.besideRecording(recording.source());
        if (!Files.isRegularFile(sched)) {
            return null;
        }
        SchedTrace trace;
        try {
            trace = SchedFile.read(sched);
        } catch (IOException | RuntimeException e) {
            warnings.add("no bottle graph: " + e.getMessage()); // a damaged .sched must not cost the rest of the report
            return null;
        }
        trace = trace.withNames(JfrThreadNames.merge(trace.names(), threadNames.javaNames()));
        return BottleSection.of(trace, bottleRequest, carrierMounts.result(), steal, bottleWaits);
    }
}
