package dev.lockscope.analysis.vthreads;

import dev.lockscope.analysis.model.Interval;
import dev.lockscope.analysis.model.RecordingInfo;
import dev.lockscope.analysis.model.ThreadRef;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class PinningAnalysisTest {
    private static final ThreadRef VT = new ThreadRef(30, 0, "virtual#30");

    private static Interval pinned(long begin, long end, String... frames) {
        return new Interval("jdk.VirtualThreadPinned", VT, begin, end, List.of(frames));
    }

    @Test
    void pinnedTimeIsSummedPerApplicationSiteAndStarvationIsWhenEveryCarrierIsPinned() {
        PinningAnalysis a = new PinningAnalysis();
        a.virtualThreadCarriers(2);
        a.pinned(pinned(0, 10, "java.lang.Thread.sleep:1", "app.Handler.hold:7", "app.Handler.run:3"));
        a.pinned(pinned(5, 15, "jdk.internal.misc.Unsafe.park", "app.Handler.hold:7"));
        a.pinned(pinned(12, 20, "app.Db.query:9"));
        a.pinned(pinned(30, 40, "app.Db.query:9"));
        a.finish(new RecordingInfo(null, 0, 50, Map.of()));
        PinningAnalysis.Result r = a.result();
        assertThat(r.sites()).containsExactly(
                new PinningAnalysis.PinnedSite("app.Handler.hold:7", 20, 2),
                new PinningAnalysis.PinnedSite("app.Db.query:9", 18, 2));
        assertThat(r.pinnedNanos()).isEqualTo(38);
        // two pinned at once during [5,10) and [12,15)
        assertThat(r.starved()).containsExactly(new PinningAnalysis.StarvedPeriod(5, 10), new PinningAnalysis.StarvedPeriod(12, 15));
        assertThat(r.starvedNanos()).isEqualTo(8);
    }

    @Test
    void withoutTheCarrierCountNoStarvationIsClaimed() {
        PinningAnalysis a = new PinningAnalysis();
        a.pinned(pinned(0, 10, "app.A.b:1"));
        a.pinned(pinned(0, 10, "app.A.b:1"));
        a.finish(new RecordingInfo(null, 0, 10, Map.of()));
        assertThat(a.result().starved()).isEmpty();
        assertThat(a.result().carriers()).isZero();
    }
}
