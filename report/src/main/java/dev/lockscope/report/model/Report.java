package dev.lockscope.report.model;

import dev.lockscope.analysis.deep.DeepResult;
import dev.lockscope.analysis.vthreads.PinningAnalysis;
import dev.lockscope.analysis.LockContention;
import dev.lockscope.analysis.blame.BlameSummary;
import dev.lockscope.analysis.bottle.BottleSection;
import dev.lockscope.analysis.profile.Profiles;
import dev.lockscope.analysis.profile.ThreadCpuTimes;
import dev.lockscope.analysis.whatif.Measured;
import dev.lockscope.analysis.whatif.WhatIf;
import dev.lockscope.report.rules.RuleResult;
import dev.lockscope.report.rules.Rules;
import dev.lockscope.report.rules.WaitClasses;

import java.util.List;

/**
 * Everything a report shows, computed once from one pass over a recording ({@link ReportBuilder}).
 * Text, JSON, HTML, collapsed stacks and pprof are sibling renderers of this model; none of them
 * reads another's output.
 *
 * @param contention  the park-contention table (the J9 park-contention report §3.7)
 * @param blame       owner blame: rows, the tree over the requested aspects (built from the rows, see
 *                    {@link BlameKeys}), owner-chain shares, conditional waits
 * @param bottles     the bottle graphs when scheduling data lies beside the recording, else null
 * @param timeline    the per-thread timeline when asked for (the HTML page), else null
 * @param virtualThreads pinning of virtual threads and carrier starvation, or null when none was pinned
 * @param rules       every rule's result, in {@link Rules#ALL}'s order
 * @param waits       each lock's waits classified as contention, idle or other; idle time per pool
 * @param warnings    what the reader found wrong with the recording (damage, salvaged chunks, no lockscope events)
 * @param profiles    the CPU and wall-clock profiles (execution samples and recorded waits), or null when not built
 * @param deep        deep mode's statistics ({@code record --deep}), or null when the recording has none
 * @param whatWouldHelp each lock waited for with its holds halved in a replay of the recording, the greatest
 *                    predicted throughput gain first ({@link WhatIf#ranking}); empty when nobody waited
 * @param cpuTimes    every thread's CPU time with the machine's steal divided among them, or null when the
 *                    recording has no CPU-time samples
 * @param measured    the lock sites {@code whatif --measure} measured (its profiled run is the recording), the most
 *                    sensitive first; empty in a plain report
 */
public record Report(LockContention contention, BlameSummary blame, BottleSection bottles, Timeline timeline,
                     PinningAnalysis.Result virtualThreads, List<RuleResult> rules, WaitClasses waits,
                     List<String> warnings, Profiles profiles, DeepResult deep, List<WhatIf.Prediction> whatWouldHelp,
                     ThreadCpuTimes cpuTimes, List<Measured> measured) {
    public Report {
        rules = List.copyOf(rules);
        warnings = List.copyOf(warnings);
        whatWouldHelp = List.copyOf(whatWouldHelp);
        measured = List.copyOf(measured);
    }

    /** This report with the sites {@code whatif --measure} measured on the program it recorded. */
    public Report withMeasured(List<Measured> sites) {
        return new Report(contention, blame, bottles, timeline, virtualThreads, rules, waits, warnings, profiles, deep,
                whatWouldHelp, cpuTimes, sites);
    }

    /** A report of a recording without virtual-thread pinning data or reader warnings. */
    public Report(LockContention contention, BlameSummary blame, BottleSection bottles, Timeline timeline,
                  List<RuleResult> rules, WaitClasses waits) {
        this(contention, blame, bottles, timeline, null, rules, waits, List.of(), null, null, List.of(), null, List.of());
    }

    /** A report without profiles, deep-mode statistics and what-if predictions. */
    public Report(LockContention contention, BlameSummary blame, BottleSection bottles, Timeline timeline,
                  PinningAnalysis.Result virtualThreads, List<RuleResult> rules, WaitClasses waits, List<String> warnings) {
        this(contention, blame, bottles, timeline, virtualThreads, rules, waits, warnings, null, null, List.of(), null,
                List.of());
    }

    /** The findings to show, most important first (see {@link Rules#findings}). */
    public List<RuleResult> findings() {
        return Rules.findings(rules);
    }
}
