package dev.lockscope.report.export;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lockscope.analysis.model.LockRecording;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class TopFindingsTest {
    private final LockRecording recording = Recordings.small();
    private final ObjectNode doc = Recordings.document(recording, List.of(new WaiterOnlyBlame(), new ThreadTimeline()));

    @Test
    void namesLockWaiterMethodThreadsAndWallTimeShare() {
        // the ReentrantLock: parks 0..60 and 70..100 ms of 200 ms: 45% real time; 110 ms in all
        assertThat(TopFindings.of(doc)).first().isEqualTo("`ReentrantLock` in `Inventory.reserve` blocked 2 threads "
                + "for 45% of wall time (0.1 s of waiting in all); where it was held meanwhile is not known "
                + "(no owner blame in this report).");
        assertThat(TopFindings.of(doc).get(1)).startsWith("The monitor of `Cache` in `Cache.get` blocked 1 thread");
    }

    @Test
    void namesWhereTheLockWasHeldWhenBlameHasOwners() {
        ArrayNode blame = doc.withArray("blame");
        for (int i = 0; i < blame.size(); i++) {
            ObjectNode e = (ObjectNode) blame.get(i);
            if (e.get("lockId").asText().equals("abc")) {
                e.put("ownerThread", "auditor").put("ownerChain", "exact");
                e.putArray("ownerFrames").add("java.util.concurrent.locks.ReentrantLock.unlock:494")
                        .add(i == 0 ? "com.example.Inventory.audit:77" : "com.example.Inventory.restock:90");
            }
        }
        // worker-a's entry (60 ms of 110) is blamed on audit
        assertThat(TopFindings.of(doc).get(0)).endsWith("; it was held in `Inventory.audit` 55% of that time.");
    }

    @Test
    void namesTheOwnerThreadWhenOwnersHaveNoChains() {
        for (com.fasterxml.jackson.databind.JsonNode e : doc.withArray("blame")) {
            if (e.get("lockId").asText().equals("7f00")) {
                ((ObjectNode) e).put("ownerThread", "worker-a");
            }
        }
        assertThat(TopFindings.of(doc).get(1)).endsWith("; it was held by `worker-a` 100% of that time.");
    }

    @Test
    void appMethodSkipsRuntimeFrames() {
        assertThat(TopFindings.appMethod(new com.fasterxml.jackson.databind.ObjectMapper().valueToTree(
                List.of("java.util.concurrent.locks.LockSupport.park", "com.example.Inventory$Item.reserve:42"))))
                .isEqualTo("Inventory$Item.reserve");
    }
}
