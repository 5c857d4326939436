package dev.lockscope.cli;

import picocli.CommandLine.Command;

/**
 * {@code lockscope merge a.jfr b.jfr ...}: one report of recordings of many JVMs or rotations, locks
 * matched by lock site (identity hashes and monitor addresses differ between JVMs); {@code report}'s
 * options and formats.
 */
@Command(name = "merge", mixinStandardHelpOptions = true,
        description = {
                "Reads several JFR recordings made by lockscope (many JVMs of one service, or the rotated "
                        + "recordings of one) and prints one report: each lock site (lock class and the place in "
                        + "the application that first waited for it) summed over all recordings, with the wait "
                        + "in each recording beside it so that an outlier JVM stands out, then one set of "
                        + "findings and one owner-blame tree.",
                "TotalExecutionTime is the sum of the recordings' lengths. Each recording is read once, by "
                        + "itself; lock objects are never matched across recordings (--instances lists them "
                        + "side by side)."},
        footer = {"", "Examples:",
                "  lockscope merge host1.jfr host2.jfr host3.jfr",
                "  lockscope merge rotated/*.jfr --format json -o fleet.json",
                "  lockscope merge a.jfr b.jfr --format html -o fleet.html",
                "", "Exit status: 0 report written, 2 bad input (fewer than two recordings, a missing, truncated "
                        + "or non-JFR file, bad option)."})
final class MergeCommand extends ReportCommand {
    @Override
    public Integer call() {
        if (recordings.size() < 2) {
            throw new UserError("merge needs at least two recordings (one: lockscope report)");
        }
        return report();
    }
}
