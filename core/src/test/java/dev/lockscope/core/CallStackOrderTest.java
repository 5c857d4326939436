package dev.lockscope.core;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.CharRange;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.constraints.StringLength;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Stacks compared in the order of their joined text (blame's rows, owner chains' weights), without joining them. */
class CallStackOrderTest {
    @Property(tries = 2000)
    void ordersAsTheFramesJoinedByNewlines(
            @ForAll @Size(max = 4) List<@StringLength(max = 3) @CharRange(from = 'a', to = 'c') String> a,
            @ForAll @Size(max = 4) List<@StringLength(max = 3) @CharRange(from = 'a', to = 'c') String> b) {
        int joined = Integer.signum(String.join("\n", a).compareTo(String.join("\n", b)));
        // lists whose joined texts are equal but that differ ([""] and []) have no text order to follow
        if (joined != 0) {
            assertThat(Integer.signum(CallStack.compareJoined(a, b))).isEqualTo(joined);
        }
    }

    @Test
    void aStackThatIsTheOthersBeginningComesFirst() {
        assertThat(CallStack.compareJoined(List.of("a.b", "z"), List.of("a.bc"))).isNegative(); // "a.b\nz" < "a.bc"
        assertThat(CallStack.compareJoined(List.of("a.b"), List.of("a.b", "z"))).isNegative();
        assertThat(CallStack.compareJoined(List.of("a.b", "z"), List.of("a.b", "z"))).isZero();
        assertThat(CallStack.compareJoined(List.of("b"), List.of("a.b", "z"))).isPositive();
    }
}
