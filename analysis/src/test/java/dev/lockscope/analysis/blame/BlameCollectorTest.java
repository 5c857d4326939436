package dev.lockscope.analysis.blame;

import dev.lockscope.analysis.model.ThreadRef;
import dev.lockscope.core.LockId;
import dev.lockscope.core.LockKind;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/** Owner blame's memory follows places, not lock objects (issue 41): a place's objects past 64 are summed as it. */
class BlameCollectorTest {
    private static final ThreadRef WAITER = new ThreadRef(7, 70, "worker-7");
    private static final ThreadRef OWNER = new ThreadRef(8, 80, "worker-8");
    private static final List<String> AT_ROW_LOCK = List.of("java.lang.Object.wait", "com.example.RowLocks.waitForGrant:118",
            "com.example.Dao.update:40");
    private static final List<String> AT_PAGE = List.of("java.lang.Object.wait", "com.example.Page.latch:12");

    private static BlameResult blame(boolean fold, int rowLocks) {
        BlameCollector out = new BlameCollector(fold);
        Cause owner = new Cause(OWNER, List.of("com.example.Dao.commit:55"), OwnerChain.SAMPLED);
        for (int i = 0; i < rowLocks; i++) {
            out.contention(LockId.waitOn("com.example.RowLock", 0x1000 + i), WAITER, AT_ROW_LOCK, 1_000L * i, 10, owner, false);
        }
        out.contention(LockId.waitOn("com.example.Page", 0x9000), WAITER, AT_PAGE, 5, 3, owner, false);
        return out.result(Map.of());
    }

    @Test
    void aPlacesObjectsPastTheBoundAreSummedAsThePlace() {
        BlameResult folded = blame(true, 1000);
        Set<LockId> locks = folded.contentions().stream().map(Contention::lock).collect(Collectors.toSet());
        LockId place = new LockId(LockKind.WAIT, "com.example.RowLock", "at com.example.RowLocks.waitForGrant:118");
        assertThat(locks).contains(place, LockId.waitOn("com.example.Page", 0x9000))
                .hasSize(BlameCollector.OBJECTS_PER_PLACE + 2);
        Contention atPlace = folded.contentions().stream().filter(c -> c.lock().equals(place)).findFirst().orElseThrow();
        assertThat(atPlace.count()).isEqualTo(1000 - BlameCollector.OBJECTS_PER_PLACE);
        // nothing is lost: every span is in exactly one record
        assertThat(folded.contentions().stream().mapToLong(Contention::nanos).sum()).isEqualTo(1000 * 10 + 3);
    }

    @Test
    void everyObjectApartWithInstancesOrUnderTheBound() {
        assertThat(blame(false, 1000).contentions()).hasSize(1001);
        assertThat(blame(true, BlameCollector.OBJECTS_PER_PLACE).contentions()).hasSize(BlameCollector.OBJECTS_PER_PLACE + 1)
                .allMatch(c -> !c.lock().id().startsWith("at "));
    }
}
