package dev.lockscope.analysis.profile;

import dev.lockscope.analysis.model.CpuSample;
import dev.lockscope.analysis.model.Interval;
import dev.lockscope.analysis.model.MonitorEnter;
import dev.lockscope.analysis.model.ParkWait;
import dev.lockscope.analysis.model.RecordingInfo;
import dev.lockscope.analysis.model.ThreadRef;
import dev.lockscope.core.EventNames;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ProfileAnalysisTest {
    private static final long MS = 1_000_000;
    private static final ThreadRef WORKER = new ThreadRef(7, 70, "worker");
    private static final List<String> COMPUTE = List.of("app.Work.compute:10", "app.Work.run:5");
    private static final List<String> LOCKED = List.of("app.Work.locked:20", "app.Work.run:6");
    private static final List<String> SLEEPING = List.of("java.lang.Thread.sleep:-1", "app.Work.nap:30", "app.Work.run:7");

    /** The hand-built sequence of one thread, 20 ms period, times in ms from 0. */
    private static Profiles profile() {
        ProfileAnalysis a = new ProfileAnalysis();
        a.cpuSamplingPeriod(20 * MS);
        // running in compute: samples at 0, 20, 40; blocked on a monitor 50..150 (in locked)
        a.cpuSample(new CpuSample(WORKER, 0, COMPUTE));
        a.cpuSample(new CpuSample(WORKER, 20 * MS, COMPUTE));
        a.cpuSample(new CpuSample(WORKER, 40 * MS, COMPUTE));
        a.monitorEnter(new MonitorEnter(WORKER, "app.Lock", 0xab, 50 * MS, 150 * MS, null, LOCKED));
        // compute again: the first sample 160 ms (10 ms after the wait), then 180; a sleep 190..290
        a.cpuSample(new CpuSample(WORKER, 160 * MS, COMPUTE));
        a.cpuSample(new CpuSample(WORKER, 180 * MS, COMPUTE));
        a.sleep(new Interval(EventNames.THREAD_SLEEP, WORKER, 190 * MS, 290 * MS, SLEEPING));
        // a park still open when the recording ends at 400
        a.parkBegin(new ParkWait(WORKER, "app.Gate", 0x1f, 300 * MS, ParkWait.OPEN, 0, 0, false, 0, null, 0, 0, LOCKED));
        a.finish(new RecordingInfo(null, 0, 400 * MS, Map.of()));
        return a.result();
    }

    @Test
    void runningSamplesWeighTheTimeToTheNextSampleOrWaitAndWaitsTheirDurations() {
        Profiles p = profile();
        CallTree<String> wall = p.tree(true, "worker");
        Map<List<String>, Long> edges = wall.edgeWeights();
        // 20 + 20 + 10 (until the wait) + 10 (since the wait) + 20 + 10 (until the sleep) = 90 ms running
        assertThat(edges.get(List.of("app.Work.run", "app.Work.compute"))).isEqualTo(90 * MS);
        assertThat(edges.get(List.of("app.Work.run", "app.Work.locked", "[blocked on app.Lock]"))).isEqualTo(100 * MS);
        assertThat(edges.get(List.of("app.Work.run", "app.Work.nap", "java.lang.Thread.sleep", "[sleeping]"))).isEqualTo(100 * MS);
        assertThat(edges.get(List.of("app.Work.run", "app.Work.locked", "[parked on app.Gate]"))).isEqualTo(100 * MS);
        assertThat(p.wallRunningNanos()).isEqualTo(90 * MS);
        assertThat(wall.totalWeight()).isEqualTo(390 * MS); // 400 ms less the 10 ms between the sleep and the park: unrecorded
        assertThat(p.periodFromRecording()).isTrue();
    }

    /** A sampled park (weight 5: recorded with probability 1/5) stands for five times its length of off-CPU time. */
    @Test
    void aSampledParksTimeCountsItsWeightTimes() {
        ProfileAnalysis a = new ProfileAnalysis();
        a.cpuSamplingPeriod(20 * MS);
        a.parkEnd(new ParkWait(WORKER, "app.Gate", 0x1f, 0, 2 * MS, 0, 1, false, 0, null, 0, 0, LOCKED, false, 5, 0));
        a.parkEnd(new ParkWait(WORKER, "app.Gate", 0x1f, 10 * MS, 13 * MS, 1, 2, false, 0, null, 0, 0, LOCKED));
        a.finish(new RecordingInfo(null, 0, 20 * MS, Map.of()));
        Map<List<String>, Long> edges = a.result().tree(true, "worker").edgeWeights();
        assertThat(edges.get(List.of("app.Work.run", "app.Work.locked", "[parked on app.Gate]"))).isEqualTo(5 * 2 * MS + 3 * MS);
    }

    /**
     * Idle parks come without a stack: their time goes under the blocker's first stack, from its summary; a
     * sampled one counts its weight times.
     */
    @Test
    void idleParksStandUnderTheirBlockersFirstStackLabelledAsSuch() {
        ProfileAnalysis a = new ProfileAnalysis();
        a.cpuSamplingPeriod(20 * MS);
        List<String> poll = List.of("java.util.concurrent.LinkedBlockingQueue.take:435",
                "java.util.concurrent.ThreadPoolExecutor.getTask:1062", "java.lang.Thread.run:833");
        String queue = "java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject";
        a.parkEnd(new ParkWait(WORKER, queue, 0x2c, 0, 30 * MS, 0, 1, false, 0, null, 0, 0, poll)); // the first, with its stack
        a.parkEnd(new ParkWait(WORKER, queue, 0x2c, 40 * MS, 100 * MS, 1, 2, false, 0, null, 0, 0, List.of(), true));
        a.parkEnd(new ParkWait(WORKER, queue, 0x2c, 110 * MS, 150 * MS, 2, 3, false, 0, null, 0, 0, List.of(), true));
        // a 2 ms idle park sampled (recorded with p = 2/10 below 10 ms): it stands for 10 ms
        a.parkEnd(new ParkWait(WORKER, queue, 0x2c, 160 * MS, 162 * MS, 3, 4, false, 0, null, 0, 0, List.of(), true,
                ParkWait.weightOf(10 * MS, 2 * MS), 0));
        a.lockSummary(new dev.lockscope.analysis.model.LockSummary(200 * MS, queue, 0x2c, 0, true, 3, 0, 1, 130 * MS,
                130 * MS, 200 * MS, "worker", poll, 0, 0, 1));
        a.finish(new RecordingInfo(null, 0, 200 * MS, Map.of()));
        Map<List<String>, Long> edges = a.result().tree(true, "worker").edgeWeights();
        List<String> path = List.of("java.lang.Thread.run", "java.util.concurrent.ThreadPoolExecutor.getTask",
                "java.util.concurrent.LinkedBlockingQueue.take");
        assertThat(edges.get(concat(path, "[parked on " + queue + "]"))).isEqualTo(30 * MS);
        assertThat(edges.get(concat(path, "[parked on " + queue + ", idle: first park's stack]"))).isEqualTo(110 * MS);
    }

    private static List<String> concat(List<String> path, String leaf) {
        List<String> out = new java.util.ArrayList<>(path);
        out.add(leaf);
        return out;
    }

    @Test
    void theCpuProfileCountsSamplesAndTheGroupIsTheOutermostFrameOfTheWhole() {
        Profiles p = profile();
        assertThat(p.cpuSamples()).isEqualTo(5);
        assertThat(p.cpu().edgeWeights()).containsExactly(Map.entry(List.of("worker", "app.Work.run", "app.Work.compute"), 5L));
        assertThat(p.wall().totalWeight()).isEqualTo(p.tree(true, "worker").totalWeight());
    }

    @Test
    void withoutThePeriodInTheRecordingTheDefaultIsAssumed() {
        ProfileAnalysis a = new ProfileAnalysis();
        a.cpuSample(new CpuSample(WORKER, 0, COMPUTE));
        a.finish(new RecordingInfo(null, 0, 1000 * MS, Map.of()));
        assertThat(a.result().periodFromRecording()).isFalse();
        assertThat(a.result().samplingPeriodNanos()).isEqualTo(ProfileAnalysis.DEFAULT_PERIOD_NANOS);
        // nothing bounds the only sample before the recording's end, 1 s: it stands for the longest gap
        assertThat(a.result().wallRunningNanos()).isEqualTo(ProfileAnalysis.MAX_GAP_PERIODS * ProfileAnalysis.DEFAULT_PERIOD_NANOS);
    }

    @Test
    void manySamplesOfOneThreadAreWeighedAsTheyComeWithTheSameResult() {
        ProfileAnalysis a = new ProfileAnalysis();
        a.cpuSamplingPeriod(20 * MS);
        int n = ProfileAnalysis.HELD_SAMPLES * 3;
        for (int i = 0; i < n; i++) {
            a.cpuSample(new CpuSample(WORKER, i * 20 * MS, COMPUTE));
            if (i % 100 == 99) { // a 5 ms sleep 10 ms after every 100th sample
                a.sleep(new Interval(EventNames.THREAD_SLEEP, WORKER, i * 20 * MS + 10 * MS, i * 20 * MS + 15 * MS, SLEEPING));
            }
        }
        a.finish(new RecordingInfo(null, 0, n * 20 * MS, Map.of()));
        // every sample 20 ms, except the one before each sleep (10) and the one after (20, and 5 since the sleep)
        long sleeps = n / 100;
        assertThat(a.result().wallRunningNanos()).isEqualTo(n * 20 * MS - sleeps * 5 * MS);
    }

    @Test
    void framesAreMethodsAndLambdaClassesLoseTheirGeneratedSuffix() {
        assertThat(ProfileAnalysis.method("app.Work.run:12")).isEqualTo("app.Work.run");
        assertThat(ProfileAnalysis.method("app.Main$$Lambda$128+0x00007f40840c5b98.1201484275.run"))
                .isEqualTo("app.Main$$Lambda.run");
        assertThat(ProfileAnalysis.method("app.Main$$Lambda.0x00007f40840c5b98.run:-1")).isEqualTo("app.Main$$Lambda.run");
        assertThat(ProfileAnalysis.method("java.lang.Thread.sleep")).isEqualTo("java.lang.Thread.sleep");
    }

    @Test
    void aSampleStandsUntilTheSamplerLookedAndDidNotFindTheThreadOrItsNextSampleIfTheSamplerWasLate() {
        ThreadRef other = new ThreadRef(8, 80, "other");
        ProfileAnalysis a = new ProfileAnalysis();
        a.cpuSamplingPeriod(20 * MS);
        // the sampler finds worker at 0 and 60 (late: nothing between), other at 100, 120, 140; worker again at 160
        for (long t : new long[] {0, 60}) {
            a.cpuSample(new CpuSample(WORKER, t * MS, COMPUTE));
        }
        for (long t : new long[] {100, 120, 140}) {
            a.cpuSample(new CpuSample(other, t * MS + 50_000, COMPUTE));
        }
        a.cpuSample(new CpuSample(WORKER, 160 * MS, COMPUTE));
        a.finish(new RecordingInfo(null, 0, 170 * MS, Map.of()));
        // worker: 0 → 60 (no tick between), 60 → 100.05 (the sampler looked and did not find it), 160 → 170
        assertThat(a.result().tree(true, "worker").totalWeight()).isEqualTo(60 * MS + 40 * MS + 50_000 + 10 * MS);
    }
}
