package dev.lockscope.analysis.whatif;

import dev.lockscope.core.LockId;
import dev.lockscope.analysis.model.MonitorEnter;
import dev.lockscope.analysis.model.ParkWait;
import dev.lockscope.analysis.model.RecordingInfo;
import dev.lockscope.analysis.model.ThreadRef;
import dev.lockscope.analysis.model.Unpark;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class HoldTraceTest {
    private static final String RL = "java.util.concurrent.locks.ReentrantLock$NonfairSync";
    private static final String SEMAPHORE = "java.util.concurrent.Semaphore$NonfairSync";
    private static final ThreadRef T1 = new ThreadRef(1, 11, "t1"), T2 = new ThreadRef(2, 12, "t2"),
            T3 = new ThreadRef(3, 13, "t3");
    private static final List<String> AT_SERVICE = List.of("java.util.concurrent.locks.ReentrantLock.lock:1",
            "app.Service.update:42", "app.Main.main:7");

    private static ParkWait park(ThreadRef t, String blocker, long begin, long end, long ownerTid) {
        return new ParkWait(t, blocker, 1, begin, end, 0, 1, false, ownerTid, null, 0, 0, AT_SERVICE);
    }

    private static LockTrace trace(java.util.function.Consumer<HoldTrace> events) {
        HoldTrace trace = new HoldTrace();
        events.accept(trace);
        trace.finish(new RecordingInfo(null, 0, 1000, Map.of(1L, T1, 2L, T2, 3L, T3)));
        return trace.result();
    }

    @Test
    void aWaitAndTheReleaseAfterItAreOneHold() {
        LockTrace trace = trace(t -> {
            t.parkEnd(park(T1, RL, 10, 20, 2));
            t.unpark(new Unpark(T1, 30, 1, 2, "t2", RL, 1, AT_SERVICE));
        });

        assertThat(trace.locks()).containsExactly(LockId.blocker(RL, 1));
        assertThat(trace.holds()).containsExactly(List.of(new Hold(0, 10, 20, 30, "app.Service.update:42", true, true)));
    }

    @Test
    void endsNobodyWaitedForAreOneTypicalHoldAway() {
        LockTrace trace = trace(t -> {
            t.parkEnd(park(T1, RL, 10, 20, 2)); // held 20..30, seen whole: the typical hold is 10
            t.unpark(new Unpark(T1, 30, 1, 2, "t2", RL, 1, AT_SERVICE));
            t.unpark(new Unpark(T2, 100, 1, 1, "t1", RL, 1, AT_SERVICE)); // acquired by t2 with nobody waiting
            t.parkEnd(park(T3, RL, 200, 210, 1)); // released by t3 with nobody waiting
        });

        assertThat(trace.holds().get(1)).containsExactly(new Hold(0, 90, 90, 100, "app.Service.update:42", false, true));
        assertThat(trace.holds().get(2)).containsExactly(new Hold(0, 200, 210, 220, "app.Service.update:42", true, false));
    }

    @Test
    void anEstimatedEndStaysBeforeTheNextLockTheThreadAsksFor() {
        LockTrace trace = trace(t -> {
            t.monitorEnter(new MonitorEnter(T2, "app.A", 1, 0, 10, T3, AT_SERVICE));
            t.monitorEnter(new MonitorEnter(T3, "app.A", 1, 5, 110, T2, AT_SERVICE)); // t2 held A 10..110: typical 100
            t.monitorEnter(new MonitorEnter(T2, "app.A", 1, 200, 300, T3, AT_SERVICE)); // release not seen
            t.monitorEnter(new MonitorEnter(T2, "app.B", 2, 320, 330, null, AT_SERVICE)); // then t2 asks for B
        });

        assertThat(trace.holds().get(0)).contains(new Hold(0, 200, 300, 320, "app.Service.update:42", true, false));
    }

    @Test
    void aMonitorReleaseSeenLateIsBeforeTheReleasingThreadsNextRequest() {
        LockTrace trace = trace(t -> {
            t.monitorEnter(new MonitorEnter(T1, "app.A", 1, 0, 100, null, AT_SERVICE));
            t.monitorEnter(new MonitorEnter(T1, "app.B", 2, 150, 400, null, AT_SERVICE)); // t1 asks for B at 150...
            t.monitorEnter(new MonitorEnter(T2, "app.A", 1, 50, 170, T1, AT_SERVICE)); // ...t2 gets A 20 ns later
        });

        // t1 held A from 100 to 150, when it asked for B: not while waiting for B
        assertThat(trace.holds().get(0)).startsWith(new Hold(0, 0, 100, 150, "app.Service.update:42", true, true));
    }

    @Test
    void aMonitorReleaseSeenWhileTheReleaserWaitsForItAgainEndsTheEarlierHold() {
        LockTrace trace = trace(t -> {
            t.monitorEnter(new MonitorEnter(T1, "app.A", 1, 0, 100, T3, AT_SERVICE)); // t1 holds A from 100
            t.monitorEnter(new MonitorEnter(T1, "app.A", 1, 130, 400, T3, AT_SERVICE)); // asks again at 130, gets it at 400
            t.monitorEnter(new MonitorEnter(T2, "app.A", 1, 50, 160, T1, AT_SERVICE)); // t2 gets A from t1 at 160
        });

        // t1 had let A go by 130 (it blocked on A then); the release seen at 160 is not the end of the hold from 400
        assertThat(trace.holds().get(0)).startsWith(new Hold(0, 0, 100, 130, "app.Service.update:42", true, true));
        assertThat(trace.holds().get(0).get(1)).matches(h -> h.grantNanos() == 400 && h.releaseNanos() >= 400, "hold from 400");
    }

    @Test
    void aMonitorEntrySoonAfterAGrantIsANewAcquisition() {
        LockTrace trace = trace(t -> {
            t.monitorEnter(new MonitorEnter(T1, "app.A", 1, 10, 20, T3, AT_SERVICE));
            t.monitorEnter(new MonitorEnter(T2, "app.A", 1, 15, 30, T1, AT_SERVICE)); // t1 released A at 30
            t.monitorEnter(new MonitorEnter(T1, "app.A", 1, 35, 50, T2, AT_SERVICE)); // and blocked on it again 5 ns later
        });

        assertThat(trace.holds().get(0)).hasSize(2).first().isEqualTo(new Hold(0, 10, 20, 30, "app.Service.update:42", true, true));
    }

    @Test
    void aParkAgainAfterLosingTheLockIsTheSameAcquisition() {
        LockTrace trace = trace(t -> {
            t.parkEnd(park(T1, RL, 10, 20, 2));
            t.parkEnd(park(T1, RL, 25, 40, 3)); // woken, barged, parked again 5 ns later
            t.unpark(new Unpark(T1, 50, 1, 2, "t2", RL, 1, AT_SERVICE));
        });

        assertThat(trace.holds().get(0)).containsExactly(new Hold(0, 10, 40, 50, "app.Service.update:42", true, true));
    }

    @Test
    void aMonitorIsReleasedByThePreviousOwnerWhenTheNextWaiterGetsIt() {
        LockTrace trace = trace(t -> {
            t.monitorEnter(new MonitorEnter(T2, "app.Catalog", 0x7f00, 40, 50, T1, AT_SERVICE));
            t.monitorEnter(new MonitorEnter(T3, "app.Catalog", 0x7f00, 45, 70, T2, AT_SERVICE));
        });

        assertThat(trace.threads()).containsExactly(T1, T2, T3);
        assertThat(trace.holds().get(1)).containsExactly(new Hold(0, 40, 50, 70, "app.Service.update:42", true, true));
        // t1's acquisition was not seen: one typical hold (20) before its release, no earlier than the recording
        assertThat(trace.holds().get(0)).containsExactly(new Hold(0, 30, 30, 50, null, false, true));
    }

    @Test
    void blockersWithoutAnOwnerAreNotModelled() {
        LockTrace trace = trace(t -> {
            t.parkEnd(park(T1, SEMAPHORE, 10, 20, 0));
            t.unpark(new Unpark(T2, 20, 1, 1, "t1", SEMAPHORE, 1, AT_SERVICE));
        });

        assertThat(trace.holds()).isEmpty();
    }
}
