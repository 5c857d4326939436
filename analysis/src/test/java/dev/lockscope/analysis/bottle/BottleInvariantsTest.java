package dev.lockscope.analysis.bottle;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** Invariants of Eq. 1–2 (Du Bois et al. §2.1; note §C3 T1) over random schedules. */
class BottleInvariantsTest {
    static final int THREADS = 6;

    @Provide
    Arbitrary<Schedule> schedules() {
        Arbitrary<Long> t = Arbitraries.longs().between(0, 1000);
        Arbitrary<Integer> mask = Arbitraries.integers().between(0, (1 << THREADS) - 1);
        return Combinators.combine(t, mask).as((d, m) -> new long[] {d, m}).list().ofMinSize(1).ofMaxSize(30)
                .map(steps -> {
                    Schedule s = new Schedule();
                    for (long[] st : steps) {
                        s.stepIds(st[0], ids((int) st[1]));
                    }
                    return s;
                });
    }

    static Set<Integer> ids(int mask) {
        Set<Integer> ids = new HashSet<>();
        for (int i = 0; i < THREADS; i++) {
            if ((mask & (1 << i)) != 0) {
                ids.add(i + 1);
            }
        }
        return ids;
    }

    @Property(tries = 300)
    void shareTimesParallelismIsRunningTime_andBounds(@ForAll("schedules") Schedule s) {
        BottleGraph g = s.graph();
        long maxR = s.steps.stream().filter(st -> st.t() > 0).mapToLong(st -> st.running().size()).max().orElse(0);
        for (ThreadBox b : g.threads()) {
            assertThat(b.share().times(b.parallelism())).isEqualTo(b.running());
            assertThat(b.parallelism()).isGreaterThanOrEqualTo(Rational.ONE);
            assertThat(b.parallelism()).isLessThanOrEqualTo(Rational.of(maxR));
        }
        for (GroupBox b : g.groups()) {
            assertThat(b.share().times(b.parallelism())).isEqualTo(b.running());
        }
    }

    @Property(tries = 300)
    void sumOfSharesIsBusyTime_andSumOfAreasIsSumOfRT(@ForAll("schedules") Schedule s) {
        BottleGraph g = s.graph();
        long busy = 0;
        long work = 0;
        for (Schedule.Step st : s.steps) {
            if (!st.running().isEmpty()) {
                busy += st.t();
            }
            work += st.t() * st.running().size();
        }
        Rational sumS = g.threads().stream().map(ThreadBox::share).reduce(Rational.ZERO, Rational::plus);
        Rational sumA = g.threads().stream().map(ThreadBox::running).reduce(Rational.ZERO, Rational::plus);
        assertThat(sumS).isEqualTo(Rational.of(busy));
        assertThat(g.busyNanos()).isEqualTo(busy);
        assertThat(sumA).isEqualTo(Rational.of(work));
    }

    @Property(tries = 200)
    void invariantUnderThreadIdPermutation(@ForAll("schedules") Schedule s, @ForAll long seed) {
        List<Integer> perm = new ArrayList<>(List.of(1, 2, 3, 4, 5, 6));
        Collections.shuffle(perm, new java.util.Random(seed));
        Map<Integer, Integer> map = new HashMap<>();
        for (int i = 0; i < THREADS; i++) {
            map.put(i + 1, 50 + perm.get(i));
        }
        Schedule permuted = new Schedule();
        for (Schedule.Step st : s.steps) {
            Set<Integer> ids = new HashSet<>();
            st.running().forEach(id -> ids.add(map.get(id)));
            permuted.stepIds(st.t(), ids);
        }
        Map<Integer, ThreadBox> before = byTid(s.graph());
        Map<Integer, ThreadBox> after = byTid(permuted.graph());
        assertThat(after.keySet()).hasSameSizeAs(before.keySet());
        before.forEach((tid, b) -> {
            ThreadBox a = after.get(map.get(tid));
            assertThat(a.share()).isEqualTo(b.share());
            assertThat(a.running()).isEqualTo(b.running());
            assertThat(a.parallelism()).isEqualTo(b.parallelism());
        });
    }

    @Property(tries = 100)
    void sharesAndAreasAddAcrossSlices(@ForAll("schedules") Schedule s, @ForAll("sliceLengths") long slice) {
        BottleGraph whole = s.graph();
        List<BottleGraph> slices = BottleGraphs.slices(s.trace(), ThreadClassifier.defaults(), slice);
        for (ThreadBox b : whole.threads()) {
            Rational sumS = Rational.ZERO;
            Rational sumA = Rational.ZERO;
            for (BottleGraph g : slices) {
                for (ThreadBox x : g.threads()) {
                    if (x.osTid() == b.osTid()) {
                        sumS = sumS.plus(x.share());
                        sumA = sumA.plus(x.running());
                    }
                }
            }
            assertThat(sumS).isEqualTo(b.share());
            assertThat(sumA).isEqualTo(b.running());
        }
    }

    @Provide
    Arbitrary<Long> sliceLengths() {
        return Arbitraries.longs().between(1, 3000);
    }

    static Map<Integer, ThreadBox> byTid(BottleGraph g) {
        Map<Integer, ThreadBox> m = new HashMap<>();
        g.threads().forEach(b -> m.put(b.osTid(), b));
        return m;
    }
}
