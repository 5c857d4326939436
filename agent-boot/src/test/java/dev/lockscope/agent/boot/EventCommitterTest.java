package dev.lockscope.agent.boot;

import org.junit.jupiter.api.Test;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The committing thread of the virtual-thread hooks ends when profiling stops, and starts again with the next activation. */
class EventCommitterTest {
    private static boolean committerRuns() {
        return Thread.getAllStackTraces().keySet().stream()
                .anyMatch(t -> t.isAlive() && t.getName().equals("lockscope-virtual-thread-events"));
    }

    private static void runsATask() throws InterruptedException {
        CountDownLatch ran = new CountDownLatch(2);
        EventCommitter.every10ms("test task", ran::countDown);
        assertThat(ran.await(10, TimeUnit.SECONDS)).as("the task runs every 10 ms").isTrue();
        assertThat(committerRuns()).isTrue();
    }

    @Test
    void stopLeavesNoThreadAndTheNextActivationStartsOne() throws InterruptedException {
        runsATask();
        EventCommitter.stop(); // joins the thread
        assertThat(committerRuns()).as("no lockscope thread after the stop").isFalse();
        runsATask(); // an attach after the stop
        EventCommitter.stop();
        assertThat(committerRuns()).isFalse();
    }
}
