package dev.lockscope.e2e;

import dev.lockscope.analysis.blame.BlameNode;
import dev.lockscope.analysis.blame.BlameResult;
import dev.lockscope.analysis.blame.Contention;

import java.util.function.Predicate;

/** Sums over blame results, in milliseconds. */
final class Blamed {
    private Blamed() {
    }

    /** Contention of {@code waiter} blamed on {@code owner} ("?" = unknown owner). */
    static double ms(BlameResult r, String waiter, String owner) {
        return ms(r, c -> c.waiter().name().equals(waiter) && c.cause().owner().name().equals(owner));
    }

    static double ms(BlameResult r, Predicate<Contention> which) {
        return r.contentions().stream().filter(which).mapToLong(Contention::nanos).sum() / 1e6;
    }

    /** Share of all contention in the top-level nodes whose key ends with {@code suffix}. */
    static double share(BlameNode root, String suffix) {
        return root.children().stream().filter(n -> n.key().endsWith(suffix)).mapToDouble(BlameNode::share).sum();
    }
}
