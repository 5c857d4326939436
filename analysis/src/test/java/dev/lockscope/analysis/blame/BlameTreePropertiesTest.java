package dev.lockscope.analysis.blame;

import dev.lockscope.core.LockId;
import dev.lockscope.analysis.model.ThreadRef;
import dev.lockscope.core.LockKind;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Hofer §6 item 15: for any order of aspects, parents equal the sum of their children. */
class BlameTreePropertiesTest {
    private static final List<String> METHODS = List.of("app.A.put:1", "app.A.take:2", "app.B.run:3",
            "java.util.concurrent.locks.ReentrantLock.unlock:494");

    @Property(tries = 200)
    void parentsAreTheSumOfTheirChildrenForEveryAspectOrder(@ForAll("contentions") List<Contention> contentions,
                                                            @ForAll("aspectOrders") List<Aspect> aspects,
                                                            @ForAll boolean raw) {
        BlameNode root = BlameTree.build(contentions, aspects, ChainView.of(raw));

        assertThat(root.totalNanos()).isEqualTo(contentions.stream().mapToLong(Contention::nanos).sum());
        assertThat(root.count()).isEqualTo(contentions.stream().mapToLong(Contention::count).sum());
        assertThat(root.share()).isEqualTo(contentions.isEmpty() || root.totalNanos() == 0 ? 0.0 : 1.0);
        checkNode(root, aspects.size(), root.totalNanos());
        assertThat(BlameTree.build(contentions, aspects, ChainView.of(raw))).isEqualTo(root); // deterministic
    }

    @Property(tries = 100)
    void treeDoesNotDependOnInputOrder(@ForAll("contentions") List<Contention> contentions,
                                       @ForAll("aspectOrders") List<Aspect> aspects) {
        List<Contention> shuffled = new ArrayList<>(contentions);
        Collections.reverse(shuffled);
        assertThat(BlameTree.build(shuffled, aspects, ChainView.FILTERED))
                .isEqualTo(BlameTree.build(contentions, aspects, ChainView.FILTERED));
    }

    private static void checkNode(BlameNode node, int levelsBelow, long grand) {
        if (levelsBelow == 0) {
            assertThat(node.children()).isEmpty();
            return;
        }
        assertThat(node.children().stream().mapToLong(BlameNode::totalNanos).sum()).isEqualTo(node.totalNanos());
        assertThat(node.children().stream().mapToLong(BlameNode::count).sum()).isEqualTo(node.count());
        for (int i = 1; i < node.children().size(); i++) {
            assertThat(node.children().get(i - 1).totalNanos()).isGreaterThanOrEqualTo(node.children().get(i).totalNanos());
        }
        for (BlameNode child : node.children()) {
            assertThat(child.share()).isEqualTo(grand == 0 ? 0 : (double) child.totalNanos() / grand);
            checkNode(child, levelsBelow - 1, grand);
        }
    }

    @Provide
    Arbitrary<List<Aspect>> aspectOrders() {
        return Arbitraries.of(Aspect.class).list().ofMinSize(1).ofMaxSize(Aspect.values().length).uniqueElements();
    }

    @Provide
    Arbitrary<List<Contention>> contentions() {
        Arbitrary<ThreadRef> threads = Arbitraries.longs().between(1, 4).map(t -> new ThreadRef(t, t, "t" + t));
        Arbitrary<List<String>> frames = Arbitraries.of(METHODS).list().ofMaxSize(3);
        Arbitrary<LockId> locks = Combinators.combine(Arbitraries.of(LockKind.class), Arbitraries.integers().between(1, 3))
                .as((k, h) -> k == LockKind.PARK ? LockId.blocker("java.util.concurrent.locks.ReentrantLock$NonfairSync", h)
                        : LockId.monitor("app.M", h));
        Arbitrary<Cause> causes = Combinators.combine(threads, frames, Arbitraries.of(OwnerChain.class))
                .as((t, f, c) -> c == OwnerChain.UNKNOWN ? Cause.UNKNOWN : new Cause(t, f, c));
        return Combinators.combine(locks, threads, frames, Arbitraries.longs().between(0, 1_000_000_000L),
                        Arbitraries.longs().between(1, 50_000_000L), causes, Arbitraries.of(true, false),
                        Arbitraries.longs().between(1, 5))
                .as((lock, waiter, f, begin, nanos, cause, afterWait, count) ->
                        new Contention(lock, waiter, f, cause, afterWait, count, nanos * count, begin, nanos))
                .list().ofMaxSize(40);
    }
}
