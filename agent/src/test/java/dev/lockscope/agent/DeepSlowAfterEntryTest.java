package dev.lockscope.agent;

import dev.lockscope.agent.boot.DeepHooks;
import dev.lockscope.agent.boot.DeepLockRecord;
import dev.lockscope.agent.boot.DeepSites;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * SLOW found after the entry: the probes' check before a monitorenter reads the owner racily, so a thread
 * whose entry another thread beats after its check (the check saw the lock free) must still count slow.
 * The probes are called here as the instrumented code calls them, the interleaving scripted.
 */
class DeepSlowAfterEntryTest {
    private static int site;

    @BeforeAll
    static void activate() {
        DeepHooks.activate(1_000);
        site = DeepSites.register("test.Race.enter:1", "monitor");
    }

    /** gets, non-recursive, slow, recursive, waits, notifies, sections, try failures, blocked of one object. */
    private static long[] counts(Object lock) {
        for (DeepLockRecord r : DeepHooks.records()) {
            if (r.identityHash == System.identityHashCode(lock) && !r.isDead()) {
                return r.counts();
            }
        }
        throw new AssertionError("no record of " + lock);
    }

    private static void enterAndExit(Object lock) {
        synchronized (lock) {
            DeepHooks.postEnter();
            DeepHooks.preExit(lock);
        }
    }

    @Test
    void anEntryBeatenAfterItsCheckIsSlow() throws Exception {
        Object lock = new Object();
        DeepHooks.preEnter(lock, site); // the check: nobody holds it
        Thread other = new Thread(() -> {
            DeepHooks.preEnter(lock, site);
            enterAndExit(lock);
        });
        other.start();
        other.join(); // took the lock between this thread's check and its entry
        enterAndExit(lock);
        long[] c = counts(lock);
        assertThat(c[0]).as("gets").isEqualTo(2);
        assertThat(c[2]).as("slow").isEqualTo(1);
        assertThat(c[8]).as("blocked: this thread never blocked").isZero();
    }

    @Test
    void entriesNobodyBeatAreNotSlow() {
        Object lock = new Object();
        for (int i = 0; i < 3; i++) {
            DeepHooks.preEnter(lock, site);
            enterAndExit(lock);
        }
        long[] c = counts(lock);
        assertThat(c[0]).as("gets").isEqualTo(3);
        assertThat(c[2]).as("slow").isZero();
    }
}
