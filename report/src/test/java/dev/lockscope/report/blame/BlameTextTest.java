package dev.lockscope.report.blame;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class BlameTextTest {
    private static String chain(String... frames) {
        return String.join(" <- ", frames);
    }

    @Test
    void chainsAreShownByTheFramesThatTellThemApartInnermostFirst() {
        // Caffeine's shape: three chains alike in their innermost frames, apart only further out
        String common = chain("java.util.concurrent.ConcurrentHashMap.compute:1940", "com.x.Cache.doCompute:2686", "com.x.Cache.compute:2669");
        String a = common + " <- com.x.Cache.get:58 <- com.x.App.a:10 <- com.x.App.run:1";
        String b = common + " <- com.x.Cache.get:58 <- com.x.App.b:20 <- com.x.App.run:1";
        assertThat(BlameText.shortChain(a, List.of(a, b), 200)).isEqualTo("ConcurrentHashMap.compute:1940 <- Cache.doCompute:2686 "
                + "<- Cache.compute:2669 <- [+1] <- App.a:10 [+1]");
        assertThat(BlameText.shortChain(b, List.of(a, b), 200)).contains("<- App.b:20 [+1]");
        // apart in the innermost frame: the three innermost frames tell them apart, the rest is counted
        String c = chain("java.util.concurrent.ConcurrentHashMap.compute:1931", "com.x.Cache.doCompute:2686", "com.x.Cache.compute:2669",
                "com.x.Cache.get:58");
        assertThat(BlameText.shortChain(c, List.of(a, c), 200)).isEqualTo("ConcurrentHashMap.compute:1931 <- Cache.doCompute:2686 "
                + "<- Cache.compute:2669 [+1]");
        // too long for the line: cut at the outer end, the innermost frame stays
        assertThat(BlameText.shortChain(a, List.of(a, b), 40)).hasSize(40).startsWith("ConcurrentHashMap.compute:1940 <- ").endsWith("...");
        assertThat(BlameText.shortChain("(chain not recorded)", List.of(a), 40)).isEqualTo("(chain not recorded)");
    }
}
