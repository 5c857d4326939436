package dev.lockscope.analysis.bottle;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class NeckExplainerTest {
    @Test
    void serialisedPair_theWaiterIsBlockedOnTheLockWhileTheNeckRunsAlone() {
        // a runs 0..10 alone while b is blocked on L; then b runs 10..20 while a is finished; c runs 20..22 with b
        Schedule s = new Schedule().step(10, "a").step(10, "b").step(2, "b", "c");
        int a = s.id("a");
        int b = s.id("b");
        List<WaitInterval> waits = List.of(
                new WaitInterval(b, 0, 10, "blocked on monitor", "app.L at app.Work.run:7"),
                new WaitInterval(a, 10, Long.MAX_VALUE, "finished", ""),
                new WaitInterval(s.id("c"), Long.MIN_VALUE, 20, "not started yet", ""));
        BottleGraph g = s.graph();
        List<NeckExplainer.Neck> necks = NeckExplainer.explain(s.trace(), g, waits);
        assertThat(necks).extracting(n -> n.thread().name()).containsExactly("b", "a");
        NeckExplainer.Neck na = necks.get(1);
        assertThat(na.aloneNanos()).isEqualTo(10);
        assertThat(na.others()).containsExactlyInAnyOrder(
                new NeckExplainer.Activity("blocked on monitor", "app.L at app.Work.run:7", 10, 1),
                new NeckExplainer.Activity("not started yet", "", 10, 1));
        NeckExplainer.Neck nb = necks.get(0);
        assertThat(nb.aloneNanos()).isEqualTo(10); // 10..20 only: at 20..22 c runs too
        assertThat(nb.others()).containsExactlyInAnyOrder(
                new NeckExplainer.Activity("finished", "", 10, 1),
                new NeckExplainer.Activity("not started yet", "", 10, 1));
    }
}
