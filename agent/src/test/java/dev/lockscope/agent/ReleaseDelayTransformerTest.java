package dev.lockscope.agent;

import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.util.CheckClassAdapter;

import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.locks.ReentrantLock;

import static org.assertj.core.api.Assertions.assertThat;

class ReleaseDelayTransformerTest {
    private static final String HOOK = "dev/lockscope/agent/boot/ReleaseDelay";

    /** The shapes of a release: a synchronized block, a j.u.c unlock, a synchronized method with two returns. */
    static final class Fixture {
        private final Object monitor = new Object();
        private final ReentrantLock lock = new ReentrantLock();
        private int n;

        void block() {
            synchronized (monitor) {
                n++;
            }
        }

        void juc() {
            lock.lock();
            try {
                n++;
            } finally {
                lock.unlock();
            }
        }

        synchronized int method(boolean early) {
            if (early) {
                return 1;
            }
            return n;
        }

        void other() {
            synchronized (monitor) {
                n--;
            }
        }
    }

    private static byte[] fixture() throws Exception {
        try (InputStream in = Fixture.class.getResourceAsStream("ReleaseDelayTransformerTest$Fixture.class")) {
            return in.readAllBytes();
        }
    }

    private static byte[] instrument(String site) throws Exception {
        ReleaseDelayTransformer t = new ReleaseDelayTransformer(site);
        byte[] out = t.transform(null, null, "dev/lockscope/agent/ReleaseDelayTransformerTest$Fixture", null, null, fixture());
        assertThat(t.failure()).isNull();
        if (out != null) {
            StringWriter problems = new StringWriter();
            CheckClassAdapter.verify(new ClassReader(out), false, new PrintWriter(problems));
            assertThat(problems.toString()).isEmpty();
        }
        return out;
    }

    @Test
    void everyReleaseInTheChosenMethodWaitsFirstAndNoOtherMethodChanges() throws Exception {
        // javac's monitorexit on the normal path and on the exception path
        assertThat(InjectedCalls.of(instrument("ReleaseDelayTransformerTest$Fixture.block"), HOOK))
                .containsExactly("block->beforeRelease", "block->beforeRelease");
        assertThat(InjectedCalls.of(instrument("Fixture.juc"), HOOK)).containsExactly("juc->beforeRelease", "juc->beforeRelease");
        assertThat(InjectedCalls.of(instrument("dev.lockscope.agent.ReleaseDelayTransformerTest$Fixture.method"), HOOK))
                .containsExactly("method->beforeRelease", "method->beforeRelease");
    }

    /** A delay below a microsecond is spun and measured: never shorter than asked, each release counted. */
    @Test
    void aSubMicrosecondDelayWaitsAtLeastWhatWasAsked() {
        long releases = dev.lockscope.agent.boot.ReleaseDelay.releases();
        long waited = dev.lockscope.agent.boot.ReleaseDelay.delayedNanos();
        dev.lockscope.agent.boot.ReleaseDelay.configure(100);
        try {
            for (int i = 0; i < 1_000; i++) {
                dev.lockscope.agent.boot.ReleaseDelay.beforeRelease();
            }
        } finally {
            dev.lockscope.agent.boot.ReleaseDelay.configure(0);
        }
        assertThat(dev.lockscope.agent.boot.ReleaseDelay.releases() - releases).isEqualTo(1_000);
        assertThat(dev.lockscope.agent.boot.ReleaseDelay.delayedNanos() - waited).isGreaterThanOrEqualTo(100_000);
    }

    @Test
    void anotherClassOrMethodIsLeftAlone() throws Exception {
        assertThat(instrument("Fixture.nowhere")).isNull();
        assertThat(instrument("OtherFixture.block")).isNull();
        assertThat(new ReleaseDelayTransformer("Fixture.block").selects("dev.lockscope.agent.MyFixture")).isFalse();
    }
}
