package dev.lockscope.cli;

import picocli.CommandLine.Option;

/** {@code --throughput-regex}: where a command that runs a workload ({@code scale}, {@code whatif --measure}) finds its throughput. */
final class ThroughputMixin {
    @Option(names = "--throughput-regex", paramLabel = "REGEX", defaultValue = ThroughputPattern.DEFAULT,
            description = "Regular expression for the throughput in the command's output (stdout and stderr); its "
                    + "first group is the number, the last match counts (default: ${DEFAULT-VALUE}).")
    String throughputRegex;

    /** The compiled pattern; a malformed one is the user's error. */
    ThroughputPattern pattern() {
        return new ThroughputPattern(throughputRegex);
    }
}
