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

    /** The records that hold a stack share it, sublists included, and each frame is parsed once (issue 41). */
    @Test
    void sublistsAndCopiesAreTheSameStackAndItsFramesAreParsedOnce() {
        CallStack stack = CallStack.of(List.of("java.lang.Object.wait", "com.shop.Orders.reserve:42", "com.shop.Main.run:7"));
        CallStack inner = stack.subList(1, 3);
        assertThat(inner).isEqualTo(List.of("com.shop.Orders.reserve:42", "com.shop.Main.run:7"))
                .hasSameHashCodeAs(List.of("com.shop.Orders.reserve:42", "com.shop.Main.run:7"));
        assertThat(CallStack.copyOf(inner)).isSameAs(inner);
        assertThat(CallStack.copyOf(stack)).isSameAs(stack);
        assertThat(CallStack.frameAt(inner, 0)).isSameAs(stack.frame(1))
                .isEqualTo(Frame.parse("com.shop.Orders.reserve:42"));
        assertThat(CallStack.framesOf(inner)).containsExactly(stack.frame(1), stack.frame(2));
        assertThat(CallStack.frameAt(List.of("com.shop.Main.run:7"), 0)).isEqualTo(stack.frame(2));
        assertThat(stack.subList(1, 1)).isEmpty();
        assertThatThrownBy(() -> inner.get(2)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> stack.subList(2, 4)).isInstanceOf(IndexOutOfBoundsException.class);
    }
}
