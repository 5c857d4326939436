package dev.lockscope.report.rules;

/** What a wait was: the findings lead with contention; idle time is shown apart, per pool. */
public enum WaitClass {
    /** Waiting for a resource another thread held: a lock, or a monitor or condition used as one. */
    CONTENTION("contention"),
    /** A worker waiting for work: pool and executor queues, selectors, schedulers, latch and termination waits. */
    IDLE("idle"),
    /** Neither rule applied. */
    OTHER("other");

    private final String label;

    WaitClass(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }
}
