package dev.lockscope.report.scale;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ScaleTextReportTest {
    @Test
    void headlineNamesTheKneeTheLockItsLayerAndItsOwner() {
        assertThat(ScaleFormat.headline(SweepFixture.result())).isEqualTo(
                "throughput stops scaling at 4 threads (efficiency 75.0%, below 80%); from 2 to 8 threads, "
                        + "`Hashtable` in `Cache.get` (JDK layer, held by application code `Report.render`) "
                        + "grows from 5% to 70% of thread time");
    }

    @Test
    void tableLocksLayersAndNotes() {
        String text = ScaleTextReport.render(SweepFixture.result(), SweepFixture.context());
        assertThat(text).contains("t4-c2.jfr  <- knee", "t8-c2.jfr  <- peak", "failed run: exit code 3",
                "peak: 310.0 ops/s at 8 threads on 2 CPUs", "note: asked for 4 CPUs, this machine has 2");
        assertThat(text).containsSubsequence("   1  JDK         Hashtable", "Cache.get", "Report.render (application)",
                "5%", "70%", "+65%");
        assertThat(text).containsSubsequence("application: no growing lock", "JDK:", "`Hashtable` in `Cache.get` +65%",
                "<- start here");
        assertThat(text.lines()).allMatch(l -> !l.contains("NaN"));
    }

    @Test
    void methodNamesDropPackageAndLine() {
        assertThat(ScaleFormat.method("java.util.Hashtable.get:385")).isEqualTo("Hashtable.get");
        assertThat(ScaleFormat.method("jdk.internal.misc.Unsafe.park")).isEqualTo("Unsafe.park");
        assertThat(ScaleFormat.method("Top.run:3")).isEqualTo("Top.run");
        assertThat(ScaleFormat.change(-0.001)).isEqualTo("+0%");
        assertThat(ScaleFormat.change(0.654)).isEqualTo("+65%");
        assertThat(ScaleFormat.pct1(0.7968)).isEqualTo("79.7%");
        assertThat(ScaleFormat.simpleClass("java.util.concurrent.locks.ReentrantLock$NonfairSync"))
                .isEqualTo("ReentrantLock$NonfairSync");
    }
}
