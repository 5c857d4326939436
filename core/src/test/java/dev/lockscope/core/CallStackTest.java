package dev.lockscope.core;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** An interned chain is a {@link List} like any other: equal to, and hashed as, a list of the same frames. */
class CallStackTest {
    @Test
    void equalsAndHashesAsAListOfTheSameFrames() {
        List<String> frames = List.of("a.B.c:1", "a.B.d:2");
        CallStack stack = CallStack.of(new ArrayList<>(frames));
        assertThat(stack).isEqualTo(frames).hasSameHashCodeAs(frames);
        assertThat(frames).isEqualTo(stack);
        assertThat(stack).isEqualTo(CallStack.of(frames)).isNotEqualTo(CallStack.of(List.of("a.B.c:1")));
        Map<List<String>, String> byChain = new HashMap<>();
        byChain.put(frames, "seen");
        assertThat(byChain.get(stack)).isEqualTo("seen");
        assertThat(CallStack.of(List.of())).isEqualTo(List.of()).hasSameHashCodeAs(List.of());
    }

    @Test
    void isImmutableAndHoldsNoNull() {
        CallStack stack = CallStack.of(List.of("a.B.c:1"));
        assertThatThrownBy(() -> stack.add("x")).isInstanceOf(UnsupportedOperationException.class);
        List<String> withNull = new ArrayList<>();
        withNull.add(null);
        assertThatThrownBy(() -> CallStack.of(withNull)).isInstanceOf(NullPointerException.class);
    }
}
