package dev.lockscope.analysis.blame;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.CharRange;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.constraints.StringLength;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Owner chains weigh stacks in the order of their joined text, compared without joining them. */
class StackOrderTest {
    @Property(tries = 2000)
    void ordersAsTheFramesJoinedByNewlines(
            @ForAll @Size(max = 4) List<@StringLength(max = 3) @CharRange(from = 'a', to = 'c') String> a,
            @ForAll @Size(max = 4) List<@StringLength(max = 3) @CharRange(from = 'a', to = 'c') String> b) {
        int joined = Integer.signum(String.join("\n", a).compareTo(String.join("\n", b)));
        // two lists whose joined texts are equal but that differ ([""] and [], ["a", ""] and ["a\n"]) have no text order
        if (joined != 0) {
            assertThat(Integer.signum(MonitorOwnerChains.compareJoined(a, b))).isEqualTo(joined);
        }
    }

    @Test
    void aStackThatIsTheOthersBeginningComesFirst() {
        assertThat(MonitorOwnerChains.compareJoined(List.of("a.b", "z"), List.of("a.bc"))).isNegative(); // "a.b\nz" < "a.bc"
        assertThat(MonitorOwnerChains.compareJoined(List.of("a.b"), List.of("a.b", "z"))).isNegative();
        assertThat(MonitorOwnerChains.compareJoined(List.of("a.b", "z"), List.of("a.b", "z"))).isZero();
        assertThat(MonitorOwnerChains.compareJoined(List.of("b"), List.of("a.b", "z"))).isPositive();
    }
}
