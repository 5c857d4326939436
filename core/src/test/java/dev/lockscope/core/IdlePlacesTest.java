package dev.lockscope.core;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class IdlePlacesTest {
    private static List<String> stack(int depthOfPlace, String place) {
        List<String> functions = new ArrayList<>();
        for (int i = 0; i < depthOfPlace; i++) {
            functions.add("java.util.concurrent.locks.Frame" + i + ".call");
        }
        functions.add(place);
        functions.add("java.lang.Thread.run");
        return functions;
    }

    @Test
    void aPlaceNearTheTopOfAWaitingStackNamesItsRule() {
        assertThat(IdlePlaces.ruleOf(stack(3, "java.util.concurrent.ThreadPoolExecutor.getTask"))).isEqualTo("pool-queue");
        assertThat(IdlePlaces.ruleOf(stack(IdlePlaces.DEPTH - 1, "java.util.concurrent.ForkJoinPool.awaitWork")))
                .isEqualTo("fork-join-idle");
        // the agent's frames carry their line
        assertThat(IdlePlaces.ruleOf(stack(1, "java.util.concurrent.ThreadPoolExecutor.getTask:1061"))).isEqualTo("pool-queue");
        assertThat(IdlePlaces.ruleOf(stack(1, "com.example.Pool.awaitTermination:12"))).isEqualTo("termination-wait");
    }

    @Test
    void theSameClassDeeperDownIsOnlyWhereTheThreadCameFrom() {
        assertThat(IdlePlaces.ruleOf(stack(IdlePlaces.DEPTH, "java.util.concurrent.ThreadPoolExecutor.getTask"))).isNull();
        assertThat(IdlePlaces.ruleOf(stack(2, "com.example.Inventory.reserve"))).isNull();
        assertThat(IdlePlaces.ruleOf(List.of())).isNull();
    }
}
