package dev.lockscope.cli;

import dev.lockscope.report.rules.WaitClassifier;
import picocli.CommandLine.Option;

/** {@code --idle} and {@code --contention}: the user's word on which waits are idle and which contention. */
final class WaitClassMixin {
    @Option(names = "--idle", paramLabel = "REGEX",
            description = "Count as idle (waiting for work, shown apart from contention) every lock whose class or a "
                    + "waiting frame (package.Class.method:line) matches REGEX.")
    String idle;

    @Option(names = "--contention", paramLabel = "REGEX",
            description = "Count as contention every lock whose class or a waiting frame matches REGEX; "
                    + "decides before --idle and the built-in rules.")
    String contention;

    WaitClassifier classifier() {
        try {
            return WaitClassifier.of(idle, contention);
        } catch (IllegalArgumentException e) {
            throw new UserError(e.getMessage());
        }
    }
}
