package dev.lockscope.agent.boot;

/** lockscope's own threads, ended when profiling stops so that an attach cycle leaves none behind. */
final class OwnThreads {
    private OwnThreads() {
    }

    /**
     * Interrupts {@code t} (null: nothing) and waits up to a second for it to end; not when it is the
     * caller. The threads hold no lock the caller could need.
     */
    static void end(Thread t) {
        if (t != null && t != Thread.currentThread()) {
            t.interrupt();
            try {
                t.join(1_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
