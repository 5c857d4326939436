package dev.lockscope.analysis.bottle;

import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** The worked vectors V1–V6 of shared/notes/seed-003-004.md §A6, exactly (unit = 1 ns, V6 in half units). */
class TestVectorsTest {
    static Rational q(long n, long d) {
        return Rational.of(n, d);
    }

    static Rational q(long n) {
        return Rational.of(n);
    }

    static void box(BottleGraph g, String name, Rational s, Rational a, Rational p) {
        Box b = g.threads().stream().filter(t -> t.name().equals(name)).findFirst()
                .map(Box.class::cast)
                .or(() -> g.groups().stream().filter(t -> t.name().equals(name)).findFirst())
                .orElseThrow(() -> new AssertionError("no box " + name));
        assertThat(b.share()).as(name + " S").isEqualTo(s);
        assertThat(b.running()).as(name + " A").isEqualTo(a);
        assertThat(b.parallelism()).as(name + " P").isEqualTo(p);
    }

    @Test
    void v1_mixedSchedule_andGroupOfBandC() {
        Schedule s = new Schedule().step(2, "A").step(3, "A", "B", "C").step(1, "B", "C").step(2).step(4, "C");
        BottleGraph g = s.graph();
        box(g, "A", q(3), q(5), q(5, 3));
        box(g, "B", q(3, 2), q(4), q(8, 3));
        box(g, "C", q(11, 2), q(8), q(16, 11));
        assertThat(g.busyNanos()).isEqualTo(10);
        assertThat(g.wallNanos()).isEqualTo(12);
        BottleGraph grouped = s.graph(new ThreadClassifier(Map.of("BC", Pattern.compile("^[BC]$"))));
        box(grouped, "BC", q(7), q(12), q(12, 7));
    }

    @Test
    void v2_pmdLikeImbalance() {
        BottleGraph g = new Schedule().step(1, "a", "b", "c", "d").step(3, "d").graph();
        for (String t : new String[] {"a", "b", "c"}) {
            box(g, t, q(1, 4), q(1), q(4));
        }
        box(g, "d", q(13, 4), q(4), q(16, 13));
        assertThat(g.threads()).extracting(ThreadBox::name).last().isEqualTo("d"); // narrowest on top
    }

    @Test
    void v3_serialInitThenFourWorkers() {
        BottleGraph g = new Schedule().step(1, "main").step(2, "w1", "w2", "w3", "w4").graph();
        box(g, "main", q(1), q(1), q(1));
        for (String w : new String[] {"w1", "w2", "w3", "w4"}) {
            box(g, w, q(1, 2), q(2), q(4));
        }
    }

    @Test
    void v4_harmonicNotArithmeticMean() {
        BottleGraph g = new Schedule().step(1, "x", "p", "q", "r").step(1, "x").graph();
        box(g, "x", q(5, 4), q(2), q(8, 5));
    }

    @Test
    void v5_spinLockFourThreads() {
        BottleGraph g = new Schedule().step(1, "a", "b", "c", "d").step(1, "b", "c", "d").step(1, "c", "d")
                .step(1, "d").graph();
        box(g, "a", q(1, 4), q(1), q(4));
        box(g, "b", q(7, 12), q(2), q(24, 7));
        box(g, "c", q(13, 12), q(3), q(36, 13));
        box(g, "d", q(25, 12), q(4), q(48, 25));
    }

    @Test
    void v6_gcGroupAgainstAppThreads() {
        // half units: 4 → 8, ½ → 1
        BottleGraph g = new Schedule().step(8, "app1", "app2").step(1, "GC Thread#0", "GC Thread#1")
                .step(1, "GC Thread#0").graph();
        box(g, "GC", q(2), q(3), q(3, 2));
        box(g, "app1", q(4), q(8), q(2));
        box(g, "app2", q(4), q(8), q(2));
        assertThat(g.groups()).filteredOn(b -> b.name().equals("GC")).singleElement()
                .extracting(GroupBox::kind).isEqualTo(ThreadKind.GC);
    }
}
