package dev.lockscope.report.model;

import dev.lockscope.analysis.blame.Aspect;
import dev.lockscope.analysis.blame.BlameNode;
import dev.lockscope.analysis.blame.BlameRow;
import dev.lockscope.analysis.blame.BlameTree;
import dev.lockscope.analysis.blame.Cause;
import dev.lockscope.analysis.blame.ChainView;
import dev.lockscope.analysis.blame.Contention;

import dev.lockscope.core.LockId;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The blame rows grouped by {@link Aspect}s: every format groups rows (not the analysis' finer
 * records) with the aspects' own {@link Aspect#keyOf} rules, so the text tree, the JSON tree and the
 * HTML page's trees, built from the keys computed here, are the same for any order of aspects.
 */
public final class BlameKeys {
    private BlameKeys() {
    }

    /**
     * The key of a row under one aspect, e.g. its owner method; under {@link Aspect#LOCK} the name {@code lockName}
     * gives its lock: the table's name of the lock's row ({@code LockContention.rowLabels}), so that every format
     * names a lock as the table and the findings do.
     */
    public static String key(BlameRow row, Aspect aspect, boolean raw, Function<LockId, String> lockName) {
        return aspect.keyOf(asContention(row), ChainView.of(raw).withLockNames(lockName));
    }

    /** The tree of the rows over these aspects (a parent is the sum of its children), locks named by {@code lockName}. */
    public static BlameNode tree(List<BlameRow> rows, List<Aspect> aspects, boolean raw, Function<LockId, String> lockName) {
        List<Contention> contentions = new ArrayList<>(rows.size());
        rows.forEach(r -> contentions.add(asContention(r)));
        return BlameTree.build(contentions, aspects, ChainView.of(raw).withLockNames(lockName));
    }

    /**
     * A row as the one contention record it sums. Its frames are already shown as the view shows
     * them, and hiding lock internals twice hides nothing more, so its keys are those of its records.
     */
    private static Contention asContention(BlameRow r) {
        return new Contention(r.lock(), r.waiterThread(), r.waiterFrames(),
                new Cause(r.ownerThread(), r.ownerFrames(), r.ownerChain(), r.ownerInside()), false, r.count(), r.nanos(), 0, 0);
    }
}
