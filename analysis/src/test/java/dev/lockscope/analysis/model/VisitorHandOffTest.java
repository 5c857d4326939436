package dev.lockscope.analysis.model;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The reading on a thread of its own hands the visitors exactly the calls it made, on the caller's thread. */
class VisitorHandOffTest {
    private static final ThreadRef T = new ThreadRef(1, 1, "t", false);
    private static final RecordingInfo INFO = new RecordingInfo(Path.of("x.jfr"), 0, 10, Map.of(), List.of(), Set.of());

    /** Notes every call and the thread it came on. */
    private static final class Log implements RecordingVisitor, RecordingReader.ThreadVisitor {
        final List<String> calls = new ArrayList<>();
        final Set<Thread> threads = new java.util.HashSet<>();

        private void note(String call) {
            calls.add(call);
            threads.add(Thread.currentThread());
        }

        @Override
        public void parkBegin(ParkWait open) {
            note("begin " + open.beginNanos());
        }

        @Override
        public void parkEnd(ParkWait ended) {
            note("end " + ended.endNanos());
        }

        @Override
        public void unpark(Unpark u) {
            note("unpark " + u.timeNanos());
        }

        @Override
        public void cpuSample(CpuSample s) {
            note("sample " + s.timeNanos());
        }

        @Override
        public void cpuSamplingPeriod(long nanos) {
            note("period " + nanos);
        }

        @Override
        public void virtualThreadCarriers(int count) {
            note("carriers " + count);
        }

        @Override
        public void thread(ThreadRef t) {
            note("thread " + t.name());
        }

        @Override
        public void finish(RecordingInfo info) {
            note("finish " + info.endNanos());
        }
    }

    /** Several batches' worth of calls of every shape, the same on any visitors it is given. */
    private static RecordingInfo script(List<RecordingVisitor> visitors, List<RecordingReader.ThreadVisitor> threadVisitors) {
        for (RecordingReader.ThreadVisitor t : threadVisitors) {
            t.thread(T);
        }
        for (RecordingVisitor v : visitors) {
            v.cpuSamplingPeriod(20_000_000);
        }
        for (int i = 0; i < 30_000; i++) {
            ParkWait p = new ParkWait(T, "L", 1, i, i + 5, 0, 0, false, 0, null, 0, 0, List.of());
            for (RecordingVisitor v : visitors) {
                v.parkBegin(p.asOpen());
                v.unpark(new Unpark(T, i + 4, 0, 1, "t", "L", 1, List.of()));
                v.parkEnd(p);
                if (i % 1000 == 0) {
                    v.cpuSample(new CpuSample(T, i, List.of()));
                }
            }
        }
        for (RecordingVisitor v : visitors) {
            v.virtualThreadCarriers(4);
            v.finish(INFO);
        }
        return INFO;
    }

    @Test
    void theVisitorsGetTheSameCallsInTheSameOrderOnTheCallersThread() throws Exception {
        Log direct = new Log();
        script(List.of(direct), List.of(direct));
        Log handedOff = new Log();
        RecordingInfo info = VisitorHandOff.read(List.of(handedOff), VisitorHandOffTest::script);
        assertThat(info).isSameAs(INFO);
        assertThat(handedOff.calls).hasSize(direct.calls.size()).isEqualTo(direct.calls);
        assertThat(handedOff.threads).containsExactly(Thread.currentThread());
    }

    @Test
    void aFailureOfTheReadingIsThrownOnTheCallersThreadAfterTheCallsBeforeIt() {
        Log log = new Log();
        IOException failure = new IOException("disk gone");
        assertThatThrownBy(() -> VisitorHandOff.read(List.of(log), (visitors, threads) -> {
            for (RecordingVisitor v : visitors) {
                v.cpuSamplingPeriod(7);
            }
            throw failure;
        })).isSameAs(failure);
        assertThat(log.calls).containsExactly("period 7");

        RecordingException damaged = new RecordingException("damaged", null);
        assertThatThrownBy(() -> VisitorHandOff.read(List.of(log), (visitors, threads) -> {
            throw damaged;
        })).isSameAs(damaged);
    }

    @Test
    void aFailingVisitorStopsTheReadingThread() throws Exception {
        AtomicReference<Thread> reader = new AtomicReference<>();
        RecordingVisitor failing = new RecordingVisitor() {
            @Override
            public void parkEnd(ParkWait ended) {
                throw new IllegalStateException("visitor broke");
            }
        };
        assertThatThrownBy(() -> VisitorHandOff.read(List.of(failing), (visitors, threads) -> {
            reader.set(Thread.currentThread());
            return script(visitors, threads); // blocks once the queue is full, until it sees the caller gave up
        })).isInstanceOf(IllegalStateException.class).hasMessage("visitor broke");
        reader.get().join(60_000); // a liveness bound, not a timing: the thread must end at all
        assertThat(reader.get().isAlive()).isFalse();
    }

    /**
     * Every call a visitor can receive is written down by the reading side: a visitor method added without it
     * would be a default no-op there, and its events would never reach the analyses (DeepRelease once did).
     */
    @Test
    void theReadingSideForwardsEveryVisitorCall() throws Exception {
        Class<?> recorder = Class.forName(VisitorHandOff.class.getName() + "$Recorder");
        for (java.lang.reflect.Method m : RecordingVisitor.class.getMethods()) {
            if (!java.lang.reflect.Modifier.isStatic(m.getModifiers())) {
                assertThat(recorder.getDeclaredMethod(m.getName(), m.getParameterTypes()))
                        .as("VisitorHandOff.Recorder forwards " + m.getName()).isNotNull();
            }
        }
    }
}
